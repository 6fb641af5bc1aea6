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

import dataclasses
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from compreport.errors import InputError, excerpt, note, option, warn
from compreport.inputs.clustercol import gold_cluster_labels, gold_clusters, take_column
from compreport.inputs.codabench import codabench_runs
from compreport.inputs.competition import Competition, CompetitionInfo, MetricSpec, Source
from compreport.inputs.delimited import (
    MISSING,
    check_missing,
    check_unique,
    read_table,
    sha256,
    text_name,
)
from compreport.inputs.fastwide import read_wide_fast
from compreport.inputs.labelsets import COLUMNS, label_columns, label_names, split_cells
from compreport.inputs.mentions import detect as detect_mentions
from compreport.inputs.mentions import read_mention_runs
from compreport.inputs.parsed import Parsed, ReadOptions, option_of
from compreport.inputs.querykeys import by_query, gold_keys, judged_only, run_keyed, unjudged
from compreport.inputs.records import (
    as_number,
    guessed_headers,
    headers,
    layout,
    names_a_column,
    read_file,
    shown_row,
)
from compreport.inputs.runfiles import (
    RunFile,
    apply_names,
    find_runs,
    mark_baselines,
    name_columns,
    name_runs,
    stem_teams,
    suffix_note,
    suffix_teams,
)
from compreport.inputs.structured import holds_sets, read_label_set

#: The options (schema keys) that give the id and the label column(s): ``--id-col``,
#: ``--label-col``.
_ID, _LABEL = option_of("id_column"), option_of("label_columns")

#: Runs the missing-predictions warning names before "and N more runs".
SHOWN_RUNS = 5

#: Names of a label column that a one-field file's header is not noted for (any other header of such
#: a file could be a label that occurs once, and is noted).
COLUMN_WORDS = frozenset(
    {
        "label",
        "labels",
        "prediction",
        "predictions",
        "pred",
        "class",
        "gold",
        "target",
        "y",
        "answer",
        "output",
        "category",
        "tag",
        "value",
        "score",
    }
)


def shown_id(ident) -> str:
    """An id for a message: :func:`~compreport.errors.excerpt`, and its code points escaped
    (``'e\\u0301'``) when it is not in Unicode NFC form, whose difference from the NFC id it
    looks like cannot be seen.

    >>> print(shown_id("caf\u00e9"), shown_id("cafe\u0301"))
    'café' 'cafe\u0301'
    """
    text = str(ident)
    if unicodedata.is_normalized("NFC", text):
        return excerpt(text)
    return excerpt(text, quote=ascii)


def _normalization_note(ident: str, gold_ids) -> str:
    """`` (differs from gold id 'é' only by Unicode normalization)`` when ``ident`` is not a gold
    id (``gold_ids``, a container) but its NFC form is, or the NFC form of one; else ``""``."""
    nfc = unicodedata.normalize("NFC", ident)
    match = nfc if nfc != ident and nfc in gold_ids else None
    if match is None:
        match = next(
            (g for g in gold_ids if unicodedata.normalize("NFC", str(g)) == nfc and g != ident),
            None,
        )
    if match is None:
        return ""
    return f" (differs from gold id {shown_id(match)} only by Unicode normalization)"


def _header_index(path: str, header: list[str], name: str, what: str) -> int:
    """The 0-based column of ``header`` called ``name``; an :class:`InputError` listing the
    columns when there is none (``what``: ``gold`` or ``id``, the option that names it)."""
    if name not in header:
        shown = ", ".join(repr(h) for h in header)
        raise InputError(
            f"{path}: {what} column {name!r} not found (columns: {shown}); "
            f"pass {option(what, 'NAME')}"
        )
    return header.index(name)


