"""The max-T step-down (compreport.stats.maxt) against a plain re-implementation, its refinement
counts, and the significance marks at the report's alpha."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from compreport.settings import Settings
from compreport.stats import multitest
from compreport.stats.analysis import analyze_competition, analyze_metric
from compreport.stats.maxt import StepDown, maxt_adjusted
from conftest import make_competition


def plain_stepdown(observed, replicates, a, b, se=None):
    """Westfall-Young / Romano-Wolf step-down written out loop by loop: pairs by decreasing
    |delta|/se; pair j's p-value counts the replicates whose largest null-shifted studentized
    difference among pairs j, j+1, ... reaches t_j; then the running maximum."""
    delta = observed[a] - observed[b]
    d = replicates[:, a] - replicates[:, b]
    se = d.std(axis=0, ddof=1) if se is None else se
    t = np.abs(delta) / se
    star = np.abs(d - delta) / se
    order = sorted(range(len(a)), key=lambda k: -t[k])
    p = np.empty(len(a))
    running = 0.0
    for pos, j in enumerate(order):
        rest = order[pos:]
        maxima = star[:, rest].max(axis=1)
        count = sum(1 for mx in maxima if mx >= t[j] - 1e-10 * max(1.0, t[j]))
        running = max(running, (1 + count) / (len(replicates) + 1))
        p[j] = running
    return p


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_adjusted_p_values_match_a_plain_implementation(seed):
    rng = np.random.default_rng(seed)
    m, B = 7, 400
    observed = np.sort(rng.uniform(0.6, 0.8, m))[::-1]
    # replicates rounded to a grid, as accuracy's are: ties between T* and t happen
    replicates = np.round(observed + rng.normal(0, 0.03, (B, m)) + rng.normal(0, 0.02, (B, 1)), 3)
    a, b = np.triu_indices(m, k=1)
    ours = maxt_adjusted(observed, replicates, a, b)
    assert np.allclose(ours, plain_stepdown(observed, replicates, a, b), rtol=0, atol=1e-12)
    assert (ours >= 1 / (B + 1)).all() and (ours <= 1).all()
    # lower is better: the statistic is two-sided, so the same p-values
    assert np.allclose(maxt_adjusted(observed, replicates, a, b, higher_is_better=False), ours)


def test_refinement_counts_are_those_of_the_joined_replicates():
    """Adding replicates with nothing unsettled-before gives the p-values of one pass over all of
    them with the first block's standard errors."""
    rng = np.random.default_rng(5)
    m = 6
    observed = np.linspace(0.8, 0.7, m)
    first, more = (observed + rng.normal(0, 0.02, (n, m)) for n in (300, 500))
    a, b = np.triu_indices(m, k=1)
    step = StepDown(observed, first, a, b, np.zeros(len(a), dtype=int))
    step.add(more)
    se = (first[:, a] - first[:, b]).std(axis=0, ddof=1)
    assert np.allclose(
        step.adjusted(), plain_stepdown(observed, np.vstack([first, more]), a, b, se), atol=1e-12
    )
    assert (step.resamples == 800).all()
    # counting again only from an unsettled pair on leaves the pairs before it as they were
    before = step.adjusted().copy(), step.resamples.copy()
    t = np.abs(observed[a] - observed[b]) / se
    unsettled = np.zeros(len(a), dtype=bool)
    unsettled[np.argsort(-t)[4]] = True
    step.add(observed + rng.normal(0, 0.02, (200, m)), unsettled=unsettled)
    ahead = np.argsort(-t)[:4]
    assert (step.resamples[ahead] == before[1][ahead]).all()
    assert (np.delete(step.resamples, ahead) == 1000).all()


def test_a_constant_difference_and_identical_systems():
    rng = np.random.default_rng(0)
    base = rng.normal(0.7, 0.02, (200, 1))
    replicates = np.hstack([base + 0.1, base, base])  # 0 - 1 always 0.1; 1 and 2 identical
    observed = np.array([0.8, 0.7, 0.7])
    p = maxt_adjusted(observed, replicates, np.array([0, 1]), np.array([1, 2]))
    assert p[0] == pytest.approx(1 / 201) and p[1] == 1.0


def test_marks_use_only_thresholds_up_to_alpha():
    """At alpha = 0.01 a p-value of 0.011 is not significant and gets no mark (the fixed .05/.1
    thresholds once printed '*'); every stored mark is a significant verdict and matches its p."""
    assert (
        multitest.stars(0.011, 0.01) == ""
        and multitest.stars(0.009, 0.01) == "**"
        and multitest.stars(0.04, 0.05) == "*"
    )
    assert multitest.stars(0.07, 0.05) == "" and multitest.stars(0.07, 0.1) == "†"
    rng = np.random.default_rng(3)
    obs = np.array([0.80, 0.76, 0.75, 0.70])
    reps = obs + rng.normal(0, 0.02, (2000, 4))
    ma = analyze_metric(
        "accuracy",
        {},
        True,
        1.0,
        True,
        list("abcd"),
        obs,
        reps,
        Settings(bootstrap=2000, alpha=0.01, correction="none", refine=False),
        100,
    )
    between = [c for c in ma.pairs if 0.01 <= c.p_adjusted < 0.05]
    assert between, "the case needs a p-value between 0.01 and 0.05"
    assert all(c.mark == "" and c.significant is False for c in between)
    for c in ma.pairs:
        assert (c.mark != "") == bool(c.significant)
        assert c.mark == multitest.stars(c.p_adjusted, 0.01)
    assert ma.verdicts["marks"] == [[0.001, "***"], [0.01, "**"]]


