"""Every built-in metric against scikit-learn/scipy: on the full data and on random resamples.

Full data: the engine's observed score (``bootstrap.run(..., B=0)``) must equal both the
metric's own ``reference`` and a direct scikit-learn/scipy call written here.
Resamples (hypothesis): the engine's score of a resample ``idx`` (sufficient statistics
summed over ``idx`` then finalized, or ``evaluate(idx)``) must equal scikit-learn/scipy on
``gold[idx], pred[idx]``. Label-set convention on resamples: averaged metrics without
``labels`` average over the labels of the FULL data's gold or that system's FULL-data
predictions, so scikit-learn is called with that label set and ``zero_division=0``.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.stats
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn import metrics as sk

from compreport.stats.metrics import REGISTRY, get_metric
from conftest import engine_on, make_competition, observed, prepare

CLASSIFICATION = [
    "accuracy",
    "precision",
    "recall",
    "f1",
    "macro_f1",
    "micro_f1",
    "weighted_f1",
    "macro_precision",
    "macro_recall",
]
AVERAGED = ["macro_f1", "micro_f1", "weighted_f1", "macro_precision", "macro_recall"]
BINARY = ["precision", "recall", "f1"]
ERRORS = ["mae", "mse", "rmse", "mape"]
#: Metrics of label sets only: checked against scikit-learn in test_multilabel.py.
MULTILABEL = ["samples_f1", "hamming_loss", "subset_accuracy"]
ALL_BUILTIN = (
    CLASSIFICATION
    + ERRORS
    + MULTILABEL
    + ["pearson", "spearman", "roc_auc", "measure_s", "measure_c"]
)
#: Checked against their references in their own test files (test_composites.py, ...).
ELSEWHERE = ["composite", "mean", "ratio"]
ELSEWHERE += ["kappa", "qwk", "mcc", "balanced_accuracy", "log_loss", "brier"]
#: Ranking metrics: checked against trec_eval in test_ranking.py.
RANKING = ["map", "mrr"]
#: Span measures: checked against seqeval and an independent matcher in test_spans.py.
SPANS = [f"span_{w}{o}" for w in ("f1", "precision", "recall") for o in ("", "_overlap")]
SPANS += [f"relation_{w}" for w in ("f1", "precision", "recall")]
#: The ICM family and soft-label measures: checked against PyEvALL in test_icm.py.
ICM = ["icm", "icm_norm", "icm_soft", "icm_soft_norm", "cross_entropy", "soft_mae"]

PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_every_builtin_metric_is_covered():
    assert sorted(REGISTRY) == sorted(ALL_BUILTIN + RANKING + ELSEWHERE + SPANS + ICM)


# --------------------------------------------------------------------------- direct sklearn/scipy


def _like(value, array):
    """``value`` in the dtype of ``array`` (pos_label "1" for int gold is 1)."""
    return np.asarray([value]).astype(np.asarray(array).dtype)[0]


def direct(name, gold, pred, params=None, labels_default=None):
    """scikit-learn/scipy called directly on raw ``gold``/``pred`` (not through compreport).

    ``labels_default``: label set for averaged metrics when ``params`` has no ``labels``
    (None: scikit-learn's own default, i.e. the full-data convention).
    """
    params = dict(params or {})
    gold, pred = np.asarray(gold), np.asarray(pred)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if name == "accuracy":
            return sk.accuracy_score(gold, pred)
        if name in BINARY:
            pos = _like(params.get("pos_label", 1), gold)
            p, r, f, _ = sk.precision_recall_fscore_support(
                gold, pred, labels=[pos], average=None, zero_division=0
            )
            return float({"precision": p, "recall": r, "f1": f}[name][0])
        if name in AVERAGED:
            labels = params.get("labels")
            if isinstance(labels, str):
                labels = labels.split(",")
            labels = [_like(x, gold) for x in labels] if labels else labels_default
            kind, what = name.split("_")
            p, r, f, _ = sk.precision_recall_fscore_support(
                gold, pred, labels=labels, average=kind, zero_division=0
            )
            return float({"precision": p, "recall": r, "f1": f}[what])
        g, p = gold.astype(float), pred.astype(float)
        if name == "mae":
            return sk.mean_absolute_error(g, p)
        if name == "mse":
            return sk.mean_squared_error(g, p)
        if name == "rmse":
            # sklearn >= 1.4 has root_mean_squared_error; the declared floor (1.3) does not
            return np.sqrt(sk.mean_squared_error(g, p))
        if name == "mape":
            return sk.mean_absolute_percentage_error(g, p)
        if name == "pearson":
            if len(g) < 2 or np.all(g == g[0]) or np.all(p == p[0]):
                return np.nan
            return float(scipy.stats.pearsonr(g, p)[0])
        if name == "spearman":
            if len(g) < 2:
                return np.nan
            return float(scipy.stats.spearmanr(g, p)[0])
    raise AssertionError(name)


def direct_roc_auc(gold, scores, pos_label):
    """AUC from scikit-learn's ROC curve with ``pos_label`` (NaN when one class is missing)."""
    gold = np.asarray(gold)
    pos = _like(pos_label, gold)
    if (gold == pos).all() or (gold != pos).all():
        return np.nan
    fpr, tpr, _ = sk.roc_curve(gold, np.asarray(scores, float), pos_label=pos)
    return float(sk.auc(fpr, tpr))


def direct_macro_f1(gold, pred, labels=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(sk.f1_score(gold, pred, labels=labels, average="macro", zero_division=0))


def direct_measure_s(gold, pred, type_labels=None):
    """(1/(1 + MAE polarity) + macro-F1 type)/2 on (n, 2) raw arrays [polarity, type]."""
    mae = sk.mean_absolute_error(gold[:, 0].astype(float), pred[:, 0].astype(float))
    return (1 / (1 + mae) + direct_macro_f1(gold[:, 1], pred[:, 1], type_labels)) / 2


def direct_measure_c(gold, pred, weights, labels=None):
    f1 = [
        direct_macro_f1(gold[:, j], pred[:, j], None if labels is None else labels[j])
        for j in range(gold.shape[1])
    ]
    return float(np.dot(weights, f1) / np.sum(weights))


def reference(comp, name, params, s, f=0):
    """``Metric.reference`` on the competition's (string) values of system ``s``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return get_metric(name).reference(comp.gold[:, f], comp.predictions[s, :, f], **params)


# ---------------------------------------------------------------------- full data: classification

RNG = np.random.default_rng(20240601)


def _noisy(gold, alphabet, flip, rng):
    out = np.array(gold, dtype=object)
    swap = rng.random(len(gold)) < flip
    out[swap] = rng.choice(alphabet, swap.sum())
    return out.astype(np.asarray(gold).dtype)


def _binary_case():
    n = 90
    gold = RNG.integers(0, 2, n)
    preds = np.stack(
        [
            _noisy(gold, [0, 1], 0.4, RNG),
            np.ones(n, dtype=int),  # always the positive class
            np.zeros(n, dtype=int),  # never the positive class: precision 0/0 -> 0
            _noisy(gold, [0, 1], 0.1, RNG),
        ]
    )
    return gold, preds


def _stance_case():
    n = 120
    gold = RNG.choice(np.array(["FAVOR", "AGAINST", "NONE"]), n, p=[0.4, 0.35, 0.25])
    never_none = _noisy(gold, ["FAVOR", "AGAINST"], 0.3, RNG)
    never_none[never_none == "NONE"] = "AGAINST"
    assert "NONE" not in set(never_none)
    outsider = _noisy(gold, ["FAVOR", "AGAINST", "NONE", "UNKNOWN"], 0.5, RNG).astype("<U7")
    outsider[:3] = "UNKNOWN"  # a label that gold never uses
    preds = np.stack(
        [
            _noisy(gold, ["FAVOR", "AGAINST", "NONE"], 0.35, RNG).astype("<U7"),
            never_none.astype("<U7"),
            outsider,
        ]
    )
    return gold, preds


def _multiclass_case():
    """Integer labels 0, 1, 2, 10 (compreport sorts labels as strings: "10" < "2")."""
    n = 100
    alphabet = [0, 1, 2, 10]
    gold = RNG.choice(alphabet, n, p=[0.4, 0.3, 0.2, 0.1])
    skip_2 = _noisy(gold, [0, 1, 10], 0.3, RNG)
    skip_2[skip_2 == 2] = 1
    extra = _noisy(gold, [0, 1, 2, 10, 7], 0.4, RNG)
    extra[:2] = 7  # 7 never occurs in gold
    preds = np.stack([_noisy(gold, alphabet, 0.5, RNG), skip_2, extra])
    assert 2 not in set(preds[1]) and 7 in set(preds[2]) and 7 not in set(gold)
    return gold, preds


CLASSIFICATION_CASES = {
    "binary-int": (
        _binary_case(),
        [
            ("accuracy", {}),
            ("precision", {}),
            ("recall", {}),
            ("f1", {}),
            ("f1", {"pos_label": 1}),
            ("f1", {"pos_label": "1"}),
            ("precision", {"pos_label": "1"}),
            ("recall", {"pos_label": 1}),
            ("precision", {"pos_label": 0}),
            ("recall", {"pos_label": "0"}),
            ("f1", {"pos_label": 0}),
        ]
        + [(name, {}) for name in AVERAGED]
        + [("macro_f1", {"labels": ["1"]}), ("micro_f1", {"labels": [1]})],
    ),
    "stance-strings": (
        _stance_case(),
        [
            ("accuracy", {}),
            ("f1", {"pos_label": "FAVOR"}),
            ("precision", {"pos_label": "AGAINST"}),
            ("recall", {"pos_label": "NONE"}),
        ]
        + [(name, {}) for name in AVERAGED]
        + [(name, {"labels": ["FAVOR", "AGAINST"]}) for name in AVERAGED]
        + [
            ("macro_f1", {"labels": "FAVOR,AGAINST"}),
            ("weighted_f1", {"labels": ["NONE"]}),
            ("macro_f1", {"labels": ["FAVOR", "UNKNOWN"]}),
        ],
    ),
    "multiclass-int": (
        _multiclass_case(),
        [
            ("accuracy", {}),
            ("f1", {"pos_label": 2}),
            ("recall", {"pos_label": "10"}),
            ("precision", {"pos_label": 7}),
        ]
        + [(name, {}) for name in AVERAGED]
        + [(name, {"labels": [0, 10]}) for name in AVERAGED],
    ),
}


@pytest.mark.parametrize("case", list(CLASSIFICATION_CASES))
def test_classification_full_data(case):
    (gold, preds), checks = CLASSIFICATION_CASES[case]
    comp = make_competition(gold, preds)
    for name, params in checks:
        p = prepare(comp, name, **params)
        got = observed(comp, name, **params)
        assert got.shape == (comp.m,)
        for s in range(comp.m):
            ref = reference(comp, name, p.params, s)
            exp = direct(name, gold, preds[s], params)
            assert got[s] == pytest.approx(exp, abs=1e-12), (case, name, params, s)
            assert ref == pytest.approx(exp, abs=1e-12), (case, name, params, s)


def test_classification_cases_are_not_trivial():
    """The scenarios exercise what they claim: differing systems, the 0/0 convention, labels
    matter."""
    gold, preds = CLASSIFICATION_CASES["stance-strings"][0]
    comp = make_competition(gold, preds)
    all_labels = observed(comp, "macro_f1")
    subset = observed(comp, "macro_f1", labels=["FAVOR", "AGAINST"])
    assert np.all(np.abs(all_labels - subset) > 1e-3)
    # the outsider system's macro average also counts UNKNOWN (F1 0): lower than over gold's labels
    assert all_labels[2] < direct_macro_f1(gold, preds[2], ["AGAINST", "FAVOR", "NONE"]) - 1e-3
    gold_b, preds_b = CLASSIFICATION_CASES["binary-int"][0]
    comp_b = make_competition(gold_b, preds_b)
    assert observed(comp_b, "precision")[2] == 0.0
    assert observed(comp_b, "recall")[1] == 1.0
    # pos_label 1 given as int, as string, or defaulted: the same numbers
    np.testing.assert_array_equal(observed(comp_b, "f1"), observed(comp_b, "f1", pos_label="1"))
    np.testing.assert_array_equal(observed(comp_b, "f1"), observed(comp_b, "f1", pos_label=1))
    assert not np.allclose(observed(comp_b, "f1"), observed(comp_b, "f1", pos_label=0))


# --------------------------------------------------------------------------- full data: numbers


def _regression_case():
    n = 70
    gold = np.round(RNG.normal(3, 2, n), 1)
    gold[:4] = 0.0  # MAPE divides by max(|y|, eps)
    preds = np.stack(
        [
            np.round(gold + RNG.normal(0, 1, n), 2),
            np.round(gold),  # many ties (spearman)
            np.round(RNG.uniform(-1, 7, n), 3),
            np.round(-0.5 * gold + RNG.normal(0, 0.3, n), 2),
        ]
    )
    return gold, preds


@pytest.mark.parametrize("name", ERRORS + ["pearson", "spearman"])
def test_numeric_full_data(name):
    gold, preds = _regression_case()
    comp = make_competition(gold, preds)
    got = observed(comp, name)
    for s in range(comp.m):
        exp = direct(name, gold, preds[s])
        ref = reference(comp, name, {}, s)
        assert np.isfinite(exp)
        assert got[s] == pytest.approx(exp, rel=1e-10, abs=1e-12), (name, s)
        assert ref == pytest.approx(exp, rel=1e-10, abs=1e-12), (name, s)
    if name in ("pearson", "spearman"):
        assert got[3] < -0.5 < 0.5 < got[0]


def test_numeric_metrics_read_the_named_field():
    """``field`` picks a column of multi-field predictions."""
    gold, preds = _regression_case()
    other = RNG.integers(0, 3, gold.shape)
    comp = make_competition(
        np.column_stack([other, gold]),
        np.stack([np.column_stack([other, p]) for p in preds]),
        fields=["junk", "score"],
    )
    for name in ("mae", "pearson", "spearman"):
        np.testing.assert_allclose(
            observed(comp, name, field="score"), [direct(name, gold, p) for p in preds], rtol=1e-10
        )


def _auc_case():
    n = 80
    gold = RNG.integers(0, 2, n)
    preds = np.stack(
        [
            np.round(gold * 0.6 + RNG.uniform(0, 1, n), 2),
            np.round(RNG.uniform(0, 1, n), 1),  # coarse scores: many ties
            1 - gold + RNG.integers(0, 2, n),  # integer scores, anti-correlated
        ]
    )
    return gold, preds


@pytest.mark.parametrize("pos_label", [None, 1, "1", 0])
def test_roc_auc_full_data_int_labels(pos_label):
    gold, preds = _auc_case()
    comp = make_competition(gold, preds)
    params = {} if pos_label is None else {"pos_label": pos_label}
    p = prepare(comp, "roc_auc", **params)
    got = observed(comp, "roc_auc", **params)
    for s in range(comp.m):
        exp = direct_roc_auc(gold, preds[s], 1 if pos_label is None else pos_label)
        assert got[s] == pytest.approx(exp, abs=1e-12)
        assert reference(comp, "roc_auc", p.params, s) == pytest.approx(exp, abs=1e-12)
    assert got[0] > 0.7 if pos_label in (None, 1, "1") else got[0] < 0.3


def test_roc_auc_full_data_string_labels():
    gold_i, preds = _auc_case()
    gold = np.where(gold_i == 1, "pos", "neg")
    comp = make_competition(gold, preds)
    got = observed(comp, "roc_auc", pos_label="pos")
    for s in range(comp.m):
        exp = direct_roc_auc(gold, preds[s], "pos")
        assert got[s] == pytest.approx(exp, abs=1e-12)
        assert reference(comp, "roc_auc", {"pos_label": "pos"}, s) == pytest.approx(exp, abs=1e-12)
    np.testing.assert_allclose(observed(comp, "roc_auc", pos_label="neg"), 1 - got, atol=1e-12)


# ------------------------------------------------------------------ full data: REST-MEX measures


def _restmex_s_case():
    n = 90
    types = np.array(["Attractive", "Hotel", "Restaurant"])
    gold_pol = RNG.integers(1, 6, n)
    gold_type = RNG.choice(types, n)
    systems = []
    for flip, allowed in [
        (0.3, types),
        (0.5, types[:2]),
        (0.4, np.array(["Attractive", "Hotel", "Restaurant", "Museum"])),
    ]:
        pol = np.clip(gold_pol + RNG.integers(-1, 2, n) * (RNG.random(n) < flip), 1, 5)
        typ = _noisy(gold_type, list(allowed), flip, RNG).astype("<U10")
        if len(allowed) == 2:
            typ[typ == "Restaurant"] = "Hotel"  # never predicts Restaurant
        systems.append(np.column_stack([pol.astype(str), typ]))
    gold = np.column_stack([gold_pol.astype(str), gold_type])
    return gold, np.stack(systems)


def test_measure_s_full_data():
    gold, preds = _restmex_s_case()
    comp = make_competition(gold, preds, fields=["polarity", "type"], metrics=["measure_s"])
    got = observed(comp, "measure_s")
    for s in range(comp.m):
        exp = direct_measure_s(gold, preds[s])
        assert got[s] == pytest.approx(exp, abs=1e-12)
        assert get_metric("measure_s").reference(gold, preds[s]) == pytest.approx(exp, abs=1e-12)
    # named fields in the other order
    swapped = make_competition(gold[:, ::-1], preds[:, :, ::-1], fields=["type", "polarity"])
    np.testing.assert_allclose(
        observed(swapped, "measure_s", polarity="polarity", type="type"), got, atol=1e-12
    )


def _restmex_c_case(F=4):
    n = 60
    colours = ["green", "yellow", "orange", "red"]
    gold = np.column_stack([RNG.choice(colours, n) for _ in range(F)])
    preds = np.stack(
        [
            np.column_stack(
                [_noisy(gold[:, j], colours[: 4 - (s == 1)], 0.2 + 0.15 * s, RNG) for j in range(F)]
            )
            for s in range(3)
        ]
    )
    return gold, preds


@pytest.mark.parametrize(
    "params", [{}, {"weights": [1, 1, 1, 1]}, {"fields": ["f0", "f2"], "weights": [1, 3]}]
)
def test_measure_c_full_data(params):
    gold, preds = _restmex_c_case()
    comp = make_competition(gold, preds)
    got = observed(comp, "measure_c", **params)
    cols = [int(f[1:]) for f in params.get("fields", ["f0", "f1", "f2", "f3"])]
    weights = params.get("weights", [1, 2, 4, 8])
    for s in range(comp.m):
        exp = direct_measure_c(gold[:, cols], preds[s][:, cols], weights)
        assert got[s] == pytest.approx(exp, abs=1e-12)
        ref = get_metric("measure_c").reference(
            gold[:, cols], preds[s][:, cols], weights=params.get("weights")
        )
        assert ref == pytest.approx(exp, abs=1e-12)


# --------------------------------------------------------------------------- resamples (hypothesis)

ALPHABET = ["A", "B", "C", "D", "E"]


@st.composite
def label_data(draw):
    """Gold labels from k letters, predictions from k+1 (a label gold may lack), a resample."""
    n = draw(st.integers(1, 12))
    m = draw(st.integers(1, 3))
    k = draw(st.integers(1, 4))
    gold = draw(st.lists(st.sampled_from(ALPHABET[:k]), min_size=n, max_size=n))
    preds = [
        draw(st.lists(st.sampled_from(ALPHABET[: k + 1]), min_size=n, max_size=n)) for _ in range(m)
    ]
    idx = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=2 * n))
    return np.array(gold), np.array(preds), np.array(idx)


def full_labels(gold, pred):
    return sorted(set(gold) | set(pred))


def check_close(got, exp, what):
    if np.isnan(exp):
        assert np.isnan(got), (what, got, exp)
    else:
        assert got == pytest.approx(exp, rel=1e-9, abs=1e-12), what


@pytest.mark.slow
@PROPERTY
@given(label_data())
def test_classification_resamples(data):
    gold, preds, idx = data
    comp = make_competition(gold, preds)
    for name in ["accuracy"] + AVERAGED:
        got = engine_on(prepare(comp, name), idx)
        for s in range(comp.m):
            exp = direct(name, gold[idx], preds[s, idx], labels_default=full_labels(gold, preds[s]))
            check_close(got[s], exp, (name, s))


@pytest.mark.slow
@PROPERTY
@given(label_data(), st.data())
def test_binary_and_label_subset_resamples(data, more):
    gold, preds, idx = data
    comp = make_competition(gold, preds)
    present = sorted(set(gold) | set(preds.ravel()))
    pos = more.draw(st.sampled_from(present))
    subset = more.draw(
        st.lists(st.sampled_from(present), min_size=1, max_size=len(present), unique=True)
    )
    for name in BINARY:
        got = engine_on(prepare(comp, name, pos_label=pos), idx)
        for s in range(comp.m):
            check_close(
                got[s], direct(name, gold[idx], preds[s, idx], {"pos_label": pos}), (name, pos, s)
            )
    for name in AVERAGED:
        got = engine_on(prepare(comp, name, labels=subset), idx)
        for s in range(comp.m):
            check_close(
                got[s],
                direct(name, gold[idx], preds[s, idx], {"labels": subset}),
                (name, subset, s),
            )


@st.composite
def numeric_data(draw):
    """Values on a 0.1 grid (inexact in binary, with ties and constant runs), a resample of >= 2."""
    n = draw(st.integers(2, 12))
    m = draw(st.integers(1, 3))
    values = st.integers(-30, 30).map(lambda v: v / 10)
    gold = draw(st.lists(values, min_size=n, max_size=n))
    preds = [draw(st.lists(values, min_size=n, max_size=n)) for _ in range(m)]
    idx = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=2 * n))
    return np.array(gold), np.array(preds), np.array(idx)


@PROPERTY
@given(numeric_data())
def test_numeric_resamples(data):
    gold, preds, idx = data
    comp = make_competition(gold, preds)
    g = comp.gold[:, 0].astype(float)
    p = comp.predictions[:, :, 0].astype(float)
    for name in ERRORS + ["pearson", "spearman"]:
        got = engine_on(prepare(comp, name), idx)
        for s in range(comp.m):
            check_close(got[s], direct(name, g[idx], p[s, idx]), (name, s))


@PROPERTY
@given(numeric_data(), st.sampled_from([None, "1", "0"]))
def test_roc_auc_resamples(data, pos_label):
    gold_v, preds, idx = data
    gold = (gold_v > 0).astype(int)
    if len(set(gold)) < 2:
        gold[0] = 1 - gold[0]
    comp = make_competition(gold, preds)
    params = {} if pos_label is None else {"pos_label": pos_label}
    got = engine_on(prepare(comp, "roc_auc", **params), idx)
    for s in range(comp.m):
        exp = direct_roc_auc(gold[idx], preds[s, idx], pos_label or 1)
        check_close(got[s], exp, s)


@PROPERTY
@given(label_data(), st.data())
def test_measure_s_and_c_resamples(data, more):
    types, preds_t, idx = data
    n, m = len(types), len(preds_t)
    pol = np.array(more.draw(st.lists(st.integers(1, 5), min_size=n, max_size=n)))
    pol_p = np.array(
        more.draw(
            st.lists(st.lists(st.integers(1, 5), min_size=n, max_size=n), min_size=m, max_size=m)
        )
    )
    gold = np.column_stack([pol.astype(str), types])
    preds = np.stack([np.column_stack([pol_p[s].astype(str), preds_t[s]]) for s in range(m)])
    comp = make_competition(gold, preds, fields=["polarity", "type"])
    got = engine_on(prepare(comp, "measure_s"), idx)
    for s in range(m):
        exp = direct_measure_s(gold[idx], preds[s][idx], full_labels(gold[:, 1], preds[s][:, 1]))
        check_close(got[s], exp, ("measure_s", s))
    # measure_c over both columns read as labels, weights 1 and 2
    got = engine_on(prepare(comp, "measure_c"), idx)
    for s in range(m):
        labels = [full_labels(gold[:, j], preds[s][:, j]) for j in range(2)]
        exp = direct_measure_c(gold[idx], preds[s][idx], [1, 2], labels)
        check_close(got[s], exp, ("measure_c", s))


@pytest.mark.parametrize(
    "name, params", [("roc_auc", {"pos_label": "1"}), ("map", {"pos_label": "1"})]
)
def test_a_score_that_is_not_a_number_is_named_where_it_is(name, params):
    """The error names the cell that is not a number, not the first item of the column."""
    from compreport.errors import InputError
    from compreport.inputs.clusters import Clusters

    comp = make_competition(
        [0, 1, 0, 1], [["0.1", "0.9", "abc", "0.7"], ["0.2", "0.3", "0.4", "0.5"]], metrics=[name]
    )
    comp.clusters = Clusters.from_labels(["q1", "q1", "q2", "q2"])
    with pytest.raises(InputError, match=r"item '2': value 'abc' is not a finite number"):
        get_metric(name).prepare(comp, dict(params))
