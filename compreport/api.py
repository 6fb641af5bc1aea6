"""The Python API: read inputs, analyse them, read the results as tables.

:func:`load` reads what the command line's INPUT reads (a spec, a workshop directory, a wide
CSV/TSV table, a gold file with runs), :func:`from_frame` reads a pandas wide table,
:func:`analyze` runs the paired bootstrap under settings checked as the command line checks them,
and :func:`validate` scores the systems without resampling. Every problem raises
:class:`~compreport.errors.InputError` (a ``ValueError``) whose message names options the Python
way (``pos_label=``, not ``--pos-label``: :func:`compreport.errors.option`); a setting a spec
gave, as the spec's key with its file and line (:mod:`compreport.language.caller`).

Examples
--------
>>> import compreport as cr
>>> data = cr.load("examples/workshop/stance-eu")
>>> a = cr.analyze(data, bootstrap=200, seed=0)
>>> a.leaderboard()[["rank", "system", "score", "group"]]
   rank             system     score group
0     1       TxertoNLP.02  0.688693     a
1     2       TxertoNLP.01  0.664412     a
2     3  MultiHizkuntza.01  0.633333     a
3     4      Iruñea-HLT.01  0.459633     b
4     5      Iruñea-HLT.02  0.350864     b
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import os
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, overload

from compreport.distributed import check_scheduler
from compreport.errors import (
    InputError,
    InputWarning,
    Wording,
    option,
    raw,
    reword,
    spoken,
    warn,
)
from compreport.inputs.competition import Competition, CompetitionInfo, MetricSpec
from compreport.language.caller import command_line, from_specs
from compreport.options import words
from compreport.settings import make_settings
from compreport.stats.results import Analysis
from compreport.workers import check_jobs

if TYPE_CHECKING:
    import pandas as pd

    from compreport.stats.plan import Plan

# The types of the public functions' arguments (mypy checks them: `make test`).
#: A file or folder: a string or a path.
StrPath = str | os.PathLike[str]
#: Names: one string (a comma list, as on the command line) or a sequence of strings.
Names = str | Sequence[str]
#: A label as written in the files (``1`` is read as ``"1"``).
Label = str | int
#: A column: a 1-based position or a header name.
Column = int | str

__all__ = [
    "Inputs",
    "MetricInfo",
    "analyze",
    "from_frame",
    "list_metrics",
    "load",
    "load_demo",
    "validate",
]


@dataclass
class Inputs:
    """Competitions read by :func:`load` or :func:`from_frame`, with what their specs said.

    Attributes
    ----------
    competitions : list of Competition
        In input order.
    settings : dict
        The ``[bootstrap]`` values of the specs as :class:`~compreport.settings.Settings`
        fields (validated); :func:`analyze` starts from them.
    workshop : dict
        ``name``, ``year`` and ``description`` of a workshop.toml (empty otherwise).
    pos_label : str or None
        The ``pos_label`` given to :func:`load`/:func:`from_frame`; :func:`analyze` applies it
        to the metrics its ``metrics=`` names, as the CLI applies ``--pos-label``.
    labels : list of str or None
        Likewise for ``labels``.
    ties : str or None
        Likewise for ``ties``.
    specs : list of str
        The spec files read (``workshop.toml``, ``competition.toml``).
    origins : dict
        Where the specs give each of ``settings``: field -> (``[bootstrap] <key>``,
        ``spec, line N``), so that a message about a spec's value names the spec and key.

    Examples
    --------
    >>> data = cr.load("examples/workshop/stance-eu")
    >>> data
    <Inputs: 1 competition(s): stance-eu>
    >>> data.specs
    ['examples/workshop/stance-eu/competition.toml']
    >>> comp = data.competitions[0]
    >>> comp.n, comp.systems
    (312, ['Iruñea-HLT.01', 'Iruñea-HLT.02', 'MultiHizkuntza.01', 'TxertoNLP.01', 'TxertoNLP.02'])
    """

    competitions: list[Competition]
    settings: dict = field(default_factory=dict)
    workshop: dict = field(default_factory=dict)
    pos_label: str | None = None
    labels: list[str] | None = None
    specs: list[str] = field(default_factory=list)
    ties: str | None = None
    origins: dict = field(default_factory=dict)

    @property
    def files(self) -> list[str]:
        """Every file these inputs were read from (specs, gold, runs, names files, user metrics):
        what a report must never write over."""
        from compreport.inputs.spec import files_read

        return files_read(self.competitions, self.specs)

    def __repr__(self) -> str:
        ids = ", ".join(c.id for c in self.competitions)
        ws = f"workshop {self.workshop['name']!r}: " if self.workshop.get("name") else ""
        return f"<Inputs: {ws}{len(self.competitions)} competition(s): {ids}>"


# --------------------------------------------------------------------------- argument checks


@overload
def _names(value: None, what: str) -> None: ...
@overload
def _names(value: Names, what: str) -> list[str]: ...
def _names(value: Names | None, what: str) -> list[str] | None:
    """``None``, or a list of strings from a string (a comma list, as on the command line) or a
    sequence of strings."""
    if value is None:
        return None
    items = value.split(",") if isinstance(value, str) else value
    try:
        items = list(items)
    except TypeError:
        raise InputError(f"`{what}` must be a name or a list of names; got {value!r}") from None
    if not all(isinstance(x, str) for x in items):
        raise InputError(f"`{what}` must be a name or a list of names; got {value!r}")
    out = [x.strip() for x in items if x.strip()]
    if not out:
        raise InputError(f"`{what}` names nothing; got {value!r}")
    return out


def _label(value: Label | None) -> str | None:
    """``pos_label`` as the text the loaders compare it with (``1`` -> ``"1"``)."""
    return None if value is None else str(value)


def _labels(value: str | Sequence[Label] | None) -> list[str] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return _names(value, "labels")
    try:
        return [str(x) for x in value]
    except TypeError:
        raise InputError(f"`labels` must be a list of labels; got {value!r}") from None


def _metric_specs(
    metrics: list[str],
    pos_label: str | None,
    labels: list[str] | None,
    ties: str | None = None,
) -> list[MetricSpec]:
    """MetricSpecs for metric names, checked and parametrised as ``--metric`` does."""
    from compreport.inputs.spec import Options, metric_specs
    from compreport.stats.metrics import get_metric

    opts = Options(
        metrics=metrics, pos_label=pos_label, labels=labels, ties=ties, lookup=get_metric
    )
    return metric_specs([], opts, None)


# --------------------------------------------------------------------------- load


def load(
    path: StrPath | Sequence[StrPath],
    *,
    metrics: Names | None = None,
    gold: str | None = None,
    id: str | None = None,
    runs: StrPath | None = None,
    pos_label: Label | None = None,
    labels: str | Sequence[Label] | None = None,
    sep: str | None = None,
    id_col: Column | None = None,
    label_col: Column | list[Column] | None = None,
    comments: bool | None = None,
    header: bool | None = None,
    keep_spaces: bool | None = None,
    multi_label: str | None = None,
    zip_member: str | None = None,
    phase: int | None = None,
    submissions: str | None = None,
    names: StrPath | None = None,
    exclude: Names | None = None,
    baselines: Names | None = None,
    missing: str | None = None,
    extra_lines: str | None = None,
    bio: str | None = None,
    ties: str | None = None,
    cluster_col: Column | None = None,
    score_col: Column | None = None,
    unjudged: bool | None = None,
    name: str | None = None,
    out_dir: StrPath | None = None,
) -> Inputs:
    """Read competitions from files, as the command line reads its INPUTs.

    The options below are those of ``compreport report``; given here, they override the matching
    keys of a ``competition.toml`` (``[data]``, ``[names]``, ``[[metrics]]``).

    Parameters
    ----------
    path : str or path-like, or a list of them
        A ``competition.toml``, a ``workshop.toml``, a directory holding one of them (or
        competition folders), a wide CSV/TSV table (gold column, optional id column, one column
        per system), or, with ``runs``, a gold file.
    metrics : str or list of str, optional
        Metric names (:func:`list_metrics`), the first ranking the systems; a string may be a
        comma list. They replace the spec's ``[[metrics]]``; a table or a gold file needs them.
    gold : str, optional
        Gold column of a wide table (default ``"y"``, or the spec's ``gold_column``).
    id : str, optional
        Item-id column: of a wide table (default: a column called ``id`` if there is one, else
        the items are numbered), or of gold and run files (default ``"id"``).
    runs : str or path-like, optional
        The runs: a directory (its subfolders: one per team), a glob or a file; ``path`` is then
        the gold file.
    pos_label : str or int, optional
        Positive class of ``f1``, ``precision``, ``recall`` and ``roc_auc``.
    labels : str or list, optional
        Classes averaged over by the macro, micro and weighted metrics (default: every class).
    sep : {"auto", "tab", "comma", "whitespace"}, optional
        Field separator of gold and run files (default ``"auto"``: per file, tab or comma when
        every line holds one, else runs of blanks); ``[data] sep``.
    id_col, label_col : int or str, optional
        Id column and label column(s) of gold and run files: a 1-based position or a header
        name (JSON: a key); ``label_col`` may be a list, one column per field. ``[data] id_col``
        and ``[data] label_col``.
    comments : bool, optional
        Skip lines starting with ``#`` (default True); ``[data] comments``.
    header : bool, optional
        True: the first line of the gold and of every text run is a header; False: an item;
        None (default): decided per file (docs/inputs.md, "Headers"). ``[data] header``.
    keep_spaces : bool, optional
        Labels of tab- and comma-separated gold and run files keep their surrounding spaces
        (default False: every cell is stripped; ids always are). ``[data] keep_spaces``.
    multi_label : str, optional
        Label sets per item: a separator splitting each label cell of the gold and the runs into
        a set (``"|"``: ``a|b``), or ``"columns"``: the ``label_col`` columns are one 0/1 column
        per label (HUHU's layout), read into one set. ``[data] multi_label``. JSON arrays are
        label sets without it (docs/tasks/multi-label.md).
    zip_member : str, optional
        The prediction file inside every ``.zip`` run; ``[data] zip_member``.
    phase : int, optional
        ``runs`` being a Codabench bulk download (``bulk_submissions.zip``, a folder of them, or
        the folder it was unzipped into): the phase id to read, needed when it holds several;
        ``[data] phase``.
    submissions : {"all", "last"}, optional
        Of a Codabench bulk download: every submission (default), each a run ``<owner>.<k>``, or
        the highest submission id of each owner; ``[data] submissions``.
    names : str or path-like, optional
        A names file (CSV/TSV with columns ``run``, ``name``, ``team``, ``baseline``,
        ``exclude``; or XML, one element per run); ``[names] file``.
    exclude : str or list of str, optional
        Globs of run files to leave out, added to ``[data] exclude``.
    baselines : str or list of str, optional
        Globs naming the runs that are baselines, added to ``[data] baselines``: a run is one
        when a glob matches its system name, its file name or its path inside the runs folder (a
        wide table: its column header); a glob that matches no run is an error. Baselines are
        compared with every run but belong to no team and, unless ``include_baselines``, are
        not ranked (:func:`analyze`).
    missing : {"error", "wrong"}, optional
        A blank, absent or unreadable prediction is an error (default) or scored as a wrong
        answer; ``[data] missing``.
    extra_lines : {"error", "drop"}, optional
        A run without ids that has more lines than the gold has items is an error (default), or
        scored on its first lines, one per gold item, with a warning (``drop``); ``[data]
        extra_lines``.
    bio : {"iob2", "iob1"}, optional
        How CoNLL tags are read: an ``I-`` that starts a mention is an error (``iob2``, default)
        or starts one (``iob1``, as conlleval and seqeval's default mode); ``[data] bio``.
    ties : {"id", "file"}, optional
        How the ranking metrics order candidates of equal score: by decreasing id, as trec_eval
        (default), or in the order of the run file, as the SemEval-2016 Task 3 scorer; the
        metrics' ``ties`` parameter.
    cluster_col : int or str, optional
        The column of the gold file (or wide table) naming each item's cluster (a question, a
        document, an author): the bootstrap then resamples clusters, not items. A 1-based
        position or a header name (a wide table: a name); ``[data] cluster`` or
        ``[data] query_col``. The ranking metrics (``map``, ``mrr``, ``p@K``, ``ndcg@K``) rank
        the candidates of each cluster: it is their query column.
    score_col : int or str, optional
        The score column of the run files (ranking metrics); ``[data] score_col``.
    unjudged : bool, optional
        Candidates that runs list and the gold does not (TREC's unjudged documents) become
        items that are not relevant, in the query the runs give them (a query the gold names;
        the candidates of any other query are left out for every run, as trec_eval does); without
        it (default) they are an error. Needs ``cluster_col``; ``[data] unjudged``.
    name : str, optional
        The competition's name (titles, captions; its id and folder are made from it) when
        ``path`` is one table or gold file (default: the file's stem, or its folder's name when
        the stem is generic such as ``truth`` or ``gold``); a spec gives its own.
    out_dir : str or path-like, optional
        The output directory the report will be written to: runs (``runs``, or a spec's) read
        where it lies are refused before they are read. :meth:`compreport.Report.write` checks
        its ``out_dir`` against the runs again.

    Returns
    -------
    Inputs
        The competitions, the specs' ``[bootstrap]`` settings and the workshop.

    Raises
    ------
    InputError
        Any problem with the files or the options; the message names the file and the line,
        column or id at fault.

    Examples
    --------
    A spec (or the folder holding it):

    >>> cr.load("examples/workshop/stance-eu")
    <Inputs: 1 competition(s): stance-eu>

    A gold file and a folder of runs, with the options a spec would give:

    >>> data = cr.load(
    ...     "examples/workshop/paraphrase/gold.tsv",
    ...     runs="examples/workshop/paraphrase/runs",
    ...     metrics="accuracy,f1",
    ...     pos_label=1,
    ...     name="Paraphrase",
    ... )
    >>> data.competitions[0].id, data.competitions[0].m
    ('paraphrase', 8)
    """
    given = dict(locals())  # every keyword, by name: the schema's reading options and out_dir
    return _in_python_words(_load(given))


def load_unworded(path: StrPath | Sequence[StrPath], **keywords: Any) -> Inputs:
    """:func:`load`, with the competitions' warnings and notes keeping their references to
    options (:func:`compreport.errors.option`), for a caller that words them itself (the command
    line: ``--pos-label``, where :func:`load` gives Python's ``pos_label=``)."""
    bound = inspect.signature(load).bind(path, **keywords)
    bound.apply_defaults()
    return _load(dict(bound.arguments))


def _in_python_words(inputs: Inputs) -> Inputs:
    """``inputs`` with the warnings and notes its competitions keep in Python words."""
    for comp in inputs.competitions:
        comp.warnings = [spoken(w, {}) for w in comp.warnings]
        comp.notes = [spoken(n, {}) for n in comp.notes]
    return inputs


def _load(given: dict[str, Any]) -> Inputs:
    """:func:`load` of the keywords ``given`` (every one, by name), the references to options in
    its messages left to the caller to word."""
    from compreport.inputs.spec import load_inputs

    paths = _input_paths(given.pop("path"))
    _check_keyword_types(given)
    if given["name"] is not None:
        from compreport.inputs.slugs import check_name

        check_name(given["name"], paths)
    opts = _reading_options(given)
    loaded = load_inputs(paths, opts)
    return Inputs(
        loaded.competitions,
        dict(loaded.bootstrap),
        dict(loaded.workshop),
        opts.pos_label,
        opts.labels,
        list(loaded.specs),
        opts.ties,
        dict(loaded.origins),
    )


def _input_paths(path: StrPath | Sequence[StrPath]) -> list[str]:
    """The INPUTs of :func:`load`: one path or a non-empty list of them, as text."""
    if isinstance(path, (str, os.PathLike)):
        paths = [os.fspath(path)]
    else:
        try:
            paths = [os.fspath(p) for p in path]
        except TypeError:
            raise InputError(f"`path` must be a path or a list of paths; got {path!r}") from None
    if not paths:
        raise InputError("`path` names no input")
    return paths


#: The keywords of :func:`load` that take text, and those that take True or False, in the order
#: they are checked.
_TEXT_KEYWORDS = ("sep", "zip_member", "multi_label", "missing", "extra_lines", "bio", "ties")
_FLAG_KEYWORDS = ("comments", "header", "keep_spaces")


def _check_keyword_types(given: dict[str, Any]) -> None:
    """Refuse a keyword of :func:`load` (``given``) whose value is not of its kind: text, True or
    False, globs."""
    for what in (*_TEXT_KEYWORDS, "name"):
        value = given[what]
        if value is not None and not isinstance(value, str):
            raise InputError(f"`{what}` must be a string; got {value!r}")
    for what in _FLAG_KEYWORDS:
        flag = given[what]
        if flag is not None and not isinstance(flag, bool):
            raise InputError(f"`{what}` must be True or False; got {flag!r}")
    given["exclude"] = _exclude_globs(given["exclude"])
    baselines = given["baselines"]
    if isinstance(baselines, str):
        baselines = [baselines]
    if not (
        baselines is None
        or (isinstance(baselines, (list, tuple)) and all(isinstance(g, str) for g in baselines))
    ):
        raise InputError(f"`baselines` must be a glob or a list of globs; got {baselines!r}")
    given["baselines"] = list(baselines or [])


def _exclude_globs(exclude: Names | None) -> list[str]:
    """The ``exclude`` keyword of :func:`load` as a list of globs (path-like ones as text)."""
    if isinstance(exclude, (str, os.PathLike)):
        exclude = [exclude]
    try:
        return [os.fspath(g) for g in exclude or []]
    except TypeError:
        raise InputError(f"`exclude` must be a glob or a list of globs; got {exclude!r}") from None


def _reading_options(given: dict[str, Any]) -> Any:
    """The :class:`compreport.inputs.spec.Options` of :func:`load`'s keywords (``given``, their
    kinds checked): paths as text, metric names and labels as lists, runs checked against
    ``out_dir`` before they are read, metric names looked up."""
    from compreport.inputs.spec import Options
    from compreport.output.overlap import check_runs
    from compreport.stats.metrics import get_metric

    out_dir = given.pop("out_dir")
    values = given | {
        "runs": None if given["runs"] is None else os.fspath(given["runs"]),
        "metrics": _names(given["metrics"], "metrics") or [],
        "pos_label": _label(given["pos_label"]),
        "labels": _labels(given["labels"]),
        "names": None if given["names"] is None else os.fspath(given["names"]),
    }
    return Options(
        **values,
        runs_guard=None if out_dir is None else partial(check_runs, out_dir=os.fspath(out_dir)),
        lookup=get_metric,
    )


def load_demo(competition: str | None = None) -> Inputs:
    """The bundled synthetic demo workshop (seven competitions), read as :func:`load` reads it.

    It ships inside the package (:func:`compreport.resources.demo_workshop_dir`), so this works
    after ``pip install`` without a checkout, as ``sklearn.datasets`` loaders do; its data are
    simulated (no real participants). ``compreport demo`` reports on the same folder.

    Parameters
    ----------
    competition : str, optional
        One competition's folder (``"paraphrase"``, ``"stance-eu"``, ...): only that one;
        default every competition of the workshop.

    Returns
    -------
    Inputs
        ``load_demo()`` is ``load(demo_workshop_dir())``, and ``load_demo(c)`` is
        ``load(demo_workshop_dir() / c)``.

    Raises
    ------
    InputError
        ``competition`` is not one of the demo's.

    Examples
    --------
    >>> cr.load_demo()
    <Inputs: workshop 'IberLEF 2026 (synthetic demo)': 7 competition(s): detox-binary, ...>
    >>> cr.load_demo("stance-eu")
    <Inputs: 1 competition(s): stance-eu>
    """
    from compreport.errors import suggest
    from compreport.resources import demo_workshop_dir

    root = demo_workshop_dir()
    if competition is None:
        return load(root)
    known = sorted(p.name for p in root.iterdir() if (p / "competition.toml").is_file())
    if competition not in known:
        raise InputError(
            f"`competition` of load_demo() must be one of {', '.join(known)}; "
            f"got {competition!r}{suggest(competition, known)}"
        )
    return load(root / competition)


# --------------------------------------------------------------------------- from_frame


def from_frame(
    df: pd.DataFrame,
    *,
    gold: str = "y",
    id: str | None = None,
    name: str = "competition",
    metrics: Names = ("accuracy",),
    pos_label: Label | None = None,
    labels: str | Sequence[Label] | None = None,
    baselines: Sequence[str] = (),
    cluster: str | None = None,
) -> Inputs:
    """One competition from a pandas wide table: one row per item, one column per system.

    Each cell becomes text as the file loaders read it (``str`` of the cell, stripped), so a
    table read with ``pandas.read_csv`` gives the same competition as :func:`load` on the file.

    Parameters
    ----------
    df : pandas.DataFrame
        The gold column, an optional id column, and one column per system, named after it.
    gold : str, default "y"
        The gold column.
    id : str, optional
        The item-id column (default: a column called ``id`` if there is one, else the items are
        numbered 1..n).
    name : str, default "competition"
        The competition's name; its id is the slug of it (``"My task"`` -> ``my-task``), which
        also keys its random streams (a DataFrame has no file name to key them), as a spec's
        ``id`` does.
    metrics : str or list of str, default ("accuracy",)
        Metric names (:func:`list_metrics`), the first ranking the systems; a string may be a
        comma list.
    pos_label : str or int, optional
        Positive class of ``f1``, ``precision``, ``recall`` and ``roc_auc``.
    labels : str or list, optional
        Classes averaged over by the macro, micro and weighted metrics (default: every class).
    baselines : list of str, default ()
        The system columns that are baselines.
    cluster : str, optional
        The column naming each item's cluster (a question, a document, an author): the bootstrap
        then resamples clusters, not items (:mod:`compreport.inputs.clusters`).

    Returns
    -------
    Inputs
        The one competition (no spec settings, no workshop).

    Raises
    ------
    InputError
        A missing gold or id column, a blank or missing value, a duplicate id or column, no
        system column, an unknown metric; the message names the column and the index label.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"y": list("abab"), "A": list("abaa"), "B": list("abab")})
    >>> data = cr.from_frame(df, name="Toy task", baselines=["A"])
    >>> data
    <Inputs: 1 competition(s): toy-task>
    >>> cr.analyze(data, bootstrap=0).leaderboard()[["rank", "system", "baseline", "score"]]
       rank system  baseline  score
    0     1      B     False   1.00
    1     2      A      True   0.75
    """
    from compreport.inputs.frame import read_frame
    from compreport.inputs.readers import build
    from compreport.inputs.slugs import check_id, slug

    if not isinstance(name, str) or not name.strip():
        raise InputError(f"`name` must be a non-empty string; got {name!r}")
    pieces = read_frame(df, gold=gold, id_column=id)
    if cluster is not None:
        from compreport.inputs.clustercol import take_column

        pieces = take_column(pieces, cluster, "DataFrame")
    cid = slug(name)
    check_id(cid, "DataFrame")
    pl, labs = _label(pos_label), _labels(labels)
    names = _names(metrics, "metrics")
    if names is None:
        raise InputError("`metrics` names nothing; got None")
    specs = _metric_specs(names, pl, labs)
    comp = build(
        pieces, CompetitionInfo(cid, name, group=[name]), specs, [str(b) for b in baselines]
    )
    return _in_python_words(Inputs([comp], pos_label=pl, labels=labs))


# --------------------------------------------------------------------------- analyze


def _spec_words(inputs: Inputs, given: dict[str, Any]) -> Wording:
    """How messages name a setting the specs gave, and the call did not: as the spec's key with
    its file and line (``[bootstrap] resamples = 10000000000 (c.toml, line 6)``), not as
    ``-B``/``bootstrap=``."""
    known = words()
    return from_specs(
        {k: said for k, said in inputs.origins.items() if k in known and given.get(k) is None}
    )


@contextlib.contextmanager
def _spoken_by_specs(wording: Wording) -> Iterator[None]:
    """Inside, errors and warnings name the settings of ``wording`` as the specs gave them: an
    error on its way out, a warning as it is shown (when and where it is raised, under the
    caller's filters); the other options they name are left for the caller to word (``str()``:
    Python words; the command line: its own)."""
    if not wording:
        yield
        return
    shown = warnings.showwarning

    def show(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: Any = None,
        line: str | None = None,
    ) -> None:
        if isinstance(message, InputWarning):
            message = category(spoken(raw(message), wording, partial=True))
        shown(message, category, filename, lineno, file, line)

    warnings.showwarning = show
    try:
        yield
    except (InputError, InputWarning) as exc:  # a warning too, where warnings are errors
        if len(exc.args) == 1 and isinstance(exc.args[0], str):
            reword(exc, wording)
        raise
    finally:
        warnings.showwarning = shown


def _spoken_analysis(analysis: Analysis, wording: Wording) -> Analysis:
    """``analysis`` with the warnings it keeps (written to its files) in the words of
    ``wording`` (Python words for the options it leaves out)."""
    for comp in analysis.competitions:
        comp.warnings = [spoken(w, wording) for w in comp.warnings]
    return analysis


def _as_inputs(data: Inputs | Competition | Sequence[Competition], what: str) -> Inputs:
    """``data`` of :func:`analyze` or :func:`validate` (called ``what``) as :class:`Inputs`."""
    if isinstance(data, Inputs):
        return data
    if isinstance(data, Competition):
        return Inputs([data])
    if isinstance(data, (list, tuple)) and data and all(isinstance(c, Competition) for c in data):
        return Inputs(list(data))
    raise InputError(
        f"{what} needs what load() or from_frame() returns, a Competition or a list of them; "
        f"got {type(data).__name__}"
    )


def analyze(
    data: Inputs | Competition | Sequence[Competition],
    *,
    metrics: Names | None = None,
    pos_label: Label | None = None,
    labels: str | Sequence[Label] | None = None,
    bootstrap: int | None = None,
    seed: int | None = None,
    alpha: float | None = None,
    ci: str | None = None,
    test: str | None = None,
    family: str | None = None,
    correction: str | None = None,
    include_baselines: bool | None = None,
    refine: bool | None = None,
    jobs: int = 1,
    progress: bool | None = False,
    scheduler: str | None = None,
    paper: bool | None = None,
) -> Analysis:
    """Run the paired bootstrap and decide every verdict, as ``compreport report`` does.

    A setting left at None takes the value of the specs' ``[bootstrap]`` table (when ``data``
    came from :func:`load`), else its default; the same inputs and seed give the same numbers as
    the command line.

    Parameters
    ----------
    data : Inputs, Competition or list of Competition
        What :func:`load` or :func:`from_frame` returned, or competitions.
    metrics : str or list of str, optional
        Metric names replacing every competition's metrics, the first ranking the systems (as
        ``--metric`` does).
    pos_label, labels : optional
        Positive class and averaged classes of the ``metrics`` named here (default: those given
        to :func:`load` or :func:`from_frame`).
    bootstrap : int, optional
        Number of bootstrap resamples B (default 10,000); 0 gives scores without intervals.
    seed : int, optional
        Seed of the resampling plan (default 0).
    alpha : float, optional
        Significance level, in (0, 1) (default 0.05); intervals are at confidence 1 - alpha.
    ci : {"percentile", "bca", "normal"}, optional
        Interval method of the scores and differences (default ``"percentile"``).
    test : {"bootstrap", "berg-kirkpatrick", "randomization"}, optional
        Where p-values come from (default ``"bootstrap"``, two-sided; ``"berg-kirkpatrick"`` is
        the one-sided test of Berg-Kirkpatrick et al.).
    family : {"all-pairs", "per-row", "vs-best", "vs-baseline"}, optional
        The comparisons one correction is applied over (default ``"all-pairs"``; ``"vs-best"``
        corrects over all pairs and states the comparisons with the best; ``"vs-baseline"``
        corrects over the comparisons of each participant with each named baseline and states
        only those: every competition needs a baseline).
    correction : {"none", "bonferroni", "holm", "bh", "maxt"}, optional
        The correction behind every verdict (default ``"maxt"`` under the bootstrap test,
        ``"holm"`` under the others).
    include_baselines : bool, optional
        Let baselines compete (default False: they are compared and grouped, but the winner, the
        comparisons with the winner and the competitiveness figures are over participants only).
    refine : bool, optional
        Re-estimate a p-value from more resamples (up to 16 x B) while its verdict is within its
        Monte-Carlo error of the threshold (default False: such a verdict is undecided).
    jobs : int, default 1
        Worker processes: with several competitions, each is analysed by one of them; with one,
        they draw its blocks of resamples. The numbers do not depend on it.
    progress : bool or None, default False
        Show a progress bar on stderr (None: when stderr is a terminal).
    scheduler : str, optional
        Run on a dask.distributed cluster (the ``dask`` extra): the address of its scheduler
        (``"tcp://host:8786"``), or ``"local"`` for a cluster of ``jobs`` worker processes on this
        machine. Its tasks are the competitions, or a single competition's blocks of resamples;
        the numbers are those of a run without it.
    paper : bool, optional
        The paper's settings at once (Nava-Muñoz et al., Tables 7-11;
        :data:`compreport.settings.PAPER`): ``test="berg-kirkpatrick"`` (one-sided),
        ``family="per-row"``, ``include_baselines=True``, ``correction="bonferroni"``,
        ``refine=False``; another value given for one of them is an :class:`InputError`.
        Recorded as ``settings.paper`` in results.json (default False, or the specs'
        ``[bootstrap] paper``).

    Returns
    -------
    Analysis
        Scores, intervals, comparisons and verdicts of every competition and metric: see
        :meth:`~compreport.stats.results.Analysis.leaderboard`,
        :meth:`~compreport.stats.results.Analysis.pairs` and
        :meth:`~compreport.stats.results.Analysis.to_json` (results.json).

    Raises
    ------
    InputError
        An invalid setting (the message names it, the value and the allowed values), a
        competition without a metric, two competitions with one id, or resamples that would not
        fit in memory.

    Warns
    -----
    InputWarning
        Problems that do not stop the analysis, e.g. a B too small for the correction to ever
        reject, or a metric built from classes with very few items.

    Examples
    --------
    >>> data = cr.load("examples/workshop/stance-eu")
    >>> a = cr.analyze(data, bootstrap=2000, seed=1, correction="holm")
    >>> a
    <Analysis: 1 competition(s) (stance-eu); B = 2000, seed = 1, alpha = 0.05, holm over all-pairs>
    >>> a.pairs()[["system_a", "system_b", "significant"]].head(3)
           system_a           system_b  significant
    0  TxertoNLP.02       TxertoNLP.01        False
    1  TxertoNLP.02  MultiHizkuntza.01        False
    2  TxertoNLP.02      Iruñea-HLT.01         True
    """
    given = {
        "bootstrap": bootstrap,
        "seed": seed,
        "alpha": alpha,
        "ci_method": ci,
        "test": test,
        "family": family,
        "correction": correction,
        "include_baselines": include_baselines,
        "refine": refine,
        "paper": paper,
    }
    return run_analysis(
        data,
        given,
        "analyze",
        metrics=metrics,
        pos_label=pos_label,
        labels=labels,
        jobs=jobs,
        progress=progress,
        scheduler=scheduler,
    )


def run_analysis(
    data: Inputs | Competition | Sequence[Competition],
    given: dict,
    source: str,
    *,
    checked: bool = False,
    metrics: Names | None = None,
    pos_label: Label | None = None,
    labels: str | Sequence[Label] | None = None,
    jobs: int = 1,
    progress: bool | None = False,
    scheduler: str | None = None,
) -> Analysis:
    """:func:`analyze` with its settings ``given`` by Settings field (None: not given), named in
    errors as ``source`` spells them (``analyze``; the command line's ``cli``). ``checked``: the
    caller has validated ``given`` already (:func:`compreport.settings.validate`, the CLI before
    any work), so the one frozen :class:`~compreport.settings.Settings` of the run is made here
    without checking the values again (their combination is checked)."""
    inputs = _as_inputs(data, "analyze")
    comps = list(inputs.competitions)
    if metrics is None and (pos_label is not None or labels is not None):
        raise InputError(
            "`pos_label` and `labels` apply to the metrics named with `metrics=`; name them too "
            "(or pass pos_label/labels to load() or from_frame())"
        )
    if metrics is not None:
        names = _names(metrics, "metrics")
        pl = inputs.pos_label if pos_label is None else _label(pos_label)
        labs = inputs.labels if labels is None else _labels(labels)
        comps = [
            dataclasses.replace(c, metrics=_metric_specs(names, pl, labs, inputs.ties))
            for c in comps
        ]
    jobs = check_jobs(jobs)
    scheduler = check_scheduler(scheduler)
    if progress is not None and not isinstance(progress, bool):
        raise InputError(f"`progress` must be True, False or None; got {progress!r}")
    seen: dict[str, str] = {}
    for c in comps:
        if not c.metrics:
            raise InputError(
                f"competition {c.id!r}: no metric given; pass {option('metric', 'NAME')}"
            )
        if c.id in seen:
            raise InputError(
                f"competition id {c.id!r} is used twice ({seen[c.id]!r} and {c.name!r}); "
                f"give the competitions different names"
            )
        seen[c.id] = c.name
    from compreport.stats.analysis import analyze as run

    # the specs' [bootstrap] values were checked where they were read (specmodels.settings_of)
    base = make_settings(inputs.settings, "spec", checked=True)
    settings = make_settings(given, source, base=base, checked=checked)
    spec_words = _spec_words(inputs, given)
    with _spoken_by_specs(spec_words):
        analysis = run(
            comps,
            settings,
            jobs=int(jobs),
            progress=progress,
            workshop=inputs.workshop,
            scheduler=scheduler,
        )
    caller_words = command_line() if source == "cli" else {}
    _spoken_analysis(analysis, {**caller_words, **spec_words})
    # Report.write will not write over the files read, nor where runs are read
    analysis.sources = dataclasses.replace(inputs, competitions=comps).files
    analysis.scanned = list(dict.fromkeys(s for c in comps for s in c.scanned))
    return analysis


def validate(data: Inputs | Competition | Sequence[Competition]) -> Analysis:
    """Score every system without resampling, as ``compreport validate`` does.

    A quick check of the inputs: every system's score under every metric, and the warnings
    :func:`analyze` would give under the specs' settings, including that their number of
    resamples (or the default 10,000) is too small for the correction to ever reject.

    Parameters
    ----------
    data : Inputs, Competition or list of Competition
        What :func:`load` or :func:`from_frame` returned, or competitions.

    Returns
    -------
    Analysis
        Scores and ranks under the specs' settings with ``bootstrap=0``: no intervals and no
        verdicts.

    Raises
    ------
    InputError
        A competition without a metric, or a metric that cannot score the predictions.

    Warns
    -----
    InputWarning
        As :func:`analyze` would, competition by competition.

    Examples
    --------
    >>> a = cr.validate(cr.load("examples/workshop/stance-eu"))
    >>> a.settings.bootstrap
    0
    >>> a.leaderboard(metric="accuracy")[["rank", "system", "score"]]
       rank             system     score
    0     1       TxertoNLP.01  0.695513
    1     1       TxertoNLP.02  0.695513
    2     3  MultiHizkuntza.01  0.653846
    3     4      Iruñea-HLT.01  0.516026
    4     5      Iruñea-HLT.02  0.407051
    """
    from compreport.stats.analysis import analyze_competition, bootstrap_note

    inputs = _as_inputs(data, "validate")
    settings = make_settings(base=make_settings(inputs.settings, "spec", checked=True))
    # the interval method and the test take no part in point scores; theirs need resamples
    scores_only = dataclasses.replace(
        settings, bootstrap=0, ci_method="percentile", test="bootstrap"
    )
    spec_words = _spec_words(inputs, {})
    done = []
    for comp in inputs.competitions:
        done.append(analyze_competition(comp, scores_only, progress=False))
        note = bootstrap_note(comp, settings)
        if note:
            warn(spoken(note, spec_words, partial=True))
    return _spoken_analysis(Analysis(scores_only, done, workshop=dict(inputs.workshop)), spec_words)


def plan(
    data: Inputs | Competition | Sequence[Competition],
    *,
    power: float = 0.8,
    delta: float | None = None,
    alpha: float | None = None,
    draws: int = 1000,
    bootstrap: int | None = None,
    seed: int | None = None,
    jobs: int = 1,
    progress: bool | None = False,
) -> Plan:
    """Size next year's test set: what the current one can detect, and what a difference needs.

    Runs the paired bootstrap (as :func:`analyze`, without refinement), then, for each
    competition and metric, compares the best system with every other one
    (:mod:`compreport.stats.plan`): the minimum detectable difference at the current number of
    items, and the number of items needed to detect ``delta`` with probability ``power`` at the
    two-sided level ``alpha`` of one comparison, by resampling test sets of other sizes from this
    one (the normal approximation beside it).

    Parameters
    ----------
    data : Inputs, Competition or list of Competition
        What :func:`load` or :func:`from_frame` returned, or competitions.
    power : float, default 0.8
        Probability of detecting the difference, in (0, 1).
    delta : float, optional
        The difference to detect, in the metric's units, at least
        :data:`~compreport.settings.MIN_DELTA` (default: each pair's observed one).
    alpha : float, optional
        Two-sided level of one comparison (default: the specs', else 0.05).
    draws : int, default 1000
        Resamples behind each power estimate, from 100 to 100,000
        (:data:`~compreport.settings.MAX_DRAWS`); checked before the analysis runs.
    bootstrap, seed : int, optional
        Replicates and seed of the analysis (defaults as :func:`analyze`).
    jobs : int, default 1
        Worker processes of the analysis.
    progress : bool or None, default False
        Show progress bars on stderr (None: when stderr is a terminal).

    Returns
    -------
    Plan
        :attr:`~compreport.stats.plan.Plan.pairs` holds each pair's ``mdd`` and ``n_needed``;
        :func:`compreport.report.planning.write_plan` writes plan.json, plan.csv and the
        power curves.

    Examples
    --------
    >>> p = cr.plan(cr.load("examples/workshop/paraphrase"), bootstrap=1000, draws=200)
    >>> first = p.pairs[0]
    >>> first.system, first.n_needed > 1040   # ParaNLP.01 is too close to tell apart today
    ('ParaNLP.01', True)
    """
    from compreport.settings import check_plan_options
    from compreport.stats.plan import plan_test_set

    check_plan_options(power, delta, draws)  # before the analysis, as the command line does
    inputs = _as_inputs(data, "plan")
    analysis = analyze(
        inputs,
        bootstrap=bootstrap,
        seed=seed,
        alpha=alpha,
        refine=False,
        jobs=jobs,
        progress=progress,
    )
    return plan_test_set(
        analysis,
        list(inputs.competitions),
        power=power,
        alpha=analysis.settings.alpha,
        delta=delta,
        draws=draws,
    )


# --------------------------------------------------------------------------- metrics


@dataclass(frozen=True)
class MetricInfo:
    """A metric that :func:`load`, :func:`from_frame` and :func:`analyze` take by name.

    Attributes
    ----------
    name : str
        The name to pass; ``K`` in ``p@K``, ``ndcg@K`` and ``map@K`` stands for a whole number
        >= 1 (the first K candidates of each query).
    higher_is_better : bool
        Orientation of the scores.
    ideal : float or None
        The best possible score (None: no such score).
    description : str
        What it measures, in one line.
    reads : str
        What the gold and the runs must give (``one label per item``, ``a number per item``,
        ``mentions per document ...``).
    """

    name: str
    higher_is_better: bool
    ideal: float | None
    description: str
    reads: str = "one label per item"


def list_metrics() -> list[MetricInfo]:
    """The metrics known by name, as ``compreport metrics`` lists them.

    A metric of your own is named ``path/to/file.py:function``, where ``function(y_true,
    y_pred)`` returns a float.

    Returns
    -------
    list of MetricInfo
        The registered metrics and the ranking metrics cut at K, grouped by what they read
        (:attr:`MetricInfo.reads`), in the registry's order.

    Examples
    --------
    >>> metrics = cr.list_metrics()
    >>> m = metrics[0]
    >>> m.name, m.higher_is_better, m.ideal, m.reads
    ('accuracy', True, 1.0, 'one label, or a label set, per item')
    >>> [m.name for m in metrics if not m.higher_is_better]  # doctest: +NORMALIZE_WHITESPACE
    ['hamming_loss', 'log_loss', 'brier', 'mae', 'mse', 'rmse', 'mape', 'ratio',
     'cross_entropy', 'soft_mae']
    """
    return metric_infos({})


def metric_infos(wording: Wording) -> list[MetricInfo]:
    """:func:`list_metrics`, the options the descriptions name in the words of ``wording``
    (``compreport metrics``: the command line's)."""
    from compreport.stats.metrics import REGISTRY
    from compreport.stats.metrics.ranking import CUT_AT_K, RankingMetric

    known = [
        MetricInfo(name, m.higher_is_better, m.ideal, m.description, m.reads)
        for name, m in REGISTRY.items()
    ]
    cut = [
        MetricInfo(
            name,
            RankingMetric.higher_is_better,
            RankingMetric.ideal,
            spoken(f"{description} (needs {option('query_col')})", wording),
            RankingMetric.reads,
        )
        for name, description in CUT_AT_K
    ]
    groups = list(dict.fromkeys(m.reads for m in known))  # in the registry's order
    return sorted(known + cut, key=lambda m: groups.index(m.reads))
