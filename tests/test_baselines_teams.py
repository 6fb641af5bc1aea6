"""Baselines and teams without a spec (issue 40 item 1): ``--baseline GLOB`` (``[data]
baselines``, ``baselines=``), teams read from run names that differ only in a final ``_N``,
``-N`` or ``_A``, ``validate`` listing every team and baseline, and teams of one named in the
leaderboard's Team column.

The done-when case is built here: a gold file of 2,000 items in 3 classes and a runs folder of
35 runs from 14 teams, in every naming style organizers receive, plus ``baseline-svm.tsv``. The
expected teams are written down from the file names below, and the teams' ranking is checked
against scikit-learn's macro F1 of each run (each team by its best run)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import f1_score

import compreport as cr
from compreport.errors import Note
from conftest import one_error, run_cli, said, write

LABELS = ("neg", "neu", "pos")
N = 2000

#: Team -> its run files (paths inside runs/), as a participant names them.
TEAMS = {
    "Team_Nova": ["Team_Nova_1.tsv", "Team_Nova_2.tsv", "Team_Nova_3.tsv"],
    "DeepSPIN": ["DeepSPIN-1.tsv", "DeepSPIN-2.tsv"],
    "AUUH": ["AUUH_A.tsv", "AUUH_B.tsv"],
    "UPV-ELiRF": ["UPV-ELiRF.run1.tsv", "UPV-ELiRF.run2.tsv", "UPV-ELiRF.run3.tsv"],
    "CIMAT_NLP": ["CIMAT_NLP.01.tsv", "CIMAT_NLP.02.tsv", "CIMAT_NLP.03.tsv"],
    "ToxiHunters": ["ToxiHunters_run1.tsv", "ToxiHunters_run2.tsv"],
    "LenguaViva": [f"LenguaViva_{k}.tsv" for k in range(1, 5)],
    "Qnlp": [f"Qnlp-{k}.tsv" for k in range(1, 7)],
    "ITAINNOVA": ["ITAINNOVA.1.tsv", "ITAINNOVA.2.tsv"],
    "GPT-4": ["GPT-4.tsv"],  # a team of one
    "X_1": ["X_1.tsv"],  # a lone final _N: a team of one, named as written
    "Solo": ["Solo.tsv"],
    "HULAT-UC3M": ["HULAT-UC3M_A.tsv", "HULAT-UC3M_B.tsv", "HULAT-UC3M_C.tsv"],
    # a team folder wins over the rule: its runs are "Sabores 1", "Sabores 2"
    "Sabores": ["Sabores/Sabores_1.tsv", "Sabores/Sabores_2.tsv"],
}
#: The teams only the final _N, -N or _A rule finds (the note names these, and only these).
SUFFIX_TEAMS = ["AUUH", "DeepSPIN", "HULAT-UC3M", "LenguaViva", "Qnlp", "Team_Nova"]


def _system(rel: str) -> str:
    """The system name of the run file at ``rel``: its stem; in a team folder, the folder and what
    differs between the team's file names."""
    folder, _, file = rel.rpartition("/")
    return f"{folder} {Path(file).stem.rsplit('_', 1)[1]}" if folder else Path(file).stem


EXPECTED = {_system(rel): team for team, rels in TEAMS.items() for rel in rels}


def _task(root: Path) -> dict[str, np.ndarray]:
    """gold.tsv (N items, 3 classes) and runs/ (the 35 runs of TEAMS and baseline-svm.tsv) under
    ``root``; returns each system's predicted labels, and the gold under ``"gold"``."""
    rng = np.random.default_rng(40)
    gold = rng.choice(LABELS, N)
    write(root, "gold.tsv", "id\tlabel\n" + "".join(f"d{i}\t{g}\n" for i, g in enumerate(gold)))
    rels = [rel for rels in TEAMS.values() for rel in rels] + ["baseline-svm.tsv"]
    accuracies = np.linspace(0.45, 0.9, len(rels))
    rng.shuffle(accuracies)
    out = {"gold": gold}
    for rel, acc in zip(rels, accuracies, strict=True):
        wrong = np.array([rng.choice([x for x in LABELS if x != g]) for g in gold])
        pred = np.where(rng.random(N) < acc, gold, wrong)
        write(root, f"runs/{rel}", "".join(f"d{i}\t{p}\n" for i, p in enumerate(pred)))
        out["baseline-svm" if rel == "baseline-svm.tsv" else _system(rel)] = pred
    return out


def _teams_by_best_run(preds: dict[str, np.ndarray], baselines=("baseline-svm",)) -> list:
    """(team, best run) best first, from scikit-learn's macro F1 of every competing run."""
    score = {
        s: f1_score(preds["gold"], p, average="macro")
        for s, p in preds.items()
        if s != "gold" and s not in baselines
    }
    best: dict[str, str] = {}
    for s, f in score.items():
        team = EXPECTED.get(s, s)
        if team not in best or f > score[best[team]]:
            best[team] = s
    return sorted(best.items(), key=lambda kv: -score[kv[1]])


