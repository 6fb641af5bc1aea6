"""Published numbers and statistical properties: BCa, randomization, coverage, families, groups."""

import re
import warnings
from pathlib import Path

import numpy as np
import pytest
import scipy.stats

from compreport.inputs.competition import Competition, MetricSpec
from compreport.settings import Settings
from compreport.stats import intervals, letters, multitest
from compreport.stats import resampling as bootstrap
from compreport.stats.analysis import analyze_competition
from compreport.stats.metrics import get_metric

DATA = Path(__file__).parent / "data" / "bestgen2022-absa"
SYSTEMS = ["aen_bert", "bert_spc", "memnet", "atae_lstm", "td_lstm"]


def competition(gold, preds, names=None, metric="accuracy", cid="t"):
    gold = np.asarray(gold).astype(str)
    preds = np.asarray(preds).astype(str)
    names = names or [f"s{i}" for i in range(len(preds))]
    return Competition(
        id=cid,
        name=cid,
        gold=gold[:, None],
        predictions=preds[:, :, None],
        systems=names,
        item_ids=np.arange(len(gold)).astype(str),
        metrics=[MetricSpec(metric)],
    )


def bestgen():
    rows = {s: (DATA / f"{s}.csv").read_text().split() for s in SYSTEMS}
    gold = rows[SYSTEMS[0]][1].split(",")
    return competition(gold, [rows[s][0].split(",") for s in SYSTEMS], SYSTEMS, cid="absa")


def expected_table(name):
    """Rows of Bestgen's expected files: (cond1, cond2, numbers...)."""
    out = []
    for line in (DATA / name).read_text().splitlines():
        parts = line.replace("|", " ").replace("[", " ").replace("]", " ").split()
        if len(parts) >= 5 and parts[0] in SYSTEMS:
            out.append((parts[0], parts[1], [float(x) for x in parts[2:]]))
    return out


@pytest.fixture(scope="module", params=[True, False], ids=["refine-on", "refine-off"])
def absa_bca(request):
    return analyze_competition(
        bestgen(), Settings(bootstrap=10000, ci_method="bca", refine=request.param)
    )


def test_bestgen_bca_intervals_of_accuracy_differences(absa_bca):
    """Bestgen (2022) Table 1: 95% BCa CIs of the ten paired accuracy differences, within 0.005,
    with refinement on (the default) and off."""
    pairs = {(c.a, c.b): c for c in absa_bca.metrics[0].pairs}
    rows = expected_table("expected_bca_ci_accuracy.txt")
    assert len(rows) == 10
    for a, b, (_m1, _m2, low, diff, high) in rows:
        c = pairs[(a, b)]
        assert c.diff == pytest.approx(diff, abs=1e-4)
        assert c.ci_low == pytest.approx(low, abs=0.005), (a, b)
        assert c.ci_high == pytest.approx(high, abs=0.005), (a, b)


@pytest.mark.parametrize("refine", [True, False], ids=["refine-on", "refine-off"])
def test_bestgen_fisher_pitman_p_values(refine):
    """Bestgen (2022): paired permutation p-values with 10,000 rounds, within 0.02, with refinement
    on (the default: more rounds where a verdict is unsettled) and off."""
    res = analyze_competition(
        bestgen(), Settings(bootstrap=10000, test="randomization", refine=refine)
    )
    pairs = {(c.a, c.b): c for c in res.metrics[0].pairs}
    rows = expected_table("expected_fisher_pitman_accuracy.txt")
    assert len(rows) == 10
    for a, b, (_m1, _m2, _diff, p) in rows:
        assert pairs[(a, b)].p_value == pytest.approx(p, abs=0.02), (a, b)


def test_bca_matches_scipy_on_small_data():
    rng = np.random.default_rng(5)
    n = 150
    gold = rng.integers(0, 3, n)
    pred = np.where(rng.random(n) < 0.7, gold, rng.integers(0, 3, n))
    comp = competition(gold, [pred, pred])
    prep = get_metric("accuracy").prepare(comp, {})
    res = bootstrap.run([prep], n, 2, 8000, 3, jackknife=True)
    lo, hi = intervals.bca_interval(res.replicates[0], res.observed[0], *res.jackknife[0], 0.05)
    ref = scipy.stats.bootstrap(
        (gold, pred),
        lambda g, p, axis=-1: (g == p).mean(axis=axis),
        paired=True,
        vectorized=True,
        method="BCa",
        n_resamples=8000,
        random_state=1,
    )
    # accuracy moves in steps of 1/150; Monte-Carlo error of a 2.5% quantile at B=8000 is ~1 step
    assert lo[0] == pytest.approx(ref.confidence_interval.low, abs=2 / n)
    assert hi[0] == pytest.approx(ref.confidence_interval.high, abs=2 / n)


