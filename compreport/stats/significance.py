"""Paired differences and their p-values.

Differences are *oriented*: positive means the first system is better, also for
lower-is-better metrics.
"""

from __future__ import annotations

import numpy as np

from .intervals import interval

#: Relative tolerance when comparing a replicate difference with 2*delta (floating-point noise).
_TOL = 1e-10


def bootstrap_p_value(diff_reps: np.ndarray, delta: np.ndarray) -> np.ndarray:
    """Paired-bootstrap p-value of Berg-Kirkpatrick et al. (2012), with +1 (Phipson & Smyth 2010).

    ``p = (1 + #{d* >= 2 delta}) / (B + 1)`` per column, where ``d*`` (B, k) are the
    replicate differences and ``delta`` (k,) the observed ones (oriented, >= 0 for a
    pair ordered by rank). Two identical systems have ``d* = delta = 0`` and get p = 1.
    """
    B = diff_reps.shape[0]
    threshold = 2 * delta - _TOL * np.maximum(1.0, np.abs(2 * delta))
    hits = (diff_reps >= threshold).sum(axis=0)
    return (1 + hits) / (B + 1)


def differences(observed: np.ndarray, replicates: np.ndarray, a: np.ndarray, b: np.ndarray,
                higher_is_better: bool, alpha: float, ci: str = "percentile",
                jack: tuple[np.ndarray, np.ndarray] | None = None, chunk: int = 256) -> dict[str, np.ndarray]:
    """Oriented differences ``a - b`` for index arrays ``a``, ``b``: diff, ci_low, ci_high, p_value.

    ``p_value`` is the paired-bootstrap p-value (:func:`bootstrap_p_value`).
    """
    sign = 1.0 if higher_is_better else -1.0
    k = len(a)
    out = {key: np.empty(k) for key in ("diff", "ci_low", "ci_high", "p_value")}
    for s in range(0, k, chunk):
        aa, bb = a[s:s + chunk], b[s:s + chunk]
        delta = sign * (observed[aa] - observed[bb])
        d = sign * (replicates[:, aa] - replicates[:, bb])
        jd = None if jack is None else (sign * (jack[0][:, aa] - jack[0][:, bb]), jack[1])
        lo, hi = interval(d, delta, ci, alpha, jd)
        out["diff"][s:s + chunk] = delta
        out["ci_low"][s:s + chunk] = lo
        out["ci_high"][s:s + chunk] = hi
        out["p_value"][s:s + chunk] = bootstrap_p_value(d, delta) if d.shape[0] else np.nan
    return out


def p_values(observed: np.ndarray, replicates: np.ndarray, a: np.ndarray, b: np.ndarray, higher_is_better: bool,
             chunk: int = 256) -> np.ndarray:
    """Paired-bootstrap p-values (:func:`bootstrap_p_value`) of the oriented differences ``a - b``
    over ``replicates`` (R, m), without intervals: the p-values re-estimated from more resamples."""
    sign = 1.0 if higher_is_better else -1.0
    out = np.full(len(a), np.nan)
    if replicates.shape[0] == 0:
        return out
    for s in range(0, len(a), chunk):
        aa, bb = a[s:s + chunk], b[s:s + chunk]
        out[s:s + chunk] = bootstrap_p_value(sign * (replicates[:, aa] - replicates[:, bb]),
                                             sign * (observed[aa] - observed[bb]))
    return out
