"""The words of a report: the methods paragraph, the method and verdict sentences, titles.

Text is returned as segments — plain strings and :class:`Cite` markers — so each renderer
escapes it for its format and renders citations its own way (LaTeX ``\\citep{key}``, HTML
"(Author, year)"). Every sentence that states a verdict names the rule behind it
(:attr:`compreport.settings.Settings.rule`); the verdicts themselves are the stored ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from compreport.language import N_, count, decimal, tr
from compreport.language import vocabulary as vocab
from compreport.report.metricnames import MEASURE_REFERENCES, metric_label
from compreport.settings import Settings
from compreport.stats import montecarlo
from compreport.stats.results import (
    Analysis,
    BaselineVerdict,
    CompetitionAnalysis,
    MetricAnalysis,
    Score,
)


@dataclass(frozen=True)
class Cite:
    """A citation of the work with BibTeX ``key`` (:data:`compreport.report.references.REFERENCES`),
    and of the works ``also`` in the same parentheses (``(Westfall and Young, 1993; Romano and Wolf,
    2005)``, ``\\citep{westfall1993,romano2005}``)."""

    key: str
    also: tuple[str, ...] = ()

    @property
    def keys(self) -> tuple[str, ...]:
        """Every key cited, in order."""
        return (self.key, *self.also)


def level(settings: Settings) -> str:
    """The confidence level as a percentage, in the report's language.

    Examples
    --------
    >>> from compreport.settings import Settings
    >>> level(Settings(alpha=0.05)), level(Settings(alpha=0.001))
    ('95%', '99.9%')
    """
    return tr("{percent}%", percent=decimal(100 * settings.level))


def title(analysis: Analysis) -> str:
    """Title of the overview and the appendix: the workshop's name when the input names one."""
    name = (analysis.workshop or {}).get("name")
    return (
        tr("{workshop}: statistical analysis of the results", workshop=name)
        if name
        else tr("Statistical analysis of the competition results")
    )


def direction(ma: MetricAnalysis) -> str:
    """``"higher is better"`` or ``"lower is better"`` for the metric."""
    return tr("higher is better") if ma.higher_is_better else tr("lower is better")


def _verdict_rule(settings: Settings) -> list[str | Cite]:
    """The rule of every verdict (``Holm correction over all pairs of systems``) followed by the
    citation of its correction, if it has one."""
    corr = vocab.CORRECTIONS[settings.correction]
    return [settings.rule, *([" ", Cite(corr.cite)] if corr.cite else [])]


def ties_family(settings: Settings) -> str:
    """The family of the competitiveness summary's ties between competitors, in words
    (``all pairs of competitors``: the paper counts ties among the competing systems only)."""
    return tr(vocab.TIES_FAMILIES[settings.ties_family])


def counts_as_the_paper(settings: Settings) -> bool:
    """Whether the tie counts and m of the competitiveness summary follow the paper's definitions
    (Tables 7-11): its one-sided test, each row of the matrix corrected on its own, baselines
    counted among the competitors, and every p-value from the B resamples
    (:data:`compreport.settings.PAPER` but the correction, which the counts do not depend on).

    >>> from compreport.settings import Settings, make_settings
    >>> counts_as_the_paper(Settings()), counts_as_the_paper(make_settings({"paper": True}))
    (False, True)
    """
    from compreport.settings import PAPER

    return all(getattr(settings, k) == v for k, v in PAPER.items() if k != "correction")


def ties_settings(settings: Settings) -> str:
    """The sentence saying which settings produced the competitiveness summary's tie counts (the
    methods paragraph, the LaTeX summary's caption, the overview's note): the paper's (set by its
    switch, or given one by one) or this report's, which give other counts."""
    if counts_as_the_paper(settings):
        return tr(
            "The tie counts and m follow the paper's settings{switch}: one-sided p-values, each "
            "row of the matrix corrected on its own, baselines counted among the competitors, "
            "every p-value from the B resamples.",
            switch=tr(" (its switch)") if settings.paper else "",
        )
    return tr(
        "Counts and m follow this report's settings; the paper's (one-sided, per row, baselines "
        "counted) give others."
    )


def ppi_note(summary, ids, esc=str, number=decimal) -> str | None:
    """The note on the columns ``ids`` of the competitiveness ``summary`` table whose PPI is in
    their metric's units, not a percentage (:data:`~compreport.language.vocabulary.PPI_IN_UNITS`).

    Names go through ``esc`` (the renderer's escaping) and the ideal value through ``number``
    (LaTeX: its decimal marker); None when every PPI there is a percentage.
    """
    units = [cid for cid in ids if summary.extra["ppi_unit"][cid] == "metric"]
    if not units:
        return None
    names = ", ".join(
        tr(
            "{name} ({metric}, ideal {ideal})",
            name=esc(summary.columns[cid]),
            metric=esc(metric_label(summary.extra["headings"][cid][3])),
            ideal=number(summary.extra["ideal"][cid]),
        )
        for cid in units
    )
    return tr(vocab.PPI_IN_UNITS, names=names)


