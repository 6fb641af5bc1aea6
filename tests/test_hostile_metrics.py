"""Hostile numbers and hostile user metric code (issue 30): each bad case next to its good twin."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats

from compreport.stats import resampling as bootstrap
from conftest import make_competition, prepare

# --------------------------------------------------------------------------- Pearson at any scale


def _pearson_data(n=40, seed=4):
    rng = np.random.default_rng(seed)
    gold = np.round(rng.normal(3, 1, n), 2)
    a = np.round(gold + rng.normal(0, 0.8, n), 2)
    b = np.round(0.4 * gold + 7 + rng.normal(0, 0.5, n), 2)
    return gold, np.stack([a, b])


@pytest.mark.parametrize("scale", [1e200, 1e160, 1e-200, 1e-160, 1.0])
def test_pearson_is_scipys_at_extreme_scales(scale):
    """Values scaled by 1e200 or 1e-200 have the correlation scipy gives (not "undefined"): the
    sums are formed from values centred and scaled into [-1, 1]; the twin, scale 1, too."""
    gold, preds = _pearson_data()
    gold, preds = gold * scale, preds * scale
    comp = make_competition(gold, preds, metrics=["pearson"])
    p = prepare(comp, "pearson")
    res = bootstrap.run([p], comp.n, 2, B=200, seed=0, progress=False)
    expected = [scipy.stats.pearsonr(gold, x)[0] for x in preds]
    np.testing.assert_allclose(res.observed[0], expected, rtol=0, atol=1e-12)
    assert np.isfinite(res.replicates[0]).all()
    # the replicates are those of the same data at ordinary scale
    plain = make_competition(*_pearson_data(), metrics=["pearson"])
    ref = bootstrap.run([prepare(plain, "pearson")], comp.n, 2, B=200, seed=0, progress=False)
    np.testing.assert_allclose(res.replicates[0], ref.replicates[0], rtol=0, atol=1e-12)


@pytest.mark.parametrize("scales", [(1e200, 1e-200), (1e-200, 1.0), (1e160, 1e160)])
def test_pearson_randomization_with_systems_on_extreme_scales(scales):
    """The randomization test swaps raw predictions of systems on scales 1e400 apart: its
    p-value is that of swapping the raw vectors (scipy on every swap mask, exhaustively)."""
    gold, preds = _pearson_data(n=10, seed=7)
    preds = preds * np.array(scales)[:, None]
    n = len(gold)
    masks = ((np.arange(1 << n)[:, None] >> np.arange(n)) & 1).astype(bool)
    g = np.broadcast_to(gold, masks.shape)
    a, b = preds
    with np.errstate(all="ignore"):
        sa = scipy.stats.pearsonr(g, np.where(masks, b, a), axis=1).statistic
        sb = scipy.stats.pearsonr(g, np.where(masks, a, b), axis=1).statistic
    observed = abs(scipy.stats.pearsonr(gold, a)[0] - scipy.stats.pearsonr(gold, b)[0])
    exact = np.mean(np.abs(sa - sb) >= observed - 1e-10)
    comp = make_competition(gold, preds, metrics=["pearson"])
    R = 6000
    res = bootstrap.run(
        [prepare(comp, "pearson")], n, 2, R, seed=3, randomization=True, progress=False
    )
    (got,) = res.randomization_p(0, np.array([0]), np.array([1]))
    se = np.sqrt(exact * (1 - exact) / R)
    assert abs(got - exact) <= 4 * se + 1 / (R + 1), (got, exact)


def test_pearson_constant_system_at_extreme_scale_is_undefined():
    """A constant system stays undefined (NaN) at 1e200 as at 1; the other system is scored."""
    gold, preds = _pearson_data()
    for scale in (1e200, 1.0):
        comp = make_competition(
            gold * scale,
            np.stack([preds[0] * scale, np.full(len(gold), 0.3 * scale)]),
            metrics=["pearson"],
        )
        res = bootstrap.run([prepare(comp, "pearson")], comp.n, 2, B=50, seed=0, progress=False)
        assert np.isnan(res.observed[0][1]) and np.isnan(res.replicates[0][:, 1]).all()
        assert res.observed[0][0] == pytest.approx(scipy.stats.pearsonr(gold, preds[0])[0])
