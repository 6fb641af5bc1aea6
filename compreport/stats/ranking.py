"""Best-first order and competition ranks of observed scores."""

from __future__ import annotations

import numpy as np


def order_systems(observed: np.ndarray, higher_is_better: bool) -> tuple[np.ndarray, np.ndarray]:
    """Best-first order (ties keep input order; NaN last) and competition ranks (1, 2, 2, 4)."""
    s = observed if higher_is_better else -observed
    key = np.where(np.isnan(s), -np.inf, s)
    order = np.lexsort((np.arange(len(s)), -key))
    rank = np.array([1 + int((key > key[i]).sum()) for i in range(len(s))])
    return order, rank
