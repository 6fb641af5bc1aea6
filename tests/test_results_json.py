"""results.json follows the documented contract, and is reproducible byte for byte.

Only numbers are read here, so every run is ``--format json`` (the renderers have their own tests,
and tests/test_report_cli.py renders every format end to end)."""

import json
from pathlib import Path

import numpy as np
import pytest

from compreport.cli import main
from compreport.stats.results import Analysis

DATA = Path(__file__).parent / "data" / "bestgen2022-absa"
SYSTEMS = ["aen_bert", "bert_spc", "memnet", "atae_lstm", "td_lstm"]


def bestgen_wide(path: Path) -> Path:
    """The Bestgen (2022) ABSA predictions as a wide CSV (row 1 = predictions, row 2 = gold)."""
    cols = {}
    for s in SYSTEMS:
        rows = (DATA / f"{s}.csv").read_text().split()
        cols["y"] = rows[1].split(",")
        cols[s] = rows[0].split(",")
    lines = ["y," + ",".join(SYSTEMS)]
    for i in range(len(cols["y"])):
        lines.append(",".join([cols["y"][i]] + [cols[s][i] for s in SYSTEMS]))
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("rep")
    csv = bestgen_wide(tmp / "absa.csv")
    out = tmp / "out"
    assert (
        main(
            [
                "report",
                str(csv),
                "--metric",
                "accuracy,macro_f1",
                "-B",
                "2000",
                "-o",
                str(out),
                "--format",
                "json",
            ]
        )
        == 0
    )
    return csv, out, json.loads((out / "results.json").read_text())


def test_top_level_and_settings(report):
    _, _, d = report
    assert d["tool"]["name"] == "compreport" and d["tool"]["version"]
    s = d["settings"]
    assert (s["bootstrap"], s["seed"], s["alpha"], s["ci_method"], s["test"]) == (
        2000,
        0,
        0.05,
        "percentile",
        "bootstrap",
    )
    (c,) = d["competitions"]
    for key in (
        "id",
        "name",
        "year",
        "task",
        "language",
        "group",
        "n",
        "systems",
        "baselines",
        "metrics",
    ):
        assert key in c
    assert c["n"] == 638 and c["systems"] == SYSTEMS and c["id"] == "absa"
    assert c["inputs"][0]["sha256"] and len(c["inputs"][0]["sha256"]) == 64


def test_metric_entries(report):
    _, _, d = report
    acc, mf1 = d["competitions"][0]["metrics"]
    assert (acc["name"], acc["primary"], mf1["primary"]) == ("accuracy", True, False)
    assert acc["higher_is_better"] is True and acc["best"] == "aen_bert"
    assert set(acc["scores"][0]) == {
        "system",
        "score",
        "boot_mean",
        "se",
        "ci_low",
        "ci_high",
        "rank",
        "group",
        "is_best",
        "differs_from_best",
        "p_vs_best",
        "settled_vs_best",
        "rank_low",
        "rank_high",
        "ties_with_best",
    }
    verdict = {"excludes_zero", "p_adjusted", "significant", "p_se", "settled", "mark"}
    assert (
        set(acc["vs_best"][0])
        == {
            "system",
            "diff",
            "ci_low",
            "ci_high",
            "p_value",
            "p_bonferroni",
            "p_holm",
            "p_bh",
            "p_maxt",
        }
        | verdict
    )
    assert (
        set(acc["pairs"][0])
        == {
            "a",
            "b",
            "diff",
            "ci_low",
            "ci_high",
            "p_value",
            "p_bonferroni",
            "p_holm",
            "p_bh",
            "p_maxt",
        }
        | verdict
    )
    assert {k: acc["verdicts"][k] for k in ("alpha", "correction", "family", "marks")} == {
        "alpha": 0.05,
        "correction": "maxt",
        "family": "all-pairs",
        "marks": [[0.001, "***"], [0.01, "**"], [0.05, "*"]],
    }
    m = len(acc["scores"])
    assert acc["verdicts"]["tested"] == m * (m - 1) // 2  # every pair, baselines not excluded here
    B = acc["verdicts"]["resamples"]  # B, or more after refinement
    assert B >= d["settings"]["bootstrap"]
    assert acc["verdicts"]["min_p"] == pytest.approx(
        1 / (B + 1), rel=1e-12
    )  # max-T: one exceedance proportion
    assert acc["verdicts"]["can_reject"] is (acc["verdicts"]["min_p"] < 0.05)
    comp = acc["competitiveness"]
    assert set(comp) == {
        "n",
        "m",
        "possible_comparisons",
        "ties_with_winner",
        "ties",
        "not_computable",
        "win_minus_median",
        "cv",
        "ppi",
        "ppi_unit",
        "ties_family",
    }
    assert (
        set(comp["ties"])
        == set(comp["ties_with_winner"])
        == {"none", "bonferroni", "holm", "bh", "maxt"}
    )
    assert (comp["m"], comp["possible_comparisons"]) == (5, 10)
    assert len(acc["vs_best"]) == 4 and len(acc["pairs"]) == 10


