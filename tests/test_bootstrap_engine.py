"""The paired bootstrap engine against a plain loop, and its determinism and drawing schemes.

The fast path (``counts @ stats`` over patterns) must give, replicate by replicate, what
scikit-learn/scipy give on the very item indices the :class:`Resampler` hands out.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.stats
from sklearn import metrics as sk

from compreport.stats import memory
from compreport.stats import resampling as bootstrap
from compreport.stats.memory import block_rows
from compreport.stats.resampler import Resampler, competition_key
from compreport.stats.summing import unique_rows
from compreport.workers import LocalPool
from conftest import make_competition, prepare

KEY = competition_key("engine-test")


def _mixed_competition(n=40, m=3, seed=7):
    """Two fields: a stance label and a numeric score; systems of differing quality."""
    rng = np.random.default_rng(seed)
    labels = np.array(["AGAINST", "FAVOR", "NONE"])
    gold_l = rng.choice(labels, n)
    gold_s = rng.integers(1, 6, n)
    preds = []
    for s in range(m):
        pl = np.where(rng.random(n) < 0.3 + 0.15 * s, rng.choice(labels, n), gold_l)
        ps = np.clip(gold_s + rng.integers(-s - 1, s + 2, n), 1, 5)
        preds.append(np.column_stack([pl, ps.astype(str)]))
    comp = make_competition(
        np.column_stack([gold_l, gold_s.astype(str)]), np.stack(preds), fields=["label", "score"]
    )
    # _sk's macro-F1 label set is the full-data one only if every system uses every label
    assert all(set(p[:, 0]) == set(labels) for p in preds) and set(gold_l) == set(labels)
    return comp, gold_l, gold_s.astype(float), np.stack(preds)


def _sk(name, g, p):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if name == "accuracy":
            return sk.accuracy_score(g, p)
        if name == "macro_f1":
            # full-data label set: every label occurs in the full data of each system here
            return sk.f1_score(
                g, p, labels=["AGAINST", "FAVOR", "NONE"], average="macro", zero_division=0
            )
        if name == "f1":
            return sk.f1_score(g, p, labels=["FAVOR"], average=None, zero_division=0)[0]
        if name == "mae":
            return sk.mean_absolute_error(g.astype(float), p.astype(float))
        if name == "spearman":
            return scipy.stats.spearmanr(g.astype(float), p.astype(float))[0]
    raise AssertionError(name)


METRICS = [
    ("accuracy", {"field": "label"}),
    ("macro_f1", {"field": "label"}),
    ("f1", {"field": "label", "pos_label": "FAVOR"}),
    ("mae", {"field": "score"}),
    ("spearman", {"field": "score"}),
]


def _loop_check(comp, gold_l, gold_s, preds, res, B, seed, names):
    """Replicate i of every metric == scikit-learn/scipy on the indices of resample i."""
    rs = Resampler(comp.n, B, seed, KEY)
    blocks = rs.blocks()
    assert blocks[0][0] == 0 and blocks[-1][1] == B and len(blocks) >= 2
    checked = 0
    for k, (start, stop) in enumerate(blocks):
        idx = rs.indices(k)
        assert idx.shape == (stop - start, comp.n)
        for r, rows in enumerate(idx):
            for i, name in enumerate(names):
                g = gold_s[rows] if name in ("mae", "spearman") else gold_l[rows]
                col = 1 if name in ("mae", "spearman") else 0
                for s in range(comp.m):
                    exp = _sk(name, g, preds[s, rows, col])
                    got = res.replicates[i][start + r, s]
                    assert got == pytest.approx(exp, abs=1e-12), (name, start + r, s)
                    checked += 1
    return checked


@pytest.fixture(scope="module")
def mixed():
    return _mixed_competition()


@pytest.fixture
def small_blocks(monkeypatch):
    """Blocks of 24 replicates for the 40-item competition (256 by default): the
    replicate-by-replicate checks below cross block boundaries with a tenth of the scikit-learn
    calls."""
    monkeypatch.setattr(memory, "_BLOCK_CELLS", 24 * 40)
    assert block_rows(40) == 24


def test_fast_path_equals_plain_loop_all_metrics_one_run(mixed, small_blocks):
    """accuracy, macro_f1, f1, mae (fast path) and spearman (generic path) in one run: every
    replicate equals the metric of the Resampler's indices, so replicate i of every metric
    comes from the same resample."""
    comp, gold_l, gold_s, preds = mixed
    B = block_rows(comp.n) + 20  # two blocks
    prepared = [prepare(comp, name, **params) for name, params in METRICS]
    res = bootstrap.run(prepared, comp.n, comp.m, B=B, seed=11, key=KEY, progress=False)
    assert res.mode == "items"  # spearman is evaluated per resample
    assert all(r.shape == (B, comp.m) for r in res.replicates)
    checked = _loop_check(comp, gold_l, gold_s, preds, res, B, 11, [n for n, _ in METRICS])
    assert checked == B * comp.m * len(METRICS)


def test_fast_path_items_mode_decomposable_only(mixed, small_blocks):
    """Forced items mode without a generic metric: still the Resampler's indices."""
    comp, gold_l, gold_s, preds = mixed
    B = block_rows(comp.n) + 5
    names = ["accuracy", "macro_f1", "f1", "mae"]
    prepared = [prepare(comp, name, **params) for name, params in METRICS if name in names]
    res = bootstrap.run(
        prepared, comp.n, comp.m, B=B, seed=3, key=KEY, mode="items", progress=False
    )
    assert res.mode == "items"
    _loop_check(comp, gold_l, gold_s, preds, res, B, 3, names)


