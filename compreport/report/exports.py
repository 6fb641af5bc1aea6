"""Plain exports of the stored results, written with every report (whatever ``--format``).

``<competition>/leaderboard.md``, ``<competition>/leaderboard.csv``,
``<competition>/pairs-<metric>.csv`` (every pair of systems with every p-value: :func:`pairs_frame`)
and ``summary/summary.csv``.

``leaderboard.md`` is the report model's leaderboard (:func:`~compreport.report.model.leaderboard`,
columns :data:`~compreport.report.model.LEADERBOARD_EXPORT`), the table the command line prints at
the end of a run. The CSV files hold the stored values at full precision (Python's shortest
round-trip repr), one row per system or competition, for spreadsheets and scripts; nothing is
recomputed. Names come from participants: every CSV export goes through
:func:`compreport.output.csvfile.write_frame`, so a text cell starting with ``=``, ``+``, ``-``,
``@``, a tab or a carriage return gets a leading ``'`` and a spreadsheet shows it as text instead
of running it as a formula (OWASP's advice against CSV injection); numbers stay numbers.
"""

from __future__ import annotations

from pathlib import Path

from compreport.language import count, tr
from compreport.output import files
from compreport.output.csvfile import write_frame
from compreport.report import markdown, model, prose
from compreport.report.naming import competition_dir, pairs_file
from compreport.stats.results import Analysis, CompetitionAnalysis


def leaderboard_frame(analysis: Analysis, comp: CompetitionAnalysis):
    """One row per system in the primary metric's order: rank, rank_set (``2–6``), rank_low,
    rank_high, system, team, baseline, missing, the
    score of every metric (``score:<metric>``), then the primary metric's CI, group and verdicts
    (:meth:`~compreport.stats.results.Analysis.leaderboard`)."""
    df = analysis.leaderboard(competition=comp.id).copy()
    df.insert(
        1, "rank_set", [model.rank_set(lo, hi) for lo, hi in zip(df["rank_low"], df["rank_high"])]
    )
    df.insert(5, "team", [comp.teams.get(s) for s in df["system"]])
    df.insert(7, "missing", [int(comp.missing.get(s, 0)) for s in df["system"]])
    at = df.columns.get_loc("score")
    scores = {
        f"score:{ma.name}": [{s.system: s.score for s in ma.scores}[x] for x in df["system"]]
        for ma in comp.metrics
    }
    df = df.drop(columns="score")
    for j, (key, values) in enumerate(scores.items()):
        df.insert(at + j, key, values)
    df.attrs.clear()
    return df


def pairs_frame(analysis: Analysis, comp: CompetitionAnalysis, metric: str):
    """Every pair of ``comp`` under ``metric`` (:meth:`~compreport.stats.results.Analysis.pairs`),
    with the Monte-Carlo standard error of the p-value that decides (``p_se``), the column it is
    the error of (``p_se_of``: ``p_maxt`` under max-T, else ``p_raw``) and whether its verdict is
    settled (``settled``) after ``p_maxt``: the report's pages show only the p-value behind each
    verdict, these files every one."""
    df = analysis.pairs(metric, comp.id)
    ma = comp.metric(metric)
    df["p_se"] = [c.p_se for c in ma.pairs]
    df["p_se_of"] = "p_maxt" if analysis.settings.correction == "maxt" else "p_raw"
    df["settled"] = [c.settled for c in ma.pairs]
    df.attrs.clear()
    return df


def summary_frame(analysis: Analysis):
    """One row per competition: id, name, primary metric, the winner(s) and their score, then the
    competitiveness figures (:meth:`~compreport.stats.results.Analysis.competitiveness`), a tie
    count its correction cannot compute with the resamples drawn as "–", and
    ``ties_not_computable`` saying why (:func:`_why`)."""
    import pandas as pd

    df = analysis.competitiveness()
    # a count its correction cannot compute with the resamples drawn prints "–", as in the tables,
    # and the last column says why (the stored reasons, :func:`prose.not_computable_note`)
    why = [c.primary.competitiveness.get("not_computable") or {} for c in analysis.competitions]
    for part in ("ties_with_winner", "ties"):
        for k in {k for w in why for k in w.get(part, {})}:
            col = f"{part}_{k}"
            df[col] = [
                model.MISSING if k in w.get(part, {}) else v
                for w, v in zip(why, df[col], strict=True)
            ]
    df["ties_not_computable"] = [_why(w) for w in why]
    winners = [[s for s in c.primary.scores if s.is_best] for c in analysis.competitions]
    df.insert(3, "winner", [" | ".join(s.system for s in w) or None for w in winners])
    df.insert(4, "winner_score", [w[0].score if w else None for w in winners])
    # the resampling unit: clusters of items (the cluster bootstrap), or none (the items)
    df.insert(
        df.columns.get_loc("n") + 1,
        "clusters",
        pd.array(
            [c.clusters["clusters"] if c.clusters else None for c in analysis.competitions],
            dtype="Int64",
        ),
    )
    return df


def _why(not_computable: dict) -> str | None:
    """The ``ties_not_computable`` cell of ``summary.csv``: each count printed "–", with the
    smallest corrected p-value its correction can reach and the B that would do; None for none.

    >>> _why({"ties": {"holm": {"min_p": 0.063, "resamples": 10000, "b_needed": 12600}}})
    'ties_holm: smallest corrected p 0.063 with B = 10000; B >= 12600 would do'
    """
    said = [
        f"{part}_{k}: smallest corrected p {r['min_p']:.4g} with B = {r['resamples']}; "
        f"B >= {r['b_needed']} would do"
        for part, records in not_computable.items()
        for k, r in records.items()
    ]
    return " | ".join(said) or None


def _csv(df, path: Path) -> Path:
    """Write ``df`` to ``path`` as CSV (:func:`compreport.output.csvfile.write_frame`: text cells a
    spreadsheet would run as formulas made inert, numbers as they are); return ``path``."""
    return write_frame(df, path)


def write_exports(analysis: Analysis, out: Path, fmt: model.Format) -> list[Path]:
    """Write the exports of ``analysis`` into ``out``, numbers in ``leaderboard.md`` as ``fmt``
    prints them; return the paths written."""
    written = []
    for comp in analysis.competitions:
        folder = competition_dir(out, comp)
        folder.mkdir(parents=True, exist_ok=True)
        t = model.leaderboard(comp, fmt)
        note = (
            "\n"
            + tr(
                "Resampled by cluster: {n} items in {unit}.", n=count(comp.n), unit=prose.unit(comp)
            )
            + "\n"
            if comp.clusters
            else ""
        )
        files.write_text(folder / "leaderboard.md", markdown.table(t, model.export_keys(t)) + note)
        written += [
            folder / "leaderboard.md",
            _csv(leaderboard_frame(analysis, comp), folder / "leaderboard.csv"),
        ]
        if len(comp.systems) > 1:
            written += [
                _csv(pairs_frame(analysis, comp, ma.name), folder / pairs_file(comp, ma.name))
                for ma in comp.metrics
            ]
    (out / "summary").mkdir(exist_ok=True)
    written.append(_csv(summary_frame(analysis), out / "summary" / "summary.csv"))
    return written
