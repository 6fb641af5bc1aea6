"""The executor of a run (issue 37): made once where the run starts and passed down as an
argument, never found in a context variable. A local pool of forked workers and a dask cluster
are the same interface (``map(fn, items, what, shared)``); the numbers do not depend on which
draws the blocks."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from compreport.settings import Settings
from compreport.stats.analysis import analyze, analyze_competition
from compreport.workers import LocalPool
from conftest import make_competition

PACKAGE = Path(__file__).resolve().parents[1] / "compreport"


def test_context_variables_hold_only_the_words_of_messages():
    """Every ContextVar of the package is declared under compreport/language (the output
    language, the decimal comma, how messages name options): none carries an executor or a dask
    client, which are arguments."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        for name in re.findall(r"ContextVar\(\s*\"(\w+)\"", path.read_text(encoding="utf-8")):
            found[name] = path.relative_to(PACKAGE).parts[0]
    assert found, "no ContextVar found: the pattern is out of date"
    assert {where for where in found.values()} == {"language"}, found
    assert not [name for name in found if "client" in name or "executor" in name]


class Recording:
    """A LocalPool that records what it is asked to map."""

    def __init__(self, jobs: int):
        self.pool = LocalPool(jobs)
        self.calls: list[tuple[str, str, int]] = []

    def map(self, fn, items, what, shared=None):
        items = list(items)
        self.calls.append((fn.__name__, what, len(items)))
        return self.pool.map(fn, items, what, shared)


def _competition(cid="t"):
    rng = np.random.default_rng(0)
    gold = rng.integers(0, 3, 400)
    runs = [np.where(rng.random(400) < a, gold, (gold + 1) % 3) for a in (0.8, 0.7, 0.6)]
    return make_competition(gold, runs, metrics=["accuracy", "macro_f1"], cid=cid)


def test_the_executor_given_draws_every_block_with_the_same_numbers():
    """The executor passed to analyze_competition draws the blocks of the bootstrap and of each
    round of refinement; the analysis is the one drawn in this process, and with two workers."""
    settings = Settings(bootstrap=600, seed=3)
    here = analyze_competition(_competition(), settings, progress=False)
    for jobs in (1, 2):
        recording = Recording(jobs)
        got = analyze_competition(_competition(), settings, progress=False, executor=recording)
        assert repr(got) == repr(here)  # nan != nan: compared by their repr
        assert recording.calls and {c[0] for c in recording.calls} == {"_block"}
        assert all(
            c[1] == "drawing the resamples (competition 't': the bootstrap)"
            for c in recording.calls
        )


def test_a_workshop_on_two_workers_is_the_one_in_one_process():
    """Several competitions, one task each on two forked workers: the same analysis."""
    comps = [_competition("a"), _competition("b")]
    settings = Settings(bootstrap=300, seed=1)
    one = analyze(comps, settings, progress=False)
    two = analyze(comps, settings, progress=False, jobs=2)
    assert repr(two.competitions) == repr(one.competitions)  # nan != nan
