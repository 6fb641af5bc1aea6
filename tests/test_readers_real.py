"""Gold and run files as real shared tasks publish them: each layout, and its bad-input twin.

Every case runs the command line in this process (``compreport.cli.main``, cwd = tmp_path, relative
paths, ``-B 20 --format json``) and reads what a user sees: the exit status, stderr's lines
(``note:``, ``warning:``, exactly one ``error:`` for a bad input) and results.json. A failing run
writes nothing.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import warnings
import zipfile
from pathlib import Path

import numpy as np
import pytest

import compreport as cr
from compreport import cli
from compreport.errors import InputError, InputWarning
from conftest import said as without_small_n

GOLD = "id\tlabel\n1\ta\n2\tb\n3\ta\n4\tb\n5\tc\n6\tc\n"
#: accuracy 5/6, 4/6
RUN_A = "1\ta\n2\tb\n3\ta\n4\tb\n5\tc\n6\ta\n"
RUN_B = "1\ta\n2\ta\n3\ta\n4\tb\n5\tc\n6\tb\n"


def write(tmp: Path, name: str, text: str | bytes) -> Path:
    path = tmp / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def run(tmp: Path, monkeypatch, capsys, *args: str) -> tuple[int, str, list[str]]:
    """``compreport ARGS`` in ``tmp`` (an ``out`` left by an earlier call removed): (exit status,
    stdout, stderr lines)."""
    monkeypatch.chdir(tmp)
    shutil.rmtree(tmp / "out", ignore_errors=True)
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        status = cli.main(list(args))
    out, err = capsys.readouterr()
    return status, out, without_small_n(err)


@pytest.fixture
def cmd(tmp_path, monkeypatch, capsys):
    def call(*args):
        return run(tmp_path, monkeypatch, capsys, *args)

    return call


def report(cmd, *args):
    return cmd("report", *args, "-o", "out", "-B", "20", "--format", "json")


def good(tmp: Path, result) -> dict:
    """A run that worked: exit 0, only note:/warning: lines; its results.json's first
    competition."""
    status, _, err = result
    assert status == 0 and all(line.startswith(("note: ", "warning: ")) for line in err), err
    return json.loads((tmp / "out" / "results.json").read_text(encoding="utf-8"))["competitions"][0]


def bad(tmp: Path, result, *needles: str) -> str:
    """A bad input: exit 2, one error: line (others only note:/warning:) holding every needle,
    nothing written."""
    status, out, err = result
    errors = [line for line in err if line.startswith("error: ")]
    assert status == 2 and len(errors) == 1, err
    assert all(line.startswith(("error: ", "note: ", "warning: ")) for line in err), err
    for needle in needles:
        assert needle in errors[0], (needle, errors[0])
    assert out == "" and not (tmp / "out").exists()
    assert not [p for p in tmp.iterdir() if p.name.startswith(".out.")]
    return errors[0]


def scores(comp: dict, metric: int = 0) -> dict[str, float]:
    return {s["system"]: s["score"] for s in comp["metrics"][metric]["scores"]}


def runs_layout(tmp: Path, gold: str = GOLD, **runs: str) -> None:
    write(tmp, "gold.tsv", gold)
    for name, text in ({"A.tsv": RUN_A, "B.tsv": RUN_B} | runs).items():
        write(tmp, f"runs/{name}", text)


# ------------------------------------------------------------------------- comments and separators


def test_comments_and_a_commented_header(tmp_path, cmd):
    """ARCT's layout: '#' lines (the last one the header) in the gold and in a run."""
    runs_layout(
        tmp_path,
        gold="# test labels\n#\n#id\tlabel\n" + GOLD.split("\n", 1)[1],
        **{"A.tsv": "#id\tlabel\n" + RUN_A},
    )
    comp = good(tmp_path, report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"))
    assert comp["n"] == 6 and scores(comp) == pytest.approx({"A": 5 / 6, "B": 4 / 6})


def test_a_file_of_comments_only(tmp_path, cmd):
    runs_layout(tmp_path, **{"B.tsv": "# nothing yet\n"})
    bad(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "runs/B.tsv",
        "only comment lines",
        "--no-comments",
    )


def test_no_comments_reads_hash_ids(tmp_path, cmd):
    runs_layout(
        tmp_path,
        gold="#1\ta\n#2\tb\n3\ta\n",
        **{"A.tsv": "#1\ta\n#2\tb\n3\tb\n", "B.tsv": "#1\ta\n#2\ta\n3\ta\n"},
    )
    comp = good(
        tmp_path, report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy", "--no-comments")
    )
    assert comp["n"] == 3 and scores(comp) == pytest.approx({"A": 2 / 3, "B": 2 / 3})
    # the header ARCT comments out, read as a header: the option it suggests is quoted for a shell
    write(tmp_path, "gold.tsv", "#id\tlabel\n1\ta\n2\tb\n3\ta\n")
    bad(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy", "--no-comments"),
        "gold.tsv, line 1",
        "pass --id-col '#id' (",
    )


def test_mixed_tab_and_space_lines(tmp_path, cmd):
    """Runs of blanks separate the fields of a file that mixes tab and space lines (ARCT's gold)."""
    runs_layout(
        tmp_path,
        gold="1\ta\n2   b\n3\ta\n4 b\n5\tc\n6\tc\n",
        **{"B.tsv": RUN_B.replace("\t", "  ")},
    )
    comp = good(tmp_path, report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"))
    assert scores(comp) == pytest.approx({"A": 5 / 6, "B": 4 / 6})


def test_mixed_separators_with_a_space_inside_a_field(tmp_path, cmd):
    runs_layout(tmp_path, **{"B.tsv": "1\tvery a\n2 b\n3\ta\n4\tb\n5\tc\n6\tb\n"})
    bad(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "runs/B.tsv, line 1",
        "'very a'",
        "--sep tab",
    )


def test_sep_option_and_comma_files(tmp_path, cmd):
    runs_layout(
        tmp_path,
        gold=GOLD.replace("\t", ","),
        **{"A.tsv": RUN_A.replace("\t", ","), "B.tsv": RUN_B.replace("\t", ",")},
    )
    comp = good(tmp_path, report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"))
    assert scores(comp) == pytest.approx({"A": 5 / 6, "B": 4 / 6})
    bad(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy", "--sep", "tabs"),
        "--sep must be one of auto, tab, comma, whitespace",
        "'tabs'",
        "did you mean 'tab'",
    )


# --------------------------------------------------------------------------- columns

QREL = (
    "qid cid rank score label\nQ1 Q1_C1 1 0.9 true\nQ1 Q1_C2 2 0.5 false\n"
    "Q2 Q2_C1 1 0.7 false\nQ2 Q2_C2 2 0.2 true\n"
)


def test_id_and_label_columns_by_position_and_name(tmp_path, cmd):
    """SemEval-2016 Task 3 style: `qid cid rank score label`, ids in column 2, labels in
    column 5."""
    write(tmp_path, "gold.txt", "Q1 Q1_C1 true\nQ1 Q1_C2 false\nQ2 Q2_C1 true\nQ2 Q2_C2 true\n")
    write(tmp_path, "runs/team1.pred", QREL.split("\n", 1)[1])
    write(
        tmp_path,
        "runs/team2.pred",
        QREL.split("\n", 1)[1].replace("true", "X").replace("false", "true").replace("X", "false"),
    )
    bad(
        tmp_path,
        report(cmd, "gold.txt", "--runs", "runs", "--metric", "accuracy", "--id-col", "2"),
        "gold.txt: 3 columns, expected an id column and one label column",
        "--label-col N",
    )
    spec = (
        'name = "qa"\n[data]\ngold = "gold.txt"\nid_col = 2\nlabel_col = 3\n'
        '[data.runs]\npath = "runs"\nlabel_col = 5\n[[metrics]]\nname = "accuracy"\n'
    )
    write(tmp_path, "competition.toml", spec)
    comp = good(tmp_path, report(cmd, "competition.toml"))
    assert scores(comp) == pytest.approx({"team1": 0.75, "team2": 0.25})
    # by header names: the runs' header says where their columns are
    write(tmp_path, "runs/team1.pred", QREL)
    comp = good(tmp_path, report(cmd, "competition.toml"))
    assert scores(comp) == pytest.approx({"team1": 0.75, "team2": 0.25})


def test_more_columns_without_a_label_column_is_an_error(tmp_path, cmd):
    write(tmp_path, "gold.txt", QREL)
    write(tmp_path, "runs/team1.pred", QREL)
    bad(
        tmp_path,
        report(cmd, "gold.txt", "--runs", "runs", "--metric", "accuracy", "--id-col", "cid"),
        "gold.txt: 5 columns",
        "'qid', 'cid', 'rank', 'score', 'label'",
        "--label-col N",
    )
    comp = good(
        tmp_path,
        report(
            cmd,
            "gold.txt",
            "--runs",
            "runs",
            "--metric",
            "accuracy",
            "--id-col",
            "cid",
            "--label-col",
            "label",
        ),
    )
    assert comp["n"] == 4 and scores(comp) == {"team1": 1.0}


COLUMNS_2 = "(header: 'id', 'label')"


@pytest.mark.parametrize(
    "args, message",
    [
        (("--id-col", "3"), f"gold.tsv: --id-col 3, but the file has 2 columns {COLUMNS_2}"),
        (("--label-col", "3"), f"gold.tsv: --label-col 3, but the file has 2 columns {COLUMNS_2}"),
        (
            ("--label-col", "2,3"),
            f"gold.tsv: --label-col 2,3 (column 3), but the file has 2 columns {COLUMNS_2}",
        ),
        (("--id", "3"), f"gold.tsv: --id 3, but the file has 2 columns {COLUMNS_2}"),
        (
            ("--cluster-col", "5"),
            f"gold.tsv: --cluster-col 5, but the file has 2 columns {COLUMNS_2}",
        ),
        (
            ("--score-col", "7"),
            "runs/A.tsv: --score-col 7, but the file has 2 columns (line 1: '1', 'a')",
        ),
        (("--score-col", "0"), "error: --score-col must be a column name or a 1-based position"),
    ],
)
def test_a_column_position_out_of_range_names_the_option_given(tmp_path, cmd, args, message):
    """Each option is named as given (not as --label-col, nor as both), with the file and its
    columns."""
    runs_layout(tmp_path)
    bad(tmp_path, report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy", *args), message)


def test_a_column_position_out_of_range_in_a_run_a_spec_and_the_api(tmp_path, cmd):
    write(tmp_path, "gold.txt", "q1 a x\nq2 b y\nq3 a x\n")
    write(tmp_path, "runs/A.txt", "q1 x\nq2 y\nq3 y\n")
    bad(
        tmp_path,
        report(cmd, "gold.txt", "--runs", "runs", "--metric", "accuracy", "--label-col", "3"),
        "runs/A.txt: --label-col 3, but the file has 2 columns (line 1: 'q1', 'x')",
    )
    write(tmp_path, "labels.txt", "x\ny\nx\n")  # a one-field gold: its positions are checked too
    write(tmp_path, "runs/A.txt", "x\ny\ny\n")
    bad(
        tmp_path,
        report(cmd, "labels.txt", "--runs", "runs", "--metric", "accuracy", "--label-col", "2"),
        "labels.txt: --label-col 2, but the file has 1 column (line 1: 'x')",
    )
    runs_layout(tmp_path / "task")
    spec = (
        'name = "T"\n[data]\ngold = "gold.tsv"\nid_col = 3\n[data.runs]\npath = "runs"\n'
        '[[metrics]]\nname = "accuracy"\n'
    )
    write(tmp_path, "task/competition.toml", spec)
    bad(
        tmp_path,
        report(cmd, "task"),
        f"task/gold.tsv: [data] id_col = 3, but the file has 2 columns {COLUMNS_2}",
    )
    write(
        tmp_path,
        "task/competition.toml",
        spec.replace("id_col = 3", "").replace('"runs"', '"runs"\nlabel_col = 4'),
    )
    bad(
        tmp_path,
        report(cmd, "task"),
        "task/runs/A.tsv: [data.runs] label_col = 4, but the file has 2 columns",
    )
    write(tmp_path, "wide/table.csv", "id,y,A\n1,a,a\n2,b,b\n")
    write(
        tmp_path,
        "wide/competition.toml",
        'name = "W"\n[data]\ntable = "table.csv"\nid_col = 9\n[[metrics]]\nname = "accuracy"\n',
    )
    bad(
        tmp_path,
        report(cmd, "wide"),
        "wide/table.csv: [data] id_col = 9, but the file has 3 columns (header: 'id', 'y', 'A')",
    )
    for given, said in (
        (dict(id_col=3), "gold.tsv: id_col=3, but"),
        (dict(score_col=7), "A.tsv: score_col=7, but"),
        (dict(label_col=[2, 3]), "gold.tsv: label_col=[2, 3] (column 3), but"),
    ):
        with pytest.raises(InputError, match=re.escape(said)):
            cr.load(
                tmp_path / "task/gold.tsv", runs=tmp_path / "task/runs", metrics="accuracy", **given
            )


# --------------------------------------------------------------------------- line-aligned files


def test_runs_without_ids_are_aligned_by_line(tmp_path, cmd):
    """CodaLab submissions: one label per line, against a gold with ids or a one-field gold."""
    runs_layout(tmp_path, **{"A.tsv": "a\nb\na\nb\nc\na\n", "B.tsv": RUN_B})
    comp = good(tmp_path, report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"))
    assert scores(comp) == pytest.approx({"A": 5 / 6, "B": 4 / 6})
    write(tmp_path, "labels.txt", "a\nb\na\nb\nc\nc\n")
    write(tmp_path, "runs/B.tsv", "a\na\na\nb\nc\nb\n")
    comp = good(tmp_path, report(cmd, "labels.txt", "--runs", "runs", "--metric", "accuracy"))
    assert comp["n"] == 6 and scores(comp) == pytest.approx({"A": 5 / 6, "B": 4 / 6})


def test_line_count_mismatch_names_both_counts(tmp_path, cmd):
    runs_layout(tmp_path, **{"A.tsv": "a\nb\na\nb\nc\n"})
    bad(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "runs/A.tsv: 5 predictions",
        "gold.tsv has 6 items",
        "line by line",
    )


def test_a_gold_of_ids_only_is_named_not_the_runs(tmp_path, cmd):
    """A gold with no label column is read as one label per line, its items numbered 1..n: a run's
    ids are then not its items, and the error says so of the gold (it names the run only as
    evidence)."""
    ids = "".join(f"t{i}\n" for i in range(1, 7))
    run_a, run_b = ("".join(f"t{line}\n" for line in run.splitlines()) for run in (RUN_A, RUN_B))
    runs_layout(tmp_path, gold="id\n" + ids, **{"A.tsv": "id\tlabel\n" + run_a, "B.tsv": run_b})
    message = bad(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "error: gold.tsv: one column (header: 'id'), read as labels without ids (items numbered 1 "
        "to 6), but runs/A.tsv has ids (line 2: 't1'), and 't1' is also line 2 of gold.tsv: "
        "gold.tsv holds ids and no label column",
    )
    assert "not in the gold file" not in message
    write(tmp_path, "gold.tsv", ids)  # without a header
    bad(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "error: gold.tsv: one column, read as labels without ids (items numbered 1 to 6), but "
        "runs/A.tsv has ids (line 2: 't1'), and 't1' is also line 1 of gold.tsv",
    )
    write(tmp_path, "gold.tsv", "a\nb\na\nb\nc\nc\n")  # labels: the runs' ids are not line numbers
    bad(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "error: gold.tsv: one column, read as labels without ids (items numbered 1 to 6), but "
        "runs/A.tsv has ids (line 2: 't1'); give gold.tsv an id column, or the runs one label "
        "per line",
    )


def test_a_one_field_gold_says_when_its_first_line_is_read_as_a_header(tmp_path, cmd):
    # 'neutral' occurs only on the first lines: read as a header of the gold and of A, never
    # silently
    write(tmp_path, "labels.txt", "neutral\na\nb\na\nb\nc\n")
    write(tmp_path, "runs/A.txt", "neutral\na\nb\na\nb\na\n")
    result = report(cmd, "labels.txt", "--runs", "runs", "--metric", "accuracy")
    assert scores(good(tmp_path, result)) == pytest.approx({"A": 4 / 5})
    assert any(
        line.startswith("note: labels.txt, line 1: 'neutral' is read as a header, not as an item")
        for line in result[2]
    )
    # a run without that first line: the count error says which first lines were read as headers
    write(tmp_path, "runs/B.txt", "c\na\nb\na\nb\nc\n")
    bad(
        tmp_path,
        report(cmd, "labels.txt", "--runs", "runs", "--metric", "accuracy"),
        "runs/B.txt: 6 predictions",
        "labels.txt has 5 items",
        "(read as a header: labels.txt's first line 'neutral')",
    )
    # a usual column name is not noted
    write(tmp_path, "labels.txt", "Label\na\nb\na\nb\nc\n")
    (tmp_path / "runs/B.txt").unlink()
    write(tmp_path, "runs/A.txt", "a\nb\na\nb\na\n")
    result = report(cmd, "labels.txt", "--runs", "runs", "--metric", "accuracy")
    assert scores(good(tmp_path, result)) == pytest.approx({"A": 4 / 5})
    assert not [line for line in result[2] if "header" in line]
    write(tmp_path, "labels.txt", "Sentiment\na\nb\na\nb\nc\n")  # nor a header named by --label-col
    result = report(
        cmd, "labels.txt", "--runs", "runs", "--metric", "accuracy", "--label-col", "Sentiment"
    )
    assert scores(good(tmp_path, result)) == pytest.approx({"A": 4 / 5})
    assert not [line for line in result[2] if "header" in line]


# --------------------------------------------------------------------------- JSON


def test_json_and_jsonl_runs(tmp_path, cmd):
    ids_a = [("1", "a"), ("2", "b"), ("3", "a"), ("4", "b"), ("5", "c"), ("6", "a")]
    write(tmp_path, "gold.tsv", GOLD)
    write(
        tmp_path,
        "runs/A.jsonl",
        "".join(json.dumps({"id": int(i), "label": v}) + "\n" for i, v in ids_a),
    )
    write(
        tmp_path,
        "runs/B.json",
        json.dumps([{"id": i, "label": v} for i, v in zip("123456", "aaabcb")]),
    )
    write(tmp_path, "runs/C.json", json.dumps(dict(zip("123456", "abaccc"))))
    write(tmp_path, "runs/D.json", json.dumps(list("abacca")))
    comp = good(tmp_path, report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"))
    assert scores(comp) == pytest.approx({"A": 5 / 6, "B": 4 / 6, "C": 5 / 6, "D": 4 / 6})


@pytest.mark.parametrize(
    "text, needles",
    [
        (
            '{"id": 1, "pred": "a"}\n',
            ("runs/B.jsonl", "no entry has the key 'label'", "'pred'", "--label-col pred"),
        ),
        ('{"id": 1, "label": "a"}\n{"id": 2, "label": \n', ("runs/B.jsonl, line 2", "not JSON")),
        (
            '{"id": 1, "label": "a"}\n{"id": 2, "label": ["a"]}\n'
            + "".join(f'{{"id": {i}, "label": "a"}}\n' for i in range(3, 7)),
            (  # a label set in a run of a single-label task: refused where it stands
                "runs/B.jsonl, line 2, key 'label'",
                "system 'B' gives the label set [\"a\"] where the gold holds one label per item",
            ),
        ),
    ],
)
def test_bad_json_runs(tmp_path, cmd, text, needles):
    runs_layout(tmp_path)
    (tmp_path / "runs" / "B.tsv").unlink()
    write(tmp_path, "runs/B.jsonl", text)
    bad(tmp_path, report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"), *needles)


def test_json_keys_named_by_the_column_options(tmp_path, cmd):
    runs_layout(tmp_path)
    (tmp_path / "runs" / "B.tsv").unlink()
    write(
        tmp_path,
        "runs/B.jsonl",
        "".join(json.dumps({"doc": i, "pred": v}) + "\n" for i, v in zip("123456", "aaabcb")),
    )
    write(tmp_path, "gold.tsv", GOLD.replace("id\tlabel", "doc\tpred"))
    write(tmp_path, "runs/A.tsv", "doc\tpred\n" + RUN_A)
    comp = good(
        tmp_path,
        report(
            cmd,
            "gold.tsv",
            "--runs",
            "runs",
            "--metric",
            "accuracy",
            "--id-col",
            "doc",
            "--label-col",
            "pred",
        ),
    )
    assert scores(comp) == pytest.approx({"A": 5 / 6, "B": 4 / 6})


# --------------------------------------------------------------------------- zips


def _zip(path: Path, members: dict[str, str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as z:
        for name, text in members.items():
            z.writestr(name, text)


def test_zipped_submission_is_read_from_its_prediction_file(tmp_path, cmd):
    runs_layout(tmp_path)
    (tmp_path / "runs" / "B.tsv").unlink()
    _zip(
        tmp_path / "runs" / "B.zip",
        {
            "answer.txt": "a\na\na\nb\nc\nb\n",
            "metadata": "description: x\n",
            "__MACOSX/._answer.txt": "junk",
            ".hidden": "junk",
            "res/": "",
        },
    )
    comp = good(tmp_path, report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"))
    assert scores(comp) == pytest.approx({"A": 5 / 6, "B": 4 / 6})
    assert any(i["path"] == "runs/B.zip" for i in comp["inputs"])


def test_zip_with_two_candidates(tmp_path, cmd):
    runs_layout(tmp_path)
    (tmp_path / "runs" / "B.tsv").unlink()
    _zip(
        tmp_path / "runs" / "B.zip",
        {"answer.txt": "a\na\na\nb\nc\nb\n", "res/answer_dev.txt": "a\n"},
    )
    bad(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "runs/B.zip",
        "2 candidate prediction files",
        "'answer.txt', 'res/answer_dev.txt'",
        "--zip-member NAME",
    )
    comp = good(
        tmp_path,
        report(
            cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy", "--zip-member", "answer.txt"
        ),
    )
    assert scores(comp)["B"] == pytest.approx(4 / 6)


def test_zip_member_by_path_when_two_share_a_file_name(tmp_path, cmd):
    runs_layout(tmp_path)
    (tmp_path / "runs" / "B.tsv").unlink()
    _zip(tmp_path / "runs" / "B.zip", {"answer.txt": "a\na\na\nb\nc\nb\n", "res/answer.txt": RUN_A})
    for wanted, expected in (
        ("answer.txt", 4 / 6),
        ("res/answer.txt", 5 / 6),
    ):  # the exact path wins
        comp = good(
            tmp_path,
            report(
                cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy", "--zip-member", wanted
            ),
        )
        assert scores(comp)["B"] == pytest.approx(expected)
    _zip(tmp_path / "runs" / "B.zip", {"x/answer.txt": "a\n", "y/answer.txt": "a\n"})
    bad(
        tmp_path,
        report(
            cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy", "--zip-member", "answer.txt"
        ),
        "runs/B.zip",
        "2 members named 'answer.txt'",
        "'x/answer.txt', 'y/answer.txt'",
    )


# --------------------------------------------------------------------------- team folders and names


def test_team_folders_name_the_runs(tmp_path, cmd):
    write(tmp_path, "gold.tsv", GOLD)
    write(tmp_path, "teams/cagri/english.output.txt", "a\nb\na\nb\nc\na\n")
    write(tmp_path, "teams/ECNU/subtask_A_primary.txt", RUN_A)
    write(tmp_path, "teams/ECNU/subtask_A_contrastive1.txt", RUN_B)
    write(tmp_path, "teams/UPV.2.txt", RUN_B)
    comp = good(tmp_path, report(cmd, "gold.tsv", "--runs", "teams", "--metric", "accuracy"))
    assert comp["systems"] == ["ECNU contrastive1", "ECNU primary", "UPV.2", "cagri"]
    assert comp["teams"] == {
        "ECNU contrastive1": "ECNU",
        "ECNU primary": "ECNU",
        "UPV.2": "UPV",
        "cagri": "cagri",
    }


def test_two_runs_with_one_name(tmp_path, cmd):
    runs_layout(tmp_path, **{"A.txt": RUN_B})
    bad(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "system name 'A' is also the name of",
        "--names FILE",
    )


def test_names_file_renames_marks_and_excludes(tmp_path, cmd):
    runs_layout(tmp_path, **{"436419.tsv": "broken\n", "437684.tsv": RUN_B})
    write(
        tmp_path,
        "names.tsv",
        "# display names\nrun\tname\tteam\tbaseline\texclude\nA\tAlpha\tT1\t\t\n"
        "437684\tRandom baseline\t\ttrue\t\n436419\t\t\t\ttrue\n",
    )
    result = report(
        cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy", "--names", "names.tsv"
    )
    comp = good(tmp_path, result)
    assert comp["systems"] == ["Random baseline", "Alpha", "B"]
    assert comp["baselines"] == ["Random baseline"] and comp["teams"]["Alpha"] == "T1"
    assert any(
        line.startswith("note: names.tsv: 1 run(s) excluded: 436419.tsv") for line in result[2]
    )
    assert [i["path"] for i in comp["inputs"]] == [
        "gold.tsv",
        "names.tsv",
        "runs/437684.tsv",
        "runs/A.tsv",
        "runs/B.tsv",
    ]


@pytest.mark.parametrize(
    "names, needles",
    [
        (
            "run,name\nA,Alpha\nZ,Zed\n",
            ("names.csv, line 3", "run 'Z' matches no run file", "runs: A.tsv, B.tsv"),
        ),
        (
            "run,nmae\nA,Alpha\n",
            ("names.csv, line 1", "unknown column 'nmae'", "did you mean 'name'"),
        ),
        ("name\nAlpha\n", ("names.csv, line 1", "`run`")),
        ("run,name\nA,B\n", ("names.csv", "would both be named 'B'")),
        (
            "run,baseline\nA,maybe\n",
            ("names.csv, line 2, column 'baseline'", "'maybe' is not true or false"),
        ),
    ],
)
def test_bad_names_file(tmp_path, cmd, names, needles):
    runs_layout(tmp_path)
    write(tmp_path, "names.csv", names)
    bad(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy", "--names", "names.csv"),
        *needles,
    )


def test_xml_names_file(tmp_path, cmd):
    runs_layout(tmp_path)
    write(
        tmp_path,
        "meta.xml",
        '<?xml version="1.0"?>\n<metadata>\n'
        '  <participant username="ana" submissionID="A" systemName="Sys" shownName="Alpha" />\n'
        '  <participant username="bob" submissionID="B" systemName="" baseline="true" />\n'
        "</metadata>\n",
    )
    comp = good(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy", "--names", "meta.xml"),
    )
    assert comp["systems"] == ["Alpha", "bob"] and comp["baselines"] == ["bob"]
    assert comp["teams"] == {"Alpha": "ana", "bob": "bob"}
    write(
        tmp_path,
        "meta.xml",
        '<metadata>\n  <participant submissionID="A" withdrawn="true" />\n</metadata>\n',
    )
    assert good(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy", "--names", "meta.xml"),
    )["systems"] == ["B"]
    for text, needles in (
        (
            '<metadata>\n<participant submissionID="A">\n</metadata>\n',
            ["meta.xml, line 3", "not well-formed XML"],
        ),
        (
            '<metadata id="task12">\n<participant user="x"/>\n</metadata>\n',
            ["meta.xml", "no element with a run attribute"],
        ),
        (
            '<metadata>\n<p run="" submissionID=""/>\n</metadata>\n',
            ["meta.xml, line 2", "empty `run`"],
        ),
        (
            '<metadata>\n<p submissionID="A"/>\n<p submissionID="Z"/>\n</metadata>\n',
            ["meta.xml, line 3", "run 'Z' matches no run file"],
        ),
        (
            '<metadata>\n<p submissionID="A" baseline="maybe"/>\n</metadata>\n',
            ["meta.xml, line 2", "'maybe' is not true or false"],
        ),
    ):
        write(tmp_path, "meta.xml", text)
        bad(
            tmp_path,
            report(
                cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy", "--names", "meta.xml"
            ),
            *needles,
        )


# ------------------------------------------------------------------------ what a runs folder holds


def test_a_names_file_in_the_runs_folder_is_never_a_run(tmp_path, cmd):
    """SemEval-2018 Task 12 publishes ``metadata-public.xml`` beside the runs: an XML file, a
    ``names.*`` or ``metadata.*`` file, and the file --names gives, are left out of the runs with a
    note (never read as a run, never a hint about --sep or --label-col)."""
    runs_layout(tmp_path)
    xml = (
        '<?xml version="1.0"?>\n<metadata>\n'
        '  <participant username="ana" submissionID="A" shownName="Alpha" />\n</metadata>\n'
    )
    write(tmp_path, "runs/metadata-public.xml", xml)
    write(tmp_path, "runs/names.tsv", "run\tname\nB\tBeta\n")
    status, _, err = result = report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy")
    assert good(tmp_path, result)["systems"] == ["A", "B"]
    notes = [line for line in err if line.startswith("note: ")]
    assert len(notes) == 1 and "2 file(s) that are not runs" in notes[0], err
    assert "metadata-public.xml" in notes[0] and "names.tsv" in notes[0]
    assert not any("--sep" in line or "--label-col" in line for line in err)
    comp = good(  # given with --names from inside the runs folder: applied, not read as a run
        tmp_path,
        report(
            cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy",
            "--names", "runs/metadata-public.xml",
        ),
    )  # fmt: skip
    assert comp["systems"] == ["Alpha", "B"]
    write(tmp_path, "runs/teams.csv", "run,team\nA,ana\nB,bob\n")  # any name, given: not a run
    status, _, err = result = report(
        cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy", "--names", "runs/teams.csv"
    )
    assert good(tmp_path, result)["teams"] == {"A": "ana", "B": "bob"}
    assert "note: runs/teams.csv: is the names file (--names); it is not a run" in err


def test_a_run_beside_a_names_file_is_still_read(tmp_path, cmd):
    """The twin: the runs themselves, whatever their extension (.txt, .out, .tsv), are read, and a
    file that is not a run and not a names file is still an error naming it."""
    runs_layout(tmp_path, **{"C.out": RUN_A, "names.tsv": "run\tname\nB\tBeta\n"})
    assert good(tmp_path, report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"))[
        "systems"
    ] == ["A", "B", "C"]
    write(tmp_path, "runs/teams.csv", "run,team\nA,ana\n")  # not given: a run, and a bad one
    bad(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "runs/teams.csv",
    )


def test_readme_docs_and_hidden_files_are_left_out_with_one_note(tmp_path, cmd):
    runs_layout(
        tmp_path,
        **{
            "README.txt": "about\n",
            "notes.md": "# x\n",
            "paper.pdf": "%PDF",
            ".DS_Store": "x",
            "__MACOSX/._A.tsv": "x",
        },
    )
    status, out, err = result = report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy")
    comp = good(tmp_path, result)
    assert comp["systems"] == ["A", "B"]
    notes = [line for line in err if line.startswith("note: ")]
    assert len(notes) == 1 and "5 file(s) that are not runs" in notes[0], err


def test_a_file_that_is_not_a_run_is_an_error_not_skipped(tmp_path, cmd):
    runs_layout(tmp_path, **{"scores.xlsx": b"PK\x05\x06" + bytes(18)})
    bad(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "runs/scores.xlsx",
    )
    (tmp_path / "runs" / "scores.xlsx").unlink()
    write(
        tmp_path, "runs/C.out", "1\ta\n2\tb\n3\ta\n4\tb\n5\tc\n6\tc\n"
    )  # an unknown extension is still a run
    assert good(tmp_path, report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"))[
        "systems"
    ] == ["A", "B", "C"]
    write(tmp_path, "runs/D.bin", b"\xff\xfe\x00bin")
    bad(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "runs/D.bin, line 1",
        "not UTF-8",
    )


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_dangling_symlink_is_an_error(tmp_path, cmd):
    runs_layout(tmp_path)
    os.symlink("../elsewhere/C.tsv", tmp_path / "runs" / "C.tsv")
    bad(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "runs/C.tsv",
        "symbolic link to '../elsewhere/C.tsv', which does not exist",
    )


def test_gold_matched_by_the_runs_glob_is_not_a_run(tmp_path, cmd):
    runs_layout(tmp_path)
    for name in ("A.tsv", "B.tsv"):
        (tmp_path / "runs" / name).rename(tmp_path / name)
    result = report(cmd, "gold.tsv", "--runs", "*.tsv", "--metric", "accuracy")
    comp = good(tmp_path, result)
    assert comp["systems"] == ["A", "B"]
    assert "note: gold.tsv: is the gold file, matched by --runs; it is not a run" in result[2]


def test_exclude_globs(tmp_path, cmd):
    runs_layout(tmp_path, **{"C.log": "training log\n", "old/A.tsv": RUN_A})
    comp = good(
        tmp_path,
        report(
            cmd,
            "gold.tsv",
            "--runs",
            "runs",
            "--metric",
            "accuracy",
            "--exclude",
            "*.log",
            "--exclude",
            "old/*",
        ),
    )
    assert comp["systems"] == ["A", "B"]
    bad(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy", "--exclude", "old/*"),
        "runs/C.log",
    )


# --------------------------------------------------------------------------- missing predictions

BLANKS = "1\ta\n2\t\n3\ta\n4\tb\n5\tc\n"  # item 2 blank, item 6 absent


def test_blank_and_absent_predictions_are_errors_by_default(tmp_path, cmd):
    runs_layout(tmp_path, **{"B.tsv": BLANKS})
    bad(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "runs/B.tsv",
        "1 gold id(s) have no prediction, first: id '6'",
        "--missing wrong",
    )
    write(tmp_path, "runs/B.tsv", BLANKS + "6\tb\n")
    bad(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "runs/B.tsv, line 2, column 2: blank or NaN value",
        "--missing wrong",
    )


def test_missing_wrong_scores_them_as_wrong_answers(tmp_path, cmd):
    """Items 2 (blank) and 6 (absent) are wrong for accuracy; for macro-F1 each is a miss of its
    gold class (b, c) and a false positive of no class: scikit-learn's macro F1 over the gold
    labels with a prediction no class has."""
    from sklearn.metrics import f1_score

    runs_layout(tmp_path, **{"B.tsv": BLANKS})
    result = report(
        cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy,macro_f1", "--missing", "wrong"
    )
    comp = good(tmp_path, result)
    assert comp["missing"] == {"A": 0, "B": 2}
    gold, pred = list("ababcc"), ["a", "<none>", "a", "b", "c", "<none>"]
    assert scores(comp)["B"] == pytest.approx(4 / 6)
    assert scores(comp, 1)["B"] == pytest.approx(
        f1_score(gold, pred, labels=list("abc"), average="macro")
    )
    warning = [line for line in result[2] if "missing prediction" in line]
    assert len(warning) == 1 and "2 missing prediction(s)" in warning[0] and "'B': 2" in warning[0]
    assert any("missing prediction" in w for w in comp["warnings"])
    # the report marks the run with its count (the leaderboard model every format renders)
    analysis = cr.Analysis.from_dict(
        json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    )
    board = cr.Report(analysis).to_markdown("leaderboard")
    row_b = next(line for line in board.splitlines() if "| B " in line)
    assert "2 missing" in row_b and "missing" not in next(
        line for line in board.splitlines() if "| A " in line
    )


def test_missing_wrong_for_a_numeric_metric_is_an_error(tmp_path, cmd):
    runs_layout(
        tmp_path,
        gold="1\t1.5\n2\t2\n3\t3\n",
        **{"A.tsv": "1\t1\n2\t2\n3\t3\n", "B.tsv": "1\t1\n2\t\n3\t3\n"},
    )
    bad(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "mae", "--missing", "wrong"),
        "system 'B' has no prediction for item '2'",
        "metric 'mae' reads numbers",
    )


def test_blank_lines_of_a_file_without_ids_are_items(tmp_path, cmd):
    runs_layout(tmp_path, **{"B.tsv": "a\n\na\nb\nc\nb\n\n\n"})
    bad(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "runs/B.tsv, line 2, column 1: blank or NaN value",
        "--missing wrong",
    )
    comp = good(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy", "--missing", "wrong"),
    )
    assert comp["missing"]["B"] == 1 and scores(comp)["B"] == pytest.approx(4 / 6)


def test_an_empty_last_line_is_the_last_items_missing_prediction(tmp_path, cmd):
    """A run whose last prediction is empty (SemEval-2018 Task 2: a file ending in ``0\\n\\n``, its
    writer joining the predictions with line breaks) has that item without a prediction: an error
    naming its line, scored as wrong under --missing wrong; blank lines after the gold's count are
    not items."""
    runs_layout(tmp_path, **{"B.tsv": "a\na\na\nb\nc\n\n"})
    bad(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "runs/B.tsv, line 6, column 1: blank or NaN value",
        "--missing wrong",
    )
    comp = good(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy", "--missing", "wrong"),
    )
    assert comp["missing"] == {"A": 0, "B": 1} and scores(comp) == pytest.approx(
        {"A": 5 / 6, "B": 4 / 6}
    )
    write(tmp_path, "labels.txt", "a\nb\na\nb\nc\nc\n")  # a one-field gold: the same
    comp = good(
        tmp_path,
        report(cmd, "labels.txt", "--runs", "runs", "--metric", "accuracy", "--missing", "wrong"),
    )
    assert comp["missing"]["B"] == 1 and scores(comp)["B"] == pytest.approx(4 / 6)


def test_a_last_prediction_given_is_read_with_or_without_blank_lines_after_it(tmp_path, cmd):
    """The twin: the same run with its last prediction, ending with a line break, without one, or
    with blank lines after it, has every item."""
    for text in ("a\na\na\nb\nc\nc\n", "a\na\na\nb\nc\nc", "a\na\na\nb\nc\nc\n\n\n"):
        runs_layout(tmp_path, **{"B.tsv": text})
        comp = good(tmp_path, report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"))
        assert comp["missing"] == {"A": 0, "B": 0} and scores(comp)["B"] == pytest.approx(5 / 6)


def test_extra_lines_are_an_error_that_names_the_option(tmp_path, cmd):
    runs_layout(tmp_path, **{"B.tsv": "a\na\na\nb\nc\nb\nc\n"})
    bad(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "runs/B.tsv: 7 predictions",
        "gold.tsv has 6 items",
        "pass --extra-lines drop to score it on its first 6 lines",
    )
    runs_layout(tmp_path, **{"B.tsv": "a\na\na\nb\nc\n"})  # fewer lines: no option helps
    message = bad(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy", "--extra-lines", "drop"),
        "runs/B.tsv: 5 predictions",
    )
    assert "--extra-lines" not in message
    bad(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy", "--extra-lines", "keep"),
        "--extra-lines must be one of error, drop; got 'keep'",
    )


def test_extra_lines_drop_scores_the_first_lines_with_a_warning(tmp_path, cmd):
    """SemEval-2018 Task 2's Spanish run of 10,001 lines, scored as the task's script did
    (``P[:total_test]``): its first n lines, with a warning naming the run and the count."""
    runs_layout(tmp_path, **{"B.tsv": "a\na\na\nb\nc\nb\nc\na\n"})
    status, _, err = result = report(
        cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy", "--extra-lines", "drop"
    )
    comp = good(tmp_path, result)
    assert scores(comp) == pytest.approx({"A": 5 / 6, "B": 4 / 6})
    warned = [line for line in err if line.startswith("warning: ")]
    assert warned == [
        "warning: runs/B.tsv: 2 line(s) after the gold's 6 items left out, from line 7 on "
        "(--extra-lines drop): the run is scored on its first 6"
    ], err
    write(  # the same in a spec, and runs of the right length are untouched
        tmp_path,
        "competition.toml",
        'name = "T"\n[data]\ngold = "gold.tsv"\nruns = "runs"\nextra_lines = "drop"\n'
        '[[metrics]]\nname = "accuracy"\n',
    )
    status, _, err = result = cmd(
        "report", "competition.toml", "-o", "out", "-B", "20", "--format", "json"
    )
    assert scores(good(tmp_path, result)) == pytest.approx({"A": 5 / 6, "B": 4 / 6})
    runs_layout(tmp_path, **{"B.tsv": "a\na\na\nb\nc\nb\n"})
    status, _, err = result = report(
        cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy", "--extra-lines", "drop"
    )
    assert scores(good(tmp_path, result))["B"] == pytest.approx(4 / 6) and not any(
        line.startswith("warning: ") for line in err
    )


def test_a_gold_file_with_a_generic_stem_names_the_task_after_its_folder(tmp_path, cmd):
    """``emoji-es/truth.txt`` (also gold, test, labels, any case) names the competition
    ``emoji-es``, not "truth"; a folder with a generic name is passed over; --name wins."""
    for gold in ("emoji-es/truth.txt", "emoji-es/data/Gold.tsv", "emoji-es/test-labels"):
        write(tmp_path, gold, GOLD)
        write(tmp_path, "emoji-es/runs/A.tsv", RUN_A)
        comp = good(tmp_path, report(cmd, gold, "--runs", "emoji-es/runs", "--metric", "accuracy"))
        assert comp["id"] == "emoji-es" and comp["name"] == "emoji-es", gold
        shutil.rmtree(tmp_path / "emoji-es")
    write(tmp_path, "emoji-es/truth.txt", GOLD)
    write(tmp_path, "emoji-es/runs/A.tsv", RUN_A)
    comp = good(
        tmp_path,
        report(
            cmd, "emoji-es/truth.txt", "--runs", "emoji-es/runs", "--metric", "accuracy",
            "--name", "Emoji (es)",
        ),
    )  # fmt: skip
    assert comp["name"] == "Emoji (es)"


def test_a_gold_file_with_its_own_stem_keeps_it(tmp_path, cmd):
    """The twin: a stem that names the task (``us_test.labels``, ``es-gold-2018``) is the name."""
    for gold, name in (
        ("task/us_test.labels", "us_test"),
        ("task/es-gold-2018.tsv", "es-gold-2018"),
    ):
        write(tmp_path, gold, GOLD)
        write(tmp_path, "task/runs/A.tsv", RUN_A)
        comp = good(tmp_path, report(cmd, gold, "--runs", "task/runs", "--metric", "accuracy"))
        assert comp["name"] == name
        shutil.rmtree(tmp_path / "task")


def test_a_query_column_by_position_is_shown_once_as_column(tmp_path, cmd):
    """A gold without a header names its query column by position: ``(column 1)`` in validate's
    line, not ``(column column 1)``; the twin, a header name, is shown as it is."""
    gold = "".join(
        f"q{q}\tq{q}_c{c}\t{'true' if c == q % 3 else 'false'}\n"
        for q in range(4)
        for c in range(3)
    )
    run = "".join(f"q{q}\tq{q}_c{c}\t{(c + q) % 3}\n" for q in range(4) for c in range(3))
    write(tmp_path, "cqa/qrels.tsv", gold)
    write(tmp_path, "cqa/runs/A.tsv", run)
    args = ("--runs", "cqa/runs", "--id-col", "2", "--label-col", "3", "--pos-label", "true")
    status, out, err = cmd(
        "validate", "cqa/qrels.tsv", *args, "--query-col", "1", "--metric", "map"
    )
    assert status == 0, err
    assert out.splitlines()[0] == (
        "ok: qrels: 12 items in 4 clusters (column 1), 1 system, metrics: map(pos_label=true)"
    )
    write(tmp_path, "cqa/qrels.tsv", "qid\tcid\tlabel\n" + gold)
    status, out, err = cmd(
        "validate", "cqa/qrels.tsv", *args, "--query-col", "qid", "--metric", "map"
    )
    assert status == 0, err
    assert "in 4 clusters (column qid)" in out.splitlines()[0]


# --------------------------------------------------------------------------- headers and ids


def test_gold_header_with_custom_names(tmp_path, cmd):
    """`item<TAB>label` is a header, never an item (not n = 7 with the header scored as
    correct)."""
    runs_layout(tmp_path, gold=GOLD.replace("id\tlabel", "item\tlabel"))
    msg = bad(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "gold.tsv, line 1",
        "('item', 'label')",
        "--id-col item",
    )
    assert "runs/" not in msg
    comp = good(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy", "--id-col", "item"),
    )
    assert comp["n"] == 6 and scores(comp) == pytest.approx({"A": 5 / 6, "B": 4 / 6})


def test_headers_decided_alike_on_runs(tmp_path, cmd):
    runs_layout(tmp_path, **{"A.tsv": "doc\tprediction\n" + RUN_A, "B.tsv": "ID\tLABEL\n" + RUN_B})
    comp = good(tmp_path, report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"))
    assert comp["n"] == 6 and scores(comp) == pytest.approx({"A": 5 / 6, "B": 4 / 6})


def test_empty_id(tmp_path, cmd):
    runs_layout(tmp_path, gold=GOLD + "\tc\n")
    bad(
        tmp_path,
        report(cmd, "gold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "gold.tsv, line 8",
        "empty id",
    )


# --------------------------------------------------------------------------- validate, specs, API


def test_validate_prints_warnings_and_the_point_leaderboard(tmp_path, cmd):
    runs_layout(tmp_path, **{"B.tsv": BLANKS, "README.md": "x"})
    write(tmp_path, "names.tsv", "run\tbaseline\nB\ttrue\n")
    status, out, err = cmd(
        "validate",
        "gold.tsv",
        "--runs",
        "runs",
        "--metric",
        "accuracy",
        "--missing",
        "wrong",
        "--names",
        "names.tsv",
        "--name",
        "gold",
    )
    assert status == 0
    assert out.splitlines() == [
        "ok: gold: 6 items, 2 systems, metrics: accuracy",
        "  1 team, 1 run, 1 baseline",
        "  baselines: B",  # issue 40: validate names every baseline
        "  rank  system  accuracy",
        "     1  A         0.8333",
        "     2  B         0.6667  baseline, 2 missing",
    ]
    assert [line.split(":")[0] for line in err] == ["note", "warning"], err
    assert "2 missing prediction(s)" in err[1]
    assert not (tmp_path / "out").exists()


def test_results_paths_are_relative_to_the_spec(tmp_path, cmd):
    runs_layout(tmp_path / "task")
    write(tmp_path, "task/names.tsv", "run\tname\nA\tAlpha\n")
    write(
        tmp_path,
        "task/competition.toml",
        'name = "T"\n[data]\ngold = "gold.tsv"\nruns = "runs"\nsep = "tab"\n'
        'missing = "wrong"\n[names]\nfile = "names.tsv"\n'
        '[[metrics]]\nname = "accuracy"\n',
    )
    comp = good(tmp_path, report(cmd, str(tmp_path / "task" / "competition.toml")))
    assert [i["path"] for i in comp["inputs"]] == [
        "gold.tsv",
        "names.tsv",
        "runs/A.tsv",
        "runs/B.tsv",
    ]
    assert comp["systems"] == ["Alpha", "B"]
    # absolute paths on the command line and in the API: relative to the folder that holds the
    # inputs
    task = tmp_path / "task"
    comp = good(
        tmp_path,
        report(
            cmd,
            str(task / "gold.tsv"),
            "--runs",
            str(task / "runs"),
            "--metric",
            "accuracy",
            "--names",
            str(task / "names.tsv"),
        ),
    )
    assert [i["path"] for i in comp["inputs"]] == [
        "gold.tsv",
        "names.tsv",
        "runs/A.tsv",
        "runs/B.tsv",
    ]
    loaded = cr.load(task / "gold.tsv", runs=task / "runs", metrics="accuracy")
    assert [i["path"] for i in loaded.competitions[0].inputs] == [
        "gold.tsv",
        "runs/A.tsv",
        "runs/B.tsv",
    ]
    # a relative path beside an absolute one stays as given (the working directory is tmp_path)
    loaded = cr.load(task / "gold.tsv", runs="task/runs", metrics="accuracy")
    assert [i["path"] for i in loaded.competitions[0].inputs] == [
        "gold.tsv",
        "task/runs/A.tsv",
        "task/runs/B.tsv",
    ]


def test_bad_reading_keys_in_a_spec(tmp_path, cmd):
    runs_layout(tmp_path / "task")
    write(
        tmp_path,
        "task/competition.toml",
        'name = "T"\n[data]\ngold = "gold.tsv"\nruns = "runs"\nmissing = "wrng"\n'
        '[[metrics]]\nname = "accuracy"\n',
    )
    bad(
        tmp_path,
        report(cmd, "task"),
        "competition.toml, line 5",
        "[data] missing must be one of error, wrong",
        "did you mean 'wrong'",
    )


def test_api_takes_the_reading_options(tmp_path):
    runs_layout(tmp_path, gold="# labels\n" + GOLD.replace("\t", ","), **{"B.tsv": BLANKS})
    write(tmp_path, "names.tsv", "run\tname\tbaseline\nA\tAlpha\ttrue\n")
    data = cr.load(
        tmp_path / "gold.tsv",
        runs=tmp_path / "runs",
        metrics="accuracy",
        missing="wrong",
        names=tmp_path / "names.tsv",
        sep="auto",
        id_col=1,
        label_col=2,
        exclude="*.log",
    )
    (comp,) = data.competitions
    assert comp.systems == ["Alpha", "B"] and comp.baselines == ["Alpha"]
    assert comp.missing == {"Alpha": 0, "B": 2}
    with pytest.warns(
        InputWarning, match=r"2 missing prediction\(s\) .* \(missing='wrong'\): 'B': 2"
    ):
        lb = cr.analyze(data, bootstrap=0).leaderboard()
    assert lb["score"].tolist() == pytest.approx([5 / 6, 4 / 6])
    with pytest.raises(InputError, match="missing='wrong'"):
        cr.load(tmp_path / "gold.tsv", runs=tmp_path / "runs", metrics="accuracy")
    with pytest.raises(InputError, match=r"`comments` must be True or False"):
        cr.load(tmp_path / "gold.tsv", runs=tmp_path / "runs", metrics="accuracy", comments="no")
    assert np.array_equal(comp.item_ids, np.array(list("123456")))


@pytest.mark.parametrize(
    "metric",
    [
        "accuracy",
        "f1",
        "precision",
        "recall",
        "macro_f1",
        "micro_f1",
        "weighted_f1",
        "macro_precision",
        "macro_recall",
    ],
)
def test_every_label_metric_scores_a_missing_prediction_as_wrong(metric):
    """A missing prediction ("" under --missing wrong) is scikit-learn's score with a label that no
    class has (a miss of the gold class, a false positive of no class), averaged over the real
    labels only."""
    from sklearn import metrics as sk

    from compreport.stats.metrics import get_metric
    from conftest import make_competition, observed

    gold = list("0101100110")
    preds = [list("0100100111"), ["0", "", "0", "1", "", "0", "0", "1", "", "0"], [""] * 10]
    comp = make_competition(gold, preds, metrics=[metric])
    got = observed(comp, metric)
    for s, pred in enumerate(preds):
        shown = ["<none>" if p == "" else p for p in pred]
        real = sorted(set(gold) | {p for p in pred if p})
        if metric == "accuracy":
            want = sk.accuracy_score(gold, shown)
        elif metric in ("f1", "precision", "recall"):
            want = get_metric(metric).reference(gold, shown, pos_label="1")
        else:
            want = get_metric(metric).reference(gold, shown, labels=real)
        assert got[s] == pytest.approx(want), (s, pred)


# ------------------------------------------------------------------ a published task, end to end


def _emoji_scorer(gold: str, pred: str, total: int, n_labels: int) -> float:
    """Macro-F1 as SemEval-2018 Task 2's published script computes it
    (``tools/detailed_results/detailed_results.py``): both files read whole, ``\\r`` and spaces
    removed, split at ``\\n``, cut to the test set's size, scored by scikit-learn over every
    label."""
    from sklearn.metrics import precision_recall_fscore_support

    g = gold.replace("\r", "").replace(" ", "").split("\n")[:total]
    p = pred.replace("\r", "").replace(" ", "").split("\n")[:total]
    labels = [str(x) for x in range(n_labels)]
    return float(precision_recall_fscore_support(g, p, labels=labels, average="macro")[2])


def test_emoji_prediction_as_published(tmp_path, cmd):
    """A faithful twin of SemEval-2018 Task 2 (Multilingual Emoji Prediction) as its organizers
    published it: ``us_test.labels`` (one label 0-19 per line) and one folder per team holding
    ``english.output.txt``, ``table.tex`` and ``confusion.png``. The runs as they are: one ending
    with an empty line where its last prediction belongs and holding blank predictions, one with
    a line more than the gold, one without a final line break, one with CRLF line ends. With
    options only, every macro-F1 is the published script's."""
    rng = np.random.default_rng(2018)
    n, k = 400, 20
    gold = rng.integers(0, k, n)
    write(tmp_path, "gold/us_test.labels", "".join(f"{g}\n" for g in gold))
    runs = {}
    for team, acc in (
        ("cagri", 0.45),
        ("tommasopasini", 0.4),
        ("LorentAlina", 0.3),
        ("EICA", 0.35),
    ):
        pred = np.where(rng.random(n) < acc, gold, rng.integers(0, k, n)).astype(str).tolist()
        if team == "tommasopasini":
            for i in rng.choice(n - 1, 30, replace=False):
                pred[i] = ""
            pred[-1] = ""
            text = "\n".join(pred) + "\n"  # ends "...\n\n": the last prediction is empty
        elif team == "LorentAlina":
            text = "\n".join(pred) + "\n0\n"  # a line more than the gold
        elif team == "EICA":
            text = "\r\n".join(pred) + "\r\n"
        else:
            text = "\n".join(pred)  # no final line break
        runs[team] = text
        write(tmp_path, f"teams/english/{team}/english.output.txt", text)
        write(tmp_path, f"teams/english/{team}/table.tex", "\\begin{table}\\end{table}\n")
        write(tmp_path, f"teams/english/{team}/confusion.png", b"\x89PNG\r\n\x1a\n")
    args = ("gold/us_test.labels", "--runs", "teams/english/*/english.output.txt")
    args += ("--metric", "macro_f1,accuracy")
    bad(
        tmp_path,
        report(cmd, *args),
        "teams/english/LorentAlina/english.output.txt",
        "--extra-lines drop",
    )
    result = report(
        cmd, *args, "--missing", "wrong", "--extra-lines", "drop", "--name", "Emoji (en)"
    )
    comp = good(tmp_path, result)
    assert comp["name"] == "Emoji (en)" and comp["n"] == n
    assert comp["missing"] == {"EICA": 0, "LorentAlina": 0, "cagri": 0, "tommasopasini": 31}
    gold_text = (tmp_path / "gold/us_test.labels").read_text(encoding="utf-8")
    for team, text in runs.items():
        assert scores(comp)[team] == pytest.approx(_emoji_scorer(gold_text, text, n, k), abs=1e-12)
