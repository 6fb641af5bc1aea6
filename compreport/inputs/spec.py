"""Turning inputs into Competitions: ``competition.toml``, ``workshop.toml`` (their pydantic
models are in :mod:`compreport.inputs.specmodels`), wide tables and gold + run files.

An INPUT on the command line is one of

* a wide CSV/TSV table (gold column ``--gold``, optional ``--id``, one column per system);
* a gold file, with ``--runs DIR_OR_GLOB`` naming the run files;
* a ``competition.toml``, or a directory holding one;
* a ``workshop.toml``, or a directory holding one, or a directory of competition folders.

A key that a spec does not know is an error that suggests the closest known key.
"""

from __future__ import annotations

import dataclasses
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from compreport import options
from compreport.errors import InputError, option, os_reason, suggest
from compreport.errors import raw as unworded
from compreport.inputs import readers as load
from compreport.inputs.competition import INFO_FIELDS, Competition, CompetitionInfo, MetricSpec
from compreport.inputs.delimited import text_name
from compreport.inputs.mentions import detect as detect_mentions
from compreport.inputs.parsed import (
    TIES,
    ReadOptions,
    columns,
    one_column,
    option_of,
    phase_id,
)
from compreport.inputs.slugs import check_id, slug
from compreport.inputs.specmodels import (
    CompetitionSpec,
    MetricEntry,
    RunsSpec,
    WorkshopEntry,
    WorkshopSpec,
    merge_bootstrap,
    settings_of,
)
from compreport.inputs.tomlfile import is_spec, read_toml, validate_model, where

#: The plain reading options (:attr:`compreport.options.Option.plain`) by Python keyword: each is
#: the caller's value, else the spec's ``[data]`` key of the same name, else the schema's default.
_PLAIN = MappingProxyType({o.api: o for o in options.group(options.READING) if o.plain})


def plain_reading(given, data=None) -> dict:
    """The plain reading options (``sep``, ``comments``, ``header``, ``missing``...): for each,
    the value ``given`` (:class:`Options`) holds, else the one ``data`` (a spec's ``[data]``) holds,
    else the schema's default. None is not given, nor is empty text for an option marked
    ``blank`` (``--sep ""``).

    >>> plain_reading(Options(sep="tab"))["sep"], plain_reading(Options(sep=""))["sep"]
    ('tab', 'auto')
    >>> plain_reading(Options())["comments"], plain_reading(Options(comments=False))["comments"]
    (True, False)
    """
    out = {}
    for key, o in _PLAIN.items():
        out[o.reads] = o.default
        for value in (getattr(given, key), getattr(data, key, None)):
            if value is not None and not (o.blank and value == ""):
                out[o.reads] = value
                break
    return out


def _reading(self) -> ReadOptions:
    """The reading options given here (command line or API), checked; defaults where not
    given."""
    return ReadOptions(
        **plain_reading(self),
        id_column=self.id_col,
        label_columns=self.label_col,
        exclude=list(self.exclude),
        baselines=list(self.baselines),
        names=self.names,
        cluster_column=self.cluster_col,
        runs_label_columns=self.score_col,
        said={"runs_label_columns": "score_col"} if self.score_col is not None else {},
    ).check()


def _option_fields() -> list[tuple[str, Any, Any]]:
    """One field per reading option of the schema, named as :func:`compreport.load`'s keyword:
    None (a repeatable option: an empty list) where not given."""
    out: dict[str, tuple[str, Any, Any]] = {}
    for o in options.group(options.READING):
        default = field(default_factory=list) if o.action == "append" else field(default=None)
        out.setdefault(o.api, (o.api, Any, default))
    return list(out.values())


