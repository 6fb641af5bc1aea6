"""Teams from run names (one rule, :func:`compreport.inputs.runfiles.stem_teams`), shown in the
terminal summary, and the letters a team reads: workshop and competition, the team's rank among
teams and the run's among runs, the winner's sentence, the verdicts in plain words, one footnote.
The letters are read back as text with pdftotext; the emails parsed back with the email package."""

from __future__ import annotations

import re
import shutil
import subprocess
from email import policy
from email.parser import BytesParser

import pytest

import compreport as cr
from compreport.inputs.runfiles import RunFile, name_runs, stem_teams
from compreport.report.naming import team_letters
from compreport.report.pages.team import FOOTNOTE, team_html
from conftest import run_cli, write_binary_task


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
        # a final _N, -N or _A shared by several stems (SIGMORPHON 2022's runs)
        (["Team_Nova_1", "Team_Nova_2", "Team_Nova_3"], ["Team_Nova"] * 3),
        (["DeepSPIN-1", "DeepSPIN-2"], ["DeepSPIN"] * 2),
        (["AUUH_A", "AUUH_B"], ["AUUH"] * 2),
        (["bert_2", "bert_3"], ["bert"] * 2),
        (["ab_1", "ab.run2"], ["ab"] * 2),  # with another form of the same TEAM
    ],
)
def test_teams_from_run_names(stems, teams):
    assert stem_teams(stems) == teams


