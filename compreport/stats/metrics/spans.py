"""Span and entity measures: ``span_f1``, ``span_precision``, ``span_recall``.

Each item is a document whose value is its canonical mention list
(:func:`compreport.inputs.structured.mentions_text`: ``[[start, end, "TYPE"(, "code")], ...]``).
A document's statistics are, per mention type, its gold mentions, a system's predicted mentions,
and the predicted mentions matched (true positives for precision) and the gold mentions matched
(true positives for recall). They add over documents, so a bootstrap resample (documents drawn
whole) scores as the same function of its weighted sums:

- ``micro``: precision = Σ TPp / Σ predicted, recall = Σ TPr / Σ gold over every type, F1 their
  harmonic mean (0 when both are 0);
- ``macro``: the mean over types of each type's precision, recall or F1, over the types in the
  gold or in that system's predictions on the whole test set (as seqeval and scikit-learn do).

``span_f1_overlap``, ``span_precision_overlap`` and ``span_recall_overlap`` are the same measures
with ``match = "overlap"`` by default, so that one report (or ``--metric``) can hold both, as
MEDDOPLACE reports both.

Matching (parameter ``match``):

- ``strict`` (default): a predicted mention is correct when a gold mention has the same start, end
  and type (and code, when mentions carry one: entity linking). Mentions are sets per document,
  so TPp = TPr.
- ``overlap``: as the MEDDOPLACE scorer (TeMU-BSC/meddoplace_scoring_script,
  ``calculat_fscore_per_entity(strict=False)``): per type, each gold mention in order of its
  offsets takes the first unmatched predicted mention of that type, in order of offsets, that
  overlaps it, one-to-one, so TPp = TPr. Its overlap test is the scorer's, on closed intervals:
  ``p.start <= g.start <= p.end or g.start <= p.start <= g.end``, so spans that only touch
  (``[0, 5)`` and ``[5, 9)``) overlap.

Examples
--------
>>> gold = ['[[0,4,"LOC"],[10,15,"PER"]]']
>>> pred = ['[[0,4,"LOC"],[11,15,"PER"]]']
>>> round(SpanMetric("span_f1", "f1").reference(gold, pred), 3)
0.5
>>> SpanMetric("span_f1", "f1").reference(gold, pred, match="overlap")
1.0
"""

from __future__ import annotations

import json

import numpy as np

from compreport.errors import InputError
from compreport.inputs.competition import Competition
from compreport.stats.metrics.base import Metric, Prepared, safe_divide
from compreport.stats.metrics.fields import field_index

MATCHES = ("strict", "overlap")
AVERAGES = ("micro", "macro")


def _parse(text: str, where) -> list:
    if text == "" or text == "[]":
        return []
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        value = None
    if not isinstance(value, list) or not all(
        isinstance(m, list) and len(m) in (3, 4) for m in value
    ):
        raise InputError(
            f"{where()}: {text[:40]!r} is not a mention list; span measures read documents' "
            f"mentions (brat .ann folders, a TSV with filename, label, start_span, end_span, "
            f"JSON mentions or CoNLL files)"
        )
    return value


def _overlap_count(gold: list, pred: list) -> int:
    """Greedy one-to-one overlap matches of one type (both sorted by offsets), as MEDDOPLACE."""
    left = list(pred)
    tp = 0
    for g in gold:
        for j, p in enumerate(left):
            if p[0] <= g[0] <= p[1] or g[0] <= p[0] <= g[1]:
                tp += 1
                del left[j]
                break
    return tp


def doc_counts(gold: list, pred: list, types: dict, match: str) -> np.ndarray:
    """Per type: [predicted, TP for precision, TP for recall] of one document, shape (3, k).

    ``gold``/``pred`` are lists of ``[start, end, type(, code)]`` sorted by offsets; ``types`` maps
    a type to its column.

    >>> doc_counts([[0, 4, "A"]], [[0, 4, "A"], [5, 6, "A"]], {"A": 0}, "strict").tolist()
    [[2.0], [1.0], [1.0]]
    """
    k = len(types)
    out = np.zeros((3, k))
    for p in pred:
        out[0, types[p[2]]] += 1
    if not pred or not gold:
        return out
    if match == "strict":
        gs = {tuple(g) for g in gold}
        for p in pred:
            if tuple(p) in gs:
                out[1, types[p[2]]] += 1
        out[2] = out[1]
        return out
    by_type: dict = {}
    for g in gold:
        by_type.setdefault(g[2], ([], []))[0].append(g)
    for p in pred:
        if p[2] in by_type:
            by_type[p[2]][1].append(p)
    for t, (gs, ps) in by_type.items():
        if ps:
            out[1, types[t]] = out[2, types[t]] = _overlap_count(gs, ps)
    return out


