"""The shared resampling plan of one competition: which items (or clusters) every replicate draws.

Replicates come in fixed *blocks* (:func:`~compreport.stats.memory.block_rows`, a function of n
only); block ``k`` is drawn by its own generator,
``default_rng(SeedSequence(seed, spawn_key=(key, stream, k)))``, so the numbers do not depend on
how many blocks are processed together or on ``jobs`` (:mod:`compreport.stats.resampling`).
``key`` is derived from the competition's stable stream text, its spec ``id`` or else its
folder's or gold file's name (:func:`competition_key`, ``Competition.stream_key``), never its
display name: adding a competition to a workshop does not change another's numbers, and neither
does a translated title.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field

import numpy as np

from compreport.stats.memory import block_rows
from compreport.stats.multinomial import Multinomial


def competition_key(competition_id: str) -> int:
    """A stable 32-bit stream key for a competition's stream text (its CRC-32).

    Examples
    --------
    >>> competition_key("paraphrase")       # the same in every run, on every machine
    2397498906
    """
    return zlib.crc32(competition_id.encode("utf-8"))


@dataclass
class Resampler:
    """The shared resampling plan of one competition.

    Parameters
    ----------
    n : int
        Test items.
    B : int
        Replicates.
    seed : int
        User seed (recorded in every output).
    key : int
        Stream key of the competition (:func:`competition_key`; default 0).
    units : int, optional
        What a replicate draws with replacement, as many as there are: the ``n`` items (default) or
        the clusters of the cluster bootstrap (:class:`~compreport.inputs.clusters.Clusters`).
    """

    n: int
    B: int
    seed: int
    key: int = 0
    units: int | None = None
    _blocks: list | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def rows(self) -> int:
        """Replicates per block (:func:`block_rows`)."""
        return block_rows(self.n)

    def blocks(self) -> list[tuple[int, int]]:
        """``(start, stop)`` replicate ranges of the blocks, covering ``0..B`` (built once)."""
        if self._blocks is None:
            r = self.rows
            self._blocks = [(s, min(s + r, self.B)) for s in range(0, self.B, r)]
        return self._blocks

    def span(self, block: int) -> tuple[int, int]:
        """``(start, stop)`` of block ``block``."""
        start = block * self.rows
        return start, min(start + self.rows, self.B)

    def rng(self, block: int, stream: int = 0) -> np.random.Generator:
        """Generator of ``block``; stream 0 draws resamples, stream 1 the randomization swaps."""
        return np.random.default_rng(
            np.random.SeedSequence(self.seed, spawn_key=(self.key, stream, block))
        )

    def indices(self, block: int) -> np.ndarray:
        """Drawn units (item indices, or cluster indices) of ``block``: int array (rows, units)."""
        start, stop = self.span(block)
        units = self.n if self.units is None else self.units
        return self.rng(block).integers(0, units, size=(stop - start, units))

    def cluster_swaps(self, block: int) -> np.ndarray:
        """Randomization rounds of the cluster bootstrap: which clusters swap the two predictions of
        all their items (each with probability 1/2): 0/1 array (rows, clusters)."""
        start, stop = self.span(block)
        return self.rng(block, stream=1).integers(0, 2, size=(stop - start, self.units))

    def pattern_counts(self, block: int, sampler: Multinomial) -> np.ndarray:
        """Multinomial counts over the patterns of ``sampler`` (their frequencies, summing to n):
        int array (rows, U)."""
        start, stop = self.span(block)
        return sampler.draw(self.rng(block), stop - start)

    def swap_counts(self, block: int, freq: np.ndarray) -> np.ndarray:
        """Randomization rounds: how many of each pattern's items swap their two predictions.

        Each item swaps with probability 1/2, independently, so a pattern of ``f`` items
        contributes Binomial(f, 1/2) swaps: (rows, U).
        """
        start, stop = self.span(block)
        return self.rng(block, stream=1).binomial(freq, 0.5, size=(stop - start, len(freq)))
