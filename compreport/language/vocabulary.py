"""The words of the method, in one place: ids, results.json keys, display labels and citations.

Every renderer (LaTeX, HTML, Markdown, team sheets, methods text, figures) names a correction,
a CI method, a correction family or a test through the tables here, so a label changes in one
place. Settings are validated against the same tables (:mod:`compreport.settings`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from compreport.language import N_, tr


@dataclass(frozen=True)
class Term:
    """One value of a setting.

    Attributes
    ----------
    id : str
        The value as given to the API, the spec and the CLI (``holm``).
    key : str
        Its key in results.json (``holm``; ``p_holm`` is the Comparison field).
    english_label, english_words : str
        Its display label (``Holm``) and how a sentence names it (``the Holm correction``), in
        English: the keys of the translation table; :attr:`label` and :attr:`words` give them in
        the report's language (:func:`compreport.language.tr`).
    cite : str or None
        BibTeX key of the work to cite (:data:`compreport.report.references.REFERENCES`).

    Examples
    --------
    >>> CORRECTIONS["holm"].words
    'the Holm correction'
    """

    id: str
    key: str
    english_label: str
    english_words: str
    cite: str | None = None

    @property
    def label(self) -> str:
        """The display label in the report's language."""
        return tr(self.english_label)

    @property
    def words(self) -> str:
        """How a sentence names it, in the report's language."""
        return tr(self.english_words)


def _table(*terms: Term) -> Mapping[str, Term]:
    """``terms`` by id, a read-only mapping."""
    return MappingProxyType({t.id: t for t in terms})


#: Corrections for multiple comparisons, in the order tables show them (``none`` first). ``maxt``,
#: the default, is the max-T step-down over the joint bootstrap distribution
#: (:mod:`compreport.stats.maxt`); the others adjust the raw p-values.
CORRECTIONS = _table(
    Term("none", "none", N_("none"), N_("no correction for multiple comparisons")),
    Term("bonferroni", "bonferroni", "Bonferroni", N_("the Bonferroni correction"), "dunn1961"),
    Term("holm", "holm", "Holm", N_("the Holm correction"), "holm1979"),
    Term("bh", "bh", "BH", N_("the Benjamini–Hochberg correction"), "benjamini1995"),
    Term("maxt", "maxt", N_("max-T step-down"), N_("the max-T step-down procedure"), "romano2005"),
)
#: Comparison field holding each correction's p-value.
P_FIELD = MappingProxyType(
    {
        "none": "p_value",
        "bonferroni": "p_bonferroni",
        "holm": "p_holm",
        "bh": "p_bh",
        "maxt": "p_maxt",
    }
)

#: Confidence-interval methods.
CI_METHODS = _table(
    Term("percentile", "percentile", N_("percentile"), N_("percentile"), "efron1993"),
    Term("bca", "bca", "BCa", N_("bias-corrected and accelerated (BCa)"), "efron1987"),
    Term(
        "normal", "normal", N_("normal"), N_("normal-approximation (estimate ± z·SE)"), "efron1993"
    ),
)

#: Tests behind the p-values.
TESTS = _table(
    Term(
        "bootstrap",
        "bootstrap",
        N_("paired bootstrap"),
        N_("the null-shifted paired bootstrap test"),
        "efron1993",
    ),
    Term(
        "berg-kirkpatrick",
        "berg-kirkpatrick",
        N_("Berg-Kirkpatrick bootstrap"),
        N_("the paired bootstrap test of Berg-Kirkpatrick et al."),
        "bergkirkpatrick2012",
    ),
    Term(
        "randomization",
        "randomization",
        N_("approximate randomization"),
        N_("an approximate randomization test"),
        "noreen1989",
    ),
)

#: How a facts line names the intervals of each CI method, with and without the level (``95% BCa
#: intervals``, ``BCa intervals``).
INTERVAL_PHRASES = MappingProxyType(
    {
        "percentile": (N_("{level} percentile intervals"), N_("percentile intervals")),
        "bca": (N_("{level} BCa intervals"), N_("BCa intervals")),
        "normal": (N_("{level} normal intervals"), N_("normal intervals")),
    }
)

#: How each test's alternative reads (the team sheets' methods sentence; the appendix says more).
TEST_SIDES = MappingProxyType(
    {
        "bootstrap": N_("two-sided"),
        "berg-kirkpatrick": N_("one-sided, in the direction of the observed difference"),
        "randomization": N_("two-sided"),
    }
)

#: A test named in passing (``(bootstrap test)`` in a caption, a title, a provenance line).
TEST_PHRASES = MappingProxyType(
    {
        "bootstrap": N_("bootstrap test"),
        "berg-kirkpatrick": N_("one-sided bootstrap test"),
        "randomization": N_("randomization test"),
    }
)


def test_phrase(test: str) -> str:
    """``bootstrap test``, ``one-sided bootstrap test`` or ``randomization test`` (a key of
    :data:`TESTS`), in the report's language."""
    return tr(TEST_PHRASES[test])


