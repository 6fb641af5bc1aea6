"""Teams of a wide table's system columns: the one rule of run files
(:func:`compreport.inputs.runfiles.stem_teams`) applied to the column names, through the API,
the command line and a spec, overridden by a names file (``--names``, ``[names] file``), with
baselines left out of the teams and hostile column names kept inside OUT."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import numpy as np
import pytest

import compreport as cr
from compreport.inputs.runfiles import stem_teams
from compreport.report.naming import team_letters
from conftest import run_cli

#: The four ways a team names its runs (issue 29): ``TEAM.runN``, ``TEAM_runN``, ``TEAM-runN``,
#: ``TEAM.0N``.
STYLES = ("{t}.run{k}", "{t}_run{k}", "{t}-run{k}", "{t}.0{k}")
TEAMS = [f"T{j:02d}-{'ab'[j % 2]}" for j in range(16)]


def _sixteen() -> dict[str, float]:
    """16 teams x 3 runs, each team's runs in the styles it is given, about these accuracies."""
    runs = {}
    for j, team in enumerate(TEAMS):
        for k in (1, 2, 3):
            runs[STYLES[(j + k) % 4].format(t=team, k=k)] = 0.95 - 0.02 * j - 0.01 * k
    return runs


def _wide(root: Path, columns: dict[str, float], n: int = 200, seed: int = 3) -> Path:
    """``root/table.csv``: ``id``, gold ``y`` and one column per system (named by the keys of
    ``columns``, written by the csv module: any name), about the given accuracies."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 2, n)
    preds = {c: np.where(rng.random(n) < acc, gold, 1 - gold) for c, acc in columns.items()}
    root.mkdir(parents=True, exist_ok=True)
    path = root / "table.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["id", "y", *columns])
        for i in range(n):
            w.writerow([i, gold[i], *(preds[c][i] for c in columns)])
    return path


def _as_runs(table: Path, root: Path) -> tuple[Path, Path]:
    """The table as a gold file and one run file per system column (``root/gold.tsv``,
    ``root/runs/<column>.tsv``)."""
    with table.open(newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    head, body = rows[0], rows[1:]
    (root / "runs").mkdir(parents=True)
    (root / "gold.tsv").write_text("id\tlabel\n" + "".join(f"{r[0]}\t{r[1]}\n" for r in body))
    for j, name in enumerate(head[2:], start=2):
        (root / "runs" / f"{name}.tsv").write_text(
            "id\tlabel\n" + "".join(f"{r[0]}\t{r[j]}\n" for r in body)
        )
    return root / "gold.tsv", root / "runs"


def _teams(data) -> dict[str, str | None]:
    return data.competitions[0].teams


# --------------------------------------------------------------------------- the rule


def test_sixteen_teams_of_three_runs_in_a_wide_table(tmp_path):
    """48 columns named in the four styles: 16 teams of 3 runs, 16 letters."""
    runs = _sixteen()
    table = _wide(tmp_path, runs)
    data = cr.load(table, metrics="accuracy")
    teams = _teams(data)
    assert teams == {name: name[:5] for name in runs}  # TEAMS are 5 characters long
    assert sorted(set(teams.values())) == TEAMS
    comp = cr.analyze(data, bootstrap=0).competition()
    assert len(comp.team_ranks) == 16 and all(len(t.runs) == 3 for t in comp.team_ranks)
    letters = team_letters(comp)
    assert sorted(letters) == TEAMS
    assert len({file for file, _ in letters.values()}) == 16


def test_columns_and_run_files_of_one_name_get_one_team(tmp_path):
    """The twin: the same names as run files give the same teams (one rule for both)."""
    table = _wide(tmp_path / "wide", {**_sixteen(), "GPT-3.5": 0.6, "GPT-4": 0.7, "solo": 0.5})
    gold, runs = _as_runs(table, tmp_path / "files")
    wide = _teams(cr.load(table, metrics="accuracy"))
    files = _teams(cr.load(gold, runs=runs, metrics="accuracy"))
    assert wide == files
    assert wide == dict(zip(wide, stem_teams(list(wide)), strict=True))


def test_version_numbers_stay_teams_of_one(tmp_path):
    """``GPT-3.5`` and ``GPT-4`` are two systems of their own, not a team ``GPT``."""
    table = _wide(tmp_path, {"GPT-3.5": 0.8, "GPT-4": 0.7, "bert_2": 0.6})
    assert _teams(cr.load(table, metrics="accuracy")) == {
        "GPT-3.5": None,
        "GPT-4": None,
        "bert_2": None,
    }
    comp = cr.analyze(cr.load(table, metrics="accuracy"), bootstrap=0).competition()
    assert sorted(t.team for t in comp.team_ranks) == ["GPT-3.5", "GPT-4", "bert_2"]


def test_two_version_numbers_of_one_prefix_are_one_team(tmp_path):
    """The twin of a lone ``GPT-3.5``: ``llm3.1`` and ``llm3.2`` are the runs of team ``llm3``."""
    table = _wide(tmp_path, {"llm3.1": 0.8, "llm3.2": 0.7, "GPT-3.5": 0.6})
    assert _teams(cr.load(table, metrics="accuracy")) == {
        "llm3.1": "llm3",
        "llm3.2": "llm3",
        "GPT-3.5": None,
    }


def test_a_dataframe_gets_the_same_teams(tmp_path):
    """``from_frame``, the in-memory wide table, reads its columns' teams as a file's."""
    pd = pytest.importorskip("pandas")
    table = _wide(tmp_path, {"A.run1": 0.9, "A_run2": 0.8, "GPT-3.5": 0.7, "q.1": 0.6})
    df = pd.read_csv(table, dtype=str)
    assert _teams(cr.from_frame(df)) == _teams(cr.load(table, metrics="accuracy"))
    assert _teams(cr.from_frame(df)) == {
        "A.run1": "A",
        "A_run2": "A",
        "GPT-3.5": None,
        "q.1": "q",
    }


def test_a_cluster_column_is_no_team_member(tmp_path):
    """The cluster column is not a system: beside a cluster column ``v1.1``, a system ``v1.2`` is
    a team of one (a lone version number), as it is without the cluster column."""
    table = _wide(tmp_path, {"v1.2": 0.8, "B.run1": 0.7})
    lines = table.read_text().splitlines()
    table.write_text(
        "\n".join([f"{lines[0]},v1.1"] + [f"{row},q{k // 20}" for k, row in enumerate(lines[1:])])
        + "\n"
    )
    data = cr.load(table, metrics="accuracy", cluster_col="v1.1")
    assert _teams(data) == {"v1.2": None, "B.run1": "B"}
    assert data.competitions[0].clusters is not None
    assert _teams(cr.load(table, metrics="accuracy")) == {
        "v1.2": "v1",
        "B.run1": "B",
        "v1.1": "v1",
    }


# --------------------------------------------------------------------------- the command line


def test_the_terminal_summary_counts_the_teams_of_a_wide_table(tmp_path):
    _wide(tmp_path, _sixteen())
    res = run_cli(
        tmp_path,
        *("report", "table.csv", "--id", "id", "--metric", "accuracy", "-o", "out"),
        *("--format", "json", "-B", "99"),
    )
    assert res.returncode == 0, res.stderr
    assert "16 teams, 48 runs" in res.stdout
    saved = json.loads((tmp_path / "out" / "results.json").read_text())
    (comp,) = saved["competitions"]
    assert sorted({t["team"] for t in comp["team_ranks"]}) == TEAMS
    assert comp["teams"]["T00-a_run1"] == "T00-a"


def test_one_run_per_team_is_still_counted_as_teams(tmp_path):
    """The twin without runs to group: plain names are teams of one, as before."""
    _wide(tmp_path, {"A": 0.9, "B": 0.8, "C": 0.7})
    res = run_cli(
        tmp_path,
        *("report", "table.csv", "--metric", "accuracy", "-o", "out", "--format", "json"),
        *("-B", "99"),
    )
    assert res.returncode == 0, res.stderr
    assert "3 teams, 3 runs" in res.stdout


@pytest.mark.slow
def test_sixteen_letters_from_a_wide_table(tmp_path):
    """48 columns give 16 team letters (PDF, one per team), the winner's naming its rank."""
    pytest.importorskip("weasyprint")
    _wide(tmp_path, _sixteen(), n=300)
    res = run_cli(
        tmp_path,
        *("report", "table.csv", "--id", "id", "--metric", "accuracy", "-o", "out"),
        *("--format", "json,pdf", "--figure-formats", "svg", "-B", "99"),
    )
    assert res.returncode == 0, res.stderr
    out = tmp_path / "out"
    comp = cr.Analysis.read(out / "results.json").competitions[0]
    letters = sorted(p.name for p in (out / "table" / "teams").iterdir())
    assert letters == sorted(file for file, _ in team_letters(comp).values())
    assert len(letters) == 16


