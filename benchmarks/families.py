"""The bootstrap's cost of composites, confusion measures and item scores (issue 38 items 5, 6, 8).

    nice python benchmarks/families.py [-n 10000] [-m 20] [-B 2000] [--repeat 3]

Times ``compreport.stats.resampling.run`` (the paired bootstrap alone, no reading, no verdicts)
on synthetic data: n items, m systems, four label fields of 2, 3, 2 and 4 classes (PoliticES-like)
and one ordinal field of 5 levels, per-item scores and edit counts. Each line is one run of the
engine over the named metrics, median of ``--repeat``, with the load average before it.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np

from compreport.inputs.competition import Competition, MetricSpec
from compreport.stats import resampling as bootstrap
from compreport.stats.metrics import get_metric


def data(n: int, m: int, seed: int = 0) -> Competition:
    rng = np.random.default_rng(seed)
    ks = [2, 3, 2, 4, 5]
    gold = np.column_stack([rng.integers(0, k, n) for k in ks] + [rng.integers(5, 30, n)])
    preds = []
    for s in range(m):
        acc = 0.5 + 0.4 * s / max(m - 1, 1)
        cols = [np.where(rng.random(n) < acc, gold[:, j], rng.integers(0, k, n)) for j, k in
                enumerate(ks)]  # fmt: skip
        cols.append(rng.binomial(gold[:, -1], 0.3 * (1 - acc) + 0.02))  # edits per item
        preds.append(np.column_stack(cols))
    fields = ["gender", "profession", "ideology_b", "ideology_m", "ordinal", "words"]
    pred = np.stack(preds).astype(str)
    return Competition(
        "bench", "bench", gold=gold.astype(str), predictions=pred, systems=[f"s{i}" for i in
        range(m)], item_ids=np.arange(n).astype(str), metrics=[MetricSpec("accuracy")],
        fields=fields,
    )  # fmt: skip


CASES = {
    "macro_f1 (one field)": [("macro_f1", {"field": "gender"})],
    "4 x macro_f1": [("macro_f1", {"field": f}) for f in
                     ("gender", "profession", "ideology_b", "ideology_m")],
    "composite of 4 macro_f1": [("composite", {"parts": [
        {"metric": "macro_f1", "field": f} for f in
        ("gender", "profession", "ideology_b", "ideology_m")]})],
    "measure_c (4 fields)": [("measure_c", {"fields": [
        "gender", "profession", "ideology_b", "ideology_m"]})],
    "kappa": [("kappa", {"field": "profession"})],
    "qwk (5 levels)": [("qwk", {"field": "ordinal"})],
    "mcc": [("mcc", {"field": "profession"})],
    "balanced_accuracy": [("balanced_accuracy", {"field": "profession"})],
    "mean (item scores)": [("mean", {"field": "words"})],
    "ratio (edits / gold words)": [("ratio", {"numerator": "words", "denominator": "gold"})],
}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=10_000)
    ap.add_argument("-m", type=int, default=20)
    ap.add_argument("-B", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    comp = data(args.n, args.m)
    print(f"n = {args.n}, m = {args.m}, B = {args.B}; {os.cpu_count()} cores, "
          f"Python {platform.python_version()}")  # fmt: skip
    for label, metrics in CASES.items():
        prepared = [get_metric(name).prepare(comp, dict(p)) for name, p in metrics]
        times = []
        load = os.getloadavg()[0]
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            bootstrap.run(prepared, comp.n, comp.m, B=args.B, seed=0, progress=False)
            times.append(time.perf_counter() - t0)
        print(f"{label:32s} {np.median(times):7.2f} s   (load {load:.2f})")


if __name__ == "__main__":
    main()
