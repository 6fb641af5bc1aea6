"""Measures from confusion counts (Cohen's kappa, quadratic-weighted kappa, MCC, balanced accuracy)
and from predicted probabilities (log loss, Brier score).

The confusion measures are functions of each system's confusion matrix, which every resample sums
from per-item counts: kappa and MCC need the agreements, the predicted class counts and the gold
class counts; balanced accuracy the true positives per class and the gold counts; quadratic
kappa the squared distances between gold and predicted positions and their first and second
moments. Each sets :attr:`~compreport.stats.metrics.base.Prepared.cells`, so the engine may sum
the resample weights per (gold, predicted) cell.

The probabilistic measures read one distribution per item and system: a soft label (a JSON object
from class to probability, :mod:`compreport.inputs.structured`), or, for two classes, one number:
the probability of ``pos_label``. Their per-item losses are summed as they are.
"""

from __future__ import annotations

import json
import math

import numpy as np

from compreport.errors import InputError, option
from compreport.inputs.competition import Competition
from compreport.stats.metrics.base import Metric, Prepared, safe_divide
from compreport.stats.metrics.classification import confusion_stats
from compreport.stats.metrics.fields import NO_PREDICTION, encode, field_index, missing_error

#: How far from 1 the probabilities of a distribution may sum (rounded outputs: 0.333 x 3).
SUM_TOLERANCE = 0.01


def _numeric_order(labels: list[str]) -> list[str] | None:
    """``labels`` sorted as numbers when every one is a finite number, else None."""
    try:
        values = [float(x) for x in labels]
    except ValueError:
        return None
    if not all(math.isfinite(v) for v in values):
        return None
    return [x for _, x in sorted(zip(values, labels, strict=True))]


