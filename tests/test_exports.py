"""Exports written with every report (leaderboard.md/.csv and pairs-<metric>.csv per competition,
summary/summary.csv) and what the command line prints at the end of a run (-q, -v): all read the
stored results."""

from __future__ import annotations

import csv
import io

import pandas as pd
import pytest

import compreport as cr
from compreport.cli import main
from compreport.report import model, plaintext
from conftest import said

GOLD = list("aabbaabbab" * 6)


def _frame() -> pd.DataFrame:
    flip = lambda k: [g if i % k else ("b" if g == "a" else "a") for i, g in enumerate(GOLD)]  # noqa: E731
    return pd.DataFrame(
        {
            "id": range(1, len(GOLD) + 1),
            "y": GOLD,
            "good.01": flip(11),
            "=cmd|' /C calc'!A0": flip(3),
            "weak.01": flip(2),
            "base": ["a"] * len(GOLD),
        }
    )


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    data = cr.from_frame(
        _frame(), id="id", name="Tiny", metrics=["accuracy", "macro_f1"], baselines=["base"]
    )
    analysis = cr.analyze(data, bootstrap=199, seed=3)
    out = tmp_path_factory.mktemp("exports") / "out"
    report = cr.Report(analysis, decimals=3)
    return analysis, report, out, report.write(out, "json")


def test_exports_are_listed_and_hold_the_stored_values(written):
    analysis, report, out, paths = written
    comp = analysis.competitions[0]
    assert sorted(str(p.relative_to(out)) for p in paths) == sorted(
        [
            "results.json",
            "tiny/leaderboard.md",
            "tiny/leaderboard.csv",
            "summary/summary.csv",
            "tiny/pairs-accuracy.csv",
            "tiny/pairs-macro-f1.csv",
        ]
    )
    assert (out / "tiny/leaderboard.md").read_text(encoding="utf-8") == report.to_markdown(
        "leaderboard"
    )
    rows = list(
        csv.DictReader(io.StringIO((out / "tiny/leaderboard.csv").read_text(encoding="utf-8")))
    )
    scores = comp.primary.scores
    assert [r["system"].lstrip("'") for r in rows] == [s.system for s in scores]
    for r, s in zip(rows, scores, strict=True):
        assert (
            float(r["score:accuracy"]) == s.score
        )  # full precision: the stored float, round-tripped
        assert (
            float(r["ci_low"]) == s.ci_low
            and r["group"] == s.group
            and r["is_best"] == str(s.is_best)
        )
        assert r["baseline"] == str(s.system == "base")
    macro = {s.system: s.score for s in comp.metric("macro_f1").scores}
    assert [float(r["score:macro_f1"]) for r in rows] == [macro[s.system] for s in scores]
    # a participant's name that a spreadsheet would run as a formula is written as text
    assert "'=cmd|' /C calc'!A0" in [r["system"] for r in rows]
    # every pair, as Analysis.pairs() holds it, names made inert too
    pairs = list(
        csv.DictReader(io.StringIO((out / "tiny/pairs-macro-f1.csv").read_text(encoding="utf-8")))
    )
    frame = analysis.pairs("macro_f1")
    assert len(pairs) == len(frame) == len(scores) * (len(scores) - 1) // 2
    for r, (_, f) in zip(pairs, frame.iterrows(), strict=True):
        assert (r["system_a"].lstrip("'"), r["system_b"].lstrip("'")) == (
            f["system_a"],
            f["system_b"],
        )
        assert float(r["p_raw"]) == f["p_raw"] and float(r["diff"]) == f["diff"]
    assert not any(r[k].startswith("=") for r in pairs for k in ("system_a", "system_b"))
    # the p-values the pages leave out are here, every one: raw, each correction, the Monte-Carlo
    # standard error and whether the verdict is settled, as stored
    stored = comp.metric("macro_f1").pairs
    for r, c in zip(pairs, stored, strict=True):
        for key, value in (
            ("p_bonferroni", c.p_bonferroni),
            ("p_holm", c.p_holm),
            ("p_bh", c.p_bh),
            ("p_adjusted", c.p_adjusted),
            ("p_se", c.p_se),
        ):
            assert float(r[key]) == value or (r[key] == "" and value != value), (key, r)
        assert r["settled"] == ("" if c.settled is None else str(c.settled))
    (summary,) = csv.DictReader(
        io.StringIO((out / "summary/summary.csv").read_text(encoding="utf-8"))
    )
    assert summary["id"] == "tiny" and summary["winner"] == comp.primary.best
    assert float(summary["winner_score"]) == scores[0].score


def test_marks_follow_the_stored_verdicts(written):
    analysis, report, _, _ = written
    comp = analysis.competitions[0]
    t = model.leaderboard(comp, report.format)
    for row, s in zip(t.rows, comp.primary.scores, strict=True):
        marks = row["marks"].text.split(", ") if row["marks"].text else []
        assert ("best" in marks) == s.is_best
        assert ("tied with best" in marks) == bool(s.ties_with_best)
        assert ("baseline" in marks) == (s.system == "base")
    assert any(
        s.differs_from_best for s in comp.primary.scores
    )  # the data has a clear loser: a test that can fail


