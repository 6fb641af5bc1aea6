"""Simultaneous confidence sets for ranks (Mogstad, Romano, Shaikh & Wilhelm 2024).

A system's true rank is ``r_j = 1 + #{k : theta_k better than theta_j}`` among the ``m`` ranked
systems (1 = best; systems with equal true scores share the better rank), ``theta`` the
metric on the population of test items. Mogstad et al. (2024, "Inference for Ranks with
Applications to Mobility across Neighbourhoods and Academic Achievement across Countries",
Review of Economic Studies, doi:10.1093/restud/rdad006) test every
*ordered* pair ``(j, k)``, ``j != k``,

    ``H_jk: theta_j <= theta_k``   (j is not better than k),

with a one-sided max-T step-down over the whole family of ``m (m - 1)`` hypotheses, and read
the sets off the rejections:

* ``t_jk = delta_jk / se_jk``, ``delta_jk`` the oriented difference of the observed scores
  (positive: j better) and ``se_jk`` the bootstrap standard deviation of its replicates;
* ``T*_bjk = (d*_bjk - delta_jk) / se_jk`` over the replicates ``b`` (signed: one-sided);
* step-down: with the hypotheses still standing, reject every ``H_jk`` whose ``t_jk`` exceeds
  the 1 - alpha quantile of ``max T*`` over them; repeat until nothing more is rejected;
* ``rank_low_j = 1 + #{k : H_kj rejected}`` (the systems found better than j) and
  ``rank_high_j = m - #{k : H_jk rejected}`` (the systems j is found better than).

With probability tending to at least 1 - alpha, *every* rejection is right, and then every true
rank lies in its set at once: the sets are simultaneous (jointly for all systems), not one
interval per system. They are computed from the replicates the rest of the analysis uses
(no extra draw), through :class:`compreport.stats.maxt.StepDown` with ``one_sided=True``,
in its p-value form: ``H_jk`` is rejected when its step-down adjusted p-value is below alpha,
which is the iteration above with the quantile read as ``(1 + #{max T* >= t}) / (B + 1)``.
A rejection also needs ``delta_jk > 0``, so the observed competition rank always lies in its
set (the quantile of a maximum over both directions of a pair is not negative in practice,
so this only guards degenerate replicates).

This is the construction of the authors' R package ``csranks``
(https://github.com/danielwilhelm/R-CS-ranks, ``csranks(x, Sigma, simul=TRUE,
stepdown=TRUE, cstype="two-sided")``: ``csranks_simul`` in ``R/ranks.R`` and ``csdiffmeans``
in ``R/diffmeans.R``, whose ``initialize_I0`` turns the two-sided stepdown into the one-sided
family of all ordered pairs), with one difference: ``csranks`` draws ``max T*`` from a
normal approximation ``N(0, Sigma)`` of the estimates, and this module reads it off the paired
bootstrap replicates themselves (centred at the observed scores), which approximate the same
joint distribution and keep the correlation of systems scored on the same items.

Units: the sets are ranks (integers in 1..m); ``alpha`` is the family-wise level (default
0.05, the settings' ``alpha``). Monte-Carlo error: the sets come from the first B replicates and
are not refined; a rejection counts only when it is settled
(:func:`compreport.stats.montecarlo.settled`, with the batch-means error of the step-down's
adjusted p-values, :meth:`StepDown.standard_error`), as every verdict of the analysis: one whose
adjusted p-value lies within Monte-Carlo error of alpha is undecided and rejects nothing, so a
set can only be longer for it.

Examples
--------
>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> obs = np.array([0.90, 0.70, 0.69, 0.50])
>>> reps = rng.normal(obs, 0.02, size=(999, 4))
>>> low, high, better = rank_sets(obs, reps, alpha=0.05)
>>> [f"{lo}-{hi}" for lo, hi in zip(low, high)]   # the two close systems share 2-3
['1-1', '2-3', '2-3', '4-4']
>>> better.sum(axis=1).tolist()                   # systems each is found better than
[3, 1, 1, 0]
"""

