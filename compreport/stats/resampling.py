"""Paired bootstrap engine: one seeded set of resamples serves every system and every metric.

:func:`run` draws the replicates of a competition's plan
(:class:`~compreport.stats.resampler.Resampler`): fixed blocks, each from its own seeded stream,
so the numbers depend neither on ``jobs`` nor on how many blocks are drawn together.

How a replicate is drawn
------------------------
Three exact ways to draw the bootstrap distribution are used (``BootstrapResult.mode``):

* ``items``: ``rows x n`` item indices drawn uniformly with replacement (the textbook
  bootstrap); required when a metric is evaluated per resample (``spearman``, ``roc_auc``, user
  metrics in the label form), and the indices are shared with those metrics;
* ``patterns``: when every metric is decomposable, items with identical values in every column
  (gold plus every system's prediction) are one *pattern*, and a resample is a multinomial draw
  of ``n`` items over the patterns (:mod:`compreport.stats.multinomial`). Used when patterns are
  few (``5 * patterns < n``), which makes the cost independent of ``n``;
* ``clusters``: when the items come in clusters, the cluster bootstrap
  (:mod:`compreport.inputs.clusters`) draws ``rows x G`` cluster indices uniformly with
  replacement; each item counts as often as its cluster was drawn (with one item per cluster,
  these are the ``items`` draws, replicate by replicate).

In every scheme, replicate statistics are per-pattern sufficient statistics
(:mod:`compreport.stats.metrics`) weighted by how often each pattern was drawn, summed exactly
by :class:`~compreport.stats.summing.Summer` (engine ``dense`` or ``cells``, recorded as
``engine.statistics``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from compreport import interrupts
from compreport.errors import option
from compreport.inputs.clusters import Clusters
from compreport.stats.memory import check_memory, memory_parts
from compreport.stats.metrics.base import Prepared
from compreport.stats.multinomial import Multinomial
from compreport.stats.resampler import Resampler
from compreport.stats.summing import Summer, unique_rows
from compreport.workers import Executor, LocalPool, progress_bar, show_progress


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
        ``"items"``, ``"patterns"`` or ``"clusters"`` (see the module docstring).
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
        (gold, predicted) cell; :class:`~compreport.stats.summing.Summer`) or ``"items"`` (no
        decomposable metric).
    clusters : int or None
        G, the clusters drawn (``mode == "clusters"``); None for the item bootstrap.
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
    clusters: int | None = None

    def joined(self, more: BootstrapResult) -> BootstrapResult:
        """This result followed by ``more``: the result of one run of both together.

        ``more`` is a :func:`run` of the same plan from ``start`` = this result's B; its
        replicates (and randomization rounds) follow this result's."""
        swaps = None if self.swaps is None else np.concatenate([self.swaps, more.swaps])
        return dataclasses.replace(
            self,
            replicates=[
                np.concatenate([a, b])
                for a, b in zip(self.replicates, more.replicates, strict=True)
            ],
            swaps=swaps,
        )

    def randomization_p(self, i: int, a: np.ndarray, b: np.ndarray, chunk: int = 64) -> np.ndarray:
        """Approximate-randomization p-values of metric ``i`` for the pairs ``a[j]`` vs ``b[j]``.

        In each of R rounds every item (every cluster, under the cluster bootstrap) swaps the two
        systems' raw predictions with probability 1/2 and the metric is recomputed on them
        (Noreen 1989); the same swaps serve every pair, as the resamples of the bootstrap do.
        Statistics tied to their system are recombined by
        :attr:`~compreport.stats.metrics.base.Prepared.swapped`. The p-value is two-sided,
        ``p = (1 + #{|delta_r| >= |delta|}) / (R + 1)`` (MUC-6; Fisher-Pitman).

        Parameters
        ----------
        i : int
            Metric index.
        a, b : ndarray of int, shape (k,)
            System indices of each pair.
        chunk : int
            Pairs scored at once (default 64; bounds memory, the results do not depend on it).

        Returns
        -------
        ndarray, shape (k,)

        Raises
        ------
        ValueError
            When metric ``i`` is not decomposable or the run drew no randomization rounds.
        """
        p, lay, m = self.prepared[i], self.layout[i], self.m
        if lay is None or self.swaps is None:
            raise ValueError(
                "randomization needs decomposable metrics and run(..., randomization=True)"
            )
        t, na, nb = lay
        shared = np.broadcast_to(self.total[t : t + na], (self.swaps.shape[0], na))
        tot = self.total[t + na : t + na + m * nb].reshape(m, nb)
        sw = self.swaps[:, t + na : t + na + m * nb].reshape(-1, m, nb)
        moved_shared = self.swaps[:, t : t + na]
        obs = self.observed[i]
        out = np.empty(len(a))
        for s in range(0, len(a), chunk):
            aa, bb = a[s : s + chunk], b[s : s + chunk]
            delta = np.abs(obs[aa] - obs[bb])
            if p.swapped is None:
                moved = sw[:, bb] - sw[:, aa]  # (R, k, nb): b's stats land in a's slot
                sa = p.finalize(shared, tot[aa] + moved, float(self.n), systems=aa)
                sb = p.finalize(shared, tot[bb] - moved, float(self.n), systems=bb)
            else:  # statistics tied to their system (Prepared.swapped)
                sa = p.swapped(
                    shared, tot[aa] - sw[:, aa], moved_shared, sw[:, bb], float(self.n), aa, bb
                )
                sb = p.swapped(
                    shared, tot[bb] - sw[:, bb], moved_shared, sw[:, aa], float(self.n), bb, aa
                )
            d = np.abs(sa - sb)
            hits = (d >= delta - 1e-10 * np.maximum(1.0, delta)).sum(axis=0)
            out[s : s + chunk] = (1 + hits) / (d.shape[0] + 1)
        return out


