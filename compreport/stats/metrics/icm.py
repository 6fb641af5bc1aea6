"""The ICM family (Amigó & Delgado 2022) and soft-label measures, exactly as PyEvALL computes them.

Hard labels (a plain label per item, or a label set ``["a","b"]``):

- ``icm``: the Information Contrast Model, ``ICM_i = α1·IC(P_i) + α2·IC(G_i) − β·IC(P_i ∪ G_i)``
  averaged over items, ``α1 = α2 = 2``, ``β = 3`` by default. ``IC(c) = −log2(n_c/N)`` with
  ``n_c`` the gold items holding class ``c`` or one of its descendants in the ``hierarchy`` and
  ``N`` the number of items; a class no gold item holds gets ``−log2(1/N)``. The IC of a set
  follows PyEvALL's recursion ``IC({c1..cn}) = IC(c1) + IC(rest) − IC(DCA(c1, rest))`` (DCA: the
  deepest common ancestors; flat labels have none, so a set's IC is the sum of its classes'). A
  missing prediction is the empty set (IC 0).
- ``icm_norm``: ``(ICM(P,G) + ICM(G,G)) / (2·ICM(G,G))``, clipped at 0 below only.

As PyEvALL does, IC is estimated from the evaluated gold, so from every bootstrap resample's gold.
That stays additive: each item's ICM is ``Σ_c w_ic·IC(c)`` with integer coefficients ``w_ic`` (from
the set recursion), so a resample sums ``W_c = Σ_i w_ic``, ``n_c`` and ``N`` and scores
``(1/N)·Σ_c W_c·IC(c)``.

Soft labels (gold a distribution per item ``{"NO":0.33,"YES":0.67}``; runs soft, or hard labels
read as probability 1 on the label):

- ``icm_soft``, ``icm_soft_norm``: ICM over (class, weight) sets, the union taking the larger
  weight per class, ``IC(c, v) = −log2(1 − Φ((v − μ_c)/σ_c))`` for ``v > 0`` (0 for ``v = 0``),
  ``μ_c`` the gold mean weight of ``c`` and ``σ_c`` the gold *mean absolute deviation* around it;
  a tail probability of 0, or a class no gold item names, gets ``−log2(1/N)``. With a
  ``hierarchy``, μ and σ come from the gold weights propagated up the tree by max and a set's IC
  follows the hard recursion, a common ancestor weighted by the smaller weight. ICM-Soft does not
  decompose (μ and σ are nonlinear in the gold): by default a resample keeps the full gold's μ and
  σ, so the score is the mean of per-item scores (the point score is PyEvALL's; a resample's leaves
  out the variance of the μ, σ estimate); ``reestimate = true`` recomputes every item's IC from
  each resample's μ and σ, as PyEvALL scores the resampled files, at about 200 times the cost.
- ``cross_entropy``: ``mean_i −Σ_c g_ic·log2 p_ic`` over the classes of the gold item that the
  prediction names, after values ≤ 0 become 0.001 and both distributions are renormalised.
- ``soft_mae``: ``mean_i (1/|C|)·Σ_{c∈C} |g_ic − p_ic|``, ``C`` the classes named in gold (PyEvALL's
  LeWiDi ``MAE``).

Examples
--------
>>> import numpy as np
>>> from compreport.inputs.competition import Competition, MetricSpec
>>> from compreport.stats.metrics import get_metric
>>> comp = Competition("demo", "demo", gold=np.array([["a"], ["b"], ["a"]]),
...                    predictions=np.array([[["a"], ["a"], [""]]]), systems=["s1"],
...                    item_ids=np.array(["1", "2", "3"]), metrics=[MetricSpec("icm")])
>>> p = get_metric("icm").prepare(comp, {})
>>> shared, per = p.stats(p.columns)
>>> round(float(p.finalize(shared.sum(0), per.sum(0), 3)[0]), 6)   # PyEvALL: -0.7233083338141043
-0.723308
"""

from __future__ import annotations

import json
import math
from collections import Counter
from functools import lru_cache

import numpy as np

from compreport.errors import InputError
from compreport.inputs.competition import Competition
from compreport.inputs.structured import kind, read_label_set, read_soft
from compreport.stats.metrics.base import Metric, Prepared, safe_divide
from compreport.stats.metrics.fields import field_index

