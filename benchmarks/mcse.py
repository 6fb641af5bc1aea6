"""Monte-Carlo error of the max-T adjusted p-value that decides: seed-to-seed SD against its
estimates.

    python benchmarks/mcse.py [--seeds 40] [--B 2000]       # about 30 s on 2 cores

For a few fixed data sets (m systems of close accuracy, n items, k classes; accuracy and
macro-F1), the analysis is run with ``--seeds`` different seeds at B resamples (refinement off).
For every pair whose mean adjusted p-value ``p_maxt`` over the seeds lies in (0.01, 0.2), the
seed-to-seed standard deviation (SD) of ``p_maxt`` is compared with

* ``binomial``: ``sqrt(p (1 - p) / B)``, what the Clopper-Pearson "settled" rule assumed;
* ``p_se``: the standard error the analysis reports beside the verdict (batch means,
  :meth:`compreport.stats.maxt.StepDown.standard_error`),

each as the root mean square of the per-seed estimates. A ratio SD / estimate near 1 means the
estimate is honest; the table gives the median ratio over the pairs and its range. The last
column is the median relative SD over the seeds of the ``p_se`` estimate itself.
"""

from __future__ import annotations

import argparse
import platform
import time
import warnings

import numpy as np
import pandas as pd

from benchmarks.size import systems
from compreport import from_frame
from compreport.settings import Settings
from compreport.stats.analysis import analyze_competition

#: (n items, m systems, k classes, lowest and highest accuracy)
CASES = [
    (500, 10, 2, 0.68, 0.78),
    (1000, 10, 3, 0.70, 0.76),
    (2000, 8, 3, 0.70, 0.74),
    (1000, 10, 5, 0.55, 0.62),
]
LOW, HIGH = 0.01, 0.2


def competition(n: int, m: int, k: int, low: float, high: float, seed: int = 7):
    """m systems of accuracies evenly spread over [low, high] on n items of k classes, errors
    correlated through a shared item difficulty (:func:`benchmarks.size.systems`), scored by
    accuracy and macro-F1."""
    rng = np.random.default_rng(seed)
    binary, preds = systems(rng, n, np.linspace(high, low, m))
    right = preds == binary[None, :]
    gold = rng.integers(0, k, n)
    wrong = (gold[None, :] + rng.integers(1, k, (m, n))) % k
    frame = pd.DataFrame(
        {"id": np.arange(n), "gold": gold}
        | {f"S{s:02d}": x for s, x in enumerate(np.where(right, gold[None, :], wrong))}
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return from_frame(
            frame, gold="gold", id="id", metrics=["accuracy", "macro_f1"]
        ).competitions[0]


def measure(comp, seeds: int, B: int) -> dict[str, dict[str, np.ndarray]]:
    """Per metric: ``p`` (seeds, pairs) adjusted p-values and ``p_se`` their reported errors."""
    out: dict[str, dict[str, list]] = {}
    for seed in range(seeds):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            analysis = analyze_competition(
                comp, Settings(bootstrap=B, seed=seed, refine=False), progress=False
            )
        for ma in analysis.metrics:
            pairs = sorted(ma.pairs, key=lambda c: (c.a, c.b))  # the same order at every seed
            r = out.setdefault(ma.name, {"p": [], "p_se": []})
            r["p"].append([c.p_maxt for c in pairs])
            r["p_se"].append([c.p_se for c in pairs])
    return {name: {k: np.array(v) for k, v in r.items()} for name, r in out.items()}


def ratios(p: np.ndarray, p_se: np.ndarray, B: int) -> dict[str, np.ndarray]:
    """SD over seeds / RMS estimate, per pair with mean p in (LOW, HIGH)."""
    sd, mean = p.std(axis=0, ddof=1), p.mean(axis=0)
    keep = (mean > LOW) & (mean < HIGH)
    binomial = np.sqrt(np.mean(p * (1 - p) / B, axis=0))
    reported = np.sqrt(np.mean(p_se**2, axis=0))
    return {
        "pairs": int(keep.sum()),
        "binomial": sd[keep] / binomial[keep],
        "p_se": sd[keep] / reported[keep],
        "spread": p_se[:, keep].std(axis=0) / p_se[:, keep].mean(axis=0),
    }


def cell(x: np.ndarray) -> str:
    return f"{np.median(x):.2f} ({x.min():.2f}–{x.max():.2f})" if len(x) else "–"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=40)
    ap.add_argument("--B", type=int, default=2000)
    args = ap.parse_args()
    start = time.time()
    print(
        f"seeds = {args.seeds}, B = {args.B}; SD / estimate, median (range) over the pairs with "
        f"p in ({LOW}, {HIGH})\n"
    )
    print(
        "| n | m | classes | accuracies | metric | pairs | SD / binomial | SD / p_se "
        "| p_se rel. SD |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for n, m, k, low, high in CASES:
        for name, r in measure(competition(n, m, k, low, high), args.seeds, args.B).items():
            q = ratios(r["p"], r["p_se"], args.B)
            print(
                f"| {n:,} | {m} | {k} | {low}–{high} | {name} | {q['pairs']} | "
                f"{cell(q['binomial'])} | {cell(q['p_se'])} | {np.median(q['spread']):.2f} |"
            )
    print(f"\n{time.time() - start:.0f} s on {platform.node()} ({platform.machine()})")


if __name__ == "__main__":
    main()
