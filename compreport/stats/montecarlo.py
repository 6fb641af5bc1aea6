"""Monte-Carlo error of estimated p-values, whether a verdict is settled despite it, and when to
draw more resamples.

A p-value estimated from B resamples is ``p = (1 + k) / (B + 1)`` (k exceedances; paired bootstrap
or approximate randomization): a slightly conservative estimate of the exceedance probability q that
infinitely many resamples would give. Its Monte-Carlo standard error is that of ``k / B``:
``sqrt(q (1 - q) / B)`` at ``q = k / B``.

A verdict is *settled* when the correction (Bonferroni, Holm and Benjamini-Hochberg are monotone
in every p-value; a max-T adjusted p-value is itself one exceedance proportion) gives it for the
estimates, for the lower and for the upper Clopper-Pearson bounds on every q of the family
(two-sided, at level :data:`RISK` divided among the family's comparisons and among the
:data:`LOOKS` times refinement may look at them): with probability at least 1 - RISK the
settled verdicts are those infinitely many resamples would give. Otherwise it is unsettled: more
resamples could change it. This is the classification of MMCTest (Gandy & Hahn 2014, Scand. J.
Statist. 41:1083-1101); refinement (``Settings.refine``, :func:`worth_refining`) draws more
resamples for the whole competition while some unsettled verdict may still settle, doubling up
to :data:`REFINE_FACTOR` x B.

**Max-T adjusted p-values** are exceedance proportions too, but over statistics studentized by
standard errors estimated from the same B resamples, so they vary from seed to seed more than the
binomial error says (1.5-1.9 x at B = 2,000: ``benchmarks/mcse.py``), and the Clopper-Pearson
bounds hold only conditionally on the first B resamples. For them :func:`settled` is given their
batch-means standard error ``se`` (:meth:`compreport.stats.maxt.StepDown.standard_error`, from K
blocks of the same resamples) and widens each bound to ``p -/+ c se`` where that is wider, ``c``
the two-sided Student-t quantile with K - 1 degrees of freedom at the same level. This is a
normal approximation with an estimated standard error, not an exact bound: "with probability
about 1 - RISK" (at 10 blocks and more the t quantile covers the error of the estimated se; the
normal tail at 4-5 standard errors is an approximation for a count). It is never narrower than
the binomial rule, which it keeps where the blocks vary no more than an exceedance proportion would
and for small counts, where the normal approximation fails.
"""

from __future__ import annotations

import numpy as np

from compreport.stats.multitest import rejects, resamples_needed, smallest_corrected_p

#: Probability that some settled verdict of a family differs from its infinite-resample verdict.
RISK = 1e-3
#: Refinement (``Settings.refine``) re-estimates p-values from up to this many times B resamples.
REFINE_FACTOR = 16
#: How many times the verdicts are classified at most: after B resamples and after each doubling.
LOOKS = 1 + int(np.log2(REFINE_FACTOR))


def exceedances(p: np.ndarray, B: int) -> np.ndarray:
    """The exceedance counts k behind p-values ``p = (1 + k)/(B + 1)`` (NaN stays NaN).

    Examples
    --------
    >>> exceedances([0.001, 0.5, float("nan")], 999).tolist()
    [0.0, 499.0, nan]
    """
    return np.rint(np.asarray(p, dtype=float) * (B + 1) - 1)


def standard_error(p: np.ndarray, B: int) -> np.ndarray:
    """Monte-Carlo standard error of p-values estimated from ``B`` resamples; NaN when B = 0."""
    p = np.asarray(p, dtype=float)
    if np.all(np.asarray(B) < 1):
        return np.full(p.shape, np.nan)
    q = np.clip(exceedances(p, B) / B, 0.0, 1.0)
    return np.sqrt(q * (1 - q) / B)