#: Smoothing value of PyEvALL's cross-entropy (values <= 0 become this before renormalising).
SMOOTH = 0.001
#: How far from 1 a mono-label soft label's weights may sum.
SUM_TOLERANCE = 0.01


def _number(params: dict, key: str, default: float, metric: str) -> float:
    v = params.get(key, default)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise InputError(f"metric {metric!r}: `{key}` must be a finite number, not {v!r}")
    return float(v)


def parse_hierarchy(tree, metric: str = "icm") -> dict[str, tuple[str, ...]]:
    """The root-to-node path of every label of a hierarchy given as PyEvALL's nested dict.

    ``tree`` maps a label to its children: another such dict, or a list of leaf labels (an
    empty list or dict: no children).

    Raises
    ------
    InputError
        For a label that is not a string, a label under two parents or under itself (a cycle).

    Examples
    --------
    >>> parse_hierarchy({"A": {"A1": ["a"], "A2": []}, "B": []})["a"]
    ('A', 'A1', 'a')
    >>> try:
    ...     parse_hierarchy({"A": ["x"], "B": ["x"]})
    ... except InputError as e:
    ...     print(e)
    metric 'icm': `hierarchy` puts label 'x' under two parents ('A' and 'B'); a label has one parent
    """
    paths: dict[str, tuple[str, ...]] = {}

    def add(label, path):
        if not isinstance(label, str) or not label:
            raise InputError(
                f"metric {metric!r}: `hierarchy` holds {label!r}; its labels are non-empty strings"
            )
        if label in path:
            raise InputError(
                f"metric {metric!r}: `hierarchy` has a cycle: {label!r} is under itself "
                f"({' > '.join(path + (label,))})"
            )
        if label in paths:
            where = [p[-1] if p else "the top" for p in (paths[label][:-1], path)]
            raise InputError(
                f"metric {metric!r}: `hierarchy` puts label {label!r} under two parents "
                f"({where[0]!r} and {where[1]!r}); a label has one parent"
            )
        paths[label] = path + (label,)

    def walk(node, path):
        if isinstance(node, dict):
            for label, children in node.items():
                add(label, path)
                walk(children, path + (label,))
        elif isinstance(node, (list, tuple)):
            for label in node:
                if isinstance(label, (dict, list)):
                    raise InputError(
                        f"metric {metric!r}: `hierarchy` lists {label!r} among leaves; a list "
                        f"holds leaf labels, a table holds labels with children"
                    )
                add(label, path)
        else:
            raise InputError(
                f"metric {metric!r}: `hierarchy` under {'/'.join(path) or 'the top'} is "
                f"{node!r}; expected a table of labels or a list of leaf labels"
            )

    if not isinstance(tree, dict) or not tree:
        raise InputError(
            f"metric {metric!r}: `hierarchy` must be a non-empty table (label -> children), "
            f"as PyEvALL's nested dict"
        )
    walk(tree, ())
    return paths


class _SetIC:
    """Integer coefficients of each class in PyEvALL's recursive IC of a label set."""

    def __init__(self, paths: dict[str, tuple[str, ...]] | None):
        self.paths = paths or {}
        self.coef = lru_cache(maxsize=None)(self._coef)

    def _dca(self, c: str, rest: tuple[str, ...]) -> tuple[str, ...]:
        out = set()
        pa = self.paths.get(c)
        if pa is None:
            return ()
        for d in rest:
            pb = self.paths.get(d)
            if pb is None:
                continue
            common = [e for e in pa if e in pb]
            if common:
                out.add(common[-1])
        return tuple(sorted(out))

    def _coef(self, classes: tuple[str, ...]) -> Counter:
        if not classes:
            return Counter()
        first, rest = classes[0], classes[1:]
        out = Counter({first: 1})
        out.update(self.coef(rest))
        out.subtract(self.coef(self._dca(first, rest)))
        return out


def _codes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    uniq, inv = np.unique(values, return_inverse=True)
    return uniq, inv.reshape(values.shape)


