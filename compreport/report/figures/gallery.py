"""The report's figures: paper Figures 1-3, metric facets, heat maps, the workshop figure.

Every figure is built with the object API (:class:`matplotlib.figure.Figure` on an Agg canvas): no
pyplot, no global state. The style (fonts, PDF/SVG options) is applied through
:func:`matplotlib.rc_context` around building *and* saving (:mod:`compreport.report.figures.style`),
so use :func:`save` or :func:`to_svg` rather than ``fig.savefig`` to get embedded TrueType fonts,
text kept as text in SVG and byte-reproducible files.

Nothing here computes statistics: scores, intervals, differences and p-values are read from the
:class:`~compreport.stats.results.MetricAnalysis`; the one array derived is the bootstrap
distribution of a difference, from
:meth:`~compreport.stats.results.MetricAnalysis.difference_replicates`.

Team names are shown literally: mathtext is off (``$x^2$``, ``a_b`` and ``100%`` are not
interpreted) and SVG text is XML-escaped by matplotlib.

This module imports matplotlib; nothing else in the package imports it at module level, so
``--format json`` never loads matplotlib.
"""

from __future__ import annotations

import contextlib
import functools
import io
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import NamedTuple

import matplotlib
import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from compreport.language import N_, comma, count, marked, tr
from compreport.language import vocabulary as vocab
from compreport.options import OPTIONS
from compreport.output import files
from compreport.report.figures import FIGURE_FORMATS
from compreport.report.figures.glyphs import held_glyph_warnings, warn_missing_glyphs
from compreport.report.figures.heatmaps import confusion_plot, pairs_plot
from compreport.report.figures.style import (
    DIFFERS_COLOR,
    METADATA,
    OKABE_ITO,
    PNG_DPI,
    RC,
    ROW_IN,
    ROWS_PER_FIGURE,
    TEXT,
    TIED_COLOR,
    UNDECIDED_COLOR,
    UNDEFINED_COLOR,
    ReportFigure,
    ci_legend_handles,
    draw_intervals,
    interval_span,
    label_width,
    lattice_bins,
    lean_pdf_fonts,
    lower_note,
    new_figure,
    padded_span,
    pct,
    row_parts,
    set_system_ticks,
    shared_text_metrics,
    styled,
)
from compreport.report.figures.workshop import workshop_plot, workshop_rows
from compreport.report.metricnames import metric_label, metric_title
from compreport.report.model import Format, many_systems
from compreport.report.naming import check_names, metric_stems
from compreport.report.prose import direction, draws, p_resamples
from compreport.stats.results import Analysis, CompetitionAnalysis, MetricAnalysis

#: The defaults of a figure drawn without the run's settings: the option schema's.
_LEVEL, _TEST = 1 - OPTIONS["alpha"].default, OPTIONS["test"].default


def _part_note(rows: slice | None, m: int) -> str:
    """``" (systems 26–50 of 150)"``: the rows one part of a split figure shows; ``""`` for a
    figure that shows all ``m``."""
    if rows is None or (rows.start or 0, rows.stop) == (0, m):
        return ""
    return " " + tr(
        "(systems {first}–{last} of {m})", first=rows.start + 1, last=rows.stop, m=count(m)
    )


