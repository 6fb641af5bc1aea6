"""Best-first order and competition ranks of observed scores."""

from __future__ import annotations

import numpy as np


def order_systems(observed: np.ndarray, higher_is_better: bool) -> tuple[np.ndarray, np.ndarray]:
    """Best-first order of the systems and their competition ranks.

    Parameters
    ----------
    observed : ndarray, shape (m,)
        Scores (NaN: undefined).
    higher_is_better : bool
        Orientation of the scores.

    Returns
    -------
    order : ndarray of int, shape (m,)
        System indices, best first; exact ties keep input order, undefined scores come last.
    rank : ndarray of int, shape (m,)
        Each system's competition rank: ties share it (1, 2, 2, 4).

    Examples
    --------
    >>> import numpy as np
    >>> order, rank = order_systems(np.array([0.7, 0.9, 0.7, np.nan]), higher_is_better=True)
    >>> order.tolist(), rank.tolist()
    ([1, 0, 2, 3], [2, 1, 2, 4])
    """
    s = observed if higher_is_better else -observed
    key = np.where(np.isnan(s), -np.inf, s)
    order = np.lexsort((np.arange(len(s)), -key))
    rank = np.array([1 + int((key > key[i]).sum()) for i in range(len(s))])
    return order, rank
