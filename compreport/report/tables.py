"""Tables: pure functions from the Analysis to pandas DataFrames, one per table kind.

Renderers (LaTeX, HTML) format these frames; nothing here knows about an output format
and nothing here computes statistics — every number is read from the result objects.
Numbers stay floats (no rounding); system order is best first (rank order of the metric).

Table kinds follow the paper (Nava-Muñoz et al.): leaderboard (Table 1), ordered bootstrap
CIs (Table 2), CIs of differences from the best (Table 3), lower-triangular matrix of
pairwise differences (Table 4), pairwise p-values with corrections (Table 5), the
competitiveness legend (Table 6) and the cross-competition summary (Tables 7-11).
"""

from __future__ import annotations

from .. import vocabulary as vocab

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..settings import Settings
from ..stats.analysis import Analysis, CompetitionAnalysis, MetricAnalysis

#: Significance marks of the pairwise matrix: (threshold, mark), strictest first (paper Table 4).
STARS = ((0.001, "***"), (0.01, "**"), (0.05, "*"), (0.1, "†"))

#: Correction key of results.json -> column of the Comparison objects.
P_COLUMNS = {"none": "p_value", "bonferroni": "p_bonferroni", "holm": "p_holm", "bh": "p_bh"}


def stars(p: float) -> str:
    """``***`` p<.001, ``**`` p<.01, ``*`` p<.05, ``†`` p<.1, else ``""``."""
    if p is None or not np.isfinite(p):
        return ""
    for threshold, mark in STARS:
        if p < threshold:
            return mark
    return ""


def leaderboard(comp: CompetitionAnalysis) -> pd.DataFrame:
    """Rank, system, baseline flag, one score column per metric, significance group.

    Rows in the primary metric's order; ``rank`` and ``group`` are the primary metric's.
    Columns: ``rank``, ``system``, ``baseline``, one per metric name, ``group``.
    """
    primary = comp.primary
    rows = []
    others = {ma.name: {s.system: s.score for s in ma.scores} for ma in comp.metrics}
    for s in primary.scores:
        row = {"rank": s.rank, "system": s.system, "baseline": s.system in comp.baselines}
        for name, scores in others.items():
            row[name] = scores[s.system]
        row["group"] = s.group
        rows.append(row)
    return pd.DataFrame(rows, columns=["rank", "system", "baseline", *others, "group"])


def best_values(comp: CompetitionAnalysis) -> dict[str, float]:
    """The best score of each metric (what the leaderboard sets in bold)."""
    out = {}
    for ma in comp.metrics:
        vals = np.array([s.score for s in ma.scores], dtype=float)
        vals = vals[np.isfinite(vals)]
        out[ma.name] = float(vals.max() if ma.higher_is_better else vals.min()) if vals.size else float("nan")
    return out


def confidence_intervals(metric: MetricAnalysis) -> pd.DataFrame:
    """Ordered bootstrap CIs (paper Table 2): ``system``, ``ci_low``, ``mean`` (bootstrap mean), ``ci_high``,
    plus ``score`` (full-data value), ``rank`` and ``group``; best first."""
    return pd.DataFrame(
        [{"system": s.system, "ci_low": s.ci_low, "mean": s.boot_mean, "ci_high": s.ci_high, "score": s.score,
          "rank": s.rank, "group": s.group} for s in metric.scores],
        columns=["system", "ci_low", "mean", "ci_high", "score", "rank", "group"])


def differences_from_best(metric: MetricAnalysis) -> pd.DataFrame:
    """CIs of differences from the best (paper Table 3): ``system``, ``ci_low``, ``diff``, ``ci_high``,
    ``excludes_zero``, ``p_value`` and the corrected p-values (family: the m-1 comparisons with the best).

    ``diff`` is oriented: positive means the best is better, for any metric orientation.
    """
    cols = ["system", "ci_low", "diff", "ci_high", "excludes_zero", *P_COLUMNS.values()]
    rows = []
    for c in metric.vs_best:
        excludes = bool(np.isfinite(c.ci_low) and np.isfinite(c.ci_high) and (c.ci_low > 0 or c.ci_high < 0))
        rows.append({"system": c.b, "ci_low": c.ci_low, "diff": c.diff, "ci_high": c.ci_high,
                     "excludes_zero": excludes, **{v: getattr(c, v) for v in P_COLUMNS.values()}})
    return pd.DataFrame(rows, columns=cols)


def pairwise_p_values(metric: MetricAnalysis) -> pd.DataFrame:
    """All pairs in rank order (paper Table 5): ``a``, ``b``, ``diff`` (a - b, oriented), ``p_value``,
    ``p_bonferroni``, ``p_holm``, ``p_bh`` (corrected over the family of ``settings.family``; NaN for
    pairs outside it, i.e. pairs without the best under ``vs-best``)."""
    cols = ["a", "b", "diff", *P_COLUMNS.values()]
    return pd.DataFrame([{"a": c.a, "b": c.b, "diff": c.diff, **{v: getattr(c, v) for v in P_COLUMNS.values()}}
                         for c in metric.pairs], columns=cols)


@dataclass
class PairMatrix:
    """Lower-triangular matrix of oriented differences (column - row) and their p-values.

    ``diff`` and ``p`` are square DataFrames indexed by system (rows) and system (columns), best
    first; cell (row r, column c) holds ``score(c) - score(r)`` oriented for r below c, NaN
    elsewhere. ``marks`` holds :func:`stars` of ``p``. The last row's system has no column and
    the first system no row, as in the paper.
    """

    diff: pd.DataFrame
    p: pd.DataFrame
    marks: pd.DataFrame
    correction: str
    family: str


