"""Small samples and few clusters (issue 36 item 7): a run warns where docs/statistics.md's size
table shows the bootstrap liberal, naming the measured size, and nowhere else; the thresholds and
the sizes named are the docs' own."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import compreport as cr
from compreport.inputs import clusters
from compreport.stats import analysis

STATISTICS = Path(__file__).resolve().parent.parent / "docs" / "statistics.md"


def _section() -> str:
    text = STATISTICS.read_text(encoding="utf-8")
    m = re.search(r"^### Small samples and few clusters\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert m, "docs/statistics.md has no 'Small samples and few clusters' section"
    return m.group(1)


def _row(case: str, test: str = "bootstrap") -> tuple[float, float]:
    m = re.search(
        rf"^\| {re.escape(case)} \| {test} \| ([\d.]+) ± ([\d.]+) \|", _section(), flags=re.M
    )
    assert m, f"no row {case!r} / {test} in the size table"
    return float(m.group(1)), float(m.group(2))


def _frame(n: int, m: int = 5, seed: int = 0, groups: int | None = None) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 2, n)
    df = pd.DataFrame({"id": np.arange(n), "y": gold})
    for s in range(m):
        df[f"S{s}"] = np.where(rng.random(n) < 0.7, gold, 1 - gold)
    if groups:
        df["question"] = [f"Q{i % groups:03d}" for i in range(n)]
    return df


def _notes(df: pd.DataFrame, **kw) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = cr.analyze(
            cr.from_frame(df, id="id", name="small", cluster=kw.pop("cluster", None)),
            bootstrap=200,
            seed=1,
            **kw,
        )
    shown = [str(w.message) for w in caught]
    stored = res.competitions[0].warnings
    assert all(any(s in w for w in shown) for s in stored)
    return stored


def test_thresholds_are_the_docs():
    section = _section()
    items = re.search(r"fewer than \*\*(\d+) items\*\*", section)
    groups = re.search(r"fewer than \*\*(\d+) clusters\*\*", section)
    assert items and int(items.group(1)) == analysis.FEW_ITEMS
    assert groups and int(groups.group(1)) == clusters.FEW_CLUSTERS


def test_the_sizes_named_are_the_tables():
    n = analysis.SMALL_SAMPLE_N
    cases = {
        "accuracy": f"accuracy, n = {n}",
        "macro-F1 with a 3 % class": f"macro-F1, 3 % class, n = {n}",
    }
    for metric, measured in analysis.SMALL_SAMPLE_SIZE.items():
        assert _row(cases[metric]) == measured
    worst = max(_row(case, "randomization") for case in cases.values())
    assert worst == analysis.SMALL_SAMPLE_RANDOMIZATION
    for count, measured in clusters.CLUSTER_SIZE.items():
        assert _row(f"{count} clusters of 20") == measured
    worst = max(_row(f"{c} clusters of 20", "randomization") for c in clusters.CLUSTER_SIZE)
    assert worst == clusters.CLUSTER_RANDOMIZATION
    # the rule: liberal (above 5 % + 2 SE) below the threshold, within 2 SE at or above it
    for fwer, se in [*analysis.SMALL_SAMPLE_SIZE.values(), *clusters.CLUSTER_SIZE.values()]:
        assert fwer > 5 + 2 * se
    assert max(clusters.CLUSTER_SIZE) < clusters.FEW_CLUSTERS
    fwer, se = _row(f"{clusters.FEW_CLUSTERS} clusters of 20")
    assert fwer <= 5 + 2 * se
    held = ("accuracy, n = 100", "accuracy, n = 200", "macro-F1, 3 % class, n = 100")
    for case in (*held, "Pearson, t3 noise, n = 100"):
        fwer, se = _row(case)
        assert fwer <= 5 + 2 * se and int(case.rsplit(" ", 1)[1]) >= analysis.FEW_ITEMS


def test_fifty_items_warn_with_the_measured_size():
    notes = [w for w in _notes(_frame(50)) if "items" in w]
    assert len(notes) == 1
    sizes = sorted(f for f, _ in analysis.SMALL_SAMPLE_SIZE.values())
    lo, hi = sizes[0], sizes[-1]
    assert "only 50 items" in notes[0] and f"measured at {lo:g} %" in notes[0]
    assert f"to {hi:g} %" in notes[0] and "for a nominal 5 % (docs/statistics.md)" in notes[0]
    assert "test='randomization'" in notes[0]


def test_no_items_note_at_a_thousand_items_or_under_randomization():
    assert not any("items;" in w for w in _notes(_frame(1000)))
    assert not any("items;" in w for w in _notes(_frame(analysis.FEW_ITEMS)))
    assert not any("items;" in w for w in _notes(_frame(50), test="randomization"))


@pytest.mark.parametrize("groups", [20, 60])
def test_few_clusters_warn_with_the_measured_size(groups):
    df = _frame(4 * groups, groups=groups)
    (note,) = [w for w in _notes(df, cluster="question") if "clusters" in w]
    fwer = clusters.CLUSTER_SIZE[20][0]
    assert f"only {groups} clusters" in note and f"measured at {fwer:g} %" in note
    assert f"fewer than {clusters.FEW_CLUSTERS}" in note


@pytest.mark.parametrize("groups", [clusters.FEW_CLUSTERS, 150])
def test_no_cluster_note_from_the_threshold_on(groups):
    # with clusters they, not the items, are the unit: clusters of one item get no items note
    assert _notes(_frame(groups, groups=groups), cluster="question") == []
