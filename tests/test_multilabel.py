"""Label sets per item (multi-label): every measure against scikit-learn, on files in each layout
tasks publish, through the command line and the Python API; the bootstrap's weighted sums against
scikit-learn on the resampled items; bad input."""

from __future__ import annotations

import json
import shutil
import warnings
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


def task(
    n: int = 80, seed: int = 0, empty: bool = True
) -> tuple[list[str], list[tuple], dict[str, list[tuple]]]:
    """Ids, gold label sets (some empty, unless ``empty`` is False) and three runs: two noisy
    copies of the gold, one that also predicts a label the gold never has (``other``), so the
    label universes differ."""
    rng = np.random.default_rng(seed)
    ids = [f"t{i:03d}" for i in range(n)]
    gold_bits = rng.random((n, len(LABELS))) < [0.4, 0.3, 0.15, 0.1, 0.05]
    if not empty:
        gold_bits[~gold_bits.any(1), 1] = True
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


def delimited_layout(tmp: Path, sep: str = "|") -> tuple[list, dict]:
    """(d) a delimited cell: a TSV whose label column holds ``a|b`` (an empty set: ``[]``)."""
    ids, gold, runs = task()

    def cell(labels):
        return sep.join(labels) if labels else "[]"

    write(tmp, "gold.tsv", "id\tlabels\n" + "".join(f"{i}\t{cell(g)}\n" for i, g in zip(ids, gold)))
    for name, sets in runs.items():
        body = "".join(f"{i}\t{cell(s)}\n" for i, s in zip(ids, sets))
        write(tmp, f"runs/{name}.tsv", "id\tlabels\n" + body)
    return gold, runs


def test_delimited_cells_through_the_cli_the_api_and_a_spec(tmp_path):
    gold, runs = delimited_layout(tmp_path)
    names = ["macro_f1", "micro_f1", "samples_f1", "hamming_loss", "subset_accuracy"]
    want = expected(gold, runs, names)
    args = ("gold.tsv", "--runs", "runs", "--multi-label", "|", "--metric", ",".join(names))
    same(cli_scores(tmp_path, *args), want)
    api = api_scores(
        tmp_path / "gold.tsv", runs=tmp_path / "runs", multi_label="|", metrics=",".join(names)
    )
    same(api, want)
    write(
        tmp_path,
        "competition.toml",
        'name = "Sets"\n[data]\ngold = "gold.tsv"\nruns = "runs"\nmulti_label = "|"\n'
        + "".join(f'[[metrics]]\nname = "{n}"\n' for n in names),
    )
    shutil.rmtree(tmp_path / "out")
    same(cli_scores(tmp_path, "competition.toml"), want)


def test_without_the_option_a_delimited_cell_is_one_label(tmp_path):
    """Read without ``--multi-label``, ``a|b`` is one label: a single-label task, which
    ``samples_f1`` refuses, naming the option."""
    delimited_layout(tmp_path)
    for path in [tmp_path / "gold.tsv", *(tmp_path / "runs").iterdir()]:
        path.write_text(path.read_text().replace("\t[]\n", "\tnone\n"))  # no JSON array left
    res = run_cli(
        tmp_path, "report", "gold.tsv", "--runs", "runs", "--metric", "samples_f1", "-o", "out"
    )
    one_error(res, "gold.tsv", "metric 'samples_f1' reads label sets", "--multi-label SEP")


def huhu_layout(tmp: Path) -> tuple[list, dict]:
    """(c) HUHU 2023's layout: a CSV with ``index``, the text, and one 0/1 column per prejudice
    target; a run: ``index`` and the same 0/1 columns."""
    ids, gold, runs = task()
    head = ",".join(LABELS)

    def bits(labels):
        return ",".join("1" if lab in labels else "0" for lab in LABELS)

    write(
        tmp,
        "test_gold.csv",
        f"index,tweet,{head}\n"
        + "".join(f'{i},"a tweet, quoted",{bits(g)}\n' for i, g in zip(ids, gold)),
    )
    for name, sets in runs.items():
        sets = [tuple(x for x in s if x in LABELS) for s in sets]  # a column per label only
        runs[name] = sets
        write(
            tmp,
            f"runs/{name}.csv",
            f"index,{head}\n" + "".join(f"{i},{bits(s)}\n" for i, s in zip(ids, sets)),
        )
    return gold, runs


