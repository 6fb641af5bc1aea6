"""Gold and run files as shared tasks publish them, read into ids and values.

A file is read in two steps, because whether its first row is a header is decided knowing the
other files:

1. :func:`read_file` reads the bytes (a ``.zip`` submission: its one prediction file), then

   * ``.json`` / ``.jsonl``: objects with an id key and a label key, an object mapping id to label,
     or a list of labels (no ids) -> :class:`~compreport.inputs.parsed.Parsed` at once
     (:mod:`compreport.inputs.jsonfiles`);
   * any other file: text split into fields (:func:`~compreport.inputs.delimited.split_fields`:
     ``#`` comment lines, separator per file) -> :class:`~compreport.inputs.parsed.RawText`.

2. :func:`headers` decides every text file's header the same way, and :func:`layout` picks the id
   and label columns (``--id-col``/``--label-col``: a 1-based position or a header name) ->
   :class:`~compreport.inputs.parsed.Parsed`.

A file whose every row holds one field per label (no id) is *aligned by line* with the gold
(``ids`` is None); a blank line inside it is an item without a value. The options and the two
shapes of a file read are in :mod:`compreport.inputs.parsed`.
"""

from __future__ import annotations

import io
import os
import re
import zipfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from compreport.errors import InputError, excerpt, option, suggest
from compreport.inputs.delimited import MISSING, decode, read_bytes, split_fields, text_name
from compreport.inputs.jsonfiles import read_json
from compreport.inputs.labelsets import pyevall_text
from compreport.inputs.parsed import (
    Parsed,
    RawText,
    ReadOptions,
    option_of,
)

#: The options (schema keys) that give the id and the label column(s): ``--id-col``,
#: ``--label-col``.
_ID, _LABEL = option_of("id_column"), option_of("label_columns")

#: Largest zip member read (bytes): a prediction file, not an archive bomb.
_ZIP_MEMBER_LIMIT = 1 << 31

_NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


# --------------------------------------------------------------------------- reading a file


def _ignored_member(name: str) -> bool:
    parts = name.split("/")
    base = parts[-1]
    return "__MACOSX" in parts or base.startswith(".") or base.lower() == "metadata"


def zip_prediction(path: str, data: bytes, wanted: str | None) -> tuple[str, bytes]:
    """The prediction file of a zipped submission: its name and bytes.

    The one file of the archive that is not a folder, under ``__MACOSX/``, hidden, or CodaLab's
    ``metadata``; with ``wanted`` (``--zip-member``), the member of that path, else the one member
    of that file name.
    """
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError):
        raise InputError(f"{path}: not a zip archive, or a damaged one") from None
    infos = {i.filename: i for i in archive.infolist() if not i.is_dir()}
    candidates = [name for name in infos if not _ignored_member(name)]
    listed = ", ".join(repr(c) for c in candidates) or "none"
    if wanted is not None:
        chosen = (
            [wanted] if wanted in infos else [c for c in infos if c.rsplit("/", 1)[-1] == wanted]
        )
        if len(chosen) != 1:
            what = "no member" if not chosen else f"{len(chosen)} members"
            raise InputError(
                f"{path}: {what} named {wanted!r} ({option('zip_member')}); its prediction files: "
                f"{listed}"
            )
    else:
        chosen = candidates
        if not chosen:
            raise InputError(
                f"{path}: the archive holds no prediction file (members: "
                f"{', '.join(repr(n) for n in infos) or 'none'})"
            )
        if len(chosen) > 1:
            raise InputError(
                f"{path}: the archive holds {len(chosen)} candidate prediction files ({listed}); "
                f"pass {option('zip_member', 'NAME')}"
            )
    info = infos[chosen[0]]
    if info.file_size > _ZIP_MEMBER_LIMIT:
        raise InputError(
            f"{path}:{info.filename}: {info.file_size} bytes uncompressed; a prediction file is "
            f"smaller than {_ZIP_MEMBER_LIMIT} bytes"
        )
    try:
        return info.filename, archive.read(info)
    except (zipfile.BadZipFile, NotImplementedError, OSError, RuntimeError, ValueError) as exc:
        raise InputError(
            f"{path}:{info.filename}: cannot be read from the archive ({exc})"
        ) from None


