"""The Python API examples of the README and of docs/api.md run, print what the pages show, and
give the CLI's results.json."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from conftest import run_cli

#: Runs the documented examples end to end: slow (skipped by `pytest -m "not slow"`).
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
API_PAGE = ROOT / "docs" / "api.md"
RESULTS_PAGE = ROOT / "docs" / "results-json.md"


def _section(text: str, title: str) -> str:
    """The body of the ``## title`` section of a Markdown text (up to the next ``## `` heading)."""
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, flags=re.M | re.S)
    assert m, f"no '## {title}' section"
    return m.group(1)


def _blocks(section: str, lang: str) -> list[str]:
    """The fenced code blocks of ``lang`` in a section, in order."""
    return re.findall(rf"^```{lang}\n(.*?)^```\n", section, flags=re.M | re.S)


def _run_example(page: Path, title: str, cwd: Path):
    """Run the one Python block of a page's ``## title`` section in ``cwd``.

    Returns (namespace, printed text, the section). ``cwd`` holds a link to ``examples/``, so the
    example's paths, relative to the repository root, resolve without running (and writing) in the
    repository itself. The example must run without a warning (a reader would see it).
    """
    section = _section(page.read_text(encoding="utf-8"), title)
    code = _blocks(section, "python")
    assert len(code) == 1, f"{page.name}: the '{title}' section has one runnable example"
    (cwd / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    namespace: dict = {"__name__": "__readme__"}
    out = io.StringIO()
    old = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), warnings.catch_warnings():
            warnings.simplefilter("error")
            exec(compile(code[0], f"{page.name} ({title})", "exec"), namespace)
    finally:
        os.chdir(old)
    return namespace, out.getvalue(), section


@pytest.fixture(scope="module")
def readme(tmp_path_factory):
    """The README's Python API example: (namespace, printed text, section, directory)."""
    cwd = tmp_path_factory.mktemp("readme")
    namespace, printed, section = _run_example(README, "Python API", cwd)
    yield namespace, printed, section, cwd
    shutil.rmtree(namespace["out"], ignore_errors=True)  # the example's tempfile.mkdtemp()


@pytest.fixture(scope="module")
def api_page(tmp_path_factory):
    """docs/api.md's first analysis: (namespace, printed text, section, directory)."""
    cwd = tmp_path_factory.mktemp("api-page")
    namespace, printed, section = _run_example(API_PAGE, "A first analysis", cwd)
    yield namespace, printed, section, cwd
    shutil.rmtree(namespace["out"], ignore_errors=True)


def _table_rows(printed: str, header_start: str) -> dict[str, dict[str, str]]:
    """The rows of the printed Markdown table whose header starts with ``header_start``, by
    system name (markup such as ``*baseline*`` kept)."""
    lines = printed.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header_start))
    header = [cell.strip() for cell in lines[start].strip("|").split("|")]
    rows = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = dict(zip(header, (cell.strip() for cell in line.strip("|").split(" | "))))
        rows[cells["System"]] = cells
    return rows


@pytest.mark.parametrize("example", ["readme", "api_page"])
def test_example_prints_what_the_page_shows(example, request):
    _, printed, section, _ = request.getfixturevalue(example)
    shown = _blocks(section, "text")
    assert shown, "the page shows what the example prints"
    assert printed.rstrip("\n") == shown[0].rstrip("\n")


def test_readme_prose_matches_the_leaderboard(readme):
    """ParaNLP.02 is tied with the best although its interval lies below the best's score."""
    namespace, printed, section, _ = readme
    rows = _table_rows(printed, "| Rank | Rank set | System |")
    best, second = rows["SiameseTwins.01"], rows["ParaNLP.02"]
    marks = best["Marks"].split(", "), second["Marks"].split(", ")
    assert marks[0][0] == "best" and marks[1][0] == "tied with best", (best, second)
    high = float(second["CI"].replace("\\", "").strip("[]").split(",")[1])
    assert high < float(best["accuracy"].strip("*")), (best, second)
    prose = " ".join(section.split("```")[-1].split())
    assert 'ParaNLP.02 is "tied with best" although its interval lies entirely below' in prose
    pairs = namespace["analysis"].pairs(competition="paraphrase")
    assert f"hold α = 0.05 for all {len(pairs)} pairs at once" in prose
    low, high = (x.split("–") for x in (best["Rank set"], second["Rank set"]))
    assert (
        f"the winner's true rank is {low[0]} to {low[1]} and ParaNLP.02's {high[0]} to {high[1]}"
        in prose
    )