def test_one_column_per_label_as_huhu_publishes(tmp_path):
    gold, runs = huhu_layout(tmp_path)
    names = ["macro_f1", "weighted_f1", "samples_f1"]
    want = expected(gold, runs, names)
    args = ("test_gold.csv", "--runs", "runs", "--id-col", "index")
    cols = ("--multi-label", "columns", "--label-col", ",".join(LABELS))
    same(cli_scores(tmp_path, *args, *cols, "--metric", ",".join(names)), want)
    api = api_scores(
        tmp_path / "test_gold.csv",
        runs=tmp_path / "runs",
        id_col="index",
        multi_label="columns",
        label_col=LABELS,
        metrics=names,
    )
    same(api, want)


def test_a_label_column_that_is_not_0_or_1(tmp_path):
    huhu_layout(tmp_path)
    text = (tmp_path / "runs" / "TeamB.01.csv").read_text().splitlines()
    cells = text[3].split(",")
    cells[2] = "0.7"
    text[3] = ",".join(cells)
    write(tmp_path, "runs/TeamB.01.csv", "\n".join(text) + "\n")
    res = run_cli(
        tmp_path, "report", "test_gold.csv", "--runs", "runs", "--id-col", "index",
        "--multi-label", "columns", "--label-col", ",".join(LABELS), "--metric", "macro_f1",
        "-o", "out",
    )  # fmt: skip
    one_error(res, "runs/TeamB.01.csv, line 4", f"column '{LABELS[1]}'", "'0.7' is not 0 or 1")


def pyevall_layout(tmp: Path, form: str) -> tuple[list, dict]:
    """(b) PyEvALL's files: JSON objects ``test_case``, ``id``, ``value``, or a TSV of those
    columns (``tsv``: with the header; ``bare``: without), values JSON arrays; no gold set is
    empty, as PyEvALL leaves such items out."""
    ids, gold, runs = task(empty=False)

    def dump(sets):
        rows = [{"test_case": "EXIST2023", "id": i, "value": list(s)} for i, s in zip(ids, sets)]
        if form == "json":
            return json.dumps(rows)
        head = "test_case\tid\tvalue\n" if form == "tsv" else ""
        return head + "".join(
            f"{r['test_case']}\t{r['id']}\t{json.dumps(r['value'])}\n" for r in rows
        )

    suffix = "json" if form == "json" else "tsv"
    write(tmp, f"gold.{suffix}", dump(gold))
    for name, sets in runs.items():
        write(tmp, f"runs/{name}.{suffix}", dump(sets))
    return gold, runs


@pytest.mark.parametrize("form", ["json", "tsv", "bare"])
def test_pyevall_files_with_no_option(tmp_path, form):
    gold, runs = pyevall_layout(tmp_path, form)
    names = ["macro_f1", "micro_f1", "samples_f1"]
    want = expected(gold, runs, names)
    suffix = "json" if form == "json" else "tsv"
    same(
        cli_scores(tmp_path, f"gold.{suffix}", "--runs", "runs", "--metric", ",".join(names)), want
    )
    api = api_scores(tmp_path / f"gold.{suffix}", runs=tmp_path / "runs", metrics=names)
    same(api, want)


@pytest.mark.parametrize("form", ["json", "tsv"])
def test_pyevall_file_of_two_test_cases_is_refused(tmp_path, form):
    pyevall_layout(tmp_path, form)
    suffix = "json" if form == "json" else "tsv"
    gold = tmp_path / f"gold.{suffix}"
    if form == "json":
        rows = json.loads(gold.read_text())
        rows[5]["test_case"] = "EXIST2024"
        gold.write_text(json.dumps(rows))
        where = "gold.json, entry 6"
    else:
        lines = gold.read_text().splitlines()
        lines[6] = lines[6].replace("EXIST2023", "EXIST2024")
        gold.write_text("\n".join(lines) + "\n")
        where = "gold.tsv, line 7"
    res = run_cli(
        tmp_path, "report", f"gold.{suffix}", "--runs", "runs", "--metric", "macro_f1", "-o", "out"
    )
    one_error(res, where, "test case 'EXIST2024' after 'EXIST2023'", "2 PyEvALL test cases")


# --------------------------------------------------------------------------- per label, warnings