def _finalize(
    p: Prepared, summed: np.ndarray, lay: tuple[int, int, int], m: int, count
) -> np.ndarray:
    t, a, b = lay
    shared = summed[..., t : t + a]
    per = summed[..., t + a : t + a + m * b].reshape(summed.shape[:-1] + (m, b))
    return p.finalize(shared, per, np.asarray(count, dtype=float))


@dataclass
class _Sums:
    """The per-item statistics of the decomposable metrics of a run, one row per distinct pattern
    of the items (the same values in every column), summed by :class:`Summer`."""

    summer: Summer
    reps: np.ndarray  # (U, columns): the distinct rows
    inverse: np.ndarray  # (n,): each item's pattern
    freq: np.ndarray  # (U,): items of each pattern
    col_slices: list[slice]  # each metric's columns (zero-width for a generic metric)
    total: np.ndarray | None = None  # summed over all items (materialize)
    stats: np.ndarray | None = None  # per pattern, for the jackknife (materialize)
    by_pattern: object = None  # (U, G) sparse: the patterns' items in each cluster (materialize)

    @property
    def patterns(self) -> int:
        return len(self.reps)

    @property
    def layout(self) -> list:
        return self.summer.layout

    def materialize(self, prepared: list[Prepared], jackknife: bool, clusters: Clusters | None):
        """The statistics themselves, once the memory check has passed: their total, the rows
        the jackknife leaves out, the patterns of each cluster."""
        # generic metrics have zero-width slices: pattern rows already follow col_slices
        self.summer.materialize(prepared, self.reps, self.col_slices)
        self.total = self.summer.total(self.freq)
        if jackknife:
            self.stats = self.summer.full_stats(prepared, self.reps, self.col_slices)
        if clusters is not None:
            self.by_pattern = clusters.by_pattern(self.inverse, self.patterns).T.tocsr()


@dataclass(frozen=True)
class _Work:
    """What every block of a run needs, sent once to where the blocks are drawn: this process,
    forked workers or a dask cluster (:func:`_block`)."""

    resampler: Resampler
    prepared: list[Prepared]
    clusters: Clusters | None
    mode: str
    sampler: Multinomial | None
    randomization: bool
    m: int
    # the decomposable metrics' state (None without one)
    summer: Summer | None = None
    layout: list | None = None
    inverse: np.ndarray | None = None
    freq: np.ndarray | None = None
    by_pattern: object = None
    patterns: int = 0


