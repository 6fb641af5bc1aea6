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
  gold or in that system's predictions on the whole test set (as seqeval and scikit-learn do);
- ``weighted``: the mean of the types' scores weighted by their gold mentions (GUA-SPA's
  weighted F1; seqeval's and scikit-learn's ``average="weighted"``), the weights summed over the
  documents drawn.

``span_f1_overlap``, ``span_precision_overlap`` and ``span_recall_overlap`` are the same measures
with ``match = "overlap"`` by default, so that one report (or ``--metric``) can hold both, as
MEDDOPLACE reports both.

Entity linking (parameter ``codes = true``; default false, codes ignored): a mention matches
only a mention with the same code too, so ``span_f1`` with codes is the F1 of (mention, code)
pairs and ``span_recall`` with codes MEDDOPLACE 2.3's "accuracy" (the recall of gold pairs).

Matching (parameter ``match``):

- ``strict`` (default): a predicted mention is correct when a gold mention has the same start, end
  and type. Mentions are sets per document, so TPp = TPr.
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
from compreport.stats.metrics.base import (
    Metric,
    Prepared,
    mixture_swapped,
    present_labels,
    safe_divide,
)
from compreport.stats.metrics.fields import field_index

MATCHES = ("strict", "overlap")
AVERAGES = ("micro", "macro", "weighted")


def _parse(text: str, where, sizes=(3, 4), what="mention list") -> list:
    if text == "" or text == "[]":
        return []
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        value = None
    if not isinstance(value, list) or not all(
        isinstance(m, list) and len(m) in sizes for m in value
    ):
        read = (
            "documents' relations (the R lines of brat .ann folders)"
            if what == "relation list"
            else "documents' mentions (brat .ann folders, a TSV with filename, label, start_span, "
            "end_span, JSON mentions or CoNLL files)"
        )
        raise InputError(f"{where()}: {text[:40]!r} is not a {what}; this measure reads {read}")
    return value


def _parse_all(texts, where, sizes=(3, 4), what="mention list") -> list:
    """The mention lists of ``texts`` (one JSON parse of them all); ``where(i)`` names text ``i``
    in the error of one that is not a mention list (its entries of ``sizes`` elements, the third a
    type)."""
    try:
        docs = json.loads("[" + ",".join(t or "[]" for t in texts) + "]")
        if all(
            isinstance(d, list)
            and all(isinstance(x, list) and len(x) in sizes and isinstance(x[2], str) for x in d)
            for d in docs
        ):
            return docs
    except json.JSONDecodeError:
        pass
    for i, t in enumerate(texts):  # name the first one that is not
        doc = _parse(t, lambda i=i: where(i), sizes, what)
        if not all(isinstance(x[2], str) for x in doc):
            _parse("x", lambda i=i: where(i), sizes, what)
    raise AssertionError("unreachable")  # pragma: no cover


def _without_codes(docs: list) -> list:
    """``docs`` with each mention's code dropped (mentions that then repeat are one)."""
    if not any(len(x) > 3 for doc in docs for x in doc):
        return docs
    return [[list(t) for t in dict.fromkeys(tuple(x[:3]) for x in doc)] for doc in docs]


def count_all(gold: list, preds: list, match: str) -> tuple[np.ndarray, np.ndarray]:
    """Every document's counts per type: gold (n, k) and, per system, [predicted, TP for
    precision, TP for recall] (n, m, 3, k), types sorted by name (k >= 1).

    >>> g, c = count_all([[[0, 4, "A"]]], [[[[0, 4, "A"], [6, 8, "A"]]]], "strict")
    >>> g.tolist(), c[0, 0].tolist()
    ([[1.0]], [[2.0], [1.0], [1.0]])
    """
    n, m = len(gold), len(preds)
    names = sorted(
        {x[2] for doc in gold for x in doc} | {x[2] for r in preds for d in r for x in d}
    )
    types = {t: j for j, t in enumerate(names)}
    k = max(len(types), 1)

    def binned(doc_idx, codes, weights=None):
        idx = np.asarray(doc_idx, dtype=np.int64) * k + np.asarray(codes, dtype=np.int64)
        return np.bincount(idx, weights, minlength=n * k).reshape(n, k)

    gi = [i for i, doc in enumerate(gold) for _ in doc]
    g = binned(gi, [types[x[2]] for doc in gold for x in doc]).astype(float)
    out = np.zeros((n, m, 3, k))
    if match == "strict":
        gsets = [{tuple(x) for x in doc} for doc in gold]
    else:
        by_type = [{} for _ in gold]
        for i, doc in enumerate(gold):
            for x in doc:
                by_type[i].setdefault(x[2], []).append(x)
    for s, run in enumerate(preds):
        pi = [i for i, doc in enumerate(run) for _ in doc]
        codes = [types[x[2]] for doc in run for x in doc]
        out[:, s, 0] = binned(pi, codes)
        if match == "strict":
            hit = [tuple(x) in gsets[i] for i, doc in enumerate(run) if gold[i] for x in doc]
            hi = [i for i, doc in enumerate(run) if gold[i] for _ in doc]
            hc = [types[x[2]] for i, doc in enumerate(run) if gold[i] for x in doc]
            out[:, s, 1] = binned(hi, hc, np.asarray(hit, dtype=float))
        else:
            for i, doc in enumerate(run):
                if not doc or not gold[i]:
                    continue
                mine: dict = {}
                for x in doc:
                    if x[2] in by_type[i]:
                        mine.setdefault(x[2], []).append(x)
                for t, ps in mine.items():
                    out[i, s, 1, types[t]] = _overlap_count(by_type[i][t], ps)
        out[:, s, 2] = out[:, s, 1]
    return g, out


