"""Result objects of an analysis: numbers *and* the decisions taken from them, stored once.

Every verdict a report states (significantly different or not, significance group, interval
excluding zero, tie with the best, rank, best) is decided by :mod:`compreport.stats.analysis`
and stored here; renderers only read these fields. results.json is :meth:`Analysis.to_dict`,
and :meth:`Analysis.from_dict` reads it back.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from compreport._version import __version__
from compreport.errors import InputError, suggest
from compreport.inputs.competition import INFO_FIELDS, CompetitionInfo
from compreport.settings import Settings
from compreport.stats import (
    frames,
)  # DataFrames and notebook HTML; pandas is imported inside its functions
from compreport.stats.jsonvalues import dataclass_from, json_ready
from compreport.stats.verdicts import Comparison, Score

__all__ = ["Analysis", "Comparison", "CompetitionAnalysis", "MetricAnalysis", "Score"]


@dataclass
class MetricAnalysis:
    """Everything about one metric of one competition.

    Attributes
    ----------
    scores : list of Score
        Best first (rank order; exact ties keep input order).
    best : str
        The first best system (the best participant; see ``Settings.include_baselines``).
    vs_best : list of Comparison
        The best against every other system, in rank order.
    pairs : list of Comparison
        Every pair (a above b) in rank order.
    verdicts : dict
        The rule behind every verdict: ``alpha``, ``correction``, ``family``.
    competitiveness : dict
        The paper's Table 6 summary (:func:`compreport.stats.competitiveness.competitiveness`).
    replicates : ndarray (B, m) or None
        Bootstrap replicates by system in input order (not stored in results.json).
    """

    name: str
    params: dict
    higher_is_better: bool
    ideal: float | None
    primary: bool
    best: str
    scores: list[Score]
    vs_best: list[Comparison]
    pairs: list[Comparison]
    competitiveness: dict
    verdicts: dict = field(default_factory=dict)
    replicates: np.ndarray | None = field(default=None, repr=False)
    systems: list[str] = field(default_factory=list, repr=False)

    @property
    def runner_up(self) -> str | None:
        """The best system after the best ones (the first comparison with the best that is not a tie
        for best), or None."""
        return next((c.b for c in self.vs_best if not self.score_of(c.b).is_best), None)

    def score_of(self, system: str) -> Score:
        """The :class:`Score` of ``system`` (KeyError if unknown)."""
        for s in self.scores:
            if s.system == system:
                return s
        raise KeyError(f"metric {self.name!r} has no system {system!r}")

    def pair(self, a: str, b: str) -> tuple[Comparison, bool]:
        """The stored comparison of ``a`` and ``b`` and whether it is stored as (b, a)."""
        index = self.__dict__.get("_pair_index")
        if index is None or len(index) != len(self.pairs):  # built once (a team sheet asks m times)
            index = self.__dict__["_pair_index"] = {(c.a, c.b): c for c in self.pairs}
        if (a, b) in index:
            return index[a, b], False
        if (b, a) in index:
            return index[b, a], True
        raise KeyError(f"metric {self.name!r}: no comparison of {a!r} and {b!r}")

    def difference_replicates(self, a: str, b: str) -> np.ndarray:
        """Bootstrap replicates (B,) of the oriented difference ``a - b`` (positive: ``a`` better).

        Raises :class:`~compreport.errors.InputError` (a ``ValueError``) when the replicates are not
        held (an analysis read back from results.json) or a system is unknown.
        """
        if self.replicates is None:
            raise InputError(
                f"metric {self.name!r}: no bootstrap replicates (they are not stored in "
                f"results.json; run the analysis to get them)"
            )
        for s in (a, b):
            if s not in self.systems:
                raise InputError(
                    f"metric {self.name!r}: unknown system {s!r}{suggest(s, self.systems)}"
                )
        sign = 1.0 if self.higher_is_better else -1.0
        ia, ib = self.systems.index(a), self.systems.index(b)
        return sign * (self.replicates[:, ia] - self.replicates[:, ib])

    def to_dict(self) -> dict:
        """This metric's entry of results.json."""
        return {
            "name": self.name,
            "params": self.params,
            "higher_is_better": self.higher_is_better,
            "ideal": self.ideal,
            "primary": self.primary,
            "best": self.best,
            "verdicts": self.verdicts,
            "scores": [asdict(s) | {"ties_with_best": s.ties_with_best} for s in self.scores],
            "vs_best": [
                {"system": c.b} | {k: v for k, v in asdict(c).items() if k not in ("a", "b")}
                for c in self.vs_best
            ],
            "pairs": [asdict(c) for c in self.pairs],
            "competitiveness": self.competitiveness,
        }

    @classmethod
    def from_dict(cls, d: dict) -> MetricAnalysis:
        """Read back :meth:`to_dict` (replicates are not stored)."""
        best = d["best"]
        return cls(
            name=d["name"],
            params=d["params"],
            higher_is_better=d["higher_is_better"],
            ideal=d.get("ideal"),
            primary=d["primary"],
            best=best,
            scores=[dataclass_from(Score, s) for s in d["scores"]],
            vs_best=[
                dataclass_from(Comparison, c | {"a": best, "b": c["system"]}) for c in d["vs_best"]
            ],
            pairs=[dataclass_from(Comparison, c) for c in d["pairs"]],
            competitiveness=d["competitiveness"],
            verdicts=d.get("verdicts", {}),
        )