def read_wide(
    path: str | Path,
    gold: str = "y",
    id_column: str | int | None = None,
    sep: str = "auto",
    missing: str = "error",
    cluster_column: str | None = None,
    id_said: str | None = None,
    names: str | None = None,
    comments: bool = True,
    baselines: list[str] | None = None,
    said: dict | None = None,
) -> dict:
    """Read the wide layout: one row per item, a gold column, an optional id column, one column per
    system, its team read from its name (:func:`~compreport.inputs.runfiles.name_columns`).

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
    id_column : str, int or None
        Name (or 1-based position) of the id column; ``None``: a column called ``id`` if any, else
        items are numbered from 1.
    sep : str
        ``auto`` (tab for ``.tsv``, comma for ``.csv``, else what the first line holds), ``tab``,
        ``comma`` or ``whitespace``.
    missing : str
        ``error``: a blank or NaN system cell is an error; ``wrong``: it is a missing prediction,
        scored as a wrong answer (the gold column is always complete).
    cluster_column : str or None
        The column naming each item's cluster (not a system; ``pieces["clusters"]``).
    id_said : str, optional
        How the caller gave ``id_column``, for messages (a spec's key and value); default: as
        the id column option (``--id-col``).
    names : str, optional
        A names file (``--names``) whose ``run`` column names system columns: their names, teams,
        baselines and exclusions (:func:`~compreport.inputs.runfiles.apply_names`).
    comments : bool
        Whether ``#`` lines of the names file are comments.
    baselines : list of str, optional
        Globs (``--baseline``) of the system columns that are baselines, matched against their
        headers (:func:`~compreport.inputs.runfiles.mark_baselines`; ``said``: how a spec gave
        them).

    Returns
    -------
    dict
        The pieces of a Competition (see the module docstring); one field, ``label``; ``teams``
        (system -> team or None) and, with ``names``, ``marked_baselines``.

    Examples
    --------
    >>> _ = Path("wide.csv").write_text("id,y,A,B\\n1,a,a,b\\n2,b,b,b\\n")
    >>> pieces = read_wide("wide.csv")
    >>> pieces["systems"], pieces["item_ids"].tolist(), pieces["predictions"][:, :, 0].tolist()
    (['A', 'B'], ['1', '2'], [['a', 'b'], ['b', 'b']])
    >>> _ = Path("teams.csv").write_text("id,y,UPV.run1,UPV.run2,GPT-3.5\\n1,a,a,b,a\\n")
    >>> read_wide("teams.csv")["teams"]
    {'UPV.run1': 'UPV', 'UPV.run2': 'UPV', 'GPT-3.5': None}
    """
    pieces = None
    if sep == "auto" and not isinstance(id_column, int):
        pieces = read_wide_fast(str(path), gold, id_column)
    if pieces is None:
        pieces = _read_wide_csv(path, gold, id_column, sep, missing, cluster_column, id_said)
    if cluster_column is not None:
        pieces = take_column(pieces, cluster_column, str(path))
    return name_columns(pieces, str(path), names, sep, comments, baselines, said)


