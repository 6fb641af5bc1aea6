"""The pydantic models of ``competition.toml`` and ``workshop.toml`` (unknown keys are errors that
suggest the closest key), and how ``[bootstrap]`` tables map onto
:class:`~compreport.settings.Settings` (:func:`settings_of`, :func:`merge_bootstrap`)."""

from __future__ import annotations

import dataclasses
import typing
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, create_model

from compreport.errors import InputError, overriding, raw
from compreport.inputs.competition import CompetitionInfo
from compreport.inputs.tomlfile import where
from compreport.options import SETTINGS, data_keys, runs_keys
from compreport.settings import validate


class _Strict(BaseModel):
    """A table whose unknown keys are errors, and whose values are not converted."""

    # true is not 1, 1.0 is not a column, "2021" is not a year
    model_config = ConfigDict(extra="forbid", strict=True)


RunsSpec = create_model(
    "RunsSpec",
    __base__=_Strict,
    path=(str, ...),
    **{k: (t, None) for k, t in runs_keys().items()},
    __doc__=(
        "``[data.runs]``: the runs' ``path`` and, when they differ from the gold's, their own id "
        "and label columns, under the ``[data]`` keys of those options "
        "(:func:`compreport.options.runs_keys`)."
    ),
)


class _DataFiles(_Strict):
    """The keys of ``[data]`` that name the files and columns of a competition: ``table`` (wide
    layout) or ``gold`` + ``runs`` (a folder or glob, or a ``[data.runs]`` table), the wide
    table's ``gold_column`` and ``id_column``, and the ``fields`` of multi-field labels."""

    table: str | None = None
    gold: str | None = None
    runs: str | RunsSpec | None = None
    gold_column: str = "y"
    id_column: str | None = None
    fields: list[str] | None = None


DataSpec = create_model(
    "DataSpec",
    __base__=_DataFiles,
    **{k: (t, None) for k, t in data_keys().items() if k not in _DataFiles.model_fields},
    __doc__=(
        "``[data]``: the keys of :class:`_DataFiles`, then one key per reading option of the "
        "schema (:func:`compreport.options.data_keys`: ``sep``, the columns, "
        "``cluster``/``query_col``, ...), which the same option given on the command line or to "
        ":func:`compreport.load` overrides (globs of ``exclude`` and ``baselines`` add up)."
    ),
)


class NamesSpec(_Strict):
    """``[names]``: ``file``, the names file (``--names``)."""

    file: str


#: ``[bootstrap]`` key -> Settings field, from the option schema
#: (:data:`compreport.options.SETTINGS`).
_SETTING_OF_KEY = MappingProxyType(
    {
        o.spec.removeprefix("[bootstrap] "): field
        for field, o in SETTINGS.items()
        if o.spec and o.spec.startswith("[bootstrap] ")
    }
)

BootstrapSpec = create_model(
    "BootstrapSpec",
    __base__=_Strict,
    **{key: (Any, None) for key in _SETTING_OF_KEY},
    __doc__=(
        "``[bootstrap]``: one key per statistics option of the schema (resamples, seed, alpha, "
        "ci, test, family, correction, include_baselines, paper, refine; paper: the paper's "
        "settings at once, :data:`compreport.settings.PAPER`). Values are checked by "
        ":func:`compreport.settings.validate` (see :func:`settings_of`), the one validation the "
        "API and the CLI use too."
    ),
)

#: Settings field -> ``[bootstrap]`` key, as messages name it.
_KEY_OF_SETTING = MappingProxyType({v: k for k, v in _SETTING_OF_KEY.items()})


def settings_of(boot: BootstrapSpec, path: Path) -> dict:
    """The ``[bootstrap]`` values given in ``path`` as validated Settings fields.

    An invalid value raises :class:`InputError` naming the file, the key's line when found,
    ``[bootstrap] <key>``, the value and the allowed values.
    """
    out: dict = {}
    for key, value in boot.model_dump(exclude_none=True).items():
        try:
            out |= validate({_SETTING_OF_KEY[key]: value}, "spec")
        except InputError as exc:
            raise InputError(f"{where(path, ('bootstrap', key))}: {raw(exc)}") from None
    return out


