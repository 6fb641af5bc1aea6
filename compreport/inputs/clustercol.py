"""The column that names each item's cluster (``--cluster-col`` / ``[data] cluster``), for the
cluster bootstrap (:mod:`compreport.inputs.clusters`): read from the gold file of the gold + runs
layout, or taken out of a wide table's (or DataFrame's) columns, where it would otherwise be read
as a system. Every item needs a cluster, and there must be at least two clusters."""

from __future__ import annotations

import numpy as np

from compreport.errors import InputError, option
from compreport.inputs.clusters import Clusters
from compreport.inputs.parsed import Parsed, RawText, ReadOptions, option_of
from compreport.inputs.records import layout

#: The option that gives the cluster column (``--cluster-col``), as the schema keys it.
_CLUSTER = option_of("cluster_column")


def _checked(labels: list, column: str, blank_at) -> Clusters:
    """Clusters from one label per item of the column ``column``; a blank label or a single
    cluster is an :class:`InputError` (``blank_at(k)`` locates item ``k``)."""
    for k, v in enumerate(labels):
        if v is None or v == "":
            raise InputError(
                f"{blank_at(k)}: blank cluster; with {option(_CLUSTER, column)} every item "
                f"needs one (its question, document, author, ...)"
            )
    clusters = Clusters.from_labels(labels, column)
    if clusters.count < 2:
        raise InputError(
            f"{blank_at(0)}: column {column!r} ({option(_CLUSTER)}) names a single cluster, "
            f"{clusters.labels[0]!r}, for every item: the cluster bootstrap needs two or more"
        )
    return clusters


def gold_clusters(column: tuple, extra: list[str] = ()) -> Clusters:
    """The cluster of each gold item (gold file order), from what :func:`gold_cluster_labels`
    read, then those of ``extra`` items (the unjudged candidates of
    :mod:`compreport.inputs.querykeys`)."""
    labels, name, where = column
    return _checked(
        [*labels, *extra], name, lambda k: where(k) if k < len(labels) else "an unjudged item"
    )


def gold_cluster_labels(raw: RawText | Parsed, header: bool, opts: ReadOptions):
    """``(labels, column name, where(k))``: the cluster column of the gold file, one label (or None
    for a blank) per item, its name, and where item ``k`` is (for errors)."""
    if isinstance(raw, Parsed):
        raise InputError(
            f"{raw.path}: {option(_CLUSTER)} reads a column of a delimited gold file (CSV, "
            f"TSV or whitespace-separated); add the cluster to such a file"
        )
    col = opts.cluster_column
    names = raw.rows[raw.start] if header else None
    if isinstance(col, str) and (names is None or col not in names):
        has = f"the header ({', '.join(map(repr, names))})" if names else "no header line"
        raise InputError(
            f"{raw.path}, line {raw.lines[raw.start]}: no column {col!r} for "
            f"{option(_CLUSTER)}; the file has {has} (give a header name or a 1-based "
            f"position)"
        )
    read = layout(raw, "gold", header, opts.cluster_as_label(), None)
    # a file without a header names the column by its position: "column 1" wherever it is shown
    name = col if isinstance(col, str) else (read.header[col - 1] if read.header else str(col))
    return [v[0] for v in read.values], name, lambda k: read.where(k, 0)


def take_column(pieces: dict, column: int | str, where: str) -> dict:
    """A wide table's pieces without the system column ``column`` (a header name), whose values
    become ``pieces["clusters"]``."""
    systems = list(pieces["systems"])
    if not isinstance(column, str):
        raise InputError(
            f"{where}: {option(_CLUSTER)} names a wide table's column by its header name; "
            f"got position {column}"
        )
    if column not in systems:
        raise InputError(
            f"{where}: no column {column!r} for {option(_CLUSTER)} (columns besides the gold "
            f"and id: {', '.join(map(repr, systems))})"
        )
    j = systems.index(column)
    labels = [str(v) for v in np.asarray(pieces["predictions"][j])[:, 0]]
    sources = list(pieces.get("system_sources") or [])
    locate = (lambda k: sources[j].locate(k)) if sources else (lambda k: f"{where}, item {k + 1}")
    clusters = _checked(labels, column, locate)
    keep = [s for s in range(len(systems)) if s != j]
    out = dict(
        pieces,
        systems=[systems[s] for s in keep],
        predictions=np.asarray(pieces["predictions"])[keep],
        clusters=clusters,
    )
    if sources:
        out["system_sources"] = [sources[s] for s in keep]
    for key in ("missing", "teams"):
        if key in out:
            out[key] = {s: v for s, v in out[key].items() if s != column}
    if not out["systems"]:
        raise InputError(f"{where}: no system columns besides the gold, id and cluster columns")
    return out
