"""Per-class scores and the confusion matrix of one system on the full test set.

Stored for the best system of every competition ranked by a classification metric
(:data:`CLASSIFICATION`), so the reports can show where the winner errs (a per-class table and a
confusion-matrix heat map) without computing anything themselves.
"""

from __future__ import annotations

import numpy as np

from compreport.inputs.competition import Competition
from compreport.inputs.structured import holds_sets, read_label_set
from compreport.stats.metrics.fields import NO_PREDICTION

#: Metrics read from a class-label field: a competition ranked by one gets :func:`per_class`.
CLASSIFICATION = frozenset(
    {
        "accuracy",
        "f1",
        "macro_f1",
        "micro_f1",
        "weighted_f1",
        "precision",
        "recall",
        "macro_precision",
        "macro_recall",
    }
)
#: The column of predictions that are missing (``--missing wrong``) in the confusion matrix.
NONE_LABEL = "(no prediction)"

#: A gold class with fewer items than this makes per-class scores (a macro average's F1, a binary
#: F1's class) unstable: item-bootstrap resamples hold it Binomial(n, n_c/n) times, a relative
#: spread of about 1/sqrt(n_c), none with probability about exp(-n_c). benchmarks/coverage.py
#: (macro-F1, docs/statistics.md): the 95 % percentile interval covers 0.86 with 2 items and 0.93
#: with 3, every miss on one side; about 0.95 from 5, its misses still lopsided up to 10 items at
#: n = 300.
SMALL_CLASS = 10


def _sorted(labels) -> list[str]:
    """Labels in numeric order when they are all numbers, else in text order."""
    labels = list(labels)
    try:
        return sorted(labels, key=float)
    except ValueError:
        return sorted(labels)


def per_class(comp: Competition, system: str, field: int) -> dict:
    """The confusion matrix and per-class scores of ``system`` on one field (full test set).

    Parameters
    ----------
    comp : Competition
        Gold and predictions.
    system : str
        A system of ``comp``.
    field : int
        The index of the label field.

    Returns
    -------
    dict
        ``system``, ``field`` (its name), ``labels`` (the gold classes, rows), ``predicted``
        (columns: the gold classes, then predicted labels gold lacks, then :data:`NONE_LABEL`
        when predictions are missing), ``confusion`` (rows × columns item counts: gold row,
        predicted column), and per gold class ``precision`` (of the items predicted as the
        class), ``recall``, ``f1`` (0 where undefined, as scikit-learn's ``zero_division=0``)
        and ``support`` (gold items).
    """
    gold = comp.gold[:, field]
    pred = comp.predictions[comp.systems.index(system), :, field]
    if holds_sets(gold):
        return per_label(comp, system, field)
    labels = _sorted(set(gold.tolist()))
    extra = _sorted(set(pred.tolist()) - set(labels) - {NO_PREDICTION})
    columns = labels + extra + ([NONE_LABEL] if (pred == NO_PREDICTION).any() else [])
    row = {lab: i for i, lab in enumerate(labels)}
    col = {lab: j for j, lab in enumerate(columns)} | {NO_PREDICTION: len(columns) - 1}
    cm = np.zeros((len(labels), len(columns)), dtype=np.int64)
    np.add.at(
        cm,
        (
            np.array([row[g] for g in gold.tolist()], dtype=np.int64),
            np.array([col[p] for p in pred.tolist()], dtype=np.int64),
        ),
        1,
    )
    k = len(labels)
    predicted = cm[:, :k].sum(axis=0).astype(float)
    support = cm.sum(axis=1).astype(float)
    return _scored(system, comp.fields[field], labels, columns, cm, predicted, support)