class IcmMetric(Metric):
    """``icm`` and ``icm_norm`` on hard labels or label sets, flat or hierarchical (PyEvALL)."""

    reads = "one label, or a label set, per item (a hierarchy optional)"

    allowed = ("field", "alpha1", "alpha2", "beta", "hierarchy")

    def __init__(self, name: str, description: str, norm: bool):
        self.name = name
        self.description = description
        self.norm = norm
        self.ideal = 1.0 if norm else None

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        """Per-item class memberships and ICM coefficients; see :meth:`Metric.prepare`."""
        params = self.check_params(params)
        a1 = _number(params, "alpha1", 2.0, self.name)
        a2 = _number(params, "alpha2", 2.0, self.name)
        beta = _number(params, "beta", 3.0, self.name)
        f = field_index(comp, params)
        paths = None
        if params.get("hierarchy") is not None:
            paths = parse_hierarchy(params["hierarchy"], self.name)
        m = comp.m
        gold_txt, gold_codes = _codes(comp.gold[:, f])
        pred_txt, pred_codes = _codes(comp.predictions[:, :, f])

        def as_set(text: str, where) -> tuple[str, ...]:
            k = kind(text)
            if k == "missing":
                return ()
            if k not in ("set", "label"):
                raise InputError(
                    f"{where()}: metric {self.name!r} reads labels or label sets, not {text!r}"
                    + (" (a soft label: use icm_soft)" if k == "soft" else "")
                )
            labels = tuple(str(x) for x in read_label_set(str(text)))
            if paths is not None:
                for lab in labels:
                    if lab not in paths:
                        raise InputError(
                            f"{where()}: label {lab!r} is not in the metric's `hierarchy`"
                        )
            return labels

        def first(mask_codes, code, system=None):
            """Where the value of code ``code`` first occurs (looked up only for an error)."""

            def where():
                pos = np.argwhere(mask_codes == code)[0]
                if system is None:
                    return comp.locate(None, int(pos[0]), f)
                return comp.locate(int(pos[0]), int(pos[1]), f)

            return where

        gsets = [as_set(t, first(gold_codes, j)) for j, t in enumerate(gold_txt)]
        for j, t in enumerate(gold_txt):
            if kind(t) == "missing":
                raise InputError(f"{first(gold_codes, j)()}: the gold gives no label")
        psets = [as_set(t, first(pred_codes, j, True)) for j, t in enumerate(pred_txt)]
        classes = sorted(
            set(paths or ()) | {c for s in gsets for c in s} | {c for s in psets for c in s}
        )
        index = {c: j for j, c in enumerate(classes)}
        k = len(classes)
        ic = _SetIC(paths)

        def vec(counter: Counter) -> np.ndarray:
            v = np.zeros(k)
            for c, w in counter.items():
                if w:
                    v[index[c]] = w
            return v

        # Gold table: membership of each node (the set or a descendant) and IC(G) coefficients.
        gtab = np.zeros((len(gsets), 2 * k))
        for j, s in enumerate(gsets):
            for c in s:
                for a in paths[c] if paths else (c,):
                    gtab[j, index[a]] = 1.0
            gtab[j, k:] = vec(ic.coef(s))
        # One row per distinct (gold, prediction) pair met: the item's ICM coefficients.
        pairs = gold_codes[None, :] * len(psets) + pred_codes
        upairs, pair_idx = np.unique(pairs, return_inverse=True)
        pair_idx = pair_idx.reshape(pairs.shape)
        gi, pi = upairs // len(psets), upairs % len(psets)
        if paths is None:  # flat: a set's IC is the sum of its classes' (coefficients 0/1)
            held = np.zeros((len(psets), k))
            for j, s in enumerate(psets):
                held[j, [index[c] for c in s]] = 1.0
            gold_held = gtab[gi, :k]
            wtab = a1 * held[pi] + a2 * gold_held - beta * np.maximum(held[pi], gold_held)
        else:
            pvec = [vec(ic.coef(p)) for p in psets]
            wtab = np.zeros((len(upairs), k))
            for r, (g, p) in enumerate(zip(gi, pi, strict=True)):
                union = tuple(sorted(set(gsets[g]) | set(psets[p])))
                wtab[r] = a1 * pvec[p] + a2 * gtab[g, k:] - beta * vec(ic.coef(union))
        columns = np.column_stack([gold_codes, pair_idx.T]).astype(np.float64)
        gg = a1 + a2 - beta
        norm = self.norm

        def stats(rows):
            codes = rows.astype(np.intp)
            return gtab[codes[:, 0]], wtab[codes[:, 1 : 1 + m]]

        def finalize(shared, sys, count, systems=None):
            n = np.asarray(count, dtype=float)[..., None]
            held = shared[..., :k]
            with np.errstate(divide="ignore", invalid="ignore"):
                info = np.where(held > 0, -np.log2(held / n), np.log2(n))
            score = safe_divide((sys * info[..., None, :]).sum(-1), n)
            if not norm:
                return score
            self_score = safe_divide(gg * (shared[..., k:] * info).sum(-1, keepdims=True), n)
            # undefined when the gold's own ICM is 0 (every gold item in one class): NaN, as
            # kappa's undefined cases (PyEvALL divides by zero there), not the worst score 0
            with np.errstate(invalid="ignore", divide="ignore"):
                normed = np.maximum((score + self_score) / (2 * self_score), 0.0)
            return np.where(self_score == 0, np.nan, normed)

        return self._prepared(params, columns=columns, stats=stats, finalize=finalize)

    def reference(self, gold, pred, **params) -> float:
        """PyEvALL's own ``ICM``/``ICMNorm`` on the values (the ``pyevall`` package)."""
        return pyevall_score(gold, pred, "ICMNorm" if self.norm else "ICM", **params)