def read_file(
    path: str,
    opts: ReadOptions,
    role: str,
    fields: list[str] | None = None,
    data: bytes | None = None,
) -> RawText | Parsed:
    """Read a gold (``role="gold"``) or run (``role="run"``) file: :class:`Parsed` for JSON, else
    :class:`RawText`. ``data``: the file's bytes, already read (a submission inside a Codabench
    bulk download, named ``path`` in messages); None: read from ``path``.

    Raises
    ------
    InputError
        For a missing, unreadable, empty or non-UTF-8 file, a zip without exactly one prediction
        file, malformed JSON or CSV; naming the file and line.
    """
    path = text_name(path)
    if data is None:
        if os.path.isdir(path):
            raise InputError(f"{path}: is a directory, expected a CSV/TSV file")
        data = read_bytes(path)
    shown, inner = path, path
    if Path(path).suffix.lower() == ".zip" or data[:4] == b"PK\x03\x04":
        inner, data = zip_prediction(path, data, opts.member)
        shown = f"{path}:{inner}"
    suffix = Path(inner).suffix.lower()
    text = decode(shown, data)
    if not text.strip():
        raise InputError(f"{shown}: file is empty")
    id_column, label_columns = (getattr(opts, a) for a in opts.column_options(role))
    if suffix in (".json", ".jsonl"):
        return read_json(shown, path, text, suffix, id_column, label_columns, fields, role)
    rows, lines, sep = split_fields(
        shown, text, opts.sep, opts.comments, suffix, strip=not opts.keep_spaces
    )
    if sep in ("tab", "comma") and not fields:  # PyEvALL's test_case, id, value
        given = (opts.id_column, opts.label_columns, opts.runs_id_column, opts.runs_label_columns)
        pyevall = pyevall_text(
            RawText(shown, path, rows, lines, sep),
            any(c is not None for c in given) or opts.cluster_column is not None,
            role,
        )
        if pyevall is not None:
            return pyevall
    spaced = None
    if opts.keep_spaces:  # labels as written, the rest stripped
        spaced, rows = rows, [[c.strip() for c in r] for r in rows]
    if not any(rows):
        raise InputError(
            f"{shown}: file holds only comment lines ('#'); pass {option('no_comments', True)} "
            f"if '#' starts data"
        )
    return RawText(shown, path, rows, lines, sep, spaced if sep in ("tab", "comma") else None)


# --------------------------------------------------------------------------- headers


def _is_number(cell: str) -> bool:
    return bool(_NUMBER.fullmatch(cell))


def as_number(text: str) -> float | None:
    """``text`` as a float when it is a number (:func:`_is_number`), else None."""
    return float(text) if _is_number(text) else None


def headers(
    files: list[RawText | Parsed], names: list[set[str]], given: bool | None = None
) -> list[bool]:
    """Whether the first row of each text file is a header (False for :class:`Parsed` files);
    ``files[0]`` is the gold, decided first.

    ``given`` (``--header`` / ``--no-header``) decides for every text file. Otherwise a first row
    is a header when it holds one of ``names[i]`` (column names given for that file) or ``id`` (in
    any case); else when none of its fields is a number or a known value: a value found below the
    first row of any file, an id or value of a JSON file, and, for the runs, any value of the
    gold's data (so a run's first row holding a gold id is an item). A header decided by that last
    rule is a guess, which the caller notes (:func:`guessed_headers`).

    >>> raw = RawText("g.tsv", "g.tsv", [["abbé", "a bbé"], ["chat", "chat"]], [1, 2], "tab")
    >>> headers([raw], [set()]), headers([raw], [set()], given=False)
    ([True], [False])
    """
    if given is not None:
        return [isinstance(f, RawText) and given for f in files]
    firsts = [set(f.rows[f.start]) if isinstance(f, RawText) else set() for f in files]
    targets = set().union(*firsts)
    found: set[str] = set()
    if targets:
        for f in files:
            if isinstance(f, RawText):
                for row in f.rows[f.start + 1 :]:
                    found.update(c for c in row if c in targets)
            else:
                found.update(i for i in (f.ids or []) if i in targets)
                found.update(v for vals in f.values for v in vals if v in targets)

    def decide(k: int) -> bool:
        if not isinstance(files[k], RawText):
            return False
        if names_a_column(firsts[k], names[k]):
            return True
        return not any(_is_number(c) or c in found for c in firsts[k])

    out = [decide(0)]
    if not out[0]:
        found |= firsts[0]  # the gold's first row is an item: its id and label are known values
    return out + [decide(k) for k in range(1, len(files))]


