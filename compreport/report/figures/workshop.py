"""The workshop figure: the competitiveness of every competition side by side.

Drawn once per report by the :class:`~compreport.report.figures.gallery.Gallery`, as
``summary/competitiveness.<fmt>``, or as ``summary/competitiveness-part1.<fmt>``, ... when the
competitions are more than one figure holds (:func:`workshop_rows`). It reads the stored
competitiveness figures; nothing is computed here.
"""

from __future__ import annotations

import textwrap

import numpy as np
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.ticker import MaxNLocator

from compreport.inputs.slugs import slug
from compreport.language import count, marked, tr
from compreport.report.figures.style import (
    CHAR_IN,
    MAX_WIDTH_IN,
    OKABE_ITO,
    ROW_IN,
    ROWS_PER_FIGURE,
    TEXT,
    new_figure,
    set_system_ticks,
    styled,
)
from compreport.report.metricnames import metric_label
from compreport.stats.results import Analysis

#: Characters of one line of a competition's label (``name (metric)``); a longer label takes two
#: lines, and one longer than two lines hold loses its middle, so the four panels keep most of the
#: figure's width.
WORKSHOP_LINE_CHARS = 24
#: Width of the figure (inches): that of the narrowest LaTeX text (:data:`MAX_WIDTH_IN`) less the
#: padding a tight saved box adds around the drawing, so the saved file is no wider than it.
WORKSHOP_WIDTH_IN = MAX_WIDTH_IN - 0.2
#: Height (inches) of a competition's row when some label takes two lines (one line:
#: :data:`~compreport.report.figures.style.ROW_IN`).
TWO_LINE_ROW_IN = 0.3
#: Most height (inches) of all but the competition rows: the title (two lines), the panels'
#: titles (two lines), their x ticks and axis labels (three lines) and the margins. The figure
#: gets the height its layout measures for them; this bounds the competitions a part holds.
WORKSHOP_FRAME_IN = 1.75
#: Gap (inches) between the end of a bar and its value.
_GAP_IN = 0.05
#: Width (inches) of the figure's margins, the y labels' padding and the panels' gaps (the x tick
#: labels' overhang), counted generously: the panels are at least this wide.
_FRAME_W_IN = 0.8


def workshop_labels(analysis: Analysis) -> list[str]:
    """The row label of every competition: ``name (metric)`` (with ``[id]`` added when two would
    read alike) on one line of at most :data:`WORKSHOP_LINE_CHARS` characters, else on two,
    losing its middle (:func:`~compreport.report.figures.style.short_label`) when two lines cannot
    hold it."""
    labels = [f"{c.name} ({metric_label(c.primary)})" for c in analysis.competitions]
    if len(set(labels)) < len(labels):
        labels = [f"{lab} [{c.id}]" for lab, c in zip(labels, analysis.competitions)]
    return [_two_lines(lab) for lab in labels]


def _two_lines(label: str, line: int = WORKSHOP_LINE_CHARS) -> str:
    """``label`` wrapped at spaces into lines of at most ``line`` characters; when it takes more
    than two, its first words and "…" on one line and its last words (the metric) on the other.

    Examples
    --------
    >>> _two_lines("ParaMex 2026 (accuracy)")
    'ParaMex 2026 (accuracy)'
    >>> print(_two_lines("VacStance 2026: Close track, textual (Basque) (macro-F1)"))
    VacStance 2026: Close…
    (Basque) (macro-F1)
    """
    lines = textwrap.wrap(label, line)
    if len(lines) <= 2:
        return "\n".join(lines)
    words = label.split()
    head = tail = ""
    for word in words:
        if len(f"{head} {word}".lstrip()) > line - 1:  # one character left for "…"
            break
        head = f"{head} {word}".lstrip()
    for word in reversed(words):
        if len(f"{word} {tail}".rstrip()) > line:
            break
        tail = f"{word} {tail}".rstrip()
    return f"{head or label[: line - 1]}…\n{tail or label[-line:]}"


