"""Teams from run names (one rule, :func:`compreport.inputs.runfiles.stem_teams`)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import compreport as cr
from compreport.inputs.runfiles import RunFile, name_runs, stem_teams


def _text(page: str) -> str:
    """The visible text of an HTML page, names unbroken, whitespace collapsed."""
    body = re.sub(r"<style.*?</style>", " ", page.replace("<wbr>", ""), flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", body)).replace("&amp;", "&")


# --------------------------------------------------------------------------- the rule


@pytest.mark.parametrize(
    "stems, teams",
    [
        # the word "run", any case, any separator: a team even for a lone run
        (["UPV-ELiRF.run1"], ["UPV-ELiRF"]),
        (["X_run2", "X-RUN-3", "X run 4", "X.Run_5"], ["X"] * 4),
        # TEAM.N: a team, zero-padded or not
        (["UPV.2"], ["UPV"]),
        (["Team03.01", "Team03.02"], ["Team03", "Team03"]),
        # the three styles of one team together
        (["ab.run1", "ab_run2", "ab-run3", "ab.4"], ["ab"] * 4),
    ],
)
def test_teams_from_run_names(stems, teams):
    assert stem_teams(stems) == teams


@pytest.mark.parametrize(
    "stems",
    [
        ["GPT-4"],  # a dash and a number without "run"
        ["bert_2", "bert_3"],  # an underscore and a number without "run"
        ["GPT-3.5"],  # a version number: a digit on each side of the dot
        ["v1.2", "llama-3.1"],  # versions of different prefixes
        ["run1", "run_2", ".run3"],  # no TEAM before "run"
        ["X.run", "Xrun1", "X.runner1"],  # no number, no separator, not the word "run"
    ],
)
def test_names_that_are_not_team_and_run_are_teams_of_one(stems):
    assert stem_teams(stems) == [None] * len(stems)


def test_version_numbers_shared_by_two_runs_are_one_team():
    """The twin of a lone ``GPT-3.5``: two stems with one ``TEAM.N`` prefix are a team's runs."""
    assert stem_teams(["llm3.1", "llm3.2", "GPT-3.5"]) == ["llm3", "llm3", None]


def test_a_team_folder_wins_over_the_stem():
    files = [
        RunFile("runs/Folder/Other.run1.tsv", "Folder/Other.run1.tsv"),
        RunFile("runs/Folder/Other.run2.tsv", "Folder/Other.run2.tsv"),
        RunFile("runs/Top.run1.tsv", "Top.run1.tsv"),
    ]
    name_runs(files)
    assert [(f.name, f.team) for f in files] == [
        ("Folder run1", "Folder"),
        ("Folder run2", "Folder"),
        ("Top.run1", "Top"),
    ]


def _write_task(root: Path, runs: dict[str, float], n: int = 200, seed: int = 3) -> Path:
    """``root/gold.tsv`` and ``root/runs/<name>.tsv`` with about the given accuracies."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 2, n)
    (root / "runs").mkdir(parents=True, exist_ok=True)
    (root / "gold.tsv").write_text(
        "id\tlabel\n" + "".join(f"{i}\t{g}\n" for i, g in enumerate(gold))
    )
    for name, acc in runs.items():
        pred = np.where(rng.random(n) < acc, gold, 1 - gold)
        (root / "runs" / f"{name}.tsv").write_text(
            "id\tlabel\n" + "".join(f"{i}\t{p}\n" for i, p in enumerate(pred))
        )
    return root / "gold.tsv"


def test_names_file_team_column_overrides_the_rule(tmp_path):
    """``--names`` (``names=``) has the last word: its ``team`` column moves B.run1 to team A;
    the twin without it keeps the teams the rule found."""
    gold = _write_task(tmp_path, {"A.run1": 0.9, "B.run1": 0.8, "B_run2": 0.7, "GPT-4": 0.6})
    data = cr.load(gold, runs=tmp_path / "runs", metrics="accuracy")
    assert data.competitions[0].teams == {
        "A.run1": "A",
        "B.run1": "B",
        "B_run2": "B",
        "GPT-4": None,
    }
    (tmp_path / "names.csv").write_text("run,team\nB.run1,A\n")
    data = cr.load(gold, runs=tmp_path / "runs", metrics="accuracy", names=tmp_path / "names.csv")
    assert data.competitions[0].teams == {
        "A.run1": "A",
        "B.run1": "A",
        "B_run2": "B",
        "GPT-4": None,
    }
