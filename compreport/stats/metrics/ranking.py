"""Ranking metrics over queries: ``map``, ``map@k``, ``mrr``, ``p@k``, ``ndcg@k``.

The items of a competition are (query, candidate) pairs: the gold gives each candidate its query
(the cluster column, ``--query-col``) and its relevance, a run a score per candidate. Within a
query, a system's candidates are ranked by decreasing score; candidates without a score
(``--missing wrong``) are not retrieved. Equal scores are ordered by the parameter ``ties``
(``--ties``):

* ``id`` (the default), as trec_eval orders them: by decreasing item id (string order);
* ``file``, in the order the run file lists them (the gold's order for a wide table), as the
  SemEval-2016 Task 3 (CQA) scorer does: it sorts each question's candidates, read in file order,
  with Python's stable ``sorted(..., key=score, reverse=True)``.

Per query, with R the query's relevant candidates in the gold:

* ``map`` (``map@k``): average precision, the precision at the rank of each relevant candidate
  retrieved (within the first k), summed and divided by R (trec_eval ``map``, ``map_cut_k``);
* ``mrr``: 1 / the rank of the first relevant candidate, 0 if none is retrieved (``recip_rank``);
* ``p@k``: relevant candidates among the first k, divided by k (``P_k``);
* ``ndcg@k``: DCG of the first k, sum of gain / log2(rank + 1), divided by that of the ideal
  order of the query's gold gains (``ndcg_cut_k``); 0 when the ideal DCG is 0.

Relevance is ``gold == pos_label`` (gain 1) when ``pos_label`` is given, else the gold value as a
number (graded gains; relevant when > 0). A negative grade (TREC's -1/-2 for junk or spam) is gain 0
and not relevant, as in trec_eval: it counts neither in the DCG nor in the ideal DCG, and the
candidate still takes its rank. A query without a relevant candidate scores 0 for every system
and counts in the mean, as in trec_eval. The score is the mean over queries, so the query is the
resampling unit: ranking metrics need the query column, and the bootstrap then draws queries (the
cluster bootstrap, :mod:`compreport.inputs.clusters`).

Decomposable: item i of query q carries ``1 / |q|`` (shared) and ``value_s(q) / |q|`` for each
system s, so the statistics summed over the items of any set of drawn queries are their count and
the sum of their values, exactly; the jackknife and the randomization test then work on queries.
"""

from __future__ import annotations

import re

import numpy as np

from compreport.errors import InputError, option
from compreport.inputs.competition import Competition
from compreport.inputs.parsed import TIES
from compreport.stats.metrics.base import Metric, Prepared, safe_divide
from compreport.stats.metrics.fields import NO_PREDICTION, field_index, to_scores

#: Names of the ranking metrics: ``map``, ``mrr``, and ``map@k``, ``p@k``, ``ndcg@k`` for k >= 1.
PATTERN = re.compile(r"(map|mrr|p|ndcg)(?:@([1-9][0-9]*))?")


#: The ranking metrics cut at k, as ``compreport metrics`` lists them.
CUT_AT_K = (
    ("map@K", "average precision within the first K, mean over queries"),
    ("p@K", "precision of the first K candidates, mean over queries"),
    ("ndcg@K", "normalized DCG of the first K candidates, mean over queries"),
)


def file_order(comp: Competition) -> np.ndarray:
    """Each system's items in the order its file lists them, shape (m, n): item i's position
    (smaller comes first); the gold's item order where a system's lines are not known (a table
    read whole, a DataFrame).

    The SemEval-2016 Task 3 scorer (``_scorer/ev.py`` of the task's published "submissions and
    scores" distribution, ``read_res_pred_files``) appends each question's candidates as it reads
    the prediction file line by line, then ranks them with
    ``sorted(svm[qid], key=itemgetter(1), reverse=True)``: Python's sort is stable, so candidates
    of equal score keep the file's order.
    """
    order = np.tile(np.arange(comp.n), (comp.m, 1))
    for s, source in enumerate(comp.system_sources or []):
        lines = getattr(source, "lines", None)
        if lines is not None and len(lines) == comp.n:
            order[s] = np.asarray(lines, dtype=np.int64)
    return order


def ranking_metric(name: str) -> RankingMetric | None:
    """The ranking metric called ``name``, or None when it is not one.

    Examples
    --------
    >>> ranking_metric("ndcg@10").k, ranking_metric("ndcg"), ranking_metric("accuracy")
    (10, None, None)
    """
    m = PATTERN.fullmatch(name)
    if (
        not m
        or (m.group(1) in ("p", "ndcg") and not m.group(2))
        or (m.group(1) == "mrr" and m.group(2))
    ):
        return None
    return RankingMetric(m.group(1), int(m.group(2)) if m.group(2) else None)


