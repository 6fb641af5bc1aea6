"""Run the analysis: the paired bootstrap of every competition, then every number and verdict.

:func:`analyze` runs the paired bootstrap for each competition (:func:`analyze_competition`) and
builds one :class:`~compreport.stats.results.MetricAnalysis` per metric
(:func:`analyze_metric`). Every decision (significant or not, groups, intervals excluding zero,
ties with the best, ranks, best) is taken here, once, under one correction and one family, and
stored in the result objects; renderers read them and decide nothing.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import NamedTuple

import numpy as np

from compreport import interrupts
from compreport.errors import InputError, option, raw, warn
from compreport.errors import note as tell
from compreport.inputs.competition import Competition
from compreport.inputs.readers import unseen_label_warnings
from compreport.language import vocabulary as vocab
from compreport.settings import Settings
from compreport.stats import (
    competitiveness,
    intervals,
    letters,
    maxt,
    montecarlo,
    multitest,
    ranking,
    ranksets,
    significance,
)
from compreport.stats import resampling as bootstrap
from compreport.stats.classes import CLASSIFICATION, SMALL_CLASS, per_class, small_classes
from compreport.stats.memory import (
    block_rows,
    check_memory,
    check_pairs,
    check_replicates_memory,
)
from compreport.stats.metrics import get_metric
from compreport.stats.metrics.base import Prepared
from compreport.stats.metrics.fields import NO_PREDICTION
from compreport.stats.metrics.ranking import RankingMetric
from compreport.stats.resampler import competition_key
from compreport.stats.results import (
    Analysis,
    BaselineVerdict,
    Comparison,
    CompetitionAnalysis,
    MetricAnalysis,
    Score,
)
from compreport.stats.verdict import Family, Settlement, VerdictRule, verdict_rule
from compreport.workers import Executor

__all__ = [
    "analyze",
    "analyze_competition",
    "analyze_metric",
    "bootstrap_note",
    "small_class_note",
    "small_sample_note",
]


def _comparisons(names, a, b, pr, decided, alpha, at=slice(None)) -> list[Comparison]:
    """Comparison objects of index pairs ``a``, ``b`` with their p-values and stored verdicts: the
    pairs ``at`` of ``pr`` and ``decided`` (all of them by default)."""
    d, corr = _at(pr, at), _at(decided.corrected, at)
    decide, settled = decided.decide[at], decided.settled[at]
    lo, hi = d["ci_low"], d["ci_high"]
    numbers = {
        "diff": d["diff"],
        "ci_low": lo,
        "ci_high": hi,
        "p_value": d["p_value"],
        "p_bonferroni": corr["bonferroni"],
        "p_holm": corr["holm"],
        "p_bh": corr["bh"],
        "p_maxt": corr["maxt"],
        "p_adjusted": decide,
        "p_se": d["p_se"],
        "excludes_zero": np.isfinite(lo) & np.isfinite(hi) & ((lo > 0) | (hi < 0)),
    }
    columns = {k: v.tolist() for k, v in numbers.items()}  # Python floats and bools, once
    verdicts = zip(
        np.isfinite(decide).tolist(),
        multitest.rejects(decide, alpha).tolist(),
        np.isfinite(settled).tolist(),
        (settled == 1).tolist(),
        multitest.stars(decide, alpha).tolist(),
    )
    out = []
    for i, (tested, significant, known, settles, mark) in enumerate(verdicts):
        # an unsettled verdict is undecided: neither significant nor tied (issue 36 item 1)
        shown = settles or not known
        out.append(
            Comparison(
                names[a[i]],
                names[b[i]],
                **{k: v[i] for k, v in columns.items()},
                significant=(significant if shown else None) if tested else None,
                settled=(settles if known else None) if tested else None,
                mark=mark if shown else "",
            )
        )
    return out


def _settled(flag: float) -> bool | None:
    """1.0/0.0/NaN (:func:`compreport.stats.montecarlo.settled`) as True/False/None."""
    return bool(flag) if np.isfinite(flag) else None


def _verdict(p: float, alpha: float) -> bool | None:
    """The one significance rule, ``p < alpha`` (:func:`~compreport.stats.multitest.rejects`); None
    when ``p`` is undefined (not tested, B = 0)."""
    return bool(multitest.rejects(p, alpha)) if np.isfinite(p) else None


def analyze_metric(
    name: str,
    params: dict,
    higher_is_better: bool,
    ideal: float | None,
    primary: bool,
    systems: list[str],
    observed: np.ndarray,
    replicates: np.ndarray,
    settings: Settings,
    n: int,
    jack: tuple[np.ndarray, np.ndarray] | None = None,
    test_p=None,
    baselines=(),
    p_replicates: np.ndarray | None = None,
    p_resamples: int | None = None,
    state: dict | None = None,
    label: str | None = None,
    rule: VerdictRule | None = None,
) -> MetricAnalysis:
    """Scores, comparisons, verdicts, groups and competitiveness of one metric.

    The steps, in order: who competes and the pairs (:func:`_field`), the defined replicates,
    intervals, the pairs' differences and raw p-values, the family and its max-T step-down, the
    rule's corrected p-values and the verdicts they decide, whether each verdict is settled, then
    groups, rank sets, scores and the competitiveness summary.

    Parameters
    ----------
    name : str
        The metric's name.
    params : dict
        Its parameters after validation (stored as given).
    higher_is_better : bool
        Orientation of the scores.
    ideal : float or None
        The best possible score (the competitiveness summary's room for improvement).
    primary : bool
        The competition is ranked by this metric.
    systems : list of str
        System names in input order; the columns of ``observed`` and ``replicates`` follow it.
    observed : ndarray, shape (m,)
        Scores on the full test set (NaN: undefined).
    replicates : ndarray, shape (B, m)
        Paired bootstrap replicates of every system (the same resamples for all).
    settings : Settings
        ``settings.correction`` over ``settings.family`` decides every verdict.
    n : int
        Test items (stored in the competitiveness summary).
    jack : (ndarray, ndarray), optional
        Leave-one-out scores (J, m) and their weights (J,), needed for BCa intervals.
    test_p : callable, optional
        ``test_p(a, b)`` gives the p-values of the pairs ``a``, ``b`` (index arrays) instead of
        the bootstrap test (the randomization test).
    baselines : sequence of str
        Systems that do not compete (unless ``settings.include_baselines``): they are shown,
        compared in pairs and grouped, but the best is the best participant, and the comparisons
        with the best and the competitiveness figures are over participants only.
    p_replicates : ndarray, shape (R, m), optional
        Replicates the bootstrap p-values come from, when they are re-estimated from more
        resamples than the intervals (``settings.refine``); default ``replicates``.
    p_resamples : int, optional
        Resamples behind every raw p-value (R; default ``settings.bootstrap``).
    state : dict, optional
        Kept by the caller between calls for the same metric (refinement): the pairs'
        differences, intervals and raw p-values from ``replicates``, and the max-T counts
        (:class:`~compreport.stats.maxt.StepDown`) to which the caller adds replicates.
    label : str, optional
        The name readers see instead of ``name`` (:attr:`MetricAnalysis.label`).
    rule : VerdictRule, optional
        The verdict rule of ``settings`` (:func:`~compreport.stats.verdict.verdict_rule`), when
        the caller chose it already.

    Returns
    -------
    MetricAnalysis
        Scores in rank order, the comparisons with the best, every pair, and the verdicts.

    Examples
    --------
    >>> import numpy as np
    >>> from compreport.settings import Settings
    >>> obs = np.array([0.80, 0.78, 0.60])
    >>> reps = np.random.default_rng(0).normal(obs, 0.02, size=(999, 3))
    >>> ma = analyze_metric("accuracy", {}, True, 1.0, True, ["A", "B", "C"], obs, reps,
    ...                     Settings(bootstrap=999), n=500)
    >>> [(s.system, s.group) for s in ma.scores]
    [('A', 'a'), ('B', 'a'), ('C', 'b')]
    >>> [(c.b, c.significant) for c in ma.vs_best]
    [('B', False), ('C', True)]
    """
    rule = verdict_rule(settings) if rule is None else rule
    state = {} if state is None else state
    field = _field(systems, baselines, observed, higher_is_better, settings.include_baselines)
    R = settings.bootstrap if p_resamples is None else p_resamples
    replicates, p_replicates, R, dropped = _defined_replicates(
        replicates, p_replicates, field.defined, R, counted=test_p is None
    )
    spread = _spread(observed, replicates, settings.ci_method, rule.alpha, jack)
    pr = _pair_numbers(
        state, field, observed, replicates, p_replicates, test_p, higher_is_better, settings, jack
    )
    family = _family(
        state, rule, field, systems, baselines, observed, replicates, pr, higher_is_better
    )
    decided = _decide(state, rule, pr, family, field.with_best, R, settings.bootstrap)
    *ranks, rank_better = _rank_sets(state, observed, replicates, higher_is_better, rule.alpha)
    group = _groups(field, decided, rule.alpha)
    best = np.full(len(field.others), field.best)  # the first system of each comparison with it
    summary = _competitiveness(
        observed, field, pr, decided, rule, n, ideal, higher_is_better, (R, family.maxt_resamples)
    )
    ma = MetricAnalysis(
        name=name,
        params=params,
        higher_is_better=higher_is_better,
        ideal=ideal,
        primary=primary,
        best=systems[field.best],
        scores=_scores(systems, observed, spread, field, group, decided, ranks, rule.alpha),
        vs_best=_comparisons(
            systems, best, field.others, pr, decided, rule.alpha, at=field.vb_pairs
        ),
        pairs=_comparisons(systems, field.pa, field.pb, pr, decided, rule.alpha),
        competitiveness=summary,
        verdicts=_verdict_record(rule, decided, dropped),
        replicates=replicates,
        systems=list(systems),
        rank_better=rank_better,
        label=label,
    )
    ma.vs_baselines = baseline_verdicts(ma, baselines, rule.family)
    return ma


class _Field(NamedTuple):
    """Who competes and the pairs of one metric, in rank order."""

    order: np.ndarray  # systems in rank order
    rank: np.ndarray  # each system's rank
    defined: np.ndarray  # its score is defined (finite)
    competes: np.ndarray  # it competes (a participant, or any system when baselines are included)
    best: int  # the best competitor
    others: np.ndarray  # the other competitors, in rank order
    ia: np.ndarray  # each pair's row: the rank position of its better system
    pa: np.ndarray  # each pair's better system (a above b in rank order)
    pb: np.ndarray  # its worse system
    vb_pairs: np.ndarray  # the pairs of the best with each of the others
    with_best: np.ndarray  # each pair is a comparison with the best


def _field(systems, baselines, observed, higher_is_better: bool, include_baselines: bool) -> _Field:
    """The rank order, who competes, the best competitor and every pair (a above b in rank
    order), with the comparisons of the best with the other competitors among them."""
    m = len(systems)
    order, rank = ranking.order_systems(observed, higher_is_better)
    competes = np.ones(m, dtype=bool)
    if not include_baselines:
        competes[[i for i, s in enumerate(systems) if s in set(baselines)]] = False
    if not competes.any():  # only baselines: they compete with one another
        competes[:] = True
    best = int(next(i for i in order if competes[i]))
    others = np.array([i for i in order if i != best and competes[i]], dtype=int)
    ia, ib = np.triu_indices(m, k=1)  # every pair (a above b) in rank order
    pa, pb = order[ia], order[ib]
    pair_of = {(int(a), int(b)): k for k, (a, b) in enumerate(zip(pa, pb))}
    # the comparisons with the best, where the best is a (it ranks above the others)
    vb_pairs = np.array([pair_of[best, int(o)] for o in others], dtype=int)
    with_best = np.zeros(len(ia), dtype=bool)
    with_best[vb_pairs] = True
    return _Field(
        order, rank, np.isfinite(observed), competes, best, others, ia, pa, pb, vb_pairs, with_best
    )


def _defined_replicates(replicates, p_replicates, defined, R: int, *, counted: bool):
    """The replicates (and those of the p-values, when apart) without the rows where a system
    with a defined score is undefined, the resamples R behind each raw p-value, and the rows
    dropped.

    A replicate where a system with a defined score is undefined (a resample with no positive item
    under roc_auc, say) is dropped for the whole metric, and counted: intervals, bootstrap p-values
    and the max-T step-down are all over the same defined replicates (randomization p-values,
    not ``counted``, count their rounds, R, whatever the bootstrap replicates)."""
    replicates, dropped = _defined_rows(replicates, defined)
    if p_replicates is not None:
        p_replicates, dropped = _defined_rows(p_replicates, defined)
    return replicates, p_replicates, R - dropped if counted else R, dropped


class _Spread(NamedTuple):
    """Each system's interval, bootstrap mean and standard error."""

    low: np.ndarray
    high: np.ndarray
    mean: np.ndarray
    se: np.ndarray


def _spread(observed, replicates, ci: str, alpha: float, jack) -> _Spread:
    """The intervals (``ci`` at 1 - alpha), means and standard errors of every system's score;
    NaN without the replicates they need."""
    m = len(observed)
    lo, hi = intervals.interval(replicates, observed, ci, alpha, jack)
    B = replicates.shape[0]
    mean = replicates.mean(axis=0) if B else np.full(m, np.nan)
    se = replicates.std(axis=0, ddof=1) if B > 1 else np.full(m, np.nan)
    return _Spread(lo, hi, mean, se)


def _pair_numbers(
    state,
    field: _Field,
    observed,
    replicates,
    p_replicates,
    test_p,
    higher_is_better,
    settings,
    jack,
) -> dict[str, np.ndarray]:
    """Every pair's difference, interval and raw p-value (from ``test_p``, the p-value replicates
    or the replicates); the differences are kept in ``state`` while refining. A system whose score
    is undefined (a constant prediction under Pearson, say) is not compared: its comparisons are
    untested (NaN), outside every family, and it has no group."""
    pa, pb, test = field.pa, field.pb, settings.test
    if "pairs" not in state:
        state["pairs"] = significance.differences(
            observed,
            replicates,
            pa,
            pb,
            higher_is_better,
            settings.alpha,
            settings.ci_method,
            jack,
            test=test,
        )
    pr = {k: v.copy() for k, v in state["pairs"].items()}
    if test_p is not None:
        pr["p_value"] = test_p(pa, pb)
    elif p_replicates is not None:
        pr["p_value"] = significance.p_values(
            observed, p_replicates, pa, pb, higher_is_better, test=test
        )
    pr["p_value"][~(field.defined[pa] & field.defined[pb])] = np.nan
    return pr


def _family(
    state, rule: VerdictRule, field: _Field, systems, baselines, observed, replicates, pr, hib
) -> Family:
    """The pairs tested (a raw p-value in ``pr``), those the family may test and, under the
    bootstrap test, the max-T step-down over the family from the joint replicates (kept in
    ``state``, where refinement adds to its counts)."""
    tested = np.isfinite(pr["p_value"])
    testable = rule.may_test(systems, baselines, field.pa, field.pb)
    if not rule.has_maxt:
        none = np.full(len(field.ia), np.nan), np.zeros(len(field.ia), dtype=np.int64)
        return Family(field.ia, tested, testable, *none)
    if "step" not in state:
        families = rule.step_families(tested & testable, field.ia)
        state["step"] = maxt.StepDown(observed, replicates, field.pa, field.pb, families, hib)
    return Family(field.ia, tested, testable, state["step"].adjusted(), state["step"].resamples)


class _Decided(NamedTuple):
    """The rule's verdicts of every pair."""

    corrected: dict[str, np.ndarray]  # every correction of the raw p-values, with max-T
    decide: np.ndarray  # the p-value behind each verdict the rule states, NaN elsewhere
    in_family: np.ndarray  # the pairs whose verdict the rule states
    correcting: np.ndarray  # the pairs the correction runs over
    settlement: Settlement  # whether each verdict is settled, and refinement may settle more
    settled: np.ndarray  # per pair 1.0 settled, 0.0 undecided, NaN not stated


def _decide(state, rule: VerdictRule, pr, family: Family, with_best, R: int, B: int) -> _Decided:
    """The rule's raw, corrected and deciding p-values of every pair, the verdicts it states and
    whether each is settled; the raw p-values the correction reads and the Monte-Carlo error of the
    deciding ones go into ``pr``."""
    step = state.get("step")
    pr["p_value"] = rule.raw_p_values(pr["p_value"], step, family.tested & family.testable)
    corrected = rule.correct(pr["p_value"], family)
    decide = rule.decide(pr["p_value"], corrected, family, with_best)
    in_family = np.isfinite(decide)
    correcting = rule.correcting(family.tested, in_family)
    settlement = _settle(state, rule, pr["p_value"], family, correcting, in_family, R, B)
    pr["p_se"] = rule.p_se(pr["p_value"], family.tested, step, R)
    settled = np.where(in_family, settlement.every, np.nan)
    return _Decided(corrected, decide, in_family, correcting, settlement, settled)


def _settle(state, rule: VerdictRule, raw, family: Family, correcting, stated, R, B) -> Settlement:
    """Whether each verdict survives the Monte-Carlo error of every p-value of the family, and
    whether refinement may settle the others (up to REFINE_FACTOR x B resamples); what refinement
    must re-estimate, decided pairs or not, goes into ``state``."""
    cap = montecarlo.REFINE_FACTOR * B
    verdicts = rule.settle(raw, family, correcting, stated, state.get("step"), R, cap)
    may_settle = rule.may_refine(verdicts.may_settle, int(np.count_nonzero(correcting)), cap)
    state["unsettled"] = verdicts.every == 0
    return verdicts._replace(may_settle=may_settle)


def _groups(field: _Field, decided: _Decided, alpha: float) -> dict[int, str]:
    """Each system's group letters, from the settled verdicts only (an undecided pair separates no
    groups). A group letter says what the tests found: a system none of whose pairs is tested (a
    baseline under vs-best, every system with B = 0, an undefined score) gets none rather than
    every other's letter."""
    m, pa, pb, in_family = len(field.order), field.pa, field.pb, decided.in_family
    different = np.zeros((m, m), dtype=bool)
    different[pa, pb] = different[pb, pa] = multitest.rejects(
        np.nan_to_num(decided.decide, nan=1.0), alpha
    ) & (decided.settled != 0)
    tested = np.zeros(m, dtype=bool)
    tested[pa[in_family]] = tested[pb[in_family]] = True
    ranked = field.order[(field.defined & tested)[field.order]]
    sub = letters.letters(list(range(len(ranked))), different[np.ix_(ranked, ranked)])
    return {int(s): "" for s in range(m)} | {int(s): sub[k] for k, s in enumerate(ranked)}


def _rank_sets(state, observed, replicates, higher_is_better: bool, alpha: float):
    """Simultaneous rank sets (Mogstad et al.), once, from the first B replicates (not refined)."""
    if "ranks" not in state:
        state["ranks"] = ranksets.rank_sets(observed, replicates, higher_is_better, alpha)
    return state["ranks"]


def _scores(
    systems, observed, spread: _Spread, field: _Field, group, decided: _Decided, ranks, alpha
) -> list[Score]:
    """Every system's score in rank order, with its interval, group, rank set and verdict against
    the best (none for the best, and for an unsettled one)."""
    m, others = len(systems), field.others
    vs_best_p = np.full(m, np.nan)
    vs_best_p[others] = decided.decide[field.vb_pairs]
    vs_best_settled = np.full(m, np.nan)
    vs_best_settled[others] = decided.settled[field.vb_pairs]
    top = observed[field.best]
    is_best = field.competes & (observed == top) if np.isfinite(top) else np.zeros(m, dtype=bool)
    is_best[field.best] = True
    rank_low, rank_high = ranks
    return [
        Score(
            systems[i],
            float(observed[i]),
            float(spread.mean[i]),
            float(spread.se[i]),
            float(spread.low[i]),
            float(spread.high[i]),
            int(field.rank[i]),
            group[i],
            is_best=bool(is_best[i]),
            differs_from_best=None
            if is_best[i] or vs_best_settled[i] == 0
            else _verdict(vs_best_p[i], alpha),
            p_vs_best=float("nan") if is_best[i] else float(vs_best_p[i]),
            settled_vs_best=None if is_best[i] else _settled(vs_best_settled[i]),
            rank_low=int(rank_low[i]) or None,
            rank_high=int(rank_high[i]) or None,
        )
        for i in field.order
    ]


def baseline_verdicts(ma: MetricAnalysis, baselines, family: str) -> list[BaselineVerdict]:
    """Whether each participant of ``ma`` beats each of ``baselines``, read from the stored
    verdicts of their pairs (:attr:`MetricAnalysis.pairs`) decided under ``family``.

    Participants in rank order, baselines in the order given. ``beats`` is the pair's two-sided
    verdict read in the participant's favour: significant and the participant better.

    >>> import numpy as np
    >>> from compreport.settings import Settings
    >>> obs = np.array([0.80, 0.70, 0.69])
    >>> reps = np.random.default_rng(0).normal(obs, 0.01, size=(999, 3))
    >>> ma = analyze_metric("accuracy", {}, True, 1.0, True, ["A", "B", "base"], obs, reps,
    ...                     Settings(bootstrap=999, family="vs-baseline"), n=500,
    ...                     baselines=["base"])
    >>> [(v.system, v.beats, v.family) for v in ma.vs_baselines]
    [('A', True, 'vs-baseline'), ('B', False, 'vs-baseline')]
    """
    named = [b for b in baselines if b in {s.system for s in ma.scores}]
    out = []
    for s in ma.scores:
        if s.system in named:
            continue
        for base in named:
            c, swapped = ma.pair(s.system, base)
            diff = -c.diff if swapped else c.diff
            out.append(
                BaselineVerdict(
                    s.system,
                    base,
                    diff,
                    c.p_adjusted,
                    c.significant,
                    None if c.significant is None else bool(c.significant and diff > 0),
                    c.settled,
                    family,
                )
            )
    return out


def _verdict_record(rule: VerdictRule, decided: _Decided, dropped: int) -> dict:
    """The stored rule of a metric's verdicts (:meth:`VerdictRule.stored`), with whether
    refinement may settle more, the replicates dropped where the metric is undefined, and the
    undecided verdicts."""
    tested = int(decided.correcting.sum())
    return rule.stored(tested, decided.settlement.resamples) | {
        "may_settle": decided.settlement.may_settle,
        "undefined_replicates": dropped,
        "undecided": int(np.count_nonzero(decided.settled == 0)),
    }


def _at(values: dict[str, np.ndarray], rows: np.ndarray) -> dict[str, np.ndarray]:
    """Each array of ``values`` at ``rows`` (the comparisons with the best among the pairs)."""
    return {k: v[rows] for k, v in values.items()}


def _all_pairs(raw: np.ndarray, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Bonferroni, Holm and BH over all the pairs' raw p-values ``raw``, at the pairs ``rows``, with
    no max-T (NaN): the competitiveness summary's ties with the winner under ``vs-baseline``, whose
    family leaves the winner's comparisons with other participants out."""
    return {k: v[rows] for k, v in multitest.correct(raw).items()} | {
        "maxt": np.full(len(rows), np.nan)
    }


def check_family(comp: Competition, settings: Settings) -> None:
    """Refuse ``--family vs-baseline`` for a competition that names no baseline, or whose systems
    are all baselines (an :class:`InputError` naming the competition and the option), before any
    resampling; any other family passes.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"y": list("abab"), "A": list("abaa"), "B": list("abab")})
    >>> comp = cr.from_frame(df, name="Toy task").competitions[0]
    >>> check_family(comp, Settings(family="all-pairs"))
    >>> check_family(comp, Settings(family="vs-baseline"))
    Traceback (most recent call last):
        ...
    compreport.errors.InputError: competition 'toy-task' names no baseline, and ...
    """
    if settings.family != "vs-baseline":
        return
    given = set(comp.baselines)
    if not given or all(s in given for s in comp.systems):
        what = "names no baseline" if not given else "has no participant besides its baselines"
        raise InputError(
            f"competition {comp.id!r} {what}, and {option('family', 'vs-baseline')} compares each "
            f"participant with each baseline: name its baselines (`baselines` in "
            f"competition.toml, a `baseline` column in the names file) or choose another family"
        )


def _defined_rows(replicates: np.ndarray, defined: np.ndarray) -> tuple[np.ndarray, int]:
    """``replicates`` (B, m) without the rows where a system of ``defined`` (m,) is undefined (NaN),
    and how many rows were dropped."""
    if replicates.shape[0] == 0 or not defined.any():
        return replicates, 0
    ok = np.isfinite(replicates[:, defined]).all(axis=1)
    dropped = int(ok.size - ok.sum())
    return (replicates[ok] if dropped else replicates), dropped


def _competitiveness(
    observed, field: _Field, pr, decided: _Decided, rule: VerdictRule, n, ideal, hib, resamples
) -> dict:
    """The paper's competitiveness summary over the competing systems: ties with the winner from the
    comparisons with the best under each correction over the report's family (as the verdicts),
    ties between competitors corrected over ``rule.ties_family`` among the competing pairs (the
    max-T p-values over the report's family: a superset, so still controlled, and the verdicts of
    those pairs).

    ``resamples`` is (R, per-pair max-T resamples): the resamples behind the raw p-values and
    behind the max-T ones. A count whose correction cannot reach alpha with them (Bonferroni or
    Holm over k comparisons: k/(R + 1) >= alpha) is stored as None, with its reason
    (:func:`compreport.stats.competitiveness.not_computable`).

    Under ``vs-baseline`` the winner's comparisons lie outside the family: its ties are corrected
    over all pairs, with no max-T column."""
    order, competes, ia, pa, pb = field.order, field.competes, field.ia, field.pa, field.pb
    vb = _at(pr, field.vb_pairs)
    vb_corr = (
        _all_pairs(pr["p_value"], field.vb_pairs)
        if rule.family == "vs-baseline"
        else _at(decided.corrected, field.vb_pairs)
    )
    among = competes[pa] & competes[pb]
    p = pr["p_value"][among]
    ties = (
        multitest.correct(p)
        if rule.ties_family == "all-pairs"
        else multitest.correct_within(p, ia[among])
    )
    with_best = dict(vb_corr)
    # max-T p-values exist under the bootstrap test only, and not for competitors under vs-baseline
    if rule.has_maxt and rule.family != "vs-baseline":
        ties["maxt"] = decided.corrected["maxt"][among]
    else:
        with_best.pop("maxt")
    keep = np.flatnonzero(competes)
    position = {int(s): k for k, s in enumerate(keep)}
    families, most = _families(order, competes, pr["p_value"], ia, among, rule, *resamples)
    return competitiveness.competitiveness(
        observed[keep],
        np.array([position[int(i)] for i in order if competes[i]]),
        {"none": vb["p_value"], **with_best},
        {"none": p, **ties},
        rule.alpha,
        n,
        ideal,
        hib,
        families,
        most,
    ) | {"ties_family": rule.ties_family}


def _families(order, competes, raw, ia, among, rule: VerdictRule, R, maxt_resamples):
    """The largest family each tie count's comparisons are corrected over, per correction, and the
    most resamples behind their p-values (the inputs of
    :func:`compreport.stats.competitiveness.not_computable`).

    With the winner: every tested pair (``all-pairs``, ``vs-best``) or the winner's row
    (``per-row``); between competitors: the tested pairs of competitors (``all-pairs``) or their
    largest row. The max-T p-values count their own resamples (refined pair by pair); the raw
    p-values count R, or under max-T the resamples of the step-down's raw p-values."""
    tested = np.isfinite(raw)
    row = int(next(k for k, i in enumerate(order) if competes[i]))  # the winner's row
    winner = int(np.count_nonzero(tested & (ia == row)))
    if rule.family != "per-row":
        winner = int(np.count_nonzero(tested))
    inner = tested[among]
    if rule.ties_family == "per-row":
        rows = np.bincount(ia[among][inner]) if inner.any() else np.zeros(1, dtype=int)
        between = int(rows.max())
    else:
        between = int(np.count_nonzero(inner))
    top_maxt = int(np.max(maxt_resamples[tested])) if tested.any() else 0
    raw_b = top_maxt if rule.stepwise and rule.has_maxt else R
    keys = ("none", "bonferroni", "holm", "bh")
    most = {k: int(raw_b) for k in keys}
    if rule.has_maxt:
        most["maxt"] = top_maxt
    return (
        {
            "ties_with_winner": {k: winner for k in most},
            "ties": {k: between for k in most},
        },
        most,
    )


def bootstrap_note(comp: Competition, settings: Settings) -> str | None:
    """The warning that B is too small for the correction to ever reject, or None.

    Given before the bootstrap, from the number of systems. An estimated p-value is never below
    1/(B + 1), and refinement (``settings.refine``) draws at most
    :data:`~compreport.stats.montecarlo.REFINE_FACTOR` x B resamples (not counted under max-T,
    whose refinement keeps the studentization of the first B). The warning is given when even
    then the correction cannot reject within the family: all pairs (also under ``vs-best``, which
    is corrected over all pairs), the participants x baselines under ``vs-baseline``, or under
    ``per-row`` the best's own row of m - 1 comparisons,
    so that every system ties with the best whatever the data. Smaller rows may still reject: the
    stored ``verdicts["can_reject"]`` and ``verdicts["b_needed"]`` of each metric count the
    smallest family (:func:`~compreport.stats.multitest.smallest_family`).

    Parameters
    ----------
    comp : Competition
        The competition (its id and its number of systems, m).
    settings : Settings
        B, alpha, the correction, the family and refinement.

    Returns
    -------
    str or None
        The warning, ending with the B that would do, as the caller names the option
        (``use -B 1320 or more``; :func:`compreport.errors.option`).
    """
    rule = verdict_rule(settings)
    size = rule.largest_family(comp.m, len(set(comp.baselines) & set(comp.systems)))
    most = settings.bootstrap * (
        montecarlo.REFINE_FACTOR if rule.refine and not rule.stepwise else 1
    )
    if settings.bootstrap and multitest.cannot_reject(
        multitest.smallest_adjusted_p(size, most, rule.correction), rule.alpha
    ):
        need = montecarlo.b_needed(size, rule.alpha, rule.correction, rule.refine)
        refined = f" (refined up to {most})" if most > settings.bootstrap else ""
        which = (
            f"the comparisons with the best under {settings.rule} (its row: {size} comparisons)"
            if rule.family == "per-row"
            else f"{settings.rule} ({size} comparisons tested)"
        )
        ties = (
            "; every system ties with the best whatever the data"
            if rule.family == "per-row"
            else ""
        )
        return (
            f"competition {comp.id!r}: with B = {settings.bootstrap}{refined} the smallest p-value "
            f"is 1/(B+1), so {which} can never reject at alpha = {rule.alpha}{ties}; "
            f"use {option('bootstrap', need)} or more"
        )
    return None


def competitiveness_note(cid: str, ma: MetricAnalysis) -> str | None:
    """The warning that the competitiveness summary of metric ``ma`` (of competition ``cid``)
    prints "–" for tie counts its corrections cannot compute with the resamples drawn (its stored
    ``competitiveness["not_computable"]``), with the B that would do; None when every count is
    computable.

    >>> from types import SimpleNamespace as NS
    >>> why = {"min_p": 0.063, "resamples": 10000, "comparisons": 630, "b_needed": 12600}
    >>> nc = {"ties": {"holm": why}}
    >>> ma = NS(name="accuracy", competitiveness={"not_computable": nc}, verdicts={"alpha": 0.05})
    >>> from compreport.errors import worded  # the options it names, in Python words
    >>> print(worded(competitiveness_note("hate", ma)))  # doctest: +NORMALIZE_WHITESPACE
    competition 'hate': the competitiveness summary of 'accuracy' prints \u2013 for the ties under
    holm: with B = 10,000 the smallest corrected p-value over 630 comparisons is 0.063, not
    below alpha = 0.05, so every comparison would tie whatever the data; use bootstrap=12600 or
    more
    """
    why = (ma.competitiveness or {}).get("not_computable") or {}
    records = {k: r for part in why.values() for k, r in part.items()}
    if not records:
        return None
    worst = max(records.values(), key=lambda r: (r["b_needed"], r["comparisons"]))
    corrections = ", ".join(k for k in vocab.CORRECTIONS if k in records)
    return (
        f"competition {cid!r}: the competitiveness summary of {ma.name!r} prints \u2013 for the "
        f"ties under {corrections}: with B = {worst['resamples']:,} the smallest corrected p-value "
        f"over {worst['comparisons']} comparisons is {worst['min_p']:.4g}, not below "
        f"alpha = {ma.verdicts['alpha']:g}, "
        f"so every comparison would tie whatever the data; use "
        f"{option('bootstrap', worst['b_needed'])} or more"
    )


def small_class_note(comp: Competition, p: Prepared, settings: Settings) -> str | None:
    """The warning that a metric's intervals may be unreliable because of classes with few items.

    Parameters
    ----------
    comp : Competition
        The competition (its gold labels).
    p : Prepared
        The metric; its :attr:`~compreport.stats.metrics.base.Prepared.class_scores` name the
        classes whose per-class scores it is built from.
    settings : Settings
        Only ``settings.bootstrap`` is read: without resamples there is no interval to warn about.

    Returns
    -------
    str or None
        The warning, naming each gold class with fewer than
        :data:`~compreport.stats.classes.SMALL_CLASS` items and its items; None when there is
        none, or when B = 0.
    """
    if not settings.bootstrap:
        return None
    small = small_classes(comp, p.class_scores)
    if not small:
        return None
    fields = len({f for f, _, _ in small}) > 1
    listed = ", ".join(
        f"{f + ' ' if fields else ''}{label!r} ({k} item{'' if k == 1 else 's'})"
        for f, label, k in small
    )
    several = len(small) > 1
    return (
        f"competition {comp.id!r}: metric {p.name!r} is built from per-class scores, and gold "
        f"class{'es' if several else ''} {listed} {'have' if several else 'has'} fewer than "
        f"{SMALL_CLASS} items: per-class scores of so few items are unstable, bootstrap resamples "
        f"hold a varying number of these items, or none, and the metric's intervals can miss on "
        f"one side (see docs/statistics.md)"
    )


#: With fewer items than this (and no ``--cluster-col``) the bootstrap test's verdicts were measured
#: liberal, and a competition under ``--test bootstrap`` gets a note naming the measured size
#: (:func:`small_sample_note`; docs/statistics.md, "Small samples and few clusters").
FEW_ITEMS = 100

#: The family-wise error rates (%, ± one Monte-Carlo SE) behind :data:`FEW_ITEMS`, at nominal 5 %:
#: five equal systems, the defaults (max-T over all pairs, B = 10,000), n = 50 items
#: (``benchmarks/size.py --small``), under the bootstrap test by metric, and under
#: ``--test randomization`` (Holm) the highest of those metrics.
SMALL_SAMPLE_SIZE = MappingProxyType(
    {"accuracy": (7.9, 1.0), "macro-F1 with a 3 % class": (8.5, 1.4)}
)
SMALL_SAMPLE_RANDOMIZATION = (2.2, 0.7)
SMALL_SAMPLE_N = 50


def small_sample_note(comp: Competition, settings: Settings) -> str | None:
    """The warning that the bootstrap test's verdicts are liberal with few items, or None.

    One rule: under ``--test bootstrap``, with at least two systems, B > 0 and fewer than
    :data:`FEW_ITEMS` items (clusters, when there are, are the unit instead:
    :meth:`compreport.inputs.clusters.Clusters.few_note`). The note names the size measured in
    docs/statistics.md (:data:`SMALL_SAMPLE_SIZE`) and the randomization test, which held the level
    there (:data:`SMALL_SAMPLE_RANDOMIZATION`).

    >>> from types import SimpleNamespace as NS
    >>> from compreport.errors import worded  # the options it names, in Python words
    >>> print(worded(small_sample_note(NS(id="tiny", n=50, m=5, clusters=None), Settings())))
    ... # doctest: +NORMALIZE_WHITESPACE
    competition 'tiny': only 50 items; with fewer than 100 the bootstrap test's verdicts are
    liberal: with n = 50 items its family-wise error rate was measured at 7.9 % (accuracy) to
    8.5 % (macro-F1 with a 3 % class) for a nominal 5 % (docs/statistics.md); test='randomization'
    held the level there (at most 2.2 %, conservative) when the systems are exchangeable under the
    null
    >>> small_sample_note(NS(id="big", n=1000, m=5, clusters=None), Settings()) is None
    True
    """
    if (
        settings.test != "bootstrap"
        or not settings.bootstrap
        or comp.m < 2
        or comp.clusters is not None
        or comp.n >= FEW_ITEMS
    ):
        return None
    (low, (lo, _)), *_, (high, (hi, _)) = sorted(SMALL_SAMPLE_SIZE.items(), key=lambda kv: kv[1])
    return (
        f"competition {comp.id!r}: only {comp.n} items; with fewer than {FEW_ITEMS} the bootstrap "
        f"test's verdicts are liberal: with n = {SMALL_SAMPLE_N} items its family-wise error rate "
        f"was measured at {lo:g} % ({low}) to {hi:g} % ({high}) for a "
        f"nominal 5 % (docs/statistics.md); {option('test', 'randomization')} held the level "
        f"there (at most {SMALL_SAMPLE_RANDOMIZATION[0]:g} %, conservative) when the systems are "
        f"exchangeable under the null"
    )


def _stage(what: str, metrics: list[str], most: int = 3) -> str:
    """The name of a progress bar: ``what`` and the metrics it draws (the first ``most``)."""
    shown = ", ".join(metrics[:most]) + (f", +{len(metrics) - most}" if len(metrics) > most else "")
    return f"{what}: {shown}" if metrics else what


def analyze_competition(
    comp: Competition,
    settings: Settings,
    *,
    progress: bool | None = None,
    mode: str | None = None,
    executor: Executor | None = None,
) -> CompetitionAnalysis:
    """Prepare the metrics, run the shared paired bootstrap and analyse every metric.

    Warnings about the inputs and the resampling are given (:func:`compreport.errors.warn`) and
    stored in the result. When some verdict is unsettled and ``settings.refine``, more resamples
    are drawn, doubling up to :data:`~compreport.stats.montecarlo.REFINE_FACTOR` x B.

    Parameters
    ----------
    comp : Competition
        Gold, predictions and metric specs.
    settings : Settings
        B, seed, alpha, interval method, test, correction, family and refinement.
    progress : bool or None
        Show a progress bar on stderr; None (default): only when stderr is a terminal.
    mode : {"items", "patterns", None}
        Force a drawing scheme (:func:`compreport.stats.resampling.run`); None (default) chooses.
    executor : Executor, optional
        What draws the blocks of replicates (:class:`~compreport.workers.LocalPool` of forked
        workers, or a dask :class:`~compreport.distributed.Cluster`); default: this process. The
        numbers do not depend on it.

    Returns
    -------
    CompetitionAnalysis

    Raises
    ------
    InputError
        For ``--family vs-baseline`` without a baseline (:func:`check_family`), a competition
        without metrics, a metric given twice or that cannot score the data,
        ``--test randomization`` with a metric that has no per-item statistics, or arrays that
        would not fit in memory.
    """
    # BLAS on one thread: a threaded matrix product sums in an order that depends on the number of
    # threads (OPENBLAS_NUM_THREADS), which would change the last digit of some statistics; the
    # engine's products are small, and one thread is also faster for them.
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):
        return _analyze_competition(comp, settings, executor=executor, progress=progress, mode=mode)


def _analyze_competition(
    comp: Competition,
    settings: Settings,
    *,
    executor: Executor | None,
    progress: bool | None,
    mode: str | None,
) -> CompetitionAnalysis:
    """Prepare, warn, resample, analyse and refine one competition (:func:`analyze_competition`)."""
    check_family(comp, settings)
    rule = verdict_rule(settings)
    prepared = _prepare_metrics(comp)
    notes = _input_notes(comp, prepared, settings)
    _check_randomization(comp, prepared, rule)
    key = competition_key(comp.stream_key)
    label = f"competition {comp.id!r}: the bootstrap"
    res = bootstrap.run(
        prepared,
        comp.n,
        comp.m,
        settings.bootstrap,
        settings.seed,
        key,
        executor=executor,
        progress=progress,
        mode=mode,
        jackknife=settings.ci_method == "bca",
        randomization=rule.randomization,
        label=label,
        clusters=comp.clusters,
        stage=_stage(f"bootstrap {comp.id}", [p.name for p in prepared]),
    )
    metrics = _analyze_metrics(
        comp,
        prepared,
        settings,
        rule,
        res,
        notes,
        key,
        label,
        executor=executor,
        progress=progress,
        mode=mode,
    )
    notes += _metric_notes(comp, metrics)
    return _competition_analysis(comp, prepared, metrics, notes, res)


def _prepare_metrics(comp: Competition) -> list[Prepared]:
    """Every metric of ``comp`` prepared for the engine; an :class:`InputError` for a competition
    without metrics, a metric that cannot score unjudged items, or a metric given twice."""
    if not comp.metrics:
        raise InputError(
            f"competition {comp.id!r}: no metric given (pass {option('metric', 'NAME')} or add "
            f"[[metrics]])"
        )
    prepared = []
    # items added by --unjudged have no gold value
    unjudged = int((comp.gold == NO_PREDICTION).any(axis=1).sum())
    for spec in comp.metrics:
        metric = spec.metric if spec.metric is not None else get_metric(spec.name, spec.base)
        if unjudged and not isinstance(metric, RankingMetric):
            raise InputError(
                f"competition {comp.id!r}: {unjudged} unjudged items ({option('unjudged')}) have "
                f"no gold value; metric {spec.name!r} needs one for every item (only ranking "
                f"metrics, which read them as not relevant, can score them)"
            )
        prepared.append(metric.prepare(comp, dict(spec.params)))
    names = [p.name for p in prepared]
    for name in names:
        if names.count(name) > 1:
            raise InputError(
                f"competition {comp.id!r}: metric {name!r} is given twice; results name metrics "
                f"by name, so give each metric once"
            )
    return prepared


def _input_notes(comp: Competition, prepared: list[Prepared], settings: Settings) -> list[str]:
    """The notes of the reading and the warnings about the inputs and the resampling, given now
    (:func:`compreport.errors.warn`, :func:`compreport.errors.note`): the report keeps them all,
    the reading's notes first."""
    notes = list(comp.warnings)
    label_fields = sorted({f for p in prepared for f in p.label_fields})
    if label_fields:
        notes += unseen_label_warnings(comp, label_fields)
    for note in (
        bootstrap_note(comp, settings),
        small_sample_note(comp, settings),
        comp.clusters.few_note(comp.id) if comp.clusters else None,
        *(small_class_note(comp, p, settings) for p in prepared),
    ):
        if note:
            notes.append(note)
    if comp.m == 1:
        notes.append(
            f"competition {comp.id!r} has a single system ({comp.systems[0]!r}): "
            f"confidence intervals only, no comparisons"
        )
    for note in notes:
        warn(note)
    for said in comp.notes:  # what the reading decided: a note, kept among the report's notes
        tell(said)
    return [*comp.notes, *notes]


def _check_randomization(comp: Competition, prepared: list[Prepared], rule: VerdictRule) -> None:
    """Refuse (an :class:`InputError`) the randomization test for a metric without per-item
    statistics to swap."""
    if rule.randomization:
        for p in prepared:
            if not p.decomposable:
                raise InputError(
                    f"competition {comp.id!r}: {option('test', 'randomization')} needs metrics "
                    f"with per-item statistics; {p.name!r} has none "
                    f"(use {option('test', 'bootstrap')})"
                )


def _analyze_pass(
    comp, prepared, settings, rule: VerdictRule, res, p_res, resamples: int, states
) -> list[MetricAnalysis]:
    """One pass over every metric: intervals from ``res``, raw p-values from ``p_res``
    (``resamples``), with the pairs' numbers and max-T counts of each kept in ``states`` while
    refining."""
    out = []
    for i, p in enumerate(prepared):
        test_p = (lambda a, b, i=i: p_res.randomization_p(i, a, b)) if rule.randomization else None
        out.append(
            analyze_metric(
                p.name,
                p.params,
                p.higher_is_better,
                p.ideal,
                i == 0,
                comp.systems,
                res.observed[i],
                res.replicates[i],
                settings,
                comp.n,
                res.jackknife[i] if res.jackknife else None,
                test_p,
                comp.baselines,
                p_replicates=None if p_res is res else p_res.replicates[i],
                p_resamples=resamples,
                state=states[i],
                label=p.label,
                rule=rule,
            )
        )
    return out


def _analyze_metrics(
    comp, prepared, settings, rule: VerdictRule, res, notes, key, label, *, executor, progress, mode
) -> list[MetricAnalysis]:
    """Every metric analysed, refined while some verdict is within the Monte-Carlo error of its
    p-values (a note in ``notes`` when more resamples would not fit in memory).

    Refinement draws twice as many resamples, up to REFINE_FACTOR x B: the seeded streams continue,
    so only the new resamples are drawn and the first B are the ones of ``res``. Under max-T the
    new resamples are added to the step-down's counts from the first unsettled pair on; under the
    other corrections every raw p-value is re-estimated from all the resamples."""
    states = [{} for _ in prepared]
    metrics = _analyze_pass(comp, prepared, settings, rule, res, res, settings.bootstrap, states)
    total, cap = settings.bootstrap, montecarlo.REFINE_FACTOR * settings.bootstrap
    p_res = res
    rounds = 0
    while rule.refine and 0 < total < cap and montecarlo.worth_refining(metrics, cap, rule.alpha):
        need = _to_refine(rule, metrics, states)
        if not need:
            break
        rounds += 1
        try:
            more = bootstrap.run(
                [prepared[i] for i in need],
                comp.n,
                comp.m,
                min(2 * total, cap),
                settings.seed,
                key,
                executor=executor,
                progress=progress,
                mode=mode,
                randomization=rule.randomization,
                label=label,
                start=total,
                clusters=comp.clusters,
                stage=_stage(
                    f"refinement round {rounds} {comp.id} (resamples {total + 1:,}-"
                    f"{min(2 * total, cap):,})",
                    [prepared[i].name for i in need],
                ),
            )
            if not rule.stepwise:
                _check_joined_memory(p_res, label)
        except InputError as exc:
            # more resamples would not fit in memory: keep what is settled so far
            note = (
                f"competition {comp.id!r}: p-values not refined beyond {total:,} resamples "
                f"({raw(exc)})"
            )
            warn(note)
            notes.append(note)
            break
        total = min(2 * total, cap)
        p_res, resamples = _take(rule, need, more, res, p_res, states, (total, settings.bootstrap))
        metrics = _analyze_pass(comp, prepared, settings, rule, res, p_res, resamples, states)
    return metrics


def _take(rule: VerdictRule, need, more, res, p_res, states, counts):
    """Where the next analysis reads its raw p-values, and from how many resamples (of
    ``counts``: all drawn so far, B): under max-T the new resamples ``more`` of the metrics
    ``need`` go into their step-downs' counts, from the first unsettled pair on, and the raw
    p-values stay those of the first B (``res``); under the other corrections ``more`` is joined
    to the resamples so far."""
    total, B = counts
    if not rule.stepwise:
        return p_res.joined(more), total
    for j, i in enumerate(need):
        rows, _ = _defined_rows(more.replicates[j], np.isfinite(res.observed[i]))
        states[i]["step"].add(rows, unsettled=states[i]["unsettled"])
    return res, B


def _to_refine(rule: VerdictRule, metrics: list[MetricAnalysis], states) -> list[int]:
    """The metrics to draw more resamples for: under max-T only those with a verdict to settle (the
    same item draws serve any subset of the metrics); the other corrections re-estimate every
    p-value."""
    if not rule.stepwise:
        return list(range(len(metrics)))
    return [
        i for i, ma in enumerate(metrics) if ma.verdicts.get("may_settle") and "step" in states[i]
    ]


def _check_joined_memory(p_res, label: str) -> None:
    """Refuse (an :class:`InputError`) to join more replicates to those of ``p_res`` when twice
    theirs would not fit in memory."""
    check_memory(
        {
            "replicates joined": 2
            * (
                sum(r.nbytes for r in p_res.replicates)
                + (0 if p_res.swaps is None else p_res.swaps.nbytes)
            )
        },
        label,
        f"use a smaller {option('bootstrap')}, or turn {option('refine')} off",
    )


def _metric_notes(comp: Competition, metrics: list[MetricAnalysis]) -> list[str]:
    """The warnings about the analysed metrics, given now: replicates where a metric is undefined,
    systems whose score is undefined, and tie counts the competitiveness summary cannot give."""
    notes = []
    for ma in metrics:
        dropped = int(ma.verdicts.get("undefined_replicates") or 0)
        if dropped:
            notes.append(
                f"competition {comp.id!r}: metric {ma.name!r} is undefined on {dropped:,} "
                f"bootstrap resamples (e.g. a resample without a class it needs); they are left "
                f"out of its intervals and bootstrap p-values"
            )
            warn(notes[-1])
        undefined = [s.system for s in ma.scores if not np.isfinite(s.score)]
        if undefined:
            notes.append(
                f"competition {comp.id!r}: metric {ma.name!r} is undefined for "
                f"{', '.join(map(repr, undefined))} (e.g. constant predictions); left out of the "
                f"comparisons, corrections and groups"
            )
            warn(notes[-1])
    note = competitiveness_note(comp.id, metrics[0])
    if note:
        warn(note)
        notes.append(note)
    return notes


def _competition_analysis(
    comp: Competition, prepared: list[Prepared], metrics: list[MetricAnalysis], notes, res
) -> CompetitionAnalysis:
    """The result: the metrics, the notes, the best system's per-class scores under a
    classification metric, and how the engine drew ``res``."""
    primary = metrics[0]
    by_class = (
        per_class(comp, primary.best, prepared[0].label_fields[0])
        if primary.name in CLASSIFICATION
        and prepared[0].label_fields
        and np.isfinite(primary.score_of(primary.best).score)
        else None
    )
    return CompetitionAnalysis(
        **comp.metadata(),
        n=comp.n,
        systems=comp.systems,
        baselines=comp.baselines,
        metrics=metrics,
        inputs=comp.inputs,
        warnings=notes,
        teams=dict(comp.teams),
        missing=dict(comp.missing),
        classes=by_class,
        clusters=None if comp.clusters is None else comp.clusters.describe(),
        engine={
            "stream": comp.stream_key,
            "resampling": res.mode,
            "patterns": res.patterns,
            "statistics": res.engine,
            "block_replicates": block_rows(comp.n),
        },
    )


def analyze(
    competitions: list[Competition],
    settings: Settings,
    *,
    jobs: int = 1,
    progress: bool | None = None,
    workshop: dict | None = None,
    scheduler: str | None = None,
) -> Analysis:
    """Analyse every competition under one :class:`~compreport.settings.Settings`.

    Parameters
    ----------
    competitions : list of Competition
        In the order the results keep.
    settings : Settings
        The settings every number and verdict is computed under.
    jobs : int
        Worker processes (default 1). With several competitions they analyse the competitions in
        parallel, one competition per worker; with one, they draw its blocks of replicates. The
        numbers do not depend on it.
    progress : bool or None
        Show progress on stderr; None (default): only when stderr is a terminal.
    workshop : dict, optional
        ``name``, ``year`` and ``description`` of the workshop, stored in the result.
    scheduler : str, optional
        Run on a dask.distributed cluster (:mod:`compreport.distributed`): the address of its
        scheduler, or ``"local"`` for a cluster of ``jobs`` worker processes started here. The
        competitions, or a single competition's blocks of replicates, are its tasks; the numbers
        are those of a local run.

    Returns
    -------
    Analysis

    Raises
    ------
    InputError
        Before any work when ``settings.family`` is ``vs-baseline`` and a competition names no
        baseline (:func:`check_family`), when a competition has more pairs of systems than are
        analysed at once
        (:func:`~compreport.stats.memory.check_pairs`) or the replicates of ``settings.bootstrap``
        would not fit in the memory available
        (:func:`~compreport.stats.memory.check_replicates_memory`), and as
        :func:`analyze_competition` raises it.
    """
    for c in competitions:
        check_family(c, settings)
    check_pairs([(c.id, c.m) for c in competitions])
    check_replicates_memory([(c.id, c.m, len(c.metrics)) for c in competitions], settings.bootstrap)
    from compreport import distributed

    # the executor of the run (forked workers or a dask cluster), made once and passed down
    with distributed.connect(scheduler, jobs) as executor:
        if len(competitions) > 1 and (scheduler is not None or jobs > 1):
            # several competitions: one task each (its own random stream, so the numbers are
            # those of a run in one process); warnings come back in order
            done = list(
                _progress(
                    executor.map(
                        _one_competition, competitions, "analysing the competitions", settings
                    ),
                    len(competitions),
                    progress,
                )
            )
        else:
            done = []
            for c in competitions:
                interrupts.check()
                done.append(analyze_competition(c, settings, progress=progress, executor=executor))
    return Analysis(settings, done, workshop=dict(workshop or {}))


def _one_competition(settings: Settings, comp: Competition) -> CompetitionAnalysis:
    """One competition of a workshop, a task of the executor (a forked worker or a dask cluster)."""
    return analyze_competition(comp, settings, progress=False)


def _progress(results, total: int, progress: bool | None):
    """``results`` as they come, counted by the competitions' progress bar on stderr."""
    from compreport.workers import progress_bar, show_progress

    what = "analysing competitions (bootstrap, p-values)"
    bar = progress_bar(what if show_progress(progress) else None, total)
    try:
        for result in results:
            yield result
            if bar is not None:
                bar.update()
    finally:
        if bar is not None:
            bar.close()
        results.close()
