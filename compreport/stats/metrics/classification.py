"""Classification metrics (accuracy, precision, recall, F1 and their averages) from class counts."""

from __future__ import annotations

import numpy as np

from compreport.errors import InputError, option
from compreport.inputs.competition import Competition
from compreport.inputs.structured import holds_sets
from compreport.stats.metrics.base import (
    Metric,
    Prepared,
    mixture_swapped,
    present_labels,
    safe_divide,
)
from compreport.stats.metrics.fields import Encoded, encode, field_index
from compreport.stats.metrics.multilabel import SET_ONLY, prepare_sets

#: The metrics of one class, ``pos_label``.
_BINARY = frozenset({"precision", "recall", "f1"})
#: The averages over a label set (each system's own unless ``labels`` is given).
_AVERAGED = frozenset({"macro_f1", "micro_f1", "weighted_f1", "macro_precision", "macro_recall"})


def _onehot(codes: np.ndarray, k: int) -> np.ndarray:
    """(..., ) int codes -> (..., k) float one-hot."""
    out = np.zeros(codes.shape + (k,))
    np.put_along_axis(out, codes[..., None], 1.0, axis=-1)
    return out


def confusion_stats(rows: np.ndarray, k: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-item class counts of gold and of every system.

    Parameters
    ----------
    rows : ndarray, shape (R, 1 + m)
        Label codes (0..k-1) of gold, then of the m systems.
    k, m : int
        Labels and systems.

    Returns
    -------
    gold : ndarray, shape (R, k)
        One-hot gold label.
    per_system : ndarray, shape (R, m, 2k)
        One-hot true positives, then one-hot predicted label.
    """
    g = rows[:, 0].astype(np.int64)
    p = rows[:, 1 : 1 + m].astype(np.int64)
    gs = _onehot(g, k)
    pp = _onehot(p, k)
    tp = pp * (p == g[:, None])[..., None]
    return gs, np.concatenate([tp, pp], axis=-1)


def f1_per_class(tp, pp, gs) -> np.ndarray:
    """F1 of each class from true positives, predicted and gold counts (0 where undefined)."""
    return safe_divide(2 * tp, pp + gs)


def label_mask(comp: Competition, enc: Encoded, params: dict) -> np.ndarray:
    """(m, k) boolean: the labels each system's scores average over.

    ``params["labels"]`` (list or comma string, normalised to a list in place) when given,
    else every label in gold or in that system's predictions (scikit-learn's default); never the
    code of a missing prediction (:attr:`Encoded.missing`), which is no class.
    """
    m, k = comp.m, enc.k
    if params.get("labels"):
        labels = params["labels"]
        if isinstance(labels, str):
            labels = [x.strip() for x in labels.split(",") if x.strip()]
        params["labels"] = list(labels)
        codes = [enc.code(comp, lab, f"label in {option('labels')}") for lab in labels]
        mask = np.zeros((m, k), dtype=bool)
        mask[:, codes] = True
        return mask
    present_gold = np.bincount(enc.gold, minlength=k) > 0
    mask = np.zeros((m, k), dtype=bool)
    for s in range(m):
        mask[s] = present_gold | (np.bincount(enc.pred[s], minlength=k) > 0)
    if enc.missing is not None:
        mask[:, enc.missing] = False
    return mask


class ClassificationMetric(Metric):
    """Accuracy and the precision/recall/F1 family, from per-class counts.

    ``f1``/``precision``/``recall`` score the class ``pos_label`` (default: ``1`` when the
    labels are ``0``/``1``). Averaged variants average over ``labels`` when given, else over
    every label seen in gold or in that system's predictions (scikit-learn's default).

    Parameters
    ----------
    name : str
        ``accuracy``, ``precision``, ``recall``, ``f1``, ``macro_f1``, ``micro_f1``,
        ``weighted_f1``, ``macro_precision`` or ``macro_recall``.
    description : str
        One line for ``compreport metrics``.
    """

    def __init__(self, name: str, description: str):
        self.name = name
        self.description = description
        if name == "hamming_loss":  # an error rate: lower is better
            self.higher_is_better, self.ideal = False, 0.0
        self.allowed = (
            ("field", "pos_label")
            if name in _BINARY
            else ("field", "labels")
            if name in _AVERAGED or name in SET_ONLY
            else ("field",)
        )

    def _pos(self, comp: Competition, enc: Encoded, params: dict) -> int:
        if "pos_label" not in params:
            gold_labels = sorted(set(enc.labels[c] for c in np.unique(enc.gold)))
            if set(gold_labels) in ({"0", "1"}, {"1"}):
                params["pos_label"] = 1
            else:
                raise InputError(
                    f"competition {comp.id!r}: metric {self.name!r} needs `pos_label` "
                    f"(labels: {', '.join(enc.labels)}); pass {option('pos_label', 'LABEL')}"
                )
        return enc.code(comp, params["pos_label"], option("pos_label"))

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        """Bind to label codes of one field; see :meth:`Metric.prepare`."""
        params = self.check_params(params)
        f = field_index(comp, params)
        if holds_sets(comp.gold[:, f]):
            return prepare_sets(self, comp, params, f)
        if self.name in SET_ONLY:
            where = comp.gold_source.path if comp.gold_source else f"competition {comp.id!r}"
            raise InputError(
                f"{where}: metric {self.name!r} reads label sets, and the gold field "
                f"{comp.fields[f]!r} holds one label per item (give the gold label sets: JSON "
                f"arrays, or {option('multi_label', 'SEP')} for a delimited cell)"
            )
        enc = encode(comp, f, self.name)
        m, k = comp.m, enc.k
        columns = np.column_stack([enc.gold, enc.pred.T]).astype(np.float64)
        name = self.name
        if name == "accuracy":

            def stats(rows):
                g = rows[:, :1]
                return np.zeros((len(rows), 0)), (rows[:, 1 : 1 + m] == g)[..., None].astype(
                    np.float64
                )

            def finalize(shared, sys, count, systems=None):
                return safe_divide(sys[..., 0], np.asarray(count)[..., None])
        elif name in _BINARY:
            pos = self._pos(comp, enc, params)

            def stats(rows):
                g = rows[:, 0] == pos
                p = rows[:, 1 : 1 + m] == pos
                return g[:, None].astype(np.float64), np.stack([p & g[:, None], p], axis=-1).astype(
                    np.float64
                )

            def finalize(shared, sys, count, systems=None):
                tp, pp, gs = sys[..., 0], sys[..., 1], shared[..., [0]]
                if name == "precision":
                    return safe_divide(tp, pp)
                if name == "recall":
                    return safe_divide(tp, gs)
                return safe_divide(2 * tp, pp + gs)
        else:
            full_mask = label_mask(comp, enc, params)

            def stats(rows):
                return confusion_stats(rows, k, m)

            def finalize(shared, sys, count, systems=None, mixed=False):
                gs = shared[..., None, :]
                tp, pp = sys[..., :k], sys[..., k:]
                mask = full_mask if systems is None else full_mask[systems]
                if mixed and not params.get("labels"):  # the mixture's own labels
                    mask = present_labels(gs, pp, enc.missing)
                if name == "micro_f1":
                    return safe_divide(2 * (tp * mask).sum(-1), ((pp + gs) * mask).sum(-1))
                if name == "weighted_f1":
                    w = gs * mask
                    return safe_divide((f1_per_class(tp, pp, gs) * w).sum(-1), w.sum(-1))
                per = {
                    "macro_f1": lambda: f1_per_class(tp, pp, gs),
                    "macro_precision": lambda: safe_divide(tp, pp),
                    "macro_recall": lambda: safe_divide(tp, np.broadcast_to(gs, tp.shape)),
                }[name]()
                return (per * mask).sum(-1) / mask.sum(-1)

        return self._prepared(
            params,
            columns=columns,
            stats=stats,
            finalize=finalize,
            swapped=mixture_swapped(finalize) if name in _AVERAGED else None,
            label_fields=[f],
            cells=k,
            class_scores=self._class_scores(f, params),
        )

    def _class_scores(self, f: int, params: dict) -> dict:
        """:attr:`Prepared.class_scores`: the class ``pos_label`` of the binary metrics, the classes
        averaged by the macro averages (``labels``, or every gold class); none for accuracy,
        micro-F1 (pooled counts) and weighted F1 (a class weighs its share of the items)."""
        if self.name in _BINARY:
            return {f: [str(params["pos_label"])]}
        if self.name in ("macro_f1", "macro_precision", "macro_recall"):
            return {f: [str(x) for x in params["labels"]] if params.get("labels") else None}
        return {}

    def reference(self, gold, pred, pos_label=None, labels=None, field=None):
        """scikit-learn's score with ``zero_division=0``; see :meth:`Metric.reference`."""
        from sklearn import metrics as sk

        if self.name == "accuracy":
            return sk.accuracy_score(gold, pred)
        if self.name in _BINARY:
            fn = {"precision": sk.precision_score, "recall": sk.recall_score, "f1": sk.f1_score}[
                self.name
            ]
            return fn(gold, pred, labels=[str(pos_label)], average="macro", zero_division=0)
        kind, avg = self.name.split("_")
        fn = {"f1": sk.f1_score, "precision": sk.precision_score, "recall": sk.recall_score}[avg]
        return fn(gold, pred, labels=labels, average=kind, zero_division=0)