from __future__ import annotations

import numpy as np

from compreport.options import OPTIONS
from compreport.stats import montecarlo
from compreport.stats.maxt import StepDown

__all__ = ["rank_sets"]


def rank_sets(
    observed: np.ndarray,
    replicates: np.ndarray,
    higher_is_better: bool = True,
    alpha: float = OPTIONS["alpha"].default,
    ranked: np.ndarray | None = None,
    settle: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Simultaneous 1 - alpha confidence sets ``[rank_low, rank_high]`` of every system's rank.

    See the module docstring for the construction (Mogstad et al. 2024, as ``csranks``).

    Parameters
    ----------
    observed : ndarray, shape (m,)
        Scores on the full test set, in the metric's units (NaN: undefined).
    replicates : ndarray, shape (B, m)
        Paired bootstrap replicates of every system (the same resamples for all); B >= 2.
    higher_is_better : bool
        Orientation of the scores (default True); rank 1 is the best either way.
    alpha : float
        Family-wise error rate: all the sets cover the true ranks jointly with probability
        about 1 - alpha (default 0.05).
    ranked : ndarray of bool, shape (m,), optional
        The systems ranked among one another (default: those with a finite score). The others get
        no set (0) and count in no one's rank.
    settle : bool
        Count a rejection only when it is settled within the Monte-Carlo error (default True, as
        the analysis does); False: every rejection of the step-down, as the paper defines them.

    Returns
    -------
    rank_low, rank_high : ndarray of int, shape (m,)
        The sets' bounds, 1 <= rank_low <= rank_high <= m_ranked (the number of ranked systems);
        0 for a system not ranked, and for all of them when B < 2.
    better : ndarray of bool, shape (m, m)
        ``better[j, k]``: j is found better than k (``H_jk`` rejected).

    Examples
    --------
    Two systems whose difference is certain, and a third equal to the second:

    >>> import numpy as np
    >>> obs = np.array([0.8, 0.6, 0.6])
    >>> reps = np.random.default_rng(1).normal(obs, 0.01, size=(499, 3))
    >>> low, high, _ = rank_sets(obs, reps)
    >>> low.tolist(), high.tolist()
    ([1, 2, 2], [1, 3, 3])
    """
    observed = np.asarray(observed, dtype=float)
    m = len(observed)
    ranked = np.isfinite(observed) if ranked is None else np.asarray(ranked, dtype=bool)
    low = np.zeros(m, dtype=int)
    high = np.zeros(m, dtype=int)
    better = np.zeros((m, m), dtype=bool)
    idx = np.flatnonzero(ranked)
    if replicates.shape[0] < 2 or not idx.size:
        return low, high, better
    a, b = (x.ravel() for x in np.meshgrid(idx, idx, indexing="ij"))
    a, b = a[a != b], b[a != b]
    if a.size:
        step = StepDown(
            observed,
            replicates,
            a,
            b,
            np.zeros(len(a), dtype=int),
            higher_is_better,
            one_sided=True,
        )
        sign = 1.0 if higher_is_better else -1.0
        adjusted = step.adjusted()
        # a rejection counts only when settled, as every verdict of the analysis: one within the
        # Monte-Carlo error of alpha leaves both orders possible (the sets stay conservative)
        rejected = (adjusted < alpha) & (sign * (observed[a] - observed[b]) > 0)
        if settle:
            rejected &= (
                montecarlo.settled(
                    adjusted,
                    np.maximum(step.resamples, 1),
                    lambda p: p,
                    alpha,
                    se=step.standard_error(binomial=False),
                    df=max(step.blocks - 1, 0),
                    looks=1,
                )
                == 1
            )
        better[a[rejected], b[rejected]] = True
    low[idx] = 1 + better[np.ix_(idx, idx)].sum(axis=0)
    high[idx] = len(idx) - better[np.ix_(idx, idx)].sum(axis=1)
    return low, high, better
