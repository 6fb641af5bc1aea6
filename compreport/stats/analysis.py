"""Run the analysis: the paired bootstrap of every competition, then every number and verdict.

:func:`analyze` runs the paired bootstrap for each competition (:func:`analyze_competition`) and
builds one :class:`~compreport.stats.results.MetricAnalysis` per metric
(:func:`analyze_metric`). Every decision (significant or not, groups, intervals excluding zero,
ties with the best, ranks, best) is taken here, once, under one correction and one family, and
stored in the result objects; renderers read them and decide nothing.
"""

from __future__ import annotations

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

__all__ = [
    "analyze",
    "analyze_competition",
    "analyze_metric",
    "bootstrap_note",
    "small_class_note",
    "small_sample_note",
]


def _comparisons(names, a, b, d, corr, decide, alpha, settled) -> list[Comparison]:
    """Comparison objects of index pairs ``a``, ``b`` with their p-values and stored verdicts."""
    excludes = (
        np.isfinite(d["ci_low"])
        & np.isfinite(d["ci_high"])
        & ((d["ci_low"] > 0) | (d["ci_high"] < 0))
    )
    tested = np.isfinite(decide)
    significant = multitest.rejects(decide, alpha)
    marks = multitest.stars(decide, alpha)
    known = np.isfinite(settled)
    cols = [
        d["diff"],
        d["ci_low"],
        d["ci_high"],
        d["p_value"],
        corr["bonferroni"],
        corr["holm"],
        corr["bh"],
        corr["maxt"],
        decide,
        d["p_se"],
    ]
    rows = zip(
        *(c.tolist() for c in cols),
        excludes.tolist(),
        tested.tolist(),
        significant.tolist(),
        known.tolist(),
        (settled == 1).tolist(),
        marks.tolist(),
    )
    return [
        Comparison(
            names[a[i]],
            names[b[i]],
            diff,
            lo,
            hi,
            p,
            bonf,
            holm,
            bh,
            p_maxt=mt,
            excludes_zero=ex,
            p_adjusted=dec,
            # an unsettled verdict is undecided: neither significant nor tied (issue 36 item 1)
            significant=(sig if st or not k else None) if is_tested else None,
            p_se=se,
            settled=(st if k else None) if is_tested else None,
            mark=mk if st or not k else "",
        )
        for i, (
            diff,
            lo,
            hi,
            p,
            bonf,
            holm,
            bh,
            mt,
            dec,
            se,
            ex,
            is_tested,
            sig,
            k,
            st,
            mk,
        ) in enumerate(rows)
    ]


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
) -> MetricAnalysis:
    """Scores, comparisons, verdicts, groups and competitiveness of one metric.

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
    m, alpha, ci = len(systems), settings.alpha, settings.ci_method
    order, rank = ranking.order_systems(observed, higher_is_better)
    defined = np.isfinite(observed)
    # A replicate where a system with a defined score is undefined (a resample with no positive
    # item under roc_auc, say) is dropped for the whole metric, and counted: intervals, bootstrap
    # p-values and the max-T step-down are all over the same defined replicates (randomization
    # p-values count their rounds, R, whatever the bootstrap replicates).
    replicates, undefined_reps = _defined_rows(replicates, defined)
    R = settings.bootstrap if p_resamples is None else p_resamples
    if p_replicates is not None:
        p_replicates, undefined_reps = _defined_rows(p_replicates, defined)
    if test_p is None:
        R -= undefined_reps
    lo, hi = intervals.interval(replicates, observed, ci, alpha, jack)
    B = replicates.shape[0]
    mean = replicates.mean(axis=0) if B else np.full(m, np.nan)
    se = replicates.std(axis=0, ddof=1) if B > 1 else np.full(m, np.nan)
    competes = np.ones(m, dtype=bool)
    if not settings.include_baselines:
        competes[[i for i, s in enumerate(systems) if s in set(baselines)]] = False
    if not competes.any():  # only baselines: they compete with one another
        competes[:] = True
    best = int(next(i for i in order if competes[i]))
    others = np.array([i for i in order if i != best and competes[i]], dtype=int)
    firsts = np.full(len(others), best)
    test = settings.test
    ia, ib = np.triu_indices(m, k=1)  # every pair (a above b) in rank order
    pa, pb = order[ia], order[ib]
    pair_of = {(int(a), int(b)): k for k, (a, b) in enumerate(zip(pa, pb))}
    # the comparisons with the best, where the best is a (it ranks above the others)
    vb_pairs = np.array([pair_of[best, int(o)] for o in others], dtype=int)
    with_best = np.zeros(len(ia), dtype=bool)
    with_best[vb_pairs] = True
    state = {} if state is None else state
    if "pairs" not in state:
        state["pairs"] = significance.differences(
            observed, replicates, pa, pb, higher_is_better, alpha, ci, jack, test=test
        )
    pr = {k: v.copy() for k, v in state["pairs"].items()}
    if test_p is not None:
        pr["p_value"] = test_p(pa, pb)
    elif p_replicates is not None:
        pr["p_value"] = significance.p_values(
            observed, p_replicates, pa, pb, higher_is_better, test=test
        )
    # A system whose score is undefined (a constant prediction under Pearson, say) is not
    # compared: its comparisons are untested (NaN), outside every family, and it has no group.
    pr["p_value"][~(defined[pa] & defined[pb])] = np.nan
    tested_pairs = np.isfinite(pr["p_value"])
    # vs-baseline: the family is each participant against each baseline (all pairs otherwise)
    against = against_baseline(systems, baselines, pa, pb, settings.family)
    if test == "bootstrap":  # the max-T step-down over the family, from the joint replicates
        if "step" not in state:
            families = np.where(
                tested_pairs & against, ia if settings.family == "per-row" else 0, -1
            )
            state["step"] = maxt.StepDown(observed, replicates, pa, pb, families, higher_is_better)
        p_maxt, maxt_resamples = state["step"].adjusted(), state["step"].resamples
        if settings.correction == "maxt":
            # raw p-values over the same replicates as the verdicts' (refined)
            pr["p_value"] = np.where(tested_pairs & against, state["step"].raw(), pr["p_value"])
    else:
        p_maxt, maxt_resamples = np.full(len(ia), np.nan), np.zeros(len(ia), dtype=np.int64)

    def corrected(raw: np.ndarray) -> dict[str, np.ndarray]:
        """Every correction of the pairs' raw p-values ``raw`` over ``settings.family``
        (``vs-best``: over all pairs, since the best is chosen on the same data), with the max-T
        p-values."""
        out = (
            multitest.correct_within(raw, ia)
            if settings.family == "per-row"
            else multitest.correct(np.where(against, raw, np.nan))
        )
        return out | {"maxt": p_maxt}

    def deciding(raw: np.ndarray, corr: dict | None = None) -> np.ndarray:
        """The one rule behind every verdict: settings.correction over settings.family."""
        d = raw if settings.correction == "none" else (corr or corrected(raw))[settings.correction]
        return np.where(with_best if settings.family == "vs-best" else against, d, np.nan)

    pr_corr = corrected(pr["p_value"])
    vb_corr = {k: v[vb_pairs] for k, v in pr_corr.items()}
    decide = deciding(pr["p_value"], pr_corr)
    in_family = np.isfinite(decide)  # the pairs the rule tests
    # whether each verdict survives the Monte-Carlo error of every p-value of the family
    cap = montecarlo.REFINE_FACTOR * settings.bootstrap
    # The classification runs over the family the correction runs over (under vs-best: every
    # tested pair, since the best's comparisons are corrected over all of them), read on the pairs
    # it decides.
    correcting = tested_pairs if settings.family == "vs-best" else in_family
    # the risk is divided among the looks refinement may take; without it there is one
    looks = montecarlo.LOOKS if settings.refine else 1
    if settings.correction == "maxt":  # an adjusted p-value is itself one exceedance proportion
        # (over statistics studentized by the same resamples: its error is from batch means)
        p_maxt_se = state["step"].standard_error()
        every = montecarlo.settled(
            np.where(correcting, p_maxt, np.nan),
            np.maximum(maxt_resamples, 1),
            _same,
            alpha,
            se=state["step"].standard_error(binomial=False),
            df=max(state["step"].blocks - 1, 0),
            looks=looks,
        )
        verdict_resamples = int(maxt_resamples.max()) if in_family.any() else R
        may_settle = bool(settings.refine and 0 < verdict_resamples < cap and (every == 0).any())
    else:

        def unmasked(raw: np.ndarray) -> np.ndarray:
            """The correction over the family it runs over, not masked to the pairs it decides."""
            return raw if settings.correction == "none" else corrected(raw)[settings.correction]

        family_p = np.where(correcting, pr["p_value"], np.nan)
        every = montecarlo.settled(family_p, R, unmasked, alpha, looks=looks)
        verdict_resamples = R
        may_settle = bool(
            settings.refine
            and 0 < R < cap
            and montecarlo.may_settle(family_p, R, cap, unmasked, alpha, every)
        )
    # No verdict can change when even cap resamples leave every corrected p-value above alpha
    # (a tiny alpha): refining would only draw up to the cap for nothing.
    if may_settle and not montecarlo.could_reject(
        settings.family, int(np.count_nonzero(correcting)), cap, settings.correction, alpha
    ):
        may_settle = False
    state["unsettled"] = every == 0  # what refinement must re-estimate, decided pairs or not
    settled = np.where(in_family, every, np.nan)
    # the Monte-Carlo error of the p-value that decides: the adjusted one under max-T
    pr["p_se"] = (
        np.where(tested_pairs, p_maxt_se, np.nan)
        if settings.correction == "maxt"
        else montecarlo.standard_error(pr["p_value"], R)
    )
    # the comparisons with the best, as stored among the pairs
    vb = {k: v[vb_pairs] for k, v in pr.items()}
    different = np.zeros((m, m), dtype=bool)
    # groups from the settled verdicts only: an undecided pair separates no groups
    different[pa, pb] = different[pb, pa] = multitest.rejects(
        np.nan_to_num(decide, nan=1.0), alpha
    ) & (settled != 0)
    # a group letter says what the tests found: a system none of whose pairs is tested (a baseline
    # under vs-best, every system with B = 0, an undefined score) gets none rather than every
    # other's letter
    tested = np.zeros(m, dtype=bool)
    tested[pa[in_family]] = tested[pb[in_family]] = True
    ranked = order[(defined & tested)[order]]
    sub = letters.letters(list(range(len(ranked))), different[np.ix_(ranked, ranked)])
    group = {int(s): "" for s in range(m)} | {int(s): sub[k] for k, s in enumerate(ranked)}
    vs_best_p = np.full(m, np.nan)
    vs_best_p[others] = decide[vb_pairs]
    vs_best_settled = np.full(m, np.nan)
    vs_best_settled[others] = settled[vb_pairs]
    top = observed[best]
    is_best = competes & (observed == top) if np.isfinite(top) else np.zeros(m, dtype=bool)
    is_best[best] = True
    # simultaneous rank sets (Mogstad et al.), once, from the first B replicates (not refined)
    if "ranks" not in state:
        state["ranks"] = ranksets.rank_sets(observed, replicates, higher_is_better, alpha)
    rank_low, rank_high, rank_better = state["ranks"]
    scores = [
        Score(
            systems[i],
            float(observed[i]),
            float(mean[i]),
            float(se[i]),
            float(lo[i]),
            float(hi[i]),
            int(rank[i]),
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
        for i in order
    ]
    comp = _competitiveness(
        observed,
        order,
        competes,
        vb,
        _all_pairs(pr["p_value"], vb_pairs) if settings.family == "vs-baseline" else vb_corr,
        pr,
        pr_corr,
        ia,
        pa,
        pb,
        settings,
        n,
        ideal,
        higher_is_better,
        resamples=(R, maxt_resamples),
    )
    ma = MetricAnalysis(
        name=name,
        params=params,
        higher_is_better=higher_is_better,
        ideal=ideal,
        primary=primary,
        best=systems[best],
        scores=scores,
        vs_best=_comparisons(
            systems, firsts, others, vb, vb_corr, decide[vb_pairs], alpha, settled[vb_pairs]
        ),
        pairs=_comparisons(systems, pa, pb, pr, pr_corr, decide, alpha, settled),
        competitiveness=comp,
        verdicts=_rule(
            settings,
            int((tested_pairs if settings.family == "vs-best" else in_family).sum()),
            verdict_resamples,
        )
        | {
            "may_settle": may_settle,
            "undefined_replicates": undefined_reps,
            "undecided": int(np.count_nonzero(settled == 0)),
        },
        replicates=replicates,
        systems=list(systems),
        rank_better=rank_better,
        label=label,
    )
    ma.vs_baselines = baseline_verdicts(ma, baselines, settings.family)
    return ma


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


def _all_pairs(raw: np.ndarray, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Bonferroni, Holm and BH over all the pairs' raw p-values ``raw``, at the pairs ``rows``, with
    no max-T (NaN): the competitiveness summary's ties with the winner under ``vs-baseline``, whose
    family leaves the winner's comparisons with other participants out."""
    return {k: v[rows] for k, v in multitest.correct(raw).items()} | {
        "maxt": np.full(len(rows), np.nan)
    }


