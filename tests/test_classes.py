"""The best system's confusion matrix and per-class scores: stored by the analysis, shown by the
reports."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn import metrics as sk

from compreport.report import model
from compreport.report.figures.heatmaps import confusion_plot
from compreport.report.pages import html
from compreport.settings import Settings
from compreport.stats.analysis import analyze_competition
from compreport.stats.classes import NONE_LABEL, per_class
from conftest import make_competition


@pytest.fixture(scope="module")
def three_classes():
    """Gold in {neg, neu, pos}; the best system also predicts a label gold lacks and misses
    items."""
    rng = np.random.default_rng(3)
    n = 600
    gold = rng.choice(["neg", "neu", "pos"], n, p=[0.5, 0.2, 0.3])
    best = np.where(rng.random(n) < 0.75, gold, rng.choice(["neg", "neu", "pos", "mixed"], n))
    best[rng.choice(n, 7, replace=False)] = ""  # missing predictions (--missing wrong)
    other = np.where(rng.random(n) < 0.2, gold, rng.choice(["neg", "neu", "pos"], n))
    comp = make_competition(
        gold, np.stack([other, best]), systems=["other", "best"], metrics=["macro_f1"]
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return (
            comp,
            analyze_competition(comp, Settings(bootstrap=50, refine=False), progress=False),
            gold,
            best,
        )


def test_per_class_equals_scikit_learn(three_classes):
    comp, analysis, gold, best = three_classes
    c = analysis.classes
    assert c["system"] == analysis.primary.best == "best" and c["field"] == "label"
    assert c["labels"] == ["neg", "neu", "pos"] and c["predicted"] == [
        "neg",
        "neu",
        "pos",
        "mixed",
        NONE_LABEL,
    ]
    shown = np.where(best == "", NONE_LABEL, best)
    cm = sk.confusion_matrix(gold, shown, labels=c["predicted"])
    assert c["confusion"] == cm[:3].tolist()  # rows: the gold classes only
    p, r, f, n = sk.precision_recall_fscore_support(
        gold, shown, labels=c["labels"], zero_division=0
    )
    np.testing.assert_allclose(c["precision"], p, rtol=0, atol=1e-15)
    np.testing.assert_allclose(c["recall"], r, rtol=0, atol=1e-15)
    np.testing.assert_allclose(c["f1"], f, rtol=0, atol=1e-15)
    assert c["support"] == n.tolist()
    assert per_class(comp, "other", 0)["system"] == "other"


def test_reports_show_the_stored_per_class_scores(three_classes):
    _, analysis, _, _ = three_classes
    c = analysis.classes
    t = model.per_class(analysis, model.Format(decimals=3))
    assert [r.label for r in t.rows] == c["labels"]
    assert [r.cells["f1"].text for r in t.rows] == [f"{v:.3f}" for v in c["f1"]]
    fig = confusion_plot(analysis)
    image = next(im for im in fig.axes[0].images if im.get_gid() == "confusion-heatmap")
    cm = np.asarray(c["confusion"], dtype=float)
    np.testing.assert_allclose(np.asarray(image.get_array()), cm / cm.sum(axis=1, keepdims=True))
    assert {t.get_text() for t in fig.axes[0].texts} >= {f"{int(v):,}" for v in cm.ravel()}
    from compreport.stats.results import Analysis

    page = html.competition_html(
        Analysis(Settings(bootstrap=50, refine=False), [analysis]), analysis
    )
    assert "Per-class scores of the best system" in page and 'id="classes"' in page


def test_no_per_class_scores_for_a_score_metric():
    gold = np.arange(40) % 5
    comp = make_competition(gold, np.stack([gold, (gold + 1) % 5]), metrics=["mae"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = analyze_competition(comp, Settings(bootstrap=20, refine=False), progress=False)
    assert (
        a.classes is None
        and confusion_plot(a) is None
        and model.per_class(a, model.Format()) is None
    )
