"""The Python API: same numbers as the CLI, Python-worded errors, tables that agree with the
stored results."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from test_results_json import SYSTEMS, bestgen_wide

import compreport as cr
from compreport.cli import main

ROOT = Path(__file__).resolve().parent.parent
WORKSHOP = ROOT / "examples" / "workshop"
B = 200

LEADERBOARD = [
    "rank",
    "rank_low",
    "rank_high",
    "system",
    "baseline",
    "score",
    "ci_low",
    "ci_high",
    "group",
    "is_best",
    "differs_from_best",
    "p_vs_best",
]
PAIRS = [
    "system_a",
    "system_b",
    "diff",
    "ci_low",
    "ci_high",
    "p_raw",
    "p_adjusted",
    "significant",
    "excludes_zero",
    "p_bonferroni",
    "p_holm",
    "p_bh",
    "p_maxt",
]


def cli_results(tmp: Path, *args: str) -> dict:
    out = tmp / "out"
    assert main(["report", *args, "-o", str(out), "--format", "json"]) == 0
    return json.loads((out / "results.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def workshop():
    """The demo workshop through the API (B = 200, BH and refinement so that some pairs are
    significant and settled)."""
    return cr.analyze(cr.load(str(WORKSHOP)), bootstrap=B, seed=3, correction="bh", refine=True)


@pytest.fixture(scope="module")
def absa_csv(tmp_path_factory) -> Path:
    return bestgen_wide(tmp_path_factory.mktemp("absa") / "absa.csv")


@pytest.fixture(scope="module")
def absa(absa_csv):
    return cr.analyze(
        cr.load(absa_csv, metrics=["accuracy", "macro_f1"]), bootstrap=B, seed=1, family="vs-best"
    )


# --------------------------------------------------------------------------- API == CLI


def test_workshop_api_equals_cli(workshop, tmp_path):
    d = cli_results(
        tmp_path, str(WORKSHOP), "-B", str(B), "--seed", "3", "--correction", "bh", "--refine", "on"
    )
    mine = workshop.to_dict()
    assert (
        mine["tool"] == d["tool"]
        and mine["settings"] == d["settings"]
        and mine["workshop"] == d["workshop"]
    )
    assert mine["workshop"]["name"] == "IberLEF 2026 (synthetic demo)"
    assert mine["competitions"] == d["competitions"]


def test_wide_csv_api_equals_cli(absa, absa_csv, tmp_path):
    d = cli_results(
        tmp_path,
        str(absa_csv),
        "--metric",
        "accuracy,macro_f1",
        "-B",
        str(B),
        "--seed",
        "1",
        "--family",
        "vs-best",
    )
    assert absa.to_dict() == d
    assert [s["system"] for s in d["competitions"][0]["metrics"][0]["scores"]][0] == "aen_bert"


def test_api_settings_override_spec_settings(tmp_path):
    """``[bootstrap]`` of a spec is the base; a value given to analyze() wins, as on the command
    line."""
    (tmp_path / "t.csv").write_text(
        "y,A,B\n" + "".join(f"{i % 2},{i % 2},{(i // 2) % 2}\n" for i in range(40))
    )
    (tmp_path / "competition.toml").write_text(
        'name = "T"\n[data]\ntable = "t.csv"\n[[metrics]]\nname = "accuracy"\n'
        "[bootstrap]\nresamples = 50\nseed = 9\nalpha = 0.1\n"
    )
    data = cr.load(tmp_path)
    assert data.settings == {"bootstrap": 50, "seed": 9, "alpha": 0.1}
    s = cr.analyze(data, seed=4, progress=False).settings
    assert (s.bootstrap, s.seed, s.alpha) == (50, 4, 0.1)


def test_validate_scores_as_analyze_and_warns_of_the_specs_b(tmp_path, capsys):
    """``validate`` gives the point scores ``analyze`` gives, without resampling, and the warning
    that the specs' B is too small, naming the spec's key and line (issue 41 item 9);
    ``compreport validate`` prints the same scores and the same warning."""
    (tmp_path / "t.csv").write_text(
        "y,A,B\n" + "".join(f"{i % 2},{i % 2},{(i // 3) % 2}\n" for i in range(40))
    )
    (tmp_path / "competition.toml").write_text(
        'name = "T"\n[data]\ntable = "t.csv"\n[[metrics]]\nname = "accuracy"\n'
        "[bootstrap]\nresamples = 5\n"
    )
    data = cr.load(tmp_path)
    said = r"use \[bootstrap\] resamples = \d+ \(.*competition.toml, line 7\) or more$"
    with pytest.warns(cr.errors.InputWarning, match=r"B = 5 .* " + said):
        checked = cr.validate(data)
    assert checked.settings.bootstrap == 0
    full = cr.analyze(data, bootstrap=20, refine=False)
    for got, want in zip(checked.competition().metrics, full.competition().metrics, strict=True):
        assert [(s.system, s.score, s.rank) for s in got.scores] == [
            (s.system, s.score, s.rank) for s in want.scores
        ]
        assert all(math.isnan(s.ci_low) for s in got.scores)
    assert main(["validate", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0] == "ok: t: 40 items, 2 systems, metrics: accuracy"
    board = {line.split()[1]: float(line.split()[2]) for line in out.splitlines()[3:]}
    assert board == {s.system: round(s.score, 4) for s in checked.competition().primary.scores}
    assert re.search(r"B = 5 .* " + said, err.strip()), err


def test_list_metrics_is_what_the_cli_lists(capsys):
    """``list_metrics`` holds every metric ``compreport metrics`` lists, in its order, each under
    the heading of what it reads; a metric that needs the query column names it in the caller's
    words."""
    metrics = cr.list_metrics()
    assert all(isinstance(m, cr.MetricInfo) for m in metrics)
    assert main(["metrics"]) == 0
    out = capsys.readouterr().out.splitlines()
    lines = [line for line in out if line.startswith("  ") and line[2] != " "]
    assert [line.split()[0] for line in lines] == [m.name for m in metrics] + ["FILE.py:FUNC"]
    headings = [line for line in out if not line.startswith(" ")]
    assert len(headings) == len({m.reads for m in metrics}) + 1  # + "Your own function:"
    under = {}
    for line in out:
        if not line.startswith(" "):
            heading = line
        elif line[2] != " ":
            under[line.split()[0]] = heading
    assert all(under[m.name].lower().startswith(m.reads.lower()) for m in metrics)
    cut = [m for m in metrics if m.name.endswith("@K")]
    assert [m.name for m in cut] == ["map@K", "p@K", "ndcg@K"]
    assert all(m.description.endswith("(needs `cluster_col`)") for m in cut)
    assert all(line.endswith("(needs --query-col)") for line in lines if "@K " in line)
    for m in cut:
        cr.from_frame(TINY, metrics=m.name.replace("@K", "@5"))  # a name the loaders take


# --------------------------------------------------------------------------- from_frame


def test_from_frame_equals_csv(absa, absa_csv):
    df = pd.read_csv(absa_csv)
    assert df["y"].dtype.kind == "i"  # numbers become text as the loaders give it
    a = cr.analyze(
        cr.from_frame(df, name="absa", metrics=["accuracy", "macro_f1"]),
        bootstrap=B,
        seed=1,
        family="vs-best",
    )
    got, want = a.to_dict(), absa.to_dict()
    (c_got,), (c_want,) = got.pop("competitions"), want.pop("competitions")
    assert got == want
    assert c_got.pop("inputs")[0]["path"] == "<DataFrame>" and c_want.pop("inputs")
    assert c_got == c_want
    # text columns with surrounding blanks and an id column give the same numbers
    df2 = (
        df.astype(str)
        .apply(lambda col: " " + col + " ")
        .assign(id=[f"i{k}" for k in range(len(df))])
    )
    b = cr.analyze(
        cr.from_frame(df2, name="absa", metrics="accuracy,macro_f1"),
        bootstrap=B,
        seed=1,
        family="vs-best",
    )
    assert b.leaderboard().equals(a.leaderboard())


def test_from_frame_errors_name_column_and_row():
    df = pd.DataFrame(
        {"id": ["a", "b", "c"], "gold": ["x", "y", "x"], "s1": ["x", "y", "y"]}, index=[10, 11, 12]
    )
    with pytest.raises(cr.InputError, match=r"gold column 'y' not found .*pass gold=NAME"):
        cr.from_frame(df)
    bad = df.assign(s1=["x", None, "y"])
    with pytest.raises(cr.InputError, match=r"index 11, column 's1': blank or missing value"):
        cr.from_frame(bad, gold="gold")
    with pytest.raises(cr.InputError, match=r"index 10, column 's1'"):
        cr.from_frame(df.assign(s1=["NaN", "x", "y"]), gold="gold")
    with pytest.raises(
        cr.InputError, match=r"column 'id': id 'a' appears twice \(index 10 and 12\)"
    ):
        cr.from_frame(df.assign(id=["a", "b", "a"]), gold="gold")
    with pytest.raises(cr.InputError, match=r"id column 'key' not found"):
        cr.from_frame(df, gold="gold", id="key")
    with pytest.raises(cr.InputError, match=r"no system columns"):
        cr.from_frame(df[["id", "gold"]], gold="gold")
    with pytest.raises(cr.InputError, match=r"pandas DataFrame"):
        cr.from_frame({"y": [1]})
    with pytest.raises(
        cr.InputError, match=r"^`metrics`: unknown metric 'acuracy' \(did you mean 'accuracy'\?\)"
    ):
        cr.from_frame(df, gold="gold", metrics=["acuracy"])
    with pytest.raises(cr.InputError, match=r"baseline 'nope'"):
        cr.from_frame(df, gold="gold", baselines=["nope"])


# --------------------------------------------------------------------------- Python words

TINY = pd.DataFrame({"y": list("abab" * 5), "A": list("abaa" * 5), "B": list("abbb" * 5)})


@pytest.mark.parametrize(
    "kwargs, word",
    [
        ({"bootstrap": -1}, "`bootstrap`"),
        ({"bootstrap": 1.5}, "`bootstrap`"),
        ({"seed": "x"}, "`seed`"),
        ({"alpha": 1.5}, "`alpha`"),
        ({"ci": "bcaa"}, "`ci`"),
        ({"test": "permutation"}, "`test`"),
        ({"family": "typo"}, "`family`"),
        ({"correction": "xyz"}, "`correction`"),
        ({"jobs": 0}, "`jobs`"),
        ({"metrics": ["nope"]}, "`metrics`"),
        ({"metrics": []}, "`metrics`"),
    ],
)
def test_invalid_settings_raise_input_error_in_python_words(kwargs, word):
    with pytest.raises(cr.InputError) as err:
        cr.analyze(cr.from_frame(TINY), **kwargs)
    assert isinstance(err.value, ValueError)
    assert word in str(err.value) and "--" not in str(err.value), str(err.value)


def test_library_messages_use_python_words(tmp_path):
    with pytest.raises(cr.InputError, match=r"pass pos_label=LABEL$"):
        cr.analyze(cr.from_frame(TINY), metrics="f1", bootstrap=0)
    a = cr.analyze(cr.from_frame(TINY, pos_label="b"), metrics="f1", bootstrap=0)
    assert a.competition().metric().params == {"pos_label": "b"}
    with pytest.raises(cr.InputError, match=r"`pos_label` 'c' is not among") as err:
        cr.analyze(cr.from_frame(TINY, metrics="f1", pos_label="c"), bootstrap=0)
    assert "--" not in str(err.value)
    wide = tmp_path / "t.csv"
    TINY.to_csv(wide, index=False)
    with pytest.raises(cr.InputError, match=r"no metric given; pass metrics=\[NAME\]"):
        cr.load(wide)
    with pytest.raises(cr.InputError, match=r"gold column 'gold' not found .*; pass gold=NAME$"):
        cr.load(wide, gold="gold", metrics="accuracy")
    with pytest.raises(cr.InputError, match=r"^`runs` takes exactly one input"):
        cr.load([wide, wide], runs=tmp_path, metrics="accuracy")
    with pytest.warns(cr.errors.InputWarning, match=r"use bootstrap=\d+ or more$"):
        cr.analyze(cr.load(wide, metrics="accuracy"), bootstrap=5, refine=False)


# --------------------------------------------------------------------------- tables and round trip


def test_leaderboard_and_pairs_agree_with_the_stored_results(workshop):
    lb = workshop.leaderboard(competition="paraphrase")
    assert list(lb.columns) == LEADERBOARD
    c = workshop.competition("paraphrase")
    ma = c.primary
    assert lb.attrs == {"competition": "paraphrase", "metric": ma.name, "verdicts": ma.verdicts}
    for row, s in zip(lb.itertuples(index=False), ma.scores, strict=True):
        assert (row.rank, row.system, row.score, row.group, row.is_best) == (
            s.rank,
            s.system,
            s.score,
            s.group,
            s.is_best,
        )
        assert row.differs_from_best is s.differs_from_best and row.baseline == (
            s.system in c.baselines
        )
        assert (row.ci_low, row.ci_high) == (s.ci_low, s.ci_high)
        assert (row.rank_low, row.rank_high) == (s.rank_low, s.rank_high)
    assert lb["baseline"].sum() == len(c.baselines) == 1 and lb["is_best"].iloc[0]
    pr = workshop.pairs(metric="f1", competition="paraphrase")
    assert list(pr.columns) == PAIRS
    f1 = c.metric("f1")
    assert len(pr) == len(f1.pairs) == 28
    for row, p in zip(pr.itertuples(index=False), f1.pairs, strict=True):
        assert (row.system_a, row.system_b, row.diff, row.p_raw, row.p_bh, row.p_maxt) == (
            p.a,
            p.b,
            p.diff,
            p.p_value,
            p.p_bh,
            p.p_maxt,
        )
        assert (
            0 < row.p_maxt <= 1
        )  # max-T over the family is computed under the bootstrap test, whatever decides
        assert (
            row.significant is p.significant and row.p_adjusted == p.p_adjusted == p.p_bh
        )  # correction bh
    assert pr["significant"].any() and not pr["significant"].all()
    with pytest.raises(cr.InputError, match="competitions: name one with competition="):
        workshop.leaderboard()
    with pytest.raises(cr.InputError, match="no metric 'f2'; metrics: accuracy, f1"):
        workshop.pairs(metric="f2", competition="paraphrase")
    with pytest.raises(cr.InputError, match="no metric 'acuracy' \\(did you mean 'accuracy'\\?\\)"):
        workshop.pairs(metric="acuracy", competition="paraphrase")
    with pytest.raises(
        cr.InputError, match="no competition 'paraphrse' \\(did you mean 'paraphrase'\\?\\)"
    ):
        workshop.leaderboard(competition="paraphrse")


def test_one_competition_needs_no_competition_argument(absa):
    assert absa.leaderboard()["system"].tolist()[0] == "aen_bert"
    assert absa.leaderboard("macro_f1").attrs["metric"] == "macro_f1"
    pr = absa.pairs()
    assert (
        len(pr) == 10 and pr["significant"].isna().sum() == 6
    )  # vs-best: pairs without the best untested
    assert sorted(absa.leaderboard()["system"]) == sorted(SYSTEMS)


def test_competitiveness_table(workshop):
    t = workshop.competitiveness()
    ids = [c.id for c in workshop.competitions]
    assert t["id"].tolist() == ids and len(t) == 7
    for k in ("none", "bonferroni", "holm", "bh"):
        assert f"ties_with_winner_{k}" in t and f"ties_{k}" in t
    row = t.set_index("id").loc["paraphrase"]
    comp = workshop.competition("paraphrase").primary.competitiveness
    assert (row["n"], row["m"], row["ties_bh"], row["ppi_unit"]) == (
        comp["n"],
        comp["m"],
        comp["ties"]["bh"],
        comp["ppi_unit"],
    )
    assert row["cv"] == pytest.approx(comp["cv"])


def test_round_trip_through_to_dict(workshop):
    d = workshop.to_dict()
    assert cr.Analysis.from_dict(d).to_dict() == d
    best = d["competitions"][0]["metrics"][0]["scores"][0]
    assert (
        best["p_vs_best"] is None and best["differs_from_best"] is None
    )  # NaN -> None -> NaN -> None
    again = cr.Analysis.from_dict(json.loads(workshop.to_json()))
    assert math.isnan(again.competitions[0].primary.scores[0].p_vs_best)
    assert again.leaderboard(competition="paraphrase").equals(
        workshop.leaderboard(competition="paraphrase")
    )


def test_repr_and_html(workshop, absa):
    assert repr(workshop).startswith("<Analysis: 7 competition(s) (detox-binary,")
    assert len(repr(workshop)) < 200
    html = workshop._repr_html_()
    assert html.count("<table") == 7 and "R&amp;D_team.01" in html and "<td>None</td>" not in html
    top = workshop.competitions[0].primary.scores[0]
    assert f"<td>{top.score:.4f}</td>" in html
    assert absa._repr_html_().count("<table") == 1


# --------------------------------------------------------------------------- package surface


def test_package_exports_and_light_import():
    for name in (
        "load",
        "from_frame",
        "analyze",
        "validate",
        "list_metrics",
        "MetricInfo",
        "Analysis",
        "Settings",
        "InputError",
        "__version__",
    ):
        assert name in cr.__all__ and hasattr(cr, name)
    assert issubclass(cr.InputError, ValueError)
    code = (
        "import sys, compreport; "
        "heavy = {'pandas', 'matplotlib', 'statsmodels', 'scipy', 'pydantic'} & set(sys.modules); "
        "assert not heavy, heavy"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_the_cli_is_a_client_of_the_public_api():
    """The command line imports nothing from :mod:`compreport.stats`: what it computes comes
    through the public API (:mod:`compreport.api`, :class:`compreport.Report`)."""
    import ast

    for module in ("cli.py", "cli_parser.py"):
        tree = ast.parse((ROOT / "compreport" / module).read_text(encoding="utf-8"))
        imported = [
            name
            for node in ast.walk(tree)
            for name in (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else []
            )
        ]
        assert imported and not [m for m in imported if m.startswith("compreport.stats")], (
            module,
            imported,
        )


@pytest.mark.parametrize(
    "jobs, formats, stages", [(1, "html", ["figures"]), (2, "pdf", ["figures", "PDF documents"])]
)
@pytest.mark.slow
def test_progress_bars_name_the_stages(tmp_path, capsys, jobs, formats, stages):
    """``Report.write(progress=True)`` shows a bar per stage on stderr (the CLI: on a terminal, not
    with -q), counting finished figures and PDF documents, whether drawn here or by workers (the
    PDF documents with workers only: the bar is the same code,
    :func:`compreport.workers.run_tasks`)."""
    df = pd.DataFrame(
        {
            "id": range(40),
            "y": [i % 2 for i in range(40)],
            "a": [i % 2 for i in range(40)],
            "b": [(i // 3) % 2 for i in range(40)],
        }
    )
    analysis = cr.analyze(cr.from_frame(df, id="id", metrics=["accuracy"]), bootstrap=50)
    capsys.readouterr()
    cr.Report(analysis).write(
        tmp_path / "out", formats, figure_formats="svg", jobs=jobs, progress=True
    )
    err = capsys.readouterr().err
    assert all(stage in err for stage in stages), err
    cr.Report(analysis).write(
        tmp_path / "quiet", "html", figure_formats="svg", jobs=jobs, progress=False
    )
    assert capsys.readouterr().err == ""


def test_figure_pairs_are_checked():
    """``Report.figure``: ``a``/``b`` name two systems of the competition, and only the 'dist'
    figure takes them."""
    rng = np.random.default_rng(3)
    gold = rng.integers(0, 2, 60)
    df = pd.DataFrame(
        {"y": gold, **{s: np.where(rng.random(60) < 0.8, gold, 1 - gold) for s in ("A", "B", "C")}}
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = cr.Report(
            cr.analyze(cr.from_frame(df, metrics=["accuracy"]), bootstrap=50, refine=False)
        )
    for kwargs, words in (
        (dict(kind="dist", a="A", b="A"), "two systems; both are 'A'"),
        (dict(kind="dist", a="Z"), "`a`: no system 'Z'"),
        (dict(kind="ci", a="A"), "'ci' takes neither"),
    ):
        with pytest.raises(cr.InputError, match=re.escape(words)):
            r.figure(**kwargs)
    ma = r.analysis.competitions[
        0
    ].primary  # one side given: the other is the best, else the runner-up
    assert r.figure("dist", a=ma.runner_up) is not None and r.figure("dist", b=ma.best) is not None


def test_a_float_gold_beside_integer_predictions_is_named():
    """A gold pandas holds as floats (0.0/1.0) against integer predictions is another set of
    labels, as in a file written by ``df.to_csv``: the warning says the gold writes the same number
    otherwise, not only that the predictions were never seen in gold."""
    rng = np.random.default_rng(2)
    gold = rng.integers(0, 2, 50)
    df = pd.DataFrame({"y": gold.astype(float), "A": gold, "B": 1 - gold})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cr.analyze(cr.from_frame(df), bootstrap=20, refine=False)
    said = [str(w.message) for w in caught if "never seen in gold" in str(w.message)]
    assert said and all("the gold writes that number '0.0', another label" in m for m in said), said
