"""Figures: files, fonts, text kept literal, colours of the zero rule, reproducibility, layout."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import warnings
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")

from matplotlib.collections import LineCollection  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402

from compreport.errors import InputError  # noqa: E402
from compreport.inputs.spec import Options, load_inputs, slug  # noqa: E402
from compreport.report.figures import gallery as figures  # noqa: E402
from compreport.report.figures import style, workshop  # noqa: E402
from compreport.report.figures.workshop import workshop_plot  # noqa: E402
from compreport.report.metricnames import metric_label  # noqa: E402
from compreport.report.model import Format  # noqa: E402
from compreport.resources import demo_workshop_dir  # noqa: E402
from compreport.settings import Settings  # noqa: E402
from compreport.stats.analysis import analyze, analyze_competition  # noqa: E402
from compreport.stats.results import Analysis  # noqa: E402
from conftest import make_competition  # noqa: E402

SVG_NS = "{http://www.w3.org/2000/svg}"
HOSTILE = ["$x^2$", "a_b", "<script>", "100%Tox.01", "Álvarez-UNED.01", "R&D_team.01"]


@pytest.fixture(scope="module")
def demo() -> Analysis:
    loaded = load_inputs([str(demo_workshop_dir())], Options())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "B too small for Bonferroni" notes
        return analyze(loaded.competitions, Settings(bootstrap=500, refine=False), progress=False)


#: The competition of the demo whose every figure is written, as PDF and SVG: a binary task with two
#: metrics (facets), a degenerate baseline and hostile names. The other competitions' difference and
#: distribution figures are built (not saved) by tests below; saving them too checks nothing new.
DRAWN = ("detox-binary",)


@pytest.fixture(scope="module")
def drawn(demo) -> Analysis:
    return Analysis(demo.settings, [c for c in demo.competitions if c.id in DRAWN])


@pytest.fixture(scope="module")
def written(drawn, tmp_path_factory) -> tuple[Path, list[Path]]:
    """Every figure of :data:`DRAWN` and the workshop summary as PDF (TrueType subsetting) and SVG,
    as a report run writes them (one layout, two files)."""
    out = tmp_path_factory.mktemp("figs")
    return out, figures.write_figures(drawn, out, formats=("pdf", "svg"))


@pytest.fixture(scope="module")
def hostile() -> Analysis:
    """Five systems with hostile names (mathtext, markup, underscores), one of them a baseline."""
    rng = np.random.default_rng(3)
    gold = rng.integers(0, 2, 200)
    preds = [
        np.where(rng.random(200) < acc, gold, 1 - gold) for acc in (0.9, 0.85, 0.8, 0.7, 0.6, 0.55)
    ]
    comp = make_competition(gold, preds, systems=HOSTILE, metrics=["accuracy", "f1"], cid="hostile")
    comp.baselines = ["a_b"]
    ca = analyze_competition(comp, Settings(bootstrap=300), progress=False)
    return Analysis(Settings(bootstrap=300), [ca])


def svg_texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return ["".join(el.itertext()) for el in root.iter(f"{SVG_NS}text")]


def hlines(fig, gid: str) -> LineCollection:
    found = [c for ax in fig.axes for c in ax.collections if c.get_gid() == gid]
    assert len(found) == 1, gid
    return found[0]


# --- files ---------------------------------------------------------------------------------------


@pytest.mark.slow
def test_every_figure_file_is_written(drawn, written):
    demo = drawn
    out, paths = written
    assert paths and all(p.is_file() and p.stat().st_size > 0 for p in paths)
    assert len(set(paths)) == len(paths)
    gallery = figures.Gallery(demo)
    n = 1  # the workshop summary
    for comp in demo.competitions:
        stems = set(gallery.stems(comp))
        for metric in comp.metrics:
            key = slug(metric.name)
            assert {f"ci-{key}", f"diff-{key}", f"dist-{key}"} <= stems
        assert ("facets" in stems) == (len(comp.metrics) > 1) and "confusion" in stems
        for stem in stems:
            assert {out / comp.id / "figures" / f"{stem}.{fmt}" for fmt in ("pdf", "svg")} <= set(
                paths
            )
        n += len(stems)
    for fmt in ("pdf", "svg"):
        assert (out / "summary" / f"competitiveness.{fmt}").stat().st_size > 0
    assert len(paths) == 2 * n


def test_pdf_embeds_truetype(written):
    out, paths = written
    pdfs = [p for p in paths if p.suffix == ".pdf"]
    for p in pdfs:
        data = p.read_bytes()
        assert data.startswith(b"%PDF")
        assert b"/FontFile2" in data and b"/Type3" not in data, p
        assert b"CreationDate" not in data
    if shutil.which("pdffonts"):
        res = subprocess.run(["pdffonts", str(pdfs[0])], capture_output=True, text=True, check=True)
        rows = res.stdout.splitlines()[2:]
        assert rows and all("TrueType" in r and " yes " in r for r in rows), res.stdout


def test_svg_is_xml_with_every_system_name_as_text(drawn, written):
    demo = drawn
    out, _ = written
    for comp in demo.competitions:
        for metric in comp.metrics:
            svg = (out / comp.id / "figures" / f"ci-{slug(metric.name)}.svg").read_text(
                encoding="utf-8"
            )
            texts = svg_texts(svg)
            for system in comp.systems:
                assert system in texts, (comp.id, system)
    # the workshop figure: each competition's label, on one line or two, as text
    texts = svg_texts((out / "summary" / "competitiveness.svg").read_text(encoding="utf-8"))
    labels = workshop.workshop_labels(demo)
    assert_competition_labels(labels, demo)
    for label in labels:
        assert all(line in texts for line in label.split("\n")), (label, texts)


def test_png_is_200_dpi(demo, tmp_path):
    comp = demo.competitions[0]
    fig = figures.ci_plot(comp, comp.primary)
    [png] = figures.save(fig, tmp_path / "ci", ("png",))
    assert png.name == "ci.png" and png.read_bytes().startswith(b"\x89PNG")
    from PIL import Image

    with Image.open(png) as im:
        assert round(im.info["dpi"][0]) == 200
        assert im.size[0] >= 200 * fig.get_size_inches()[0] * 0.8


def test_save_rejects_unknown_format(demo, tmp_path):
    comp = demo.competitions[0]
    with pytest.raises(ValueError, match="eps"):
        figures.save(figures.ci_plot(comp, comp.primary), tmp_path / "x", ("pdf", "eps"))


# --- content --------------------------------------------------------------------------------------


def _diff_colours_match_the_stored_verdicts(comp, metric) -> set:
    """Assert each row of the difference figure is coloured by its Comparison's stored verdict;
    return the verdicts seen (True, False, None, "undecided")."""
    red, green = to_rgba(style.TIED_COLOR), to_rgba(style.DIFFERS_COLOR)
    grey, purple = to_rgba(style.UNDEFINED_COLOR), to_rgba(style.UNDECIDED_COLOR)
    fig = figures.diff_plot(comp, metric)
    colors = hlines(fig, "diff-intervals").get_colors()
    segs = hlines(fig, "diff-intervals").get_segments()
    assert len(colors) == len(segs) == len(metric.vs_best)
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert labels == [c.b for c in metric.vs_best]
    seen = set()
    for c, color, seg in zip(metric.vs_best, colors, segs):
        verdict = "undecided" if c.undecided else c.significant
        want = {True: green, False: red, None: grey, "undecided": purple}[verdict]
        assert tuple(color) == want, (comp.id, c)
        assert np.allclose(seg[:, 0], [c.ci_low, c.ci_high])
        seen.add(verdict)
    assert any(
        getattr(line, "get_xdata", None) and list(line.get_xdata()) == [0, 0]
        for line in fig.axes[0].lines
    )
    return seen


def test_diff_plot_colours_are_the_stored_verdicts(demo):
    seen = set()
    for comp in demo.competitions:
        for metric in comp.metrics:
            seen |= _diff_colours_match_the_stored_verdicts(comp, metric)
    assert {True, False} <= seen, "the demo should exercise both colours"


def test_diff_plot_draws_tied_where_only_the_uncorrected_ci_excludes_zero():
    """Bonferroni over the 66 pairs of 12 systems: some uncorrected intervals exclude 0 while the
    corrected verdict is "tied"; those rows are red (tied), as in the leaderboard."""
    rng = np.random.default_rng(11)
    n = 400
    gold = rng.integers(0, 2, n)
    preds = [np.where(rng.random(n) < acc, gold, 1 - gold) for acc in np.linspace(0.84, 0.70, 12)]
    c = make_competition(gold, preds, systems=[f"T{i:02d}.run1" for i in range(12)], cid="bonf")
    comp = analyze_competition(
        c, Settings(bootstrap=2000, correction="bonferroni", refine=False), progress=False
    )
    metric = comp.primary
    contrary = [
        x for x in metric.vs_best if x.significant is False and (x.ci_low > 0 or x.ci_high < 0)
    ]
    assert contrary, "the case needs an uncorrected CI excluding 0 with a tied verdict"
    # (Bonferroni's p-values near alpha leave other rows undecided at this B: purple)
    assert False in _diff_colours_match_the_stored_verdicts(comp, metric)
    tied = {s.system for s in metric.scores if s.ties_with_best}
    assert {x.b for x in contrary} <= tied  # the leaderboard says tied as well


def test_diff_plot_draws_a_significant_verdict_green_twin():
    """The twin: where the stored verdict is significant, the row is green."""
    rng = np.random.default_rng(12)
    n = 400
    gold = rng.integers(0, 2, n)
    preds = [np.where(rng.random(n) < acc, gold, 1 - gold) for acc in (0.9, 0.7, 0.6)]
    comp = analyze_competition(
        make_competition(gold, preds, cid="clear"),
        # B = 2,000: with 400 a p-value of no exceedance, times 3, is within its error of 0.05
        Settings(bootstrap=2000, correction="bonferroni", refine=False),
        progress=False,
    )
    assert all(x.significant for x in comp.primary.vs_best)
    assert _diff_colours_match_the_stored_verdicts(comp, comp.primary) == {True}


def _points_by_verdict(fig) -> dict:
    """``{gid: (marker, face colour, edge colour, y values)}`` of the difference figure's points."""
    return {
        line.get_gid(): (
            line.get_marker(),
            to_rgba(line.get_markerfacecolor()),
            to_rgba(line.get_color()),
            list(line.get_ydata()),
        )
        for line in fig.axes[0].lines
        if (line.get_gid() or "").startswith("diff-")
    }


