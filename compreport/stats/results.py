"""Result objects of an analysis: numbers *and* the decisions taken from them, stored once.

Every verdict a report states (significantly different or not, significance group, interval
excluding zero, tie with the best, rank, best) is decided by :mod:`compreport.stats.analysis`
and stored here; renderers only read these fields. results.json is :meth:`Analysis.to_dict`,
and :meth:`Analysis.from_dict` reads it back.

:class:`Analysis` holds one :class:`CompetitionAnalysis` per competition, which holds one
:class:`MetricAnalysis` per metric, which holds a :class:`Score` per system and a
:class:`Comparison` per pair of systems.
"""

from __future__ import annotations

import json
import os
import platform
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from types import MappingProxyType

import numpy as np

from compreport._version import __version__
from compreport.errors import InputError, raw, spoken, suggest
from compreport.inputs.competition import INFO_FIELDS, CompetitionInfo
from compreport.settings import Settings
from compreport.stats import frames, ranking  # tables and notebook HTML; pandas is imported inside
from compreport.stats.jsonvalues import dataclass_from, json_ready

__all__ = [
    "Analysis",
    "BaselineVerdict",
    "Comparison",
    "CompetitionAnalysis",
    "MetricAnalysis",
    "Score",
    "TeamRank",
]


@dataclass
class Score:
    """One system under one metric: its score, interval, rank, group and verdict against the best.

    Attributes
    ----------
    system : str
        System name.
    score : float
        The metric on the full test set, in the metric's units (NaN when undefined, e.g. a
        correlation of constant predictions).
    boot_mean, se : float
        Mean and standard deviation (ddof=1) of the bootstrap replicates (NaN when B = 0).
    ci_low, ci_high : float
        Confidence interval at level 1 - alpha by ``Settings.ci_method`` (NaN when B = 0).
    rank : int
        Competition rank by the exact score (ties share a rank: 1, 2, 2, 4).
    group : str
        Significance-group letters: systems sharing a letter are not significantly different.
        Empty for a system none of whose comparisons is tested.
    is_best : bool
        The score equals the best competing system's exactly (several systems when they tie); a
        baseline that does not compete is never best.
    differs_from_best : bool or None
        Significantly different from the best under the report's correction and family. None for
        a best system, a baseline that does not compete, a comparison that is not tested (B = 0,
        an undefined score), and an undecided one (``settled_vs_best`` False).
    p_vs_best : float
        The p-value behind ``differs_from_best`` (``Comparison.p_adjusted``; NaN where
        ``differs_from_best`` is None).
    settled_vs_best : bool or None
        The verdict against the best would be the same for any p-values within the Monte-Carlo
        error of the family's (see :attr:`Comparison.settled`); False: undecided. None for a best
        system, a baseline that does not compete and a comparison that is not tested.
    rank_low, rank_high : int or None
        The rank's confidence set ``rank_low..rank_high``, simultaneous at 1 - alpha: with
        probability about 1 - alpha every system's true rank lies in its set at once (Mogstad et
        al. 2024; :mod:`compreport.stats.ranksets`). Ranks count every system with a defined
        score, baselines included, as ``rank`` does; ``rank_low <= rank <= rank_high``. None for
        an undefined score or without resamples (B < 2).

    Examples
    --------
    >>> from compreport.stats.results import Score
    >>> s = Score("team.01", 0.81, 0.809, 0.012, 0.786, 0.832, rank=2, group="ab",
    ...           differs_from_best=False, p_vs_best=0.21)
    >>> s.ties_with_best
    True
    """

    system: str
    score: float
    boot_mean: float
    se: float
    ci_low: float
    ci_high: float
    rank: int
    group: str = ""
    is_best: bool = False
    differs_from_best: bool | None = None
    p_vs_best: float = float("nan")
    settled_vs_best: bool | None = None
    rank_low: int | None = None
    rank_high: int | None = None

    @property
    def ties_with_best(self) -> bool | None:
        """Not significantly different from the best: the negation of ``differs_from_best``
        (None where that is None)."""
        return None if self.differs_from_best is None else not self.differs_from_best

    @property
    def undecided(self) -> bool:
        """The verdict against the best is within the Monte-Carlo error of its p-values: neither
        significant nor tied (``settled_vs_best`` False)."""
        return self.settled_vs_best is False