def _soft_values(comp: Competition, f: int, system: int | None, name: str, multi: bool):
    """The class-to-weight dicts of gold or of one system (``{}``: missing), checked, and whether
    they were hard labels."""
    cells = comp.gold[:, f] if system is None else comp.predictions[system, :, f]
    out, kinds = [], set()
    for i, text in enumerate(cells):
        k = kind(text)
        if k == "missing":
            if system is None:
                raise InputError(f"{comp.locate(None, i, f)}: the gold gives no value")
            out.append({})
            continue
        if k not in ("soft", "label") or (system is None and k != "soft"):
            what = "a distribution (a JSON object class -> weight)"
            raise InputError(
                f"{comp.locate(system, i, f)}: metric {name!r} reads "
                f"{what if system is None else what + ' or a label'} here, not {text!r}"
            )
        if system is not None and kinds and k not in kinds:
            raise InputError(
                f"{comp.locate(system, i, f)}: system {comp.systems[system]!r} mixes hard labels "
                f"and soft labels (distributions); give one kind for every item"
            )
        kinds.add(k)
        d = read_soft(str(text))
        negative = [c for c, v in d.items() if not v >= 0]
        if negative:
            raise InputError(
                f"{comp.locate(system, i, f)}: class {negative[0]!r} has weight "
                f"{d[negative[0]]!r}; soft-label weights are 0 or more"
            )
        if k == "soft" and not multi and abs(sum(d.values()) - 1) > SUM_TOLERANCE:
            raise InputError(
                f"{comp.locate(system, i, f)}: the weights sum to {sum(d.values()):.6g}, not 1 "
                f"(a mono-label soft label is a distribution; set `multi_label = true` for "
                f"per-class weights that need not sum to 1)"
            )
        out.append(d)
    return out, kinds == {"label"}


class _SoftData:
    """Gold and runs as dense (n, K) / (m, n, K) weights and key-presence masks over the classes
    the gold names (in order of first appearance, as PyEvALL lists them)."""

    def __init__(self, comp: Competition, params: dict, name: str):
        f = field_index(comp, params)
        multi = bool(params.get("multi_label", False))
        gold, _ = _soft_values(comp, f, None, name, multi)
        classes: list[str] = []
        for d in gold:
            for c in d:
                if c not in classes:
                    classes.append(c)
        runs = []
        for s in range(comp.m):
            run, hard = _soft_values(comp, f, s, name, multi)
            if hard:  # a hard label: weight 1 on it, 0 on every other gold class
                run = [({c: 0.0 for c in classes} | d) if d else d for d in run]
            runs.append(run)
        index = {c: j for j, c in enumerate(classes)}
        n, m, k = comp.n, comp.m, len(classes)
        self.classes = classes
        self.g = np.zeros((n, k))
        self.g_has = np.zeros((n, k), dtype=bool)
        for i, d in enumerate(gold):
            for c, v in d.items():
                self.g[i, index[c]] = v
                self.g_has[i, index[c]] = True
        self.p = np.zeros((m, n, k))
        self.p_has = np.zeros((m, n, k), dtype=bool)
        self.extra = np.zeros((m, n))  # keys of a prediction that no gold item names
        self.gold, self.runs = gold, runs
        for s, run in enumerate(runs):
            for i, d in enumerate(run):
                for c, v in d.items():
                    if c in index:
                        self.p[s, i, index[c]] = v
                        self.p_has[s, i, index[c]] = True
                    else:
                        self.extra[s, i] += 1


