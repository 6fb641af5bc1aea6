"""Label sets per item (multi-label): every measure against scikit-learn, on files in each layout
tasks publish, through the command line and the Python API; the bootstrap's weighted sums against
scikit-learn on the resampled items; bad input."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from sklearn import metrics as sk
from sklearn.preprocessing import MultiLabelBinarizer

import compreport as cr
from compreport.inputs.structured import label_set_text
from compreport.stats.metrics import get_metric
from tests.conftest import engine_on, make_competition, one_error, run_cli, said, write

LABELS = ["ideological", "misogyny", "objectification", "sexual", "stereotyping"]
#: Every measure that reads label sets; f1/precision/recall score the label POS.
MEASURES = [
    "macro_f1",
    "micro_f1",
    "weighted_f1",
    "macro_precision",
    "macro_recall",
    "samples_f1",
    "hamming_loss",
    "subset_accuracy",
    "accuracy",
]
POS = "misogyny"
BINARY = ["f1", "precision", "recall"]


def task(n: int = 80, seed: int = 0) -> tuple[list[str], list[tuple], dict[str, list[tuple]]]:
    """Ids, gold label sets (some empty) and three runs: two noisy copies of the gold, one that
    also predicts a label the gold never has (``other``), so the label universes differ."""
    rng = np.random.default_rng(seed)
    ids = [f"t{i:03d}" for i in range(n)]
    gold_bits = rng.random((n, len(LABELS))) < [0.4, 0.3, 0.15, 0.1, 0.05]
    gold = [tuple(lab for lab, b in zip(LABELS, row, strict=True) if b) for row in gold_bits]
    runs = {}
    for name, flip in (("TeamA.01", 0.1), ("TeamB.01", 0.25), ("TeamC.01", 0.2)):
        bits = gold_bits ^ (rng.random(gold_bits.shape) < flip)
        sets = [tuple(lab for lab, b in zip(LABELS, row, strict=True) if b) for row in bits]
        if name == "TeamC.01":
            sets = [s + ("other",) if rng.random() < 0.1 else s for s in sets]
        runs[name] = sets
    return ids, gold, runs


def sklearn_score(name: str, gold, pred, labels=None) -> float:
    """scikit-learn on indicator matrices, the labels those of the gold and of this run (or
    ``labels``), ``zero_division=0``."""
    mlb = MultiLabelBinarizer(classes=labels) if labels else MultiLabelBinarizer()
    mlb.fit(list(gold) + list(pred))
    y, p = mlb.transform(gold), mlb.transform(pred)
    if name in ("accuracy", "subset_accuracy"):
        return sk.accuracy_score(y, p)
    if name == "hamming_loss":
        return sk.hamming_loss(y, p)
    fn = {"f1": sk.f1_score, "precision": sk.precision_score, "recall": sk.recall_score}
    if name in BINARY:
        j = list(mlb.classes_).index(POS)
        return fn[name](y[:, j], p[:, j], zero_division=0)
    average, what = name.split("_")
    return fn[what](y, p, average=average, zero_division=0)


def expected(gold, runs, names, labels=None) -> dict[str, dict[str, float]]:
    return {
        name: {s: sklearn_score(name, gold, pred, labels) for s, pred in runs.items()}
        for name in names
    }


def scores_of(results: Path) -> dict[str, dict[str, float]]:
    comp = json.loads(results.read_text(encoding="utf-8"))["competitions"][0]
    return {m["name"]: {s["system"]: s["score"] for s in m["scores"]} for m in comp["metrics"]}


def cli_scores(tmp: Path, *args: str) -> dict[str, dict[str, float]]:
    res = run_cli(tmp, "report", *args, "-o", "out", "-B", "50", "--format", "json")
    assert res.returncode == 0, res.stderr
    assert not [x for x in said(res.stderr) if x.startswith("error")]
    return scores_of(tmp / "out" / "results.json")


def api_scores(*args, **kw) -> dict[str, dict[str, float]]:
    analysis = cr.analyze(cr.load(*args, **kw), bootstrap=50, seed=0)
    comp = analysis.competition()
    return {m.name: {s.system: s.score for s in m.scores} for m in comp.metrics}


def same(got: dict, want: dict) -> None:
    assert got.keys() == want.keys()
    for name in want:
        assert got[name] == pytest.approx(want[name], abs=1e-9, rel=0), name


# --------------------------------------------------------------------------- layouts


def json_layout(tmp: Path) -> tuple[list, dict]:
    """(a) a JSON list per item: gold.jsonl and one .json run (a list of objects) per team."""
    ids, gold, runs = task()
    write(
        tmp,
        "gold.jsonl",
        "".join(json.dumps({"id": i, "labels": list(g)}) + "\n" for i, g in zip(ids, gold)),
    )
    for name, sets in runs.items():
        write(
            tmp,
            f"runs/{name}.json",
            json.dumps([{"id": i, "labels": list(s)} for i, s in zip(ids, sets)]),
        )
    return gold, runs


def test_json_lists_through_the_cli_and_the_api(tmp_path):
    gold, runs = json_layout(tmp_path)
    metrics = ",".join(MEASURES + BINARY)
    want = expected(gold, runs, MEASURES + BINARY)
    args = ("gold.jsonl", "--runs", "runs", "--label-col", "labels")
    same(cli_scores(tmp_path, *args, "--metric", metrics, "--pos-label", POS), want)
    api = api_scores(
        tmp_path / "gold.jsonl",
        runs=tmp_path / "runs",
        label_col="labels",
        metrics=metrics,
        pos_label=POS,
    )
    same(api, want)


def test_declared_labels_are_the_universe(tmp_path):
    """``labels`` declares the label universe: a declared label no one uses counts, with F1 0,
    as in scikit-learn's MultiLabelBinarizer(classes=labels)."""
    gold, runs = json_layout(tmp_path)
    declared = LABELS + ["other", "unused"]
    names = ["macro_f1", "macro_recall", "samples_f1", "hamming_loss"]
    want = expected(gold, runs, names, labels=declared)
    args = ("gold.jsonl", "--runs", "runs", "--label-col", "labels", "--labels", ",".join(declared))
    same(cli_scores(tmp_path, *args, "--metric", ",".join(names)), want)


