"""The workshop figure: the competitiveness of every competition side by side.

Drawn once per report by the :class:`~compreport.report.figures.gallery.Gallery`, as
``summary/competitiveness.<fmt>``. It reads the stored competitiveness figures; nothing is
computed here.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from compreport.inputs.slugs import slug
from compreport.language import tr
from compreport.report.figures.style import (
    OKABE_ITO,
    TEXT,
    label_width,
    new_figure,
    set_system_ticks,
    styled,
)
from compreport.report.metricnames import metric_label
from compreport.stats.results import Analysis


def _competition_labels(analysis: Analysis) -> list[str]:
    """``name (metric)`` of every competition, with ``[id]`` added when two would read alike."""
    labels = [f"{c.name} ({metric_label(c.primary)})" for c in analysis.competitions]
    if len(set(labels)) < len(labels):
        labels = [f"{lab} [{c.id}]" for lab, c in zip(labels, analysis.competitions)]
    return labels


@styled
def workshop_plot(analysis: Analysis) -> Figure | None:
    """Competitiveness of every competition (primary metric): CV, |win − med|, PPI, share of ties.

    Four panels of horizontal bars, one bar per competition (in analysis order, first at top).
    Share of ties = ``ties["none"] / possible_comparisons`` (unadjusted p >= alpha), in percent.
    PPI bars are drawn only where ``ppi_unit`` is ``"percent"``; a PPI in metric units (an
    error metric, say) is written as a number with its metric name, not drawn on the percent
    scale. Undefined values (one system, no ideal) are written ``n/a``. None without competitions.
    """
    comps = analysis.competitions
    if not comps:
        return None
    labels = _competition_labels(analysis)
    k = len(comps)

    def cp(c):
        return c.primary.competitiveness

    def ties(c):
        n = cp(c).get("possible_comparisons") or 0
        return (
            (
                100 * cp(c)["ties"]["none"] / n,
                tr("{percent}%", percent=f"{100 * cp(c)['ties']['none'] / n:.0f}"),
            )
            if n
            else (None, "n/a")
        )

    def ppi(c):
        v = cp(c).get("ppi")
        if v is None:
            return None, "n/a"
        if cp(c).get("ppi_unit") == "percent":
            return v, f"{v:.1f}"
        return None, f"{v:.3g} ({metric_label(c.primary)})"

    def plain(key, fmt):
        def get(c):
            v = cp(c).get(key)
            return (None, "n/a") if v is None else (v, format(v, fmt))

        return get

    panels = (
        ("CV (%)", tr("spread of the scores"), plain("cv", ".1f")),
        (tr("|win − med|"), tr("metric units"), plain("win_minus_median", ".3g")),
        ("PPI (%)", tr("room to the ideal score"), ppi),
        (tr("ties (% of pairs)"), tr("p ≥ α, unadjusted"), ties),
    )
    fig = new_figure(label_width(labels, 72) + 0.4 + 4 * 1.8, 1.5 + 0.3 * k)
    axes = fig.subplots(1, 4, sharey=True)
    y = np.arange(k)
    colors = [
        OKABE_ITO["blue"],
        OKABE_ITO["bluish_green"],
        OKABE_ITO["orange"],
        OKABE_ITO["reddish_purple"],
    ]
    for ax, (title, xlabel, get), color in zip(axes, panels, colors):
        got = [get(c) for c in comps]
        num = np.array([np.nan if v is None else float(v) for v, _ in got], dtype=float)
        ax.barh(
            y, np.nan_to_num(num, nan=0.0), height=0.62, color=color, gid=f"workshop-{slug(title)}"
        )
        top = float(np.nanmax(num)) if np.isfinite(num).any() else 1.0
        top = top if top > 0 else 1.0
        ax.set_xlim(0, top * 1.35)
        for yi, (v, text) in enumerate(got):
            x = max(float(v), 0.0) if v is not None and np.isfinite(v) else 0.0
            ax.text(x + top * 0.03, yi, text, va="center", ha="left", fontsize=7, parse_math=False)
        ax.set_title(title, **TEXT)
        ax.set_xlabel(xlabel, fontsize=7)
        ax.grid(True, axis="x")
        ax.tick_params(axis="x", labelsize=7)
    set_system_ticks(axes[0], labels, whole=True)
    for ax in axes[1:]:
        ax.tick_params(axis="y", length=0)
    fig.suptitle(tr("Competitiveness of the competitions (primary metric)"), **TEXT)
    return fig
