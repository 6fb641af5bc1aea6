"""End to end: `compreport report` writes every format of the output layout, reproducibly.

test_report_writes_every_format_and_is_byte_identical is the suite's one run of every format
(json, LaTeX with the compiled appendix, HTML, PDF, figures) with ``--jobs 1``, then of what worker
processes make (figures, PDFs) with ``--jobs 2``: it also holds the byte-identity checks of the
LaTeX tables, figures and PDFs across worker counts. Other tests read numbers with
``--format json`` or call one renderer."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_cli, words_beyond_margins

needs_tex = pytest.mark.skipif(shutil.which("latexmk") is None, reason="latexmk not installed")


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``compreport ARGS`` in this process (:func:`conftest.run_cli`: the same ``main()``;
    ``--jobs 2`` forks workers from it), so the renderers' imports are paid once per suite, not
    once per run."""
    return run_cli(cwd, *args)


@pytest.mark.slow
@needs_tex
def test_report_writes_every_format_and_is_byte_identical(two_competitions, tmp_path):
    outs = []
    # every format in one process, then what workers make (figures, PDFs) by two workers
    for name, jobs, formats in (
        ("a", "1", ()),
        ("b", "2", ("--format", "latex,pdf", "--no-compile")),
    ):
        res = _run(
            "report",
            str(two_competitions),
            "-o",
            str(tmp_path / name),
            "-B",
            "1000",
            "--jobs",
            jobs,
            *formats,
            cwd=tmp_path,
        )
        assert res.returncode == 0, res.stderr
        assert "error:" not in res.stderr
        outs.append(tmp_path / name)
        if name == "a":
            printed = res.stdout.splitlines()
    a, b = outs
    assert str(a / "results.json") in printed and str(a / "appendix.pdf") in printed
    files = sorted(str(p.relative_to(a)) for p in a.rglob("*") if p.is_file())
    expected = [
        "results.json",
        "appendix.tex",
        "appendix.pdf",
        "references.bib",
        "index.html",
        "overview.pdf",
        "summary/competitiveness.tex",
        "summary/competitiveness.csv",
        "summary/legend.tex",
        "summary/competitiveness.pdf",
        "summary/competitiveness.svg",
        "detox-binary/report.html",
        "detox-binary/report.pdf",
        "detox-binary/tables/leaderboard.tex",
        "detox-binary/tables/ci.tex",
        "detox-binary/tables/pairs-f1.tex",
        "detox-binary/tables/pvalues-f1.tex",
        "detox-binary/tables/diff-best-f1.tex",
        "detox-binary/figures/ci-f1.pdf",
        "detox-binary/figures/diff-f1.svg",
        "detox-binary/figures/dist-f1.pdf",
        "stance-eu/report.html",
        "stance-eu/tables/leaderboard.tex",
    ]
    for rel in expected:
        assert rel in files, rel
    teams = [f for f in files if f.startswith("detox-binary/teams/")]
    data = json.loads((a / "results.json").read_text())
    comp = next(c for c in data["competitions"] if c["id"] == "detox-binary")
    runs = [s for s in comp["systems"] if s not in comp["baselines"]]
    # one letter per team
    assert len(teams) == len({comp["teams"][s] or s for s in runs}) < len(runs)

    # the PDFs read back: report.pdf names every system (the hostile names as given), a team's
    # letter has a page per run and names the winner
    def pdf_text(path, *pages):
        pages_text = subprocess.run(
            ["pdftotext", *pages, str(path), "-"], capture_output=True, text=True, check=True
        ).stdout
        return re.sub(r"\s+", "", pages_text)

    report = pdf_text(a / "detox-binary/report.pdf")
    assert all(re.sub(r"\s+", "", s) in report for s in comp["systems"])
    toxi = next(a / f for f in teams if "toxihunters" in f)
    assert "ToxiHunters.01" in pdf_text(toxi, "-f", "1", "-l", "1")
    assert "ToxiHunters.02" in pdf_text(toxi, "-f", "2", "-l", "2")
    # nothing runs into the margins: the 11-column pair matrix and the differences from the best
    # fit the portrait page; letters may shrink to 10 mm margins
    for pdf in [a / "overview.pdf", a / "detox-binary/report.pdf", *(a / f for f in teams)]:
        assert not words_beyond_margins(pdf, 10 if "teams" in pdf.parts else 14), (
            pdf,
            words_beyond_margins(pdf),
        )
    info = subprocess.run(["pdfinfo", str(toxi)], capture_output=True, text=True, check=True).stdout
    assert re.search(r"^Pages:\s+2$", info, re.M) and comp["metrics"][0]["best"] in pdf_text(toxi)
    # the same inputs and seed give the same files, byte for byte, whatever --jobs: every file the
    # second run writes (LaTeX tables, figures drawn by workers, every PDF and team sheet rendered
    # by workers; not its manifest, which names other formats): the renderers' own tests rely on
    # this check
    in_b = sorted(
        str(p.relative_to(b)) for p in b.rglob("*") if p.is_file() and p.name != ".compreport.json"
    )
    assert set(in_b) <= set(files) and "appendix.pdf" not in in_b and "index.html" not in in_b
    assert {
        "overview.pdf",
        "detox-binary/report.pdf",
        "detox-binary/figures/dist-f1.pdf",
        "detox-binary/figures/dist-f1.svg",
        "appendix.tex",
        *teams,
    } <= set(in_b)
    for rel in in_b:
        assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel
    # the appendix: settings come from the analysis (-B 1000, not the default 10,000), methods cite
    text = re.sub(
        r"\s+",
        " ",
        subprocess.run(
            ["pdftotext", str(a / "appendix.pdf"), "-"], capture_output=True, text=True
        ).stdout,
    )
    assert "10,000" not in text and "1,000 paired bootstrap resamples" in text
    # the default test is the two-sided bootstrap (Efron & Tibshirani), not the paper's one-sided
    # one (Berg-Kirkpatrick et al.), and the verdicts' max-T step-down cites its two sources in one
    # parenthesis
    assert (
        "two-sided paired bootstrap test" in text
        and "Berg-Kirkpatrick" not in text
        and "ToxiHunters.01" in text
    )
    assert "(Westfall and Young, 1993; Romano and Wolf, 2005)" in text
    bib = (a / "references.bib").read_text()
    assert (
        "@book{efron1993" in bib and "@article{holm1979" in bib and "bergkirkpatrick2012" not in bib
    )
    assert "@book{westfall1993" in bib and "@article{romano2005" in bib
    first = (a / "detox-binary/tables/leaderboard.tex").read_text().splitlines()[0]
    assert first.startswith("% compreport") and "B=1000" in first and "seed=0" in first


