"""Delimited text files (CSV/TSV) as cells of strings, with the line of every row, and their
checks; reading a file's bytes and name.

Every problem is raised as :class:`~compreport.errors.InputError` naming the file and line.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

import numpy as np

from compreport import options
from compreport.errors import InputError, excerpt, option, os_reason

#: Cell values read as "no prediction".
MISSING = frozenset({"", "nan", "null"})


@dataclass
class Table:
    """Raw cells of a delimited file.

    Attributes
    ----------
    path : str
        The file, as named by the caller.
    rows : list of list of str
        Non-blank rows, cells stripped of surrounding whitespace.
    lines : list of int
        1-based line of each row: ``rows[i]`` is on line ``lines[i]``.
    """

    path: str
    rows: list[list[str]]
    lines: list[int]


def shown(path: str | Path) -> str:
    """``path`` for a message: the bytes of a name that is not UTF-8 as ``\\xf1`` escapes."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def text_name(path: str | Path) -> str:
    """``str(path)``, checked to be text: a file name that is not UTF-8 (``Pe\\xf1afiel.tsv`` from a
    Windows zip) would become a system name, a path in results.json and report text, so it is an
    :class:`InputError` naming the file and saying how it reads in Windows-1252."""
    text = str(path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raw = os.fsencode(path)
        with contextlib.suppress(UnicodeDecodeError):
            raw.decode("utf-8")
            raise InputError(
                f"{shown(path)}: file name is UTF-8 but Python reads file names as "
                f"{sys.getfilesystemencoding()} here (the C locale?): run with PYTHONUTF8=1 or "
                f"python -X utf8"
            ) from None
        try:
            guess = raw.decode("cp1252")
            hint = (
                f" (rename it, e.g. to {guess!r}, its Windows-1252 reading)"
                if guess.isprintable()
                else " (rename it)"
            )
        except UnicodeDecodeError:
            hint = " (rename it)"
        raise InputError(f"{shown(path)}: file name is not UTF-8 text{hint}") from None
    return text


#: Cache: the contents of the pipes and FIFOs read, which can be read only once, so that every
#: later read of one (the fast path, the csv path, the checksum) sees the same bytes:
#: (device, inode) -> bytes, keyed by the stream's identity and never read as a setting. As big
#: as the pipes given (a few on a command line), each capped at :data:`MAX_FILE_BYTES`; a
#: regular file is never kept.
_STREAMS: dict[tuple[int, int], bytes] = {}

#: The largest input file read, in bytes (2 GiB; a gold or run file of a million items is about
#: 10 MB): a larger one, or a pipe that gives more, is refused before it fills the memory.
MAX_FILE_BYTES = 2 << 30

_KINDS = (
    (stat.S_ISDIR, "is a directory, expected a file"),
    (stat.S_ISCHR, "is a character device, not a regular file"),
    (stat.S_ISBLK, "is a block device, not a regular file"),
    (stat.S_ISSOCK, "is a socket, not a regular file"),
    (stat.S_ISFIFO, "is a FIFO (named pipe), not a regular file"),
)


def not_a_file(path: str | Path, mode: int) -> str | None:
    """What ``path`` is when the mode ``mode`` (of :func:`os.stat`, links followed) is not a
    regular file, for a message (``is a character device, not a regular file``); None for a
    regular file.

    >>> not_a_file("/dev/zero", os.stat("/dev/zero").st_mode)
    'is a character device, not a regular file'
    """
    if stat.S_ISREG(mode):
        return None
    return next((what for test, what in _KINDS if test(mode)), "is not a regular file")


def file_limit() -> int:
    """The largest input file read, in bytes: :data:`MAX_FILE_BYTES`."""
    return MAX_FILE_BYTES


def _too_large(path: str | Path, size: int, limit: int) -> InputError:
    return InputError(
        f"{shown(path)}: {'more than ' if size > limit else ''}{size / (1 << 30):.1f} GiB, larger "
        f"than the {limit / (1 << 30):.0f} GiB an input file may take"
    )


def _open(path: str | Path) -> int:
    """A descriptor of ``path`` opened for reading without waiting for a FIFO's writer."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    return os.open(path, flags | getattr(os, "O_BINARY", 0))


def _read_all(fd: int, first: int, limit: int) -> bytes:
    """The bytes of ``fd`` to its end, or the first ``limit + 1`` of them; ``first``: the size of
    the first read (a regular file's size and one)."""
    chunks: list[bytes] = []
    total, size = 0, max(first, 1 << 16)
    while total <= limit:
        want = min(size, limit + 1 - total)
        chunk = os.read(fd, want)
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
        size = 1 << 20
    return b"".join(chunks)


def read_bytes(path: str | Path, pipes: bool = True) -> bytes:
    """The bytes of ``path``, a regular file (or a link to one) or a pipe or FIFO (``<(...)`` on a
    shell's command line; the FIFOs found in a runs folder are refused before this,
    by :func:`~compreport.inputs.runfiles.find_runs`).

    This is where every input file is read. It is opened without blocking (a FIFO with no writer
    reads as empty), and checked before reading: a directory, a device (``/dev/zero``,
    ``/dev/urandom``), or a socket is refused, and so is a file larger than
    :data:`MAX_FILE_BYTES` (a pipe is read up to it). A pipe is read once and kept, so that every
    later read of it (the fast path, the csv path, the checksum) sees the same bytes; with
    ``pipes=False`` a pipe or FIFO is refused too (only a regular file is read).

    Raises
    ------
    InputError
        For a name that is not UTF-8 (:func:`text_name`), a missing file, what is not a regular
        file, a file too large, or a file that cannot be read (permission denied, an I/O error),
        naming the file.
    """
    text_name(path)
    try:
        fd = _open(path)
    except OSError as exc:
        raise read_error(path, exc) from None
    try:
        st = os.fstat(fd)
        key = (st.st_dev, st.st_ino)
        what = not_a_file(path, st.st_mode)
        if what is not None and (not pipes or not stat.S_ISFIFO(st.st_mode)):
            raise InputError(f"{shown(path)}: {what}")
        if what is not None and key in _STREAMS:
            return _STREAMS[key]
        limit = file_limit()
        if what is None and st.st_size > limit:
            raise _too_large(path, st.st_size, limit)
        if what is not None:  # a FIFO with a writer is waited for; without one it is at EOF
            os.set_blocking(fd, True)
        data = _read_all(fd, st.st_size + 1 if what is None else 1 << 20, limit)
        if len(data) > limit:
            raise _too_large(path, len(data), limit)
    except OSError as exc:
        raise read_error(path, exc) from None
    finally:
        os.close(fd)
    if what is not None:
        _STREAMS[key] = data
    return data


def read_error(path: str | Path, exc: OSError) -> InputError:
    """The :class:`InputError` of an :class:`OSError` met reading ``path``: ``PATH: no such file``,
    ``PATH: is a directory, expected a file``, ``PATH: cannot read (Permission denied)``."""
    if isinstance(exc, FileNotFoundError):
        return InputError(f"{shown(path)}: no such file")
    if isinstance(exc, IsADirectoryError):
        return InputError(f"{shown(path)}: is a directory, expected a file")
    return InputError(f"{shown(path)}: cannot read ({os_reason(exc)})")


def sha256(path: str | Path) -> str:
    """Hex SHA-256 of a file's bytes (recorded in results.json); of a pipe, of its kept bytes
    (:func:`read_bytes`, which refuses what is not a file)."""
    h = hashlib.sha256()
    try:
        fd = _open(path)
    except OSError as exc:
        raise read_error(path, exc) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return hashlib.sha256(read_bytes(path)).hexdigest()
        while chunk := os.read(fd, 1 << 20):
            h.update(chunk)
    except OSError as exc:
        raise read_error(path, exc) from None
    finally:
        os.close(fd)
    return h.hexdigest()


def delimiter(path: str, first_line: str) -> str:
    """Tab for ``.tsv``/``.tab``, comma for ``.csv``; otherwise tab if ``first_line`` holds one,
    else comma.

    >>> delimiter("gold.txt", "1\\tpositive"), delimiter("gold.csv", "1\\tpositive")
    ('\\t', ',')
    """
    suffix = Path(path).suffix.lower()
    if suffix in (".tsv", ".tab"):
        return "\t"
    if suffix == ".csv":
        return ","
    return "\t" if "\t" in first_line else ","


#: ``--sep`` values: ``auto`` decides per file (:func:`split_fields`).
SEPARATORS = options.SEPARATORS
#: The character of the ``--sep`` values that name one.
_SEP_CHAR = MappingProxyType({"tab": "\t", "comma": ","})


def decode(path: str, data: bytes) -> str:
    """``data`` as UTF-8 text, a BOM dropped; :class:`InputError` naming the line of bytes that
    are not UTF-8.

    >>> decode("gold.tsv", b"\\xef\\xbb\\xbfid\\n1\\n\\xff\\n")
    Traceback (most recent call last):
        ...
    compreport.errors.InputError: gold.tsv, line 3: not UTF-8 text
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        bom = 3 if data.startswith(b"\xef\xbb\xbf") else 0  # exc.start counts from after the BOM
        line = data[: bom + exc.start].count(b"\n") + 1
        raise InputError(f"{path}, line {line}: not UTF-8 text") from None


def read_table(path: str | Path, sep: str = "auto") -> Table:
    """Read a CSV/TSV file as strings, keeping the line number of each row.

    Blank lines are skipped; a UTF-8 BOM is dropped; the delimiter is chosen by :func:`delimiter`
    unless ``sep`` (``tab``, ``comma``, ``whitespace``: runs of blanks) names it.
    A pipe (``<(...)``) is read once (:func:`read_bytes`).

    Parameters
    ----------
    path : str or Path
    sep : str
        One of :data:`SEPARATORS`.

    Returns
    -------
    Table

    Raises
    ------
    InputError
        For a missing, unreadable, non-UTF-8 or empty file, or malformed CSV (naming the line;
        :func:`csv_rows`).
    """
    path = text_name(path)
    if os.path.isdir(path):
        raise InputError(f"{path}: is a directory, expected a CSV/TSV file")
    text = decode(path, read_bytes(path))
    if not text.strip():
        raise InputError(f"{path}: file is empty")
    if sep == "whitespace":
        rows, lines = [], []
        for number, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                rows.append(line.split())
                lines.append(number)
        return Table(path, rows, lines)
    delim = _SEP_CHAR.get(sep) or delimiter(path, text.split("\n", 1)[0])
    rows, lines = [], []
    numbered = list(enumerate(text.splitlines(keepends=True), start=1))
    for row, line in zip(*csv_rows(path, numbered, delim), strict=True):
        if row:
            rows.append(row)
            lines.append(line)
    return Table(path, rows, lines)


def _open_quote(text: str, delim: str) -> bool:
    r"""Whether ``text`` ends inside a quoted field, as the ``csv`` module reads it (a field
    that starts with ``"``; ``""`` inside it is a quote).

    >>> _open_quote('1\t"oh no\tneu', "\t"), _open_quote('1\t"a ""b"" c"\tneu', "\t")
    (True, False)
    >>> _open_quote('1\toh "no\tneu', "\t")  # a quote inside a field is a character
    False
    """
    start, quoted, closing = True, False, False
    for c in text:
        if quoted:
            if c == '"':
                quoted, closing = False, True
            continue
        if closing and c == '"':  # "" inside a quoted field
            quoted, closing = True, False
            continue
        closing = False
        if c == delim or c in "\r\n":
            start = True
        elif start:
            quoted, start = c == '"', False
    return quoted


def csv_rows(path: str, numbered: list[tuple[int, str]], delim: str, strip: bool = True):
    r"""The rows of the lines ``numbered`` ((line number, text with its end) pairs) split at
    ``delim`` by the ``csv`` module, each cell stripped unless ``strip`` is False (then only the
    line's end is cut; a row of blank cells: ``[]``), and the (last) line number of each.

    Quotes are read as CSV quotes where the file is a CSV (``delim`` a comma), where a quoted
    field may run over several lines. A tab-separated field is never quoted across a line
    break: a line whose field opens a quote it does not close on that line (a raw tweet,
    ``"oh no``) is read as it stands, its quote a character, so that no two lines merge into one
    item; a field quoted and closed on its line (``"a ""b"" c"``, as pandas and R write) reads as
    in a CSV.

    Returns
    -------
    rows : list of list of str
    lines : list of int

    Raises
    ------
    InputError
        A CSV whose quote opens a field and never closes (the rest of the file would be one
        field), naming the file and the line where the quote opens; what the ``csv`` module
        refuses (a NUL), naming the line.

    >>> csv_rows("gold.tsv", [(1, '1\t"oh no\tneu\n'), (2, '2\tfine\tpos\n')], "\t")
    ([['1', '"oh no', 'neu'], ['2', 'fine', 'pos']], [1, 2])
    """
    import csv

    at = [0]
    literal: dict[int, list[str]] = {}
    tab = delim == "\t"

    def feed():
        for i, (number, line) in enumerate(numbered):
            at[0] = number
            if tab and '"' in line and _open_quote(line.rstrip("\r\n"), delim):
                literal[i] = line.rstrip("\r\n").split(delim)
                yield "\n"  # read as it stands, below
            else:
                yield line

    def cells(row: list[str]) -> list[str]:
        if all(not c.strip() for c in row):
            return []
        return [c.strip() if strip else c.rstrip("\r\n") for c in row]

    rows: list[list[str]] = []
    lines: list[int] = []
    try:
        for row in csv.reader(feed(), delimiter=delim):
            rows.append(cells(row))
            lines.append(at[0])
    except csv.Error as exc:
        raise InputError(f"{path}, line {at[0] if numbered else 1}: {exc}") from None
    for i, row in literal.items():  # a tab-separated file has one row a line
        rows[i] = cells(row)
    if not tab and lines and lines[-1] == numbered[-1][0]:
        # the last row: where it starts, and whether a quote there runs to the end of the file
        before = lines[-2] if len(lines) > 1 else 0
        start = next(k for k, (number, _) in enumerate(numbered) if number > before)
        if start < len(numbered) - 1 and _open_quote(
            "".join(line for _, line in numbered[start:]), delim
        ):
            raise InputError(
                f'{path}, line {numbered[start][0]}: a field opens a quote (") that never '
                f"closes, so every line after it would read as part of that field; close the "
                f'quote, or double it ("") if it is part of the text'
            )
    return rows, lines


def _auto_separator(path: str, content: list[tuple[int, str]], suffix: str) -> str:
    """The separator of a gold or run file whose non-blank lines are ``content`` ((line, text)
    pairs).

    Tab when every line holds one; comma when no line holds a tab and every line (a ``.csv`` file:
    any line) holds a comma; otherwise runs of whitespace. A file mixing lines with and without a
    tab reads as whitespace-separated only when no tab-separated field holds a blank, else it is an
    :class:`InputError` asking for ``--sep``.
    """
    tabbed = ["\t" in line for _, line in content]
    if all(tabbed):
        return "tab"
    if any(tabbed):
        other = next(number for (number, _), t in zip(content, tabbed, strict=True) if not t)
        for (number, line), t in zip(content, tabbed, strict=True):
            if not t:
                continue
            for cell in line.split("\t"):
                if len(cell.split()) > 1:
                    raise InputError(
                        f"{path}, line {number}: the file mixes lines with a tab and lines "
                        f"without one (line {other}), and the tab-separated field "
                        f"{cell.strip()!r} holds a space, so the fields cannot be told apart; "
                        f"pass {option('sep', 'tab')} or {option('sep', 'whitespace')}"
                    )
        return "whitespace"
    commas = ["," in line for _, line in content]
    if all(commas) or (suffix == ".csv" and any(commas)):
        return "comma"
    return "whitespace"


def split_fields(
    path: str,
    text: str,
    sep: str = "auto",
    comments: bool = True,
    suffix: str = "",
    strip: bool = True,
) -> tuple[list[list[str]], list[int], str]:
    """The fields of every line of a gold or run file, with their lines, and the separator used.

    Lines whose first character is ``#`` are skipped when ``comments``; a blank line is an empty
    row (a file without ids aligns its rows with the gold by line, so its blank lines count).
    ``sep``: ``tab`` or ``comma`` (read by the ``csv`` module: quotes work, across lines in a
    CSV only: :func:`csv_rows`), ``whitespace`` (runs of blanks), or ``auto``
    (:func:`_auto_separator`). Cells are stripped unless ``strip`` is False (tab and comma only: a
    line's end is never part of a cell).

    Returns
    -------
    rows : list of list of str
    lines : list of int
        1-based line of each row (the last line of a row that spans several).
    sep : str
        The separator used (``auto`` resolved; ``auto`` itself when the file has no content).

    Examples
    --------
    >>> split_fields("run.txt", "# a comment\\n1\\tpos\\n\\n2\\tneg\\n")
    ([['1', 'pos'], [], ['2', 'neg']], [2, 3, 4], 'tab')
    """
    physical = text.splitlines(keepends=True)
    kept = [
        (number, line)
        for number, line in enumerate(physical, start=1)
        if not (comments and line.startswith("#"))
    ]
    content = [(number, line) for number, line in kept if line.strip()]
    if not content:
        return [], [], sep
    if sep == "auto":
        sep = _auto_separator(path, content, suffix)
    rows: list[list[str]] = []
    lines: list[int] = []
    if sep == "whitespace":
        for number, line in kept:
            rows.append(line.split())
            lines.append(number)
        return rows, lines, sep
    rows, lines = csv_rows(path, kept, _SEP_CHAR[sep], strip)
    return rows, lines, sep


def check_unique(path: str, ids: list[str], lines: list[int]) -> None:
    """InputError naming both lines when an id appears twice; ``ids[i]`` is on line ``lines[i]``."""
    seen: dict[str, int] = {}
    for ident, line in zip(ids, lines, strict=True):
        ident = str(ident)  # np.str_ -> str, so messages show 'x' not np.str_('x')
        if ident in seen:
            raise InputError(
                f"{path}, line {line}: id {ident!r} appears twice (lines {seen[ident]} and {line})"
            )
        seen[ident] = line


def check_missing(
    path: str, values: np.ndarray, lines: np.ndarray, columns: list[str], hint: bool = False
) -> None:
    """InputError naming line and column of the first :data:`MISSING` cell (any case).

    Parameters
    ----------
    path : str
        The file, for the message.
    values : ndarray of str, shape (n, F)
        Cells; row ``i`` is on line ``lines[i]``, column ``f`` is named ``columns[f]``.
    lines : ndarray of int, shape (n,)
    columns : list of str
    hint : bool
        Say that ``--missing wrong`` scores such a cell as a wrong answer (cells of predictions).
    """
    lowered = np.char.lower(values.astype(str))
    bad = np.isin(lowered, list(MISSING))
    if bad.any():
        i, f = np.argwhere(bad)[0]
        more = f"; pass {option('missing', 'wrong')} to score it as a wrong answer" if hint else ""
        text = str(values[i, f])
        said = "blank" if not text.strip() else f"{excerpt(text)}, read as missing"
        raise InputError(
            f"{path}, line {int(lines[i])}, {columns[f]}: blank or NaN value ({said}){more}"
        )