def _row_in(labels: list[str]) -> float:
    """Height (inches) of every row of the workshop figure: :data:`TWO_LINE_ROW_IN` when some of
    ``labels`` takes two lines, else :data:`~compreport.report.figures.style.ROW_IN`."""
    return TWO_LINE_ROW_IN if any("\n" in lab for lab in labels) else ROW_IN


def workshop_rows(analysis: Analysis) -> int:
    """Most competitions one part of the workshop figure of ``analysis`` shows: the part is no
    taller than the tallest CI figure (:data:`~compreport.report.figures.style.ROWS_PER_FIGURE`
    system rows and its frame)."""
    tallest = 1.45 + ROW_IN * ROWS_PER_FIGURE
    return int((tallest - WORKSHOP_FRAME_IN) / _row_in(workshop_labels(analysis)))


def _panels(analysis: Analysis) -> list[tuple[str, str, list[tuple[float | None, str]]]]:
    """``(title, axis label, [(bar length or None, value text) per competition])`` of the four
    panels: CV, |win − med|, PPI and the share of ties, read from the stored competitiveness."""

    def cp(c):
        return c.primary.competitiveness

    def ties(c):
        n = cp(c).get("possible_comparisons") or 0
        if not n or cp(c)["ties"]["none"] is None:  # none, or not computable with this B
            return None, "n/a"
        share = 100 * cp(c)["ties"]["none"] / n
        return share, tr("{percent}%", percent=f"{share:.0f}")

    def ppi(c):
        v = cp(c).get("ppi")
        if v is None:
            return None, "n/a"
        if cp(c).get("ppi_unit") == "percent":
            return v, marked(f"{v:.1f}")
        return None, f"{marked(f'{v:.3g}')} ({metric_label(c.primary)})"

    def plain(key, fmt):
        def get(c):
            v = cp(c).get(key)
            return (None, "n/a") if v is None else (v, marked(format(v, fmt)))

        return get

    comps = analysis.competitions
    return [
        (title, xlabel, [get(c) for c in comps])
        for title, xlabel, get in (
            ("CV (%)", tr("spread of the scores"), plain("cv", ".1f")),
            (tr("|win − med|"), tr("metric units"), plain("win_minus_median", ".3g")),
            ("PPI (%)", tr("room to the ideal score"), ppi),
            (tr("ties (% of pairs)"), tr("p ≥ α, unadjusted"), ties),
        )
    ]


def _x_limit(got: list[tuple[float | None, float]], panel_in: float) -> float:
    """The right end of a panel's x-axis, shared by the parts of a split figure so that their bars
    compare: every bar and its value text fit the panel's ``panel_in`` inches, the longest bar
    taking at least a quarter of it (a text longer than leaves room for that overflows).
    ``got``: (bar length or None, width in inches of its value text) of every competition.
    Rounded up to three significant digits."""
    top = 0.0
    for v, text_in in got:
        if v is None or not np.isfinite(v) or v <= 0:
            continue
        room = max(panel_in - _GAP_IN - text_in, 0.25 * panel_in)
        top = max(top, float(v) * panel_in / room)
    if top <= 0:
        return 1.0
    step = 10.0 ** (np.floor(np.log10(top)) - 2)
    return float(np.ceil(top / step) * step)


def _text_in(renderer, text: str, size: float) -> float:
    """Width (inches) of the longest line of ``text`` at ``size`` points in the current style."""
    prop = FontProperties(size=size)
    return (
        max(
            renderer.get_text_width_height_descent(line, prop, ismath=False)[0]
            for line in text.split("\n")
        )
        / renderer.dpi
    )


