"""Simultaneous inference from the joint bootstrap distribution: the max-T step-down.

Every pair's difference is resampled from the same replicates, so the joint distribution of all
the studentized differences is at hand. The step-down of Westfall & Young (1993, algorithm 2.8)
in the bootstrap form of Romano & Wolf (2005) turns it into adjusted p-values that control the
family-wise error rate (strongly, asymptotically) over the whole family, whichever pairs are
true nulls:

* ``t_k = |delta_k| / se_k``, ``se_k`` the bootstrap standard deviation of difference k;
* ``T*_bk = |d*_bk - delta_k| / se_k``, the null-shifted replicate statistics;
* with the pairs sorted by decreasing ``t``, pair j's p-value is
  ``(1 + #{b : max_{l >= j} T*_bl >= t_j}) / (B + 1)``, made non-decreasing along the order.

An adjusted p-value is one exceedance proportion over B replicates, so its Monte-Carlo error is
that of an ordinary p-value near alpha: no per-pair p-value has to reach alpha / k.

:class:`StepDown` keeps the exceedance counts, so that more replicates (refinement) are added to
them block by block: the studentization ``se_k`` is fixed by the first B replicates, and later
blocks are counted only from the first position whose verdict is still unsettled (the pairs before
it are significant beyond doubt, and their counts stay those of the replicates already seen).
"""

from __future__ import annotations

import numpy as np

#: Relative tolerance of ``T* >= t`` (floating-point noise), as the other tests.
_TOL = 1e-10
#: Cells (replicates x pairs) held at once.
_CELLS = 1 << 22


