"""Locate files shipped with the package (templates, the demo workshop).

In a wheel they live inside the package (``compreport/templates``,
``compreport/examples/workshop``); in a source checkout or editable install they are
at the top of the repository.
"""

from __future__ import annotations

from pathlib import Path

_PKG = Path(__file__).resolve().parent


def _find(inside: str, in_repo: str) -> Path:
    """The folder ``inside`` the package (a wheel), else ``in_repo`` at the top of the checkout."""
    for cand in (_PKG / inside, _PKG.parent / in_repo):
        if cand.is_dir():
            return cand
    raise FileNotFoundError(f"compreport installation is missing {inside!r}")


def templates_dir() -> Path:
    """The directory of the Jinja templates (``templates/``)."""
    return _find("templates", "templates")


def demo_workshop_dir() -> Path:
    """The directory of the bundled synthetic demo workshop (``examples/workshop``).

    >>> (demo_workshop_dir() / "workshop.toml").is_file()
    True
    """
    return _find("examples/workshop", "examples/workshop")
