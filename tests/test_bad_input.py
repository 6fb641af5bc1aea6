"""Bad input through the real CLI: one ``error:`` line naming file and line/column/id, exit 2.

Every case runs the command line's ``main()`` in this process (:func:`conftest.run_cli`, cwd =
tmp_path, relative paths, ``-B 50``) with stdout and stderr captured, so that the exit status, the
absence of a traceback and the stderr layout are those a user sees. Failing runs must leave the
output directory as it was: no ``out`` created, no ``.out.tmp-*`` staging directory left behind,
a previous ``out`` untouched.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import json_only, json_only_top, run_cli, said, write

# --------------------------------------------------------------------------- helpers

GOLD_TSV = "id\tlabel\n1\ta\n2\tb\n3\ta\n4\tb\n"
RUN_A = "id\tlabel\n1\ta\n2\tb\n3\ta\n4\ta\n"  # with a header
RUN_B = "1\ta\n2\ta\n3\ta\n4\tb\n"  # without a header
WIDE = "id,y,A,B\n1,a,a,b\n2,b,b,b\n3,a,a,a\n4,b,a,b\n"


def runs_layout(tmp: Path, gold: str = GOLD_TSV, **runs: str) -> None:
    """gold.tsv plus runs/<name>.tsv (default: sysA and sysB, both valid)."""
    write(tmp, "gold.tsv", gold)
    for name, text in ({"sysA": RUN_A, "sysB": RUN_B} | runs).items():
        write(tmp, f"runs/{name}.tsv", text)


def competition(tmp: Path, toml: str, folder: str = "c1") -> Path:
    """A competition folder with a valid gold + runs layout and the given competition.toml."""
    runs_layout(tmp / folder)
    return write(tmp, f"{folder}/competition.toml", toml)


COMP_OK = """\
name = "C1"
language = "en"
[data]
gold = "gold.tsv"
runs = "runs"
[[metrics]]
name = "accuracy"
"""


def cli(tmp: Path, *args: str) -> subprocess.CompletedProcess:
    return run_cli(tmp, *args)


def report(tmp: Path, *args: str, out: str = "out") -> subprocess.CompletedProcess:
    """``compreport report ARGS -o OUT -B 50``, json only unless ``--format`` is given (keeps the
    suite fast)."""
    fmt = () if "--format" in args else ("--format", "json")
    return cli(tmp, "report", *args, "-o", out, "-B", "50", *fmt)


def stderr_lines(res: subprocess.CompletedProcess) -> list[str]:
    return said(res.stderr)


def leftovers(tmp: Path, out: str = "out") -> list[str]:
    """compreport's entries beside OUT: temporary folders (``.out.tmp-*``, ``.out.old-*``) and the
    lock."""
    return sorted(p.name for p in tmp.iterdir() if p.name.startswith(f".{out}."))


def assert_error(
    res: subprocess.CompletedProcess, *needles: str, numpy_repr_ok: bool = False
) -> str:
    """Exit 2, exactly one ``error:`` line (other lines only ``warning:``), no traceback; returns
    the line."""
    assert "Traceback" not in res.stderr, res.stderr
    assert res.returncode == 2, (res.returncode, res.stderr)
    lines = stderr_lines(res)
    errors = [line for line in lines if line.startswith("error: ")]
    assert len(errors) == 1, res.stderr
    assert all(line.startswith(("error: ", "warning: ")) for line in lines), res.stderr
    message = errors[0]
    for needle in needles:
        assert needle in message, (needle, message)
    if not numpy_repr_ok:
        assert "np.str_" not in message, message  # values shown as 'x', not numpy reprs
    return message


def assert_bad(
    tmp: Path, res: subprocess.CompletedProcess, *needles: str, numpy_repr_ok: bool = False
) -> str:
    """assert_error, plus: a failing report wrote nothing."""
    message = assert_error(res, *needles, numpy_repr_ok=numpy_repr_ok)
    assert not (tmp / "out").exists()
    assert leftovers(tmp) == []
    assert res.stdout == ""
    return message


# --------------------------------------------------------------------------- missing / empty files


def test_missing_wide_table(tmp_path):
    assert_bad(
        tmp_path, report(tmp_path, "nope.csv", "--metric", "accuracy"), "nope.csv", "no such file"
    )


def test_missing_gold_file_runs_dir_and_workshop_spec(tmp_path):
    runs_layout(tmp_path)
    assert_bad(
        tmp_path,
        report(tmp_path, "nogold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "nogold.tsv",
        "no such file",
    )
    assert_bad(
        tmp_path,
        report(tmp_path, "gold.tsv", "--runs", "noruns", "--metric", "accuracy"),
        "noruns",
        "no run files",
    )
    write(tmp_path, "workshop.toml", '[[competitions]]\nspec = "missing/competition.toml"\n')
    assert_bad(
        tmp_path, report(tmp_path, "workshop.toml"), "missing/competition.toml", "no such file"
    )


def test_empty_files(tmp_path):
    write(tmp_path, "empty.csv", "")
    assert_bad(
        tmp_path, report(tmp_path, "empty.csv", "--metric", "accuracy"), "empty.csv", "empty"
    )
    write(tmp_path, "blank.tsv", "\n \n")
    assert_bad(
        tmp_path, report(tmp_path, "blank.tsv", "--metric", "accuracy"), "blank.tsv", "empty"
    )
    runs_layout(tmp_path, sysB="")
    assert_bad(
        tmp_path,
        report(tmp_path, "gold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "sysB.tsv",
        "empty",
    )


# --------------------------------------------------------------------------- wide table columns


def test_gold_column_absent_lists_columns_and_suggests_gold(tmp_path):
    write(tmp_path, "wide.csv", WIDE)
    msg = assert_bad(
        tmp_path,
        report(tmp_path, "wide.csv", "--gold", "label", "--id", "id", "--metric", "accuracy"),
        "wide.csv",
        "'label'",
        "not found",
        "--gold",
    )
    for col in ("'id'", "'y'", "'A'", "'B'"):
        assert col in msg


# -------------------------------------------------------------- duplicated / missing / unknown ids


def test_duplicate_id_in_wide_table(tmp_path):
    write(tmp_path, "dup.csv", "id,y,A,B\n1,a,a,b\n2,b,b,b\n2,a,a,a\n")
    assert_bad(
        tmp_path,
        report(tmp_path, "dup.csv", "--id", "id", "--metric", "accuracy"),
        "dup.csv",
        "line 4",
        "id '2'",
        "appears twice",
        "lines 3 and 4",
    )


def test_duplicate_id_in_gold_file(tmp_path):
    runs_layout(tmp_path, gold="id\tlabel\n1\ta\n2\tb\n2\ta\n4\tb\n")
    assert_bad(
        tmp_path,
        report(tmp_path, "gold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "gold.tsv",
        "line 4",
        "id '2'",
        "appears twice",
    )


def test_duplicate_id_in_run_file(tmp_path):
    runs_layout(tmp_path, sysB="1\ta\n2\tb\n3\ta\n3\tb\n4\tb\n")
    assert_bad(
        tmp_path,
        report(tmp_path, "gold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "sysB.tsv",
        "line 4",
        "id '3'",
        "appears twice",
        "lines 3 and 4",
    )


def test_run_missing_ids_names_count_and_first(tmp_path):
    runs_layout(tmp_path, sysB="1\ta\n2\tb\n")
    assert_bad(
        tmp_path,
        report(tmp_path, "gold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "sysB.tsv",
        "2 gold id(s)",
        "no prediction",
        "first: id '3'",
    )


def test_run_id_not_in_gold(tmp_path):
    runs_layout(tmp_path, sysB="1\ta\n2\tb\n3\ta\n4\tb\n9\tb\n")
    assert_bad(
        tmp_path,
        report(tmp_path, "gold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "sysB.tsv",
        "line 5",
        "id '9'",
        "not in the gold file",
        "gold.tsv",
    )


# ---------------------------------------------------------------- blank / NaN / non-numeric values


@pytest.mark.parametrize(
    "text, line, column",
    [
        ("id,y,A,B\n1,a,a,b\n2,b,,b\n3,a,a,a\n", "line 3", "column 'A'"),  # blank cell
        ("id,y,A,B\n1,a,a,b\n2,b,b,b\n3,a,a,nan\n", "line 4", "column 'B'"),  # "nan"
        ("id,y,A,B\n1,a,a,b\n2,NaN,b,b\n3,a,a,a\n", "line 3", "column 'y'"),  # NaN in gold
    ],
)
def test_blank_and_nan_in_wide_table(tmp_path, text, line, column):
    write(tmp_path, "cells.csv", text)
    assert_bad(
        tmp_path,
        report(tmp_path, "cells.csv", "--id", "id", "--metric", "accuracy"),
        "cells.csv",
        line,
        column,
        "blank or NaN",
    )


@pytest.mark.parametrize("label", ["", "nan"])
def test_blank_and_nan_label_in_run_file(tmp_path, label):
    runs_layout(tmp_path, sysB=f"1\ta\n2\tb\n3\t{label}\n4\tb\n")
    assert_bad(
        tmp_path,
        report(tmp_path, "gold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "sysB.tsv",
        "line 3",
        "column 2",
        "blank or NaN",
    )


def test_non_numeric_value_for_regression_metric(tmp_path):
    write(tmp_path, "num.csv", "id,y,A,B\n1,1.5,1,2\n2,2,abc,2\n3,3,3,3\n")
    assert_bad(
        tmp_path,
        report(tmp_path, "num.csv", "--id", "id", "--metric", "mae"),
        "num.csv",
        "line 3",
        "column 'A'",
        "'abc'",
        "mae",
        numpy_repr_ok=True,
    )  # metrics.to_float still shows the value as np.str_('abc')


# --------------------------------------------------------------------------- metrics and options


def test_unknown_metric_on_command_line_suggests(tmp_path):
    write(tmp_path, "wide.csv", WIDE)
    assert_bad(
        tmp_path,
        report(tmp_path, "wide.csv", "--id", "id", "--metric", "macro_f"),
        "--metric",
        "'macro_f'",
        "did you mean 'macro_f1'",
    )


def test_unknown_metric_in_spec_names_file_and_line(tmp_path):
    competition(tmp_path, COMP_OK + '\n[[metrics]]\nname = "macro_f"\n')
    assert_bad(
        tmp_path,
        report(tmp_path, "c1"),
        "competition.toml",
        "line 10",
        "[[metrics]] entry 2",
        "'macro_f'",
        "did you mean 'macro_f1'",
    )


def test_pos_label_not_among_labels(tmp_path):
    write(tmp_path, "bin.csv", "id,y,A,B\n1,1,1,0\n2,0,0,0\n3,1,1,1\n4,0,1,0\n")
    assert_bad(
        tmp_path,
        report(tmp_path, "bin.csv", "--id", "id", "--metric", "f1", "--pos-label", "7"),
        "bin.csv",
        "--pos-label",
        "'7'",
        "not among the labels",
    )


# --------------------------------------------------------------------------- TOML specs


def test_unknown_top_level_key_suggests(tmp_path):
    competition(tmp_path, COMP_OK.replace("language", "langauge"))
    assert_bad(
        tmp_path,
        report(tmp_path, "c1"),
        "competition.toml",
        "line 2",
        "unknown key 'langauge'",
        "did you mean 'language'",
    )


def test_unknown_key_in_data_section(tmp_path):
    competition(tmp_path, COMP_OK.replace('runs = "runs"\n', 'runs = "runs"\ngold_colum = "y"\n'))
    assert_bad(
        tmp_path,
        report(tmp_path, "c1/competition.toml"),
        "competition.toml",
        "line 6",
        "unknown key 'gold_colum'",
        "[data]",
        "did you mean 'gold_column'",
    )


def test_unknown_key_in_workshop(tmp_path):
    competition(tmp_path, COMP_OK)
    write(tmp_path, "workshop.toml", 'name = "W"\n[[competitions]]\nspec = "c1"\ngrup = ["x"]\n')
    assert_bad(
        tmp_path,
        report(tmp_path, "workshop.toml"),
        "workshop.toml",
        "line 4",
        "unknown key 'grup'",
        "did you mean 'group'",
    )
    # A misspelt required key is reported as the typo (with a suggestion), not as "missing key".
    write(tmp_path, "workshop.toml", 'name = "W"\n[[competitons]]\nspec = "c1"\n')
    assert_bad(
        tmp_path,
        report(tmp_path, "."),
        "workshop.toml",
        "line 2",
        "unknown key 'competitons'",
        "did you mean 'competitions'",
    )
    # a workshop without competitions is told what to write
    write(tmp_path, "workshop.toml", 'name = "W"\nyear = 2026\n')
    assert_bad(
        tmp_path,
        report(tmp_path, "workshop.toml"),
        "workshop.toml",
        "missing key 'competitions'",
        "for example: a table per competition, the line [[competitions]] then spec = ",
    )


def test_invalid_toml(tmp_path):
    competition(tmp_path, 'name = "C1"\n[data\ngold = "gold.tsv"\n')
    assert_bad(tmp_path, report(tmp_path, "c1"), "competition.toml", "invalid TOML", "line 2")
    write(tmp_path, "workshop.toml", 'name = "W\n')
    assert_bad(
        tmp_path, report(tmp_path, "workshop.toml"), "workshop.toml", "invalid TOML", "line 1"
    )


# --------------------------------------------------------------------------- warnings, not errors


def test_predicted_label_unseen_in_gold_is_a_warning(tmp_path):
    write(tmp_path, "unseen.csv", "id,y,A,B\n1,a,a,b\n2,b,b,c\n3,a,a,a\n")
    res = report(tmp_path, "unseen.csv", "--id", "id", "--metric", "accuracy")
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr and "error:" not in res.stderr
    warns = [line for line in stderr_lines(res) if line.startswith("warning: ")]
    assert len(warns) == 1, res.stderr
    for needle in ("unseen.csv", "line 3", "system 'B'", "label 'c'", "never seen in gold"):
        assert needle in warns[0], (needle, warns[0])
    results = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    assert any("never seen in gold" in w for w in results["competitions"][0]["warnings"])
    assert leftovers(tmp_path) == []


def test_single_system_is_allowed(tmp_path):
    write(tmp_path, "single.csv", "id,y,A\n1,a,a\n2,b,b\n3,a,b\n4,b,b\n")
    res = report(tmp_path, "single.csv", "--id", "id", "--metric", "accuracy,macro_f1")
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr and "error:" not in res.stderr
    warns = [line for line in stderr_lines(res) if line.startswith("warning: ")]
    single = [w for w in warns if "single system" in w]
    assert (
        len(single) == 1
        and "confidence intervals only" in single[0]
        and "no comparisons" in single[0]
    ), res.stderr
    # the only other warning: macro-F1 of 4 items is built from classes of 2 items each
    assert (
        [w for w in warns if w not in single]
        == [w for w in warns if "built from per-class scores" in w]
        != []
    )
    results = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    comp = results["competitions"][0]
    assert comp["systems"] == ["A"]
    for metric in comp["metrics"]:
        assert metric["vs_best"] == [] and metric["pairs"] == []
        assert len(metric["scores"]) == 1


# --------------------------------------------------------------------------- output safety


def _snapshot(directory: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(directory)): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


def test_non_empty_output_needs_force_and_force_replaces(tmp_path):
    """A folder compreport did not write is refused even with --force; an earlier report needs
    --force, which replaces only the files compreport wrote (tests/test_output_contract.py has the
    rest)."""
    write(tmp_path, "wide.csv", WIDE)
    write(tmp_path, "out/old.txt", "keep me\n")
    write(tmp_path, "out/sub/deep.txt", "me too\n")
    before = _snapshot(tmp_path / "out")
    for force in ((), ("--force",)):
        res = report(tmp_path, "wide.csv", "--id", "id", "--metric", "accuracy", *force)
        assert_error(
            res, "out", "not empty", "compreport did not write it", "old.txt, sub/", "--force"
        )
        assert _snapshot(tmp_path / "out") == before
        assert leftovers(tmp_path) == []

    shutil.rmtree(tmp_path / "out")
    assert report(tmp_path, "wide.csv", "--id", "id", "--metric", "accuracy").returncode == 0
    assert_error(
        report(tmp_path, "wide.csv", "--id", "id", "--metric", "accuracy"),
        "out",
        "earlier report",
        "--force",
    )
    res = report(tmp_path, "wide.csv", "--id", "id", "--metric", "accuracy", "--force")
    assert res.returncode == 0, res.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == json_only_top("wide")
    assert leftovers(tmp_path) == []


def test_failed_run_leaves_no_output(tmp_path):
    """Failures after the output check (while loading, while analysing) write nothing."""
    write(tmp_path, "blank.csv", "id,y,A,B\n1,a,a,b\n2,b,,b\n")
    write(tmp_path, "bin.csv", "id,y,A,B\n1,1,1,0\n2,0,0,0\n3,1,1,1\n")
    assert_bad(
        tmp_path, report(tmp_path, "blank.csv", "--id", "id", "--metric", "accuracy"), "blank.csv"
    )
    assert_bad(
        tmp_path,
        report(tmp_path, "bin.csv", "--id", "id", "--metric", "f1", "--pos-label", "7"),
        "'7'",
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bin.csv", "blank.csv"]


def test_failed_forced_run_keeps_previous_output(tmp_path):
    write(tmp_path, "wide.csv", WIDE)
    write(tmp_path, "bin.csv", "id,y,A,B\n1,1,1,0\n2,0,0,0\n3,1,1,1\n")
    assert report(tmp_path, "wide.csv", "--id", "id", "--metric", "accuracy").returncode == 0
    before = _snapshot(tmp_path / "out")
    assert sorted(before) == sorted([".compreport.json", *json_only("wide")])
    # Fails while loading (unknown key), then while analysing (pos_label), both with --force.
    competition(tmp_path, COMP_OK.replace("language", "langauge"))
    assert_error(report(tmp_path, "c1", "--force"), "langauge")
    assert_error(
        report(tmp_path, "bin.csv", "--id", "id", "--metric", "f1", "--pos-label", "7", "--force"),
        "'7'",
    )
    assert _snapshot(tmp_path / "out") == before
    assert leftovers(tmp_path) == []


# --------------------------------------------------------------------------- validate and init


def test_validate_good_and_bad(tmp_path):
    competition(tmp_path, COMP_OK)
    write(tmp_path, "wide.csv", WIDE)
    res = cli(tmp_path, "validate", "c1", "wide.csv", "--id", "id", "--metric", "accuracy")
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr and "error:" not in res.stderr
    ok = [
        line for line in res.stdout.splitlines() if not line.startswith("  ")
    ]  # then each leaderboard
    assert len(ok) == 2 and all(line.startswith("ok: ") for line in ok), res.stdout
    assert "4 items, 2 systems" in ok[0] and "accuracy" in ok[0]
    assert res.stdout.splitlines()[1:5] == [
        "  2 teams, 2 runs",
        "  rank  system  accuracy",
        "     1  sysA      0.7500",
        "     1  sysB      0.7500",
    ]

    write(tmp_path, "blank.csv", "id,y,A,B\n1,a,a,b\n2,b,,b\n")
    assert_error(
        cli(tmp_path, "validate", "blank.csv", "--id", "id", "--metric", "accuracy"),
        "blank.csv",
        "line 3",
        "column 'A'",
        "blank or NaN",
    )
    competition(tmp_path, COMP_OK.replace("language", "langauge"), folder="c2")
    assert_error(
        cli(tmp_path, "validate", "c2"), "competition.toml", "line 2", "did you mean 'language'"
    )
    assert not (tmp_path / "out").exists()


def test_init_creates_and_refuses_to_overwrite(tmp_path):
    res = cli(tmp_path, "init", "newcomp")
    assert res.returncode == 0, res.stderr
    spec = tmp_path / "newcomp" / "competition.toml"
    assert spec.is_file() and (tmp_path / "newcomp" / "runs").is_dir()
    spec.write_text("# edited by the user\n", encoding="utf-8")
    assert_error(
        cli(tmp_path, "init", "newcomp"), "newcomp", "competition.toml", "already exists", "--force"
    )
    assert spec.read_text(encoding="utf-8") == "# edited by the user\n"
    # --force writes the template and keeps the user's file beside it, never losing it
    template = (tmp_path / "t").mkdir() or cli(tmp_path / "t", "init", "x")
    for k, kept in enumerate(("competition.toml.bak", "competition.toml.bak.2")):
        spec.write_text(f"# edit {k}\n", encoding="utf-8")
        res = cli(tmp_path, "init", "newcomp", "--force")
        assert res.returncode == 0 and f"the existing file is kept as {kept}" in res.stderr, (
            res.stderr
        )
        assert (tmp_path / "newcomp" / kept).read_text(encoding="utf-8") == f"# edit {k}\n"
    assert (
        spec.read_bytes() == (tmp_path / "t" / "x" / "competition.toml").read_bytes()
        and template.returncode == 0
    )
    res = cli(tmp_path, "init", "newcomp", "--force")  # the template itself: nothing to keep
    assert res.returncode == 0 and "kept" not in res.stderr
    assert sorted(p.name for p in (tmp_path / "newcomp").iterdir()) == [
        "competition.toml",
        "competition.toml.bak",
        "competition.toml.bak.2",
        "runs",
    ]


@pytest.mark.parametrize("cid", ["../pwned", "/abs/path", ".hidden", "c%1 x", "summary", "a/b"])
def test_competition_id_that_cannot_name_a_folder(tmp_path, cid):
    """Ids name OUT/<id>/, LaTeX \\input paths and links: refused before any work, nothing
    written."""
    competition(
        tmp_path, COMP_OK.replace('name = "C1"', f'name = "C1"\nid = {cid!r}'.replace("'", '"'))
    )
    res = report(tmp_path, "c1", "--format", "json,latex", "--no-compile")
    assert_bad(tmp_path, res, "competition.toml", "competition id")
    assert not (tmp_path / "pwned").exists() and not (tmp_path / "out").exists()


def test_name_titles_a_competition_read_from_a_gold_file_only(tmp_path):
    """--name (``name=``) names the one competition of a table or a gold file (its id and folder are
    made from it); a spec, several inputs or an empty name are one error line, before any work."""
    import json

    import compreport as cr

    runs_layout(tmp_path)
    competition(tmp_path, COMP_OK)
    assert_bad(
        tmp_path,
        report(tmp_path, "c1", "--name", "X"),
        "c1: --name names a competition read from "
        "a table or a gold file; a spec gives its own `name`",
    )
    assert_bad(
        tmp_path,
        report(tmp_path, "gold.tsv", "gold.tsv", "--metric", "accuracy", "--name", "X"),
        "--name names the one competition",
        "got 2 inputs",
    )
    assert_bad(
        tmp_path,
        report(tmp_path, "gold.tsv", "--runs", "runs", "--metric", "accuracy", "--name", "Summary"),
        "--name Summary: competition id 'summary' must be",
        "not be one of",
    )  # a name OUT uses
    with pytest.raises(
        cr.InputError, match="`name` names the one competition .* got an empty name"
    ):
        cr.load(
            str(tmp_path / "gold.tsv"), runs=str(tmp_path / "runs"), metrics="accuracy", name=" "
        )
    res = report(
        tmp_path,
        "gold.tsv",
        "--runs",
        "runs",
        "--metric",
        "accuracy",
        "--name",
        "SemEval-2018 Task 12: ARCT",
    )
    assert res.returncode == 0, res.stderr
    comp = json.loads((tmp_path / "out/results.json").read_text())["competitions"][0]
    assert (comp["id"], comp["name"]) == ("semeval-2018-task-12-arct", "SemEval-2018 Task 12: ARCT")