Options = dataclasses.make_dataclass(
    "Options",
    [
        *_option_fields(),
        # The caller's check of a runs folder or glob (given, or named by a spec), called once
        # with it before it is read (compreport.load: refuses runs that reach its out_dir);
        # None: none.
        ("runs_guard", "Callable[[str], None] | None", field(default=None)),
        # How a metric name is looked up, (name, folder of a relative user metric) -> Metric,
        # raising InputError for an unknown one: compreport.stats.metrics.get_metric, given by
        # compreport.load. None: metric names are not checked while reading.
        ("lookup", "Callable[[str, Path | None], Any] | None", field(default=None)),
    ],
    namespace={
        "reading": _reading,
        "__module__": __name__,
        "__doc__": """What the caller (the command line, :func:`compreport.load`) gave for reading
    the inputs: one field per reading option of the schema (:data:`compreport.options.SCHEMA`),
    named as :func:`compreport.load`'s keyword, None (or empty) where not given, which leaves a
    spec's value or the default; ``runs_guard`` (the caller's check of runs before they are read)
    and ``lookup`` (how a metric name is looked up). Messages name the options by reference,
    worded for the caller where they are shown (:func:`compreport.errors.option`).""",
    },
)


@dataclass
class Loaded:
    """What :func:`load_inputs` read.

    Attributes
    ----------
    competitions : list of Competition
        In input order.
    bootstrap : dict
        Settings found in the specs' ``[bootstrap]``: Settings field -> validated value.
    workshop : dict
        ``name``, ``year``, ``description`` of a ``workshop.toml`` (empty without one).
    specs : list of str
        The ``workshop.toml`` and ``competition.toml`` files read.
    origins : dict
        Settings field -> (``[bootstrap] <key>``, the spec and line giving it), for messages.
    """

    competitions: list[Competition]
    bootstrap: dict
    workshop: dict = field(default_factory=dict)
    specs: list[str] = field(default_factory=list)
    origins: dict = field(default_factory=dict)


def files_read(competitions: list[Competition], specs=()) -> list[str]:
    """Every file the competitions come from: ``specs``, each competition's data files (its
    ``inputs``) and user metric files (``path/file.py:function``, relative to the spec's folder)."""
    files = [str(p) for p in specs]
    for comp in competitions:
        files += comp.files or [str(i["path"]) for i in comp.inputs if i.get("path")]
        files += [f for f in (metric_file(m.name, m.base) for m in comp.metrics) if f]
    return list(dict.fromkeys(files))


def metric_file(name: str, base: str | None = None) -> str | None:
    """The file of a user metric ``path/file.py:function`` (relative to ``base``), else None.

    >>> metric_file("metrics/m.py:acc", "specs"), metric_file("macro_f1")
    ('specs/metrics/m.py', None)
    """
    path, sep, _ = name.rpartition(":")
    if not (sep and path.endswith(".py")):
        return None
    return str(Path(base) / path if base and not Path(path).is_absolute() else path)


def metric_specs(
    entries: list[MetricEntry], opts: Options, base: Path | None, spec_path: Path | None = None
) -> list[MetricSpec]:
    """The metrics of a competition: those ``opts.metrics`` names (``--metric``), else the spec's
    ``[[metrics]]`` ``entries`` (their paths relative to the folder ``base``).

    Each is looked up with ``opts.lookup`` (which loads a user metric's file) and keeps the metric
    found; ``opts.pos_label``, ``opts.labels`` and ``opts.ties`` become the parameters of the
    metrics that take them. Without a lookup the names are neither checked nor looked up here.

    Raises
    ------
    InputError
        An unknown metric or a user metric that cannot be loaded, named as the caller gave it: the
        ``--metric`` option, or the ``[[metrics]]`` entry of the spec at ``spec_path``.
    """
    if opts.metrics:
        specs = [MetricSpec(name) for name in opts.metrics]
    else:
        specs = [
            MetricSpec(e.name, dict(e.model_extra or {}), str(base) if base else None)
            for e in entries
        ]
    if opts.ties is not None and opts.ties not in TIES:
        raise InputError(
            f"{option('ties')} must be one of {', '.join(TIES)}; got {opts.ties!r}"
            f"{suggest(opts.ties, TIES)}"
        )
    if opts.lookup is None:
        return specs
    for i, s in enumerate(specs):
        try:
            s.metric = opts.lookup(s.name, Path(s.base) if s.base else None)
        except InputError as exc:
            # Say where the name came from: the --metric option or the spec's [[metrics]] entry.
            if opts.metrics:
                raise InputError(f"{option('metric')}: {unworded(exc)}") from None
            if spec_path is not None:
                raise InputError(
                    f"{where(spec_path, ('metrics', i, 'name'))}: [[metrics]] entry {i + 1}: "
                    f"{unworded(exc)}"
                ) from None
            raise
        if opts.pos_label is not None and "pos_label" in s.metric.allowed:
            s.params["pos_label"] = _natural(opts.pos_label)
        if opts.labels and "labels" in s.metric.allowed:
            s.params["labels"] = list(opts.labels)
        if opts.ties is not None and "ties" in s.metric.allowed:
            s.params["ties"] = opts.ties
    return specs