def _read_wide_csv(
    path: str | Path,
    gold: str = "y",
    id_column: str | int | None = None,
    sep: str = "auto",
    missing: str = "error",
    cluster_column: str | None = None,
    id_said: str | None = None,
) -> dict:
    """:func:`read_wide` through :func:`~compreport.inputs.delimited.read_table` (the ``csv``
    module).

    Slow, but every error names its line.
    """
    table = read_table(path, sep)
    path = table.path
    header, rows = table.rows[0], table.rows[1:]
    for j, name in enumerate(header):
        if not name:
            raise InputError(f"{path}, line {table.lines[0]}, column {j + 1}: empty column name")
        if header.index(name) != j:
            raise InputError(
                f"{path}, line {table.lines[0]}: column {name!r} appears twice "
                f"(columns {header.index(name) + 1} and {j + 1})"
            )
    g = _header_index(path, header, gold, "gold")
    if isinstance(id_column, int):
        if id_column > len(header):
            raise InputError(
                f"{path}: {id_said or option(_ID, id_column)}, but the file has {len(header)} "
                f"columns (header: {shown_row(header)})"
            )
        id_column = header[id_column - 1]
    if id_column is None and "id" in header and header.index("id") != g:
        id_column = "id"  # a column called id is the item id, not a system
    idc = _header_index(path, header, id_column, "id") if id_column else None
    if not rows:
        raise InputError(f"{path}: no data rows after the header")
    lines = np.asarray(table.lines[1:])
    for row, line in zip(rows, lines, strict=True):
        if len(row) != len(header):
            raise InputError(
                f"{path}, line {line}: expected {len(header)} columns, found {len(row)}"
            )
    cells = np.array(rows, dtype=object).astype(str)
    if idc is not None:
        ids = cells[:, idc]
        empty = np.flatnonzero(ids == "")
        if len(empty):
            raise InputError(f"{path}, line {lines[empty[0]]}: empty id (column {header[idc]!r})")
        check_unique(path, list(ids), list(lines))
    else:
        ids = np.array([str(i) for i in range(1, len(rows) + 1)])
    sys_cols = [j for j in range(len(header)) if j not in (g, idc)]
    if not sys_cols:
        raise InputError(f"{path}: no system columns besides the gold column {gold!r}")
    gold_values = cells[:, [g]]
    check_missing(path, gold_values, lines, [f"column {gold!r}"])
    preds = np.stack([cells[:, [j]] for j in sys_cols])
    sources, absent = [], {}
    for s, (j, p) in enumerate(zip(sys_cols, preds, strict=True)):
        cols = [f"column {header[j]!r}"]
        if header[j] == cluster_column:
            # not a system: its blanks are reported as clusters (take_column)
            absent[header[j]] = 0
        elif missing == "wrong":
            blank = np.isin(np.char.lower(p), list(MISSING))
            preds[s][blank] = ""
            absent[header[j]] = int(blank.sum())
        else:
            check_missing(path, p, lines, cols, hint=True)
            absent[header[j]] = 0
        sources.append(Source(path, lines, cols))
    return dict(
        gold=gold_values,
        predictions=preds,
        systems=[header[j] for j in sys_cols],
        item_ids=ids,
        fields=["label"],
        gold_source=Source(path, lines, [f"column {gold!r}"]),
        system_sources=sources,
        inputs=[{"path": path, "sha256": sha256(path)}],
        missing=absent,
    )


def read_runs(
    gold_path: str | Path,
    runs: str | Path,
    id_column: str | None = None,
    fields: list[str] | None = None,
    options: ReadOptions | None = None,
) -> dict:
    """Read the gold file plus run files layout, joined by id (or by line, for files without ids).

    Parameters
    ----------
    gold_path : str or Path
        Gold file: ids and labels (CSV/TSV/whitespace-separated, ``.json``/``.jsonl``, a ``.zip``),
        or one label per line (items numbered 1..n).
    runs : str or Path
        Folder, glob or file of runs (see :func:`~compreport.inputs.runfiles.find_runs`); each is
        one system, named as :func:`~compreport.inputs.runfiles.name_runs` says (or by the names
        file).
    id_column : str, optional
        Name of the id column (``--id``); ``options.id_column`` wins.
    fields : list of str, optional
        Field names (several label columns); None: one label column.
    options : ReadOptions, optional
        Separators, comments, columns, zip member, missing predictions, exclusions, names file.

    Returns
    -------
    dict
        The pieces of a Competition (see the module docstring), items in gold file order, plus
        ``missing`` (system -> items without a prediction, scored as wrong), ``teams`` (system ->
        team or None) and ``marked_baselines`` (systems the names file marks).
    """
    o = _checked(options, id_column)
    fields = _label_set_fields(o, fields)
    gold_path = text_name(gold_path)
    if detect_mentions(gold_path):  # spans: documents are the items, mention lists the values
        return read_mention_runs(gold_path, str(runs), o)
    found = _run_files(str(runs), gold_path, o)
    raw, is_header, guessed = _raw_files(gold_path, found, o, fields)
    gold = _read_gold(raw, is_header[0], guessed, o, fields)
    runs_read = [
        (r, *_read_run(raw_run, header, o, fields, gold))
        for r, raw_run, header in zip(found, raw[1:], is_header[1:], strict=True)
    ]
    runs_read, extra = _unjudged_items(runs_read, gold, o)
    if o.multi_label == COLUMNS:  # the 0/1 columns are one field now
        fields = None
    return _pieces(str(runs), found, runs_read, gold, extra, o, fields)


def _checked(options: ReadOptions | None, id_column: str | None) -> ReadOptions:
    """A checked copy of ``options`` (default: the defaults), the id column ``id_column`` (the
    ``--id`` option) unless it names its own."""
    o = dataclasses.replace(options or ReadOptions())
    if o.id_column is None and id_column is not None:
        o.id_column, o.said = id_column, o.said | {"id_column": "id"}
    return o.check()


