"""Metrics of numeric predictions: mean errors, Pearson and Spearman correlations, ROC AUC."""

from __future__ import annotations

import numpy as np

from compreport.errors import InputError, option
from compreport.inputs.competition import Competition
from compreport.inputs.structured import holds_sets
from compreport.stats.metrics.base import Metric, Prepared, safe_divide
from compreport.stats.metrics.fields import field_index, sets_error, to_float, to_scores

_EPS = np.finfo(np.float64).eps


def _numeric_field(
    metric: Metric, comp: Competition, params: dict
) -> tuple[dict, np.ndarray, np.ndarray]:
    """Checked params, then gold (n,) and predictions (m, n) of the chosen field as floats."""
    params = metric.check_params(params)
    gold, pred = to_float(comp, field_index(comp, params), metric.name)
    return params, gold, pred


def _mean(total, count) -> np.ndarray:
    """``total / count`` (broadcast), 0 where ``count`` is 0 (an empty group's sums are 0)."""
    return safe_divide(total, count)


def _correlation(cov, vx, vy, sxx, syy, count) -> np.ndarray:
    """Pearson's r from the co-moment and the two second moments about the means; NaN when a
    variance is indistinguishable from 0 next to ``sxx`` or ``syy``, the sums of squares it was
    computed from."""
    # A constant resample has variance 0, but the sums leave rounding residue of the order of
    # count * eps * sxx (sign arbitrary): within that bound the variance is indistinguishable
    # from 0 and r is undefined (NaN, as scipy), not a spurious number.
    tol = 8 * _EPS * np.maximum(count, 1.0)
    flat = (vx <= tol * sxx) | (vy <= tol * syy)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = cov / np.sqrt(vx * vy)
    return np.where(flat, np.nan, np.clip(r, -1.0, 1.0))


