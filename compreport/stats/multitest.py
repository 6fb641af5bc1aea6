"""Multiple-comparison corrections (Bonferroni, Holm, Benjamini-Hochberg) over an explicit family.

The arithmetic is that of statsmodels' ``multipletests`` (``bonferroni``, ``holm``, ``fdr_bh``),
operation for operation, so the adjusted p-values are bit-identical (the tests compare them with
statsmodels itself). It is written out here because statsmodels' Holm runs a full
``gc.collect()`` on every call (0.76 s of a 1.4 s demo analysis, measured) and importing
statsmodels costs about 0.8 s of every run's start-up.
"""

from __future__ import annotations

from types import MappingProxyType

import numpy as np

from compreport.language.vocabulary import marks_at

#: statsmodels ``multipletests`` method of each correction that adjusts raw p-values.
MULTIPLETESTS_METHOD = MappingProxyType(
    {"bonferroni": "bonferroni", "holm": "holm", "bh": "fdr_bh"}
)

#: Relative slack of :func:`rejects`. A corrected p-value is a whole number times (c + 1)/(B + 1)
#: (over a whole number, for BH) computed in floating point: Holm over 28 pairs at its floor with
#: B = 559 gives 28/560 = 0.049999999999999996, which exact arithmetic puts at alpha = 0.05. The
#: slack is far below the spacing of such values near alpha for any B a run can draw.
REJECT_SLACK = 1e-12


def rejects(p, alpha: float):
    """The significance rule, ``p < alpha``, as exact arithmetic decides it (within
    :data:`REJECT_SLACK`); elementwise on arrays; False for NaN (not tested)."""
    return np.asarray(p, dtype=float) < alpha * (1 - REJECT_SLACK)


def stars(p, alpha: float = 0.1):
    """The mark of corrected p-values ``p`` among :func:`~compreport.language.vocabulary.marks_at`
    ``alpha`` (``***`` p < .001, ``**`` p < .01, ``*`` p < .05, ``†`` p < .1 where alpha allows
    it), else ``""`` (also for None/NaN): a ``str`` for one p-value, an object array of them for an
    array; ``<`` as :func:`rejects` reads it (a corrected p-value computed as
    0.0009999999999999998 for 0.001 gets no ``***``). The analysis stores the mark of every pair
    (``Comparison.mark``); renderers read that.

    >>> stars(0.004, 0.05), stars(0.07, 0.05)
    ('**', '')
    """
    values = np.asarray(np.nan if p is None else p, dtype=float)
    out = np.full(values.shape, "", dtype=object)
    for threshold, mark in marks_at(alpha)[::-1]:  # the strictest threshold met wins
        out[rejects(values, threshold)] = mark
    return str(out[()]) if out.ndim == 0 else out


def cannot_reject(p, alpha: float):
    """A defined p-value that :func:`rejects` does not reject (a tie); elementwise on arrays; False
    for NaN (nothing tested)."""
    p = np.asarray(p, dtype=float)
    return np.isfinite(p) & ~rejects(p, alpha)


def _sorted_adjust(p_sorted: np.ndarray, method: str) -> np.ndarray:
    """Adjusted p-values of ascending ``p_sorted`` (m,) by ``method``, a key of
    MULTIPLETESTS_METHOD."""
    m = len(p_sorted)
    if method == "bonferroni":
        adj = p_sorted * float(m)
    elif method == "holm":  # step-down: max over j <= i of (m - j + 1) p_(j)
        adj = np.maximum.accumulate(p_sorted * np.arange(m, 0, -1))
    else:  # bh, step-up: min over j >= i of p_(j) m / j
        adj = np.minimum.accumulate((p_sorted / (np.arange(1, m + 1) / float(m)))[::-1])[::-1]
    adj[adj > 1] = 1
    return adj


