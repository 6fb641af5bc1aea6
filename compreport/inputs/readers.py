"""Read gold and predictions from files into a validated :class:`Competition`.

Two layouts are understood:

* a *wide table* (CSV/TSV): one row per test item, a gold column, an optional id
  column and one column per system;
* a *gold file plus run files*: the gold file holds ``id`` and the label(s), every
  run file holds ``id`` and the prediction(s) of one system (header optional), and
  the system is named after the file stem.

Every problem is raised as :class:`InputError` naming the file and line, column or id.
"""

from __future__ import annotations

import glob
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .competition import Competition, MetricSpec, Source
from ..errors import InputError

#: Cell values read as "no prediction".
MISSING = frozenset({"", "nan", "null"})
_TABLE_SUFFIXES = {".csv", ".tsv", ".tab", ".txt", ""}


@dataclass
class Table:
    """Raw cells of a delimited file. ``rows[i]`` is on line ``lines[i]``."""

    path: str
    rows: list[list[str]]
    lines: list[int]


def sha256(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _delimiter(path: str, first_line: str) -> str:
    suffix = Path(path).suffix.lower()
    if suffix in (".tsv", ".tab"):
        return "\t"
    if suffix == ".csv":
        return ","
    return "\t" if "\t" in first_line else ","


def read_table(path: str | Path) -> Table:
    """Read a CSV/TSV file as strings, keeping the line number of each row.

    Blank lines are skipped. Raises InputError for a missing, unreadable or empty file.
    """
    import csv

    path = str(path)
    if not os.path.exists(path):
        raise InputError(f"{path}: no such file")
    if os.path.isdir(path):
        raise InputError(f"{path}: is a directory, expected a CSV/TSV file")
    try:
        with open(path, encoding="utf-8-sig", newline="") as fh:
            text = fh.read()
    except UnicodeDecodeError as exc:
        line = text_line_of_byte(path, exc.start)
        raise InputError(f"{path}, line {line}: not UTF-8 text") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror})") from None
    if not text.strip():
        raise InputError(f"{path}: file is empty")
    delim = _delimiter(path, text.split("\n", 1)[0])
    reader = csv.reader(text.splitlines(keepends=True), delimiter=delim)
    rows, lines = [], []
    try:
        for row in reader:
            if not row or all(not c.strip() for c in row):
                continue
            rows.append([c.strip() for c in row])
            lines.append(reader.line_num)
    except csv.Error as exc:
        raise InputError(f"{path}, line {reader.line_num}: {exc}") from None
    return Table(path, rows, lines)


def text_line_of_byte(path: str, offset: int) -> int:
    with open(path, "rb") as fh:
        return fh.read(offset).count(b"\n") + 1


def _check_unique(path: str, ids: list[str], lines: list[int]) -> None:
    seen: dict[str, int] = {}
    for ident, line in zip(ids, lines, strict=True):
        ident = str(ident)  # np.str_ -> str, so messages show 'x' not np.str_('x')
        if ident in seen:
            raise InputError(f"{path}, line {line}: id {ident!r} appears twice (lines {seen[ident]} and {line})")
        seen[ident] = line


def _check_missing(path: str, values: np.ndarray, lines: np.ndarray, columns: list[str]) -> None:
    """Blank/NaN cells are errors: ``values`` is (n, F) of str."""
    lowered = np.char.lower(values.astype(str))
    bad = np.isin(lowered, list(MISSING))
    if bad.any():
        i, f = np.argwhere(bad)[0]
        raise InputError(f"{path}, line {int(lines[i])}, {columns[f]}: blank or NaN value")


def _header_index(path: str, header: list[str], name: str, what: str, option: str) -> int:
    if name not in header:
        shown = ", ".join(repr(h) for h in header)
        raise InputError(f"{path}: {what} column {name!r} not found (columns: {shown}); pass {option} NAME")
    return header.index(name)


def read_wide(path: str | Path, gold: str = "y", id_column: str | None = None) -> dict:
    """Read the wide layout. Returns the pieces of a Competition (without metadata).

    Plain files (no quotes, no unusual whitespace or line breaks, every row as wide as the
    header, no blank/NaN cell, unique ids) are split with numpy on the bytes (pandas' C parser
    for non-ASCII text); anything else, and every error, goes through the ``csv`` module path,
    which knows the line of each row. Both give the same arrays.
    """
    pieces = _read_wide_fast(str(path), gold, id_column)
    if pieces is not None:
        return pieces
    return _read_wide_csv(path, gold, id_column)


