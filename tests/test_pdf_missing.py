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
