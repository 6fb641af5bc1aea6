"""Paired differences and their p-values.

Differences are *oriented*: positive means the first system is better, also for
lower-is-better metrics. Two bootstrap tests are offered (``Settings.test``):

* ``bootstrap`` (the default): two-sided, the null-shifted bootstrap (Efron & Tibshirani 1993,
  ch. 16): ``p = (1 + #{|d* - delta| >= |delta|}) / (B + 1)``. It rejects at alpha when the
  symmetric interval ``delta +/- c`` (c the 1 - alpha quantile of ``|d* - delta|``) excludes 0:
  close to, not the same as, the percentile interval of the difference excluding 0.
* ``berg-kirkpatrick``: the paper's test (Berg-Kirkpatrick et al. 2012),
  ``p = (1 + #{d* >= 2 delta}) / (B + 1)``: one-sided, in the direction the data chose, so its
  two-sided level is 2 alpha.
"""

from __future__ import annotations

from types import MappingProxyType

import numpy as np

from compreport.options import OPTIONS
from compreport.stats.intervals import interval

#: Relative tolerance when comparing a replicate difference with a threshold (floating-point noise).
_TOL = 1e-10


def bootstrap_p_value(diff_reps: np.ndarray, delta: np.ndarray) -> np.ndarray:
    """Two-sided null-shifted paired-bootstrap p-value, with +1 (Phipson & Smyth 2010).

    ``p = (1 + #{|d* - delta| >= |delta|}) / (B + 1)`` per column. Two identical systems have
    ``d* = delta = 0`` and get p = 1.

    Parameters
    ----------
    diff_reps : ndarray, shape (B, k)
        Replicate differences ``d*``.
    delta : ndarray, shape (k,)
        Observed differences.

    Returns
    -------
    ndarray, shape (k,)

    Examples
    --------
    >>> import numpy as np
    >>> d = np.array([[0.10], [0.30], [0.00], [0.25]])     # B = 4 replicates of one difference
    >>> bootstrap_p_value(d, np.array([0.1]))               # |d* - 0.1| >= 0.1: 0.3, 0.0, 0.25
    array([0.8])
    """
    B = diff_reps.shape[0]
    size = np.abs(delta)
    threshold = size - _TOL * np.maximum(1.0, size)
    hits = (np.abs(diff_reps - delta) >= threshold).sum(axis=0)
    return (1 + hits) / (B + 1)


def berg_kirkpatrick_p_value(diff_reps: np.ndarray, delta: np.ndarray) -> np.ndarray:
    """Paired-bootstrap p-value of Berg-Kirkpatrick et al. (2012), with +1 (Phipson & Smyth 2010).

    ``p = (1 + #{d* >= 2 delta}) / (B + 1)`` per column: one-sided, in the direction of the
    observed difference. Two identical systems have ``d* = delta = 0`` and get p = 1.

    Parameters
    ----------
    diff_reps : ndarray, shape (B, k)
        Replicate differences ``d*``.
    delta : ndarray, shape (k,)
        Observed differences (oriented: >= 0 for a pair ordered by rank).

    Returns
    -------
    ndarray, shape (k,)

    Examples
    --------
    >>> import numpy as np
    >>> d = np.array([[0.10], [0.30], [0.00], [0.25]])
    >>> berg_kirkpatrick_p_value(d, np.array([0.1]))       # d* >= 0.2: 0.3, 0.25
    array([0.6])
    """
    B = diff_reps.shape[0]
    threshold = 2 * delta - _TOL * np.maximum(1.0, np.abs(2 * delta))
    hits = (diff_reps >= threshold).sum(axis=0)
    return (1 + hits) / (B + 1)


#: The p-value function of each bootstrap test (``Settings.test``).
P_VALUE = MappingProxyType(
    {"bootstrap": bootstrap_p_value, "berg-kirkpatrick": berg_kirkpatrick_p_value}
)


def differences(
    observed: np.ndarray,
    replicates: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
    higher_is_better: bool,
    alpha: float,
    ci: str = OPTIONS["ci"].default,
    jack: tuple[np.ndarray, np.ndarray] | None = None,
    chunk: int = 256,
    test: str = OPTIONS["test"].default,
) -> dict[str, np.ndarray]:
    """Oriented differences ``a - b`` of the pairs ``a``, ``b``, their intervals and p-values.

    Parameters
    ----------
    observed : ndarray, shape (m,)
        Scores on the full test set.
    replicates : ndarray, shape (B, m)
        Paired bootstrap replicates.
    a, b : ndarray of int, shape (k,)
        The pairs' system indices.
    higher_is_better : bool
        Orientation: a positive difference means ``a`` is better.
    alpha : float
        1 - confidence level of the intervals.
    ci : str
        Interval method (:func:`~compreport.stats.intervals.interval`; default ``percentile``).
    jack : (ndarray, ndarray), optional
        Leave-one-out scores and weights, for ``bca``.
    chunk : int
        Pairs computed at once (default 256; bounds memory, the results do not depend on it).
    test : str
        The bootstrap test, a key of :data:`P_VALUE` (default ``bootstrap``); the randomization
        test's p-values are computed elsewhere and replace these.

    Returns
    -------
    dict of str to ndarray, shape (k,)
        ``diff``, ``ci_low``, ``ci_high`` and ``p_value`` (NaN without replicates).
    """
    sign = 1.0 if higher_is_better else -1.0
    k = len(a)
    p_of = P_VALUE.get(test, bootstrap_p_value)
    out = {key: np.empty(k) for key in ("diff", "ci_low", "ci_high", "p_value")}
    for s in range(0, k, chunk):
        aa, bb = a[s : s + chunk], b[s : s + chunk]
        delta = sign * (observed[aa] - observed[bb])
        d = sign * (replicates[:, aa] - replicates[:, bb])
        jd = None if jack is None else (sign * (jack[0][:, aa] - jack[0][:, bb]), jack[1])
        lo, hi = interval(d, delta, ci, alpha, jd)
        out["diff"][s : s + chunk] = delta
        out["ci_low"][s : s + chunk] = lo
        out["ci_high"][s : s + chunk] = hi
        out["p_value"][s : s + chunk] = p_of(d, delta) if d.shape[0] else np.nan
    return out


def p_values(
    observed: np.ndarray,
    replicates: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
    higher_is_better: bool,
    chunk: int = 256,
    test: str = OPTIONS["test"].default,
) -> np.ndarray:
    """P-values of the oriented differences ``a - b`` over ``replicates`` (R, m), no intervals.

    The p-values re-estimated from more resamples; the parameters are those of
    :func:`differences`. NaN without replicates.
    """
    sign = 1.0 if higher_is_better else -1.0
    p_of = P_VALUE.get(test, bootstrap_p_value)
    out = np.full(len(a), np.nan)
    if replicates.shape[0] == 0:
        return out
    for s in range(0, len(a), chunk):
        aa, bb = a[s : s + chunk], b[s : s + chunk]
        out[s : s + chunk] = p_of(
            sign * (replicates[:, aa] - replicates[:, bb]), sign * (observed[aa] - observed[bb])
        )
    return out
