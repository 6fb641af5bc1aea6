"""Composites declared in the spec (``name = "composite"``): a weighted mean of other measures,
each over its own field, resampled jointly. Checked against scikit-learn on files in the published
layouts (PoliticES, MentalRiskES 2d, Rest-Mex 2025), through the command line and the Python API.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from sklearn import metrics as sk

import compreport as cr
from compreport.stats import resampling as bootstrap
from tests.conftest import engine_on, make_competition, one_error, prepare, run_cli, write

RNG = np.random.default_rng(20261205)

TRAITS = {
    "gender": ["female", "male"],
    "profession": ["celebrity", "journalist", "politician"],
    "ideology_binary": ["left", "right"],
    "ideology_multiclass": ["left", "moderate_left", "moderate_right", "right"],
}


def _noisy(gold, labels, acc):
    return np.where(RNG.random(len(gold)) < acc, gold, RNG.choice(labels, len(gold)))


def politices(tmp, n=90, weights=None):
    """PoliticES 2023 as published: a CSV per run, `user` then one column per trait."""
    gold = {t: RNG.choice(v, n) for t, v in TRAITS.items()}
    runs = {
        name: {t: _noisy(gold[t], v, acc) for t, v in TRAITS.items()}
        for name, acc in [("UPV.run1", 0.8), ("Nlp4Pol.run1", 0.65), ("SINAI.run2", 0.5)]
    }

    def text(d):
        rows = [",".join(d[t][i] for t in TRAITS) for i in range(n)]
        return (
            "user," + ",".join(TRAITS) + "\n" + "".join(f"@u{i},{r}\n" for i, r in enumerate(rows))
        )

    write(tmp, "gold.csv", text(gold))
    for name, d in runs.items():
        write(tmp, f"runs/{name}.csv", text(d))
    parts = ",\n".join(f'  {{metric = "macro_f1", field = "{t}"}}' for t in TRAITS)
    write(
        tmp,
        "competition.toml",
        f'name = "PoliticES"\n[data]\ngold = "gold.csv"\nruns = "runs"\nid_col = "user"\n'
        f"fields = {json.dumps(list(TRAITS))}\n"
        f'[[metrics]]\nname = "composite"\nlabel = "politices_f1"\nparts = [\n{parts}\n]\n'
        + (f"weights = {weights}\n" if weights else "")
        + '[[metrics]]\nname = "macro_f1"\nfield = "gender"\n',
    )
    return gold, runs


def scores(out, metric):
    """``system -> score`` of ``metric`` in ``out/results.json``."""
    res = json.loads((out / "results.json").read_text())
    (comp,) = res["competitions"]
    (ma,) = [m for m in comp["metrics"] if m["name"] == metric]
    return {s["system"]: s["score"] for s in ma["scores"]}, ma


def report(tmp, *extra):
    return run_cli(tmp, "report", ".", "-o", "out", "-B", "200", "--format", "json", *extra)


@pytest.mark.parametrize("weights", [None, [1, 2, 0.5, 3]])
def test_politices_mean_of_macro_f1_cli_and_api(tmp_path, weights):
    gold, runs = politices(tmp_path, weights=weights)
    res = report(tmp_path)
    assert res.returncode == 0, res.stderr
    got, ma = scores(tmp_path / "out", "politices_f1")
    w = np.ones(4) if weights is None else np.asarray(weights, float)
    expected = {
        name: float(
            np.dot(w, [sk.f1_score(gold[t], d[t], average="macro") for t in TRAITS]) / w.sum()
        )
        for name, d in runs.items()
    }
    assert got == pytest.approx(expected, abs=1e-9)
    assert ma["higher_is_better"] is True and ma["ideal"] == 1.0
    assert [p["field"] for p in ma["params"]["parts"]] == list(TRAITS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        analysis = cr.analyze(cr.load(tmp_path), bootstrap=200, seed=0)
    board = analysis.leaderboard(metric="politices_f1")
    assert dict(zip(board.system, board.score, strict=True)) == pytest.approx(expected, abs=1e-9)


def test_parts_are_resampled_jointly():
    """In one bootstrap the composite's replicate is the weighted mean of its parts' replicates:
    every part sees the same resample weights."""
    n = 70
    gold = np.column_stack([RNG.choice(["a", "b", "c"], n), RNG.integers(0, 5, n)])
    preds = np.stack(
        [
            np.column_stack([_noisy(gold[:, 0], ["a", "b", "c"], 0.7), RNG.integers(0, 5, n)])
            for _ in range(3)
        ]
    )
    comp = make_competition(gold, preds, fields=["cls", "num"])
    comp_p = prepare(
        comp,
        "composite",
        parts=[{"metric": "macro_f1", "field": "cls"}, {"metric": "accuracy", "field": "num"}],
        weights=[3, 1],
    )
    f1, acc = prepare(comp, "macro_f1", field="cls"), prepare(comp, "accuracy", field="num")
    res = bootstrap.run([comp_p, f1, acc], n, 3, B=300, seed=5, progress=False)
    np.testing.assert_allclose(
        res.replicates[0], (3 * res.replicates[1] + res.replicates[2]) / 4, atol=1e-12
    )
    idx = RNG.integers(0, n, n)  # one resample against scikit-learn
    got = engine_on(comp_p, idx)
    for s in range(3):
        exp = (
            3 * sk.f1_score(gold[idx, 0], preds[s, idx, 0], average="macro", zero_division=0)
            + sk.accuracy_score(gold[idx, 1], preds[s, idx, 1])
        ) / 4
        assert got[s] == pytest.approx(exp, abs=1e-12)


def test_composite_with_a_part_evaluated_per_resample():
    """A part without item statistics (spearman) makes the composite evaluated per resample."""
    n = 40
    gold = RNG.normal(size=(n, 2)).round(3)
    preds = (gold + RNG.normal(size=(2, n, 2))).round(3)
    comp = make_competition(gold, preds, fields=["x", "y"])
    p = prepare(
        comp,
        "composite",
        parts=[{"metric": "spearman", "field": "x"}, {"metric": "pearson", "field": "y"}],
    )
    assert not p.decomposable
    from scipy import stats

    idx = RNG.integers(0, n, n)
    got = engine_on(p, idx)
    for s in range(2):
        exp = (
            stats.spearmanr(gold[idx, 0], preds[s, idx, 0])[0]
            + stats.pearsonr(gold[idx, 1], preds[s, idx, 1])[0]
        ) / 2
        assert got[s] == pytest.approx(exp, abs=1e-9)


def mentalrisk(tmp, n=60):
    """MentalRiskES 2023 task 2d: a CSV per run, `Subject` then four scores in [0, 1]."""
    outs = ["suffer_in_favour", "suffer_against", "suffer_other", "control"]
    gold = RNG.dirichlet(np.ones(4), n).round(4)
    runs = {
        name: np.clip(gold + RNG.normal(0, sd, gold.shape), 0, 1).round(4)
        for name, sd in [("UNSL.run0", 0.1), ("SINAI.run1", 0.2), ("BaseLine.run", 0.3)]
    }

    def text(a):
        return (
            "Subject,"
            + ",".join(outs)
            + "\n"
            + "".join(
                f"subject{i}," + ",".join(f"{v:.4f}" for v in row) + "\n" for i, row in enumerate(a)
            )
        )

    write(tmp, "gold.csv", text(gold))
    for name, a in runs.items():
        write(tmp, f"runs/{name}.csv", text(a))
    parts = ", ".join(f'{{metric = "rmse", field = "{o}"}}' for o in outs)
    write(
        tmp,
        "competition.toml",
        f'name = "MentalRiskES 2d"\n[data]\ngold = "gold.csv"\nruns = "runs"\n'
        f'id_col = "Subject"\nfields = {json.dumps(outs)}\n'
        f'[[metrics]]\nname = "composite"\nlabel = "mean_rmse"\nparts = [{parts}]\n',
    )
    return gold, runs


def test_mentalrisk_mean_of_rmse_lower_is_better(tmp_path):
    gold, runs = mentalrisk(tmp_path)
    res = report(tmp_path)
    assert res.returncode == 0, res.stderr
    got, ma = scores(tmp_path / "out", "mean_rmse")
    expected = {
        name: float(
            np.mean([np.sqrt(sk.mean_squared_error(gold[:, j], a[:, j])) for j in range(4)])
        )
        for name, a in runs.items()
    }
    assert got == pytest.approx(expected, abs=1e-9)
    assert ma["higher_is_better"] is False and ma["ideal"] == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        board = cr.analyze(cr.load(tmp_path), bootstrap=100, seed=0).leaderboard()
    assert board.system.tolist() == sorted(expected, key=expected.get)  # lowest first


def restmex_2025(tmp, n=120, weights="[2, 1, 3]"):
    """Rest-Mex 2025 sentiment: polarity 1-5, type, Magical Town, one TSV per run."""
    towns = [f"Town{k}" for k in range(12)]
    gold = {
        "Polarity": RNG.integers(1, 6, n).astype(str),
        "Type": RNG.choice(["Attractive", "Hotel", "Restaurant"], n),
        "MagicTown": RNG.choice(towns, n),
    }
    labels = {"Polarity": list("12345"), "Type": ["Attractive", "Hotel", "Restaurant"]}
    labels["MagicTown"] = towns
    runs = {
        name: {k: _noisy(v, labels[k], acc) for k, v in gold.items()}
        for name, acc in [("Alpha.1", 0.75), ("Beta.1", 0.6)]
    }

    def text(d):
        return "ID\tPolarity\tType\tMagicTown\n" + "".join(
            f"{i}\t{d['Polarity'][i]}\t{d['Type'][i]}\t{d['MagicTown'][i]}\n" for i in range(n)
        )

    write(tmp, "gold.tsv", text(gold))
    for name, d in runs.items():
        write(tmp, f"runs/{name}.tsv", text(d))
    write(
        tmp,
        "competition.toml",
        'name = "Rest-Mex 2025"\n[data]\ngold = "gold.tsv"\nruns = "runs"\nid_col = "ID"\n'
        'fields = ["Polarity", "Type", "MagicTown"]\n'
        '[[metrics]]\nname = "composite"\nlabel = "restmex_2025"\n'
        'parts = [{metric = "macro_f1", field = "Polarity"}, {metric = "macro_f1", '
        'field = "Type"}, {metric = "macro_f1", field = "MagicTown"}]\n'
        f"weights = {weights}\n"
        '[[metrics]]\nname = "measure_s"\npolarity = "Polarity"\ntype = "Type"\n'
        "weights = [2, 1]\n",
    )
    return gold, runs


def test_restmex_2025_weights_and_measure_s_weights(tmp_path):
    gold, runs = restmex_2025(tmp_path)
    res = report(tmp_path)
    assert res.returncode == 0, res.stderr
    got, _ = scores(tmp_path / "out", "restmex_2025")
    got_s, ma_s = scores(tmp_path / "out", "measure_s")
    for name, d in runs.items():
        f1 = [sk.f1_score(gold[k], d[k], average="macro", zero_division=0) for k in gold]
        assert got[name] == pytest.approx((2 * f1[0] + f1[1] + 3 * f1[2]) / 6, abs=1e-9)
        mae = sk.mean_absolute_error(gold["Polarity"].astype(float), d["Polarity"].astype(float))
        assert got_s[name] == pytest.approx((2 / (1 + mae) + f1[1]) / 3, abs=1e-9)
    assert ma_s["params"]["weights"] == [2, 1]


@pytest.mark.parametrize(
    "change, parts",
    [
        ("weights = [2, 1, 3]\n", ["metric 'composite' has 4 part(s) but 3 weight(s)"]),
        ('weights = [1, 1, 1, "x"]\n', ["weight 'x' is not a finite number"]),
        ("weights = [0, 0, 0, 0]\n", ["the weights sum to 0"]),
    ],
)
def test_bad_weights(tmp_path, change, parts):
    politices(tmp_path)
    spec = tmp_path / "competition.toml"
    spec.write_text(spec.read_text().replace('label = "politices_f1"\n', change, 1))
    one_error(report(tmp_path), *parts)


F1_PROF = 'metric = "macro_f1", field = "profession"'


@pytest.mark.parametrize(
    "old, new, parts",
    [
        ('"profession"}', '"profesion"}', ["part 2", "'profesion' is not a field", "'profession'"]),
        (F1_PROF, F1_PROF.replace("f1", "f2"), ["part 2", "'macro_f2' cannot be a part"]),
        (
            F1_PROF,
            F1_PROF.replace("macro_f1", "rmse"),
            ["part 2", "gold.csv, line 2", "is not a finite number"],
        ),
        ("parts = [", "partz = [", ["unknown parameter 'partz'"]),
    ],
)
def test_bad_parts(tmp_path, old, new, parts):
    politices(tmp_path)
    spec = tmp_path / "competition.toml"
    assert old in spec.read_text()
    spec.write_text(spec.read_text().replace(old, new, 1))
    one_error(report(tmp_path), *parts)


def test_parts_disagreeing_in_orientation_are_refused(tmp_path):
    mentalrisk(tmp_path)
    spec = tmp_path / "competition.toml"
    spec.write_text(
        spec.read_text().replace('"rmse", field = "control"', '"pearson", field = "control"')
    )
    one_error(
        report(tmp_path),
        "mean_rmse",
        "disagree in orientation",
        "higher is better: pearson",
        "lower is better: rmse, rmse, rmse",
    )


def test_randomization_test_through_a_composite():
    """``--test randomization`` recombines the parts' statistics that are tied to their system
    (Pearson's): a composite of one part has that part's p-values, and a composite of two parts
    scores swapped predictions as the weighted mean of its parts."""
    n, m = 50, 3
    gold = np.column_stack([RNG.normal(size=n), RNG.integers(0, 3, n)]).round(3)
    noisy_x = [gold[:, 0] + RNG.normal(0, 1 + s, n) for s in range(m)]
    preds = np.stack([np.column_stack([x, RNG.integers(0, 3, n)]) for x in noisy_x]).round(3)
    comp = make_competition(gold, preds, fields=["x", "c"])
    alone = prepare(comp, "pearson", field="x")
    one = prepare(comp, "composite", parts=[{"metric": "pearson", "field": "x"}])
    two = prepare(
        comp,
        "composite",
        parts=[{"metric": "pearson", "field": "x"}, {"metric": "accuracy", "field": "c"}],
        weights=[2, 1],
    )
    acc = prepare(comp, "accuracy", field="c")
    assert one.swapped is not None and two.swapped is not None
    res = bootstrap.run([alone, one, two], n, m, B=300, seed=2, progress=False, randomization=True)
    a, b = np.array([0, 0, 1]), np.array([1, 2, 2])
    np.testing.assert_array_equal(res.randomization_p(0, a, b), res.randomization_p(1, a, b))
    p_two = res.randomization_p(2, a, b)
    assert ((p_two > 0) & (p_two <= 1)).all()
    # the swapped scores themselves: sums over a random split of the items
    moved = RNG.random(n) < 0.5
    stats = [q.stats(q.columns) for q in (alone, acc, two)]
    kept = [(s[0][~moved].sum(0), s[1][~moved].sum(0)) for s in stats]
    gone = [(s[0][moved].sum(0), s[1][moved].sum(0)) for s in stats]
    systems, sources = np.array([0, 1]), np.array([1, 0])
    total = [(s[0].sum(0)[None], s[1]) for s in stats]
    parts = [
        alone.swapped(total[0][0], kept[0][1][systems][None], gone[0][0][None],
                      gone[0][1][sources][None], n, systems, sources),
        acc.finalize(total[1][0], (kept[1][1][systems] + gone[1][1][sources])[None], n, systems),
    ]  # fmt: skip
    got = two.swapped(
        total[2][0], kept[2][1][systems][None], gone[2][0][None], gone[2][1][sources][None], n,
        systems, sources,
    )  # fmt: skip
    np.testing.assert_allclose(got, (2 * parts[0] + parts[1]) / 3, atol=1e-12)
