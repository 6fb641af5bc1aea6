"""Multiple-comparison corrections (statsmodels ``multipletests``) over an explicit family.
"""

from __future__ import annotations

import numpy as np

from ..vocabulary import MULTIPLETESTS_METHOD


def correct(p: np.ndarray) -> dict[str, np.ndarray]:
    """Bonferroni, Holm and Benjamini-Hochberg adjusted p-values over the family ``p``.

    Keys are the results.json names (``bonferroni``, ``holm``, ``bh``).
    """
    p = np.asarray(p, dtype=float)
    if p.size == 0:
        return {key: p.copy() for key in MULTIPLETESTS_METHOD}
    from statsmodels.stats.multitest import multipletests

    return {key: multipletests(p, method=method)[1] for key, method in MULTIPLETESTS_METHOD.items()}


def correct_within(p: np.ndarray, families: np.ndarray) -> dict[str, np.ndarray]:
    """:func:`correct` applied separately within each family label of ``families`` (same length as p)."""
    out = {key: np.empty(len(p)) for key in MULTIPLETESTS_METHOD}
    for fam in np.unique(families):
        sel = families == fam
        for key, v in correct(p[sel]).items():
            out[key][sel] = v
    return out