def against_baseline(
    systems: list[str], baselines, a: np.ndarray, b: np.ndarray, family: str
) -> np.ndarray:
    """Which pairs ``a``, ``b`` (index arrays into ``systems``) the family may test: under
    ``vs-baseline`` those of a participant and a baseline, under any other family every pair.

    >>> import numpy as np
    >>> against_baseline(["A", "B", "base"], ["base"], np.array([0, 0, 1]), np.array([1, 2, 2]),
    ...                  "vs-baseline").tolist()
    [False, True, True]
    """
    if family != "vs-baseline":
        return np.ones(len(a), dtype=bool)
    base = np.isin(np.asarray(systems, dtype=object), list(baselines))
    return base[a] != base[b]


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


def _same(p: np.ndarray) -> np.ndarray:
    """The p-values themselves: max-T adjusted p-values decide as they are."""
    return p


def _defined_rows(replicates: np.ndarray, defined: np.ndarray) -> tuple[np.ndarray, int]:
    """``replicates`` (B, m) without the rows where a system of ``defined`` (m,) is undefined (NaN),
    and how many rows were dropped."""
    if replicates.shape[0] == 0 or not defined.any():
        return replicates, 0
    ok = np.isfinite(replicates[:, defined]).all(axis=1)
    dropped = int(ok.size - ok.sum())
    return (replicates[ok] if dropped else replicates), dropped


