"""The compact letter display of significance groups (Piepho 2004): it represents exactly the
non-significant pairs, its letters follow the ranking, and no letter is redundant."""

import re

import numpy as np
import pytest

from compreport.stats.letters import letters


def _columns(groups: dict[int, str], m: int) -> np.ndarray:
    """Letters as a boolean matrix, one row per letter ("a", ..., "Z", "a1", ...), in display
    order."""
    names = []
    for s in range(m):
        for name in re.findall(r"[a-zA-Z]\d*", groups[s]):
            if name not in names:
                names.append(name)
    return np.array(
        [[name in re.findall(r"[a-zA-Z]\d*", groups[s]) for s in range(m)] for name in names],
        dtype=bool,
    ).reshape(len(names), m)


def _represents(cols: np.ndarray, different: np.ndarray) -> bool:
    """Two systems share a letter iff they do not differ, and every system has a letter."""
    held = cols.astype(int)
    share = (held.T @ held) > 0
    expected = ~different
    np.fill_diagonal(expected, True)
    return bool(np.array_equal(share, expected))


def _redundant(cols: np.ndarray, different: np.ndarray) -> list[tuple[int, int]]:
    """(letter, system) memberships whose removal keeps the display representing ``different``."""
    out = []
    for k, s in zip(*np.nonzero(cols)):
        fewer = cols.copy()
        fewer[k, s] = False
        if _represents(fewer, different):
            out.append((int(k), int(s)))
    return out


def _random_different(rng, m, density):
    upper = np.triu(rng.random((m, m)) < density, 1)
    return upper | upper.T


def test_every_display_is_exact_ordered_and_has_no_redundant_letter():
    """3,200 random significance patterns (m = 2..8, from almost none to almost all pairs
    different, systems ranked in a random order): the display represents exactly the
    non-significant pairs, a system's letters are never redundant, the best system gets "a" and
    letters appear in the order of the ranking, and the result is the same when asked again."""
    rng = np.random.default_rng(2004)
    checked = 0
    for m in range(2, 9):
        for density in (0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95, None):
            for _ in range(57):
                different = _random_different(
                    rng, m, rng.uniform(0, 1) if density is None else density
                )
                order = [int(s) for s in rng.permutation(m)]
                groups = letters(order, different)
                cols = _columns(groups, m)
                assert _represents(cols, different), (different.astype(int), order, groups)
                assert _redundant(cols, different) == [], (different.astype(int), order, groups)
                assert groups[order[0]].startswith("a")
                first_seen = list(dict.fromkeys("".join(groups[s] for s in order)))
                assert first_seen == sorted(first_seen), (order, groups)
                assert letters(order, different.copy()) == groups
                checked += 1
    assert checked >= 3000


def test_the_sweep_removes_what_insert_and_absorb_leaves_redundant():
    """Hand-worked: five ranked systems, each different from those three or more places away. The
    maximal groups of mutually non-different systems are {0,1,2}, {1,2,3}, {2,3,4}, which
    insert-and-absorb prints as a, ab, abc, bc, c; but system 2's "b" is redundant: its pairs in
    group b, 2-1 and 2-3, share "a" and "c" too. The sweep removes it."""
    rank = np.arange(5)
    different = np.abs(rank[:, None] - rank[None, :]) >= 3
    assert letters(list(range(5)), different) == {0: "a", 1: "ab", 2: "ac", 3: "bc", 4: "c"}


def test_the_sweep_removes_a_letter_whose_pairs_all_share_another():
    """Hand-worked: systems 0, 1, 2 are mutually non-different, and each of their pairs is also
    non-different from one more system (0-1 from 3, 1-2 from 4, 0-2 from 5); all other pairs differ.
    Insert-and-absorb keeps the four maximal groups {0,1,2}, {0,1,3}, {0,2,5}, {1,2,4}
    (abc, abd, acd, b, d, c), but every pair of the first also shares another letter: the sweep
    drops that letter, and the three others become a, b, c."""
    same = [(0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (1, 4), (2, 4), (0, 5), (2, 5)]
    different = ~np.eye(6, dtype=bool)
    for i, j in same:
        different[i, j] = different[j, i] = False
    assert letters(list(range(6)), different) == {0: "ab", 1: "ac", 2: "bc", 3: "a", 4: "c", 5: "b"}
    # ranked the other way round, the letters follow that ranking
    assert letters([5, 4, 3, 2, 1, 0], different) == {
        0: "ac",
        1: "bc",
        2: "ab",
        3: "c",
        4: "b",
        5: "a",
    }


@pytest.mark.parametrize("width", [0.05, 0.2, 0.5])
def test_many_ranked_systems(width):
    """150 systems whose differences follow the ranking (systems whose scores are far apart differ),
    the pattern of a leaderboard: exact, no redundant letter, names beyond "Z" (a1, b1, ...)."""
    rng = np.random.default_rng(7)
    score = np.sort(rng.random(150))[::-1]
    different = np.abs(score[:, None] - score[None, :]) > width
    groups = letters(list(range(150)), different)
    cols = _columns(groups, 150)
    assert _represents(cols, different)
    assert _redundant(cols, different) == []
    assert groups[0].startswith("a")


def test_agrees_with_scikit_posthocs_up_to_the_sweep():
    """scikit-posthocs' compact letter display keeps every maximal group of mutually non-different
    systems (it has no sweep). Ours keeps part of each of its letters, uses no more letters, and is
    the same display whenever none of its letters is redundant."""
    scikit_posthocs = pytest.importorskip("scikit_posthocs")
    rng = np.random.default_rng(5)
    swept = 0
    for _ in range(300):
        m = int(rng.integers(3, 8))
        different = _random_different(rng, m, rng.uniform(0.1, 0.9))
        ours = _columns(letters(list(range(m)), different), m)
        table = scikit_posthocs.compact_letter_display(np.where(different, 0.001, 0.5), alpha=0.05)
        theirs = np.array(
            [[ch in table.iloc[s] for s in range(m)] for ch in sorted(set("".join(table)) - {" "})]
        )
        assert _represents(theirs, different)
        groups_ours = {frozenset(np.flatnonzero(c)) for c in ours}
        groups_theirs = {frozenset(np.flatnonzero(c)) for c in theirs}
        assert all(any(g <= h for h in groups_theirs) for g in groups_ours)
        assert len(groups_ours) <= len(groups_theirs)
        if _redundant(theirs, different):
            swept += 1
            assert groups_ours != groups_theirs
        else:
            assert groups_ours == groups_theirs
    assert swept > 0  # the sample holds displays the sweep changes