def not_computable_note(summary, ids) -> str | None:
    """The footnote of the competitiveness columns ``ids`` of ``summary`` (the
    :func:`~compreport.report.model.summary` table) where a tie count prints "–" because its
    correction cannot reach alpha with the resamples drawn (the stored
    ``competitiveness["not_computable"]``,
    :func:`compreport.stats.competitiveness.not_computable`); None when every count is computable.

    Plain text (each renderer escapes all of it); each competition gets its corrections, the
    smallest corrected p-value they can reach with the resamples drawn and the B that would do.
    """
    items = []
    for cid in ids:
        why = summary.extra.get("not_computable", {}).get(cid) or {}
        records = {k: r for part in why.values() for k, r in part.items()}
        if not records:
            continue
        worst = max(records.values(), key=lambda r: r["b_needed"])
        items.append(
            tr(
                "{name}: {corrections} (smallest corrected p {p} with B = {b}; B = {need} or more "
                "would do)",
                name=summary.columns[cid],
                corrections=", ".join(
                    vocab.CORRECTIONS[k].label for k in vocab.CORRECTIONS if k in records
                ),
                p=decimal(round(worst["min_p"], 4)),
                b=count(worst["resamples"]),
                need=count(worst["b_needed"]),
            )
        )
    if not items:
        return None
    return tr(
        "– marks a tie count that cannot be computed with these resamples: no p-value estimated "
        "from B resamples is below 1/(B + 1), so Bonferroni or Holm over k comparisons cannot give "
        "one below k/(B + 1), and where that is not below α every comparison would tie whatever "
        "the data. {items}.",
        items="; ".join(items),
    )


def _groups(settings: Settings) -> list[str | Cite]:
    """The end of a sentence whose verdicts use the rule: the significance groups too, with their
    citation."""
    return [
        tr(", and so do the significance groups, a compact letter display "),
        Cite("piepho2004"),
        tr(
            ": systems sharing a letter are not significantly different at α = {alpha}. ",
            alpha=decimal(settings.alpha),
        ),
    ]


def unit(comp: CompetitionAnalysis) -> str:
    """What a resample of ``comp`` draws, for captions and facts: ``""`` for its items, else
    ``"40 clusters given by column “question”"`` (the cluster bootstrap)."""
    c = comp.clusters
    return (
        tr(
            "{clusters} clusters given by column “{column}”",
            clusters=count(c["clusters"]),
            column=c["column"],
        )
        if c
        else ""
    )


#: What the resamples draw: the test items, their clusters (every competition resampled by
#: cluster), or either (some are): keys of :func:`grouping`.
DRAWN = MappingProxyType(
    {
        "items": N_("of the test items"),
        "clusters": N_("of the clusters of test items"),
        "mixed": N_("of the test items or, where they form clusters, of the clusters"),
    }
)

#: What a randomization round swaps, by :func:`grouping` (the one place that says it).
SWAPPED = MappingProxyType(
    {
        "items": N_("swapping each item's two predictions with probability 1/2 "),
        "clusters": N_(
            "swapping the two predictions of all the items of each cluster together, with "
            "probability 1/2 "
        ),
        "mixed": N_(
            "swapping with probability 1/2 the two predictions of each item or, where items form "
            "clusters, those of all the items of each cluster together "
        ),
    }
)

#: The end of the cluster-bootstrap sentence, by (test, BCa intervals): what resamples clusters
#: (not the randomization test's p-values: :data:`SWAPPED` says what its rounds swap) and what the
#: jackknife leaves out.
CLUSTERED = MappingProxyType(
    {
        ("bootstrap", False): N_(": intervals, differences and p-values all resample clusters. "),
        ("bootstrap", True): N_(
            ": intervals, differences and p-values all resample clusters, and the "
            "jackknife of BCa leaves out one cluster at a time. "
        ),
        ("randomization", False): N_(": intervals and differences resample clusters. "),
        ("randomization", True): N_(
            ": intervals and differences resample clusters, and the jackknife of BCa "
            "leaves out one cluster at a time. "
        ),
    }
)


