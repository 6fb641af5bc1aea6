"""Metric registry: each metric knows its orientation, its ideal value and its sufficient statistics.

A metric is *prepared* against a :class:`~compreport.competition.Competition`, which
validates its parameters and data and returns a :class:`Prepared` object. Decomposable
metrics (everything but ``spearman``, ``roc_auc`` and user metrics) turn each test item
into a row of additive statistics; the metric of any resample is then a function of
the weighted sum of those rows (``finalize``), so a bootstrap replicate costs a matrix
product, not a metric call. Non-decomposable metrics provide ``evaluate(idx)``.

Conventions: scores are floats in the metric's own units; ``higher_is_better`` gives the
orientation; undefined ratios (0/0) count as 0, as scikit-learn's ``zero_division=0``.
"""

from __future__ import annotations

import difflib
import importlib.util
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from ..inputs.competition import Competition
from ..errors import InputError

_EPS = np.finfo(np.float64).eps


def suggest(name: str, options: list[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest option, or an empty string."""
    close = difflib.get_close_matches(name, options, n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


@dataclass
class Prepared:
    """A metric bound to one competition's data.

    Attributes
    ----------
    columns : ndarray, shape (n, c), or None
        Numeric columns that fully determine the item statistics (used to merge
        identical items into patterns). ``None`` for non-decomposable metrics.
    stats : callable
        ``stats(rows)`` with ``rows`` a (R, c) slice of ``columns`` returns
        ``(shared, per_system)`` of shapes (R, a) and (R, m, b).
    finalize : callable
        ``finalize(shared_sum, system_sum, count, systems=None)`` with shapes (..., a),
        (..., m, b), (...) returns scores of shape (..., m). ``systems`` (k,) says which
        system each of ``k`` stat rows belongs to when they are not the m systems in order
        (the randomization test scores swapped pairs).
    evaluate : callable or None
        For non-decomposable metrics: ``evaluate(idx)`` returns the (m,) scores of the
        items ``idx`` (an int array, repeats allowed).
    label_fields : list of int
        Fields read as class labels (checked for labels never seen in gold).
    """

    name: str
    params: dict
    higher_is_better: bool
    ideal: float | None
    columns: np.ndarray | None = field(default=None, repr=False)
    stats: Callable | None = field(default=None, repr=False)
    finalize: Callable | None = field(default=None, repr=False)
    evaluate: Callable | None = field(default=None, repr=False)
    label_fields: list[int] = field(default_factory=list)

    @property
    def decomposable(self) -> bool:
        return self.columns is not None


class Metric:
    """Base class. Subclasses set the attributes and implement ``prepare`` and ``reference``."""

    name: str = ""
    higher_is_better: bool = True
    ideal: float | None = 1.0
    allowed: tuple[str, ...] = ("field",)
    description: str = ""

    def check_params(self, params: dict) -> dict:
        for key in params:
            if key not in self.allowed:
                opts = ", ".join(self.allowed) or "none"
                raise InputError(f"metric {self.name!r}: unknown parameter {key!r}{suggest(key, list(self.allowed))}"
                                 f" (parameters: {opts})")
        return dict(params)

    def prepare(self, comp: Competition, params: dict) -> Prepared:  # pragma: no cover - abstract
        raise NotImplementedError

    def reference(self, gold: np.ndarray, pred: np.ndarray, **params) -> float:  # pragma: no cover
        """The metric computed by scikit-learn/scipy on raw values (used by the tests)."""
        raise NotImplementedError

    def _prepared(self, params: dict, **kw) -> Prepared:
        return Prepared(self.name, params, self.higher_is_better, self.ideal, **kw)


# --------------------------------------------------------------------------- data helpers

def _field(comp: Competition, params: dict, key: str = "field", default: int = 0) -> int:
    name = params.get(key)
    if name is None:
        return default
    if name not in comp.fields:
        raise InputError(f"competition {comp.id!r}: `{key}` {name!r} is not a field "
                         f"(fields: {', '.join(comp.fields)}){suggest(str(name), comp.fields)}")
    return comp.fields.index(name)


@dataclass
class Encoded:
    """Labels of one field coded 0..K-1 (labels sorted as strings)."""

    labels: list[str]
    gold: np.ndarray   # (n,)
    pred: np.ndarray   # (m, n)

    @property
    def k(self) -> int:
        return len(self.labels)

    def code(self, comp: Competition, label, what: str) -> int:
        s = str(label)
        if s not in self.labels:
            where = comp.gold_source.path if comp.gold_source else f"competition {comp.id!r}"
            raise InputError(f"{where}: {what} {s!r} is not among the labels of gold and predictions "
                             f"({', '.join(self.labels)}){suggest(s, self.labels)}")
        return self.labels.index(s)


def encode(comp: Competition, f: int) -> Encoded:
    n, m = comp.n, comp.m
    allv = np.concatenate([comp.gold[:, f], comp.predictions[:, :, f].ravel()])
    labels, inv = np.unique(allv, return_inverse=True)
    return Encoded([str(x) for x in labels], inv[:n].astype(np.int64), inv[n:].reshape(m, n).astype(np.int64))


def to_float(comp: Competition, f: int, metric: str) -> tuple[np.ndarray, np.ndarray]:
    """Gold (n,) and predictions (m, n) of field ``f`` as floats, or InputError at the first bad cell."""
    def conv(values: np.ndarray, system: int | None) -> np.ndarray:
        try:
            out = values.astype(np.float64)
        except ValueError:
            out = None
        if out is not None and np.isfinite(out).all():
            return out
        for i, v in enumerate(values):
            try:
                ok = np.isfinite(float(v))
            except ValueError:
                ok = False
            if not ok:
                raise InputError(f"{comp.locate(system, i, f)}: value {str(v)!r} is not a finite number "
                                 f"(metric {metric!r} needs numbers)")
        raise AssertionError("unreachable")  # pragma: no cover

    gold = conv(comp.gold[:, f], None)
    pred = np.stack([conv(comp.predictions[s, :, f], s) for s in range(comp.m)])
    return gold, pred


def _div(a, b):
    a, b = np.broadcast_arrays(np.asarray(a, dtype=float), np.asarray(b, dtype=float))
    return np.divide(a, b, out=np.zeros(a.shape), where=b != 0)


def _onehot(codes: np.ndarray, k: int) -> np.ndarray:
    """(..., ) int codes -> (..., k) float one-hot."""
    out = np.zeros(codes.shape + (k,))
    np.put_along_axis(out, codes[..., None], 1.0, axis=-1)
    return out


def _confusion_stats(rows: np.ndarray, k: int, m: int):
    """rows = [gold, pred_1..pred_m] codes -> shared gold one-hot (R, k), per system [tp, pp] (R, m, 2k)."""
    g = rows[:, 0].astype(np.int64)
    p = rows[:, 1:1 + m].astype(np.int64)
    gs = _onehot(g, k)
    pp = _onehot(p, k)
    tp = pp * (p == g[:, None])[..., None]
    return gs, np.concatenate([tp, pp], axis=-1)


def _f1_per_class(tp, pp, gs):
    return _div(2 * tp, pp + gs)


def _label_mask(comp: Competition, enc: Encoded, params: dict) -> np.ndarray:
    """(m, k) boolean: the labels each system's scores average over.

    ``params["labels"]`` (list or comma string, normalised to a list in place) when given,
    else every label in gold or in that system's predictions (scikit-learn's default).
    """
    m, k = comp.m, enc.k
    if params.get("labels"):
        labels = params["labels"]
        if isinstance(labels, str):
            labels = [x.strip() for x in labels.split(",") if x.strip()]
        params["labels"] = list(labels)
        codes = [enc.code(comp, lab, "label in `labels` (--labels)") for lab in labels]
        mask = np.zeros((m, k), dtype=bool)
        mask[:, codes] = True
        return mask
    present_gold = np.bincount(enc.gold, minlength=k) > 0
    mask = np.zeros((m, k), dtype=bool)
    for s in range(m):
        mask[s] = present_gold | (np.bincount(enc.pred[s], minlength=k) > 0)
    return mask


# --------------------------------------------------------------------------- classification

_AVERAGED = {"macro_f1", "micro_f1", "weighted_f1", "macro_precision", "macro_recall"}
_BINARY = {"precision", "recall", "f1"}


class ClassificationMetric(Metric):
    """Accuracy and the precision/recall/F1 family, from per-class counts.

    ``f1``/``precision``/``recall`` score the class ``pos_label`` (default: ``1`` when the
    labels are ``0``/``1``). Averaged variants average over ``labels`` when given, else over
    every label seen in gold or in that system's predictions (scikit-learn's default).
    """

    def __init__(self, name: str, description: str):
        self.name = name
        self.description = description
        self.allowed = ("field", "pos_label") if name in _BINARY else \
            ("field", "labels") if name in _AVERAGED else ("field",)

    def _pos(self, comp: Competition, enc: Encoded, params: dict) -> int:
        if "pos_label" not in params:
            gold_labels = sorted(set(enc.labels[c] for c in np.unique(enc.gold)))
            if set(gold_labels) in ({"0", "1"}, {"1"}):
                params["pos_label"] = 1
            else:
                raise InputError(f"competition {comp.id!r}: metric {self.name!r} needs `pos_label` "
                                 f"(labels: {', '.join(enc.labels)}); pass --pos-label LABEL")
        return enc.code(comp, params["pos_label"], "`pos_label` (--pos-label)")

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        params = self.check_params(params)
        f = _field(comp, params)
        enc = encode(comp, f)
        m, k = comp.m, enc.k
        columns = np.column_stack([enc.gold, enc.pred.T]).astype(np.float64)
        name = self.name
        if name == "accuracy":
            def stats(rows):
                g = rows[:, :1]
                return np.zeros((len(rows), 0)), (rows[:, 1:1 + m] == g)[..., None].astype(np.float64)

            def finalize(shared, sys, count, systems=None):
                return _div(sys[..., 0], np.asarray(count)[..., None])
        elif name in _BINARY:
            pos = self._pos(comp, enc, params)

            def stats(rows):
                g = rows[:, 0] == pos
                p = rows[:, 1:1 + m] == pos
                return g[:, None].astype(np.float64), np.stack([p & g[:, None], p], axis=-1).astype(np.float64)

            def finalize(shared, sys, count, systems=None):
                tp, pp, gs = sys[..., 0], sys[..., 1], shared[..., [0]]
                if name == "precision":
                    return _div(tp, pp)
                if name == "recall":
                    return _div(tp, gs)
                return _div(2 * tp, pp + gs)
        else:
            full_mask = _label_mask(comp, enc, params)

            def stats(rows):
                return _confusion_stats(rows, k, m)

            def finalize(shared, sys, count, systems=None):
                gs = shared[..., None, :]
                tp, pp = sys[..., :k], sys[..., k:]
                mask = full_mask if systems is None else full_mask[systems]
                if name == "micro_f1":
                    return _div(2 * (tp * mask).sum(-1), ((pp + gs) * mask).sum(-1))
                if name == "weighted_f1":
                    w = gs * mask
                    return _div((_f1_per_class(tp, pp, gs) * w).sum(-1), w.sum(-1))
                per = {"macro_f1": lambda: _f1_per_class(tp, pp, gs),
                       "macro_precision": lambda: _div(tp, pp),
                       "macro_recall": lambda: _div(tp, np.broadcast_to(gs, tp.shape))}[name]()
                return (per * mask).sum(-1) / mask.sum(-1)
        return self._prepared(params, columns=columns, stats=stats, finalize=finalize, label_fields=[f])

    def reference(self, gold, pred, pos_label=None, labels=None, field=None):
        from sklearn import metrics as sk

        if self.name == "accuracy":
            return sk.accuracy_score(gold, pred)
        if self.name in _BINARY:
            fn = {"precision": sk.precision_score, "recall": sk.recall_score, "f1": sk.f1_score}[self.name]
            return fn(gold, pred, labels=[str(pos_label)], average="macro", zero_division=0)
        kind, avg = self.name.split("_")
        fn = {"f1": sk.f1_score, "precision": sk.precision_score, "recall": sk.recall_score}[avg]
        return fn(gold, pred, labels=labels, average=kind, zero_division=0)


# --------------------------------------------------------------------------- regression

class ErrorMetric(Metric):
    """Mean errors (lower is better, ideal 0) from per-item losses."""

    higher_is_better = False
    ideal = 0.0

    def __init__(self, name: str, description: str):
        self.name = name
        self.description = description

    @staticmethod
    def loss(name: str, gold: np.ndarray, pred: np.ndarray) -> np.ndarray:
        d = pred - gold
        if name == "mae":
            return np.abs(d)
        if name == "mape":
            return np.abs(d) / np.maximum(np.abs(gold), _EPS)
        return d * d

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        params = self.check_params(params)
        f = _field(comp, params)
        gold, pred = to_float(comp, f, self.name)
        m = comp.m
        columns = np.column_stack([gold, pred.T])
        name = self.name

        def stats(rows):
            return np.zeros((len(rows), 0)), self.loss(name, rows[:, :1], rows[:, 1:1 + m])[..., None]

        def finalize(shared, sys, count, systems=None):
            mean = _div(sys[..., 0], np.asarray(count)[..., None])
            return np.sqrt(mean) if name == "rmse" else mean
        return self._prepared(params, columns=columns, stats=stats, finalize=finalize)

    def reference(self, gold, pred, field=None):
        from sklearn import metrics as sk

        gold, pred = np.asarray(gold, float), np.asarray(pred, float)
        if self.name == "rmse":
            return float(np.sqrt(sk.mean_squared_error(gold, pred)))
        fn = {"mae": sk.mean_absolute_error, "mse": sk.mean_squared_error,
              "mape": sk.mean_absolute_percentage_error}[self.name]
        return float(fn(gold, pred))


class PearsonMetric(Metric):
    """Pearson correlation between gold and predicted values, from centred sums."""

    name = "pearson"
    description = "Pearson correlation coefficient (numeric predictions)"

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        params = self.check_params(params)
        f = _field(comp, params)
        gold, pred = to_float(comp, f, self.name)
        m = comp.m
        # Centre on the full-data means: the sums below then stay small and cancellation-free.
        columns = np.column_stack([gold - gold.mean(), (pred - pred.mean(axis=1, keepdims=True)).T])

        def stats(rows):
            y, x = rows[:, :1], rows[:, 1:1 + m]
            return np.column_stack([y, y * y]), np.stack([x, x * x, x * y], axis=-1)

        def finalize(shared, sys, count, systems=None):
            c = np.asarray(count, dtype=float)[..., None]
            sy, syy = shared[..., [0]], shared[..., [1]]
            sx, sxx, sxy = sys[..., 0], sys[..., 1], sys[..., 2]
            cov = sxy - sx * sy / c
            vx = sxx - sx * sx / c
            vy = syy - sy * sy / c
            # A constant resample has variance 0, but the sums leave rounding residue of the
            # order of count * eps * sxx (sign arbitrary): within that bound the variance is
            # indistinguishable from 0 and r is undefined (NaN, as scipy), not a spurious number.
            tol = 8 * _EPS * np.maximum(c, 1.0)
            flat = (vx <= tol * sxx) | (vy <= tol * syy)
            with np.errstate(invalid="ignore", divide="ignore"):
                r = cov / np.sqrt(vx * vy)
            return np.where(flat, np.nan, np.clip(r, -1.0, 1.0))
        return self._prepared(params, columns=columns, stats=stats, finalize=finalize)

    def reference(self, gold, pred, field=None):
        from scipy import stats

        return float(stats.pearsonr(np.asarray(gold, float), np.asarray(pred, float))[0])


class SpearmanMetric(Metric):
    """Spearman rank correlation (not decomposable: evaluated per resample)."""

    name = "spearman"
    description = "Spearman rank correlation (numeric predictions)"

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        from scipy.stats import rankdata

        params = self.check_params(params)
        f = _field(comp, params)
        gold, pred = to_float(comp, f, self.name)

        def evaluate(idx):
            ry = rankdata(gold[idx])
            rx = rankdata(pred[:, idx], axis=1)
            ry = ry - ry.mean()
            rx = rx - rx.mean(axis=1, keepdims=True)
            with np.errstate(invalid="ignore", divide="ignore"):
                return (rx @ ry) / np.sqrt((rx * rx).sum(1) * (ry @ ry))
        return self._prepared(params, evaluate=evaluate)

    def reference(self, gold, pred, field=None):
        from scipy import stats

        return float(stats.spearmanr(np.asarray(gold, float), np.asarray(pred, float))[0])


class RocAucMetric(Metric):
    """Area under the ROC curve of system scores against binary gold labels."""

    name = "roc_auc"
    description = "area under the ROC curve (systems submit scores; binary gold, `pos_label`)"
    allowed = ("field", "pos_label")

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        from scipy.stats import rankdata

        params = self.check_params(params)
        f = _field(comp, params)
        gold_labels = sorted(set(comp.gold[:, f]))
        if len(gold_labels) != 2:
            raise InputError(f"{comp.locate(None, 0, f)}: metric 'roc_auc' needs two gold labels, "
                             f"found {len(gold_labels)} ({', '.join(gold_labels[:10])})")
        if "pos_label" not in params:
            if set(gold_labels) != {"0", "1"}:
                raise InputError(f"competition {comp.id!r}: metric 'roc_auc' needs `pos_label` "
                                 f"(labels: {', '.join(gold_labels)}); pass --pos-label LABEL")
            params["pos_label"] = 1
        if str(params["pos_label"]) not in gold_labels:
            raise InputError(f"competition {comp.id!r}: `pos_label` {str(params['pos_label'])!r} is not among "
                             f"the labels ({', '.join(gold_labels)})")
        pos = comp.gold[:, f] == str(params["pos_label"])
        scores = _scores(comp, f, self.name)

        def evaluate(idx):
            y = pos[idx]
            npos = int(y.sum())
            nneg = len(idx) - npos
            if npos == 0 or nneg == 0:
                return np.full(comp.m, np.nan)
            r = rankdata(scores[:, idx], axis=1)
            return (r[:, y].sum(1) - npos * (npos + 1) / 2) / (npos * nneg)
        return self._prepared(params, evaluate=evaluate)

    def reference(self, gold, pred, pos_label=1, field=None):
        from sklearn import metrics as sk

        return float(sk.roc_auc_score(np.asarray(gold) == str(pos_label), np.asarray(pred, float)))


def _scores(comp: Competition, f: int, metric: str) -> np.ndarray:
    """System predictions as floats (gold may hold labels)."""
    out = np.empty((comp.m, comp.n))
    for s in range(comp.m):
        col = comp.predictions[s, :, f]
        try:
            out[s] = col.astype(np.float64)
        except ValueError:
            out[s] = np.nan
        bad = ~np.isfinite(out[s])
        if bad.any():
            i = int(np.argmax(bad))
            raise InputError(f"{comp.locate(s, i, f)}: value {str(col[i])!r} is not a finite number "
                             f"(metric {metric!r} needs scores)")
    return out


# --------------------------------------------------------------------------- REST-MEX measures

class MeasureS(Metric):
    """REST-MEX 2022 sentiment: ``(1/(1 + MAE_polarity) + macroF1_type) / 2`` (thesis A.1).

    Predictions have two fields: polarity (1-5, numeric) and attraction type (labels).
    ``polarity`` and ``type`` name them (default: first and second field).
    """

    name = "measure_s"
    description = "REST-MEX 2022 sentiment: (1/(1+MAE polarity) + macro-F1 type)/2 (two fields)"
    allowed = ("polarity", "type")

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        params = self.check_params(params)
        if len(comp.fields) < 2:
            raise InputError(f"competition {comp.id!r}: metric 'measure_s' needs predictions with two fields "
                             f"(polarity, type); declare `fields` in [data]")
        fp = _field(comp, params, "polarity", 0)
        ft = _field(comp, params, "type", 1)
        gold, pred = to_float(comp, fp, self.name)
        enc = encode(comp, ft)
        m, k = comp.m, enc.k
        full_mask = _label_mask(comp, enc, {})
        columns = np.column_stack([enc.gold, enc.pred.T, gold, pred.T]).astype(np.float64)

        def stats(rows):
            gs, conf = _confusion_stats(rows[:, :1 + m], k, m)
            err = np.abs(rows[:, 2 + m:] - rows[:, [1 + m]])
            return gs, np.concatenate([conf, err[..., None]], axis=-1)

        def finalize(shared, sys, count, systems=None):
            gs = shared[..., None, :]
            mask = full_mask if systems is None else full_mask[systems]
            f1 = (_f1_per_class(sys[..., :k], sys[..., k:2 * k], gs) * mask).sum(-1) / mask.sum(-1)
            mae = _div(sys[..., 2 * k], np.asarray(count)[..., None])
            return (1 / (1 + mae) + f1) / 2
        return self._prepared(params, columns=columns, stats=stats, finalize=finalize, label_fields=[ft])

    def reference(self, gold, pred, polarity=None, type=None):
        """``gold``/``pred``: (n, 2) arrays of [polarity, type]."""
        from sklearn import metrics as sk

        gold, pred = np.asarray(gold), np.asarray(pred)
        mae = sk.mean_absolute_error(gold[:, 0].astype(float), pred[:, 0].astype(float))
        f1 = sk.f1_score(gold[:, 1], pred[:, 1], average="macro", zero_division=0)
        return (1 / (1 + mae) + f1) / 2


class MeasureC(Metric):
    """REST-MEX 2022 epidemiological semaphore: ``sum_w weight_w * macroF1_w / sum(weights)``.

    One field per forecast horizon (default all fields, in order) with weights
    ``[1, 2, 4, 8]`` (thesis A.1: weeks 0, 2, 4, 8).
    """

    name = "measure_c"
    description = "REST-MEX 2022 semaphore: (F1_w0 + 2 F1_w2 + 4 F1_w4 + 8 F1_w8)/15 (four fields)"
    allowed = ("fields", "weights")

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        params = self.check_params(params)
        names = params.get("fields") or list(comp.fields)
        fs = [_field(comp, {"field": nm}) for nm in names]
        weights = np.asarray(params.get("weights") or [2 ** j for j in range(len(fs))], dtype=float)
        if len(weights) != len(fs):
            raise InputError(f"competition {comp.id!r}: metric 'measure_c' has {len(fs)} field(s) "
                             f"but {len(weights)} weight(s)")
        m = comp.m
        encs = [encode(comp, f) for f in fs]
        masks = [_label_mask(comp, e, {}) for e in encs]
        columns = np.column_stack([np.column_stack([e.gold, e.pred.T]) for e in encs]).astype(np.float64)
        ks = [e.k for e in encs]

        def stats(rows):
            shared, sys = [], []
            for j, k in enumerate(ks):
                gs, conf = _confusion_stats(rows[:, j * (m + 1):(j + 1) * (m + 1)], k, m)
                shared.append(gs)
                sys.append(conf)
            return np.concatenate(shared, -1), np.concatenate(sys, -1)

        def finalize(shared, sys, count, systems=None):
            total, a, b = 0.0, 0, 0
            for w, k, mask in zip(weights, ks, masks, strict=True):
                mask = mask if systems is None else mask[systems]
                gs = shared[..., None, a:a + k]
                f1 = (_f1_per_class(sys[..., b:b + k], sys[..., b + k:b + 2 * k], gs) * mask).sum(-1) / mask.sum(-1)
                total = total + w * f1
                a, b = a + k, b + 2 * k
            return total / weights.sum()
        return self._prepared(params, columns=columns, stats=stats, finalize=finalize, label_fields=fs)

    def reference(self, gold, pred, fields=None, weights=None):
        from sklearn import metrics as sk

        gold, pred = np.asarray(gold), np.asarray(pred)
        w = np.asarray(weights or [2 ** j for j in range(gold.shape[1])], float)
        f1 = [sk.f1_score(gold[:, j], pred[:, j], average="macro", zero_division=0) for j in range(gold.shape[1])]
        return float(np.dot(w, f1) / w.sum())


# --------------------------------------------------------------------------- user metrics

class UserMetric(Metric):
    """``path/to/file.py:function``: ``function(y_true, y_pred, **params) -> float``.

    Values are passed as float arrays when every value is numeric, else as str arrays.
    The function may carry attributes ``higher_is_better`` (default True) and ``ideal``.
    """

    allowed = ()

    def __init__(self, spec: str, base: Path | None = None):
        self.name = spec
        path_s, _, func = spec.rpartition(":")
        path = Path(path_s)
        if base is not None and not path.is_absolute():
            path = base / path
        if not path.is_file():
            raise InputError(f"{path}: no such file (user metric {spec!r})")
        modname = "compreport_user_" + "".join(ch if ch.isalnum() else "_" for ch in str(path))
        module_spec = importlib.util.spec_from_file_location(modname, path)
        module = importlib.util.module_from_spec(module_spec)
        try:
            module_spec.loader.exec_module(module)
        except Exception as exc:  # user code: report, do not crash
            raise InputError(f"{path}: user metric failed to load: {type(exc).__name__}: {exc}") from None
        if not callable(getattr(module, func, None)):
            raise InputError(f"{path}: no function {func!r} (user metric {spec!r})")
        self.func = getattr(module, func)
        self.path = path
        self.higher_is_better = bool(getattr(self.func, "higher_is_better", True))
        ideal = getattr(self.func, "ideal", None)
        self.ideal = None if ideal is None else float(ideal)
        self.description = (self.func.__doc__ or "user metric").strip().splitlines()[0]

    def check_params(self, params: dict) -> dict:
        return dict(params)

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        params = self.check_params(params)
        gold, pred = comp.gold[:, 0], comp.predictions[:, :, 0]
        try:
            gold, pred = gold.astype(float), pred.astype(float)
        except ValueError:
            pass
        func, name = self.func, self.name

        def evaluate(idx):
            out = np.empty(comp.m)
            for s in range(comp.m):
                try:
                    out[s] = float(func(gold[idx], pred[s, idx], **params))
                except Exception as exc:
                    raise InputError(f"user metric {name!r} failed on system {comp.systems[s]!r}: "
                                     f"{type(exc).__name__}: {exc}") from None
            return out
        return self._prepared(params, evaluate=evaluate)

    def reference(self, gold, pred, **params):
        return float(self.func(gold, pred, **params))


# --------------------------------------------------------------------------- registry

REGISTRY: dict[str, Metric] = {}


def _register(metric: Metric) -> None:
    REGISTRY[metric.name] = metric


for _name, _desc in [
    ("accuracy", "fraction of items predicted correctly"),
    ("precision", "precision of the class `pos_label`"),
    ("recall", "recall of the class `pos_label`"),
    ("f1", "F1 of the class `pos_label` (binary F1)"),
    ("macro_f1", "F1 averaged over classes (optional `labels` subset)"),
    ("micro_f1", "F1 from counts pooled over classes (optional `labels` subset)"),
    ("weighted_f1", "F1 averaged over classes weighted by gold support"),
    ("macro_precision", "precision averaged over classes (optional `labels` subset)"),
    ("macro_recall", "recall averaged over classes (optional `labels` subset)"),
]:
    _register(ClassificationMetric(_name, _desc))
for _name, _desc in [
    ("mae", "mean absolute error (numeric predictions)"),
    ("mse", "mean squared error (numeric predictions)"),
    ("rmse", "root mean squared error (numeric predictions)"),
    ("mape", "mean absolute percentage error, as a fraction (numeric predictions)"),
]:
    _register(ErrorMetric(_name, _desc))
for _m in (PearsonMetric(), SpearmanMetric(), RocAucMetric(), MeasureS(), MeasureC()):
    _register(_m)


def get_metric(name: str, base: Path | None = None) -> Metric:
    """Look a metric up by name; ``file.py:function`` loads a user metric."""
    if name in REGISTRY:
        return REGISTRY[name]
    if ":" in name and name.rpartition(":")[0].endswith(".py"):
        return UserMetric(name, base)
    raise InputError(f"unknown metric {name!r}{suggest(name, list(REGISTRY))}; "
                     f"`compreport metrics` lists them, or use path/to/file.py:function")