def test_diff_plot_verdicts_have_their_own_marker_in_points_and_legend():
    """Each verdict (significant, tied, not tested) has a marker shape and a colour of its own, in
    the legend and in the points, so that a grey-scale print tells them apart; each point is drawn
    with the marker of its stored verdict (a not-tested comparison: B = 0 gives no verdict)."""
    rng = np.random.default_rng(12)
    n = 400
    gold = rng.integers(0, 2, n)
    preds = [np.where(rng.random(n) < acc, gold, 1 - gold) for acc in (0.9, 0.89, 0.7, 0.6)]
    comp = analyze_competition(
        make_competition(gold, preds, cid="marks"),
        Settings(bootstrap=400, refine=False),
        progress=False,
    )
    metric = comp.primary
    assert {c.significant for c in metric.vs_best} == {True, False}
    untested = replace(
        metric,
        vs_best=[replace(metric.vs_best[-1], significant=None), *metric.vs_best[:-1]],
    )
    for case in (metric, untested):
        fig = figures.diff_plot(comp, case)
        points = _points_by_verdict(fig)
        for row, c in enumerate(case.vs_best):
            look = figures.VERDICT_LOOK["undecided" if c.undecided else c.significant]
            marker, face, edge, ys = points[f"diff-{look.what}"]
            assert row in ys and marker == look.marker and edge == to_rgba(look.color), c
            assert face == to_rgba(look.face)
        handles = fig.legends[0].legend_handles
        labels = [t.get_text() for t in fig.legends[0].get_texts()]
        shown = {"undecided" if c.undecided else c.significant for c in case.vs_best}
        assert len(handles) == len(shown)
        looks = {
            figures.VERDICT_LOOK[v].label: figures.VERDICT_LOOK[v]
            for v in (True, False, None, "undecided")
        }
        for handle, label in zip(handles, labels):
            assert handle.get_marker() == looks[label].marker, label
            assert to_rgba(handle.get_color()) == to_rgba(looks[label].color), label
        assert len({h.get_marker() for h in handles}) == len(handles)
        assert len({to_rgba(h.get_color()) for h in handles}) == len(handles)
    assert len({look.marker for look in figures.VERDICT_LOOK.values()}) == 4


def test_ci_plot_rows_best_first_and_baselines_distinct(demo):
    comp = next(c for c in demo.competitions if c.baselines)
    metric = comp.primary
    fig = figures.ci_plot(comp, metric)
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == [s.system for s in metric.scores]
    lo, hi = ax.get_ylim()
    assert lo > hi, "row 0 (the best) is at the top"
    colors = hlines(fig, "ci-intervals").get_colors()
    for s, color in zip(metric.scores, colors):
        want = style.BASELINE_COLOR if s.system in comp.baselines else style.SYSTEM_COLOR
        assert tuple(color) == to_rgba(want)
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert any("baseline" in t for t in legend)
    assert "95%" in ax.get_xlabel() and metric_label(metric) in ax.get_xlabel()
    assert metric_label(metric) != metric.name  # detox ranks by f1: shown as "F1"


