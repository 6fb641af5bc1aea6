"""Summing resample counts into replicate statistics (:class:`Summer`), and the items' patterns.

A resample is summarised by how often it drew each distinct item, its *pattern*
(:func:`unique_rows`); its statistics are those counts times the patterns' statistics, summed
by a dense or a cell engine, whichever costs less per run (recorded as ``engine.statistics``).
"""

from __future__ import annotations

import numpy as np

from compreport.stats.metrics.base import Prepared

#: Relative cost of one (pattern x replicate) term of the sparse cell product and one multiply-add
#: of the dense product ``w @ stats`` (measured on 2-core x86_64, OpenBLAS 1 thread: 0.44 ns vs
#: 0.1 ns).
_CELL_COST = 4.0
#: Replicates per sparse product: (patterns x chunk) weights stay in cache.
_CELL_CHUNK = 32


def unique_rows(cols: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``np.unique(cols, axis=0, return_inverse=True, return_counts=True)``, by one 1-d sort.

    Each column is coded in increasing order of its values (integer-valued columns as they are)
    and the codes are packed, first column most significant, into one int64 key (re-numbered
    whenever the next column would overflow it), so the patterns come out in the same
    lexicographic order as ``np.unique(axis=0)``, with the same inverse and counts, at the cost
    of one 1-d sort instead of a row-wise one.

    Parameters
    ----------
    cols : ndarray, shape (n, c)
        One row per item (NaN allowed: then ``np.unique`` itself is used).

    Returns
    -------
    reps : ndarray, shape (U, c)
        The distinct rows, in lexicographic order.
    inverse : ndarray of int, shape (n,)
        The distinct row of each item.
    freq : ndarray of int, shape (U,)
        How many items each distinct row has.

    Examples
    --------
    >>> import numpy as np
    >>> reps, inverse, freq = unique_rows(np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 0.0]]))
    >>> reps.tolist(), inverse.tolist(), freq.tolist()
    ([[0.0, 2.0], [1.0, 0.0]], [1, 0, 1], [1, 2])
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
    _, first, inverse, freq = np.unique(
        key, return_index=True, return_inverse=True, return_counts=True
    )
    return cols[first], inverse.ravel(), freq


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
        if not (
            np.array_equal(shared, np.broadcast_to(shared[:1], shared.shape))
            and np.array_equal(per, np.broadcast_to(per[:, :1], per.shape))
        ):
            return None
        shared_tab.append(shared[0])
        per_tab.append(per[:, 0])
    return np.array(shared_tab, dtype=np.float64).reshape(k, -1), np.concatenate(per_tab).astype(
        np.float64
    )