def test_bca_of_identical_systems_is_degenerate_not_a_crash():
    gold = np.array([0, 1, 1, 0, 1] * 20)
    pred = np.array([0, 1, 0, 0, 1] * 20)
    res = analyze_competition(
        competition(gold, [pred, pred]), Settings(bootstrap=500, ci_method="bca")
    )
    (c,) = res.metrics[0].pairs
    assert (c.diff, c.ci_low, c.ci_high, c.p_value) == (0.0, 0.0, 0.0, 1.0)


def test_randomization_identical_systems_p_is_one_and_far_systems_small():
    rng = np.random.default_rng(2)
    gold = rng.integers(0, 2, 400)
    good = np.where(rng.random(400) < 0.9, gold, 1 - gold)
    bad = np.where(rng.random(400) < 0.6, gold, 1 - gold)
    res = analyze_competition(
        competition(gold, [good, good, bad]), Settings(bootstrap=2000, test="randomization")
    )
    p = {(c.a, c.b): c.p_value for c in res.metrics[0].pairs}
    assert p[("s0", "s1")] == 1.0
    assert p[("s0", "s2")] == pytest.approx(1 / 2001)


def _pearson_pair(offset=0.0, far=0.0, n=12, seed=3):
    """Gold and two systems whose means differ clearly (the second on its own scale), rounded as
    files write them; ``offset`` shifts gold and the first system, ``far`` the second system."""
    rng = np.random.default_rng(seed)
    gold = np.round(rng.normal(3, 1, n), 2)
    a = np.round(gold + rng.normal(0, 0.8, n), 2)
    b = np.round(0.4 * gold + 7 + rng.normal(0, 0.5, n), 2)
    return gold + offset, np.stack([a + offset, b + far])


def _raw_swap_deltas(gold, preds, masks):
    """|r(gold, a') - r(gold, b')| for each swap mask (rows), a' and b' the RAW predictions with the
    masked items exchanged, by scipy.stats.pearsonr: the textbook test (Noreen 1989; Yeh 2000)."""
    a, b = preds
    masks = np.asarray(masks, dtype=bool)
    g = np.broadcast_to(gold, masks.shape)
    sa = scipy.stats.pearsonr(g, np.where(masks, b, a), axis=1).statistic
    sb = scipy.stats.pearsonr(g, np.where(masks, a, b), axis=1).statistic
    return np.abs(sa - sb)


def test_pearson_randomization_matches_the_exact_test_on_raw_predictions():
    """The Pearson randomization p-value is that of swapping the raw predictions: against the exact
    distribution (all 2^12 swap masks enumerated, scipy's pearsonr on the swapped raw vectors),
    within 4 Monte-Carlo standard errors. Swapping predictions centred on each system's own mean
    would be another test when the means differ (2.9 and 8.3 here): it gives 0.16, the exact
    p-value is 0.87."""
    gold, preds = _pearson_pair()
    n = len(gold)
    masks = (np.arange(1 << n)[:, None] >> np.arange(n)) & 1
    observed = abs(
        scipy.stats.pearsonr(gold, preds[0])[0] - scipy.stats.pearsonr(gold, preds[1])[0]
    )
    exact = np.mean(_raw_swap_deltas(gold, preds, masks) >= observed - 1e-10)
    R = 20000
    prep = get_metric("pearson").prepare(competition(gold, preds, metric="pearson"), {})
    res = bootstrap.run([prep], n, 2, R, seed=8, randomization=True, progress=False)
    (got,) = res.randomization_p(0, np.array([0]), np.array([1]))
    se = np.sqrt(exact * (1 - exact) / R)
    assert abs(got - exact) <= 4 * se + 1 / (R + 1), (got, exact, se)


