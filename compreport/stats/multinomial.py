"""Exact multinomial counts over many categories, fast: the ``patterns`` resamples.

A resample of ``n`` items over patterns of frequencies ``f`` (summing to ``n``) has pattern counts
Multinomial(n, f / n). numpy's ``Generator.multinomial`` draws a binomial per category, about 60 ns
each: with 100,000 patterns, 6 ms per replicate, a minute for B = 10,000. Here, about a fifth of
that, and the same distribution exactly:

1. X_u ~ Poisson(f_u), independently, by inversion: per distinct small f (<= :data:`SMALL`) a table
   of the value in each of :data:`BINS` equal bins of the uniform, and a comparison with the
   cumulative distribution for the few bins that straddle one of its steps; numpy's ``poisson``
   for the rare large f. Given their total N, independent Poisson counts are Multinomial(N, f / n).
2. The total is corrected to n: when N < n, n - N more items are drawn with probabilities f / n
   and added (a Multinomial(N) plus an independent Multinomial(n - N) of the same probabilities is
   a Multinomial(n)); when N > n, N - n of the N items are removed, chosen uniformly without
   replacement (a uniform subset of iid draws is iid). Whatever N, the counts are
   Multinomial(n, f / n).

The cumulative distributions are sums of the Poisson probabilities (computed from logarithms of
factorials); a bin is read from the table only when the whole bin lies within one step of it, so
the inversion is as exact as the distribution function (which agrees with scipy's to 1e-13; the
tables stop where the Poisson tail falls below 1e-26, folded into their last value).
"""

from __future__ import annotations

import numpy as np

#: Frequencies up to this are drawn by table lookup; larger ones by ``Generator.poisson``.
SMALL = 64
#: Bins of the uniform per table.
BINS = 4096


class Multinomial:
    """Sampler of Multinomial(n, freq / n) counts for fixed integer frequencies.

    Parameters
    ----------
    freq : ndarray of int, shape (U,)
        The patterns' frequencies, all > 0; n is their sum.

    Examples
    --------
    >>> import numpy as np
    >>> counts = Multinomial(np.array([3, 1, 96])).draw(np.random.default_rng(0), 4)
    >>> counts.shape, counts.sum(axis=1).tolist()
    ((4, 3), [100, 100, 100, 100])
    """

    def __init__(self, freq: np.ndarray):
        self.freq = np.asarray(freq, dtype=np.int64)
        self.n = int(self.freq.sum())
        self.cum = np.cumsum(self.freq)
        self.small = np.flatnonzero(self.freq <= SMALL)
        self.big = np.flatnonzero(self.freq > SMALL)
        values, self.table = np.unique(self.freq[self.small], return_inverse=True)
        support = int(SMALL + 12 * np.sqrt(SMALL) + 12)  # P(X >= support) < 1e-26 for f <= SMALL
        k = np.arange(support)
        log_factorial = np.concatenate([[0.0], np.cumsum(np.log(k[1:]))])
        pmf = np.exp(
            k[None, :] * np.log(values[:, None].astype(float))
            - values[:, None]
            - log_factorial[None, :]
        )
        self.cdf = np.minimum(np.cumsum(pmf, axis=1), 1.0)
        self.cdf[:, -1] = 1.0
        edges = np.arange(BINS + 1) / BINS
        # one row per distinct small frequency; none when every frequency is large (a few
        # patterns over many items)
        low = np.zeros((len(values), BINS), dtype=np.int64)
        high = np.zeros((len(values), BINS), dtype=np.int64)
        for row, c in enumerate(self.cdf):
            low[row] = np.searchsorted(c, edges[:-1], side="right")
            high[row] = np.searchsorted(c, np.nextafter(edges[1:], 0), side="right")
        # -1: the bin holds a step
        self.lut = np.where(low == high, low, -1).astype(np.int16).ravel()
        self.offset = self.table * BINS
        self.lam_big = self.freq[self.big].astype(float)

    def draw(self, rng: np.random.Generator, rows: int) -> np.ndarray:
        """``rows`` independent count vectors: int64 (rows, U), each summing to n.

        Drawn row after row, so the first r rows of a draw of R are a draw of r (refinement
        continues a plan)."""
        out = np.empty((rows, len(self.freq)), dtype=np.int64)
        for row in out:
            u = rng.random(len(self.small))
            x = self.lut[self.offset + (u * BINS).astype(np.intp)].astype(np.int64)
            (c,) = np.nonzero(x < 0)
            if len(c):
                x[c] = (u[c][:, None] >= self.cdf[self.table[c]]).sum(1)
            row[self.small] = x
            row[self.big] = rng.poisson(self.lam_big)
            self._correct(rng, row)
        return out

    def _correct(self, rng: np.random.Generator, x: np.ndarray) -> None:
        """Bring the total of ``x`` (in place) to n, as the module docstring says."""
        total = int(x.sum())
        if total < self.n:
            extra = np.searchsorted(self.cum, rng.integers(0, self.n, self.n - total), side="right")
            x += np.bincount(extra, minlength=len(x))
        elif total > self.n:
            gone = np.searchsorted(
                np.cumsum(x), rng.choice(total, size=total - self.n, replace=False), side="right"
            )
            x -= np.bincount(gone, minlength=len(x))