def test_readme_rows_carry_their_undecided_verdicts(readme):
    """Each undecided pair of the printed leaderboard is marked on both its rows (counted: no row
    has two), and the prose names the pairs; a row with no undecided verdict carries no such
    mark."""
    namespace, printed, section, _ = readme
    rows = _table_rows(printed, "| Rank | Rank set | System |")
    (comp,) = [c for c in namespace["analysis"].competitions if c.id == "paraphrase"]
    undecided = [(c.a, c.b) for c in comp.primary.pairs if c.settled is False]
    assert len(undecided) == 2  # the README says "Two verdicts"
    prose = " ".join(section.split("```")[-1].split())
    assert "Two verdicts are within the Monte-Carlo error of α" in prose
    want = {name: 0 for name in rows}
    for a, b in undecided:
        want[_shown(rows, a)] += 1
        want[_shown(rows, b)] += 1
        named = [x.replace("baseline.overlap", "the baseline") for x in (a, b)]
        assert f"{named[0]} vs {named[1]}" in prose, (a, b)
    for name, row in rows.items():
        said = [m for m in row["Marks"].split(", ") if m.endswith(" undecided")]
        assert said == ([f"{want[name]} undecided"] if want[name] else []), (name, row, want[name])


def _shown(rows: dict, system: str) -> str:
    """The key of ``system``'s row (a baseline is shown in italics)."""
    return system if system in rows else f"*{system}*"


def test_api_page_prose_quotes_its_tables(api_page):
    _, printed, section, _ = api_page
    shown = _blocks(section, "text")[0]
    # the prose after the tables quotes ParaNLP.02's row of the differences: the same numbers
    cells = _table_rows(printed, "| System | Difference")["ParaNLP.02"]
    prose = " ".join(section.split(shown)[1].split())
    quoted = re.search(
        r"raw p-value of (\S+) .*?`p \(verdict\)` = (\S+) ≥ 0\.05, its max-T column; Holm over "
        r"the same pairs gives (\S+)\)",
        prose,
    )
    assert cells["max-T"] == cells["p (verdict)"] and cells["Significant"] == "no", cells
    assert quoted and quoted.groups() == (cells["p"], cells["p (verdict)"], cells["Holm"]), (
        quoted,
        cells,
    )
    # and so does the results.json page
    later = " ".join(RESULTS_PAGE.read_text(encoding="utf-8").split())
    quoted = re.findall(
        r"ParaNLP\.02 has `p_value` (\S+) and `p_adjusted` (\S+) \(its `p_maxt`\),", later
    )
    assert quoted == [(cells["p"], cells["p (verdict)"])], (quoted, cells)


def _check_written(namespace) -> None:
    """The example's report.write() wrote inside its folder, results.json included, equal to the
    analysis."""
    written = [Path(p) for p in namespace["written"]]
    out = Path(namespace["out"])
    assert out / "results.json" in written and all(
        p.is_file() and out in p.parents for p in written
    )
    analysis = namespace["analysis"]
    assert json.loads((out / "results.json").read_text(encoding="utf-8")) == analysis.to_dict()


def test_readme_objects(readme):
    import compreport as cr

    namespace, _, _, _ = readme
    analysis = namespace["analysis"]
    assert isinstance(analysis, cr.Analysis)
    assert list(namespace["board"]["system"])[0] == analysis.competition("paraphrase").primary.best
    _check_written(namespace)


def test_api_page_objects(api_page, readme):
    from matplotlib.figure import Figure

    import compreport as cr

    namespace, _, _, _ = api_page
    analysis = namespace["analysis"]
    assert isinstance(analysis, cr.Analysis)
    assert list(namespace["board"]["system"])[0] == analysis.competition("paraphrase").primary.best
    assert len(namespace["pairs"]) == 8 * 7 // 2
    assert len(namespace["summary"]) == len(analysis.competitions)
    assert (
        "\\begin{table}" in namespace["latex"] and "longtable" not in namespace["latex"]
    )  # row-split floats
    assert isinstance(namespace["fig"], Figure) and namespace["fig"]._repr_png_().startswith(
        b"\x89PNG"
    )
    _check_written(namespace)
    # the page says its numbers are the README's (and so the CLI's below)
    assert analysis.to_dict() == readme[0]["analysis"].to_dict()


def test_readme_example_equals_the_cli(readme, tmp_path):
    """The CLI with the example's settings, run from the same directory, writes the same
    results.json."""
    namespace, _, _, cwd = readme
    analysis = namespace["analysis"]
    s = analysis.settings
    out = tmp_path / "cli"
    res = run_cli(
        cwd,
        "report",
        "examples/workshop",
        "-B",
        str(s.bootstrap),
        "--seed",
        str(s.seed),
        "--format",
        "json",
        "-o",
        str(out),
    )
    assert res.returncode == 0, res.stderr
    assert json.loads((out / "results.json").read_text(encoding="utf-8")) == analysis.to_dict()


def test_report_is_exported_and_import_stays_light():
    import compreport as cr
    from compreport.report import Report

    assert cr.Report is Report and "Report" in cr.__all__
    code = (
        "import sys, compreport; heavy = {'pandas', 'matplotlib', 'jinja2', 'statsmodels', "
        "'scipy', 'weasyprint', 'pylatex'} & set(sys.modules); assert not heavy, heavy"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
