"""Read gold and predictions from files into a validated :class:`Competition`.

Two layouts are understood:

* a *wide table* (CSV/TSV): one row per test item, a gold column, an optional id
  column and one column per system;
* a *gold file plus run files*: the gold file holds ``id`` and the label(s), every
  run file holds ``id`` and the prediction(s) of one system (header optional), and
  the system is named after the file stem.

Every problem is raised as :class:`~compreport.errors.InputError` naming the file and line,
column or id. The cell-level reading is in :mod:`.delimited`; plain wide tables take the faster
:mod:`.fastwide` path, which gives the same arrays.

The readers return the *pieces* of a :class:`~compreport.inputs.competition.Competition` as a
dict: ``gold`` (n, F) and ``predictions`` (m, n, F) arrays of str, ``systems``, ``item_ids``
(n,), ``fields``, ``gold_source`` and ``system_sources`` (for error messages), and ``inputs``
(path and SHA-256 of every file read). :func:`build` adds the metadata (a
:class:`~compreport.inputs.competition.CompetitionInfo`).
"""

from __future__ import annotations

import glob
import os
from pathlib import Path

import numpy as np

from ..words import option
from .competition import Competition, CompetitionInfo, MetricSpec, Source
from .delimited import check_missing, check_unique, read_table, sha256, text_name
from .fastwide import read_wide_fast
from ..errors import InputError

_TABLE_SUFFIXES = {".csv", ".tsv", ".tab", ".txt", ""}


def _header_index(path: str, header: list[str], name: str, what: str) -> int:
    if name not in header:
        shown = ", ".join(repr(h) for h in header)
        raise InputError(f"{path}: {what} column {name!r} not found (columns: {shown}); "
                         f"pass {option(what, 'NAME')}")
    return header.index(name)


def read_wide(path: str | Path, gold: str = "y", id_column: str | None = None) -> dict:
    """Read the wide layout: one row per item, a gold column, an optional id column, one column per system.

    Plain files (no quotes, no unusual whitespace or line breaks, every row as wide as the
    header, no blank/NaN cell, unique ids) are split with numpy on the bytes (pandas' C parser
    for non-ASCII text); anything else, and every error, goes through the ``csv`` module path,
    which knows the line of each row. Both give the same arrays.

    Parameters
    ----------
    path : str or Path
        CSV/TSV file.
    gold : str
        Name of the gold column.
    id_column : str or None
        Name of the id column; ``None``: a column called ``id`` if any, else items are numbered
        from 1.

    Returns
    -------
    dict
        The pieces of a Competition (see the module docstring); one field, ``label``.
    """
    pieces = read_wide_fast(str(path), gold, id_column)
    if pieces is not None:
        return pieces
    return _read_wide_csv(path, gold, id_column)


def _read_wide_csv(path: str | Path, gold: str = "y", id_column: str | None = None) -> dict:
    """:func:`read_wide` through :func:`~compreport.inputs.delimited.read_table` (the ``csv`` module).

    Slow, but every error names its line.
    """
    table = read_table(path)
    path = table.path
    header, rows = table.rows[0], table.rows[1:]
    for j, name in enumerate(header):
        if not name:
            raise InputError(f"{path}, line {table.lines[0]}, column {j + 1}: empty column name")
        if header.index(name) != j:
            raise InputError(f"{path}, line {table.lines[0]}: column {name!r} appears twice "
                             f"(columns {header.index(name) + 1} and {j + 1})")
    g = _header_index(path, header, gold, "gold")
    if id_column is None and "id" in header and header.index("id") != g:
        id_column = "id"  # a column called id is the item id, not a system
    idc = _header_index(path, header, id_column, "id") if id_column else None
    if not rows:
        raise InputError(f"{path}: no data rows after the header")
    lines = np.asarray(table.lines[1:])
    for row, line in zip(rows, lines, strict=True):
        if len(row) != len(header):
            raise InputError(f"{path}, line {line}: expected {len(header)} columns, found {len(row)}")
    cells = np.array(rows, dtype=object).astype(str)
    if idc is not None:
        ids = cells[:, idc]
        check_unique(path, list(ids), list(lines))
    else:
        ids = np.array([str(i) for i in range(1, len(rows) + 1)])
    sys_cols = [j for j in range(len(header)) if j not in (g, idc)]
    if not sys_cols:
        raise InputError(f"{path}: no system columns besides the gold column {gold!r}")
    gold_values = cells[:, [g]]
    check_missing(path, gold_values, lines, [f"column {gold!r}"])
    preds = np.stack([cells[:, [j]] for j in sys_cols])
    sources = []
    for j, p in zip(sys_cols, preds, strict=True):
        cols = [f"column {header[j]!r}"]
        check_missing(path, p, lines, cols)
        sources.append(Source(path, lines, cols))
    return dict(
        gold=gold_values, predictions=preds, systems=[header[j] for j in sys_cols], item_ids=ids,
        fields=["label"], gold_source=Source(path, lines, [f"column {gold!r}"]), system_sources=sources,
        inputs=[{"path": path, "sha256": sha256(path)}],
    )


