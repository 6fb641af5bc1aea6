"""The randomization test swaps predictions between two systems; a measure that averages over
each system's own labels (macro and micro averages without ``labels``, Hamming loss, span
averages) must then average over the labels the mixture predicts, as scikit-learn or the
reference scores the swapped runs. Checked swap by swap through the engine's own path
(``Prepared.swapped`` when the metric has one, else ``finalize(..., systems=)``), and on a full
randomization test against the exact permutation distribution."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from compreport.stats import resampling
from conftest import make_competition, prepare

#: Gold and two runs whose label sets differ: run 1 predicts "x" (single label), "x" in a set, or
#: the type MISC, which neither the gold nor run 0 has.
CASES = {
    "single": (
        ["a", "b", "a", "b", "a", "b"],
        [["a", "b", "a", "b", "b", "b"], ["x", "b", "a", "x", "a", "b"]],
        ["macro_f1", "micro_f1", "weighted_f1", "macro_precision", "macro_recall"],
    ),
    "sets": (
        ['["a"]', '["a","b"]', '["b"]', '["a"]', '["b"]', '["a","b"]'],
        [
            ['["a"]', '["a"]', '["b"]', '["a"]', '["a"]', '["a","b"]'],
            ['["a","x"]', '["a","b"]', '["b"]', '["x"]', '["b"]', '["a","b"]'],
        ],
        ["macro_f1", "micro_f1", "weighted_f1", "macro_precision", "macro_recall", "hamming_loss"],
    ),
    "spans": (
        ['[[0,4,"LOC"]]', '[[0,4,"PER"]]', '[[0,4,"LOC"]]', '[[0,4,"PER"]]'],
        [
            ['[[0,4,"LOC"]]', '[[0,4,"PER"]]', '[[0,4,"LOC"]]', '[[0,4,"LOC"]]'],
            ['[[0,4,"LOC"],[5,8,"MISC"]]', '[[0,4,"PER"],[5,8,"MISC"]]', '[[0,4,"LOC"]]', "[]"],
        ],
        ["span_f1", "span_precision", "span_recall"],
    ),
}


def scores(gold, runs, name, **params) -> np.ndarray:
    """Each run's score on the full data, from a fresh preparation (the reference for a mixture:
    every measure here equals scikit-learn's or seqeval's there, tests/test_multilabel.py and
    tests/test_spans.py)."""
    p = prepare(make_competition(gold, runs), name, **params)
    shared, per = p.stats(p.columns)
    return p.finalize(shared.sum(0), per.sum(0), float(len(gold)))


def swapped_scores(p, z: np.ndarray) -> tuple[float, float]:
    """The two systems' scores once they exchange their predictions on the items ``z``, as the
    engine's randomization test computes them (resampling.Results.randomization_p)."""
    shared, per = p.stats(p.columns)
    n, tot = len(z), per.sum(0)
    moved_sys, moved_shared = per[z].sum(0), shared[z].sum(0)
    total = shared.sum(0)[None]
    a, b = np.array([0]), np.array([1])
    if p.swapped is None:
        moved = (moved_sys[1] - moved_sys[0])[None, None]
        sa = p.finalize(total, tot[a][None] + moved, float(n), systems=a)
        sb = p.finalize(total, tot[b][None] - moved, float(n), systems=b)
    else:
        sa = p.swapped(total, (tot[a] - moved_sys[a])[None], moved_shared[None],
                       moved_sys[b][None], float(n), a, b)  # fmt: skip
        sb = p.swapped(total, (tot[b] - moved_sys[b])[None], moved_shared[None],
                       moved_sys[a][None], float(n), b, a)  # fmt: skip
    return float(np.ravel(sa)[0]), float(np.ravel(sb)[0])


PARAMS = [
    (case, name, {"average": avg} if case == "spans" else {})
    for case, (_, _, names) in CASES.items()
    for name in names
    for avg in (("micro", "macro", "weighted") if case == "spans" else ("",))
]


@pytest.mark.parametrize("case, name, params", PARAMS)
def test_every_swap_scores_the_mixture_as_the_reference_does(case, name, params):
    gold, runs, _ = CASES[case]
    p = prepare(make_competition(gold, runs), name, **params)
    n = len(gold)
    for z in itertools.product([False, True], repeat=n):
        z = np.array(z)
        mix_a = [r1 if s else r0 for r0, r1, s in zip(*runs, z, strict=True)]
        mix_b = [r0 if s else r1 for r0, r1, s in zip(*runs, z, strict=True)]
        want = scores(gold, [mix_a, mix_b], name, **params)
        assert swapped_scores(p, z) == pytest.approx(tuple(want), abs=1e-12), (z, name)


def test_the_randomization_p_value_is_the_exact_one():
    """Multi-label macro-F1 of two runs over 10 items: the engine's p-value (40,000 rounds) is
    within 4 Monte-Carlo standard errors of the exact permutation p-value (all 2^10 swaps)."""
    rng = np.random.default_rng(3)
    gold, s0, s1 = [], [], []
    for _ in range(10):
        g = sorted(set(rng.choice(["a", "b"], rng.integers(1, 3)).tolist()))
        gold.append('["' + '","'.join(g) + '"]')
        p0 = g if rng.random() < 0.6 else ["a"]
        s0.append('["' + '","'.join(p0) + '"]')
        p1 = sorted(set(g) | {"x"}) if rng.random() < 0.5 else g
        s1.append('["' + '","'.join(p1) + '"]')
    p = prepare(make_competition(gold, [s0, s1]), "macro_f1")
    res = resampling.run([p], 10, 2, B=40_000, seed=1, randomization=True, progress=False)
    engine = res.randomization_p(0, np.array([0]), np.array([1]))[0]
    observed = scores(gold, [s0, s1], "macro_f1")
    d = abs(observed[0] - observed[1])
    hits = 0
    for z in itertools.product([False, True], repeat=10):
        a = [y if s else x for x, y, s in zip(s0, s1, z, strict=True)]
        b = [x if s else y for x, y, s in zip(s0, s1, z, strict=True)]
        sa, sb = scores(gold, [a, b], "macro_f1")
        hits += abs(sa - sb) >= d - 1e-12
    exact = hits / 2**10
    assert abs(engine - exact) <= 4 * np.sqrt(exact * (1 - exact) / 40_000) + 1e-4, (engine, exact)