def _rule(settings: Settings, tested: int, resamples: int) -> dict:
    """The stored rule behind a metric's verdicts (:attr:`MetricAnalysis.verdicts`), with the
    ``tested`` comparisons of its family and the ``resamples`` behind every p-value."""
    min_p = multitest.smallest_corrected_p(settings.family, tested, resamples, settings.correction)
    can_reject = None if min_p != min_p else bool(multitest.rejects(min_p, settings.alpha))
    return {
        "alpha": settings.alpha,
        "correction": settings.correction,
        "family": settings.family,
        "tested": tested,
        "resamples": resamples,
        "min_p": min_p,
        "marks": [list(m) for m in vocab.marks_at(settings.alpha)],
        "can_reject": can_reject,
        "b_needed": montecarlo.b_needed(
            multitest.smallest_family(settings.family, tested),
            settings.alpha,
            settings.correction,
            settings.refine,
        )
        if can_reject is False
        else None,
    }


def _competitiveness(
    observed,
    order,
    competes,
    vb,
    vb_corr,
    pr,
    pr_corr,
    ia,
    pa,
    pb,
    settings: Settings,
    n,
    ideal,
    higher_is_better,
    resamples=None,
) -> dict:
    """The paper's competitiveness summary over the competing systems: ties with the winner from the
    comparisons with the best under each correction over the report's family (as the verdicts),
    ties between competitors corrected over ``settings.ties_family`` among the competing pairs (the
    max-T p-values over the report's family: a superset, so still controlled, and the verdicts of
    those pairs).

    ``resamples`` is (R, per-pair max-T resamples): the resamples behind the raw p-values and
    behind the max-T ones. A count whose correction cannot reach alpha with them (Bonferroni or
    Holm over k comparisons: k/(R + 1) >= alpha) is stored as None, with its reason
    (:func:`compreport.stats.competitiveness.not_computable`).

    Under ``vs-baseline`` the winner's comparisons lie outside the family: its ties are corrected
    over all pairs, with no max-T column."""
    among = competes[pa] & competes[pb]
    p = pr["p_value"][among]
    ties = (
        multitest.correct(p)
        if settings.ties_family == "all-pairs"
        else multitest.correct_within(p, ia[among])
    )
    with_best = dict(vb_corr)
    # max-T p-values exist under the bootstrap test only, and not for competitors under vs-baseline
    if settings.test == "bootstrap" and settings.family != "vs-baseline":
        ties["maxt"] = pr_corr["maxt"][among]
    else:
        with_best.pop("maxt")
    keep = np.flatnonzero(competes)
    position = {int(s): k for k, s in enumerate(keep)}
    families, most = None, None
    if resamples is not None:
        families, most = _families(order, competes, pr["p_value"], ia, among, settings, *resamples)
    return competitiveness.competitiveness(
        observed[keep],
        np.array([position[int(i)] for i in order if competes[i]]),
        {"none": vb["p_value"], **with_best},
        {"none": p, **ties},
        settings.alpha,
        n,
        ideal,
        higher_is_better,
        families,
        most,
    ) | {"ties_family": settings.ties_family}


