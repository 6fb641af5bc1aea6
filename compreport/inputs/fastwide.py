r"""The fast reader of plain wide tables: cells found with numpy on the bytes, not the ``csv``
module.

:func:`read_wide_fast` returns exactly what :func:`compreport.inputs.readers.read_wide`'s
``csv`` path returns, or ``None`` when that path should decide (an unusual file, or any
problem, which that path then reports with its line).

:func:`~compreport.inputs.delimited.read_table` splits the text with ``str.splitlines`` and the
``csv`` module, then strips every cell with ``str.strip``. For a file without quote characters,
control characters, or whitespace other than space, tab, ``\n`` and ``\r\n``, that is exactly:
split at ``\n`` (dropping a ``\r`` before it), split each line at the delimiter, strip spaces and
tabs, skip empty lines. The fast path takes only such files, and only if every non-empty line has
as many fields as the first one and no line holds blanks and delimiters alone (skipped by the csv
path as blank). Then the cells are found with numpy on the bytes (plain ASCII) or by pandas' C
parser (other UTF-8), and row ``r`` is the ``r``-th non-empty line. Any other file, and any file
with a problem, goes through the csv path, whose errors name the line.
"""

from __future__ import annotations

import functools
import hashlib

import numpy as np

from compreport.errors import InputError
from compreport.inputs.competition import Source
from compreport.inputs.delimited import delimiter, read_bytes

#: Bytes that need no look at the decoded text: printable ASCII except ``"``, plus tab and
#: newlines.
_PLAIN_BYTES = bytes(range(32, 127)).replace(b'"', b"") + b"\t\n\r"


#: Cache: the pattern, built on first use since it scans every code point of Unicode for its
#: whitespace (about 60 ms, paid only by a file the fast path reads); no argument, one entry.
@functools.cache
def _odd_text():
    """The pattern of the characters that send a file to the csv path: quotes, control
    characters, a BOM, and whitespace (which includes what ``str.splitlines`` breaks at) other
    than space, tab, \\n, \\r."""
    import re
    import sys

    odd = {chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()} - set(" \t\n\r")
    odd |= ({chr(c) for c in range(32)} - set("\t\n\r")) | {'"', "\x7f", "\ufeff"}
    return re.compile("[" + "".join(re.escape(c) for c in sorted(odd)) + "]")


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
    """``out[:] = col`` for a zeroed 1-d ``U`` array; an ``S`` column (ASCII) is widened code by
    code, much faster than numpy's bytes-to-str cast."""
    if col.dtype.kind == "S":  # (the S width may exceed the longest value: beyond it, zeros)
        codes = out.view(np.uint32).reshape(len(col), -1)
        width = min(col.dtype.itemsize, codes.shape[1])
        codes[:, :width] = col.view(np.uint8).reshape(len(col), -1)[:, :width]
    else:
        out[:] = col


def _fast_columns(path: str) -> tuple[list[str], list[np.ndarray], np.ndarray, bytes] | None:
    """Header, data columns (stripped; ``S`` arrays for ASCII files, else ``U``), line numbers and
    raw bytes.

    None when the file is not plain enough for the rule above or cannot be read (the csv path
    then says why).
    """
    try:
        raw = read_bytes(path)  # a pipe is read once, and kept for the csv path
    except InputError:
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
    delim = delimiter(path, body[starts[0] : ends[0]].decode("utf-8"))
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


def _pandas_columns(
    body: bytes, delim: str, rows: int, k: int, strip: bool
) -> list[np.ndarray] | None:
    """The ``k`` columns of the ``rows`` lines of ``body`` (UTF-8, not all ASCII) split at
    ``delim`` by pandas' C parser, as ``U`` arrays (``strip``: cells stripped); None when the
    parser has any trouble or finds another shape (the csv path then reads the file)."""
    import io

    import pandas as pd

    try:
        frame = pd.read_csv(
            io.BytesIO(body),
            sep=delim,
            header=None,
            dtype=object,
            na_filter=False,
            keep_default_na=False,
            skip_blank_lines=True,
            index_col=False,
            quoting=3,  # csv.QUOTE_NONE
            engine="c",
            encoding="utf-8",
        )
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
    """Whether an ``S``/``U`` column holds a value of
    :data:`~compreport.inputs.delimited.MISSING` (any case)."""
    lengths = np.char.str_len(col)
    if (lengths == 0).any():
        return True
    short = col[(lengths == 3) | (lengths == 4)]
    if not len(short):
        return False
    return bool(np.isin(np.char.lower(short.astype(str)), ["nan", "null"]).any())


def read_wide_fast(path: str, gold: str, id_column: str | None) -> dict | None:
    """:func:`~compreport.inputs.readers.read_wide` for plain files.

    Parameters
    ----------
    path : str
    gold : str
        Name of the gold column.
    id_column : str or None
        Name of the id column (``None``: a column called ``id`` if any).

    Returns
    -------
    dict or None
        The same pieces as the ``csv`` path, or ``None`` whenever that path should decide
        (an unusual file, or any problem, which it reports with the line).
    """
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
    if idc is not None and (
        len(set(columns[idc].tolist())) != n or (np.char.str_len(columns[idc]) == 0).any()
    ):
        return None  # a duplicate or empty id
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
        gold=gold_values,
        predictions=preds,
        systems=[header[j] for j in sys_cols],
        item_ids=ids,
        fields=["label"],
        gold_source=Source(path, lines, [f"column {gold!r}"]),
        system_sources=sources,
        inputs=[{"path": path, "sha256": hashlib.sha256(raw).hexdigest()}],
        missing={header[j]: 0 for j in sys_cols},
    )
