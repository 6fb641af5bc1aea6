"""Plain-text tables of the report model, aligned in columns, for the terminal.

The same :class:`~compreport.report.model.Table` cells the other formats print (same digits);
numbers right-aligned, text left-aligned; no emphasis.
"""

from __future__ import annotations

from collections.abc import Callable

from compreport.language import N_, count, decimal, tr
from compreport.report import model, prose
from compreport.report.metricnames import metric_label
from compreport.report.model import Table
from compreport.settings import Settings
from compreport.stats.results import CompetitionAnalysis


def table(
    t: Table, keys: list[str] | None = None, escape: Callable[[str], str] = str, indent: str = "  "
) -> str:
    """``t`` over the column ``keys`` (default: every column) as aligned lines; ``escape`` makes
    each cell's text safe for where it is printed (the CLI: control characters escaped)."""
    keys = keys or list(t.columns)
    right = {
        k: all(r.cells[k].numeric for r in t.rows if k in r.cells) and k not in ("system", "a", "b")
        for k in keys
    }
    grid = [[escape(t.columns[k]) for k in keys]]
    grid += [[escape(r.cells[k].text) if k in r.cells else "" for k in keys] for r in t.rows]
    widths = [max(len(row[j]) for row in grid) for j in range(len(keys))]
    lines = []
    for row in grid:
        cells = [
            c.rjust(w) if right[k] else c.ljust(w)
            for c, w, k in zip(row, widths, keys, strict=True)
        ]
        lines.append((indent + "  ".join(cells)).rstrip())
    return "\n".join(lines) + "\n"


def leaderboard(
    comp: CompetitionAnalysis,
    settings: Settings,
    fmt: model.Format,
    escape: Callable[[str], str] = str,
) -> str:
    """One competition's leaderboard for the terminal, in the current language: a blank line, a
    heading naming the primary metric, the interval and the rule behind groups and marks, a warning
    per metric on which no verdict can be significant
    (:func:`~compreport.report.prose.cannot_reject`), then the table of its ``leaderboard.md``.

    Under the heading, the teams and runs that compete (:func:`teams_line`)."""
    t = model.leaderboard(comp, fmt)
    ci = tr("{level} CI", level=prose.level(settings)) if settings.bootstrap else tr("no resamples")
    head = tr(
        "{competition}: {metric}, {ci}; groups and marks: {rule}, alpha = {alpha}",
        competition=comp.id,
        metric=metric_label(comp.primary),
        ci=ci,
        rule=settings.rule,
        alpha=decimal(settings.alpha),
    )
    if comp.clusters:
        head += tr("; resampled by cluster, {unit}", unit=prose.unit(comp))
    alerts = [a for a in (prose.cannot_reject(settings, ma) for ma in comp.metrics) if a]
    lines = [
        "",
        escape(head),
        escape("  " + teams_line(comp)),
        *(escape("  " + tr("warning: {alert}", alert=a)) for a in alerts),
    ]
    return "\n".join(lines) + "\n" + table(t, model.export_keys(t), escape=escape)


def _counted(n: int, one: str, many: str) -> str:
    """``one`` when ``n`` is 1, else ``many`` with ``{n}``, in the current language."""
    return tr(one) if n == 1 else tr(many, n=count(n))


def teams_line(comp: CompetitionAnalysis) -> str:
    """The teams and competing runs of ``comp`` as the analysis grouped them
    (``comp.team_ranks``), and its baselines: ``16 teams, 48 runs, 1 baseline``.

    Examples
    --------
    >>> data = cr.load("examples/workshop/tourism-sentiment")
    >>> teams_line(cr.analyze(data, bootstrap=0).competition())
    '7 teams, 9 runs, 1 baseline'
    """
    teams = len(comp.team_ranks)
    runs = sum(len(t.runs) for t in comp.team_ranks)
    parts = [
        _counted(teams, N_("1 team"), N_("{n} teams")),
        _counted(runs, N_("1 run"), N_("{n} runs")),
    ]
    if comp.baselines:
        parts.append(_counted(len(comp.baselines), N_("1 baseline"), N_("{n} baselines")))
    return ", ".join(parts)