def test_observed_equals_full_data(mixed):
    comp, gold_l, gold_s, preds = mixed
    prepared = [prepare(comp, name, **params) for name, params in METRICS]
    res = bootstrap.run(prepared, comp.n, comp.m, B=0, seed=0, progress=False)
    for i, (name, _) in enumerate(METRICS):
        assert res.replicates[i].shape == (0, comp.m)
        col = 1 if name in ("mae", "spearman") else 0
        g = gold_s if col else gold_l
        for s in range(comp.m):
            assert res.observed[i][s] == pytest.approx(_sk(name, g, preds[s, :, col]), abs=1e-12)


def test_jobs_do_not_change_generic_results():
    comp, *_ = _mixed_competition(n=30)
    p = [prepare(comp, "spearman", field="score"), prepare(comp, "accuracy", field="label")]
    B = 2 * block_rows(comp.n) + 50  # three blocks: the pool really splits the work
    one = bootstrap.run(p, comp.n, comp.m, B=B, seed=5, key=KEY, progress=False)
    two = bootstrap.run(
        p, comp.n, comp.m, B=B, seed=5, key=KEY, executor=LocalPool(2), progress=False
    )
    for a, b in zip(one.replicates, two.replicates, strict=True):
        np.testing.assert_array_equal(a, b)
    assert np.isfinite(one.replicates[0]).all() and one.replicates[0].std() > 0