def _natural(value: str):
    """``"1"`` -> 1 (so results.json shows ``"pos_label": 1``); other strings unchanged."""
    return int(value) if re.fullmatch(r"-?\d{1,18}", value) else value


def _resolve(base: Path, p: str) -> str:
    """The path ``p`` of a spec in the folder ``base``: relative to ``base`` unless absolute."""
    q = Path(p)
    return str(q if q.is_absolute() else base / q)


def _spec_reading(spec: CompetitionSpec, path: Path, opts: Options) -> ReadOptions:
    """The reading options of a competition: the spec's ``[data]`` keys, overridden by ``opts``
    (the command line or the API). A bad spec value names the file, the key's line and the key."""
    d, base = spec.data, path.parent
    for key, allowed in ((k, o.choices) for k, o in _PLAIN.items() if o.choices):
        value = getattr(d, key)
        if value is not None and value not in allowed:
            raise InputError(
                f"{where(path, ('data', key))}: [data] {key} must be one of {', '.join(allowed)}; "
                f"got {value!r}{suggest(value, allowed)}"
            )
    if d.phase is not None:
        try:
            phase_id(d.phase, "[data] phase")
        except InputError as exc:
            raise InputError(f"{where(path, ('data', 'phase'))}: {unworded(exc)}") from None
    if d.id_col is not None and d.id_column is not None:
        raise InputError(
            f"{where(path, ('data', 'id_col'))}: [data] names both `id_col` and `id_column`; "
            f"use `id_col`"
        )
    runs = d.runs if isinstance(d.runs, RunsSpec) else None
    try:
        spec_id = one_column(
            d.id_col if d.id_col is not None else d.id_column, "id_col", "[data] id_col"
        )
        spec_labels = columns(d.label_col, "label_col", "[data] label_col")
        run_id = one_column(runs.id_col, "id_col", "[data.runs] id_col") if runs else None
        run_labels = columns(runs.label_col, "label_col", "[data.runs] label_col") if runs else None
        if d.cluster is not None and d.query_col is not None:
            raise InputError(
                f"{where(path, ('data', 'query_col'))}: [data] names both `cluster` and "
                f"`query_col` (the same column: the query of each item is its cluster); give one"
            )
        if d.score_col is not None and runs is not None and runs.label_col is not None:
            raise InputError(
                f"{where(path, ('data', 'score_col'))}: [data] `score_col` and [data.runs] "
                f"`label_col` both name the runs' column; give one"
            )
        spec_cluster = one_column(
            d.cluster if d.cluster is not None else d.query_col, "cluster_col", "[data] cluster"
        )
        if d.score_col is not None:
            run_labels = columns(d.score_col, "score_col", "[data] score_col")
    except InputError as exc:
        raise InputError(f"{path}: {unworded(exc)}") from None
    given = opts.reading()
    id_given = opts.id_col is not None or opts.id is not None
    label_given = opts.label_col is not None
    names = (
        opts.names
        if opts.names is not None
        else (_resolve(base, spec.names.file) if spec.names else None)
    )
    # how messages name a column the spec gives (one the command line or the API gives: as given
    # there)
    said = {
        "id_column": "id"
        if opts.id is not None
        else f"[data] {'id_col' if d.id_col is not None else 'id_column'}",
        "label_columns": "[data] label_col",
        "runs_id_column": "[data.runs] id_col",
        "runs_label_columns": "[data] score_col"
        if d.score_col is not None
        else "[data.runs] label_col",
        "cluster_column": f"[data] {'cluster' if d.query_col is None else 'query_col'}",
        "phase": f"{where(path, ('data', 'phase'))}: [data] phase",
        "submissions": f"{where(path, ('data', 'submissions'))}: [data] submissions",
    }
    said = {
        k: v for k, v in said.items() if getattr(opts, options.OPTIONS[option_of(k)].api) is None
    } | given.said
    # a [data] baselines glob that matches no run is named with its spec key and line
    said |= {
        f"baseline:{g}": f"{where(path, ('data', 'baselines'))}: [data] baselines {g!r}"
        for g in d.baselines or []
    }
    if opts.id_col is not None:
        id_col = given.id_column
    else:
        id_col = opts.id if opts.id is not None else spec_id
    if opts.score_col is not None:
        runs_label_col = given.runs_label_columns
    else:  # a label_col given (for the gold and the runs) overrides the spec's runs column
        runs_label_col = None if label_given else run_labels
    return ReadOptions(
        **plain_reading(opts, d),
        id_column=id_col,
        label_columns=given.label_columns if label_given else spec_labels,
        runs_id_column=None if id_given else run_id,
        runs_label_columns=runs_label_col,
        exclude=[*(d.exclude or []), *opts.exclude],
        baselines=[*(d.baselines or []), *opts.baselines],
        names=names,
        cluster_column=given.cluster_column if opts.cluster_col is not None else spec_cluster,
        said=said,
    ).check()


