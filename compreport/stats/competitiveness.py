"""The paper's competitiveness summary (Table 6) of one competition and metric."""

from __future__ import annotations

import numpy as np

from compreport.stats.multitest import cannot_reject


def competitiveness(
    observed: np.ndarray,
    order: np.ndarray,
    p_vs_best: dict[str, np.ndarray],
    p_pairs: dict[str, np.ndarray],
    alpha: float,
    n: int,
    ideal: float | None,
    higher_is_better: bool,
) -> dict:
    """The paper's Table 6 summary for one competition and metric.

    Parameters
    ----------
    observed : ndarray, shape (m,)
        Scores of the systems summarised (NaN: undefined).
    order : ndarray of int, shape (m,)
        Their best-first order; ``order[0]`` is the winner.
    p_vs_best, p_pairs : dict of str to ndarray
        Per correction (``none``, ``bonferroni``, ``holm``, ``bh``, ``maxt``), the p-values of the
        comparisons with the winner and of the pairs; NaN: not tested, never a tie.
    alpha : float
        The significance level.
    n : int
        Test items.
    ideal : float or None
        The best possible score; None: no room for improvement is computed.
    higher_is_better : bool
        Orientation of the scores.

    Returns
    -------
    dict
        ``n``; ``m`` (every system); ``possible_comparisons``, m(m - 1)/2; ``ties_with_winner``
        and ``ties``, per correction, the comparisons with the winner and the pairs that are not
        significant; ``win_minus_median``, |winner - median score|, and ``cv``, the coefficient
        of variation of the scores in percent (both over the defined scores; None when they are
        undefined); ``ppi``, the room for improvement ``ideal - winner``, and ``ppi_unit``:
        ``"percent"`` (points of 100) when the ideal is 1 and higher is better, else
        ``"metric"`` (the absolute difference in the metric's units); both None without an
        ideal.
    """
    m = len(observed)
    winner = float(observed[order[0]])
    scores = observed[np.isfinite(observed)]
    out = {
        "n": int(n),
        "m": int(m),
        "possible_comparisons": m * (m - 1) // 2,
        "ties_with_winner": {k: int(cannot_reject(v, alpha).sum()) for k, v in p_vs_best.items()},
        "ties": {k: int(cannot_reject(v, alpha).sum()) for k, v in p_pairs.items()},
        "win_minus_median": float(abs(winner - np.median(scores))) if scores.size else None,
    }
    mean = float(np.mean(scores)) if scores.size else 0.0
    out["cv"] = (
        float(100 * np.std(scores, ddof=1) / mean) if scores.size > 1 and mean != 0 else None
    )
    if ideal is None:
        out["ppi"], out["ppi_unit"] = None, None
    elif ideal == 1.0 and higher_is_better:
        out["ppi"], out["ppi_unit"] = 100 * (ideal - winner), "percent"
    else:
        out["ppi"], out["ppi_unit"] = abs(ideal - winner), "metric"
    return out