@pytest.mark.parametrize("mode", ["items", "patterns", "clusters"])
def test_jobs_do_not_change_decomposable_results(mixed, small_blocks, mode):
    """Blocks drawn by forked workers give the replicates, the randomization rounds and the p-values
    of a run in one process, from a start (refinement) too."""
    from compreport.inputs.clusters import Clusters

    comp, *_ = mixed
    p = [prepare(comp, "accuracy", field="label"), prepare(comp, "mae", field="score")]
    kw = dict(seed=6, key=KEY, progress=False, randomization=True, start=30)
    if mode == "clusters":
        kw["clusters"] = Clusters.from_labels([i // 3 for i in range(comp.n)])
    else:
        kw["mode"] = mode
    one = bootstrap.run(p, comp.n, comp.m, B=130, **kw)
    two = bootstrap.run(p, comp.n, comp.m, B=130, executor=LocalPool(2), **kw)
    assert one.mode == mode and one.replicates[0].shape == (100, comp.m)
    for a, b in zip(one.replicates, two.replicates, strict=True):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(one.swaps, two.swaps)


def test_seed_and_key_determine_the_numbers(mixed):
    comp, *_ = mixed
    for names in (["accuracy", "macro_f1"], ["accuracy", "spearman"]):
        p = [prepare(comp, name, **dict(METRICS)[name]) for name in names]

        def draw(seed, key=KEY, mode=None, p=p):
            return bootstrap.run(
                p, comp.n, comp.m, B=300, seed=seed, key=key, mode=mode, progress=False
            ).replicates

        a, b, c, d = draw(1), draw(1), draw(2), draw(1, key=KEY + 1)
        for x, y, z, w in zip(a, b, c, d, strict=True):
            np.testing.assert_array_equal(x, y)
            assert not np.array_equal(x, z)
            assert not np.array_equal(x, w)
            # different seeds: different resamples, not the same ones reordered or shifted
            assert (x != z).mean() > 0.5
    # pattern mode is seeded too
    p = [prepare(comp, "accuracy", field="label")]
    r1 = bootstrap.run(
        p, comp.n, comp.m, B=100, seed=9, mode="patterns", progress=False
    ).replicates[0]
    r2 = bootstrap.run(
        p, comp.n, comp.m, B=100, seed=9, mode="patterns", progress=False
    ).replicates[0]
    r3 = bootstrap.run(
        p, comp.n, comp.m, B=100, seed=10, mode="patterns", progress=False
    ).replicates[0]
    np.testing.assert_array_equal(r1, r2)
    assert not np.array_equal(r1, r3)


def test_replicates_do_not_depend_on_B_prefix(mixed):
    """Blocks are drawn independently: the first replicates of a longer run are the same."""
    comp, *_ = mixed
    p = [prepare(comp, "macro_f1", field="label")]
    short = bootstrap.run(
        p, comp.n, comp.m, B=256, seed=4, mode="items", progress=False
    ).replicates[0]
    long = bootstrap.run(p, comp.n, comp.m, B=600, seed=4, mode="items", progress=False).replicates[
        0
    ]
    np.testing.assert_array_equal(long[:256], short)


@pytest.mark.parametrize("mode", ["items", "patterns"])
def test_a_run_from_start_continues_the_plan(mixed, mode):
    """Refinement draws only the new resamples: a run of replicates 300..599 joined to a run of the
    first 300 (not a whole number of blocks) is a run of 600, replicates and randomization
    rounds."""
    comp, *_ = mixed
    p = [prepare(comp, "accuracy", field="label"), prepare(comp, "mae", field="score")]
    assert 300 % block_rows(comp.n) != 0
    kw = dict(seed=4, key=KEY, mode=mode, progress=False, randomization=True)
    whole = bootstrap.run(p, comp.n, comp.m, B=600, **kw)
    first = bootstrap.run(p, comp.n, comp.m, B=300, **kw)
    rest = bootstrap.run(p, comp.n, comp.m, B=600, start=300, **kw)
    assert rest.replicates[0].shape == (300, comp.m)
    joined = first.joined(rest)
    for got, exp in zip(joined.replicates, whole.replicates, strict=True):
        np.testing.assert_array_equal(got, exp)
    np.testing.assert_array_equal(joined.swaps, whole.swaps)
    a, b = np.array([0, 0, 1]), np.array([1, 2, 2])
    np.testing.assert_array_equal(joined.randomization_p(0, a, b), whole.randomization_p(0, a, b))


@pytest.fixture(scope="module")
def big():
    """n = 20000 items, 3 labels, 3 systems: at most 3**4 = 81 patterns."""
    rng = np.random.default_rng(2024)
    n = 20000
    gold = rng.integers(0, 3, n)
    preds = np.stack(
        [np.where(rng.random(n) < q, rng.integers(0, 3, n), gold) for q in (0.3, 0.5, 0.8)]
    )
    return make_competition(gold, preds)


def test_patterns_chosen_automatically_and_match_items_in_distribution(big):
    comp = big
    p = [prepare(comp, "accuracy"), prepare(comp, "macro_f1")]
    B = 4000
    pat = bootstrap.run(p, comp.n, comp.m, B=B, seed=1, key=KEY, progress=False)
    items = bootstrap.run(p, comp.n, comp.m, B=B, seed=1, key=KEY, mode="items", progress=False)
    assert pat.mode == "patterns" and items.mode == "items"
    joint = np.column_stack([comp.gold[:, 0], comp.predictions[:, :, 0].T])
    assert pat.patterns == len(np.unique(joint, axis=0)) <= 81
    for i in range(2):
        np.testing.assert_array_equal(pat.observed[i], items.observed[i])
        a, b = pat.replicates[i], items.replicates[i]
        sd = b.std(axis=0, ddof=1)
        # Two independent samples of B replicates of the same distribution:
        # SE(mean_a - mean_b) = sd * sqrt(2 / B); SE(sd_a - sd_b) ~= sd * sqrt(1 / (B - 1))
        # (near-normal replicates). Allow 4.5 SE: a false alarm has probability < 1e-5 per check.
        assert np.all(np.abs(a.mean(0) - b.mean(0)) < 4.5 * sd * np.sqrt(2 / B)), i
        assert np.all(np.abs(a.std(0, ddof=1) - sd) < 4.5 * sd * np.sqrt(1 / (B - 1))), i
    # accuracy of a resample is a binomial proportion: its bootstrap SD is sqrt(p(1-p)/n)
    acc = pat.observed[0]
    exact_sd = np.sqrt(acc * (1 - acc) / comp.n)
    for r in (pat.replicates[0], items.replicates[0]):
        assert np.all(np.abs(r.std(0, ddof=1) - exact_sd) < 4.5 * exact_sd * np.sqrt(1 / (B - 1)))
        assert np.all(np.abs(r.mean(0) - acc) < 4.5 * exact_sd / np.sqrt(B))


def test_pattern_mode_refused_with_a_generic_metric(mixed):
    comp, *_ = mixed
    p = [prepare(comp, "spearman", field="score")]
    with pytest.raises(ValueError):
        bootstrap.run(p, comp.n, comp.m, B=10, seed=0, mode="patterns", progress=False)


@pytest.mark.parametrize("mode", ["patterns", "items"])
def test_metrics_share_replicates_in_both_modes(big, mode):
    """micro-F1 over all labels is accuracy, mse is rmse squared: equal replicate by replicate
    only if every metric's replicate i comes from the same resample."""
    comp = big
    p = [prepare(comp, name) for name in ("accuracy", "micro_f1", "mse", "rmse", "macro_f1")]
    res = bootstrap.run(p, comp.n, comp.m, B=300, seed=2, mode=mode, progress=False)
    acc, micro, mse, rmse, macro = res.replicates
    np.testing.assert_allclose(micro, acc, rtol=0, atol=1e-12)
    np.testing.assert_allclose(rmse**2, mse, rtol=1e-12)
    # and the pairing is strong: accuracy and macro-F1 replicates move together
    for s in range(comp.m):
        assert np.corrcoef(acc[:, s], macro[:, s])[0, 1] > 0.8


# --------------------------------------------------------------------------- edge cases


def test_identical_systems_have_identical_replicates():
    rng = np.random.default_rng(3)
    n = 50
    gold = rng.integers(0, 2, n)
    a = np.where(rng.random(n) < 0.3, 1 - gold, gold)
    b = np.where(rng.random(n) < 0.4, 1 - gold, gold)
    comp = make_competition(gold, np.stack([a, b, a]))
    names = ["accuracy", "f1", "macro_f1", "mae", "pearson", "spearman", "roc_auc"]
    p = [prepare(comp, name) for name in names]
    res = bootstrap.run(p, n, 3, B=300, seed=0, progress=False)
    for name, o, r in zip(names, res.observed, res.replicates, strict=True):
        assert o[0] == o[2], name
        np.testing.assert_array_equal(r[:, 0], r[:, 2], err_msg=name)
        assert not np.array_equal(r[:, 0], r[:, 1]), name
    p = [prepare(comp, name) for name in ("accuracy", "macro_f1")]
    res = bootstrap.run(p, n, 3, B=300, seed=0, mode="patterns", progress=False)
    for r in res.replicates:
        np.testing.assert_array_equal(r[:, 0], r[:, 2])


@pytest.mark.parametrize("mode", [None, "items"])
def test_single_system(mode):
    rng = np.random.default_rng(8)
    n = 60
    gold = rng.integers(0, 3, n)
    pred = np.where(rng.random(n) < 0.3, rng.integers(0, 3, n), gold)
    comp = make_competition(gold, pred[None])
    names = ["accuracy", "macro_f1", "weighted_f1", "mae", "pearson"]
    p = [prepare(comp, name) for name in names]
    res = bootstrap.run(p, n, 1, B=200, seed=0, mode=mode, progress=False)
    assert res.observed[0] == pytest.approx(sk.accuracy_score(gold, pred))
    assert res.observed[1] == pytest.approx(sk.f1_score(gold, pred, average="macro"))
    for o, r in zip(res.observed, res.replicates, strict=True):
        assert o.shape == (1,) and r.shape == (200, 1)
        assert np.isfinite(r).all() and r.std() > 0
        assert r.min() <= o[0] <= r.max()
    # generic metric with one system
    p = [prepare(comp, "spearman")]
    res = bootstrap.run(p, n, 1, B=50, seed=0, progress=False)
    assert res.replicates[0].shape == (50, 1) and np.isfinite(res.replicates[0]).all()


@pytest.mark.parametrize("value", [0.1, 3.0, 1 / 3, -7.7])
def test_pearson_constant_predictions_is_nan(value):
    rng = np.random.default_rng(1)
    n = 37
    gold = np.round(rng.normal(0, 1, n), 2)
    good = np.round(gold + rng.normal(0, 0.5, n), 2)
    comp = make_competition(gold, np.stack([np.full(n, value), good]))
    p = [prepare(comp, "pearson"), prepare(comp, "spearman")]
    for mode in ("items", None):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no RuntimeWarning (0/0) escapes either
            res = bootstrap.run(p, n, 2, B=300, seed=0, mode=mode, progress=False)
        expected_good = [scipy.stats.pearsonr(gold, good)[0], scipy.stats.spearmanr(gold, good)[0]]
        for o, r, e in zip(res.observed, res.replicates, expected_good, strict=True):
            assert np.isnan(o[0]) and np.isnan(r[:, 0]).all()
            assert o[1] == pytest.approx(e, abs=1e-12)
            assert np.isfinite(r[:, 1]).all()


def test_pearson_constant_gold_on_a_resample_is_nan():
    """Resamples drawing a single distinct gold (or prediction) value have no correlation."""
    gold = np.array([0.1, 0.2, 0.3])
    pred = np.array([[0.3, 0.1, 0.7], [0.7, 0.7, 0.2]])
    comp = make_competition(gold, pred)
    p = prepare(comp, "pearson")
    res = bootstrap.run([p], 3, 2, B=2000, seed=0, mode="items", progress=False)
    rs = Resampler(3, 2000, 0)
    idx = np.vstack([rs.indices(k) for k in range(len(rs.blocks()))])
    flat_gold = np.array([len(set(row)) == 1 for row in idx])
    flat_pred = np.array([[len(set(pred[s, row])) == 1 for s in range(2)] for row in idx])
    expect_nan = flat_gold[:, None] | flat_pred
    assert expect_nan.any() and (~expect_nan).any()
    np.testing.assert_array_equal(np.isnan(res.replicates[0]), expect_nan)
    ok = ~expect_nan
    assert np.all(np.abs(res.replicates[0][ok]) <= 1.0)


# --------------------------------------------------------------------------- cell engine


def test_cells_engine_equals_plain_loop(mixed, small_blocks):
    """The confusion-cell engine (weights summed per system per (gold, predicted) cell), forced,
    gives replicate by replicate what scikit-learn gives on the Resampler's indices; mae in the
    same run keeps the dense product."""
    comp, gold_l, gold_s, preds = mixed
    B = block_rows(comp.n) + 20
    names = ["accuracy", "macro_f1", "f1", "mae"]
    prepared = [prepare(comp, name, **params) for name, params in METRICS if name in names]
    res = bootstrap.run(
        prepared, comp.n, comp.m, B=B, seed=3, key=KEY, mode="items", engine="cells", progress=False
    )
    assert res.engine == "cells"
    _loop_check(comp, gold_l, gold_s, preds, res, B, 3, names)


@pytest.mark.parametrize("mode", ["items", "patterns"])
def test_cells_engine_equals_dense_bit_for_bit(mode):
    """Same seed, same resamples: both engines give identical replicates, observed scores,
    leave-one-out values and randomization statistics (every count is an integer summed exactly)."""
    rng = np.random.default_rng(5)
    n, m, k = 3000, 6, 7
    gold = rng.integers(0, k, n)
    preds = np.stack(
        [np.where(rng.random(n) < q, rng.integers(0, k, n), gold) for q in np.linspace(0.2, 0.7, m)]
    )
    preds[2, :5] = k  # a label gold never has
    comp = make_competition(gold, preds)
    names = [
        "accuracy",
        "macro_f1",
        "micro_f1",
        "weighted_f1",
        "macro_precision",
        "macro_recall",
        "mae",
    ]
    p = [prepare(comp, name) for name in names] + [prepare(comp, "f1", pos_label="3")]
    kw = dict(B=700, seed=8, key=KEY, mode=mode, jackknife=True, randomization=True, progress=False)
    dense = bootstrap.run(p, n, m, engine="dense", **kw)
    cells = bootstrap.run(p, n, m, engine="cells", **kw)
    assert dense.engine == "dense" and cells.engine == "cells"
    np.testing.assert_array_equal(dense.total, cells.total)
    np.testing.assert_array_equal(dense.swaps, cells.swaps)
    for i in range(len(p)):
        np.testing.assert_array_equal(dense.observed[i], cells.observed[i])
        np.testing.assert_array_equal(dense.replicates[i], cells.replicates[i])
        np.testing.assert_array_equal(dense.jackknife[i][0], cells.jackknife[i][0])
    a, b = np.array([0, 1, 4]), np.array([3, 5, 2])
    np.testing.assert_array_equal(dense.randomization_p(0, a, b), cells.randomization_p(0, a, b))


def test_engine_chosen_by_cost():
    """Many classes and distinct items: cells; few patterns of a binary task: the dense product."""
    rng = np.random.default_rng(1)
    n, m, k = 2000, 8, 12
    gold = rng.integers(0, k, n)
    preds = np.stack([np.where(rng.random(n) < 0.4, rng.integers(0, k, n), gold) for _ in range(m)])
    comp = make_competition(gold, preds)
    assert (
        bootstrap.run([prepare(comp, "macro_f1")], n, m, B=10, seed=0, progress=False).engine
        == "cells"
    )
    comp = make_competition(gold % 2, preds[:2] % 2)
    assert (
        bootstrap.run([prepare(comp, "mae")], n, 2, B=10, seed=0, progress=False).engine == "dense"
    )


def test_unique_rows_equals_numpy_unique():
    rng = np.random.default_rng(0)
    cases = [
        rng.integers(0, 3, (500, 4)).astype(float),
        rng.integers(0, 40, (3000, 30)).astype(float),
        np.round(rng.normal(size=(400, 3)), 1),
        np.column_stack([rng.integers(0, 2, 300), rng.random(300)]),
        np.zeros((5, 2)),
    ]
    for cols in cases:
        exp = np.unique(cols, axis=0, return_inverse=True, return_counts=True)
        got = unique_rows(cols)
        np.testing.assert_array_equal(got[0], exp[0])
        np.testing.assert_array_equal(got[1], exp[1].ravel())
        np.testing.assert_array_equal(got[2], exp[2])