def test_degenerate_baseline_does_not_set_the_axis(demo):
    """detox-binary's majority baseline has F1 = 0 with the interval [0, 0]: drawn at the axis edge
    with its value, the axis spans the other systems only (it would start at 0 otherwise)."""
    comp = next(c for c in demo.competitions if c.id == "detox-binary")
    metric = comp.primary
    majority = next(s for s in metric.scores if s.system == "baseline.majority")
    assert majority.score == majority.ci_low == majority.ci_high == 0.0
    others = [s for s in metric.scores if s is not majority]
    for fig in (figures.ci_plot(comp, metric), figures.facet_plot(comp)):
        ax = fig.axes[0]
        left, right = ax.get_xlim()
        assert min(s.ci_low for s in others) > left > 0.3 and right > max(s.ci_high for s in others)
        marks = [
            line for line in ax.lines if line.get_gid() and line.get_gid().endswith("-offaxis")
        ]
        assert len(marks) == 1 and marks[0].get_xdata()[0] < min(s.ci_low for s in others)
        assert marks[0].get_ydata()[0] == [s.system for s in metric.scores].index(
            "baseline.majority"
        )
        assert any(t.get_text() == "0 (off scale)" for t in ax.texts)
    # a baseline inside the others' range is drawn as usual
    assert (
        figures.ci_plot(comp, comp.metric("accuracy")).axes[0].get_xlim()[0] < majority.ci_low + 1
    )


def test_difference_histogram_bins_follow_the_lattice(demo):
    """An accuracy difference on n items moves in steps of 1/n: every bin spans the same whole
    number of steps and no replicate sits on an edge (bars would alternate full and empty)."""
    comp = next(c for c in demo.competitions if c.id == "detox-binary")
    metric = comp.metric("accuracy")
    a, b = metric.best, metric.runner_up
    bars = [
        p
        for p in figures.distribution_plot(comp, metric, a, b).axes[0].patches
        if p.get_gid() == "dist-histogram"
    ]
    widths = {round(p.get_width() * comp.n, 6) for p in bars}
    assert len(widths) == 1 and widths.pop().is_integer()
    reps = metric.difference_replicates(a, b)
    edges = np.array([p.get_x() for p in bars] + [bars[-1].get_x() + bars[-1].get_width()])
    assert np.abs(reps[:, None] - edges[None, :]).min() > 0.4 / comp.n
    assert isinstance(style.lattice_bins(np.random.default_rng(0).random(400)), int)  # no lattice


def test_hostile_names_are_literal_in_svg(hostile):
    comp = hostile.competitions[0]
    figs = figures.competition_figures(comp)
    for stem in ("ci-accuracy", "diff-accuracy", "facets"):
        svg = figures.to_svg(figs[stem])
        assert svg.startswith("<svg") and "<?xml" not in svg and "DOCTYPE" not in svg
        texts = svg_texts(svg)
        shown = (
            set(comp.systems) if stem != "diff-accuracy" else {c.b for c in comp.primary.vs_best}
        )
        for name in shown:
            assert name in texts, (stem, name)
        assert "<script>" not in svg.replace("&lt;script&gt;", "")
    texts = " ".join(svg_texts(figures.to_svg(figs["dist-accuracy"])))
    a, b = (
        comp.primary.best,
        comp.primary.runner_up,
    )  # the winner and the runner-up among participants
    assert f"{a} − {b}" in texts


def test_level_reaches_the_labels(demo):
    comp = demo.competitions[0]
    assert "90%" in figures.ci_plot(comp, comp.primary, level=0.9).axes[0].get_xlabel()
    assert "99%" in figures.diff_plot(comp, comp.primary, level=0.99).axes[0].get_xlabel()


def test_distribution_title_has_the_stored_p_value(demo):
    for comp in demo.competitions:
        metric = comp.primary
        a, b = metric.scores[0].system, metric.scores[2].system
        fig = figures.distribution_plot(comp, metric, a, b)
        c = next(c for c in metric.vs_best if c.b == b)
        title = fig.axes[0].get_title(loc="left")
        assert Format().p_is(c.p_value, "raw p-value(x)") in title
        assert f"δ(x) = {c.diff:.4f}" in title
        xs = sorted({float(line.get_xdata()[0]) for line in fig.axes[0].lines})
        assert np.allclose(xs, sorted({0.0, c.diff, 2 * c.diff}))
        # the histogram holds every replicate difference
        bars = [p for p in fig.axes[0].patches if p.get_gid() == "dist-histogram"]
        assert sum(p.get_height() for p in bars) == demo.settings.bootstrap
    # resamples on which a difference is undefined are left out of the histogram; that does not make
    # the p-value's B = 500 "more resamples" than the figure holds (it said "from 500 resamples")
    metric = demo.competitions[0].primary
    reps = metric.replicates.copy()
    reps[:10, metric.systems.index(metric.scores[0].system)] = np.nan
    title = (
        figures.distribution_plot(
            demo.competitions[0],
            replace(metric, replicates=reps),
            metric.scores[0].system,
            metric.scores[1].system,
        )
        .axes[0]
        .get_title(loc="left")
    )
    assert "resamples)" not in title and metric.verdicts["resamples"] == demo.settings.bootstrap, (
        title
    )


def test_distribution_legend_groups_b_as_every_count(demo):
    """ "B = 12,000" (Spanish "12 000"), as the rest of the report writes counts, not
    "B = 12000"."""
    from compreport.language import language

    comp = demo.competitions[0]
    metric = comp.primary
    many = replace(metric, replicates=np.tile(metric.replicates, (24, 1)))  # 12,000 replicates
    for lang, b in (("en", "12,000"), ("es", "12\u00a0000")):
        with language(lang):
            fig = figures.distribution_plot(
                comp, many, metric.scores[0].system, metric.scores[1].system
            )
        assert f"(B = {b})" in [t.get_text() for t in fig.legends[0].get_texts()][0]


def test_distribution_title_states_a_tiny_p_value_as_less_than(demo):
    comp = demo.competitions[0]
    metric = comp.primary
    a, b = metric.scores[0].system, metric.scores[1].system
    c, _ = metric.pair(a, b)
    tiny = replace(metric, pairs=[replace(x, p_value=1e-6) if x is c else x for x in metric.pairs])
    title = figures.distribution_plot(comp, tiny, a, b).axes[0].get_title(loc="left")
    assert "raw p-value(x) < 0.0001" in title and "= <" not in title, title


def test_distribution_flipped_pair_uses_the_stored_comparison(demo):
    comp = demo.competitions[0]
    metric = comp.primary
    a, b = metric.scores[1].system, metric.scores[3].system  # stored in pairs as (a, b)
    c, flipped = metric.pair(b, a)
    assert flipped and (c.a, c.b) == (a, b)
    title = figures.distribution_plot(comp, metric, b, a).axes[0].get_title(loc="left")
    assert Format().p_is(c.p_value, "raw p-value(x)") in title
    assert f"δ(x) = {-c.diff:.4f}" in title


def test_difference_replicates(demo):
    ratings = next(c for c in demo.competitions if not c.primary.higher_is_better)
    for comp in (demo.competitions[0], ratings):
        m = comp.primary
        a, b = m.scores[0].system, m.scores[1].system
        d = m.difference_replicates(a, b)
        raw = m.replicates[:, m.systems.index(a)] - m.replicates[:, m.systems.index(b)]
        assert d.shape == (demo.settings.bootstrap,)
        assert np.array_equal(d, raw if m.higher_is_better else -raw)
        assert np.array_equal(m.difference_replicates(b, a), -d)
    back = Analysis.from_dict(demo.to_dict())
    with pytest.raises(
        InputError, match="replicates"
    ):  # InputError: every problem of the API is one
        back.competitions[0].primary.difference_replicates(a, b)
    with pytest.raises(InputError, match="unknown system"):
        demo.competitions[0].primary.difference_replicates("nobody", a)