def per_label(comp: Competition, system: str, field: int) -> dict:
    """:func:`per_class` of a field of label sets (multi-label): per gold label, its precision,
    recall, F1 and support (gold items holding it), as scikit-learn's ``average=None`` on
    indicator matrices; ``confusion`` is the label co-occurrence matrix: items whose gold set
    holds the row's label and whose predicted set holds the column's (the diagonal: true
    positives), the columns the gold labels then the predicted labels gold lacks. A missing
    prediction is the empty set.

    >>> from compreport.inputs.competition import Competition, MetricSpec
    >>> c = Competition("t", "t", gold=np.array([['["a","b"]'], ['["b"]']]),
    ...                 predictions=np.array([[['["a"]'], ['["b","c"]']]]), systems=["s"],
    ...                 item_ids=np.array(["1", "2"]), metrics=[MetricSpec("macro_f1")])
    >>> r = per_label(c, "s", 0)
    >>> r["labels"], r["predicted"], r["confusion"], r["recall"]
    (['a', 'b'], ['a', 'b', 'c'], [[1, 0, 0], [1, 1, 1]], [1.0, 0.5])
    """
    gold = [read_label_set(v) if v else () for v in comp.gold[:, field].tolist()]
    col = comp.predictions[comp.systems.index(system), :, field].tolist()
    pred = [read_label_set(v) if v != NO_PREDICTION else () for v in col]
    labels = _sorted({x for s in gold for x in s})
    extra = _sorted({x for s in pred for x in s} - set(labels))
    columns = labels + extra
    row = {lab: i for i, lab in enumerate(labels)}
    at = {lab: j for j, lab in enumerate(columns)}
    cm = np.zeros((len(labels), len(columns)), dtype=np.int64)
    predicted = np.zeros(len(labels))
    for g, p in zip(gold, pred, strict=True):
        for x in g:
            for y in p:
                cm[row[x], at[y]] += 1
        for y in p:
            if y in row:
                predicted[row[y]] += 1
    support = np.array([sum(lab in g for g in gold) for lab in labels], dtype=float)
    return _scored(system, comp.fields[field], labels, columns, cm, predicted, support)


def _scored(system, field_name, labels, columns, cm, predicted, support) -> dict:
    """The dict of :func:`per_class` from the confusion matrix ``cm`` (its diagonal: the true
    positives of the gold labels, rows), the items predicted as each gold label and each one's
    gold support; precision, recall and F1 are 0 where undefined (``zero_division=0``)."""
    tp = np.diag(cm[:, : len(labels)]).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(predicted > 0, tp / predicted, 0.0)
        recall = np.where(support > 0, tp / support, 0.0)
        f1 = np.where(precision + recall > 0, 2 * precision * recall / (precision + recall), 0.0)
    return {
        "system": system,
        "field": field_name,
        "labels": labels,
        "predicted": columns,
        "confusion": cm.tolist(),
        "precision": precision.tolist(),
        "recall": recall.tolist(),
        "f1": f1.tolist(),
        "support": support.astype(int).tolist(),
    }


def label_support(gold: np.ndarray) -> dict[str, int]:
    """Gold items of each class: of each label, when the gold holds label sets (multi-label: an
    item counts for every label of its set).

    >>> label_support(np.array(["a", "b", "a"]))
    {'a': 2, 'b': 1}
    >>> label_support(np.array(['["a","b"]', '["a"]', "[]"]))
    {'a': 2, 'b': 1}
    """
    values, counts = np.unique(gold, return_counts=True)
    if not holds_sets(values):
        return dict(zip(values.tolist(), counts.tolist()))
    support: dict[str, int] = {}
    for value, count in zip(values.tolist(), counts.tolist()):
        for lab in read_label_set(value):
            support[lab] = support.get(lab, 0) + int(count)
    return dict(sorted(support.items()))


def small_classes(
    comp: Competition, class_scores: dict, threshold: int = SMALL_CLASS
) -> list[tuple[str, str, int]]:
    """The gold classes with fewer than ``threshold`` items among those a metric's score uses.

    Parameters
    ----------
    comp : Competition
        Gold labels.
    class_scores : dict of int to (list of str or None)
        The metric's :attr:`~compreport.stats.metrics.base.Prepared.class_scores`: per field, the
        labels whose per-class statistics it uses (None: every gold class).
    threshold : int
        Default :data:`SMALL_CLASS`.

    Returns
    -------
    list of (str, str, int)
        ``(field name, label, items)`` of each class with at least one and fewer than
        ``threshold`` items, by field then by label.
    """
    out = []
    for f, labels in sorted(class_scores.items()):
        support = label_support(comp.gold[:, f])
        wanted = _sorted(support) if labels is None else [lab for lab in labels if lab in support]
        out += [(comp.fields[f], lab, support[lab]) for lab in wanted if support[lab] < threshold]
    return out
