"""Significance groups as a compact letter display (insert-and-absorb, Piepho 2004).
"""

from __future__ import annotations

import numpy as np

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
