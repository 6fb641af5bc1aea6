"""SemEval-2018 Task 12 (Argument Reasoning Comprehension) read as its organizers published it.

``tests/data/semeval2018-task12-arct``: the real gold and all 23 submitted runs, unmodified
(``#`` comments, the header as a comment, tab- and space-separated lines, numeric submission ids),
a names file (display names, the random baseline marked, the withdrawn run excluded) and the
organizers' approximate-randomization p-values (see its README). No conversion script: the command
line and the Python API read the files as they are and reproduce the published leaderboard, and
``--test randomization`` reproduces the organizers' p-values within Monte-Carlo error.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
from pathlib import Path

import pytest

import compreport as cr
from compreport.errors import Note
from conftest import run_cli

DATA = Path(__file__).parent / "data" / "semeval2018-task12-arct"

#: The published leaderboard (the organizers' README): rank, system, accuracy to 3 decimals.
PUBLISHED = [
    (1, "GIST", 0.712),
    (2, "blcu_nlp", 0.606),
    (3, "ECNU", 0.604),
    (4, "NLITrans", 0.590),
    (5, "Joker", 0.586),
    (6, "YNU_Deep", 0.583),
    (7, "mingyan", 0.581),
    (8, "ArcNet", 0.577),
    (8, "UniMelb", 0.577),
    (10, "TRANSRW", 0.570),
    (11, "lyb3b", 0.568),
    (12, "SNU_IDS", 0.565),
    (13, "ArgEns-GRU", 0.556),
    (14, "ITNLP-ARC", 0.552),
    (15, "YNU-HPCC", 0.550),
    (16, "TakeLab", 0.541),
    (17, "HHU", 0.534),
    (18, "Random baseline", 0.527),
    (19, "Deepfinder", 0.525),
    (20, "ART", 0.518),
    (21, "RW2C", 0.500),
    (22, "ztangfdu", 0.464),
]
#: The organizers' randomization rounds.
R = 10_000
#: Our rounds: about 1.5 s of CPU for the 231 pairs (and the bootstrap that comes with the report).
B = 20_000


def organizers() -> tuple[dict[frozenset, float], dict[str, float]]:
    """The organizers' p-value of each pair and accuracy of each system (4 decimals)."""
    p, acc = {}, {}
    for line in (
        (DATA / "approximate-randomization-test.tsv").read_text(encoding="utf-8").splitlines()
    ):
        if line.startswith("#") or line.startswith("a\t"):
            continue
        a, b, value = line.split("\t")
        if a == b:
            acc[a] = float(value)
        else:
            p[frozenset((a, b))] = float(value)
    return p, acc


def cli(tmp: Path, *args: str) -> subprocess.CompletedProcess:
    """``compreport report gold/truth.txt --runs submissions --names names.tsv ARGS`` run from the
    data folder, in this process (:func:`conftest.run_cli`)."""
    return run_cli(
        DATA,
        "report",
        "gold/truth.txt",
        "--runs",
        "submissions",
        "--names",
        "names.tsv",
        "--metric",
        "accuracy",
        "-o",
        str(tmp / "out"),
        "--format",
        "json",
        *args,
    )


def check_leaderboard(rows: list[tuple[int, str, float, bool]]) -> None:
    """(rank, system, accuracy, baseline) best first equal the published leaderboard."""
    assert [(rank, system) for rank, system, _, _ in rows] in (
        [(rank, system) for rank, system, _ in PUBLISHED],
        # ArcNet and UniMelb tie at 256/444: either order, both 8th
        [
            (rank, system)
            for rank, system, _ in PUBLISHED[:7] + [PUBLISHED[8], PUBLISHED[7]] + PUBLISHED[9:]
        ],
    )
    published = {system: acc for _, system, acc in PUBLISHED}
    assert {system: round(score, 3) for _, system, score, _ in rows} == published
    assert [system for _, system, _, baseline in rows if baseline] == ["Random baseline"]