def grouping(comps) -> str:
    """``items`` when no competition of ``comps`` is resampled by cluster (also for none),
    ``clusters`` when every one is, ``mixed`` otherwise (the stored ``comp.clusters``)."""
    grouped = [bool(c.clusters) for c in comps]
    return "clusters" if grouped and all(grouped) else "mixed" if any(grouped) else "items"


def no_resampling() -> str:
    """The one sentence of the methods under B = 0 (``settings.bootstrap``), in place of those on
    intervals, tests and verdicts."""
    return tr(
        "No resamples were drawn (B = 0), so there are no confidence intervals, p-values, verdicts "
        "or significance groups. "
    )


def draws(test: str, n: int, number=count) -> str:
    """``8,000 resamples``, or ``8,000 rounds`` under the randomization test (``settings.test``):
    what the R behind a p-value counts, ``n`` written by ``number`` (LaTeX: its own).

    Examples
    --------
    >>> draws("bootstrap", 8000), draws("randomization", 8000)
    ('8,000 resamples', '8,000 rounds')
    """
    return (
        tr("{n} rounds", n=number(n))
        if test == "randomization"
        else tr("{n} resamples", n=number(n))
    )


def clustering(comps, settings: Settings) -> list[str | Cite]:
    """The methods sentence on the cluster bootstrap, naming the competitions of ``comps`` that use
    it and what it changes under ``settings``' test and interval method (``[]`` when none does)."""
    grouped = [c for c in comps if c.clusters]
    if not grouped:
        return []
    which = "; ".join(
        tr(
            "{competition}: {items} items in {unit}",
            competition=c.name,
            items=count(c.clusters["items"]),
            unit=unit(c),
        )
        for c in grouped
    )
    return [
        tr(
            "Where items form clusters ({which}), a resample draws the clusters with replacement "
            "and every item of a drawn cluster comes with it, the cluster bootstrap ",
            which=which,
        ),
        Cite("davison1997"),
        tr(CLUSTERED[settings.test, settings.ci_method == "bca"]),
    ]


def measures(comps=()) -> list[str | Cite]:
    """One sentence naming each measure of ``comps`` that a work defines
    (:data:`~compreport.report.references.MEASURE_REFERENCES`), each with its citation; nothing
    when none does.

    >>> from types import SimpleNamespace as NS
    >>> comps = [NS(metrics=[NS(name="icm", label=None, params={}), NS(name="accuracy")])]
    >>> [s if isinstance(s, str) else s.key for s in measures(comps)]
    ['The measures are defined as in: ', 'ICM ', 'amigo2022', '. ']
    """
    named: dict[str, tuple[str, ...]] = {}
    for c in comps:
        for ma in c.metrics:
            keys = MEASURE_REFERENCES.get(ma.name)
            if keys:
                named.setdefault(metric_label(ma), keys)
    if not named:
        return []
    out: list[str | Cite] = [tr("The measures are defined as in: ")]
    for i, (label, keys) in enumerate(named.items()):
        out += [*(["; "] if i else []), f"{label} ", *(Cite(k) for k in keys)]
    return [*out, ". "]


