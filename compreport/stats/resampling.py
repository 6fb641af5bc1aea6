"""Paired bootstrap engine: one seeded set of resamples serves every system and every metric.

How a replicate is drawn
------------------------
Replicates come in fixed *blocks*; block ``k`` is drawn by its own generator,
``default_rng(SeedSequence(seed, spawn_key=(key, k)))``, so the numbers do not depend
on how many blocks are processed together or on ``jobs``. ``key`` is derived from the
competition id: adding a competition to a workshop does not change another's numbers.

Two exact ways to draw the same bootstrap distribution are used:

* ``items``: ``rows x n`` item indices drawn uniformly with replacement (the textbook
  bootstrap); required when a metric is evaluated per resample (``spearman``,
  ``roc_auc``, user metrics), and the indices are shared with those metrics;
* ``patterns``: when every metric is decomposable, items with identical values in every
  column (gold plus every system's prediction) are one *pattern*, and a resample is a
  multinomial draw of ``n`` items over the patterns. Used when patterns are few
  (``5 * patterns < n``), which makes the cost independent of ``n``.

In both, replicate statistics are per-pattern sufficient statistics
(:mod:`compreport.stats.metrics`) weighted by how often each pattern was drawn, summed by one
of two engines chosen by cost per run (:class:`_Summer`; recorded as ``engine.statistics``):

* ``dense``: ``counts @ stats``, one matrix product (U patterns x width statistics);
* ``cells``: for confusion-based metrics (accuracy, precision/recall/F1 and their averages) a
  pattern falls, for each system, in one (gold, predicted) cell, so the counts are summed per
  system per cell by a sparse product over the patterns where the system errs, then turned into
  statistics by each cell's table: work about ``B x (U + errors)`` additions instead of
  ``B x U x width``, and no (U, width) matrix. Wins with many classes or many distinct items.

Both sum integer counts exactly, so they give the same numbers.
"""

from __future__ import annotations

import os
import sys
import zlib
from dataclasses import dataclass, field

import numpy as np

from ..errors import InputError
from ..words import option
from .metrics import Prepared

#: Largest number of index cells (rows * n) drawn at once; bounds memory to ~64 MB per block.
_BLOCK_CELLS = 1 << 23