@styled
def ci_plot(
    comp: CompetitionAnalysis,
    metric: MetricAnalysis,
    *,
    level: float = _LEVEL,
    rows: slice | None = None,
) -> Figure:
    """Ordered bootstrap confidence intervals (paper Fig. 1): one row per system, best at top.

    Point: observed score; bar: the ``level`` CI of :class:`~compreport.stats.results.Score`.
    Baselines get another colour and marker (a diamond) and a legend entry. The intervals
    are the LineCollection with gid ``"ci-intervals"`` (segment i = ``metric.scores[i]``, of
    ``metric.scores[rows]`` for one part). ``rows``: the systems (in rank order) of one part of a
    split figure (:func:`~compreport.report.figures.style.row_parts`), on the x-axis of all of them.
    """
    every = [s.system for s in metric.scores]
    names = every[rows] if rows is not None else every
    baselines = set(comp.baselines)
    scores = {s.system: s for s in metric.scores}
    span = interval_span(every, scores, baselines) if len(names) < len(every) else None
    m = len(names)
    fig = new_figure(3.3 + label_width(names), 1.45 + ROW_IN * m)
    ax = fig.add_subplot()
    draw_intervals(ax, names, scores, baselines, "ci-intervals", span)
    set_system_ticks(ax, names)
    ax.set_xlabel(
        tr(
            "{metric} with {level} bootstrap CI ({direction})",
            metric=metric_label(metric),
            level=pct(level),
            direction=direction(metric),
        ),
        **TEXT,
    )
    ax.set_title(
        comp.name
        + "\n"
        + tr("ordered bootstrap confidence intervals of {metric}", metric=metric_title(metric))
        + _part_note(rows, len(every)),
        loc="left",
        **TEXT,
    )
    fig.legend(
        handles=ci_legend_handles(level, bool(baselines & set(names))),
        loc="outside lower center",
        ncols=2,
    )
    return fig


class VerdictLook(NamedTuple):
    """How the difference figure draws one stored verdict: colour, marker, marker face and the
    legend's label (English, marked for translation)."""

    color: str
    marker: str
    face: str
    label: str
    what: str  # the points' gid: ``diff-<what>``


#: The look of each stored verdict (``Comparison.significant``) in the difference figure, its
#: points and its legend alike: a colour of the Okabe-Ito palette AND a marker shape and fill of
#: its own, so that a grey-scale print tells the verdicts apart.
VERDICT_LOOK = MappingProxyType(
    {
        True: VerdictLook(
            DIFFERS_COLOR,
            "s",
            DIFFERS_COLOR,
            N_("significantly different from the best"),
            "differs",
        ),
        False: VerdictLook(TIED_COLOR, "o", "white", N_("tied with the best"), "tied"),
        None: VerdictLook(UNDEFINED_COLOR, "^", UNDEFINED_COLOR, N_("not tested"), "untested"),
        "undecided": VerdictLook(
            UNDECIDED_COLOR, "D", UNDECIDED_COLOR, N_("undecided (Monte-Carlo error)"), "undecided"
        ),
    }
)


def _verdict_marker(look: VerdictLook) -> dict:
    """The marker keyword arguments of ``Line2D`` for one verdict's points and legend handle."""
    return {
        "color": look.color,
        "marker": look.marker,
        "markerfacecolor": look.face,
        "markersize": 4.5,
        "markeredgewidth": 1.2,
    }


