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


def interval(replicates: np.ndarray, theta_hat: np.ndarray, method: str, alpha: float,
             jack: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """CI at 1 - alpha by ``method``: ``percentile``, ``bca`` (needs ``jack``) or ``normal``."""
    if method == "percentile":
        return percentile_interval(replicates, alpha)
    if method == "bca":
        return bca_interval(replicates, theta_hat, jack[0], jack[1], alpha)
    if method == "normal":
        return normal_interval(replicates, theta_hat, alpha)
    raise ValueError(f"unknown CI method {method!r}")


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


def correct_within(p: np.ndarray, families: np.ndarray) -> dict[str, np.ndarray]:
    """:func:`correct` applied separately within each family label of ``families`` (same length as p)."""
    out = {key: np.empty(len(p)) for key in CORRECTIONS.values()}
    for fam in np.unique(families):
        sel = families == fam
        for key, v in correct(p[sel]).items():
            out[key][sel] = v
    return out


def letters(order: list[int], different: np.ndarray) -> dict[int, str]:
    """Compact letter display by insert-and-absorb (Piepho 2004).

    ``different[i, j]`` is True when systems i and j differ significantly. Returns a letter
    string per system: systems sharing a letter are not significantly different, and every
    significantly different pair shares none. Letters follow ``order`` (best first gets "a").
    """
    m = different.shape[0]
    cols = [frozenset(range(m))]
    for i in range(m):
        for j in range(i + 1, m):
            if not different[i, j]:
                continue
            new = []
            for c in cols:
                if i in c and j in c:
                    new += [c - {i}, c - {j}]
                else:
                    new.append(c)
            # absorb: drop duplicates and columns contained in another column
            uniq = list(dict.fromkeys(new))
            cols = [c for c in uniq if not any(c < other for other in uniq)]
    pos = {s: r for r, s in enumerate(order)}
    cols = sorted((c for c in cols if c), key=lambda c: sorted(pos[s] for s in c))
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

    def name(k: int) -> str:  # beyond 52 letter groups: a1, b1, ... (rare)
        return alphabet[k % 52] + (str(k // 52) if k >= 52 else "")

    out = {s: "" for s in range(m)}
    for k, c in enumerate(cols):
        for s in c:
            out[s] += name(k)
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


def _quantile_per_column(sorted_reps: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Linear-interpolated quantile ``q[j]`` of column ``j`` of column-sorted replicates (B, k)."""
    B = sorted_reps.shape[0]
    pos = np.clip(q, 0, 1) * (B - 1)
    lo = np.floor(pos).astype(int)
    hi = np.minimum(lo + 1, B - 1)
    cols = np.arange(sorted_reps.shape[1])
    frac = pos - lo
    return sorted_reps[lo, cols] * (1 - frac) + sorted_reps[hi, cols] * frac


def bca_interval(replicates: np.ndarray, theta_hat: np.ndarray, jack: np.ndarray, weights: np.ndarray,
                 alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Bias-corrected and accelerated interval (Efron 1987), column by column.

    Parameters
    ----------
    replicates : (B, k) bootstrap replicates; theta_hat : (k,) full-sample estimates.
    jack : (J, k) leave-one-out estimates; weights : (J,) how many items each row stands for.

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
    num = (f * d ** 3).sum(0)  # sums over items (Efron), not means
    den = 6 * (f * d ** 2).sum(0) ** 1.5
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


def normal_interval(replicates: np.ndarray, theta_hat: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """``theta_hat +/- z_(1-alpha/2) * SE`` with SE the bootstrap SD (ddof=1)."""
    from scipy.special import ndtri

    se = replicates.std(axis=0, ddof=1) if replicates.shape[0] > 1 else np.full(theta_hat.shape, np.nan)
    z = ndtri(1 - alpha / 2)
    return theta_hat - z * se, theta_hat + z * se