def _relative(pieces: dict, base: Path, keep: set[str]) -> dict:
    """``pieces`` with its input paths relative to the folder ``base`` (the spec's; the relative
    paths in ``keep``, given on the command line, as given), so that results.json is the same in
    every checkout."""
    out = []
    for entry in pieces["inputs"]:
        p = entry["path"]
        if p not in keep or os.path.isabs(p):
            try:
                p = Path(os.path.relpath(p, base)).as_posix()
            except ValueError:  # another drive (Windows)
                pass
        out.append(entry | {"path": p})
    return pieces | {"inputs": out}


def load_competition_spec(
    path: Path, opts: Options, entry: WorkshopEntry | None = None
) -> tuple[Competition, dict]:
    """Read the ``competition.toml`` at ``path`` and the data it names.

    Parameters
    ----------
    path : Path
        The spec; relative paths in it are resolved against its folder (and recorded relative to
        it).
    opts : Options
        Reading options (``--metric``, ``--gold``/``--id`` and the reading options override the
        spec).
    entry : WorkshopEntry, optional
        The workshop's ``[[competitions]]`` entry, whose ``id`` and ``group`` win over the spec's.

    Returns
    -------
    tuple of (Competition, dict)
        The competition and its validated ``[bootstrap]`` settings (Settings field -> value).
    """
    spec: CompetitionSpec = validate_model(CompetitionSpec, read_toml(path), path)
    base = path.parent
    d = spec.data
    if d.table and (d.gold or d.runs):
        raise InputError(f"{path}: [data] names both `table` and `gold`/`runs`; use one layout")
    reading = _spec_reading(spec, path, opts)
    if d.table:
        if d.fields and len(d.fields) > 1:
            raise InputError(f"{path}: [data] `fields` needs the gold + runs layout")
        _wide_only(reading, path)
        pieces = load.read_wide(
            _resolve(base, d.table),
            gold=opts.gold or d.gold_column,
            id_column=reading.id_column,
            sep=reading.sep,
            missing=reading.missing,
            cluster_column=reading.cluster_column,
            id_said=reading.named("id_column", reading.id_column),
            names=reading.names,
            comments=reading.comments,
            baselines=reading.baselines,
            said=reading.said,
        )
    elif d.gold and d.runs:
        runs = d.runs.path if isinstance(d.runs, RunsSpec) else d.runs
        specs = metric_specs(spec.metrics, opts, base, path)
        reading, fields = scores_beside_labels(
            reading, specs, d.fields, opts.score_col is not None or d.score_col is not None
        )
        pieces = load.read_runs(
            _resolve(base, d.gold),
            _guarded(opts, _resolve(base, runs)),
            fields=fields,
            options=reading,
        )
    else:
        raise InputError(f"{path}: [data] needs `table` (wide layout) or both `gold` and `runs`")
    opened = [str(e["path"]) for e in pieces["inputs"]]
    pieces = _relative(pieces, base, {opts.names} if opts.names else set())
    name = spec.name or (entry.id if entry and entry.id else path.parent.name)
    cid = (entry.id if entry and entry.id else None) or spec.id or slug(name)
    check_id(cid, path)
    group = (
        (entry.group if entry and entry.group else None)
        or spec.group
        or [
            x
            for x in (f"{spec.challenge} {spec.year or ''}".strip(), spec.task, spec.language)
            if x
        ]
    )
    info = CompetitionInfo(
        **spec.model_dump(include=set(INFO_FIELDS)) | {"id": cid, "name": name, "group": group}
    )
    if not (d.gold and d.runs):
        specs = metric_specs(spec.metrics, opts, base, path)
    comp = load.build(pieces, info, specs, spec.baselines)
    comp.files = opened
    comp.stream = stream_text(path, (entry.id if entry and entry.id else None) or spec.id)
    return comp, settings_of(spec.bootstrap, path)