class Summer:
    """Stacked statistics of weighted patterns: ``summed(w) == w @ stats`` for weights w (r, U).

    ``stats`` (U, width) stacks the statistics of every decomposable metric for each pattern
    (:attr:`layout`). Engine ``"dense"`` is that matrix product (BLAS). Engine ``"cells"`` serves
    confusion metrics (:attr:`~compreport.stats.metrics.base.Prepared.cells`): a pattern
    contributes, for each system, to one (gold, predicted) cell, so the weights are summed per
    system per cell by one sparse product over the patterns where a system errs (the diagonal is
    the gold class count minus the row's errors) and the statistics follow from each cell's
    table: about ``(U + errors) x r`` additions per block instead of ``U x width x r``
    multiply-adds, and no (U, width) matrix. Other decomposable metrics of a ``"cells"`` run keep
    the dense product for their own columns. Every weight and cell count is an integer summed
    exactly, so both engines give the same numbers.

    Building a Summer only sizes the work (for the memory check); :meth:`materialize` then builds
    its arrays.

    Parameters
    ----------
    prepared : list of Prepared
        The metrics; those that are not decomposable take no columns.
    reps : ndarray, shape (U, c)
        The patterns (:func:`unique_rows` of the metrics' stacked columns).
    col_slices : list of slice
        Each metric's columns within ``reps`` (empty for one that is not decomposable).
    m, n : int
        Systems and items.
    engine : {"dense", "cells", None}
        Force an engine; None (default) chooses the cheaper one. ``"cells"`` falls back to
        ``"dense"`` when no metric can use it.

    Attributes
    ----------
    engine : str
        The engine chosen.
    layout : list of (int, int, int) or None
        Per metric, ``(offset, shared width, per-system width)`` of its columns in the stacked
        statistics (None: not decomposable).
    width : int
        Columns of the stacked statistics.
    nnz : int
        Nonzeros of the cell incidence matrices (0 under ``"dense"``).
    """

    def __init__(
        self,
        prepared: list[Prepared],
        reps: np.ndarray,
        col_slices: list[slice],
        m: int,
        n: int,
        engine: str | None = None,
    ):
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
                    if grp["k"] == p.cells and np.array_equal(
                        prepared[grp["members"][0]].columns, p.columns
                    ):
                        grp["members"].append(i)
                        break
                else:
                    groups.append({"k": p.cells, "members": [i], "slice": col_slices[i]})
        # cost per replicate of each group: dense multiply-adds vs cells
        dense_cost = cell_cost = 0.0
        for grp in groups:
            cs, k = grp["slice"], grp["k"]
            g = reps[:, cs.start].astype(np.int64)
            pr = reps[:, cs.start + 1 : cs.start + 1 + m].astype(np.int64)
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
        self.exact32 = n < 1 << 24  # float32 holds every count exactly
        self._cellable = cellable
        self.dense = [i for i, p in enumerate(prepared) if p.decomposable and i not in in_cells]
        self.dense_pos = (
            np.concatenate(
                [
                    np.arange(
                        self.layout[i][0], self.layout[i][0] + shapes[i][0] + m * shapes[i][1]
                    )
                    for i in self.dense
                ]
            )
            if self.dense
            else np.zeros(0, dtype=np.int64)
        )
        self.dense_stats = None
        self.all_dense = len(self.dense) == sum(p.decomposable for p in prepared)
        self.nnz = sum(grp["errors"] + self.U for grp in self.groups)

    def materialize(
        self, prepared: list[Prepared], reps: np.ndarray, col_slices: list[slice]
    ) -> None:
        """Build the sparse cell incidences and the dense statistics (after the memory check),
        from the arguments the Summer was built with."""
        for grp in self.groups:
            self._build(grp, self._cellable)
        if self.dense:
            blocks = []
            for i in self.dense:
                shared, per = prepared[i].stats(reps[:, col_slices[i]])
                blocks += [shared, per.reshape(len(reps), -1)]
            self.dense_stats = np.hstack(blocks)

    def full_stats(
        self, prepared: list[Prepared], reps: np.ndarray, col_slices: list[slice]
    ) -> np.ndarray:
        """(U, width) statistics of every decomposable metric in the stacked layout, whichever
        engine sums them (the jackknife leaves out one pattern's row at a time)."""
        if self.all_dense:
            return self.dense_stats
        blocks = []
        for p, cs in zip(prepared, col_slices, strict=True):
            if p.decomposable:
                shared, per = p.stats(reps[:, cs])
                blocks += [shared, per.reshape(len(reps), -1)]
        return np.hstack(blocks)

    def dense_width(self) -> int:
        """Columns of the (U, width) statistics matrix kept in memory."""
        return len(self.dense_pos)

    def _build(self, grp: dict, tables: dict) -> None:
        import scipy.sparse as sparse

        k, m, g, pr = grp["k"], self.m, grp["g"], grp["pr"]
        sys_i, u_i = np.nonzero((pr != g[:, None]).T)  # system-major: rows sorted by system
        rows = np.concatenate([sys_i * k * k + g[u_i] * k + pr[u_i, sys_i], m * k * k + g])
        cols = np.concatenate([u_i, np.arange(self.U)])
        dtype = np.float32 if self.exact32 else np.float64
        a = sparse.csr_matrix(
            (np.ones(len(rows), dtype=dtype), (rows, cols)), shape=(m * k * k + k, self.U)
        )
        a.sum_duplicates()
        grp["a"] = a
        grp["tables"] = [(i, *tables[i]) for i in grp["members"]]
        del grp["pr"], grp["g"]

    def _cells(self, grp: dict, w: np.ndarray, out: np.ndarray) -> None:
        k, m = grp["k"], self.m
        dtype = np.float32 if self.exact32 else np.float64
        chunk = max(1, min(_CELL_CHUNK, (1 << 22) // (m * k * k)))  # <= 32 MB of cell counts
        diag = np.arange(k)
        for c in range(0, len(w), chunk):
            wt = np.ascontiguousarray(w[c : c + chunk].T, dtype=dtype)
            counts = (grp["a"] @ wt).T.astype(np.float64)
            r = len(counts)
            gold = counts[:, m * k * k :]  # (r, k) gold class counts
            cells = counts[:, : m * k * k].reshape(r, m, k, k)
            cells[:, :, diag, diag] = gold[:, None, :] - cells.sum(axis=-1)  # the diagonal was 0
            flat = cells.reshape(r, m, k * k)
            for i, shared_tab, per_tab in grp["tables"]:
                t, a, b = self.layout[i]
                out[c : c + r, t : t + a] = gold @ shared_tab
                out[c : c + r, t + a : t + a + m * b] = (flat @ per_tab).reshape(r, m * b)

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