def guessed_headers(
    files: list[RawText | Parsed], names: list[set[str]], is_header: list[bool]
) -> list[int]:
    """The files (indices) whose first row :func:`headers` took for a header by the guess alone:
    it names no column given for that file, nor ``id``, and ``--header`` was not given (the
    caller asks only then)."""
    return [
        k
        for k, f in enumerate(files)
        if is_header[k] and isinstance(f, RawText) and not names_a_column(f.rows[f.start], names[k])
    ]


def names_a_column(row, names: set[str]) -> bool:
    """Whether a first row is a header by its names: it holds one of ``names`` or ``id`` (any
    case).

    >>> names_a_column(["ID", "text"], set()), names_a_column(["1", "pos"], {"label"})
    (True, False)
    """
    return any(c in names or c.lower() == "id" for c in row)


# --------------------------------------------------------------------------- columns


def shown_row(row: list[str]) -> str:
    """A row for a message: its first 8 cells, each quoted as :func:`~compreport.errors.excerpt`
    quotes a value (escaped, at most 24 characters), and how many more there are.

    >>> shown_row(["id", "label"])
    "'id', 'label'"
    >>> shown_row(["root:x:0:0:root:/root:/bin/bash"])
    "'root:x:0:0:root:/root:/b'... (31 characters)"
    """
    more = f", ... and {len(row) - 8:,} more" if len(row) > 8 else ""
    return ", ".join(excerpt(c) for c in row[:8]) + more


def _name_error(
    raw: RawText, head: list[str] | None, head_line: int, name: str, what: str
) -> InputError:
    """A column named by the option ``what`` (``_ID``, ``_LABEL``) that the file does not have."""
    if head is not None:
        return InputError(
            f"{raw.path}, line {head_line}: the header ({shown_row(head)}) has no column {name!r}; "
            f"pass {option(what, 'NAME')} with one of its names, or a position{suggest(name, head)}"
        )
    return InputError(
        f"{raw.path}: the file has no header, so no column can be found by the name {name!r} "
        f"(first line {raw.lines[raw.start]}: {shown_row(raw.rows[raw.start])}); pass its "
        f"position, e.g. {option(what, 1 if what == _ID else 2)}"
    )


def _within(raw: RawText, head: list[str] | None, width: int, opts: ReadOptions, role: str) -> None:
    """InputError for the first column position the options give a ``role`` file that is beyond
    its ``width`` columns, named as the caller gave it: ``--id-col 3, but the file has 2
    columns``."""
    for attr in opts.column_options(role):
        given = getattr(opts, attr)
        cols = given if isinstance(given, list) else [given]
        for col in cols:
            if isinstance(col, int) and col > width:
                said = (
                    opts.named(attr, col)
                    if len(cols) == 1
                    else f"{opts.named(attr, cols)} (column {col})"
                )
                shown = (
                    f"header: {shown_row(head)}"
                    if head
                    else f"line {raw.lines[raw.start]}: {shown_row(raw.rows[raw.start])}"
                )
                plural = "s" if width != 1 else ""
                raise InputError(
                    f"{raw.path}: {said}, but the file has {width} column{plural} ({shown})"
                )


def cluster_index(
    opts: ReadOptions, role: str, head: list[str] | None, width: int, gold: Parsed | None = None
) -> int | None:
    """The 0-based column of the cluster (``opts.cluster_column``) in a gold or run file of
    ``width`` columns, None where it has none.

    The gold: the position given, or the header's column of that name. A run, which may or may not
    carry the cluster: the column its header gives the cluster's name (for a position, the name the
    gold's header has there); a headerless run as wide as the gold: the gold's column.
    """
    col = opts.cluster_column
    if col is None or (role == "run" and gold is None):
        return None
    if role == "run":
        named = gold.header
        if head is not None:
            name = (
                col
                if isinstance(col, str)
                else (named[col - 1] if named and col <= len(named) else None)
            )
            return head.index(name) if name in head else None
        if width != gold.width:
            return None
        head = named
    if isinstance(col, int):
        return col - 1 if col <= width else None
    return head.index(col) if head and col in head else None