# --------------------------------------------------------------------------- the override


def _override_table(root: Path) -> Path:
    return _wide(root, {"A.run1": 0.9, "B.run1": 0.8, "B_run2": 0.7, "GPT-4": 0.6, "maj": 0.5})


def test_a_names_file_overrides_the_rule_for_columns(tmp_path):
    """``names=``: ``team`` moves B.run1 to A, ``name`` renames a column (its team follows),
    ``baseline`` marks one, ``exclude`` drops one; the file is recorded as an input."""
    table = _override_table(tmp_path)
    (tmp_path / "names.csv").write_text(
        "run,name,team,baseline,exclude\n"
        "B.run1,,A,,\nGPT-4,gpt4,OpenAI,,\nmaj,,,yes,\nB_run2,,,,yes\n"
    )
    data = cr.load(table, metrics="accuracy", names=tmp_path / "names.csv")
    comp = data.competitions[0]
    assert comp.systems == ["A.run1", "B.run1", "gpt4", "maj"]
    assert comp.teams == {"A.run1": "A", "B.run1": "A", "gpt4": "OpenAI", "maj": None}
    assert comp.baselines == ["maj"]
    assert comp.predictions.shape[0] == 4
    assert [s.columns for s in comp.system_sources] == [
        ["column 'A.run1'"],
        ["column 'B.run1'"],
        ["column 'GPT-4'"],
        ["column 'maj'"],
    ]
    assert [Path(str(p["path"])).name for p in comp.inputs] == ["table.csv", "names.csv"]
    ranks = cr.analyze(data, bootstrap=0).competition().team_ranks
    assert {t.team: len(t.runs) for t in ranks} == {"A": 2, "OpenAI": 1}


