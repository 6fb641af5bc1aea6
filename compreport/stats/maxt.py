"""Simultaneous inference from the joint bootstrap distribution: the max-T step-down.

Every pair's difference is resampled from the same replicates, so the joint distribution of all
the studentized differences is at hand. The step-down of Westfall & Young (1993, algorithm 2.8)
in the bootstrap form of Romano & Wolf (2005) turns it into adjusted p-values that control the
family-wise error rate (strongly, asymptotically) over the whole family, whichever pairs are
true nulls:

* ``t_k = |delta_k| / se_k``, ``se_k`` the bootstrap standard deviation of difference k;
* ``T*_bk = |d*_bk - delta_k| / se_k``, the null-shifted replicate statistics;
* with the pairs sorted by decreasing ``t``, pair j's p-value is
  ``(1 + #{b : max_{l >= j} T*_bl >= t_j}) / (B + 1)``, made non-decreasing along the order.

An adjusted p-value is one exceedance proportion over B replicates, so its Monte-Carlo error is
that of an ordinary p-value near alpha: no per-pair p-value has to reach alpha / k.
"""

from __future__ import annotations

import numpy as np

#: Relative tolerance of ``T* >= t`` (floating-point noise), as the other tests.
_TOL = 1e-10
#: Cells (replicates x pairs) held at once.
_CELLS = 1 << 22


def studentized(observed: np.ndarray, replicates: np.ndarray, a: np.ndarray, b: np.ndarray,
                sign: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Observed differences ``delta`` (k,), their bootstrap standard errors ``se`` (k,) and the
    statistics ``t = |delta| / se`` (inf where se = 0 and delta != 0, 0 where both are 0)."""
    delta = sign * (observed[a] - observed[b])
    se = np.empty(len(a))
    step = max(1, _CELLS // max(1, replicates.shape[0]))
    for s in range(0, len(a), step):
        d = sign * (replicates[:, a[s:s + step]] - replicates[:, b[s:s + step]])
        se[s:s + step] = d.std(axis=0, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(se > 0, np.abs(delta) / np.where(se > 0, se, 1.0), np.where(delta == 0, 0.0, np.inf))
    return delta, se, t


def maxt_adjusted(observed: np.ndarray, replicates: np.ndarray, a: np.ndarray, b: np.ndarray,
                  higher_is_better: bool = True, tested: np.ndarray | None = None) -> np.ndarray:
    """Max-T step-down adjusted p-values (see the module docstring) of the differences ``a - b``.

    Parameters
    ----------
    observed : ndarray (m,)
        Scores on the full test set.
    replicates : ndarray (B, m)
        Paired bootstrap replicates of every system (the same resamples for all).
    a, b : ndarray of int (k,)
        The pairs of the family.
    higher_is_better : bool
        Orientation of the differences (the statistic is two-sided, so only for the record).
    tested : ndarray of bool (k,), optional
        The pairs in the family; the others get NaN and take no part (default: all).

    Returns
    -------
    ndarray (k,)
        Adjusted p-values in [1/(B+1), 1], NaN outside the family or with B < 2.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> reps = rng.normal([0.8, 0.6, 0.6], 0.02, size=(999, 3))
    >>> p = maxt_adjusted(np.array([0.8, 0.6, 0.6]), reps, np.array([0, 0, 1]), np.array([1, 2, 2]))
    >>> p.round(3).tolist()          # the 0.2 differences are certain; the tie is not
    [0.001, 0.001, 1.0]
    """
    k = len(a)
    out = np.full(k, np.nan)
    tested = np.ones(k, dtype=bool) if tested is None else np.asarray(tested, dtype=bool)
    B = replicates.shape[0]
    if B < 2 or not tested.any():
        return out
    sign = 1.0 if higher_is_better else -1.0
    idx = np.flatnonzero(tested)
    aa, bb = a[idx], b[idx]
    delta, se, t = studentized(observed, replicates, aa, bb, sign)
    order = np.argsort(-t, kind="stable")               # most significant first
    aa, bb, delta, t = aa[order], bb[order], delta[order], t[order]
    scale = np.where(se[order] > 0, se[order], np.inf)  # a constant difference adds nothing to the max
    thresholds = t - _TOL * np.maximum(1.0, np.where(np.isfinite(t), t, 1.0))
    hits = np.zeros(len(idx), dtype=np.int64)
    rows = max(1, _CELLS // len(idx))
    for s in range(0, B, rows):
        r = replicates[s:s + rows]
        star = np.abs(sign * (r[:, aa] - r[:, bb]) - delta) / scale            # (rows, k) in t order
        suffix = np.maximum.accumulate(star[:, ::-1], axis=1)[:, ::-1]         # max over l >= j
        hits += (suffix >= thresholds).sum(axis=0)
    p = np.maximum.accumulate((1 + hits) / (B + 1))
    adjusted = np.empty(len(idx))
    adjusted[order] = p
    out[idx] = adjusted
    return out