def _block(work: _Work, task: tuple[int, int]) -> tuple[dict, np.ndarray | None]:
    """Block ``k`` of the run, without its first ``skip`` rows: the replicates of every metric
    (metric index -> (rows, m)) and the randomization rounds' statistics (or None)."""
    k, skip = task
    rs, clusters = work.resampler, work.clusters
    out: dict = {}
    swaps = None
    # the drawn items (or clusters), shared by the summed statistics and the per-resample metrics
    draws = None if work.mode == "patterns" else rs.indices(k)[skip:]
    if work.summer is not None:
        n, patterns, summer = rs.n, work.patterns, work.summer
        dtype = np.float32 if n < 1 << 24 else np.float64  # integer counts, exact in either
        count = n
        if work.mode == "patterns":
            w = rs.pattern_counts(k, work.sampler)[skip:]
        elif work.mode == "clusters":
            drawn = clusters.counts(draws)  # (rows, G)
            w = np.ascontiguousarray((work.by_pattern @ drawn.T).T, dtype=dtype)
            count = drawn @ clusters.sizes.astype(float)  # items in each resample
        else:
            # pattern counts of each resample, row by row (one row's counts stay in cache)
            w = np.empty((len(draws), patterns), dtype=dtype)
            for j, row in enumerate(draws):
                w[j] = np.bincount(work.inverse[row], minlength=patterns)
        summed = summer.summed(w)
        for i, p in enumerate(work.prepared):
            if p.decomposable:
                out[i] = _finalize(p, summed, work.layout[i], work.m, count)
        if work.randomization:
            flips = (
                (work.by_pattern @ rs.cluster_swaps(k)[skip:].T).T
                if clusters is not None
                else rs.swap_counts(k, work.freq)[skip:]
            )
            swaps = summer.summed(flips)
    generic = [(i, p) for i, p in enumerate(work.prepared) if not p.decomposable]
    if generic:
        idx = draws if clusters is None else [clusters.items(row) for row in draws]
        for i, p in generic:
            out[i] = np.stack([p.evaluate(row) for row in idx])
    return out, swaps


