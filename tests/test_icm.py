"""The ICM family and soft-label measures against PyEvALL itself, on PyEvALL's JSON files.

Every expected value is PyEvALL 0.2.11's score of the same files (``pyevall`` is installed by
``make test`` with ``--no-deps``); on a bootstrap resample, PyEvALL scores the resampled files
with repeated items re-keyed ``r{k}`` (ids are unique per test case in PyEvALL) and the engine
sums our item statistics with the same resample weights.
"""

from __future__ import annotations

import json
import logging
import math

import numpy as np
import pytest

from compreport.errors import InputError
from compreport.inputs.structured import label_set_text, soft_text
from compreport.stats.metrics import get_metric
from tests.conftest import engine_on, make_competition, one_error, prepare, run_cli, write

pyevall = pytest.importorskip(
    "pyevall.evaluation",
    reason="pyevall is not installed: `make test` installs it (pip install --no-deps pyevall)",
)
from pyevall.evaluation import PyEvALLEvaluation  # noqa: E402
from pyevall.utils.utils import PyEvALLUtils  # noqa: E402

logging.getLogger("pyevall").setLevel(logging.ERROR)
#: pyevall 0.2.11 builds its frames in a way pandas 3 deprecates: its warning, not ours.
pytestmark = pytest.mark.filterwarnings(
    "ignore:Passing a list to DataFrame.from_dict is deprecated"
)

#: DIPROMATS 2023 task 3's tree, as PyEvALL's README gives it.
DIPROMATS = {
    "1 appeal to commonality": [
        "1 appeal to commonality - ad populum",
        "1 appeal to commonality - flag waving",
    ],
    "2 discrediting the opponent": [
        "2 discrediting the opponent - absurdity appeal",
        "2 discrediting the opponent - demonization",
        "2 discrediting the opponent - doubt",
        "2 discrediting the opponent - fear appeals (destructive)",
        "2 discrediting the opponent - name calling",
        "2 discrediting the opponent - propaganda slinging",
        "2 discrediting the opponent - scapegoating",
        "2 discrediting the opponent - undiplomatic assertiveness/whataboutism",
    ],
    "3 loaded language": [],
    "4 appeal to authority": [
        "4 appeal to authority - appeal to false authority",
        "4 appeal to authority - bandwagoning",
    ],
    "false": [],
}


def _nodes(tree):
    out = []
    for k, v in tree.items():
        out.append(k)
        out += _nodes(v) if isinstance(v, dict) else list(v)
    return out


def pyevall_file(path, values):
    """A PyEvALL JSON file: ``[{"test_case": "T", "id": ..., "value": ...}]``; ``values`` maps an
    id to a value (a label, a list of labels or a dict class -> weight)."""
    rows = [{"test_case": "T", "id": k, "value": v} for k, v in values.items()]
    path.write_text(json.dumps(rows), encoding="utf-8")
    return path


def theirs(tmp_path, gold, pred, metric, hierarchy=None, **params):
    """PyEvALL's score of ``pred`` against ``gold`` (dicts id -> value)."""
    gp = pyevall_file(tmp_path / "pe_gold.json", gold)
    pp = pyevall_file(tmp_path / "pe_pred.json", pred)
    kw = {PyEvALLUtils.PARAM_REPORT: PyEvALLUtils.PARAM_OPTION_REPORT_DATAFRAME, **params}
    if hierarchy is not None:
        kw[PyEvALLUtils.PARAM_HIERARCHY] = json.loads(json.dumps(hierarchy))  # it mutates it
    df = PyEvALLEvaluation().evaluate(str(pp), str(gp), [metric], **kw).df_average
    return float(df.iloc[0, 1])


def resampled(values, idx, keys):
    """The values of a resample ``idx`` of the items ``keys``, re-keyed ``r{k}`` (PyEvALL refuses
    repeated ids)."""
    return {f"r{k}": values[keys[i]] for k, i in enumerate(idx) if keys[i] in values}