def test_without_a_names_file_the_rule_decides(tmp_path):
    """The twin: the same table without names keeps the rule's teams and every column."""
    comp = cr.load(_override_table(tmp_path), metrics="accuracy").competitions[0]
    assert comp.teams == {
        "A.run1": "A",
        "B.run1": "B",
        "B_run2": "B",
        "GPT-4": None,
        "maj": None,
    }
    assert comp.baselines == []


def test_names_option_on_the_command_line_and_in_a_spec(tmp_path):
    """``--names`` with a wide table, and a spec's ``[names] file`` beside its ``table``."""
    _override_table(tmp_path)
    (tmp_path / "names.tsv").write_text("run\tteam\tbaseline\nB.run1\tA\t\nmaj\t\tyes\n")
    res = run_cli(
        tmp_path,
        *("report", "table.csv", "--metric", "accuracy", "-o", "out", "--format", "json"),
        *("-B", "99", "--names", "names.tsv"),
    )
    assert res.returncode == 0, res.stderr
    assert "3 teams, 4 runs, 1 baseline" in res.stdout
    (tmp_path / "competition.toml").write_text(
        'name = "Wide"\n[data]\ntable = "table.csv"\n[names]\nfile = "names.tsv"\n'
        '[[metrics]]\nname = "accuracy"\n'
    )
    comp = cr.load(tmp_path / "competition.toml").competitions[0]
    assert comp.teams == {
        "A.run1": "A",
        "B.run1": "A",
        "B_run2": "B",
        "GPT-4": None,
        "maj": None,
    }
    assert comp.baselines == ["maj"]


def test_a_spec_of_a_wide_table_reads_teams_without_a_names_file(tmp_path):
    """The twin: a spec's wide table without ``[names]`` gets the rule's teams, and a spec's
    ``baselines`` stay baselines (in no team's ranking)."""
    _override_table(tmp_path)
    (tmp_path / "competition.toml").write_text(
        'name = "Wide"\nbaselines = ["maj"]\n[data]\ntable = "table.csv"\n'
        '[[metrics]]\nname = "accuracy"\n'
    )
    data = cr.load(tmp_path / "competition.toml")
    comp = data.competitions[0]
    assert comp.teams["B_run2"] == "B" and comp.teams["A.run1"] == "A"
    assert comp.baselines == ["maj"]
    ranks = cr.analyze(data, bootstrap=0).competition().team_ranks
    assert sorted(t.team for t in ranks) == ["A", "B", "GPT-4"]


def test_an_xml_names_file_names_columns_by_submission_id(tmp_path):
    """A task's published ``metadata-public.xml`` beside a wide table whose columns are
    submission ids: names, teams and a withdrawn column, as for run files."""
    table = _wide(tmp_path, {"438181": 0.9, "438182": 0.8, "436419": 0.7, "500001": 0.6})
    (tmp_path / "meta.xml").write_text(
        "<participants>\n"
        '<participant username="abrassard" submissionID="438181" shownName="TakeLab" />\n'
        '<participant username="abrassard" submissionID="438182" shownName="TakeLab 2" />\n'
        '<participant username="rgtjf" submissionID="436419" withdrawn="true" />\n'
        "</participants>\n"
    )
    comp = cr.load(table, metrics="accuracy", names=tmp_path / "meta.xml").competitions[0]
    assert comp.systems == ["TakeLab", "TakeLab 2", "500001"]
    assert comp.teams == {"TakeLab": "abrassard", "TakeLab 2": "abrassard", "500001": None}


