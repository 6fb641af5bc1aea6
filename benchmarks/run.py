"""Benchmarks of the statistics engine and the whole `compreport report --format json` process.

    python benchmarks/run.py              # our figures (about a minute)
    python benchmarks/run.py --compstats  # also CompStats 0.1.15 on the same data (about 7 minutes;
                                          # `pip install -e '.[bench]'`)

Prints wall time (median of repeats for the process), peak resident memory of the process, and
the time of the statistics alone (analysis in-process, inputs already loaded).
"""

from __future__ import annotations

import argparse
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from synth import make_labels, wide_frame  # noqa: E402

from compreport.analysis import Settings, analyze_competition  # noqa: E402
from compreport.spec import Options, load_inputs  # noqa: E402


def process(csv: Path, metrics: str, B: int = 10000, repeat: int = 3) -> tuple[float, float]:
    """Median wall seconds and peak RSS (MB) of the CLI on ``csv``."""
    times, peak = [], 0.0
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as out:
            cmd = [sys.executable, "-m", "compreport", "report", str(csv), "--id", "id", "--metric", metrics,
                   "-B", str(B), "--format", "json", "-o", out + "/o"]
            t = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            times.append(time.perf_counter() - t)
        peak = max(peak, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)
    return float(np.median(times)), peak


def statistics_only(csv: Path, metrics: str, B: int = 10000) -> float:
    comp = load_inputs([str(csv)], Options(id="id", metrics=metrics.split(","))).competitions[0]
    t = time.perf_counter()
    analyze_competition(comp, Settings(bootstrap=B), progress=False)
    return time.perf_counter() - t


def dataset(tmp: Path, name: str, n: int, m: int, k: int) -> Path:
    path = tmp / f"{name}.csv"
    g, p = make_labels(n, m, k, seed=1)
    if k == 5:  # REST-MEX-like polarity 1..5
        g, p = g + 1, p + 1
    wide_frame(g, p).to_csv(path, index=False)
    return path


def compstats_macro_f1(csv: Path, B: int = 10000) -> float:
    import pandas as pd
    from CompStats import metrics as cm

    df = pd.read_csv(csv)
    y = df["y"].to_numpy()
    systems = {c: df[c].to_numpy() for c in df.columns if c not in ("id", "y")}
    t = time.perf_counter()
    cm.macro_f1(y, num_samples=B, n_jobs=1, **systems)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--compstats", action="store_true")
    ap.add_argument("--big", action="store_true", help="also 1,000,000 items x 5 systems")
    args = ap.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, {platform.python_version()}, "
          f"{__import__('os').cpu_count()} cores")
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        exist = dataset(tmp, "exist", 4368, 31, 2)
        wall, peak = process(exist, "accuracy,macro_f1")
        stats = statistics_only(exist, "accuracy,macro_f1")
        print(f"EXIST-like n=4368 m=31 binary, accuracy+macro_f1, B=10000: process {wall:.2f} s, "
              f"peak {peak:.0f} MB, statistics {stats:.2f} s")
        restmex = dataset(tmp, "restmex", 12938, 27, 5)
        wall, peak = process(restmex, "macro_f1,mae")
        print(f"REST-MEX-like n=12938 m=27 5 classes, macro_f1+mae: process {wall:.2f} s, peak {peak:.0f} MB")
        if args.big:
            big = dataset(tmp, "big", 1_000_000, 5, 3)
            wall, peak = process(big, "macro_f1", repeat=1)
            print(f"1,000,000 items x 5 systems x 3 classes, macro_f1: process {wall:.2f} s, peak {peak:.0f} MB")
        print("\nscaling (statistics only, accuracy+macro_f1, binary):")
        print("    n     m      B   seconds")
        for n, m, B in [(1000, 31, 10000), (4368, 31, 10000), (20000, 31, 10000), (4368, 10, 10000),
                        (4368, 60, 10000), (4368, 31, 1000), (4368, 31, 50000)]:
            path = dataset(tmp, f"s{n}-{m}", n, m, 2)
            print(f"{n:6d} {m:4d} {B:7d}   {statistics_only(path, 'accuracy,macro_f1', B):.2f}")
        if args.compstats:
            cs = compstats_macro_f1(exist)
            ours, _ = process(exist, "macro_f1")
            print(f"\nCompStats 0.1.15 macro_f1 (n_jobs=1): {cs:.1f} s; compreport whole process: {ours:.2f} s; "
                  f"ratio {cs / ours:.0f}x")


if __name__ == "__main__":
    main()