@styled
def diff_plot(
    comp: CompetitionAnalysis,
    metric: MetricAnalysis,
    *,
    level: float = _LEVEL,
    rows: slice | None = None,
) -> Figure:
    """CIs of the differences from the best (paper Fig. 2), one row per other system.

    Each row is coloured by its stored verdict (``Comparison.significant``, the report's
    correction and family), never by whether its uncorrected interval excludes 0, with the colour
    and marker of :data:`VERDICT_LOOK` in the points and the legend: bluish green ("green", a
    filled square) where it differs significantly from the best, vermillion ("orange", an open
    circle) where it ties with the best, reddish purple ("pink", a diamond) where the verdict is
    undecided (within the Monte-Carlo error of its p-values), grey (a triangle) where the
    comparison is not tested or undefined; a vertical line at 0. Differences are oriented so
    positive means the best is better. The intervals are the LineCollection with gid
    ``"diff-intervals"`` (segment i = ``metric.vs_best[i]``, of ``metric.vs_best[rows]`` for one
    part). ``rows``: the comparisons of one part of a split figure
    (:func:`~compreport.report.figures.style.row_parts`), on the x-axis of all of them.
    """
    every = list(metric.vs_best)
    comps = every[rows] if rows is not None else every
    names = [c.b for c in comps]
    m = len(names)
    fig = new_figure(3.3 + label_width(names), 1.6 + ROW_IN * max(m, 1))
    ax = fig.add_subplot()
    y = np.arange(m)
    verdicts = [
        "undecided"
        if c.undecided
        else True
        if c.significant is True
        else False
        if c.significant is False
        else None
        for c in comps
    ]
    differs, tied, untested, undecided = (
        np.array([v is want for v in verdicts], dtype=bool)
        for want in (True, False, None, "undecided")
    )
    colors = [VERDICT_LOOK[v].color for v in verdicts]
    ax.axvline(0, color=OKABE_ITO["black"], linewidth=0.8, zorder=1)
    ax.hlines(
        y,
        [c.ci_low for c in comps],
        [c.ci_high for c in comps],
        colors=colors,
        linewidth=1.8,
        gid="diff-intervals",
    )
    diff = np.array([c.diff for c in comps], dtype=float)
    looks = ((False, tied), (True, differs), ("undecided", undecided), (None, untested))
    for verdict, sel in looks:
        if sel.any():
            look = VERDICT_LOOK[verdict]
            ax.plot(
                diff[sel],
                y[sel],
                linestyle="none",
                **_verdict_marker(look),
                zorder=3,
                gid=f"diff-{look.what}",
            )
    if len(comps) < len(every):  # one part: the x-axis of every comparison, 0 included
        ax.set_xlim(
            *padded_span(
                [0.0]
                + [c.ci_low for c in every]
                + [c.ci_high for c in every]
                + [c.diff for c in every]
            )
        )
    set_system_ticks(ax, names)
    ax.set_xlabel(
        tr(
            "difference in {metric} from the best, {level} bootstrap CI (positive: the best is "
            "better{note})",
            metric=metric_label(metric),
            level=pct(level),
            note=lower_note(metric),
        ),
        **TEXT,
    )
    ax.set_title(
        comp.name
        + "\n"
        + tr(
            "differences in {metric} from the best, {best}",
            metric=metric_label(metric),
            best=metric.best,
        )
        + _part_note(rows, len(every)),
        loc="left",
        **TEXT,
    )
    shown = (False, True)
    shown += ("undecided",) if undecided.any() else ()
    shown += (None,) if untested.any() else ()
    handles = [
        Line2D(
            [],
            [],
            linewidth=1.8,
            label=tr(VERDICT_LOOK[v].label),
            **_verdict_marker(VERDICT_LOOK[v]),
        )
        for v in shown
    ]
    fig.legend(handles=handles, loc="outside lower center", ncols=len(handles))
    return fig