@pytest.mark.parametrize(
    "stems",
    [
        ["GPT-4"],  # a dash and a number without "run", alone
        ["bert_2", "X_1", "AUUH_A"],  # a final _N or _A that no other stem shares
        ["bert_22a", "bert_AB", "bert__"],  # not digits alone, not one letter
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


def test_names_file_team_column_overrides_the_rule(tmp_path):
    """``--names`` (``names=``) has the last word: its ``team`` column moves B.run1 to team A;
    the twin without it keeps the teams the rule found."""
    gold = write_binary_task(tmp_path, {"A.run1": 0.9, "B.run1": 0.8, "B_run2": 0.7, "GPT-4": 0.6})
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


# --------------------------------------------------------------------------- the letters' words


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """Two teams from run names (A: 2 runs, B: 1) and a team of one, with and without a
    baseline."""
    root = tmp_path_factory.mktemp("teams")
    runs = {"A.run1": 0.95, "A_run2": 0.7, "B-run1": 0.8, "solo": 0.6, "majority": 0.5}
    gold = write_binary_task(root, runs)
    plain = cr.load(gold, runs=root / "runs", metrics="accuracy")
    (root / "names.csv").write_text("run,baseline\nmajority,yes\n")
    based = cr.load(gold, runs=root / "runs", metrics="accuracy", names=root / "names.csv")
    return (
        cr.analyze(plain, bootstrap=199, seed=1),
        cr.analyze(based, bootstrap=199, seed=1),
    )


def test_letter_names_the_ranks_among_teams_and_runs(small):
    analysis, _ = small
    comp = analysis.competitions[0]
    assert [t.team for t in comp.team_ranks] == ["A", "B", "solo", "majority"]
    assert {t: runs for t, (_, runs) in team_letters(comp).items()} == {
        "A": ["A.run1", "A_run2"],
        "B": ["B-run1"],
        "solo": ["solo"],
        "majority": ["majority"],
    }
    winner = _text(team_html(analysis, comp, "A.run1"))
    assert "A: rank 1 of 4 teams, each ranked by its best run" in winner
    assert "Your run A.run1 is the winner: it ranked first of the 5 competing runs" in winner
    assert "1 of 5 runs" in winner and "baseline" not in winner
    second = _text(team_html(analysis, comp, "A_run2"))
    assert "A: rank 1 of 4 teams" in second and "is the winner" not in second
    b = comp.primary.score_of("B-run1")
    loser = _text(team_html(analysis, comp, "B-run1"))
    assert "B: rank 2 of 4 teams" in loser and f"{b.rank} of 5 runs" in loser
    # the verdict in plain words, the rule only in the footnote
    verdict = (
        "is significantly worse than the winner, A.run1, at α = 0.05."
        if b.differs_from_best
        else "cannot be told apart from the winner, A.run1, at α = 0.05."
    )
    assert f"Your run B-run1 {verdict}{FOOTNOTE}" in loser
    rule = analysis.settings.rule
    assert loser.count(rule) == 1 and loser.index(rule) > loser.index(f"{FOOTNOTE} Method:")


def test_letter_counts_the_baselines_only_when_there_are_any(small):
    """The twin: with a baseline the run's rank counts it, and says so."""
    _, analysis = small
    comp = analysis.competitions[0]
    assert [t.team for t in comp.team_ranks] == ["A", "B", "solo"]
    text = _text(team_html(analysis, comp, "solo"))
    rank = comp.primary.score_of("solo").rank
    assert f"{rank} of 5 systems: 4 runs and 1 baseline" in text
    assert "solo: rank 3 of 3 teams" in text


# --------------------------------------------------------------------------- 16 teams x 3 runs

#: Sixteen teams, their three runs named in the styles of point 4 (mixed within a team too).
STYLES = ("{t}.run{k}", "{t}_run{k}", "{t}-run{k}", "{t}.0{k}")
TEAMS = [f"T{j:02d}-{'ab'[j % 2]}" for j in range(16)]


@pytest.mark.slow
def test_sixteen_teams_of_three_runs_get_sixteen_letters_and_emails(tmp_path):
    if shutil.which("pdftotext") is None:
        pytest.skip("poppler-utils not installed")
    pytest.importorskip("weasyprint")
    runs = {}
    for j, team in enumerate(TEAMS):
        for k in (1, 2, 3):
            runs[STYLES[(j + k) % 4].format(t=team, k=k)] = 0.95 - 0.02 * j - 0.01 * k
    gold = write_binary_task(tmp_path, runs, n=300)
    (tmp_path / "contacts.csv").write_text(
        "team,address\n" + "".join(f"{t},{t.lower()}@example.org\n" for t in TEAMS)
    )
    res = run_cli(
        tmp_path,
        *("report", str(gold), "--runs", "runs", "--name", "gold", "-o", "out"),
        *("--format", "json,pdf"),
        *("--metric", "accuracy", "--figure-formats", "svg", "-B", "199"),
        *("--emails", "contacts.csv", "--email-from", "Organizers <task@example.org>"),
    )
    assert res.returncode == 0, res.stderr
    assert "16 teams, 48 runs" in res.stdout
    out = tmp_path / "out"
    analysis = cr.Analysis.read(out / "results.json")
    comp = analysis.competitions[0]
    assert sorted(t.team for t in comp.team_ranks) == sorted(TEAMS)
    letters = sorted((out / "gold" / "teams").iterdir())
    emails = sorted((out / "emails").iterdir())
    assert len(letters) == 16 and len(emails) == 16
    files = team_letters(comp)
    for eml in emails:
        msg = BytesParser(policy=policy.default).parse(eml.open("rb"))
        assert msg["From"] == "Organizers <task@example.org>" and msg["X-Unsent"] == "1"
        (attachment,) = msg.iter_attachments()
        assert attachment.get_content_type() == "application/pdf"
        team = next(t for t in TEAMS if msg["To"] == f"{t.lower()}@example.org")
        assert attachment.get_content() == (out / "gold/teams" / files[team][0]).read_bytes()
    best = comp.team_ranks[0]
    text = subprocess.run(
        ["pdftotext", "-layout", str(out / "gold/teams" / files[best.team][0]), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.replace("\u200b", "")
    flat = re.sub(r"\s+", " ", text)
    assert best.rank == 1 and "rank 1 of 16 teams" in flat, flat
    assert f"Your run {best.best_run} is the winner: it ranked first of the 48" in flat, flat
    assert "of 48 runs" in flat and "baselines included" not in flat
    assert flat.count(f"{FOOTNOTE} Method:") == 3  # one footnote per page, a page per run
