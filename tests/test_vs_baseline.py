"""The baseline family (issue 36 item 3): ``--family vs-baseline`` compares each participant with
each named baseline, with the correction (max-T by default) over exactly those comparisons, and
every analysis stores whether each participant beats each baseline
(``MetricAnalysis.vs_baselines``), read from the report's own verdicts whatever the family.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import compreport as cr
from compreport.errors import InputError
from compreport.inputs.spec import Options, load_inputs
from compreport.settings import Settings, make_settings
from compreport.stats.results import Analysis
from conftest import run_cli

ALPHA = 0.05
#: Participants' accuracies (two clearly above the baselines, one level with them, one below) and
#: the two baselines'.
RUNS = {"A": 0.86, "B": 0.80, "C": 0.71, "D": 0.60, "base1": 0.70, "base2": 0.66}
BASELINES = ["base1", "base2"]


def table(n: int = 400, seed: int = 5) -> pd.DataFrame:
    """A wide binary table: gold ``y`` and one column per system of :data:`RUNS`, errors correlated
    through a shared item difficulty."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 2, n)
    hard = rng.random(n)
    cols = {}
    for name, acc in RUNS.items():
        right = rng.random(n) * 0.6 + hard * 0.4 < acc
        cols[name] = np.where(right, gold, 1 - gold)
    return pd.DataFrame({"id": np.arange(n), "y": gold} | cols)


def analysis(family: str = "vs-baseline", correction: str | None = None, baselines=BASELINES):
    data = cr.from_frame(table(), id="id", name="Toy task", baselines=baselines)
    return cr.analyze(
        data, bootstrap=999, seed=3, refine=False, family=family, correction=correction
    )


@pytest.fixture(scope="module")
def vsb():
    return analysis()


@pytest.fixture(scope="module")
def allpairs():
    return analysis("all-pairs")


def family_pairs(ma) -> set[frozenset]:
    participants = [s for s in ma.systems if s not in BASELINES]
    return {frozenset((p, b)) for p in participants for b in BASELINES}


def independent_maxt(ma, pairs: list[tuple[str, str]]) -> dict[tuple[str, str], float]:
    """Max-T step-down adjusted p-values of ``pairs`` (participant, baseline), computed here from
    the metric's replicates: studentized by the replicates' SD, two-sided, null-shifted,
    ``(1 + #{b : max over the pairs not more significant of T*_b >= t}) / (B + 1)``, made
    non-decreasing in the order of decreasing t."""
    reps = ma.replicates
    obs = {s.system: s.score for s in ma.scores}
    col = {s: i for i, s in enumerate(ma.systems)}
    t, star = [], []
    for p, b in pairs:
        d = reps[:, col[p]] - reps[:, col[b]]
        delta = obs[p] - obs[b]
        se = d.std(ddof=1)
        t.append(abs(delta) / se)
        star.append(np.abs(d - delta) / se)
    t, star = np.array(t), np.array(star)  # star: (k, B)
    order = np.argsort(-t, kind="stable")
    B = reps.shape[0]
    adjusted = np.empty(len(pairs))
    for j, k in enumerate(order):
        rest = order[j:]
        hits = np.sum(star[rest].max(axis=0) >= t[k] * (1 - 1e-10))
        adjusted[k] = (1 + hits) / (B + 1)
    adjusted[order] = np.maximum.accumulate(adjusted[order])
    return {pair: float(p) for pair, p in zip(pairs, adjusted)}


# --------------------------------------------------------------------------- settings


def test_every_caller_accepts_the_family(tmp_path):
    assert Settings(family="vs-baseline").family == "vs-baseline"
    assert Settings(family="vs_baseline").family == "vs-baseline"  # the alias of the others
    assert make_settings({"family": "vs-baseline"}, "cli").family == "vs-baseline"
    assert Settings(family="vs-baseline").ties_family == "all-pairs"
    d = tmp_path / "c1"
    d.mkdir()
    table().to_csv(d / "wide.csv", index=False)
    (d / "competition.toml").write_text(
        'name = "C1"\nbaselines = ["base1", "base2"]\n[data]\ntable = "wide.csv"\n'
        'id_column = "id"\n[[metrics]]\nname = "accuracy"\n[bootstrap]\nfamily = "vs-baseline"\n',
        encoding="utf-8",
    )
    assert load_inputs([str(d)], Options()).bootstrap == {"family": "vs-baseline"}
    res = run_cli(d, "report", ".", "-o", "../out", "--format", "json", "-B", "200")
    assert res.returncode == 0, res.stderr
    out = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    assert out["settings"]["family"] == "vs-baseline"
    ma = out["competitions"][0]["metrics"][0]
    assert ma["verdicts"]["family"] == "vs-baseline" and ma["verdicts"]["tested"] == 8
    assert {(v["system"], v["baseline"]) for v in ma["vs_baselines"]} == {
        (p, b) for p in "ABCD" for b in BASELINES
    }
    # the command line overrides the spec's family, and names it in results.json
    res = run_cli(
        d, "report", ".", "-o", "../out2", "--format", "json", "-B", "200", "--family", "all-pairs"
    )
    assert res.returncode == 0, res.stderr
    out = json.loads((tmp_path / "out2" / "results.json").read_text(encoding="utf-8"))
    assert {v["family"] for v in out["competitions"][0]["metrics"][0]["vs_baselines"]} == {
        "all-pairs"
    }


