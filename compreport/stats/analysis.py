"""The Analysis: every number of a report, computed once (results.json is its serialisation).

``analyze(competitions, settings)`` runs the paired bootstrap for each competition and
builds one :class:`MetricAnalysis` per metric. Renderers read these objects (or the
JSON, via :meth:`Analysis.from_dict`) and compute nothing statistical.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from . import resampling as bootstrap

from . import competitiveness, intervals, letters, multitest, ranking, significance
from .._version import __version__
from ..inputs.competition import Competition
from ..errors import InputError, warn
from ..settings import Settings
from ..inputs.readers import unseen_label_warnings
from .metrics import get_metric


@dataclass
class Score:
    system: str
    score: float
    boot_mean: float
    se: float
    ci_low: float
    ci_high: float
    rank: int
    group: str = ""


@dataclass
class Comparison:
    """Oriented difference ``a - b`` (positive: ``a`` better) with its CI and p-values."""

    a: str
    b: str
    diff: float
    ci_low: float
    ci_high: float
    p_value: float
    p_bonferroni: float
    p_holm: float
    p_bh: float


@dataclass
class MetricAnalysis:
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
    replicates: np.ndarray | None = field(default=None, repr=False)
    systems: list[str] = field(default_factory=list, repr=False)

    def difference_replicates(self, a: str, b: str) -> np.ndarray:
        """Bootstrap replicates (B,) of the oriented difference ``a - b`` (positive: ``a`` better).

        The sign is flipped for lower-is-better metrics, as in :class:`Comparison`. Raises
        ``ValueError`` when the replicates are not held (an Analysis read back from results.json)
        or a system is unknown.
        """
        if self.replicates is None:
            raise ValueError(f"metric {self.name!r}: no bootstrap replicates (they are not stored in "
                             f"results.json; run the analysis to get them)")
        for s in (a, b):
            if s not in self.systems:
                raise ValueError(f"metric {self.name!r}: unknown system {s!r}")
        sign = 1.0 if self.higher_is_better else -1.0
        ia, ib = self.systems.index(a), self.systems.index(b)
        return sign * (self.replicates[:, ia] - self.replicates[:, ib])

    def to_dict(self) -> dict:
        out = {
            "name": self.name, "params": self.params, "higher_is_better": self.higher_is_better,
            "ideal": self.ideal, "primary": self.primary, "best": self.best,
            "scores": [asdict(s) for s in self.scores],
            "vs_best": [{"system": c.b} | {k: v for k, v in asdict(c).items() if k not in ("a", "b")}
                        for c in self.vs_best],
            "pairs": [asdict(c) for c in self.pairs],
            "competitiveness": self.competitiveness,
        }
        return out

    @classmethod
    def from_dict(cls, d: dict) -> "MetricAnalysis":
        best = d["best"]
        return cls(
            name=d["name"], params=d["params"], higher_is_better=d["higher_is_better"], ideal=d.get("ideal"),
            primary=d["primary"], best=best, scores=[Score(**s) for s in d["scores"]],
            vs_best=[Comparison(a=best, b=c["system"], **{k: v for k, v in c.items() if k != "system"})
                     for c in d["vs_best"]],
            pairs=[Comparison(**c) for c in d["pairs"]], competitiveness=d["competitiveness"],
        )


_META = ("id", "name", "year", "challenge", "task", "subtask", "language", "group")


@dataclass
class CompetitionAnalysis:
    id: str
    name: str
    n: int
    systems: list[str]
    baselines: list[str]
    metrics: list[MetricAnalysis]
    year: int | None = None
    challenge: str = ""
    task: str = ""
    subtask: str = ""
    language: str = ""
    group: list[str] = field(default_factory=list)
    inputs: list[dict] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    engine: dict = field(default_factory=dict)

    @property
    def primary(self) -> MetricAnalysis:
        return self.metrics[0]

    def to_dict(self) -> dict:
        out = {k: getattr(self, k) for k in _META}
        out.update(n=self.n, systems=self.systems, baselines=self.baselines,
                   metrics=[ma.to_dict() for ma in self.metrics], inputs=self.inputs,
                   warnings=self.warnings, engine=self.engine)
        return out

    @classmethod
    def from_dict(cls, d: dict) -> "CompetitionAnalysis":
        kw = {k: d.get(k) for k in _META}
        return cls(**kw, n=d["n"], systems=d["systems"], baselines=d["baselines"],
                   metrics=[MetricAnalysis.from_dict(x) for x in d["metrics"]], inputs=d.get("inputs", []),
                   warnings=d.get("warnings", []), engine=d.get("engine", {}))


@dataclass
class Analysis:
    """Settings plus one CompetitionAnalysis per competition; serialises to results.json."""

    settings: Settings
    competitions: list[CompetitionAnalysis]
    version: str = __version__

    def to_dict(self) -> dict:
        return _clean({"tool": {"name": "compreport", "version": self.version},
                       "settings": self.settings.to_dict(),
                       "competitions": [c.to_dict() for c in self.competitions]})

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False, allow_nan=False) + "\n"

    @classmethod
    def from_dict(cls, d: dict) -> "Analysis":
        return cls(Settings.from_dict(d["settings"]), [CompetitionAnalysis.from_dict(c) for c in d["competitions"]],
                   d["tool"]["version"])

    @classmethod
    def read(cls, path: str | Path) -> "Analysis":
        return cls.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))


def _clean(obj):
    """JSON-ready: numpy scalars to Python, NaN/inf to None."""
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    if isinstance(obj, (np.floating, float)):
        f = float(obj)
        return f if math.isfinite(f) else None
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.bool_):
        return bool(obj)
    return obj


def _comparisons(names, a, b, d, corr) -> list[Comparison]:
    return [Comparison(names[a[i]], names[b[i]], float(d["diff"][i]), float(d["ci_low"][i]),
                       float(d["ci_high"][i]), float(d["p_value"][i]), float(corr["bonferroni"][i]),
                       float(corr["holm"][i]), float(corr["bh"][i])) for i in range(len(a))]


def analyze_metric(name: str, params: dict, higher_is_better: bool, ideal: float | None, primary: bool,
                   systems: list[str], observed: np.ndarray, replicates: np.ndarray, settings: "Settings",
                   n: int, jack: tuple[np.ndarray, np.ndarray] | None = None,
                   test_p=None) -> MetricAnalysis:
    """Scores, vs-best, all pairs, groups and competitiveness of one metric from its replicates (B, m).

    ``jack`` (leave-one-out scores and weights) is needed for BCa intervals; ``test_p(a, b)``
    replaces the bootstrap p-values (the randomization test).
    """
    m, alpha, ci = len(systems), settings.alpha, settings.ci_method
    order, rank = ranking.order_systems(observed, higher_is_better)
    lo, hi = intervals.interval(replicates, observed, ci, alpha, jack)
    B = replicates.shape[0]
    mean = replicates.mean(axis=0) if B else np.full(m, np.nan)
    se = replicates.std(axis=0, ddof=1) if B > 1 else np.full(m, np.nan)
    best = int(order[0])
    others = order[1:]
    firsts = np.full(len(others), best)
    vb = significance.differences(observed, replicates, firsts, others, higher_is_better, alpha, ci, jack)
    ia, ib = np.triu_indices(m, k=1)
    pa, pb = order[ia], order[ib]
    pr = significance.differences(observed, replicates, pa, pb, higher_is_better, alpha, ci, jack)
    if test_p is not None:
        vb["p_value"], pr["p_value"] = test_p(firsts, others), test_p(pa, pb)
    vb_corr = multitest.correct(vb["p_value"])
    all_pairs = multitest.correct(pr["p_value"])
    if settings.family == "per-row":
        pr_corr = multitest.correct_within(pr["p_value"], ia)
    elif settings.family == "vs-best":  # only the pairs with the best are tested: the vs-best family
        with_best = ia == 0  # same pairs, same order as vs_best (best, order[1]), (best, order[2]), ...
        pr_corr = {k: np.full(len(ia), np.nan) for k in vb_corr}
        for k, v in vb_corr.items():
            pr_corr[k][with_best] = v
    else:
        pr_corr = all_pairs
    decide = pr["p_value"] if settings.correction == "none" else pr_corr[settings.correction]
    if settings.family == "vs-best":
        decide = np.where(ia == 0, decide, np.nan)  # pairs without the best are not tested
    different = np.zeros((m, m), dtype=bool)
    different[pa, pb] = different[pb, pa] = decide < alpha
    group = letters.letters(list(order), different)
    scores = [Score(systems[i], float(observed[i]), float(mean[i]), float(se[i]), float(lo[i]), float(hi[i]),
                    int(rank[i]), group[i]) for i in order]
    # ties among all pairs (paper Tables 7-11) need every pair: all-pairs corrections under vs-best
    tie_corr = all_pairs if settings.family == "vs-best" else pr_corr
    comp = competitiveness.competitiveness(
        observed, order, {"none": vb["p_value"], **vb_corr}, {"none": pr["p_value"], **tie_corr},
        alpha, n, ideal, higher_is_better)
    return MetricAnalysis(
        name=name, params=params, higher_is_better=higher_is_better, ideal=ideal, primary=primary,
        best=systems[best], scores=scores,
        vs_best=_comparisons(systems, firsts, others, vb, vb_corr),
        pairs=_comparisons(systems, pa, pb, pr, pr_corr), competitiveness=comp,
        replicates=replicates, systems=list(systems))


def analyze_competition(comp: Competition, settings: Settings, *, jobs: int = 1,
                        progress: bool | None = None, mode: str | None = None) -> CompetitionAnalysis:
    """Prepare metrics, run the shared paired bootstrap and analyse every metric."""
    if not comp.metrics:
        raise InputError(f"competition {comp.id!r}: no metric given (use --metric or [[metrics]])")
    prepared, label_fields = [], set()
    for spec in comp.metrics:
        metric = get_metric(spec.name, spec.base)
        p = metric.prepare(comp, dict(spec.params))
        prepared.append(p)
        label_fields.update(p.label_fields)
    notes = list(comp.warnings)
    if label_fields:
        notes += unseen_label_warnings(comp, sorted(label_fields))
    names = [p.name for p in prepared]
    for name in names:
        if names.count(name) > 1:
            raise InputError(f"competition {comp.id!r}: metric {name!r} is given twice; results name metrics "
                             f"by name, so give each metric once")
    pairs = comp.m * (comp.m - 1) // 2
    if settings.bootstrap and pairs / (settings.bootstrap + 1) >= settings.alpha:
        need = int(np.ceil(pairs / settings.alpha))
        notes.append(f"competition {comp.id!r}: with B = {settings.bootstrap} the smallest p-value is "
                     f"1/(B+1), so Bonferroni/Holm over {pairs} pairs can never reject at alpha = "
                     f"{settings.alpha}; use -B {need} or more")
    if comp.m == 1:
        notes.append(f"competition {comp.id!r} has a single system ({comp.systems[0]!r}): "
                     f"confidence intervals only, no comparisons")
    for note in notes:
        warn(note)
    randomization = settings.test == "randomization"
    if randomization:
        for p in prepared:
            if not p.decomposable:
                raise InputError(f"competition {comp.id!r}: --test randomization needs metrics with per-item "
                                 f"statistics; {p.name!r} has none (use --test bootstrap)")
    res = bootstrap.run(prepared, comp.n, comp.m, settings.bootstrap, settings.seed,
                        bootstrap.competition_key(comp.id), jobs=jobs, progress=progress, mode=mode,
                        jackknife=settings.ci_method == "bca", randomization=randomization)
    metrics = []
    for i, p in enumerate(prepared):
        test_p = (lambda a, b, i=i: res.randomization_p(i, a, b)) if randomization else None
        metrics.append(analyze_metric(p.name, p.params, p.higher_is_better, p.ideal, i == 0, comp.systems,
                                      res.observed[i], res.replicates[i], settings, comp.n,
                                      res.jackknife[i] if res.jackknife else None, test_p))
    return CompetitionAnalysis(
        id=comp.id, name=comp.name, n=comp.n, systems=comp.systems, baselines=comp.baselines, metrics=metrics,
        year=comp.year, challenge=comp.challenge, task=comp.task, subtask=comp.subtask, language=comp.language,
        group=comp.group, inputs=comp.inputs, warnings=notes,
        engine={"resampling": res.mode, "patterns": res.patterns, "block_replicates": bootstrap.block_rows(comp.n)})


def analyze(competitions: list[Competition], settings: Settings, *, jobs: int = 1,
            progress: bool | None = None) -> Analysis:
    return Analysis(settings, [analyze_competition(c, settings, jobs=jobs, progress=progress)
                               for c in competitions])