@pytest.mark.slow
def test_figures_from_results_json_skip_distributions(demo, tmp_path):
    back = Analysis.from_dict(demo.to_dict())
    comp = back.competitions[0]
    stems = set(figures.competition_figures(comp))
    assert stems and not any(s.startswith("dist-") for s in stems)
    assert any(s.startswith("diff-") for s in stems)
    with pytest.raises(ValueError):
        figures.distribution_plot(
            comp, comp.primary, comp.primary.scores[0].system, comp.primary.scores[1].system
        )
    gallery = figures.Gallery(back)
    for other in back.competitions:  # no competition read back draws a distribution
        assert not any(s.startswith("dist-") for s in gallery.stems(other))
    # building and saving (the costly part) for one competition read back; every competition's
    # files are written, from the replicates, in test_every_figure_file_is_written
    assert figures.write_figures(Analysis(back.settings, [comp]), tmp_path, formats=("svg",))


def assert_competition_labels(labels: list[str], analysis: Analysis) -> None:
    """The workshop figure's row labels are ``name (metric)`` of the competitions in order, on one
    line or two of at most WORKSHOP_LINE_CHARS characters; one that two lines cannot hold keeps
    its first words and its last (the metric) around "…"."""
    line = workshop.WORKSHOP_LINE_CHARS
    assert len(labels) == len(analysis.competitions)
    for label, comp in zip(labels, analysis.competitions):
        full = f"{comp.name} ({metric_label(comp.primary)})"
        lines = label.split("\n")
        assert len(lines) <= 2 and all(len(x) <= line for x in lines), label
        if " ".join(lines) != full:
            head, tail = lines
            assert head.endswith("…") and full.startswith(head[:-1]) and full.endswith(tail)
            assert len(textwrap.wrap(full, line)) > 2, label


def test_facets_and_workshop(demo, hostile):
    single = replace(demo.competitions[0], metrics=demo.competitions[0].metrics[:1])
    assert figures.facet_plot(single) is None
    assert "facets" not in figures.competition_figures(single)
    multi = next(c for c in demo.competitions if len(c.metrics) > 1)
    fig = figures.facet_plot(multi)
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert len(visible) == len(multi.metrics)
    order = [s.system for s in multi.primary.scores]
    assert [t.get_text() for t in visible[0].get_yticklabels()] == order
    for i, (_, metric) in enumerate(zip(visible, multi.metrics)):
        segs = hlines(fig, f"facet-{i}-intervals").get_segments()
        by_name = {s.system: s for s in metric.scores}
        assert len(segs) == len(order)
        for row, (name, seg) in enumerate(zip(order, segs)):
            s = by_name[name]
            if len(seg) == 0:  # drawn off the axis: a baseline with a zero-width interval
                assert name in multi.baselines and s.ci_low == s.ci_high
                continue
            assert np.allclose(seg, [[s.ci_low, row], [s.ci_high, row]])
    ws = workshop_plot(demo)
    assert len(ws.axes) == 4
    labels = [t.get_text() for t in ws.axes[0].get_yticklabels()]
    assert_competition_labels(labels, demo)
    ties = next(
        c
        for ax in ws.axes
        for c in ax.containers
        if c.patches[0].get_gid() == "workshop-ties-of-pairs-1"
    )
    for i, (comp, bar) in enumerate(zip(demo.competitions, ties.patches), 1):
        assert bar.get_gid() == f"workshop-ties-of-pairs-{i}"
        cp = comp.primary.competitiveness
        assert bar.get_width() == pytest.approx(
            100 * cp["ties"]["none"] / cp["possible_comparisons"]
        )
    assert workshop_plot(Analysis(demo.settings, [])) is None


def test_single_system_competition(tmp_path):
    gold = np.array([0, 1] * 20)
    comp = make_competition(gold, [gold], systems=["only"], cid="solo")
    ca = analyze_competition(comp, Settings(bootstrap=50), progress=False)
    assert list(figures.competition_figures(ca)) == [
        "ci-accuracy",
        "confusion",
    ]  # accuracy: a classification
    paths = figures.write_figures(
        Analysis(Settings(bootstrap=50), [ca]), tmp_path, formats=("svg",)
    )
    assert {p.relative_to(tmp_path).as_posix() for p in paths} == {
        "solo/figures/ci-accuracy.svg",
        "solo/figures/confusion.svg",
        "summary/competitiveness.svg",
    }


# --- reproducibility and layout -------------------------------------------------------------------


@pytest.mark.slow
def test_same_inputs_give_byte_identical_files(demo, tmp_path):
    comp = demo.competitions[0]
    # PDF and SVG files of two whole runs are compared in tests/test_report_cli.py; PNG here, of the
    # figure with the most kinds of artist (bars, lines, a translucent span, a legend)
    dist = dict(figures.figure_builders(comp, demo.settings.level))[
        f"dist-{slug(comp.primary.name)}"
    ]
    first, second = (
        figures.save(dist(), tmp_path / name / "dist", ("png",)) for name in ("one", "two")
    )
    assert first[0].read_bytes() == second[0].read_bytes() and first[0].read_bytes().startswith(
        b"\x89PNG"
    )
    assert figures.to_svg(figures.ci_plot(comp, comp.primary)) == figures.to_svg(
        figures.ci_plot(comp, comp.primary)
    )


@pytest.mark.slow
def test_fixed_layout_is_that_of_a_drawing(demo):
    """ReportFigure.fix_layout runs the layout engine without drawing: the axes and the tight box
    are where a drawing (without output) puts them, for intervals, histograms, facets and heat
    maps."""
    comp = next(c for c in demo.competitions if c.classes and len(c.metrics) > 1)
    builders = dict(figures.figure_builders(comp, 0.95))
    for stem in (
        "ci-" + slug(comp.primary.name),
        "dist-" + slug(comp.primary.name),
        "facets",
        "confusion",
    ):
        fixed, drawn = builders[stem](), builders[stem]()
        with matplotlib.rc_context(style.RC):  # as figures.save lays out
            box = fixed.fix_layout()
            drawn.draw_without_rendering()
            assert (
                box.bounds
                == drawn.get_tightbbox().padded(matplotlib.rcParams["savefig.pad_inches"]).bounds
            ), stem
        assert [ax.get_position().bounds for ax in fixed.axes] == [
            ax.get_position().bounds for ax in drawn.axes
        ], stem


def test_no_global_rcparams_leak(demo):
    before = dict(matplotlib.rcParams)
    comp = demo.competitions[0]
    figures.to_svg(figures.ci_plot(comp, comp.primary))
    assert dict(matplotlib.rcParams) == before


