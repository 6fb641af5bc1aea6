"""Item scores from any scorer: runs that give one number per item (``mean``), or two whose sums
make a corpus ratio (``ratio``: CER, WER).

Generation, summarisation and OCR tasks are scored by the organizers' own scorer (BERTScore, a
similarity, per-item ROUGE, edit distances). Its per-item output is the run compreport reads: the
gold file gives the ids (its values are not read by ``mean``), and the bootstrap resamples the
items, so no model is loaded and every interval, test and letter works as for a built-in measure.
"""

from __future__ import annotations

import numpy as np

from compreport.errors import InputError
from compreport.inputs.competition import Competition
from compreport.stats.metrics.base import Metric, Prepared, safe_divide
from compreport.stats.metrics.fields import field_index, to_scores


def _orientation(comp: Competition, name: str, params: dict, default: bool) -> bool:
    value = params.get("higher_is_better", default)
    if not isinstance(value, bool):
        raise InputError(
            f"competition {comp.id!r}: metric {name!r}: `higher_is_better` must be true or "
            f"false; got {value!r}"
        )
    return value


class MeanScore(Metric):
    """The mean of the runs' per-item scores (BERTScore F1, a similarity, per-item ROUGE).

    Parameters: ``field`` (the runs' score field; default the first), ``higher_is_better``
    (default true), ``label`` (the name tables and results.json give it; default ``mean``). The
    gold's values are not read: any text (the references) will do. No ideal value is assumed.

    Examples
    --------
    >>> from compreport.inputs.competition import Competition, MetricSpec
    >>> comp = Competition("d", "d", gold=np.array([["ref a"], ["ref b"]]),
    ...                    predictions=np.array([[["0.9"], ["0.7"]], [["0.5"], ["1"]]]),
    ...                    systems=["s", "t"], item_ids=np.array(["1", "2"]),
    ...                    metrics=[MetricSpec("mean")])
    >>> p = MeanScore().prepare(comp, {"label": "bertscore"})
    >>> p.name, p.finalize(*[x.sum(0) for x in p.stats(p.columns)], 2).round(3).tolist()
    ('bertscore', [0.8, 0.75])
    """

    reads = "a scorer's number(s) per item"

    name = "mean"
    description = "mean of the runs' per-item scores (BERTScore, similarity...; `higher_is_better`)"
    allowed = ("field", "higher_is_better", "label")
    ideal = None

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        """Bind to the runs' scores of one field; see :meth:`Metric.prepare`."""
        params = self.check_params(params)
        label = str(params.get("label") or self.name)
        higher = _orientation(comp, label, params, True)
        scores = to_scores(comp, field_index(comp, params), label)

        def stats(rows):
            return np.zeros((len(rows), 0)), rows[..., None]

        def finalize(shared, sys, count, systems=None):
            return safe_divide(sys[..., 0], np.asarray(count)[..., None])

        return Prepared(
            label, params, higher, None, columns=scores.T.copy(), stats=stats, finalize=finalize
        )

    def reference(self, gold, pred, **params):
        """numpy's mean of the scores."""
        return float(np.mean(np.asarray(pred, dtype=float)))


