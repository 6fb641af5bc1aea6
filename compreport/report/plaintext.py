"""Plain-text tables of the report model, aligned in columns, for the terminal.

The same :class:`~compreport.report.model.Table` cells the other formats print (same digits);
numbers right-aligned, text left-aligned; no emphasis.
"""

from __future__ import annotations

from collections.abc import Callable

from .model import Table


def table(t: Table, keys: list[str] | None = None, escape: Callable[[str], str] = str, indent: str = "  ") -> str:
    """``t`` over the column ``keys`` (default: every column) as aligned lines; ``escape`` makes each
    cell's text safe for where it is printed (the CLI: control characters escaped)."""
    keys = keys or list(t.columns)
    right = {k: all(r.cells[k].numeric for r in t.rows if k in r.cells) and k not in ("system", "a", "b")
             for k in keys}
    grid = [[escape(t.columns[k]) for k in keys]]
    grid += [[escape(r.cells[k].text) if k in r.cells else "" for k in keys] for r in t.rows]
    widths = [max(len(row[j]) for row in grid) for j in range(len(keys))]
    lines = []
    for row in grid:
        cells = [c.rjust(w) if right[k] else c.ljust(w) for c, w, k in zip(row, widths, keys, strict=True)]
        lines.append((indent + "  ".join(cells)).rstrip())
    return "\n".join(lines) + "\n"
