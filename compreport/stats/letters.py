"""Significance groups as a compact letter display (insert-and-absorb and sweep, Piepho 2004)."""

from __future__ import annotations

import numpy as np

ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def letters(order: list[int], different: np.ndarray) -> dict[int, str]:
    """Compact letter display of significance groups (Piepho 2004, J. Comput. Graph. Stat. 13:456).

    Two systems share a letter if and only if they do not differ significantly, every system has
    at least one letter, and no letter is redundant (taking any one letter from any one system
    would lose a non-significant pair, or leave the system no letter). Letters follow ``order``
    (best first): the first system gets "a", and the letters are assigned in the order of the
    groups' best-ranked systems (beyond 52 letters: a1, b1, ...). The result depends only on
    ``order`` and ``different``.

    Parameters
    ----------
    order : list of int
        The systems 0..m-1, best first.
    different : ndarray of bool, shape (m, m)
        ``different[i, j]`` (read for i < j) is True when systems i and j differ significantly.

    Returns
    -------
    dict of int to str
        The letters of each system.

    Notes
    -----
    The columns (one per letter) are built by insert-and-absorb: start from one column holding
    every system; for each system i, split each column holding i and a system that differs from i
    into the column without i and the column without those systems, then drop columns contained in
    another. This leaves the maximal groups of mutually non-different systems. Their number can
    grow exponentially with m (with 30 items, a few hundred systems of which most pairs do not
    differ): beyond :data:`MAX_GROUPS` of them, the columns are instead groups of mutually
    non-different systems built greedily until every non-different pair shares one
    (:func:`_greedy_groups`, polynomial), which the sweep treats alike. The sweep then
    visits the columns in display order and the systems of each in ``order``, and removes a system
    from a column when every pair it forms there (and the system itself) also shares another
    column. Removals only lower what other columns cover, so one pass leaves no redundant letter,
    and no column contained in another; columns left empty are dropped.

    Examples
    --------
    >>> import numpy as np
    >>> different = np.zeros((3, 3), dtype=bool)
    >>> different[0, 2] = True                  # only the first and the last differ
    >>> letters([0, 1, 2], different)
    {0: 'a', 1: 'ab', 2: 'b'}
    """
    m = different.shape[0]
    upper = np.triu(np.asarray(different, dtype=bool), 1)
    sym = upper | upper.T
    pos = {s: r for r, s in enumerate(order)}
    ranked = sorted(range(m), key=pos.__getitem__)
    cols = _maximal_groups(sym)
    if cols is None:
        cols = _greedy_groups(sym, ranked)

    def members(c: int) -> list[int]:  # in ``order``
        return [s for s in ranked if c >> s & 1]

    def display_key(c: int) -> list[int]:
        return [pos[s] for s in members(c)]

    cols.sort(key=display_key)
    # sweep: cover[s, t] counts the columns holding both s and t (cover[s, s]: the letters of s)
    held = np.array([[c >> s & 1 for s in range(m)] for c in cols], dtype=bool).reshape(
        len(cols), m
    )
    cover = held.T.astype(np.int64) @ held.astype(np.int64)
    for k, c in enumerate(cols):
        for s in members(c):
            row = held[k]
            if cover[s, row].min() >= 2:  # every pair of s in this column is also in another one
                row[s] = False
                cover[s, row] -= 1
                cover[row, s] -= 1
                cover[s, s] -= 1
    swept = [sum(1 << int(s) for s in np.flatnonzero(r)) for r in held]
    cols = sorted((c for c in swept if c), key=display_key)

    def name(k: int) -> str:  # beyond 52 letter groups: a1, b1, ... (rare)
        return ALPHABET[k % 52] + (str(k // 52) if k >= 52 else "")

    out = {s: "" for s in range(m)}
    for k, c in enumerate(cols):
        for s in members(c):
            out[s] += name(k)
    return out


#: Most columns insert-and-absorb may hold before :func:`letters` covers the pairs greedily instead.
MAX_GROUPS = 1024


def _maximal_groups(sym: np.ndarray) -> list[int] | None:
    """The maximal groups of mutually non-different systems as bitmasks (insert-and-absorb), or
    None as soon as there are more than :data:`MAX_GROUPS` of them (their number can grow
    exponentially with the number of systems)."""
    m = sym.shape[0]
    # bitmasks: bit s stands for system s; differs[i] holds the systems that differ from i
    differs = [sum(1 << int(j) for j in np.flatnonzero(sym[i])) for i in range(m)]
    cols = [(1 << m) - 1] if m else []
    for i in range(m):
        bi, di = 1 << i, differs[i]
        keep, split = [], []
        for c in cols:
            if c & bi and c & di:
                split += [c & ~bi, c & ~di]
            else:
                keep.append(c)
        if not split:
            continue
        if len(keep) + len(split) > 4 * MAX_GROUPS:
            return None
        # absorb: the kept columns are maximal (none lies inside a split part of a former column);
        # a split part goes if another column contains it
        split = list(dict.fromkeys(split))
        cols = keep + [
            c
            for c in split
            if not any(c & ~k == 0 for k in keep) and not any(c != o and c & ~o == 0 for o in split)
        ]
        if len(cols) > MAX_GROUPS:
            return None
    return cols


def _greedy_groups(sym: np.ndarray, ranked: list[int]) -> list[int]:
    """Groups of mutually non-different systems covering every non-different pair, as bitmasks,
    built greedily in polynomial time: for each system in ``ranked`` order, while some
    non-different pair of it is in no group yet, a group starts from the system and its best-ranked
    such partner, and grows by the systems (in ``ranked`` order; first those whose pair with the
    starting system is still uncovered) that differ from none of its members."""
    m = sym.shape[0]
    same = ~sym
    np.fill_diagonal(same, False)
    uncovered = same.copy()
    rank = np.empty(m, dtype=np.int64)
    rank[ranked] = np.arange(m)
    by_rank = np.asarray(ranked, dtype=np.int64)
    cols = []
    for i in ranked:
        if not same[i].any():
            cols.append(1 << i)
            continue
        while uncovered[i].any():
            members = [i]
            fits = same[i].copy()
            for pool in (uncovered[i], same[i]):
                for j in by_rank[pool[by_rank]]:
                    if fits[j]:
                        members.append(int(j))
                        fits &= same[j]
            idx = np.array(members)
            uncovered[np.ix_(idx, idx)] = False
            cols.append(sum(1 << s for s in members))
    return cols