def layout(
    raw: RawText | Parsed,
    role: str,
    header: bool,
    opts: ReadOptions,
    fields: list[str] | None,
    gold: Parsed | None = None,
    guessed: bool = False,
) -> Parsed:
    """The ids and values of a text file (a :class:`Parsed` file is returned as it is).
    ``guessed``: the header is :func:`headers`' guess (an error about it then offers
    ``--no-header``, not a data value as a column name).

    Columns: ``opts.id_column``/``opts.label_columns`` when given (a name needs a header; a
    headerless run takes the gold's positions for it). Otherwise the id is the column called
    ``id`` (a run: also the gold's id column name or position; a headerless file: the first
    column), and the label the one other column besides the id and the cluster column
    (``opts.cluster_column``, where the file has it: :func:`cluster_index`); several fields: the
    columns named after them (a run as wide as the gold: the gold's). A file with one field per
    row (per label) has no ids and is aligned by line.

    Raises
    ------
    InputError
        A header without the id column (the gold: it shows the header and the option), a column
        that is not there, rows of the wrong width, an empty id; and, unless ``opts.missing`` is
        ``wrong``, a run row without its value. The gold's blank values and duplicate ids are
        checked by the caller.
    """
    if isinstance(raw, Parsed):
        return raw
    nf = len(fields) if fields else 1
    table = _Table.of(raw, header)
    if table.widths == {nf} and (table.head is None or len(table.head) == nf):
        return _aligned_by_line(raw, table, role, nf, opts, gold)
    # a complete row: the header's width, or the most common one (a short row misses a value, a
    # long row has a value split at a blank)
    width = len(table.head) if table.head else table.common_width
    _within(raw, table.head, width, opts, role)
    idx = _id_index(raw, table, role, opts, width, gold, guessed)
    cols = _label_indices(raw, table, role, opts, width, idx, fields, gold)
    return _with_ids(raw, table, role, opts, width, idx, cols)


@dataclass
class _Table:
    """A text file's rows after its header: ``head`` (None: no header) on ``head_line``, ``body``
    (``[]``: a blank line) on ``lines``, and ``spaced``, the cells as written."""

    head: list[str] | None
    head_line: int
    body: list[list[str]]
    lines: list[int]
    spaced: list[list[str]]

    @classmethod
    def of(cls, raw: RawText, header: bool) -> _Table:
        """The rows of ``raw`` after its header (``header``: its first row is one); no row of
        data is an error."""
        start = raw.start
        head = raw.rows[start] if header else None
        first = start + 1 if header else 0
        body = raw.rows[first:]
        spaced = raw.spaced[first:] if raw.spaced is not None else body  # labels as written
        table = cls(head, raw.lines[start], body, raw.lines[first:], spaced)
        if not table.filled:
            after = f" after the header on line {table.head_line}" if head else ""
            shown = f" ({shown_row(head)})" if head else ""
            raise InputError(f"{raw.path}: no data rows{after}{shown}")
        return table

    @property
    def filled(self) -> list[list[str]]:
        """The rows that are not blank."""
        return [r for r in self.body if r]

    @property
    def widths(self) -> set[int]:
        """The widths of the rows that are not blank."""
        return {len(r) for r in self.filled}

    @property
    def common_width(self) -> int:
        """The most common width of a row that is not blank."""
        return Counter(len(r) for r in self.filled).most_common(1)[0][0]