def test_cli_prints_the_leaderboard_unless_quiet(tmp_path, capsys):
    _frame().to_csv(tmp_path / "tiny.csv", index=False)
    base = [
        "report",
        str(tmp_path / "tiny.csv"),
        "--id",
        "id",
        "--metric",
        "accuracy",
        "-B",
        "199",
        "--format",
        "json",
    ]
    assert main([*base, "-o", str(tmp_path / "a"), "-v"]) == 0
    shown = capsys.readouterr()
    analysis = cr.Analysis.read(tmp_path / "a/results.json")
    t = model.leaderboard(analysis.competitions[0], model.Format())
    assert plaintext.table(t, model.export_keys(t)) in shown.out
    assert (
        "tiny: accuracy, 95% CI; groups and marks: max-T step-down correction over all pairs of "
        "systems" in shown.out
    )
    assert [x.split(":")[0] for x in shown.err.splitlines() if x.startswith("compreport:")] == [
        "compreport"
    ] * 3
    assert main([*base, "-o", str(tmp_path / "b"), "-q"]) == 0
    quiet = capsys.readouterr()
    assert quiet.out == "" and said(quiet.err) == []
    assert (tmp_path / "a/results.json").read_bytes() == (tmp_path / "b/results.json").read_bytes()


@pytest.mark.slow
def test_too_few_resamples_is_said_first_everywhere(tmp_path, capsys):
    """Holm over the 6 pairs of 4 systems needs p < 0.05/6: with B = 99 and no refinement no p-value
    can get there (1/(B+1) * 6 = 0.06), so the stored rule says it cannot reject, and the terminal
    summary, the report's header and the team sheet say so before anything else; with B = 199 (0.03)
    nothing is said. With refinement B = 99 is refined until it can. The default max-T step-down
    leaves the smallest p-value at 1/(B+1) = 0.01 with B = 99: nothing to say."""
    from compreport.report.pages.team import team_html

    data = cr.from_frame(_frame(), id="id", name="Tiny", metrics=["accuracy"], baselines=["base"])
    low = cr.analyze(data, bootstrap=99, seed=3, refine=False, correction="holm")
    assert (
        cr.analyze(data, bootstrap=99, seed=3, correction="holm", refine=True)
        .competitions[0]
        .primary.verdicts["can_reject"]
        is True
    )
    ma = low.competitions[0].primary
    assert ma.verdicts["tested"] == 6 and ma.verdicts["min_p"] == pytest.approx(0.06)
    assert ma.verdicts["can_reject"] is False
    assert {s.group for s in ma.scores} == {"a"} and not any(s.differs_from_best for s in ma.scores)
    page = cr.Report(low).to_html()
    head = page[: page.index('id="leaderboard"')]
    assert (
        "Too few resamples for accuracy: with 99 resamples" in head
        and "Use B\u00a0=\u00a0120 or more." in head  # glued, as every relation on the pages
    )
    assert "Too few resamples" in team_html(low, low.competitions[0], "weak.01")
    enough = cr.analyze(data, bootstrap=199, seed=3, refine=False, correction="holm")
    maxt = cr.analyze(data, bootstrap=99, seed=3, refine=False)
    assert maxt.competitions[0].primary.verdicts["min_p"] == pytest.approx(0.01)
    for an in (enough, maxt):
        assert an.competitions[0].primary.verdicts["can_reject"] is True
        assert "Too few resamples" not in cr.Report(an).to_html()
        assert "Too few resamples" not in team_html(an, an.competitions[0], "weak.01")
    _frame().to_csv(tmp_path / "tiny.csv", index=False)
    assert (
        main(
            [
                "report",
                str(tmp_path / "tiny.csv"),
                "--id",
                "id",
                "--metric",
                "accuracy",
                "-B",
                "99",
                "--correction",
                "holm",
                "--refine",
                "off",
                "--format",
                "json",
                "-o",
                str(tmp_path / "o"),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    header = out.index("  Rank  Rank set  System")
    assert out.index("  warning: Too few resamples for accuracy") < header


def test_spanish_report_translates_the_markdown_headers_not_the_csv(written, tmp_path):
    analysis, report, out, _ = written
    es = cr.Report(analysis, decimals=3, lang="es")
    es.write(tmp_path / "es", "json")
    md = (tmp_path / "es/tiny/leaderboard.md").read_text(encoding="utf-8")
    assert md.startswith("| Posición | Posiciones | Sistema |")
    assert md == es.to_markdown("leaderboard")
    for name in ("tiny/leaderboard.csv", "tiny/pairs-accuracy.csv", "summary/summary.csv"):
        assert (tmp_path / "es" / name).read_bytes() == (out / name).read_bytes()
    legend = es.table("legend")
    assert (
        legend.columns == {"name": "Nombre", "description": "Descripción"}
        and legend.rows[2].label == "Emp. c/ gan."
    )
    assert list(model.summary_frame(analysis).index) == list(
        model.SUMMARY_ROWS
    )  # the CSV's rows stay English