def as_text(v):
    if isinstance(v, list):
        return label_set_text(v)
    if isinstance(v, dict):
        return soft_text(v)
    return v


def ours_comp(gold, preds, name, **params):
    """Our prepared metric on dicts id -> value (gold) and a list of such dicts (runs)."""
    ids = list(gold)
    comp = make_competition(
        [as_text(gold[i]) for i in ids],
        [[as_text(p[i]) if i in p else "" for i in ids] for p in preds],
    )
    return prepare(comp, name, **params)


PE_NAMES = {
    "icm": "ICM",
    "icm_norm": "ICMNorm",
    "icm_soft": "ICMSoft",
    "icm_soft_norm": "ICMSoftNorm",
    "cross_entropy": "CrossEntropy",
    "soft_mae": "MAE",
}


def check(tmp_path, gold, preds, names, hierarchy=None, seed=0, **params):
    """Our scores equal PyEvALL's on the full data and on a bootstrap resample, to 1e-9."""
    rng = np.random.default_rng(seed)
    n, ids = len(gold), list(gold)
    idx = rng.integers(0, n, n)
    pe_params = {
        {"alpha1": "alpha_1", "alpha2": "alpha_2"}.get(k, k): v
        for k, v in params.items()
        if k != "multi_label"
    }
    ours_params = dict(params)
    if hierarchy is not None:
        ours_params["hierarchy"] = hierarchy
    for name in names:
        extra = {"reestimate": True} if name.startswith("icm_soft") else {}
        p = ours_comp(gold, preds, name, **ours_params, **extra)
        full = engine_on(p, np.arange(n))
        boot = engine_on(p, idx)
        for s, pred in enumerate(preds):
            want = theirs(tmp_path, gold, pred, PE_NAMES[name], hierarchy, **pe_params)
            assert full[s] == pytest.approx(want, abs=1e-9), (name, s, "full")
            want = theirs(
                tmp_path,
                resampled(gold, idx, ids),
                resampled(pred, idx, ids),
                PE_NAMES[name],
                hierarchy,
                **pe_params,
            )
            assert boot[s] == pytest.approx(want, abs=1e-9), (name, s, "resample")


def hard_data(rng, n, labels, m=3, multi=False, missing=0.0):
    gold, preds = {}, [{} for _ in range(m)]
    for i in range(n):
        key = f"id{i}"
        if multi:
            k = rng.integers(1, 3)
            gold[key] = sorted(set(rng.choice(labels, k).tolist()))
        else:
            gold[key] = str(rng.choice(labels))
        for p in preds:
            if rng.random() < missing:
                continue
            if rng.random() < 0.5:
                p[key] = gold[key]
            elif multi:
                p[key] = sorted(set(rng.choice(labels, rng.integers(0, 3)).tolist()))
            else:
                p[key] = str(rng.choice(labels))
    return gold, preds


def test_flat_mono_label(tmp_path):
    rng = np.random.default_rng(1)
    gold, preds = hard_data(rng, 40, ["a", "b", "c", "d"], missing=0.1)
    preds[0]["id0"] = "zzz"  # a class absent from gold
    check(tmp_path, gold, preds, ["icm", "icm_norm"])


def test_flat_mono_label_parameters(tmp_path):
    rng = np.random.default_rng(2)
    gold, preds = hard_data(rng, 30, ["a", "b", "c"])
    check(tmp_path, gold, preds, ["icm", "icm_norm"], alpha1=1, alpha2=3, beta=2.5)


def test_flat_multi_label(tmp_path):
    """PyEvALL refuses multi-label ICM without a hierarchy; a hierarchy of top-level leaves is
    the flat case (no common ancestors), which is ours without one."""
    rng = np.random.default_rng(3)
    labels = ["a", "b", "c", "d", "e"]
    gold, preds = hard_data(rng, 40, labels, multi=True, missing=0.1)
    flat = {c: [] for c in labels}
    for name in ("icm", "icm_norm"):
        p = ours_comp(gold, preds, name)
        q = ours_comp(gold, preds, name, hierarchy=flat)
        idx = np.random.default_rng(0).integers(0, 40, 40)
        assert engine_on(p, idx) == pytest.approx(engine_on(q, idx), abs=1e-12)
    check(tmp_path, gold, preds, ["icm", "icm_norm"], hierarchy=flat)


