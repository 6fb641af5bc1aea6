"""The paper's competitiveness summary (Table 6) of one competition and metric.

A tie count is only as good as the correction's power to reject: with p-values estimated from B
resamples no p-value is below 1/(B + 1), so Bonferroni or Holm over k comparisons cannot give a
corrected p-value below k/(B + 1). When that floor is at or above alpha every comparison of the
family "ties" whatever the data (36 systems, 630 pairs, B = 10,000: 630/10,001 = 0.063), and the
count is an artefact of B. :func:`not_computable` decides that, once, here; the count is then
stored as None, with the reason and the B that would do, and the tables print "–".
"""

from __future__ import annotations

import numpy as np

from compreport.stats.multitest import (
    cannot_reject,
    rejects,
    resamples_needed,
    smallest_adjusted_p,
)

#: The counts of the summary that can be not computable: with the winner, between competitors.
COUNTS = ("ties_with_winner", "ties")


def not_computable(comparisons: int, resamples: int, correction: str, alpha: float) -> dict | None:
    """Why a tie count under ``correction`` is not computable, or None when it is.

    Parameters
    ----------
    comparisons : int
        The largest family the counted comparisons are corrected over (all tested pairs under
        ``all-pairs``; under ``per-row`` the largest row counted).
    resamples : int
        The most resamples behind a p-value of that family (B, or more after refinement).
    correction : {"none", "bonferroni", "holm", "bh", "maxt"}
        The correction.
    alpha : float
        The significance level.

    Returns
    -------
    dict or None
        None when some comparison of the family can reach ``alpha`` (or nothing is tested, or
        there are no resamples: nothing to count); else ``comparisons``, ``resamples``, ``min_p``
        (the smallest corrected p-value attainable,
        :func:`~compreport.stats.multitest.smallest_adjusted_p`), ``b_needed`` (the smallest B
        with which it falls below alpha, :func:`~compreport.stats.multitest.resamples_needed`)
        and ``reason`` (English, one sentence).

    Examples
    --------
    >>> r = not_computable(630, 10_000, "holm", 0.05)
    >>> round(r["min_p"], 4), r["b_needed"]
    (0.063, 12600)
    >>> not_computable(630, 10_000, "maxt", 0.05) is None
    True
    """
    min_p = smallest_adjusted_p(comparisons, resamples, correction)
    if min_p != min_p or rejects(min_p, alpha):
        return None
    need = resamples_needed(comparisons, alpha, correction)
    floor = (
        f"{comparisons}/(B + 1) = {min_p:.4g}"
        if correction in ("bonferroni", "holm")
        else f"1/(B + 1) = {min_p:.4g}"
    )
    return {
        "comparisons": int(comparisons),
        "resamples": int(resamples),
        "min_p": float(min_p),
        "b_needed": int(need),
        "reason": (
            f"with B = {resamples:,} no {correction} p-value over {comparisons} comparisons can be "
            f"below {floor}, not below alpha = {alpha:g}, so every comparison would tie whatever "
            f"the data; B = {need:,} or more would do"
        ),
    }


def competitiveness(
    observed: np.ndarray,
    order: np.ndarray,
    p_vs_best: dict[str, np.ndarray],
    p_pairs: dict[str, np.ndarray],
    alpha: float,
    n: int,
    ideal: float | None,
    higher_is_better: bool,
    families: dict[str, dict[str, int]] | None = None,
    resamples: dict[str, int] | None = None,
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
    families : dict, optional
        ``{"ties_with_winner": {c: k}, "ties": {c: k}}``: the largest family (k comparisons) the
        counted comparisons are corrected over under each correction c. Default: nothing is
        checked (every count is computable).
    resamples : dict of str to int, optional
        Per correction, the most resamples behind a p-value (B, or more after refinement).

    Returns
    -------
    dict
        ``n``; ``m`` (every system); ``possible_comparisons``, m(m - 1)/2; ``ties_with_winner``
        and ``ties``, per correction, the comparisons with the winner and the pairs that are not
        significant, None where the correction cannot reach alpha with these resamples; then
        ``not_computable``, ``{"ties_with_winner": {c: ...}, "ties": {c: ...}}``, the reason of
        each None (:func:`not_computable`); ``win_minus_median``, |winner - median score|, and
        ``cv``, the coefficient of variation of the scores in percent (both over the defined
        scores; None when they are undefined); ``ppi``, the room for improvement ``ideal -
        winner``, and ``ppi_unit``: ``"percent"`` (points of 100) when the ideal is 1 and higher
        is better, else ``"metric"`` (the absolute difference in the metric's units); both None
        without an ideal.

    Examples
    --------
    >>> import numpy as np
    >>> obs = np.array([0.9, 0.8, 0.7])
    >>> p = {"none": np.array([0.01, 0.2]), "holm": np.array([0.02, 0.2])}
    >>> c = competitiveness(obs, np.arange(3), p, p, 0.05, 100, 1.0, True,
    ...                     {"ties_with_winner": {"none": 3, "holm": 3}}, {"none": 9, "holm": 99})
    >>> c["ties_with_winner"], c["not_computable"]["ties_with_winner"]["none"]["b_needed"]
    ({'none': None, 'holm': 1}, 20)
    """
    m = len(observed)
    winner = float(observed[order[0]])
    scores = observed[np.isfinite(observed)]
    out = {
        "n": int(n),
        "m": int(m),
        "possible_comparisons": m * (m - 1) // 2,
    }
    missing = {count: {} for count in COUNTS}
    for count, ps in zip(COUNTS, (p_vs_best, p_pairs), strict=True):
        out[count] = {}
        for k, v in ps.items():
            size = ((families or {}).get(count) or {}).get(k)
            why = (
                None
                if size is None or not resamples or k not in resamples
                else not_computable(size, resamples[k], k, alpha)
            )
            if why is None:
                out[count][k] = int(cannot_reject(v, alpha).sum())
            else:
                out[count][k], missing[count][k] = None, why
    out["not_computable"] = missing
    out["win_minus_median"] = float(abs(winner - np.median(scores))) if scores.size else None
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