class RatioScore(Metric):
    """A corpus ratio of two per-item sums: ``sum(numerator) / sum(denominator)`` (CER, WER: edits
    over reference length).

    Parameters: ``numerator`` (the runs' field of the per-item numerator, such as the edit count;
    default the first field); ``denominator``: ``"gold"`` for the gold's value of the numerator's
    field (the reference length, when the gold file gives it per item; the default with one
    field), or a field of the runs (the default with two fields: the second), when the scorer
    writes both numbers per item; ``higher_is_better`` (default false); ``label`` (default
    ``ratio``). Both numbers must be finite and at least 0; a resample whose denominators sum to
    0 scores NaN.

    Examples
    --------
    >>> from compreport.inputs.competition import Competition, MetricSpec
    >>> comp = Competition("d", "d", gold=np.array([["4"], ["6"]]),          # reference words
    ...                    predictions=np.array([[["1"], ["2"]]]), systems=["s"],  # edits
    ...                    item_ids=np.array(["1", "2"]), metrics=[MetricSpec("ratio")])
    >>> p = RatioScore().prepare(comp, {"label": "wer"})
    >>> p.finalize(*[x.sum(0) for x in p.stats(p.columns)], 2).tolist()
    [0.3]
    """

    reads = "a scorer's number(s) per item"

    name = "ratio"
    description = "sum of a per-item numerator over the sum of a denominator (CER, WER)"
    allowed = ("numerator", "denominator", "higher_is_better", "label")
    higher_is_better = False
    ideal = None

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        """Bind to the numerator and denominator fields; see :meth:`Metric.prepare`."""
        params = self.check_params(params)
        label = str(params.get("label") or self.name)
        higher = _orientation(comp, label, params, False)
        fn = field_index(comp, params, "numerator", 0)
        params.setdefault("numerator", comp.fields[fn])
        default = "gold" if len(comp.fields) == 1 else comp.fields[1 if fn == 0 else 0]
        params.setdefault("denominator", default)
        num = to_scores(comp, fn, label)
        self._non_negative(comp, num, fn, label)
        m = comp.m
        if params["denominator"] == "gold":
            den = self._gold(comp, fn, label)
            columns = np.column_stack([den, num.T])

            def stats(rows):
                return rows[:, :1], rows[:, 1 : 1 + m, None]

            def finalize(shared, sys, count, systems=None):
                return _ratio(sys[..., 0], shared[..., [0]])
        else:
            fd = field_index(comp, params, "denominator")
            if fd == fn:
                raise InputError(
                    f"competition {comp.id!r}: metric {label!r}: `numerator` and `denominator` "
                    f"name one field ({comp.fields[fn]!r})"
                )
            den = to_scores(comp, fd, label)
            self._non_negative(comp, den, fd, label)
            columns = np.column_stack([num.T, den.T])

            def stats(rows):
                return np.zeros((len(rows), 0)), np.stack([rows[:, :m], rows[:, m:]], axis=-1)

            def finalize(shared, sys, count, systems=None):
                return _ratio(sys[..., 0], sys[..., 1])

        full = stats(columns)
        if not (finalize(full[0].sum(0), full[1].sum(0), comp.n) >= 0).all():
            raise InputError(
                f"competition {comp.id!r}: metric {label!r}: the denominators "
                f"({params['denominator']}) sum to 0 over the test set"
            )
        return Prepared(
            label, params, higher, None, columns=columns, stats=stats, finalize=finalize
        )

    @staticmethod
    def _non_negative(comp: Competition, values: np.ndarray, f: int, label: str) -> None:
        bad = np.argwhere(values < 0)
        if len(bad):
            s, i = (int(x) for x in bad[0])
            text = str(comp.predictions[s, i, f])
            raise InputError(
                f"{comp.locate(s, i, f)}: value {text!r} is negative; metric {label!r} sums "
                f"counts (edits, lengths), each at least 0"
            )

    @staticmethod
    def _gold(comp: Competition, f: int, label: str) -> np.ndarray:
        out = np.empty(comp.n)
        for i, v in enumerate(comp.gold[:, f]):
            try:
                out[i] = float(v)
            except ValueError:
                out[i] = np.nan
            if not np.isfinite(out[i]) or out[i] < 0:
                raise InputError(
                    f"{comp.locate(None, i, f)}: value {str(v)!r} is not a number at least 0 "
                    f"(metric {label!r} reads the denominator, such as the reference length, "
                    f'from the gold: `denominator = "gold"`)'
                )
        return out

    def reference(self, gold, pred, **params):
        """numpy: ``sum(pred) / sum(gold)`` (one field, the denominator in the gold)."""
        return float(np.sum(np.asarray(pred, float)) / np.sum(np.asarray(gold, float)))


def _ratio(num, den) -> np.ndarray:
    """``num / den`` (broadcast), NaN where ``den`` is 0."""
    num, den = np.broadcast_arrays(np.asarray(num, float), np.asarray(den, float))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)