def test_hierarchical_mono_label(tmp_path):
    rng = np.random.default_rng(4)
    gold, preds = hard_data(rng, 40, _nodes(DIPROMATS), missing=0.1)
    check(tmp_path, gold, preds, ["icm", "icm_norm"], hierarchy=DIPROMATS)


def test_hierarchical_multi_label(tmp_path):
    rng = np.random.default_rng(5)
    gold, preds = hard_data(rng, 40, _nodes(DIPROMATS), multi=True, missing=0.1)
    check(tmp_path, gold, preds, ["icm", "icm_norm"], hierarchy=DIPROMATS, seed=1)


def test_deep_hierarchy_multi_label(tmp_path):
    """Three levels: common ancestors below the top, sets holding a node and its ancestor."""
    tree = {"A": {"A1": ["a", "b"], "A2": ["c"]}, "B": {"B1": [], "B2": ["d", "e"]}}
    rng = np.random.default_rng(6)
    gold, preds = hard_data(rng, 40, _nodes(tree), multi=True)
    check(tmp_path, gold, preds, ["icm", "icm_norm"], hierarchy=tree, seed=2)


def soft_data(rng, n, classes, m=3, annotators=6, hard=()):
    """EXIST-like soft gold (votes of ``annotators``) and soft runs (``hard``: hard runs)."""
    gold, preds = {}, [{} for _ in range(m)]
    for i in range(n):
        key = f"id{i}"
        votes = rng.multinomial(annotators, rng.dirichlet(np.ones(len(classes))))
        gold[key] = {c: float(v / annotators) for c, v in zip(classes, votes, strict=True)}
        for s, p in enumerate(preds):
            if s in hard:
                p[key] = str(rng.choice(classes))
            else:
                q = rng.dirichlet(np.ones(len(classes)))
                p[key] = {c: float(v) for c, v in zip(classes, q, strict=True)}
    return gold, preds


def test_soft_labels(tmp_path):
    rng = np.random.default_rng(7)
    gold, preds = soft_data(rng, 40, ["NO", "YES"])
    preds[1]["id3"] = {"NO": 0.0, "YES": 1.0}  # a zero weight: IC 0, cross-entropy smoothing
    names = ["icm_soft", "icm_soft_norm", "cross_entropy", "soft_mae"]
    check(tmp_path, gold, preds, names)


def test_soft_labels_six_classes(tmp_path):
    rng = np.random.default_rng(8)
    classes = ["DIRECT", "JUDGEMENTAL", "NO", "REPORTED", "X", "Y"]
    gold, preds = soft_data(rng, 40, classes)
    del preds[2]["id5"]  # a missing prediction: the empty set
    preds[0]["id7"] = {**preds[0]["id7"], "OTHER": 0.0}  # a class gold never names
    check(tmp_path, gold, preds, ["icm_soft", "icm_soft_norm", "cross_entropy", "soft_mae"])


def test_soft_class_one_gold_item_names(tmp_path):
    """A class only the first gold item names (weight 0): a resample without that item does not
    know it, and a run naming it gets log2 N there (seed 1's resample leaves item 0 out, seed 0's
    draws it)."""
    rng = np.random.default_rng(14)
    gold, preds = soft_data(rng, 40, ["NO", "YES"])
    gold["id0"] = {**gold["id0"], "RARE": 0.0}
    for key in ("id1", "id2", "id9"):
        preds[0][key] = {**preds[0][key], "RARE": 0.0}
    names = ["icm_soft", "icm_soft_norm", "soft_mae"]
    for seed in (0, 1):
        check(tmp_path, gold, preds, names, seed=seed)


