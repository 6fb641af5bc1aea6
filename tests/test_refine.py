"""Monte-Carlo error of p-values, settled verdicts and refinement."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
from scipy.stats import binomtest

import compreport as cr
from compreport.report import prose
from compreport.report.pages.team import team_html
from compreport.stats import montecarlo
from conftest import make_competition


def test_bounds_are_clopper_pearson():
    """The bounds on the exceedance probability are scipy's exact (Clopper-Pearson) interval."""
    B, level = 2000, 1e-3
    k = np.array([0, 1, 7, 150, 1999, 2000])
    lo, hi = montecarlo.p_bounds((1 + k) / (B + 1), B, level)
    for kk, a, b in zip(k, lo, hi):
        ref = binomtest(int(kk), B).proportion_ci(confidence_level=1 - level, method="exact")
        assert (a, b) == pytest.approx((ref.low, ref.high), rel=1e-9, abs=1e-15)
    se = montecarlo.standard_error((1 + k) / (B + 1), B)
    assert se == pytest.approx(np.sqrt(k / B * (1 - k / B) / B))


def test_settled_needs_both_bounds_and_the_estimate_on_one_side():
    """Bonferroni over 2: p = 1/(B+1) with B = 100 cannot be certified below 0.025 (its upper bound
    is about 0.09), p = 0.5 is settled as not significant."""
    B = 100
    p = np.array([1 / (B + 1), 51 / (B + 1)])
    bonf = lambda x: np.minimum(1, 2 * x)  # noqa: E731
    assert montecarlo.settled(p, B, bonf, 0.05).tolist() == [0.0, 1.0]
    assert montecarlo.settled(p, 100_000, bonf, 0.05).tolist() == [
        1.0,
        1.0,
    ]  # the same p from 10^5 resamples


