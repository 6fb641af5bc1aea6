"""The validated arrays of one competition: gold labels and every system's predictions."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


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
        How each field is named in that file (a header name or ``column 2``).
    """

    path: str
    lines: np.ndarray = field(repr=False)
    columns: list[str]

    def locate(self, item: int, field_index: int = 0) -> str:
        return f"{self.path}, line {int(self.lines[item])}, {self.columns[field_index]}"


@dataclass
class MetricSpec:
    """A metric named by the user, with its parameters (``pos_label``, ``labels``, ...)."""

    name: str
    params: dict = field(default_factory=dict)
    base: str | None = None  # directory that a user metric's relative path is resolved against


@dataclass
class Competition:
    """One ranked evaluation with one gold standard.

    Attributes
    ----------
    gold : ndarray of str, shape (n, F)
        Gold values, one column per field (``F == 1`` for ordinary tasks).
    predictions : ndarray of str, shape (m, n, F)
        Every system's predictions, aligned with ``gold`` by item id.
    systems : list of str
        System names (``team.run`` or run-file stems), in input order.
    fields : list of str
        Field names; ``["label"]`` unless predictions have several fields.
    metrics : list of MetricSpec
        The first is the primary (ranking) metric.
    """

    id: str
    name: str
    gold: np.ndarray = field(repr=False)
    predictions: np.ndarray = field(repr=False)
    systems: list[str]
    item_ids: np.ndarray = field(repr=False)
    metrics: list[MetricSpec]
    fields: list[str] = field(default_factory=lambda: ["label"])
    year: int | None = None
    challenge: str = ""
    task: str = ""
    subtask: str = ""
    language: str = ""
    group: list[str] = field(default_factory=list)
    baselines: list[str] = field(default_factory=list)
    inputs: list[dict] = field(default_factory=list)
    gold_source: Source | None = field(default=None, repr=False)
    system_sources: list[Source] = field(default_factory=list, repr=False)
    warnings: list[str] = field(default_factory=list)
    settings: dict = field(default_factory=dict)

    @property
    def n(self) -> int:
        return int(self.gold.shape[0])

    @property
    def m(self) -> int:
        return len(self.systems)

    def locate(self, system: int | None, item: int, field_index: int = 0) -> str:
        """Describe where a value sits: ``file, line L, column C`` (``system=None`` for gold)."""
        src = self.gold_source if system is None else self.system_sources[system]
        if src is None:
            return f"item {self.item_ids[item]!r}"
        return src.locate(item, field_index)
