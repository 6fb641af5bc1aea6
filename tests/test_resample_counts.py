"""Every sentence that names a resample count names the count behind the verdicts: ``-v`` says B
and, when refinement drew more for some p-values (``--refine on``), the most it drew, read here
from results.json (``verdicts["resamples"]``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import compreport
from conftest import run_cli

DEMO = "examples/workshop/paraphrase"


@pytest.mark.parametrize("refine", ["on", "off"])
def test_verbose_names_the_resamples_behind_the_p_values(tmp_path, refine):
    root = Path(compreport.__file__).parent.parent
    out = tmp_path / "out"
    res = run_cli(
        tmp_path, "report", str(root / DEMO), "-B", "1000", "--seed", "0", "--refine", refine,
        "--format", "json", "-o", str(out), "-v",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    most = max(m["verdicts"]["resamples"] for c in results["competitions"] for m in c["metrics"])
    (line,) = [x for x in res.stderr.splitlines() if x.startswith("compreport: analysed: ")]
    said = [int(x.replace(",", "")) for x in re.findall(r"\b\d[\d,]*(?= resamples|\))", line)]
    if refine == "on":
        assert most > 1000, results  # the demo's unsettled verdicts draw more: can fail
        assert said == [1000, most], line
        assert f"re-estimated from up to {most:,}" in line
    else:
        assert most == 1000 and said == [1000], line