def _label_set_fields(o: ReadOptions, fields: list[str] | None) -> list[str] | None:
    """The fields read: ``fields``, or under ``--multi-label columns`` the label columns, one 0/1
    column per label (read into one set), which must be named and alone."""
    if o.multi_label != COLUMNS:
        return fields
    if fields or not o.label_columns or o.runs_label_columns:
        raise InputError(
            f"{option('multi_label', COLUMNS)} reads one 0/1 column per label: name them "
            f"with {option(_LABEL, 'A,B,C')} (and no other fields or score column)"
        )
    return [str(c) for c in o.label_columns]


def _run_files(runs: str, gold_path: str, o: ReadOptions) -> list[RunFile]:
    """The runs of ``runs`` (a Codabench bulk download, else a folder or glob of files), named
    (by the names file too) and marked as baselines."""
    found = codabench_runs(runs, o.phase, o.submissions, o.exclude, o.named)
    if found is None:
        found = find_runs(runs, gold_path, o.exclude, o.names)
        name_runs(found)
    if o.names:
        found = apply_names(o.names, found, o.sep, o.comments)
    mark_baselines(found, o.baselines, runs, o.said)
    return found


def _raw_files(
    gold_path: str, found: list[RunFile], o: ReadOptions, fields: list[str] | None
) -> tuple[list, list[bool], list[int]]:
    """Every file read (the gold first), whether the first line of each is a header, and those
    read as headers by the guess alone but for holding a usual column name."""
    raw = [read_file(gold_path, o, "gold", fields)] + [
        read_file(r.path, o, "run", fields, r.data) for r in found
    ]
    gold_names = [o.id_column, o.cluster_column, *(o.label_columns or [])]
    given = [{c for c in gold_names if isinstance(c, str)}]
    run_id, run_labels = (getattr(o, a) for a in o.column_options("run"))
    given += [{c for c in [run_id, *(run_labels or [])] if isinstance(c, str)}] * len(found)
    is_header = headers(raw, given, o.header)
    guessed = [
        k
        for k in ([] if o.header is not None else guessed_headers(raw, given, is_header))
        if not names_a_column([h.lower() for h in raw[k].rows[raw[k].start]], COLUMN_WORDS)
    ]
    return raw, is_header, guessed


@dataclass
class _Gold:
    """The gold file read, and what the runs are joined to.

    Attributes
    ----------
    parsed : Parsed
        Its items (label sets where ``--multi-label`` says).
    column : tuple or None
        The cluster column (:func:`~compreport.inputs.clustercol.gold_cluster_labels`).
    label_set_names : list of str or None
        The labels of the 0/1 columns (``--multi-label columns``).
    ids : list of str
        The items' keys: the ids, the (query, id) keys of a ranking gold, or 1..n.
    keyed_join : bool
        Runs are joined by (query, id) (TREC: ids repeat across queries).
    """

    parsed: Parsed
    column: tuple | None
    label_set_names: list[str] | None
    ids: list[str]
    keyed_join: bool

    @property
    def queries(self) -> list | None:
        """Each item's query (cluster), None without a cluster column."""
        return None if self.column is None else self.column[0]


def _read_gold(
    raw: list, header: bool, guessed: list[int], o: ReadOptions, fields: list[str] | None
) -> _Gold:
    """The gold (``raw[0]``) laid out, with a note for first lines read as headers by the guess
    alone (``guessed``); a blank gold label is an error."""
    # the cluster column first: a name the gold lacks is named as such, not as a label column to
    # give
    column = None if o.cluster_column is None else gold_cluster_labels(raw[0], header, o)
    gold = layout(raw[0], "gold", header, o, fields, guessed=0 in guessed)
    said = _guessed_note(raw, guessed, len(gold.values))
    if said:
        note(said)
    for k, vals in enumerate(gold.values):
        for f, v in enumerate(vals):
            if v is None:
                raise InputError(
                    f"{gold.where(k, f)}: blank or NaN value ({gold.why_missing(k, f)}; a gold "
                    f"label is needed for every item)"
                )
    label_set_names = label_names(gold, o.label_columns) if o.multi_label == COLUMNS else None
    gold = as_label_sets(gold, o, label_set_names)
    queries = None if column is None else column[0]
    keyed_join = queries is not None and by_query(gold, o)  # TREC: ids repeat across queries
    if gold.ids is None:
        ids = [str(i) for i in range(1, len(gold.values) + 1)]
    elif keyed_join:
        ids = gold_keys(gold, queries)
    else:
        ids = list(gold.ids)
        check_unique(gold.path, gold.ids, gold.lines)
    return _Gold(gold, column, label_set_names, ids, keyed_join)