class ConfusionMetric(Metric):
    """Cohen's kappa, quadratic-weighted kappa, Matthews' correlation and balanced accuracy.

    ``kappa``: \\((p_o - p_e)/(1 - p_e)\\), the agreement beyond chance (scikit-learn's
    ``cohen_kappa_score``), NaN on a resample where chance agreement is 1. ``qwk``: kappa with
    quadratic weights \\((i - j)^2\\) between the positions of the ordinal labels, the order given
    by ``labels`` or, when every label is a number, numeric (``cohen_kappa_score(...,
    weights="quadratic", labels=...)``). ``mcc``: the multiclass Matthews correlation
    (``matthews_corrcoef``, 0 where undefined). ``balanced_accuracy``: the recall averaged over
    the classes of gold (``balanced_accuracy_score``).

    Parameters
    ----------
    name : str
        ``kappa``, ``qwk``, ``mcc`` or ``balanced_accuracy``.
    description : str
        One line for ``compreport metrics``.

    Examples
    --------
    >>> from compreport.inputs.competition import Competition, MetricSpec
    >>> comp = Competition("d", "d", gold=np.array([["1"], ["2"], ["3"], ["3"]]),
    ...                    predictions=np.array([[["1"], ["3"], ["3"], ["2"]]]), systems=["s"],
    ...                    item_ids=np.array(["a", "b", "c", "d"]), metrics=[MetricSpec("qwk")])
    >>> p = ConfusionMetric("qwk", "").prepare(comp, {})
    >>> round(float(p.finalize(*[x.sum(0) for x in p.stats(p.columns)], 4)[0]), 6)
    0.636364
    """

    def __init__(self, name: str, description: str):
        self.name = name
        self.description = description
        self.allowed = ("field", "labels") if name == "qwk" else ("field",)

    def _positions(self, comp: Competition, enc, params: dict, f: int) -> np.ndarray:
        """qwk: the position of every label code in the ordinal order."""
        where = comp.gold_source.path if comp.gold_source else f"competition {comp.id!r}"
        present = [x for x in enc.labels if x != NO_PREDICTION]
        if params.get("labels"):
            order = params["labels"]
            if isinstance(order, str):
                order = [x.strip() for x in order.split(",") if x.strip()]
            order = [str(x) for x in order]
            params["labels"] = order
            unknown = [x for x in present if x not in order]
            if unknown:
                raise InputError(
                    f"{where}: metric 'qwk': label {unknown[0]!r} of gold or predictions is not in "
                    f"{option('labels')} ({', '.join(order)}), which gives the ordinal order"
                )
        else:
            order = _numeric_order(present)
            if order is None:
                raise InputError(
                    f"{where}: metric 'qwk' needs ordered labels: give their order in "
                    f"{option('labels')} (labels: {', '.join(present[:10])}), or numbers"
                )
            # scikit-learn places each system's labels on the scale of the labels it and the gold
            # use; one scale for every run then holds only when each uses them all, else a label
            # only one run predicts would move the others' scores: the scale must be given
            gold_codes = set(np.unique(enc.gold).tolist())
            for s in range(comp.m):
                own = gold_codes | set(np.unique(enc.pred[s]).tolist())
                lacking = [enc.labels[c] for c in range(enc.k) if c not in own]
                lacking = [x for x in lacking if x != NO_PREDICTION]
                if lacking:
                    raise InputError(
                        f"{where}: metric 'qwk': neither the gold nor run {comp.systems[s]!r} "
                        f"uses the label {lacking[0]!r}, which another run predicts, so the runs' "
                        f"ordinal scales differ (scikit-learn's positions); give the scale in "
                        f"{option('labels')}, e.g. {','.join(order)}"
                    )
        pos = np.zeros(enc.k)
        for code, label in enumerate(enc.labels):
            if label in order:
                pos[code] = order.index(label)
        return pos

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        """Bind to the label codes of one field; see :meth:`Metric.prepare`."""
        params = self.check_params(params)
        f = field_index(comp, params)
        enc = encode(comp, f, self.name)
        m, k = comp.m, enc.k
        columns = np.column_stack([enc.gold, enc.pred.T]).astype(np.float64)
        name = self.name
        if name == "qwk":
            if enc.missing is not None:
                s, i = np.argwhere(enc.pred == enc.missing)[0]
                raise missing_error(comp, int(s), int(i), f, name, "ordered labels")
            pos = self._positions(comp, enc, params, f)

            def stats(rows):
                g = pos[rows[:, 0].astype(np.int64)]
                p = pos[rows[:, 1 : 1 + m].astype(np.int64)]
                shared = np.column_stack([g, g * g])
                d = p - g[:, None]
                return shared, np.stack([d * d, p, p * p], axis=-1)

            def finalize(shared, sys, count, systems=None):
                n = np.asarray(count, dtype=float)[..., None]
                sg, sgg = shared[..., [0]], shared[..., [1]]
                sdd, sp, spp = sys[..., 0], sys[..., 1], sys[..., 2]
                # sum_ij (i - j)^2 E_ij with E_ij = gold_i pred_j / n
                expected = safe_divide(sgg * n + spp * n - 2 * sg * sp, n)
                with np.errstate(invalid="ignore", divide="ignore"):
                    return np.where(expected == 0, np.nan, 1 - sdd / expected)

            label_fields = [f]
        else:

            def stats(rows):
                return confusion_stats(rows, k, m)

            def finalize(shared, sys, count, systems=None):
                n = np.asarray(count, dtype=float)[..., None]
                gs = shared[..., None, :]
                tp, pp = sys[..., :k], sys[..., k:]
                agree = tp.sum(-1)
                if name == "balanced_accuracy":
                    present = np.broadcast_to(gs > 0, tp.shape)
                    recall = safe_divide(tp, np.broadcast_to(gs, tp.shape))
                    return safe_divide((recall * present).sum(-1), present.sum(-1))
                gp = (gs * pp).sum(-1)
                if name == "kappa":
                    # scikit-learn: 1 - sum(w C) / sum(w E), w = 1 - I, E = outer(gold, pred) / n
                    disagree = n - agree
                    expected = n - safe_divide(gp, n)
                    with np.errstate(invalid="ignore", divide="ignore"):
                        return np.where(expected == 0, np.nan, 1 - disagree / expected)
                # mcc, scikit-learn's multiclass form
                cov_tp = agree * n - gp
                cov_pp = n * n - (pp * pp).sum(-1)
                cov_tt = n * n - (gs * gs).sum(-1)
                with np.errstate(invalid="ignore", divide="ignore"):
                    den = np.sqrt(cov_tt * cov_pp)
                    return np.where(den == 0, 0.0, cov_tp / np.where(den == 0, 1.0, den))

            label_fields = [f]

        return self._prepared(
            params,
            columns=columns,
            stats=stats,
            finalize=finalize,
            label_fields=label_fields,
            cells=k,
            class_scores={f: None} if name == "balanced_accuracy" else {},
        )

    def reference(self, gold, pred, labels=None, field=None):
        """scikit-learn's score; see :meth:`Metric.reference`."""
        from sklearn import metrics as sk

        if self.name == "kappa":
            return float(sk.cohen_kappa_score(gold, pred))
        if self.name == "qwk":
            return float(sk.cohen_kappa_score(gold, pred, labels=labels, weights="quadratic"))
        if self.name == "mcc":
            return float(sk.matthews_corrcoef(gold, pred))
        return float(sk.balanced_accuracy_score(gold, pred))