#: EXIST 2024 task 2's tree (source intention): the sexist classes under YES.
EXIST_TREE = {"YES": ["DIRECT", "JUDGEMENTAL", "REPORTED"], "NO": []}


def test_soft_hierarchy_mono_label(tmp_path):
    """EXIST-like soft gold over NO and YES's children, with the hierarchy."""
    rng = np.random.default_rng(16)
    gold, preds = soft_data(rng, 40, ["DIRECT", "JUDGEMENTAL", "NO", "REPORTED"])
    del preds[1]["id4"]
    names = ["icm_soft", "icm_soft_norm"]
    check(tmp_path, gold, preds, names, hierarchy=EXIST_TREE)
    check(tmp_path, gold, preds, names, hierarchy=EXIST_TREE, seed=1, alpha1=1, beta=2.5)


def test_soft_hierarchy_multi_label(tmp_path):
    """Per-class weights that need not sum to 1, on a three-level tree, weights on inner nodes
    too (so the DCA recursion meets a class and its ancestor)."""
    tree = {"A": {"A1": ["a", "b"], "A2": []}, "B": ["c"]}
    classes = ["A1", "A2", "B", "a", "b", "c"]
    rng = np.random.default_rng(17)
    gold, preds = {}, [{} for _ in range(3)]
    for i in range(40):
        gold[f"id{i}"] = {c: float(rng.integers(0, 7) / 6) for c in classes}
        for p in preds:
            keys = [c for c in classes if rng.random() < 0.8]
            p[f"id{i}"] = {c: float(rng.random()) for c in keys}
    names = ["icm_soft", "icm_soft_norm"]
    check(tmp_path, gold, preds, names, hierarchy=tree, multi_label=True)


def test_soft_hierarchy_frozen_is_full_data_items(tmp_path):
    """Without ``reestimate`` the hierarchical ICM-Soft of a resample is the mean over its items
    of the full data's per-item scores (checked through a resample holding each item once: the
    full data, whose score is PyEvALL's, then sums of single items)."""
    rng = np.random.default_rng(18)
    gold, preds = soft_data(rng, 30, ["DIRECT", "JUDGEMENTAL", "NO", "REPORTED"])
    p = ours_comp(gold, preds, "icm_soft", hierarchy=EXIST_TREE)
    assert p.decomposable
    want = theirs(tmp_path, gold, preds[0], "ICMSoft", EXIST_TREE)
    assert engine_on(p, np.arange(30))[0] == pytest.approx(want, abs=1e-9)
    idx = rng.integers(0, 30, 30)
    singles = np.array([engine_on(p, np.array([i]))[0] for i in range(30)])
    assert engine_on(p, idx)[0] == pytest.approx(singles[idx].mean(), abs=1e-9)


def icm_soft_items(gold, pred, a1=2.0, a2=2.0, beta=3.0):
    """Per-item ICM-Soft and ICM-Soft(G, G), written from PyEvALL's definitions (flat): a test's
    own implementation, checked against pyevall on the full data below."""
    from statistics import NormalDist

    n = len(gold)
    classes = list(dict.fromkeys(c for d in gold.values() for c in d))
    mu = {c: sum(d.get(c, 0.0) for d in gold.values()) / n for c in classes}
    sd = {c: sum(abs(d.get(c, 0.0) - mu[c]) for d in gold.values()) / n for c in classes}

    def ic(c, v):
        if c not in mu:
            return -math.log2(1 / n)
        if v == 0.0:
            return 0.0
        tail = 1 - NormalDist(mu[c], sd[c]).cdf(v)
        return -math.log2(1 / n) if tail == 0.0 else -math.log2(tail)

    items, selfs = [], []
    for key, g in gold.items():
        q = pred.get(key, {})
        union = {**q, **{c: max(v, q.get(c, v)) for c, v in g.items()}}
        icg = sum(ic(c, v) for c, v in g.items())
        items.append(
            a1 * sum(ic(c, v) for c, v in q.items())
            + a2 * icg
            - beta * sum(ic(c, v) for c, v in union.items())
        )
        selfs.append((a1 + a2 - beta) * icg)
    return np.array(items), np.array(selfs)


