"""One field of a competition's string cells, as metrics read it: label codes, numbers or scores."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from compreport.errors import InputError, option, suggest
from compreport.inputs.competition import Competition
from compreport.inputs.structured import is_set_text


def field_index(comp: Competition, params: dict, key: str = "field", default: int = 0) -> int:
    """The column of the field that ``params[key]`` names, or ``default`` when it names none.

    Raises
    ------
    InputError
        For an unknown field name (with a "did you mean").
    """
    name = params.get(key)
    if name is None:
        return default
    if name not in comp.fields:
        raise InputError(
            f"competition {comp.id!r}: `{key}` {name!r} is not a field "
            f"(fields: {', '.join(comp.fields)}){suggest(str(name), comp.fields)}"
        )
    return comp.fields.index(name)


#: How a missing prediction is held in ``Competition.predictions`` (``--missing wrong``): no label
#: is empty.
NO_PREDICTION = ""


def missing_error(comp: Competition, s: int, i: int, f: int, metric: str, what: str) -> InputError:
    """The error of a metric that reads ``what`` (numbers, scores) when system ``s`` has no
    prediction for item ``i`` (field ``f``)."""
    return InputError(
        f"{comp.locate(s, i, f)}: system {comp.systems[s]!r} has no prediction for item "
        f"{str(comp.item_ids[i])!r}, and metric {metric!r} reads {what}: a missing prediction "
        f"is scored as a wrong answer only by metrics of labels (accuracy, F1, ...); give every "
        f"item a value"
    )


def first_set(comp: Competition, f: int) -> tuple[int | None, int] | None:
    """``(system, item)`` of the first label set of field ``f``: in gold (system None), else in the
    runs in order; None when there is none."""
    for s, col in [(None, comp.gold[:, f]), *enumerate(comp.predictions[:, :, f])]:
        starts = np.flatnonzero(np.char.startswith(col.astype(str), "["))
        for i in starts:
            if is_set_text(str(col[i])):
                return s, int(i)
    return None


def sets_error(comp: Competition, f: int, metric: str) -> InputError | None:
    """The error of a metric that reads one label per item when field ``f`` holds label sets, or
    when its gold is single-label and a run gives a set; None when there is no set."""
    where = first_set(comp, f)
    if where is None:
        return None
    s, i = where
    value = str((comp.gold if s is None else comp.predictions[s])[i, f])
    if s is None:
        return InputError(
            f"{comp.locate(None, i, f)}: the gold value {value} is a label set (multi-label); "
            f"metric {metric!r} reads one label per item (on label sets: accuracy, f1, "
            f"macro_f1, micro_f1, weighted_f1, macro_precision, macro_recall, samples_f1, "
            f"hamming_loss, subset_accuracy)"
        )
    return InputError(
        f"{comp.locate(s, i, f)}: system {comp.systems[s]!r} gives the label set {value} where "
        f"the gold holds one label per item; give the run one label per item, or the gold label "
        f"sets (JSON arrays, or {option('multi_label', 'SEP')} for a delimited cell)"
    )


@dataclass
class Encoded:
    """Labels of one field coded 0..K-1 (labels sorted as strings).

    Attributes
    ----------
    labels : list of str
        The K labels seen in gold or in any prediction; code ``c`` is ``labels[c]``.
    gold : ndarray of int, shape (n,)
        The gold codes.
    pred : ndarray of int, shape (m, n)
        Every system's codes.
    missing : int or None
        The code of a missing prediction (:data:`NO_PREDICTION`, ``--missing wrong``): it matches
        no gold class, so it is a wrong answer, and it is no class of the averaged metrics (a miss
        of the gold class and a false positive of no class, as the SemEval scorers count it). None
        when no prediction is missing.
    """

    labels: list[str]
    gold: np.ndarray
    pred: np.ndarray
    missing: int | None = None

    @property
    def k(self) -> int:
        """Number of labels."""
        return len(self.labels)

    def code(self, comp: Competition, label, what: str) -> int:
        """The code of a user-given ``label``; InputError naming ``what`` when it is not a label."""
        s = str(label)
        if s not in self.labels or s == NO_PREDICTION:
            where = comp.gold_source.path if comp.gold_source else f"competition {comp.id!r}"
            raise InputError(
                f"{where}: {what} {s!r} is not among the labels of gold and predictions "
                f"({', '.join(self.labels)}){suggest(s, self.labels)}"
            )
        return self.labels.index(s)


#: A system may predict at most max(UNSEEN_LABELS, 2 x gold classes) distinct labels gold lacks.
UNSEEN_LABELS = 50


def unseen_limit(gold_classes: int) -> int:
    """How many distinct labels missing from gold one system may predict: max(50, 2 x classes).

    A few unseen labels are a typo or a class the test set lacks (a warning); more than that is a
    column of probabilities, scores or free text read as labels, whose per-class counts would grow
    as items x systems x labels (n = 10,000 probabilities under macro-F1: a 4.4 GiB array).
    """
    return max(UNSEEN_LABELS, 2 * gold_classes)


def _codes(
    gold_values: np.ndarray, pred_values: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The sorted labels of gold and predictions, and the codes of both (int64), as
    ``np.unique(..., return_inverse=True)`` over all of them gives them: the gold's labels are
    sorted (n strings), the predictions found among them by binary search (m x n), and only the
    predicted labels gold lacks sorted besides (sorting all m x n strings takes seconds on 10^7)."""
    labels, gold = np.unique(gold_values, return_inverse=True)
    pred = np.searchsorted(labels, pred_values)
    if labels.size:
        lacking = labels[np.minimum(pred, labels.size - 1)] != pred_values
        if lacking.any():  # predicted labels gold lacks: the union, and everything coded again
            labels = np.union1d(labels, pred_values[lacking])
            gold, pred = np.searchsorted(labels, gold_values), np.searchsorted(labels, pred_values)
    else:
        labels = np.unique(pred_values)
        pred = np.searchsorted(labels, pred_values)
    return labels, gold.astype(np.int64, copy=False).reshape(-1), pred.astype(np.int64, copy=False)


