"""Ordinary real files read as they are (issue 41, item 7): a first line is a header only by a
stated rule (a column name an option gives, ``id``, a usual column name, or ``--header`` /
``--no-header``), and one taken for a header by the guess is never silent; each case with its good
twin.

Every case runs the command line in this process, as tests/test_readers_real.py does.
"""

from __future__ import annotations

import json
import shutil
import warnings
from pathlib import Path

import pytest

import compreport as cr
from compreport import cli
from compreport.errors import InputError
from conftest import run_cli, said

#: SIGMORPHON 2022-like segmentation: word TAB segments, no header, no number anywhere.
GOLD = "abbé\ta @@bbé\nchat\tch @@at\nchien\tchi @@en\nmaison\tmai @@son\n"
RUN_A = "abbé\ta @@bbé\nchat\tch @@at\nchien\tchien\nmaison\tmai @@son\n"
RUN_B = "abbé\tabbé\nchat\tch @@at\nchien\tchi @@en\nmaison\tmaison\n"


def write(tmp: Path, name: str, text: str) -> Path:
    path = tmp / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def cmd(tmp_path, monkeypatch, capsys):
    """``compreport report ... -o out -B 20 --format json`` in ``tmp_path``: (status, stderr
    lines, results.json's first competition or None)."""

    def call(*args):
        monkeypatch.chdir(tmp_path)
        shutil.rmtree(tmp_path / "out", ignore_errors=True)
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            status = cli.main(["report", *args, "-o", "out", "-B", "20", "--format", "json"])
        err = said(capsys.readouterr().err)
        results = tmp_path / "out" / "results.json"
        comp = (
            json.loads(results.read_text(encoding="utf-8"))["competitions"][0]
            if status == 0
            else None
        )
        return status, [x for x in err if not x.startswith("warning:")], comp

    return call


def layout(tmp: Path, gold: str = GOLD, **runs: str) -> None:
    write(tmp, "gold.tsv", gold)
    for name, text in ({"A.tsv": RUN_A, "B.tsv": RUN_B} | runs).items():
        write(tmp, f"runs/{name}", text)


def scores(comp: dict) -> dict[str, float]:
    return {s["system"]: s["score"] for s in comp["metrics"][0]["scores"]}


# ------------------------------------------------------------------------------------- headers


def test_a_guessed_header_error_offers_no_header_not_a_data_value(tmp_path, cmd):
    layout(tmp_path)
    status, err, _ = cmd("gold.tsv", "--runs", "runs", "--metric", "accuracy")
    assert status == 2 and len(err) == 1, err
    assert err[0].startswith("error: gold.tsv, line 1: the first line ('abbé', 'a @@bbé') is read")
    assert "pass --no-header if it is an item, or --id-col 1" in err[0], err[0]
    assert "'abbé' (" not in err[0] and "--id-col 'abbé'" not in err[0], err[0]


def test_no_header_reads_the_first_line_as_an_item(tmp_path, cmd):
    """Good twin: --no-header scores all 4 items, with no note."""
    layout(tmp_path)
    status, err, comp = cmd("gold.tsv", "--runs", "runs", "--metric", "accuracy", "--no-header")
    assert status == 0 and err == [], err
    assert comp["n"] == 4 and scores(comp) == pytest.approx({"A": 3 / 4, "B": 2 / 4})


def test_positions_with_a_guessed_header_say_the_item_count(tmp_path, cmd):
    """--id-col 1 --label-col 2 and a first line taken for a header: scored on 3 of 4 items, never
    silently (the note names the count and --no-header)."""
    layout(tmp_path)
    status, err, comp = cmd(
        "gold.tsv", "--runs", "runs", "--metric", "accuracy", "--id-col", "1", "--label-col", "2"
    )
    assert status == 0 and comp["n"] == 3
    (line,) = err
    assert line.startswith(
        "note: gold.tsv, line 1: 'abbé', 'a @@bbé' is read as a header, not as an item"
    ), line
    assert "so is the first line of 2 other file(s) (runs/A.tsv, ...)" in line, line
    assert "(the gold is read as 3 items, not 4); pass --no-header" in line, line


def test_header_reads_a_numeric_first_line_as_a_header(tmp_path, cmd):
    """--header: a first line holding a number (a header the guess cannot see) is a header."""
    layout(
        tmp_path,
        gold="w\t2022\n" + GOLD,
        **{"A.tsv": "w\t2022\n" + RUN_A, "B.tsv": "w\t2022\n" + RUN_B},
    )
    status, err, comp = cmd(
        "gold.tsv", "--runs", "runs", "--metric", "accuracy", "--header", "--id-col", "1"
    )
    assert status == 0 and err == [] and comp["n"] == 4, err
    # twin: without --header that line is an item (it holds a number)
    status, err, comp = cmd("gold.tsv", "--runs", "runs", "--metric", "accuracy")
    assert status == 0 and comp["n"] == 5, err


def test_a_usual_header_is_read_without_a_note(tmp_path, cmd):
    """Twin of the note: a header naming `id` or a usual column (`label`) is stated by rule."""
    layout(
        tmp_path,
        gold="id\tlabel\n" + GOLD,
        **{"A.tsv": "id\tlabel\n" + RUN_A, "B.tsv": "id\tlabel\n" + RUN_B},
    )
    status, err, comp = cmd("gold.tsv", "--runs", "runs", "--metric", "accuracy")
    assert status == 0 and err == [] and comp["n"] == 4, err


def test_header_and_no_header_together_are_refused(tmp_path):
    layout(tmp_path)
    res = run_cli(
        tmp_path,
        "report",
        "gold.tsv",
        "--runs",
        "runs",
        "--metric",
        "accuracy",
        "--header",
        "--no-header",
        "-o",
        "out",
    )
    assert res.returncode == 2 and "not allowed with argument --header" in res.stderr, res.stderr
    assert not (tmp_path / "out").exists()


def test_header_in_the_spec_and_the_api(tmp_path, cmd):
    layout(tmp_path)
    write(
        tmp_path,
        "competition.toml",
        'id = "seg"\nname = "Seg"\n\n[data]\ngold = "gold.tsv"\nruns = "runs"\n'
        'header = false\n\n[[metrics]]\nname = "accuracy"\n',
    )
    status, err, comp = cmd("competition.toml")
    assert status == 0 and err == [] and comp["n"] == 4, err
    comp = cr.load(
        tmp_path / "gold.tsv", runs=tmp_path / "runs", metrics=["accuracy"], header=False
    )
    assert comp.competitions[0].n == 4
    with pytest.raises(InputError, match=r"`header` must be True or False; got 'no'"):
        cr.load(tmp_path / "gold.tsv", runs=tmp_path / "runs", metrics=["accuracy"], header="no")