def test_per_label_scores_and_warnings(tmp_path):
    """The best system's per-class table holds, for label sets, scikit-learn's per-label scores
    (``average=None``); the small-class warning counts items per label; a label no gold set holds
    is named."""
    gold, runs = json_layout(tmp_path)
    res = run_cli(
        tmp_path,
        "report", "gold.jsonl", "--runs", "runs", "--label-col", "labels", "--metric",
        "macro_f1", "-B", "50", "-o", "out", "--format", "json",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    comp = json.loads((tmp_path / "out" / "results.json").read_text())["competitions"][0]
    classes = comp["classes"]
    best = runs[classes["system"]]
    mlb = MultiLabelBinarizer(classes=classes["labels"])
    y = mlb.fit_transform(gold)
    with warnings.catch_warnings():  # labels gold lacks are left out, as the table leaves them
        warnings.simplefilter("ignore", UserWarning)
        p = mlb.transform(best)
    for key, fn in (("precision", sk.precision_score), ("recall", sk.recall_score),
                    ("f1", sk.f1_score)):  # fmt: skip
        want = fn(y, p, average=None, zero_division=0)
        assert classes[key] == pytest.approx(want.tolist(), abs=1e-12), key
    assert classes["support"] == y.sum(0).tolist()
    assert (
        np.diag(np.array(classes["confusion"])[:, : len(LABELS)]).tolist()
        == (y & p).sum(0).tolist()
    )
    support = dict(zip(classes["labels"], classes["support"]))
    small = [lab for lab, k in support.items() if k < 10]
    assert small, support  # the task has a rare label
    warning = next(x for x in said(res.stderr) if "fewer than 10 items" in x)
    for lab in small:
        assert f"'{lab}' ({support[lab]} item" in warning
    assert "[" not in warning.split("fewer than")[0]  # labels, not sets
    unseen = [x for x in said(res.stderr) if "never seen in gold" in x]
    assert len(unseen) == 1 and "system 'TeamC.01' predicts label 'other'" in unseen[0]
    n_other = sum("other" in s for s in runs["TeamC.01"])
    assert f"({n_other} item(s))" in unseen[0]


def test_every_report_renders_for_label_sets(tmp_path):
    """HTML, LaTeX and the figures (the per-label table, the co-occurrence heat map) of a
    multi-label task."""
    json_layout(tmp_path)
    res = run_cli(
        tmp_path,
        "report", "gold.jsonl", "--runs", "runs", "--label-col", "labels", "--metric",
        "macro_f1,hamming_loss", "-B", "50", "-o", "out", "--format", "html,latex",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    html = next((tmp_path / "out").rglob("*.html"))
    assert html.stat().st_size > 0
    text = "".join(p.read_text() for p in (tmp_path / "out").rglob("*.html"))
    assert "stereotyping" in text and "hamming_loss" in text.replace("Hamming", "hamming_loss")


def test_pyevall_scores_the_same_files_alike(tmp_path):
    """PyEvALL's own multi-label FMeasure, Precision and Recall (averaged over the gold's labels)
    on its JSON files equal macro_f1, macro_precision and macro_recall (runs predicting only gold
    labels: compreport also averages over a label only the run predicts, with F1 0)."""
    from pyevall.evaluation import PyEvALLEvaluation
    from pyevall.utils.utils import PyEvALLUtils

    gold, runs = pyevall_layout(tmp_path, "json")
    (tmp_path / "runs" / "TeamC.01.json").unlink()  # it predicts a label the gold lacks
    del runs["TeamC.01"]
    assert set().union(*gold) == set(LABELS)
    names = {"macro_f1": "FMeasure", "macro_precision": "Precision", "macro_recall": "Recall"}
    ours = cli_scores(tmp_path, "gold.json", "--runs", "runs", "--metric", ",".join(names))
    params = {PyEvALLUtils.PARAM_REPORT: PyEvALLUtils.PARAM_OPTION_REPORT_EMBEDDED}
    for system in runs:
        report = (
            PyEvALLEvaluation()
            .evaluate(
                str(tmp_path / "runs" / f"{system}.json"),
                str(tmp_path / "gold.json"),
                list(names.values()),
                **params,
            )
            .report["metrics"]
        )
        for name, theirs in names.items():
            want = report[theirs]["results"]["average_per_test_case"]
            assert ours[name][system] == pytest.approx(want, abs=1e-9, rel=0), (system, name)


@pytest.mark.parametrize("form", ["json", "tsv"])
def test_an_empty_pyevall_gold_value_is_refused(tmp_path, form):
    """PyEvALL leaves an item whose gold value is empty out of its scores; compreport says so
    rather than score it otherwise."""
    pyevall_layout(tmp_path, form)
    suffix = "json" if form == "json" else "tsv"
    gold = tmp_path / f"gold.{suffix}"
    if form == "json":
        rows = json.loads(gold.read_text())
        rows[3]["value"] = []
        gold.write_text(json.dumps(rows))
        where = "gold.json, entry 4"
    else:
        lines = gold.read_text().splitlines()
        lines[4] = lines[4].rsplit("\t", 1)[0] + "\t[]"
        gold.write_text("\n".join(lines) + "\n")
        where = "gold.tsv, line 5"
    res = run_cli(
        tmp_path, "report", f"gold.{suffix}", "--runs", "runs", "--metric", "macro_f1", "-o", "out"
    )
    one_error(res, where, "the gold value is empty ([])", "PyEvALL leaves such an item out")


@pytest.mark.parametrize(
    "name, params", [("roc_auc", {"pos_label": "misogyny"}), ("mae", {}), ("measure_s", {})]
)
def test_a_metric_of_one_label_refuses_label_sets(name, params):
    """The gold's first label set is named, with the metrics that read label sets."""
    ids, gold, runs = task(n=10)
    sets = [label_set_text(g) for g in gold]
    if name == "measure_s":  # two fields: polarity and type
        comp = make_competition(
            [[str(i % 5 + 1), s] for i, s in enumerate(sets)],
            [[[str(i % 5 + 1), s] for i, s in enumerate(sets)]],
            fields=["polarity", "type"],
            metrics=[name],
        )
    else:
        comp = make_competition(sets, [[str(0.1 * i) for i in range(10)]], metrics=[name])
    first = next(i for i, s in enumerate(sets) if s.startswith("["))
    with pytest.raises(cr.InputError, match="is a label set") as err:
        get_metric(name).prepare(comp, params)
    assert f"item '{first}'" in str(err.value) and "samples_f1" in str(err.value)


def test_hamming_loss_ranks_lower_first(tmp_path):
    gold, runs = json_layout(tmp_path)
    res = run_cli(
        tmp_path,
        "report", "gold.jsonl", "--runs", "runs", "--label-col", "labels", "--metric",
        "hamming_loss", "-B", "50", "-o", "out", "--format", "json",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    metric = json.loads((tmp_path / "out" / "results.json").read_text())["competitions"][0][
        "metrics"
    ][0]
    assert metric["higher_is_better"] is False
    want = sorted(runs, key=lambda s: sklearn_score("hamming_loss", gold, runs[s]))
    assert [s["system"] for s in metric["scores"]] == want
    assert get_metric("hamming_loss").ideal == 0.0


def test_missing_predictions_and_plain_labels_in_a_run(tmp_path):
    """A run mixing label sets and plain labels reads a plain label as a set of one; under
    ``--missing wrong`` an absent item is the empty set, and never a subset-accuracy hit."""
    gold, runs = json_layout(tmp_path)
    ids = [f"t{i:03d}" for i in range(len(gold))]
    sets = runs["TeamA.01"]
    rows = []
    for k, (i, s) in enumerate(zip(ids, sets)):
        if k in (3, 4):
            continue  # absent: missing
        value = s[0] if len(s) == 1 else list(s)  # one label written plainly
        rows.append({"id": i, "labels": value})
    write(tmp_path, "runs/TeamA.01.json", json.dumps(rows))
    assert any(isinstance(r["labels"], str) for r in rows)
    seen = [s if k not in (3, 4) else () for k, s in enumerate(sets)]
    names = ["macro_f1", "samples_f1", "hamming_loss", "subset_accuracy"]
    got = cli_scores(
        tmp_path, "gold.jsonl", "--runs", "runs", "--label-col", "labels", "--missing", "wrong",
        "--metric", ",".join(names),
    )  # fmt: skip
    for name in names[:3]:
        assert got[name]["TeamA.01"] == pytest.approx(
            sklearn_score(name, gold, seen), abs=1e-9, rel=0
        )
    hits = sum(g == s for k, (g, s) in enumerate(zip(gold, sets)) if k not in (3, 4))
    assert got["subset_accuracy"]["TeamA.01"] == pytest.approx(hits / len(gold), abs=1e-12)


@pytest.mark.parametrize("mode", ["items", "patterns"])
def test_cells_and_dense_engines_agree_on_label_sets(mode):
    """Few distinct sets over many items: the ``cells`` engine (sums per (gold, predicted) set
    pair) gives the ``dense`` engine's numbers exactly, bootstrap, jackknife and randomization."""
    from compreport.stats import resampling

    rng = np.random.default_rng(5)
    labels = ["x", "y", "z"]
    n, m = 600, 4
    gold_bits = rng.random((n, 3)) < 0.4
    preds = [gold_bits ^ (rng.random((n, 3)) < q) for q in (0.1, 0.2, 0.3, 0.4)]

    def text(bits):
        return label_set_text(lab for lab, b in zip(labels, bits, strict=True) if b)

    comp = make_competition([text(b) for b in gold_bits], [[text(b) for b in p] for p in preds])
    comp.predictions[1, :3, 0] = ""  # missing predictions
    p = [get_metric(name).prepare(comp, {}) for name in MEASURES]
    p.append(get_metric("f1").prepare(comp, {"pos_label": "y"}))
    kw = dict(B=300, seed=2, mode=mode, jackknife=True, randomization=True, progress=False)
    dense = resampling.run(p, n, m, engine="dense", **kw)
    cells = resampling.run(p, n, m, engine="cells", **kw)
    assert dense.engine == "dense" and cells.engine == "cells"
    for i in range(len(p)):
        np.testing.assert_array_equal(dense.observed[i], cells.observed[i])
        np.testing.assert_array_equal(dense.replicates[i], cells.replicates[i])
    a, b = np.array([0, 1]), np.array([2, 3])
    np.testing.assert_array_equal(dense.randomization_p(0, a, b), cells.randomization_p(0, a, b))


@pytest.mark.parametrize("form", ["json", "tsv"])
def test_pyevall_values_label_set_or_soft_label(tmp_path, form):
    """PyEvALL's ``value``: a label, a JSON array (a label set) or a JSON object (a soft label),
    each held in its canonical text (:mod:`compreport.inputs.structured`)."""
    from compreport.inputs.structured import soft_text

    values = ["YES", ["b", "a"], {"YES": 0.67, "NO": 0.33}]
    rows = [{"test_case": "EXIST2023", "id": str(i), "value": v} for i, v in enumerate(values)]
    if form == "json":
        text = json.dumps(rows)
    else:
        text = "test_case\tid\tvalue\n" + "".join(
            f"{r['test_case']}\t{r['id']}\t{r['value'] if isinstance(r['value'], str) else json.dumps(r['value'])}\n"  # noqa: E501
            for r in rows
        )
    write(tmp_path, f"gold.{form}", text)
    write(tmp_path, f"runs/A.{form}", text)
    comp = cr.load(tmp_path / f"gold.{form}", runs=tmp_path / "runs", metrics="accuracy")
    held = comp.competitions[0].gold[:, 0].tolist()
    assert held == ["YES", label_set_text(["a", "b"]), soft_text({"NO": 0.33, "YES": 0.67})]
    assert comp.competitions[0].predictions[0, :, 0].tolist() == held


def test_headerless_runs_of_0_1_columns_take_the_gold_labels(tmp_path):
    """Label columns given by position: the gold's header names the labels, and runs without a
    header (the gold's columns) take them."""
    gold, runs = huhu_layout(tmp_path)
    for path in (tmp_path / "runs").iterdir():
        rows = path.read_text().splitlines()[1:]  # the header dropped, a text column added
        path.write_text("".join(r.replace(",", ",text,", 1) + "\n" for r in rows))
    positions = ",".join(str(j) for j in range(3, 3 + len(LABELS)))
    got = cli_scores(
        tmp_path, "test_gold.csv", "--runs", "runs", "--id-col", "1", "--multi-label",
        "columns", "--label-col", positions, "--metric", "macro_f1",
    )  # fmt: skip
    same(got, expected(gold, runs, ["macro_f1"]))
