"""Coverage of the simultaneous rank confidence sets (issue 36 item 4), by simulation.

    nice python benchmarks/ranks.py [--sets 300] [-B 2000] [--quick]   # about 1 minute

Two designs, each ``--sets`` simulated competitions analysed by compreport as a user's run would
be (``analyze_competition``, B resamples, refinement off, item resampling, seed = data set),
with the synthetic systems of ``benchmarks/size.py`` (n = 500 binary items, errors correlated
through a shared item difficulty, system s right with probability ``accuracies[s]``):

* **distinct**: ten systems of true accuracy 0.62, 0.64, ..., 0.80 (steps of 0.02, about one
  standard error of a paired difference at n = 500: some pairs are close, others far); the true
  ranks are 1..10;
* **close**: ten systems of true accuracy 0.6775, 0.6825, ..., 0.7225 (steps of 0.005, a quarter
  of that standard error): distinct true ranks 1..10 that the data can hardly tell apart;
* **null**: ten systems of true accuracy 0.70; every true rank is 1 (equal systems share the
  better rank, as ``rank`` does), so a set covers it only when nothing is rejected.

Joint coverage is the share of competitions in which *every* true rank lies in its set (the
sets' claim), given with its Monte-Carlo standard error sqrt(c (1 - c) / N); the target is
coverage >= 1 - alpha - 2 SE. Also: the mean set length (rank_high - rank_low + 1, over systems
and competitions) and, for comparison, the same from sets read off the stored two-sided all-pairs
max-T verdicts (rank in [1 + #significantly better, m - #significantly worse]), which the theorem
does not cover.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
import warnings
from datetime import date
from pathlib import Path

import numpy as np

from compreport.settings import Settings
from compreport.stats.analysis import analyze_competition

sys.path.insert(0, str(Path(__file__).resolve().parent))
from size import competition, systems  # noqa: E402

ALPHA = 0.05
DESIGNS = {
    "distinct": [0.62 + 0.02 * k for k in range(10)],
    "close": [0.6775 + 0.005 * k for k in range(10)],
    "null": [0.70] * 10,
}


def true_ranks(accuracies) -> np.ndarray:
    """1 + the number of systems truly better (equal systems share the better rank)."""
    a = np.asarray(accuracies)
    return np.array([1 + int((a > x + 1e-12).sum()) for x in a])


def two_sided_sets(ma, names) -> tuple[np.ndarray, np.ndarray]:
    """Sets read off the stored two-sided verdicts: [1 + #significantly better, m - #worse]."""
    m = len(names)
    above = dict.fromkeys(names, 0)
    below = dict.fromkeys(names, 0)
    for c in ma.pairs:
        if c.significant and c.diff > 0:
            above[c.b] += 1
            below[c.a] += 1
    return (
        np.array([1 + above[s] for s in names]),
        np.array([m - below[s] for s in names]),
    )


def run(design: str, sets: int, B: int) -> dict:
    acc = DESIGNS[design]
    truth = true_ranks(acc)
    rng = np.random.default_rng([36, 4, list(DESIGNS).index(design)])
    covered, length, covered2, length2 = [], [], [], []
    for k in range(sets):
        comp = competition(*systems(rng, 500, acc))
        settings = Settings(bootstrap=B, seed=k, refine=False, alpha=ALPHA)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ma = analyze_competition(comp, settings, progress=False, mode="items").primary
        names = comp.systems  # S00, S01, ... in the order of ``acc``
        low = np.array([ma.score_of(s).rank_low for s in names])
        high = np.array([ma.score_of(s).rank_high for s in names])
        covered.append(bool(((low <= truth) & (truth <= high)).all()))
        length.append(float((high - low + 1).mean()))
        lo2, hi2 = two_sided_sets(ma, names)
        covered2.append(bool(((lo2 <= truth) & (truth <= hi2)).all()))
        length2.append(float((hi2 - lo2 + 1).mean()))
    return {
        "coverage": np.array(covered),
        "length": np.array(length),
        "coverage_two_sided": np.array(covered2),
        "length_two_sided": np.array(length2),
    }


def rate(hits: np.ndarray) -> tuple[float, float]:
    r = float(hits.mean())
    return 100 * r, 100 * float(np.sqrt(r * (1 - r) / len(hits)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", type=int, default=300, help="competitions per design (300)")
    ap.add_argument("-B", "--bootstrap", type=int, default=2000, help="resamples (2000)")
    ap.add_argument("--quick", action="store_true", help="30 competitions per design")
    args = ap.parse_args()
    sets = 30 if args.quick else args.sets
    start, cpu = time.perf_counter(), time.process_time()
    print(
        f"Rank confidence sets, alpha = {ALPHA}, 10 systems, n = 500, B = {args.bootstrap}, "
        f"{sets} competitions per design; {platform.node()} ({platform.processor() or '?'}), "
        f"{date.today()}"
    )
    print()
    print("| design | joint coverage (%) | mean length | two-sided verdicts: coverage | length |")
    print("|---|---|---|---|---|")
    ok = True
    for design in DESIGNS:
        r = run(design, sets, args.bootstrap)
        c, se = rate(r["coverage"])
        c2, se2 = rate(r["coverage_two_sided"])
        ok &= c >= 100 * (1 - ALPHA) - 2 * se
        print(
            f"| {design} | {c:.1f} ± {se:.1f} | {r['length'].mean():.2f} | "
            f"{c2:.1f} ± {se2:.1f} | {r['length_two_sided'].mean():.2f} |",
            flush=True,
        )
    print()
    print(
        f"target: joint coverage >= {100 * (1 - ALPHA):.0f} % - 2 SE in every design: "
        f"{'met' if ok else 'MISSED'}; {time.perf_counter() - start:.0f} s wall, "
        f"{time.process_time() - cpu:.0f} s CPU"
    )


if __name__ == "__main__":
    main()