#: Families a correction is applied over (``--family``).
FAMILIES = _table(
    Term("all-pairs", "all-pairs", N_("all pairs"), N_("all pairs of systems")),
    Term(
        "per-row",
        "per-row",
        N_("per row"),
        N_(
            "each row (each system against those ranked below it), which bounds no family-wise "
            "error rate"
        ),
    ),
    Term(
        "vs-best",
        "vs-best",
        N_("vs. the best"),
        N_("all pairs of systems, read on the comparisons with the best, other pairs untested"),
    ),
    Term(
        "vs-baseline",
        "vs-baseline",
        N_("vs. the baselines"),
        N_("the comparisons of each participant with each baseline, other pairs untested"),
    ),
)

#: The families of the competitiveness summary's ties between competitors
#: (:attr:`~compreport.settings.Settings.ties_family`): the paper's counts are among the competing
#: systems only (baselines compete only when asked).
TIES_FAMILIES = MappingProxyType(
    {
        "all-pairs": N_("all pairs of competitors"),
        "per-row": N_("each row (each competitor against those ranked below it)"),
    }
)

#: PPI measured in a metric's units (its ideal is not 1 with higher better: an error, say), for the
#: competitions ``names`` (``RateTrip 2026 (MAE, ideal 0)``): the note beside every summary table.
PPI_IN_UNITS = N_(
    "PPI of {names} is the winner's distance to the metric's ideal value, in the metric's units, "
    "not a percentage."
)

#: Significance marks of the pairwise matrix: (threshold, mark), strictest first (paper Table 4). A
#: report uses the thresholds below its alpha and alpha itself (:func:`marks_at`), so every mark is
#: a significant verdict and every significant verdict has a mark.
STARS = ((0.001, "***"), (0.01, "**"), (0.05, "*"), (0.1, "†"))


def marks_at(alpha: float) -> tuple[tuple[float, str], ...]:
    """The (threshold, mark) pairs of a report at level ``alpha``, strictest first: the thresholds
    0.001, 0.01 and 0.05 below alpha, then alpha, marked ``***``, ``**``, ``*``, ``†`` in that
    order (:func:`compreport.stats.multitest.stars` marks p-values by them).

    >>> marks_at(0.05)
    ((0.001, '***'), (0.01, '**'), (0.05, '*'))
    >>> marks_at(0.01)
    ((0.001, '***'), (0.01, '**'))
    >>> marks_at(0.1)
    ((0.001, '***'), (0.01, '**'), (0.05, '*'), (0.1, '†'))
    >>> marks_at(0.08)[-1], marks_at(0.03)[-1]
    ((0.08, '†'), (0.03, '*'))
    """
    thresholds = [t for t, _ in STARS[:3] if t < alpha] + [alpha]
    return tuple((t, mark) for t, (_, mark) in zip(thresholds, STARS))


def correction_over(correction: str, family: str) -> str:
    """How a verdict names its rule, read after "the" in a sentence.

    Parameters
    ----------
    correction : str
        A key of :data:`CORRECTIONS`.
    family : str
        A key of :data:`FAMILIES`, or ``"vs_best"`` for the comparisons of the best with the
        other competitors.

    Examples
    --------
    >>> correction_over("holm", "all-pairs")
    'Holm correction over all pairs of systems'
    """
    if correction == "none":
        return tr(
            "uncorrected p-values, with no correction for multiple comparisons"
        )  # reads right after "the"
    over = (
        tr("the comparisons of the best with the other competitors")
        if family == "vs_best"
        else FAMILIES[family].words
    )
    if correction == "maxt":  # its own text: Spanish names it with no "de" ("corrección max-T")
        return tr("max-T step-down correction over {family}", family=over)
    return tr(
        "{correction} correction over {family}",
        correction=CORRECTIONS[correction].label,
        family=over,
    )


#: Languages a competition's ``language`` (or the last level of its ``group``) may name in English,
#: by the lowercase name: a report shows them in its own language (:func:`language_name`).
LANGUAGE_NAMES = MappingProxyType(
    {
        n.lower(): n
        for n in (
            N_("Arabic"),
            N_("Basque"),
            N_("Catalan"),
            N_("Chinese"),
            N_("Dutch"),
            N_("English"),
            N_("French"),
            N_("Galician"),
            N_("German"),
            N_("Hindi"),
            N_("Italian"),
            N_("Japanese"),
            N_("Multilingual"),
            N_("Portuguese"),
            N_("Russian"),
            N_("Spanish"),
        )
    }
)


def language_name(value: str) -> str:
    """A competition's language as a report shows it: a language named in English (any case) in
    the report's language, anything else (a code such as ``es``, another name) as given.

    >>> from compreport.language import language
    >>> with language("es"):
    ...     language_name("Spanish"), language_name("basque"), language_name("es")
    ('español', 'euskera', 'es')
    >>> language_name("Spanish")
    'Spanish'
    """
    name = LANGUAGE_NAMES.get(str(value).strip().lower())
    return tr(name) if name else value
