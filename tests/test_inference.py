"""p-values, corrections, ordering, intervals and competitiveness on hand-checkable inputs."""

import warnings

import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests

from compreport.settings import Settings
from compreport.stats import competitiveness, intervals, multitest, ranking, significance
from compreport.stats.analysis import analyze_competition, analyze_metric
from conftest import make_competition


def test_berg_kirkpatrick_p_value_counts_replicates_at_or_beyond_twice_delta():
    d = np.array([[0.0], [0.1], [0.2], [0.25], [0.3]])
    # delta = 0.1 -> 2*delta = 0.2: replicates 0.2, 0.25, 0.3 count -> (1 + 3) / 6
    assert significance.berg_kirkpatrick_p_value(d, np.array([0.1]))[0] == pytest.approx(4 / 6)


def test_two_sided_p_value_by_hand():
    """The null-shifted bootstrap: |d* - delta| >= |delta|. With delta = 0.1 the replicates 0.0
    (|-0.1|), 0.2 (0.1), 0.25 and 0.3 count, 0.1 and 0.15 do not -> (1 + 4) / 7; a negative
    observed difference counts by its size the same way (the test is symmetric)."""
    d = np.array([[0.0], [0.1], [0.15], [0.2], [0.25], [0.3]])
    assert significance.bootstrap_p_value(d, np.array([0.1]))[0] == pytest.approx(5 / 7)
    assert significance.bootstrap_p_value(-d, np.array([-0.1]))[0] == pytest.approx(5 / 7)
    # the one-sided test of the paper counts only 0.2, 0.25 and 0.3 beyond 2 delta: (1 + 3) / 7
    assert significance.berg_kirkpatrick_p_value(d, np.array([0.1]))[0] == pytest.approx(4 / 7)


def test_p_value_never_zero_and_identical_systems_get_one():
    d = np.zeros((1000, 1))
    assert significance.bootstrap_p_value(d, np.array([0.0]))[0] == 1.0
    far = np.full((1000, 1), 0.05)
    p = significance.bootstrap_p_value(far, np.array([0.5]))[0]
    assert p == pytest.approx(1 / 1001) and p > 0


def test_p_value_tolerates_rounding_at_the_threshold():
    # 3 * (1/7) - 2 * (1/7) is not exactly 1/7 in floating point; 2*delta must still count
    delta = 3 / 7 - 2 / 7
    d = np.array([[2 / 7], [0.0]])
    assert significance.berg_kirkpatrick_p_value(d, np.array([delta]))[0] == pytest.approx(2 / 3)
    # and |d* - delta| = delta at 0 and 2 delta for the two-sided test
    assert significance.bootstrap_p_value(d, np.array([delta]))[0] == pytest.approx(1.0)


def test_corrections_are_statsmodels_with_results_json_keys():
    p = np.array([0.2030, 0.0551, 0.0012, 0.00005, 0.1490])
    out = multitest.correct(p)
    assert set(out) == {"bonferroni", "holm", "bh"}
    np.testing.assert_allclose(out["bonferroni"], np.minimum(1, p * 5))
    np.testing.assert_allclose(out["holm"], multipletests(p, method="holm")[1])
    np.testing.assert_allclose(out["bh"], multipletests(p, method="fdr_bh")[1])
    # Holm by hand: sorted p * (5, 4, 3, 2, 1), running maximum
    srt = np.sort(p) * np.arange(5, 0, -1)
    holm = np.maximum.accumulate(srt)
    np.testing.assert_allclose(np.sort(out["holm"]), np.minimum(1, holm))
    assert multitest.correct(np.array([]))["holm"].size == 0


def test_corrections_are_bit_identical_to_statsmodels():
    """Our Bonferroni/Holm/BH are statsmodels' multipletests, operation for operation: the same
    bits, on random families with ties, p = 1 and the smallest bootstrap p-values."""
    rng = np.random.default_rng(7)
    for size in (1, 2, 3, 10, 66, 465, 1128):
        p = rng.choice(np.r_[rng.random(size), 1 / 10001, 2 / 10001, 1.0], size=size)  # with ties
        out = multitest.correct(p)
        for key, method in (("bonferroni", "bonferroni"), ("holm", "holm"), ("bh", "fdr_bh")):
            assert np.array_equal(out[key], multipletests(p, method=method)[1]), (size, key)
    p = np.array([0.01, np.nan, 0.04, 0.03])  # an untested comparison is outside the family
    out = multitest.correct(p)
    assert np.isnan(out["holm"][1])
    assert np.array_equal(out["holm"][[0, 2, 3]], multipletests(p[[0, 2, 3]], method="holm")[1])


def test_order_and_competition_ranks_with_ties_and_orientation():
    obs = np.array([0.5, 0.7, 0.7, 0.6])
    order, rank = ranking.order_systems(obs, True)
    assert list(order) == [1, 2, 3, 0]
    assert list(rank) == [4, 1, 1, 3]
    order, rank = ranking.order_systems(np.array([0.3, 0.1, 0.2]), False)  # MAE: lowest first
    assert list(order) == [1, 2, 0] and list(rank) == [3, 1, 2]