def _soft_set_terms(entries: list, paths: dict[str, tuple[str, ...]]) -> list:
    """PyEvALL's recursive IC of a soft set, kept symbolic: ``(class, weights, ±1)`` terms whose
    IC sum is the set's IC. ``entries`` are ``(class, weights)`` with ``weights`` an array over
    the items that share these keys (the recursion depends only on the keys; the weights flow
    through its min and max). ``IC(L) = IC(L[0]) + IC(L[1:]) − IC(DCA(L[0], L[1:]))``, the DCA of
    two classes their deepest common ancestor weighted by the smaller weight, merged by the larger.
    """
    if not entries:
        return []
    (c, v), rest = entries[0], entries[1:]
    dca: list = []
    for d, u in rest:
        pa, pb = paths[c], paths[d]
        common = [e for e in pa if e in pb]
        if common:
            dca = _soft_union(dca, [(common[-1], np.minimum(v, u))])
    return (
        [(c, v, 1)]
        + _soft_set_terms(rest, paths)
        + [(x, w, -k) for x, w, k in _soft_set_terms(dca, paths)]
    )


def _soft_union(a: list, b: list) -> list:
    """PyEvALL's ``union_soft``: ``a``'s entries, then ``b``'s, one per class, the larger weight."""
    out = list(a)
    for cb, vb in b:
        for j, (cu, vu) in enumerate(out):
            if cu == cb:
                out[j] = (cu, np.maximum(vb, vu))
                break
        else:
            out.append((cb, vb))
    return out


def _merge_terms(terms: list) -> tuple[np.ndarray, ...]:
    """(class, weight, coefficient, row) arrays of ``terms``, the terms of one row with the same
    class and weight merged (their coefficients summed; those summing to 0 dropped): the IC
    of a class and its ancestor's weight often cancel."""
    if not terms:
        return np.zeros(0, np.intp), np.zeros(0), np.zeros(0), np.zeros(0, np.intp)
    cls, val, coef, row = (np.concatenate([t[j] for t in terms]) for j in range(4))
    order = np.lexsort((val, cls, row))
    cls, val, coef, row = cls[order], val[order], coef[order].astype(float), row[order]
    start = np.ones(len(row), dtype=bool)
    start[1:] = (row[1:] != row[:-1]) | (cls[1:] != cls[:-1]) | (val[1:] != val[:-1])
    first = np.flatnonzero(start)
    summed = np.add.reduceat(coef, first)
    keep = summed != 0
    return cls[first][keep], val[first][keep], summed[keep], row[first][keep]


class _SoftTerms:
    """ICM-Soft with a hierarchy as IC terms: each (system, item) score is ``Σ coef·IC(class,
    weight)`` over fixed terms, so a resample only re-evaluates IC with its μ and σ.

    Attributes: ``cls``, ``val``, ``coef``, ``row`` (system·n + item) of the run terms (α1·IC(P)
    − β·IC(P ∪ G)); ``gcls``, ``gval``, ``gcoef``, ``gitem`` of the gold terms (IC(G)); ``prop``
    (n, K) the gold weights propagated up by max (PyEvALL estimates μ and σ from them).
    """

    def __init__(self, comp, data: _SoftData, paths, f: int, name: str, a1: float, beta: float):
        nodes = list(paths)
        index = {c: j for j, c in enumerate(nodes)}
        n = comp.n
        for s, dicts in [(None, data.gold)] + list(enumerate(data.runs)):
            for i, d in enumerate(dicts):
                for c in d:
                    if c not in index:
                        raise InputError(
                            f"{comp.locate(s, i, f)}: class {c!r} is not in the metric's "
                            f"`hierarchy`"
                        )
        prop = np.zeros((n, len(nodes)))
        for i, d in enumerate(data.gold):
            for c, v in d.items():
                prop[i, index[c]] = v
        for c in reversed(nodes):  # children before parents
            if len(paths[c]) > 1:
                parent = index[paths[c][-2]]
                np.maximum(prop[:, parent], prop[:, index[c]], out=prop[:, parent])
        self.prop = prop
        groups: dict = {}
        for i, d in enumerate(data.gold):
            groups.setdefault(tuple(d), []).append(i)
        gterms = []
        for keys, members in groups.items():
            entries = [(c, np.array([data.gold[i][c] for i in members])) for c in keys]
            for c, v, k in _soft_set_terms(entries, paths):
                gterms.append(
                    (
                        np.full(len(members), index[c]),
                        v,
                        np.full(len(members), k),
                        np.asarray(members),
                    )
                )
        pairs: dict = {}
        for s, run in enumerate(data.runs):
            for i, d in enumerate(run):
                pairs.setdefault((tuple(data.gold[i]), tuple(d)), []).append((s, i))
        terms = []
        for (gkeys, pkeys), members in pairs.items():
            ss = np.array([x[0] for x in members])
            ii = np.array([x[1] for x in members])
            pent = [(c, np.array([data.runs[s][i][c] for s, i in members])) for c in pkeys]
            gent = [(c, np.array([data.gold[i][c] for i in ii])) for c in gkeys]
            union = _soft_union(gent, pent)
            rows = ss * n + ii
            for coef, ents in ((a1, pent), (-beta, union)):
                for c, v, k in _soft_set_terms(ents, paths):
                    terms.append(
                        (np.full(len(members), index[c]), v, np.full(len(members), coef * k), rows)
                    )
        self.cls, self.val, self.coef, self.row = _merge_terms(terms)
        self.gcls, self.gval, self.gcoef, self.gitem = _merge_terms(gterms)