@pytest.fixture(scope="module")
def task(tmp_path_factory):
    root = tmp_path_factory.mktemp("base40")
    return root, _task(root)


@pytest.fixture(scope="module")
def reported(task):
    """``compreport report gold.tsv --runs runs --baseline 'baseline*'`` (JSON and HTML)."""
    root, preds = task
    res = run_cli(
        root,
        "report",
        "gold.tsv",
        "--runs",
        "runs",
        "--metric",
        "macro_f1",
        "--baseline",
        "baseline*",
        "-B",
        "200",
        "--seed",
        "1",
        "--format",
        "json,html",
        "-o",
        "out",
    )
    assert res.returncode == 0, res.stderr
    (comp,) = json.loads((root / "out" / "results.json").read_text(encoding="utf-8"))[
        "competitions"
    ]
    page = (root / "out" / comp["id"] / "report.html").read_text(encoding="utf-8")
    return comp, page, res.stderr, preds


def test_the_35_runs_are_14_teams_and_1_baseline(reported):
    comp, _, _, preds = reported
    assert comp["baselines"] == ["baseline-svm"]
    assert len(comp["systems"]) == 36
    assert {s: t or s for s, t in comp["teams"].items() if s != "baseline-svm"} == EXPECTED
    ranks = comp["team_ranks"]
    assert len(ranks) == 14 and sum(len(t["runs"]) for t in ranks) == 35
    assert all("baseline-svm" not in t["runs"] for t in ranks)
    # the teams' ranking: each team by its best run, as scikit-learn scores the runs
    assert [(t["team"], t["runs"][0]) for t in ranks] == _teams_by_best_run(preds)


def _rows(page: str, table: str) -> list[list[str]]:
    """The body rows of the first ``<table class="TABLE...">`` of ``page``: each cell's text (a
    baseline's tag left out of its name)."""
    at = page.index(f'<table class="{table}')
    body = page[page.index("<tbody>", at) : page.index("</table>", at)]
    body = re.sub(r'<span class="tag">.*?</span>', "", body)
    return [
        [
            html.unescape(re.sub(r"<[^>]+>", "", c)).strip()
            for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)
        ]
        for r in body.split("</tr>")
        if "<td" in r
    ]


def test_the_page_ranks_14_teams_and_marks_the_baseline(reported):
    comp, page, _, _ = reported
    teams = _rows(page, "teams")
    assert [r[1] for r in teams] == [t["team"] for t in comp["team_ranks"]]
    assert len(teams) == 14 and all(r[2] != "baseline-svm" for r in teams)
    (base,) = [r for r in _rows(page, "leaderboard") if r[1] == "baseline-svm"]
    assert base[-1].split(", ")[-1] == "baseline"  # its mark (after any "N undecided")


def test_teams_of_one_show_their_name_in_the_team_column(reported):
    """Issue 40: a team of one showed "–", the glyph of a baseline; now its name. The baseline
    keeps the dash."""
    _, page, _, _ = reported
    team = {r[1]: r[2] for r in _rows(page, "leaderboard")}
    assert team["GPT-4"] == "GPT-4" and team["X_1"] == "X_1" and team["Solo"] == "Solo"
    assert team["Team_Nova_2"] == "Team_Nova" and team["Sabores 1"] == "Sabores"
    assert team["baseline-svm"] == "\u2013"
    assert {s: t for s, t in team.items() if s != "baseline-svm"} == EXPECTED


def test_a_note_names_the_teams_read_from_a_final_suffix(reported):
    """One note, on stderr and among the report's notes, names each team the final _N, -N, _A
    rule formed, with its runs; not the teams a folder or the word "run" gave."""
    comp, page, stderr, _ = reported
    (line,) = [x for x in said(stderr) if "differ only in a final" in x]
    assert line.startswith("note: ")
    listed = line.split(" or _A: ", 1)[1].split("; a names file", 1)[0]
    found = dict(re.findall(r"([\w-]+) \(([^)]*)\)", listed))
    assert sorted(found) == SUFFIX_TEAMS
    for team, runs in found.items():
        assert runs.split(", ") == [Path(r).stem for r in TEAMS[team]]
    assert "--names FILE" in line
    (stored,) = [w for w in comp["warnings"] if "differ only in a final" in w]
    assert stored == line.removeprefix("note: ")
    assert html.escape(stored, quote=False) in page or stored in html.unescape(page)


# --------------------------------------------------------------------------- without --baseline