def _is_header(first: list[str], id_column: str, known_ids: set[str] | None) -> bool:
    cell = first[0]
    if known_ids is not None and cell in known_ids:
        return False
    return cell.lower() in {id_column.lower(), "id"}


def read_gold(path: str | Path, id_column: str = "id", fields: list[str] | None = None) -> dict:
    """Read a gold file: ``id`` then one column per field. Header optional.

    Parameters
    ----------
    path : str or Path
    id_column : str
        Name of the id column when there is a header (else the first column).
    fields : list of str or None
        Field names (several label columns); ``None``: one label column.

    Returns
    -------
    dict
        ``ids`` (n,) and ``values`` (n, F) arrays of str, and their ``source``.
    """
    table = read_table(path)
    path = table.path
    rows, lines = table.rows, table.lines
    names: list[str]
    if _is_header(rows[0], id_column, None):
        header = rows[0]
        rows, lines = rows[1:], lines[1:]
        idc = header.index(id_column) if id_column in header else 0
        if fields and all(f in header for f in fields):
            cols = [header.index(f) for f in fields]
        else:
            cols = [j for j in range(len(header)) if j != idc]
        names = [f"column {header[j]!r}" for j in cols]
        ncols = len(header)
    else:
        idc, ncols = 0, len(rows[0])
        cols = list(range(1, ncols))
        names = [f"column {j + 1}" for j in cols]
    if not rows:
        raise InputError(f"{path}: no data rows")
    nf = len(fields) if fields else 1
    if len(cols) != nf:
        what = f"{nf} label column(s) ({', '.join(fields)})" if fields else "one label column"
        raise InputError(f"{path}: expected an id column and {what}, found {len(cols)} other column(s)")
    for row, line in zip(rows, lines, strict=True):
        if len(row) != ncols:
            raise InputError(f"{path}, line {line}: expected {ncols} columns, found {len(row)}")
    cells = np.array(rows, dtype=object).astype(str)
    ids = cells[:, idc]
    check_unique(path, list(ids), lines)
    arr_lines = np.asarray(lines)
    values = cells[:, cols]
    check_missing(path, values, arr_lines, names)
    return dict(ids=ids, values=values, source=Source(path, arr_lines, names))


def run_files(runs: str | Path) -> list[str]:
    """Run files: every visible ``.csv``/``.tsv``/``.tab``/``.txt``/suffix-less file of a directory, or
    what a glob matches other than directories (a pipe, ``<(...)``, is one run file); sorted.

    Raises :class:`~compreport.errors.InputError` when there is none, when the directory cannot be
    listed, or when a file name is not UTF-8 (it would name a system).
    """
    runs = text_name(runs)
    if os.path.isdir(runs):
        try:
            names = sorted(os.listdir(runs))
        except OSError as exc:
            raise InputError(f"{runs}: cannot list the run files ({exc.strerror or exc})") from None
        files = [os.path.join(runs, f) for f in names
                 if not f.startswith(".") and os.path.isfile(os.path.join(runs, f))
                 and Path(f).suffix.lower() in _TABLE_SUFFIXES]
    else:
        files = sorted(f for f in glob.glob(runs) if os.path.exists(f) and not os.path.isdir(f))
    if not files:
        raise InputError(f"{runs}: no run files found")
    for f in files:
        text_name(f)
    return files