def paragraph(settings: Settings, comps=()) -> list[str | Cite]:
    """The methods paragraph as segments (text and :class:`Cite`), worded from ``settings``, with
    the cluster bootstrap of those of the competitions ``comps`` that use it; the p-values' formula
    names the resamples behind them as more than B where refinement drew more for some metric of
    ``comps``. Under B = 0 one sentence says that nothing was resampled, tested or decided."""
    if not settings.bootstrap:
        return [
            *measures(comps),
            no_resampling(),
            *_baselines(settings),
            tr("The best system is chosen on the same test set it is compared on."),
        ]
    ci = vocab.CI_METHODS[settings.ci_method]
    refined = any(
        int(ma.verdicts.get("resamples") or 0) > settings.bootstrap
        for c in comps
        for ma in c.metrics
    )
    out: list[str | Cite] = [
        *measures(comps),
        tr(
            "Scores are reported with {level} {ci} confidence intervals ",
            level=level(settings),
            ci=ci.words,
        ),
        Cite(ci.cite),
        tr(
            " from {resamples} paired bootstrap resamples {drawn} (seed {seed}); every system and "
            "metric is scored on the same resamples. ",
            resamples=count(settings.bootstrap),
            drawn=tr(DRAWN[grouping(comps)]),
            seed=settings.seed,
        ),
        *clustering(comps, settings),
    ]
    if settings.test == "randomization":
        out += [
            tr(
                "p-values come from an approximate randomization test with {rounds} rounds, "
                "{swapping}",
                rounds=count(settings.bootstrap),
                swapping=tr(SWAPPED[grouping(comps)]),
            ),
            Cite("noreen1989"),
            tr(" as in MUC "),
            Cite("chinchor1992"),
            tr(
                ", {sides}, counting the rounds whose difference reaches the observed one in "
                "absolute value, with ",
                sides=tr(vocab.TEST_SIDES[settings.test]),
            ),
            "p = (c + 1)/(R + 1) ",
            Cite("phipson2010"),
            tr(
                ", R being the rounds behind each p-value: {rounds}, or more where the p-values "
                "were re-estimated (below). ",
                rounds=count(settings.bootstrap),
            )
            if refined
            else ". ",
        ]
    elif settings.test == "berg-kirkpatrick":
        out += [
            tr("p-values follow the paired bootstrap test "),
            Cite("bergkirkpatrick2012"),
            tr(", counting resamples whose difference reaches twice the observed one, with "),
            f"p = (c + 1)/({'R' if refined else 'B'} + 1) ",
            Cite("phipson2010"),
            tr(
                ", R being the resamples behind each p-value: {resamples}, or more where the "
                "p-values were re-estimated (below). ",
                resamples=count(settings.bootstrap),
            )
            if refined
            else ". ",
            tr(
                "As defined there the test is one-sided, in the direction of the observed "
                "difference: read as a test of whether two systems differ, its p-value is about "
                "half the two-sided one, so at α = {alpha} it rejects about as often as a "
                "two-sided test at {double} (the randomization test is two-sided). ",
                alpha=decimal(settings.alpha),
                double=decimal(2 * settings.alpha),
            ),
        ]
    else:
        out += [
            tr(
                "p-values come from the two-sided paired bootstrap test with the resampled "
                "differences shifted to the null "
            ),
            Cite("efron1993"),
            tr(
                ": c counts the resamples whose difference departs from the observed one by at "
                "least the observed one's absolute value, and "
            ),
            f"p = (c + 1)/({'R' if refined else 'B'} + 1) ",
            Cite("phipson2010"),
            tr(
                ", R being the resamples behind each p-value: {resamples}, or more where the "
                "p-values were re-estimated (below). ",
                resamples=count(settings.bootstrap),
            )
            if refined
            else ". ",
        ]
    out += _corrections(settings)
    out += [
        tr(
            "Every verdict of this report, whether two systems differ significantly and which "
            "cannot be told apart from the best, uses the "
        ),
        *_verdict_rule(settings),
        *_groups(settings),
        tr(
            "Each rank set holds the ranks a system may truly have at {level} confidence, jointly "
            "for all systems: from 1 + the number of systems found better to m − the number found "
            "worse, by a one-sided max-T step-down over every ordered pair of systems on the same "
            "resamples ",
            level=level(settings),
        ),
        Cite("mogstad2024"),
        ". ",
        tr(
            "The competitiveness summary counts ties among competitors under each correction: with "
            "the winner on the winner's comparisons with the other competitors, as the verdicts "
            "read them; between competitors over {family}, which can differ from the verdicts. ",
            family=ties_family(settings),
        ),
        ties_settings(settings) + " ",
    ]
    out += _refinement(settings)
    out += _baselines(settings)
    out += baseline_family(settings, comps)
    out += [tr("The best system is chosen on the same test set it is compared on.")]
    return out


def _corrections(settings: Settings) -> list[str | Cite]:
    """The methods sentences on the corrections the tables report and what the report's family
    controls: the max-T step-down (under the bootstrap test), ``vs-best`` corrected over all pairs,
    ``per-row`` and BH bounding no family-wise error rate."""
    family = vocab.FAMILIES[settings.family].words
    if settings.test == "bootstrap":
        out = [
            tr("Every pair's p-value is reported raw, with Bonferroni "),
            Cite("dunn1961"),
            ", Holm ",
            Cite("holm1979"),
            tr(" and Benjamini–Hochberg "),
            Cite("benjamini1995"),
            tr(" adjustments, and with the max-T step-down "),
            Cite("westfall1993", ("romano2005",)),
            tr(
                ", all over {family}. The max-T step-down divides each difference by its bootstrap "
                "standard error and compares it with the resampled maximum, over the comparisons "
                "not yet rejected, of the differences shifted to the null and divided likewise; "
                "over its family it controls the family-wise error rate at α (asymptotically) "
                "whichever systems are truly equal, and its p-values need no resamples beyond "
                "those of an ordinary p-value. ",
                family=family,
            ),
        ]
    else:
        out = [
            tr("Every pair's p-value is reported raw and with Bonferroni "),
            Cite("dunn1961"),
            ", Holm ",
            Cite("holm1979"),
            tr(" and Benjamini–Hochberg "),
            Cite("benjamini1995"),
            tr(" adjustments over {family}. ", family=family),
        ]
    if settings.family == "vs-baseline":
        out += [
            tr(
                "The baselines are named before the results are seen, so a correction over the "
                "comparisons of each participant with each baseline alone holds the family-wise "
                "error rate over them, and spends no power on the other pairs, which are not "
                "tested. "
            )
        ]
    elif settings.family == "vs-best":
        out += [
            tr(
                "The best is chosen on the same test set, so the comparisons with it are corrected "
                "over all pairs: a correction over those comparisons alone would not hold the "
                "family-wise error rate. "
            )
        ]
    elif settings.family == "per-row":
        out += [
            tr(
                "Corrected within each row, the verdicts bound no family-wise error rate over the "
                "report: with many rows, equal systems are called different more often than α. "
            )
        ]
    if settings.correction == "bh":
        out += [
            tr(
                "The Benjamini–Hochberg correction bounds the expected share of false discoveries, "
                "not the chance of any. "
            )
        ]
    return out


