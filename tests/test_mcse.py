"""The Monte-Carlo error of the max-T adjusted p-value that decides (issue 36, item 6).

The studentization of max-T uses standard errors from the same resamples as the counts, so the
binomial error of one exceedance proportion understates how much an adjusted p-value moves from
seed to seed; ``p_se`` is estimated by batch means and the "settled" rule uses it.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import compreport as cr
from compreport.stats import maxt, montecarlo
from conftest import make_competition

SEEDS, B = 30, 500
#: SD over seeds / RMS of the estimate must lie within these bounds (median over the pairs with
#: p in (0.01, 0.2)): with 30 seeds an SD is known to about 13 %, and benchmarks/mcse.py measured
#: medians 0.83-1.11 for the batch-means estimate and 1.4-1.9 for the binomial one.
TOLERANCE = (0.75, 1.33)


def _close_systems(n=500, m=10, seed=7):
    """m systems of accuracy 0.78 down to 0.68 on n binary items, errors correlated through a
    shared item difficulty (as benchmarks/size.py draws them)."""
    from scipy.stats import norm

    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 2, n)
    skill = norm.ppf(np.linspace(0.78, 0.68, m)) * np.sqrt(2)
    right = (skill[:, None] - rng.normal(size=n)[None, :] + rng.normal(size=(m, n))) > 0
    preds = np.where(right, gold[None, :], 1 - gold[None, :])
    return make_competition(gold, preds, metrics=["accuracy"], cid="close")


@pytest.fixture(scope="module")
def seeds():
    """The primary metric's pairs (sorted by name) at SEEDS seeds: p_maxt, p_se, settled."""
    comp = _close_systems()
    p, se, st = [], [], []
    for seed in range(SEEDS):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ma = cr.analyze(comp, bootstrap=B, seed=seed, refine=False).competitions[0].primary
        pairs = sorted(ma.pairs, key=lambda c: (c.a, c.b))
        p.append([c.p_maxt for c in pairs])
        se.append([c.p_se for c in pairs])
        st.append([c.settled for c in pairs])
    return np.array(p), np.array(se), np.array(st, dtype=object)


@pytest.mark.slow
def test_p_se_matches_the_seed_to_seed_sd_of_the_adjusted_p_value(seeds):
    """Over 30 seeds at B = 500, the reported p_se of the pairs with p in (0.01, 0.2) is within
    the tolerance of the SD of p_maxt over the seeds; the binomial error is not."""
    p, se, _ = seeds
    sd, mean = p.std(axis=0, ddof=1), p.mean(axis=0)
    keep = (mean > 0.01) & (mean < 0.2)
    assert keep.sum() >= 4, "the case needs pairs near alpha"
    honest = np.median(sd[keep] / np.sqrt(np.mean(se[:, keep] ** 2, axis=0)))
    binomial = np.median(sd[keep] / np.sqrt(np.mean(p[:, keep] * (1 - p[:, keep]) / B, axis=0)))
    assert TOLERANCE[0] < honest < TOLERANCE[1], honest
    assert binomial > TOLERANCE[1], binomial  # the test tells the two apart


@pytest.mark.slow
def test_p_se_is_never_zero(seeds):
    """No exceedance (p = 1/(B+1)) and every resample exceeding (p = 1) still have an error."""
    p, se, _ = seeds
    assert (p == 1 / (B + 1)).any() and (p == 1).any(), "the case needs both ends"
    assert np.isfinite(se).all() and (se > 0).all()
    # at least the binomial error of one exceedance in B (more where some block saw one)
    assert (se[p == 1 / (B + 1)] >= np.sqrt((1 / B) * (1 - 1 / B) / B) * (1 - 1e-12)).all()