@pytest.mark.parametrize(
    "offset, far",
    [(0.0, 0.0), (1e6, 0.0), (1e6, 1e6), (0.0, -3e5)],
    ids=["plain", "gold-and-a-at-1e6", "all-at-1e6", "b-at-minus-3e5"],
)
def test_pearson_randomization_rounds_swap_raw_predictions(offset, far):
    """Round by round (the swaps the plan draws, replayed: one item per cluster), the p-value counts
    the rounds whose raw swapped predictions (scipy's pearsonr) differ at least as much as observed,
    also with values around 1e6 of small spread and systems on far-apart offsets (precision)."""
    from compreport.inputs.clusters import Clusters
    from compreport.stats.resampler import Resampler, competition_key

    gold, preds = _pearson_pair(offset, far)
    n, R = len(gold), 3000
    comp = competition(gold, preds, metric="pearson")
    clusters = Clusters.from_labels(list(range(n)))
    res = bootstrap.run(
        [get_metric("pearson").prepare(comp, {})],
        n,
        2,
        R,
        seed=5,
        key=competition_key("t"),
        clusters=clusters,
        randomization=True,
        progress=False,
    )
    (got,) = res.randomization_p(0, np.array([0]), np.array([1]))
    plan = Resampler(n, R, 5, competition_key("t"), clusters.count)
    flips = np.vstack([plan.cluster_swaps(k) for k, _ in enumerate(plan.blocks())])[
        :, clusters.codes
    ].astype(bool)
    observed = abs(
        scipy.stats.pearsonr(gold, preds[0])[0] - scipy.stats.pearsonr(gold, preds[1])[0]
    )
    np.testing.assert_allclose(
        res.observed[0], [scipy.stats.pearsonr(gold, p)[0] for p in preds], rtol=1e-12
    )
    hits = (_raw_swap_deltas(gold, preds, flips) >= observed - 1e-10 * max(1.0, observed)).sum()
    assert got == pytest.approx((1 + hits) / (R + 1), abs=1e-12)


@pytest.mark.parametrize(
    "offset, far",
    [(0.0, 0.0), (1e6, 0.0), (1e6, 1e6), (1e8, -1e6)],
    ids=["plain", "gold-and-a-at-1e6", "all-at-1e6", "1e8-and-minus-1e6"],
)
def test_pearson_scores_of_every_swap_equal_scipy_on_raw_predictions(offset, far):
    """Precision: for every one of the 2^10 swap masks, the scores the randomization test gives the
    two systems (``Prepared.swapped`` on the summed item statistics) are scipy's pearsonr of the
    swapped raw predictions to 1e-12, with values around 1e6 or 1e8 of spread about 1 and far-apart
    systems; the full swap gives the other system's observed score."""
    gold, preds = _pearson_pair(offset, far, n=10)
    n = len(gold)
    p = get_metric("pearson").prepare(competition(gold, preds, metric="pearson"), {})
    shared, per = p.stats(p.columns)
    masks = ((np.arange(1 << n)[:, None] >> np.arange(n)) & 1).astype(bool)
    moved_shared = masks @ shared
    moved = np.einsum("rn,nmb->rmb", masks.astype(float), per)
    total, tot = np.broadcast_to(shared.sum(0), moved_shared.shape), per.sum(0)
    a, b = np.array([0]), np.array([1])
    sa = p.swapped(total, tot[a] - moved[:, a], moved_shared, moved[:, b], float(n), a, b)[:, 0]
    sb = p.swapped(total, tot[b] - moved[:, b], moved_shared, moved[:, a], float(n), b, a)[:, 0]
    g = np.broadcast_to(gold, masks.shape)
    np.testing.assert_allclose(
        sa,
        scipy.stats.pearsonr(g, np.where(masks, preds[1], preds[0]), axis=1).statistic,
        rtol=0,
        atol=1e-12,
    )
    np.testing.assert_allclose(
        sb,
        scipy.stats.pearsonr(g, np.where(masks, preds[0], preds[1]), axis=1).statistic,
        rtol=0,
        atol=1e-12,
    )
    observed = p.finalize(shared.sum(0), tot, float(n))
    assert (sa[-1], sb[-1]) == pytest.approx((observed[1], observed[0]), rel=0, abs=1e-14)


def test_percentile_ci_coverage_of_accuracy():
    """On data from a known population (accuracy 0.7), the 95% CI covers the truth 93-97% of the
    time.

    The 400 trials are 400 systems of one competition, each correct on an item with probability 0.7
    independently of the others: independent data sets, resampled by one shared index matrix (as the
    engine always does), so one call of the engine instead of 400."""
    rng = np.random.default_rng(11)
    n, reps, truth = 200, 400, 0.7
    gold = rng.integers(0, 2, n)
    preds = np.where(rng.random((reps, n)) < truth, gold, 1 - gold)
    prep = get_metric("accuracy").prepare(competition(gold, preds), {})
    res = bootstrap.run([prep], n, reps, 1000, 0)
    lo, hi = intervals.percentile_interval(res.replicates[0], 0.05)
    assert lo.shape == (reps,)
    covered = np.mean((lo <= truth) & (truth <= hi))
    assert 0.93 <= covered <= 0.97, covered