def test_without_baseline_the_baseline_competes_with_a_note(task):
    """As before: without ``--baseline`` (``baselines=``), baseline-svm is a run of its own team,
    ranked; a note says it is named like a baseline and how to mark it."""
    root, preds = task
    with pytest.warns(Note) as notes:
        data = cr.load(root / "gold.tsv", runs=root / "runs", metrics="macro_f1")
        comp = cr.validate(data).competition()
    assert comp.baselines == []
    assert len(comp.team_ranks) == 15 and sum(len(t.runs) for t in comp.team_ranks) == 36
    assert [(t.team, t.runs[0]) for t in comp.team_ranks] == _teams_by_best_run(preds, ())
    (told,) = [str(n.message) for n in notes if "named like a baseline" in str(n.message)]
    assert "baseline-svm" in told and "baselines=['GLOB']" in told  # in the API's words
    # the same with the keyword: one baseline, 14 teams
    marked = cr.validate(
        cr.load(root / "gold.tsv", runs=root / "runs", metrics="macro_f1", baselines="baseline*")
    ).competition()
    assert marked.baselines == ["baseline-svm"] and len(marked.team_ranks) == 14


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize("glob", ["Baseline*", "svm"])
def test_a_glob_that_matches_no_run_is_an_error_naming_it(task, glob):
    root, _ = task
    res = run_cli(
        root,
        "report",
        "gold.tsv",
        "--runs",
        "runs",
        "--metric",
        "macro_f1",
        "--baseline",
        "baseline*",
        "--baseline",
        glob,
        "-o",
        "bad",
    )
    one_error(res, f"--baseline {glob}" if glob == "svm" else f"--baseline '{glob}'", "no run")
    assert not (root / "bad").exists()


def test_spec_data_baselines(tmp_path, task):
    """``[data] baselines`` in a competition.toml: globs as ``--baseline``; one that matches no run
    is an error naming the spec, its line and the glob."""
    root, _ = task
    spec = (
        'name = "Base40"\n[data]\ngold = "{gold}"\nruns = "{runs}"\nbaselines = {globs}\n'
        '[[metrics]]\nname = "macro_f1"\n'
    )
    fmt = {"gold": (root / "gold.tsv").as_posix(), "runs": (root / "runs").as_posix()}
    write(tmp_path / "ok", "competition.toml", spec.format(globs='["baseline-*"]', **fmt))
    comp = cr.validate(cr.load(tmp_path / "ok")).competition()
    assert comp.baselines == ["baseline-svm"] and len(comp.team_ranks) == 14
    write(tmp_path / "bad", "competition.toml", spec.format(globs='["base*", "zzz*"]', **fmt))
    res = run_cli(tmp_path / "bad", "validate", "competition.toml")
    one_error(res, "competition.toml, line 5: [data] baselines 'zzz*' matches no run")


def test_api_keyword_type_is_checked(task):
    root, _ = task
    with pytest.raises(cr.InputError, match="`baselines` must be a glob or a list of globs"):
        cr.load(root / "gold.tsv", runs=root / "runs", metrics="macro_f1", baselines=3)


def test_wide_table_baseline_matches_column_headers(tmp_path):
    """A wide table: ``--baseline`` matches the system columns' headers; ``A_1``, ``A_2`` are one
    team."""
    write(tmp_path, "wide.csv", "id,y,A_1,A_2,majority-baseline\n1,a,a,b,a\n2,b,b,b,a\n3,a,a,a,a\n")
    res = run_cli(tmp_path, "validate", "wide.csv", "--metric", "accuracy", "--baseline", "*base*")
    assert res.returncode == 0, res.stderr
    out = res.stdout.splitlines()
    assert out[1] == "  1 team, 2 runs, 1 baseline: A (2 runs)"
    assert out[2] == "  baselines: majority-baseline"


# --------------------------------------------------------------------------- validate


def test_validate_lists_every_team_and_the_baseline(task):
    root, _ = task
    res = run_cli(
        root, "validate", "gold.tsv", "--runs", "runs", "--metric", "macro_f1", "--baseline", "b*"
    )
    assert res.returncode == 0, res.stderr
    out = res.stdout.splitlines()
    at = next(k for k, x in enumerate(out) if x.startswith("  baselines:"))
    head, listed = " ".join(x.strip() for x in out[1:at]).split(": ", 1)
    assert head == "14 teams, 35 runs, 1 baseline"
    shown = {}
    for item in listed.split(", "):
        m = re.fullmatch(r"(.+?)(?: \((\d+) runs\))?", item)
        shown[m.group(1)] = int(m.group(2) or 1)
    assert shown == {team: len(rels) for team, rels in TEAMS.items()}
    assert out[at] == "  baselines: baseline-svm"
    assert out[at + 1].split() == ["rank", "system", "macro_f1"]
    assert any("differ only in a final _N, -N or _A" in x for x in said(res.stderr))
