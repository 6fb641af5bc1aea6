"""Synthetic shared-task data with correlated systems (for benchmarks and tests).

``make(n, m, k, seed)`` draws gold labels and ``m`` systems whose errors are correlated
through a shared item difficulty, like real runs of one task.
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def make_labels(n: int, m: int, k: int = 2, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Gold (n,) and predictions (m, n) as ints 0..k-1, accuracies spread 0.55-0.85."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, k, n)
    difficulty = rng.normal(size=n)
    skill = np.linspace(1.2, -0.2, m) + rng.normal(0, 0.05, m)
    noise = rng.normal(size=(m, n))
    correct = (skill[:, None] - difficulty[None, :] + 0.8 * noise) > 0
    wrong = (gold[None, :] + rng.integers(1, k, (m, n))) % k if k > 1 else gold[None, :]
    return gold, np.where(correct, gold[None, :], wrong)


def wide_frame(gold: np.ndarray, preds: np.ndarray, prefix: str = "team") -> pd.DataFrame:
    cols = {"id": np.arange(1, len(gold) + 1), "y": gold}
    for s, p in enumerate(preds):
        cols[f"{prefix}{s + 1:02d}.run1"] = p
    return pd.DataFrame(cols)


if __name__ == "__main__":
    import sys

    n, m, k, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    g, p = make_labels(n, m, k)
    wide_frame(g, p).to_csv(out, index=False)