def read_runs(gold_path: str | Path, runs: str | Path, id_column: str = "id",
              fields: list[str] | None = None) -> dict:
    """Read the gold file plus run files layout, joined by id.

    Parameters
    ----------
    gold_path : str or Path
        Gold file (see :func:`read_gold`).
    runs : str or Path
        Directory or glob of run files (see :func:`run_files`); each names one system by its stem
        and holds ``id`` then one column per field, header optional, every gold id exactly once.
    id_column, fields
        As for :func:`read_gold`.

    Returns
    -------
    dict
        The pieces of a Competition (see the module docstring), items in gold file order.
    """
    gold = read_gold(gold_path, id_column, fields)
    ids = gold["ids"]
    position = {ident: i for i, ident in enumerate(ids)}
    n, nf = gold["values"].shape
    files = run_files(runs)
    systems, preds, sources = [], [], []
    seen_names: dict[str, str] = {}
    for f in files:
        name = Path(f).stem
        if name in seen_names:
            raise InputError(f"{f}: system name {name!r} is also the name of {seen_names[name]}")
        seen_names[name] = f
        table = read_table(f)
        rows, lines = table.rows, table.lines
        if _is_header(rows[0], id_column, set(position)):
            rows, lines = rows[1:], lines[1:]
        if not rows:
            raise InputError(f"{f}: no predictions")
        values = np.empty((n, nf), dtype=object)
        filled = np.zeros(n, dtype=bool)
        line_of = np.zeros(n, dtype=int)
        for row, line in zip(rows, lines, strict=True):
            if len(row) != nf + 1:
                raise InputError(f"{f}, line {line}: expected {nf + 1} columns (id and {nf} prediction(s)), "
                                 f"found {len(row)}")
            i = position.get(row[0])
            if i is None:
                raise InputError(f"{f}, line {line}: id {row[0]!r} is not in the gold file {gold['source'].path}")
            if filled[i]:
                raise InputError(f"{f}, line {line}: id {row[0]!r} appears twice (lines {line_of[i]} and {line})")
            filled[i] = True
            line_of[i] = line
            values[i] = row[1:]
        if not filled.all():
            missing = ids[~filled]
            raise InputError(f"{f}: {len(missing)} gold id(s) have no prediction, first: id {str(missing[0])!r}")
        names = [f"column {j + 2}" for j in range(nf)]
        values = values.astype(str)
        check_missing(f, values, line_of, names)
        systems.append(name)
        preds.append(values)
        sources.append(Source(f, line_of, names))
    paths = [str(gold_path)] + files
    return dict(
        gold=gold["values"], predictions=np.stack(preds), systems=systems, item_ids=ids,
        fields=list(fields) if fields else ["label"], gold_source=gold["source"], system_sources=sources,
        inputs=[{"path": p, "sha256": sha256(p)} for p in paths],
    )


def unseen_label_warnings(comp: Competition, fields: list[int]) -> list[str]:
    """Warnings for predicted labels never seen in gold.

    Parameters
    ----------
    comp : Competition
    fields : list of int
        The fields read as labels (:attr:`~compreport.stats.metrics.Prepared.label_fields`).

    Returns
    -------
    list of str
        One message per system and field, naming the first such item and the count.
    """
    out = []
    for f in fields:
        fname = comp.fields[f]
        gold_labels = set(np.unique(comp.gold[:, f]))
        for s, system in enumerate(comp.systems):
            col = comp.predictions[s, :, f]
            labels, first = np.unique(col, return_index=True)
            extra = [(lab, i) for lab, i in zip(labels, first, strict=True) if lab not in gold_labels]
            if extra:
                lab, i = str(extra[0][0]), extra[0][1]
                count = int((col == lab).sum())
                what = f"field {fname!r}: " if len(comp.fields) > 1 else ""
                out.append(f"{comp.locate(s, int(i), f)}: {what}system {system!r} predicts label {lab!r} "
                           f"({count} item(s)) never seen in gold")
    return out


def build(pieces: dict, info: CompetitionInfo, metrics: list[MetricSpec], baselines=()) -> Competition:
    """Assemble a Competition from reader pieces and metadata.

    Parameters
    ----------
    pieces : dict
        What :func:`read_wide` or :func:`read_runs` returned.
    info : CompetitionInfo
        The competition's id, name and other metadata.
    metrics : list of MetricSpec
        The first ranks the systems.
    baselines : sequence of str, optional
        Systems that are baselines.

    Raises
    ------
    InputError
        When a baseline is not one of the systems.
    """
    comp = Competition(**info.metadata(), metrics=metrics, baselines=list(baselines), **pieces)
    for b in comp.baselines:
        if b not in comp.systems:
            raise InputError(f"baseline {b!r} of competition {comp.id!r} is not a system "
                             f"(systems: {', '.join(comp.systems)})")
    return comp
