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
from conftest import run_cli, said, write

#: SIGMORPHON 2022-like segmentation: word TAB segments, no header, no number anywhere.
GOLD = "abbé\ta @@bbé\nchat\tch @@at\nchien\tchi @@en\nmaison\tmai @@son\n"
RUN_A = "abbé\ta @@bbé\nchat\tch @@at\nchien\tchien\nmaison\tmai @@son\n"
RUN_B = "abbé\tabbé\nchat\tch @@at\nchien\tchi @@en\nmaison\tmaison\n"


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
        shown = [x for x in err if not x.startswith("warning:") and "undecided" not in x]
        return status, shown, comp

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


# ------------------------------------------------------------------------------ missing values


def _json_lines(pairs) -> str:
    return "".join(json.dumps({"id": i, "label": v}, ensure_ascii=False) + "\n" for i, v in pairs)


def test_nan_inside_a_json_string_is_a_label(tmp_path, cmd):
    """A Czech output holding the word "nan": in JSON a string is the label as written."""
    gold = [("1", "nan"), ("2", "ano"), ("3", "null"), ("4", "NaN")]
    write(tmp_path, "gold.jsonl", _json_lines(gold))
    write(tmp_path, "runs/A.jsonl", _json_lines(gold))
    write(
        tmp_path,
        "runs/B.jsonl",
        _json_lines([("1", "nan"), ("2", "nan"), ("3", "x"), ("4", "NaN")]),
    )
    status, err, comp = cmd("gold.jsonl", "--runs", "runs", "--metric", "accuracy")
    assert status == 0 and err == [], err
    assert comp["n"] == 4 and scores(comp) == pytest.approx({"A": 1.0, "B": 0.5})


def test_json_null_is_missing_and_the_error_says_so(tmp_path, cmd):
    """Twin: a JSON null (or NaN) is what is missing in JSON; the error says which."""
    write(tmp_path, "gold.jsonl", _json_lines([("1", "a"), ("2", "b"), ("3", "a")]))
    write(tmp_path, "runs/A.jsonl", _json_lines([("1", "a"), ("2", None), ("3", "a")]))
    write(
        tmp_path,
        "runs/B.json",
        '[{"id": "1", "label": "a"}, {"id": "2", "label": NaN}, {"id": "3", "label": "b"}]',
    )
    status, err, _ = cmd("gold.jsonl", "--runs", "runs", "--metric", "accuracy")
    assert status == 2 and err == [
        "error: runs/A.jsonl, line 2, key 'label': blank or NaN value (JSON null or absent); pass "
        "--missing wrong to score it as a wrong answer"
    ], err
    (tmp_path / "runs/A.jsonl").unlink()
    status, err, _ = cmd("gold.jsonl", "--runs", "runs", "--metric", "accuracy")
    assert (
        status == 2
        and "runs/B.json, entry 2, key 'label': blank or NaN value ('NaN', read as missing)"
        in err[0]
    ), err


def test_a_text_cell_read_as_missing_is_shown(tmp_path, cmd):
    """In a text file `nan`, `null` (any case) and a blank are missing, and the error shows the
    text; the gold's too."""
    write(tmp_path, "gold.tsv", "1\ta\n2\tb\n3\ta\n")
    write(tmp_path, "runs/A.tsv", "1\ta\n2\tNULL\n3\ta\n")
    status, err, _ = cmd("gold.tsv", "--runs", "runs", "--metric", "accuracy")
    assert status == 2 and err == [
        "error: runs/A.tsv, line 2, column 2: blank or NaN value ('NULL', read as missing); pass "
        "--missing wrong to score it as a wrong answer"
    ], err
    write(tmp_path, "gold.tsv", "1\ta\n2\tNaN\n3\ta\n")
    status, err, _ = cmd("gold.tsv", "--runs", "runs", "--metric", "accuracy")
    assert status == 2 and err[0].startswith(
        "error: gold.tsv, line 2, column 2: blank or NaN value ('NaN', read as missing; a gold "
        "label is needed"
    ), err
    # twin: --missing wrong scores the run's NULL as a wrong answer
    write(tmp_path, "gold.tsv", "1\ta\n2\tb\n3\ta\n")
    status, _, comp = cmd(
        "gold.tsv", "--runs", "runs", "--metric", "accuracy", "--missing", "wrong"
    )
    assert status == 0 and scores(comp) == pytest.approx({"A": 2 / 3})


def test_a_wide_tables_missing_cell_is_shown(tmp_path, cmd):
    write(tmp_path, "table.tsv", "id\ty\tA\tB\n1\ta\ta\tnull\n2\tb\tb\tb\n3\ta\ta\ta\n")
    status, err, _ = cmd("table.tsv", "--metric", "accuracy")
    assert (
        status == 2
        and "line 2, column 'B': blank or NaN value ('null', read as missing)" in (err[0])
    ), err


# ---------------------------------------------------------------------------------- whitespace