class RankingMetric(Metric):
    """A ranking metric averaged over queries (see the module docstring)."""

    reads = "a score per candidate, candidates grouped in queries"

    allowed = ("field", "pos_label", "ties")
    ideal = 1.0
    higher_is_better = True
    ranks = True

    def __init__(self, kind: str, k: int | None):
        self.kind, self.k = kind, k
        self.name = kind + (f"@{k}" if k else "")
        self.description = {
            "map": "mean average precision over queries (needs --query-col)",
            "mrr": "mean reciprocal rank over queries (needs --query-col)",
            "p": "precision of the first k candidates, mean over queries",
            "ndcg": "normalized DCG of the first k candidates, mean over queries",
        }[kind]

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        """Per-query values of every system, spread over the query's items (module docstring)."""
        params = self.check_params(params)
        if params.get("ties", "id") not in TIES:
            raise InputError(
                f"metric {self.name!r}: ties={params['ties']!r} is not one of "
                f"{', '.join(TIES)} (how equal scores are ordered: {option('ties')})"
            )
        if comp.clusters is None:
            raise InputError(
                f"metric {self.name!r} ranks the candidates of each query: name the gold's query "
                f"column with {option('query_col')} (the query is then the resampling unit)"
            )
        f = field_index(comp, params)
        gains = self._gains(comp, f, params)
        scores = to_scores(comp, f, self.name, unscored=True)  # NaN: not retrieved
        values = query_values(
            self.kind,
            self.k,
            comp.clusters.codes,
            comp.item_ids,
            gains,
            scores,
            file_order(comp) if params.get("ties", "id") == "file" else None,
        )
        share = 1.0 / comp.clusters.sizes[comp.clusters.codes].astype(float)
        columns = np.column_stack([share, values[:, comp.clusters.codes].T * share[:, None]])
        m = comp.m

        def stats(rows):
            return rows[:, :1], rows[:, 1 : 1 + m][..., None]

        def finalize(shared, sys, count, systems=None):
            return safe_divide(sys[..., 0], shared[..., [0]])

        return Prepared(
            self.name,
            params,
            self.higher_is_better,
            self.ideal,
            columns=columns,
            stats=stats,
            finalize=finalize,
        )

    def _gains(self, comp: Competition, f: int, params: dict) -> np.ndarray:
        gold = comp.gold[:, f]
        if params.get("pos_label") is not None:
            return (gold == str(params["pos_label"])).astype(float)
        try:
            # an unjudged item (no gold value) is not relevant
            gains = np.where(gold == NO_PREDICTION, "0", gold).astype(np.float64)
        except ValueError:
            gains = None
        if gains is None or not np.isfinite(gains).all():  # 'inf', 'nan' parse: not a grade either
            i = next(i for i, v in enumerate(gold) if v != NO_PREDICTION and not _is_number(v))
            raise InputError(
                f"{comp.locate(None, i, f)}: relevance {str(gold[i])!r} is not a number; give the "
                f"relevant label with {option('pos_label')} (metric {self.name!r})"
            )
        return gains

    def reference(self, gold, pred, **params):  # pragma: no cover - the tests use trec_eval itself
        raise NotImplementedError(
            "ranking metrics are checked against trec_eval (pytrec_eval) in the tests"
        )


def _is_number(v) -> bool:
    try:
        return bool(np.isfinite(float(v)))
    except ValueError:
        return False


def query_values(
    kind: str,
    k: int | None,
    query: np.ndarray,
    ids: np.ndarray,
    gains: np.ndarray,
    scores: np.ndarray,
    order: np.ndarray | None = None,
) -> np.ndarray:
    """Per-query values of a ranking metric for every system.

    Parameters
    ----------
    kind : {"map", "mrr", "p", "ndcg"}
        The metric (module docstring).
    k : int or None
        The cut-off (None: no cut, for ``map`` and ``mrr``).
    query : ndarray of int, shape (n,)
        Each item's query, coded 0..Q-1.
    ids : ndarray, shape (n,)
        Item ids (they break ties of scores, as trec_eval).
    gains : ndarray, shape (n,)
        Each item's gain (negative grades count as 0).
    scores : ndarray, shape (m, n)
        Every system's scores; NaN where a candidate is not retrieved.
    order : ndarray of int, shape (m, n), optional
        Each system's order of equal scores, smaller first (:func:`file_order`); None: by
        decreasing id, as trec_eval.

    Returns
    -------
    ndarray, shape (m, Q)
    """
    m = scores.shape[0]
    gains = np.maximum(gains, 0.0)  # a negative grade is gain 0, as in trec_eval
    nq = int(query.max()) + 1
    values = np.zeros((m, nq))
    if order is None:  # each item's rank by decreasing id breaks ties (trec_eval)
        by_id = np.argsort(np.argsort(ids.astype(str), kind="stable"), kind="stable")
        order = np.broadcast_to(-by_id, scores.shape)
    for q in range(nq):
        items = np.flatnonzero(query == q)
        g = gains[items]
        relevant = int((g > 0).sum())
        if not relevant:
            continue
        ideal = np.sort(g)[::-1]
        for s in range(m):
            sc = scores[s, items]
            got = ~np.isnan(sc)
            # decreasing score, then the order of ties
            ranked = items[got][np.lexsort((order[s, items[got]], -sc[got]))]
            rg = gains[ranked]
            values[s, q] = _value(kind, k, rg, ideal, relevant)
    return values


def _value(
    kind: str, k: int | None, ranked_gains: np.ndarray, ideal: np.ndarray, relevant: int
) -> float:
    rel = ranked_gains > 0
    if kind == "map":
        top = rel[:k] if k else rel
        hits = np.cumsum(top)
        return float((hits / np.arange(1, len(top) + 1))[top].sum() / relevant)
    if kind == "mrr":
        first = np.flatnonzero(rel)
        return 1.0 / (first[0] + 1) if len(first) else 0.0
    if kind == "p":
        return float(rel[:k].sum() / k)
    disc = 1.0 / np.log2(np.arange(2, k + 2))
    dcg = float((ranked_gains[:k] * disc[: len(ranked_gains[:k])]).sum())
    idcg = float((ideal[:k] * disc[: len(ideal[:k])]).sum())
    return dcg / idcg if idcg > 0 else 0.0