def _info(v: np.ndarray, mu: np.ndarray, sigma: np.ndarray, log_n: float) -> np.ndarray:
    """PyEvALL's soft IC of weights ``v`` (..., K): ``−log2(1 − Φ((v−μ)/σ))``, 0 where ``v = 0``,
    ``log2 N`` where the tail probability is 0. ``σ = 0`` (a class with one gold weight), where
    PyEvALL fails, counts as a step: tail 0 above ``μ``, 1/2 at ``μ``, 1 below.

    Φ as :class:`statistics.NormalDist` computes it, ``0.5·(1 + erf((v−μ)/(σ·√2)))``; in place,
    one temporary (it runs on every item of every run in every resample with ``reestimate``).

    >>> # NormalDist(0.5, 0.25): 1 - cdf(1.0) = 0.0228 -> 5.457981 bits
    >>> _info(np.array([0.0, 0.5, 1.0]), np.array(0.5), np.array(0.25), 3.0).round(6).tolist()
    [0.0, 1.0, 5.457981]
    """
    from scipy.special import erf

    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.subtract(v, mu)
        t /= sigma * math.sqrt(2.0)
        if not np.all(sigma > 0):
            t[np.isnan(t)] = 0.0
        erf(t, out=t)
        t += 1.0
        t *= 0.5
        np.subtract(1.0, t, out=t)  # the tail probability
        zero = t == 0.0
        np.log2(t, out=t)
        np.negative(t, out=t)
    if zero.any():
        t[zero] = log_n
    t[v == 0.0] = 0.0
    return t