def stream_text(path: str | Path, given_id: str | None) -> str:
    """The stable text a competition's random streams derive from (``Competition.stream``): the
    id the spec or the workshop gives, else the slug of the spec's folder's name (of the spec
    file's stem when it is not called ``competition.toml``): the id such a spec had when its
    ``name`` was not given. Never the display name, which a translation or a typo fix changes.

    >>> stream_text("tasks/hateiber/competition.toml", None), stream_text("tasks/es.toml", None)
    ('hateiber', 'es')
    >>> stream_text("tasks/hateiber/competition.toml", "hate-es")
    'hate-es'
    """
    if given_id:
        return given_id
    path = Path(os.path.abspath(path))
    return slug(path.parent.name if path.name == "competition.toml" else path.stem)


def _wide_only(reading: ReadOptions, where_: Path | str) -> None:
    """A wide table has a gold column and system columns: the options of run files do not apply."""
    for o in options.group(options.READING):
        if o.runs_only and getattr(reading, o.reads) not in (None, "", []):
            raise InputError(
                f"{where_}: {option(o.name)} applies to gold and run files ({option('runs')}), not "
                f"to a wide table (its gold column is {option('gold')})"
            )


#: File stems that say what a file holds, not which task: a gold file so named (``truth.txt``,
#: ``gold.tsv``, ``test.labels``) names its competition after its folder.
GENERIC_STEMS = frozenset(
    """answer answers data dev expected gold gold_labels gold_standard goldstandard ground_truth
    groundtruth key keys label labels ref reference references solution solutions target targets
    test test_labels truth y_true""".split()
)


def default_name(path: str | Path) -> str:
    """The name of the competition read from the gold file or table ``path`` when no name is given:
    its stem, or, when that stem is generic (:data:`GENERIC_STEMS`, in any case, ``-`` read as
    ``_``, leading and trailing ``_-.`` ignored), the name of the nearest folder holding it whose
    name is not generic (the stem if there is none).

    >>> default_name("semeval2018-task2/us_test.labels"), default_name("emoji-es/data/truth.txt")
    ('us_test', 'emoji-es')
    >>> default_name("arct/_gold/Test-Labels.tsv")
    'arct'
    """
    path = Path(path)

    def generic(name: str) -> bool:
        return name.lower().strip("_-. ").replace("-", "_") in GENERIC_STEMS

    if not generic(path.stem):
        return path.stem
    for folder in Path(os.path.abspath(path)).parents:
        if folder.name and not generic(folder.name):
            return folder.name
    return path.stem