def test_vs_best_is_corrected_over_all_pairs():
    """The best is chosen on the same data, so its comparisons are corrected over every pair: the
    verdicts of vs-best are those of all-pairs on the best's row, under every correction."""
    rng = np.random.default_rng(2)
    gold = rng.integers(0, 2, 300)
    preds = [np.where(rng.random(300) < q, gold, 1 - gold) for q in (0.8, 0.77, 0.74, 0.7, 0.6)]
    comp = make_competition(gold, preds)
    for correction in ("maxt", "holm", "bonferroni"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            vs = analyze_competition(
                comp,
                Settings(bootstrap=1000, family="vs-best", correction=correction, refine=False),
                progress=False,
            ).primary
            allp = analyze_competition(
                comp, Settings(bootstrap=1000, correction=correction, refine=False), progress=False
            ).primary
        assert [c.p_adjusted for c in vs.vs_best] == [c.p_adjusted for c in allp.vs_best]
        assert [s.differs_from_best for s in vs.scores] == [
            s.differs_from_best for s in allp.scores
        ]
        assert vs.verdicts["tested"] == 10
        assert all(c.significant is None for c in vs.pairs if vs.best not in (c.a, c.b))


def test_maxt_needs_the_bootstrap_test():
    from compreport.errors import InputError

    assert Settings().correction == "maxt" and Settings(test="randomization").correction == "holm"
    assert Settings(test="berg-kirkpatrick").correction == "holm"
    with pytest.raises(InputError, match="maxt needs `test` bootstrap"):
        Settings(test="randomization", correction="maxt")


def test_vs_best_settles_over_the_family_it_corrects():
    """Under vs-best the best's comparisons are corrected over every pair, so whether their verdicts
    are settled is judged over every pair too: Bonferroni over the 6 pairs puts A–C's bounds at
    [0.034, 0.080], across alpha (judged over the best's 3 comparisons alone it read 'settled'); and
    max-T refinement must count again a pair without the best whose p-value the best's comparisons
    inherit through the step-down's running maximum."""
    rng = np.random.default_rng(1)
    obs = np.array([1.0, 0.0, 0.0, 0.0])
    reps = obs + rng.normal(size=(10000, 4)) * (0.379 / np.sqrt(2))
    s = Settings(bootstrap=10000, family="vs-best", correction="bonferroni", refine=False)
    ma = analyze_metric("x", {}, True, None, True, list("ABCD"), obs, reps, s, 100)
    ac = next(c for c in ma.vs_best if c.b == "C")
    assert 0.05 < ac.p_adjusted < 0.06 and ac.settled is False
    # max-T: B and C move together, so A–C's adjusted p-value is B–C's through the running maximum
    obs = np.array([1.0, 0.3, 0.0])
    rng = np.random.default_rng(9)
    e = rng.normal(size=(1000, 4))
    reps = np.column_stack(
        [
            obs[0] + 0.3147 * e[:, 0],
            obs[1] + 0.3147 * e[:, 3] + 0.095 * e[:, 1],
            obs[2] + 0.3147 * e[:, 3] + 0.095 * e[:, 2],
        ]
    )
    state = {}
    ma = analyze_metric(
        "x",
        {},
        True,
        None,
        True,
        list("ABC"),
        obs,
        reps,
        Settings(bootstrap=1000, family="vs-best", refine=True),
        100,
        state=state,
    )
    bc = [k for k, c in enumerate(ma.pairs) if (c.a, c.b) == ("B", "C")][0]
    assert ma.pairs[bc].settled is None and state["unsettled"][bc]  # not decided, yet to be refined
    assert ma.verdicts["may_settle"] is True


def test_every_significant_verdict_has_a_mark_whatever_alpha():
    """Review finding: at alpha = 0.08 a significant p of 0.062 had no mark and the heat map painted
    it 'p >= 0.08'. The weakest mark is alpha itself."""
    rng = np.random.default_rng(3)
    obs = np.array([0.80, 0.77, 0.76, 0.70])
    reps = obs + rng.normal(0, 0.02, (2000, 4))
    for alpha in (0.03, 0.08, 0.2):
        ma = analyze_metric(
            "accuracy",
            {},
            True,
            1.0,
            True,
            list("abcd"),
            obs,
            reps,
            Settings(bootstrap=2000, alpha=alpha, correction="none", refine=False),
            100,
        )
        assert all((c.mark != "") == bool(c.significant) for c in ma.pairs)
        assert ma.verdicts["marks"][-1][0] == alpha