def test_paper_table5_per_row_family():
    """The paper's Table 5 (Basque, F1): Bonferroni/Holm/BH corrected within each row."""
    rows = ["WordUp.01"] * 4 + ["WordUp.02"] * 3 + ["MultiAztertest.01"] * 2 + ["SQYQP.01"]
    p = np.array([0.2030, 0.0551, 0.0012, 0.0000, 0.1490, 0.0039, 0.0000, 0.0330, 0.0003, 0.0427])
    paper = {
        "bonferroni": [
            0.8120,
            0.2204,
            0.0048,
            0.0000,
            0.4470,
            0.0117,
            0.0000,
            0.0660,
            0.0006,
            0.0427,
        ],
        "holm": [0.2030, 0.1102, 0.0036, 0.0000, 0.1490, 0.0078, 0.0000, 0.0330, 0.0006, 0.0427],
        "bh": [0.2030, 0.0735, 0.0024, 0.0000, 0.1490, 0.0058, 0.0000, 0.0330, 0.0006, 0.0427],
    }
    out = multitest.correct_within(p, np.array(rows))
    for key, col in paper.items():
        np.testing.assert_allclose(out[key], col, atol=1e-4, err_msg=key)
    # one family of all ten pairs gives different (larger) Bonferroni values
    assert multitest.correct(p)["bonferroni"][0] == pytest.approx(1.0)


def _letters_ok(groups, different):
    m = different.shape[0]
    for i in range(m):
        for j in range(i + 1, m):
            share = bool(set(groups[i]) & set(groups[j]))
            assert share == (not different[i, j]), (i, j, groups)


@pytest.mark.parametrize("seed", range(6))
def test_letter_display_is_valid_and_agrees_with_scikit_posthocs(seed):
    import scikit_posthocs

    rng = np.random.default_rng(seed)
    m = 7
    score = np.sort(rng.random(m))[::-1]
    # significance that follows the ranking: far-apart systems differ
    different = np.abs(score[:, None] - score[None, :]) > rng.uniform(0.2, 0.5)
    np.fill_diagonal(different, False)
    ours = letters.letters(list(range(m)), different)
    _letters_ok(ours, different)
    pv = np.where(different, 0.001, 0.5)
    theirs = scikit_posthocs.compact_letter_display(pv, alpha=0.05)
    groups_ours = {
        frozenset(i for i in range(m) if ch in ours[i]) for ch in set("".join(ours.values()))
    }
    groups_theirs = {
        frozenset(i for i in range(m) if ch in theirs.iloc[i])
        for ch in set("".join(theirs)) - {" "}
    }
    assert groups_ours == groups_theirs


def test_groups_in_results_follow_the_chosen_correction():
    c = bestgen()
    res = analyze_competition(c, Settings(bootstrap=3000, correction="none"))
    ma = res.metrics[0]
    assert ma.scores[0].group.startswith("a")
    p = {frozenset((x.a, x.b)): (x.p_value, x.undecided) for x in ma.pairs}
    g = {s.system: s.group for s in ma.scores}
    for pair, (pv, undecided) in p.items():  # an undecided pair separates no groups
        a, b = tuple(pair)
        assert bool(set(g[a]) & set(g[b])) == (pv >= 0.05 or undecided)
    assert re.fullmatch(r"[a-z]+", ma.scores[-1].group)