def test_no_baseline_is_one_error_line_before_any_resampling(tmp_path, monkeypatch):
    from compreport.stats import analysis as engine

    def no_draws(*args, **kwargs):
        raise AssertionError("resampled before refusing the family")

    monkeypatch.setattr(engine.bootstrap, "run", no_draws)
    table().to_csv(tmp_path / "wide.csv", index=False)
    res = run_cli(
        tmp_path, "report", "wide.csv", "--id", "id", "--gold", "y", "--metric", "accuracy",
        "-o", "out", "--format", "json", "-B", "200", "--family", "vs-baseline",
    )  # fmt: skip
    assert res.returncode == 2, res.stderr
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: competition 'wide'"), res.stderr
    assert "names no baseline" in lines[0] and "--family vs-baseline" in lines[0]
    assert not (tmp_path / "out").exists()
    # the API names its own keyword; a competition of baselines only has no participant
    with pytest.raises(InputError, match=r"names no baseline, and family='vs-baseline'"):
        analysis(baselines=[])
    with pytest.raises(InputError, match="has no participant besides its baselines"):
        analysis(baselines=list(RUNS))
    # any other family needs no baseline, and stores no baseline verdict
    monkeypatch.undo()
    assert analysis("all-pairs", baselines=[]).competition().primary.vs_baselines == []


# --------------------------------------------------------------------------- the family


def test_the_family_is_exactly_participants_by_baselines(vsb):
    ma = vsb.competition().primary
    tested = {frozenset((c.a, c.b)) for c in ma.pairs if c.significant is not None}
    assert tested == family_pairs(ma)
    assert {frozenset((c.a, c.b)) for c in ma.pairs if np.isfinite(c.p_maxt)} == tested
    assert {frozenset((c.a, c.b)) for c in ma.pairs if np.isfinite(c.p_holm)} == tested
    assert ma.verdicts["tested"] == len(tested) == 8
    # the comparisons with the best are outside it (unless with a baseline): untested, not tied
    assert ma.best == "A"
    assert [c.b for c in ma.vs_best if c.significant is not None] == []
    assert all(s.differs_from_best is None for s in ma.scores)


def test_stored_verdicts_equal_an_independent_maxt(vsb):
    ma = vsb.competition().primary
    pairs = [(p, b) for p in "ABCD" for b in BASELINES]
    expected = independent_maxt(ma, pairs)
    got = {(v.system, v.baseline): v for v in ma.vs_baselines}
    assert set(got) == set(pairs)
    for pair, p in expected.items():
        v = got[pair]
        assert v.p_value == pytest.approx(p, abs=1e-12), pair
        assert v.family == "vs-baseline"
        assert v.beats == bool(p < ALPHA and v.diff > 0)
        assert v.worse == bool(p < ALPHA and v.diff < 0)
        c, swapped = ma.pair(*pair)
        assert v.diff == pytest.approx(-c.diff if swapped else c.diff)
    # the case decides both ways: some runs beat a baseline, some do not, one is worse
    beats = [v.beats for v in got.values()]
    assert any(beats) and not all(beats)
    assert any(v.worse for v in got.values())


def test_more_powerful_than_all_pairs_on_the_same_resamples(vsb, allpairs):
    """The step-down over a subset of the pairs never gives a larger p-value (same replicates, same
    studentization), and here it finds more."""
    sub = {(v.system, v.baseline): v for v in vsb.competition().primary.vs_baselines}
    sup = {(v.system, v.baseline): v for v in allpairs.competition().primary.vs_baselines}
    assert set(sub) == set(sup)
    assert all(sub[k].p_value <= sup[k].p_value + 1e-12 for k in sub)
    assert all(v.family == "all-pairs" for v in sup.values())
    assert sum(v.beats is True for v in sub.values()) >= sum(v.beats is True for v in sup.values())


