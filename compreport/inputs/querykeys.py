"""Items keyed by (query, id), and the unjudged candidates of ranking runs (TREC-style tasks).

With a query column (``--query-col``/``--cluster-col``), the gold + runs layout joins runs to the
gold by (query, id) instead of by id when the gold's ids repeat across queries (TREC's document
numbers do) or when ``--unjudged`` is given; every run then needs the query column too, at the same
place (:func:`query_column`). With ``--unjudged``, candidates that runs list and the gold does not
(documents nobody judged) of a judged query (one the gold names) become items that are not
relevant, in the query the runs give them, in order of first appearance, with a blank gold value
(ranking metrics read it as not relevant); a run that does not list one has not retrieved it (it
is not a missing prediction). The candidates of a query no gold line names are left out for every
run, as trec_eval skips such queries, with one note (:func:`judged_only`): so each run's score
depends on that run alone. Without ``--unjudged`` such a candidate is an error naming the run file
and line, as an unknown id always is.
"""

from __future__ import annotations

import dataclasses

from compreport.errors import InputError, excerpt, option
from compreport.inputs.delimited import check_unique
from compreport.inputs.parsed import Parsed, RawText, ReadOptions
from compreport.inputs.records import cluster_index, layout, shown_row


def keyed(ident: str, query: str) -> str:
    """The join key of item ``ident`` of query ``query`` (also how messages name it).

    >>> keyed("FT911-1", "301")
    'FT911-1 (query 301)'
    """
    return f"{ident} (query {query})"


def by_query(gold: Parsed, opts: ReadOptions) -> bool:
    """Whether the runs join the gold by (query, id): the gold's ids repeat, or ``--unjudged``."""
    return gold.ids is not None and (opts.unjudged or len(set(gold.ids)) < len(gold.ids))


def gold_keys(gold: Parsed, queries: list) -> list[str]:
    """The gold's (query, id) keys, checked unique (an error names both lines)."""
    keys = [keyed(i, q) for i, q in zip(gold.ids, queries, strict=True)]
    check_unique(gold.path, keys, gold.lines)
    return keys


def query_column(raw: RawText | Parsed, opts: ReadOptions, gold: Parsed, run: Parsed) -> int:
    """The 1-based column of ``run`` (read from ``raw``) that holds the query
    (``opts.cluster_column``).

    Where the run has it (:func:`~compreport.inputs.records.cluster_index`): the column its header
    gives the query's name (a position: the name the gold's header has there); a headerless run as
    wide as the gold: the gold's column. Otherwise a position is the same position, and a name is
    an error asking for the column (a header naming it, or a position): a headerless run of another
    width says nothing of where a named column is.
    """
    col, said = opts.cluster_column, opts.named("cluster_column")
    if not isinstance(raw, RawText):
        raise InputError(
            f"{run.path}: a run joined to the gold by (query, id) needs the query ({said}) in a "
            f"column of a delimited file (CSV, TSV or whitespace-separated)"
        )
    at = cluster_index(opts, "run", run.header, run.width, gold)
    if at is not None:
        return at + 1
    if isinstance(col, int):
        return col
    first = f"line {raw.lines[raw.start]}"
    if run.header is not None:
        raise InputError(
            f"{run.path}, {first}: the header ({shown_row(run.header)}) has no query column "
            f"{col!r} ({said}); a run joined to the gold by (query, id) needs each candidate's "
            f"query"
        )
    # a named query column is in the gold's header (clustercol.gold_cluster_labels checked it)
    gold_at = opts.named("cluster_column", gold.header.index(col) + 1)
    raise InputError(
        f"{run.path}, {first}: no header, and {run.width} columns where the gold has "
        f"{gold.width}, so the query column {col!r} ({said}) cannot be found by its name; give "
        f"its position, the same in the gold and the runs (the gold has it at {gold_at}), or give "
        f"the run a header line"
    )


