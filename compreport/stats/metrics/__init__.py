"""Metric registry: each metric knows its orientation, ideal value and sufficient statistics.

A metric is *prepared* against a :class:`~compreport.inputs.competition.Competition`, which
validates its parameters and data and returns a :class:`~compreport.stats.metrics.base.Prepared`
object. Decomposable metrics (everything but ``spearman``, ``roc_auc`` and user metrics in the
label form) turn each test item into a row of additive statistics; the metric of any resample is
then a function of the weighted sum of those rows (``finalize``), so a bootstrap replicate costs a
matrix product, not a metric call. Non-decomposable metrics provide ``evaluate(idx)``.

Conventions: scores are floats in the metric's own units; ``higher_is_better`` gives the
orientation; undefined ratios (0/0) count as 0, as scikit-learn's ``zero_division=0``.

Modules: :mod:`.base` (the interface), :mod:`.fields` (reading a field as codes or numbers),
:mod:`.classification`, :mod:`.multilabel` (label sets), :mod:`.numeric` (errors, correlations,
ROC AUC), :mod:`.restmex` (``measure_s``, ``measure_c``), :mod:`.composite` (weighted means of
other measures), :mod:`.confusion` (kappa, MCC, log loss...), :mod:`.itemscores` (``mean``,
``ratio`` of a scorer's per-item numbers), :mod:`.spans` (``span_f1``, ``relation_f1``, their
precision and recall), :mod:`.icm` (the ICM family and soft labels) and :mod:`.user`
(``file.py:function``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from compreport.errors import InputError, suggest
from compreport.stats.metrics.base import Metric
from compreport.stats.metrics.classification import ClassificationMetric
from compreport.stats.metrics.composite import CompositeMetric
from compreport.stats.metrics.confusion import ConfusionMetric, ProbabilisticMetric
from compreport.stats.metrics.icm import IcmMetric, IcmSoftMetric, SoftItemMetric
from compreport.stats.metrics.itemscores import MeanScore, RatioScore
from compreport.stats.metrics.numeric import (
    ErrorMetric,
    PearsonMetric,
    RocAucMetric,
    SpearmanMetric,
)
from compreport.stats.metrics.ranking import RankingMetric, ranking_metric
from compreport.stats.metrics.restmex import MeasureC, MeasureS
from compreport.stats.metrics.spans import RelationMetric, SpanMetric
from compreport.stats.metrics.user import UserMetric

__all__ = ["REGISTRY", "get_metric"]

#: What each group of metrics reads (``Metric.reads``), in the order ``compreport metrics`` lists
#: the groups.
LABELS_OR_SETS = "one label, or a label set, per item"
SETS = "a label set per item (multi-label)"
NUMBERS = "a number per item"
FIELDS = "several fields per item"


def _register(metrics: dict[str, Metric], metric: Metric, reads: str | None = None) -> None:
    """Add ``metric`` to ``metrics`` under its name, told what it reads."""
    if reads is not None:
        metric.reads = reads
    metrics[metric.name] = metric


def _built_in() -> dict[str, Metric]:
    """Every built-in metric by name."""
    metrics: dict[str, Metric] = {}
    for name, desc in [
        ("accuracy", "fraction of items predicted correctly (label sets: the whole set)"),
        ("precision", "precision of the class `pos_label`"),
        ("recall", "recall of the class `pos_label`"),
        ("f1", "F1 of the class `pos_label` (binary F1; label sets: of that label)"),
        ("macro_f1", "F1 averaged over classes or labels of label sets (optional `labels`)"),
        ("micro_f1", "F1 from counts pooled over classes or labels (optional `labels`)"),
        ("weighted_f1", "F1 averaged over classes weighted by gold support"),
        ("macro_precision", "precision averaged over classes (optional `labels` subset)"),
        ("macro_recall", "recall averaged over classes (optional `labels` subset)"),
    ]:
        _register(metrics, ClassificationMetric(name, desc), LABELS_OR_SETS)
    for name, desc in [
        (
            "samples_f1",
            "label sets: F1 of each item's predicted and gold sets, averaged over items",
        ),
        ("hamming_loss", "label sets: fraction of (item, label) pairs predicted wrongly"),
        (
            "subset_accuracy",
            "label sets: fraction of items whose predicted set equals the gold set",
        ),
    ]:
        _register(metrics, ClassificationMetric(name, desc), SETS)
    for name, desc in [
        ("kappa", "Cohen's kappa: agreement beyond chance"),
        ("qwk", "quadratic-weighted kappa (ordinal labels: order from `labels`, or numeric)"),
        ("mcc", "Matthews correlation coefficient (multiclass)"),
        ("balanced_accuracy", "recall averaged over the classes of gold"),
    ]:
        _register(metrics, ConfusionMetric(name, desc))
    for name, desc in [
        ("log_loss", "log loss of predicted probabilities (soft labels, or P(`pos_label`))"),
        ("brier", "Brier score of predicted probabilities (soft labels, or P(`pos_label`))"),
    ]:
        _register(
            metrics,
            ProbabilisticMetric(name, desc),
            "probabilities per item (a soft label, or P(pos_label))",
        )
    for name, desc in [
        ("mae", "mean absolute error (numeric predictions)"),
        ("mse", "mean squared error (numeric predictions)"),
        ("rmse", "root mean squared error (numeric predictions)"),
        ("mape", "mean absolute percentage error, as a fraction (numeric predictions)"),
    ]:
        _register(metrics, ErrorMetric(name, desc), NUMBERS)
    for m in (
        PearsonMetric(),
        SpearmanMetric(),
        RocAucMetric(),
        MeasureS(),
        MeasureC(),
        CompositeMetric(lambda name: _builtin(name), lambda: list(REGISTRY)),
        MeanScore(),
        RatioScore(),
        RankingMetric("map", None),
        RankingMetric("mrr", None),
        SpanMetric(
            "span_f1", "f1", "span (entity) F1 of documents' mentions (`match`, `average`, `codes`)"
        ),
        SpanMetric("span_precision", "precision", "span (entity) precision (`match`, `average`)"),
        SpanMetric("span_recall", "recall", "span (entity) recall (`match`, `average`)"),
        SpanMetric(
            "span_f1_overlap", "f1", "span F1, overlapping spans match (MEDDOPLACE)", "overlap"
        ),
        SpanMetric(
            "span_precision_overlap", "precision", "span precision, overlap match", "overlap"
        ),
        SpanMetric("span_recall_overlap", "recall", "span recall, overlap match", "overlap"),
        RelationMetric("relation_f1", "f1", "relation F1 over documents' brat R lines (`average`)"),
        RelationMetric("relation_precision", "precision", "relation precision (`average`)"),
        RelationMetric("relation_recall", "recall", "relation recall (`average`)"),
        IcmMetric("icm", "ICM, Information Contrast Model (PyEvALL; flat or `hierarchy`)", False),
        IcmMetric("icm_norm", "ICM-Norm: ICM normalised by the gold's own ICM, clipped at 0", True),
        IcmSoftMetric("icm_soft", "ICM-Soft on soft labels (PyEvALL; option `reestimate`)", False),
        IcmSoftMetric(
            "icm_soft_norm", "ICM-Soft-Norm: ICM-Soft normalised by the gold's own", True
        ),
        SoftItemMetric("cross_entropy", "cross-entropy of soft labels, in bits (PyEvALL's CE)"),
        SoftItemMetric(
            "soft_mae", "mean absolute error of soft labels over gold classes (PyEvALL)"
        ),
    ):
        _register(metrics, m)
    return metrics


#: Built-in metrics by name (fixed at import: a user's metric is a ``file.py:function`` name,
#: loaded by :func:`get_metric`, and is not registered here).
REGISTRY: Mapping[str, Metric] = MappingProxyType(_built_in())


def get_metric(name: str, base: Path | None = None) -> Metric:
    """Look a metric up by name; ``file.py:function`` loads a user metric.

    Parameters
    ----------
    name : str
        A :data:`REGISTRY` name or ``path/to/file.py:function``.
    base : Path or None
        Directory a user metric's relative path is resolved against.

    Returns
    -------
    Metric

    Raises
    ------
    InputError
        For an unknown name (with a "did you mean") or a user metric that cannot be loaded.

    Examples
    --------
    >>> mae = get_metric("mae")
    >>> mae.higher_is_better, mae.ideal
    (False, 0.0)
    >>> get_metric("ndcg@10").name
    'ndcg@10'
    """
    if name in REGISTRY:
        return REGISTRY[name]
    ranking = ranking_metric(name)
    if ranking is not None:
        return ranking
    if ":" in name and name.rpartition(":")[0].endswith(".py"):
        return UserMetric(name, base)
    raise InputError(
        f"unknown metric {name!r}{suggest(name, list(REGISTRY))}; "
        f"`compreport metrics` lists them, or use path/to/file.py:function"
    )


def _builtin(name: str) -> Metric | None:
    """The built-in measure ``name`` names (a registry name or a ranking metric cut at k), or
    None: a composite's part (:mod:`.composite`)."""
    return REGISTRY.get(name) or ranking_metric(name)
