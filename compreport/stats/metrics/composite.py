"""Composites: a weighted mean of other measures, each over its own field, resampled jointly.

A ``[[metrics]]`` entry ``name = "composite"`` lists its ``parts`` (each a table naming a
``metric`` and that metric's parameters, ``field`` most often) and optional ``weights`` (default
equal) and ``label`` (the name tables and results.json give it; default ``composite``)::

    [[metrics]]
    name = "composite"
    label = "mean_macro_f1"
    parts = [{metric = "macro_f1", field = "gender"}, {metric = "macro_f1", field = "profession"}]
    weights = [1, 1]

Every part is prepared on the same competition; the composite's item statistics are the parts'
statistics side by side, so one resample weights every part's items alike (the parts are resampled
jointly), and its score is ``sum_j w_j * score_j / sum_j w_j`` of the parts' scores on that
resample. Parts must agree in orientation (all higher-is-better, or all lower).

REST-MEX's ``measure_s`` and ``measure_c`` (:mod:`.restmex`) are built with :func:`combine`.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from compreport.errors import InputError, raw, suggest
from compreport.inputs.competition import Competition
from compreport.stats.metrics.base import Metric, Prepared


@dataclass
class Part:
    """One prepared part of a composite.

    Attributes
    ----------
    prepared : Prepared
        The part's measure, bound to the competition.
    weight : float
        Its weight in the mean.
    transform : callable or None
        Applied to the part's scores before they are weighted (``measure_s`` scores the polarity
        MAE as ``1 / (1 + MAE)``); None: the scores as they are.
    """

    prepared: Prepared
    weight: float
    transform: Callable | None = None

    def score(self, values: np.ndarray) -> np.ndarray:
        """The part's scores as they enter the mean."""
        return values if self.transform is None else self.transform(values)


def _widths(p: Prepared) -> tuple[int, int]:
    """The widths (a, b) of the shared and per-system statistics of ``p``."""
    shared, per = p.stats(p.columns[:1])
    return shared.shape[-1], per.shape[-1]


