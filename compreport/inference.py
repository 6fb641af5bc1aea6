"""Intervals, paired differences, p-values, multiple-comparison corrections and competitiveness.

Everything here works on plain arrays: ``observed`` scores (m,) and bootstrap
``replicates`` (B, m) of one metric, plus its orientation. Differences are *oriented*:
positive means the first system is better, also for lower-is-better metrics.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Correction ids (statsmodels ``multipletests`` names) and the keys used in results.json.
CORRECTIONS = {"bonferroni": "bonferroni", "holm": "holm", "fdr_bh": "bh"}
#: Display labels, in the order tables show them.
CORRECTION_LABELS = {"none": "none", "bonferroni": "Bonferroni", "holm": "Holm", "bh": "BH"}
#: Relative tolerance when comparing a replicate difference with 2*delta (floating-point noise).
_TOL = 1e-10


@dataclass(frozen=True)
class Interval:
    low: float
    high: float


def percentile_interval(replicates: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval at confidence 1 - alpha along axis 0 (linear interpolation, as numpy's default)."""
    if replicates.shape[0] == 0:
        nan = np.full(replicates.shape[1:], np.nan)
        return nan, nan
    lo, hi = np.quantile(replicates, [alpha / 2, 1 - alpha / 2], axis=0)
    return lo, hi


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


def correct(p: np.ndarray) -> dict[str, np.ndarray]:
    """Bonferroni, Holm and Benjamini-Hochberg adjusted p-values over the family ``p``.

    Keys are the results.json names (``bonferroni``, ``holm``, ``bh``).
    """
    p = np.asarray(p, dtype=float)
    if p.size == 0:
        return {key: p.copy() for key in CORRECTIONS.values()}
    from statsmodels.stats.multitest import multipletests

    return {key: multipletests(p, method=method)[1] for method, key in CORRECTIONS.items()}


def order_systems(observed: np.ndarray, higher_is_better: bool) -> tuple[np.ndarray, np.ndarray]:
    """Best-first order (ties keep input order; NaN last) and competition ranks (1, 2, 2, 4)."""
    s = observed if higher_is_better else -observed
    key = np.where(np.isnan(s), -np.inf, s)
    order = np.lexsort((np.arange(len(s)), -key))
    rank = np.array([1 + int((key > key[i]).sum()) for i in range(len(s))])
    return order, rank


def differences(observed: np.ndarray, replicates: np.ndarray, a: np.ndarray, b: np.ndarray,
                higher_is_better: bool, alpha: float, chunk: int = 256) -> dict[str, np.ndarray]:
    """Oriented differences ``a - b`` for index arrays ``a``, ``b``: diff, ci_low, ci_high, p_value."""
    sign = 1.0 if higher_is_better else -1.0
    k = len(a)
    out = {key: np.empty(k) for key in ("diff", "ci_low", "ci_high", "p_value")}
    for s in range(0, k, chunk):
        aa, bb = a[s:s + chunk], b[s:s + chunk]
        delta = sign * (observed[aa] - observed[bb])
        d = sign * (replicates[:, aa] - replicates[:, bb])
        lo, hi = percentile_interval(d, alpha)
        out["diff"][s:s + chunk] = delta
        out["ci_low"][s:s + chunk] = lo
        out["ci_high"][s:s + chunk] = hi
        out["p_value"][s:s + chunk] = bootstrap_p_value(d, delta) if d.shape[0] else np.nan
    return out


def competitiveness(observed: np.ndarray, order: np.ndarray, p_vs_best: dict[str, np.ndarray],
                    p_pairs: dict[str, np.ndarray], alpha: float, n: int, ideal: float | None,
                    higher_is_better: bool) -> dict:
    """The paper's Table 6 summary for one competition and metric.

    ``p_vs_best``/``p_pairs`` map ``none``/``bonferroni``/``holm``/``bh`` to p-values.
    """
    m = len(observed)
    winner = float(observed[order[0]])
    out = {
        "n": int(n), "m": int(m), "possible_comparisons": m * (m - 1) // 2,
        "ties_with_winner": {k: int((v >= alpha).sum()) for k, v in p_vs_best.items()},
        "ties": {k: int((v >= alpha).sum()) for k, v in p_pairs.items()},
        "win_minus_median": float(abs(winner - np.median(observed))),
    }
    mean = float(np.mean(observed))
    out["cv"] = float(100 * np.std(observed, ddof=1) / mean) if m > 1 and mean != 0 else None
    if ideal is None:
        out["ppi"], out["ppi_unit"] = None, None
    elif ideal == 1.0 and higher_is_better:
        out["ppi"], out["ppi_unit"] = 100 * (ideal - winner), "percent"
    else:
        out["ppi"], out["ppi_unit"] = abs(ideal - winner), "metric"
    return out