def _read_run(
    raw_run, header: bool, o: ReadOptions, fields: list[str] | None, gold: _Gold
) -> tuple[Parsed, list | None]:
    """A run laid out as the gold is, and each item's query where runs are joined by query."""
    run = layout(raw_run, "run", header, o, fields, gold.parsed)
    run = as_label_sets(run, o, gold.label_set_names)
    if gold.keyed_join:
        return run_keyed(raw_run, header, o, gold.parsed, run)
    return run, None


def _unjudged_items(runs_read: list, gold: _Gold, o: ReadOptions) -> tuple[list, tuple]:
    """With ``--unjudged`` (runs joined by query): the runs' candidates of the queries the gold
    names (trec_eval), and the candidates the gold does not list, as items that are not
    relevant: ``(keys, ids, queries)`` of those extra items (empty otherwise)."""
    if not (gold.keyed_join and o.unjudged):
        return runs_read, ([], [], [])
    runs_read, left = judged_only(runs_read, set(gold.queries))
    if left:
        note(f"{gold.parsed.path}: {left}")
    extra = unjudged([(run, rq) for _, run, rq in runs_read], set(gold.ids))
    return runs_read, extra


def _joined(runs_read: list, gold: _Gold, keys: list[str], nf: int, o: ReadOptions) -> tuple:
    """Every run's values in the order of the items ``keys`` (:func:`_join`): the systems, their
    values, their sources and the items each has no prediction for."""
    position = {ident: i for i, ident in enumerate(keys)}
    systems, preds, sources, missing = [], [], [], {}
    for r, run, _ in runs_read:
        values, line_of, absent = _join(
            gold.parsed,
            run,
            keys,
            position,
            len(keys),
            nf,
            o.missing,
            o.extra,
            judged=len(gold.ids),
        )
        systems.append(r.name)
        preds.append(values)
        sources.append(Source(run.path, line_of, run.columns, run.unit))
        missing[r.name] = absent
    return systems, preds, sources, missing


def _pieces(
    runs: str,
    found: list[RunFile],
    runs_read: list,
    gold: _Gold,
    extra: tuple,
    o: ReadOptions,
    fields: list[str] | None,
) -> dict:
    """The pieces of the Competition: every run joined to the gold's items (and the unjudged
    ``extra`` ones), the sources, the input files and their hashes."""
    nf = len(fields) if fields else 1
    parsed, ids = gold.parsed, gold.ids
    extra_keys, extra_ids, extra_queries = extra
    keys = ids + extra_keys
    systems, preds, sources, missing = _joined(runs_read, gold, keys, nf, o)
    if gold.keyed_join:  # shown by their plain ids when those are unique
        plain = [*parsed.ids, *extra_ids]
        ids = plain if len(set(plain)) == len(plain) else keys
    files = [parsed.file] + ([o.names] if o.names else [])
    files += list(dict.fromkeys(r.container or r.path for r in found))
    n_extra = len(extra_keys)
    return dict(
        clusters=None if gold.column is None else gold_clusters(gold.column, extra_queries),
        scanned=[runs],
        gold=np.array([*parsed.values, *[[""] * nf] * n_extra], dtype=str).reshape(len(keys), nf),
        predictions=np.stack(preds),
        systems=systems,
        item_ids=np.array(ids),
        fields=list(fields) if fields else ["label"],
        gold_source=Source(
            parsed.path, np.asarray([*parsed.lines, *[0] * n_extra]), parsed.columns, parsed.unit
        ),
        system_sources=sources,
        inputs=[{"path": p, "sha256": sha256(p)} for p in files],
        missing=missing,
        teams={r.name: r.team for r in found},
        marked_baselines=[r.name for r in found if r.baseline],
    )