def _distribution(text: str, where: str, metric: str) -> dict[str, float]:
    """A soft label's probabilities, checked: each in [0, 1], summing to 1 within
    :data:`SUM_TOLERANCE`."""
    try:
        raw = json.loads(text)
    except ValueError:
        raw = None
    if not isinstance(raw, dict) or not raw:
        raise InputError(
            f"{where}: value {text[:60]!r} is not a probability distribution (metric {metric!r} "
            f'reads a JSON object such as {{"NO": 0.3, "YES": 0.7}}, or one probability of '
            f"`pos_label` with two classes)"
        )
    out = {}
    for key, v in raw.items():
        if isinstance(v, bool) or not isinstance(v, int | float) or not 0 <= v <= 1:
            raise InputError(
                f"{where}: class {key!r} has probability {v!r}; metric {metric!r} needs "
                f"probabilities between 0 and 1"
            )
        out[str(key)] = float(v)
    total = sum(out.values())
    if abs(total - 1) > SUM_TOLERANCE:
        raise InputError(
            f"{where}: the probabilities sum to {total:g}, not 1 (metric {metric!r}; a rounding "
            f"of up to {SUM_TOLERANCE:g} is accepted)"
        )
    return out


class ProbabilisticMetric(Metric):
    """Log loss and the Brier score of predicted probabilities against gold labels (lower is
    better, ideal 0).

    Each run gives, per item, a distribution over classes (a soft label, a JSON object) or, when
    gold has two classes, one number: the probability of ``pos_label`` (default ``1`` when the
    labels are ``0``/``1``). Classes a distribution leaves out have probability 0. ``log_loss``:
    the mean of \\(-\\ln p_{\\text{gold}}\\), the probability clipped to [eps, 1 - eps] (eps of
    float64) as scikit-learn's ``log_loss`` does; ``brier``: the mean of
    \\(\\sum_c (p_c - y_c)^2\\) (halved with two classes: the binary Brier score), as
    ``brier_score_loss``. Probabilities must lie in [0, 1] and sum to 1 within
    :data:`SUM_TOLERANCE` (they are not renormalised, as scikit-learn does not).

    Examples
    --------
    >>> from compreport.inputs.competition import Competition, MetricSpec
    >>> runs = np.array([[['{"NO":0.2,"YES":0.8}'], ['{"NO":0.6,"YES":0.4}']]])
    >>> comp = Competition("d", "d", gold=np.array([["YES"], ["NO"]]), predictions=runs,
    ...                    systems=["s"], item_ids=np.array(["a", "b"]),
    ...                    metrics=[MetricSpec("brier")])
    >>> p = ProbabilisticMetric("brier", "").prepare(comp, {})
    >>> round(float(p.finalize(*[x.sum(0) for x in p.stats(p.columns)], 2)[0]), 6)
    0.1
    """

    higher_is_better = False
    ideal = 0.0

    def __init__(self, name: str, description: str):
        self.name = name
        self.description = description
        self.allowed = ("field", "pos_label")

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        """Bind to the gold labels and the runs' probabilities; see :meth:`Metric.prepare`."""
        params = self.check_params(params)
        f = field_index(comp, params)
        gold = comp.gold[:, f]
        cells = comp.predictions[:, :, f]
        classes = set(np.unique(gold).tolist())
        # Brier's 1/2 for a binary task (scikit-learn's scale_by_half): the gold's classes decide,
        # not the keys some run writes (a run's "MAYBE": 0.0 must not double the others' scores)
        half = 0.5 if len(classes) <= 2 else 1.0
        texts, inverse = np.unique(cells, return_inverse=True)
        inverse = inverse.reshape(cells.shape)
        dists: dict[int, dict] = {}
        numbers: list[int] = []

        def first(u: int) -> tuple[int, int]:
            s, i = np.argwhere(inverse == u)[0]
            return int(s), int(i)

        for u, text in enumerate(texts):
            if text == NO_PREDICTION:
                raise missing_error(comp, *first(u), f, self.name, "probabilities")
            if text.startswith("{"):
                dists[u] = _distribution(str(text), comp.locate(*first(u), f), self.name)
                classes.update(dists[u])
            else:
                numbers.append(u)
        labels = sorted(classes)
        pos = self._pos_label(comp, params, labels, f) if numbers else 0
        k = len(labels)
        code = {c: j for j, c in enumerate(labels)}
        table = np.zeros((len(texts), k))  # each distinct text's probabilities
        for u, dist in dists.items():
            for c, v in dist.items():
                table[u, code[c]] = v
        for u in numbers:
            try:
                v = float(texts[u])
            except ValueError:
                v = math.nan
            if not 0 <= v <= 1:
                raise InputError(
                    f"{comp.locate(*first(u), f)}: value {str(texts[u])[:60]!r} is not a "
                    f"probability between 0 and 1 (metric {self.name!r} reads the probability of "
                    f"`pos_label` {labels[pos]!r}, or a JSON object of probabilities)"
                )
            table[u, pos], table[u, 1 - pos] = v, 1 - v
        g = np.array([code[x] for x in gold])
        rows = np.arange(comp.n)
        eps = np.finfo(np.float64).eps
        losses = np.empty((comp.n, comp.m))
        for s in range(comp.m):
            prob = table[inverse[s]]
            if self.name == "log_loss":
                losses[:, s] = -np.log(np.clip(prob[rows, g], eps, 1 - eps))
            else:
                prob[rows, g] -= 1
                losses[:, s] = (prob * prob).sum(1) * half

        def stats(rows):
            return np.zeros((len(rows), 0)), rows[..., None]

        def finalize(shared, sys, count, systems=None):
            return safe_divide(sys[..., 0], np.asarray(count)[..., None])

        return self._prepared(params, columns=losses, stats=stats, finalize=finalize)

    def _pos_label(self, comp: Competition, params: dict, labels: list[str], f: int) -> int:
        """The code of ``pos_label`` for runs giving one probability per item (two classes)."""
        where = comp.gold_source.path if comp.gold_source else f"competition {comp.id!r}"
        if len(labels) != 2:
            raise InputError(
                f"{where}: metric {self.name!r}: a run gives one number per item, the probability "
                f"of `pos_label`, but there are {len(labels)} classes ({', '.join(labels[:10])}); "
                f"with more than two, give each item a JSON object of probabilities"
            )
        if "pos_label" not in params:
            if labels != ["0", "1"]:
                raise InputError(
                    f"competition {comp.id!r}: metric {self.name!r} needs `pos_label` (labels: "
                    f"{', '.join(labels)}), the class whose probability the runs give; pass "
                    f"{option('pos_label', 'LABEL')}"
                )
            params["pos_label"] = 1
        if str(params["pos_label"]) not in labels:
            raise InputError(
                f"{where}: `pos_label` {str(params['pos_label'])!r} is not among the labels "
                f"({', '.join(labels)})"
            )
        return labels.index(str(params["pos_label"]))

    def reference(self, gold, pred, pos_label=None, field=None):
        """scikit-learn's ``log_loss`` or ``brier_score_loss``; ``pred``: (n, k) probabilities in
        the order of the sorted labels, or (n,) probabilities of ``pos_label``."""
        from sklearn import metrics as sk

        gold, pred = np.asarray(gold), np.asarray(pred, dtype=float)
        if pred.ndim == 1:
            y = gold == str(pos_label)
            if self.name == "log_loss":
                return float(sk.log_loss(y, pred, labels=[False, True]))
            return float(sk.brier_score_loss(y, pred))
        labels = sorted(set(gold.tolist()))
        if self.name == "log_loss":
            return float(sk.log_loss(gold, pred, labels=labels))
        return float(sk.brier_score_loss(gold, pred, labels=labels))
