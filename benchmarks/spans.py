"""Benchmark of the span measures (issue 38 item 4): 1,000 documents, 30,000 gold mentions,
20 runs in the MEDDOPLACE TSV layout, strict and overlap micro F1, B = 10,000.

    python benchmarks/spans.py            # the issue's size (target: <= 15 s, <= 1 GB)
    python benchmarks/spans.py --docs 200 --mentions 6000 -B 2000   # smaller

Writes the gold and the runs into a temporary folder, then runs
``compreport report gold.tsv --runs runs --metric span_f1,span_f1_overlap -B 10000 --format json``
as a separate process and prints its wall time, CPU time and peak resident memory (the child's
``ru_maxrss``), with the load average of the machine when it was measured. Then, in this process,
the time of reading the files (``cr.load``) and of the analysis alone (``cr.analyze``).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

TYPES = ("TERRITORIO", "DEPARTAMENTO", "LUGAR-NATURAL", "GENTILICIO", "COMUNIDAD")


def make_task(root: Path, docs: int, mentions: int, runs: int, seed: int = 0) -> None:
    """``root/gold.tsv`` and ``root/runs/teamK.1.tsv``: mentions spread over the documents, each
    run keeping, shifting, retyping or dropping each gold mention and adding false positives."""
    rng = np.random.default_rng(seed)
    per_doc = rng.multinomial(mentions, np.full(docs, 1 / docs))
    head = "filename\tlabel\tstart_span\tend_span\ttext\n"
    gold = []
    for d, k in enumerate(per_doc):
        starts = np.sort(rng.choice(20 * max(k, 1) + 50, k, replace=False)) * 10
        for s in starts:
            gold.append((f"doc{d:04d}", TYPES[rng.integers(0, len(TYPES))], int(s), int(s + 8)))
    (root / "gold.tsv").write_text(
        head + "".join(f"{f}\t{t}\t{s}\t{e}\tx\n" for f, t, s, e in gold), encoding="utf-8"
    )
    (root / "runs").mkdir()
    for r in range(runs):
        keep = 0.5 + 0.4 * rng.random()
        rows = []
        for f, t, s, e in gold:
            u = rng.random()
            if u < keep:
                rows.append((f, t, s, e))
            elif u < keep + 0.08:
                rows.append((f, t, s + 2, e + 2))
            elif u < keep + 0.1:
                rows.append((f, TYPES[(TYPES.index(t) + 1) % len(TYPES)], s, e))
            if rng.random() < 0.1:
                rows.append((f, t, s + 4, e + 5))
        (root / "runs" / f"team{r:02d}.1.tsv").write_text(
            head + "".join(f"{f}\t{t}\t{s}\t{e}\tx\n" for f, t, s, e in rows), encoding="utf-8"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs", type=int, default=1000)
    ap.add_argument("--mentions", type=int, default=30000)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("-B", type=int, default=10000)
    args = ap.parse_args()
    repo = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        make_task(root, args.docs, args.mentions, args.runs)
        cmd = [
            sys.executable,
            "-m",
            "compreport",
            "report",
            str(root / "gold.tsv"),
            "--runs",
            str(root / "runs"),
            "--metric",
            "span_f1,span_f1_overlap",
            "-B",
            str(args.B),
            "--format",
            "json",
            "-o",
            str(root / "out"),
            "--seed",
            "1",
        ]
        env = dict(os.environ, PYTHONPATH=str(repo))
        load = os.getloadavg()[0]
        t0 = time.perf_counter()
        res = subprocess.run(cmd, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        if res.returncode:
            sys.exit(res.stderr)
        use = resource.getrusage(resource.RUSAGE_CHILDREN)
        rss, cpu = use.ru_maxrss / 1024, use.ru_utime + use.ru_stime
        print(
            f"{args.docs} documents, {args.mentions} gold mentions, {args.runs} runs, "
            f"B = {args.B}, span_f1 + span_f1_overlap (micro)"
        )
        print(
            f"whole process: {wall:.1f} s wall, {cpu:.1f} s CPU, peak RSS {rss:.0f} MB "
            f"(load average {load:.2f})"
        )

        sys.path.insert(0, str(repo))
        import compreport as cr

        t0 = time.perf_counter()
        data = cr.load(
            root / "gold.tsv", runs=str(root / "runs"), metrics="span_f1,span_f1_overlap"
        )
        t1 = time.perf_counter()
        cr.analyze(data, bootstrap=args.B, seed=1)
        t2 = time.perf_counter()
        print(f"in process: reading {t1 - t0:.1f} s, analysis {t2 - t1:.1f} s")


if __name__ == "__main__":
    main()