@dataclass
class CompetitionAnalysis(CompetitionInfo):
    """One competition: its metadata (:class:`~compreport.inputs.competition.CompetitionInfo`),
    systems and one :class:`MetricAnalysis` per metric (primary first).

    Attributes
    ----------
    n : int
        Number of test items.
    systems, baselines : list of str
        Every system in input order, and those that are baselines.
    metrics : list of MetricAnalysis
        The primary (ranking) metric first.
    inputs : list of dict
        ``{"path", "sha256"}`` of every file read.
    warnings : list of str
        Problems that did not stop the analysis.
    engine : dict
        How the resamples were drawn (``resampling``: ``items`` or ``patterns``; ``patterns``;
        ``block_replicates``) and how replicate statistics were summed (``statistics``: ``dense``,
        the matrix product over patterns, or ``cells``, per (gold, predicted) cell of each system;
        ``items`` when no metric has per-item statistics).
    teams : dict
        System -> its team (run folder, ``Team.NN`` stem or names file), or None.
    missing : dict
        System -> items without a prediction, scored as wrong answers (``--missing wrong``).
    classes : dict or None
        For a competition ranked by a classification metric, the best system's confusion matrix and
        per-class precision, recall, F1 and support (:func:`compreport.stats.classes.per_class`).
    clusters : dict or None
        The cluster bootstrap's unit, ``{"column", "clusters", "items"}``
        (:meth:`compreport.inputs.clusters.Clusters.describe`); None when the items are resampled.
    """

    n: int
    systems: list[str]
    baselines: list[str]
    metrics: list[MetricAnalysis]
    inputs: list[dict] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    engine: dict = field(default_factory=dict)
    teams: dict = field(default_factory=dict)
    missing: dict = field(default_factory=dict)
    classes: dict | None = None
    clusters: dict | None = None

    @property
    def primary(self) -> MetricAnalysis:
        """The ranking metric."""
        return self.metrics[0]

    def metric(self, name: str | None = None) -> MetricAnalysis:
        """The metric called ``name`` (the primary one when None); KeyError naming the choices."""
        if name is None:
            return self.primary
        for ma in self.metrics:
            if ma.name == name:
                return ma
        names = [ma.name for ma in self.metrics]
        raise InputError(
            f"competition {self.id!r} has no metric {name!r}{suggest(name, names)}; "
            f"metrics: {', '.join(names)}"
        )

    def to_dict(self) -> dict:
        """This competition's entry of results.json."""
        out = self.metadata()
        out.update(
            n=self.n,
            systems=self.systems,
            baselines=self.baselines,
            teams=self.teams,
            missing=self.missing,
            metrics=[ma.to_dict() for ma in self.metrics],
            inputs=self.inputs,
            warnings=self.warnings,
            engine=self.engine,
            classes=self.classes,
            clusters=self.clusters,
        )
        return out

    @classmethod
    def from_dict(cls, d: dict) -> CompetitionAnalysis:
        """Read back :meth:`to_dict`."""
        kw = {k: d.get(k) for k in INFO_FIELDS}
        return cls(
            **kw,
            n=d["n"],
            systems=d["systems"],
            baselines=d["baselines"],
            metrics=[MetricAnalysis.from_dict(x) for x in d["metrics"]],
            inputs=d.get("inputs", []),
            warnings=d.get("warnings", []),
            engine=d.get("engine", {}),
            teams=d.get("teams", {}),
            missing=d.get("missing", {}),
            classes=d.get("classes"),
            clusters=d.get("clusters"),
        )