def test_all_pairs_answers_from_its_own_verdicts(allpairs):
    ma = allpairs.competition().primary
    for v in ma.vs_baselines:
        c, swapped = ma.pair(v.system, v.baseline)
        assert v.p_value == c.p_adjusted and v.significant == c.significant
        # None while the pair's verdict is undecided (or untested), as its `significant`
        want = bool(c.significant and (c.diff < 0 if swapped else c.diff > 0))
        assert v.beats == (None if c.significant is None else want)


def test_vs_best_leaves_the_baseline_question_untested():
    ma = analysis("vs-best").competition().primary
    assert [v.beats for v in ma.vs_baselines] == [None] * 8
    assert {v.family for v in ma.vs_baselines} == {"vs-best"}


@pytest.mark.parametrize("correction", ["bonferroni", "holm", "bh", "none"])
def test_classical_corrections_run_over_the_same_family(correction):
    from statsmodels.stats.multitest import multipletests

    ma = analysis(correction=correction).competition().primary
    fam = [c for c in ma.pairs if frozenset((c.a, c.b)) in family_pairs(ma)]
    raw = np.array([c.p_value for c in fam])
    method = {"bonferroni": "bonferroni", "holm": "holm", "bh": "fdr_bh"}.get(correction)
    expected = raw if method is None else multipletests(raw, method=method)[1]
    assert [c.p_adjusted for c in fam] == pytest.approx(expected.tolist())
    assert all(c.significant is None for c in ma.pairs if c not in fam)
    got = {(v.system, v.baseline): v.p_value for v in ma.vs_baselines}
    for c in fam:
        key = (c.a, c.b) if c.b in BASELINES else (c.b, c.a)
        assert got[key] == c.p_adjusted


def test_groups_read_only_the_family(vsb):
    """A participant shares a letter with a baseline exactly when it is not called different from
    it; baselines get letters (they are tested)."""
    ma = vsb.competition().primary
    group = {s.system: set(s.group) for s in ma.scores}
    assert all(group[b] for b in BASELINES)
    for v in ma.vs_baselines:
        assert bool(group[v.system] & group[v.baseline]) == (not v.significant), v


def test_competitiveness_counts_over_all_pairs_without_maxt(vsb, allpairs):
    c_sub = vsb.competition().primary.competitiveness
    c_all = allpairs.competition().primary.competitiveness
    assert "maxt" not in c_sub["ties_with_winner"] and "maxt" not in c_sub["ties"]
    for corr in ("bonferroni", "holm", "bh"):
        assert c_sub["ties_with_winner"][corr] == c_all["ties_with_winner"][corr]
        assert c_sub["ties"][corr] == c_all["ties"][corr]


def test_results_json_round_trip(vsb, tmp_path):
    path = tmp_path / "results.json"
    path.write_text(vsb.to_json(), encoding="utf-8")
    back = Analysis.read(path).competition().primary
    ma = vsb.competition().primary
    assert back.vs_baselines == ma.vs_baselines
    assert back.beats_baselines("A") == ma.beats_baselines("A")
    assert len(ma.beats_baselines("A")) == 2
    assert back.beats_baselines("base1") == []
    assert json.loads(Path(path).read_text())["settings"]["family"] == "vs-baseline"


def test_an_undecided_baseline_verdict_is_said_undecided():
    """A run whose verdict against a baseline is within its Monte-Carlo error is neither said to
    beat it nor to be untested (the twin: a settled verdict names its result)."""
    from compreport.report import prose
    from compreport.report.model import Format
    from compreport.settings import Settings
    from compreport.stats.results import BaselineVerdict

    s = Settings()
    open_ = BaselineVerdict("A", "majority", 0.02, 0.049, None, None, False, "all-pairs")
    p_is = Format().p_is
    said = prose.beats_baseline(s, open_, p_is)
    assert said.startswith("Whether A differs from the baseline majority is undecided")
    assert "not tested" not in said
    done = BaselineVerdict("A", "majority", 0.02, 0.01, True, True, True, "all-pairs")
    assert prose.beats_baseline(s, done, p_is).startswith(
        "A is significantly better than the baseline"
    )
    # a p-value below the report's decimals is stated as such, never as a float's repr
    near = BaselineVerdict("A", "majority", 0.02, 1 / 10001, True, True, True, "all-pairs")
    assert "(p = 0.0001, " in prose.beats_baseline(s, near, p_is)  # it said 9.999e-05
    tiny = BaselineVerdict("A", "majority", 0.02, 1e-6, True, True, True, "all-pairs")
    assert "(p < 0.0001, " in prose.beats_baseline(s, tiny, p_is)
