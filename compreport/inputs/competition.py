"""One competition as the inputs give it: its metadata (:class:`CompetitionInfo`), the metrics
named for it (:class:`MetricSpec`), and the validated arrays of gold labels and every system's
predictions (:class:`Competition`), each value traceable to its file and line (:class:`Source`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import KW_ONLY, dataclass, field
from typing import Any

import numpy as np

from compreport.inputs.clusters import Clusters


@dataclass
class Source:
    """Where a column of values came from, to name file, line and column in errors.

    Attributes
    ----------
    path : str
        The file, as the user named it.
    lines : ndarray of int, shape (n,)
        1-based line number of each item (in competition item order).
    columns : list of str
        How each field is named in that file (a header name, ``column 2``, ``key 'label'``).
    unit : str
        What ``lines`` count: ``line``, or ``entry`` (the objects of a ``.json`` file).
    """

    path: str
    lines: np.ndarray = field(repr=False)
    columns: list[str]
    unit: str = "line"

    def locate(self, item: int, field_index: int = 0) -> str:
        """``file, line L, column C`` of ``item`` (competition order) in field ``field_index``;
        ``file, no line, C`` for an item the file does not list (a missing prediction)."""
        line = int(self.lines[item])
        at = f"{self.unit} {line}" if line else f"no {self.unit} for this item"
        return f"{self.path}, {at}, {self.columns[field_index]}"


@dataclass
class MetricSpec:
    """A metric named by the user, with its parameters.

    Attributes
    ----------
    name : str
        A registry name (:data:`compreport.stats.metrics.REGISTRY`) or ``file.py:function``.
    params : dict
        ``field``, ``pos_label``, ``labels``, ... as the metric allows.
    base : str or None
        Directory that a user metric's relative path is resolved against.
    metric : Metric or None
        The :class:`~compreport.stats.metrics.Metric` the name names, once looked up while the
        inputs were read (a user metric's file is then run once); None: the analysis looks it up.
    """

    name: str
    params: dict = field(default_factory=dict)
    base: str | None = None
    metric: Any = field(default=None, repr=False, compare=False)


@dataclass
class CompetitionInfo:
    """A competition's metadata, declared once.

    :class:`Competition` and :class:`~compreport.stats.results.CompetitionAnalysis` inherit these
    fields; the keys a ``competition.toml`` may set (:mod:`compreport.inputs.spec`) and the
    competition keys of results.json are taken from them. ``id`` and ``name`` may be given by
    position; the others by keyword only.

    Attributes
    ----------
    id : str
        Folder name under the output directory (the resampling streams are keyed by
        :attr:`Competition.stream_key`, which a display name never changes).
    name : str
        Display name.
    year : int or None
        Year of the competition.
    challenge, task, subtask, language : str
        Shown in reports ("" when not given).
    group : list of str
        Path of the competition in the cross-competition tables (challenge, task, language).
    """

    id: str
    name: str
    _: KW_ONLY
    year: int | None = None
    challenge: str = ""
    task: str = ""
    subtask: str = ""
    language: str = ""
    group: list[str] = field(default_factory=list)

    def metadata(self) -> dict:
        """The :class:`CompetitionInfo` fields and their values (not copied), in declaration
        order."""
        return {name: getattr(self, name) for name in INFO_FIELDS}


#: Names of the metadata fields, in declaration order (results.json writes them in this order).
INFO_FIELDS = tuple(f.name for f in dataclasses.fields(CompetitionInfo))


@dataclass
class Competition(CompetitionInfo):
    """One ranked evaluation with one gold standard: its metadata (:class:`CompetitionInfo`) and
    arrays.

    Attributes
    ----------
    gold : ndarray of str, shape (n, F)
        Gold values, one column per field (``F == 1`` for ordinary tasks).
    predictions : ndarray of str, shape (m, n, F)
        Every system's predictions, aligned with ``gold`` by item id.
    systems : list of str
        System names (a wide table's columns; run files as
        :func:`~compreport.inputs.runfiles.name_runs` or the names file names them), in input
        order.
    item_ids : ndarray of str, shape (n,)
        Item ids (numbered from 1 when the input has none).
    metrics : list of MetricSpec
        The first is the primary (ranking) metric.
    fields : list of str
        Field names; ``["label"]`` unless predictions have several fields.
    baselines : list of str
        Systems that are baselines (each one of ``systems``).
    inputs : list of dict
        ``{"path", "sha256"}`` of every file read.
    gold_source, system_sources : Source or None, list of Source
        Where the gold and each system's values came from (for error messages).
    warnings : list of str
        Problems that do not stop the analysis (labels never seen in gold, ...).
    notes : list of str
        What the reading decided that a user should know, not a problem (teams read from run
        names that differ only in a final ``_N``, ``-N`` or ``_A``): given as notes by the
        analysis and kept with the warnings among the report's notes. Both name options by
        reference (:func:`compreport.errors.option`), worded for the caller when the analysis
        warns of them and keeps them (:func:`compreport.errors.said` words one for Python).
    missing : dict
        System -> number of items without a prediction (blank, absent, unreadable), each held as
        ``""`` in ``predictions`` and scored as a wrong answer (``--missing wrong``); 0 for every
        system otherwise.
    teams : dict
        System -> its team (from its folder, the run-name rule of
        :func:`~compreport.inputs.runfiles.stem_teams`, or the names file), or None.
    clusters : Clusters or None
        The cluster of each item, for the cluster bootstrap (``--cluster-col``; items of a cluster
        are resampled together, :mod:`compreport.inputs.clusters`); None: items are the unit.

    Examples
    --------
    >>> c = Competition(
    ...     "t", "T",
    ...     gold=np.array([["a"], ["b"]]),
    ...     predictions=np.array([[["a"], ["a"]]]),
    ...     systems=["s1"],
    ...     item_ids=np.array(["1", "2"]),
    ...     metrics=[MetricSpec("accuracy")],
    ... )
    >>> c.n, c.m, c.locate(0, 1)
    (2, 1, "item '2'")
    """

    gold: np.ndarray = field(repr=False)
    predictions: np.ndarray = field(repr=False)
    systems: list[str]
    item_ids: np.ndarray = field(repr=False)
    metrics: list[MetricSpec]
    fields: list[str] = field(default_factory=lambda: ["label"])
    baselines: list[str] = field(default_factory=list)
    inputs: list[dict] = field(default_factory=list)
    #: The input files as they were opened (``inputs`` records them relative to the spec's folder).
    files: list[str] = field(default_factory=list, repr=False)
    #: The runs folders and globs read, as opened: no report may be written where they read
    #: (the output stage checks its directory against them).
    scanned: list[str] = field(default_factory=list, repr=False)
    gold_source: Source | None = field(default=None, repr=False)
    system_sources: list[Source] = field(default_factory=list, repr=False)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    missing: dict[str, int] = field(default_factory=dict)
    teams: dict[str, str | None] = field(default_factory=dict)
    clusters: Clusters | None = None
    #: The stable text the competition's random streams derive from
    #: (:func:`~compreport.stats.resampler.competition_key`): the spec's ``id``, else the name of
    #: the spec's folder or of the gold file, never the display name, so a title, a description or
    #: a language leaves every number equal. None: the ``id``.
    stream: str | None = None

    @property
    def stream_key(self) -> str:
        """The text the random streams derive from: :attr:`stream`, else the ``id``."""
        return self.id if self.stream is None else self.stream

    @property
    def n(self) -> int:
        """Number of test items."""
        return int(self.gold.shape[0])

    @property
    def m(self) -> int:
        """Number of systems."""
        return len(self.systems)

    def locate(self, system: int | None, item: int, field_index: int = 0) -> str:
        """Describe where a value sits: ``file, line L, column C`` (``system=None`` for gold)."""
        src = (
            self.gold_source
            if system is None
            else self.system_sources[system]
            if system < len(self.system_sources)
            else None
        )
        if src is None:  # arrays built in Python: no file to point at
            return f"item {str(self.item_ids[item])!r}"  # np.str_ -> str: 'x', not np.str_('x')
        return src.locate(item, field_index)