def _read_wide_csv(path: str | Path, gold: str = "y", id_column: str | None = None) -> dict:
    """:func:`read_wide` through :func:`read_table` (the ``csv`` module): slow, exact errors."""
    table = read_table(path)
    path = table.path
    header, rows = table.rows[0], table.rows[1:]
    for j, name in enumerate(header):
        if not name:
            raise InputError(f"{path}, line {table.lines[0]}, column {j + 1}: empty column name")
        if header.index(name) != j:
            raise InputError(f"{path}, line {table.lines[0]}: column {name!r} appears twice "
                             f"(columns {header.index(name) + 1} and {j + 1})")
    g = _header_index(path, header, gold, "gold", "--gold")
    if id_column is None and "id" in header and header.index("id") != g:
        id_column = "id"  # a column called id is the item id, not a system
    idc = _header_index(path, header, id_column, "id", "--id") if id_column else None
    if not rows:
        raise InputError(f"{path}: no data rows after the header")
    lines = np.asarray(table.lines[1:])
    for row, line in zip(rows, lines, strict=True):
        if len(row) != len(header):
            raise InputError(f"{path}, line {line}: expected {len(header)} columns, found {len(row)}")
    cells = np.array(rows, dtype=object).astype(str)
    if idc is not None:
        ids = cells[:, idc]
        _check_unique(path, list(ids), list(lines))
    else:
        ids = np.array([str(i) for i in range(1, len(rows) + 1)])
    sys_cols = [j for j in range(len(header)) if j not in (g, idc)]
    if not sys_cols:
        raise InputError(f"{path}: no system columns besides the gold column {gold!r}")
    gold_values = cells[:, [g]]
    _check_missing(path, gold_values, lines, [f"column {gold!r}"])
    preds = np.stack([cells[:, [j]] for j in sys_cols])
    sources = []
    for j, p in zip(sys_cols, preds, strict=True):
        cols = [f"column {header[j]!r}"]
        _check_missing(path, p, lines, cols)
        sources.append(Source(path, lines, cols))
    return dict(
        gold=gold_values, predictions=preds, systems=[header[j] for j in sys_cols], item_ids=ids,
        fields=["label"], gold_source=Source(path, lines, [f"column {gold!r}"]), system_sources=sources,
        inputs=[{"path": path, "sha256": sha256(path)}],
    )


# --------------------------------------------------------------------------- fast path
#
# ``read_table`` splits the text with ``str.splitlines`` and the ``csv`` module, then strips every
# cell with ``str.strip``. For a file without quote characters, control characters, or whitespace
# other than space, tab, ``\n`` and ``\r\n``, that is exactly: split at ``\n`` (dropping a ``\r``
# before it), split each line at the delimiter, strip spaces and tabs, skip empty lines. The fast
# path takes only such files, and only if every non-empty line has as many fields as the first
# one and no line holds blanks and delimiters alone (skipped by the csv path as blank). Then the
# cells are found with numpy on the bytes (plain ASCII) or by pandas' C parser (other UTF-8), and
# row ``r`` is the ``r``-th non-empty line. Any other file, and any file with a problem, goes
# through the csv path, whose errors name the line.

#: Bytes that need no look at the decoded text: printable ASCII except ``"``, plus tab and newlines.
_PLAIN_BYTES = bytes(range(32, 127)).replace(b'"', b"") + b"\t\n\r"
_odd_text_re = None


def _odd_text():
    """Characters that send a file to the csv path: quotes, control characters, a BOM, and
    whitespace (which includes what ``str.splitlines`` breaks at) other than space, tab, \\n, \\r."""
    global _odd_text_re
    if _odd_text_re is None:
        import re
        import sys

        odd = {chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()} - set(" \t\n\r")
        odd |= ({chr(c) for c in range(32)} - set("\t\n\r")) | {'"', "\x7f", "\ufeff"}
        _odd_text_re = re.compile("[" + "".join(re.escape(c) for c in sorted(odd)) + "]")
    return _odd_text_re