def _aligned_by_line(
    raw: RawText, table: _Table, role: str, nf: int, opts: ReadOptions, gold: Parsed | None
) -> Parsed:
    """A file of one value per field on each line, no ids: aligned with the gold by line."""
    head, body, lines = table.head, table.body, table.lines
    if role == "gold":  # a run of one value per line takes none of the gold's columns
        _within(raw, head, nf, opts, role)
    # blank lines after the last value end the file; those a run has before the gold's
    # count is reached are its last items, without a value (a writer that joins its
    # predictions with line breaks ends with one when the last prediction is empty)
    last = max(i for i, r in enumerate(body) if r)
    if role == "run" and gold is not None:
        last = max(last, min(len(body), len(gold.values)) - 1)
    body, lines = body[: last + 1], lines[: last + 1]
    values = [
        [None if c.lower() in MISSING else w for c, w in zip(r, s, strict=True)]
        if r
        else [None] * nf
        for r, s in zip(body, table.spaced, strict=False)
    ]
    missing_text = {
        (k, f): c for k, r in enumerate(body) for f, c in enumerate(r) if c.lower() in MISSING
    } | {(k, f): "" for k, r in enumerate(body) if not r for f in range(nf)}
    names = [f"column {h!r}" for h in head] if head else [f"column {j + 1}" for j in range(nf)]
    return Parsed(
        raw.path,
        raw.file,
        None,
        values,
        lines,
        names,
        header=head,
        label_index=list(range(nf)),
        width=nf,
        missing_text=missing_text,
    )


def _like_gold(role: str, gold: Parsed | None) -> bool:
    """A run whose gold has ids: it may take the gold's column names or positions."""
    return role == "run" and gold is not None and gold.ids is not None


def _id_index(
    raw: RawText,
    table: _Table,
    role: str,
    opts: ReadOptions,
    width: int,
    gold: Parsed | None,
    guessed: bool,
) -> int:
    """The 0-based id column: the one named, else the column called ``id``, else (a run) the
    gold's, else the first. A run that lacks a named column is read as when none is named (its
    ids are checked against the gold's); a gold header without it is an error."""
    head, head_line = table.head, table.head_line
    id_spec = getattr(opts, opts.column_options(role)[0])
    if isinstance(id_spec, int):
        return id_spec - 1
    if isinstance(id_spec, str):
        if head is not None and id_spec in head:
            return head.index(id_spec)
        if role == "gold":
            raise _name_error(raw, head, head_line, id_spec, _ID)
    lowered = [h.lower() for h in head] if head else []
    like_gold = _like_gold(role, gold)
    if "id" in lowered:
        return lowered.index("id")
    if head and like_gold and gold.header and gold.header[gold.id_index] in head:
        return head.index(gold.header[gold.id_index])
    if head and role == "gold" and guessed:
        raise InputError(
            f"{raw.path}, line {head_line}: the first line ({shown_row(head)}) is read as a "
            f"header (no field is a number or a value found elsewhere) and has no column "
            f"called 'id'; pass {option('no_header')} if it is an item, or "
            f"{option(_ID, 1)} (the id column's position) if it is a header"
        )
    if head and role == "gold":
        first = head[0] if excerpt(head[0]) == repr(head[0]) else 1  # short: its name
        raise InputError(
            f"{raw.path}, line {head_line}: the first line is a header ({shown_row(head)}) "
            f"without a column called 'id'; pass {option(_ID, first)} (the id column's "
            f"name or position)"
        )
    if like_gold and width == gold.width:
        return gold.id_index
    return 0


def _named_labels(
    raw: RawText, table: _Table, role: str, opts: ReadOptions, nf: int, fields: list[str] | None
) -> list[int] | None:
    """The 0-based label columns the options name; None: none named, or a run that lacks one
    (read as when none is named). A gold without a named column is an error."""
    label_attr = opts.column_options(role)[1]
    label_spec = getattr(opts, label_attr)
    if label_spec is None:
        return None
    if len(label_spec) != nf:
        raise InputError(
            f"{opts.named(label_attr)} names {len(label_spec)} column(s); the files have {nf} "
            f"field(s) ({', '.join(fields or ['label'])})"
        )
    head, cols = table.head, []
    for spec in label_spec:
        if isinstance(spec, int):
            cols.append(spec - 1)
        elif head is not None and spec in head:
            cols.append(head.index(spec))
        elif role == "gold":
            raise _name_error(raw, head, table.head_line, spec, _LABEL)
        else:
            return None
    return cols