def test_published_accuracies_and_differences(report):
    """Bestgen (2022) Table 1: M1/M2 accuracies and the observed differences (Cond1 - Cond2)."""
    _, _, d = report
    acc = d["competitions"][0]["metrics"][0]
    score = {s["system"]: s["score"] for s in acc["scores"]}
    published = {
        "aen_bert": 0.781,
        "bert_spc": 0.770,
        "memnet": 0.721,
        "atae_lstm": 0.708,
        "td_lstm": 0.683,
    }
    for s, v in published.items():
        assert score[s] == pytest.approx(v, abs=5e-4)
    diffs = {(p["a"], p["b"]): p["diff"] for p in acc["pairs"]}
    assert diffs[("aen_bert", "bert_spc")] == pytest.approx(0.0110, abs=1e-4)
    assert diffs[("memnet", "td_lstm")] == pytest.approx(0.0376, abs=1e-4)
    assert diffs[("atae_lstm", "td_lstm")] == pytest.approx(0.0251, abs=1e-4)


def test_ordering_orientation_and_families(report):
    _, _, d = report
    for ma in d["competitions"][0]["metrics"]:
        scores = [s["score"] for s in ma["scores"]]
        assert scores == sorted(scores, reverse=True)
        assert [s["rank"] for s in ma["scores"]] == [1, 2, 3, 4, 5]
        rank = {s["system"]: s["rank"] for s in ma["scores"]}
        for p in ma["pairs"]:
            assert rank[p["a"]] <= rank[p["b"]] and p["diff"] >= 0
            assert 0 < p["p_value"] <= 1
            assert p["p_bonferroni"] == pytest.approx(min(1.0, 10 * p["p_value"]))
            assert p["ci_low"] <= p["diff"] + 0.02 and p["ci_high"] >= p["diff"] - 0.02
        for v in ma["vs_best"]:  # corrected over every pair: the best is chosen on the same data
            assert v["p_bonferroni"] == pytest.approx(min(1.0, 10 * v["p_value"]))
        comp = ma["competitiveness"]
        assert comp["ties"]["none"] == sum(p["p_value"] >= 0.05 for p in ma["pairs"])
        assert comp["ties_with_winner"]["holm"] == sum(v["p_holm"] >= 0.05 for v in ma["vs_best"])
        assert comp["ties_with_winner"]["maxt"] == sum(
            not s["differs_from_best"] for s in ma["scores"][1:]
        )
        assert comp["ppi"] == pytest.approx(100 * (1 - ma["scores"][0]["score"]))


def test_boot_mean_se_and_ci_are_from_the_replicates(report):
    _, _, d = report
    for s in d["competitions"][0]["metrics"][0]["scores"]:
        se_binomial = np.sqrt(s["score"] * (1 - s["score"]) / 638)
        assert s["se"] == pytest.approx(se_binomial, rel=0.1)
        assert s["boot_mean"] == pytest.approx(
            s["score"], abs=3 * se_binomial / np.sqrt(2000) + 1e-3
        )
        assert s["ci_low"] < s["score"] < s["ci_high"]
        assert s["ci_high"] - s["ci_low"] == pytest.approx(2 * 1.96 * se_binomial, rel=0.15)