def run(
    prepared: list[Prepared],
    n: int,
    m: int,
    B: int,
    seed: int,
    key: int = 0,
    *,
    executor: Executor | None = None,
    mode: str | None = None,
    engine: str | None = None,
    progress: bool | None = None,
    jackknife: bool = False,
    randomization: bool = False,
    label: str = "the bootstrap",
    start: int = 0,
    clusters: Clusters | None = None,
    stage: str = "bootstrap",
) -> BootstrapResult:
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
        The user's seed and the competition's stream key
        (:class:`~compreport.stats.resampler.Resampler`); ``key`` defaults to 0.
    executor : Executor, optional
        What draws the blocks of replicates (:class:`~compreport.workers.LocalPool` of forked
        workers, or a dask :class:`~compreport.distributed.Cluster`); default: this process. The
        results do not depend on it.
    mode : {"items", "patterns", "clusters", None}
        Force a drawing scheme; ``None`` chooses (see module docstring; ``"clusters"`` when
        ``clusters`` is given, and only then).
    engine : {"dense", "cells", None}
        Force how decomposable statistics are summed (:class:`~compreport.stats.summing.Summer`);
        ``None`` chooses by cost. The numbers do not depend on it.
    progress : bool or None
        Show a progress bar on stderr; ``None``: only when stderr is a terminal.
    jackknife : bool
        Also compute leave-one-out scores (for BCa): per metric ``(values (J, m), weights (J,))``,
        one row per pattern weighted by its frequency (decomposable) or per item (generic).
    randomization : bool
        Also draw ``B`` rounds of random prediction swaps (decomposable metrics only), for
        :meth:`BootstrapResult.randomization_p`.
    label : str
        Names the work in a memory error (``competition 'x': the bootstrap``).
    start : int
        Draw only replicates ``start`` to ``B - 1`` of the plan (they are the same as in a run from
        0, whose first ``start`` replicates another run holds: see :meth:`BootstrapResult.joined`);
        not with ``jackknife``.
    clusters : Clusters, optional
        The cluster bootstrap (:mod:`compreport.inputs.clusters`): replicates draw clusters, the
        jackknife leaves out clusters, randomization rounds swap clusters (mode ``"clusters"``).
    stage : str
        The name of the progress bar, which counts the replicates drawn (default
        ``"bootstrap"``).

    Returns
    -------
    BootstrapResult

    Raises
    ------
    InputError
        When the arrays of the run (:func:`~compreport.stats.memory.memory_parts`) would exceed
        the memory available, before they are allocated.
    ValueError
        For a ``start`` outside 0..B (or not 0 with ``jackknife``), a ``mode`` the metrics or the
        clusters do not allow, or randomization with a metric that is not decomposable.
    """
    if not 0 <= start <= B or (start and jackknife):
        raise ValueError(f"start must be in 0..B and 0 with jackknife; got {start}")
    rs = Resampler(n, B, seed, key, None if clusters is None else clusters.count)
    sums = _pattern_sums(prepared, m, n, engine)
    _check_run_memory(prepared, sums, n, m, B, start, jackknife, randomization, label)
    if sums is not None:
        sums.materialize(prepared, jackknife, clusters)
    mode = _drawing_mode(mode, prepared, sums, n, clusters, randomization)
    work = _work(rs, prepared, sums, clusters, mode, randomization, m)
    observed = _observed(prepared, sums, m, n)
    jack = _jackknife(prepared, sums, m, n, clusters) if jackknife else []
    replicates, swaps = _drawn(work, B, start, executor or LocalPool(), progress, label, stage)
    return BootstrapResult(
        observed,
        replicates,
        mode,
        None if sums is None else sums.patterns,
        jack,
        list(prepared),
        [None] * len(prepared) if sums is None else sums.layout,
        None if sums is None else sums.total,
        swaps,
        m,
        n,
        "items" if sums is None else sums.summer.engine,
        None if clusters is None else clusters.count,
    )


def _pattern_sums(prepared: list[Prepared], m: int, n: int, engine: str | None) -> _Sums | None:
    """The distinct patterns of the decomposable metrics' columns and the :class:`Summer` that
    will sum them (nothing allocated yet); None without a decomposable metric."""
    decomp = [p for p in prepared if p.decomposable]
    if not decomp:
        return None
    widths = [p.columns.shape[1] if p.decomposable else 0 for p in prepared]
    edges = np.cumsum([0] + widths)
    col_slices = [slice(int(a), int(b)) for a, b in zip(edges[:-1], edges[1:], strict=True)]
    reps, inverse, freq = unique_rows(np.hstack([p.columns for p in decomp]))
    summer = Summer(prepared, reps, col_slices, m, n, engine)
    return _Sums(summer, reps, inverse, freq, col_slices)


def _check_run_memory(
    prepared: list[Prepared],
    sums: _Sums | None,
    n: int,
    m: int,
    B: int,
    start: int,
    jackknife: bool,
    randomization: bool,
    label: str,
) -> None:
    """Refuse a run whose arrays would not fit in memory, before they are allocated, with the
    remedy of the biggest of them."""
    summer = None if sums is None else sums.summer
    parts = memory_parts(
        n,
        m,
        B - start,
        len(prepared),
        sum(not p.decomposable for p in prepared),
        0 if sums is None else sums.patterns,
        summer.width if summer else 0,
        jackknife,
        randomization,
        dense=summer.dense_width() if summer else 0,
        cells=summer.nnz if summer else 0,
    )
    biggest = max(parts, key=parts.__getitem__)
    hint = (
        f"use a smaller {option('bootstrap')}"
        if biggest.startswith(("replicates", "copies", "randomization"))
        else "per-item statistics grow with distinct items x systems x labels: check that label "
        "columns hold classes, or split the systems"
    )
    check_memory(parts, label + (f" with {option('bootstrap', B)}" if B else ""), hint)


def _drawing_mode(
    mode: str | None,
    prepared: list[Prepared],
    sums: _Sums | None,
    n: int,
    clusters: Clusters | None,
    randomization: bool,
) -> str:
    """The drawing scheme (see the module docstring): the one asked for, checked against the
    metrics and the clusters; else clusters when there are some, else patterns when they are few
    (``5 * patterns < n``) and every metric is decomposable, else items."""
    generic = any(not p.decomposable for p in prepared)
    if clusters is not None:
        if mode not in (None, "clusters"):
            raise ValueError(
                f"the cluster bootstrap draws clusters; mode={mode!r} cannot be used with it"
            )
        mode = "clusters"
    if mode is None:
        mode = "patterns" if not generic and sums is not None and 5 * sums.patterns < n else "items"
    if mode == "patterns" and generic:
        raise ValueError("mode='patterns' needs every metric to be decomposable")
    if randomization and generic:
        raise ValueError("the randomization test needs decomposable metrics")
    return mode


def _work(
    rs: Resampler,
    prepared: list[Prepared],
    sums: _Sums | None,
    clusters: Clusters | None,
    mode: str,
    randomization: bool,
    m: int,
) -> _Work:
    """What the blocks of the run share (:class:`_Work`)."""
    common = dict(resampler=rs, prepared=list(prepared), clusters=clusters, mode=mode, m=m)
    if sums is None:
        return _Work(**common, sampler=None, randomization=False)
    return _Work(
        **common,
        sampler=Multinomial(sums.freq) if mode == "patterns" else None,
        randomization=randomization,
        summer=sums.summer,
        layout=sums.layout,
        inverse=sums.inverse,
        freq=sums.freq,
        by_pattern=sums.by_pattern,
        patterns=sums.patterns,
    )


def _observed(prepared: list[Prepared], sums: _Sums | None, m: int, n: int) -> list[np.ndarray]:
    """Every metric's scores on the full test set."""
    return [
        _finalize(p, sums.total, sums.layout[i], m, n)
        if p.decomposable
        else np.asarray(p.evaluate(np.arange(n)), dtype=float)
        for i, p in enumerate(prepared)
    ]