def run_keyed(
    raw, header: bool, opts: ReadOptions, gold: Parsed, run: Parsed
) -> tuple[Parsed, list[tuple]]:
    """``run`` with its ids replaced by (query, id) keys, and the (id, query) of each of its rows,
    the query read from the run's query column (:func:`query_column`)."""
    if run.ids is None:
        raise InputError(f"{run.path}: a run joined by (query, id) needs ids; this file has none")
    at = query_column(raw, opts, gold, run)
    read = layout(
        raw,
        "run",
        header,
        dataclasses.replace(opts.cluster_as_label(), runs_label_columns=[at]),
        None,
        gold,
    )
    queries = []
    for k, v in enumerate(read.values):
        if v[0] is None:
            raise InputError(
                f"{read.where(k, 0)}: blank query ({option('query_col')}); every candidate a run "
                f"lists needs its query"
            )
        queries.append(v[0])
    pairs = list(zip(run.ids, queries, strict=True))
    return dataclasses.replace(run, ids=[keyed(i, q) for i, q in pairs]), pairs


def unjudged(
    runs: list[tuple[Parsed, list[tuple]]], known: set[str]
) -> tuple[list[str], list[str], list[str]]:
    """The candidates the runs list and the gold does not, in order of first appearance: their
    keys, plain ids and queries."""
    keys, ids, queries, seen = [], [], [], set(known)
    for run, pairs in runs:
        for key, (ident, query) in zip(run.ids, pairs, strict=True):
            if key not in seen:
                seen.add(key)
                keys.append(key)
                ids.append(ident)
                queries.append(query)
    return keys, ids, queries


#: Queries a message names before "and N more".
SHOWN_QUERIES = 3


def judged_only(runs: list[tuple], judged: set[str]) -> tuple[list[tuple], str | None]:
    """``runs`` (each ``(found, run, pairs)`` as :func:`run_keyed` gives ``run, pairs``) without
    the candidates of queries ``judged`` does not hold, and a note saying what was left out (None
    when nothing was): trec_eval scores only the queries its qrels name, so a query only some runs
    list counts for no run, and no run's score depends on another run's queries.

    >>> from compreport.inputs.parsed import Parsed
    >>> run = Parsed("a.txt", "a.txt", ["d1 (query q1)", "d9 (query q2)"], [["1"], ["1"]], [1, 2],
    ...              ["column 5"])
    >>> ((_, kept, pairs),), said = judged_only([(None, run, [("d1", "q1"), ("d9", "q2")])], {"q1"})
    >>> kept.ids, pairs
    (['d1 (query q1)'], [('d1', 'q1')])
    >>> said.split(" left out")[0]
    "1 candidate(s) of 1 query no gold line names ('q2')"
    """
    kept, left, per_run = [], {}, []
    for found, run, pairs in runs:
        keep = [k for k, (_, q) in enumerate(pairs) if q in judged]
        if len(keep) < len(pairs):
            for _, q in pairs:
                if q not in judged:
                    left[q] = left.get(q, 0) + 1
            per_run.append(f"{run.path}: {len(pairs) - len(keep)}")
            new = {k: i for i, k in enumerate(keep)}
            run = dataclasses.replace(
                run,
                ids=[run.ids[k] for k in keep],
                values=[run.values[k] for k in keep],
                lines=[run.lines[k] for k in keep],
                missing_text={(new[k], f): t for (k, f), t in run.missing_text.items() if k in new},
            )
            pairs = [pairs[k] for k in keep]
        kept.append((found, run, pairs))
    if not left:
        return kept, None
    queries = ", ".join(excerpt(q) for q in list(left)[:SHOWN_QUERIES])
    if len(left) > SHOWN_QUERIES:
        queries += f" and {len(left) - SHOWN_QUERIES} more"
    runs_said = "; ".join(per_run[:SHOWN_QUERIES])
    if len(per_run) > SHOWN_QUERIES:
        runs_said += f"; and {len(per_run) - SHOWN_QUERIES} more runs"
    return kept, (
        f"{sum(left.values())} candidate(s) of {len(left)} "
        f"{'query' if len(left) == 1 else 'queries'} no gold line names ({queries}) left out of "
        f"every run, as trec_eval skips unjudged queries ({runs_said})"
    )
