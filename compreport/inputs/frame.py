"""Read a pandas wide table (one row per item, one column per system) into Competition pieces.

The DataFrame counterpart of :func:`compreport.inputs.readers.read_wide`: the same pieces, with
each cell as the text a file loader would give (``str`` of the value, stripped), so that a table
read with ``pandas.read_csv`` makes the same competition as the file. Errors name the column and
the index label of the row.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import numpy as np

from compreport.errors import InputError
from compreport.inputs.competition import Source
from compreport.inputs.delimited import MISSING

#: How errors name the table.
WHERE = "DataFrame"


@dataclass
class FrameSource(Source):
    """Where a value of a DataFrame sits: its index label and column (``lines`` are row
    positions)."""

    index: list = field(default_factory=list, repr=False)

    def locate(self, item: int, field_index: int = 0) -> str:
        """``DataFrame, index <label>, <column>`` of ``item`` (competition order) in field
        ``field_index``."""
        return f"{self.path}, index {self.index[item]!r}, {self.columns[field_index]}"


def _header(df, gold: str, id_column: str | None) -> tuple[list[str], int, int | None]:
    """Column names as text, and the positions of the gold column and of the id column
    (``id_column``, else a column called ``id``, else None)."""
    header = [str(c) for c in df.columns]
    for j, col in enumerate(header):
        if not col:
            raise InputError(f"{WHERE}: column {j + 1} has an empty name")
        if header.index(col) != j:
            raise InputError(
                f"{WHERE}: column {col!r} appears twice (columns {header.index(col) + 1} and "
                f"{j + 1})"
            )
    shown = ", ".join(repr(h) for h in header)
    if gold not in header:
        raise InputError(
            f"{WHERE}: gold column {gold!r} not found (columns: {shown}); pass gold=NAME"
        )
    if id_column is None and "id" in header and gold != "id":
        id_column = "id"  # a column called id is the item id, not a system (as in a CSV file)
    if id_column is not None and id_column not in header:
        raise InputError(
            f"{WHERE}: id column {id_column!r} not found (columns: {shown}); pass id=NAME"
        )
    if id_column == gold:
        raise InputError(f"{WHERE}: `id` and `gold` name the same column {gold!r}")
    return header, header.index(gold), None if id_column is None else header.index(id_column)


def _text(df, j: int, header: list[str], index: list) -> np.ndarray:
    """Column ``j`` as stripped text; a missing, blank or NaN cell is an error naming it."""
    series = df.iloc[:, j]
    text = np.char.strip(np.asarray(series.to_numpy(dtype=object)).astype(str))
    blank = np.asarray(series.isna(), dtype=bool) | np.isin(np.char.lower(text), list(MISSING))
    if blank.any():
        i = int(np.flatnonzero(blank)[0])
        raise InputError(
            f"{WHERE}, index {index[i]!r}, column {header[j]!r}: blank or missing value"
        )
    return text


def read_frame(df, gold: str = "y", id_column: str | None = None) -> dict:
    """The pieces of a Competition (without metadata) from a wide DataFrame, as
    :func:`~compreport.inputs.readers.read_wide` gives them.

    Parameters
    ----------
    df : pandas.DataFrame
        A gold column, an optional id column, one column per system (column names are matched
        as text).
    gold : str, default "y"
        The gold column.
    id_column : str, optional
        The item-id column; when None, a column called ``id`` is used if present, else items are
        numbered 1..n.

    Returns
    -------
    dict
        ``gold`` (n, 1), ``predictions`` (m, n, 1), ``systems``, ``item_ids``, ``fields``, the
        sources and ``inputs`` (``<DataFrame>`` with a SHA-256 of the cells).

    Raises
    ------
    InputError
        Not a DataFrame, a missing gold/id column, a duplicate or empty column name, no rows, no
        system column, a missing or blank value, a duplicate id.
    """
    if not all(hasattr(df, a) for a in ("columns", "index", "iloc", "isna")):
        raise InputError(f"from_frame needs a pandas DataFrame; got {type(df).__name__}")
    gold, id_column = str(gold), None if id_column is None else str(id_column)
    header, g, idc = _header(df, gold, id_column)
    n = len(df.index)
    if not n:
        raise InputError(f"{WHERE}: no rows")
    sys_cols = [j for j in range(len(header)) if j not in (g, idc)]
    if not sys_cols:
        raise InputError(f"{WHERE}: no system columns besides the gold column {gold!r}")
    index = list(df.index)
    used = [g, *sys_cols] + ([idc] if idc is not None else [])
    # one array, whose width is the longest cell's
    cells = np.stack([_text(df, j, header, index) for j in used], axis=1)
    k = 1 + len(sys_cols)
    if idc is not None:
        ids = cells[:, k]
        first: dict[str, int] = {}
        for i, ident in enumerate(ids.tolist()):
            if ident in first:
                raise InputError(
                    f"{WHERE}, column {header[idc]!r}: id {ident!r} appears twice "
                    f"(index {index[first[ident]]!r} and {index[i]!r})"
                )
            first[ident] = i
    else:
        ids = np.array([str(i) for i in range(1, n + 1)])
    rows = np.arange(n)
    text = "\x1e".join(
        ["\x1f".join(header[j] for j in used)] + ["\x1f".join(r) for r in cells.tolist()]
    )
    return dict(
        gold=cells[:, [0]],
        predictions=np.stack([cells[:, [s]] for s in range(1, k)]),
        systems=[header[j] for j in sys_cols],
        item_ids=ids,
        fields=["label"],
        gold_source=FrameSource(WHERE, rows, [f"column {gold!r}"], index=index),
        system_sources=[
            FrameSource(WHERE, rows, [f"column {header[j]!r}"], index=index) for j in sys_cols
        ],
        inputs=[
            {"path": "<DataFrame>", "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest()}
        ],
    )
