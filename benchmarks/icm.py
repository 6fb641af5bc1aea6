"""Time the paired bootstrap of ICM and ICM-Soft (issue 38: ICM-Soft at most 10 x ICM).

    python benchmarks/icm.py                       # n = 3,000, 6 classes, 20 runs, B = 10,000
    python benchmarks/icm.py -n 3000 -m 20 -k 6 -B 10000 --repeat 3
    python benchmarks/icm.py --hierarchy           # ICM-Soft with an EXIST-like tree instead
    python benchmarks/icm.py --multi-label         # ICM on label sets (n = 5,000, 15 labels, 30
                                                   # runs) against single-label macro-F1

Design: an EXIST-like task. Hard: gold one of k classes, each run right on an item with its own
accuracy (0.5 to 0.8), otherwise one of the other classes. Soft: gold the votes of 6 annotators
(multinomial draws from a Dirichlet(1) distribution per item, so weights are multiples of 1/6),
each run a distribution pulled towards the gold by its own amount and normalised (continuous
values, as a model's probabilities). The engine is :func:`compreport.stats.resampling.run`, the one
``compreport report`` uses (same draws, one worker).

Timed: ``icm`` (additive statistics: IC re-estimated per resample from summed node counts);
``icm_soft`` by default (μ and σ frozen at the full gold's estimate: the mean of per-item scores,
additive) and with ``reestimate = true`` (μ and σ re-estimated from every resample's gold and every
item's IC recomputed, as PyEvALL would score the resampled files: the ``evaluate`` path, timed
once); ``cross_entropy`` and ``soft_mae`` (additive). Each other figure is the median of
``--repeat`` runs. Also printed: the bootstrap standard errors of ICM-Soft and of its differences
between runs under both choices.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np

from compreport.inputs.competition import Competition, MetricSpec
from compreport.inputs.structured import soft_text
from compreport.stats import resampling as bootstrap
from compreport.stats.metrics import get_metric
from compreport.stats.metrics.base import Prepared


def competitions(n: int, m: int, k: int, seed: int = 0) -> tuple[Competition, Competition]:
    """(hard, soft) competitions of n items, m runs and k classes."""
    rng = np.random.default_rng(seed)
    classes = [f"c{j}" for j in range(k)]
    gold = rng.integers(0, k, n)
    acc = np.linspace(0.5, 0.8, m)
    right = rng.random((m, n)) < acc[:, None]
    other = (gold + rng.integers(1, k, (m, n))) % k
    pred = np.where(right, gold, other)
    lab = np.array(classes)
    ids = np.arange(n).astype(str)
    hard = Competition(
        "hard",
        "hard",
        gold=lab[gold][:, None],
        predictions=lab[pred][:, :, None],
        systems=[f"s{j}" for j in range(m)],
        item_ids=ids,
        metrics=[MetricSpec("icm")],
    )
    votes = np.stack([rng.multinomial(6, rng.dirichlet(np.ones(k))) for _ in range(n)]) / 6
    noise = rng.dirichlet(np.ones(k), (m, n))
    pull = np.linspace(0.3, 0.8, m)[:, None, None]
    soft = pull * votes[None] + (1 - pull) * noise
    soft /= soft.sum(-1, keepdims=True)
    g_txt = np.array([soft_text(dict(zip(classes, v, strict=True))) for v in votes])
    p_txt = np.array([[soft_text(dict(zip(classes, v, strict=True))) for v in row] for row in soft])
    softc = Competition(
        "soft",
        "soft",
        gold=g_txt[:, None],
        predictions=p_txt[:, :, None],
        systems=[f"s{j}" for j in range(m)],
        item_ids=ids,
        metrics=[MetricSpec("icm_soft")],
    )
    return hard, softc


#: An EXIST-like tree over the benchmark's classes: c0 alone ("NO"), the others under c1 ("YES").
TREE = None


def soft_metric(comp: Competition, name: str, reestimate: bool) -> Prepared:
    params = {"reestimate": reestimate}
    if TREE is not None:
        params["hierarchy"] = TREE
    return get_metric(name).prepare(comp, params)


def multi_label(n: int = 5000, m: int = 30, k: int = 15, B: int = 10_000, repeat: int = 3):
    """ICM on label sets (flat and with a two-level tree) against single-label macro-F1 on the same
    n and m (issue 38's multi-label case): each item's gold holds each label with probability
    0.12 (at least one), a run keeps the gold set with its own probability or draws another."""
    from compreport.inputs.structured import label_set_text

    rng = np.random.default_rng(1)
    labels = [f"L{j:02d}" for j in range(k)]

    def draw():
        s = [x for x in labels if rng.random() < 0.12]
        return label_set_text(s or [labels[rng.integers(k)]])

    gold = np.array([draw() for _ in range(n)])
    keep = np.linspace(0.4, 0.8, m)
    pred = np.array([[g if rng.random() < q else draw() for g in gold] for q in keep])
    sets = Competition(
        "sets",
        "sets",
        gold=gold[:, None],
        predictions=pred[:, :, None],
        systems=[f"s{j}" for j in range(m)],
        item_ids=np.arange(n).astype(str),
        metrics=[MetricSpec("icm")],
    )
    single_gold = rng.integers(0, k, n)
    single_pred = np.where(
        rng.random((m, n)) < keep[:, None], single_gold, rng.integers(0, k, (m, n))
    )
    lab = np.array(labels)
    single = Competition(
        "single",
        "single",
        gold=lab[single_gold][:, None],
        predictions=lab[single_pred][:, :, None],
        systems=[f"s{j}" for j in range(m)],
        item_ids=np.arange(n).astype(str),
        metrics=[MetricSpec("macro_f1")],
    )
    tree = {"A": labels[:5], "B": labels[5:10], "C": labels[10:]}
    print(f"n = {n:,}, m = {m}, {k} labels, B = {B:,}; load {os.getloadavg()[0]:.2f}")
    rows = []
    for label, comp, name, params in [
        ("macro_f1, single-label", single, "macro_f1", {}),
        ("icm, label sets, flat", sets, "icm", {}),
        ("icm, label sets, two-level tree", sets, "icm", {"hierarchy": tree}),
    ]:
        t0 = time.perf_counter()
        p = get_metric(name).prepare(comp, params)
        prep = time.perf_counter() - t0
        t, _ = timed(p, n, m, B, repeat)
        rows.append(t + prep)
        print(f"{label:40s} prepare {prep:6.2f} s   bootstrap {t:7.2f} s", flush=True)
    print(
        f"icm / macro_f1 (prepare + bootstrap): flat {rows[1] / rows[0]:.1f} x, "
        f"tree {rows[2] / rows[0]:.1f} x"
    )


def timed(prepared: Prepared, n: int, m: int, B: int, repeat: int) -> tuple[float, np.ndarray]:
    times, res = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        res = bootstrap.run([prepared], n, m, B=B, seed=0, progress=False)
        times.append(time.perf_counter() - t0)
    return float(np.median(times)), res.replicates[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=3000)
    ap.add_argument("-m", type=int, default=20)
    ap.add_argument("-k", type=int, default=6)
    ap.add_argument("-B", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--hierarchy", action="store_true", help="ICM-Soft with an EXIST-like tree")
    ap.add_argument("--multi-label", action="store_true", help="ICM on label sets vs macro-F1")
    a = ap.parse_args()
    if a.multi_label:
        multi_label(B=a.B, repeat=a.repeat)
        return
    global TREE
    if a.hierarchy:  # c0 ("NO") alone, c2.. under c1 ("YES"); c1 also a gold class
        TREE = {"c0": [], "c1": [f"c{j}" for j in range(2, a.k)]}
    hard, soft = competitions(a.n, a.m, a.k)
    print(
        f"n = {a.n:,}, m = {a.m}, k = {a.k}, B = {a.B:,}; {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, load {os.getloadavg()[0]:.2f}"
    )
    rows = []
    for label, comp, make in [
        ("icm", hard, lambda c: get_metric("icm").prepare(c, {})),
        ("icm_norm", hard, lambda c: get_metric("icm_norm").prepare(c, {})),
        ("icm_soft (default: mu, sigma frozen)", soft, lambda c: soft_metric(c, "icm_soft", False)),
        ("icm_soft, reestimate = true", soft, lambda c: soft_metric(c, "icm_soft", True)),
        ("icm_soft_norm (frozen)", soft, lambda c: soft_metric(c, "icm_soft_norm", False)),
        ("cross_entropy", soft, lambda c: get_metric("cross_entropy").prepare(c, {})),
        ("soft_mae", soft, lambda c: get_metric("soft_mae").prepare(c, {})),
    ]:
        t0 = time.perf_counter()
        p = make(comp)
        prep = time.perf_counter() - t0
        t, reps = timed(p, comp.n, comp.m, a.B, 1 if "reestimate" in label else a.repeat)
        rows.append((label, prep, t, reps))
        print(f"{label:40s} prepare {prep:6.2f} s   bootstrap {t:7.2f} s", flush=True)
    base = rows[0][2]
    print(f"icm_soft / icm: frozen {rows[2][2] / base:.2f} x, reestimate {rows[3][2] / base:.1f} x")
    sd = [r[3].std(0) for r in rows[2:4]]
    print(
        f"bootstrap SE of icm_soft, mean over runs: frozen {sd[0].mean():.4f}, re-estimated "
        f"{sd[1].mean():.4f} (ratio {np.median(sd[0] / sd[1]):.3f}, median over runs)"
    )
    dif = [r[3] - r[3][:, [0]] for r in rows[2:4]]
    sdd = [d[:, 1:].std(0) for d in dif]
    print(
        f"bootstrap SE of differences from run 0, median over runs: frozen "
        f"{np.median(sdd[0]):.4f}, re-estimated {np.median(sdd[1]):.4f}"
    )


if __name__ == "__main__":
    main()