def as_label_sets(parsed, opts: ReadOptions, names: list[str] | None = None):
    """``parsed`` with its values read as label sets as ``opts.multi_label`` says (a separator:
    :func:`~compreport.inputs.labelsets.split_cells`; ``columns``:
    :func:`~compreport.inputs.labelsets.label_columns`, the labels ``names``), or as it is."""
    if opts.multi_label is None:
        return parsed
    if opts.multi_label == COLUMNS:
        return label_columns(parsed, opts.label_columns, names)
    return split_cells(parsed, opts.multi_label)


def _guessed_note(raw: list, guessed: list[int], n: int) -> str | None:
    """One note for the first lines of ``raw`` read as headers by the guess alone (``guessed``:
    :func:`~compreport.inputs.records.guessed_headers` but those holding a usual column name,
    :data:`COLUMN_WORDS`): each is an item fewer than the file has lines, so it is never silent
    (``n``: the gold's items, counted when its first line is one of them). None: nothing to
    say."""
    shown = guessed
    if not shown:
        return None
    first = raw[shown[0]]
    others = len(shown) - 1
    also = (
        f"; so is the first line of {others} other file(s)"
        + (f" ({raw[shown[1]].path}{', ...' if others > 1 else ''})")
        if others
        else ""
    )
    return (
        f"{first.path}, line {first.lines[first.start]}: {shown_row(first.rows[first.start])} is "
        f"read as a header, not as an item: no field is a number or a value found in another "
        f"line or file{also}"
        + (f" (the gold is read as {n} items, not {n + 1})" if shown[0] == 0 else "")
        + f"; pass {option('no_header')} if the first lines are items, "
        f"{option('header')} if they are headers"
    )


def _join(
    gold: Parsed,
    run: Parsed,
    ids: np.ndarray,
    position: dict[str, int],
    n: int,
    nf: int,
    policy: str,
    extra: str = "error",
    judged: int | None = None,
) -> tuple[np.ndarray, np.ndarray, int]:
    """A run's values in gold item order: (n, nf) str (``""`` where there is no prediction), the
    line of each item (0 where absent), and the number of items without a prediction.

    Items from ``judged`` on (the unjudged candidates other runs list, ``--unjudged``) are not
    missing where this run does not list them: it has not retrieved them, as in trec_eval.

    A run without ids that has more lines than the gold has items is read on its first ``n`` under
    ``extra="drop"``, with a warning naming it and the count.

    Raises InputError for an id not in the gold (a gold without ids: :func:`_not_numbered`), an id
    given twice, a line count that differs from the gold's (a run without ids; more lines:
    unless ``extra`` is ``drop``), and, under the ``error`` policy, any missing prediction.
    """
    values = np.full((n, nf), "", dtype=object)
    line_of = np.zeros(n, dtype=int)
    if run.ids is None:
        if len(run.values) > n and extra == "drop":
            extra = len(run.values) - n
            warn(
                f"{run.path}: {extra} {run.unit}(s) after the gold's {n} items left out, from "
                f"{run.unit} {run.lines[n]} on ({option('extra_lines', 'drop')}): the run is "
                f"scored on its first {n}"
            )
            run = dataclasses.replace(run, values=run.values[:n], lines=run.lines[:n])
        if len(run.values) != n:
            headers = [
                f"{f.path}'s first line {shown_row(f.header)}" for f in (gold, run) if f.header
            ]
            raise InputError(
                f"{run.path}: {len(run.values)} predictions (one per line, no ids) but the gold "
                f"{gold.path} has {n} items; a file without ids is matched with the gold line by "
                f"line, so both must have as many"
                + (f" (read as a header: {' and '.join(headers)})" if headers else "")
                + (
                    f"; pass {option('extra_lines', 'drop')} to score it on its first {n} "
                    f"lines, as a scorer that reads line by line does"
                    if len(run.values) > n
                    else ""
                )
            )
        rows = list(range(n))
    else:
        rows = []
        for k, ident in enumerate(run.ids):
            i = position.get(ident)
            if i is None and gold.ids is None:
                raise _not_numbered(gold, run, k)
            if i is None:
                raise InputError(
                    f"{run.path}, {run.unit} {run.lines[k]}: id {shown_id(ident)} is not in the "
                    f"gold file {gold.path}{_normalization_note(str(ident), position)}"
                )
            if line_of[i]:
                raise InputError(
                    f"{run.path}, {run.unit} {run.lines[k]}: id {ident!r} appears twice "
                    f"({run.unit}s {line_of[i]} and {run.lines[k]})"
                )
            line_of[i] = run.lines[k]
            rows.append(i)
    absent = line_of == 0 if run.ids is not None else np.zeros(n, dtype=bool)
    absent[n if judged is None else judged :] = False  # an unjudged candidate not retrieved
    if absent.any() and policy == "error":
        raise InputError(
            f"{run.path}: {int(absent.sum())} gold id(s) have no prediction, first: id "
            f"{str(ids[int(np.flatnonzero(absent)[0])])!r}; pass {option('missing', 'wrong')} to "
            f"score them as wrong answers"
        )
    for k, i in enumerate(rows):
        line_of[i] = run.lines[k]
        for f, v in enumerate(run.values[k]):
            if v is not None:
                values[i, f] = v
            elif policy == "error":
                raise InputError(
                    f"{run.where(k, f)}: blank or NaN value ({run.why_missing(k, f)}); pass "
                    f"{option('missing', 'wrong')} to "
                    f"score it as a wrong answer"
                )
            else:
                absent[i] = True
    return values.astype(str), line_of, int(absent.sum())


