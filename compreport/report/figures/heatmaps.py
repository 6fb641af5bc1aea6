"""Heat maps: every pair of systems (for many systems) and the best system's confusion matrix.

The pair heat map stands in for the pair tables when a competition has many systems. Both are drawn
like the other figures (:mod:`compreport.report.figures.gallery` lists them for the
:class:`~compreport.report.figures.gallery.Gallery`); nothing here computes statistics: the marks
come from the stored corrected p-values, the counts from the stored ``classes``.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from compreport.language import decimal, tr
from compreport.report.figures.style import (
    MAX_WIDTH_IN,
    OKABE_ITO,
    TEXT,
    UNDECIDED_COLOR,
    label_width,
    new_figure,
    short_label,
    styled,
)
from compreport.report.metricnames import metric_label
from compreport.report.model import mark_level, possible_marks
from compreport.stats.results import CompetitionAnalysis, MetricAnalysis

#: Heat-map colours of the significance marks of a pair (no mark, †, *, **, ***): the single-hue
#: scale of the HTML/PDF pair matrix (``.sig-1`` ... ``.sig3`` in report.css).
PAIR_LEVEL_COLORS = ("#f4f4f4", "#deebf7", "#9ecae1", "#3182bd", "#08519c")
#: Side of one heat-map cell (inches) while a label of 8 pt can sit beside each row.
LABELLED_CELL_IN = 0.16
#: Longest side of a heat map (inches): with the labels and legend, within MAX_WIDTH_IN.
MAX_SIDE_IN = 4.0


@styled
def pairs_plot(comp: CompetitionAnalysis, metric: MetricAnalysis) -> Figure:
    """Every pair of systems as a heat map (for many systems, in place of the pair tables): cell
    (row, column) is shaded by the pair's stored significance mark (``Comparison.mark``, the marks
    of the pair matrix, :func:`compreport.report.model.mark_level`), systems in rank order; a pair
    the family does not test stays white, with its own legend entry. The image has gid
    ``"pairs-heatmap"``."""
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    order = [s.system for s in metric.scores]
    at = {name: i for i, name in enumerate(order)}
    m = len(order)
    grid = np.full((m, m), np.nan)
    for c in metric.pairs:
        if c.undecided:  # below every level: drawn in the colour of undecided verdicts
            grid[at[c.a], at[c.b]] = grid[at[c.b], at[c.a]] = -2
        elif c.significant is not None:  # tested: the stored mark's level (-1: not significant)
            grid[at[c.a], at[c.b]] = grid[at[c.b], at[c.a]] = mark_level(c.mark)
    named = LABELLED_CELL_IN * m + label_width(order) + 1.2 <= MAX_WIDTH_IN
    side = LABELLED_CELL_IN * m if named else min(LABELLED_CELL_IN * m, MAX_SIDE_IN)
    fig = new_figure(
        max(side + (label_width(order) if named else 0.5) + 1.2, 5.0),
        side + 0.5 + 1.8,
    )
    ax = fig.add_subplot()
    cmap = ListedColormap(PAIR_LEVEL_COLORS).with_extremes(bad="white", under=UNDECIDED_COLOR)
    ax.imshow(
        np.ma.masked_invalid(grid),
        cmap=cmap,
        vmin=-1.5,
        vmax=3.5,
        interpolation="nearest",
        gid="pairs-heatmap",
    )
    # columns: positions in the leaderboard (the rows' order); rows: names while 8 pt labels fit
    # beside each row, else positions every few rows (the leaderboard is the key)
    step = 1 if named else next(k for k in (1, 2, 5, 10, 20, 50, 100) if side / m * k >= 0.16)
    ticks = np.arange(0, m, step)
    ax.set_xticks(ticks, [str(t + 1) for t in ticks], rotation=90 if step == 1 else 0)
    ax.set_xlabel(tr("position in the leaderboard"))
    if named:
        ax.set_yticks(np.arange(m), [f"{i + 1}. {short_label(n)}" for i, n in enumerate(order)])
        for t in ax.get_yticklabels():
            t.set_parse_math(False)
    else:
        ax.set_yticks(ticks, [str(t + 1) for t in ticks])
        ax.set_ylabel(tr("position in the leaderboard"))
    ax.tick_params(length=0)
    for side_ in ("top", "right", "bottom", "left"):
        ax.spines[side_].set_visible(False)
    ax.set_title(
        comp.name
        + "\n"
        + tr(
            "pairs of systems by {metric}: significance of the difference",
            metric=metric_label(metric),
        ),
        loc="left",
        **TEXT,
    )
    # only the marks a corrected p-value can earn (as the HTML and LaTeX legends), weakest first
    possible = possible_marks(metric)[::-1]
    alpha = metric.verdicts["alpha"]  # the stored rule: Settings.alpha of the run, no fallback
    handles = [
        Patch(facecolor=PAIR_LEVEL_COLORS[0], edgecolor="#bbbbbb", label=f"p ≥ {decimal(alpha)}")
    ]
    handles += [
        Patch(facecolor=PAIR_LEVEL_COLORS[1 + mark_level(mk)], label=f"{mk} p < {decimal(t)}")
        for t, mk in possible
    ]
    if any(c.undecided for c in metric.pairs):
        handles += [Patch(facecolor=UNDECIDED_COLOR, label=tr("undecided (Monte-Carlo error)"))]
    if any(c.significant is None and not c.undecided for c in metric.pairs):
        handles += [Patch(facecolor="white", edgecolor="#bbbbbb", label=tr("not tested"))]
    fig.legend(
        handles=handles,
        loc="outside lower center",
        ncols=3,
        title=tr("corrected p-value (the report's rule)"),
    )
    return fig


#: Above this many classes the confusion heat map leaves out the counts in its cells.
CONFUSION_COUNTS_UP_TO = 12


@styled
def confusion_plot(comp: CompetitionAnalysis) -> Figure | None:
    """The best system's confusion matrix (the stored ``comp.classes``) as a heat map: rows the gold
    classes, columns the predicted labels, each row shaded by its share of the gold class (so a
    small class reads like a large one), counts written in the cells up to
    :data:`CONFUSION_COUNTS_UP_TO` classes. The image has gid ``"confusion-heatmap"``; None without
    stored classes."""
    c = comp.classes
    if not c:
        return None
    cm = np.asarray(c["confusion"], dtype=float)
    share = cm / np.maximum(cm.sum(axis=1, keepdims=True), 1)
    rows, cols = list(c["labels"]), list(c["predicted"])
    cell = 0.42 if len(cols) <= CONFUSION_COUNTS_UP_TO else 0.22
    cell = min(cell, MAX_SIDE_IN / max(len(rows), len(cols), 1))
    # 8 pt labels every row while they fit beside it, else every few rows
    step = next(k for k in range(1, max(len(rows), len(cols)) + 1) if cell * k >= 0.15)
    fig = new_figure(
        max(1.6 + label_width(rows) + cell * len(cols), 4.2),
        1.9 + label_width(cols) * 0.8 + cell * len(rows),
    )
    ax = fig.add_subplot()
    ax.imshow(
        share,
        cmap="Blues",
        vmin=0,
        vmax=1,
        aspect="equal",
        interpolation="nearest",
        gid="confusion-heatmap",
    )
    ax.set_xticks(
        np.arange(0, len(cols), step),
        [short_label(x) for x in cols[::step]],
        rotation=90 if max(map(len, cols), default=0) > 3 else 0,
    )
    ax.set_yticks(np.arange(0, len(rows), step), [short_label(x) for x in rows[::step]])
    for t in [*ax.get_xticklabels(), *ax.get_yticklabels()]:
        t.set_parse_math(False)
    if len(cols) <= CONFUSION_COUNTS_UP_TO:
        for i in range(len(rows)):
            for j in range(len(cols)):
                ax.text(
                    j,
                    i,
                    f"{int(cm[i, j]):,}",
                    ha="center",
                    va="center",
                    fontsize=8,
                    color="white" if share[i, j] > 0.5 else OKABE_ITO["black"],
                    parse_math=False,
                )
    ax.set_xlabel(tr("predicted label"))
    ax.set_ylabel(tr("gold class"))
    ax.tick_params(length=0)
    for side in ("top", "right", "bottom", "left"):
        ax.spines[side].set_visible(False)
    ax.set_title(
        comp.name
        + "\n"
        + tr(
            "confusion matrix of {system}\n(the best by {metric})",
            system=c["system"],
            metric=metric_label(comp.primary),
        ),
        loc="left",
        **TEXT,
    )
    return fig