def _label_indices(
    raw: RawText,
    table: _Table,
    role: str,
    opts: ReadOptions,
    width: int,
    idx: int,
    fields: list[str] | None,
    gold: Parsed | None,
) -> list[int]:
    """The 0-based label column(s): named, else the columns named after the fields, else the
    columns besides the id and the cluster column, else (a run) the gold's; none of them the id
    column."""
    nf = len(fields) if fields else 1
    head, like_gold = table.head, _like_gold(role, gold)
    cluster = cluster_index(opts, role, head, width, gold)
    cols = _named_labels(raw, table, role, opts, nf, fields)
    if cols is not None:
        pass
    elif head and fields and all(f in head for f in fields):
        cols = [head.index(f) for f in fields]
    elif len(others := [j for j in range(width) if j not in (idx, cluster)]) == nf:
        cols = others
    elif (
        like_gold and head and gold.header and all(gold.header[j] in head for j in gold.label_index)
    ):
        cols = [head.index(gold.header[j]) for j in gold.label_index]
    elif like_gold and width == gold.width:
        cols = list(gold.label_index)
    else:
        id_given = getattr(opts, opts.column_options(role)[0]) is not None
        raise _no_label_column(raw, head, width, nf, idx, cluster, id_given)
    if idx in cols:
        id_attr, label_attr = opts.column_options(role)
        raise InputError(
            f"{raw.path}: the id column and a label column are the same (column {idx + 1}); "
            f"check {opts.named(id_attr)} and {opts.named(label_attr)}"
        )
    return cols


def _no_label_column(
    raw: RawText,
    head: list[str] | None,
    width: int,
    nf: int,
    idx: int,
    cluster: int | None,
    id_given: bool,
) -> InputError:
    """The error of a file whose label column(s) cannot be told: it says which options to pass."""
    shown = f" (header: {shown_row(head)})" if head else ""
    besides = (
        ""
        if cluster is None or cluster == idx
        else f", the cluster column {head[cluster] if head else cluster + 1!r}"
    )
    return InputError(
        f"{raw.path}: {width} columns{shown}, expected an id column{besides} and "
        f"{'one label column' if nf == 1 else f'{nf} label columns'}; pass "
        f"{option(_LABEL, 'N')} (a position or a header name) to say which holds the "
        f"label" + ("" if id_given else f", and {option(_ID, 'N')} for the id")
    )


def _with_ids(
    raw: RawText,
    table: _Table,
    role: str,
    opts: ReadOptions,
    width: int,
    idx: int,
    cols: list[int],
) -> Parsed:
    """The items of a file with ids: each row's id (column ``idx``) and values (``cols``); a row
    of the wrong width is an error (a run's short row, under ``--missing wrong``, misses its
    value)."""
    head = table.head
    ids, values, item_lines, missing_text = [], [], [], {}
    for row, line, written in zip(table.body, table.lines, table.spaced, strict=True):
        if not row:
            continue
        if len(row) > width or (
            len(row) < width and (role == "gold" or len(row) <= idx or opts.missing == "error")
        ):
            raise _wrong_width(raw, role, row, line, width, idx)
        ident = row[idx]
        if not ident:
            raise InputError(f"{raw.path}, line {line}: empty id (column {idx + 1})")
        ids.append(ident)
        values.append(
            [None if j >= len(row) or row[j].lower() in MISSING else written[j] for j in cols]
        )
        missing_text |= {
            (len(ids) - 1, f): row[j]
            for f, j in enumerate(cols)
            if j < len(row) and row[j].lower() in MISSING
        }
        item_lines.append(line)
    names = [f"column {head[j]!r}" for j in cols] if head else [f"column {j + 1}" for j in cols]
    return Parsed(
        raw.path,
        raw.file,
        ids,
        values,
        item_lines,
        names,
        header=head,
        id_index=idx,
        label_index=cols,
        width=width,
        missing_text=missing_text,
    )


def _wrong_width(
    raw: RawText, role: str, row: list[str], line: int, width: int, idx: int
) -> InputError:
    """The error of a row of the wrong width, with a hint: a value split at blanks, or a run's
    missing prediction."""
    hint = ""
    if len(row) > width and raw.sep == "whitespace":
        hint = (
            f"; fields are split at blanks here, so a value holding a space needs "
            f"{option('sep', 'tab')}"
        )
    elif role == "run" and idx < len(row) < width:
        hint = (
            f"; pass {option('missing', 'wrong')} to score a missing prediction as a wrong answer"
        )
    return InputError(f"{raw.path}, line {line}: expected {width} columns, found {len(row)}{hint}")
