"""Measures from confusion counts (kappa, qwk, mcc, balanced_accuracy) and from predicted
probabilities (log_loss, brier), against scikit-learn to 1e-9 on files, through the command line
and the Python API, on the full data and on resamples."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from sklearn import metrics as sk

import compreport as cr
from compreport.stats import resampling as bootstrap
from tests.conftest import engine_on, make_competition, one_error, prepare, run_cli, write

RNG = np.random.default_rng(38)
CONFUSION = ["kappa", "mcc", "balanced_accuracy"]
LABELS = ["FAVOR", "AGAINST", "NONE", "OTHER"]


def sk_score(name, gold, pred, labels=None):
    if name == "kappa":
        return sk.cohen_kappa_score(gold, pred)
    if name == "qwk":
        return sk.cohen_kappa_score(gold, pred, labels=labels, weights="quadratic")
    if name == "mcc":
        return sk.matthews_corrcoef(gold, pred)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a predicted class gold lacks
        return sk.balanced_accuracy_score(gold, pred)


def noisy(gold, labels, acc):
    return np.where(RNG.random(len(gold)) < acc, gold, RNG.choice(labels, len(gold)))


def task(tmp, gold, runs, spec=None):
    write(tmp, "gold.tsv", "id\tlabel\n" + "".join(f"d{i}\t{g}\n" for i, g in enumerate(gold)))
    for name, pred in runs.items():
        write(
            tmp,
            f"runs/{name}.tsv",
            "id\tlabel\n" + "".join(f"d{i}\t{p}\n" for i, p in enumerate(pred)),
        )
    if spec:
        write(tmp, "competition.toml", spec)


def results(out):
    (comp,) = json.loads((out / "results.json").read_text())["competitions"]
    return {m["name"]: {s["system"]: s["score"] for s in m["scores"]} for m in comp["metrics"]}


def test_confusion_measures_cli_and_api(tmp_path):
    n = 150
    gold = RNG.choice(LABELS, n, p=[0.4, 0.3, 0.25, 0.05])
    # a run that never predicts OTHER, one that predicts a class gold lacks
    runs = {
        "A.1": noisy(gold, LABELS[:3], 0.7),
        "B.1": noisy(gold, LABELS + ["UNKNOWN"], 0.5),
        "C.1": noisy(gold, LABELS, 0.3),
    }
    task(tmp_path, gold, runs)
    res = run_cli(
        tmp_path, "report", "gold.tsv", "--runs", "runs", "--metric", ",".join(CONFUSION),
        "-o", "out", "-B", "200", "--format", "json",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    got = results(tmp_path / "out")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        data = cr.load(tmp_path / "gold.tsv", runs=tmp_path / "runs", metrics=CONFUSION)
        analysis = cr.analyze(data, bootstrap=100, seed=0)
    for name in CONFUSION:
        board = analysis.leaderboard(metric=name)
        api = dict(zip(board.system, board.score, strict=True))
        for s, pred in runs.items():
            exp = sk_score(name, gold, pred)
            assert got[name][s] == pytest.approx(exp, abs=1e-9), (name, s)
            assert api[s] == pytest.approx(exp, abs=1e-9), (name, s)


@pytest.mark.parametrize("name", CONFUSION + ["qwk"])
def test_resamples_equal_scikit_learn_and_every_engine(name):
    n, m = 60, 3
    gold = RNG.integers(1, 6, n)
    preds = np.stack([np.clip(gold + RNG.integers(-2, 3, n), 1, 6) for _ in range(m)])
    comp = make_competition(gold, preds)
    p = prepare(comp, name)
    assert p.cells is not None
    labels = [str(x) for x in range(1, 7)]  # qwk: positions in numeric order
    for _ in range(5):
        idx = RNG.integers(0, n, n)
        got = engine_on(p, idx)
        for s in range(m):
            exp = sk_score(name, gold[idx].astype(str), preds[s, idx].astype(str), labels)
            assert got[s] == pytest.approx(exp, abs=1e-9)
    kw = dict(B=200, seed=1, progress=False, mode="patterns")
    dense = bootstrap.run([p], n, m, engine="dense", **kw)
    cells = bootstrap.run([p], n, m, engine="cells", **kw)
    np.testing.assert_allclose(cells.replicates[0], dense.replicates[0], atol=1e-9)


def test_qwk_order_from_labels_in_the_spec(tmp_path):
    order = ["none", "low", "medium", "high"]
    n = 120
    gold = RNG.choice(order, n)
    runs = {"A.1": noisy(gold, order, 0.6), "B.1": noisy(gold, order, 0.3)}
    spec = (
        '[data]\ngold = "gold.tsv"\nruns = "runs"\n'
        f'[[metrics]]\nname = "qwk"\nlabels = {json.dumps(order)}\n'
        '[[metrics]]\nname = "kappa"\n'
    )
    task(tmp_path, gold, runs, spec)
    res = run_cli(tmp_path, "report", ".", "-o", "out", "-B", "100", "--format", "json")
    assert res.returncode == 0, res.stderr
    got = results(tmp_path / "out")
    for s, pred in runs.items():
        assert got["qwk"][s] == pytest.approx(sk_score("qwk", gold, pred, order), abs=1e-9)
        # the order matters: alphabetical positions give another score
        assert got["qwk"][s] != pytest.approx(sk_score("qwk", gold, pred, sorted(order)), abs=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        board = cr.analyze(cr.load(tmp_path), bootstrap=50, seed=0).leaderboard(metric="qwk")
    for s, score in zip(board.system, board.score, strict=True):
        assert score == pytest.approx(sk_score("qwk", gold, runs[s], order), abs=1e-9)
    spec = tmp_path / "competition.toml"
    spec.write_text(spec.read_text().replace('"medium", ', ""))
    one_error(
        run_cli(tmp_path, "report", ".", "-o", "out2", "--format", "json"),
        "gold.tsv",
        "label 'medium' of gold or predictions is not in",
    )
    spec.write_text(spec.read_text().replace("labels = ", "ignored = "))
    one_error(
        run_cli(tmp_path, "report", ".", "-o", "out2", "--format", "json"),
        "unknown parameter 'ignored'",
    )


def test_qwk_without_an_order_is_refused(tmp_path):
    gold = RNG.choice(["a", "b", "c"], 30)
    task(tmp_path, gold, {"A.1": noisy(gold, ["a", "b", "c"], 0.5)})
    one_error(
        run_cli(tmp_path, "report", "gold.tsv", "--runs", "runs", "--metric", "qwk", "-o", "o"),
        "metric 'qwk' needs ordered labels",
    )


# ---------------------------------------------------------------------------------- probabilities

CLASSES = ["negative", "neutral", "positive"]


def test_log_loss_and_brier_from_soft_labels_jsonl(tmp_path):
    n = 80
    gold = RNG.choice(CLASSES, n)
    runs = {}
    for name, conc in [("A.1", 4.0), ("B.1", 1.0)]:
        alpha = 1 + conc * (gold[:, None] == np.array(CLASSES))
        prob = np.array([RNG.dirichlet(a) for a in alpha]).round(4)
        prob[:, -1] = 1 - prob[:, :-1].sum(1)  # rows of 4 decimals that sum to 1
        prob = np.clip(prob, 0, 1)
        runs[name] = prob
        lines = [
            json.dumps({"id": f"t{i}", "label": dict(zip(CLASSES, map(float, row), strict=True))})
            for i, row in enumerate(prob)
        ]
        write(tmp_path, f"runs/{name}.jsonl", "\n".join(lines) + "\n")
    write(tmp_path, "gold.tsv", "id\tlabel\n" + "".join(f"t{i}\t{g}\n" for i, g in enumerate(gold)))
    res = run_cli(
        tmp_path, "report", "gold.tsv", "--runs", "runs", "--metric", "log_loss,brier",
        "-o", "out", "-B", "100", "--format", "json",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    got = results(tmp_path / "out")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        data = cr.load(tmp_path / "gold.tsv", runs=tmp_path / "runs", metrics="brier,log_loss")
        board = cr.analyze(data, bootstrap=50, seed=0).leaderboard(metric="log_loss")
    api = dict(zip(board.system, board.score, strict=True))
    for s, prob in runs.items():
        ll = sk.log_loss(gold, prob, labels=CLASSES)
        assert got["log_loss"][s] == pytest.approx(ll, abs=1e-9)
        assert api[s] == pytest.approx(ll, abs=1e-9)
        brier = sk.brier_score_loss(gold, prob, labels=CLASSES)
        assert got["brier"][s] == pytest.approx(brier, abs=1e-9)
    assert board.system.tolist()[0] == "A.1"  # lower is better


def test_binary_probability_column_with_pos_label(tmp_path):
    n = 100
    gold = RNG.choice(["no", "yes"], n)
    runs = {
        "A.1": np.clip(0.5 + 0.4 * np.where(gold == "yes", 1, -1) + RNG.normal(0, 0.2, n), 0, 1),
        "B.1": RNG.random(n),
    }
    runs["A.1"][:3] = [0.0, 1.0, 1.0]  # probabilities of 0 and 1: clipped as scikit-learn does
    task(tmp_path, gold, {k: [f"{v:.6f}" for v in p] for k, p in runs.items()})
    res = run_cli(
        tmp_path, "report", "gold.tsv", "--runs", "runs", "--metric", "brier,log_loss",
        "--pos-label", "yes", "-o", "out", "-B", "100", "--format", "json",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    got = results(tmp_path / "out")
    for s, p in runs.items():
        p = np.round(p, 6)
        assert got["log_loss"][s] == pytest.approx(sk.log_loss(gold == "yes", p), abs=1e-9)
        assert got["brier"][s] == pytest.approx(
            sk.brier_score_loss(gold, p, pos_label="yes"), abs=1e-9
        )
    one_error(
        run_cli(tmp_path, "report", "gold.tsv", "--runs", "runs", "--metric", "brier", "-o", "o"),
        "metric 'brier' needs `pos_label`",
    )


@pytest.mark.parametrize(
    "cell, parts",
    [
        ("1.5", ["runs/A.1.tsv, line 3", "'1.5' is not a probability between 0 and 1"]),
        ("yes", ["runs/A.1.tsv, line 3", "'yes' is not a probability"]),
        ('{"no": 0.5, "yes": 0.9}', ["runs/A.1.tsv, line 3", "sum to 1.4, not 1"]),
        ('{"no": -0.1, "yes": 1.1}', ["runs/A.1.tsv, line 3", "probability -0.1"]),
    ],
)
def test_bad_probabilities_name_the_file_and_line(tmp_path, cell, parts):
    gold = ["no", "yes", "yes", "no"]
    task(tmp_path, gold, {"A.1": ["0.2", cell, "0.7", "0.1"]})
    one_error(
        run_cli(
            tmp_path, "report", "gold.tsv", "--runs", "runs", "--metric", "log_loss",
            "--pos-label", "yes", "-o", "out",
        ),
        *parts,
    )  # fmt: skip


def test_one_runs_qwk_does_not_depend_on_another_run():
    """scikit-learn places a run's labels on the scale of the labels it and the gold use; a label
    only another run predicts would shift the scale (0.5 became 0.4643 once a run predicted 4), so
    that case asks for the scale, and with it every run scores as scikit-learn does with
    ``labels=``."""
    gold = ["1", "2", "5", "5", "1", "2"]
    s0, s1 = ["1", "5", "5", "2", "2", "1"], ["1", "4", "5", "5", "1", "2"]
    alone = engine_on(prepare(make_competition(gold, [s0]), "qwk"), np.arange(6))
    want = sk.cohen_kappa_score(gold, s0, weights="quadratic")
    assert alone[0] == pytest.approx(want, abs=1e-12)
    with pytest.raises(cr.InputError, match="neither the gold nor run 's0' uses the label '4'"):
        prepare(make_competition(gold, [s0, s1]), "qwk")
    scale = ["1", "2", "3", "4", "5"]
    both = engine_on(prepare(make_competition(gold, [s0, s1]), "qwk", labels=scale), np.arange(6))
    assert both.tolist() == pytest.approx(
        [sk.cohen_kappa_score(gold, s, labels=scale, weights="quadratic") for s in (s0, s1)],
        abs=1e-12,
    )


def test_a_runs_extra_class_key_does_not_change_the_others_brier():
    """Brier is halved for a binary gold (scikit-learn); a run writing a third key with
    probability 0 leaves every score as it was (it doubled them)."""
    gold = ["1", "0", "1", "0"]
    p0 = ['{"0":0.2,"1":0.8}', '{"0":0.7,"1":0.3}', '{"0":0.4,"1":0.6}', '{"0":0.9,"1":0.1}']
    p1 = [p.replace("}", ',"MAYBE":0.0}') for p in p0]
    want = sk.brier_score_loss([1, 0, 1, 0], [0.8, 0.3, 0.6, 0.1])
    alone = engine_on(prepare(make_competition(gold, [p0]), "brier"), np.arange(4))
    both = engine_on(prepare(make_competition(gold, [p0, p1]), "brier"), np.arange(4))
    assert alone.tolist() == pytest.approx([want], abs=1e-12)
    assert both.tolist() == pytest.approx([want, want], abs=1e-12)
