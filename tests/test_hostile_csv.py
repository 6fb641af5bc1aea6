"""Issue 41, item 3: formula injection in the CSV exports. Run, team and competition names that a
spreadsheet runs as formulas (``=HYPERLINK(...)``, ``-1+2``, ``+A1``, ``@SUM(1)``, a leading tab
or CR) reach every CSV export (``leaderboard.csv``, ``pairs-<metric>.csv``, ``summary.csv``,
``competitiveness.csv``, ``plan.csv``) as text with a leading ``'``; the twin: numeric cells,
negative differences included, are written as the numbers stored."""

from __future__ import annotations

import csv
import io
import json
import math

import pandas as pd
import pytest

import compreport as cr
from compreport.output.csvfile import FORMULA_START, inert, rows_text, write_frame
from compreport.report.planning import write_plan

GOLD = list("aabbaabbab" * 6)

#: System names (a team each: ``<team>.01``) that a spreadsheet would run.
HOSTILE = [
    '=HYPERLINK("http://x","y").01',
    "-1+2.01",
    "+A1.01",
    "@SUM(1).01",
    "\tx.01",
    "\rx.01",
]
#: A competition name a spreadsheet would run.
NAME = '=HYPERLINK("http:x")'


def _flip(k: int) -> list[str]:
    return [g if i % k else ("b" if g == "a" else "a") for i, g in enumerate(GOLD)]


def _data():
    columns = {"id": range(1, len(GOLD) + 1), "y": GOLD, "good.01": _flip(13)}
    columns |= {name: _flip(k) for name, k in zip(HOSTILE, (11, 3, 2, 5, 7, 4), strict=True)}
    return cr.from_frame(pd.DataFrame(columns), id="id", name=NAME, metrics=["accuracy"])


@pytest.fixture(scope="module")
def exports(tmp_path_factory):
    """Every CSV export of one report (json and latex) and one plan: ``{name: rows}``, each file
    read with the csv module; and the analysis and plan behind them."""
    root = tmp_path_factory.mktemp("csv")
    data = _data()
    with pytest.warns(Warning):  # a tiny data set
        analysis = cr.analyze(data, bootstrap=199, seed=3)
    cr.Report(analysis).write(root / "out", "json,latex", figure_formats=())
    with pytest.warns(Warning):
        plan = cr.plan(data, bootstrap=199, draws=100, seed=3)
    write_plan(plan, root / "plan")
    found = sorted((root / "out").rglob("*.csv")) + [root / "plan" / "plan.csv"]
    read = {
        p.name: list(csv.reader(io.StringIO(p.read_bytes().decode("utf-8"), newline="")))
        for p in found
    }
    return analysis, plan, read


def _number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def test_every_csv_export_is_found(exports):
    _, _, read = exports
    assert set(read) == {
        "leaderboard.csv",
        "pairs-accuracy.csv",
        "summary.csv",
        "competitiveness.csv",
        "plan.csv",
    }


def test_no_text_cell_of_any_export_starts_a_formula(exports):
    """Every cell (names, headers, row labels) that is not a number starts with none of ``= + -
    @``, tab or CR; the hostile names are there, after a ``'``."""
    _, _, read = exports
    for name, rows in read.items():
        for row in rows:
            for cell in row:
                assert _number(cell) or not cell.startswith(FORMULA_START), (name, cell)
    cells = {name: {c for row in rows for c in row} for name, rows in read.items()}
    for system in HOSTILE:
        assert "'" + system in cells["leaderboard.csv"], system
        assert "'" + system in cells["pairs-accuracy.csv"], system
        assert "'" + system.removesuffix(".01") in cells["leaderboard.csv"]  # the team
    assert "'" + NAME in cells["summary.csv"]
    assert {"'" + s for s in HOSTILE} <= cells["plan.csv"]


def test_numbers_twin_negative_differences_stay_numbers(exports):
    """The twin: every numeric cell is the stored number, negative ones (the lower ends of the
    differences' intervals) written as ``-0.05``, not ``'-0.05``."""
    analysis, plan, read = exports
    rows = read["pairs-accuracy.csv"]
    head = rows[0]
    frame = analysis.pairs("accuracy")
    diffs = [float(r[head.index("diff")]) for r in rows[1:]]
    assert diffs == list(frame["diff"])
    lows = [r[head.index("ci_low")] for r in rows[1:]]
    assert [float(x) for x in lows] == list(frame["ci_low"])
    # negative numbers are in the file, as numbers: -0.05, not '-0.05
    assert any(x.startswith("-") for x in lows), lows
    # plan.csv: the stored floats, round-tripped (diffs of the best minus another)
    stored = json.loads(plan.to_json())["competitions"][0]["metrics"][0]["pairs"]
    head, *body = read["plan.csv"]
    for row, p in zip(body, stored, strict=True):
        for key in ("diff", "se", "mdd", "power_now"):
            value = row[head.index(key)]
            assert (value == "" and p[key] is None) or math.isclose(float(value), p[key]), key
    board = read["leaderboard.csv"]
    assert all(_number(r[board[0].index("score:accuracy")]) for r in board[1:])


def test_the_one_writer_keeps_numbers_and_neutralizes_text(tmp_path):
    """:mod:`compreport.output.csvfile` by itself: a negative number is a number, the same
    characters as text are neutralized, in a frame's cells, headers and row labels; a CR in a
    name is quoted, so the row stays one row."""
    assert inert(-0.5) == -0.5 and inert("-0.5") == "'-0.5" and inert("a-1") == "a-1"
    df = pd.DataFrame(
        {"=x": ["-1+2", "ok", "a\rb"], "diff": [-0.5, 2.0, float("nan")]}, index=["@r", "s", "t"]
    )
    write_frame(df, tmp_path / "f.csv", index_label="row")
    text = (tmp_path / "f.csv").read_bytes().decode("utf-8")
    assert text == "row,'=x,diff\n'@r,'-1+2,-0.5\ns,ok,2.0\nt,\"a\rb\",\n"
    assert df.columns[0] == "=x" and df.iloc[0, 0] == "-1+2"  # the caller's frame is unchanged
    assert rows_text([["+1", -3, None]]) == "'+1,-3,\n"