def _not_numbered(gold: Parsed, run: Parsed, k: int) -> InputError:
    """The error of a run's id (item ``k``) that is not an item number of a gold without ids: the
    gold's reading is what it names, and, when that id is one of the gold's values, that the gold
    has no label column (it holds the ids)."""
    ident, n = run.ids[k], len(gold.values)
    if gold.unit == "entry":
        shape = "a list of labels"
    else:
        shape = (
            ("one column" if gold.width == 1 else f"{gold.width} columns")
            + (f" (header: {shown_row(gold.header)})" if gold.header else "")
            + (", read as labels" if gold.width == 1 else ", read as the fields")
        )
    text = (
        f"{gold.path}: {shape} without ids (items numbered 1 to {n}), but {run.path} has ids "
        f"({run.unit} {run.lines[k]}: {ident!r})"
    )
    held = next((j for j, vals in enumerate(gold.values) if ident in vals), None)
    if held is not None:
        return InputError(
            f"{text}, and {ident!r} is also {gold.unit} {gold.lines[held]} of {gold.path}: "
            f"{gold.path} holds ids and no label column"
        )
    if not ident.isdigit():
        text += (
            f"; give {gold.path} {'ids' if gold.unit == 'entry' else 'an id column'}, or the runs "
            f"one label per line"
        )
    return InputError(text)


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
        if holds_sets(comp.gold[:, f]):
            out += _unseen_in_sets(comp, f)
            continue
        gold_labels = set(np.unique(comp.gold[:, f]))
        for s, system in enumerate(comp.systems):
            col = comp.predictions[s, :, f]
            labels, first = np.unique(col, return_index=True)
            extra = [
                (lab, i)
                for lab, i in zip(labels, first, strict=True)
                if lab not in gold_labels and lab != ""
            ]
            if extra:
                lab, i = str(extra[0][0]), extra[0][1]
                count = int((col == lab).sum())
                what = f"field {fname!r}: " if len(comp.fields) > 1 else ""
                value = as_number(lab)  # the same number written otherwise in the gold: 1.0 for 1
                same = next(
                    (
                        g
                        for g in sorted(map(str, gold_labels))
                        if value is not None and as_number(g) == value
                    ),
                    None,
                )
                hint = (
                    f"; the gold writes that number {same!r}, another label (floats beside "
                    f"integers?)"
                    if same
                    else ""
                )
                out.append(
                    f"{comp.locate(s, int(i), f)}: {what}system {system!r} predicts label {lab!r} "
                    f"({count} item(s)) never seen in gold{hint}"
                )
    return out