def test_height_grows_with_m():
    rng = np.random.default_rng(0)
    gold = rng.integers(0, 3, 300)

    def comp_of(m):
        preds = [
            np.where(rng.random(300) < 0.4 + 0.5 * i / m, gold, rng.integers(0, 3, 300))
            for i in range(m)
        ]
        names = [f"Team with a rather long name number {i:02d}.run-{i % 3 + 1}" for i in range(m)]
        c = make_competition(gold, preds, systems=names, metrics=["macro_f1"], cid=f"m{m}")
        return analyze_competition(c, Settings(bootstrap=100), progress=False)

    small, big = comp_of(5), comp_of(40)
    h_small = figures.ci_plot(small, small.primary).get_size_inches()[1]
    fig = figures.ci_plot(big, big.primary)
    h_big = fig.get_size_inches()[1]
    assert h_big > h_small * 3
    assert h_big / 40 >= 0.2, "at least 0.2 in per row"
    assert (
        figures.diff_plot(big, big.primary).get_size_inches()[1]
        > figures.diff_plot(small, small.primary).get_size_inches()[1] * 3
    )
    # nothing clipped: every tick label lies inside the saved (tight) figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    fig_box = fig.get_tightbbox(renderer)
    for t in fig.axes[0].get_yticklabels():
        box = t.get_window_extent(renderer).transformed(fig.dpi_scale_trans.inverted())
        assert box.x0 >= fig_box.x0 - 1e-6 and box.x1 <= fig_box.x1 + 1e-6
    ticks = fig.axes[0].get_yticklabels()
    assert len(ticks) == 40
    # labels do not overlap one another
    boxes = sorted((t.get_window_extent(renderer) for t in ticks), key=lambda b: b.y0)
    assert all(b.y1 <= nxt.y0 + 0.5 for b, nxt in zip(boxes, boxes[1:]))