def test_json_labels_keep_their_spaces_text_cells_are_stripped(tmp_path, cmd):
    """A JSON string is the label as written (spaces too), as the official scorers compare
    strings; a text file's cells are stripped of surrounding blanks (docs/inputs.md)."""
    write(tmp_path, "gold.jsonl", _json_lines([("1", "a b"), ("2", "c"), ("3", "d")]))
    write(tmp_path, "runs/A.jsonl", _json_lines([("1", "a b "), ("2", "c"), ("3", " d")]))
    status, err, comp = cmd("gold.jsonl", "--runs", "runs", "--metric", "accuracy")
    assert status == 0 and scores(comp) == pytest.approx({"A": 1 / 3}), err
    # twin: the same values in TSV files, whose cells are stripped
    write(tmp_path, "gold.tsv", "1\ta b\n2\tc\n3\td\n")
    shutil.rmtree(tmp_path / "runs")
    write(tmp_path, "runs/A.tsv", "1\ta b \n2\tc\n3\t d\n")
    status, err, comp = cmd("gold.tsv", "--runs", "runs", "--metric", "accuracy", "--sep", "tab")
    assert status == 0 and scores(comp) == pytest.approx({"A": 1.0}), err


# ------------------------------------------------------------ JSON objects aligned by position


def _dstc(tmp: Path, runs: dict[str, list[bool]]) -> None:
    """DSTC9 Track 1's layout: labels.json, a list of objects without ids (``target``, and
    ``response`` where true), runs the same, aligned by position."""
    gold = [True, False, True, True]
    write(
        tmp,
        "labels.json",
        json.dumps([{"target": t} | ({"response": "r"} if t else {}) for t in gold]),
    )
    for name, targets in runs.items():
        write(tmp, f"runs/{name}.json", json.dumps([{"target": t} for t in targets]))


def test_json_objects_without_ids_are_aligned_by_position(tmp_path, cmd):
    _dstc(tmp_path, {"A": [True, False, True, False], "B": [True, True, True, True]})
    status, err, comp = cmd(
        "labels.json", "--runs", "runs", "--label-col", "target", "--metric", "accuracy"
    )
    assert status == 0 and err == [], err
    assert comp["n"] == 4 and scores(comp) == pytest.approx({"A": 3 / 4, "B": 3 / 4})


def test_json_objects_without_ids_of_another_count_are_an_error(tmp_path, cmd):
    """Twin: aligned by position, a run must have as many entries as the gold."""
    _dstc(tmp_path, {"A": [True, False, True, False], "B": [True, True, True]})
    status, err, _ = cmd(
        "labels.json", "--runs", "runs", "--label-col", "target", "--metric", "accuracy"
    )
    assert status == 2 and len(err) == 1, err
    assert "runs/B.json: 3 predictions" in err[0] and "has 4 items" in err[0], err


def test_a_named_id_key_no_entry_has_is_still_an_error(tmp_path, cmd):
    """Twin: an id key the options name is never dropped for positions."""
    _dstc(tmp_path, {"A": [True, False, True, False]})
    status, err, _ = cmd(
        "labels.json",
        "--runs",
        "runs",
        "--id-col",
        "dialog",
        "--label-col",
        "target",
        "--metric",
        "accuracy",
    )
    assert status == 2 and "labels.json: no entry has the key 'dialog'" in err[0], err


def test_keep_spaces_keeps_the_labels_surrounding_spaces(tmp_path, cmd):
    """--keep-spaces: a tab-separated label is compared as written (a trailing space makes a
    segmentation wrong, as a scorer comparing raw strings counts it); ids are stripped all the
    same. Its twin is the stripped reading above."""
    write(tmp_path, "gold.tsv", "id\tlabel\n1\ta b\n2\tc\n3\td\n")
    write(tmp_path, "runs/A.tsv", "id\tlabel\n1 \ta b \n2\tc\n 3\t d\n")
    write(tmp_path, "runs/B.tsv", "1\ta b\n2\tc\n3\td\n")
    status, err, comp = cmd("gold.tsv", "--runs", "runs", "--metric", "accuracy", "--keep-spaces")
    assert status == 0, err
    assert scores(comp) == pytest.approx({"A": 1 / 3, "B": 1.0})
    status, err, comp = cmd("gold.tsv", "--runs", "runs", "--metric", "accuracy")
    assert status == 0 and scores(comp) == pytest.approx({"A": 1.0, "B": 1.0}), err
    # a one-label-per-line run and the spec key
    write(tmp_path, "gold.tsv", "a b\nc\nd\n")
    shutil.rmtree(tmp_path / "runs")
    write(tmp_path, "runs/A.tsv", "a b \nc\nd\n")
    write(
        tmp_path,
        "competition.toml",
        'id = "seg"\nname = "Seg"\n\n[data]\ngold = "gold.tsv"\nruns = "runs"\nsep = "tab"\n'
        'header = false\nkeep_spaces = true\n\n[[metrics]]\nname = "accuracy"\n',
    )
    status, err, comp = cmd("competition.toml")
    assert status == 0 and scores(comp) == pytest.approx({"A": 2 / 3}), err