#: The fields of runs read for ranking and label metrics at once (:func:`scores_beside_labels`).
SCORE_AND_LABEL = ("label", "score")


def scores_beside_labels(
    reading: ReadOptions, specs: list[MetricSpec], fields: list[str] | None, scored: bool
) -> tuple[ReadOptions, list[str] | None]:
    """The reading options and fields of runs that give a score (``scored``: ``--score-col``) for
    ranking metrics and a label for label metrics, when ``specs`` hold both kinds.

    The runs are then read as two fields (:data:`SCORE_AND_LABEL`): ``label`` from the label
    column (``--label-col``, as in the gold) and ``score`` from the score column; the gold gives
    both from its label column (the relevance is the gold label). The ranking metrics read the
    field ``score`` (their parameter ``field`` set, in place, unless given), the others ``label``,
    the first. Otherwise (only ranking metrics, fields of one's own, no single label column given)
    ``reading`` and ``fields`` are returned as they are.
    """
    kinds = {bool(getattr(s.metric, "ranks", False)) for s in specs if s.metric is not None}
    if (
        not scored
        or kinds != {True, False}
        or fields
        or reading.label_columns is None
        or len(reading.label_columns) != 1
        or reading.runs_label_columns is None
        or len(reading.runs_label_columns) != 1
    ):
        return reading, fields
    for s in specs:
        if getattr(s.metric, "ranks", False) and "field" not in s.params:
            s.params["field"] = SCORE_AND_LABEL[1]
    label, score = reading.label_columns[0], reading.runs_label_columns[0]
    both = dataclasses.replace(
        reading, label_columns=[label, label], runs_label_columns=[label, score]
    )
    return both, list(SCORE_AND_LABEL)


def _guarded(opts: Options, runs: str) -> str:
    """``runs``, once the caller's check (``opts.runs_guard``) let it be read."""
    if opts.runs_guard is not None:
        opts.runs_guard(str(runs))
    return runs


def _wide_or_runs(path: Path, opts: Options) -> Competition:
    """The competition of an INPUT that is not a spec: a wide table, or with ``opts.runs`` a gold
    file; named ``opts.name`` (default: :func:`default_name`), its metrics ``opts.metrics``."""
    reading = opts.reading()
    specs = metric_specs([], opts, None)
    if opts.runs:
        if opts.id is not None and reading.id_column is None:
            reading.id_column, reading.said = opts.id, reading.said | {"id_column": "id"}
        reading, fields = scores_beside_labels(reading, specs, None, opts.score_col is not None)
        reading = reading.check()
        pieces = load.read_runs(
            str(path), _guarded(opts, opts.runs), fields=fields, options=reading
        )
    else:
        _wide_only(reading, path)
        id_column, said = (
            (opts.id, option("id", opts.id))
            if reading.id_column is None
            else (reading.id_column, reading.named("id_column", reading.id_column))
        )
        pieces = load.read_wide(
            str(path),
            gold=opts.gold or "y",
            id_column=id_column,
            sep=reading.sep,
            missing=reading.missing,
            cluster_column=reading.cluster_column,
            id_said=said,
            names=reading.names,
            comments=reading.comments,
            baselines=reading.baselines,
            said=reading.said,
        )
    if not opts.metrics:
        raise InputError(
            f"{path}: no metric given; pass {option('metric', 'NAME')} "
            f"(`compreport metrics` lists them)"
        )
    name = opts.name or default_name(path)
    opened = [str(e["path"]) for e in pieces["inputs"]]
    absolute = [p for p in opened if os.path.isabs(p)]
    if absolute:  # recorded relative to the folder that holds them (relative ones as given)
        try:
            base = Path(os.path.commonpath([os.path.dirname(p) for p in absolute]))
        except ValueError:  # on different drives (Windows)
            base = None
        if base is not None and base.parent != base:  # not a file system's root: no common folder
            pieces = _relative(pieces, base, set(opened) - set(absolute))
    comp = load.build(pieces, CompetitionInfo(slug(name), name, group=[name]), specs)
    comp.files = opened
    comp.stream = slug(default_name(path))  # the id without --name, whatever --name says
    return comp


