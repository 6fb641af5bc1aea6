"""HTML reports: one self-contained page per competition and a workshop overview.

Every page is a single file: CSS in a ``<style>`` block, figures as inline SVG, no scripts, fonts or
other resources fetched from anywhere; the only links are relative links between the files of one
report directory. The same HTML, with print CSS, is what :mod:`compreport.report.pages.pdf` turns
into PDF; ``for_pdf`` pages leave the CSS to it (:func:`stylesheet`, parsed once per process), carry
each figure as an ``<img>`` of its SVG and mark where names may wrap with U+200B instead of
``<wbr>`` (what WeasyPrint makes of ``<wbr>``): the same PDF, with far fewer elements to style.

Nothing here computes or decides: the tables are :mod:`compreport.report.model` tables (the same
cells, digits and bold as LaTeX and Markdown), the verdicts are the stored ones, the figures come
from the report's :class:`~compreport.report.figures.gallery.Gallery` (drawn once per run). The
Jinja templates live in ``templates/html/``; autoescaping is on, so a team called ``<script>`` is
text.
"""

from __future__ import annotations

import math
import numbers
import re
from functools import cache, lru_cache
from pathlib import Path

from compreport.errors import spoken
from compreport.language import count, current, decimal, tr
from compreport.language import vocabulary as vocab
from compreport.output import files
from compreport.report import model, prose, references
from compreport.report.figures.gallery import Gallery, whole_stem
from compreport.report.metricnames import metric_label, metric_title
from compreport.report.naming import competition_dir, metric_stems, pairs_file, pieces
from compreport.resources import templates_dir
from compreport.settings import Settings
from compreport.stats.results import Analysis, CompetitionAnalysis, MetricAnalysis

#: Pairwise matrices with more columns than this show rank positions instead of names in the header.
MATRIX_NAMED_COLUMNS = 8
#: In PDF, the width of a page's text (A4 portrait less 14 mm margins, in pt) that the pairwise
#: matrix's cells may fill: the rest is its first column, the systems' names (they wrap at their
#: separators). A wider matrix is split into blocks of columns (:func:`portrait_columns`), one under
#: the other on portrait pages, so that it flows with the text around it.
MATRIX_PORTRAIT_PT = 426
#: In PDF, the competitiveness summary is split into blocks of at most this many competitions.
SUMMARY_COLUMNS_PER_BLOCK = 7


def intervals(settings: Settings, with_level: bool = True) -> str:
    """``95% percentile intervals`` (``percentile intervals`` without the level), in the report's
    language (:data:`compreport.language.vocabulary.INTERVAL_PHRASES`)."""
    with_words, bare = vocab.INTERVAL_PHRASES[settings.ci_method]
    return tr(with_words, level=prose.level(settings)) if with_level else tr(bare)


def template_tr(text: str, /, **values):
    """:func:`~compreport.language.tr` for the templates: the text is markup, as the template's own
    text is (entities such as ``&alpha;`` and tags such as ``<em>`` stay as written), and the values
    are escaped unless they are markup themselves (a ``<span class="system">`` built with
    :func:`breakable`), so a team's name is always text. Only literal texts of the templates are
    passed here."""
    from markupsafe import Markup

    return Markup(tr(text)).format(**values) if values else Markup(tr(text))


#: In print a SHA-256 stays on one line (measuring where it could wrap anywhere is costly), unless
#: an input file's name has a longer run than this that cannot wrap: the half page left could not
#: hold it.
HASH_BESIDE = 28


def mark_spans(text: str):
    """A leaderboard's marks (:func:`~compreport.report.prose.marks`, comma-separated) as escaped
    HTML, each mark in a ``<span class="mark">`` that does not wrap (``undecided vs 3 others``
    stays one line), so that a row's marks wrap only between marks.

    >>> print(mark_spans("tied with best, 1 undecided"))
    <span class="mark">tied with best</span>, <span class="mark">1 undecided</span>
    """
    from markupsafe import Markup, escape

    return Markup(", ").join(
        Markup('<span class="mark">{}</span>').format(escape(m)) for m in text.split(", ") if m
    )