def _baselines(settings: Settings) -> list[str]:
    """The methods sentence on how baselines take part (without resamples none is compared or
    grouped)."""
    if settings.include_baselines:
        return [tr("Baselines compete like the participants. ")]
    if not settings.bootstrap:
        return [
            tr(
                "Baselines are ranked with the participants but do not compete: the best system "
                "and the competitiveness figures consider participants only. "
            )
        ]
    return [
        tr(
            "Baselines are compared and grouped with the participants but do not compete: the best "
            "system, the comparisons with it and the competitiveness figures consider participants "
            "only. "
        )
    ]


def baseline_family(settings: Settings, comps=()) -> list[str]:
    """The methods sentence saying which family the "beats the baseline" verdicts come from (the
    stored :attr:`~compreport.stats.results.MetricAnalysis.vs_baselines`); ``[]`` when no
    competition of ``comps`` names a baseline.

    >>> from compreport.settings import Settings
    >>> from compreport.stats.results import CompetitionAnalysis
    >>> comp = CompetitionAnalysis("c", "c", n=1, systems=["A", "base"], baselines=["base"],
    ...                            metrics=[])
    >>> baseline_family(Settings(), [comp])[0][:60]
    'A run beats a baseline when the two-sided verdict of their c'
    """
    if not any(getattr(c, "baselines", ()) for c in comps):
        return []
    if settings.family == "vs-best":
        return [
            tr(
                "Whether a run beats a baseline is not tested: the reports test only the "
                "comparisons with the best. "
            )
        ]
    return [
        tr(
            "A run beats a baseline when the two-sided verdict of their comparison is significant "
            "and the run scores better; these verdicts come from the family of {family} ({rule}). ",
            family=vocab.FAMILIES[settings.family].words,
            rule=settings.rule,
        )
    ]


def beats_mark_note(settings: Settings) -> str:
    """What the leaderboard's ``beats <baseline>`` mark means and which family it comes from (the
    leaderboard's caption, beside the other marks).

    >>> from compreport.settings import Settings
    >>> beats_mark_note(Settings(family="vs-baseline"))[:40]
    'Beats baseline: significantly better tha'
    """
    if settings.family == "vs-best":
        return tr(
            "No run is marked as beating a baseline: only the comparisons with the best are tested."
        )
    return tr(
        "Beats baseline: significantly better than the baseline (than each of them, or than k of "
        "the N) under the {rule}; the team sheets name them.",
        rule=settings.rule,
    )


def beats_baseline(settings: Settings, v: BaselineVerdict, p_is, subject: str | None = None) -> str:
    """One sentence stating the stored verdict ``v`` of a run against a baseline, naming the p-value
    that decided it as ``p_is`` states it (``p = 0.0004``, ``p < 0.0001``: the report's
    :meth:`~compreport.report.model.Format.p_is`), and the family it comes from (``subject``: how
    the run is named; default its name).

    >>> from compreport.report.model import Format
    >>> from compreport.settings import Settings
    >>> from compreport.stats.results import BaselineVerdict
    >>> v = BaselineVerdict("A", "majority", 0.12, 0.0004, True, True, True, "vs-baseline")
    >>> print(beats_baseline(Settings(family="vs-baseline"), v, Format().p_is))
    A is significantly better than the baseline majority at α = 0.05 (p = 0.0004, max-T step-down
    correction over the comparisons of each participant with each baseline, other pairs untested).
    """
    subject = subject or v.system
    at = dict(
        subject=subject,
        baseline=v.baseline,
        alpha=decimal(settings.alpha),
        p=p_is(v.p_value),
        rule=vocab.correction_over(settings.correction, v.family),
    )
    if v.beats is None and v.settled is False:
        return tr(
            "Whether {subject} differs from the baseline {baseline} is undecided at α = {alpha}: "
            "its p-value ({p}, {rule}) is within its Monte-Carlo error of the threshold.",
            **at,
        )
    if v.beats is None:
        return tr(
            "{subject} was not tested against the baseline {baseline} (family: {family}).",
            subject=subject,
            baseline=v.baseline,
            family=vocab.FAMILIES[v.family].words,
        )
    if v.beats:
        return tr(
            "{subject} is significantly better than the baseline {baseline} at α = {alpha} "
            "({p}, {rule}).",
            **at,
        )
    if v.worse:
        return tr(
            "{subject} is significantly worse than the baseline {baseline} at α = {alpha} "
            "({p}, {rule}).",
            **at,
        )
    return tr(
        "{subject} cannot be told apart from the baseline {baseline} at α = {alpha} ({p}, {rule}).",
        **at,
    )


