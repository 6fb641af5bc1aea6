"""The sizing plan's outputs: plan.json, plan.csv, a table for the terminal, power-curve figures.

Reads a :class:`~compreport.stats.plan.Plan`; computes nothing statistical. Files go to the
output folder through :func:`compreport.output.staging.claim`, as a report's do.
"""

from __future__ import annotations

import math
from pathlib import Path

from compreport.inputs.slugs import slug
from compreport.output import files
from compreport.output.csvfile import rows_text
from compreport.stats.plan import PairPlan, Plan

__all__ = ["plan_csv", "plan_table", "write_plan"]

#: Pairs drawn in one power-curve figure (the closest to the best first).
CURVES = 6

_COLUMNS = (
    "competition",
    "metric",
    "best",
    "system",
    "diff",
    "se",
    "mdd",
    "delta",
    "n",
    "power_now",
    "n_needed",
    "n_normal",
)


def _num(x: float | None, digits: int = 4) -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return ""
    return f"{x:.{digits}f}"


def _n(x: int | None, n: int) -> str:
    return f"> {1000 * n:,}" if x is None else f"{x:,}"


def plan_csv(plan: Plan) -> str:
    """plan.csv: one row per pair (columns :data:`_COLUMNS`; ``n_needed`` empty when not reached),
    written by :func:`compreport.output.csvfile.rows_text` (a name a spreadsheet would run as a
    formula gets a leading ``'``; numbers stay numbers).

    Examples
    --------
    >>> from compreport.stats.plan import PairPlan, Plan
    >>> p = PairPlan("c", "accuracy", "A", "B", 0.03, 0.011, 0.0308, 0.03, 850, 830, 0.82)
    >>> print(plan_csv(Plan({}, [{"id": "c", "n": 800, "metrics": [{"pairs": [p]}]}])), end="")
    competition,metric,best,system,diff,se,mdd,delta,n,power_now,n_needed,n_normal
    c,accuracy,A,B,0.03,0.011,0.0308,0.03,800,0.82,850,830
    """
    rows = [_COLUMNS]
    for comp in plan.competitions:
        for m in comp["metrics"]:
            for p in m["pairs"]:
                rows.append(
                    [
                        p.competition,
                        p.metric,
                        p.best,
                        p.system,
                        p.diff,
                        p.se,
                        p.mdd,
                        p.delta,
                        comp["n"],
                        p.power_now,
                        p.n_needed,
                        p.n_normal,
                    ]
                )
    return rows_text(rows)


def plan_table(plan: Plan) -> str:
    """The plan as aligned text, one block per competition and metric.

    Examples
    --------
    >>> from compreport.stats.plan import PairPlan, Plan
    >>> p = PairPlan("c", "accuracy", "A", "B", 0.03, 0.011, 0.0308, 0.03, 850, 830, 0.82)
    >>> s = {"alpha": 0.05, "power": 0.8, "delta": None}
    >>> print(plan_table(Plan(s, [{"id": "c", "n": 800, "metrics": [
    ...     {"name": "accuracy", "best": "A", "pairs": [p]}]}])))
    c, accuracy (n = 800; best: A; two-sided alpha = 0.05 per comparison, power = 0.8)
    system    diff      SE     MDD   delta  power now  items needed  (normal)
    B       0.0300  0.0110  0.0308  0.0300       0.82           850       830
    """
    s = plan.settings
    blocks = []
    for comp in plan.competitions:
        n = comp["n"]
        for m in comp["metrics"]:
            head = (
                f"{comp['id']}, {m['name']} (n = {n:,}; best: {m['best']}; two-sided alpha = "
                f"{s['alpha']:g} per comparison, power = {s['power']:g})"
            )
            rows = [
                ["system", "diff", "SE", "MDD", "delta", "power now", "items needed", "(normal)"]
            ]
            for p in m["pairs"]:
                rows.append(
                    [
                        p.system,
                        _num(p.diff),
                        _num(p.se),
                        _num(p.mdd),
                        _num(p.delta),
                        _num(p.power_now, 2),
                        _n(p.n_needed, n) if p.delta > 0 else "",
                        "" if p.n_normal is None else f"{p.n_normal:,}",
                    ]
                )
            widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
            lines = [
                "  ".join(
                    c.ljust(w) if k == 0 else c.rjust(w)
                    for k, (c, w) in enumerate(zip(r, widths, strict=True))
                ).rstrip()
                for r in rows
            ]
            blocks.append("\n".join([head, *lines]))
    return "\n\n".join(blocks)


def _figure(comp: dict, metric: dict, power: float):
    """The power curves of one competition and metric, drawn in compreport's style (names and
    metric names literally, never as mathtext)."""
    from compreport.report.figures.style import styled

    return styled(_curves)(comp, metric, power)


def _curves(comp: dict, metric: dict, power: float):
    from compreport.report.figures.style import TEXT, new_figure

    pairs: list[PairPlan] = [p for p in metric["pairs"] if p.curve][:CURVES]
    fig = new_figure(6.0, 3.6)
    ax = fig.add_subplot()
    for p in pairs:
        xs, ys = zip(*p.curve, strict=True)
        ax.plot(xs, ys, marker="o", markersize=3, label=f"{p.system} (δ = {p.delta:.4g})")
    ax.axhline(power, color="0.5", linewidth=0.8, linestyle="--")
    ax.axvline(comp["n"], color="0.3", linewidth=0.8, linestyle=":")
    ax.set_xscale("log")
    from matplotlib.ticker import FuncFormatter, NullFormatter

    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("test items")
    ax.set_ylabel("power")
    ax.set_title(
        f"{comp['id']}, {metric['name']}: power to tell {metric['best']} from each system "
        f"at the difference δ",
        fontsize=9,
        **TEXT,
    )
    if pairs:
        ax.legend(fontsize=7, loc="lower right")
    return fig


def write_plan(plan: Plan, out_dir: str | Path, *, force: bool = False, protect=()) -> list[Path]:
    """Write ``OUT/plan.json``, ``OUT/plan.csv`` and one power-curve figure per competition and
    metric (``OUT/power-<competition>-<metric>.pdf`` and ``.png``).

    Parameters
    ----------
    plan : Plan
        What :func:`compreport.plan` returned.
    out_dir : str or Path
        The output folder: empty, new, or compreport's (then ``force`` replaces what it wrote).
    force : bool, default False
        Replace an earlier output in ``out_dir``.
    protect : iterable of str
        Input files, which ``out_dir`` must not be or hold.

    Returns
    -------
    list of Path
        The files written.
    """
    from compreport.output.staging import claim, out_path
    from compreport.report.figures.gallery import save

    out = out_path(out_dir)
    with claim(out, force, protect=protect) as target:
        tmp = target.tmp
        written = [tmp / "plan.json", tmp / "plan.csv"]
        files.write_text(written[0], plan.to_json())
        files.write_text(written[1], plan_csv(plan))
        stems: set[str] = set()
        for comp in plan.competitions:
            for m in comp["metrics"]:
                fig = _figure(comp, m, plan.settings["power"])
                stem = base = f"power-{slug(comp['id'])}-{slug(m['name'])}"
                k = 1
                while stem in stems:  # two names with one slug
                    k += 1
                    stem = f"{base}-{k}"
                stems.add(stem)
                written += save(fig, tmp / stem, ("pdf", "png"))
        target.commit({"settings": plan.settings, "formats": ["plan"]})
    return [out / p.relative_to(tmp) for p in written]
