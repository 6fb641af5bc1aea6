"""Sizing the next test set: detectable differences now, and the items a difference would need.

For each competition and metric, the best system is compared with every other one:

- **minimum detectable difference** at the current ``n``: the true difference that a two-sided
  test at level ``alpha`` detects with probability ``power``, ``(z(1 - alpha/2) + z(power)) *
  se``, where ``se`` is the standard deviation of the pair's paired bootstrap replicates of the
  difference (the analysis's; 2.8 se at alpha = 0.05 and power 0.8);
- **items needed** to detect a difference ``delta`` (default: the observed one): the smallest
  ``n'`` at which test sets of ``n'`` items drawn with replacement from this one give the test that
  power. The power at ``n'`` is the share of ``draws`` resamples of ``n'`` items whose difference,
  shifted so that its mean is ``delta``, lies beyond ``z(1 - alpha/2)`` of their standard
  deviation from 0; ``n'`` is searched by doubling or halving, then bisection to 2 %, from
  :data:`MIN_ITEMS` items up. Large resamples draw each pattern's count from a Poisson
  distribution (the Poisson bootstrap) rather than item by item. The normal approximation
  ``n * ((z(1 - alpha/2) + z(power)) * se / delta)**2`` is given beside it.

The test is per comparison, uncorrected: a report that corrects over a family of ``k``
comparisons needs more items (about those at ``alpha / k`` for Bonferroni).

Resamples draw items; a competition resampled by clusters is refused. Each ``n'`` of each pair
draws from its own seeded stream, so the numbers do not depend on the order of the work.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field

import numpy as np
from scipy.stats import norm

from compreport._version import __version__
from compreport.errors import InputError
from compreport.inputs.competition import Competition
from compreport.settings import check_plan_options, validate
from compreport.stats.metrics import get_metric
from compreport.stats.metrics.base import Prepared
from compreport.stats.resampler import competition_key
from compreport.stats.results import Analysis, MetricAnalysis
from compreport.stats.summing import unique_rows

__all__ = ["PairPlan", "Plan", "plan_test_set"]

#: Largest test set searched, as a multiple of the current one.
MAX_FACTOR = 1000
#: Smallest test set searched: below it the resampled power of a large difference is that of a
#: test nobody would run (a handful of items, a far-from-normal difference).
MIN_ITEMS = 30
#: Relative precision of the search for ``n_needed`` (the power estimate's own noise, about
#: 0.013 at power 0.8 with 1,000 draws, moves it by a few percent).
PRECISION = 0.02
#: Points of each power curve.
CURVE_POINTS = 7


@dataclass
class PairPlan:
    """The best system against one other under one metric.

    Attributes
    ----------
    competition, metric, best, system : str
        Where, and the two systems.
    diff : float
        Observed difference best - system, oriented so that positive means the best is better.
    se : float
        Standard deviation of the paired bootstrap replicates of the difference (metric units).
    mdd : float
        Minimum detectable difference at the current n (metric units).
    delta : float
        The difference ``n_needed`` is for: the one asked for, or the observed ``|diff|``.
    n_needed : int or None
        Items needed to detect ``delta`` with the power asked, by resampling; None when no test
        set up to :data:`MAX_FACTOR` times the current one reaches it, or ``delta`` is 0.
    n_normal : int or None
        The normal approximation of ``n_needed`` (None when ``delta`` or ``se`` is 0, or when it
        is too large for a float).
    power_now : float
        The power at the current n to detect ``delta``, by resampling.
    curve : list of [int, float]
        ``[n', power]`` points of the power curve.
    """

    competition: str
    metric: str
    best: str
    system: str
    diff: float
    se: float
    mdd: float
    delta: float
    n_needed: int | None
    n_normal: int | None
    power_now: float
    curve: list = field(default_factory=list)


@dataclass
class Plan:
    """The sizing of every competition's next test set (:func:`plan_test_set`).

    Attributes
    ----------
    settings : dict
        ``alpha``, ``power``, ``delta`` (None: each pair's observed difference), ``draws``
        (resamples per power estimate), ``bootstrap`` and ``seed`` of the analysis.
    competitions : list of dict
        ``{"id", "name", "n", "metrics": [{"name", "best", "pairs": [PairPlan...]}]}``.
    version : str
        The compreport version.
    """

    settings: dict
    competitions: list[dict]
    version: str = __version__

    @property
    def pairs(self) -> list[PairPlan]:
        """Every pair of every metric and competition, in order."""
        return [p for c in self.competitions for m in c["metrics"] for p in m["pairs"]]

    def to_dict(self) -> dict:
        """plan.json: settings, then per competition and metric every pair's numbers."""
        comps = [
            c | {"metrics": [m | {"pairs": [asdict(p) for p in m["pairs"]]} for m in c["metrics"]]}
            for c in self.competitions
        ]
        return {"version": self.version, "settings": self.settings, "competitions": comps}

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text (NaN written as null)."""

        def clean(x):
            if isinstance(x, float) and not math.isfinite(x):
                return None
            if isinstance(x, dict):
                return {k: clean(v) for k, v in x.items()}
            if isinstance(x, list):
                return [clean(v) for v in x]
            return x

        return json.dumps(clean(self.to_dict()), indent=1, ensure_ascii=False) + "\n"

    def __repr__(self) -> str:
        s = self.settings
        return (
            f"<Plan: {len(self.competitions)} competition(s), {len(self.pairs)} pair(s); "
            f"alpha = {s['alpha']}, power = {s['power']}>"
        )


def _pair_patterns(p: Prepared, best: int, others: list[int]) -> dict[int, tuple]:
    """Per other system ``s``: the distinct (shared, best's, ``s``'s) item statistics and how
    many items have each, ``(shared (U', a), per (U', 2, b), freq (U',))``.

    Items whose statistics agree for the two systems are one pattern, whatever the other systems
    did, so a pair has few patterns (at most gold x predicted x predicted classes for a
    confusion metric) even when every item of the competition is distinct. The statistics are
    computed by chunks of the competition's patterns, never for every system at once.
    """
    reps, _, freq = unique_rows(p.columns)
    _, first = p.stats(reps[:1])
    chunk = max(1, (1 << 22) // (first.shape[1] * first.shape[2] + 1))  # <= 32 MB of statistics
    parts: dict[int, list] = {s: [] for s in others}
    for c in range(0, len(reps), chunk):
        shared, per = p.stats(reps[c : c + chunk])
        f = freq[c : c + chunk]
        for s in others:
            rows = np.hstack([shared, per[:, best, :], per[:, s, :]])
            u, inv, _ = unique_rows(rows)
            parts[s].append((u, np.bincount(inv, weights=f, minlength=len(u))))
    out = {}
    a = shared.shape[1]
    for s in others:
        rows = np.vstack([u for u, _ in parts[s]])
        f = np.concatenate([w for _, w in parts[s]])
        u, inv, _ = unique_rows(rows)
        f = np.bincount(inv, weights=f, minlength=len(u))
        out[s] = (u[:, :a], u[:, a:].reshape(len(u), 2, -1), f)
    return out


class _PairSampler:
    """Scores of two systems on test sets of ``n'`` items drawn with replacement."""

    def __init__(self, p: Prepared, n: int, ia: int, ib: int, patterns: tuple | None = None):
        self.p, self.n, self.sel = p, n, np.array([ia, ib])
        self.sign = 1.0 if p.higher_is_better else -1.0
        if p.decomposable:
            self.shared, self.per, freq = patterns
            self.prob = freq / freq.sum()
            self.cum = np.cumsum(freq.astype(np.int64))  # item k is in the first pattern > k

    def differences(self, size: int, draws: int, rng: np.random.Generator) -> np.ndarray:
        """(draws,) differences a - b (positive: a better) on resamples of ``size`` items."""
        p = self.p
        if p.decomposable:
            out = []
            u = len(self.prob)
            width = self.shared.shape[1] + self.per[0].size
            # fewer items than patterns: each resample's items are drawn one by one (a binary
            # search each) and their statistics summed; else each pattern's count is drawn from
            # a Poisson distribution (the Poisson bootstrap: about `size` items, each resample
            # scored on the items it holds) and the counts weight the patterns' statistics
            by_item = size < u
            per_draw = size * width if by_item else u
            chunk = max(1, min(draws, (1 << 23) // max(1, per_draw)))
            for s in range(0, draws, chunk):
                r = min(chunk, draws - s)
                if by_item:
                    drawn = np.searchsorted(self.cum, rng.integers(0, self.n, (r, size)), "right")
                    shared = self.shared[drawn].sum(axis=1)
                    per = self.per[drawn].sum(axis=1)
                    count = np.full(r, float(size))
                else:
                    w = rng.poisson(size * self.prob, (r, u)).astype(float)
                    shared = w @ self.shared
                    per = np.tensordot(w, self.per, 1)
                    count = w.sum(axis=1)
                sc = p.finalize(shared, per, count, self.sel)
                out.append(sc[:, 0] - sc[:, 1])
            d = np.concatenate(out)
        else:
            d = np.empty(draws)
            for r in range(draws):
                sc = p.evaluate(rng.integers(0, self.n, size))
                d[r] = sc[self.sel[0]] - sc[self.sel[1]]
        return self.sign * d


def _power(d: np.ndarray, delta: float, z: float) -> float:
    """Share of the differences ``d``, shifted to mean ``delta``, beyond ``z`` of their standard
    deviation from 0 (two-sided)."""
    d = d[np.isfinite(d)]
    if len(d) < 2:
        return float("nan")
    sd = d.std(ddof=1)
    if sd == 0:  # every resample gives one difference: no test can be made
        return 0.0
    shifted = d - d.mean() + delta
    return float(np.mean(np.abs(shifted) > z * sd))


def _pair(
    comp: Competition,
    ma: MetricAnalysis,
    p: Prepared,
    patterns: tuple | None,
    k: int,
    system: str,
    *,
    alpha: float,
    power: float,
    delta: float | None,
    draws: int,
    seed: int,
) -> PairPlan:
    best = ma.best
    reps = ma.difference_replicates(best, system)
    reps = reps[np.isfinite(reps)]
    se = float(reps.std(ddof=1)) if len(reps) > 1 else float("nan")
    za, zb = norm.ppf(1 - alpha / 2), norm.ppf(power)
    mdd = (za + zb) * se
    diff = ma.score_of(best).score - ma.score_of(system).score
    diff = float(diff if ma.higher_is_better else -diff)
    want = abs(diff) if delta is None else float(delta)
    n = comp.n
    normal = n * ((za + zb) * se / want) ** 2 if want > 0 and se > 0 and np.isfinite(se) else None
    n_normal = math.ceil(normal) if normal is not None and math.isfinite(normal) else None
    sampler = _PairSampler(p, n, comp.systems.index(best), comp.systems.index(system), patterns)
    key = competition_key(comp.stream_key)
    cache: dict[int, float] = {}

    def pw(size: int) -> float:
        if size not in cache:
            rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(key, k, size)))
            cache[size] = _power(sampler.differences(size, draws, rng), want, za)
        return cache[size]

    needed = None
    if want > 0:
        cap = MAX_FACTOR * n
        hi = min(cap, max(MIN_ITEMS, n_normal or n))
        if pw(hi) >= power:  # halve while the power holds
            while hi > MIN_ITEMS and pw(max(MIN_ITEMS, hi // 2)) >= power:
                hi = max(MIN_ITEMS, hi // 2)
            lo = max(MIN_ITEMS - 1, hi // 2)
        else:  # double until it holds
            lo = hi
            while hi < cap and pw(hi) < power:
                lo, hi = hi, min(cap, 2 * hi)
        if pw(hi) >= power:
            while hi - lo > max(1, int(hi * PRECISION)):  # power below at lo, not at hi
                mid = (lo + hi) // 2
                lo, hi = (lo, mid) if pw(mid) >= power else (mid, hi)
            needed = hi
    around = min(needed or n_normal or n, MAX_FACTOR * n)  # the curve stays in the range searched
    grid = np.geomspace(max(MIN_ITEMS, around / 4), min(MAX_FACTOR * n, 4 * around), CURVE_POINTS)
    curve = [[int(s), pw(int(s))] for s in np.unique(grid.round())] if want > 0 else []
    return PairPlan(
        competition=comp.id,
        metric=ma.name,
        best=best,
        system=system,
        diff=diff,
        se=se,
        mdd=float(mdd),
        delta=want,
        n_needed=needed,
        n_normal=n_normal,
        power_now=pw(n) if want > 0 else float("nan"),
        curve=curve,
    )


def plan_test_set(
    analysis: Analysis,
    competitions: list[Competition],
    *,
    power: float = 0.8,
    alpha: float | None = None,
    delta: float | None = None,
    draws: int = 1000,
) -> Plan:
    """Minimum detectable differences and items needed, best against each other system.

    Parameters
    ----------
    analysis : Analysis
        The analysis of ``competitions``, holding its bootstrap replicates (made by
        :func:`compreport.analyze`, not read from results.json).
    competitions : list of Competition
        The competitions analysed, in the same order.
    power : float, default 0.8
        The probability of detecting the difference, in (0, 1).
    alpha : float, optional
        Two-sided level of each test, in (0, 1); default: the analysis's.
    delta : float, optional
        The difference to detect, in the metric's units (> 0); default: each pair's observed one.
    draws : int, default 1000
        Resamples behind each power estimate.

    Returns
    -------
    Plan

    Raises
    ------
    InputError
        A setting out of range, an analysis without replicates, or a competition resampled by
        clusters.

    Examples
    --------
    >>> data = cr.load("examples/workshop/paraphrase")
    >>> a = cr.analyze(data, bootstrap=1000, seed=0, refine=False)
    >>> plan = plan_test_set(a, list(data.competitions), draws=200)
    >>> p = plan.pairs[0]
    >>> p.best, p.system, round(p.mdd / p.se, 2)
    ('SiameseTwins.01', 'ParaNLP.01', 2.8)
    """
    alpha = analysis.settings.alpha if alpha is None else alpha
    check_plan_options(power, delta, draws)
    alpha = validate({"alpha": alpha})["alpha"]  # the range every caller's alpha is held to
    if analysis.settings.bootstrap < 100:
        raise InputError(
            f"planning needs bootstrap replicates; the analysis has B = "
            f"{analysis.settings.bootstrap} (use at least 1000)"
        )
    seed = analysis.settings.seed
    out = []
    for comp, ca in zip(competitions, analysis.competitions, strict=True):
        if comp.clusters is not None:
            raise InputError(
                f"competition {comp.id!r} is resampled by clusters; planning draws items, "
                f"so it cannot size this test set"
            )
        metrics = []
        for k, (spec, ma) in enumerate(zip(comp.metrics, ca.metrics, strict=True)):
            metric = spec.metric if spec.metric is not None else get_metric(spec.name, spec.base)
            p = metric.prepare(comp, dict(spec.params))
            others = [
                s.system
                for s in ma.scores
                if s.system != ma.best and np.isfinite(s.score) and ma.best is not None
            ]
            index = {s: comp.systems.index(s) for s in others}
            by_pair = (
                _pair_patterns(p, comp.systems.index(ma.best), list(index.values()))
                if p.decomposable and others
                else {}
            )
            pairs = [
                _pair(
                    comp,
                    ma,
                    p,
                    by_pair.get(index[s]),
                    k * 100_003 + j,
                    s,
                    alpha=alpha,
                    power=power,
                    delta=delta,
                    draws=draws,
                    seed=seed,
                )
                for j, s in enumerate(others)
            ]
            metrics.append({"name": ma.name, "best": ma.best, "pairs": pairs})
        out.append({"id": comp.id, "name": comp.name, "n": comp.n, "metrics": metrics})
    settings = {
        "alpha": alpha,
        "power": power,
        "delta": delta,
        "draws": draws,
        "bootstrap": analysis.settings.bootstrap,
        "seed": seed,
    }
    return Plan(settings, out)