@styled
def workshop_plot(analysis: Analysis, *, rows: slice | None = None) -> Figure | None:
    """Competitiveness of every competition (primary metric): CV, |win − med|, PPI, share of ties.

    Four panels of horizontal bars, one bar per competition (in analysis order, first at top), each
    bar's value written beside it; the bar of the i-th competition (from 1) has the gid
    ``workshop-<panel title's slug>-<i>``. Share of ties = ``ties["none"] / possible_comparisons``
    (unadjusted p >= alpha), in percent. PPI bars are drawn only where ``ppi_unit`` is
    ``"percent"``; a PPI in metric units (an error metric, say) is written as a number with its
    metric name, not drawn on the percent scale. Undefined values (one system, no ideal) are
    written ``n/a``. None without competitions.

    The figure is :data:`WORKSHOP_WIDTH_IN` wide whatever the number of competitions, with a
    fixed height per competition (:func:`_row_in`: labels of one or two lines,
    :func:`workshop_labels`) and text of 8 pt or more, so it is placed at its natural size.
    ``rows``: the competitions (in analysis order) of one part of a split figure
    (:func:`workshop_rows` a part), on the x-axes of all of them.
    """
    if not analysis.competitions:
        return None
    every = workshop_labels(analysis)
    labels = every[rows] if rows is not None else every
    k = len(labels)
    row_in = _row_in(every)
    fig = new_figure(WORKSHOP_WIDTH_IN, WORKSHOP_FRAME_IN + row_in * k)
    renderer = fig.canvas.get_renderer()
    # the panels' width when the widest label of every part has its room: the parts' x-axes,
    # their titles' and their values' room are the same
    widest = max(_text_in(renderer, lab, 8) for lab in every)
    panel_in = (WORKSHOP_WIDTH_IN - widest - _FRAME_W_IN) / 4
    title_chars = max(8, int(panel_in / (1.15 * CHAR_IN * 9 / 8)))  # 9 pt titles
    label_chars = max(8, int(panel_in / (1.15 * CHAR_IN)))  # 8 pt axis labels
    axes = fig.subplots(1, 4, sharey=True)
    y = np.arange(k)
    colors = [
        OKABE_ITO["blue"],
        OKABE_ITO["bluish_green"],
        OKABE_ITO["orange"],
        OKABE_ITO["reddish_purple"],
    ]
    for ax, (title, xlabel, got_all), color in zip(axes, _panels(analysis), colors):
        got = got_all[rows] if rows is not None else got_all
        num = np.array([np.nan if v is None else float(v) for v, _ in got], dtype=float)
        bars = ax.barh(y, np.nan_to_num(num, nan=0.0), height=0.62, color=color)
        for row, bar in zip(range(len(every))[rows or slice(None)], bars):
            bar.set_gid(f"workshop-{slug(title)}-{row + 1}")  # unique in the overview page
        right = _x_limit([(v, _text_in(renderer, text, 8)) for v, text in got_all], panel_in)
        ax.set_xlim(0, right)
        gap = right * _GAP_IN / panel_in
        for yi, (v, text) in enumerate(got):
            x = max(float(v), 0.0) if v is not None and np.isfinite(v) else 0.0
            ax.text(x + gap, yi, text, va="center", ha="left", fontsize=8, parse_math=False)
        ax.set_title(
            textwrap.fill(title, title_chars, break_long_words=False), fontsize=9, parse_math=False
        )
        ax.set_xlabel(
            textwrap.fill(xlabel, label_chars, break_long_words=False), fontsize=8, parse_math=False
        )
        ax.grid(True, axis="x")
        ax.xaxis.set_major_locator(MaxNLocator(nbins=3, steps=[1, 2, 2.5, 5, 10]))
        ax.tick_params(axis="x", labelsize=8)
    set_system_ticks(axes[0], labels, whole=True)
    for ax in axes[1:]:
        ax.tick_params(axis="y", length=0)
    note = ""
    if rows is not None and (rows.start or 0, rows.stop) != (0, len(every)):
        note = "\n" + tr(
            "(competitions {first}–{last} of {k})",
            first=rows.start + 1,
            last=rows.stop,
            k=count(len(every)),
        )
    fig.suptitle(tr("Competitiveness of the competitions (primary metric)") + note, **TEXT)
    # the height: the rows' and that of the titles and axes, as the layout measures it
    engine = fig.get_layout_engine()
    engine.set(wspace=0.0)  # the panels' gaps: the x tick labels' overhang and the padding only
    engine.execute(fig)
    frame = fig.get_figheight() * (1 - axes[0].get_position().height)
    fig.set_figheight(frame + row_in * k)
    return fig