def block_rows(n: int) -> int:
    """Replicates per block: a function of ``n`` only, so results never depend on chunking."""
    return max(1, min(256, _BLOCK_CELLS // max(n, 1)))


def available_memory() -> int | None:
    """Bytes of memory available now: ``MemAvailable`` of /proc/meminfo (else the free pages of
    ``os.sysconf``), capped by a cgroup v2 limit; None where neither can be read (no check then)."""
    avail = None
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    avail = int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    if avail is None:
        try:
            avail = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (AttributeError, ValueError, OSError):
            return None
    try:
        with open("/sys/fs/cgroup/memory.max", encoding="ascii") as fh:
            limit = fh.read().strip()
        if limit != "max":
            with open("/sys/fs/cgroup/memory.current", encoding="ascii") as fh:
                avail = min(avail, int(limit) - int(fh.read()))
    except (OSError, ValueError):
        pass
    return avail


def _size(nbytes: float) -> str:
    """``300 KiB``, ``512 MiB``, ``22.4 GiB``, ``1,234.5 GiB``, ``4.5e+15 GiB``."""
    gib = nbytes / (1 << 30)
    if gib < 1:
        return f"{nbytes / (1 << 20):.0f} MiB" if nbytes >= 1 << 20 else f"{nbytes / 1024:.0f} KiB"
    return f"{gib:,.1f} GiB" if gib < 1e6 else f"{gib:.1e} GiB"


def check_memory(parts: dict[str, int], what: str, hint: str) -> None:
    """Refuse work whose arrays would not fit in the memory available now.

    Parameters
    ----------
    parts : dict of str to int
        Estimated bytes of each large array (or group of arrays) alive at the peak, by description.
    what : str
        The work, for the message (``competition 'x': the bootstrap with -B 1000000000``).
    hint : str
        What to change, for the message.

    Raises
    ------
    InputError
        ``WHAT would need about 44.7 GiB of memory (largest part: ...), more than the 21.9 GiB
        available; HINT`` when the sum exceeds :func:`available_memory`.
    """
    need = sum(parts.values())
    avail = available_memory()
    if avail is None or need <= avail:
        return
    biggest = max(parts, key=parts.__getitem__)
    raise InputError(f"{what} would need about {_size(need)} of memory (largest part: {biggest}, "
                     f"{_size(parts[biggest])}), more than the {_size(max(avail, 0))} available; {hint}")


def comparison_bytes(B: int, m: int) -> int:
    """Peak bytes of the analysis of one metric after the bootstrap: replicate differences of up to
    256 pairs at a time plus their sorted copy and comparisons, or a copy of the (B, m) replicates."""
    pairs = min(256, max(1, m * (m - 1) // 2))
    return 8 * B * max(3 * pairs, 2 * m)


def check_replicates_memory(competitions: list[tuple[str, int, int]], B: int) -> None:
    """Refuse a ``B`` whose replicates would not fit in memory, before any work.

    Every competition's replicates (B x systems x metrics floats) are kept for the report, and
    the analysis of one metric needs :func:`comparison_bytes` on top.

    Parameters
    ----------
    competitions : list of (id, systems, metrics)
    B : int
        Replicates.
    """
    if not B or not competitions:
        return
    parts = {f"replicates of competition {cid!r} ({k} metric(s) x {m} systems x {B} replicates x 8 bytes)":
             8 * B * m * k for cid, m, k in competitions}
    parts["copies of one metric's replicates in its analysis"] = max(comparison_bytes(B, m)
                                                                      for _, m, _ in competitions)
    check_memory(parts, f"{option('bootstrap', B)}", f"use a smaller {option('bootstrap')}")


def competition_key(competition_id: str) -> int:
    """A stable 32-bit stream key for a competition id."""
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
        Stream key of the competition (:func:`competition_key`).
    """

    n: int
    B: int
    seed: int
    key: int = 0
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
        return np.random.default_rng(np.random.SeedSequence(self.seed, spawn_key=(self.key, stream, block)))

    def indices(self, block: int) -> np.ndarray:
        """Item indices of block ``block``: int array (rows, n)."""
        start, stop = self.span(block)
        return self.rng(block).integers(0, self.n, size=(stop - start, self.n))

    def pattern_counts(self, block: int, freq: np.ndarray) -> np.ndarray:
        """Multinomial counts over patterns with frequencies ``freq`` (summing to n): (rows, U)."""
        start, stop = self.span(block)
        return self.rng(block).multinomial(self.n, freq / self.n, size=stop - start)

    def swap_counts(self, block: int, freq: np.ndarray) -> np.ndarray:
        """Randomization rounds: how many of each pattern's items swap their two predictions.

        Each item swaps with probability 1/2, independently, so a pattern of ``f`` items
        contributes Binomial(f, 1/2) swaps: (rows, U).
        """
        start, stop = self.span(block)
        return self.rng(block, stream=1).binomial(freq, 0.5, size=(stop - start, len(freq)))


@dataclass
class BootstrapResult:
    """Scores of every metric on the full test set and on each replicate.

    Attributes
    ----------
    observed : list of ndarray (m,)
        One per metric, in the order given.
    replicates : list of ndarray (B, m)
        Replicate ``i`` of every metric comes from the same resample.
    mode : str
        ``"items"`` or ``"patterns"`` (see module docstring).
    patterns : int or None
        Distinct joint patterns (decomposable metrics only).
    jackknife : list of (ndarray (J, m), ndarray (J,)) or None
        Per metric, leave-one-out scores and their weights (``run(..., jackknife=True)``).
    prepared : list of Prepared
        The metrics, in order.
    layout : list of (int, int, int) or None
        Per metric, ``(offset, shared width, per-system width)`` of its columns in the
        stacked statistics (``None``: not decomposable).
    total : ndarray or None
        Stacked statistics summed over all items.
    swaps : ndarray (B, T) or None
        Stacked statistics of the swapped items of each randomization round.
    m, n : int
        Systems and items.
    engine : str
        How replicate statistics were summed: ``"dense"`` (``counts @ stats``), ``"cells"`` (per
        (gold, predicted) cell, :class:`_Summer`) or ``"items"`` (no decomposable metric).
    """

    observed: list[np.ndarray]
    replicates: list[np.ndarray] = field(repr=False)
    mode: str
    patterns: int | None
    jackknife: list[tuple[np.ndarray, np.ndarray] | None] = field(default_factory=list, repr=False)
    prepared: list[Prepared] = field(default_factory=list, repr=False)
    layout: list = field(default_factory=list, repr=False)
    total: np.ndarray | None = field(default=None, repr=False)
    swaps: np.ndarray | None = field(default=None, repr=False)
    m: int = 0
    n: int = 0
    engine: str = "dense"

    def randomization_p(self, i: int, a: np.ndarray, b: np.ndarray, chunk: int = 64) -> np.ndarray:
        """Approximate-randomization p-values of metric ``i`` for the pairs ``a[j]`` vs ``b[j]``.

        In each of R rounds every item swaps the two systems' predictions with probability
        1/2 (the same swaps serve every pair, as the bootstrap shares its resamples);
        ``p = (1 + #{|delta_r| >= |delta|}) / (R + 1)``, two-sided (MUC-6; Fisher-Pitman).

        Parameters
        ----------
        i : int
            Metric index.
        a, b : ndarray of int, shape (k,)
            System indices of each pair.
        chunk : int
            Pairs scored at once (bounds memory; results do not depend on it).

        Returns
        -------
        ndarray, shape (k,)
        """
        p, lay, m = self.prepared[i], self.layout[i], self.m
        if lay is None or self.swaps is None:
            raise ValueError("randomization needs decomposable metrics and run(..., randomization=True)")
        t, na, nb = lay
        shared = np.broadcast_to(self.total[t:t + na], (self.swaps.shape[0], na))
        tot = self.total[t + na:t + na + m * nb].reshape(m, nb)
        sw = self.swaps[:, t + na:t + na + m * nb].reshape(-1, m, nb)
        obs = self.observed[i]
        out = np.empty(len(a))
        for s in range(0, len(a), chunk):
            aa, bb = a[s:s + chunk], b[s:s + chunk]
            delta = np.abs(obs[aa] - obs[bb])
            moved = sw[:, bb] - sw[:, aa]           # (R, k, nb): b's stats land in a's slot
            sa = p.finalize(shared, tot[aa] + moved, float(self.n), systems=aa)
            sb = p.finalize(shared, tot[bb] - moved, float(self.n), systems=bb)
            d = np.abs(sa - sb)
            hits = (d >= delta - 1e-10 * np.maximum(1.0, delta)).sum(axis=0)
            out[s:s + chunk] = (1 + hits) / (d.shape[0] + 1)
        return out


def _stats_matrix(prepared: list[Prepared], rows: np.ndarray, col_slices: list[slice], m: int):
    """Stack every decomposable metric's statistics for pattern rows: (U, T) and per-metric layout."""
    blocks, layout, t = [], [], 0
    for p, cs in zip(prepared, col_slices, strict=True):
        if not p.decomposable:
            layout.append(None)
            continue
        shared, per = p.stats(rows[:, cs])
        a, b = shared.shape[1], per.shape[2]
        blocks += [shared, per.reshape(len(rows), m * b)]
        layout.append((t, a, b))
        t += a + m * b
    return (np.hstack(blocks) if blocks else np.zeros((len(rows), 0))), layout


def unique_rows(cols: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``np.unique(cols, axis=0, return_inverse=True, return_counts=True)`` through a packed integer key.

    Each column is coded in increasing order of its values (integer-valued columns as they are)
    and the codes are packed, first column most significant, into one int64 key (re-numbered
    whenever the next column would overflow it), so the patterns come out in the same
    lexicographic order as ``np.unique(axis=0)``, with the same inverse and counts, at the cost
    of one 1-d sort instead of a row-wise one.

    Returns
    -------
    reps : ndarray (U, c)
    inverse : ndarray of int (n,)
    freq : ndarray of int (U,)
    """
    n, c = cols.shape
    if n == 0 or c == 0 or np.isnan(cols).any():
        reps, inverse, freq = np.unique(cols, axis=0, return_inverse=True, return_counts=True)
        return reps, inverse.ravel(), freq
    key, bound = np.zeros(n, dtype=np.int64), 1
    for j in range(c):
        col = cols[:, j]
        lo, hi = col.min(), col.max()
        if lo >= 0 and hi < 1 << 31 and np.array_equal(col, np.floor(col)):
            code, k = col.astype(np.int64), int(hi) + 1
        else:
            vals, code = np.unique(col, return_inverse=True)
            code, k = code.ravel().astype(np.int64), len(vals)
        if bound * k >= 1 << 62:
            used, key = np.unique(key, return_inverse=True)
            key, bound = key.ravel().astype(np.int64), len(used)
        key = key * k + code
        bound *= k
    _, first, inverse, freq = np.unique(key, return_index=True, return_inverse=True, return_counts=True)
    return cols[first], inverse.ravel(), freq


#: Relative cost of one (pattern x replicate) term of the sparse cell product and one multiply-add of
#: the dense product ``w @ stats`` (measured on 2-core x86_64, OpenBLAS 1 thread: 0.44 ns vs 0.1 ns).
_CELL_COST = 4.0
#: Replicates per sparse product: (patterns x chunk) weights stay in cache.
_CELL_CHUNK = 32


def _cell_tables(p: Prepared, m: int) -> tuple[np.ndarray, np.ndarray] | None:
    """Statistics of every (gold, predicted) cell of a confusion metric: shared (K, a), per system
    (K * K, b); None when they are not the same for every system or depend on the prediction."""
    k = p.cells
    shared_tab, per_tab = [], []
    for g in range(k):
        rows = np.empty((k, 1 + m))
        rows[:, 0] = g
        rows[:, 1:] = np.arange(k)[:, None]
        shared, per = p.stats(rows)
        if not (np.array_equal(shared, np.broadcast_to(shared[:1], shared.shape))
                and np.array_equal(per, np.broadcast_to(per[:, :1], per.shape))):
            return None
        shared_tab.append(shared[0])
        per_tab.append(per[:, 0])
    return np.array(shared_tab, dtype=np.float64).reshape(k, -1), np.concatenate(per_tab).astype(np.float64)


class _Summer:
    """Stacked statistics of weighted patterns: ``summed(w) == w @ stats`` for pattern weights w (r, U).

    ``engine`` ``"dense"`` is that matrix product (BLAS). ``"cells"`` serves confusion metrics
    (:attr:`Prepared.cells`): a pattern contributes, for each system, to one (gold, predicted)
    cell, so the weights are summed per system per cell by one sparse product over the patterns
    where a system errs (the diagonal is the gold class count minus the row's errors) and the
    statistics follow from each cell's table: about ``(U + errors) x r`` additions per block
    instead of ``U x width x r`` multiply-adds, and no (U, width) matrix. Every weight and cell
    count is an integer summed exactly, so both give the same numbers. Other decomposable
    metrics of a ``"cells"`` run keep the dense product for their own columns.
    """

    def __init__(self, prepared: list[Prepared], reps: np.ndarray, freq: np.ndarray, col_slices: list[slice],
                 m: int, n: int, engine: str | None = None):
        self.m, self.U = m, len(reps)
        shapes = []
        for p, cs in zip(prepared, col_slices, strict=True):
            if p.decomposable:
                shared, per = p.stats(reps[:1, cs])
                shapes.append((shared.shape[1], per.shape[2]))
            else:
                shapes.append(None)
        self.layout, t = [], 0
        for sh in shapes:
            self.layout.append(None if sh is None else (t, sh[0], sh[1]))
            t += 0 if sh is None else sh[0] + m * sh[1]
        self.width = t
        # confusion metrics grouped by identical code columns; their cell tables
        groups: list[dict] = []
        cellable = {}
        if engine != "dense":
            for i, p in enumerate(prepared):
                # more cells than patterns: the cell tables alone cost more than the dense product
                if not (p.decomposable and p.cells) or p.cells * p.cells > max(len(reps), 4):
                    continue
                tabs = _cell_tables(p, m)
                if tabs is None:
                    continue
                cellable[i] = tabs
                for grp in groups:
                    if grp["k"] == p.cells and np.array_equal(prepared[grp["members"][0]].columns, p.columns):
                        grp["members"].append(i)
                        break
                else:
                    groups.append({"k": p.cells, "members": [i], "slice": col_slices[i]})
        # cost per replicate of each group: dense multiply-adds vs cells
        dense_cost = cell_cost = 0.0
        for grp in groups:
            cs, k = grp["slice"], grp["k"]
            g = reps[:, cs.start].astype(np.int64)
            pr = reps[:, cs.start + 1:cs.start + 1 + m].astype(np.int64)
            grp["g"], grp["pr"] = g, pr
            grp["errors"] = int((pr != g[:, None]).sum())
            cols = sum(self.layout[i][1] + m * self.layout[i][2] for i in grp["members"])
            tab = sum(m * k * k * self.layout[i][2] + k * self.layout[i][1] for i in grp["members"])
            dense_cost += self.U * cols
            cell_cost += _CELL_COST * (grp["errors"] + self.U) + tab
        if engine is None:
            engine = "cells" if groups and cell_cost < dense_cost else "dense"
        if engine == "cells" and not groups:
            engine = "dense"
        self.engine = engine
        self.groups = groups if engine == "cells" else []
        in_cells = {i for grp in self.groups for i in grp["members"]}
        self.exact32 = n < 1 << 24          # float32 holds every count exactly
        self._cellable = cellable
        self.dense = [i for i, p in enumerate(prepared) if p.decomposable and i not in in_cells]
        self.dense_pos = np.concatenate([np.arange(self.layout[i][0], self.layout[i][0] + shapes[i][0] + m * shapes[i][1])
                                         for i in self.dense]) if self.dense else np.zeros(0, dtype=np.int64)
        self.dense_stats = None
        self.all_dense = len(self.dense) == sum(p.decomposable for p in prepared)
        self.nnz = sum(grp["errors"] + self.U for grp in self.groups)

    def materialize(self, prepared: list[Prepared], reps: np.ndarray, col_slices: list[slice]) -> None:
        """Build the sparse cell incidences and the dense statistics (after the memory check)."""
        for grp in self.groups:
            self._build(grp, self._cellable)
        if self.dense:
            blocks = []
            for i in self.dense:
                shared, per = prepared[i].stats(reps[:, col_slices[i]])
                blocks += [shared, per.reshape(len(reps), -1)]
            self.dense_stats = np.hstack(blocks)

    def dense_width(self) -> int:
        """Columns of the (U, width) statistics matrix kept in memory."""
        return len(self.dense_pos)

    def _build(self, grp: dict, tables: dict) -> None:
        import scipy.sparse as sparse

        k, m, g, pr = grp["k"], self.m, grp["g"], grp["pr"]
        sys_i, u_i = np.nonzero((pr != g[:, None]).T)      # system-major: rows sorted by system
        rows = np.concatenate([sys_i * k * k + g[u_i] * k + pr[u_i, sys_i], m * k * k + g])
        cols = np.concatenate([u_i, np.arange(self.U)])
        dtype = np.float32 if self.exact32 else np.float64
        a = sparse.csr_matrix((np.ones(len(rows), dtype=dtype), (rows, cols)), shape=(m * k * k + k, self.U))
        a.sum_duplicates()
        grp["a"] = a
        grp["tables"] = [(i, *tables[i]) for i in grp["members"]]
        del grp["pr"], grp["g"]

    def _cells(self, grp: dict, w: np.ndarray, out: np.ndarray) -> None:
        k, m = grp["k"], self.m
        dtype = np.float32 if self.exact32 else np.float64
        chunk = max(1, min(_CELL_CHUNK, (1 << 22) // (m * k * k)))   # <= 32 MB of cell counts
        diag = np.arange(k)
        for c in range(0, len(w), chunk):
            wt = np.ascontiguousarray(w[c:c + chunk].T, dtype=dtype)
            counts = (grp["a"] @ wt).T.astype(np.float64)
            r = len(counts)
            gold = counts[:, m * k * k:]                                   # (r, k) gold class counts
            cells = counts[:, :m * k * k].reshape(r, m, k, k)
            cells[:, :, diag, diag] = gold[:, None, :] - cells.sum(axis=-1)   # the diagonal was 0
            flat = cells.reshape(r, m, k * k)
            for i, shared_tab, per_tab in grp["tables"]:
                t, a, b = self.layout[i]
                out[c:c + r, t:t + a] = gold @ shared_tab
                out[c:c + r, t + a:t + a + m * b] = (flat @ per_tab).reshape(r, m * b)

    def summed(self, w: np.ndarray) -> np.ndarray:
        """(r, width) statistics summed with pattern weights ``w`` (r, U), integer-valued."""
        if self.all_dense:
            return np.asarray(w, dtype=np.float64) @ self.dense_stats
        out = np.empty((len(w), self.width))
        if self.dense_stats is not None:
            out[:, self.dense_pos] = np.asarray(w, dtype=np.float64) @ self.dense_stats
        for grp in self.groups:
            self._cells(grp, w, out)
        return out

    def total(self, freq: np.ndarray) -> np.ndarray:
        """(width,) statistics of the full data."""
        if self.all_dense:
            return freq.astype(np.float64) @ self.dense_stats
        out = np.empty(self.width)
        if self.dense_stats is not None:
            out[self.dense_pos] = freq.astype(np.float64) @ self.dense_stats
        row = np.empty((1, self.width))
        for grp in self.groups:
            self._cells(grp, freq[None, :], row)
        cells_pos = np.ones(self.width, dtype=bool)
        cells_pos[self.dense_pos] = False
        out[cells_pos] = row[0, cells_pos]
        return out


def memory_parts(n: int, m: int, B: int, metrics: int, generic: int, patterns: int, width: int,
                 jackknife: bool, randomization: bool, *, dense: int | None = None,
                 cells: int = 0) -> dict[str, int]:
    """Estimated bytes of the large arrays of one :func:`run` and the analysis that follows, by part.

    ``patterns`` distinct items of ``width`` stacked statistics (decomposable metrics), ``generic``
    metrics evaluated per resample; a block of :func:`block_rows` replicates is worked on at a time.
    ``dense`` of the columns are kept as a (patterns, dense) matrix (default: all of them) and
    ``cells`` nonzeros of cell incidence serve the others (:class:`_Summer`).
    """
    rows = min(block_rows(n), max(B, 1))
    parts = {f"replicates ({metrics} metric(s) x {m} systems x {B} replicates x 8 bytes)": 8 * B * m * metrics,
             "copies of one metric's replicates in its analysis": comparison_bytes(B, m)}
    dense = width if dense is None else dense
    if width:
        kept = width if jackknife else dense
        if kept:
            parts[f"per-item statistics ({patterns} distinct items x {kept} columns x 8 bytes)"] = \
                8 * patterns * kept * (2 if jackknife else 1)
        if cells:
            parts[f"cell incidence ({cells} nonzeros x 12 bytes)"] = 12 * cells
        parts["one block of replicates"] = 8 * rows * (2 * n + patterns + 2 * width)
        if randomization:
            parts[f"randomization rounds ({B} x {width} columns x 8 bytes)"] = 8 * B * width
    if generic:
        parts["one block of resampled items"] = 8 * rows * n
        if jackknife:
            parts["leave-one-out scores"] = 8 * n * m * generic
    return parts


def _finalize(p: Prepared, summed: np.ndarray, lay: tuple[int, int, int], m: int, count) -> np.ndarray:
    t, a, b = lay
    shared = summed[..., t:t + a]
    per = summed[..., t + a:t + a + m * b].reshape(summed.shape[:-1] + (m, b))
    return p.finalize(shared, per, np.asarray(count, dtype=float))


# State for forked workers of the generic path (closures are not picklable).
_WORK: dict = {}


def _generic_block(block: int) -> list[np.ndarray]:
    rs: Resampler = _WORK["resampler"]
    generic: list[Prepared] = _WORK["generic"]
    idx = rs.indices(block)
    return [np.stack([p.evaluate(row) for row in idx]) for p in generic]


def run(prepared: list[Prepared], n: int, m: int, B: int, seed: int, key: int = 0, *,
        jobs: int = 1, mode: str | None = None, engine: str | None = None, progress: bool | None = None,
        jackknife: bool = False, randomization: bool = False, label: str = "the bootstrap") -> BootstrapResult:
    """Draw ``B`` paired replicates and score every system under every metric.

    Parameters
    ----------
    prepared : list of Prepared
        Metrics bound to the competition's data.
    n, m : int
        Items and systems.
    B : int
        Replicates (0 allowed: observed scores only).
    seed, key : int
        See :class:`Resampler`.
    jobs : int
        Worker processes for metrics evaluated per resample (results do not depend on it).
    mode : {"items", "patterns", None}
        Force a drawing scheme; ``None`` chooses (see module docstring).
    engine : {"dense", "cells", None}
        Force how decomposable statistics are summed (:class:`_Summer`); ``None`` chooses by cost.
        The numbers do not depend on it.
    progress : bool or None
        Show a progress bar on stderr; ``None``: only when stderr is a terminal.
    jackknife : bool
        Also compute leave-one-out scores (for BCa): per metric ``(values (J, m), weights (J,))``,
        one row per pattern weighted by its frequency (decomposable) or per item (generic).
    randomization : bool
        Also draw ``B`` rounds of random prediction swaps (decomposable metrics only), for
        :meth:`BootstrapResult.randomization_p`.
    label : str
        Names the work in a memory error (``competition 'x'``).

    Returns
    -------
    BootstrapResult

    Raises
    ------
    InputError
        When the arrays of the run (:func:`memory_parts`) would exceed the memory available,
        before they are allocated.
    """
    rs = Resampler(n, B, seed, key)
    decomp = [p for p in prepared if p.decomposable]
    generic_at = [i for i, p in enumerate(prepared) if not p.decomposable]
    generic = [prepared[i] for i in generic_at]
    widths = [p.columns.shape[1] if p.decomposable else 0 for p in prepared]
    edges = np.cumsum([0] + widths)
    col_slices = [slice(int(a), int(b)) for a, b in zip(edges[:-1], edges[1:], strict=True)]

    patterns = None
    summer = None
    if decomp:
        cols = np.hstack([p.columns for p in decomp])
        reps, inverse, freq = unique_rows(cols)
        patterns = len(reps)
        summer = _Summer(prepared, reps, freq, col_slices, m, n, engine)
        width = summer.width
    else:
        width = 0
    parts = memory_parts(n, m, B, len(prepared), len(generic), patterns or 0, width, jackknife, randomization,
                         dense=summer.dense_width() if summer else 0, cells=summer.nnz if summer else 0)
    biggest = max(parts, key=parts.__getitem__)
    hint = (f"use a smaller {option('bootstrap')}" if biggest.startswith(("replicates", "copies", "randomization"))
            else "per-item statistics grow with distinct items x systems x labels: check that label columns hold "
                 "classes, or split the systems")
    check_memory(parts, label + (f" with {option('bootstrap', B)}" if B else ""), hint)
    if decomp:
        # generic metrics have zero-width slices: pattern rows already follow col_slices
        summer.materialize(prepared, reps, col_slices)
        layout = summer.layout
        total = summer.total(freq)
        if jackknife:
            stats = summer.dense_stats if summer.all_dense else _stats_matrix(prepared, reps, col_slices, m)[0]
    if mode is None:
        mode = "patterns" if not generic and patterns is not None and 5 * patterns < n else "items"
    if mode == "patterns" and generic:
        raise ValueError("mode='patterns' needs every metric to be decomposable")
    if randomization and generic:
        raise ValueError("the randomization test needs decomposable metrics")

    observed: list[np.ndarray] = []
    for i, p in enumerate(prepared):
        if p.decomposable:
            observed.append(_finalize(p, total, layout[i], m, n))
        else:
            observed.append(np.asarray(p.evaluate(np.arange(n)), dtype=float))
    replicates = [np.empty((B, m)) for _ in prepared]
    jack: list = []
    if jackknife:
        for i, p in enumerate(prepared):
            if p.decomposable:
                with np.errstate(invalid="ignore", divide="ignore"):
                    jack.append((_finalize(p, total[None, :] - stats, layout[i], m, n - 1), freq.astype(float)))
            else:
                keep = np.ones(n, dtype=bool)
                vals = np.empty((n, m))
                for j in range(n):
                    keep[j] = False
                    vals[j] = p.evaluate(np.flatnonzero(keep))
                    keep[j] = True
                jack.append((vals, np.ones(n)))
    swaps = np.empty((B, width)) if randomization and decomp else None

    blocks = rs.blocks()
    show = sys.stderr.isatty() if progress is None else progress
    bar = None
    if show and B:
        from tqdm import tqdm

        bar = tqdm(total=B, unit="rep", desc="bootstrap", file=sys.stderr, leave=False)

    pool = None
    generic_out = None
    if generic and B:
        _WORK.update(resampler=rs, generic=generic)
        if jobs > 1 and len(blocks) > 1:
            import multiprocessing as mp

            pool = mp.get_context("fork").Pool(min(jobs, len(blocks)))
            generic_out = pool.imap(_generic_block, range(len(blocks)))
        else:
            generic_out = map(_generic_block, range(len(blocks)))
    try:
        for k, (start, stop) in enumerate(blocks):
            if decomp:
                if mode == "patterns":
                    w = rs.pattern_counts(k, freq)
                else:
                    # pattern counts of each resample, row by row (one row's counts stay in cache)
                    w = np.empty((stop - start, patterns), dtype=np.float32 if n < 1 << 24 else np.float64)
                    for j, row in enumerate(rs.indices(k)):
                        w[j] = np.bincount(inverse[row], minlength=patterns)
                summed = summer.summed(w)
                for i, p in enumerate(prepared):
                    if p.decomposable:
                        replicates[i][start:stop] = _finalize(p, summed, layout[i], m, n)
            if swaps is not None:
                swaps[start:stop] = summer.summed(rs.swap_counts(k, freq))
            if generic_out is not None:
                for i, vals in zip(generic_at, next(generic_out), strict=True):
                    replicates[i][start:stop] = vals
            if bar is not None:
                bar.update(stop - start)
    finally:
        if pool is not None:
            pool.terminate()
        _WORK.clear()
        if bar is not None:
            bar.close()
    return BootstrapResult(observed, replicates, mode, patterns, jack, list(prepared),
                           layout if decomp else [None] * len(prepared), total if decomp else None, swaps, m, n,
                           summer.engine if summer else "items")