def correct(p: np.ndarray) -> dict[str, np.ndarray]:
    """Bonferroni, Holm and Benjamini-Hochberg adjusted p-values over the family ``p``.

    Keys are the results.json names (``bonferroni``, ``holm``, ``bh``). A NaN p-value (a comparison
    that is not tested, e.g. with a system whose score is undefined) is not a member of the family:
    it stays NaN and the others are corrected over the tested ones only.
    """
    p = np.asarray(p, dtype=float)
    out = {key: np.full(p.shape, np.nan) for key in MULTIPLETESTS_METHOD}
    tested = np.flatnonzero(np.isfinite(p))
    if tested.size:
        order = tested[np.argsort(p[tested])]
        for key in out:
            out[key][order] = _sorted_adjust(p[order], key)
    return out


def correct_within(p: np.ndarray, families: np.ndarray) -> dict[str, np.ndarray]:
    """:func:`correct` applied separately within each family label of ``families`` (one per p)."""
    out = {key: np.empty(len(p)) for key in MULTIPLETESTS_METHOD}
    for fam in np.unique(families):
        sel = families == fam
        for key, v in correct(p[sel]).items():
            out[key][sel] = v
    return out


def smallest_family(family: str, tested: int) -> int:
    """How many of ``tested`` comparisons the smallest family holds.

    It bounds the smallest corrected p-value: all of them for ``all-pairs`` and ``vs-best``; one
    for ``per-row`` (the row of the system ranked second to last); none when nothing is tested.
    """
    return min(tested, 1) if family == "per-row" else tested


def smallest_corrected_p(family: str, tested: int, resamples: int, correction: str) -> float:
    """The smallest p-value a comparison can reach: the stored ``verdicts["min_p"]``.

    Of ``tested`` comparisons of ``family``, after ``correction``, with ``resamples``:
    :func:`smallest_adjusted_p` over :func:`smallest_family`.
    """
    return smallest_adjusted_p(smallest_family(family, tested), resamples, correction)


def smallest_adjusted_p(tested: int, bootstrap: int, correction: str) -> float:
    """The smallest p-value any of ``tested`` comparisons can reach after ``correction`` (``none``,
    ``bonferroni``, ``holm``, ``bh``, ``maxt``) when p-values are estimated from ``bootstrap``
    resamples: an estimate is never below 1/(B + 1), Bonferroni and Holm multiply the smallest by
    the family size (capped at 1), none, BH and max-T leave it (BH when every p-value is at that
    floor; a max-T adjusted p-value is one exceedance proportion).
    NaN without resamples or comparisons."""
    if bootstrap < 1 or tested < 1:
        return float("nan")
    floor = 1.0 / (bootstrap + 1)
    return min(1.0, tested * floor) if correction in ("bonferroni", "holm") else floor


def resamples_needed(tested: int, alpha: float, correction: str) -> int:
    """The smallest B with which :func:`smallest_adjusted_p` falls below ``alpha``.

    In closed form, k/(B + 1) < alpha (k = ``tested`` under Bonferroni and Holm, else 1) from
    B = floor(k/alpha), then settled as :func:`rejects` computes it by a bisection of at most
    about 64 steps, so any alpha in (0, 1) is answered at once (a step of one resample at a
    time never ended for alpha = 1e-20, where B + 1 and B + 2 are the same float).

    >>> resamples_needed(28, 0.05, "holm"), resamples_needed(1, 0.05, "maxt")
    (560, 20)
    >>> resamples_needed(1, 1e-20, "none") > 10**19
    True
    """
    k = tested if correction in ("bonferroni", "holm") else 1

    def enough(b: int) -> bool:
        return not cannot_reject(smallest_adjusted_p(tested, b, correction), alpha)

    if not 0 < alpha < 1 or not k / alpha < 1e307:
        raise ValueError(f"alpha = {alpha!r} outside (0, 1) or too small to count resamples for")
    guess = max(1, int(k / alpha))  # within rounding of the answer
    lo, hi = max(0, guess // 2 - 1), guess  # enough(hi) and not enough(lo), once widened
    while not enough(hi):
        lo, hi = hi, 2 * hi
    if lo >= 1 and enough(lo):
        lo = 0
    while hi - lo > 1:  # smallest b in (lo, hi] with enough(b); enough rises with b
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if enough(mid) else (mid, hi)
    return hi