def pair_matrix(metric: MetricAnalysis, correction: str = "none", family: str = "all-pairs") -> PairMatrix:
    """The paper's Table 4 under ``correction`` (``none``, ``bonferroni``, ``holm``, ``bh``)."""
    order = [s.system for s in metric.scores]
    rows, cols = order[1:], order[:-1]
    diff = pd.DataFrame(np.nan, index=rows, columns=cols)
    p = pd.DataFrame(np.nan, index=rows, columns=cols)
    col = P_COLUMNS[correction]
    for c in metric.pairs:  # a ranks above b: a is the column, b the row
        diff.loc[c.b, c.a] = c.diff
        p.loc[c.b, c.a] = getattr(c, col)
    marks = p.map(lambda v: stars(v) if np.isfinite(v) else "")
    return PairMatrix(diff, p, marks, correction, family)


#: The paper's Table 6: row label -> description (the competitiveness legend).
LEGEND = (
    ("n", "Test data size"),
    ("m", "Number of participants or runs"),
    ("Ties w/ win.", "Possible ties with the winner, with corrections none / Bonferroni / Holm / BH"),
    ("Poss. compars.", "Total possible comparisons, m(m-1)/2"),
    ("none/Bonf.", "Ties between competitors, with no correction / Bonferroni"),
    ("Holm/BH", "Ties between competitors, with Holm / Benjamini-Hochberg correction"),
    ("|win.-med.|", "Performance difference between the winner and the competitor in the middle of the table"),
    ("CV", "Coefficient of variation of competitors' performance, CV = 100 s/x̄ (%)"),
    ("PPI", "Possible percentage improvement, e.g. for F1: 100 (1 - F1 of the winner)"),
)


def legend() -> pd.DataFrame:
    """The competitiveness legend (paper Table 6): ``name``, ``description``."""
    return pd.DataFrame(LEGEND, columns=["name", "description"])


SUMMARY_ROWS = ("n", "m", "Ties w/ win.", "Poss. compars.", "none/Bonf.", "Holm/BH", "|win.-med.|", "CV", "PPI")


def _group_path(comp: CompetitionAnalysis) -> tuple[str, str, str]:
    g = list(comp.group or [])
    if len(g) >= 3:
        return g[0], " / ".join(g[1:-1]), g[-1]
    challenge = comp.challenge + (f" {comp.year}" if comp.year and str(comp.year) not in comp.challenge else "")
    return (challenge or comp.name, comp.task or comp.name, comp.language or "")


def competitiveness_summary(analysis: Analysis, metric: str | None = None) -> pd.DataFrame:
    """Cross-competition summary (paper Tables 7-11) of each competition's primary metric.

    One column per competition, in input order; the column index is a MultiIndex
    (challenge, task, language, metric, id). Rows: :data:`SUMMARY_ROWS`; cells are Python
    values (ints, floats, or ``"a/b/c/d"`` strings for the tie counts; None where undefined,
    e.g. CV of a metric whose mean is 0, PPI of an unbounded metric).
    """
    cols, data = [], []
    for comp in analysis.competitions:
        ma = comp.primary if metric is None else next((x for x in comp.metrics if x.name == metric), None)
        if ma is None:
            continue
        c = ma.competitiveness
        tw, t = c["ties_with_winner"], c["ties"]
        cols.append((*_group_path(comp), ma.name, comp.id))
        data.append([c["n"], c["m"], "/".join(str(tw[k]) for k in ("none", "bonferroni", "holm", "bh")),
                     c["possible_comparisons"], f"{t['none']}/{t['bonferroni']}", f"{t['holm']}/{t['bh']}",
                     c["win_minus_median"], c["cv"], c["ppi"]])
    index = pd.MultiIndex.from_tuples(cols, names=["challenge", "task", "language", "metric", "id"])
    return pd.DataFrame(np.array(data, dtype=object).T if data else None, index=list(SUMMARY_ROWS),
                        columns=index)


def ci_blocks(blocks: list[tuple[str, MetricAnalysis]]) -> list[tuple[str, pd.DataFrame]]:
    """Several ordered-CI tables to show side by side (paper Table 2: two languages; thesis
    Table 4.2: precision/recall/F1): ``[(block title, confidence_intervals(metric)), ...]``."""
    return [(title, confidence_intervals(ma)) for title, ma in blocks]


#: How captions and the methods text name each correction family of the pairwise comparisons.
FAMILY_WORDS = {
    "all-pairs": "all pairs",
    "per-row": "each row (each system against those ranked below it)",
    "vs-best": "the comparisons with the best (other pairs are not tested)",
}


def family_words(family: str) -> str:
    """Plain words for a ``--family`` value (``all-pairs``, ``per-row``, ``vs-best``)."""
    return FAMILY_WORDS.get(family, family)


def correction_label(settings: Settings, which: str = "pairs") -> str:
    """``"Holm correction over all pairs"``-style words for captions (``which``: pairs or vs_best)."""
    corr = settings.correction
    if corr == "none":
        return "no correction for multiple comparisons"
    over = "the comparisons with the best" if which == "vs_best" else family_words(settings.family)
    return f"{vocab.CORRECTIONS[corr].label} correction over {over}"
