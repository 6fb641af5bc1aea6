"""The fast multinomial sampler of the ``patterns`` resamples draws Multinomial(n, f / n) exactly:
every count vector sums to n, the frequency of every outcome matches the multinomial probabilities
(a chi-square test over all outcomes of small cases, a seeded draw), and with large frequencies
(numpy's Poisson path) the means and covariances are the multinomial's."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from compreport.stats.multinomial import SMALL, Multinomial


def _outcomes(freq):
    n, k = sum(freq), len(freq)
    for head in itertools.product(range(n + 1), repeat=k - 1):
        if sum(head) <= n:
            x = (*head, n - sum(head))
            p = (
                math.factorial(n)
                / math.prod(math.factorial(v) for v in x)
                * math.prod((f / n) ** v for f, v in zip(freq, x))
            )
            yield x, p


@pytest.mark.slow
@pytest.mark.parametrize("freq", [[1, 2, 3], [1, 1, 1, 1, 2], [5, 1, 2]])
def test_every_outcome_has_its_multinomial_probability(freq):
    rows = 30_000
    x = Multinomial(np.array(freq)).draw(np.random.default_rng(7), rows)
    assert x.shape == (rows, len(freq)) and (x.sum(1) == sum(freq)).all() and (x >= 0).all()
    seen = {}
    for row in map(tuple, x):
        seen[row] = seen.get(row, 0) + 1
    outcomes = list(_outcomes(freq))
    assert set(seen) <= {o for o, _ in outcomes}
    expected = np.array([p for _, p in outcomes]) * rows
    observed = np.array([seen.get(o, 0) for o, _ in outcomes])
    keep = expected >= 5  # the chi-square approximation; the rest pooled
    obs = np.append(observed[keep], observed[~keep].sum())
    exp = np.append(expected[keep], expected[~keep].sum())
    if exp[-1] == 0:
        obs, exp = obs[:-1], exp[:-1]
    assert stats.chisquare(obs, exp).pvalue > 1e-3


def test_large_frequencies_means_and_covariances():
    """Frequencies above SMALL take numpy's Poisson path: means, variances and correlations are the
    multinomial's (20,000 seeded draws; five standard errors)."""
    freq = np.array([1, 3, SMALL + 6, 500, 2, 40])
    n, p = freq.sum(), freq / freq.sum()
    x = Multinomial(freq).draw(np.random.default_rng(11), 20_000)
    assert (x.sum(1) == n).all()
    var = n * p * (1 - p)
    assert (np.abs(x.mean(0) - n * p) < 5 * np.sqrt(var / len(x))).all()
    assert (np.abs(x.var(0) / var - 1) < 5 * np.sqrt(2 / len(x))).all()
    corr = -np.sqrt(
        np.outer(p, p) / np.outer(1 - p, 1 - p)
    )  # multinomial correlations off the diagonal
    np.fill_diagonal(corr, 1.0)
    assert np.abs(np.corrcoef(x.T) - corr).max() < 5 / np.sqrt(len(x))


def test_the_poisson_total_is_corrected_both_ways():
    """The correction is no edge case: the Poisson total falls above n and below n."""
    sampler = Multinomial(np.array([2, 3, 5, 7, 11, 70]))
    totals, correct = [], sampler._correct

    def recording(rng, row):
        totals.append(int(row.sum()))
        correct(rng, row)

    sampler._correct = recording
    x = sampler.draw(np.random.default_rng(5), 400)
    assert (x.sum(1) == 98).all()
    assert min(totals) < 98 < max(totals)