@dataclass
class Comparison:
    """Oriented difference ``a - b`` (positive: ``a`` better) with its CI, p-values and verdict.

    The same pair has the same numbers in :attr:`MetricAnalysis.vs_best` and in
    :attr:`MetricAnalysis.pairs`, whatever the family.

    Attributes
    ----------
    a, b : str
        The two systems; ``a`` ranks above (or level with) ``b``.
    diff : float
        Observed difference, oriented so that positive means ``a`` is better for any metric.
    ci_low, ci_high : float
        Uncorrected confidence interval of the difference at level 1 - alpha.
    p_value : float
        Raw p-value of ``settings.test`` (two-sided bootstrap, Berg-Kirkpatrick's one-sided
        bootstrap, or approximate randomization).
    p_bonferroni, p_holm, p_bh : float
        Corrected over ``settings.family`` (``vs-best``: over all pairs, since the best is chosen
        on the same data); NaN outside it.
    p_maxt : float
        Max-T step-down adjusted p-value over ``settings.family`` (:mod:`compreport.stats.maxt`);
        NaN outside it and when the test is not ``bootstrap``.
    excludes_zero : bool
        The interval excludes 0 (False when it is undefined).
    p_adjusted : float
        The p-value behind ``significant``: ``settings.correction`` over ``settings.family``
        (raw when the correction is ``none``); NaN when the pair is not tested.
    significant : bool or None
        ``p_adjusted < alpha`` when the verdict is settled; None when the pair is not tested
        (pairs without the best under ``vs-best``), the p-value is undefined, or the verdict is
        undecided (``settled`` False).
    p_se : float
        Monte-Carlo standard error of the p-value that decides: under max-T of ``p_maxt`` (=
        ``p_adjusted``), estimated by batch means over the resamples behind it
        (:meth:`compreport.stats.maxt.StepDown.standard_error`; never 0); under the other
        corrections of ``p_value``, binomial over its R resamples
        (:mod:`compreport.stats.montecarlo`), from which the corrected p-value is a fixed function
        of the family's. NaN without resamples.
    settled : bool or None
        The verdict ``p_adjusted < alpha`` holds for every p-value of the family within its
        Monte-Carlo confidence bounds (the MMCTest classification, Gandy & Hahn 2014). False:
        undecided, more resamples could change it (``significant`` is then None). None when the
        pair is not tested.
    mark : str
        Significance mark of ``p_adjusted`` by the thresholds below alpha and alpha itself
        (:func:`compreport.language.vocabulary.marks_at`: ``***``, ``**``, ``*``, ``†``); ``""``
        when not significant or undecided.
    """

    a: str
    b: str
    diff: float
    ci_low: float
    ci_high: float
    p_value: float
    p_bonferroni: float
    p_holm: float
    p_bh: float
    p_maxt: float = float("nan")
    excludes_zero: bool = False
    p_adjusted: float = float("nan")
    significant: bool | None = None
    p_se: float = float("nan")
    settled: bool | None = None
    mark: str = ""

    @property
    def undecided(self) -> bool:
        """The verdict is within the Monte-Carlo error of the family's p-values (``settled``
        False): reported as neither significant nor not."""
        return self.settled is False


@dataclass
class BaselineVerdict:
    """Whether one participant beats one named baseline under one metric, decided once by the
    analysis from the stored verdict of their pair (:attr:`MetricAnalysis.vs_baselines`).

    Attributes
    ----------
    system : str
        The participant (a system that is not a baseline).
    baseline : str
        The baseline (one of the competition's ``baselines``).
    diff : float
        ``system - baseline`` in the metric's units, oriented so that positive means the
        participant is better for any metric (NaN when a score is undefined).
    p_value : float
        The p-value that decided: the pair's ``Comparison.p_adjusted`` (the report's correction
        over the report's family); NaN when the pair is not tested.
    significant : bool or None
        The pair's stored verdict (``Comparison.significant``), in either direction: True with a
        negative ``diff`` means significantly worse than the baseline.
    beats : bool or None
        Significantly better than the baseline: ``significant`` and ``diff > 0``. None when the
        family does not test the pair (``vs-best``, B = 0, an undefined score).
    settled : bool or None
        The pair's ``Comparison.settled`` (the verdict survives the Monte-Carlo error).
    family : str
        The family the verdict comes from (``settings.family``): ``vs-baseline`` when the
        correction ran over the participants x baselines comparisons only, else ``all-pairs``,
        ``per-row`` or ``vs-best``.

    Examples
    --------
    >>> v = BaselineVerdict("team.01", "majority", 0.12, 0.003, True, True, True, "vs-baseline")
    >>> v.beats, v.worse
    (True, False)
    """

    system: str
    baseline: str
    diff: float
    p_value: float = float("nan")
    significant: bool | None = None
    beats: bool | None = None
    settled: bool | None = None
    family: str = "all-pairs"

    @property
    def worse(self) -> bool | None:
        """Significantly worse than the baseline (None where ``significant`` is None)."""
        return None if self.significant is None else bool(self.significant and self.diff < 0)


#: The field names of Score and Comparison, in order.
_FIELDS = MappingProxyType({cls: tuple(f.name for f in fields(cls)) for cls in (Score, Comparison)})


def _flat(obj) -> dict:
    """The fields of a :class:`Score` or :class:`Comparison` as a dict, in field order: what
    :func:`dataclasses.asdict` gives for their scalar fields, without its deep copies (a few
    seconds per 100,000 pairs)."""
    return {name: getattr(obj, name) for name in _FIELDS[type(obj)]}