def _many(m=48, k=20, n=240, seed=5):
    """m systems over k classes: accuracies from 0.95 down to 0.35, so most pairs differ a lot."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, k, n)
    preds = [
        np.where(rng.random(n) < acc, gold, rng.integers(0, k, n))
        for acc in np.linspace(0.95, 0.35, m)
    ]
    return make_competition(gold, preds, metrics=["accuracy"], cid="many")


@pytest.mark.slow
def test_holm_at_scale_stays_undecided_where_max_t_decides():
    """48 systems: Holm over 1,128 pairs cannot reject with B = 2,000 (1128/2001 > 0.05): one group.
    Refinement re-estimates the p-values from up to 16 B = 32,000 resamples, where point estimates
    of Holm's p-values fall below alpha, but none of those verdicts is settled: a p-value of no
    exceedance in 32,000 has a Monte-Carlo bound near 5e-4, which Holm multiplies by 1,128. They
    are undecided, so they separate no groups. The max-T step-down (the default) decides most
    pairs from the 2,000 resamples."""
    comp = _many()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fixed = (
            cr.analyze(comp, bootstrap=2000, seed=1, refine=False, correction="holm")
            .competitions[0]
            .primary
        )
        refined = (
            cr.analyze(comp, bootstrap=2000, seed=1, correction="holm", refine=True)
            .competitions[0]
            .primary
        )
        maxt = cr.analyze(comp, bootstrap=2000, seed=1, refine=False).competitions[0].primary
    assert maxt.verdicts["can_reject"] is True and len({s.group for s in maxt.scores}) > 10
    assert maxt.verdicts["b_needed"] is None  # stored only when no comparison can reject
    assert sum(c.significant is True for c in maxt.pairs) > 500
    assert fixed.verdicts["can_reject"] is False and {s.group for s in fixed.scores} == {"a"}
    assert fixed.verdicts["b_needed"] == 22560  # 1128 / (B + 1) < 0.05 from B = 22,560
    assert refined.verdicts["resamples"] == 32000 and refined.verdicts["can_reject"] is True
    assert sum(c.p_holm < 0.05 for c in refined.pairs) > 500  # point estimates below alpha
    assert refined.verdicts["undecided"] > 500 and not any(c.significant for c in refined.pairs)
    assert {s.group for s in refined.scores} == {"a"}
    assert maxt.verdicts["undecided"] < 0.1 * len(maxt.pairs)
    # intervals stay on the first B resamples: identical with and without refinement
    assert [(s.ci_low, s.ci_high) for s in refined.scores] == [
        (s.ci_low, s.ci_high) for s in fixed.scores
    ]


def test_refined_p_values_are_those_of_the_larger_b():
    """Replicate for replicate: refinement draws the same seeded streams as a run with that many
    resamples, so its p-values equal a fixed-B run with B = the resamples it reached."""
    rng = np.random.default_rng(2)
    gold = rng.integers(0, 2, 300)
    preds = [np.where(rng.random(300) < a, gold, 1 - gold) for a in (0.8, 0.74, 0.72, 0.6)]
    comp = make_competition(gold, preds, metrics=["accuracy"], cid="refine")
    whole = cr.analyze(comp, bootstrap=500, seed=4, correction="holm", refine=True)
    refined = whole.competitions[0].primary
    R = refined.verdicts["resamples"]
    assert R > 500
    fixed_analysis = cr.analyze(comp, bootstrap=R, seed=4, refine=False, correction="holm")
    fixed = fixed_analysis.competitions[0].primary
    assert [c.p_value for c in refined.pairs] == [c.p_value for c in fixed.pairs]
    assert [c.significant for c in refined.pairs] == [c.significant for c in fixed.pairs]
    assert (
        cr.analyze(comp, bootstrap=500, seed=4, jobs=2, correction="holm", refine=True).to_json()
        == whole.to_json()
    )
    # what shows a p-value beside the first 500 resamples says how many it comes from
    report = cr.Report(whole)
    fig = report.figure("dist")
    title = fig.axes[0].get_title(loc="left")
    assert title.endswith(f"(from {R:,} resamples)"), title
    # its histogram holds the first 500 of them (its shaded region is not all the p-value counts)
    assert f"first 500 of {R:,} replicates" in [t.get_text() for t in fig.legends[0].get_texts()]
    # the methods' formula divides by the resamples behind the p-value, R, which is B only without
    # refinement
    methods = "".join(
        s for s in prose.paragraph(whole.settings, whole.competitions) if isinstance(s, str)
    )
    assert "p = (c + 1)/(R + 1)" in methods and "(B + 1)" not in methods
    assert (
        "R being the resamples behind each p-value: 500, or more where the p-values were "
        "re-estimated" in methods
    )
    methods = "".join(
        s
        for s in prose.paragraph(fixed_analysis.settings, fixed_analysis.competitions)
        if isinstance(s, str)
    )
    assert "p = (c + 1)/(B + 1)" in methods and "R being" not in methods
    system = next(s.system for s in refined.scores if not s.is_best)
    sheet = re.sub(r"<[^>]+>", "", team_html(whole, whole.competitions[0], system))
    assert f"from {R:,} resamples" in sheet and "from 500 resamples" not in sheet


@pytest.mark.slow
def test_max_t_refinement_counts_only_what_is_unsettled():
    """Under the max-T step-down refinement adds resamples to the adjusted p-values from the first
    unsettled comparison on, and to the raw p-values of the same pairs (so a raw p-value and its
    adjusted one come from the same resamples): the intervals stay on B, a verdict settled at B
    keeps its p-value, an unsettled one is re-estimated, and the run is the same with 2 jobs."""
    rng = np.random.default_rng(4)
    gold = rng.integers(0, 2, 300)
    preds = [np.where(rng.random(300) < a, gold, 1 - gold) for a in (0.8, 0.74, 0.72, 0.6)]
    comp = make_competition(gold, preds, metrics=["accuracy"], cid="refine")
    fixed = cr.analyze(comp, bootstrap=500, seed=4, refine=False).competitions[0].primary
    whole = cr.analyze(comp, bootstrap=500, seed=4, refine=True)
    refined = whole.competitions[0].primary
    assert any(c.settled is False for c in fixed.pairs), (
        "the case needs an unsettled verdict at B = 500"
    )
    assert refined.verdicts["resamples"] > 500
    assert [(c.ci_low, c.ci_high) for c in refined.pairs] == [
        (c.ci_low, c.ci_high) for c in fixed.pairs
    ]
    t = [abs(c.diff) / np.std(fixed.difference_replicates(c.a, c.b), ddof=1) for c in fixed.pairs]
    first = min(t[k] for k, c in enumerate(fixed.pairs) if c.settled is False)
    for k, (a, b) in enumerate(zip(fixed.pairs, refined.pairs)):
        if t[k] > first:  # ahead of the first unsettled pair in the step-down: not counted again
            assert (
                a.p_maxt == b.p_maxt and a.p_value == b.p_value and a.p_se == b.p_se and a.settled
            )
        else:  # counted again: more resamples behind both p-values
            assert b.p_se < a.p_se or b.p_se == a.p_se == 0
            assert b.p_maxt >= b.p_value
    assert any(a.p_maxt != b.p_maxt for a, b in zip(fixed.pairs, refined.pairs))
    assert cr.analyze(comp, bootstrap=500, seed=4, jobs=2, refine=True).to_json() == whole.to_json()
    assert prose.p_resamples(refined, 500) is None  # what shows a raw p-value says B


def test_a_tiny_alpha_draws_no_resamples_that_cannot_change_a_verdict():
    """At alpha = 1e-9 (the smallest allowed) no corrected p-value can reach alpha even with
    16 x B resamples, so refinement draws nothing beyond B although verdicts are unsettled (a
    p-value of no exceedance has a Monte-Carlo interval reaching 0); its twin at alpha = 0.05
    refines (the test above)."""
    rng = np.random.default_rng(4)
    gold = rng.integers(0, 2, 300)
    preds = [np.where(rng.random(300) < a, gold, 1 - gold) for a in (0.8, 0.74, 0.72, 0.6)]
    comp = make_competition(gold, preds, metrics=["accuracy"], cid="refine")
    with pytest.warns(UserWarning, match="can never reject at alpha = 1e-09"):
        tiny = (
            cr.analyze(comp, bootstrap=500, seed=4, alpha=1e-9, refine=True).competitions[0].primary
        )
    assert any(c.settled is False for c in tiny.pairs)
    assert tiny.verdicts["resamples"] == 500 and tiny.verdicts["may_settle"] is False
    assert all(c.significant is (False if c.settled else None) for c in tiny.pairs)
    usual = cr.analyze(comp, bootstrap=500, seed=4, refine=True).competitions[0].primary
    assert usual.verdicts["resamples"] > 500


def test_borderline_pair_is_reported_with_its_error_and_undecided(tmp_path):
    """Two systems 0.8 points apart on 2,000 items, differing on 60 of them (38 won by A, 22 by B:
    a two-sided p near 0.04): with B = 199 and no refinement the verdict cannot be settled; the
    p-value carries its Monte-Carlo standard error, the verdict is undecided (neither significant
    nor tied, separating no groups) and every output says so (issue 36 item 1)."""
    from compreport.report import model
    from compreport.report.pages.team import team_html

    rng = np.random.default_rng(11)
    gold = rng.integers(0, 2, 2000)
    a = np.where(rng.random(2000) < 0.75, gold, 1 - gold)
    b = a.copy()
    flip = np.concatenate(
        [
            rng.choice(np.flatnonzero(a == gold), 38, replace=False),
            rng.choice(np.flatnonzero(a != gold), 22, replace=False),
        ]
    )
    b[flip] = 1 - b[flip]
    comp = make_competition(
        gold, [a, b], systems=["A.01", "B.01"], metrics=["accuracy"], cid="close"
    )
    analysis = cr.analyze(comp, bootstrap=199, seed=0, refine=False)
    ma = analysis.competitions[0].primary
    (pair,) = ma.pairs
    assert pair.settled is False and 0 < pair.p_se < 0.05 and ma.verdicts["resamples"] == 199
    assert pair.p_adjusted < 0.05 and pair.significant is None and pair.mark == ""
    assert ma.verdicts["undecided"] == 1
    loser = ma.scores[1]
    assert loser.settled_vs_best is False and loser.undecided
    assert loser.differs_from_best is None and loser.ties_with_best is None
    assert ma.scores[0].group == loser.group == "a"  # an undecided pair separates no groups
    best, row = model.leaderboard(analysis.competitions[0], model.Format()).rows
    assert row["marks"].text == "undecided"  # against the best: said once on its row
    assert best["marks"].text == "best, 1 undecided"  # and on the best's row
    diff = model.differences_from_best(analysis.competitions[0], ma, model.Format()).rows[0]
    assert diff["significant"].text == "undecided"
    sheet = team_html(analysis, analysis.competitions[0], loser.system)
    # the letter says why in words; its Monte-Carlo SE stays in the organizer's report (issue 40)
    assert "Undecided: after 199 resamples" in sheet and "Monte-Carlo SE" not in sheet
    assert "is undecided: its p-value is within the Monte-Carlo error" in sheet
    figure = cr.Report(analysis).figure("diff")
    assert [ln.get_gid() for ln in figure.axes[0].lines if ln.get_gid()] == ["diff-undecided"]
    # LaTeX states the resamples, the largest Monte-Carlo standard error and the unsettled verdict
    caption = cr.Report(analysis).to_latex("diff-best")
    assert f"$p$ from 199 resamples, Monte-Carlo standard error at most {pair.p_se:.4f}" in caption
    assert "1 verdict undecided" in caption


def test_randomization_p_values_count_rounds_wherever_their_number_is_given():
    """Under the randomization test the R behind a p-value counts rounds, not resamples: the
    distribution figure's title, the team sheet, the LaTeX caption, the unsettled note and the
    methods' refinement sentence (they all said "from 2,000 resamples")."""
    from compreport.report.latex.tex import num

    rng = np.random.default_rng(2)
    gold = rng.integers(0, 2, 300)
    preds = [np.where(rng.random(300) < a, gold, 1 - gold) for a in (0.8, 0.74, 0.72, 0.6)]
    whole = cr.analyze(
        make_competition(gold, preds, metrics=["accuracy"], cid="refine"),
        bootstrap=500,
        seed=4,
        test="randomization",
        refine=True,
    )
    comp = whole.competitions[0]
    R = comp.primary.verdicts["resamples"]
    assert R > 500
    report = cr.Report(whole)
    assert report.figure("dist").axes[0].get_title(loc="left").endswith(f"(from {R:,} rounds)")
    system = next(s.system for s in comp.primary.scores if not s.is_best)
    sheet = re.sub(r"<[^>]+>", "", team_html(whole, comp, system))
    assert f"from {R:,} rounds" in sheet and "resamples)" not in sheet
    assert f"$p$ from {num(R)} rounds, Monte-Carlo" in report.to_latex("diff-best")
    assert prose.unsettled_note(whole.settings, R).startswith(
        f"Undecided: after {R:,} rounds this verdict"
    )
    methods = "".join(
        s for s in prose.paragraph(whole.settings, whole.competitions) if isinstance(s, str)
    )
    assert (
        "re-estimated from twice as many rounds, up to 8,000 (intervals stay on the first 500 "
        "resamples)" in methods
    )
