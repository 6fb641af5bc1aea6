"""Best-first order and competition ranks of observed scores, of systems and of teams."""

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


def rank_teams(
    ordered: list[tuple[str, float]],
    teams: dict[str, str | None],
    baselines: set[str] | frozenset[str],
    higher_is_better: bool,
) -> list[tuple[str, int, list[str]]]:
    """The teams' ranking: each team ranked by its best run, ties sharing a rank (1, 2, 2, 4).

    A run without a team is a team of one (named after the run); baselines belong to no team.

    Parameters
    ----------
    ordered : list of (str, float)
        ``(system, score)`` best first, as :func:`order_systems` orders them (NaN: undefined).
    teams : dict
        System -> its team, or None (a team of one).
    baselines : set of str
        Systems that do not compete.
    higher_is_better : bool
        Orientation of the scores.

    Returns
    -------
    list of (team, rank, runs)
        Teams best first; ``runs`` are the team's competing runs best first, its best run first.

    Examples
    --------
    >>> ordered = [("B.run1", 0.9), ("A.1", 0.8), ("B.run2", 0.8), ("C", 0.8), ("base", 0.5)]
    >>> rank_teams(ordered, {"B.run1": "B", "B.run2": "B", "A.1": "A"}, {"base"}, True)
    [('B', 1, ['B.run1', 'B.run2']), ('A', 2, ['A.1']), ('C', 2, ['C'])]
    """
    runs: dict[str, list[str]] = {}
    best: dict[str, float] = {}
    for system, score in ordered:
        if system in baselines:
            continue
        team = teams.get(system) or system
        if team not in runs:
            best[team] = score
        runs.setdefault(team, []).append(system)
    sign = 1.0 if higher_is_better else -1.0
    key = {t: -np.inf if np.isnan(v) else sign * v for t, v in best.items()}
    return [(t, 1 + sum(key[u] > key[t] for u in runs), r) for t, r in runs.items()]


def team_rank_sets(
    runs: list[list[int]], better: np.ndarray
) -> list[tuple[int | None, int | None]]:
    """Confidence sets of the teams' ranks, each team by its best run, from the systems' rejections.

    A team's true score is its best run's true score, and which run is best is read off the same
    data, so a team's set is not its best observed run's set. It is read off the rejections of
    the systems' step-down instead (:func:`compreport.stats.ranksets.rank_sets`): team U is found
    better than team T when some run of U is found better than every run of T (then U's best run
    beats T's best, whichever it is). Whenever every system-level rejection is right (probability
    about 1 - alpha), so is every team-level one, so the teams' sets cover the teams' true ranks
    jointly, with the systems' sets; they may be wider than a construction for teams alone.

    Parameters
    ----------
    runs : list of list of int
        Each team's runs with a defined score, as indices into ``better`` (may be empty).
    better : ndarray of bool, shape (m, m)
        ``better[j, k]``: system j is found better than system k.

    Returns
    -------
    list of (int, int) or (None, None)
        ``(rank_low, rank_high)`` among the M teams with a defined run, in the order of ``runs``;
        ``(None, None)`` for a team without one.

    Examples
    --------
    >>> import numpy as np
    >>> better = np.zeros((4, 4), dtype=bool)
    >>> better[0, 2] = better[0, 3] = better[1, 3] = True   # 0 beats 2 and 3, 1 beats 3
    >>> team_rank_sets([[0, 1], [2, 3], []], better)        # team 1's run 2 is beaten only by 0
    [(1, 1), (2, 2), (None, None)]
    >>> team_rank_sets([[0], [1], [2, 3]], better)          # run 1 beats run 3, not run 2
    [(1, 2), (1, 3), (2, 3)]
    """
    live = [i for i, r in enumerate(runs) if r]
    out: list[tuple[int | None, int | None]] = [(None, None)] * len(runs)

    def beats(u: list[int], t: list[int]) -> bool:
        return any(bool(better[np.ix_([x], t)].all()) for x in u)

    for i in live:
        above = sum(beats(runs[j], runs[i]) for j in live if j != i)
        below = sum(beats(runs[i], runs[j]) for j in live if j != i)
        out[i] = (1 + above, len(live) - below)
    return out