def _refinement(settings: Settings) -> list[str | Cite]:
    """The sentences on Monte-Carlo error and refinement of the methods paragraph (rounds of the
    randomization test, resamples of the bootstrap test)."""
    out: list[str | Cite] = [
        tr(
            "Each p-value is reported with its Monte-Carlo standard error; a verdict is settled "
            "when the correction gives it for every p-value of its family at both ends of its "
            "Clopper–Pearson bounds (jointly at risk {risk}, divided among the comparisons and the "
            "times they are classified) ",
            risk=decimal(montecarlo.RISK),
        ),
        Cite("gandy2014"),
        ". ",
        tr(
            "A verdict that is not settled is reported as undecided, neither a significant "
            "difference nor a tie, and separates no significance groups; so the error rate the "
            "correction controls holds for the verdicts reported up to that risk (a family-wise "
            "error rate of at most α + {risk}). ",
            risk=decimal(montecarlo.RISK),
        ),
    ]
    if not settings.refine:
        out += [
            tr(
                "Every p-value comes from the {resamples} resamples; more resamples, or "
                "re-estimating the p-values of undecided verdicts from up to {most}, would settle "
                "most of them. ",
                resamples=count(settings.bootstrap),
                most=count(montecarlo.REFINE_FACTOR * settings.bootstrap),
            )
        ]
    elif settings.correction == "maxt":
        out += [
            tr(
                "While some verdict of a competition is unsettled, twice as many resamples are "
                "drawn, up to {most}, and counted into the max-T and raw p-values from the first "
                "unsettled comparison on (each difference keeps the standard error of the first "
                "{resamples}, and the intervals stay on them); a verdict still unsettled is "
                "undecided. ",
                most=count(montecarlo.REFINE_FACTOR * settings.bootstrap),
                resamples=count(settings.bootstrap),
            )
        ]
    elif settings.test == "randomization":
        out += [
            tr(
                "While some verdict of a competition is unsettled and more rounds may settle it, "
                "its p-values are re-estimated from twice as many rounds, up to {most} (intervals "
                "stay on the first {resamples} resamples); a verdict still unsettled is "
                "undecided. ",
                most=count(montecarlo.REFINE_FACTOR * settings.bootstrap),
                resamples=count(settings.bootstrap),
            )
        ]
    else:
        out += [
            tr(
                "While some verdict of a competition is unsettled and more resamples may settle "
                "it, its p-values are re-estimated from twice as many resamples, up to {most} "
                "(intervals stay on the first {resamples}); a verdict still unsettled is "
                "undecided. ",
                most=count(montecarlo.REFINE_FACTOR * settings.bootstrap),
                resamples=count(settings.bootstrap),
            )
        ]
    out += [
        tr(
            "The random streams are keyed by the seed and a stable key of the competition (its "
            "id, else its folder's or file's name), never by its displayed name, so a translated "
            "title draws the same resamples. "
        )
    ]
    return out


def p_resamples(ma: MetricAnalysis, bootstrap: int) -> int | None:
    """The resamples behind ``ma``'s raw p-values when refinement drew more than the ``bootstrap``
    of its intervals and histograms (the stored ``verdicts["resamples"]``), else None.

    None under the max-T step-down too, whose refinement counts more resamples for some pairs only
    (the most of them is ``verdicts["resamples"]``; each p-value's Monte-Carlo error is its own).
    """
    if ma.verdicts.get("correction") == "maxt":
        return None
    resamples = int(ma.verdicts.get("resamples") or 0)
    return resamples if resamples > bootstrap else None