@styled
def distribution_plot(
    comp: CompetitionAnalysis, metric: MetricAnalysis, a: str, b: str, test: str = _TEST
) -> Figure:
    """Histogram of the bootstrap distribution of the difference ``a - b`` (paper Fig. 3).

    Vertical lines at 0, δ(x) and 2δ(x) (δ(x) the observed difference of the stored Comparison); the
    shaded region is what the bootstrap p-value counts: beyond 0 and beyond 2δ(x) (at least |δ(x)|
    from δ(x)) for the two-sided test, beyond 2δ(x) for Berg-Kirkpatrick's. The title shows the
    unadjusted p-value of the stored Comparison (a pair stored as (b, a) is shown with its
    orientation flipped). With ``test="randomization"`` the p-value comes from the randomization
    test, not from this histogram: nothing is shaded and the title says so. When refinement drew
    more resamples (rounds of the randomization test) for the p-value than the B of the histogram,
    the title says how many, and under the bootstrap test the histogram's legend that it holds the
    first B of them.

    Raises
    ------
    ValueError
        Without replicates.
    """
    reps = metric.difference_replicates(a, b)
    c, flipped = metric.pair(a, b)
    delta = -c.diff if flipped else c.diff
    reps = reps[np.isfinite(reps)]
    first = metric.replicates.shape[0]  # B, undefined differences included
    resamples = p_resamples(metric, first)
    fig = new_figure(5.6, 4.2)
    ax = fig.add_subplot()
    ax.hist(
        reps,
        bins=lattice_bins(reps),
        color=OKABE_ITO["sky_blue"],
        edgecolor="white",
        linewidth=0.3,
        zorder=2,
        label=tr("first {b} of {resamples} replicates", b=count(first), resamples=count(resamples))
        if resamples and test != "randomization"
        else tr("bootstrap replicates (B = {b})", b=count(reps.size)),
        gid="dist-histogram",
    )
    lines = (
        (0.0, "0", OKABE_ITO["black"], "-"),
        (delta, f"δ(x) = {marked(f'{delta:.4f}')}", OKABE_ITO["blue"], "--"),
        (2 * delta, f"2δ(x) = {marked(f'{2 * delta:.4f}')}", OKABE_ITO["vermillion"], ":"),
    )
    for x, label, color, style in lines:
        ax.axvline(x, color=color, linestyle=style, linewidth=1.4, label=label, zorder=3)
    lo, hi = ax.get_xlim()
    pad = 0.04 * (hi - lo)
    lo, hi = min(lo, 2 * delta - pad, -pad), max(hi, 2 * delta + pad, pad)
    if delta != 0 and test != "randomization":
        spans = [(2 * delta, hi) if delta > 0 else (lo, 2 * delta)]
        if test == "bootstrap":  # two-sided: the other tail, at or beyond 0
            spans.append((lo, 0.0) if delta > 0 else (0.0, hi))
        for k, span in enumerate(spans):
            ax.axvspan(
                *span,
                color=OKABE_ITO["vermillion"],
                alpha=0.10,
                linewidth=0,
                zorder=1,
                label=tr("region counted in the p-value") if k == 0 else None,
            )
    ax.set_xlim(lo, hi)
    ax.grid(True, axis="y")
    ax.set_xlabel(
        tr(
            "difference in {metric} (positive: {a} better{note})",
            metric=metric_label(metric),
            a=a,
            note=lower_note(metric),
        ),
        **TEXT,
    )
    ax.set_ylabel(tr("replicates"))
    which = "" if test == "bootstrap" else f" ({vocab.test_phrase(test)})"
    if resamples:  # refined: the p-value is not this histogram's
        which += tr(" (from {draws})", draws=draws(test, resamples))
    ax.set_title(
        f"{a} − {b}: δ(x) = {marked(f'{delta:.4f}')}, "
        + Format(decimal_comma=comma()).p_is(c.p_value, tr("raw p-value(x)"))
        + which,
        loc="left",
        **TEXT,
    )
    fig.suptitle(
        comp.name
        + ": "
        + tr("bootstrap distribution of the difference in {metric}", metric=metric_title(metric)),
        **TEXT,
    )
    fig.legend(loc="outside lower center", ncols=3)
    for t in fig.legends[0].get_texts():
        t.set_parse_math(False)
    return fig


#: Panels side by side in the figure of every metric.
FACET_COLUMNS = 2