def studentized(
    observed: np.ndarray,
    replicates: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
    sign: float,
    one_sided: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Observed differences of the pairs ``a``, ``b``, their standard errors and t statistics.

    Parameters
    ----------
    observed : ndarray, shape (m,)
        Scores on the full test set.
    replicates : ndarray, shape (B, m)
        Paired bootstrap replicates.
    a, b : ndarray of int, shape (k,)
        The pairs' system indices.
    sign : float
        1.0, or -1.0 for a lower-is-better metric.
    one_sided : bool
        ``t = delta / se`` (signed) instead of ``|delta| / se`` (default False).

    Returns
    -------
    delta, se, t : ndarray, shape (k,)
        The oriented differences, their bootstrap standard deviations (ddof=1) and
        ``t = |delta| / se`` (inf where se = 0 and delta != 0, 0 where both are 0); one-sided,
        ``t = delta / se`` (+-inf where se = 0 and delta != 0).
    """
    delta = sign * (observed[a] - observed[b])
    se = np.empty(len(a))
    step = max(1, _CELLS // max(1, replicates.shape[0]))
    for s in range(0, len(a), step):
        d = sign * (replicates[:, a[s : s + step]] - replicates[:, b[s : s + step]])
        se[s : s + step] = d.std(axis=0, ddof=1)
    size = delta if one_sided else np.abs(delta)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(
            se > 0, size / np.where(se > 0, se, 1.0), np.where(delta == 0, 0.0, np.inf * size)
        )
    return delta, se, t


def maxt_adjusted(
    observed: np.ndarray,
    replicates: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
    higher_is_better: bool = True,
    tested: np.ndarray | None = None,
) -> np.ndarray:
    """Max-T step-down adjusted p-values (see the module docstring) of the differences ``a - b``.

    Parameters
    ----------
    observed : ndarray (m,)
        Scores on the full test set.
    replicates : ndarray (B, m)
        Paired bootstrap replicates of every system (the same resamples for all).
    a, b : ndarray of int (k,)
        The pairs of the family.
    higher_is_better : bool
        Orientation of the differences (the statistic is two-sided, so only for the record).
    tested : ndarray of bool (k,), optional
        The pairs in the family; the others get NaN and take no part (default: all).

    Returns
    -------
    ndarray (k,)
        Adjusted p-values in [1/(B+1), 1], NaN outside the family or with B < 2.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> reps = rng.normal([0.8, 0.6, 0.6], 0.02, size=(999, 3))
    >>> p = maxt_adjusted(np.array([0.8, 0.6, 0.6]), reps, np.array([0, 0, 1]), np.array([1, 2, 2]))
    >>> p.round(3).tolist()          # the 0.2 differences are certain; the tie is not
    [0.001, 0.001, 1.0]
    """
    tested = np.ones(len(a), dtype=bool) if tested is None else np.asarray(tested, dtype=bool)
    return StepDown(
        observed, replicates, a, b, np.where(tested, 0, -1), higher_is_better
    ).adjusted()


class StepDown:
    """Max-T step-down exceedance counts over one or more families, grown by blocks of replicates.

    Parameters
    ----------
    observed : ndarray (m,)
        Scores on the full test set.
    replicates : ndarray (B, m)
        The first replicates: they fix each pair's studentization and are counted.
    a, b : ndarray of int (k,)
        The pairs.
    families : ndarray of int (k,)
        A family label per pair (one step-down per label); -1: not tested.
    higher_is_better : bool
        Orientation of the differences.
    one_sided : bool
        Test ``H_k: theta_a <= theta_b`` (the oriented difference is not positive) instead of
        ``theta_a = theta_b``: ``t_k = delta_k / se_k`` and ``T*_bk = (d*_bk - delta_k) / se_k``,
        signed (default False: both in absolute value). A family of ordered pairs, both (a, b)
        and (b, a), is Mogstad et al.'s step-down for ranks (:mod:`compreport.stats.ranksets`).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> obs = np.array([0.8, 0.6, 0.6])
    >>> a, b = np.array([0, 0, 1]), np.array([1, 2, 2])
    >>> sd = StepDown(obs, rng.normal(obs, 0.02, (999, 3)), a, b, np.zeros(3, dtype=int))
    >>> sd.adjusted().round(3).tolist(), sd.resamples.tolist()
    ([0.001, 0.001, 1.0], [999, 999, 999])
    >>> sd.add(rng.normal(obs, 0.02, (1000, 3)), unsettled=np.array([False, False, True]))
    >>> sd.resamples.tolist()        # only the unsettled pair and those after it are counted again
    [999, 999, 1999]
    """

    def __init__(
        self,
        observed: np.ndarray,
        replicates: np.ndarray,
        a: np.ndarray,
        b: np.ndarray,
        families: np.ndarray,
        higher_is_better: bool = True,
        one_sided: bool = False,
    ):
        self.sign = 1.0 if higher_is_better else -1.0
        self.one_sided = one_sided
        k = len(a)
        self.hits = np.zeros(k, dtype=np.int64)
        # each pair's own exceedances: its two-sided raw p-value
        self.raw_hits = np.zeros(k, dtype=np.int64)
        self.resamples = np.zeros(k, dtype=np.int64)
        self.groups = []
        if replicates.shape[0] < 2:
            return
        for fam in np.unique(families[families >= 0]):
            idx = np.flatnonzero(families == fam)
            delta, se, t = studentized(observed, replicates, a[idx], b[idx], self.sign, one_sided)
            order = np.argsort(-t, kind="stable")
            idx, delta, se, t = idx[order], delta[order], se[order], t[order]
            self.groups.append(
                {
                    "idx": idx,
                    "a": a[idx],
                    "b": b[idx],
                    "delta": delta,
                    # 1 / se; 0 for a constant difference, which never exceeds
                    "inverse": np.where(se > 0, 1.0 / np.where(se > 0, se, 1.0), 0.0),
                    "threshold": t
                    - _TOL * np.maximum(1.0, np.where(np.isfinite(t), np.abs(t), 1.0)),
                }
            )
        self.add(replicates)

    def add(self, replicates: np.ndarray, unsettled: np.ndarray | None = None) -> None:
        """Count the replicates (R, m) in.

        All pairs, or with ``unsettled`` (k,) given, in each family the pairs from the first
        unsettled one on (a family without one is left as it is)."""
        by_system = None  # (m, R): one contiguous row per system, gathered row by row below
        for g in self.groups:
            start = 0
            if unsettled is not None:
                flagged = np.flatnonzero(unsettled[g["idx"]])
                if not flagged.size:
                    continue
                start = int(flagged[0])
            if by_system is None:
                by_system = np.ascontiguousarray(replicates.T)
            # least significant first, so the running maximum down the rows is the max over l >= j
            aa, bb = g["a"][start:][::-1], g["b"][start:][::-1]
            # |s (x_a - x_b) - d| = |x_a - x_b - s d|; one-sided, s (x_a - x_b - s d), signed
            shift = (self.sign * g["delta"][start:][::-1])[:, None]
            inverse, threshold = (
                g["inverse"][start:][::-1, None],
                g["threshold"][start:][::-1, None],
            )
            hits = np.zeros(len(aa), dtype=np.int64)
            raw = np.zeros(len(aa), dtype=np.int64)
            step = max(1, _CELLS // len(aa))
            for s in range(0, by_system.shape[1], step):
                x = np.ascontiguousarray(by_system[:, s : s + step])
                star = x[aa]  # (pairs, replicates)
                star -= x[bb]
                star -= shift
                if self.one_sided:
                    star *= self.sign
                else:
                    np.abs(star, out=star)
                star *= inverse
                raw += np.count_nonzero(star >= threshold, axis=1)
                np.maximum.accumulate(star, axis=0, out=star)
                hits += np.count_nonzero(star >= threshold, axis=1)
            self.hits[g["idx"][start:]] += hits[::-1]
            self.raw_hits[g["idx"][start:]] += raw[::-1]
            self.resamples[g["idx"][start:]] += replicates.shape[0]

    def raw(self) -> np.ndarray:
        """Each pair's own p-value, ``(1 + #{T*_j >= t_j}) / (R_j + 1)`` (two-sided, or one-sided
        with ``one_sided``).

        Over the same replicates as its adjusted p-value (the null-shifted bootstrap test); NaN for
        pairs not tested."""
        out = np.full(len(self.hits), np.nan)
        for g in self.groups:
            i = g["idx"]
            out[i] = (1 + self.raw_hits[i]) / (self.resamples[i] + 1)
        return out

    def adjusted(self) -> np.ndarray:
        """Adjusted p-values (k,): ``(1 + hits) / (R + 1)`` per pair, made non-decreasing along each
        family's order; NaN for pairs not tested."""
        out = np.full(len(self.hits), np.nan)
        for g in self.groups:
            i = g["idx"]
            out[i] = np.maximum.accumulate((1 + self.hits[i]) / (self.resamples[i] + 1))
        return out
