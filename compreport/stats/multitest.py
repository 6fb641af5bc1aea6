"""Multiple-comparison corrections (statsmodels ``multipletests``) over an explicit family.
"""

from __future__ import annotations

import numpy as np

from ..vocabulary import MULTIPLETESTS_METHOD


def correct(p: np.ndarray) -> dict[str, np.ndarray]:
    """Bonferroni, Holm and Benjamini-Hochberg adjusted p-values over the family ``p``.

    Keys are the results.json names (``bonferroni``, ``holm``, ``bh``). A NaN p-value (a comparison
    that is not tested, e.g. with a system whose score is undefined) is not a member of the family:
    it stays NaN and the others are corrected over the tested ones only (statsmodels would turn
    every BH value into NaN).
    """
    p = np.asarray(p, dtype=float)
    out = {key: np.full(p.shape, np.nan) for key in MULTIPLETESTS_METHOD}
    tested = np.isfinite(p)
    if not tested.any():
        return out
    from statsmodels.stats.multitest import multipletests

    for key, method in MULTIPLETESTS_METHOD.items():
        out[key][tested] = multipletests(p[tested], method=method)[1]
    return out


def correct_within(p: np.ndarray, families: np.ndarray) -> dict[str, np.ndarray]:
    """:func:`correct` applied separately within each family label of ``families`` (same length as p)."""
    out = {key: np.empty(len(p)) for key in MULTIPLETESTS_METHOD}
    for fam in np.unique(families):
        sel = families == fam
        for key, v in correct(p[sel]).items():
            out[key][sel] = v
    return out
