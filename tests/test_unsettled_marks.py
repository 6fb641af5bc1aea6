"""Undecided verdicts on their rows (issue 40 item 9): the leaderboard's and the teams' marks count
each row's undecided verdicts, read here from the stored pairs, and the HTML header says how many
each metric has."""

from __future__ import annotations

import html
import re
import warnings

import numpy as np
import pytest

import compreport as cr
from compreport.report import model
from compreport.report.pages import html as htmlreport
from conftest import make_competition


@pytest.fixture(scope="module")
def close():
    """Three runs on 2,000 items: A.01 and B.01 differ on 60 items (38 won by A: a two-sided p
    near 0.04), C.01 far below. With B = 199 and no refinement the A–B verdicts are undecided."""
    rng = np.random.default_rng(11)
    gold = rng.integers(0, 2, 2000)
    a = np.where(rng.random(2000) < 0.75, gold, 1 - gold)
    b = a.copy()
    flip = np.concatenate(
        [
            rng.choice(np.flatnonzero(a == gold), 38, replace=False),
            rng.choice(np.flatnonzero(a != gold), 22, replace=False),
        ]
    )
    b[flip] = 1 - b[flip]
    c = np.where(rng.random(2000) < 0.6, gold, 1 - gold)
    comp = make_competition(
        gold,
        [a, b, c],
        systems=["A.01", "B.01", "C.01"],
        metrics=["accuracy", "macro_f1"],
        cid="close",
    )
    comp.teams = {"A.01": "A", "B.01": "B", "C.01": "A"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cr.analyze(comp, bootstrap=199, seed=0, refine=False)


def _undecided_counts(ma) -> dict[str, int]:
    """Each system's undecided verdicts, from the stored pairs, the one with the best left out of
    the row whose own ``undecided`` mark says it."""
    out = {s.system: 0 for s in ma.scores}
    undecided_vs_best = {s.system for s in ma.scores if s.settled_vs_best is False}
    for c in ma.pairs:
        if c.settled is not False:
            continue
        for me, other in ((c.a, c.b), (c.b, c.a)):
            if not (other == ma.best and me in undecided_vs_best):
                out[me] += 1
    return out


def test_rows_count_their_undecided_verdicts(close):
    comp = close.competitions[0]
    ma = comp.primary
    want = _undecided_counts(ma)
    # the A-B verdict is undecided: "1 undecided" on the best's row, "undecided" (against the
    # best) on B's; the README's test covers a pair without the best
    assert sum(want.values()) >= 1, [(c.a, c.b, c.settled) for c in ma.pairs]  # can fail
    assert any(s.settled_vs_best is False for s in ma.scores)
    rows = model.leaderboard(comp, model.Format()).rows
    for row in rows:
        marks = row["marks"].text.split(", ")
        k = want[row.label]
        assert [m for m in marks if m.endswith(" undecided")] == ([f"{k} undecided"] if k else [])
        s = next(x for x in ma.scores if x.system == row.label)
        assert ("undecided" in marks) == (s.settled_vs_best is False)
    # the teams' ranking: each team's best run, with the same marks as its leaderboard row
    teams = model.team_ranking(comp, model.Format()).rows
    by_run = {r.label: r["marks"].text for r in rows}
    for t, row in zip(comp.team_ranks, teams, strict=True):
        assert row["marks"].text == by_run[t.runs[0]]


def test_the_page_says_where_the_undecided_verdicts_are(close):
    comp = close.competitions[0]
    page = htmlreport.competition_html(close, comp)
    counts = {ma.name: sum(c.settled is False for c in ma.pairs) for ma in comp.metrics}
    total = sum(counts.values())
    facts = html.unescape(
        re.sub(r"<[^>]+>", "", re.search(r'<p class="facts">(.*?)</p>', page, re.S).group(1))
    )
    said = re.search(r"(\d+) verdicts? undecided(?: \(([^)]*)\))?", facts)
    assert said and int(said.group(1)) == total, facts
    where = dict(x.rsplit(": ", 1) for x in said.group(2).split(", "))
    assert sorted(int(v) for v in where.values()) == sorted(v for v in counts.values() if v)
    # each mark is one unbreakable span in the leaderboard's Marks cells
    cells = re.findall(r'<td class="marks">(.*?)</td>', page)
    assert any('<span class="mark">1 undecided</span>' in c for c in cells), cells