def test_cli_reproduces_the_published_leaderboard(tmp_path):
    res = cli(tmp_path, "-B", "100", "--correction", "none")
    assert res.returncode == 0, res.stderr
    names, ties, undecided = res.stderr.splitlines()
    assert names == "note: names.tsv: 1 run(s) excluded: 436419.txt"
    # B = 100 is too few for the summary's Bonferroni and Holm ties over 210 pairs of competitors,
    # and leaves the verdicts whose raw p-value is within its Monte-Carlo error of alpha undecided
    assert re.fullmatch(
        r"warning: competition 'semeval2018-task12-arct': the competitiveness summary of "
        r"'accuracy' prints – for the ties under bonferroni, holm: .* use -B 4200 or more",
        ties,
    )
    assert re.fullmatch(
        r"note: competition 'semeval2018-task12-arct': \d+ verdicts undecided \(accuracy: \d+ "
        r"of 231\): .* --refine on .*",
        undecided,
    )
    (comp,) = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))[
        "competitions"
    ]
    assert comp["n"] == 444 and len(comp["systems"]) == 22 and "436419" not in comp["systems"]
    assert comp["baselines"] == ["Random baseline"]
    (acc,) = comp["metrics"]
    check_leaderboard(
        [
            (s["rank"], s["system"], s["score"], s["system"] in comp["baselines"])
            for s in acc["scores"]
        ]
    )
    _, organizer_acc = organizers()
    assert {s["system"]: round(s["score"], 4) for s in acc["scores"]} == organizer_acc
    paths = [i["path"] for i in comp["inputs"]]
    assert (
        paths[:2] == ["gold/truth.txt", "names.tsv"] and len(paths) == 24
    )  # the withdrawn run is not read
    assert (
        all(p.startswith("submissions/") for p in paths[2:])
        and "submissions/436419.txt" not in paths
    )
    assert comp["missing"] == dict.fromkeys(comp["systems"], 0)
    # the winner's confusion matrix, on the real data: its diagonal is the published accuracy
    classes = comp["classes"]
    assert classes["system"] == "GIST" and classes["labels"] == ["0", "1"] == classes["predicted"]
    cm = classes["confusion"]
    assert sum(map(sum, cm)) == 444 and (cm[0][0] + cm[1][1]) / 444 == acc["scores"][0]["score"]
    gold = [
        line.split()[-1]
        for line in (DATA / "gold" / "truth.txt").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert classes["support"] == [gold.count("0"), gold.count("1")]


def test_api_reproduces_the_published_leaderboard():
    with pytest.warns(Note, match=r"names.tsv: 1 run\(s\) excluded: 436419.txt"):
        data = cr.load(
            DATA / "gold" / "truth.txt",
            runs=DATA / "submissions",
            names=DATA / "names.tsv",
            metrics="accuracy",
        )
    (comp,) = data.competitions
    assert comp.n == 444 and comp.m == 22 and comp.baselines == ["Random baseline"]
    board = cr.analyze(data, bootstrap=0).leaderboard()
    check_leaderboard(
        list(zip(board["rank"], board["system"], board["score"], board["baseline"], strict=True))
    )


def test_the_organizers_xml_name_map_as_shipped():
    """``metadata-public.xml`` read as a names file, unconverted: shownName, else systemName, else
    username; the baseline marked, the withdrawn run left out. Its one name that differs from the
    published leaderboard is the baseline's own systemName, 'Random bsl.'."""
    with pytest.warns(Note, match=r"metadata-public.xml: 1 run\(s\) excluded: 436419.txt"):
        data = cr.load(
            DATA / "gold" / "truth.txt",
            runs=DATA / "submissions",
            names=DATA / "metadata-public.xml",
            metrics="accuracy",
        )
    (comp,) = data.competitions
    assert (
        comp.baselines == ["Random bsl."]
        and comp.teams["TakeLab"] == "abrassard"
        and comp.teams["Joker"] == "Joker"
    )
    board = cr.analyze(data, bootstrap=0).leaderboard()
    shown = [{"Random bsl.": "Random baseline"}.get(s, s) for s in board["system"]]
    check_leaderboard(
        list(zip(board["rank"], shown, board["score"], board["baseline"], strict=True))
    )


@pytest.mark.slow
def test_randomization_p_values_agree_with_the_organizers(tmp_path):
    """Each of the 231 p-values is within Monte-Carlo error of the organizers' (R = 10,000 rounds),
    and on the same side of 0.05.

    Both are estimates of one p: ours from B = 20,000 rounds, theirs from R = 10,000, published to
    4 decimals. The bound per pair is 4 standard errors of the difference of the two estimates,
    4 * sqrt(p (1 - p) (1/B + 1/R)) with p the organizers' value (at least 1/(R+1)), plus the
    granularity of the two estimates, 1/(B+1) + 1/(R+1), and the rounding of the published value,
    0.00005. Over 231 pairs (correlated, as both sides reuse their rounds) 4 standard errors leave a
    chance of about 1 in 70 that an honest pair fails; the seed is fixed, so the test is
    deterministic (its worst pair is 2.45 standard errors off).
    """
    res = cli(tmp_path, "-B", str(B), "--test", "randomization", "--correction", "none")
    assert res.returncode == 0, res.stderr
    (comp,) = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))[
        "competitions"
    ]
    theirs, _ = organizers()
    ours = {frozenset((x["a"], x["b"])): x["p_value"] for x in comp["metrics"][0]["pairs"]}
    assert len(ours) == len(theirs) == 231 and set(ours) == set(theirs)
    for pair, p_org in theirs.items():
        p = max(p_org, 1 / (R + 1))
        se = math.sqrt(p * (1 - p) * (1 / B + 1 / R))
        bound = 4 * se + 1 / (B + 1) + 1 / (R + 1) + 0.00005
        assert abs(ours[pair] - p_org) <= bound, (sorted(pair), ours[pair], p_org, bound)
        assert (ours[pair] < 0.05) == (p_org < 0.05), (sorted(pair), ours[pair], p_org)