@dataclass
class Analysis:
    """Settings plus one :class:`CompetitionAnalysis` per competition; serialises to results.json.

    Attributes
    ----------
    settings : Settings
        The settings every number and verdict was computed under.
    competitions : list of CompetitionAnalysis
        In input order.
    workshop : dict
        ``name``, ``year``, ``description`` of the workshop (empty for loose competitions).
    version : str
        compreport version that computed it.
    sources : list of str
        Files read besides the data files of ``competitions[].inputs`` (specs, user metric
        files), so that :meth:`~compreport.report.Report.write` refuses to write over them; not
        stored in results.json.
    scanned : list of str
        The runs folders and globs read, which :meth:`~compreport.report.Report.write` refuses to
        write into (the next run would read the report as runs); not stored in results.json.
    """

    settings: Settings
    competitions: list[CompetitionAnalysis]
    version: str = __version__
    workshop: dict = field(default_factory=dict)
    sources: list[str] = field(default_factory=list, repr=False, compare=False)
    scanned: list[str] = field(default_factory=list, repr=False, compare=False)

    def competition(self, id: str | None = None) -> CompetitionAnalysis:
        """The competition ``id``; None is allowed when there is only one."""
        if id is None:
            if len(self.competitions) != 1:
                raise InputError(
                    f"{len(self.competitions)} competitions: name one with competition= "
                    f"({', '.join(c.id for c in self.competitions)})"
                )
            return self.competitions[0]
        for c in self.competitions:
            if c.id == id:
                return c
        ids = [c.id for c in self.competitions]
        raise InputError(
            f"no competition {id!r}{suggest(str(id), ids)}; competitions: {', '.join(ids)}"
        )

    def to_dict(self) -> dict:
        """The results.json contract: JSON-ready (NaN/inf as None, numpy scalars as Python)."""
        return json_ready(
            {
                "tool": {"name": "compreport", "version": self.version},
                "settings": self.settings.to_dict(),
                "workshop": self.workshop,
                "competitions": [c.to_dict() for c in self.competitions],
            }
        )

    def to_json(self) -> str:
        """results.json text (UTF-8, one space indent, trailing newline)."""
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False, allow_nan=False) + "\n"

    @classmethod
    def from_dict(cls, d: dict) -> Analysis:
        """Read back :meth:`to_dict` (bootstrap replicates are not stored)."""
        return cls(
            Settings.from_dict(d["settings"]),
            [CompetitionAnalysis.from_dict(c) for c in d["competitions"]],
            d["tool"]["version"],
            d.get("workshop") or {},
        )

    @classmethod
    def read(cls, path: str | Path) -> Analysis:
        """Read a results.json file."""
        return cls.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))

    # ----------------------------------------------------------------- tables (compreport.stats.frames)

    def leaderboard(self, metric: str | None = None, competition: str | None = None):
        """The ranking of one competition under one metric, best first, with the stored verdicts.

        Parameters
        ----------
        metric : str, optional
            Metric name (default: the primary, ranking metric).
        competition : str, optional
            Competition id; may be omitted when the analysis holds one competition.

        Returns
        -------
        pandas.DataFrame
            Columns ``rank``, ``system``, ``baseline``, ``score``, ``ci_low``, ``ci_high``,
            ``group`` (significance letters), ``is_best``, ``differs_from_best`` (None for a best
            system or without resamples) and ``p_vs_best`` (the p-value behind it). ``attrs``
            names the ``competition``, the ``metric`` and the ``verdicts`` rule.
        """
        return frames.leaderboard(self, metric, competition)

    def pairs(self, metric: str | None = None, competition: str | None = None):
        """Every pair of systems of one competition under one metric, in rank order.

        Parameters
        ----------
        metric, competition : str, optional
            As for :meth:`leaderboard`.

        Returns
        -------
        pandas.DataFrame
            Columns ``system_a``, ``system_b`` (ranked above or level), ``diff`` (positive:
            ``system_a`` better), ``ci_low``, ``ci_high``, ``p_raw``, ``p_adjusted`` and
            ``significant`` (the stored verdict; NaN/None for a pair the family does not test),
            ``excludes_zero``, ``p_bonferroni``, ``p_holm``, ``p_bh``, ``p_maxt``.
        """
        return frames.pairs(self, metric, competition)

    def competitiveness(self):
        """The paper's competitiveness summary (Table 6), one row per competition (primary metric).

        Returns
        -------
        pandas.DataFrame
            ``id``, ``name``, ``metric``, ``n``, ``m``, ``possible_comparisons``, ``ties_with_winner_<c>``
            and ``ties_<c>`` (<c>: none, bonferroni, holm, bh, maxt), ``win_minus_median``, ``cv``, ``ppi``,
            ``ppi_unit``.
        """
        return frames.competitiveness(self)

    def _repr_html_(self) -> str:
        return frames.to_html(self)

    def __repr__(self) -> str:
        ids = [c.id for c in self.competitions]
        s = self.settings
        return (
            f"<Analysis: {len(ids)} competition(s) ({', '.join(ids[:5])}{', ...' if len(ids) > 5 else ''}); "
            f"B = {s.bootstrap}, seed = {s.seed}, alpha = {s.alpha:g}, {s.correction} over {s.family}>"
        )
