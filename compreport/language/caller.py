"""How messages name an option: in the words of whoever called compreport.

The same message can reach a user of the command line (``pass --pos-label LABEL``) or of the
Python API (``pass pos_label=LABEL``). Code that raises names the option through :func:`option`;
the CLI runs inside ``with caller("cli")``, everything else is spoken to in Python words.
"""

from __future__ import annotations

import contextlib
import contextvars
import shlex
from collections.abc import Iterator

from compreport.options import words

#: Who is being spoken to: ``"api"`` (Python, the default) or ``"cli"``.
_CALLER: contextvars.ContextVar[str] = contextvars.ContextVar("compreport_caller", default="api")

#: Option id -> (command-line flag, Python parameter, how a Python value is written), from the one
#: declaration of every option (:data:`compreport.options.SCHEMA`).
OPTIONS = words()


def current() -> str:
    """``"cli"`` or ``"api"``: who messages are worded for now."""
    return _CALLER.get()


@contextlib.contextmanager
def scoped(var: contextvars.ContextVar, value) -> Iterator[None]:
    """``var`` set to ``value`` inside the block, and back to what it was after (also on error)."""
    token = var.set(value)
    try:
        yield
    finally:
        var.reset(token)


def caller(kind: str) -> contextlib.AbstractContextManager:
    """Word every message raised inside for ``kind`` (``"cli"`` or ``"api"``)."""
    if kind not in ("cli", "api"):
        raise ValueError(f"caller must be 'cli' or 'api', got {kind!r}")
    return scoped(_CALLER, kind)


#: Options whose value a spec gave (and the caller did not): option id -> (key, where), how
#: :func:`option` names them (:func:`from_specs`).
_SPEC_SAID: contextvars.ContextVar[dict | None] = contextvars.ContextVar(
    "compreport_spec_said", default=None
)


def from_specs(said: dict[str, tuple[str, str]]) -> contextlib.AbstractContextManager:
    """Inside the block, :func:`option` names each option of ``said`` (id -> (key, where)) as
    the spec gives it, so that a message about a value a spec set names the spec file and key.

    >>> with from_specs({"bootstrap": ("[bootstrap] resamples", "c.toml, line 6")}):
    ...     print(option("bootstrap", 10**10))
    [bootstrap] resamples = 10000000000 (c.toml, line 6)
    """
    return scoped(_SPEC_SAID, dict(said))


def option(name: str, value=None) -> str:
    """How the current caller writes option ``name``, with ``value`` when given; an option a
    spec gave (:func:`from_specs`) as the spec's key, with its file and line.

    >>> option("pos_label", "LABEL")
    'pos_label=LABEL'
    >>> with caller("cli"):
    ...     option("pos_label", "LABEL"), option("force", True)
    ('--pos-label LABEL', '--force')
    """
    spec = (_SPEC_SAID.get() or {}).get(name)
    if spec is not None:
        key, where = spec
        return f"{key} ({where})" if value is None else f"{key} = {value} ({where})"
    cli, api, shape = OPTIONS[name]
    if current() == "cli":  # a switch takes no value; a value a shell would split or drop is quoted
        return cli if value is None or value is True else f"{cli} {shlex.quote(str(value))}"
    return f"`{api}`" if value is None else f"{api}={shape.format(value)}"


def override() -> str:
    """Where the caller overrides a setting the specs give: ``on the command line`` or
    ``to analyze()``."""
    return "on the command line" if current() == "cli" else "to analyze()"