def test_json_path_does_not_import_matplotlib():
    code = (
        "import sys, compreport, compreport.cli, compreport.stats.analysis, "
        "compreport.output.staging, compreport.report.model, compreport.report; "
        "bad = [m for m in sys.modules if m.split('.')[0] == 'matplotlib' "
        "or m == 'compreport.report.figures.gallery']; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr


def test_metric_name_stems_are_safe(demo):
    comp = demo.competitions[0]
    metric = replace(comp.primary, name="my/metric:f1 (β)")
    figs = figures.competition_figures(replace(comp, metrics=[metric]))
    assert "ci-my-metric-f1" in figs


def test_distribution_plot_under_randomization_shades_nothing():
    """With the randomization test the p-value is not read off this histogram: no shaded region,
    and the title names the test."""
    from compreport.report.figures import gallery as figures
    from compreport.settings import Settings
    from compreport.stats.analysis import analyze_competition
    from conftest import make_competition

    rng = np.random.default_rng(2)
    gold = rng.integers(0, 2, 300)
    preds = [np.where(rng.random(300) < q, gold, 1 - gold) for q in (0.85, 0.8, 0.7)]
    comp = analyze_competition(
        make_competition(gold, preds), Settings(bootstrap=300, test="randomization"), progress=False
    )
    ma = comp.primary
    a, b = ma.scores[0].system, ma.scores[1].system
    fig = figures.distribution_plot(comp, ma, a, b, test="randomization")
    ax = fig.axes[0]
    assert "randomization test" in ax.get_title(loc="left")
    assert not [p for p in ax.patches if p.get_label() == "region counted in the p-value"]
    shaded = figures.distribution_plot(comp, ma, a, b)
    assert [p for p in shaded.axes[0].patches if p.get_label() == "region counted in the p-value"]


# --- PDF fonts ------------------------------------------------------------------------------------

#: Names in several scripts: Latin with accents (composite glyphs), Greek, Cyrillic, a ligature,
#: CJK (no DejaVu glyph: matplotlib warns and draws Last Resort boxes, a second embedded font).
WORLD = ["Álvarez-UNED.01", "Ωμέγα-αβγ", "Пётр_Иванов", "東京大学-NLP", "ﬁne-tuned", "Zoë & Ørsted"]


@pytest.mark.slow
def test_pdf_fonts_from_a_small_copy_equal_those_from_the_file(demo, tmp_path, monkeypatch):
    """PDFs subset their fonts from a per-process copy of the font file (figstyle.lean_pdf_fonts),
    made again when a figure needs glyphs it lacks: the files are those subset from the file
    itself."""
    from compreport.report.figures import style as figstyle

    rng = np.random.default_rng(4)
    gold = rng.integers(0, 2, 200)
    preds = [
        np.where(rng.random(200) < acc, gold, 1 - gold) for acc in (0.9, 0.85, 0.8, 0.7, 0.6, 0.55)
    ]
    world = analyze_competition(
        make_competition(gold, preds, systems=WORLD), Settings(bootstrap=100), progress=False
    )
    comp = demo.competitions[0]

    def pdfs(folder: str) -> tuple[list[bytes], list[int]]:
        """The PDF of each figure, and the glyphs the font copies hold after each."""
        files, held = [], []
        for i, fig in enumerate(
            [
                figures.ci_plot(comp, comp.primary),
                figures.ci_plot(world, world.primary),
                figures.diff_plot(world, world.primary),
            ]
        ):
            files.append(figures.save(fig, tmp_path / folder / str(i), ("pdf",))[0].read_bytes())
            held.append(sum(len(glyph_map) for _, glyph_map in figstyle.FONT_COPIES.values()))
        return files, held

    monkeypatch.setattr(figstyle, "FONT_COPIES", {})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the CJK name's missing glyphs
        copied, held = pdfs("copy")
        monkeypatch.setattr(figstyle, "subsets_by_gids", lambda pdf_ps: False)
        from_file, _ = pdfs("file")
    assert 0 < held[0] < held[1]  # made for the demo's names, again for Greek capitals and Cyrillic
    assert copied == from_file


def test_chinese_japanese_and_korean_names_are_drawn_with_an_installed_font(tmp_path):
    """DejaVu Sans has no CJK glyphs: an installed CJK font (make demo: WenQuanYi Micro Hei) is the
    per-glyph fallback, so a figure's PDF holds the names' characters, not boxes and a warning
    each."""
    from compreport.report.figures import style as figstyle

    if len(figstyle.RC["font.family"]) < 2:
        pytest.skip("matplotlib knows no CJK font: `make demo` installs fonts-wqy-microhei")
    names = ["北京大学NLP.01", "東京大学.01", "서울대학교.01", "Plain.01"]
    rng = np.random.default_rng(2)
    gold = rng.integers(0, 2, 120)
    preds = [np.where(rng.random(120) < 0.9 - 0.1 * i, gold, 1 - gold) for i in range(len(names))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # B = 50
        comp = analyze_competition(
            make_competition(gold, preds, systems=names), Settings(bootstrap=50), progress=False
        )
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib's "Glyph ... missing from font(s)"
        pdf = figures.save(figures.ci_plot(comp, comp.primary), tmp_path / "ci", ("pdf",))[0]
    fonts = subprocess.run(
        ["pdffonts", str(pdf)], capture_output=True, text=True, check=True
    ).stdout
    assert figstyle.RC["font.family"][1].replace(" ", "") in fonts and "LastResort" not in fonts, (
        fonts
    )
    text = subprocess.run(
        ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert all(name in text for name in names), text


@pytest.mark.slow
def test_characters_no_font_has_are_one_warning_not_one_per_glyph(tmp_path, monkeypatch):
    """Without a CJK font matplotlib warns once per missing character and save (24 lines for two
    names): a report says it once, naming the characters and the names that hold them."""
    from compreport.report.figures import style as figstyle

    monkeypatch.setattr(
        figstyle, "RC", MappingProxyType({**figstyle.RC, "font.family": ["DejaVu Sans"]})
    )
    rng = np.random.default_rng(3)
    gold = rng.integers(0, 2, 100)
    names = ["深度.01", "学习.01", "Plain.01"]
    preds = [np.where(rng.random(100) < 0.9 - 0.1 * i, gold, 1 - gold) for i in range(len(names))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # B = 50
        comp = analyze_competition(
            make_competition(gold, preds, systems=names), Settings(bootstrap=50), progress=False
        )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        figures.Gallery(Analysis(Settings(bootstrap=50), [comp])).render(
            tmp_path, ("pdf", "svg"), svg=True
        )
    said = [str(w.message) for w in caught]
    assert not [m for m in said if "Glyph" in m], said
    lacking = [m for m in said if "no installed font has" in m]
    assert (
        len(lacking) == 1 and "习 学 度 深" in lacking[0] and "'学习.01', '深度.01'" in lacking[0]
    ), said
    assert "Plain" not in lacking[0] and "fonts-wqy-microhei" in lacking[0]


def test_font_subsets_of_a_copy_equal_those_of_the_file():
    """Random glyph sets of DejaVu Sans: the font subset from the copy, and its glyph map, are those
    made from the file (the copy grows as sets bring new glyphs)."""
    from matplotlib.backends import _backend_pdf_ps as pdf_ps
    from matplotlib.font_manager import FontProperties, findfont, get_font

    from compreport.report.figures import style as figstyle

    if not figstyle.subsets_by_gids(pdf_ps):
        pytest.skip("this matplotlib subsets fonts another way")
    path = findfont(FontProperties(family="DejaVu Sans"))
    font = pdf_ps.font_manager.FontPath(path, 0)
    gids = sorted(set(get_font(path).get_charmap().values()))
    rng = np.random.default_rng(5)
    original = pdf_ps.get_glyphs_subset

    def subset(get, glyphs):
        with get(font, glyphs) as result:
            return pdf_ps.font_as_file(result.font).getvalue(), dict(result.glyph_index_map)

    with figstyle.lean_pdf_fonts():
        for size in (1, 5, 40, 300):
            glyphs = {int(g) for g in rng.choice(gids, size, replace=False)}
            assert subset(pdf_ps.get_glyphs_subset, glyphs) == subset(original, glyphs)
    assert pdf_ps.get_glyphs_subset is original


def test_lean_pdf_fonts_nested_and_threaded_share_one_patch(hostile, tmp_path):
    """Nested blocks, and blocks of two threads that overlap and end out of order, save the same PDF
    as one block, and the last block out restores matplotlib's functions (one counted patch)."""
    import threading

    from matplotlib.backends import _backend_pdf_ps as pdf_ps

    from compreport.report.figures import style as figstyle

    before = (pdf_ps.subset, pdf_ps.get_glyphs_subset)
    fig = figures.ci_plot(hostile.competitions[0], hostile.competitions[0].primary)

    def save(name):
        with matplotlib.rc_context(figstyle.RC):
            fig.savefig(tmp_path / name, format="pdf", metadata=figstyle.METADATA["pdf"])
        return (tmp_path / name).read_bytes()

    with figstyle.lean_pdf_fonts():
        one = save("one.pdf")
        with figstyle.lean_pdf_fonts():
            assert save("nested.pdf") == one
    assert (pdf_ps.subset, pdf_ps.get_glyphs_subset) == before
    entered, leave_first = threading.Event(), threading.Event()

    def first():
        with figstyle.lean_pdf_fonts():
            entered.set()
            leave_first.wait(10)

    t = threading.Thread(target=first)
    t.start()
    entered.wait(10)
    with figstyle.lean_pdf_fonts():
        leave_first.set()
        t.join(10)  # the first block ends while this one runs
        assert save("threaded.pdf") == one
    assert (pdf_ps.subset, pdf_ps.get_glyphs_subset) == before


# --- matplotlib's folder -------------------------------------------------------------------------

API_FIGURES = """
import os, sys
import compreport as cr
data = cr.load(sys.argv[1])
a = cr.analyze(data, bootstrap=50, seed=0)
cr.Report(a).write(sys.argv[2], ["html"], figure_formats=["svg"])
print(os.environ.get("MPLCONFIGDIR", ""))
"""


@pytest.mark.slow
@pytest.mark.parametrize("home", ["file", "folder"])
def test_api_with_an_unwritable_home_gives_matplotlib_a_private_folder(tmp_path, home):
    """Through the API (no command line): a HOME that cannot hold matplotlib's folders (a file,
    which stops root as well) gives matplotlib a private folder of the temporary folder, with no
    message of matplotlib's; the twin: a HOME that can be written is left to matplotlib."""
    (tmp_path / "tmp").mkdir()
    if home == "file":
        (tmp_path / "home").write_text("")
    else:
        (tmp_path / "home").mkdir()
    env = {
        k: v for k, v in os.environ.items() if k != "MPLCONFIGDIR" and not k.startswith("XDG_")
    } | {
        "HOME": str(tmp_path / "home"),
        "TMPDIR": str(tmp_path / "tmp"),
        "PYTHONPATH": str(Path(__file__).resolve().parents[1]),
    }
    src = str(demo_workshop_dir() / "stance-eu")
    res = subprocess.run(
        [sys.executable, "-c", API_FIGURES, src, str(tmp_path / "out")],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0, res.stderr
    assert "Matplotlib created a temporary cache" not in res.stderr
    assert "is not a writable directory" not in res.stderr
    assert any(p.suffix == ".svg" for p in (tmp_path / "out").rglob("*"))
    private = tmp_path / "tmp" / f"compreport-matplotlib-{os.getuid()}"
    if home == "file":
        assert res.stdout.strip() == str(private)
        assert (private.stat().st_mode & 0o777) == 0o700 and any(private.iterdir())
    else:
        assert res.stdout.strip() == "" and not private.exists()
        assert (tmp_path / "home" / ".cache" / "matplotlib").is_dir()


# --- geometry: figures that scale ----------------------------------------------------------------

#: The report PDF's text block (A4 less the margins of report.css's @page) and the figure's largest
#: height there (report.css, "figures (print)"), in pt.
REPORT_PDF_BOX = (182 / 25.4 * 72, 245 / 25.4 * 72)


def many_systems_analysis(m: int, seed: int = 0) -> Analysis:
    """``m`` systems with 35-character names and two metrics (so the facets figure is drawn)."""
    rng = np.random.default_rng(seed)
    n = 300
    gold = rng.integers(0, 3, n)
    preds = [
        np.where(rng.random(n) < 0.4 + 0.5 * i / m, gold, rng.integers(0, 3, n)) for i in range(m)
    ]
    names = [f"Team with a rather long name {i:03d}.run-{i % 3 + 1}" for i in range(m)]
    comp = make_competition(gold, preds, systems=names, metrics=["macro_f1", "accuracy"], cid="m")
    settings = Settings(bootstrap=100, refine=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # B too small for the corrections
        return Analysis(settings, [analyze_competition(comp, settings, progress=False)])


def media_box(pdf: Path) -> tuple[float, float]:
    """Width and height (pt) of the one page of a figure's PDF."""
    import re

    box = re.search(rb"/MediaBox\s*\[\s*([-\d.\s]+)\]", pdf.read_bytes())
    x0, y0, x1, y1 = map(float, box.group(1).split())
    return x1 - x0, y1 - y0


def word_heights(pdftotext: str, pdf: Path, word: str, then: str | None = None) -> list[float]:
    """The heights (pt) of every box of ``word`` in ``pdf``, read with ``pdftotext -bbox``; with
    ``then``, only where the next word is ``then`` (a figure title's, not a caption's)."""
    import re

    text = subprocess.run(
        [pdftotext, "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    words = re.findall(r'yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)<', text)
    return [
        float(y1) - float(y0)
        for k, (y0, y1, w) in enumerate(words)
        if w == word and (then is None or (k + 1 < len(words) and words[k + 1][2] == then))
    ]


def smallest_text_pt(fig) -> float:
    """The smallest font size (pt) of the visible text of a figure, at its natural size."""
    from matplotlib.text import Text

    return min(
        t.get_fontsize() for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()
    )


@pytest.mark.slow
@pytest.mark.parametrize("m, parts", [(12, 1), (48, 2), (150, 6)])
def test_figure_text_is_at_least_7_pt_where_it_is_placed(m, parts, tmp_path):
    """With 12, 48 and 150 systems of long names, every CI, difference and facets figure has a
    fixed row height and at most ROWS_PER_FIGURE rows (taller ones are split into parts that share
    their x-axis), and every figure's smallest text is >= 7 pt where it is placed: in the report
    PDF (shown at its size within the A4 text block) and in the LaTeX appendix of every style
    (``\\linewidth`` of a ``figure``, the text width of a two-column style's ``figure*``, and at
    most 0.8 ``\\textheight``). The natural size is the written PDF's page."""
    from compreport.report.latex.layout import STYLES

    analysis = many_systems_analysis(m)
    comp = analysis.competitions[0]
    gallery = figures.Gallery(analysis)
    gallery.render(tmp_path, ("pdf",))
    built = dict(figures.figure_builders(comp, 0.95))
    kinds = {}
    pitches = []
    for stem, build in built.items():
        fig = build()
        w, h = media_box(tmp_path / comp.id / "figures" / f"{stem}.pdf")
        text = smallest_text_pt(fig)
        assert text >= 8, (stem, text)
        in_pdf = min(1.0, REPORT_PDF_BOX[0] / w, REPORT_PDF_BOX[1] / h)
        assert text * in_pdf >= 7, (stem, w, h, in_pdf)
        for lay in STYLES.values():
            width = lay.textwidth if lay.twocolumn else lay.columnwidth
            placed = min(width / w, 0.8 * lay.textheight / h)
            assert text * placed >= 7, (stem, lay.name, w, h, placed)
        kind = figures.whole_stem(stem)
        kinds[kind] = kinds.get(kind, 0) + 1
        if kind.startswith(("ci-", "diff-")):
            fig.fix_layout()  # the axes where a drawing puts them
            ax = fig.axes[0]
            rows = len(ax.get_yticks())
            assert rows <= style.ROWS_PER_FIGURE
            height_in = ax.get_position().height * fig.get_figheight()
            pitches.append(height_in / rows)
        fig.clear()
    for kind in ("ci-macro-f1", "diff-macro-f1", "ci-accuracy", "diff-accuracy", "facets"):
        assert kinds[kind] == parts, kinds
    # the same height per system row in every part and at every m (constrained layout's slack
    # aside); the pairs heat map stands for the pair tables from MANY_SYSTEMS on
    assert min(pitches) >= 0.17 and max(pitches) <= 0.23, (min(pitches), max(pitches))
    assert ("pairs-macro-f1" in built) == (m > 25)


def workshop_analysis(k: int, seed: int = 0) -> Analysis:
    """``k`` small competitions with long names (50-60 characters), three to six systems each, a
    classification metric or (every fifth) an error metric whose PPI is in metric units."""
    rng = np.random.default_rng(seed)
    settings = Settings(bootstrap=20, refine=False)
    n = 60
    done = []
    for i in range(k):
        m = 3 + i % 4
        gold = rng.integers(0, 3, n)
        if i % 5 == 4:
            preds = [gold + rng.normal(0, 0.5 + j, n).round(2) for j in range(m)]
            metric = "mae"
        else:
            preds = [np.where(rng.random(n) < 0.5 + 0.4 * j / m, gold, 2 - gold) for j in range(m)]
            metric = ("accuracy", "macro_f1", "micro_f1", "weighted_f1")[i % 4]
        comp = make_competition(gold, preds, metrics=[metric], cid=f"task{i:02d}")
        comp.name = f"Shared task {i:02d} of the workshop, subtask {'ABCD'[i % 4]} (Spanish)"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # B too small for the corrections
            done.append(analyze_competition(comp, settings, progress=False))
    return Analysis(settings, done)


@pytest.mark.parametrize("k, parts", [(1, 1), (8, 1), (40, 3)])
def test_workshop_figure_is_placed_at_its_natural_size(k, parts, tmp_path):
    """With 1, 8 and 40 competitions of long names, the workshop figure is no wider than the
    narrowest LaTeX text and no taller than the report PDF's figure box and 0.8 of every LaTeX
    style's text height, so it is placed at 100 % (never shrunk), its smallest text 8 pt; it has a
    fixed height per competition, a figure of more competitions than one holds is split into parts
    that share their x-axes and name their competitions, and every value stays inside its panel.
    The natural size is the written PDF's page."""
    from matplotlib.text import Text

    from compreport.report.latex.layout import STYLES

    analysis = workshop_analysis(k)
    gallery = figures.Gallery(analysis)
    stems = gallery.summary_stems()
    assert len(stems) == parts
    assert stems == (
        ["competitiveness"]
        if parts == 1
        else [f"competitiveness-part{i}" for i in range(1, parts + 1)]
    )
    builds = {stem: build for folder, stem, build in gallery._builders() if folder == "summary"}
    assert list(builds) == stems
    for stem, build in builds.items():  # as Gallery.render writes them
        figures.save(build(), tmp_path / "summary" / stem, ("pdf",))
    shown, limits, pitches = [], [], []
    for stem in stems:
        w, h = media_box(tmp_path / "summary" / f"{stem}.pdf")
        assert w <= style.MAX_WIDTH_IN * 72 and w <= REPORT_PDF_BOX[0], (stem, w)
        assert h <= REPORT_PDF_BOX[1], (stem, h)
        for lay in STYLES.values():
            width = lay.textwidth if lay.twocolumn else lay.columnwidth
            assert min(width / w, 0.8 * lay.textheight / h) >= 1, (stem, lay.name, w, h)
        fig = builds[stem]()
        assert smallest_text_pt(fig) >= 8, stem
        with matplotlib.rc_context(style.RC):
            fig.fix_layout()
            fig.draw_without_rendering()
        renderer = fig.canvas.get_renderer()
        panels = fig.axes
        assert len(panels) == 4
        rows = len(panels[0].get_yticks())
        assert rows <= workshop.workshop_rows(analysis)
        pitches.append(panels[0].get_position().height * fig.get_figheight() / rows)
        shown += [t.get_text() for t in panels[0].get_yticklabels()]
        limits.append([ax.get_xlim() for ax in panels])
        boxes = sorted(
            (t.get_window_extent(renderer) for t in panels[0].get_yticklabels()),
            key=lambda b: b.y0,
        )
        assert all(b.y1 <= nxt.y0 + 0.5 for b, nxt in zip(boxes, boxes[1:]))  # no overlap
        for ax in panels:
            box = ax.get_window_extent(renderer)
            values = [t for t in ax.texts if isinstance(t, Text)]
            assert len(values) == rows
            for t in values:
                extent = t.get_window_extent(renderer)
                assert box.x0 <= extent.x0 and extent.x1 <= box.x1 + 0.5, (stem, t.get_text())
        if parts > 1:
            first, last = {"1": (1, 14), "2": (15, 27), "3": (28, 40)}[stem[-1]]
            assert f"(competitions {first}–{last} of {k})" in fig._suptitle.get_text()
        fig.clear()
    assert_competition_labels(shown, analysis)
    assert all(lim == limits[0] for lim in limits)  # the parts share their x-axes
    # names of 50-60 characters take two lines: 0.3 in a row (constrained layout's slack aside)
    assert min(pitches) >= 0.27 and max(pitches) <= 0.33, pitches


@pytest.mark.parametrize("k, parts", [(8, 1), (40, 3)])
def test_overview_page_shows_every_part_of_the_workshop_figure(k, parts):
    """The overview page (index.html) shows the workshop figure whole, or its parts one after the
    other in order, each SVG with ids of its own."""
    import re

    from compreport.report.pages import html

    analysis = workshop_analysis(k)
    page = html.index_html(analysis, gallery=figures.Gallery(analysis))
    section = page[page.index('id="workshop-figure"') :]
    section = section[: section.index("</section>")]
    assert section.count("<svg") == parts
    notes = re.findall(r"\(competitions (\d+)–(\d+) of \d+\)", section)
    if parts > 1:
        assert [int(a) for a, _ in notes] == [1, 15, 28] and notes[-1][1] == str(k)
    else:
        assert not notes
    ids = re.findall(r'\sid="([^"]+)"', section)
    assert len(ids) == len(set(ids))


def test_parts_of_a_split_figure_share_their_x_axis_and_name_their_rows():
    """48 systems: the two parts of the CI and difference figures have the same x-axis (the whole
    figure's), show 24 rows each in rank order, and say which rows in their titles."""
    analysis = many_systems_analysis(48, seed=1)
    comp = analysis.competitions[0]
    metric = comp.primary
    built = dict(figures.figure_builders(comp, 0.95))
    for kind, rows in (("ci-macro-f1", metric.scores), ("diff-macro-f1", metric.vs_best)):
        one, two = built[f"{kind}-part1"](), built[f"{kind}-part2"]()
        assert one.axes[0].get_xlim() == two.axes[0].get_xlim()
        names = [style.short_label(getattr(r, "system", None) or r.b) for r in rows]
        shown = [t.get_text() for f in (one, two) for t in f.axes[0].get_yticklabels()]
        assert shown == names
        assert f"(systems 1–{-(-len(names) // 2)} of {len(names)})" in one.axes[0].get_title("left")
    lows = [s.ci_low for s in metric.scores]
    left, right = built["ci-macro-f1-part1"]().axes[0].get_xlim()
    assert left < min(lows) and right > max(s.ci_high for s in metric.scores)


def test_a_name_longer_than_the_label_room_loses_its_middle():
    """A long name keeps its start and its end (where runs of one team differ); the twin: a name
    that fits is shown whole."""
    assert style.short_label("a" * style.LABEL_CHARS) == "a" * style.LABEL_CHARS
    one, two = (f"{'Universidad Politécnica de Valencia ' * 2}.run{i}" for i in (1, 2))
    a, b = style.short_label(one), style.short_label(two)
    assert len(a) == style.LABEL_CHARS and "…" in a and a.endswith(".run1") and a != b
    assert a.startswith("Universidad Politécn")


@pytest.mark.slow
def test_report_pdf_shows_the_figures_at_their_size(tmp_path):
    """In a real report PDF (WeasyPrint) of 48 systems, the CI figures' title text has the height
    it has in the figure's own PDF: the figures are placed at 100 %, not shrunk to a band (word
    boxes of ``pdftotext -bbox``)."""

    from compreport.report.model import Format
    from compreport.report.pages import pdf as pdf_pages

    pdftotext = shutil.which("pdftotext")
    if pdftotext is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    pytest.importorskip("weasyprint")
    analysis = many_systems_analysis(48, seed=2)
    comp = analysis.competitions[0]
    gallery = figures.Gallery(analysis)
    gallery.render(tmp_path, ("pdf",), svg=True)
    report = pdf_pages.write_report(analysis, comp, Format(), gallery, tmp_path / "report.pdf")

    natural = word_heights(
        pdftotext, tmp_path / comp.id / "figures" / "ci-macro-f1-part1.pdf", "ordered"
    )
    placed = word_heights(pdftotext, report, "ordered", then="bootstrap")  # the figures' titles
    assert natural and len(placed) >= 4  # two parts of two metrics
    assert min(placed) / natural[0] >= 0.95, (placed, natural)


@pytest.mark.slow
def test_overview_pdf_shows_the_workshop_figure_at_its_size(tmp_path):
    """In a real overview PDF (WeasyPrint) of 40 competitions, the words of the workshop figure's
    three parts have the height they have in the figures' own PDFs: placed at 100 %, not shrunk
    (word boxes of ``pdftotext -bbox``)."""

    from compreport.report.model import Format
    from compreport.report.pages import pdf as pdf_pages

    pdftotext = shutil.which("pdftotext")
    if pdftotext is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    pytest.importorskip("weasyprint")
    analysis = workshop_analysis(40)
    gallery = figures.Gallery(analysis)
    for folder, stem, build in gallery._builders():
        if folder == "summary":
            figures.save(build(), tmp_path / "summary" / stem, ("pdf",))
    overview = pdf_pages.write_overview(analysis, Format(), gallery, tmp_path / "overview.pdf")

    # "unadjusted" is the 8 pt axis label of each part's last panel, nowhere else in the page
    natural = word_heights(
        pdftotext, tmp_path / "summary" / "competitiveness-part1.pdf", "unadjusted"
    )
    placed = word_heights(pdftotext, overview, "unadjusted")
    assert natural and len(placed) == 3, (natural, placed)
    assert min(placed) / natural[0] >= 0.95, (placed, natural)