def test_too_few_resamples_for_the_corrections_is_warned():
    from compreport.errors import InputWarning

    rng = np.random.default_rng(0)
    gold = rng.integers(0, 2, 100)
    preds = [np.where(rng.random(100) < q, gold, 1 - gold) for q in np.linspace(0.5, 0.95, 12)]
    with pytest.warns(
        InputWarning,
        match=r"Holm correction over all pairs of systems \(66 comparisons tested\) can never "
        r"reject.*use bootstrap=1320 or more",
    ):
        analyze_competition(
            competition(gold, preds), Settings(bootstrap=1000, refine=False, correction="holm")
        )
    from compreport.errors import raw, worded
    from compreport.language.caller import command_line

    with pytest.warns(InputWarning) as caught:  # the command line's words, where it prints
        analyze_competition(
            competition(gold, preds), Settings(bootstrap=1000, refine=False, correction="holm")
        )
    assert any("use -B 1320 or more" in worded(raw(w.message), command_line()) for w in caught)
    # refinement may draw 16 B: B = 1000 can reject then, B = 50 cannot (800 < 1320)
    with pytest.warns(
        InputWarning, match=r"with B = 50 \(refined up to 800\).*use bootstrap=83 or more"
    ):
        analyze_competition(
            competition(gold, preds), Settings(bootstrap=50, correction="holm", refine=True)
        )
    with warnings.catch_warnings():
        warnings.simplefilter("error", InputWarning)
        analyze_competition(
            competition(gold, preds), Settings(bootstrap=1000, correction="holm", refine=True)
        )
    # vs-best is corrected over all 66 pairs too (the best is chosen on the data): the same warning
    with pytest.warns(InputWarning, match=r"\(66 comparisons tested\) can never reject"):
        analyze_competition(
            competition(gold, preds),
            Settings(bootstrap=1000, family="vs-best", correction="holm", refine=False),
        )
    # max-T (the default) and BH can reject with any B >= 20: an adjusted p-value is one exceedance
    # proportion
    for settings in (
        Settings(bootstrap=100, refine=False),
        Settings(bootstrap=1000, correction="bh", refine=True),  # refined: 66/16001 < 0.05
    ):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always", InputWarning)
            ca = analyze_competition(competition(gold, preds), settings)
        assert not [w for w in seen if "can never reject" in str(w.message)]
        # but the summary's Bonferroni and Holm tie counts cannot reach alpha over 66 pairs with
        # B = 100 (66/101 > 0.05): printed "-", and the run says so, with the B that would do
        said = [str(w.message) for w in seen if "competitiveness summary" in str(w.message)]
        nc = ca.primary.competitiveness["not_computable"]
        if settings.bootstrap == 100:
            assert set(nc["ties"]) == set(nc["ties_with_winner"]) == {"bonferroni", "holm"}
            assert len(said) == 1 and "use bootstrap=1320 or more" in said[0], said
        else:
            assert said == [] and nc == {"ties_with_winner": {}, "ties": {}}


def test_a_metric_given_twice_is_an_error():
    from compreport.errors import InputError

    comp = competition([0, 1, 1, 0], [[0, 1, 0, 0], [1, 1, 1, 0]])
    comp.metrics = [MetricSpec("accuracy"), MetricSpec("accuracy")]
    with pytest.raises(InputError, match="given twice"):
        analyze_competition(comp, Settings(bootstrap=10))


def test_vs_best_family_tests_only_the_comparisons_with_the_best():
    """--family vs-best: the pairs with the best carry the corrections over all pairs (the best is
    chosen on the same data), the other pairs are untested (NaN); groups come from those m-1 tests
    alone; ties among all pairs are those of all-pairs."""
    from conftest import make_competition

    rng = np.random.default_rng(4)
    gold = rng.integers(0, 2, 400)
    preds = [np.where(rng.random(400) < q, gold, 1 - gold) for q in (0.9, 0.89, 0.8, 0.7, 0.6)]
    comp = make_competition(gold, preds)
    ca_all = analyze_competition(comp, Settings(bootstrap=2000), progress=False).primary
    ma = analyze_competition(
        comp, Settings(bootstrap=2000, family="vs-best"), progress=False
    ).primary
    best = ma.best
    vb = {c.b: c for c in ma.vs_best}
    every = {(c.a, c.b): c for c in ca_all.pairs}
    assert len(ma.pairs) == 10
    for c in ma.pairs:
        for k in ("p_value", "p_bonferroni", "p_holm", "p_bh", "p_maxt"):
            assert getattr(c, k) == getattr(every[c.a, c.b], k)
            if c.a == best:
                assert getattr(c, k) == getattr(vb[c.b], k)
        assert (c.significant is None) == (c.a != best)
    tied = {c.b for c in ma.vs_best if c.p_maxt >= 0.05}
    letter = ma.scores[0].group[0]
    assert {s.system for s in ma.scores if letter in s.group} == {best} | tied
    assert ma.competitiveness["ties"] == ca_all.competitiveness["ties"]
