"""Markdown tables (GitHub pipe tables) of the report model, for READMEs, issues and notebooks.

The cells are the same :class:`~compreport.report.model.Cell` objects LaTeX and HTML print:
same digits, best values in bold (``**0.7127**``), baselines in italics.
"""

from __future__ import annotations

import re

from compreport.report.model import Table

_SPECIAL = re.compile(r"([\\`*_\[\]|~])")


def escape(text: str) -> str:
    r"""Text that prints literally in a Markdown table cell.

    Emphasis, code, link and pipe characters are backslash-escaped, ``<`` (HTML) and entity-like
    ``&`` become entities.

    Examples
    --------
    >>> print(escape("*team*|<b>&amp;"))
    \*team\*\|&lt;b>&amp;amp;
    """
    text = re.sub(r"&(?=#?\w+;)", "&amp;", str(text)).replace("<", "&lt;")
    return _SPECIAL.sub(r"\\\1", re.sub(r"[\r\n\t]+", " ", text))


def _number(text: str) -> str:
    """A number's text for a cell: ``&``, ``<`` and ``|`` made literal (``<0.0001``)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace("|", "\\|")


def table(t: Table, keys: list[str] | None = None) -> str:
    """``t`` as a pipe table over the column ``keys`` (default: every column)."""
    keys = keys or list(t.columns)
    numeric = {
        k: all(r.cells[k].numeric for r in t.rows if k in r.cells) and k not in ("system", "a", "b")
        for k in keys
    }
    lines = [
        "| " + " | ".join(escape(t.columns[k]) for k in keys) + " |",
        "|" + "|".join("---:" if numeric[k] else ":---" for k in keys) + "|",
    ]
    for r in t.rows:
        out = []
        for k in keys:
            c = r.cells.get(k)
            if c is None:
                out.append("")
                continue
            text = _number(c.text) if numeric[k] else escape(c.text)
            text += escape(c.mark) if c.mark else ""
            if c.bold:
                text = f"**{text}**"
            elif r.baseline and k == "system":
                text = f"*{text}*"
            out.append(text)
        lines.append("| " + " | ".join(out) + " |")
    return "\n".join(lines) + "\n"