def test_percentile_interval_matches_numpy_quantile():
    rng = np.random.default_rng(1)
    reps = rng.normal(size=(2000, 3))
    lo, hi = intervals.percentile_interval(reps, 0.05)
    np.testing.assert_allclose(lo, np.quantile(reps, 0.025, axis=0))
    np.testing.assert_allclose(hi, np.quantile(reps, 0.975, axis=0))


def test_competitiveness_bounded_metric_and_error_metric():
    obs = np.array([0.80, 0.70, 0.60, 0.50])
    order = np.array([0, 1, 2, 3])
    pv = {"none": np.array([0.2, 0.01, 0.001])}
    pp = {"none": np.array([0.2, 0.01, 0.001, 0.3, 0.04, 0.06])}
    c = competitiveness.competitiveness(obs, order, pv, pp, 0.05, 100, 1.0, True)
    assert c["possible_comparisons"] == 6 and c["m"] == 4 and c["n"] == 100
    assert c["ties_with_winner"] == {"none": 1}
    assert c["ties"] == {"none": 3}
    assert c["win_minus_median"] == pytest.approx(0.80 - 0.65)
    assert c["cv"] == pytest.approx(100 * np.std(obs, ddof=1) / obs.mean())
    assert c["ppi"] == pytest.approx(20.0) and c["ppi_unit"] == "percent"
    mae = np.array([0.31, 0.40, 0.52])
    c = competitiveness.competitiveness(
        mae, np.array([0, 1, 2]), {"none": np.ones(2)}, {"none": np.ones(3)}, 0.05, 50, 0.0, False
    )
    assert c["ppi"] == pytest.approx(0.31) and c["ppi_unit"] == "metric"


def test_analyze_metric_orients_differences_for_lower_is_better():
    rng = np.random.default_rng(0)
    obs = np.array([0.5, 0.3, 0.4])  # MAE: system 1 best
    reps = obs + rng.normal(0, 0.01, size=(500, 3))
    ma = analyze_metric("mae", {}, False, 0.0, True, ["a", "b", "c"], obs, reps, Settings(), 100)
    assert ma.best == "b"
    assert [s.system for s in ma.scores] == ["b", "c", "a"]
    assert all(c.diff > 0 for c in ma.vs_best)
    assert [(c.a, c.b) for c in ma.pairs] == [("b", "c"), ("b", "a"), ("c", "a")]
    assert ma.pairs[0].diff == pytest.approx(0.1)
    # one family: the comparisons with the best are corrected over all 3 pairs, as the pairs are
    # (the best is chosen on the same data)
    for c in ma.vs_best + ma.pairs:
        assert c.p_bonferroni == pytest.approx(min(1, 3 * c.p_value))


def test_a_corrected_p_value_at_alpha_does_not_reject():
    """Holm over 28 pairs at the floor 1/(B + 1) with B = 559 is 28/560 = 0.05 exactly, which
    floating point computes as 0.049999999999999996: the rule reads it as exact arithmetic does (no
    rejection), and the advice on B says 560, the first B that can reject."""
    from compreport.stats.multitest import rejects, resamples_needed

    assert 28 * (1 / 560) < 0.05 and not rejects(28 * (1 / 560), 0.05) and rejects(0.0499, 0.05)
    assert resamples_needed(28, 0.05, "holm") == 560
    # nothing tested
    assert not rejects(float("nan"), 0.05) and not multitest.cannot_reject(float("nan"), 0.05)
    # the marks read p < threshold the same way: k x 1/(1000 k) is 0.001, whatever floating point
    # stores
    from compreport.stats.multitest import stars

    k = next(k for k in range(2, 500) if k * (1 / (k * 1000)) < 0.001)
    assert stars(k * (1 / (k * 1000))) == "**" and stars(0.0009) == "***"
    rng = np.random.default_rng(1)
    gold = rng.integers(0, 2, 600)
    preds = [
        np.where(rng.random(600) < acc, gold, 1 - gold)
        for acc in (0.98, 0.86, 0.74, 0.62, 0.5, 0.38, 0.26, 0.14)
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # B too small for Holm over 28 pairs to reject
        ma = analyze_competition(
            make_competition(gold, preds),
            Settings(bootstrap=559, refine=False, correction="holm"),
            progress=False,
        ).primary
    assert ma.verdicts["can_reject"] is False
    assert ma.verdicts["b_needed"] == 560  # Holm over 28 pairs: 28 / (B + 1) < 0.05 from B = 560
    assert all(
        p.p_adjusted == pytest.approx(0.05) and p.significant is (False if p.settled else None)
        for p in ma.pairs
    )
    assert len({s.group for s in ma.scores}) == 1
    # the summary does not count those forced ties: Holm's count is not computable at this B
    assert ma.competitiveness["ties"]["holm"] is None
    assert ma.competitiveness["not_computable"]["ties"]["holm"]["b_needed"] == 560