def test_soft_frozen_resample(tmp_path):
    """By default a resample keeps the full gold's mu and sigma: its ICM-Soft is the mean of the
    per-item scores of the full data over the drawn items."""
    rng = np.random.default_rng(13)
    gold, preds = soft_data(rng, 40, ["DIRECT", "NO", "REPORTED"])
    idx = rng.integers(0, 40, 40)
    for s, pred in enumerate(preds):
        items, selfs = icm_soft_items(gold, pred)
        assert items.mean() == pytest.approx(theirs(tmp_path, gold, pred, "ICMSoft"), abs=1e-9)
        p = ours_comp(gold, preds, "icm_soft")
        assert p.decomposable
        assert engine_on(p, idx)[s] == pytest.approx(items[idx].mean(), abs=1e-9)
        p = ours_comp(gold, preds, "icm_soft_norm")
        norm = (items[idx].mean() + selfs[idx].mean()) / (2 * selfs[idx].mean())
        assert engine_on(p, idx)[s] == pytest.approx(max(norm, 0.0), abs=1e-9)


def test_soft_gold_hard_runs():
    """PyEvALL does not score a hard run against soft gold; a hard label is probability 1 on it
    and 0 on every other gold class, so a hard run scores as the one-hot soft run (a zero weight
    counts in cross-entropy, smoothed to 0.001, where a class left out would count nothing)."""
    rng = np.random.default_rng(9)
    gold, preds = soft_data(rng, 30, ["NO", "YES"], m=1, hard=(0,))
    onehot = [{k: {c: float(c == v) for c in ("NO", "YES")} for k, v in preds[0].items()}]
    for name in ("icm_soft", "icm_soft_norm", "cross_entropy", "soft_mae"):
        idx = rng.integers(0, 30, 30)
        extra = {"reestimate": True} if name.startswith("icm_soft") else {}
        a = engine_on(ours_comp(gold, preds, name, **extra), idx)
        b = engine_on(ours_comp(gold, onehot, name, **extra), idx)
        assert a == pytest.approx(b, abs=1e-12)


# ---------------------------------------------------------------- bad input


def test_bad_hierarchy():
    gold, preds = {"1": "a", "2": "b"}, [{"1": "a", "2": "x"}]
    with pytest.raises(InputError, match="two parents"):
        ours_comp(gold, preds, "icm", hierarchy={"A": ["a"], "B": ["a", "b", "x"]})
    with pytest.raises(InputError, match="cycle"):
        ours_comp(gold, preds, "icm", hierarchy={"a": {"b": ["a"]}, "x": []})
    with pytest.raises(InputError, match="'x' is not in the metric's `hierarchy`"):
        ours_comp(gold, preds, "icm", hierarchy={"A": ["a", "b"]})


def test_bad_soft_values():
    gold = {"1": {"NO": 0.5, "YES": 0.4}, "2": {"NO": 1.0, "YES": 0.0}}
    with pytest.raises(InputError, match="sum to 0.9"):
        ours_comp(gold, [{"1": "NO", "2": "YES"}], "icm_soft")
    gold["1"] = {"NO": 0.5, "YES": 0.5}
    with pytest.raises(InputError, match="mixes hard labels and soft labels"):
        ours_comp(gold, [{"1": "NO", "2": {"NO": 1.0, "YES": 0.0}}], "cross_entropy")
    with pytest.raises(InputError, match="class 'NO' has weight -0.5; soft-label weights are"):
        ours_comp({"1": {"NO": -0.5, "YES": 1.5}, "2": {"NO": 1.0}}, [{"1": "NO"}], "soft_mae")
    with pytest.raises(InputError, match="reads a distribution"):
        ours_comp({"1": "NO", "2": "YES"}, [{"1": "NO", "2": "YES"}], "icm_soft")


