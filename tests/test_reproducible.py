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


def _numbers(results: dict) -> list:
    """Every competition's numbers and verdicts in results.json, without the words that name it."""
    words = {"id", "name", "challenge", "task", "subtask", "language", "group", "year", "inputs"}
    words |= {"warnings"}  # they name the competition by its id
    return [{k: v for k, v in c.items() if k not in words} for c in results["competitions"]]


def _spec_without_id(folder: Path, **keys: str) -> None:
    """The demo's paraphrase task in ``folder``, its spec without an ``id`` and with ``keys``."""
    import json
    import shutil

    shutil.copytree(WORKSHOP / "paraphrase", folder)
    head, tables = (folder / "competition.toml").read_text(encoding="utf-8").split("\n[", 1)
    kept = [x for x in head.splitlines() if x.split(" = ")[0] not in {"id", *keys}]
    top = "\n".join([f"{k} = {json.dumps(v)}" for k, v in keys.items()] + kept)
    (folder / "competition.toml").write_text(f"{top}\n[{tables}", encoding="utf-8")


def test_display_text_never_changes_a_number(tmp_path):
    """The random streams derive from the seed and a stable text (the spec's id, else its folder's
    name), never from the display name: translating the title, the task and the language, and
    reporting in Spanish, leave every number and verdict of results.json equal (issue 36 item 2:
    a translated title changed 2 of 630 verdicts and every interval)."""
    import json

    import compreport as cr

    _spec_without_id(tmp_path / "en" / "paramex", name="ParaMex 2026: paraphrase (2 classes)")
    _spec_without_id(
        tmp_path / "es" / "paramex",
        name="ParaMex 2026: identificación de paráfrasis (2 clases)",
        task="Identificación de paráfrasis",
        language="Español",
        description="Sintético.",
    )
    got = {}
    for lang in ("en", "es"):
        out = tmp_path / f"out-{lang}"
        subprocess.run(
            [sys.executable, "-m", "compreport", "report", str(tmp_path / lang / "paramex")]
            + ["-o", str(out), "-q", "--format", "json", "-B", "300", "--lang", lang],
            check=True,
            env=dict(os.environ, PYTHONPATH=str(ROOT)),
        )
        got[lang] = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert got["en"]["competitions"][0]["id"] != got["es"]["competitions"][0]["id"]
    assert got["en"]["competitions"][0]["engine"]["stream"] == "paramex"
    assert _numbers(got["en"]) == _numbers(got["es"])
    # the same from Python; a different stable text gives other replicates (the key is used)
    a = cr.analyze(cr.load(str(tmp_path / "en" / "paramex")), bootstrap=300, seed=0)
    b = cr.analyze(cr.load(str(tmp_path / "es" / "paramex")), bootstrap=300, seed=0)
    assert _numbers(a.to_dict()) == _numbers(b.to_dict())
    (tmp_path / "es" / "paramex").rename(tmp_path / "es" / "paramex-2")
    c = cr.analyze(cr.load(str(tmp_path / "es" / "paramex-2")), bootstrap=300, seed=0)
    assert _numbers(c.to_dict()) != _numbers(b.to_dict())


def test_a_gold_files_name_keys_its_streams_whatever_name_says(tmp_path):
    """Without a spec, the gold file's name (not ``--name``) keys the random streams."""
    import json

    got = []
    for name in ("Task A", "Tarea A"):
        out = tmp_path / name.replace(" ", "")
        subprocess.run(
            [sys.executable, "-m", "compreport", "report"]
            + [str(WORKSHOP / "paraphrase" / "gold.tsv")]
            + ["--runs", str(WORKSHOP / "paraphrase" / "runs")]
            + ["--metric", "accuracy", "--name", name, "-o", str(out), "-q", "--format", "json"]
            + ["-B", "300"],
            check=True,
            env=dict(os.environ, PYTHONPATH=str(ROOT)),
        )
        got.append(json.loads((out / "results.json").read_text(encoding="utf-8")))
    assert got[0]["competitions"][0]["engine"]["stream"] == "paraphrase"
    assert _numbers(got[0]) == _numbers(got[1])