def encode(comp: Competition, f: int, metric: str = "") -> Encoded:
    """Code field ``f`` of gold and of every system's predictions with one shared label list.

    Raises
    ------
    InputError
        Naming the run file, the count and examples, when a system predicts more distinct labels
        missing from gold than :func:`unseen_limit` allows; naming the first label set (in the
        gold, else in a run) when the field holds one (:func:`sets_error`, ``metric`` reads one
        label per item).
    """
    m = comp.m
    labels, gold, pred = _codes(comp.gold[:, f], comp.predictions[:, :, f])
    if any(str(x).startswith("[") and is_set_text(str(x)) for x in labels):
        raise sets_error(comp, f, metric or "this metric")
    in_gold = np.zeros(len(labels), dtype=bool)
    in_gold[gold] = True
    missing = 0 if len(labels) and labels[0] == NO_PREDICTION else None  # "" sorts first
    not_label = in_gold.copy()
    if missing is not None:
        not_label[missing] = True  # a missing prediction is not a label gold lacks
    classes = int(in_gold.sum())
    limit = unseen_limit(classes)
    if len(labels) - int(not_label.sum()) > limit:
        for s in range(m):
            items = np.flatnonzero(~not_label[pred[s]])  # items whose predicted label gold lacks
            unseen, first = np.unique(pred[s][items], return_index=True)
            if len(unseen) > limit:
                first = items[np.sort(first)[:3]]  # the first items of the first three such labels
                item = int(first[0])
                examples = ", ".join(repr(str(labels[c])) for c in pred[s][first])
                gold_shown = ", ".join(repr(str(x)) for x in labels[in_gold][:5]) + (
                    ", ..." if classes > 5 else ""
                )
                field = f" in field {comp.fields[f]!r}" if len(comp.fields) > 1 else ""
                raise InputError(
                    f"{comp.locate(s, item, f)}: system {comp.systems[s]!r} predicts "
                    f"{len(unseen)} distinct labels{field} that gold does not have "
                    f"(e.g. {examples}; gold has {classes}: {gold_shown}); more than {limit} is "
                    f"refused: a label column holds classes, not probabilities, scores or free "
                    f"text (for scores use a metric such as roc_auc or pearson)"
                )
    return Encoded([str(x) for x in labels], gold, pred, missing)


def _float_or_nan(v) -> float:
    try:
        return float(v)
    except ValueError:
        return float("nan")


def to_float(comp: Competition, f: int, metric: str) -> tuple[np.ndarray, np.ndarray]:
    """Field ``f`` of gold and predictions as floats.

    Returns
    -------
    gold : ndarray, shape (n,)
    pred : ndarray, shape (m, n)

    Raises
    ------
    InputError
        At the first cell that is not a finite number (or a missing prediction), naming
        ``metric``.
    """

    def conv(values: np.ndarray, system: int | None) -> np.ndarray:
        try:
            out = values.astype(np.float64)
        except ValueError:
            out = None
        if out is not None and np.isfinite(out).all():
            return out
        if system is not None and (values == NO_PREDICTION).any():
            raise missing_error(
                comp, system, int(np.argmax(values == NO_PREDICTION)), f, metric, "numbers"
            )
        for i, v in enumerate(values):
            try:
                ok = np.isfinite(float(v))
            except ValueError:
                ok = False
            if not ok and is_set_text(str(v)):
                raise sets_error(comp, f, metric)
            if not ok:
                raise InputError(
                    f"{comp.locate(system, i, f)}: value {str(v)!r} is not a finite number "
                    f"(metric {metric!r} needs numbers)"
                )
        raise AssertionError("unreachable")  # pragma: no cover

    gold = conv(comp.gold[:, f], None)
    pred = np.stack([conv(comp.predictions[s, :, f], s) for s in range(comp.m)])
    return gold, pred


def to_scores(comp: Competition, f: int, metric: str, unscored: bool = False) -> np.ndarray:
    """Field ``f`` of the predictions as floats, shape (m, n) (gold may hold labels).

    ``unscored``: a missing prediction is NaN (a ranking metric's candidate not retrieved) instead
    of an error.

    Raises
    ------
    InputError
        At the first cell that is not a finite number, naming ``metric``.
    """
    out = np.full((comp.m, comp.n), np.nan)
    for s in range(comp.m):
        col = comp.predictions[s, :, f]
        given = col != NO_PREDICTION if unscored else np.ones(comp.n, dtype=bool)
        try:
            out[s, given] = col[given].astype(np.float64)
        except ValueError:
            # some cell is not a number: each on its own, so the error names that one
            out[s, given] = [_float_or_nan(v) for v in col[given]]
        bad = given & ~np.isfinite(out[s])
        if bad.any():
            if not unscored and (col == NO_PREDICTION).any():
                raise missing_error(
                    comp, s, int(np.argmax(col == NO_PREDICTION)), f, metric, "scores"
                )
            i = int(np.argmax(bad))
            raise InputError(
                f"{comp.locate(s, i, f)}: value {str(col[i])!r} is not a finite number "
                f"(metric {metric!r} needs scores)"
            )
    return out