def _unbreakable(name) -> int:
    """The length of the longest run of ``name`` that :func:`breakable` cannot wrap (spaces
    wrap)."""
    return max((len(word) for piece in pieces(name) for word in piece.split()), default=0)


def breakable(name, for_pdf: bool = False) -> str:
    """A name as escaped HTML (a :class:`markupsafe.Markup`) that may wrap only after a separator
    (:func:`~compreport.report.naming.pieces`) or a space, never inside a word.

    ``<wbr>`` follows each run of separators (``UNED-NLP.run1`` wraps as ``UNED-`` / ``NLP.`` /
    ``run1``, never ``UNED-NL`` / ``P.run1``); ``for_pdf``: a zero-width space instead, the text
    WeasyPrint gives a ``<wbr>`` (one element and one pseudo-element fewer to style). The CSS keeps
    ``overflow-wrap: normal`` on names, so a browser (and WeasyPrint) breaks nowhere else.

    Examples
    --------
    >>> print(breakable("<b>UNED-NLP.run1"))
    &lt;b&gt;UNED-<wbr>NLP.<wbr>run1
    """
    from markupsafe import Markup, escape

    return Markup(
        ("\u200b" if for_pdf else "<wbr>").join(str(escape(part)) for part in pieces(name))
    )


#: Cache: the Jinja environment over the shipped templates, made once per process (Jinja caches
#: the compiled templates in it); no argument, one entry.
@lru_cache(maxsize=1)
def environment():
    """The one Jinja environment of the HTML renderer (autoescape on, strict undefined)."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir() / "html")),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals.update(
        MISSING=model.MISSING,
        tr=template_tr,
        lang=current,
        intervals=intervals,
        test_phrase=vocab.test_phrase,
    )
    env.filters["breakable"] = jinja2.pass_context(
        lambda ctx, name: breakable(name, ctx.get("for_pdf", False))
    )
    env.filters["count"] = count
    env.filters["marks"] = mark_spans
    env.filters["decimal"] = decimal
    env.filters["aligned"] = aligned
    return env


def aligned(cell: model.Cell, bold: bool = False):
    """A cell's text as escaped HTML; when it is bold (``cell.bold``, or ``bold``: a row set in
    bold) and a number, its fraction in a box as wide as the same digits in regular weight
    (``.frac.wN``, report.css: N ``ch``), so its decimal point sits where the column's other numbers
    put theirs."""
    from markupsafe import Markup, escape

    frac = cell.fraction if cell.bold or bold else ""
    if not frac:
        return escape(cell.text)
    whole = escape(cell.text[: -len(frac)])
    return Markup(f'{whole}<span class="frac w{len(frac)}"><span>{frac}</span></span>')


#: A relation between a symbol and its value in a page's text: ``α = 0.05``, ``p < 0.0001``,
#: ``n = 1,950``, ``B = 10,000``, ``p = (c + 1)/(R + 1)`` (the symbol, spaces, the relation as text
#: or as an entity, spaces, what begins the value).
_RELATION = re.compile(
    r"(?<![\w&#])(α|&alpha;|[pnmBRδ]|\))[ \u00a0]+(=|&lt;|<|≤|&le;|≥|&ge;)[ \u00a0]+"
    r"(?=[\d(<&−-])"
)
#: Markup and text: the text between tags is what :func:`glue_relations` edits; a ``<style>`` or
#: ``<script>`` element and a comment are markup as a whole.
_TAG = re.compile(r"(<(?:style|script)\b.*?</(?:style|script)\s*>|<!--.*?-->|<[^>]*>)", re.S | re.I)


def glue_relations(page: str) -> str:
    """``page`` with a no-break space on both sides of each relation in its text (outside tags,
    their attributes, styles, scripts and comments), so that ``α = 0.05`` or ``p < 0.0001`` never
    breaks across lines, in the browser as in the PDF (:func:`render` applies it to every page).

    Examples
    --------
    >>> glue_relations('<p title="a = 1">at &alpha; = 0.05, p &lt; 0.0001</p>') == (
    ...     '<p title="a = 1">at &alpha;\u00a0=\u00a00.05, p\u00a0&lt;\u00a00.0001</p>')
    True
    >>> glue_relations('<style>p = 1</style>p = 1') == '<style>p = 1</style>p\u00a0=\u00a01'
    True
    """
    parts = _TAG.split(page)
    parts[::2] = [_RELATION.sub("\\1\u00a0\\2\u00a0", text) for text in parts[::2]]
    return "".join(parts)


def render(template: str, **context) -> str:
    """Render one template of ``templates/html``, its relations glued (:func:`glue_relations`)."""
    return glue_relations(environment().get_template(template).render(**context))


#: Cache: keyed by the stylesheet's name, the text of a shipped file; two entries.
@cache
def stylesheet(name: str) -> str:
    """The text of one stylesheet of ``templates/html`` (``report.css``, ``team.css``)."""
    return environment().loader.get_source(environment(), name)[0]


def citation_segments(segments) -> list[dict]:
    """Prose segments as ``{"text": ...}`` or ``{"cite": "Author, year", "key": ...}`` for the
    templates."""
    return [
        {"cite": "; ".join(references.short(k) for k in s.keys), "key": s.key}
        if isinstance(s, prose.Cite)
        else {"text": s}
        for s in segments
    ]


def methods_context(settings: Settings, comps=()) -> dict:
    """The methods paragraph (of the competitions ``comps``) and its reference list."""
    segments = prose.paragraph(settings, comps)
    return {
        "segments": citation_segments(segments),
        "references": [
            {"key": k, "cite": references.short(k), "parts": references.reference_parts(k)}
            for k in prose.cited(segments)
        ],
    }


def _basename(path) -> str:
    """The last part of a path written with ``/`` or ``\\`` (an input's name on any system)."""
    return re.split(r"[\\/]", str(path or ""))[-1]


def _setting(label: str, term: vocab.Term) -> tuple[str, str, bool]:
    """A provenance row of one setting: in English its value as given to compreport (``percentile``,
    shown as code); in another language the value's label in that language (``percentil``), since
    the ids are English words (results.json keeps the ids)."""
    if current() == "en":
        return label, term.id, True
    return label, term.label, False


def provenance(analysis: Analysis, comp: CompetitionAnalysis | None = None) -> dict:
    """Version, settings, rule of the verdicts, input files with their SHA-256, notes and engine.

    ``rows`` and ``engine`` are (label, value, code): ``code`` True for a value that is an
    identifier (in English a setting as given to compreport; the engine's parts and their keys in
    every language), shown as code; in another language a setting shows its translated label.
    ``long_names``: an input's name too long to leave a SHA-256 unwrapped beside it
    (:data:`HASH_BESIDE`). Without ``comp``, the overview's: no inputs, notes or engine.
    """
    s = analysis.settings
    rows = [
        (tr("compreport version"), analysis.version, False),
        (tr("Seed"), str(s.seed), False),
        (tr("Bootstrap replicates B"), count(s.bootstrap), False),
        (tr("alpha"), decimal(s.alpha), False),
        (tr("Confidence level"), prose.level(s), False),
        _setting(tr("CI method"), vocab.CI_METHODS[s.ci_method]),
        _setting(tr("Test"), vocab.TESTS[s.test]),
        _setting(tr("Correction family"), vocab.FAMILIES[s.family]),
        _setting(tr("Correction"), vocab.CORRECTIONS[s.correction]),
        (tr("Rule of every verdict"), s.rule, False),
    ]
    out = {"rows": rows, "inputs": [], "warnings": [], "engine": [], "long_names": False}
    if comp is not None:
        out["inputs"] = [
            {"name": _basename(i.get("path")), "sha256": i.get("sha256") or model.MISSING}
            for i in comp.inputs
        ]
        out["long_names"] = any(_unbreakable(i["name"]) > HASH_BESIDE for i in out["inputs"])
        out["warnings"] = [spoken(w, {}) for w in comp.warnings]  # as results.json words them
        from markupsafe import Markup

        out["engine"] = [
            (Markup(tr("Engine: {key}", key=Markup("<code>{}</code>").format(k))), str(v), True)
            for k, v in sorted(comp.engine.items())
        ]
    return out


def _scope_svg(svg: str, prefix: str) -> str:
    """Prefix the ids of one inline SVG (and the references to them) so that several figures on
    one page cannot clash (matplotlib names clip paths and glyphs per figure)."""
    ids = set(re.findall(r'\bid="([^"]+)"', svg))
    if not ids:
        return svg
    pattern = "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
    svg = re.sub(r'\bid="(' + pattern + r')"', lambda m: f'id="{prefix}{m.group(1)}"', svg)
    return re.sub(r"#(" + pattern + r')(?=["\')])', lambda m: f"#{prefix}{m.group(1)}", svg)


def svg_markup(svg: str | None, prefix: str, for_pdf: bool = False):
    """One figure's SVG text, its ids scoped by ``prefix``, as markup for the templates (None stays
    None); ``for_pdf``: an ``<img>`` with the SVG as a ``data:`` URL, drawn alike but outside the
    page's cascade (inline, each of its hundreds of elements would be styled as HTML before being
    drawn)."""
    from markupsafe import Markup

    if svg is None:
        return None
    svg = re.sub(r"^\s*<!DOCTYPE[^>]*>\s*", "", svg.strip())
    if for_pdf:
        import base64

        return Markup('<img alt="" src="data:image/svg+xml;base64,{}">').format(
            base64.b64encode(svg.encode("utf-8")).decode("ascii")
        )
    return Markup(_scope_svg(svg, prefix))


def figure_blocks(
    analysis: Analysis, comp: CompetitionAnalysis, gallery: Gallery, for_pdf: bool = False
) -> tuple[dict, list]:
    """The figures of one competition as markup (:func:`svg_markup`): ``({metric name: [figure,
    ...]}, [other figures])``."""
    stems = {stem: name for name, stem in metric_stems(comp).items()}
    per_metric: dict[str, list] = {ma.name: [] for ma in comp.metrics}
    others: list = []
    for i, stem in enumerate(gallery.stems(comp)):
        kind, _, rest = whole_stem(stem).partition("-")  # a part goes with its metric
        item = {
            "stem": stem,
            "svg": svg_markup(gallery.svg(comp.id, stem), f"f{i}-", for_pdf),
            "caption": prose.figure_caption(kind, analysis.settings),
            "full": None if for_pdf else gallery.full_size(comp.id, stem),
        }
        (per_metric[stems[rest]] if rest in stems else others).append(item)
    return per_metric, others


def portrait_columns(fmt: model.Format) -> int:
    """How many columns of the pairwise matrix fit a PDF page: cells such as ``0.123 ***``
    at 7 pt (DejaVu Sans: digits 0.636 em, the point and a space 0.318 em, an asterisk 0.5 em) with
    0.3 em of padding each side, within :data:`MATRIX_PORTRAIT_PT`.

    Examples
    --------
    >>> portrait_columns(model.Format()), portrait_columns(model.Format(diff_decimals=5))
    (11, 9)
    """
    em = 7.0
    digits = 1 + fmt.diff_decimals  # "0.123": the differences are oriented, never negative
    cell = (0.636 * digits + 0.318 * 2 + 0.5 * 3 + 0.6) * em
    return max(1, int(MATRIX_PORTRAIT_PT // cell))


def matrix_context(
    comp: CompetitionAnalysis, ma: MetricAnalysis, fmt: model.Format, *, for_pdf: bool
) -> dict:
    """The pairwise matrix (paper Table 4) as blocks of columns ready for the template."""
    t = model.pair_matrix(comp, ma, fmt)
    position = t.extra["position"]
    cols = list(t.columns)
    per_block = max(len(cols), 1)
    if for_pdf:  # the fewest blocks that fit the page, as even as possible (24: 8 + 8 + 8)
        per_block = math.ceil(per_block / math.ceil(per_block / portrait_columns(fmt)))
    blocks = []
    for start in range(0, len(cols), per_block):
        bcols = cols[start : start + per_block]
        rows = [
            {"system": r.label, "pos": position[r.label], "cells": [r.cells.get(c) for c in bcols]}
            for r in t.rows
            if any(c in r.cells for c in bcols)
        ]
        blocks.append(
            {
                "columns": [{"system": c, "pos": position[c]} for c in bcols],
                "rows": rows,
                "first": position[bcols[0]] if bcols else 0,
                "last": position[bcols[-1]] if bcols else 0,
            }
        )
    return {
        "blocks": blocks,
        "named": len(cols) <= MATRIX_NAMED_COLUMNS,
        "ncols": len(cols),
        "untested": any(cell.level == -2 for r in t.rows for cell in r.cells.values()),
        "undecided": any(cell.mark == "?" for r in t.rows for cell in r.cells.values()),
    }


def metric_context(
    comp: CompetitionAnalysis, ma: MetricAnalysis, fmt: model.Format, *, for_pdf: bool
) -> dict:
    """One metric's section: ordered CIs, differences from the best (the page shows the columns
    :data:`~compreport.report.model.DIFF_BEST_SHOWN`), the pairwise matrix; with many systems
    (:func:`~compreport.report.model.many_systems`) no matrix (``many``: the heat map figure
    stands for it). Every pair's raw and corrected p-values are in ``pairs_csv``, not on the
    page."""
    many = model.many_systems(comp)
    return {
        "id": ma.name,
        "name": metric_label(ma),
        "title": metric_title(ma),
        "primary": ma.primary,
        "best": ma.best,
        "direction": prose.direction(ma),
        "ci": model.confidence_intervals(comp, ma, fmt),
        "diffs": model.differences_from_best(comp, ma, fmt),
        "matrix": None if many else matrix_context(comp, ma, fmt, for_pdf=for_pdf),
        "figures": [],
        "many": many and bool(ma.pairs),
        "m": len(comp.systems),
        "pairs_csv": pairs_file(comp, ma.name),
        # only the marks a corrected p-value can earn (as the LaTeX matrix caption and the heat map)
        "stars": [
            (t, mark, len(vocab.STARS) - 1 - i)
            for i, (t, mark) in enumerate(vocab.STARS)
            if (t, mark) in model.possible_marks(ma)
        ],
    }


def competition_context(
    analysis: Analysis,
    comp: CompetitionAnalysis,
    fmt: model.Format,
    gallery: Gallery | None,
    *,
    for_pdf: bool = False,
) -> dict:
    """Everything one competition page shows."""
    s = analysis.settings
    metrics = [metric_context(comp, ma, fmt, for_pdf=for_pdf) for ma in comp.metrics]
    other_figures = []
    if gallery is not None:
        per_metric, other_figures = figure_blocks(analysis, comp, gallery, for_pdf)
        for mc in metrics:
            mc["figures"] = per_metric.get(mc["id"], [])
    lb = model.leaderboard(comp, fmt)
    return {
        "for_pdf": for_pdf,
        "comp": comp,
        "subtitle": prose.subtitle(comp),
        "settings": s,
        "level": prose.level(s),
        "ci_method": vocab.CI_METHODS[s.ci_method].label,
        "metrics": metrics,
        "leaderboard": lb,
        # the teams' ranking says more than the leaderboard when a team has several runs
        "teams": (
            model.team_ranking(comp, fmt) if any(len(t.runs) > 1 for t in comp.team_ranks) else None
        ),
        "diff_keys": model.DIFF_BEST_SHOWN,
        "score_keys": [f"score:{ma.name}" for ma in comp.metrics],
        "primary": {"name": metric_label(comp.primary), "direction": prose.direction(comp.primary)},
        "has_baselines": any(r.baseline for r in lb.rows),
        # what the leaderboard's "beats <baseline>" mark means, and which family it comes from
        "beats_note": prose.beats_mark_note(s)
        if comp.baselines and s.family == "vs-baseline"
        else "",
        "rule": s.rule,
        "many": model.many_systems(comp),
        "other_figures": [f for f in other_figures if f["stem"] != "confusion"],
        "confusion_figures": [f for f in other_figures if f["stem"] == "confusion"],
        "classes": model.per_class(comp, fmt),
        "methods": methods_context(s, [comp]),
        "provenance": provenance(analysis, comp),
        "unit": prose.unit(comp),
        "fmt": fmt,
        "family_words": vocab.FAMILIES[s.family].words,
        "alerts": alerts(s, comp),
        # the stored flags, counted
        "unsettled": sum(c.settled is False for ma in comp.metrics for c in ma.pairs),
        # with several metrics, where they are: "accuracy: 2, F1 (positive class 1): 1" (the
        # leaderboard's marks count the ranking metric's only)
        "unsettled_where": ", ".join(
            f"{metric_label(ma)}: {count(k)}"
            for ma in comp.metrics
            if (k := sum(c.settled is False for c in ma.pairs))
        )
        if len(comp.metrics) > 1
        else "",
    }


def alerts(settings, comp: CompetitionAnalysis) -> list[str]:
    """The sentences a reader must see first (:func:`~compreport.report.prose.cannot_reject`)."""
    return [a for a in (prose.cannot_reject(settings, ma) for ma in comp.metrics) if a]


def competition_html(
    analysis: Analysis,
    comp: CompetitionAnalysis,
    fmt: model.Format | None = None,
    gallery: Gallery | None = None,
    *,
    for_pdf: bool = False,
) -> str:
    """One self-contained HTML page for one competition.

    The teams' ranking (when a team has several runs) and the leaderboard with CIs, significance
    groups and teams (when they say more than the run names:
    :func:`~compreport.report.model.shows_teams`); per metric the
    ordered CIs, the differences from the best with the one p-value behind each verdict, the
    lower-triangular pairwise matrix shaded by the stored verdict p-value, and the figures (inline
    SVG, from ``gallery``; none without one); then the methods paragraph with its references and
    the provenance. The raw and other corrected p-values are in the CSV exports and the LaTeX
    appendix.
    ``for_pdf``: no link back to the overview, wide matrices split in blocks of columns,
    no ``<style>``, figures as images, U+200B for
    ``<wbr>`` (see the module's notes).
    """
    return render(
        "competition.html",
        **competition_context(analysis, comp, fmt or model.Format(), gallery, for_pdf=for_pdf),
    )


def _runs(items: list, key) -> list[list]:
    """Consecutive items with the same ``key``, as lists."""
    runs: list[list] = []
    for item in items:
        if runs and key(runs[-1][0]) == key(item):
            runs[-1].append(item)
        else:
            runs.append([item])
    return runs


def _spans(values: list) -> list[tuple[str, int]]:
    """Consecutive equal values as ``(label, count)``; a tuple value is labelled by its last
    element."""
    return [
        (run[0][-1] if isinstance(run[0], tuple) else run[0], len(run))
        for run in _runs(values, lambda v: v)
    ]


def _counted(cell: model.Cell) -> model.Cell:
    """A whole number's cell written as every count on the pages is
    (:func:`~compreport.language.count`: ``1,950`` beside ``n = 1,950``); other cells as they
    are."""
    v = cell.value
    if isinstance(v, numbers.Integral) and not isinstance(v, bool):
        return model.Cell(v, count(v), cell.bold)
    return cell


def summary_blocks(analysis: Analysis, fmt: model.Format, *, for_pdf: bool) -> list[dict]:
    """The competitiveness summary as tables whose columns are grouped challenge -> task -> language
    (the paper's Tables 7-11); in PDF split into blocks of at most :data:`SUMMARY_COLUMNS_PER_BLOCK`
    columns, never splitting a challenge unless it alone is wider."""
    t = model.summary(analysis, fmt)
    comps = {c.id: c for c in analysis.competitions}
    link = "report.pdf" if for_pdf else "report.html"
    columns = []
    for cid in t.columns:
        challenge, task, language, metric = t.extra["headings"][cid]
        columns.append(
            {
                "challenge": challenge,
                "task": task,
                "language": language or comps[cid].name,
                "metric": metric_label(metric),
                "id": cid,
                "name": comps[cid].name,
                "href": f"{cid}/{link}",
                "ppi_unit": t.extra["ppi_unit"][cid],
                "cells": [_counted(r.cells[cid]) for r in t.rows],
            }
        )
    limit = SUMMARY_COLUMNS_PER_BLOCK if for_pdf else max(len(columns), 1)
    blocks: list[list[dict]] = []
    for challenge_cols in _runs(columns, lambda c: c["challenge"]):
        for start in range(0, len(challenge_cols), limit):
            piece = challenge_cols[start : start + limit]
            if blocks and len(blocks[-1]) + len(piece) <= limit:
                blocks[-1].extend(piece)
            else:
                blocks.append(list(piece))
    # a heading row that only repeats the competitions' names (no challenge, task or language
    # given) is left out
    said = {
        level: any(c[level] not in ("", c["name"]) for c in columns)
        for level in ("challenge", "task", "language")
    }
    return [
        {
            "said": said,
            "challenge_spans": _spans([c["challenge"] for c in cols]),
            "task_spans": _spans([(c["challenge"], c["task"]) for c in cols]),
            "metric_spans": _spans([(c["challenge"], c["task"], c["metric"]) for c in cols]),
            "columns": cols,
            "rows": [
                {"name": r.label, "cells": [c["cells"][i] for c in cols]}
                for i, r in enumerate(t.rows)
            ],
            "ppi_note": _ppi_note(t, [c["id"] for c in cols]),
            # plain text: the template escapes it
            "not_computable_note": prose.not_computable_note(t, [c["id"] for c in cols]),
        }
        for cols in blocks
    ]


def _ppi_note(summary, ids) -> object:
    """:func:`~compreport.report.prose.ppi_note` as markup, its names escaped; None for none."""
    from markupsafe import Markup, escape

    note = prose.ppi_note(summary, ids, escape)
    return None if note is None else Markup(note)


def index_html(
    analysis: Analysis,
    fmt: model.Format | None = None,
    gallery: Gallery | None = None,
    *,
    for_pdf: bool = False,
) -> str:
    """The workshop overview: competitiveness summary per challenge (columns task -> language, as
    the paper's Tables 7-11), its legend (Table 6), the workshop figure (with two competitions or
    more) and a link to each competition's report (``<id>/report.html``, or ``report.pdf`` when
    ``for_pdf``)."""
    fmt = fmt or model.Format()
    link = "report.pdf" if for_pdf else "report.html"
    competitions = [
        {
            "id": c.id,
            "name": c.name,
            "subtitle": prose.subtitle(c),
            "n": c.n,
            "m": len(c.systems),
            "metric": metric_label(c.primary),
            "best": c.primary.best,
            "href": f"{c.id}/{link}",
        }
        for c in analysis.competitions
    ]
    from markupsafe import Markup

    # the workshop figure compares competitions: with one, its charts would have one bar each; a
    # figure split into parts shows them one after the other
    workshop_svg = (
        Markup("").join(
            svg_markup(gallery.svg("summary", stem), f"w{i}-", for_pdf) or ""
            for i, stem in enumerate(gallery.summary_stems())
        )
        if gallery is not None and len(analysis.competitions) > 1
        else None
    )
    return render(
        "index.html",
        for_pdf=for_pdf,
        settings=analysis.settings,
        level=prose.level(analysis.settings),
        title=prose.title(analysis),
        summaries=summary_blocks(analysis, fmt, for_pdf=for_pdf),
        legend=model.legend(),
        competitions=competitions,
        workshop_svg=workshop_svg,
        methods=methods_context(analysis.settings, analysis.competitions),
        provenance=provenance(analysis),
        ties_words=prose.ties_family(analysis.settings),
        ties_test=vocab.test_phrase(analysis.settings.test),
        ties_family_words=vocab.FAMILIES[analysis.settings.family].words,
        ties_correction=tr(vocab.CORRECTIONS[analysis.settings.correction].label),
        ties_settings=prose.ties_settings(analysis.settings),
    )


def _write(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` (UTF-8, ``\\n`` line ends), making its folder; return ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with files.open_new(path, encoding="utf-8", newline="\n") as fh:
        fh.write(text)
    return path


def write_html(
    analysis: Analysis, out: Path, fmt: model.Format | None = None, gallery: Gallery | None = None
) -> list[Path]:
    """Write ``out/index.html`` and ``out/<id>/report.html`` for every competition; return the
    paths written (``gallery``: the report's figures, by default a new gallery drawing them)."""
    out = Path(out)
    gallery = gallery if gallery is not None else Gallery(analysis)
    written = [_write(out / "index.html", index_html(analysis, fmt, gallery))]
    for comp in analysis.competitions:
        written.append(
            _write(
                competition_dir(out, comp) / "report.html",
                competition_html(analysis, comp, fmt, gallery),
            )
        )
    return written