def test_json_only_imports_no_renderer(two_competitions, tmp_path):
    code = (
        "import sys; from compreport.cli import main; "
        "rc = main(['report', sys.argv[1], '-o', sys.argv[2], '-B', '200', '--format', 'json', "
        "'-q']); "
        "bad = [m for m in ('matplotlib', 'weasyprint', 'pylatex', 'jinja2', "
        "'compreport.report.latex.renderer', 'compreport.report.figures.gallery') "
        "if m in sys.modules]; print(rc, bad)"
    )
    res = subprocess.run(
        [sys.executable, "-c", code, str(two_competitions), str(tmp_path / "o")],
        capture_output=True,
        text=True,
    )
    assert res.stdout.strip().splitlines()[-1] == "0 []", res.stdout + res.stderr
    ids = [
        c["id"]
        for c in json.loads((tmp_path / "o/results.json").read_text(encoding="utf-8"))[
            "competitions"
        ]
    ]
    assert sorted(p.name for p in (tmp_path / "o").iterdir()) == sorted(
        [".compreport.json", "results.json", "summary", *ids]
    )


def test_decimal_comma_without_latex_is_noted(two_competitions, tmp_path):
    res = _run(
        "report",
        str(two_competitions),
        "-o",
        str(tmp_path / "o"),
        "-B",
        "50",
        "--format",
        "json",
        "--decimal-comma",
        cwd=tmp_path,
    )
    assert res.returncode == 0, res.stderr
    assert [x for x in res.stderr.splitlines() if "--decimal-comma" in x] == [
        "note: --decimal-comma applies to the LaTeX, HTML and PDF outputs and the e-mails, and "
        "--format has none of them: it changes nothing here (results.json, the CSV files and "
        "Markdown keep the decimal point)"
    ]


def test_bad_render_options_fail_before_any_work(two_competitions, tmp_path):
    # an option is never taken from a prefix (--diff for --diff-decimals): a new option cannot
    # change a script
    for args, words in (
        (["--figure-formats", "gif"], "gif"),
        (["--decimals", "12"], "--decimals"),
        (["--diff", "2"], "unrecognized arguments: --diff"),
        (["--format", "docx"], "docx"),
        (["--format="], "got nothing"),
        (
            ["--format", "json,html", "--emails", "addresses.csv"],
            "--emails attaches the team letters: add pdf to --format",
        ),
    ):
        res = _run("report", str(two_competitions), "-o", str(tmp_path / "o"), *args, cwd=tmp_path)
        assert res.returncode == 2, res.stderr
        lines = [x for x in res.stderr.splitlines() if x.strip()]
        assert len(lines) == 1 and lines[0].startswith("error:") and words in lines[0]
        assert not (tmp_path / "o").exists()