def combine(
    name: str,
    params: dict,
    parts: list[Part],
    higher_is_better: bool,
    ideal: float | None,
) -> Prepared:
    """One :class:`Prepared` for the weighted mean of ``parts``.

    The columns and item statistics are the parts' side by side; ``finalize`` scores every part on
    its slice of the summed statistics and returns ``sum_j w_j * score_j / sum_j w_j``. When a
    part is not decomposable, the composite is evaluated per resample (each decomposable part from
    its summed statistics, the others by their own ``evaluate``).

    Parameters
    ----------
    name : str
        The composite's name (in results and tables).
    params : dict
        Its parameters, as results.json records them.
    parts : list of Part
    higher_is_better : bool
    ideal : float or None

    Returns
    -------
    Prepared

    Examples
    --------
    The mean of two accuracies, over two fields:

    >>> from compreport.inputs.competition import Competition, MetricSpec
    >>> from compreport.stats.metrics import get_metric
    >>> comp = Competition("d", "d", gold=np.array([["a", "x"], ["b", "y"]]),
    ...                    predictions=np.array([[["a", "y"], ["b", "y"]]]), systems=["s"],
    ...                    item_ids=np.array(["1", "2"]), metrics=[MetricSpec("accuracy")],
    ...                    fields=["f", "g"])
    >>> acc = get_metric("accuracy")
    >>> parts = [Part(acc.prepare(comp, {"field": f}), 1.0) for f in ("f", "g")]
    >>> p = combine("mean_acc", {}, parts, True, 1.0)
    >>> shared, per = p.stats(p.columns)
    >>> p.finalize(shared.sum(0), per.sum(0), 2).tolist()
    [0.75]
    """
    weights = np.asarray([q.weight for q in parts], dtype=float)
    wsum = weights.sum()
    label_fields = sorted({f for q in parts for f in q.prepared.label_fields})
    class_scores: dict = {}
    for q in parts:
        for f, labels in q.prepared.class_scores.items():
            if f in class_scores and (class_scores[f] is None or labels is None):
                class_scores[f] = None
            else:
                class_scores[f] = sorted({*class_scores.get(f, []), *(labels or [])}) or None
    common = dict(label_fields=label_fields, class_scores=class_scores)

    def mean(scores) -> np.ndarray:
        total = 0.0
        for w, q, s in zip(weights, parts, scores, strict=True):
            total = total + w * q.score(s)
        return total / wsum

    if not all(q.prepared.decomposable for q in parts):

        def evaluate(idx):
            out = []
            for q in parts:
                p = q.prepared
                if p.decomposable:
                    shared, per = p.stats(p.columns[idx])
                    out.append(p.finalize(shared.sum(0), per.sum(0), len(idx)))
                else:
                    out.append(np.asarray(p.evaluate(idx), dtype=float))
            return mean(out)

        return Prepared(name, params, higher_is_better, ideal, evaluate=evaluate, **common)

    cols = np.cumsum([0] + [q.prepared.columns.shape[1] for q in parts])
    widths = [_widths(q.prepared) for q in parts]
    a_off = np.cumsum([0] + [a for a, _ in widths])
    b_off = np.cumsum([0] + [b for _, b in widths])
    columns = np.column_stack([q.prepared.columns for q in parts])

    def stats(rows):
        shared, per = [], []
        for j, q in enumerate(parts):
            s, p = q.prepared.stats(rows[:, cols[j] : cols[j + 1]])
            shared.append(s)
            per.append(p)
        return np.concatenate(shared, -1), np.concatenate(per, -1)

    def finalize(shared, sys, count, systems=None):
        return mean(
            q.prepared.finalize(
                shared[..., a_off[j] : a_off[j + 1]],
                sys[..., b_off[j] : b_off[j + 1]],
                count,
                systems,
            )
            for j, q in enumerate(parts)
        )

    swapped = None
    if any(q.prepared.swapped is not None for q in parts):

        def swapped(shared, kept, moved_shared, moved, count, systems, sources):
            scores = []
            for j, q in enumerate(parts):
                a, b = slice(a_off[j], a_off[j + 1]), slice(b_off[j], b_off[j + 1])
                p = q.prepared
                if p.swapped is None:
                    scores.append(
                        p.finalize(shared[..., a], kept[..., b] + moved[..., b], count, systems)
                    )
                else:
                    scores.append(
                        p.swapped(
                            shared[..., a],
                            kept[..., b],
                            moved_shared[..., a],
                            moved[..., b],
                            count,
                            systems,
                            sources,
                        )
                    )
            return mean(scores)

    return Prepared(
        name,
        params,
        higher_is_better,
        ideal,
        columns=columns,
        stats=stats,
        finalize=finalize,
        swapped=swapped,
        **common,
    )


def check_weights(comp: Competition, metric: str, weights, count: int) -> list[float]:
    """``weights`` (None: ``count`` ones) as floats: finite, not negative, summing above 0, one per
    part.

    Raises
    ------
    InputError
        Naming the competition and the metric.
    """
    if weights is None:
        return [1.0] * count
    where = f"competition {comp.id!r}: metric {metric!r}"
    if not isinstance(weights, list | tuple):
        raise InputError(f"{where}: `weights` must be a list of numbers; got {weights!r}")
    if len(weights) != count:
        raise InputError(f"{where} has {count} part(s) but {len(weights)} weight(s)")
    out = []
    for w in weights:
        if isinstance(w, bool) or not isinstance(w, numbers.Real) or not math.isfinite(w) or w < 0:
            raise InputError(f"{where}: weight {w!r} is not a finite number at least 0 (`weights`)")
        out.append(float(w))
    if sum(out) <= 0:
        raise InputError(f"{where}: the weights sum to 0; give at least one a positive weight")
    return out