def unsettled_note(settings: Settings, resamples: int) -> str:
    """The sentence beside a verdict that is not settled (``Comparison.settled`` False) after
    ``resamples`` resamples (rounds under the randomization test): it is undecided."""
    return tr(
        "Undecided: after {draws} this verdict is still within the Monte-Carlo error of its "
        "p-values, so it is reported neither as significant nor as a tie; drawing more "
        "resamples could settle it.",
        draws=draws(settings.test, resamples),
    )


def method_sentences(
    settings: Settings, comp: CompetitionAnalysis | None = None, groups: bool = True
) -> list[str | Cite]:
    """The methods in two sentences (for the team sheets; a third for a competition using the
    cluster bootstrap), as segments with citations; under B = 0 the one sentence saying that
    nothing was resampled, tested or decided. ``groups``: say that the significance groups use
    the same rule (the team letters, which show no groups, leave it out)."""
    if not settings.bootstrap:
        return [no_resampling()]
    ci = vocab.CI_METHODS[settings.ci_method]
    test = vocab.TESTS[settings.test]
    comps = [comp] if comp else []
    return [
        tr("Scores carry {level} {ci} confidence intervals ", level=level(settings), ci=ci.label),
        Cite(ci.cite),
        tr(
            " from {resamples} paired bootstrap resamples {drawn} (seed {seed}); p-values come "
            "from {test} ",
            resamples=count(settings.bootstrap),
            drawn=tr(DRAWN[grouping(comps)]),
            seed=settings.seed,
            test=test.words,
        ),
        Cite(test.cite),
        f", {tr(vocab.TEST_SIDES[settings.test])}",
        f", {tr(SWAPPED[grouping(comps)]).rstrip()}. "
        if settings.test == "randomization"
        else ". ",
        tr("Every verdict on this page uses the "),
        *_verdict_rule(settings),
        *(_groups(settings) if groups else [". "]),
        *clustering(comps, settings),
    ]


def cited(segments: list[str | Cite]) -> list[str]:
    """BibTeX keys cited in ``segments``, first appearance order, no repeats."""
    return list(dict.fromkeys(k for s in segments if isinstance(s, Cite) for k in s.keys))


def verdict(
    settings: Settings, significant: bool | None, subject: str | None = None, other: str = ""
) -> str:
    """One sentence stating a stored verdict, naming its rule.

    ``significant`` is the stored :attr:`~compreport.stats.results.Comparison.significant` (or
    :attr:`~compreport.stats.results.Score.differs_from_best`): True, False or None (not tested),
    or ``"undecided"`` (:attr:`~compreport.stats.results.Comparison.undecided`).
    """
    at = tr("at α = {alpha} ({rule})", alpha=decimal(settings.alpha), rule=settings.rule)
    if significant == "undecided":
        return tr(
            "This comparison is undecided {at}: its p-value is within the Monte-Carlo error of "
            "the threshold.",
            at=at,
        )
    if significant is None:
        return tr("No test decides this comparison {at}.", at=at)
    subject = subject or tr("The winner")
    if significant:
        return (
            tr(
                "{subject} is significantly better than {other} {at}.",
                subject=subject,
                other=other,
                at=at,
            )
            if other
            else tr("{subject} is significantly better {at}.", subject=subject, at=at)
        )
    return tr(
        "{subject} cannot be told apart from {other} {at}.",
        subject=subject,
        other=other or tr("the winner"),
        at=at,
    )


def cannot_reject(settings: Settings, ma: MetricAnalysis) -> str | None:
    """When the stored ``verdicts["can_reject"]`` is False: one sentence saying that no comparison
    of ``ma`` can be significant with this B, so its groups and ties say nothing, and the stored
    B that could (``verdicts["b_needed"]``); else None. Shown first (terminal summary, report
    header, team sheets), not only among the notes."""
    v = ma.verdicts
    if v.get("can_reject") is not False:
        return None
    tested = int(v.get("tested", 0))
    resamples = int(v.get("resamples") or settings.bootstrap)
    return tr(
        "Too few resamples for {metric}: with {resamples} no p-value can fall below "
        "1/({n} + 1), so the {rule} ({tested} comparisons tested) can never reject at "
        "\u03b1 = {alpha}; every system shares one group and ties with the best whatever the "
        "data. Use B = {need} or more.",
        metric=metric_label(ma),
        resamples=draws(settings.test, resamples),
        n=count(resamples),
        rule=settings.rule,
        tested=count(tested),
        alpha=decimal(settings.alpha),
        need=count(v["b_needed"]),
    )


