"""Byte-identical outputs whatever the machine's BLAS threads (``--jobs`` 1 vs 2 with every format:
test_report_cli.test_report_writes_every_format_and_is_byte_identical)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WORKSHOP = ROOT / "examples" / "workshop"


def _files(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


@pytest.mark.slow
def test_blas_threads_do_not_change_results(tmp_path):
    """A threaded BLAS sums matrix products in an order that depends on its thread count; the MAE
    competition's intervals changed in the last digit between 1 and 2 OpenBLAS threads."""
    got = []
    for threads in ("1", "2"):
        out = tmp_path / f"t{threads}"
        env = dict(os.environ, OPENBLAS_NUM_THREADS=threads, PYTHONPATH=str(ROOT))
        subprocess.run(
            [
                sys.executable,
                "-m",
                "compreport",
                "report",
                str(WORKSHOP / "ratings-mae"),
                "-o",
                str(out),
                "-q",
                "--format",
                "json",
                "-B",
                "2000",
                "--refine",
                "off",
            ],
            check=True,
            env=env,
        )
        got.append((out / "results.json").read_bytes())
    assert got[0] == got[1]


def test_competitions_analysed_in_parallel_give_the_same_results():
    """Several competitions are analysed by worker processes, one each: the same results.json as one
    process, and the same warnings in the same order; under the default max-T step-down (from the
    joint
    replicates) and under Holm, for which B = 60 is too few in each competition (a warning each)."""
    import warnings

    import compreport as cr

    data = cr.load(
        [str(WORKSHOP / "stance-eu"), str(WORKSHOP / "sentiment-eu"), str(WORKSHOP / "ratings-mae")]
    )
    for correction in (None, "holm"):
        runs = []
        for jobs in (1, 2):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                analysis = cr.analyze(
                    data, bootstrap=60, refine=False, jobs=jobs, correction=correction
                )
            runs.append((analysis.to_json(), [str(w.message) for w in caught]))
        assert runs[0] == runs[1]
        assert analysis.settings.correction == (correction or "maxt")
        if correction == "holm":
            assert (
                len(runs[0][1]) >= 3
            )  # B = 60 is too few for Holm in each competition: warned, in order