@dataclass
class MetricAnalysis:
    """Everything about one metric of one competition: scores, comparisons and verdicts.

    Attributes
    ----------
    name : str
        The metric's name (a registry name, ``map@10``, or ``file.py:function``).
    params : dict
        Its parameters after validation and defaults (``pos_label``, ``labels``, ...).
    higher_is_better : bool
        Orientation of the scores.
    ideal : float or None
        The best possible score (None: unbounded or unknown).
    primary : bool
        The competition is ranked by this metric.
    best : str
        The first best system (the best participant; see ``Settings.include_baselines``).
    scores : list of Score
        Best first (rank order; exact ties keep input order; undefined scores last).
    vs_best : list of Comparison
        The best against every other competing system, in rank order.
    pairs : list of Comparison
        Every pair (``a`` ranked above ``b``) in rank order.
    competitiveness : dict
        The paper's Table 6 summary (:func:`compreport.stats.competitiveness.competitiveness`).
    verdicts : dict
        The rule behind every verdict and what it can decide: ``alpha``, ``correction`` and
        ``family`` (the settings'); ``tested``, the comparisons the family tests; ``resamples``,
        the resamples behind every p-value (B, or more after refinement); ``min_p``, the smallest
        p-value any comparison can reach after the correction with them (NaN without resamples
        or comparisons); ``marks``, the ``[threshold, mark]`` pairs of the significance marks;
        ``can_reject``, ``min_p < alpha`` (None when ``min_p`` is NaN; when False, every system
        shares one group and ties with the best whatever the data); ``b_needed``, when
        ``can_reject`` is False, the smallest B with which some comparison could reach alpha
        (counting refinement's ``REFINE_FACTOR`` x B when it is on), else None; ``may_settle``,
        whether more resamples may settle a verdict that is unsettled now;
        ``undefined_replicates``, the replicates left out because the metric is undefined on them;
        and ``undecided``, the verdicts of the family that are not settled (``settled`` False).
    replicates : ndarray (B, m) or None
        Bootstrap replicates, one column per system of ``systems`` (not stored in results.json:
        None when read back).
    vs_baselines : list of BaselineVerdict
        Whether each participant beats each named baseline, participants in rank order, baselines
        in the competition's order (empty without baselines); read from :attr:`pairs`, so its
        family is the report's (``vs-baseline``: those comparisons only).
    systems : list of str
        The systems in input order, the columns of ``replicates`` (empty when read back).
    rank_better : ndarray of bool (m, m) or None
        ``rank_better[j, k]``: system ``systems[j]`` is found better than ``systems[k]`` by the
        rank sets' step-down (:func:`compreport.stats.ranksets.rank_sets`), from which the teams'
        rank sets are read (not stored in results.json: None when read back).
    label : str or None
        The name readers see instead of :attr:`name` (a user metric's ``display_name``; stored in
        results.json as ``label`` when set); None: the name's own display form.
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
    rank_better: np.ndarray | None = field(default=None, repr=False, compare=False)
    vs_baselines: list[BaselineVerdict] = field(default_factory=list)
    label: str | None = None

    def beats_baselines(self, system: str) -> list[BaselineVerdict]:
        """The stored :class:`BaselineVerdict` of ``system`` against each baseline (empty for a
        baseline, or a competition without one)."""
        return [v for v in self.vs_baselines if v.system == system]

    @property
    def runner_up(self) -> str | None:
        """The best system after the best ones (the first of :attr:`vs_best` whose score is not the
        best score), or None."""
        return next((c.b for c in self.vs_best if not self.score_of(c.b).is_best), None)

    def score_of(self, system: str) -> Score:
        """The :class:`Score` of ``system``.

        Raises
        ------
        KeyError
            When the metric has no such system.
        """
        for s in self.scores:
            if s.system == system:
                return s
        raise KeyError(f"metric {self.name!r} has no system {system!r}")

    def pair(self, a: str, b: str) -> tuple[Comparison, bool]:
        """The stored comparison of ``a`` and ``b``.

        Returns
        -------
        comparison : Comparison
            As stored in :attr:`pairs` (``a`` ranked above ``b``).
        swapped : bool
            Whether it is stored as (b, a): its differences and intervals are then those of
            ``b - a``.

        Raises
        ------
        KeyError
            When there is no comparison of the two.
        """
        # the index is built once: a team sheet asks m times
        index = self.__dict__.get("_pair_index")
        if index is None or len(index) != len(self.pairs):
            index = self.__dict__["_pair_index"] = {(c.a, c.b): c for c in self.pairs}
        if (a, b) in index:
            return index[a, b], False
        if (b, a) in index:
            return index[b, a], True
        raise KeyError(f"metric {self.name!r}: no comparison of {a!r} and {b!r}")

    def difference_replicates(self, a: str, b: str) -> np.ndarray:
        """Bootstrap replicates of the oriented difference ``a - b`` (positive: ``a`` better).

        Parameters
        ----------
        a, b : str
            System names.

        Returns
        -------
        ndarray, shape (B,)

        Raises
        ------
        InputError
            When the replicates are not held (an analysis read back from results.json) or a
            system is unknown.
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
            **({"label": self.label} if self.label is not None else {}),
            "params": self.params,
            "higher_is_better": self.higher_is_better,
            "ideal": self.ideal,
            "primary": self.primary,
            "best": self.best,
            "verdicts": self.verdicts,
            "scores": [_flat(s) | {"ties_with_best": s.ties_with_best} for s in self.scores],
            "vs_best": [
                {"system": c.b} | {k: v for k, v in _flat(c).items() if k not in ("a", "b")}
                for c in self.vs_best
            ],
            "pairs": [_flat(c) for c in self.pairs],
            "vs_baselines": [vars(v).copy() for v in self.vs_baselines],
            "competitiveness": self.competitiveness,
        }

    @classmethod
    def from_dict(cls, d: dict) -> MetricAnalysis:
        """The metric of a results.json entry (:meth:`to_dict`), without replicates."""
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
            vs_baselines=[dataclass_from(BaselineVerdict, v) for v in d.get("vs_baselines", [])],
            label=d.get("label"),
        )


