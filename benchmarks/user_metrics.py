"""What a user metric costs in each form: labels recomputed per resample, or per-item statistics.

    python benchmarks/user_metrics.py                     # n = 500, m = 13, B = 10,000
    python benchmarks/user_metrics.py --slow-B 1000       # the label form at B = 1,000, scaled
    python benchmarks/user_metrics.py --n 2000 --m 20 --jobs 2

Design: a morpheme segmentation task in the SIGMORPHON 2022 layout (``id<TAB>un @@break @@able``),
``--n`` words of one to four morphemes from an inventory of 400, and ``--m`` systems that drop and
add morpheme boundaries at error rates from 5 % to 45 % (the generator of tests/test_user_stats.py).
The metric is the morpheme F of ``examples/user-metrics/morphemes.py`` (the example of
docs/metrics.md), analysed through the API (``cr.analyze``, percentile intervals, the bootstrap
test unless stated) in four forms:

* ``labels``: ``morpheme_f_labels(y_true, y_pred)``, called per system and resample. It runs at
  ``--slow-B`` resamples (default 1,000) and its time is scaled to B linearly (its cost is per
  resample; the setup it also pays is under a second), as the output says;
* ``stats``: ``morpheme_f`` with ``.stats`` and ``vectorized = False``: per-item counts summed by
  the engine, the score called once per system and resample on the (3,) sums;
* ``stats, vectorised``: the same with ``vectorized = True``: one call per block of resamples;
* both stats forms again with ``--test randomization`` (B rounds; every pair's swapped sums are
  scored, which is where the per-row form pays most).

Printed: wall time and the process's CPU time of each analysis (``--jobs`` workers: their CPU is
not counted in the process's, so the wall time is the figure to compare), and the largest
difference between the label form's scores, interval bounds and p-values and the stats form's at
``--slow-B`` (0 up to rounding: the same resamples).
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

import compreport as cr

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "user-metrics" / "morphemes.py"


def segmentation_task(root: Path, n: int, m: int, seed: int = 7) -> None:
    """gold.tsv and runs/team<s>.run1.tsv under ``root`` (as tests/test_user_stats.py)."""
    rng = np.random.default_rng(seed)
    letters = list("abcdefghijklmnoprstuvyzáéíóúčřšž")
    inventory = ["".join(rng.choice(letters, rng.integers(1, 6))) for _ in range(400)]
    gold = [[inventory[j] for j in rng.integers(0, 400, rng.integers(1, 5))] for _ in range(n)]
    (root / "runs").mkdir(parents=True)
    lines = "".join(f"w{i}\t{' @@'.join(g)}\n" for i, g in enumerate(gold))
    (root / "gold.tsv").write_text("id\tsegmentation\n" + lines, encoding="utf-8")
    for s in range(m):
        err = 0.05 + 0.4 * s / max(m - 1, 1)
        rows = []
        for i, g in enumerate(gold):
            word = "".join(g)
            cuts = [c for c in np.cumsum([len(x) for x in g])[:-1].tolist() if rng.random() > err]
            if len(word) > 1 and rng.random() < err:
                cuts.append(int(rng.integers(1, len(word))))
            cuts = sorted(set(cuts))
            parts = [word[a:b] for a, b in zip([0, *cuts], [*cuts, len(word)], strict=True)]
            rows.append(f"w{i}\t{' @@'.join(parts)}\n")
        (root / "runs" / f"team{s:02d}.run1.tsv").write_text(
            "id\tsegmentation\n" + "".join(rows), encoding="utf-8"
        )


def timed(root: Path, metric: str, B: int, jobs: int, test: str | None = None):
    """(analysis, wall seconds, CPU seconds of this process) of one analysis of ``metric``."""
    data = cr.load(str(root / "gold.tsv"), runs=str(root / "runs"), metrics=str(root / metric))
    wall, cpu = time.perf_counter(), time.process_time()
    analysis = cr.analyze(data, bootstrap=B, seed=0, jobs=jobs, test=test, progress=False)
    return analysis, time.perf_counter() - wall, time.process_time() - cpu


def largest_difference(a, b) -> float:
    """The largest absolute difference between two analyses' scores, bounds and p-values."""
    x, y = a.competition().primary, b.competition().primary
    out = 0.0
    for s, t in zip(x.scores, y.scores, strict=True):
        assert s.system == t.system
        for key in ("score", "ci_low", "ci_high", "p_vs_best"):
            u, v = getattr(s, key), getattr(t, key)
            if u == u or v == v:
                out = max(out, abs(u - v))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=500, help="items (words)")
    ap.add_argument("--m", type=int, default=13, help="systems")
    ap.add_argument("-B", type=int, default=10_000, help="resamples of the stats forms")
    ap.add_argument("--slow-B", type=int, default=1000, help="resamples of the label form")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    warnings.simplefilter("ignore")  # the run warnings (small B) are not what is measured
    root = Path(tempfile.mkdtemp(prefix="user-metrics-"))
    try:
        segmentation_task(root, args.n, args.m)
        text = EXAMPLE.read_text(encoding="utf-8")
        (root / "vec.py").write_text(text, encoding="utf-8")
        (root / "row.py").write_text(
            text.replace("morpheme_f.vectorized = True", "morpheme_f.vectorized = False"),
            encoding="utf-8",
        )
        print(f"n = {args.n} items, m = {args.m} systems, jobs = {args.jobs}")
        slow, w, c = timed(root, "vec.py:morpheme_f_labels", args.slow_B, args.jobs)
        scale = args.B / args.slow_B
        print(
            f"{'labels':<35} B = {args.slow_B:>6,}: {w:8.1f} s wall, {c:8.1f} s CPU; "
            f"scaled to B = {args.B:,}: {w * scale:8.1f} s wall"
        )
        same, _, _ = timed(root, "vec.py:morpheme_f", args.slow_B, args.jobs)
        print(
            f"  stats form at the same B: largest difference {largest_difference(slow, same):.1e}"
        )
        for name, metric in (
            ("stats", "row.py:morpheme_f"),
            ("stats, vectorised", "vec.py:morpheme_f"),
        ):
            for test in (None, "randomization"):
                _, w, c = timed(root, metric, args.B, args.jobs, test)
                label = name + (" + randomization" if test else "")
                print(f"{label:<35} B = {args.B:>6,}: {w:8.1f} s wall, {c:8.1f} s CPU")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
