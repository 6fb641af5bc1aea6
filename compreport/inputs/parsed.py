"""What reading a gold or run file yields, and the options that steer it.

:class:`ReadOptions` (separator, comments, id and label columns, missing values), the column specs
(:func:`one_column`, :func:`columns`), and the two shapes of a file read: :class:`RawText` (fields
split, header not yet decided) and :class:`Parsed` (ids and values).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from compreport import options
from compreport.errors import InputError, excerpt, option, suggest
from compreport.inputs.delimited import SEPARATORS

#: :attr:`Parsed.missing_text` of a JSON null or an absent key.
JSON_NULL = "\x00null"
#: ``--missing`` values.
MISSING_POLICIES = options.MISSING_POLICIES
#: ``--submissions`` values (a Codabench bulk download): every submission, or each owner's last.
SUBMISSIONS = options.SUBMISSIONS
#: ``--extra-lines`` values: a run without ids longer than the gold is an error, or its lines
#: beyond the gold's items are dropped.
EXTRA_LINES = options.EXTRA_LINES
BIO_SCHEMES = options.BIO_SCHEMES
#: ``--ties`` values: how ranking metrics order candidates of equal score (the first: default).
TIES = options.TIES


@dataclass
class ReadOptions:
    """How gold and run files are read (``--sep``, ``--no-comments``, ``--id-col``, ``--label-col``,
    ``--zip-member``, ``--missing``, ``--exclude``, ``--names`` and their ``[data]`` keys).

    Attributes
    ----------
    sep : str
        One of :data:`~compreport.inputs.delimited.SEPARATORS`.
    comments : bool
        Skip lines whose first character is ``#``.
    keep_spaces : bool
        Labels of tab- and comma-separated gold and run files keep their surrounding spaces
        (``--keep-spaces``; ids and headers are stripped all the same).
    multi_label : str or None
        Label sets per item (``--multi-label``): a separator splitting each label cell into a
        set (``"|"``: ``a|b``), or ``"columns"``: the label columns (``label_col``) are one 0/1
        column per label, read into one set (:mod:`compreport.inputs.labelsets`). None: values
        as written.
    header : bool or None
        True: the first row of the gold and of every text run is a header (``--header``); False:
        an item (``--no-header``); None: decided per file by
        :func:`~compreport.inputs.records.headers`.
    id_col, label_col : int, str, list or None
        The id column and the label column(s) of the gold (and of the runs unless ``runs_id_col``
        / ``runs_label_col``): 1-based positions or header names (JSON: keys); None: found as
        described in :func:`~compreport.inputs.records.layout`.
    runs_id_col, runs_label_col : int, str, list or None
        The runs' own id and label column(s), where they differ from the gold's (``[data.runs]``,
        ``--score-col``).
    zip_member : str or None
        The prediction file inside every ``.zip`` run (its name or path in the archive).
    missing : str
        ``error``: a blank, absent or unreadable prediction is an error; ``wrong``: it is scored as
        a wrong answer.
    bio : str
        How CoNLL tags are read: ``iob2`` or ``iob1`` (:data:`BIO_SCHEMES`).
    extra_lines : str
        ``error``: a run without ids that has more lines than the gold has items is an error;
        ``drop``: it is scored on its first lines, one per item, with a warning.
    exclude : list of str
        Globs of run files to leave out (matched against the path inside the runs folder and the
        name).
    baselines : list of str
        Globs of the runs that are baselines (``--baseline``, ``[data] baselines``), matched
        against each run's system name, file name and path inside the runs folder (a wide
        table's column header): :func:`~compreport.inputs.runfiles.mark_baselines`.
    names : str or None
        The names file (``run``, ``name``, ``team``, ``baseline``, ``exclude`` columns).
    cluster_col : int, str or None
        The gold's (a wide table's) column of item clusters, for the cluster bootstrap
        (:mod:`compreport.inputs.clustercol`): a 1-based position or a header name; None: none.
    unjudged : bool
        Candidates that runs list and the gold does not become items that are not relevant
        (:mod:`compreport.inputs.querykeys`); needs ``cluster_col``.
    phase : int or None
        The phase of a Codabench bulk download to read (:mod:`compreport.inputs.codabench`).
    submissions : str or None
        Of a Codabench bulk download: ``all`` (None: the same) or ``last`` (each owner's last).
    said : dict
        How the caller gave a column option that is not its own option (:meth:`named`): attribute
        -> an option of :func:`compreport.options.words` (``runs_label_col``:
        ``score_col``; ``id_col``: ``id``) or a spec key (``[data.runs] label_col``).
    """

    sep: str = "auto"
    comments: bool = True
    header: bool | None = None
    keep_spaces: bool = False
    multi_label: str | None = None
    id_col: int | str | None = None
    label_col: list | None = None
    runs_id_col: int | str | None = None
    runs_label_col: list | None = None
    zip_member: str | None = None
    missing: str = "error"
    extra_lines: str = "error"
    bio: str = "iob2"
    exclude: list[str] = field(default_factory=list)
    baselines: list[str] = field(default_factory=list)
    names: str | None = None
    cluster_col: int | str | None = None
    unjudged: bool = False
    phase: int | None = None
    submissions: str | None = None
    said: dict[str, str] = field(default_factory=dict)

    def named(self, attr: str, value=None) -> str:
        """How the caller gave the column option ``attr`` (``id_col``, ``label_col``,
        ``runs_id_col``, ``runs_label_col``, ``cluster_col``), with ``value`` when given:
        ``--id-col 3``, ``id_col=3``, ``--score-col 5``, ``[data.runs] label_col = 5``; a list:
        ``--label-col 2,3``, ``label_col=[2, 3]``.

        >>> ReadOptions(said={"runs_label_col": "[data.runs] label_col"}).named("runs_label_col", 5)
        '[data.runs] label_col = 5'
        >>> from compreport.errors import worded
        >>> worded(ReadOptions().named("label_col", [2, 3]))  # in Python words
        'label_col=[2, 3]'
        """
        key = self.said.get(attr, attr.removeprefix("runs_"))
        if key in options.words():  # a list: --label-col 2,3 on the command line
            return option(key, value)
        return key if value is None else f"{key} = {value!r}"

    def column_options(self, role: str) -> tuple[str, str]:
        """The attributes giving the id and the label column(s) of a ``gold`` or a ``run`` file (a
        run's own ``runs_id_col``/``runs_label_col`` where given)."""
        if role == "gold":
            return "id_col", "label_col"
        return (
            "runs_id_col" if self.runs_id_col is not None else "id_col",
            "runs_label_col" if self.runs_label_col is not None else "label_col",
        )

    def cluster_as_label(self) -> ReadOptions:
        """These options with the cluster (query) column read as the one label column of the gold
        and the runs, and named in messages as the caller gave the cluster column."""
        word = self.said.get("cluster_col", "cluster_col")
        return dataclasses.replace(
            self,
            label_col=[self.cluster_col],
            runs_label_col=[self.cluster_col],
            said=self.said | {"label_col": word, "runs_label_col": word},
        )

    def check(self) -> ReadOptions:
        """Validated and normalised in place (column lists, positions >= 1); returns self. An
        invalid option is an :class:`~compreport.errors.InputError` naming it as the caller gave
        it."""
        if self.sep not in SEPARATORS:
            raise InputError(
                f"{option('sep')} must be one of {', '.join(SEPARATORS)}; got {self.sep!r}"
                f"{suggest(self.sep, SEPARATORS)}"
            )
        if self.missing not in MISSING_POLICIES:
            raise InputError(
                f"{option('missing')} must be one of {', '.join(MISSING_POLICIES)}; got "
                f"{self.missing!r}{suggest(self.missing, MISSING_POLICIES)}"
            )
        if self.extra_lines not in EXTRA_LINES:
            raise InputError(
                f"{option('extra_lines')} must be one of {', '.join(EXTRA_LINES)}; got "
                f"{self.extra_lines!r}{suggest(self.extra_lines, EXTRA_LINES)}"
            )
        if self.bio not in BIO_SCHEMES:
            raise InputError(
                f"{option('bio')} must be one of {', '.join(BIO_SCHEMES)}; got "
                f"{self.bio!r}{suggest(str(self.bio), BIO_SCHEMES)}"
            )
        if not isinstance(self.comments, bool):
            raise InputError(f"`comments` must be True or False; got {self.comments!r}")
        if not isinstance(self.keep_spaces, bool):
            raise InputError(f"`keep_spaces` must be True or False; got {self.keep_spaces!r}")
        if self.multi_label is not None and (
            not isinstance(self.multi_label, str) or not self.multi_label
        ):
            raise InputError(
                f"{option('multi_label')} must be a separator (such as '|') or 'columns'; got "
                f"{self.multi_label!r}"
            )
        if self.header is not None and not isinstance(self.header, bool):
            raise InputError(f"`header` must be True, False or None; got {self.header!r}")
        for attr in ("id_col", "runs_id_col", "cluster_col"):
            setattr(
                self,
                attr,
                one_column(getattr(self, attr), attr.removeprefix("runs_"), self.named(attr)),
            )
        for attr in ("label_col", "runs_label_col"):
            setattr(self, attr, columns(getattr(self, attr), "label_col", self.named(attr)))
        if self.phase is not None:
            self.phase = phase_id(self.phase, option("phase"))
        if self.submissions is not None and self.submissions not in SUBMISSIONS:
            raise InputError(
                f"{option('submissions')} must be one of {', '.join(SUBMISSIONS)}; got "
                f"{excerpt(self.submissions)}{suggest(str(self.submissions), SUBMISSIONS)}"
            )
        if not isinstance(self.unjudged, bool):
            raise InputError(f"`unjudged` must be True or False; got {self.unjudged!r}")
        if self.unjudged and self.cluster_col is None:
            raise InputError(
                f"{option('unjudged')} adds the candidates runs list in their queries: give the "
                f"query column with {option('query_col')}"
            )
        return self


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

    ``what`` is the option (``id_col``, ``label_col``) named in errors, unless ``label`` (a spec
    key) is given.

    >>> one_column(" 2 ", "id_col"), one_column("label", "label_col")
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

    >>> columns("3,5", "label_col"), columns(["label"], "label_col")
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
