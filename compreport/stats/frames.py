"""An :class:`~compreport.stats.results.Analysis` as pandas DataFrames and notebook HTML.

These functions only read the stored numbers and verdicts; they decide nothing. pandas is
imported inside them (results.json and the CLI's json path never need it). The public entry
points are the methods :meth:`Analysis.leaderboard`, :meth:`Analysis.pairs`,
:meth:`Analysis.competitiveness` and ``Analysis._repr_html_``.
"""

from __future__ import annotations

import html

LEADERBOARD = (
    "rank",
    "rank_low",
    "rank_high",
    "system",
    "baseline",
    "score",
    "ci_low",
    "ci_high",
    "group",
    "is_best",
    "differs_from_best",
    "p_vs_best",
)
PAIRS = (
    "system_a",
    "system_b",
    "diff",
    "ci_low",
    "ci_high",
    "p_raw",
    "p_adjusted",
    "significant",
    "excludes_zero",
    "p_bonferroni",
    "p_holm",
    "p_bh",
    "p_maxt",
)
CORRECTIONS = ("none", "bonferroni", "holm", "bh", "maxt")


def leaderboard(analysis, metric: str | None = None, competition: str | None = None):
    """See :meth:`compreport.stats.results.Analysis.leaderboard`."""
    import pandas as pd

    c = analysis.competition(competition)
    ma = c.metric(metric)
    rows = [
        (
            s.rank,
            s.rank_low,
            s.rank_high,
            s.system,
            s.system in c.baselines,
            s.score,
            s.ci_low,
            s.ci_high,
            s.group,
            s.is_best,
            s.differs_from_best,
            s.p_vs_best,
        )
        for s in ma.scores
    ]
    df = pd.DataFrame(rows, columns=list(LEADERBOARD))
    df.attrs.update(competition=c.id, metric=ma.name, verdicts=dict(ma.verdicts))
    return df


def pairs(analysis, metric: str | None = None, competition: str | None = None):
    """See :meth:`compreport.stats.results.Analysis.pairs`."""
    import pandas as pd

    c = analysis.competition(competition)
    ma = c.metric(metric)
    rows = [
        (
            p.a,
            p.b,
            p.diff,
            p.ci_low,
            p.ci_high,
            p.p_value,
            p.p_adjusted,
            p.significant,
            p.excludes_zero,
            p.p_bonferroni,
            p.p_holm,
            p.p_bh,
            p.p_maxt,
        )
        for p in ma.pairs
    ]
    df = pd.DataFrame(rows, columns=list(PAIRS))
    df.attrs.update(competition=c.id, metric=ma.name, verdicts=dict(ma.verdicts))
    return df


def competitiveness(analysis):
    """See :meth:`compreport.stats.results.Analysis.competitiveness`."""
    import pandas as pd

    rows = []
    for c in analysis.competitions:
        ma = c.primary
        comp = ma.competitiveness
        row = {
            "id": c.id,
            "name": c.name,
            "metric": ma.name,
            "n": comp["n"],
            "m": comp["m"],
            "possible_comparisons": comp["possible_comparisons"],
        }
        row.update({f"ties_with_winner_{k}": comp["ties_with_winner"].get(k) for k in CORRECTIONS})
        row.update({f"ties_{k}": comp["ties"].get(k) for k in CORRECTIONS})
        row.update({k: comp.get(k) for k in ("win_minus_median", "cv", "ppi", "ppi_unit")})
        rows.append(row)
    return pd.DataFrame(rows)


def to_html(analysis, decimals: int = 4) -> str:
    """The leaderboard of each competition (primary metric) as escaped HTML, then the rule.

    ``decimals``: digits of the scores and p-values (default 4).
    """
    parts = []
    for c in analysis.competitions:
        df = leaderboard(analysis, competition=c.id)
        df["differs_from_best"] = ["" if v is None else v for v in df["differs_from_best"]]
        parts.append(
            f"<h4>{html.escape(c.name)} <small>({html.escape(c.id)}; "
            f"{html.escape(c.primary.name)}; n = {c.n}, m = {len(c.systems)})</small></h4>"
        )
        parts.append(
            df.to_html(
                index=False, escape=True, na_rep="", float_format=f"{{:.{decimals}f}}".format
            )
        )
    s = analysis.settings
    parts.append(
        f"<p><small>{html.escape(s.rule)}; alpha = {s.alpha:g}; "
        f"{html.escape(s.ci_method)} intervals; B = {s.bootstrap:,}; seed = {s.seed}; "
        f"compreport {html.escape(analysis.version)}</small></p>"
    )
    return "\n".join(parts)
