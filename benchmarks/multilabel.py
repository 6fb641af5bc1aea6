"""Multi-label macro-F1 against single-label macro-F1: the same n items, m systems and B.

Writes two tasks as JSON lines (a gold file and a run per system): label sets over ``--labels``
labels (each label on with probability 1/5; runs flip each bit with probability 0.05 to 0.3),
and single labels over as many classes (runs right with probability 0.5 to 0.9). Then times
``compreport report GOLD --runs RUNS --metric macro_f1 -B B --format json`` on each, in this
process, and prints wall and CPU seconds and their ratio::

    OPENBLAS_NUM_THREADS=1 python benchmarks/multilabel.py   # n 5,000, 15 labels, m 30, B 10,000

The issue's target: multi-label at most 3 x the single-label time (docs/performance.md).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import tempfile
import time
from pathlib import Path

import numpy as np


def write_task(root: Path, n: int, k: int, m: int, multi: bool, seed: int = 0) -> None:
    """gold.jsonl and runs/sNN.jsonl of a multi-label (``multi``) or single-label task."""
    rng = np.random.default_rng(seed)
    labels = [f"L{j:02d}" for j in range(k)]
    (root / "runs").mkdir(parents=True)
    if multi:
        gold = rng.random((n, k)) < 0.2

        def value(bits):
            return [lab for lab, b in zip(labels, bits, strict=True) if b]

        preds = [gold ^ (rng.random((n, k)) < rng.uniform(0.05, 0.3)) for _ in range(m)]
    else:
        gold = rng.integers(0, k, n)

        def value(c):
            return labels[c]

        preds = [
            np.where(rng.random(n) < rng.uniform(0.5, 0.9), gold, rng.integers(0, k, n))
            for _ in range(m)
        ]
    for path, rows in [(root / "gold.jsonl", gold)] + [
        (root / "runs" / f"s{s:02d}.jsonl", p) for s, p in enumerate(preds)
    ]:
        path.write_text(
            "".join(json.dumps({"id": i, "label": value(r)}) + "\n" for i, r in enumerate(rows))
        )


def timed(root: Path, B: int) -> tuple[float, float]:
    """Wall and CPU seconds of one report (``--format json``) of the task in ``root``."""
    from compreport.cli import main

    args = ["report", str(root / "gold.jsonl"), "--runs", str(root / "runs"), "--metric",
            "macro_f1", "-B", str(B), "--format", "json", "-o", str(root / "out"),
            "--force"]  # fmt: skip
    wall, cpu = time.perf_counter(), _cpu()
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        status = main(args)
    assert status == 0, status
    return time.perf_counter() - wall, _cpu() - cpu


def _cpu() -> float:
    """CPU seconds of this process and of its ended children (the analysis's worker processes)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=5000)
    ap.add_argument("--labels", type=int, default=15)
    ap.add_argument("-m", type=int, default=30)
    ap.add_argument("-B", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=2, help="runs of each; the fastest is kept")
    a = ap.parse_args()
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for multi in (False, True):
            root = Path(tmp) / ("multi" if multi else "single")
            write_task(root, a.n, a.labels, a.m, multi)
            out[multi] = min(timed(root, a.B) for _ in range(a.repeat))
            what = "multi-label " if multi else "single-label"
            print(f"{what}: {out[multi][0]:6.2f} s wall, {out[multi][1]:6.2f} s CPU")
    wall, cpu = out[True][0] / out[False][0], out[True][1] / out[False][1]
    print(f"ratio: {wall:.2f} x wall, {cpu:.2f} x CPU")


if __name__ == "__main__":
    main()