# ---------------------------------------------------------------- CLI and API


def _files(tmp_path, gold, preds):
    pyevall_file(tmp_path / "gold.json", gold)
    (tmp_path / "runs").mkdir()
    for s, p in enumerate(preds):
        pyevall_file(tmp_path / "runs" / f"team{s}.json", p)


def test_cli_hierarchy_in_spec(tmp_path):
    """A spec with the hierarchy as a nested table: results.json's scores are PyEvALL's."""
    rng = np.random.default_rng(10)
    gold, preds = hard_data(rng, 40, _nodes(DIPROMATS), multi=True)
    _files(tmp_path, gold, preds)
    lines = [
        "[data]",
        'gold = "gold.json"',
        'runs = "runs/*.json"',
        'id_col = "id"',
        'label_col = "value"',
        "",
        "[[metrics]]",
        'name = "icm"',
        "",
        "[metrics.hierarchy]",
    ]
    for k, v in DIPROMATS.items():
        lines.append(f"{json.dumps(k)} = {json.dumps(v)}")
    lines += ["", "[[metrics]]", 'name = "icm_norm"', "", "[metrics.hierarchy]"]
    for k, v in DIPROMATS.items():
        lines.append(f"{json.dumps(k)} = {json.dumps(v)}")
    write(tmp_path, "competition.toml", "\n".join(lines) + "\n")
    res = run_cli(tmp_path, "report", ".", "-o", "out", "-B", "200", "--format", "json")
    assert res.returncode == 0, res.stderr
    out = json.loads((tmp_path / "out" / "results.json").read_text())
    scores = _scores(out)
    for s, p in enumerate(preds):
        for name in ("icm", "icm_norm"):
            want = theirs(tmp_path, gold, p, PE_NAMES[name], DIPROMATS)
            assert scores[(f"team{s}", name)] == pytest.approx(want, abs=1e-9)


def _scores(results):
    """(system, metric) -> observed score from results.json."""
    return {
        (row["system"], metric["name"]): row["score"]
        for comp in results["competitions"]
        for metric in comp["metrics"]
        for row in metric["scores"]
    }


def test_cli_soft_labels(tmp_path):
    rng = np.random.default_rng(11)
    gold, preds = soft_data(rng, 40, ["NO", "YES"])
    _files(tmp_path, gold, preds)
    res = run_cli(
        tmp_path,
        "validate",
        "gold.json",
        "--runs",
        "runs/*.json",
        "--id-col",
        "id",
        "--label-col",
        "value",
        "--metric",
        "icm_soft",
        "--metric",
        "cross_entropy",
    )
    assert res.returncode == 0, res.stderr
    for p in preds:
        want = theirs(tmp_path, gold, p, "ICMSoft")
        assert f"{want:.4f}" in res.stdout, (want, res.stdout)


def test_cli_bad_soft_run(tmp_path):
    gold = {"1": {"NO": 0.5, "YES": 0.5}, "2": {"NO": 1.0, "YES": 0.0}}
    _files(tmp_path, gold, [{"1": "NO", "2": {"NO": 0.2, "YES": 0.8}}])
    res = run_cli(
        tmp_path,
        "report",
        "gold.json",
        "--runs",
        "runs/*.json",
        "--id-col",
        "id",
        "--label-col",
        "value",
        "--metric",
        "icm_soft",
        "-o",
        "out",
    )
    one_error(res, "runs/team0.json, entry 2", "mixes hard labels and soft labels")
    assert not (tmp_path / "out").exists()