def test_same_seed_byte_identical_other_seed_differs(report, tmp_path):
    csv, out, _ = report
    again = tmp_path / "again"
    assert (
        main(
            [
                "report",
                str(csv),
                "--metric",
                "accuracy,macro_f1",
                "-B",
                "2000",
                "-o",
                str(again),
                "--format",
                "json",
            ]
        )
        == 0
    )
    assert (again / "results.json").read_bytes() == (out / "results.json").read_bytes()
    other = tmp_path / "other"
    assert (
        main(
            [
                "report",
                str(csv),
                "--metric",
                "accuracy,macro_f1",
                "-B",
                "2000",
                "--seed",
                "7",
                "-o",
                str(other),
                "--format",
                "json",
            ]
        )
        == 0
    )
    d = json.loads((other / "results.json").read_text())
    assert d["settings"]["seed"] == 7
    assert (other / "results.json").read_bytes() != (out / "results.json").read_bytes()


def test_round_trip_through_analysis(report):
    _, out, d = report
    a = Analysis.read(out / "results.json")
    assert json.loads(a.to_json()) | {"settings": d["settings"]} == d


def test_identical_systems_and_lower_is_better(tmp_path):
    rng = np.random.default_rng(3)
    y = rng.normal(3, 1, 300)
    good = y + rng.normal(0, 0.5, 300)
    lines = ["y,good,twin,bad"] + [
        f"{a:.4f},{b:.4f},{b:.4f},{a + 1.5:.4f}" for a, b in zip(y, good)
    ]
    (tmp_path / "reg.csv").write_text("\n".join(lines) + "\n")
    out = tmp_path / "out"
    assert (
        main(
            [
                "report",
                str(tmp_path / "reg.csv"),
                "--metric",
                "mae",
                "-B",
                "1000",
                "-o",
                str(out),
                "--format",
                "json",
            ]
        )
        == 0
    )
    ma = json.loads((out / "results.json").read_text())["competitions"][0]["metrics"][0]
    assert ma["higher_is_better"] is False and ma["best"] == "good"
    twin = next(v for v in ma["vs_best"] if v["system"] == "twin")
    assert twin["diff"] == 0 and twin["p_value"] == 1.0 and twin["ci_low"] == twin["ci_high"] == 0
    bad = next(v for v in ma["vs_best"] if v["system"] == "bad")
    assert bad["diff"] > 0 and bad["p_value"] == pytest.approx(1 / 1001)
    assert ma["competitiveness"]["ppi_unit"] == "metric"
    assert ma["competitiveness"]["ppi"] == pytest.approx(ma["scores"][0]["score"])


def test_stored_verdicts_agree_with_each_other(report):
    """One rule (max-T over all pairs here) decides every stored verdict: vs-best, pairs, marks and
    groups agree."""
    _, _, d = report
    for ma in d["competitions"][0]["metrics"]:
        scores = {s["system"]: s for s in ma["scores"]}
        pairs = {(c["a"], c["b"]): c for c in ma["pairs"]}
        assert [s["is_best"] for s in ma["scores"]] == [True] + [False] * (len(scores) - 1)
        for c in ma["pairs"]:
            assert c["p_adjusted"] == c["p_maxt"]
            if c["settled"] is False:  # undecided: neither significant nor not, no mark
                assert c["significant"] is None and c["mark"] == ""
            else:
                assert c["significant"] == (c["p_maxt"] < 0.05) == (c["mark"] != "")
            shares = bool(set(scores[c["a"]]["group"]) & set(scores[c["b"]]["group"]))
            assert shares == (c["significant"] is not True)
            assert c["excludes_zero"] == (c["ci_low"] > 0 or c["ci_high"] < 0)
        for c in ma["vs_best"]:
            pair = pairs[(ma["best"], c["system"])]
            me = scores[c["system"]]
            assert c["significant"] == pair["significant"] == me["differs_from_best"]
            assert c["p_adjusted"] == pair["p_adjusted"] == me["p_vs_best"]
            assert me["ties_with_best"] == (not me["differs_from_best"])
