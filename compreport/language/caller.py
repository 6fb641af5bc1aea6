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

#: Who is being spoken to: ``"api"`` (Python, the default) or ``"cli"``.
_CALLER: contextvars.ContextVar[str] = contextvars.ContextVar("compreport_caller", default="api")

#: Option id -> (command-line flag, Python parameter, how a Python value is written).
OPTIONS = {
    "pos_label": ("--pos-label", "pos_label", "{}"),
    "labels": ("--labels", "labels", "{}"),
    "gold": ("--gold", "gold", "{}"),
    "id": ("--id", "id", "{}"),
    "metric": ("--metric", "metrics", "[{}]"),
    "runs": ("--runs", "runs", "{}"),
    "test": ("--test", "test", "{!r}"),
    "family": ("--family", "family", "{!r}"),
    "bootstrap": ("-B", "bootstrap", "{}"),
    "refine": ("--refine", "refine", "{}"),
    "force": ("--force", "force", "{}"),
    "output": ("-o", "out_dir", "{!r}"),
    "format": ("--format", "formats", "{!r}"),
    "emails": ("--emails", "emails", "{!r}"),
    "email_from": ("--email-from", "email_from", "{!r}"),
    "reply_to": ("--reply-to", "reply_to", "{!r}"),
    "sep": ("--sep", "sep", "{!r}"),
    "id_col": ("--id-col", "id_col", "{!r}"),
    "label_col": ("--label-col", "label_col", "{!r}"),
    "cluster_col": ("--cluster-col", "cluster_col", "{!r}"),
    "query_col": ("--query-col", "cluster_col", "{!r}"),
    "score_col": ("--score-col", "score_col", "{!r}"),
    "unjudged": ("--unjudged", "unjudged", "{}"),
    "no_comments": ("--no-comments", "comments", "False"),
    "header": ("--header", "header", "True"),
    "no_header": ("--no-header", "header", "False"),
    "keep_spaces": ("--keep-spaces", "keep_spaces", "{}"),
    "multi_label": ("--multi-label", "multi_label", "{!r}"),
    "zip_member": ("--zip-member", "zip_member", "{!r}"),
    "names": ("--names", "names", "{!r}"),
    "exclude": ("--exclude", "exclude", "[{!r}]"),
    "baseline": ("--baseline", "baselines", "[{!r}]"),
    "missing": ("--missing", "missing", "{!r}"),
    "extra_lines": ("--extra-lines", "extra_lines", "{!r}"),
    "bio": ("--bio", "bio", "{!r}"),
    "ties": ("--ties", "ties", "{!r}"),
    "name": ("--name", "name", "{!r}"),
    "phase": ("--phase", "phase", "{}"),
    "submissions": ("--submissions", "submissions", "{!r}"),
    "scheduler": ("--scheduler", "scheduler", "{!r}"),
    "power": ("--power", "power", "{}"),
    "delta": ("--delta", "delta", "{}"),
    "draws": ("--draws", "draws", "{}"),
}


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