def _unseen_in_sets(comp: Competition, f: int) -> list[str]:
    """:func:`unseen_label_warnings` of a field of label sets: labels inside predicted sets that
    no gold set holds."""
    gold_labels = {x for v in np.unique(comp.gold[:, f]).tolist() for x in read_label_set(v)}
    what = f"field {comp.fields[f]!r}: " if len(comp.fields) > 1 else ""
    out = []
    for s, system in enumerate(comp.systems):
        values, first, counts = np.unique(
            comp.predictions[s, :, f], return_index=True, return_counts=True
        )
        unseen: dict[str, list[int]] = {}  # label -> [first item, items]
        for v, i, k in zip(values.tolist(), first.tolist(), counts.tolist(), strict=True):
            for lab in read_label_set(v) if v else ():
                if lab not in gold_labels:
                    at = unseen.setdefault(lab, [i, 0])
                    at[0], at[1] = min(at[0], i), at[1] + k
        if unseen:
            lab, (i, k) = min(unseen.items(), key=lambda e: e[1][0])
            more = f" (and {len(unseen) - 1} more such labels)" if len(unseen) > 1 else ""
            out.append(
                f"{comp.locate(s, int(i), f)}: {what}system {system!r} predicts label {lab!r} "
                f"({k} item(s)) never seen in gold{more}"
            )
    return out


def build(
    pieces: dict, info: CompetitionInfo, metrics: list[MetricSpec], baselines=()
) -> Competition:
    """Assemble a Competition from reader pieces and metadata.

    Parameters
    ----------
    pieces : dict
        What :func:`read_wide` or :func:`read_runs` returned (or a DataFrame's pieces:
        without ``teams``, the systems' teams are read from their names by
        :func:`~compreport.inputs.runfiles.stem_teams`).
    info : CompetitionInfo
        The competition's id, name and other metadata.
    metrics : list of MetricSpec
        The first ranks the systems.
    baselines : sequence of str, optional
        Systems that are baselines (besides those the names file marks).

    The competition's ``notes`` name the teams read from names that differ only in a final
    ``_N``, ``-N`` or ``_A`` (:func:`~compreport.inputs.runfiles.suffix_note`) and the systems
    named like a baseline (``baseline`` in any case) that are not marked as baselines: they
    compete, and the note says how to mark them.

    Raises
    ------
    InputError
        When a baseline is not one of the systems.
    """
    pieces = dict(pieces)
    marked = pieces.pop("marked_baselines", [])
    pieces.setdefault("missing", {s: 0 for s in pieces["systems"]})
    pieces.setdefault(
        "teams", dict(zip(pieces["systems"], stem_teams(pieces["systems"]), strict=True))
    )
    every = list(dict.fromkeys([*baselines, *marked]))
    comp = Competition(**info.metadata(), metrics=metrics, baselines=every, **pieces)
    for b in comp.baselines:
        if b not in comp.systems:
            raise InputError(
                f"baseline {b!r} of competition {comp.id!r} is not a system "
                f"(systems: {', '.join(comp.systems)})"
            )
    said = suffix_note(suffix_teams(comp.systems, comp.teams, comp.baselines), comp.id)
    if said:
        comp.notes.append(said)
    unmarked = [s for s in comp.systems if "baseline" in s.lower() and s not in comp.baselines]
    if unmarked:  # they compete, as given; say how to mark them
        comp.notes.append(
            f"competition {comp.id!r}: {', '.join(unmarked[:SHOWN_RUNS])}"
            f"{f' and {len(unmarked) - SHOWN_RUNS} more' if len(unmarked) > SHOWN_RUNS else ''} "
            f"named like a baseline but competing as a team's run{'s' if len(unmarked) > 1 else ''}"
            f"; mark baselines with {option('baseline', 'GLOB')} (a spec's `baselines`, a names "
            f"file's `baseline` column)"
        )
    short = {s: k for s, k in comp.missing.items() if k}
    if short:
        listed = ", ".join(f"{excerpt(s)}: {k}" for s, k in list(short.items())[:SHOWN_RUNS])
        if len(short) > SHOWN_RUNS:  # a line, not one name per run of a large task
            listed += f" and {len(short) - SHOWN_RUNS} more runs"
        comp.warnings.append(
            f"competition {comp.id!r}: {sum(short.values())} missing prediction(s) (blank, absent "
            f"or unreadable) scored as wrong answers ({option('missing', 'wrong')}): {listed}"
        )
    return comp