@pytest.mark.parametrize(
    "names, expected",
    [
        ("run,team\nZ,A\n", "names.csv, line 2: run 'Z' matches no system column"),
        ("run,team\nB.run1,A\nB.run1,B\n", "names.csv, line 3: run 'B.run1' is listed twice"),
        ("run,name\nA.run1,B_run2\n", "would both be named 'B_run2'"),
        ("run,exclude\nA.run1,maybe\n", "names.csv, line 2, column 'exclude': 'maybe' is not"),
    ],
)
def test_a_bad_names_file_for_a_wide_table_is_one_error_line(tmp_path, names, expected):
    _override_table(tmp_path)
    (tmp_path / "names.csv").write_text(names)
    res = run_cli(
        tmp_path,
        *("report", "table.csv", "--metric", "accuracy", "-o", "out", "--format", "json"),
        *("--names", "names.csv"),
    )
    assert res.returncode == 2
    errors = [line for line in res.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and expected in errors[0], res.stderr
    assert "Traceback" not in res.stderr and not (tmp_path / "out").exists()


def test_a_file_path_in_a_names_file_does_not_name_a_column(tmp_path):
    """A column is named by its header alone: the table's file name or a column's stem
    (``B`` of ``B.run1``) names none."""
    table = _override_table(tmp_path)
    for run in ("table.csv", "B"):
        (tmp_path / "names.csv").write_text(f"run,team\n{run},X\n")
        with pytest.raises(cr.InputError, match=f"run '{re.escape(run)}' matches no system col"):
            cr.load(table, metrics="accuracy", names=tmp_path / "names.csv")


# --------------------------------------------------------------------------- hostile names

HOSTILE = {
    "../up.run1": 0.95,
    "../up.run2": 0.8,
    "a/b.run1": 0.75,
    "t\x1b[31m.run1": 0.7,
    "t\x1b[31m.run2": 0.65,
    "..": 0.6,
}


def test_hostile_column_names_get_teams_by_the_rule(tmp_path):
    """Path separators, ``..`` and control characters: teams by the same rule as a file
    stem's, nothing stripped or refused."""
    teams = _teams(cr.load(_wide(tmp_path, HOSTILE), metrics="accuracy"))
    assert teams == {
        "../up.run1": "../up",
        "../up.run2": "../up",
        "a/b.run1": "a/b",
        "t\x1b[31m.run1": "t\x1b[31m",
        "t\x1b[31m.run2": "t\x1b[31m",
        "..": None,
    }


@pytest.mark.slow
def test_hostile_team_names_write_their_letters_inside_out(tmp_path):
    """The letters of teams named ``../up``, ``a/b``, ``t<ESC>[31m`` and ``..`` are files of
    ``OUT/table/teams`` named by their slugs; no raw ESC reaches the terminal."""
    pytest.importorskip("weasyprint")
    _wide(tmp_path, HOSTILE)
    res = run_cli(
        tmp_path,
        *("report", "table.csv", "--metric", "accuracy", "-o", "out", "--format", "json,pdf"),
        *("--figure-formats", "svg", "-B", "99"),
    )
    assert res.returncode == 0, res.stderr
    assert "4 teams, 6 runs" in res.stdout and "\x1b" not in res.stdout + res.stderr
    teams = tmp_path / "out" / "table" / "teams"
    assert sorted(p.name for p in teams.iterdir()) == [
        "a-b.pdf",
        "system.pdf",
        "t-31m.pdf",
        "up.pdf",
    ]
    written = {p.resolve() for p in tmp_path.rglob("*") if p.is_file()}
    assert all(p.is_relative_to(tmp_path) for p in written)
    assert not any(p.name.endswith(".pdf") for p in tmp_path.iterdir())


def test_plain_team_names_write_plain_letters(tmp_path):
    """The twin of the hostile names, without PDFs: the letter files of plain teams."""
    data = cr.load(
        _wide(tmp_path, {"UPV.run1": 0.9, "UPV.run2": 0.8, "X_run1": 0.7}), metrics="accuracy"
    )
    comp = cr.analyze(data, bootstrap=0).competition()
    assert {t: f for t, (f, _) in team_letters(comp).items()} == {"UPV": "upv.pdf", "X": "x.pdf"}
