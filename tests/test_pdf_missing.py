"""Issue 39 item 2: PDF output where WeasyPrint's Pango cannot be loaded is checked before any work.

A real process, with a stub ``weasyprint`` package first on PYTHONPATH that prints a banner and
raises the OSError WeasyPrint raises when cffi cannot load Pango.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import said

ROOT = Path(__file__).resolve().parent.parent
SMALL = ROOT / "examples" / "workshop" / "paraphrase"

STUB = """print("WeasyPrint could not import some external libraries. Please carefully follow")
raise OSError(
    "cannot load library 'libpango-1.0-0': libpango-1.0-0: cannot open shared object file: "
    "No such file or directory"
)
"""


def _run(tmp_path: Path, *args: str, pango: bool) -> subprocess.CompletedProcess:
    path = [str(ROOT)]
    if not pango:
        stub = tmp_path / "stub" / "weasyprint"
        stub.mkdir(parents=True)
        (stub / "__init__.py").write_text(STUB)
        path.insert(0, str(stub.parent))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    return subprocess.run(
        [sys.executable, "-m", "compreport", "report", str(SMALL), "-B", "200", "-q", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def _files(out: Path) -> set[str]:
    return {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}


def test_default_formats_without_pango_skip_pdf_with_one_note(tmp_path):
    out = tmp_path / "out"
    r = _run(tmp_path, "-o", str(out), pango=False)
    assert r.returncode == 0, r.stderr
    assert r.stdout == ""  # nothing of WeasyPrint's (its banner) on stdout
    notes = [x for x in said(r.stderr) if x.startswith("note:")]
    assert len(notes) == 1, r.stderr
    assert "PDF output skipped" in notes[0] and "libpango-1.0-0" in notes[0]
    for advice in (
        "sudo apt install libpango-1.0-0",
        "conda install -c conda-forge pango",
        "brew install pango",
    ):
        assert advice in notes[0]
    assert "make demo" not in r.stderr
    written = _files(out)
    for name in (
        "results.json",
        "index.html",
        "paraphrase/report.html",
        "appendix.tex",
        "paraphrase/tables/leaderboard.tex",
        "paraphrase/figures/ci-f1.svg",
    ):
        assert name in written
    assert "overview.pdf" not in written and "paraphrase/report.pdf" not in written
    assert not any(n.startswith("paraphrase/teams/") for n in written)


def test_format_pdf_without_pango_is_one_error_before_any_work(tmp_path):
    out = tmp_path / "out"
    r = _run(tmp_path, "--format", "json,pdf", "-o", str(out), pango=False)
    assert r.returncode == 2
    assert r.stdout == ""
    lines = said(r.stderr)
    assert len(lines) == 1 and lines[0].startswith("error: PDF output: Pango"), r.stderr
    assert "sudo apt install libpango-1.0-0" in lines[0] and "brew install pango" in lines[0]
    assert "leave pdf out of --format" in lines[0]
    assert not out.exists()


def test_with_pango_the_pdfs_are_written(tmp_path):  # the good twin
    out = tmp_path / "out"
    r = _run(tmp_path, "--format", "json,pdf", "-o", str(out), pango=True)
    assert r.returncode == 0, r.stderr
    assert not [x for x in said(r.stderr) if x.startswith(("note:", "error:"))], r.stderr
    written = _files(out)
    assert {"overview.pdf", "paraphrase/report.pdf"} <= written
    assert any(n.startswith("paraphrase/teams/") for n in written)


# ------------------------------------------------------------------ Report.write in Python (API)

#: A Python API session: analyse one demo competition, write it, print the notes and the files.
API = """
import json, sys, warnings
import compreport as cr
a = cr.analyze(cr.load_demo("stance-eu"), bootstrap=200, seed=0)
kwargs = json.loads(sys.argv[2])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        written = cr.Report(a).write(sys.argv[1], **kwargs)
        error = None
    except cr.InputError as exc:
        written, error = [], str(exc)
