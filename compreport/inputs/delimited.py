"""Delimited text files (CSV/TSV) as cells of strings, with the line of every row, and their checks.

Every problem is raised as :class:`~compreport.errors.InputError` naming the file and line.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import InputError

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


def sha256(path: str | Path) -> str:
    """Hex SHA-256 of a file's bytes (recorded in results.json)."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def delimiter(path: str, first_line: str) -> str:
    """Tab for ``.tsv``/``.tab``, comma for ``.csv``; otherwise tab if ``first_line`` holds one, else comma."""
    suffix = Path(path).suffix.lower()
    if suffix in (".tsv", ".tab"):
        return "\t"
    if suffix == ".csv":
        return ","
    return "\t" if "\t" in first_line else ","


def read_table(path: str | Path) -> Table:
    """Read a CSV/TSV file as strings, keeping the line number of each row.

    Blank lines are skipped; a UTF-8 BOM is dropped; the delimiter is chosen by :func:`delimiter`.

    Parameters
    ----------
    path : str or Path

    Returns
    -------
    Table

    Raises
    ------
    InputError
        For a missing, unreadable, non-UTF-8 or empty file, or malformed CSV (naming the line).
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
        line = _line_of_byte(path, exc.start)
        raise InputError(f"{path}, line {line}: not UTF-8 text") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror})") from None
    if not text.strip():
        raise InputError(f"{path}: file is empty")
    delim = delimiter(path, text.split("\n", 1)[0])
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


def _line_of_byte(path: str, offset: int) -> int:
    with open(path, "rb") as fh:
        return fh.read(offset).count(b"\n") + 1


def check_unique(path: str, ids: list[str], lines: list[int]) -> None:
    """InputError naming both lines when an id appears twice; ``ids[i]`` is on line ``lines[i]``."""
    seen: dict[str, int] = {}
    for ident, line in zip(ids, lines, strict=True):
        ident = str(ident)  # np.str_ -> str, so messages show 'x' not np.str_('x')
        if ident in seen:
            raise InputError(f"{path}, line {line}: id {ident!r} appears twice (lines {seen[ident]} and {line})")
        seen[ident] = line


def check_missing(path: str, values: np.ndarray, lines: np.ndarray, columns: list[str]) -> None:
    """InputError naming line and column of the first :data:`MISSING` cell (any case).

    Parameters
    ----------
    path : str
        The file, for the message.
    values : ndarray of str, shape (n, F)
        Cells; row ``i`` is on line ``lines[i]``, column ``f`` is named ``columns[f]``.
    lines : ndarray of int, shape (n,)
    columns : list of str
    """
    lowered = np.char.lower(values.astype(str))
    bad = np.isin(lowered, list(MISSING))
    if bad.any():
        i, f = np.argwhere(bad)[0]
        raise InputError(f"{path}, line {int(lines[i])}, {columns[f]}: blank or NaN value")