def facet_rows(comp: CompetitionAnalysis) -> int:
    """Most systems a part of :func:`facet_plot` shows: the panel rows of all metrics fit the
    height of a figure of :data:`~compreport.report.figures.style.ROWS_PER_FIGURE` rows."""
    panel_rows = -(-len(comp.metrics) // FACET_COLUMNS)
    budget = 0.8 + 0.9 + ROW_IN * ROWS_PER_FIGURE  # the height of the tallest CI figure
    return max(5, int((budget - 0.8 - 0.9 * panel_rows) / (ROW_IN * panel_rows)))


@styled
def facet_plot(
    comp: CompetitionAnalysis, *, level: float = _LEVEL, rows: slice | None = None
) -> Figure | None:
    """One panel of ordered CIs per metric (:data:`FACET_COLUMNS` panels a row), systems in the
    primary metric's order; None for one metric. ``rows``: the systems of one part of a split
    figure (:func:`facet_rows` a part), each panel on the x-axis of all of them."""
    if len(comp.metrics) < 2:
        return None
    every = [s.system for s in comp.primary.scores]
    names = every[rows] if rows is not None else every
    baselines = set(comp.baselines)
    k = len(comp.metrics)
    ncols = min(k, FACET_COLUMNS)
    nrows = -(-k // ncols)
    fig = new_figure(
        label_width(names) + 0.6 + 1.4 * ncols, nrows * (0.9 + ROW_IN * len(names)) + 0.8
    )
    axes = np.atleast_1d(fig.subplots(nrows, ncols, sharey=True, squeeze=False)).ravel()
    for i, (ax, metric) in enumerate(zip(axes, comp.metrics)):
        scores = {s.system: s for s in metric.scores}
        span = interval_span(every, scores, baselines) if len(names) < len(every) else None
        draw_intervals(ax, names, scores, baselines, f"facet-{i}-intervals", span)
        set_system_ticks(ax, names)
        what = tr("primary, ") if metric.primary else ""
        ax.set_title(f"{metric_label(metric)}\n({what}{direction(metric)})", **TEXT)
        ax.set_xlabel(tr("score, {level} CI", level=pct(level)))
    for ax in axes[k:]:
        ax.set_visible(False)
    fig.suptitle(
        comp.name
        + "\n"
        + tr("every metric (systems in the order of {metric})", metric=metric_label(comp.primary))
        + _part_note(rows, len(every)),
        **TEXT,
    )
    fig.legend(
        handles=ci_legend_handles(level, bool(baselines & set(names))),
        loc="outside lower center",
        ncols=2,
    )
    return fig


def figure_builders(
    comp: CompetitionAnalysis, level: float, test: str = _TEST
) -> Iterator[tuple[str, Callable[[], Figure]]]:
    """``(stem, build)`` for every figure of one competition, in drawing order; ``build()`` draws
    it (:func:`competition_figures` lists the stems)."""
    stems = metric_stems(comp)
    for metric in comp.metrics:
        key = stems[metric.name]
        for stem, rows in _parts(f"ci-{key}", len(metric.scores)):
            yield stem, functools.partial(ci_plot, comp, metric, level=level, rows=rows)
        if metric.vs_best:  # another competing system
            for stem, rows in _parts(f"diff-{key}", len(metric.vs_best)):
                yield stem, functools.partial(diff_plot, comp, metric, level=level, rows=rows)
            if metric.replicates is not None and metric.replicates.shape[0] > 0:
                a, b = metric.best, metric.runner_up or metric.vs_best[0].b
                yield f"dist-{key}", functools.partial(distribution_plot, comp, metric, a, b, test)
        if metric.pairs and many_systems(comp):  # the pair tables give way to a heat map
            yield f"pairs-{key}", functools.partial(pairs_plot, comp, metric)
    if len(comp.metrics) > 1:
        for stem, rows in _parts("facets", len(comp.primary.scores), facet_rows(comp)):
            yield stem, functools.partial(facet_plot, comp, level=level, rows=rows)
    if comp.classes:
        yield "confusion", functools.partial(confusion_plot, comp)


#: How the stem of one part of a split figure ends: ``ci-f1-part2``.
PART = re.compile(r"-part[0-9]+$")


def _parts(stem: str, m: int, per: int = ROWS_PER_FIGURE) -> list[tuple[str, slice | None]]:
    """``(stem, rows)`` of each part of a figure of ``m`` rows: ``[(stem, None)]`` when it fits one
    figure, else ``<stem>-part1``, ``<stem>-part2``, ... with their rows
    (:func:`~compreport.report.figures.style.row_parts`)."""
    parts = row_parts(m, per)
    if len(parts) == 1:
        return [(stem, None)]
    return [(f"{stem}-part{i}", rows) for i, rows in enumerate(parts, 1)]


def whole_stem(stem: str) -> str:
    """The stem of the figure that ``stem`` is a part of (``ci-f1-part2`` -> ``ci-f1``); ``stem``
    itself for a figure that is not split."""
    return PART.sub("", stem)


def competition_figures(
    comp: CompetitionAnalysis, *, level: float = _LEVEL, test: str = _TEST
) -> dict[str, Figure]:
    """Every figure of one competition, keyed by file stem.

    ``ci-<metric>``; ``diff-<metric>`` when m >= 2; ``dist-<metric>`` (winner vs runner-up) when
    m >= 2 and replicates are held; ``pairs-<metric>`` (a heat map) for many systems
    (:func:`~compreport.report.model.many_systems`); ``facets`` when there are several metrics;
    ``confusion`` with per-class scores. ``<metric>`` is the metric's stem
    (:func:`compreport.report.naming.metric_stems`). ``ci``, ``diff`` and ``facets`` figures of
    more rows than fit one (:data:`~compreport.report.figures.style.ROWS_PER_FIGURE`) are split
    into ``<stem>-part1``, ``<stem>-part2``, ...
    """
    return {stem: build() for stem, build in figure_builders(comp, level, test)}


@styled
def to_svg(fig: Figure, *, salt: str | None = None) -> str:
    """The figure as inline SVG text (no XML declaration or doctype), for embedding in HTML.

    ``salt`` (default ``"compreport"``) seeds the ids of clip paths; give each figure of one
    HTML page its own salt (its stem, say) so ids never repeat across inline SVGs.
    """
    buf = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": salt or RC["svg.hashsalt"]}):
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata=METADATA["svg"])
    return _inline(buf.getvalue().decode("utf-8"))


@styled
def save(
    fig: Figure, path_without_suffix: Path, formats: Sequence[str] = ("pdf", "svg")
) -> list[Path]:
    """Write ``fig`` as ``<path_without_suffix>.<fmt>`` for each of ``formats`` (pdf, svg, png at
    200 dpi)."""
    base = Path(path_without_suffix)
    bad = [f for f in formats if f not in FIGURE_FORMATS]
    if bad:
        raise ValueError(
            f"unknown figure format(s) {', '.join(map(repr, bad))}; use {', '.join(FIGURE_FORMATS)}"
        )
    base.parent.mkdir(parents=True, exist_ok=True)
    written = []
    bbox = fig.fix_layout() if isinstance(fig, ReportFigure) and len(formats) > 1 else "tight"
    for fmt in formats:
        path = base.with_name(f"{base.name}.{fmt}")
        with (
            lean_pdf_fonts() if fmt == "pdf" else contextlib.nullcontext(),
            files.open_new(path, "wb") as fh,
        ):
            fig.savefig(
                fh,
                format=fmt,
                bbox_inches=bbox,
                metadata=METADATA[fmt],
                **({"dpi": PNG_DPI} if fmt == "png" else {}),
            )
        written.append(path)
    return written


class Gallery:
    """Every figure of one report, each drawn once: saved as files, kept as SVG for HTML and PDF.

    Owned by one :class:`compreport.report.Report` (no module-level cache). ``pdfs`` lists, per
    competition id, the figure PDFs written (paths relative to the report root) for the appendix;
    ``files`` holds, per ``(folder, stem)``, the file names written for that figure.
    """

    def __init__(self, analysis: Analysis):
        self.analysis = analysis
        self._svg: dict[tuple[str, str], str] = {}
        self.pdfs: dict[str, list[str]] = {}
        self.files: dict[tuple[str, str], list[str]] = {}

    def full_size(self, folder: str, stem: str) -> str | None:
        """The file of one figure a web page links to for viewing it at full size (its SVG, else
        its PNG, else its PDF), relative to the folder's page (``figures/<stem>.svg``); None when
        no file of it was written."""
        names = self.files.get((folder, stem), [])
        for fmt in ("svg", "png", "pdf"):
            name = f"{stem}.{fmt}"
            if name in names:
                return name if folder == "summary" else f"figures/{name}"
        return None

    def _builders(self) -> Iterator[tuple[str, str, Callable[[], Figure | None]]]:
        """(folder, stem, build) of every figure; folder is a competition id or ``summary``."""
        s = self.analysis.settings
        for comp in self.analysis.competitions:
            for stem, build in figure_builders(comp, s.level, s.test):
                yield comp.id, stem, build
        for stem, rows in _parts(
            "competitiveness", len(self.analysis.competitions), workshop_rows(self.analysis)
        ):
            yield "summary", stem, functools.partial(workshop_plot, self.analysis, rows=rows)

    def summary_stems(self) -> list[str]:
        """The stems of the workshop figure: ``competitiveness``, or its parts
        (``competitiveness-part1``, ...) when the competitions are more than one figure holds
        (:func:`~compreport.report.figures.workshop.workshop_rows`)."""
        return [
            stem
            for stem, _ in _parts(
                "competitiveness", len(self.analysis.competitions), workshop_rows(self.analysis)
            )
        ]

    def stems(self, comp: CompetitionAnalysis) -> list[str]:
        """The stems of one competition's figures, in drawing order."""
        s = self.analysis.settings
        return [stem for stem, _ in figure_builders(comp, s.level, s.test)]

    def render(
        self,
        out: Path | None = None,
        formats: Sequence[str] = (),
        svg: bool = False,
        jobs: int = 1,
        progress: bool = False,
    ) -> list[Path]:
        """Draw every figure once: write ``out/<folder>/figures/<stem>.<fmt>`` (the workshop figure
        as ``out/summary/<stem>.<fmt>``, :meth:`summary_stems`) for each of ``formats``, and keep
        its SVG text when ``svg``. Figures are drawn by up to ``jobs`` worker processes
        (:func:`compreport.workers.run_tasks`; the files do not depend on it). Returns the paths
        written."""
        from compreport.workers import run_tasks

        if formats:
            check_names(self.analysis, out)  # each folder is a competition id: none leaves out
        todo = [
            (folder, stem, build)
            for folder, stem, build in self._builders()
            if formats or (svg and (folder, stem) not in self._svg)
        ]
        tasks = [
            (
                _draw,
                (
                    build,
                    None
                    if not formats
                    else Path(out) / folder / ("" if folder == "summary" else "figures") / stem,
                    tuple(formats),
                    svg,
                ),
            )
            for folder, stem, build in todo
        ]
        written: list[Path] = []
        with shared_text_metrics():  # forked workers inherit it
            drawn = run_tasks(tasks, jobs, "figures" if progress else None)
        missing: set[str] = set()
        for (folder, stem, _), (paths, text, lacking) in zip(todo, drawn, strict=True):
            missing.update(lacking)
            written += paths
            if paths:
                self.files[folder, stem] = [p.name for p in paths]
            if "pdf" in formats and folder != "summary" and paths:
                self.pdfs.setdefault(folder, []).append(f"{folder}/figures/{stem}.pdf")
            if text is not None:
                self._svg[folder, stem] = text
        if missing:
            warn_missing_glyphs(missing, self.analysis)
        return written

    def svg(self, folder: str, stem: str) -> str | None:
        """SVG text of one figure (drawn now if :meth:`render` did not keep it); None if there is
        none."""
        if (folder, stem) not in self._svg:
            for f, st, build in self._builders():
                if (f, st) == (folder, stem):
                    fig = build()
                    if fig is None:
                        return None
                    self._svg[folder, stem] = to_svg(fig)
                    _close(fig)
        return self._svg.get((folder, stem))


def _draw(
    build: Callable[[], Figure | None], base: Path | None, formats: tuple[str, ...], svg: bool
) -> tuple[list[Path], str | None, str]:
    """Build one figure, save it as ``base.<fmt>`` for each of ``formats`` and return the paths,
    when ``svg`` its inline SVG text (the saved file's when SVG is among ``formats``: no second
    drawing), and the characters no installed font has (matplotlib's warning per character and save,
    held back for :func:`warn_missing_glyphs`); ``([], None, "")`` when there is no such figure."""
    with held_glyph_warnings() as lacking:
        fig = build()
        if fig is None:
            return [], None, ""
        paths = save(fig, base, formats) if formats else []
        text = None
        if svg:
            text = (
                _inline(base.with_name(f"{base.name}.svg").read_text(encoding="utf-8"))
                if "svg" in formats
                else to_svg(fig)
            )
        _close(fig)
    return paths, text, "".join(sorted(lacking))


def _inline(svg: str) -> str:
    """An SVG file's text from its ``<svg`` element on (no XML declaration or doctype)."""
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else svg


def write_figures(
    analysis: Analysis, out: Path, formats: Sequence[str] = ("pdf", "svg")
) -> list[Path]:
    """Write every figure of ``analysis`` (:meth:`Gallery.render`); return the paths written."""
    return Gallery(analysis).render(out, formats)


def _close(fig: Figure) -> None:
    """Release a figure's artists (no pyplot registry to close it from)."""
    fig.clear()