class CompositeMetric(Metric):
    """A weighted mean of other measures, each over its own field, resampled jointly.

    Parameters (of a ``[[metrics]]`` entry): ``parts``, a list of tables each naming a built-in
    ``metric`` and that metric's parameters (``field``, ``labels``, ``pos_label``...);
    ``weights``, one number at least 0 per part (default all 1); ``label``, the name results and
    tables give the composite (default ``composite``). Parts must agree in orientation; the ideal
    is the weighted mean of the parts' ideals (none if a part has none).

    Examples
    --------
    >>> from compreport.inputs.competition import Competition, MetricSpec
    >>> comp = Competition("d", "d", gold=np.array([["a", "x"], ["b", "y"]]),
    ...                    predictions=np.array([[["a", "y"], ["b", "y"]]]), systems=["s"],
    ...                    item_ids=np.array(["1", "2"]), metrics=[MetricSpec("accuracy")],
    ...                    fields=["f", "g"])
    >>> from compreport.stats.metrics import REGISTRY
    >>> p = REGISTRY["composite"].prepare(comp, {"label": "acc_fg", "weights": [3, 1], "parts": [
    ...     {"metric": "accuracy", "field": "f"}, {"metric": "accuracy", "field": "g"}]})
    >>> p.name, p.finalize(*[x.sum(0) for x in p.stats(p.columns)], 2).tolist()
    ('acc_fg', [0.875])
    """

    reads = "several fields per item"

    name = "composite"
    description = (
        "weighted mean of other measures (`parts`, `weights`), resampled jointly; orientation "
        "and ideal those of its parts (spec only)"
    )
    allowed = ("parts", "weights", "label")
    #: Set by the parts (each prepared composite has its own).
    ideal = None

    def __init__(self, lookup: Callable[[str], Metric | None], names: Callable[[], list[str]]):
        #: ``lookup(name)``: the built-in measure a part names, or None (the registry's, passed in
        #: by :mod:`compreport.stats.metrics`, which imports this module).
        self.lookup = lookup
        #: ``names()``: the built-in names, for "did you mean".
        self.names = names

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        """Prepare every part and combine them; see :meth:`Metric.prepare`."""
        params = self.check_params(params)
        label = str(params.get("label") or self.name)
        where = f"competition {comp.id!r}: metric {label!r}"
        specs = params.get("parts")
        if not isinstance(specs, list) or not specs:
            raise InputError(
                f"{where} needs `parts`, a list of tables such as "
                f'{{metric = "macro_f1", field = "gender"}}'
            )
        weights = check_weights(comp, label, params.get("weights"), len(specs))
        parts, shown = [], []
        for j, spec in enumerate(specs):
            if not isinstance(spec, dict) or not isinstance(spec.get("metric"), str):
                raise InputError(
                    f"{where}: part {j + 1} must be a table naming its `metric`; got {spec!r}"
                )
            part_params = {k: v for k, v in spec.items() if k != "metric"}
            name = spec["metric"]
            metric = None if name == self.name else self.lookup(name)
            if metric is None:
                raise InputError(
                    f"{where}, part {j + 1}: {name!r} cannot be a part (a built-in measure "
                    f"other than composite is needed){suggest(name, self.names())}"
                )
            try:
                p = metric.prepare(comp, part_params)
            except InputError as exc:
                raise InputError(f"{where}, part {j + 1}: {raw(exc)}") from None
            parts.append(Part(p, weights[j]))
            shown.append({"metric": name, **p.params})
        orient = {q.prepared.higher_is_better for q in parts}
        if len(orient) > 1:
            up = [
                s["metric"]
                for s, q in zip(shown, parts, strict=True)
                if q.prepared.higher_is_better
            ]
            down = [
                s["metric"]
                for s, q in zip(shown, parts, strict=True)
                if not q.prepared.higher_is_better
            ]
            raise InputError(
                f"{where}: its parts disagree in orientation (higher is better: "
                f"{', '.join(up)}; lower is better: {', '.join(down)}); a mean of them ranks "
                f"nothing: make them agree"
            )
        ideals = [q.prepared.ideal for q in parts]
        ideal = (
            None
            if any(i is None for i in ideals)
            else float(np.dot(weights, ideals) / sum(weights))
        )
        out = {"parts": shown, "weights": weights}
        if params.get("label"):
            out["label"] = label
        return combine(label, out, parts, orient.pop(), ideal)

    def reference(self, gold, pred, parts=(), weights=None, label=None):
        """The weighted mean of each part's own reference (scikit-learn/scipy) on the columns
        ``field`` names; ``gold``/``pred``: dicts field -> (n,) values."""
        w = np.ones(len(parts)) if weights is None else np.asarray(weights, float)
        vals = []
        for spec in parts:
            ps = {k: v for k, v in spec.items() if k not in ("metric", "field")}
            vals.append(
                self.lookup(spec["metric"]).reference(
                    gold[spec["field"]], pred[spec["field"]], **ps
                )
            )
        return float(np.dot(w, vals) / w.sum())
