"""Group letters past many systems: ranges such as ``f–j`` in every table, the letters stored.

Past ``MANY_SYSTEMS`` (25) systems the tables show each run of three or more consecutive group
letters as ``first–last``; results.json and leaderboard.csv keep the letters. The expansion below
is written here, from the letter order the docs state (a–z, A–Z, then a1, b1, ...), not taken from
compreport."""

from __future__ import annotations

import csv
import io
import json
import re
import string

import pytest

from compreport.report import model
from conftest import run_cli, write_binary_task

#: a, b, ..., z, A, ..., Z, a1, b1, ..., Z1, a2, ...: the order docs/outputs.md states.
ORDER = [ch + (str(k) if k else "") for k in range(6) for ch in string.ascii_letters]


def expand(shown: str) -> str:
    """The letters a group cell stands for: each ``x–y`` piece is every letter from x to y."""
    if shown == "–":
        return ""
    out = []
    for piece in shown.split(","):
        if "–" in piece:
            first, last = piece.split("–")
            out += ORDER[ORDER.index(first) : ORDER.index(last) + 1]
        else:
            out.append(piece)
    return "".join(out)


@pytest.mark.parametrize(
    "letters",
    ["a", "ab", "abc", "fghij", "acegi", "abdfgh", "XYZa1b1", "TUVWXYZa1b1c1d1e1f1g1", "a1b1d1"],
)
def test_ranges_say_exactly_the_letters(letters):
    shown = model.group_text(letters, True)
    assert expand(shown) == letters, shown
    assert model.group_text(letters, False) == letters
    # a run of three or more consecutive letters is always a range: no loose piece holds one
    for piece in shown.split(","):
        if "–" not in piece:
            at = [ORDER.index(t) for t in re.findall(r"[A-Za-z][0-9]*", piece)]
            assert not any(b == a + 1 and c == b + 1 for a, b, c in zip(at, at[1:], at[2:]))


def test_the_issues_examples():
    assert model.group_text("fghij", True) == "f–j"
    assert model.group_text("TUVWXYZa1b1c1d1e1f1g1", True) == "T–g1"


def _task(tmp_path, m: int):
    runs = {f"Team{i:02d}_run": 0.62 + 0.2 * i / m for i in range(m)}
    return write_binary_task(tmp_path, runs, n=240, seed=11)


def _md_groups(text: str) -> dict[str, str]:
    lines = [x for x in text.splitlines() if x.startswith("|")]
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    rows = [dict(zip(head, (c.strip() for c in x.strip("|").split("|")))) for x in lines[2:]]
    return {r["System"].replace("\\", ""): r["Group"] for r in rows}  # Markdown escapes _


def _run(tmp_path, m: int):
    gold = _task(tmp_path, m)
    out = tmp_path / "out"
    res = run_cli(
        tmp_path, "report", str(gold), "--runs", str(tmp_path / "runs"), "--metric", "accuracy",
        "-B", "400", "--seed", "1", "--format", "json", "-o", str(out),
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    (comp_dir,) = [p for p in out.iterdir() if p.is_dir() and (p / "leaderboard.md").is_file()]
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    stored = {s["system"]: s["group"] for s in results["competitions"][0]["metrics"][0]["scores"]}
    shown = _md_groups((comp_dir / "leaderboard.md").read_text(encoding="utf-8"))
    exported = {
        r["system"]: r["group"]
        for r in csv.DictReader(
            io.StringIO((comp_dir / "leaderboard.csv").read_text(encoding="utf-8"))
        )
    }
    return stored, shown, exported


def test_many_systems_show_ranges_and_files_keep_letters(tmp_path):
    stored, shown, exported = _run(tmp_path, 40)
    assert len(stored) == 40
    assert exported == stored  # the CSV keeps the stored letters
    assert {expand(shown[s]) for s in stored} == set(stored.values()) and all(
        expand(shown[s]) == stored[s] for s in stored
    )
    long = [g for g in stored.values() if len(g) >= 3]
    assert long, stored  # the data gives groups of three letters or more: a test that can fail
    assert any("–" in shown[s] for s in stored), shown


def test_few_systems_keep_their_letters(tmp_path):
    stored, shown, _ = _run(tmp_path, 12)
    assert all(shown[s] == (stored[s] or "–") for s in stored), (shown, stored)
