"""Which cluster each item belongs to (a question, a document, an author, a conversation): the
unit of the cluster bootstrap (:mod:`compreport.stats.resampling`).

A replicate draws as many clusters as there are, uniformly with replacement (Davison & Hinkley
1997, section 3.8: the first-stage bootstrap of clustered data); every item of a drawn cluster
enters the resample once per draw, so resamples differ in size. The same draws serve every system
and every metric (paired). The jackknife behind BCa leaves out one cluster at a time, and the
randomization test swaps the two systems' predictions of all the items of a cluster together.
With one item per cluster the drawn clusters are the drawn items, replicate by replicate.
:class:`Clusters` holds the clusters of a competition and turns draws of clusters into items.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

#: Below this many clusters the cluster bootstrap is unreliable (intervals too narrow, tests too
#: liberal: Cameron, Gelbach & Miller 2008), and a competition gets a note saying so. Measured
#: (docs/statistics.md, "Small samples and few clusters"): liberal at 20 and 50 clusters, within
#: two Monte-Carlo SEs of 5 % at 100.
FEW_CLUSTERS = 100

#: The cluster bootstrap's family-wise error rate (%, ± one Monte-Carlo SE) measured at nominal 5 %
#: by number of clusters (five equal systems, max-T over all pairs, B = 10,000, clusters of 20
#: items sharing a system-by-cluster effect; ``benchmarks/size.py --small``), and that of
#: ``--test randomization`` (Holm; it swaps whole clusters): the highest at those counts.
CLUSTER_SIZE = MappingProxyType({20: (8.5, 1.4), 50: (7.1, 0.9)})
CLUSTER_RANDOMIZATION = (2.2, 0.5)


@dataclass(frozen=True)
class Clusters:
    """Which cluster each item belongs to.

    Attributes
    ----------
    codes : ndarray of int (n,)
        Cluster of each item, numbered 0..G-1 in order of first appearance.
    labels : list of str
        The clusters' names (G), in that order.
    column : str
        Where they came from, for the outputs: the column's header name, or its 1-based position
        (``"1"``) in a file without a header; messages write it after the word "column".

    Examples
    --------
    >>> c = Clusters.from_labels(["q1", "q1", "q2", "q1"], "question")
    >>> c.codes.tolist(), c.labels, c.sizes.tolist()
    ([0, 0, 1, 0], ['q1', 'q2'], [3, 1])
    >>> c.items(np.array([1, 1, 0])).tolist()  # q2 drawn twice, then q1
    [2, 2, 0, 1, 3]
    """

    codes: np.ndarray
    labels: list
    column: str = "cluster"

    @classmethod
    def from_labels(cls, labels, column: str = "cluster") -> Clusters:
        """From one cluster label per item (any values; compared as strings).

        Examples
        --------
        >>> c = Clusters.from_labels(["q2", "q1", "q2", "q3"], column="query")
        >>> c.codes.tolist(), c.labels, c.sizes.tolist()
        ([0, 1, 0, 2], ['q2', 'q1', 'q3'], [2, 1, 1])
        >>> c.items([0, 0, 2]).tolist()    # the items of the drawn clusters, in drawing order
        [0, 2, 0, 2, 3]
        """
        values = [str(v) for v in labels]
        first: dict[str, int] = {}
        codes = np.fromiter(
            (first.setdefault(v, len(first)) for v in values), dtype=np.intp, count=len(values)
        )
        return cls(codes, list(first), column)

    @property
    def count(self) -> int:
        """G, the number of clusters."""
        return len(self.labels)

    @functools.cached_property
    def sizes(self) -> np.ndarray:
        """Items per cluster (G,)."""
        return np.bincount(self.codes, minlength=self.count)

    @functools.cached_property
    def _members(self) -> tuple[np.ndarray, np.ndarray]:
        """Items sorted by cluster (stable) and where each cluster starts among them."""
        return np.argsort(self.codes, kind="stable"), np.concatenate(
            [[0], np.cumsum(self.sizes)[:-1]]
        )

    def counts(self, draws: np.ndarray) -> np.ndarray:
        """How often each cluster was drawn in each row of ``draws`` (rows, G): (rows, G) int."""
        out = np.zeros((len(draws), self.count), dtype=np.int64)
        for j, row in enumerate(draws):
            out[j] = np.bincount(row, minlength=self.count)
        return out

    def items(self, draw: np.ndarray) -> np.ndarray:
        """The item indices of the drawn clusters ``draw`` (one row), cluster after cluster in
        drawing order (each cluster's items in input order)."""
        members, starts = self._members
        lens = self.sizes[draw]
        at = np.repeat(starts[draw] - np.cumsum(lens) + lens, lens) + np.arange(int(lens.sum()))
        return members[at]

    def by_pattern(self, inverse: np.ndarray, patterns: int):
        """(G, U) sparse matrix: the items of each cluster falling in each joint pattern."""
        from scipy import sparse

        return sparse.csr_matrix(
            (np.ones(len(self.codes)), (self.codes, inverse)), shape=(self.count, patterns)
        )

    def few_note(self, competition_id: str) -> str | None:
        """The note for a competition with fewer than :data:`FEW_CLUSTERS` clusters, else None:
        it names the sizes measured below the threshold (:data:`CLUSTER_SIZE`) and the
        randomization test, which held the level there (:data:`CLUSTER_RANDOMIZATION`).

        >>> from compreport.errors import worded  # the options it names, in Python words
        >>> print(worded(Clusters.from_labels(list(range(20)), "question").few_note("qa")))
        ... # doctest: +NORMALIZE_WHITESPACE
        competition 'qa': only 20 clusters (column 'question'); with fewer than 100 the cluster
        bootstrap's intervals come out too narrow and its tests too liberal (Cameron, Gelbach and
        Miller, 2008): with 20 clusters its family-wise error rate was measured at 8.5 %, with 50
        at 7.1 %, for a nominal 5 % (docs/statistics.md); test='randomization', which swaps whole
        clusters, held the level there (at most 2.2 %, conservative) when the systems are
        exchangeable under the null
        """
        from compreport.errors import option

        if self.count >= FEW_CLUSTERS:
            return None
        (few, (at_few, _)), *_, (most, (at_most, _)) = sorted(CLUSTER_SIZE.items())
        return (
            f"competition {competition_id!r}: only {self.count} clusters (column "
            f"{self.column!r}); with fewer than {FEW_CLUSTERS} the cluster bootstrap's intervals "
            f"come out too narrow and its tests too liberal (Cameron, Gelbach and Miller, 2008): "
            f"with {few} clusters its family-wise error rate was measured at {at_few:g} %, with "
            f"{most} at {at_most:g} %, for a nominal 5 % (docs/statistics.md); "
            f"{option('test', 'randomization')}, which swaps whole clusters, held the level there "
            f"(at most {CLUSTER_RANDOMIZATION[0]:g} %, conservative) when the systems are "
            f"exchangeable under the null"
        )

    def describe(self) -> dict:
        """The resampling unit as results.json states it: ``{"column", "clusters", "items"}``."""
        return {"column": self.column, "clusters": self.count, "items": int(len(self.codes))}
