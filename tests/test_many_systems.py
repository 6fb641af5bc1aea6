"""Reports of competitions with many systems (more than ``model.MANY_SYSTEMS``): the pairs become a
heat map and a CSV file, tables keep the comparisons with the best, the PDF starts with the
leaderboard."""

from __future__ import annotations

import csv
import shutil
import subprocess
import warnings

import numpy as np
import pytest

from compreport.report import Report, model
from compreport.report.figures.heatmaps import pairs_plot
from compreport.report.pages import pdf
from compreport.settings import Settings
from compreport.stats.analysis import analyze
from conftest import make_competition

M = model.MANY_SYSTEMS + 1


@pytest.fixture(scope="module")
def many(tmp_path_factory):
    rng = np.random.default_rng(11)
    n = 300
    gold = rng.integers(0, 3, n)
    preds = np.stack(
        [
            np.where(rng.random(n) < q, rng.integers(0, 3, n), gold)
            for q in np.linspace(0.05, 0.7, M)
        ]
    )
    comp = make_competition(
        gold,
        preds,
        systems=[f"Team{i:02d}.run1" for i in range(M)],
        metrics=["macro_f1"],
        cid="crowd",
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # no correction: with B = 400 some pairs earn every mark, so the heat map has something to
        # show
        analysis = analyze(
            [comp], Settings(bootstrap=400, refine=False, correction="none"), progress=False
        )
    out = tmp_path_factory.mktemp("many") / "out"
    report = Report(analysis)
    report.write(out, "json,latex,html", figure_formats="pdf,svg", compile_pdf=False, jobs=1)
    # report.pdf alone, with the figures drawn above: the 26 team letters and the overview are not
    # read here (the end-to-end test in test_report_cli.py writes them)
    pdf.write_report(
        analysis,
        analysis.competitions[0],
        report.format,
        report.gallery,
        out / "crowd" / "report.pdf",
    )
    return analysis, out


@pytest.mark.slow
def test_pairs_go_to_csv_and_a_heat_map_not_to_tables(many):
    analysis, out = many
    comp = analysis.competitions[0]
    for stem in ("macro-f1",):
        with open(out / "crowd" / f"pairs-{stem}.csv", newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        assert len(rows) == M * (M - 1) // 2
        assert {"system_a", "system_b", "p_raw", "p_adjusted", "significant"} <= set(rows[0])
        assert (out / "crowd" / "figures" / f"pairs-{stem}.svg").exists()
        assert not (out / "crowd" / "tables" / f"pvalues-{stem}.tex").exists()
        assert not (out / "crowd" / "tables" / f"pairs-{stem}.tex").exists()
        assert (out / "crowd" / "tables" / f"diff-best-{stem}.tex").exists()
        assert f"crowd/figures/pairs-{stem}.pdf" in (out / "appendix.tex").read_text(
            encoding="utf-8"
        )
    page = (out / "crowd" / "report.html").read_text(encoding="utf-8")
    assert "Pairwise p-values" not in page and 'class="matrix"' not in page
    assert 'id="fig-pairs-macro-f1"' in page and 'href="pairs-macro-f1.csv"' in page
    assert f"With m\u00a0=\u00a0{M} systems the {M * (M - 1) // 2} pairs" in page
    assert "Differences from the best" in page  # the comparisons with the best stay in tables
    assert len(comp.primary.pairs) == M * (M - 1) // 2


def test_heat_map_cells_are_the_stored_marks(many):
    analysis, _ = many
    comp = analysis.competitions[0]
    metric = comp.primary
    fig = pairs_plot(comp, metric)
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "** p < 0.01" in legend and "*** p < 0.001" not in legend  # B = 400: p >= 1/401 > 0.001
    image = next(im for im in fig.axes[0].images if im.get_gid() == "pairs-heatmap")
    grid = np.ma.filled(image.get_array(), np.nan)
    at = {s.system: i for i, s in enumerate(metric.scores)}
    levels = {model.mark_level(c.mark) for c in metric.pairs}
    assert len(levels) >= 2  # not a blank map
    for c in metric.pairs:
        want = -2 if c.undecided else model.mark_level(c.mark)  # undecided: its own colour
        assert grid[at[c.a], at[c.b]] == grid[at[c.b], at[c.a]] == want
    assert np.isnan(np.diag(grid)).all()


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils not installed")
def test_pdf_starts_with_the_leaderboard(many):
    analysis, out = many
    best = analysis.competitions[0].primary.scores[0].system
    first = subprocess.run(
        ["pdftotext", "-f", "1", "-l", "1", str(out / "crowd" / "report.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "Leaderboard" in first and best in first
    assert sum(f"Team{i:02d}.run1" in first for i in range(M)) >= 10


def test_team_sheet_names_the_nearest_alike_systems_only(many, monkeypatch):
    """A sheet lists at most team.ALIKE_LISTED systems it cannot be told apart from (the nearest in
    rank), says how many more, and names the significantly different ones when they are few."""
    from compreport.report.pages import team

    analysis, _ = many
    comp = analysis.competitions[0]
    metric = comp.primary
    system = metric.scores[M // 2].system
    ctx = team.team_context(analysis, comp, system, model.Format())
    assert len(ctx["alike"]) > 6
    monkeypatch.setattr(team, "ALIKE_LISTED", 5)
    ctx = team.team_context(analysis, comp, system, model.Format())
    rank = {s.system: k for k, s in enumerate(metric.scores)}
    shown = ctx["alike_shown"]
    assert (
        len(shown) == 5
        and ctx["alike_more"] == len(ctx["alike"]) - 5
        and set(shown) <= set(ctx["alike"])
    )
    far = max(abs(rank[a] - rank[system]) for a in shown)
    assert all(
        abs(rank[a] - rank[system]) >= far for a in set(ctx["alike"]) - set(shown)
    )  # the nearest
    assert set(ctx["differ"]) == {
        c.b if c.a == system else c.a
        for c in metric.pairs
        if system in (c.a, c.b) and c.significant
    }
    page = team.team_html(analysis, comp, system).replace("<wbr>", "")
    assert (
        f"{len(ctx['alike'])} of the {M - 1} other systems" in page
        and "crowd/pairs-macro-f1.csv" in page
    )
