"""Progress bars on stderr: each names its stage (a competition's bootstrap and its metrics, each
round of refinement with the resamples it adds, the competitions analysed by workers, figures,
PDF documents) and its rate in a clean unit (``replicate/s``, ``s/replicate``, ``it/s``, ``s/it``).

Before, every bootstrap bar was called "bootstrap", so a refinement's bar seemed to restart the
bootstrap from 10,000 to 80,000, and the task bars had an empty unit: ``2.14s/`` and ``3.50/s``.
"""

from __future__ import annotations

import re
import time
import warnings

import numpy as np
import pytest

import compreport as cr
from compreport.workers import progress_bar, run_tasks
from conftest import make_competition

#: A rate whose unit is missing: "2.14s/" then a space or the bar's end, or "3.50/s".
GLITCH = re.compile(r"[0-9]s/(?![A-Za-z])|[0-9]/s")


def _competition(cid: str):
    """Five close systems and two metrics: with B = 200 some verdict is near alpha, so the
    p-values are refined."""
    rng = np.random.default_rng(0)
    gold = rng.integers(0, 2, 300)
    preds = [np.where(rng.random(300) < 0.2 + 0.02 * i, 1 - gold, gold) for i in range(5)]
    return make_competition(
        gold,
        preds,
        systems=[f"S{i}.01" for i in range(5)],
        metrics=["accuracy", "macro_f1"],
        cid=cid,
    )


def _analyze(capsys, comps, **kw):
    capsys.readouterr()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        analysis = cr.analyze(comps, bootstrap=200, seed=1, **kw)
    return analysis, capsys.readouterr().err


def test_bootstrap_and_refinement_bars_name_their_stage(capsys):
    analysis, err = _analyze(capsys, [_competition("toy")], progress=True, refine=True)
    assert "bootstrap toy: accuracy, macro_f1" in err, err
    # the refinement draws resamples 201-400 of the metrics with a verdict to settle
    assert re.search(r"refinement round 1 toy \(resamples 201-400\): \w", err), err
    assert "replicate/s" in err or "s/replicate" in err, err
    assert not GLITCH.search(err), GLITCH.search(err)
    # the twin: without progress, nothing on stderr, and the same numbers
    quiet, err = _analyze(capsys, [_competition("toy")], progress=False, refine=True)
    assert err == ""
    assert quiet.competitions[0].primary.pairs == analysis.competitions[0].primary.pairs


def test_competitions_analysed_by_workers_have_one_named_bar(capsys):
    _, err = _analyze(capsys, [_competition("one"), _competition("two")], jobs=2, progress=True)
    assert "analysing competitions (bootstrap, p-values)" in err, err
    assert re.search(r"[0-2]/2 ", err) and not GLITCH.search(err), err


@pytest.mark.slow
def test_slow_tasks_read_seconds_per_task(capsys):
    """Tasks slower than one a second: the rate reads ``s/it`` (real sleeps of 1.2 s)."""
    capsys.readouterr()
    assert run_tasks([(time.sleep, (1.2,))] * 2, progress="figures") == [None, None]
    err = capsys.readouterr().err
    assert "figures" in err and re.search(r"[0-9.]+s/it", err), err
    assert not GLITCH.search(err), err


def test_a_unit_is_one_word():
    assert progress_bar(None, 3) is None and progress_bar("figures", 0) is None
    with pytest.raises(ValueError, match="without spaces"):
        progress_bar("bootstrap", 10, " replicates")