class IcmSoftMetric(Metric):
    """``icm_soft`` and ``icm_soft_norm``: ICM on soft labels (PyEvALL).

    The point score is PyEvALL's. In a resample, μ and σ stay at the full gold's estimate
    (``reestimate = false``, the default: the mean of per-item scores, additive and as fast as
    ICM) or are re-estimated from the resample's gold as PyEvALL would on the resampled files
    (``reestimate = true``: every item's IC recomputed per resample, about 200 times ICM's time;
    docs/performance.md).
    """

    reads = "a soft label per item (class → weight, as PyEvALL)"

    allowed = ("field", "alpha1", "alpha2", "beta", "multi_label", "reestimate", "hierarchy")

    def __init__(self, name: str, description: str, norm: bool):
        self.name = name
        self.description = description
        self.norm = norm
        self.ideal = 1.0 if norm else None

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        """Dense gold and run weights; per-item scores (frozen μ, σ) or the score of a resample
        from its items (``reestimate``); see :meth:`Metric.prepare`."""
        params = self.check_params(params)
        a1 = _number(params, "alpha1", 2.0, self.name)
        a2 = _number(params, "alpha2", 2.0, self.name)
        beta = _number(params, "beta", 3.0, self.name)
        reestimate = params.get("reestimate", False)
        if not isinstance(reestimate, bool):
            raise InputError(f"metric {self.name!r}: `reestimate` is true or false")
        data = _SoftData(comp, params, self.name)
        n = comp.n
        g, g_has, p, p_has, extra = data.g, data.g_has, data.p, data.p_has, data.extra
        p_ge = p >= g[None]
        norm = self.norm

        def items(use, w):
            """Per-item ICM (m, len(use)) and IC of the gold (len(use),) of the items ``use``,
            μ and σ estimated from them weighted by ``w``."""
            total = w.sum()
            log_n = math.log2(total)
            gu = g[use]
            mu = (w @ gu) / total
            sigma = (w @ np.abs(gu - mu)) / total
            named = (w @ g_has[use]) > 0  # classes some drawn gold item names
            # a class the drawn gold names: IC(0) = 0, so a key left out is a weight of 0, and
            # the union's IC is that of the larger weight
            ic_g = _info(gu, mu, sigma, log_n)
            ic_p = _info(p[:, use], mu, sigma, log_n)
            if not named.all():
                ic_g[:, ~named] = 0.0
                ic_p[:, :, ~named] = 0.0
            ic_gold = ic_g.sum(-1)
            item = a1 * ic_p.sum(-1) + a2 * ic_gold[None]
            np.copyto(ic_p, ic_g[None], where=~p_ge[:, use])  # now the union's IC
            item -= beta * ic_p.sum(-1)
            # a key no drawn gold item names: IC log2 N in the prediction and in the union
            unnamed = extra[:, use]
            if not named.all():
                unnamed = unnamed + (p_has[:, use] & ~named).sum(-1)
            item += (a1 - beta) * log_n * unnamed
            return item, ic_gold

        def score(item_sum, gold_sum, total):
            out = item_sum / total
            if not norm:
                return out
            self_score = (a1 + a2 - beta) * gold_sum / total
            with np.errstate(invalid="ignore", divide="ignore"):
                normed = np.maximum((out + self_score) / (2 * self_score), 0.0)
            return np.where(self_score == 0, np.nan, normed)  # undefined, as for icm_norm

        if params.get("hierarchy") is not None:
            paths = parse_hierarchy(params["hierarchy"], self.name)
            t = _SoftTerms(comp, data, paths, field_index(comp, params), self.name, a1, beta)
            m = comp.m

            def items_all(w):
                """Per-item ICM (m, n) and IC of the gold (n,), μ and σ from the propagated
                gold weighted by ``w`` (n,)."""
                total = w.sum()
                log_n = math.log2(total)
                mu = (w @ t.prop) / total
                sigma = (w @ np.abs(t.prop - mu)) / total
                ic = _info(t.val, mu[t.cls], sigma[t.cls], log_n)
                item = np.bincount(t.row, weights=t.coef * ic, minlength=m * n).reshape(m, n)
                gic = _info(t.gval, mu[t.gcls], sigma[t.gcls], log_n)
                ic_gold = np.bincount(t.gitem, weights=t.gcoef * gic, minlength=n)
                return item + a2 * ic_gold[None], ic_gold

            if reestimate:

                def evaluate(idx):
                    w = np.bincount(np.asarray(idx, dtype=np.intp), minlength=n).astype(float)
                    item, ic_gold = items_all(w)
                    return score(item @ w, ic_gold @ w, w.sum())

                return self._prepared(params, evaluate=evaluate)
            item, ic_gold = items_all(np.ones(n))
        elif reestimate:

            def evaluate(idx):
                counts = np.bincount(np.asarray(idx, dtype=np.intp), minlength=n)
                use = np.flatnonzero(counts)
                w = counts[use].astype(float)
                item, ic_gold = items(use, w)
                return score(item @ w, ic_gold @ w, w.sum())

            return self._prepared(params, evaluate=evaluate)
        else:
            item, ic_gold = items(np.arange(n), np.ones(n))
        columns = np.column_stack([ic_gold, item.T])

        def stats(rows):
            return rows[:, :1], rows[:, 1:, None]

        def finalize(shared, sys, count, systems=None):
            total = np.asarray(count, dtype=float)[..., None]
            return score(sys[..., 0], shared[..., :1], total)

        return self._prepared(params, columns=columns, stats=stats, finalize=finalize)

    def reference(self, gold, pred, **params) -> float:
        """PyEvALL's own ``ICMSoft``/``ICMSoftNorm`` on the values (the ``pyevall`` package)."""
        return pyevall_score(gold, pred, "ICMSoftNorm" if self.norm else "ICMSoft", **params)