@dataclass
class TeamRank:
    """One team in the teams' ranking of a competition: each team ranked by its best run.

    Attributes
    ----------
    team : str
        The team (a run without a team is a team of one, named after the run).
    rank : int
        Rank among the teams by the exact primary score of their best runs (ties share a rank:
        1, 2, 2, 4); baselines are in no team and take no rank.
    runs : list of str
        The team's competing runs, best first.
    rank_low, rank_high : int or None
        The team rank's confidence set, simultaneous at 1 - alpha with the systems' sets: a
        team is counted better than another only when one of its runs is found better than
        every run of the other (:func:`compreport.stats.ranking.team_rank_sets`). None when the
        team has no defined score or there are no resamples.

    Examples
    --------
    >>> TeamRank("UNED", 2, ["UNED.run2", "UNED.run1"]).best_run
    'UNED.run2'
    """

    team: str
    rank: int
    runs: list[str]
    rank_low: int | None = None
    rank_high: int | None = None

    @property
    def best_run(self) -> str:
        """The team's best run (the first of :attr:`runs`)."""
        return self.runs[0]


@dataclass
class CompetitionAnalysis(CompetitionInfo):
    """One competition: its metadata, systems and one :class:`MetricAnalysis` per metric.

    The metadata (``id``, ``name``, ``year``, ...) are the fields of
    :class:`~compreport.inputs.competition.CompetitionInfo`.

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
        Input and resampling problems that did not stop the analysis, as they were warned.
    engine : dict
        How the resamples were drawn: ``resampling`` (``items``, ``patterns`` or ``clusters``),
        ``patterns`` (distinct joint patterns of the items, or None) and ``block_replicates``
        (replicates per seeded block); and how replicate statistics were summed:
        ``statistics`` (``dense``, the matrix product over patterns; ``cells``, per (gold,
        predicted) cell of each system; ``items`` when no metric has per-item statistics).
    teams : dict
        System -> its team (run folder, run-name rule of
        :func:`~compreport.inputs.runfiles.stem_teams`, or names file), or None.
    team_ranks : list of TeamRank
        The teams' ranking under the primary metric, best first
        (:func:`compreport.stats.ranking.rank_teams`), with their rank sets
        (:func:`compreport.stats.ranking.team_rank_sets`).
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
    team_ranks: list[TeamRank] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.team_ranks and self.metrics:
            ma = self.primary
            self.team_ranks = [
                TeamRank(t, r, runs)
                for t, r, runs in ranking.rank_teams(
                    [(s.system, s.score) for s in ma.scores],
                    self.teams,
                    set(self.baselines),
                    ma.higher_is_better,
                )
            ]
            if ma.rank_better is not None and ma.systems:
                position = {s: i for i, s in enumerate(ma.systems)}
                defined = {s.system for s in ma.scores if s.rank_low is not None}
                bounds = ranking.team_rank_sets(
                    [[position[r] for r in t.runs if r in defined] for t in self.team_ranks],
                    ma.rank_better,
                )
                for t, (low, high) in zip(self.team_ranks, bounds):
                    t.rank_low, t.rank_high = low, high

    def team_rank(self, system: str) -> TeamRank | None:
        """The :class:`TeamRank` of the team ``system`` runs for (None for a baseline)."""
        for tr in self.team_ranks:
            if system in tr.runs:
                return tr
        return None

    @property
    def primary(self) -> MetricAnalysis:
        """The ranking metric."""
        return self.metrics[0]

    def metric(self, name: str | None = None) -> MetricAnalysis:
        """The metric called ``name``, or the primary one when ``name`` is None.

        Raises
        ------
        InputError
            When there is no such metric (the message names the metrics).
        """
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
            team_ranks=[
                {
                    "team": t.team,
                    "rank": t.rank,
                    "rank_low": t.rank_low,
                    "rank_high": t.rank_high,
                    "runs": t.runs,
                }
                for t in self.team_ranks
            ],
            missing=self.missing,
            metrics=[ma.to_dict() for ma in self.metrics],
            inputs=self.inputs,
            # as the caller worded them (api); an analysis made by the core alone: Python words
            warnings=[spoken(w, {}) for w in self.warnings],
            engine=self.engine,
            classes=self.classes,
            clusters=self.clusters,
        )
        return out

    @classmethod
    def from_dict(cls, d: dict) -> CompetitionAnalysis:
        """The competition of a results.json entry (:meth:`to_dict`), without replicates."""
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
            team_ranks=[dataclass_from(TeamRank, t) for t in d.get("team_ranks", [])],
            missing=d.get("missing", {}),
            classes=d.get("classes"),
            clusters=d.get("clusters"),
        )


def running_versions() -> dict[str, str]:
    """The versions of Python, numpy, scipy and compreport running now: what results.json records
    as ``tool.versions``, since the same inputs, settings and seed give the same file byte for
    byte only under the same versions of these (docs/reproducibility.md).

    >>> sorted(running_versions())
    ['compreport', 'numpy', 'python', 'scipy']
    >>> running_versions()["python"] == platform.python_version()
    True
    """
    import scipy

    return {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "compreport": __version__,
    }


@dataclass
class Analysis:
    """Settings plus one :class:`CompetitionAnalysis` per competition; serialises to results.json.

    Made by :func:`compreport.analyze` (or :func:`compreport.stats.analysis.analyze`), read back
    by :meth:`read`.

    Attributes
    ----------
    settings : Settings
        The settings every number and verdict was computed under.
    competitions : list of CompetitionAnalysis
        In input order.
    version : str
        The compreport version that computed it.
    versions : dict
        The versions of ``python``, ``numpy``, ``scipy`` and ``compreport`` that computed it
        (:func:`running_versions`; results.json's ``tool.versions``); empty when read from a
        results.json written before they were recorded.
    workshop : dict
        ``name``, ``year``, ``description`` of the workshop (empty for loose competitions).
    sources : list of str
        Files read besides the data files of ``competitions[].inputs`` (specs, user metric
        files), so that :meth:`~compreport.report.Report.write` refuses to write over them; not
        stored in results.json.
    scanned : list of str
        The runs folders and globs read, which :meth:`~compreport.report.Report.write` refuses to
        write into (the next run would read the report as runs); not stored in results.json.

    Examples
    --------
    >>> a = cr.analyze(cr.load("examples/workshop/paraphrase"), bootstrap=1000, seed=0,
    ...                refine=False)
    >>> a
    <Analysis: 1 competition(s) (paraphrase); B = 1000, seed = 0, alpha = 0.05, maxt over all-pairs>
    >>> ma = a.competition().primary
    >>> ma.name, ma.best, ma.runner_up
    ('accuracy', 'SiameseTwins.01', 'ParaNLP.01')
    >>> [(s.system, s.group) for s in ma.scores[:3]]
    [('SiameseTwins.01', 'a'), ('ParaNLP.01', 'ab'), ('ParaNLP.02', 'ac')]
    >>> c, swapped = ma.pair("ParaNLP.02", "SiameseTwins.01")
    >>> c.a, swapped, c.significant
    ('SiameseTwins.01', True, False)

    results.json holds every number and verdict, but not the replicates:

    >>> import json
    >>> back = Analysis.from_dict(json.loads(a.to_json()))
    >>> back.competition("paraphrase").primary.score_of("ParaNLP.02").rank
    3
    """

    settings: Settings
    competitions: list[CompetitionAnalysis]
    version: str = __version__
    workshop: dict = field(default_factory=dict)
    versions: dict = field(default_factory=running_versions)
    sources: list[str] = field(default_factory=list, repr=False, compare=False)
    scanned: list[str] = field(default_factory=list, repr=False, compare=False)

    def competition(self, id: str | None = None) -> CompetitionAnalysis:
        """The competition ``id``; None is allowed when there is only one.

        Raises
        ------
        InputError
            When there is no such competition, or ``id`` is None and there are several.
        """
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
        """The results.json object: JSON-ready (NaN and inf as None, numpy scalars as Python)."""
        return json_ready(
            {
                "tool": {"name": "compreport", "version": self.version, "versions": self.versions},
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
        """The analysis of a results.json object (:meth:`to_dict`), without replicates."""
        return cls(
            Settings.from_dict(d["settings"]),
            [CompetitionAnalysis.from_dict(c) for c in d["competitions"]],
            d["tool"]["version"],
            d.get("workshop") or {},
            dict(d["tool"].get("versions") or {}),
        )

    @classmethod
    def read(cls, path: str | Path) -> Analysis:
        """Read a results.json file (:meth:`from_dict`), refusing what compreport did not write.

        Only a regular file no larger than the input cap is read
        (:func:`compreport.inputs.delimited.read_bytes`: not ``/dev/zero``, a FIFO or a
        directory). Its shape (:func:`check_results`) and its competition ids
        (:func:`compreport.inputs.slugs.check_id`: an id names a folder of the report, so ``..``
        or ``/etc`` is refused) are checked before anything is built from it.

        Raises
        ------
        InputError
            Naming the file and the key: not UTF-8 or not JSON (with its line), a key missing or
            of the wrong type, a competition id that cannot name a folder.

        Examples
        --------
        >>> a = cr.analyze(cr.load("examples/workshop/paraphrase"), bootstrap=0)
        >>> _ = cr.Report(a).write("out", "json")
        >>> Analysis.read("out/results.json").competition().id
        'paraphrase'
        >>> Analysis.read("out/paraphrase/leaderboard.md")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
            ...
        compreport.errors.InputError: out/paraphrase/leaderboard.md: not JSON (line 1: ...
        """
        from compreport.inputs.delimited import read_bytes
        from compreport.inputs.limits import parser_limits

        if not isinstance(path, (str, os.PathLike)) or not isinstance(os.fspath(path), str):
            raise InputError(
                f"`path` must be a file's path (str or pathlib.Path); got {type(path).__name__}"
            )
        data = read_bytes(path, pipes=False)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"{path}: not UTF-8 (byte {exc.start}); not a results.json") from None
        try:
            with parser_limits(str(path), text, "JSON"):
                d = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(
                f"{path}: not JSON (line {exc.lineno}: {exc.msg}); not a results.json"
            ) from None
        check_results(d, path)
        try:
            return cls.from_dict(d)
        except InputError as exc:
            raise InputError(f"{path}: {raw(exc)}") from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise InputError(
                f"{path}: not a results.json compreport can read ({type(exc).__name__}: "
                f"{str(exc)[:200]})"
            ) from None

    # ------------------------------------------------------------ tables (compreport.stats.frames)

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
            Columns ``rank``, ``rank_low`` and ``rank_high`` (the rank's simultaneous confidence
            set, :attr:`Score.rank_low`; None without one), ``system``, ``baseline``, ``score``,
            ``ci_low``, ``ci_high``,
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
            ``id``, ``name``, ``metric``, ``n``, ``m``, ``possible_comparisons``,
            ``ties_with_winner_<c>`` and ``ties_<c>`` (<c>: none, bonferroni, holm, bh, maxt),
            ``win_minus_median``, ``cv``, ``ppi``, ``ppi_unit``.
        """
        return frames.competitiveness(self)

    def _repr_html_(self) -> str:
        return frames.to_html(self)

    def __repr__(self) -> str:
        ids = [c.id for c in self.competitions]
        s = self.settings
        shown = ", ".join(ids[:5]) + (", ..." if len(ids) > 5 else "")
        return (
            f"<Analysis: {len(ids)} competition(s) ({shown}); B = {s.bootstrap}, seed = {s.seed}, "
            f"alpha = {s.alpha:g}, {s.correction} over {s.family}>"
        )


class _Of:
    """A schema node of :func:`check_results`: ``_Of(list, item)`` a JSON array of ``item``,
    ``_Of(dict, value)`` an object of any keys whose values are ``value``."""

    def __init__(self, kind: type, item):
        self.kind, self.item = kind, item


#: JSON null.
_NULL = type(None)
#: A number as results.json writes one (NaN and infinity as null).
_NUM = (int, float, _NULL)
#: A whole number or null (ranks).
_INT = (int, _NULL)
#: A system name.
_NAME = str
#: The shape of results.json, checked by :func:`check_results`: a type (or tuple of types), a
#: ``{key: (node, required)}`` object, or an :class:`_Of`. Keys not listed are not checked.
_TIES = MappingProxyType(
    {
        **{k: (_INT, True) for k in ("none", "bonferroni", "holm", "bh")},
        "maxt": (_INT, False),
    }
)
_SCORE = MappingProxyType(
    {
        "system": (_NAME, True),
        "score": (_NUM, True),
        "ci_low": (_NUM, False),
        "ci_high": (_NUM, False),
        "se": (_NUM, False),
        "rank": (_INT, True),
        "rank_low": (_INT, False),
        "rank_high": (_INT, False),
        "group": ((str, _NULL), False),
        "is_best": ((bool, _NULL), False),
        "boot_mean": (_NUM, False),
        "differs_from_best": ((bool, _NULL), False),
        "p_vs_best": (_NUM, False),
        "settled_vs_best": ((bool, _NULL), False),
    }
)
_COMPARISON = MappingProxyType(
    {
        "diff": (_NUM, True),
        "ci_low": (_NUM, False),
        "ci_high": (_NUM, False),
        "p_value": (_NUM, False),
        "p_bonferroni": (_NUM, False),
        "p_holm": (_NUM, False),
        "p_bh": (_NUM, False),
        "p_maxt": (_NUM, False),
        "p_adjusted": (_NUM, False),
        "p_se": (_NUM, False),
        "excludes_zero": ((bool, _NULL), False),
        "significant": ((bool, _NULL), False),
        "settled": ((bool, _NULL), False),
        "mark": ((str, _NULL), False),
    }
)
_VERDICTS = MappingProxyType(
    {
        "alpha": (_NUM, False),
        "correction": ((str, _NULL), False),
        "family": ((str, _NULL), False),
        "tested": (_INT, False),
        "resamples": (_INT, False),
        "min_p": (_NUM, False),
        "marks": (_Of(list, _Of(list, (int, float, str))), False),
        "can_reject": ((bool, _NULL), False),
        "b_needed": (_INT, False),
        "may_settle": ((bool, _NULL), False),
        "undefined_replicates": (_INT, False),
        "undecided": (_INT, False),
    }
)
_CLASSES = MappingProxyType(
    {
        "system": (_NAME, True),
        "field": (str, True),
        "labels": (_Of(list, str), True),
        "predicted": (_Of(list, str), True),
        "confusion": (_Of(list, _Of(list, int)), True),
        "precision": (_Of(list, _NUM), True),
        "recall": (_Of(list, _NUM), True),
        "f1": (_Of(list, _NUM), True),
        "support": (_Of(list, int), True),
    }
)
_METRIC = MappingProxyType(
    {
        "name": (str, True),
        "label": ((str, _NULL), False),
        "params": (dict, True),
        "higher_is_better": (bool, True),
        "primary": (bool, True),
        "best": ((str, _NULL), True),
        "scores": (_Of(list, _SCORE), True),
        "vs_best": (_Of(list, {"system": (_NAME, True), **_COMPARISON}), True),
        "pairs": (_Of(list, {"a": (_NAME, True), "b": (_NAME, True), **_COMPARISON}), True),
        "competitiveness": (
            (
                {
                    "n": (int, True),
                    "m": (int, True),
                    "possible_comparisons": (int, True),
                    "ties_with_winner": (_TIES, True),
                    "ties": (_TIES, True),
                    "not_computable": (
                        {"ties_with_winner": (dict, False), "ties": (dict, False)},
                        False,
                    ),
                    "win_minus_median": (_NUM, True),
                    "cv": (_NUM, True),
                    "ppi": (_NUM, True),
                    "ppi_unit": ((str, _NULL), False),
                },
                _NULL,
            ),
            True,
        ),
        "verdicts": (_VERDICTS, False),
        "vs_baselines": (_Of(list, dict), False),
    }
)
_COMPETITION = MappingProxyType(
    {
        "id": (str, True),
        "name": ((str, _NULL), False),
        "year": (_INT, False),
        "challenge": ((str, _NULL), False),
        "task": ((str, _NULL), False),
        "subtask": ((str, _NULL), False),
        "language": ((str, _NULL), False),
        "engine": (dict, False),
        "n": (int, True),
        "systems": (_Of(list, _NAME), True),
        "baselines": (_Of(list, _NAME), True),
        "metrics": (_Of(list, _METRIC), True),
        "teams": (_Of(dict, (str, _NULL)), False),
        "team_ranks": (
            _Of(
                list,
                {
                    "team": (str, True),
                    "rank": (_INT, True),
                    "rank_low": (_INT, False),
                    "rank_high": (_INT, False),
                    "runs": (_Of(list, _NAME), True),
                },
            ),
            False,
        ),
        "inputs": (_Of(list, {"path": ((str, _NULL), False)}), False),
        "warnings": (_Of(list, str), False),
        "missing": (_Of(dict, int), False),
        "classes": ((_CLASSES, _NULL), False),
        "clusters": ((dict, _NULL), False),
        "group": (_Of(list, str), True),
    }
)
_RESULTS = MappingProxyType(
    {
        "tool": ({"version": (str, True), "versions": (_Of(dict, str), False)}, True),
        "settings": (dict, True),
        "workshop": (({"name": ((str, _NULL), False), "year": (_INT, False)}, _NULL), False),
        "competitions": (_Of(list, _COMPETITION), True),
    }
)


def _shape(value, node, where: str, path) -> None:
    """Check ``value`` (at the key path ``where``) against the schema ``node``."""

    def wrong(what: str) -> InputError:
        shown = json.dumps(value, ensure_ascii=False)
        shown = shown if len(shown) <= 40 else f"{shown[:40]}..."
        return InputError(
            f"{path}: {where or 'the file'} must be {what}, not {shown}; "
            f"not a results.json compreport wrote"
        )

    if isinstance(node, tuple) and node and isinstance(node[0], Mapping):  # an object or null
        if value is None and _NULL in node:
            return
        node = node[0]
    if isinstance(node, Mapping):
        if not isinstance(value, dict):
            raise wrong("a JSON object")
        for key, (sub, required) in node.items():
            at = f"{where}.{key}" if where else key
            if key not in value:
                if required:
                    raise InputError(f"{path}: no key {at}; not a results.json compreport wrote")
                continue
            _shape(value[key], sub, at, path)
    elif isinstance(node, _Of):
        if not isinstance(value, node.kind):
            raise wrong("a JSON " + ("array" if node.kind is list else "object"))
        items = enumerate(value) if node.kind is list else value.items()
        for k, v in items:
            _shape(v, node.item, f"{where}[{json.dumps(k, ensure_ascii=False)}]", path)
    else:
        types = node if isinstance(node, tuple) else (node,)
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            names = {
                str: "text",
                int: "a whole number",
                float: "a number",
                bool: "true or false",
                _NULL: "null",
                dict: "a JSON object",
                list: "a JSON array",
            }
            raise wrong(" or ".join(dict.fromkeys(names.get(t, t.__name__) for t in types)))


def _consistent(c: dict, i: int, path) -> None:
    """The sizes results.json ties together in competition ``i``: the significance marks are
    ``[threshold, mark]`` pairs, and the confusion matrix and per-class lists match its labels."""
    for j, m in enumerate(c["metrics"]):
        for k, mark in enumerate((m.get("verdicts") or {}).get("marks", [])):
            if len(mark) != 2 or not isinstance(mark[1], str) or isinstance(mark[0], str):
                raise InputError(
                    f"{path}: competitions[{i}].metrics[{j}].verdicts.marks[{k}] must be "
                    f"[threshold, mark]; not a results.json compreport wrote"
                )
    cl = c.get("classes")
    if cl:
        k, cols = len(cl["labels"]), len(cl["predicted"])
        rows_ok = len(cl["confusion"]) == k and all(len(r) == cols for r in cl["confusion"])
        lists_ok = all(len(cl[key]) == k for key in ("precision", "recall", "f1", "support"))
        if not rows_ok or not lists_ok or cols < k:
            raise InputError(
                f"{path}: competitions[{i}].classes: the confusion matrix and per-class lists do "
                f"not match labels and predicted; not a results.json compreport wrote"
            )


def check_results(d, path) -> None:
    """Refuse a results.json object ``d`` (read from ``path``) that compreport did not write: an
    :class:`InputError` naming ``path`` and the key (``competitions[0].metrics[1].scores[2]``)
    that is missing or of the wrong type, a name that is not one of the competition's systems,
    or the competition id that cannot name a folder of OUT
    (:func:`compreport.inputs.slugs.check_id`), checked first.

    >>> check_results({"tool": {"version": "1"}, "settings": {}, "competitions": [{"id": ".."}]},
    ...               "r.json")
    Traceback (most recent call last):
        ...
    compreport.errors.InputError: r.json: competitions[0].id: competition id '..' must be ...
    """
    from compreport.inputs.slugs import check_id

    comps = d.get("competitions") if isinstance(d, dict) else None
    for i, c in enumerate(comps if isinstance(comps, list) else []):
        if isinstance(c, dict) and isinstance(c.get("id"), str):
            check_id(c["id"], f"{path}: competitions[{i}].id")  # first: the id names a folder
    _shape(d, _RESULTS, "", path)
    if not d["competitions"]:
        raise InputError(f"{path}: competitions is empty; not a results.json compreport wrote")
    for i, c in enumerate(d["competitions"]):
        if not c["metrics"]:
            raise InputError(
                f"{path}: competitions[{i}].metrics is empty; not a results.json compreport wrote"
            )
        systems = set(c["systems"])
        _consistent(c, i, path)
        named = [(f"competitions[{i}].baselines", x) for x in c["baselines"]]
        if c.get("classes"):
            named.append((f"competitions[{i}].classes.system", c["classes"]["system"]))
        named += [
            (f"competitions[{i}].team_ranks", x) for t in c.get("team_ranks", []) for x in t["runs"]
        ]
        named += [
            (f"competitions[{i}].{key}", x) for key in ("teams", "missing") for x in c.get(key, {})
        ]
        for j, m in enumerate(c["metrics"]):
            at = f"competitions[{i}].metrics[{j}]"
            named += [(f"{at}.scores", s["system"]) for s in m["scores"]]
            scored = {s["system"] for s in m["scores"]}
            if scored != systems:
                raise InputError(
                    f"{path}: {at}.scores must hold one score per system of "
                    f"competitions[{i}].systems; not a results.json compreport wrote"
                )
            named += [(f"{at}.vs_best", s["system"]) for s in m["vs_best"]]
            named += [(f"{at}.pairs", x) for p in m["pairs"] for x in (p["a"], p["b"])]
            named += [(f"{at}.best", m["best"])] if m["best"] is not None else []
        for where, name in named:
            if name not in systems:
                raise InputError(
                    f"{path}: {where} names {json.dumps(name, ensure_ascii=False)[:40]}, not a "
                    f"system of competitions[{i}].systems; not a results.json compreport wrote"
                )