def merge_bootstrap(sources: list[tuple[str, dict]], origins: dict | None = None) -> dict:
    """One run's settings from the specs' ``[bootstrap]`` tables: the workshop's win; otherwise
    the competitions must agree on each setting.

    Parameters
    ----------
    sources : list of (str, dict)
        Each spec read and its :func:`settings_of`; the workshop's dict holds ``"workshop": True``,
        which is popped.
    origins : dict, optional
        Filled with Settings field -> (``[bootstrap] <key>``, the spec and line that gives it),
        for messages (:func:`~compreport.language.caller.from_specs`, at the edge).

    Raises
    ------
    InputError
        Two competitions giving one setting different values, naming both specs.
    """
    merged: dict = {}
    origin: dict = {}
    for src, boot in sources:
        is_ws = boot.pop("workshop", False)
        for k, v in boot.items():
            if is_ws:
                merged[k], origin[k] = v, "workshop"
            elif origin.get(k) == "workshop":
                continue
            elif k in merged and merged[k] != v:
                raise InputError(
                    f"{src}: [bootstrap] {_KEY_OF_SETTING[k]} = {v} differs from {merged[k]} in "
                    f"{origin[k]}; one run uses one setting: pass it {overriding()} to override"
                )
            else:
                merged[k], origin[k] = v, src
            if origins is not None and origin.get(k) in (src, "workshop"):
                key = _KEY_OF_SETTING[k]
                origins[k] = (f"[bootstrap] {key}", where(Path(src), ("bootstrap", key)))
    return merged


class MetricEntry(BaseModel):
    """``[[metrics]]``: ``name`` plus the metric's parameters (checked by the metric)."""

    model_config = ConfigDict(extra="allow")
    name: str


#: Metadata keys a spec may leave out: they are derived from the folder name and the other keys.
_DERIVED = ("id", "name", "group")


def _metadata_keys() -> dict:
    """The :class:`CompetitionInfo` fields as pydantic field definitions (type, default)."""
    hints = typing.get_type_hints(CompetitionInfo)
    keys = {}
    for f in dataclasses.fields(CompetitionInfo):
        if f.name in _DERIVED:
            keys[f.name] = (hints[f.name] | None, None)
        else:
            keys[f.name] = (hints[f.name], f.default)
    return keys


MetadataSpec = create_model(
    "MetadataSpec",
    __base__=_Strict,
    **_metadata_keys(),
    __doc__=(
        "The metadata keys of ``competition.toml``, made from the fields of "
        ":class:`CompetitionInfo`."
    ),
)


class CompetitionSpec(MetadataSpec):
    """``competition.toml``: the metadata keys of :class:`CompetitionInfo`, ``baselines``,
    ``description``, ``[data]``, ``[[metrics]]`` and ``[bootstrap]``."""

    baselines: list[str] = []
    description: str = ""
    data: DataSpec
    names: NamesSpec | None = None
    metrics: list[MetricEntry] = []
    bootstrap: BootstrapSpec = BootstrapSpec()


class WorkshopEntry(_Strict):
    """``[[competitions]]`` of a workshop: the competition spec and optional overrides."""

    spec: str
    id: str | None = None
    group: list[str] | None = None


class WorkshopSpec(_Strict):
    """``workshop.toml``: ``name``, ``year``, ``description``, ``[bootstrap]`` and
    ``[[competitions]]``."""

    name: str = ""
    year: int | None = None
    description: str = ""
    bootstrap: BootstrapSpec = BootstrapSpec()
    competitions: list[WorkshopEntry] = Field(
        min_length=1,
        json_schema_extra={
            "example": "a table per competition, the line [[competitions]] then "
            'spec = "detox" (its folder or its competition.toml)'
        },
    )
