"""The organizer's report.pdf read back as text (pdftotext) and as pixels (pdftoppm): page 1 is the
leaderboard with its teams, the differences from the best show the one p-value behind each verdict,
and the pages lay out cleanly (running header, no orphan heading, no broken relation, one number
format, no near-empty page); the overview of one competition does not repeat itself. A 48- and a
150-system competition (benchmarks/organizer.py) are read back the same way."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pytest

from compreport.inputs.spec import Options, load_inputs
from compreport.report.model import Format
from compreport.report.pages import html as htmlreport
from compreport.resources import demo_workshop_dir
from compreport.settings import Settings
from compreport.stats.analysis import analyze_competition
from compreport.stats.results import Analysis
from conftest import make_competition

ROOT = Path(__file__).resolve().parents[1]


def _organizer():
    """benchmarks/organizer.py as a module (the benchmarks folder is not a package)."""
    spec = importlib.util.spec_from_file_location("organizer", ROOT / "benchmarks/organizer.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _tool(name):
    if shutil.which(name) is None:
        pytest.skip(f"{name} (poppler-utils) not installed")
    return name


def _page_texts(pdf: Path, layout: bool = True) -> list[str]:
    """The text of each page of ``pdf`` (pdftotext, one call; pages split at form feeds)."""
    args = [_tool("pdftotext"), "-enc", "UTF-8", *(["-layout"] if layout else []), str(pdf), "-"]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return out.split("\f")[:-1]


def _body(page: str) -> list[str]:
    """A page's lines without the running header (the first line) and the page number (the
    last), stripped, blank ones dropped."""
    lines = [x.strip() for x in page.splitlines() if x.strip()]
    assert re.fullmatch(r"\d+ / \d+", lines[-1]), lines[-1]
    return lines[1:-1]


@pytest.fixture(scope="module")
def demo():
    """detox-binary (12 systems, 2 baselines, ToxiHunters with two runs) and ratings-mae of the
    demo workshop, B = 500."""
    comps = load_inputs([str(demo_workshop_dir())], Options()).competitions
    settings = Settings(bootstrap=500, refine=False)
    keep = [c for c in comps if c.id in ("detox-binary", "ratings-mae")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return Analysis(settings, [analyze_competition(c, settings, progress=False) for c in keep])


@pytest.fixture(scope="module")
def pdfs(demo, tmp_path_factory):
    """detox-binary's report.pdf and the workshop overview, as `compreport report` writes them."""
    pytest.importorskip("weasyprint")
    from compreport.report.pages import pdf

    out = tmp_path_factory.mktemp("organizer")
    pdf.write_pdf(Analysis(demo.settings, demo.competitions[:1]), out)
    return out


def _headings(page_html: str) -> tuple[list[str], list[str]]:
    """The h2 and the h3 texts of a page, tags stripped."""

    def texts(tag):
        found = re.findall(rf"<{tag}[^>]*>(.*?)</{tag}>", page_html, re.S)
        return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", t)).strip() for t in found]

    return texts("h2"), texts("h3")


# ------------------------------------------------------------------------------------- page 1


@pytest.mark.slow
def test_page_one_is_the_leaderboard_with_the_teams(demo, pdfs):
    comp = demo.competitions[0]
    pages = _page_texts(pdfs / comp.id / "report.pdf")
    first = "\n".join(_body(pages[0]))
    assert "Leaderboard" in first and "Teams ranked by their best run" in first
    # the teams' ranking: each team once, by its best run, in the stored order
    lines = first.splitlines()
    at = [
        next(
            i
            for i, x in enumerate(lines)
            if re.match(rf"{t.rank}\s+{re.escape(t.team)}\s+{re.escape(t.runs[0])}\s", x)
        )
        for t in comp.team_ranks
    ]
    assert at == sorted(at) and at[-1] - at[0] == len(at) - 1  # one row each, in order
    # its marks: "best", then any undecided verdicts counted ("best, 1 undecided")
    assert re.search(rf"\s{len(comp.team_ranks[0].runs)}\s+best(,|$)", lines[at[0]]), lines[at[0]]
    # the runs' leaderboard on the same page: every run, with its team in a column
    at = next(i for i, x in enumerate(lines) if x.startswith("Rank") and "95% CI" in x)
    assert lines[at].split()[:3] == ["Rank", "System", "Team"]
    for s in comp.systems:
        # its row, not a mark naming it ("undecided vs S" on another row)
        line = next(x for x in lines[at:] if f" {s} " in f" {x} ".replace(f" vs {s} ", " "))
        # a baseline is in no team; a run without a team is a team of one, shown by its name
        team = "–" if s in comp.baselines else (comp.teams.get(s) or s)
        assert team in line.replace(s, "", 1), line


