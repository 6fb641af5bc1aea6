"""What reading a gold or run file yields, and the options that steer it.

:class:`ReadOptions` (separator, comments, id and label columns, missing values), the column specs
(:func:`one_column`, :func:`columns`), and the two shapes of a file read: :class:`RawText` (fields
split, header not yet decided) and :class:`Parsed` (ids and values).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from compreport import options
from compreport.errors import InputError, excerpt, option, suggest

#: :attr:`Parsed.missing_text` of a JSON null or an absent key.
JSON_NULL = "\x00null"
#: ``--missing`` values.
MISSING_POLICIES = options.MISSING_POLICIES
#: ``--submissions`` values (a Codabench bulk download): every submission, or each owner's last.
SUBMISSIONS = options.SUBMISSIONS
BIO_SCHEMES = options.BIO_SCHEMES
#: ``--ties`` values: how ranking metrics order candidates of equal score (the first: default).
TIES = options.TIES


#: The option of the schema that gives each field of :class:`ReadOptions` (``id_column``: the
#: ``--id-col`` option's key), for messages: :attr:`compreport.options.Option.reads`.
OPTION_OF: Mapping[str, str] = MappingProxyType(
    {o.reads: o.name for o in reversed(options.group(options.READING)) if o.reads}
)


def option_of(name: str) -> str:
    """The schema key of the option that gives the :class:`ReadOptions` field ``name`` (a runs'
    own column: the gold's option).

    >>> option_of("runs_label_columns") == option_of("label_columns")
    True
    >>> option_of("sep")
    'sep'

    """
    return OPTION_OF[name.removeprefix("runs_")]


def _fields() -> list[tuple[str, Any, Any]]:
    """One field per reading option that the file readers take (:attr:`~compreport.options.
    Option.reads`), with the schema's default; then the runs' own columns and ``said``."""
    out: dict[str, tuple[str, Any, Any]] = {}
    for o in options.group(options.READING):
        if o.reads:
            default = field(default_factory=list) if o.type == "list" else field(default=o.default)
            out.setdefault(o.reads, (o.reads, Any, default))
    return [
        *out.values(),
        ("runs_id_column", "int | str | None", field(default=None)),
        ("runs_label_columns", "list | None", field(default=None)),
        ("said", "dict[str, str]", field(default_factory=dict)),
    ]


class _Reading:
    """The methods of :class:`ReadOptions`."""

    def named(self, attr: str, value=None) -> str:
        """How the caller gave the column of field ``attr`` (``id_column``, ``label_columns``,
        ``runs_id_column``, ``runs_label_columns``, ``cluster_column``), with ``value`` when
        given: ``--id-col 3`` (Python: the keyword, ``=3``), ``--score-col 5``, a spec key and
        its value; a list: ``--label-col 2,3``.

        >>> ReadOptions(said={"runs_id_column": "[data.runs] key"}).named("runs_id_column", 5)
        '[data.runs] key = 5'
        >>> from compreport.errors import worded
        >>> worded(ReadOptions().named("phase", 7))  # in Python words
        'phase=7'
        """
        key = self.said.get(attr, option_of(attr))
        if key in options.words():  # a list: --label-col 2,3 on the command line
            return option(key, value)
        return key if value is None else f"{key} = {value!r}"

    def column_options(self, role: str) -> tuple[str, str]:
        """The fields giving the id and the label column(s) of a ``gold`` or a ``run`` file (a
        run's own ``runs_id_column``/``runs_label_columns`` where given)."""
        if role == "gold":
            return "id_column", "label_columns"
        return (
            "runs_id_column" if self.runs_id_column is not None else "id_column",
            "runs_label_columns" if self.runs_label_columns is not None else "label_columns",
        )

    def cluster_as_label(self) -> ReadOptions:
        """These options with the cluster (query) column read as the one label column of the gold
        and the runs, and named in messages as the caller gave the cluster column."""
        word = self.said.get("cluster_column", option_of("cluster_column"))
        return dataclasses.replace(
            self,
            label_columns=[self.cluster_column],
            runs_label_columns=[self.cluster_column],
            said=self.said | {"label_columns": word, "runs_label_columns": word},
        )

    def check(self) -> ReadOptions:
        """Validated and normalised in place (column lists, positions >= 1); returns self. An
        invalid option is an :class:`~compreport.errors.InputError` naming it as the caller gave
        it."""
        for name in ("sep", "missing", "extra", "bio"):
            self._one_of(name)
        for name in ("comments", "keep_spaces"):
            if not isinstance(getattr(self, name), bool):
                raise InputError(f"`{name}` must be True or False; got {getattr(self, name)!r}")
        if self.multi_label is not None and (
            not isinstance(self.multi_label, str) or not self.multi_label
        ):
            raise InputError(
                f"{option('multi_label')} must be a separator (such as '|') or 'columns'; got "
                f"{self.multi_label!r}"
            )
        if self.header is not None and not isinstance(self.header, bool):
            raise InputError(f"`header` must be True, False or None; got {self.header!r}")
        for name in ("id_column", "runs_id_column", "cluster_column"):
            setattr(self, name, one_column(getattr(self, name), option_of(name), self.named(name)))
        for name in ("label_columns", "runs_label_columns"):
            setattr(self, name, columns(getattr(self, name), option_of(name), self.named(name)))
        if self.phase is not None:
            self.phase = phase_id(self.phase, option("phase"))
        if self.submissions is not None and self.submissions not in SUBMISSIONS:
            raise InputError(
                f"{option('submissions')} must be one of {', '.join(SUBMISSIONS)}; got "
                f"{excerpt(self.submissions)}{suggest(str(self.submissions), SUBMISSIONS)}"
            )
        if not isinstance(self.unjudged, bool):
            raise InputError(f"`unjudged` must be True or False; got {self.unjudged!r}")
        if self.unjudged and self.cluster_column is None:
            raise InputError(
                f"{option('unjudged')} adds the candidates runs list in their queries: give the "
                f"query column with {option('query_col')}"
            )
        return self

    def _one_of(self, name: str) -> None:
        """Refuse a value of field ``name`` that is not one of its option's choices."""
        key, value = option_of(name), getattr(self, name)
        allowed = options.OPTIONS[key].choices
        if value not in allowed:
            raise InputError(
                f"{option(key)} must be one of {', '.join(allowed)}; got {value!r}"
                f"{suggest(str(value), allowed)}"
            )


ReadOptions = dataclasses.make_dataclass(
    "ReadOptions",
    _fields(),
    bases=(_Reading,),
    namespace={
        "__module__": __name__,
        "__doc__": """How gold and run files are read: one field per reading option the file
    readers take, as :attr:`compreport.options.Option.reads` names it (``sep``, ``comments``,
    ``header``, ``keep_spaces``, ``multi_label``, ``id_column``, ``label_columns``, ``member``,
    ``missing``, ``extra``, ``bio``, ``exclude``, ``baselines``, ``names``, ``cluster_column``,
    ``unjudged``, ``phase``, ``submissions``), with the schema's default, resolved from the
    command line or the API and a spec (:func:`compreport.inputs.spec.load_competition_spec`);
    the schema's help says what each does. Besides them:

    ``runs_id_column``, ``runs_label_columns``
        The runs' own id and label column(s), where they differ from the gold's
        (``[data.runs]``, ``--score-col``).
    ``said``
        How the caller gave a column option that is not its own option (:meth:`named`): field
        -> an option of :func:`compreport.options.words` (``runs_label_columns``:
        the score column's; ``id_column``: ``id``) or a spec key and where it is.

    Columns are 1-based positions or header names (JSON: keys) once :meth:`check` ran; None:
    found as :func:`~compreport.inputs.records.layout` describes.""",
    },
)


def phase_id(value, name: str) -> int:
    """A Codabench phase id given by the user (``--phase``, ``[data] phase``) as an int; ``name``
    is how the message names the option or key.

    >>> phase_id(" 7 ", "--phase")
    7
    >>> phase_id(-1, "[data] phase")
    Traceback (most recent call last):
        ...
    compreport.errors.InputError: [data] phase must be a phase id (a whole number >= 0); got '-1'
    """
    text = str(value).strip()
    if isinstance(value, bool) or not re.fullmatch(r"\d{1,18}", text):
        raise InputError(f"{name} must be a phase id (a whole number >= 0); got {excerpt(value)}")
    return int(text)


def one_column(value, what: str, label: str | None = None):
    """A column given by the user: None, a position (``2``, ``"2"``) as int >= 1, or a name.

    ``what`` is the option (a schema key: :func:`option_of`) named in errors, unless ``label`` (a
    spec key) is given.

    >>> one_column(" 2 ", option_of("id_column")), one_column("label", option_of("label_columns"))
    (2, 'label')
    """
    if value is None:
        return None
    name = label or option(what)
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise InputError(f"{name} must be a column name or a 1-based position; got {value!r}")
    if isinstance(value, str):
        value = value.strip()
        if re.fullmatch(r"-?\d{1,18}", value):  # longer: a name (no file has that many columns)
            value = int(value)
    if isinstance(value, int) and value < 1:
        raise InputError(
            f"{name} must be a column name or a 1-based position (1 is the first column); got "
            f"{value}"
        )
    if value == "":
        raise InputError(f"{name} names no column")
    return value


def columns(value, what: str, label: str | None = None) -> list | None:
    """Label columns: None, one column, a comma list (``"3,5"``) or a list; see
    :func:`one_column`.

    >>> columns("3,5", option_of("label_columns")), columns(["label"], "sep")
    ([3, 5], ['label'])
    """
    if value is None:
        return None
    if isinstance(value, str):
        value = [v for v in value.split(",") if v.strip()]
    elif not isinstance(value, (list, tuple)):
        value = [value]
    out = [one_column(v, what, label) for v in value]
    if not out:
        raise InputError(f"{label or option(what)} names no column")
    return out


@dataclass
class Parsed:
    """One gold or run file read into items.

    Attributes
    ----------
    path : str
        The file as messages name it (a zip member: ``run.zip:answer.txt``).
    file : str
        The file read from disk (its SHA-256 is recorded).
    ids : list of str or None
        The id of each item; None: no ids, the items are aligned with the gold by line.
    values : list of list
        Per item, one value per field: stripped text, or None where there is no value (blank,
        ``nan``/``null``, absent).
    lines : list of int
        Line (or JSON entry) of each item.
    columns : list of str
        How each field is named in messages (``column 2``, ``column 'label'``, ``key 'label'``).
    unit : str
        ``line`` or ``entry`` (a ``.json`` file).
    header : list of str or None
        The header row, when the file has one (text files).
    id_index : int or None
        0-based column of the ids (text files with ids).
    label_index : list of int
        0-based columns of the values (text files).
    width : int
        Columns of a complete row (text files).
    missing_text : dict
        ``(k, f)`` -> the text of a value read as missing (``NULL``, ``nan``; ``""`` blank), for
        messages (:meth:`why_missing`).
    """

    path: str
    file: str
    ids: list[str] | None
    values: list[list[str | None]]
    lines: list[int]
    columns: list[str]
    unit: str = "line"
    header: list[str] | None = None
    id_index: int | None = None
    label_index: list[int] = field(default_factory=list)
    width: int = 0
    missing_text: dict[tuple[int, int], str] = field(default_factory=dict)

    def why_missing(self, k: int, f: int) -> str:
        """Why field ``f`` of item ``k`` has no value, for a message: ``blank``, ``'NULL', read
        as missing``, ``JSON null or absent``, ``absent``.

        >>> p = Parsed("r.tsv", "r.tsv", ["1"], [[None]], [1], ["column 2"])
        >>> p.missing_text[0, 0] = "NULL"
        >>> p.why_missing(0, 0)
        "'NULL', read as missing"
        """
        text = self.missing_text.get((k, f))
        if text is None:
            return "absent"
        if text == JSON_NULL:
            return "JSON null or absent"
        if not text.strip():
            return "blank"
        return f"{excerpt(text)}, read as missing"

    def where(self, k: int, f: int | None = None) -> str:
        """``path, line L[, column]`` of item ``k`` (and field ``f``)."""
        col = f", {self.columns[f]}" if f is not None else ""
        return f"{self.path}, {self.unit} {self.lines[k]}{col}"


@dataclass
class RawText:
    """A text gold or run file split into fields
    (:func:`~compreport.inputs.delimited.split_fields`).

    ``rows[i]`` (``[]`` for a blank line) is on line ``lines[i]``, its cells stripped; ``sep`` is
    the separator used. ``spaced``: the same cells as written (``--keep-spaces``, a tab- or
    comma-separated file), from which labels are read; None: labels are the stripped cells.
    """

    path: str
    file: str
    rows: list[list[str]]
    lines: list[int]
    sep: str
    spaced: list[list[str]] | None = None

    @property
    def start(self) -> int:
        """Index of the first non-blank row."""
        return next(i for i, r in enumerate(self.rows) if r)
