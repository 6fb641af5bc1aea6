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

from compreport import distributed, interrupts
from compreport.errors import option
from compreport.inputs.clusters import Clusters
from compreport.stats.memory import check_memory, memory_parts
from compreport.stats.metrics.base import Prepared
from compreport.stats.multinomial import Multinomial
from compreport.stats.resampler import Resampler
from compreport.stats.summing import Summer, unique_rows
from compreport.workers import forked_map, progress_bar, show_progress


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


# State of a run for its blocks, in this process or in forked workers (closures are not picklable).
_WORK: dict = {}


def _block(task: tuple[int, int]) -> tuple[dict, np.ndarray | None]:
    """Block ``k`` of the run in :data:`_WORK`, without its first ``skip`` rows: the replicates of
    every metric (metric index -> (rows, m)) and the randomization rounds' statistics (or None)."""
    return _block_of(_WORK, task)


def _block_of(w_: dict, task: tuple[int, int]) -> tuple[dict, np.ndarray | None]:
    """Block ``k`` of the run whose state is ``w_`` (:data:`_WORK`'s keys), without its first
    ``skip`` rows (a task of a dask cluster: :func:`compreport.distributed.cluster_map`)."""
    k, skip = task
    rs: Resampler = w_["resampler"]
    clusters: Clusters | None = w_["clusters"]
    out: dict = {}
    swaps = None
    # the drawn items (or clusters), shared by the summed statistics and the per-resample metrics
    draws = None if w_["mode"] == "patterns" else rs.indices(k)[skip:]
    if w_["decomp"]:
        n, patterns, summer = rs.n, w_["patterns"], w_["summer"]
        dtype = np.float32 if n < 1 << 24 else np.float64  # integer counts, exact in either
        count = n
        if w_["mode"] == "patterns":
            w = rs.pattern_counts(k, w_["sampler"])[skip:]
        elif w_["mode"] == "clusters":
            drawn = clusters.counts(draws)  # (rows, G)
            w = np.ascontiguousarray((w_["by_pattern"] @ drawn.T).T, dtype=dtype)
            count = drawn @ clusters.sizes.astype(float)  # items in each resample
        else:
            # pattern counts of each resample, row by row (one row's counts stay in cache)
            w = np.empty((len(draws), patterns), dtype=dtype)
            for j, row in enumerate(draws):
                w[j] = np.bincount(w_["inverse"][row], minlength=patterns)
        summed = summer.summed(w)
        for i, p in enumerate(w_["prepared"]):
            if p.decomposable:
                out[i] = _finalize(p, summed, w_["layout"][i], w_["m"], count)
        if w_["randomization"]:
            flips = (
                (w_["by_pattern"] @ rs.cluster_swaps(k)[skip:].T).T
                if clusters is not None
                else rs.swap_counts(k, w_["freq"])[skip:]
            )
            swaps = summer.summed(flips)
    generic = [(i, p) for i, p in enumerate(w_["prepared"]) if not p.decomposable]
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
    jobs: int = 1,
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
    jobs : int
        Worker processes drawing the blocks of replicates (forked; default 1); the results do not
        depend on it.
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
    decomp = [p for p in prepared if p.decomposable]
    generic = [p for p in prepared if not p.decomposable]
    widths = [p.columns.shape[1] if p.decomposable else 0 for p in prepared]
    edges = np.cumsum([0] + widths)
    col_slices = [slice(int(a), int(b)) for a, b in zip(edges[:-1], edges[1:], strict=True)]

    patterns = None
    summer = None
    if decomp:
        cols = np.hstack([p.columns for p in decomp])
        reps, inverse, freq = unique_rows(cols)
        patterns = len(reps)
        summer = Summer(prepared, reps, col_slices, m, n, engine)
        width = summer.width
    else:
        width = 0
    parts = memory_parts(
        n,
        m,
        B - start,
        len(prepared),
        len(generic),
        patterns or 0,
        width,
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
    if decomp:
        # generic metrics have zero-width slices: pattern rows already follow col_slices
        summer.materialize(prepared, reps, col_slices)
        layout = summer.layout
        total = summer.total(freq)
        if jackknife:
            stats = summer.full_stats(prepared, reps, col_slices)
    if clusters is not None:
        if mode not in (None, "clusters"):
            raise ValueError(
                f"the cluster bootstrap draws clusters; mode={mode!r} cannot be used with it"
            )
        mode = "clusters"
        sizes = clusters.sizes.astype(float)
        by_pattern = clusters.by_pattern(inverse, patterns).T.tocsr() if decomp else None  # (U, G)
    if mode is None:
        mode = "patterns" if not generic and patterns is not None and 5 * patterns < n else "items"
    if mode == "patterns" and generic:
        raise ValueError("mode='patterns' needs every metric to be decomposable")
    if randomization and generic:
        raise ValueError("the randomization test needs decomposable metrics")
    sampler = Multinomial(freq) if mode == "patterns" else None

    observed: list[np.ndarray] = []
    for i, p in enumerate(prepared):
        if p.decomposable:
            observed.append(_finalize(p, total, layout[i], m, n))
        else:
            observed.append(np.asarray(p.evaluate(np.arange(n)), dtype=float))
    replicates = [np.empty((B - start, m)) for _ in prepared]
    jack: list = []
    if jackknife:
        for i, p in enumerate(prepared):
            if p.decomposable and clusters is not None:  # leave one cluster out
                left = np.asarray(by_pattern.T @ stats)
                with np.errstate(invalid="ignore", divide="ignore"):
                    jack.append(
                        (
                            _finalize(p, total[None, :] - left, layout[i], m, n - sizes),
                            np.ones(len(sizes)),
                        )
                    )
            elif p.decomposable:
                with np.errstate(invalid="ignore", divide="ignore"):
                    jack.append(
                        (
                            _finalize(p, total[None, :] - stats, layout[i], m, n - 1),
                            freq.astype(float),
                        )
                    )
            else:
                units = clusters.codes if clusters is not None else np.arange(n)
                vals = np.empty((units.max() + 1, m))
                for j in range(len(vals)):
                    vals[j] = p.evaluate(np.flatnonzero(units != j))
                jack.append((vals, np.ones(len(vals))))
    swaps = np.empty((B - start, width)) if randomization and decomp else None

    # blocks holding replicates start..B-1, each drawn whole; rows before `start` are dropped
    blocks = [(k, lo, hi) for k, (lo, hi) in enumerate(rs.blocks()) if hi > start]
    bar = progress_bar(stage if show_progress(progress) else None, B - start, "replicate")

    # blocks are drawn here, with jobs > 1 by forked workers, or on a dask cluster: each block has
    # its own stream, so the numbers do not depend on where it was drawn
    work = dict(
        resampler=rs,
        clusters=clusters,
        decomp=bool(decomp),
        mode=mode,
        sampler=sampler,
        prepared=list(prepared),
        randomization=swaps is not None,
        m=m,
        **(
            {
                "patterns": patterns,
                "summer": summer,
                "layout": layout,
                "inverse": inverse,
                "freq": freq,
                "by_pattern": by_pattern if clusters is not None else None,
            }
            if decomp
            else {}
        ),
    )
    tasks = [(k, max(start - lo, 0)) for k, lo, _ in blocks]  # skip: rows of a block before `start`
    what = f"drawing the resamples ({label})"
    if distributed.current() is not None and tasks:
        results = distributed.cluster_map(_block_of, tasks, what, shared=work)
    else:
        _WORK.update(work)
        results = forked_map(_block, tasks, jobs, what)
    try:
        for (_, lo, hi), (_, skip), (values, rounds) in zip(blocks, tasks, results):
            # Ctrl-C or SIGTERM recorded: stop between blocks (the pool is terminated below)
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
        _WORK.clear()
        if bar is not None:
            bar.close()
    return BootstrapResult(
        observed,
        replicates,
        mode,
        patterns,
        jack,
        list(prepared),
        layout if decomp else [None] * len(prepared),
        total if decomp else None,
        swaps,
        m,
        n,
        summer.engine if summer else "items",
        None if clusters is None else clusters.count,
    )