notes = [str(w.message) for w in caught if issubclass(w.category, cr.errors.Note)]
print(json.dumps({"notes": notes, "written": [str(p) for p in written], "error": error}))
"""


def _api(tmp_path: Path, pango: bool = True, latex: bool = True, **kwargs) -> dict:
    """Run :data:`API` in a fresh Python: without Pango (a stub ``weasyprint``), without
    ``latexmk`` and ``pdflatex`` (a PATH holding neither), or both."""
    import json

    path = [str(ROOT)]
    if not pango:
        stub = tmp_path / "stub" / "weasyprint"
        stub.mkdir(parents=True)
        (stub / "__init__.py").write_text(STUB)
        path.insert(0, str(stub.parent))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    if not latex:
        (tmp_path / "bin").mkdir()
        env["PATH"] = str(tmp_path / "bin")
    r = subprocess.run(
        [sys.executable, "-c", API, str(tmp_path / "out"), json.dumps(kwargs)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr
    assert "not found: wrote appendix.tex" not in r.stderr  # the late check, now never reached
    return json.loads(r.stdout.splitlines()[-1])


def test_api_default_formats_without_pango_skip_pdf_with_one_note(tmp_path):
    """`Report.write` with its default formats does as the command line: PDF is skipped with one
    note naming the commands that install Pango, and everything else is written."""
    got = _api(tmp_path, pango=False, figure_formats="svg", compile_pdf=False)
    assert got["error"] is None
    assert len(got["notes"]) == 1, got["notes"]
    assert got["notes"][0].startswith("PDF output skipped: Pango could not be loaded")
    assert "sudo apt install libpango-1.0-0" in got["notes"][0]
    written = {Path(p).relative_to(tmp_path / "out").as_posix() for p in got["written"]}
    assert {"results.json", "index.html", "stance-eu/report.html", "appendix.tex"} <= written
    assert not [n for n in written if n.endswith(".pdf")]
    assert all(Path(p).is_file() for p in got["written"])


def test_api_pdf_named_without_pango_is_an_error_before_any_work(tmp_path):
    got = _api(tmp_path, pango=False, formats="json,pdf")
    assert got["error"].startswith("PDF output: Pango could not be loaded"), got
    assert "leave pdf out of `formats`" in got["error"]
    assert not (tmp_path / "out").exists()


def test_api_without_latexmk_writes_the_appendix_uncompiled_with_one_note(tmp_path):
    got = _api(tmp_path, latex=False, formats="json,latex", figure_formats=())
    assert got["error"] is None
    assert got["notes"] == [
        "appendix.pdf skipped: latexmk and pdflatex not found; install them (Debian: `sudo apt "
        "install latexmk texlive-latex-extra`; conda-forge: `conda install -c conda-forge "
        "texlive-core latexmk`; macOS: MacTeX (`brew install --cask mactex`)); appendix.tex is "
        "written without compiling it"
    ]
    names = {Path(p).name for p in got["written"]}
    assert "appendix.tex" in names and "appendix.pdf" not in names
    assert not (tmp_path / "out" / "appendix.pdf").exists()


def test_cli_without_latexmk_says_so_once_before_any_work(tmp_path):
    (tmp_path / "bin").mkdir()
    out = tmp_path / "out"
    r = subprocess.run(
        [sys.executable, "-m", "compreport", "report", str(SMALL), "-B", "200", "-q"]
        + ["--format", "json,latex", "--figure-formats", "svg", "-o", str(out)],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT), "PATH": str(tmp_path / "bin")},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr
    lines = said(r.stderr)
    assert len([x for x in lines if x.startswith("note:")]) == 1, r.stderr
    # the first line, before the analysis's warning (B = 200 is too few for 21 comparisons)
    assert lines[0].startswith("note: appendix.pdf skipped: latexmk and pdflatex not found")
    assert "with B = 200" in lines[-1]
    assert "sudo apt install latexmk" in lines[0]
    assert (out / "appendix.tex").is_file() and not (out / "appendix.pdf").exists()