def test_api(tmp_path):
    import compreport as cr

    rng = np.random.default_rng(12)
    gold, preds = hard_data(rng, 40, ["a", "b", "c"])
    _files(tmp_path, gold, preds)
    write(
        tmp_path,
        "competition.toml",
        '[data]\ngold = "gold.json"\nruns = "runs/*.json"\nid_col = "id"\nlabel_col = "value"\n'
        '\n[[metrics]]\nname = "icm"\n',
    )
    with pytest.warns(UserWarning, match="only 40 items"):
        analysis = cr.analyze(cr.load(tmp_path), bootstrap=100, seed=0)
    board = analysis.leaderboard()
    for s, p in enumerate(preds):
        row = board[board["system"] == f"team{s}"].iloc[0]
        assert row["score"] == pytest.approx(theirs(tmp_path, gold, p, "ICM"), abs=1e-9)


def test_cli_label_outside_hierarchy(tmp_path):
    """A run label the spec's hierarchy does not hold: one error naming the run's file and line."""
    gold = {"1": ["a"], "2": ["b"], "3": ["a", "b"]}
    _files(tmp_path, gold, [{"1": ["a"], "2": ["zz"], "3": ["b"]}])
    write(
        tmp_path,
        "competition.toml",
        '[data]\ngold = "gold.json"\nruns = "runs/*.json"\nid_col = "id"\nlabel_col = "value"\n'
        '\n[[metrics]]\nname = "icm"\n\n[metrics.hierarchy]\nA = ["a", "b"]\n',
    )
    res = run_cli(tmp_path, "report", ".", "-o", "out", "-B", "50")
    one_error(res, "runs/team0.json, entry 2", "'zz' is not in the metric's `hierarchy`")
    assert not (tmp_path / "out").exists()


def test_reference_methods():
    """Each metric's ``reference`` (PyEvALL on the stored values) equals the engine's score."""
    rng = np.random.default_rng(15)
    hard_gold, hard_preds = hard_data(rng, 30, ["a", "b", "c"], multi=True, m=1)
    soft_gold, soft_preds = soft_data(rng, 30, ["NO", "YES"], m=1)
    tree = {"a": [], "b": [], "c": []}
    for name, gold, preds, params in [
        ("icm", hard_gold, hard_preds, {"hierarchy": tree}),
        ("icm_norm", hard_gold, hard_preds, {"hierarchy": tree, "beta": 2.5}),
        ("icm_soft", soft_gold, soft_preds, {}),
        ("icm_soft_norm", soft_gold, soft_preds, {}),
        ("cross_entropy", soft_gold, soft_preds, {}),
        ("soft_mae", soft_gold, soft_preds, {}),
    ]:
        ids = list(gold)
        g = [as_text(gold[i]) for i in ids]
        p = [as_text(preds[0][i]) if i in preds[0] else "" for i in ids]
        ours = engine_on(ours_comp(gold, preds, name, **params), np.arange(len(ids)))[0]
        assert get_metric(name).reference(g, p, **params) == pytest.approx(ours, abs=1e-9)


def test_icm_norm_of_a_single_class_gold(tmp_path):
    """A gold of one class has IC 0, so ICM(G, G) = 0: PyEvALL divides by zero, compreport's
    score is undefined, NaN (docs/tasks/icm.md)."""
    gold, pred = {"1": "a", "2": "a", "3": "a"}, {"1": "a", "2": "b", "3": "a"}
    with pytest.raises(ZeroDivisionError):
        theirs(tmp_path, gold, pred, "ICMNorm")
    assert np.isnan(engine_on(ours_comp(gold, [pred], "icm_norm"), np.arange(3))).all()


def test_icm_norm_is_undefined_when_the_gold_is_one_class():
    """ICM-Norm divides by the gold's own ICM, 0 when every gold item has one class (PyEvALL
    raises ZeroDivisionError): NaN, not the worst score 0, on the data and on such a resample."""
    gold = ["a", "a", "b", "a", "a"]
    p = prepare(make_competition(gold, [gold, ["b"] * 5]), "icm_norm")
    assert np.isnan(engine_on(p, np.array([0, 0, 1, 3, 3]))).all()  # the resample's gold: all "a"
    assert not np.isnan(engine_on(p, np.arange(5))).any()
