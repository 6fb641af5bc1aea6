"""Classification metrics on label sets (multi-label), as scikit-learn's multilabel averages.

A field is *multi-label* when its gold holds label sets (canonical JSON arrays,
:mod:`compreport.inputs.structured`); a plain label there, in gold or in a run, reads as a set of
one. Every distinct value of the field (gold and predictions) gets a code and a row of a 0/1
indicator table over the label universe (scikit-learn's ``MultiLabelBinarizer``), so an item's
statistics are a function of its gold code and of each system's code:

- per label, true positives and predicted positives per system, and gold positives (``macro_f1``,
  ``micro_f1``, ``weighted_f1``, ``macro_precision``, ``macro_recall``, and ``f1``, ``precision``,
  ``recall`` of the label ``pos_label``), summed over items; the averages follow scikit-learn's
  ``average="macro" | "micro" | "weighted"`` on indicator matrices, ``zero_division=0``;
- per item, the F1 of its two sets (``samples_f1``: their mean, ``average="samples"``; 0 when both
  are empty; kept as its numerator in the column of its denominator, so that every sum is of
  integers and exact), the number of labels on which they differ (``hamming_loss``: divided
  by the number of labels), whether they are equal (``subset_accuracy``, and ``accuracy`` on
  sets, as ``accuracy_score`` on indicator matrices).

The labels averaged over are ``labels`` when given (then every label of the gold and of the runs
must be one of them: they declare the universe), else those in the gold or in that system's
predictions (a label no one uses counts for no one). A missing prediction (``--missing wrong``)
is the empty set, and never equals the gold set.

Examples
--------
>>> from compreport.inputs.competition import Competition, MetricSpec
>>> from compreport.stats.metrics import get_metric
>>> gold = np.array([['["a","b"]'], ['["b"]'], ['[]']])
>>> runs = np.array([[['["a"]'], ['["b"]'], ['[]']], [['["a","b"]'], ['["a"]'], ['["c"]']]])
>>> comp = Competition("demo", "demo", gold=gold, predictions=runs, systems=["s1", "s2"],
...                    item_ids=np.array(["1", "2", "3"]), metrics=[MetricSpec("macro_f1")])
>>> def score(name):
...     p = get_metric(name).prepare(comp, {})
...     shared, per = p.stats(p.columns)
...     return p.finalize(shared.sum(0), per.sum(0), 3).round(4).tolist()
>>> score("macro_f1"), score("samples_f1"), score("hamming_loss"), score("subset_accuracy")
([0.8333, 0.4444], [0.5556, 0.3333], [0.1667, 0.3333], [0.6667, 0.3333])
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from compreport.errors import InputError, option, suggest
from compreport.inputs.competition import Competition
from compreport.inputs.structured import is_set_text
from compreport.stats.metrics.base import Prepared, mixture_swapped, present_labels, safe_divide
from compreport.stats.metrics.fields import NO_PREDICTION, _codes

#: Metrics that read label sets only (single-label gold is refused).
SET_ONLY = frozenset({"samples_f1", "hamming_loss", "subset_accuracy"})


@dataclass
class SetCoded:
    """A multi-label field coded: every distinct value, its code and its indicator row.

    Attributes
    ----------
    labels : list of str
        The label universe (columns of :attr:`table`), sorted.
    table : ndarray of bool, shape (U, L)
        The labels of each distinct value (a missing prediction: none).
    gold : ndarray of int, shape (n,)
    pred : ndarray of int, shape (m, n)
        Codes of the values (rows of :attr:`table`).
    missing : int or None
        The code of a missing prediction, if any.
    """

    labels: list[str]
    table: np.ndarray
    gold: np.ndarray
    pred: np.ndarray
    missing: int | None


def _where(comp: Competition, code_gold: np.ndarray, code_pred: np.ndarray, bad) -> tuple:
    """``(system, item)`` of the first value whose code is in ``bad`` (gold first)."""
    bad = np.asarray(sorted(bad))
    hit = np.flatnonzero(np.isin(code_gold, bad))
    if hit.size:
        return None, int(hit[0])
    for s, row in enumerate(code_pred):
        hit = np.flatnonzero(np.isin(row, bad))
        if hit.size:
            return s, int(hit[0])
    raise AssertionError("unreachable")  # pragma: no cover


def encode_sets(comp: Competition, f: int, metric: str, declared: list[str] | None) -> SetCoded:
    """Code field ``f`` as label sets (:class:`SetCoded`).

    Raises
    ------
    InputError
        Naming the file and line of the first value that is no label set and no label (a soft
        label, mentions), or, with ``declared`` labels, of the first value holding another label.
    """
    values, gold, pred = _codes(comp.gold[:, f], comp.predictions[:, :, f])
    pred = pred.reshape(comp.m, comp.n)
    sets: list[tuple[str, ...]] = []
    for code, v in enumerate(values.tolist()):
        if v == NO_PREDICTION:
            sets.append(())
        elif v.startswith("[") and is_set_text(v):
            sets.append(tuple(json.loads(v)))
        elif v.startswith(("[", "{")):
            s, i = _where(comp, gold, pred, [code])
            raise InputError(
                f"{comp.locate(s, i, f)}: value {v} is neither a label nor a label set "
                f"(metric {metric!r} reads label sets)"
            )
        else:
            sets.append((v,))
    universe = sorted({lab for labs in sets for lab in labs} | set(declared or []))
    if declared is not None:
        known = set(declared)
        bad = [c for c, labs in enumerate(sets) if not known.issuperset(labs)]
        if bad:
            s, i = _where(comp, gold, pred, bad)
            row = gold if s is None else pred[s]
            lab = next(x for x in sets[row[i]] if x not in known)
            who = "the gold" if s is None else f"system {comp.systems[s]!r}"
            raise InputError(
                f"{comp.locate(s, i, f)}: {who} gives the label {lab!r}, which is not among the "
                f"labels declared by {option('labels')} ({', '.join(declared)})"
                f"{suggest(lab, list(declared))}"
            )
    col = {lab: j for j, lab in enumerate(universe)}
    table = np.zeros((len(sets), len(universe)), dtype=bool)
    for code, labs in enumerate(sets):
        table[code, [col[x] for x in labs]] = True
    missing = values.tolist().index(NO_PREDICTION) if NO_PREDICTION in values else None
    return SetCoded(universe, table, gold, pred, missing)


def _declared(params: dict) -> list[str] | None:
    """``params["labels"]`` as a list (normalised in place), or None."""
    labels = params.get("labels")
    if not labels:
        return None
    if isinstance(labels, str):
        labels = [x.strip() for x in labels.split(",") if x.strip()]
    params["labels"] = [str(x) for x in labels]
    return params["labels"]


def averaged_finalize(name: str, k: int, full_mask: np.ndarray, declared: bool = False):
    """``finalize`` of the averaged metrics from gold counts (..., k) and per system true
    positives then predicted counts (..., m, 2k), averaging over the labels of ``full_mask``
    (m, k) (each system's row); with ``mixed=True`` (the randomization test's swapped systems)
    over the labels of the gold and of the mixture's predictions, unless the labels are
    ``declared``."""

    def finalize(shared, sys, count, systems=None, mixed=False):
        gs = shared[..., None, :]
        tp, pp = sys[..., :k], sys[..., k:]
        mask = full_mask if systems is None else full_mask[systems]
        if mixed and not declared:  # the mixture's own labels (the randomization test)
            mask = present_labels(gs, pp)
        if name == "micro_f1":
            return safe_divide(2 * (tp * mask).sum(-1), ((pp + gs) * mask).sum(-1))
        if name == "weighted_f1":
            w = gs * mask
            return safe_divide((safe_divide(2 * tp, pp + gs) * w).sum(-1), w.sum(-1))
        per = {
            "macro_f1": lambda: safe_divide(2 * tp, pp + gs),
            "macro_precision": lambda: safe_divide(tp, pp),
            "macro_recall": lambda: safe_divide(tp, np.broadcast_to(gs, tp.shape)),
        }[name]()
        return safe_divide((per * mask).sum(-1), mask.sum(-1))

    return finalize


def prepare_sets(metric, comp: Competition, params: dict, f: int) -> Prepared:
    """Bind a classification metric to the label sets of field ``f`` (see the module)."""
    name = metric.name
    declared = _declared(params)
    enc = encode_sets(comp, f, name, declared)
    m, k = comp.m, len(enc.labels)
    table = enc.table.astype(np.float64)
    columns = np.column_stack([enc.gold, enc.pred.T]).astype(np.float64)
    if declared is not None:
        cols = np.isin(enc.labels, declared)
        full_mask = np.broadcast_to(cols, (m, k)).copy()
    else:
        in_gold = enc.table[np.unique(enc.gold)].any(0)
        full_mask = np.stack([in_gold | enc.table[np.unique(enc.pred[s])].any(0) for s in range(m)])
    miss = -1 if enc.missing is None else enc.missing

    def indicators(rows):
        g = rows[:, 0].astype(np.int64)
        p = rows[:, 1 : 1 + m].astype(np.int64)
        return g, p, table[g], table[p]

    if name in ("accuracy", "subset_accuracy"):

        def stats(rows):
            g, p, gi, pi = indicators(rows)
            same = (pi == gi[:, None]).all(-1) & (p != miss)
            return np.zeros((len(rows), 0)), same[..., None].astype(np.float64)

        def finalize(shared, sys, count, systems=None):
            return safe_divide(sys[..., 0], np.asarray(count)[..., None])

    elif name in ("samples_f1", "hamming_loss"):
        cols = full_mask.any(0)  # labels outside every system's universe are 0 in both sets
        width = full_mask.sum(-1).astype(np.float64)
        # samples_f1: an item's F1 is 2|G & P| / (|G| + |P|); its numerator is summed in the
        # column of its denominator d = 0..2L, so that every sum is of integers (exact, the same
        # in any order: engines and resampling modes agree bit for bit), then divided by d
        denominators = np.arange(2 * int(cols.sum()) + 1, dtype=np.float64)

        def stats(rows):
            g, p, gi, pi = indicators(rows)
            gi, pi = gi[:, cols], pi[:, :, cols]
            if name == "hamming_loss":  # mismatches, then the labels predicted (the randomization
                # test's mixtures count their own labels: present_labels)
                per = (gi[:, None] != pi).sum(-1)
                return gi.astype(np.float64), np.concatenate([per[..., None], pi], -1).astype(
                    np.float64
                )
            num = 2 * (gi[:, None] * pi).sum(-1)
            den = (gi.sum(-1)[:, None] + pi.sum(-1)).astype(np.int64)
            out = np.zeros(num.shape + (len(denominators),))
            np.put_along_axis(out, den[..., None], num[..., None], axis=-1)
            return np.zeros((len(rows), 0)), out

        def finalize(shared, sys, count, systems=None, mixed=False):
            count = np.asarray(count)[..., None]
            if name == "samples_f1":
                return safe_divide(safe_divide(sys, denominators).sum(-1), count)
            w = width if systems is None else width[systems]
            if mixed and declared is None:
                w = present_labels(shared[..., None, :], sys[..., 1:]).sum(-1)
            return safe_divide(sys[..., 0], count * w)

    elif name in ("precision", "recall", "f1"):
        pos = str(params.get("pos_label", ""))
        if "pos_label" not in params or pos not in enc.labels:
            raise InputError(
                f"competition {comp.id!r}: metric {name!r} on label sets needs `pos_label`, one "
                f"of the labels ({', '.join(enc.labels)}){suggest(pos, enc.labels)}; pass "
                f"{option('pos_label', 'LABEL')}"
            )
        j = enc.labels.index(pos)

        def stats(rows):
            g, p, gi, pi = indicators(rows)
            gj, pj = gi[:, j], pi[:, :, j]
            return gj[:, None], np.stack([pj * gj[:, None], pj], axis=-1)

        def finalize(shared, sys, count, systems=None):
            tp, pp, gs = sys[..., 0], sys[..., 1], shared[..., [0]]
            if name == "precision":
                return safe_divide(tp, pp)
            if name == "recall":
                return safe_divide(tp, np.broadcast_to(gs, tp.shape))
            return safe_divide(2 * tp, pp + gs)

    else:

        def stats(rows):
            g, p, gi, pi = indicators(rows)
            return gi, np.concatenate([pi * gi[:, None], pi], axis=-1)

        finalize = averaged_finalize(name, k, full_mask, declared is not None)

    mixes = name in (
        "hamming_loss",
        "macro_f1",
        "micro_f1",
        "weighted_f1",
        "macro_precision",
        "macro_recall",
    )
    return metric._prepared(
        params,
        columns=columns,
        stats=stats,
        finalize=finalize,
        swapped=mixture_swapped(finalize) if mixes and declared is None else None,
        label_fields=[f],
        cells=len(enc.table),
        class_scores=_class_scores(name, f, params),
    )


def _class_scores(name: str, f: int, params: dict) -> dict:
    """Labels whose per-label statistics the score is built from (see
    :attr:`Prepared.class_scores`): the label ``pos_label``, or those the macro averages average."""
    if name in ("precision", "recall", "f1"):
        return {f: [str(params["pos_label"])]}
    if name in ("macro_f1", "macro_precision", "macro_recall"):
        return {f: list(params["labels"]) if params.get("labels") else None}
    return {}


def reference(name: str, gold, pred, labels=None, pos_label=None) -> float:
    """scikit-learn's score of one system on label sets (``zero_division=0``), the label universe
    fitted by ``MultiLabelBinarizer`` on ``labels`` or on the gold and that system's sets.

    >>> round(reference("macro_f1", [("a", "b"), ("b",)], [("a",), ("b",)]), 4)
    0.8333
    """
    from sklearn import metrics as sk
    from sklearn.preprocessing import MultiLabelBinarizer

    gold, pred = [tuple(x) for x in gold], [tuple(x) for x in pred]
    mlb = MultiLabelBinarizer(classes=labels) if labels else MultiLabelBinarizer()
    mlb.fit(gold + pred)
    y, p = mlb.transform(gold), mlb.transform(pred)
    if name in ("accuracy", "subset_accuracy"):
        return float(sk.accuracy_score(y, p))
    if name == "hamming_loss":
        return float(sk.hamming_loss(y, p))
    fn = {"f1": sk.f1_score, "precision": sk.precision_score, "recall": sk.recall_score}
    if name in fn:
        j = list(mlb.classes_).index(str(pos_label))
        return float(fn[name](y[:, j], p[:, j], zero_division=0))
    kind, what = name.split("_")
    return float(fn[what](y, p, average=kind, zero_division=0))
