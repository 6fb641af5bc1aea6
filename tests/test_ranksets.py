"""Simultaneous rank confidence sets (issue 36 item 4): :mod:`compreport.stats.ranksets`.

The sets are checked against worked cases with a known answer, against an independent
implementation of Mogstad, Romano, Shaikh & Wilhelm's step-down written here from the paper's
definition (the iteration of ``csranks``' ``csdiffmeans``: critical value over the hypotheses
still standing, reject, repeat), on simulated and on real (SemEval-2018 ARCT) replicates, and
through the analysis, results.json and the teams' ranking.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import compreport as cr
from compreport.errors import Note
from compreport.settings import Settings
from compreport.stats.analysis import analyze_metric
from compreport.stats.ranking import order_systems, team_rank_sets
from compreport.stats.ranksets import rank_sets
from compreport.stats.results import Analysis

ARCT = Path(__file__).parent / "data" / "semeval2018-task12-arct"


def mogstad(observed, replicates, alpha, higher_is_better=True):
    """Mogstad et al.'s simultaneous rank sets, straight from the definition.

    All ordered pairs (j, k), j != k, test theta_j <= theta_k with t_jk = delta_jk / se_jk and
    T*_jk = (d*_jk - delta_jk) / se_jk. While something new is rejected: the critical value is
    read off max T* over the hypotheses still standing (in p-value form: reject when
    (1 + #{max T* >= t}) / (B + 1) < alpha), and every standing hypothesis beyond it is rejected.
    Then rank_j in [1 + #{k rejected better than j}, m - #{k j is rejected better than}].
    """
    x = np.asarray(observed, float) * (1 if higher_is_better else -1)
    r = np.asarray(replicates, float) * (1 if higher_is_better else -1)
    m = len(x)
    delta = x[:, None] - x[None, :]  # (m, m): j better than k by delta[j, k]
    d = r[:, :, None] - r[:, None, :]  # (B, m, m)
    se = d.std(axis=0, ddof=1)
    off = ~np.eye(m, dtype=bool)
    t = np.where(off, delta / np.where(off, se, 1), -np.inf)
    tstar = (d - delta) / np.where(off, se, 1)
    standing = off.copy()
    rejected = np.zeros((m, m), dtype=bool)
    while True:
        top = tstar[:, standing].max(axis=1)  # (B,)
        tol = 1e-10 * np.maximum(1, np.abs(t[standing]))  # floating-point noise, as maxt
        p = np.array([(1 + np.sum(top >= c)) / (len(top) + 1) for c in t[standing] - tol])
        new = np.zeros((m, m), dtype=bool)
        new[standing] = (p < alpha) & (delta[standing] > 0)
        if not new.any():
            break
        rejected |= new
        standing &= ~new
        if not standing.any():
            break
    return 1 + rejected.sum(axis=0), m - rejected.sum(axis=1), rejected


def competition(rng, means, n=400, B=999, noise=0.02):
    """Scores and paired replicates of systems whose true means are ``means``: each replicate is
    a common item effect plus a system effect, so the systems are correlated as on shared items."""
    means = np.asarray(means, float)
    observed = means + rng.normal(0, noise, len(means))
    common = rng.normal(0, noise, (B, 1))
    reps = observed + common + rng.normal(0, noise, (B, len(means)))
    return observed, reps


def test_well_separated_systems_get_singletons():
    rng = np.random.default_rng(3)
    obs = np.array([0.9, 0.3, 0.7, 0.5, 0.1])
    reps = rng.normal(obs, 0.01, size=(999, 5))
    low, high, better = rank_sets(obs, reps)
    _, rank = order_systems(obs, True)
    assert low.tolist() == rank.tolist() == high.tolist()
    assert better.sum() == 5 * 4 // 2


def test_exactly_equal_scores_get_every_rank():
    # equal observed scores: no difference is positive, so nothing can be rejected
    rng = np.random.default_rng(4)
    obs = np.full(6, 0.7)
    low, high, better = rank_sets(obs, rng.normal(obs, 0.05, size=(499, 6)))
    assert low.tolist() == [1] * 6 and high.tolist() == [6] * 6 and not better.any()


def test_lower_is_better_ranks_the_smallest_first():
    rng = np.random.default_rng(5)
    obs = np.array([3.0, 1.0, 2.0])
    low, high, _ = rank_sets(obs, rng.normal(obs, 0.01, (499, 3)), higher_is_better=False)
    assert low.tolist() == high.tolist() == [3, 1, 2]


def test_undefined_systems_get_no_set_and_do_not_count():
    rng = np.random.default_rng(6)
    obs = np.array([0.9, np.nan, 0.5])
    reps = rng.normal(np.nan_to_num(obs), 0.01, (499, 3))
    low, high, _ = rank_sets(obs, reps)
    assert low.tolist() == [1, 0, 2] and high.tolist() == [1, 0, 2]


def test_without_resamples_there_is_no_set():
    low, high, better = rank_sets(np.array([0.5, 0.6]), np.zeros((0, 2)))
    assert not low.any() and not high.any() and not better.any()


@pytest.mark.parametrize("higher", [True, False])
@pytest.mark.parametrize("seed", range(16))
def test_agrees_with_the_definition(seed, higher):
    rng = np.random.default_rng(seed)
    m = int(rng.integers(3, 9))
    # spread so that some pairs are settled at once and others only after steps down (about a
    # third of these cases reject differently with the two-sided statistic)
    means = np.sort(rng.uniform(0.4, 0.7, m))
    obs, reps = competition(rng, means, B=int(rng.integers(200, 800)))
    alpha = float(rng.choice([0.05, 0.1, 0.2]))
    low, high, better = rank_sets(obs, reps, higher, alpha, settle=False)
    want_low, want_high, want = mogstad(obs, reps, alpha, higher)
    assert (better == want).all()
    assert low.tolist() == want_low.tolist() and high.tolist() == want_high.tolist()
    # the analysis counts only the settled rejections: fewer, so sets that hold those of the paper
    low_s, high_s, settled = rank_sets(obs, reps, higher, alpha)
    assert not (settled & ~want).any()
    assert (low_s <= want_low).all() and (high_s >= want_high).all()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    m=st.integers(2, 8),
    spread=st.floats(0.0, 0.2),
    ties=st.booleans(),
    higher=st.booleans(),
)
def test_the_observed_rank_lies_in_its_set(seed, m, spread, ties, higher):
    rng = np.random.default_rng(seed)
    means = rng.uniform(0.5, 0.5 + spread, m)
    obs, reps = competition(rng, means, B=199)
    if ties:  # exact ties share a competition rank
        obs = np.round(obs, 2)
    low, high, _ = rank_sets(obs, reps, higher)
    _, rank = order_systems(obs, higher)
    assert (1 <= low).all() and (low <= rank).all() and (rank <= high).all() and (high <= m).all()


def test_analysis_stores_the_sets_of_its_replicates():
    rng = np.random.default_rng(7)
    obs, reps = competition(rng, [0.8, 0.78, 0.7, 0.5], B=999)
    names = ["A", "B", "C", "D"]
    ma = analyze_metric(
        "accuracy", {}, True, 1.0, True, names, obs, reps, Settings(bootstrap=999), n=400
    )
    low, high, better = rank_sets(obs, reps)
    for s in ma.scores:
        i = names.index(s.system)
        assert (s.rank_low, s.rank_high) == (low[i], high[i])
        assert s.rank_low <= s.rank <= s.rank_high
    assert (ma.rank_better == better).all()


def test_results_json_round_trip_keeps_the_sets():
    a = cr.analyze(cr.load("examples/workshop/paraphrase"), bootstrap=400, seed=0, refine=False)
    back = Analysis.from_dict(json.loads(a.to_json()))
    for ma, mb in zip(a.competition().metrics, back.competition().metrics, strict=True):
        assert [(s.rank_low, s.rank_high) for s in ma.scores] == [
            (s.rank_low, s.rank_high) for s in mb.scores
        ]
        assert all(s.rank_low is not None for s in mb.scores)
    want = [(t.team, t.rank_low, t.rank_high) for t in a.competition().team_ranks]
    assert want == [(t.team, t.rank_low, t.rank_high) for t in back.competition().team_ranks]
    assert all(lo <= t.rank <= hi for t, (_, lo, hi) in zip(a.competition().team_ranks, want))
    assert json.loads(a.to_json())["competitions"][0]["metrics"][0]["scores"][0]["rank_high"]


def test_without_resamples_results_have_no_set():
    a = cr.analyze(cr.load("examples/workshop/paraphrase"), bootstrap=0, seed=0, refine=False)
    assert all(s.rank_low is None and s.rank_high is None for s in a.competition().primary.scores)
    assert all(t.rank_low is None for t in a.competition().team_ranks)


def brute_team_sets(runs, better):
    """Teams' sets by enumeration: U above T when some run of U beats every run of T."""
    live = [i for i, r in enumerate(runs) if r]
    out = {}
    for i in live:
        above = [
            j for j in live if j != i and any(all(better[u, t] for t in runs[i]) for u in runs[j])
        ]
        below = [
            j for j in live if j != i and any(all(better[t, u] for u in runs[j]) for t in runs[i])
        ]
        out[i] = (1 + len(above), len(live) - len(below))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_team_sets_from_the_systems_rejections(seed):
    rng = np.random.default_rng(seed)
    obs, reps = competition(rng, np.sort(rng.uniform(0.4, 0.7, 9)), B=499)
    _, _, better = rank_sets(obs, reps)
    teams = [[0, 4], [1], [2, 5, 8], [3, 6], [7]]
    got = team_rank_sets(teams, better)
    want = brute_team_sets(teams, better)
    assert got == [want[i] for i in range(len(teams))]
    # the teams' observed ranks (by their best runs) lie in their sets
    best = [max(obs[r]) for r in teams]
    for i, (lo, hi) in enumerate(got):
        assert lo <= 1 + sum(b > best[i] for b in best) <= hi


def test_arct_sets_agree_with_the_definition():
    """The real SemEval-2018 Task 12 runs: 22 systems, n = 444 (the baseline is ranked too, as
    ``rank`` ranks it)."""
    with pytest.warns(Note):
        data = cr.load(
            ARCT / "gold" / "truth.txt",
            runs=ARCT / "submissions",
            names=ARCT / "names.tsv",
            metrics="accuracy",
        )
    a = cr.analyze(data, bootstrap=1000, seed=1, refine=False)
    ma = a.competition().primary
    obs = np.array([ma.score_of(s).score for s in ma.systems])
    low, high, better = mogstad(obs, ma.replicates, a.settings.alpha)
    mine_low, mine_high, _ = rank_sets(obs, ma.replicates, alpha=a.settings.alpha, settle=False)
    assert mine_low.tolist() == low.tolist() and mine_high.tolist() == high.tolist()
    for s in ma.scores:  # the stored sets count the settled rejections only: they hold these
        i = ma.systems.index(s.system)
        assert s.rank_low <= low[i] and s.rank_high >= high[i]
        assert s.rank_low <= s.rank <= s.rank_high <= 22
    # the winner is 0.106 ahead of the runner-up (n = 444): alone at rank 1 by the paper's
    # step-down; at B = 1,000 the stored set may also hold rank 2 while that rejection is within
    # the Monte-Carlo error of alpha
    best = ma.score_of(ma.best)
    i = ma.systems.index(ma.best)
    assert (low[i], high[i]) == (1, 1) and best.rank_low == 1 and best.rank_high <= 2


def test_reports_show_the_stored_sets():
    """Leaderboards, the HTML report, the LaTeX leaderboard and the team letter print the stored
    sets (``2–6``), in English and in Spanish; the renderers decide nothing."""
    from compreport.language import language
    from compreport.report.model import rank_set
    from compreport.report.pages.team import team_html

    a = cr.analyze(cr.load("examples/workshop/paraphrase"), bootstrap=400, seed=0, refine=False)
    comp = a.competition()
    shown = [rank_set(s.rank_low, s.rank_high) for s in comp.primary.scores]
    assert any("–" in x for x in shown)
    report = cr.Report(a)
    md = report.to_markdown("leaderboard")
    assert md.startswith("| Rank | Rank set | System |")
    assert [line.split(" | ")[1] for line in md.splitlines()[2:]] == shown
    page = report.to_html()
    assert all(f'<td class="num narrow-hide">{x}</td>' in page for x in shown)
    tex = cr.Report(a, latex_columns="rank_set,group").to_latex("leaderboard", comp.id)
    assert "Rank set" in tex and all(f"& {x} &" in tex for x in shown)
    run = comp.primary.scores[3]
    sentence = f"rank {rank_set(run.rank_low, run.rank_high)} at 95% confidence, jointly for all"
    assert sentence in team_html(a, comp, run.system)
    with language("es"):
        assert "Posiciones" in cr.Report(a, lang="es").to_html()
        assert "con una confianza del 95" in team_html(a, comp, run.system)