def test_no_team_column_when_the_teams_are_the_runs(demo):
    """Twin: runs without teams (each its own team of one) get no team column and no teams'
    ranking; the demo's runs get both."""
    rng = np.random.default_rng(2)
    gold = rng.integers(0, 2, 120)
    preds = np.array([np.where(rng.random(120) < 0.6 + 0.1 * i, gold, 1 - gold) for i in range(3)])
    settings = Settings(bootstrap=200, refine=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        solo = analyze_competition(
            make_competition(gold, preds, systems=["alpha", "beta", "gamma"]), settings
        )
    page = htmlreport.competition_html(Analysis(settings, [solo]), solo)
    assert '<table class="teams' not in page and ">Team<" not in page
    # (the Team column's header may carry a class: hidden on a phone until asked for)
    team_th = re.compile(r"<th( class=\"[^\"]*\")?>Team</th>")
    # teams of one run each, named apart from their runs: a team column, no teams' ranking
    solo.teams = {"alpha": "A", "beta": "B", "gamma": "C"}
    solo.team_ranks = []
    solo.__post_init__()
    page = htmlreport.competition_html(Analysis(settings, [solo]), solo)
    assert '<table class="teams' not in page and team_th.search(page)
    page = htmlreport.competition_html(demo, demo.competitions[0])
    assert '<table class="teams' in page and team_th.search(page)


@pytest.mark.slow
def test_differences_show_the_one_p_value_behind_each_verdict(demo, pdfs):
    comp = demo.competitions[0]
    text = "\n".join(_page_texts(pdfs / comp.id / "report.pdf"))
    headers = [x.split() for x in text.splitlines() if x.strip().startswith("System  ")]
    diffs = [h for h in headers if "Difference" in h]
    assert len(diffs) == len(comp.metrics)  # one table per metric, its header once (one page)
    for h in diffs:
        assert h == ["System", "Difference", "CI", "low", "CI", "high", "p", "(verdict)"] + [
            "Significant"
        ], h
    # no other p-value column and no list of every pair's p-values on the pages: they are in
    # pairs-<metric>.csv (tests/test_exports.py) and the LaTeX appendix
    for word in ("MC SE", "Settled", "Pairwise p-values", "System A", "max-T   "):
        assert word not in text, word
    assert not re.search(r"Bonferroni\s+Holm\s+BH", text)
    # the verdicts are the stored ones
    for c in comp.primary.vs_best:
        line = next(x for x in text.splitlines() if x.strip().startswith(c.b + " "))
        said = "undecided" if c.undecided else "yes" if c.significant else "no"
        assert line.split()[-1] == said, line
        assert Format().p(c.p_adjusted) in line.split(), line


# ----------------------------------------------------------------------------------- the pages


@pytest.mark.slow
def test_pages_lay_out_cleanly(demo, pdfs):
    """Running header = the page's first h2 (else the last before it); no page ends with a heading;
    no relation broken across lines; fewer pages than the 14 of the report with every p-value."""
    comp = demo.competitions[0]
    pdf = pdfs / comp.id / "report.pdf"
    pages = _page_texts(pdf)
    assert len(pages) <= 10, len(pages)
    from compreport.report.figures.gallery import Gallery

    h2, h3 = _headings(htmlreport.competition_html(demo, comp, gallery=Gallery(demo), for_pdf=True))
    in_force = None
    for k, page in enumerate(pages, 1):
        lines = [x.strip() for x in page.splitlines() if x.strip()]
        header = lines[0]
        body = _body(page)
        on_page = [x for x in body if x in h2]
        expected = on_page[0] if on_page else in_force  # the first, else the last one before
        assert header.endswith(expected), (k, header, expected)
        in_force = on_page[-1] if on_page else in_force
        assert body[-1] not in h2 + h3, (k, body[-3:])
    raw = "\n".join(_page_texts(pdf, layout=False))
    for line in raw.splitlines():
        assert not re.search(r"(^|\s)(α|p|n|m|B)\s*(=|<)\s*$", line), line
        assert not re.match(r"\s*(=|<)\s*[\d.,<]", line), line
    assert "α = 0.05" in raw.replace("\u00a0", " ")


@pytest.mark.slow
def test_no_near_empty_page(demo, pdfs, tmp_path):
    """Every page but the last is at least 40 % full (its last ink above the footer), the landscape
    pair-matrix page among them: matrices are split into blocks of columns on portrait pages and
    flow with the text."""
    from PIL import Image

    comp = demo.competitions[0]
    pdf = pdfs / comp.id / "report.pdf"
    subprocess.run(
        [_tool("pdftoppm"), "-r", "30", "-gray", "-png", str(pdf), str(tmp_path / "p")], check=True
    )
    pngs = sorted(tmp_path.glob("p*.png"))
    sizes = subprocess.run(["pdfinfo", "-l", "99", str(pdf)], capture_output=True, text=True).stdout
    assert not [w for w, h in re.findall(r"size:\s+([\d.]+) x ([\d.]+)", sizes) if w > h]
    for png in pngs[:-1]:
        img = np.asarray(Image.open(png))
        body = img[int(img.shape[0] * 0.05) : int(img.shape[0] * 0.93)]  # header and footer out
        inked = np.nonzero((body < 200).any(axis=1))[0]
        assert inked[-1] / body.shape[0] >= 0.4, (png.name, inked[-1] / body.shape[0])


def test_pdf_matrix_blocks_fit_a_portrait_page():
    """The matrix's columns per block follow the width of its cells: 25 systems in three portrait
    blocks of 8 at 3 decimals (every pair once, columns by position), fewer columns with more
    decimals; twin: the web page keeps one block."""
    rng = np.random.default_rng(1)
    n, m = 150, 25
    gold = rng.integers(0, 2, n)
    preds = np.array([np.where(rng.random(n) < 0.5 + 0.015 * i, gold, 1 - gold) for i in range(m)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ca = analyze_competition(
            make_competition(gold, preds, cid="wide"), Settings(bootstrap=200, refine=False)
        )
    ctx = htmlreport.matrix_context(ca, ca.primary, Format(), for_pdf=True)
    blocks = ctx["blocks"]
    assert not ctx["named"]
    assert [len(b["columns"]) for b in blocks] == [8, 8, 8]  # portrait pages
    assert (
        sum(c is not None for b in blocks for r in b["rows"] for c in r["cells"])
        == m * (m - 1) // 2
    )  # every pair once
    wide = htmlreport.matrix_context(ca, ca.primary, Format(diff_decimals=7), for_pdf=True)
    assert [len(b["columns"]) for b in wide["blocks"]] == [6, 6, 6, 6]
    assert len(htmlreport.matrix_context(ca, ca.primary, Format(), for_pdf=False)["blocks"]) == 1


@pytest.mark.slow
def test_one_number_format_for_thousands(demo, pdfs):
    """n = 1,950 is written 1,950 everywhere on the overview: in the competitions' table and in the
    competitiveness summary (which wrote 1950)."""
    assert demo.competitions[0].n == 1950
    text = "\n".join(_page_texts(pdfs / "overview.pdf"))
    assert text.count("1,950") >= 2 and not re.search(r"(?<![\d,.])1950(?![\d,])", text)


def test_one_competition_overview_does_not_repeat_itself(demo):
    """Without challenge, task or language the summary has no such heading rows (they repeated the
    name three times) and no workshop figure (one bar per chart); twin: the demo's two
    competitions keep both."""
    from compreport.report.figures.gallery import Gallery

    rng = np.random.default_rng(4)
    gold = rng.integers(0, 2, 200)
    preds = np.array([np.where(rng.random(200) < 0.6 + 0.1 * i, gold, 1 - gold) for i in range(3)])
    settings = Settings(bootstrap=200, refine=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        one = Analysis(
            settings, [analyze_competition(make_competition(gold, preds, cid="truth"), settings)]
        )
    page = htmlreport.index_html(one, gallery=Gallery(one))
    summary = page[
        page.index('<table class="summary">') : page.index(
            "</table>", page.index('<table class="summary">')
        )
    ]
    assert ">Challenge<" not in summary and ">Task<" not in summary and ">Language<" not in summary
    assert summary.count(">truth<") == 1
    assert 'id="workshop-figure"' not in page and "<svg" not in page
    assert "Challenge &middot; task" not in page
    page = htmlreport.index_html(demo, gallery=Gallery(demo))
    assert ">Challenge<" in page and ">Language<" in page and 'id="workshop-figure"' in page


def test_relations_are_glued_in_pdf_and_web_pages(demo):
    comp = demo.competitions[0]
    for for_pdf in (True, False):
        page = htmlreport.competition_html(demo, comp, for_pdf=for_pdf)
        assert "&alpha;\u00a0=\u00a00.05" in page and "&alpha; = 0.05" not in page
        assert "n\u00a0=\u00a01,950" in page


# -------------------------------------------------------------------------- 48 and 150 systems


def _first_page(teams: int, tmp_path: Path) -> tuple[Analysis, str]:
    """The analysis of benchmarks/organizer.py's ``teams`` teams and page 1 of its report.pdf as
    text in reading order (pdftotext without -layout: one cell after the other)."""
    pytest.importorskip("weasyprint")
    organizer = _organizer()
    a = organizer.analysis(teams, bootstrap=200)
    pdf = organizer.report_pdf(a, tmp_path / "report.pdf")
    return a, _page_texts(pdf, layout=False)[0]


@pytest.mark.slow
@pytest.mark.parametrize("teams", [16, 50])
def test_many_systems_page_one(teams, tmp_path):
    """48 and 150 runs of 16 and 50 teams: page 1 holds the teams' ranking from the winner down,
    each team by its best run in the stored order (all 16 teams at 48 runs, and the leaderboard
    begins on it; at least 25 of the 50 at 150)."""
    a, first = _first_page(teams, tmp_path)
    comp = a.competitions[0]
    assert len(comp.systems) == 3 * teams + 1
    flat = re.sub(r"\s+", " ", first)
    assert f"rank among the {teams} teams" in flat
    # a row's cells, one per line (the rank may share the team's line: narrow gutters)
    cells = [re.sub(r"^\d+ ", "", x.strip()) for x in first.splitlines() if x.strip()]
    shown = []
    for t in comp.team_ranks:  # a team's row: its name, then its best run (names unwrapped)
        at = [
            i
            for i in range(len(cells) - 1)
            if (cells[i] == t.team or cells[i].startswith(t.team + " "))
            and t.runs[0] in " ".join(cells[i : i + 6])  # its row, in pdftotext's reading order
        ]
        if not at:
            break
        shown.append(at[0])
    assert shown == sorted(shown) and shown, (shown, cells[:40])  # from the winner down
    if teams == 16:
        assert len(shown) == 16 and "Leaderboard ranked by" in flat
    else:  # the rest on page 2: with B = 200 many groups wrap over two lines
        assert len(shown) >= 25, len(shown)