def test_a_label_outside_the_declared_labels(tmp_path):
    json_layout(tmp_path)
    res = run_cli(
        tmp_path,
        "report", "gold.jsonl", "--runs", "runs", "--label-col", "labels", "--metric", "macro_f1",
        "--labels", ",".join(LABELS), "-o", "out",
    )  # fmt: skip
    one_error(res, "runs/TeamC.01.json, entry", "system 'TeamC.01' gives the label 'other'",
              "--labels")  # fmt: skip
    assert not (tmp_path / "out").exists()


# --------------------------------------------------------------------------- the bootstrap


@pytest.mark.parametrize("name", MEASURES + BINARY)
def test_weighted_sums_match_sklearn_on_resamples(name):
    """A resample's score (summed item statistics, repeats counted) is scikit-learn's on the
    resampled items."""
    ids, gold, runs = task(n=50, seed=4)
    preds = list(runs.values())
    comp = make_competition(
        [label_set_text(g) for g in gold],
        [[label_set_text(s) for s in sets] for sets in preds],
        metrics=[name],
    )
    params = {"pos_label": POS} if name in BINARY else {}
    p = get_metric(name).prepare(comp, params)
    rng = np.random.default_rng(1)
    for _ in range(5):
        idx = rng.integers(0, len(gold), len(gold))
        g = [gold[i] for i in idx]
        got = engine_on(p, idx)
        want = []
        for sets in preds:
            pr = [sets[i] for i in idx]
            # the universe is that of the full data (labels never resampled away)
            universe = sorted(set().union(*gold, *sets))
            want.append(
                sklearn_score(name, g, pr, labels=universe)
                if name in ("hamming_loss", "macro_f1", "macro_precision", "macro_recall")
                else sklearn_score(name, g, pr)
            )
        assert got == pytest.approx(want, abs=1e-9, rel=0)


def test_randomization_test_runs_on_label_sets(tmp_path):
    json_layout(tmp_path)
    res = run_cli(
        tmp_path,
        "report", "gold.jsonl", "--runs", "runs", "--label-col", "labels", "--metric",
        "macro_f1,samples_f1", "--test", "randomization", "-B", "200", "-o", "out",
        "--format", "json",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    comp = json.loads((tmp_path / "out" / "results.json").read_text())["competitions"][0]
    pairs = comp["metrics"][0]["pairs"]
    assert len(pairs) == 3 and all(0 < c["p_value"] <= 1 for c in pairs)