@pytest.mark.slow
def test_settled_uses_the_honest_error(seeds):
    """Every verdict settled under the honest error is settled under the binomial rule (the
    bounds only widen), and some pair near alpha that the binomial rule settles is unsettled;
    each of those has alpha within t quantile x p_se of its p-value, and a p_se above the
    binomial one."""
    p, se, st = seeds
    # without refinement (the default) the verdicts are classified once: looks = 1
    t = montecarlo.spread(montecarlo.RISK / p.shape[1], maxt.block_count(B) - 1)
    flipped = 0
    for row_p, row_se, row_st in zip(p, se, st):
        binomial = montecarlo.settled(row_p, B, lambda x: x, 0.05, looks=1)
        honest = np.array([s is True for s in row_st])
        assert not (honest & (binomial == 0)).any()
        changed = (binomial == 1) & ~honest
        flipped += int(changed.sum())
        assert (np.abs(row_p[changed] - 0.05) < t * row_se[changed]).all()
        # unsettled by the error beyond the binomial one, which the blocks measured
        assert (row_se[changed] > montecarlo.standard_error(row_p[changed], B)).all()
    assert flipped > 0


def test_the_batch_means_error_follows_the_blocks():
    """Unit case: with independent normal replicates the step-down within each block gives block
    p-values whose variance / K is the reported variance where it exceeds the binomial one."""
    rng = np.random.default_rng(3)
    obs = np.array([0.70, 0.685, 0.68, 0.60])
    a, b = np.triu_indices(4, k=1)
    reps = rng.normal(obs, 0.01, (1000, 4))
    fam = np.zeros(len(a), dtype=int)
    sd = maxt.StepDown(obs, reps, a, b, fam)
    K = maxt.block_count(1000)
    assert sd.blocks == K == 20
    within = np.array(
        [maxt.StepDown(obs, r, a, b, fam, blocks=0).adjusted() for r in np.split(reps, K)]
    )
    batch = within.var(axis=0, ddof=1) / K
    p = sd.adjusted()
    q = np.clip(np.rint(p * 1001 - 1), 1, 999) / 1000
    expected = np.sqrt(np.maximum(batch, q * (1 - q) / 1000))
    assert sd.standard_error() == pytest.approx(expected, rel=1e-12)
    assert (batch > q * (1 - q) / 1000).any()  # the blocks are what changes some error
    none = maxt.StepDown(obs, reps, a, b, fam, blocks=0)
    assert none.standard_error() == pytest.approx(np.sqrt(q * (1 - q) / 1000), rel=1e-12)


def test_outputs_say_which_p_value_the_error_is_of():
    """The pairs CSV names the column whose error p_se is, the LaTeX caption says it; the
    team letter, which a participant reads, shows no Monte-Carlo SE (issue 40)."""
    from compreport.report import exports
    from compreport.report.pages.team import team_html

    comp = _close_systems(n=300, m=4)
    for correction, of, words in (
        ("maxt", "p_maxt", "(of the max-T adjusted $p$-values, which decide)"),
        ("holm", "p_raw", "(of the raw $p$-values, before the correction)"),
    ):
        analysis = cr.analyze(comp, bootstrap=199, seed=1, refine=False, correction=correction)
        ca = analysis.competitions[0]
        frame = exports.pairs_frame(analysis, ca, "accuracy")
        assert (frame["p_se_of"] == of).all()
        assert frame["p_se"].tolist() == [c.p_se for c in ca.primary.pairs]
        if correction == "maxt":
            assert frame["p_se"].tolist() == pytest.approx(
                [
                    # the batch-means error, at least the binomial one of p_maxt
                    max(se, float(np.sqrt(q * (1 - q) / 199)))
                    for se, q in zip(
                        frame["p_se"],
                        np.clip(np.rint(frame["p_maxt"] * 200 - 1), 1, 198) / 199,
                    )
                ]
            )
        else:
            assert frame["p_se"].tolist() == pytest.approx(
                montecarlo.standard_error(frame["p_raw"].to_numpy(), 199).tolist()
            )
        assert words in cr.Report(analysis).to_latex("diff-best")
        sheet = team_html(analysis, ca, ca.primary.scores[-1].system)
        assert "Monte-Carlo SE" not in sheet and "corrected" in sheet