def _families(order, competes, raw, ia, among, settings: Settings, R, maxt_resamples):
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
    if settings.family != "per-row":
        winner = int(np.count_nonzero(tested))
    inner = tested[among]
    if settings.ties_family == "per-row":
        rows = np.bincount(ia[among][inner]) if inner.any() else np.zeros(1, dtype=int)
        between = int(rows.max())
    else:
        between = int(np.count_nonzero(inner))
    top_maxt = int(np.max(maxt_resamples[tested])) if tested.any() else 0
    raw_b = top_maxt if settings.correction == "maxt" and settings.test == "bootstrap" else R
    keys = ("none", "bonferroni", "holm", "bh")
    most = {k: int(raw_b) for k in keys}
    if settings.test == "bootstrap":
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
    size = comp.m - 1 if settings.family == "per-row" else comp.m * (comp.m - 1) // 2
    if settings.family == "vs-baseline":  # each participant against each baseline
        given = len(set(comp.baselines) & set(comp.systems))
        size = (comp.m - given) * given
    most = settings.bootstrap * (
        montecarlo.REFINE_FACTOR if settings.refine and settings.correction != "maxt" else 1
    )
    if settings.bootstrap and multitest.cannot_reject(
        multitest.smallest_adjusted_p(size, most, settings.correction), settings.alpha
    ):
        need = montecarlo.b_needed(size, settings.alpha, settings.correction, settings.refine)
        refined = f" (refined up to {most})" if most > settings.bootstrap else ""
        which = (
            f"the comparisons with the best under {settings.rule} (its row: {size} comparisons)"
            if settings.family == "per-row"
            else f"{settings.rule} ({size} comparisons tested)"
        )
        ties = (
            "; every system ties with the best whatever the data"
            if settings.family == "per-row"
            else ""
        )
        return (
            f"competition {comp.id!r}: with B = {settings.bootstrap}{refined} the smallest p-value "
            f"is 1/(B+1), so {which} can never reject at alpha = {settings.alpha}{ties}; "
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
        f"alpha = {ma.verdicts.get('alpha', 0.05):g}, "
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
SMALL_SAMPLE_SIZE = {"accuracy": (7.9, 1.0), "macro-F1 with a 3 % class": (8.5, 1.4)}
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
    jobs: int = 1,
    progress: bool | None = None,
    mode: str | None = None,
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
    jobs : int
        Worker processes drawing the blocks of replicates (default 1); the numbers do not depend
        on it.
    progress : bool or None
        Show a progress bar on stderr; None (default): only when stderr is a terminal.
    mode : {"items", "patterns", None}
        Force a drawing scheme (:func:`compreport.stats.resampling.run`); None (default) chooses.

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
        return _analyze_competition(comp, settings, jobs=jobs, progress=progress, mode=mode)


def _analyze_competition(
    comp: Competition, settings: Settings, *, jobs: int, progress: bool | None, mode: str | None
) -> CompetitionAnalysis:
    check_family(comp, settings)
    if not comp.metrics:
        raise InputError(
            f"competition {comp.id!r}: no metric given (pass {option('metric', 'NAME')} or add "
            f"[[metrics]])"
        )
    prepared, label_fields = [], set()
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
        p = metric.prepare(comp, dict(spec.params))
        prepared.append(p)
        label_fields.update(p.label_fields)
    notes = list(comp.warnings)
    if label_fields:
        notes += unseen_label_warnings(comp, sorted(label_fields))
    names = [p.name for p in prepared]
    for name in names:
        if names.count(name) > 1:
            raise InputError(
                f"competition {comp.id!r}: metric {name!r} is given twice; results name metrics "
                f"by name, so give each metric once"
            )
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
    notes = [*comp.notes, *notes]
    randomization = settings.test == "randomization"
    if randomization:
        for p in prepared:
            if not p.decomposable:
                raise InputError(
                    f"competition {comp.id!r}: {option('test', 'randomization')} needs metrics "
                    f"with per-item statistics; {p.name!r} has none "
                    f"(use {option('test', 'bootstrap')})"
                )
    key = competition_key(comp.stream_key)
    label = f"competition {comp.id!r}: the bootstrap"
    res = bootstrap.run(
        prepared,
        comp.n,
        comp.m,
        settings.bootstrap,
        settings.seed,
        key,
        jobs=jobs,
        progress=progress,
        mode=mode,
        jackknife=settings.ci_method == "bca",
        randomization=randomization,
        label=label,
        clusters=comp.clusters,
        stage=_stage(f"bootstrap {comp.id}", [p.name for p in prepared]),
    )

    # per metric: the pairs' numbers and max-T counts, kept while refining
    states = [{} for _ in prepared]

    def analyze_all(p_res, resamples: int) -> list[MetricAnalysis]:
        """Every metric: intervals from ``res``, raw p-values from ``p_res`` (``resamples``)."""
        out = []
        for i, p in enumerate(prepared):
            test_p = (lambda a, b, i=i: p_res.randomization_p(i, a, b)) if randomization else None
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
                )
            )
        return out

    metrics = analyze_all(res, settings.bootstrap)
    # Refinement: while some verdict is within the Monte-Carlo error of its p-values, draw twice as
    # many resamples, up to REFINE_FACTOR x B: the seeded streams continue, so only the new
    # resamples are drawn and the first B are the ones above. Under max-T the new resamples are
    # added to the step-down's counts from the first unsettled pair on; under the other corrections
    # every raw p-value is re-estimated from all the resamples.
    total, cap = settings.bootstrap, montecarlo.REFINE_FACTOR * settings.bootstrap
    p_res = res
    stepwise = settings.correction == "maxt"
    rounds = 0
    while (
        settings.refine
        and 0 < total < cap
        and montecarlo.worth_refining(metrics, cap, settings.alpha)
    ):
        # under max-T only the metrics with a verdict to settle are drawn (the same item draws serve
        # any subset of the metrics); the other corrections re-estimate every p-value
        need = (
            [
                i
                for i, ma in enumerate(metrics)
                if ma.verdicts.get("may_settle") and "step" in states[i]
            ]
            if stepwise
            else list(range(len(prepared)))
        )
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
                jobs=jobs,
                progress=progress,
                mode=mode,
                randomization=randomization,
                label=label,
                start=total,
                clusters=comp.clusters,
                stage=_stage(
                    f"refinement round {rounds} {comp.id} (resamples {total + 1:,}-"
                    f"{min(2 * total, cap):,})",
                    [prepared[i].name for i in need],
                ),
            )
            if not stepwise:
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
        if stepwise:
            for j, i in enumerate(need):
                rows, _ = _defined_rows(more.replicates[j], np.isfinite(res.observed[i]))
                states[i]["step"].add(rows, unsettled=states[i]["unsettled"])
            metrics = analyze_all(res, settings.bootstrap)
        else:
            p_res = p_res.joined(more)
            metrics = analyze_all(p_res, total)
    for ma in metrics:
        dropped = int(ma.verdicts.get("undefined_replicates") or 0)
        if dropped:
            note = (
                f"competition {comp.id!r}: metric {ma.name!r} is undefined on {dropped:,} "
                f"bootstrap resamples (e.g. a resample without a class it needs); they are left "
                f"out of its intervals and bootstrap p-values"
            )
            warn(note)
            notes.append(note)
        undefined = [s.system for s in ma.scores if not np.isfinite(s.score)]
        if undefined:
            note = (
                f"competition {comp.id!r}: metric {ma.name!r} is undefined for "
                f"{', '.join(map(repr, undefined))} (e.g. constant predictions); left out of the "
                f"comparisons, corrections and groups"
            )
            warn(note)
            notes.append(note)
    note = competitiveness_note(comp.id, metrics[0])
    if note:
        warn(note)
        notes.append(note)
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

    with distributed.connect(scheduler, jobs) as client:
        if client is not None and len(competitions) > 1:
            # several competitions: one task each on the cluster (its own random stream, so the
            # numbers are those of a run in one process); warnings come back in order
            done = list(
                _progress(
                    distributed.cluster_map(
                        _one_competition, competitions, "analysing the competitions", settings
                    ),
                    len(competitions),
                    progress,
                )
            )
        elif jobs > 1 and len(competitions) > 1 and client is None:
            # several competitions: each analysed by one of `jobs` worker processes (its own random
            # stream, so the numbers are those of a run in one process); warnings come back in order
            import functools

            from compreport.workers import run_tasks, show_progress

            one = functools.partial(analyze_competition, jobs=1, progress=False)
            done = run_tasks(
                [(one, (c, settings)) for c in competitions],
                jobs,
                "analysing competitions (bootstrap, p-values)" if show_progress(progress) else None,
                what="analysing the competitions",
            )
        else:
            done = []
            for c in competitions:
                interrupts.check()
                done.append(analyze_competition(c, settings, jobs=jobs, progress=progress))
    return Analysis(settings, done, workshop=dict(workshop or {}))


def _one_competition(settings: Settings, comp: Competition) -> CompetitionAnalysis:
    """One competition of a workshop analysed by a task of a dask cluster."""
    return analyze_competition(comp, settings, jobs=1, progress=False)


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
