"""A griffe extension for the API pages: Sphinx cross-reference roles as inline code.

The docstrings name other objects the Sphinx way (``:func:`load```,
``:class:`~compreport.errors.InputError```), which Markdown would print with its colons.
Each role becomes inline code holding the name a reader looks for: the last part after ``~``,
the text before ``<target>``, else the whole name.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:func|class|mod|meth|attr|data|obj|exc|const)?:`([^`]+)`")


def _name(match: re.Match) -> str:
    text = match.group(1).strip()
    if "<" in text and text.endswith(">"):
        text = text[: text.index("<")].strip()
    elif text.startswith("~"):
        text = text[1:].rsplit(".", 1)[-1]
    return f"`{text}`"


class SphinxRoles(griffe.Extension):
    """Rewrite the roles of every docstring griffe loads, before mkdocstrings parses it."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = ROLE.sub(_name, obj.docstring.value)