def p_bounds(p: np.ndarray, B: int, level: float) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper bounds on the exceedance probabilities behind p-values ``p`` (estimated from
    ``B`` resamples): the two-sided Clopper-Pearson interval of ``k / B`` at error ``level``."""
    from scipy.special import betaincinv

    p = np.asarray(p, dtype=float)
    k = exceedances(p, B)
    ok = np.isfinite(k)
    kk = np.where(ok, np.clip(k, 0, B), 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        lo = np.where(kk > 0, betaincinv(np.maximum(kk, 1), B - kk + 1, level / 2), 0.0)
        hi = np.where(kk < B, betaincinv(kk + 1, np.maximum(B - kk, 1), 1 - level / 2), 1.0)
    return np.where(ok, lo, np.nan), np.where(ok, hi, np.nan)


def settled(
    p: np.ndarray,
    B,
    decide,
    alpha: float,
    se: np.ndarray | None = None,
    df: int = 0,
    looks: int = LOOKS,
) -> np.ndarray:
    """Whether the verdict ``decide(p) < alpha`` of each p-value is settled (module docstring).

    Parameters
    ----------
    p : ndarray
        Raw p-values of one family (NaN: not tested).
    B : int or ndarray of int
        The resamples they were estimated from: one number, or one per p-value.
    decide : callable
        Maps raw p-values to the p-values behind the verdicts (the correction over the family).
    alpha : float
        The significance level.
    se : ndarray, optional
        Estimated Monte-Carlo standard errors of ``p`` (max-T: from batch means); the bounds are
        widened to ``p -/+ c se`` where that is wider (module docstring); NaN entries, and the
        default None, keep the Clopper-Pearson bounds.
    df : int
        Degrees of freedom of ``se`` (blocks - 1) for the Student-t quantile ``c``; 0: the normal
        quantile.
    looks : int
        How many times the verdicts are classified at most, among which :data:`RISK` is divided:
        :data:`LOOKS` (default) when refinement may look after each doubling, 1 without it.

    Returns
    -------
    ndarray of float, shape of ``p``
        1.0 (settled), 0.0 (unsettled), NaN where the verdict is undefined.

    Examples
    --------
    >>> p = np.array([61 / 2001])                 # 60 exceedances in 2,000: binomial se 0.0038
    >>> settled(p, 2000, lambda x: x, 0.05).tolist()
    [1.0]
    >>> settled(p, 2000, lambda x: x, 0.05, se=np.array([0.0061]), df=39).tolist()
    [0.0]
    """
    p = np.asarray(p, dtype=float)
    tested = int(np.isfinite(p).sum())
    out = np.full(p.shape, np.nan)
    if np.all(np.asarray(B) < 1) or tested == 0:
        return out
    lo, hi = p_bounds(p, B, RISK / (tested * looks))
    if se is not None:
        width = spread(RISK / (tested * looks), df) * np.asarray(se, dtype=float)
        lo = np.fmin(lo, np.maximum(p - width, 0.0))
        hi = np.fmax(hi, np.minimum(p + width, 1.0))
    at_est, at_lo, at_hi = decide(p), decide(lo), decide(hi)
    ok = np.isfinite(at_est) & np.isfinite(at_lo) & np.isfinite(at_hi)
    est = rejects(at_est[ok], alpha)
    out[ok] = (rejects(at_lo[ok], alpha) == est) & (rejects(at_hi[ok], alpha) == est)
    return out


def spread(level: float, df: int = 0) -> float:
    """The two-sided quantile at error ``level``: Student's t with ``df`` degrees of freedom, or
    the normal one when ``df`` is 0.

    >>> round(spread(1e-3 / 5, 0), 2), round(spread(1e-3 / 5, 39), 2)
    (3.72, 4.1)
    """
    from scipy.stats import norm, t

    return float(t.isf(level / 2, df) if df > 0 else norm.isf(level / 2))


def may_settle(p: np.ndarray, B: int, cap: int, decide, alpha: float, now: np.ndarray) -> bool:
    """Whether drawing ``cap`` resamples may settle a verdict that is unsettled now.

    ``now`` is :func:`settled` of the raw p-values ``p`` from ``B`` resamples; the answer is
    :func:`settled` of the p-values that ``cap`` resamples would give if every exceedance
    proportion stayed where it is. A verdict whose corrected p-value sits on alpha never settles;
    it alone does not make the analysis draw more.
    """
    if cap <= B or not (now == 0).any():
        return False
    q = exceedances(p, B) / B
    future = settled((1 + np.rint(q * cap)) / (cap + 1), cap, decide, alpha)
    return bool(((now == 0) & (future == 1)).any())


def could_reject(family: str, tested: int, resamples: int, correction: str, alpha: float) -> bool:
    """Whether some of ``tested`` comparisons of ``family`` can reach ``alpha`` after
    ``correction`` with ``resamples`` (:func:`~compreport.stats.multitest.smallest_corrected_p`).

    >>> could_reject("all-pairs", 28, 10_000, "holm", 0.05)
    True
    >>> could_reject("all-pairs", 28, 500, "holm", 0.05)
    False
    """
    return bool(rejects(smallest_corrected_p(family, tested, resamples, correction), alpha))


def worth_refining(metrics, cap: int, alpha: float) -> bool:
    """Whether to draw more resamples for a competition's metrics.

    True when some :class:`~compreport.stats.results.MetricAnalysis` of ``metrics`` has a verdict
    that may settle within ``cap`` resamples (its stored ``verdicts["may_settle"]``,
    :func:`may_settle`), or no comparison can be significant with the resamples drawn
    (``verdicts["can_reject"]`` False) but some could with ``cap``. Used to stop, never to decide.
    """
    for ma in metrics:
        v = ma.verdicts
        if v.get("may_settle"):
            return True
        if (
            v.get("can_reject") is False
            and v.get("tested")
            and could_reject(v["family"], int(v["tested"]), cap, v["correction"], alpha)
        ):
            return True
    return False


def b_needed(tested: int, alpha: float, correction: str, refine: bool) -> int:
    """The smallest B with which some comparison can reach ``alpha`` after ``correction``.

    Of ``tested`` comparisons: :func:`~compreport.stats.multitest.resamples_needed`, divided by
    :data:`REFINE_FACTOR` (rounded up) when refinement may draw that many times B; not under
    max-T, whose refinement counts more resamples only where a verdict is unsettled and keeps the
    standard errors of the first B.

    Examples
    --------
    >>> b_needed(28, 0.05, "holm", refine=False)     # 28 / (B + 1) < 0.05 from B = 560
    560
    >>> b_needed(28, 0.05, "holm", refine=True)      # 16 x 35 = 560
    35
    """
    need = resamples_needed(tested, alpha, correction)
    return -(-need // REFINE_FACTOR) if refine and correction != "maxt" else need