def _frame(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Values ``x`` (..., n) centred on their mean and scaled by powers of two, each row on its own.

    Returns ``(v, m, e0, e)`` with ``x = 2**e0 * m + 2**e * v``: ``m`` the mean of ``x / 2**e0``
    (``2**e0`` the power of two just above ``max|x|``) and ``v`` the centred values scaled into
    [-1, 1]. The sums of squares of ``v`` neither overflow nor underflow whatever the scale of
    ``x`` (1e200, 1e-200), and scaling by a power of two is exact: correlations computed from ``v``
    are those computed from ``x - mean(x)``, rounding included. A constant row has ``v`` its
    rounding residue about the mean (or 0), as ``x - mean(x)`` has.

    Examples
    --------
    >>> x = np.array([1e200, 2e200, 6e200])
    >>> v, m, e0, e = _frame(x)
    >>> bool(np.abs(v).max() <= 1), np.allclose(np.ldexp(m, e0) + np.ldexp(v, e), x, rtol=1e-15)
    (True, True)
    """
    _, e0 = np.frexp(np.max(np.abs(x), axis=-1))
    z = np.ldexp(x, -np.asarray(e0)[..., None])
    m = z.mean(axis=-1)
    u = z - np.asarray(m)[..., None]
    _, e1 = np.frexp(np.max(np.abs(u), axis=-1))
    return np.ldexp(u, -np.asarray(e1)[..., None]), m, e0, e0 + e1


class ErrorMetric(Metric):
    """Mean errors (lower is better, ideal 0) from per-item losses.

    Parameters
    ----------
    name : str
        ``mae``, ``mse``, ``rmse`` or ``mape`` (a fraction, not a percentage).
    description : str
        One line for ``compreport metrics``.
    """

    higher_is_better = False
    ideal = 0.0

    def __init__(self, name: str, description: str):
        self.name = name
        self.description = description

    @staticmethod
    def loss(name: str, gold: np.ndarray, pred: np.ndarray) -> np.ndarray:
        """Per-item loss of metric ``name`` (squared error for ``mse`` and ``rmse``), broadcast."""
        d = pred - gold
        if name == "mae":
            return np.abs(d)
        if name == "mape":
            return np.abs(d) / np.maximum(np.abs(gold), _EPS)
        return d * d

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        """Bind to the numeric values of one field; see :meth:`Metric.prepare`."""
        params, gold, pred = _numeric_field(self, comp, params)
        m = comp.m
        columns = np.column_stack([gold, pred.T])
        name = self.name

        def stats(rows):
            return np.zeros((len(rows), 0)), self.loss(name, rows[:, :1], rows[:, 1 : 1 + m])[
                ..., None
            ]

        def finalize(shared, sys, count, systems=None):
            mean = safe_divide(sys[..., 0], np.asarray(count)[..., None])
            return np.sqrt(mean) if name == "rmse" else mean

        return self._prepared(params, columns=columns, stats=stats, finalize=finalize)

    def reference(self, gold, pred, field=None):
        """scikit-learn's error; see :meth:`Metric.reference`."""
        from sklearn import metrics as sk

        gold, pred = np.asarray(gold, float), np.asarray(pred, float)
        if self.name == "rmse":
            return float(np.sqrt(sk.mean_squared_error(gold, pred)))
        fn = {
            "mae": sk.mean_absolute_error,
            "mse": sk.mean_squared_error,
            "mape": sk.mean_absolute_percentage_error,
        }[self.name]
        return float(fn(gold, pred))


class PearsonMetric(Metric):
    """Pearson correlation of gold and predicted values, from centred sums (NaN when undefined)."""

    reads = "a number per item"

    name = "pearson"
    description = "Pearson correlation coefficient (numeric predictions)"

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        """Bind to the numeric values of one field; see :meth:`Metric.prepare`.

        Gold and each system are centred on their own full-data means and scaled by a power of
        two into [-1, 1] (:func:`_frame`): the sums stay small and cancellation-free (values
        around 1e6 of small spread; systems on far-apart scales) and neither overflow nor
        underflow (values of 1e200 or 1e-200), and r is that of the raw values. The randomization
        test swaps raw predictions, which a per-system frame does not commute with:
        :attr:`Prepared.swapped` puts the items each system keeps and those it receives together
        in the larger of the two frames, by the exact pooled (co)moments of two groups.
        """
        params, gold, pred = _numeric_field(self, comp, params)
        m = comp.m
        y, _, _, _ = _frame(gold)
        x, mean, e0, e = _frame(pred)
        columns = np.column_stack([y, x.T])

        def stats(rows):
            y, x = rows[:, :1], rows[:, 1 : 1 + m]
            # shared: y, y^2 and the item count (the randomization test needs the swapped items')
            return np.column_stack([y, y * y, np.ones(len(rows))]), np.stack(
                [x, x * x, x * y], axis=-1
            )

        def finalize(shared, sys, count, systems=None):
            c = np.asarray(count, dtype=float)[..., None]
            sy, syy = shared[..., [0]], shared[..., [1]]
            sx, sxx, sxy = sys[..., 0], sys[..., 1], sys[..., 2]
            return _correlation(
                sxy - sx * sy / c, sxx - sx * sx / c, syy - sy * sy / c, sxx, syy, c
            )

        def swapped(shared, kept, moved_shared, moved, count, systems, sources):
            # Scores of `systems` when they hold the raw predictions of `sources` on the swapped
            # items: group K (kept items, in the system's frame) and group S (the swapped items, in
            # the source's frame) are pooled exactly (Chan, Golub & LeVeque 1979):
            # M2 = M2_K + M2_S + nK nS / n (mean_S - mean_K)^2, the co-moment likewise, the raw
            # means differing by the two centres plus the groups' centred means. Both groups are
            # first brought into the larger frame of the two (powers of two: exact, and ratios of
            # at most 1: no overflow).
            big = np.maximum(e[systems], e[sources])
            k_k, k_s = np.ldexp(1.0, e[systems] - big), np.ldexp(1.0, e[sources] - big)
            shift = np.ldexp(mean[sources], e0[sources] - big) - np.ldexp(
                mean[systems], e0[systems] - big
            )
            n = np.asarray(count, dtype=float)
            sy, syy = shared[..., [0]], shared[..., [1]]
            sy_s, n_s = moved_shared[..., [0]], moved_shared[..., [2]]  # (R, 1)
            n_k, sy_k = n - n_s, sy - sy_s
            sx_k, sxx_k, sxy_k = kept[..., 0], kept[..., 1], kept[..., 2]
            sx_s, sxx_s, sxy_s = moved[..., 0], moved[..., 1], moved[..., 2]
            mx_k, my_k = _mean(sx_k, n_k), _mean(sy_k, n_k)
            mx_s, my_s = _mean(sx_s, n_s), _mean(sy_s, n_s)
            dx = shift + (k_s * mx_s - k_k * mx_k)
            w = n_k * n_s / n
            between = w * dx * dx
            vx = k_k * k_k * (sxx_k - sx_k * mx_k) + k_s * k_s * (sxx_s - sx_s * mx_s) + between
            cov = k_k * (sxy_k - sx_k * my_k) + k_s * (sxy_s - sx_s * my_s) + w * dx * (my_s - my_k)
            bound = k_k * k_k * sxx_k + k_s * k_s * sxx_s + between
            return _correlation(cov, vx, syy - sy * sy / n, bound, syy, n)

        return self._prepared(
            params, columns=columns, stats=stats, finalize=finalize, swapped=swapped
        )

    def reference(self, gold, pred, field=None):
        """``scipy.stats.pearsonr``; see :meth:`Metric.reference`."""
        from scipy import stats

        return float(stats.pearsonr(np.asarray(gold, float), np.asarray(pred, float))[0])


class SpearmanMetric(Metric):
    """Spearman rank correlation (not decomposable: evaluated per resample)."""

    reads = "a number per item"

    name = "spearman"
    description = "Spearman rank correlation (numeric predictions)"

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        """Bind to the numeric values of one field; see :meth:`Metric.prepare`."""
        from scipy.stats import rankdata

        params, gold, pred = _numeric_field(self, comp, params)

        def evaluate(idx):
            ry = rankdata(gold[idx])
            rx = rankdata(pred[:, idx], axis=1)
            ry = ry - ry.mean()
            rx = rx - rx.mean(axis=1, keepdims=True)
            with np.errstate(invalid="ignore", divide="ignore"):
                return (rx @ ry) / np.sqrt((rx * rx).sum(1) * (ry @ ry))

        return self._prepared(params, evaluate=evaluate)

    def reference(self, gold, pred, field=None):
        """``scipy.stats.spearmanr``; see :meth:`Metric.reference`."""
        from scipy import stats

        return float(stats.spearmanr(np.asarray(gold, float), np.asarray(pred, float))[0])


class RocAucMetric(Metric):
    """Area under the ROC curve of system scores against binary gold labels.

    NaN on a resample that holds one class only.
    """

    reads = "a score per item (binary gold)"

    name = "roc_auc"
    description = "area under the ROC curve (systems submit scores; binary gold, `pos_label`)"
    allowed = ("field", "pos_label")

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        """Bind to the gold labels and system scores of one field; see :meth:`Metric.prepare`."""
        from scipy.stats import rankdata

        params = self.check_params(params)
        f = field_index(comp, params)
        gold_labels = sorted(set(comp.gold[:, f]))
        if holds_sets(np.asarray(gold_labels, dtype=str)):
            raise sets_error(comp, f, self.name)
        if len(gold_labels) != 2:
            raise InputError(
                f"{comp.locate(None, 0, f)}: metric 'roc_auc' needs two gold labels, "
                f"found {len(gold_labels)} ({', '.join(gold_labels[:10])})"
            )
        if "pos_label" not in params:
            if set(gold_labels) != {"0", "1"}:
                raise InputError(
                    f"competition {comp.id!r}: metric 'roc_auc' needs `pos_label` "
                    f"(labels: {', '.join(gold_labels)}); pass {option('pos_label', 'LABEL')}"
                )
            params["pos_label"] = 1
        if str(params["pos_label"]) not in gold_labels:
            raise InputError(
                f"competition {comp.id!r}: `pos_label` {str(params['pos_label'])!r} is not among "
                f"the labels ({', '.join(gold_labels)})"
            )
        pos = comp.gold[:, f] == str(params["pos_label"])
        scores = to_scores(comp, f, self.name)

        def evaluate(idx):
            y = pos[idx]
            npos = int(y.sum())
            nneg = len(idx) - npos
            if npos == 0 or nneg == 0:
                return np.full(comp.m, np.nan)
            r = rankdata(scores[:, idx], axis=1)
            return (r[:, y].sum(1) - npos * (npos + 1) / 2) / (npos * nneg)

        return self._prepared(params, evaluate=evaluate, class_scores={f: None})

    def reference(self, gold, pred, pos_label=1, field=None):
        """``sklearn.metrics.roc_auc_score``; see :meth:`Metric.reference`."""
        from sklearn import metrics as sk

        return float(sk.roc_auc_score(np.asarray(gold) == str(pos_label), np.asarray(pred, float)))