def _overlap_count(gold: list, pred: list) -> int:
    """Greedy one-to-one overlap matches of one type (both sorted by offsets), as MEDDOPLACE."""
    left = list(pred)
    tp = 0
    for g in gold:
        for j, p in enumerate(left):
            if (p[0] <= g[0] <= p[1] or g[0] <= p[0] <= g[1]) and p[3:] == g[3:]:
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
    (precision) and ``tpr`` (recall); ``mask`` (..., k) the types a macro average is over;
    ``weighted`` weighs each type's score by its gold mentions (of the resample)."""
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
    if average == "weighted":
        g = np.broadcast_to(g, score.shape)
        return safe_divide((score * g).sum(-1), g.sum(-1))
    return safe_divide((score * mask).sum(-1), mask.sum(-1))


class SpanMetric(Metric):
    """Span (entity) precision, recall or F1 over documents' mention lists.

    Parameters: ``match`` (``strict`` or ``overlap``), ``average`` (``micro`` or ``macro``),
    ``field`` (the mentions field, default the first).
    """

    reads = "mentions per document (brat, MEDDOPLACE TSV, JSON, CoNLL)"

    allowed = ("field", "match", "average", "codes")

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
        codes = params.get("codes", False)
        if not isinstance(codes, bool):
            raise InputError(f"metric {self.name!r}: codes {codes!r} is not true or false")
        params.update(match=match, average=average)
        if codes:  # shown with the metric only when asked for (entity linking)
            params["codes"] = True
        f = field_index(comp, params)
        gold = _parse_all(comp.gold[:, f], lambda i: comp.locate(None, i, f))
        preds = [
            _parse_all(comp.predictions[s, :, f], lambda i, s=s: comp.locate(s, i, f))
            for s in range(comp.m)
        ]
        if not codes:
            gold, preds = _without_codes(gold), [_without_codes(r) for r in preds]
        return self._bound(params, gold, preds, match, average)

    def _bound(self, params: dict, gold: list, preds: list, match: str, average: str) -> Prepared:
        """The prepared measure of parsed gold and predictions (one list per document)."""
        n, m = len(gold), len(preds)
        g, sys = count_all(gold, preds, match)
        k = g.shape[1]
        gsum, psum = g.sum(0), sys[:, :, 0].sum(0)
        mask = ((gsum > 0)[None, :] | (psum > 0)).astype(float)  # (m, k)
        columns = np.concatenate([g, sys.reshape(n, m * 3 * k)], axis=1)
        which = self.which

        def stats(rows):
            return rows[:, :k], rows[:, k:].reshape(len(rows), m, 3 * k)

        def finalize(shared, per, count, systems=None, mixed=False):
            msk = mask if systems is None else mask[systems]
            gs = shared[..., None, :]
            if mixed:  # the randomization test's mixture: the types it predicts
                msk = present_labels(gs, per[..., :k]).astype(float)
            return span_scores(
                gs,
                per[..., :k],
                per[..., k : 2 * k],
                per[..., 2 * k :],
                msk,
                which,
                average,
            )

        return self._prepared(
            params,
            columns=columns,
            stats=stats,
            finalize=finalize,
            swapped=mixture_swapped(finalize),
        )

    def reference(self, gold, pred, match=None, average="micro", field=None, codes=False) -> float:
        """The score computed directly from mention texts (one per document), for the tests."""
        match = match or self.default_match
        gs = [_parse(t, lambda: "gold") for t in gold]
        ps = [_parse(t, lambda: "run") for t in pred]
        if not codes:
            gs, ps = _without_codes(gs), _without_codes(ps)
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


class RelationMetric(SpanMetric):
    """Relation precision, recall or F1 over documents' relations (brat ``R`` lines).

    A predicted relation is correct when a gold relation of the same document has the same type
    and the same head and tail mentions (start, end and type of each: strict). ``average`` is over
    relation types as for the span measures. The relations are the field ``relations`` (``field``
    names another).

    >>> gold = ['[[0,4,"Located_in","LOC",9,12,"LOC"]]']
    >>> RelationMetric("relation_f1", "f1").reference(gold, gold)
    1.0
    """

    reads = "relations per document (brat R lines)"

    allowed = ("field", "average")

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        """Count each document's relations per type; see :meth:`Metric.prepare`."""
        params = self.check_params(params)
        _, average = self._options(params)
        params.update(average=average)
        if "field" not in params and "relations" not in comp.fields:
            raise InputError(
                f"competition {comp.id!r}: metric {self.name!r} reads documents' relations (the "
                f"R lines of brat .ann folders); this competition has none"
            )
        f = field_index(comp, {"field": params.get("field", "relations")})
        sizes, what = (7,), "relation list"
        gold = _parse_all(comp.gold[:, f], lambda i: comp.locate(None, i, f), sizes, what)
        preds = [
            _parse_all(comp.predictions[s, :, f], lambda i, s=s: comp.locate(s, i, f), sizes, what)
            for s in range(comp.m)
        ]
        return self._bound(params, gold, preds, "strict", average)

    def reference(self, gold, pred, average="micro", field=None) -> float:
        """The score computed directly from relation texts (one per document), for the tests."""
        gs = [_parse(t, lambda: "gold", (7,), "relation list") for t in gold]
        ps = [_parse(t, lambda: "run", (7,), "relation list") for t in pred]
        g, c = count_all(gs, [ps], "strict")
        g, c = g.sum(0), c[:, 0].sum(0)
        mask = ((g > 0) | (c[0] > 0)).astype(float)
        return float(span_scores(g, c[0], c[1], c[2], mask, self.which, average))
