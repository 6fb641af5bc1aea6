"""The warning for gold classes too small for the per-class scores a metric is built from
(compreport.stats.classes.SMALL_CLASS; its coverage by simulation: benchmarks/coverage.py)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

import compreport as cr
from compreport.stats.classes import SMALL_CLASS


def _frame(counts=(3, 27, 30), seed=0, systems=2):
    rng = np.random.default_rng(seed)
    gold = np.repeat(np.arange(len(counts)), counts)
    rng.shuffle(gold)
    cols = {
        f"S{s}": np.where(
            rng.random(len(gold)) < 0.7, gold, rng.integers(0, len(counts), len(gold))
        )
        for s in range(systems)
    }
    return pd.DataFrame(
        {
            "id": np.arange(len(gold)),
            "gold": [f"c{g}" for g in gold],
            **{k: [f"c{v}" for v in col] for k, col in cols.items()},
        }
    )


def _warnings(data, **kw) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        analysis = cr.analyze(data, bootstrap=50, refine=False, **kw)
    got = [str(w.message) for w in caught]
    assert all(note in got for note in analysis.competitions[0].warnings)  # warned and stored
    return [w for w in analysis.competitions[0].warnings if "per-class scores" in w]


def test_small_class_warning_names_competition_metric_and_classes():
    data = cr.from_frame(
        _frame((3, 7, 50)), gold="gold", id="id", metrics=["macro_f1", "accuracy", "macro_recall"]
    )
    assert _warnings(data) == [
        f"competition 'competition': metric {m!r} is built from per-class scores, and gold "
        f"classes 'c0' (3 items), 'c1' (7 items) have fewer than {SMALL_CLASS} items: per-class "
        f"scores of so few items are unstable, bootstrap resamples hold a varying number of these "
        f"items, or none, and the metric's intervals can miss on one side (see docs/statistics.md)"
        for m in ("macro_f1", "macro_recall")
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert not [
            w for w in cr.analyze(data, bootstrap=0).competitions[0].warnings if "per-class" in w
        ]


def test_small_class_warning_only_for_the_classes_a_metric_scores():
    frame = _frame((4, 46, 50))
    assert (
        _warnings(
            cr.from_frame(frame, gold="gold", id="id", metrics=["macro_f1"], labels=["c1", "c2"])
        )
        == []
    )
    (note,) = _warnings(cr.from_frame(frame, gold="gold", id="id", metrics=["f1"], pos_label="c0"))
    assert "metric 'f1'" in note and "gold class 'c0' (4 items) has fewer than" in note
    assert (
        _warnings(cr.from_frame(frame, gold="gold", id="id", metrics=["f1"], pos_label="c1")) == []
    )
    assert (
        _warnings(cr.from_frame(frame, gold="gold", id="id", metrics=["accuracy", "weighted_f1"]))
        == []
    )
    assert (
        _warnings(
            cr.from_frame(_frame((SMALL_CLASS, 40, 50)), gold="gold", id="id", metrics=["macro_f1"])
        )
        == []
    )


def test_undefined_replicates_are_dropped_counted_and_said():
    """ROC AUC with 2 positives in 14 items: about 1 resample in 7 has no positive, where the metric
    is undefined. Those resamples are dropped for the metric, counted and warned about; the
    intervals and p-values come from the others (the intervals were NaN, and such resamples counted
    as non-exceedances in p)."""
    rng = np.random.default_rng(0)
    gold = np.zeros(14, int)
    gold[:2] = 1
    frame = pd.DataFrame(
        {"id": range(14), "gold": gold, **{f"S{s}": rng.random(14).round(3) for s in range(3)}}
    )
    data = cr.from_frame(frame, gold="gold", id="id", metrics=["roc_auc"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        analysis = cr.analyze(data, bootstrap=500, refine=False)
    ma = analysis.competitions[0].primary
    dropped = ma.verdicts["undefined_replicates"]
    assert 30 < dropped < 110  # 500 x (12/14)^14 = 58 expected
    said = [str(w.message) for w in caught if "is undefined on" in str(w.message)]
    assert said == [
        f"competition 'competition': metric 'roc_auc' is undefined on {dropped} bootstrap "
        f"resamples (e.g. a resample without a class it needs); they are left out of its "
        f"intervals and bootstrap p-values"
    ]
    assert all(np.isfinite([s.ci_low, s.ci_high]).all() for s in ma.scores)
    assert ma.replicates.shape[0] == 500 - dropped and all(np.isfinite(c.p_value) for c in ma.pairs)
