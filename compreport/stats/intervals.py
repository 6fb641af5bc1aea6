"""Confidence intervals at level 1 - alpha from bootstrap replicates: percentile, BCa, normal.

Replicates are (B, k) arrays, one column per statistic; every function works column by column.
"""

from __future__ import annotations

import numpy as np


def percentile_interval(replicates: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval at confidence 1 - alpha, column by column.

    The alpha/2 and 1 - alpha/2 quantiles of each column, with numpy's default linear
    interpolation; NaN when there are no replicates.

    Parameters
    ----------
    replicates : ndarray, shape (B, k)
        Bootstrap replicates of k statistics.
    alpha : float
        1 - confidence level.

    Returns
    -------
    lo, hi : ndarray, shape (k,)

    Examples
    --------
    >>> import numpy as np
    >>> lo, hi = percentile_interval(np.arange(1.0, 101.0)[:, None], 0.1)
    >>> lo.tolist(), hi.tolist()
    ([5.95], [95.05])
    """
    if replicates.shape[0] == 0:
        nan = np.full(replicates.shape[1:], np.nan)
        return nan, nan
    # one contiguous row per column: numpy partitions a row about twice as fast as a strided column
    lo, hi = np.quantile(np.ascontiguousarray(replicates.T), [alpha / 2, 1 - alpha / 2], axis=-1)
    return lo, hi


def interval(
    replicates: np.ndarray,
    theta_hat: np.ndarray,
    method: str,
    alpha: float,
    jack: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Confidence interval at level 1 - alpha by ``method``, column by column.

    Parameters
    ----------
    replicates : ndarray, shape (B, k)
        Bootstrap replicates of k statistics.
    theta_hat : ndarray, shape (k,)
        The statistics on the full data (``bca`` and ``normal``).
    method : {"percentile", "bca", "normal"}
        :func:`percentile_interval`, :func:`bca_interval` or :func:`normal_interval`.
    alpha : float
        1 - confidence level.
    jack : (ndarray, ndarray), optional
        Leave-one-out estimates (J, k) and their weights (J,); needed by ``bca``.

    Returns
    -------
    lo, hi : ndarray, shape (k,)

    Raises
    ------
    ValueError
        For an unknown ``method``.
    """
    if method == "percentile":
        return percentile_interval(replicates, alpha)
    if method == "bca":
        return bca_interval(replicates, theta_hat, jack[0], jack[1], alpha)
    if method == "normal":
        return normal_interval(replicates, theta_hat, alpha)
    raise ValueError(f"unknown CI method {method!r}")


def _quantile_per_column(sorted_reps: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Linear-interpolated quantile ``q[j]`` of column ``j`` of column-sorted replicates (B, k)."""
    B = sorted_reps.shape[0]
    pos = np.clip(q, 0, 1) * (B - 1)
    lo = np.floor(pos).astype(int)
    hi = np.minimum(lo + 1, B - 1)
    cols = np.arange(sorted_reps.shape[1])
    frac = pos - lo
    return sorted_reps[lo, cols] * (1 - frac) + sorted_reps[hi, cols] * frac


def bca_interval(
    replicates: np.ndarray,
    theta_hat: np.ndarray,
    jack: np.ndarray,
    weights: np.ndarray,
    alpha: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Bias-corrected and accelerated interval (Efron 1987), column by column.

    Parameters
    ----------
    replicates : ndarray, shape (B, k)
        Bootstrap replicates of k statistics.
    theta_hat : ndarray, shape (k,)
        The statistics on the full data.
    jack : ndarray, shape (J, k)
        Leave-one-out estimates.
    weights : ndarray, shape (J,)
        How many items (or clusters) each row of ``jack`` stands for.
    alpha : float
        1 - confidence level.

    Returns
    -------
    lo, hi : ndarray, shape (k,)
        NaN when there are no replicates.

    Notes
    -----
    The bias correction uses the mid-rank proportion of replicates below ``theta_hat``
    (as scipy.stats.bootstrap); the acceleration is centred on the (weighted) jackknife
    mean, not on ``theta_hat``. A column whose replicates are all equal (two identical
    systems) gets the degenerate interval [value, value]; a proportion of 0 or 1 is
    clipped to 1/(2B) so the interval stays finite.
    """
    from scipy.special import ndtr, ndtri

    B = replicates.shape[0]
    if B == 0:
        nan = np.full(replicates.shape[1:], np.nan)
        return nan, nan
    below = (replicates < theta_hat).sum(0) + (replicates <= theta_hat).sum(0)
    prop = np.clip(below / (2 * B), 0.5 / B, 1 - 0.5 / B)
    z0 = ndtri(prop)
    f = weights[:, None].astype(float)
    d = (f * jack).sum(0) / f.sum() - jack
    num = (f * d**3).sum(0)  # sums over items (Efron), not means
    den = 6 * (f * d**2).sum(0) ** 1.5
    acc = np.divide(num, den, out=np.zeros_like(num), where=den > 0)
    srt = np.sort(replicates, axis=0)
    bounds = []
    for z in ndtri([alpha / 2, 1 - alpha / 2]):
        q = ndtr(z0 + (z0 + z) / (1 - acc * (z0 + z)))
        bounds.append(_quantile_per_column(srt, q))
    lo, hi = bounds
    flat = srt[0] == srt[-1]
    lo = np.where(flat, srt[0], lo)
    hi = np.where(flat, srt[-1], hi)
    return lo, hi


def normal_interval(
    replicates: np.ndarray, theta_hat: np.ndarray, alpha: float
) -> tuple[np.ndarray, np.ndarray]:
    """Normal interval ``theta_hat +/- z_(1-alpha/2) * SE``, SE the replicates' SD (ddof=1).

    Parameters
    ----------
    replicates : ndarray, shape (B, k)
        Bootstrap replicates of k statistics.
    theta_hat : ndarray, shape (k,)
        The statistics on the full data.
    alpha : float
        1 - confidence level.

    Returns
    -------
    lo, hi : ndarray, shape (k,)
        NaN with fewer than two replicates.
    """
    from scipy.special import ndtri

    se = (
        replicates.std(axis=0, ddof=1)
        if replicates.shape[0] > 1
        else np.full(theta_hat.shape, np.nan)
    )
    z = ndtri(1 - alpha / 2)
    return theta_hat - z * se, theta_hat + z * se