def marks(
    score: Score, baseline: bool = False, missing: int = 0, beaten=(0, 0), undecided_with=()
) -> str:
    """The leaderboard's marks of one system, from its stored verdicts, comma-separated.

    ``best``; ``tied with best`` (not significantly different from the best under the report's
    rule); ``undecided`` (that verdict is within the Monte-Carlo error of its p-values:
    ``Score.undecided``, neither tied nor different); ``N undecided`` for the N systems of
    ``undecided_with``, the others whose stored verdict with this one is undecided
    (:attr:`~compreport.stats.results.Comparison.undecided`), counted rather than named so that
    the marks leave the names beside them their room (the pair matrix marks each such pair
    ``?``, ``pairs-<metric>.csv`` has ``settled``);
    ``beats baseline`` (``beats all baselines``, ``beats k of N baselines``) from ``beaten``,
    (k, N): the system beats k of the N baselines by their stored
    :class:`~compreport.stats.results.BaselineVerdict`;
    ``baseline``; ``N missing`` (items without a prediction, scored as wrong answers). Empty for
    none.

    >>> from compreport.stats.results import Score
    >>> marks(Score("A", 0.8, 0.8, 0.01, 0.78, 0.82, 1, "a", is_best=True), beaten=(1, 2))
    'best, beats 1 of 2 baselines'
    >>> marks(Score("B", 0.7, 0.7, 0.01, 0.68, 0.72, 2, "b"), undecided_with=["C"])
    '1 undecided'
    """
    out = [tr("best")] if score.is_best else [tr("tied with best")] if score.ties_with_best else []
    out += [tr("undecided")] if score.undecided else []
    if undecided_with:
        out += [tr("{n} undecided", n=count(len(undecided_with)))]
    k, of = beaten
    if k:
        out += [
            tr("beats baseline")
            if of == 1
            else tr("beats all baselines")
            if k == of
            else tr("beats {k} of {n} baselines", k=k, n=of)
        ]
    out += [tr("baseline")] if baseline else []
    out += [tr("{n} missing", n=count(missing))] if missing else []
    return ", ".join(out)


#: Figure captions by kind (``dist-randomization``: the distribution under the randomization test).
FIGURE_CAPTIONS = MappingProxyType(
    {
        "ci": N_("Scores with their {level} bootstrap confidence intervals, best first."),
        "diff": N_(
            "Differences from the best with their {level} confidence intervals, not corrected for "
            "multiple comparisons (positive: the best is better); the colours are the verdicts of "
            "the "
            "table (rule: {rule}): green squares differ significantly from the best, open orange "
            "circles tie with it, pink diamonds are undecided (within the Monte-Carlo error), grey "
            "triangles are not tested."
        ),
        "dist": N_(
            "Bootstrap distribution of the difference between the best system and the runner-up; "
            "the "
            "two-sided p-value counts the replicates at least as far from the observed difference "
            "as the observed difference is from 0."
        ),
        "dist-berg-kirkpatrick": N_(
            "Bootstrap distribution of the difference between the best system and the "
            "runner-up; the one-sided p-value counts the replicates at or beyond twice the "
            "observed difference."
        ),
        "dist-randomization": N_(
            "Bootstrap distribution of the difference between the best system and the "
            "runner-up; the p-value in the title is the approximate randomization test's."
        ),
        "facets": N_("All metrics side by side."),
        "confusion": N_(
            "Confusion matrix of the best system on the full test set: rows are gold classes, "
            "columns predicted labels, each row shaded by its share of the gold class."
        ),
        "pairs": N_(
            "Every pair of systems, in rank order, shaded by the significance mark of its "
            "corrected "
            "p-value (the rule of this report's verdicts); white: a pair the family does not test."
        ),
    }
)


def figure_caption(kind: str, settings: Settings) -> str:
    """The caption of a figure of ``kind`` (``ci``, ``diff``, ``dist``, ``facets``, ``pairs``,
    ``confusion``) under ``settings``; empty for another kind."""
    key = f"{kind}-{settings.test}" if f"{kind}-{settings.test}" in FIGURE_CAPTIONS else kind
    return (
        tr(FIGURE_CAPTIONS[key], level=level(settings), rule=settings.rule)
        if key in FIGURE_CAPTIONS
        else ""
    )


def subtitle(comp: CompetitionAnalysis) -> str:
    """``IberLEF 2021 · Sentiment · Spanish``: challenge and year, task, subtask, language (those
    the competition has; a language named in English in the report's language: ``español``)."""
    bits = [
        comp.challenge
        + (f" {comp.year}" if comp.year and str(comp.year) not in comp.challenge else "")
        if comp.challenge
        else (str(comp.year) if comp.year else ""),
        comp.task,
        comp.subtask,
        vocab.language_name(comp.language) if comp.language else "",
    ]
    return " \u00b7 ".join(b for b in bits if b)