def span_scores(g, p, tpp, tpr, mask, which: str, average: str):
    """Scores from summed counts (..., k): gold ``g``, predicted ``p``, true positives ``tpp``
    (precision) and ``tpr`` (recall); ``mask`` (..., k) the types a macro average is over."""
    if average == "micro":
        prec = safe_divide(tpp.sum(-1), p.sum(-1))
        rec = safe_divide(tpr.sum(-1), g.sum(-1))
    else:
        prec, rec = safe_divide(tpp, p), safe_divide(tpr, g)
    if which == "precision":
        score = prec
    elif which == "recall":
        score = rec
    else:
        score = safe_divide(2 * prec * rec, prec + rec)
    if average == "micro":
        return score
    return safe_divide((score * mask).sum(-1), mask.sum(-1))


class SpanMetric(Metric):
    """Span (entity) precision, recall or F1 over documents' mention lists.

    Parameters: ``match`` (``strict`` or ``overlap``), ``average`` (``micro`` or ``macro``),
    ``field`` (the mentions field, default the first).
    """

    allowed = ("field", "match", "average")

    def __init__(self, name: str, which: str, description: str = "", match: str = "strict"):
        self.name, self.which, self.description = name, which, description
        self.default_match = match

    def _options(self, params: dict) -> tuple[str, str]:
        match = params.get("match", self.default_match)
        average = params.get("average", "micro")
        if match not in MATCHES:
            raise InputError(
                f"metric {self.name!r}: match {match!r} is not one of {', '.join(MATCHES)}"
            )
        if average not in AVERAGES:
            raise InputError(
                f"metric {self.name!r}: average {average!r} is not one of {', '.join(AVERAGES)}"
            )
        return match, average

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        """Count each document's mentions per type; see :meth:`Metric.prepare`."""
        params = self.check_params(params)
        match, average = self._options(params)
        params.update(match=match, average=average)
        f = field_index(comp, params)
        n, m = comp.n, comp.m
        gold = [
            _parse(t, lambda i=i: comp.locate(None, i, f)) for i, t in enumerate(comp.gold[:, f])
        ]
        preds = [
            [
                _parse(t, lambda s=s, i=i: comp.locate(s, i, f))
                for i, t in enumerate(comp.predictions[s, :, f])
            ]
            for s in range(m)
        ]
        names = sorted(
            {x[2] for doc in gold for x in doc}
            | {x[2] for run in preds for doc in run for x in doc}
        )
        types = {t: j for j, t in enumerate(names)}
        k = max(len(types), 1)
        g = np.zeros((n, k))
        for i, doc in enumerate(gold):
            for x in doc:
                g[i, types[x[2]]] += 1
        sys = np.zeros((n, m, 3, k))
        for s in range(m):
            for i in range(n):
                if preds[s][i] or gold[i]:
                    sys[i, s] = doc_counts(gold[i], preds[s][i], types, match)
        gsum, psum = g.sum(0), sys[:, :, 0].sum(0)
        mask = ((gsum > 0)[None, :] | (psum > 0)).astype(float)  # (m, k)
        columns = np.concatenate([g, sys.reshape(n, m * 3 * k)], axis=1)
        which = self.which

        def stats(rows):
            return rows[:, :k], rows[:, k:].reshape(len(rows), m, 3 * k)

        def finalize(shared, per, count, systems=None):
            msk = mask if systems is None else mask[systems]
            gs = shared[..., None, :]
            return span_scores(
                gs,
                per[..., :k],
                per[..., k : 2 * k],
                per[..., 2 * k :],
                msk,
                which,
                average,
            )

        return self._prepared(params, columns=columns, stats=stats, finalize=finalize)

    def reference(self, gold, pred, match=None, average="micro", field=None) -> float:
        """The score computed directly from mention texts (one per document), for the tests."""
        match = match or self.default_match
        gs = [_parse(t, lambda: "gold") for t in gold]
        ps = [_parse(t, lambda: "run") for t in pred]
        names = sorted({x[2] for d in gs + ps for x in d})
        types = {t: j for j, t in enumerate(names)}
        k = max(len(types), 1)
        g, c = np.zeros(k), np.zeros((3, k))
        for gd, pd in zip(gs, ps, strict=True):
            for x in gd:
                g[types[x[2]]] += 1
            c += doc_counts(gd, pd, types, match)
        mask = ((g > 0) | (c[0] > 0)).astype(float)
        return float(span_scores(g, c[0], c[1], c[2], mask, self.which, average))