def _jackknife(
    prepared: list[Prepared], sums: _Sums | None, m: int, n: int, clusters: Clusters | None
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Every metric's leave-one-out scores and their weights (for BCa): one row per cluster, per
    pattern weighted by its frequency (decomposable metrics), or per item (generic metrics)."""
    jack = []
    for i, p in enumerate(prepared):
        if p.decomposable and clusters is not None:  # leave one cluster out
            left = np.asarray(sums.by_pattern.T @ sums.stats)
            with np.errstate(invalid="ignore", divide="ignore"):
                jack.append(
                    (
                        _finalize(
                            p,
                            sums.total[None, :] - left,
                            sums.layout[i],
                            m,
                            n - clusters.sizes.astype(float),
                        ),
                        np.ones(len(clusters.sizes)),
                    )
                )
        elif p.decomposable:
            with np.errstate(invalid="ignore", divide="ignore"):
                jack.append(
                    (
                        _finalize(p, sums.total[None, :] - sums.stats, sums.layout[i], m, n - 1),
                        sums.freq.astype(float),
                    )
                )
        else:
            units = clusters.codes if clusters is not None else np.arange(n)
            vals = np.empty((units.max() + 1, m))
            for j in range(len(vals)):
                vals[j] = p.evaluate(np.flatnonzero(units != j))
            jack.append((vals, np.ones(len(vals))))
    return jack


def _drawn(
    work: _Work,
    B: int,
    start: int,
    executor: Executor,
    progress: bool | None,
    label: str,
    stage: str,
) -> tuple[list[np.ndarray], np.ndarray | None]:
    """Replicates ``start`` to ``B - 1`` of every metric, and the randomization rounds'
    statistics (or None), drawn block by block by ``executor``: each block has its own stream, so
    the numbers do not depend on where it was drawn."""
    replicates = [np.empty((B - start, work.m)) for _ in work.prepared]
    swaps = np.empty((B - start, work.summer.width)) if work.randomization else None
    # blocks holding replicates start..B-1, each drawn whole; rows before `start` are dropped
    blocks = [(k, lo, hi) for k, (lo, hi) in enumerate(work.resampler.blocks()) if hi > start]
    if not blocks:
        return replicates, swaps
    tasks = [(k, max(start - lo, 0)) for k, lo, _ in blocks]  # skip: rows of a block before `start`
    bar = progress_bar(stage if show_progress(progress) else None, B - start, "replicate")
    results = executor.map(_block, tasks, f"drawing the resamples ({label})", shared=work)
    try:
        for (_, lo, hi), (_, skip), (values, rounds) in zip(blocks, tasks, results):
            # Ctrl-C or SIGTERM recorded: stop between blocks (the workers are stopped below)
            interrupts.check()
            out = slice(lo + skip - start, hi - start)
            for i, vals in values.items():
                replicates[i][out] = vals
            if swaps is not None:
                swaps[out] = rounds
            if bar is not None:
                bar.update(hi - lo - skip)
    finally:
        results.close()  # stops the workers, if any
        if bar is not None:
            bar.close()
    return replicates, swaps