class SoftItemMetric(Metric):
    """``cross_entropy`` and ``soft_mae``: per-item measures of soft labels (PyEvALL's LeWiDi)."""

    reads = "a soft label per item (class → weight, as PyEvALL)"

    allowed = ("field", "multi_label")
    higher_is_better = False
    ideal = 0.0

    def __init__(self, name: str, description: str):
        self.name = name
        self.description = description

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        """Per-item cross-entropy, or per-class absolute errors; see :meth:`Metric.prepare`."""
        params = self.check_params(params)
        data = _SoftData(comp, params, self.name)
        m, k = comp.m, len(data.classes)
        if self.name == "cross_entropy":
            ce = np.zeros((m, comp.n))
            for i, gd in enumerate(data.gold):
                gs = _smooth(gd)
                for s in range(m):
                    ps = _smooth(data.runs[s][i])
                    ce[s, i] = -sum(v * math.log2(ps[c]) for c, v in gs.items() if c in ps)
            columns = ce.T.copy()

            def stats(rows):
                return np.zeros((len(rows), 0)), rows[:, :, None]

            def finalize(shared, sys, count, systems=None):
                return safe_divide(sys[..., 0], np.asarray(count, dtype=float)[..., None])

        else:
            err = np.abs(data.g[None] - data.p)  # (m, n, k)
            columns = np.column_stack([data.g_has, err.transpose(1, 0, 2).reshape(comp.n, -1)])

            def stats(rows):
                return rows[:, :k], rows[:, k:].reshape(len(rows), m, k)

            def finalize(shared, sys, count, systems=None):
                named = (shared > 0).sum(-1, keepdims=True)
                n = np.asarray(count, dtype=float)[..., None]
                mask = (shared > 0)[..., None, :]
                return safe_divide((sys * mask).sum(-1), named * n)

        return self._prepared(
            params, columns=columns.astype(np.float64), stats=stats, finalize=finalize
        )

    def reference(self, gold, pred, **params) -> float:
        """PyEvALL's own ``CrossEntropy``/``MAE`` on the values (the ``pyevall`` package)."""
        return pyevall_score(
            gold, pred, "CrossEntropy" if self.name == "cross_entropy" else "MAE", **params
        )


def _smooth(d: dict[str, float]) -> dict[str, float]:
    """PyEvALL's cross-entropy smoothing: values <= 0 become 0.001, then the sum is 1."""
    d = {c: (SMOOTH if v <= 0.0 else v) for c, v in d.items()}
    total = sum(d.values())
    return {c: v / total for c, v in d.items()}


def pyevall_score(gold, pred, metric: str, **params) -> float:
    """PyEvALL's score of one run (a reference for the tests; needs the ``pyevall`` package).

    ``gold`` and ``pred`` hold stored values (labels, label-set or soft-label JSON text, ``""``
    for a missing prediction); ``params`` may give ``hierarchy``, ``alpha1``, ``alpha2``, ``beta``.
    """
    import os
    import tempfile

    from pyevall.evaluation import PyEvALLEvaluation
    from pyevall.utils.utils import PyEvALLUtils

    def value(text):
        return json.loads(text) if kind(text) in ("set", "soft") else text

    with tempfile.TemporaryDirectory() as tmp:
        gp, pp = os.path.join(tmp, "gold.json"), os.path.join(tmp, "pred.json")
        rows = [{"test_case": "T", "id": f"r{i}", "value": value(g)} for i, g in enumerate(gold)]
        with open(gp, "w", encoding="utf-8") as fh:
            json.dump(rows, fh)
        rows = [
            {"test_case": "T", "id": f"r{i}", "value": value(p)}
            for i, p in enumerate(pred)
            if p != ""
        ]
        with open(pp, "w", encoding="utf-8") as fh:
            json.dump(rows, fh)
        kw = {PyEvALLUtils.PARAM_REPORT: PyEvALLUtils.PARAM_OPTION_REPORT_DATAFRAME}
        if params.get("hierarchy") is not None:
            kw[PyEvALLUtils.PARAM_HIERARCHY] = json.loads(json.dumps(params["hierarchy"]))
        for ours, theirs in (("alpha1", "alpha_1"), ("alpha2", "alpha_2"), ("beta", "beta")):
            if ours in params:
                kw[theirs] = params[ours]
        report = PyEvALLEvaluation().evaluate(pp, gp, [metric], **kw)
        return float(report.df_average.iloc[0, 1])