def _cut(buf: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """ASCII cells ``buf[a[i]:b[i]]`` as an ``S`` array (cells hold no NUL, so none is lost).

    ``buf`` must extend at least the widest cell past its last ``b`` (zero padding).
    """
    length = b - a
    shortest, width = (int(length.min()), max(int(length.max()), 1)) if len(a) else (0, 1)
    out = np.empty((len(a), width), dtype=np.uint8)
    for c in range(width):
        out[:, c] = buf[a + c] if c < shortest else buf[a + c] * (length > c)
    return out.view(f"S{width}").ravel()


def _fill(out: np.ndarray, col: np.ndarray) -> None:
    """``out[:] = col`` for a zeroed 1-d ``U`` array; an ``S`` column (ASCII) is widened code by code,
    much faster than numpy's bytes-to-str cast."""
    if col.dtype.kind == "S":  # (the S width may exceed the longest value: beyond it, zeros)
        codes = out.view(np.uint32).reshape(len(col), -1)
        width = min(col.dtype.itemsize, codes.shape[1])
        codes[:, :width] = col.view(np.uint8).reshape(len(col), -1)[:, :width]
    else:
        out[:] = col


def _fast_columns(path: str) -> tuple[list[str], list[np.ndarray], np.ndarray, bytes] | None:
    """Header, data columns (stripped; ``S`` arrays for ASCII files, else ``U``), line numbers, raw bytes.

    None when the file is not plain enough for the rule above or cannot be read (the csv path
    then says why).
    """
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError:
        return None
    body = raw[3:] if raw.startswith(b"\xef\xbb\xbf") else raw
    ascii_only = not body.translate(None, _PLAIN_BYTES)
    if not ascii_only:
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return None
        if _odd_text().search(text):
            return None
        del text
    if body.count(b"\r") != body.count(b"\r\n"):
        return None  # a lone \r is a line break for the csv path

    buf = np.frombuffer(body, dtype=np.uint8)
    breaks = np.flatnonzero(buf == 10)
    starts = np.concatenate([[0], breaks + 1])
    ends = np.concatenate([breaks, [len(buf)]])
    del breaks
    if starts[-1] == len(buf):  # the text ends with a line break: no last line
        starts, ends = starts[:-1], ends[:-1]
    if not len(starts):
        return None
    cr = np.zeros(len(ends), dtype=bool)
    nonempty = ends > starts
    cr[nonempty] = buf[ends[nonempty] - 1] == 13
    ends = ends - cr
    delim = _delimiter(path, body[starts[0]:ends[0]].decode("utf-8"))
    dbyte = ord(delim)
    strip = b" " in body or (delim != "\t" and b"\t" in body)
    delim_pos = np.flatnonzero(buf == dbyte)
    delims = np.searchsorted(delim_pos, ends) - np.searchsorted(delim_pos, starts)
    if strip:  # a line has content if it holds a byte other than blanks and delimiters
        is_content = np.ones(256, dtype=bool)
        is_content[[9, 10, 13, 32, dbyte]] = False
        content_pos = np.flatnonzero(is_content[buf])
        has_content = np.searchsorted(content_pos, starts) < np.searchsorted(content_pos, ends)
        del content_pos
    else:  # only delimiters and content are left
        has_content = ends - starts > delims
    if not (has_content | (ends == starts)).all() or not has_content.any():
        return None  # a line of blanks and delimiters only, which the csv path skips (or no line)
    keep = np.flatnonzero(has_content)
    k = int(delims[keep[0]]) + 1
    if (delims[keep] != k - 1).any():
        return None  # ragged rows: the csv path names the line
    dmat = delim_pos.reshape(len(keep), k - 1)  # empty lines hold no delimiter
    if ascii_only:
        bounds = [starts[keep]] + [dmat[:, j] + 1 for j in range(k - 1)]
        stops = [dmat[:, j] for j in range(k - 1)] + [ends[keep]]
        widest = max(int((b - a).max()) for a, b in zip(bounds, stops, strict=True))
        buf = np.concatenate([buf, np.zeros(widest + 1, dtype=np.uint8)])
        columns = [_cut(buf, a, b) for a, b in zip(bounds, stops, strict=True)]
        del bounds, stops, dmat
        if strip:
            columns = [np.char.strip(c) for c in columns]
    else:
        columns = _pandas_columns(body, delim, len(keep), k, strip)
        if columns is None:
            return None
    header = [c[0].decode("ascii") if c.dtype.kind == "S" else str(c[0]) for c in columns]
    return header, [c[1:] for c in columns], keep[1:] + 1, raw


def _pandas_columns(body: bytes, delim: str, rows: int, k: int, strip: bool) -> list[np.ndarray] | None:
    import io

    import pandas as pd

    try:
        frame = pd.read_csv(io.BytesIO(body), sep=delim, header=None, dtype=object, na_filter=False,
                            keep_default_na=False, skip_blank_lines=True, index_col=False,
                            quoting=3, engine="c", encoding="utf-8")  # 3: csv.QUOTE_NONE
    except Exception:  # noqa: BLE001 - any parser trouble: the csv path reports it
        return None
    if frame.shape != (rows, k):
        return None
    columns = []
    for j in range(k):
        col = frame.iloc[:, j].to_numpy(dtype=object)
        if strip:
            col = np.array([v.strip() for v in col], dtype=object)
        columns.append(col.astype(str))
    return columns


def _any_missing(col: np.ndarray) -> bool:
    """Whether an ``S``/``U`` column holds a value of :data:`MISSING` (any case)."""
    lengths = np.char.str_len(col)
    if (lengths == 0).any():
        return True
    short = col[(lengths == 3) | (lengths == 4)]
    if not len(short):
        return False
    return bool(np.isin(np.char.lower(short.astype(str)), ["nan", "null"]).any())


def _read_wide_fast(path: str, gold: str, id_column: str | None) -> dict | None:
    """:func:`read_wide` for plain files; None whenever the csv path should decide."""
    parsed = _fast_columns(path)
    if parsed is None:
        return None
    header, columns, lines, raw = parsed
    if any(not name for name in header) or len(set(header)) != len(header) or gold not in header:
        return None
    g = header.index(gold)
    if id_column is None and "id" in header and header.index("id") != g:
        id_column = "id"
    if id_column and id_column not in header:
        return None
    idc = header.index(id_column) if id_column else None
    n = len(lines)
    sys_cols = [j for j in range(len(header)) if j not in (g, idc)]
    if not n or not sys_cols:
        return None
    if idc is not None and len(set(columns[idc].tolist())) != n:
        return None  # a duplicate id
    if any(_any_missing(columns[j]) for j in [g, *sys_cols]):
        return None
    # As np.array(rows, dtype=object).astype(str) does: one width for all, the longest cell's.
    width = max(int(np.char.str_len(c).max()) for c in columns)
    dtype = np.dtype(f"<U{max(width, 1)}")
    if idc is not None:
        ids = np.zeros(n, dtype=dtype)
        _fill(ids, columns[idc])
    else:
        ids = np.array([str(i) for i in range(1, n + 1)])
    gold_values = np.zeros((n, 1), dtype=dtype)
    _fill(gold_values.reshape(n), columns[g])
    preds = np.zeros((len(sys_cols), n, 1), dtype=dtype)
    for s, j in enumerate(sys_cols):
        _fill(preds[s].reshape(n), columns[j])
    sources = [Source(path, lines, [f"column {header[j]!r}"]) for j in sys_cols]
    return dict(
        gold=gold_values, predictions=preds, systems=[header[j] for j in sys_cols], item_ids=ids,
        fields=["label"], gold_source=Source(path, lines, [f"column {gold!r}"]), system_sources=sources,
        inputs=[{"path": path, "sha256": hashlib.sha256(raw).hexdigest()}],
    )


def _is_header(first: list[str], id_column: str, known_ids: set[str] | None) -> bool:
    cell = first[0]
    if known_ids is not None and cell in known_ids:
        return False
    return cell.lower() in {id_column.lower(), "id"}


def read_gold(path: str | Path, id_column: str = "id", fields: list[str] | None = None) -> dict:
    """Read a gold file: ``id`` then one column per field. Header optional."""
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
    _check_unique(path, list(ids), lines)
    arr_lines = np.asarray(lines)
    values = cells[:, cols]
    _check_missing(path, values, arr_lines, names)
    return dict(ids=ids, values=values, source=Source(path, arr_lines, names))


def run_files(runs: str | Path) -> list[str]:
    """List run files: every visible table file of a directory, or a glob; sorted."""
    runs = str(runs)
    if os.path.isdir(runs):
        files = [os.path.join(runs, f) for f in sorted(os.listdir(runs))
                 if not f.startswith(".") and os.path.isfile(os.path.join(runs, f))
                 and Path(f).suffix.lower() in _TABLE_SUFFIXES]
    else:
        files = sorted(f for f in glob.glob(runs) if os.path.isfile(f))
    if not files:
        raise InputError(f"{runs}: no run files found")
    return files


def read_runs(gold_path: str | Path, runs: str | Path, id_column: str = "id",
              fields: list[str] | None = None) -> dict:
    """Read the gold file plus run files layout, joined by id."""
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
        _check_missing(f, values, line_of, names)
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
    """Warnings for predicted labels never seen in gold, in the label ``fields`` given."""
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


def build(pieces: dict, *, id: str, name: str, metrics: list[MetricSpec], **meta) -> Competition:
    """Assemble a Competition from loader pieces and metadata, checking baselines."""
    comp = Competition(id=id, name=name, metrics=metrics, **pieces, **meta)
    for b in comp.baselines:
        if b not in comp.systems:
            raise InputError(f"baseline {b!r} of competition {comp.id!r} is not a system "
                             f"(systems: {', '.join(comp.systems)})")
    return comp
