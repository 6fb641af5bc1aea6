"""The one CSV writer of every export: ``leaderboard.csv``, ``pairs-<metric>.csv``,
``summary.csv``, ``competitiveness.csv`` and ``plan.csv``.

Names in these files come from participants and organizers (runs, teams, competitions, metrics),
and a spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` (and, in some, a tab or
a carriage return) as a formula: ``=HYPERLINK("http://x", "click")``, ``-1+2``. Every text cell
(and every column name and row label) that starts with one of those gets a leading ``'``, so a
spreadsheet shows it as text (OWASP's advice against CSV injection). Numbers are not text: a
negative difference such as ``-0.5`` in a numeric column is written as the number it is.

Examples
--------
>>> print(rows_text([["system", "diff"], ["=HYPERLINK(1)", -0.5], ["-1+2", 3]]), end="")
system,diff
'=HYPERLINK(1),-0.5
'-1+2,3
"""

from __future__ import annotations

from pathlib import Path

from compreport.output import files

__all__ = ["FORMULA_START", "inert", "rows_text", "write_frame"]

#: The first characters that make a spreadsheet read a cell as a formula (OWASP).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def inert(value):
    """``value`` as a CSV cell a spreadsheet will not run: text starting with one of
    :data:`FORMULA_START` gets a leading ``'``; anything else (numbers included) is unchanged.

    Examples
    --------
    >>> inert("=cmd|' /C calc'!A0"), inert("-1+2"), inert("team-1"), inert(-0.5), inert(None)
    ("'=cmd|' /C calc'!A0", "'-1+2", 'team-1', -0.5, None)
    """
    if isinstance(value, str) and value[:1] in FORMULA_START:
        return "'" + value
    return value


def _cell(value) -> str:
    """``value`` as the text of a CSV cell, as pandas writes it: a float (numpy's too) as its
    shortest round-trip repr, a missing value (None, NaN, ``pd.NA``) empty, a bool ``True`` or
    ``False``; text quoted when it holds a comma, a quote, a CR or a LF (the csv module quotes a
    lone CR only when it ends lines with one, so a name holding one would split its row).

    Examples
    --------
    >>> [_cell(v) for v in (-0.5, float("nan"), None, True, 3, 'a"b', "\\rx", "ok")]
    ['-0.5', '', '', 'True', '3', '"a""b"', '"\\rx"', 'ok']
    """
    import numpy as np
    import pandas as pd

    if value is None or value is pd.NA or value is pd.NaT:
        return ""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return "" if value != value else repr(float(value))
    text = str(value)
    if any(ch in text for ch in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def _lines(rows) -> str:
    """``rows`` (lists of cells, made :func:`inert` first) as CSV text, one line each, ending
    ``\\n``."""
    return "".join(",".join(_cell(inert(v)) for v in row) + "\n" for row in rows)


def write_frame(df, path: Path, *, index_label: str | None = None) -> Path:
    """Write the DataFrame ``df`` to the new file ``path`` as UTF-8 CSV (a header line, then a
    line per row, as :meth:`pandas.DataFrame.to_csv` writes it), cells made :func:`inert`, with
    its index as a first column named ``index_label`` when one is given; return ``path``."""
    header = list(df.columns)
    body = df.astype(object).values.tolist()
    if index_label is not None:
        header = [index_label, *header]
        body = [[i, *row] for i, row in zip(df.index, body, strict=True)]
    files.write_text(path, _lines([header, *body]), newline="")
    return path


def rows_text(rows) -> str:
    """``rows`` (lists of cells) as CSV text, every cell made :func:`inert`; ``None`` is an
    empty cell, a float is written as its shortest round-trip repr."""
    return _lines(rows)
