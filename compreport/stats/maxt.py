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
that of one p-value near alpha (somewhat more than binomial: below): no per-pair p-value has
to reach alpha / k.

:class:`StepDown` keeps the exceedance counts, so that more replicates (refinement) are added to
them block by block: the studentization ``se_k`` is fixed by the first B replicates, and later
blocks are counted only from the first position whose verdict is still unsettled (the pairs before
it are significant beyond doubt, and their counts stay those of the replicates already seen).

**Monte-Carlo error of an adjusted p-value.** The studentization ``se_k`` and the order come from
the same B replicates as the counts, so an adjusted p-value varies from seed to seed more than the
binomial ``sqrt(q (1 - q) / B)`` of one exceedance proportion (1.5-1.9 x at B = 2,000 for pairs
with p in (0.01, 0.2): ``benchmarks/mcse.py``). :meth:`StepDown.standard_error` estimates it by
batch means: the first B replicates are cut into K consecutive blocks (:func:`block_count`), the
whole step-down (studentization, order, counts) is run within each block, and the variance of the
K block p-values over K estimates the variance of the p-value from all B. No replicate is drawn
for it; it costs about one more counting pass.
"""

from __future__ import annotations

import numpy as np

#: Relative tolerance of ``T* >= t`` (floating-point noise), as the other tests.
_TOL = 1e-10
#: Cells (replicates x pairs) held at once.
_CELLS = 1 << 22
#: Batch means (:func:`block_count`): replicates per block when B allows, and the blocks at least
#: and at most (measured in ``benchmarks/mcse.py``: blocks of 50 estimate the seed-to-seed
#: standard deviation within a few %, blocks of 20 underestimate it by about 8 %).
BLOCK, MIN_BLOCKS, MAX_BLOCKS = 50, 10, 100
#: Fewest replicates a block may hold; with fewer the error is left binomial (no blocks).
_SMALLEST_BLOCK = 4


def block_count(B: int) -> int:
    """The K blocks the batch-means standard error cuts ``B`` replicates into.

    ``B // BLOCK`` kept between :data:`MIN_BLOCKS` and :data:`MAX_BLOCKS`, and 0 (no batch means:
    the error is the binomial one) when a block would hold fewer than 4 replicates.

    Examples
    --------
    >>> [block_count(B) for B in (30, 199, 2000, 10_000, 100_000)]
    [0, 10, 40, 100, 100]
    """
    k = min(MAX_BLOCKS, max(MIN_BLOCKS, B // BLOCK))
    return k if B // k >= _SMALLEST_BLOCK else 0


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
    blocks : int, optional
        Blocks of the batch-means standard error (:meth:`standard_error`); default
        :func:`block_count` of the replicates' number, 0: none (the binomial error).
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
        blocks: int | None = None,
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
        # batch means: the variance of the adjusted p-values beyond the binomial one (k,)
        self.excess = np.zeros(k)
        self.blocks = 0
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
        B = replicates.shape[0]
        K = block_count(B) if blocks is None else blocks
        if K >= 2 and self.groups:
            cuts = np.linspace(0, B, K + 1).astype(int)
            within = np.array(
                [
                    StepDown(
                        observed,
                        replicates[lo:hi],
                        a,
                        b,
                        families,
                        higher_is_better,
                        blocks=0,
                        one_sided=one_sided,
                    ).adjusted()
                    for lo, hi in zip(cuts[:-1], cuts[1:])
                ]
            )
            with np.errstate(invalid="ignore"):
                batch = within.var(axis=0, ddof=1) / K
            self.excess = np.nan_to_num(np.maximum(batch - self._binomial(), 0.0))
            self.blocks = K

    def _binomial(self) -> np.ndarray:
        """The binomial variance of the adjusted p-values, ``q (1 - q) / R`` with ``q = k / R``
        kept within [1/R, 1 - 1/R] (an exceedance count of 0 or R is not a certainty)."""
        p, R = self.adjusted(), np.maximum(self.resamples, 1)
        q = np.clip(np.rint(p * (R + 1) - 1), 1, np.maximum(R - 1, 1)) / R
        return q * (1 - q) / R

    def standard_error(self, binomial: bool = True) -> np.ndarray:
        """Monte-Carlo standard errors of the adjusted p-values (k,); NaN for pairs not tested,
        and with ``binomial=False`` also where the batches vary no more than the binomial error
        says (there the binomial rule applies as it is).

        ``sqrt(max(V_batch, V_binomial))`` over the first B replicates (module docstring): the
        batch-means variance when the blocks vary more than an exceedance proportion would, else
        the binomial one, whose exceedance count is kept within [1, R - 1] so that the error is
        never 0. After refinement (R > B resamples, the studentization still that of the first
        B) the binomial part shrinks to ``q (1 - q) / R`` and the excess of the batches stays.

        Examples
        --------
        >>> import numpy as np
        >>> rng = np.random.default_rng(0)
        >>> obs = np.array([0.70, 0.69, 0.60])
        >>> a, b = np.array([0, 0, 1]), np.array([1, 2, 2])
        >>> sd = StepDown(obs, rng.normal(obs, 0.01, (2000, 3)), a, b, np.zeros(3, dtype=int))
        >>> sd.blocks, sd.adjusted().round(4).tolist()
        (40, [0.4913, 0.0005, 0.0005])
        >>> sd.standard_error().round(4).tolist()    # never 0, even with no exceedance
        [0.0112, 0.0005, 0.0005]
        """
        out = np.sqrt(self._binomial() + self.excess)
        keep = (self.resamples > 0) & (binomial | (self.excess > 0))
        return np.where(keep, out, np.nan)

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