def _is_workshop_toml(path: Path) -> bool:
    """Whether the spec at ``path`` is a workshop: so named, or with ``[[competitions]]``."""
    return path.name == "workshop.toml" or "competitions" in read_toml(path)


def load_inputs(inputs: list[str], opts: Options) -> Loaded:
    """Read every INPUT into Competitions.

    Parameters
    ----------
    inputs : list of str
        The INPUTs (see the module docstring); with ``opts.runs``, the one gold file.
    opts : Options
        What the caller gave; every reading option is checked before any file is read.

    Returns
    -------
    Loaded
        The competitions and the specs' ``[bootstrap]`` settings, merged
        (:func:`~compreport.inputs.specmodels.merge_bootstrap`).

    Raises
    ------
    InputError
        Any problem with an input or an option, naming the file and the line, key or column; also
        two competitions with one id.
    """
    comps: list[Competition] = []
    boot_sources: list[tuple[str, dict]] = []
    workshop: dict = {}
    specs: list[str] = []
    if opts.runs and len(inputs) != 1:
        raise InputError(f"{option('runs')} takes exactly one input: the gold file")
    opts.reading()  # every reading option checked before any file is read
    for raw in inputs:
        path = Path(text_name(raw))
        if not path.exists():
            raise InputError(f"{raw}: no such file or directory")
        brat = bool(opts.runs) and path.is_dir() and detect_mentions(str(path)) == "brat"
        if path.is_dir() and not brat:
            if (path / "workshop.toml").is_file():
                path = path / "workshop.toml"
            elif (path / "competition.toml").is_file():
                path = path / "competition.toml"
            else:
                try:
                    entries = list(path.iterdir())
                except OSError as exc:
                    raise InputError(
                        f"{raw}: cannot list the directory ({os_reason(exc)})"
                    ) from None
                subs = sorted(
                    p / "competition.toml"
                    for p in entries
                    if p.is_dir() and (p / "competition.toml").is_file()
                )
                if not subs:
                    raise InputError(
                        f"{raw}: directory holds no workshop.toml, competition.toml or competition "
                        f"folders"
                    )
                for sub in subs:
                    specs.append(str(sub))
                    comp, boot = load_competition_spec(sub, opts)
                    comps.append(comp)
                    boot_sources.append((str(sub), boot))
                continue
        if is_spec(path) and not brat:  # a brat gold folder is a gold, not a folder of specs
            specs.append(str(path))
            if _is_workshop_toml(path):
                ws: WorkshopSpec = validate_model(WorkshopSpec, read_toml(path), path)
                workshop = {"name": ws.name, "year": ws.year, "description": ws.description}
                ws_settings = settings_of(ws.bootstrap, path)
                if ws_settings:
                    boot_sources.insert(0, (str(path), {"workshop": True, **ws_settings}))
                for entry in ws.competitions:
                    sub = Path(_resolve(path.parent, entry.spec))
                    if sub.is_dir():
                        sub = sub / "competition.toml"
                    specs.append(str(sub))
                    comp, boot = load_competition_spec(sub, opts, entry)
                    comps.append(comp)
                    boot_sources.append((str(sub), boot))
            else:
                comp, boot = load_competition_spec(path, opts)
                comps.append(comp)
                boot_sources.append((str(path), boot))
        else:
            comp = _wide_or_runs(path, opts)
            check_id(comp.id, path)
            comps.append(comp)
    seen: dict[str, str] = {}
    for c in comps:
        if c.id in seen:
            raise InputError(
                f"competition id {c.id!r} is used twice ({seen[c.id]!r} and {c.name!r}); "
                f"set `id` in the spec"
            )
        seen[c.id] = c.name
    origins: dict = {}
    merged = merge_bootstrap(boot_sources, origins)
    return Loaded(comps, merged, workshop, specs, origins)
