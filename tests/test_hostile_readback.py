"""Hostile cases of issue 41, items 1 and 4: a results.json read back, the API's arguments, text
drawn by matplotlib, ``compreport plan``'s ranges.

A results.json shared with a notebook (``cr.Report(cr.Analysis.read(path)).write(OUT)``) may be
tampered with: its competition ids name folders of OUT, so ``..``, ``../victim`` or an absolute
path is refused before anything is written (:func:`compreport.report.naming.check_names`), and the
user's files beside OUT stay as they were. Each bad case has its good twin.
"""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path

import pandas as pd
import pytest

import compreport as cr
from compreport.errors import InputError
from compreport.stats.plan import MAX_FACTOR
from compreport.stats.results import Analysis
from conftest import one_error, run_cli

DF = pd.DataFrame(
    {
        "id": [1, 2, 3, 4, 5, 6],
        "gold": list("ababab"),
        "A": list("abaabb"),
        "B": list("abbbab"),
    }
)


@pytest.fixture(scope="module")
def analysis() -> Analysis:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cr.analyze(
            cr.from_frame(DF, name="toy", gold="gold", id="id"), bootstrap=100, seed=0
        )


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every path under ``folder`` with its bytes (None for a folder)."""
    return {
        str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None)
        for p in sorted(folder.rglob("*"))
    }


def tampered(analysis: Analysis, folder: Path, cid: str) -> Path:
    """A copy of ``analysis``'s results.json in ``folder`` whose competition id is ``cid``."""
    d = json.loads(analysis.to_json())
    d["competitions"][0]["id"] = cid
    path = folder / "shared" / "results.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(d))
    return path


def plant(tmp_path: Path) -> Path:
    """The user's own files, where a tampered id would write: ``victim/leaderboard.csv`` and
    ``leaderboard.csv`` beside OUT's parent."""
    (tmp_path / "victim").mkdir()
    (tmp_path / "victim" / "leaderboard.csv").write_text("mine\n")
    (tmp_path / "leaderboard.csv").write_text("mine too\n")
    (tmp_path / "shared" / "leaderboard.csv").parent.mkdir(exist_ok=True)
    return tmp_path / "victim" / "leaderboard.csv"


# ---------------------------------------------------------------- item 1: results.json read back


@pytest.mark.parametrize("cid", ["..", "../victim", "ABS", "../../victim", "a/../../victim"])
def test_tampered_results_json_writes_nothing_outside_out(tmp_path, analysis, cid):
    cid = str(tmp_path / "victim") if cid == "ABS" else cid
    path = tampered(analysis, tmp_path, cid)
    victim = plant(tmp_path)
    before = snapshot(tmp_path)
    with pytest.raises(InputError, match=r"results\.json: competitions\[0\]\.id: competition id"):
        cr.Report(cr.Analysis.read(path)).write(tmp_path / "shared" / "out", "json")
    assert snapshot(tmp_path) == before
    assert victim.read_text() == "mine\n"


@pytest.mark.parametrize("cid", ["..", "../victim", "ABS", "summary", "Toy"])
def test_an_analysis_changed_in_python_is_refused_before_writing(tmp_path, analysis, cid):
    """The same rule for an analysis built (or edited) in Python, never read from a file: the
    staging folder beside OUT is not even made."""
    a = Analysis.from_dict(json.loads(analysis.to_json()))
    a.competitions[0].id = str(tmp_path / "victim") if cid == "ABS" else cid
    if cid == "Toy":  # two ids naming one folder on a case-insensitive disk
        a.competitions.append(Analysis.from_dict(json.loads(analysis.to_json())).competitions[0])
        a.competitions[1].id = "toy"
    plant(tmp_path)
    before = snapshot(tmp_path)
    with pytest.raises(InputError, match="competition id"):
        cr.Report(a).write(tmp_path / "out", "json")
    assert snapshot(tmp_path) == before


def test_twin_an_untampered_results_json_is_written_into_out(tmp_path, analysis):
    path = tampered(analysis, tmp_path, "toy")
    victim = plant(tmp_path)
    written = cr.Report(cr.Analysis.read(path)).write(tmp_path / "out", "json")
    assert tmp_path / "out" / "toy" / "leaderboard.csv" in written
    assert all(p.resolve().is_relative_to((tmp_path / "out").resolve()) for p in written)
    assert victim.read_text() == "mine\n"
    assert (tmp_path / "leaderboard.csv").read_text() == "mine too\n"


# ----------------------------------------------------- item 4: Analysis.read of what is not one


@pytest.mark.parametrize(
    "content, said",
    [
        ("| a | b |\n", "not JSON (line 1"),
        ("[1, 2]", "must be a JSON object"),
        ("{}", "no key tool"),
        (
            '{"tool": {"version": "1"}, "settings": {}, "competitions": "x"}',
            'competitions must be a JSON array, not "x"',
        ),
        (
            '{"tool": {"version": "1"}, "settings": {}, "competitions": [{"id": "t", "n": 3}]}',
            "no key competitions[0].systems",
        ),
        (b"\xff\xfe{}", "not UTF-8"),
        ("[" * 100_000, "nested too deeply"),
    ],
)
def test_reading_what_is_not_results_json_is_one_input_error(tmp_path, content, said):
    path = tmp_path / "results.json"
    (path.write_bytes if isinstance(content, bytes) else path.write_text)(content)
    with pytest.raises(InputError, match="results.json") as err:
        cr.Analysis.read(path)
    assert said in str(err.value)


def test_a_metric_of_the_wrong_shape_names_its_key(tmp_path, analysis):
    d = json.loads(analysis.to_json())
    d["competitions"][0]["metrics"][0]["scores"] = [1, 2]
    (tmp_path / "r.json").write_text(json.dumps(d))
    with pytest.raises(InputError, match=r"r\.json: competitions\[0\]\.metrics\[0\]\.scores\[0\]"):
        cr.Analysis.read(tmp_path / "r.json")


@pytest.mark.parametrize("kind", ["dev", "fifo", "dir"])
def test_analysis_read_reads_only_a_regular_file(tmp_path, kind):
    """``/dev/zero`` would be read without end, a FIFO would wait for its writer."""
    path = {"dev": Path("/dev/zero"), "fifo": tmp_path / "fifo", "dir": tmp_path}[kind]
    if kind == "fifo":
        os.mkfifo(path)
    with pytest.raises(InputError, match="not a regular file|is a directory"):
        cr.Analysis.read(path)


@pytest.mark.parametrize("path", [None, b"results.json", 3])
def test_analysis_read_of_a_path_that_is_not_text(path):
    with pytest.raises(InputError, match="`path` must be a file's path"):
        cr.Analysis.read(path)


def test_twin_analysis_read_gives_back_the_analysis(tmp_path, analysis):
    (tmp_path / "results.json").write_text(analysis.to_json())
    back = cr.Analysis.read(str(tmp_path / "results.json"))
    assert back.to_json() == analysis.to_json()


# -------------------------------------------------------------- item 4: Report.write's argument


@pytest.mark.parametrize("out", [None, b"out", 3, ["out"], ""])
def test_report_write_refuses_an_out_that_is_not_a_path(tmp_path, monkeypatch, analysis, out):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match="`out_dir` must"):
        cr.Report(analysis).write(out, "json")
    assert os.listdir(tmp_path) == []


def test_twin_report_write_takes_str_and_path(tmp_path, analysis):
    assert cr.Report(analysis).write(str(tmp_path / "a"), "json")
    assert cr.Report(analysis).write(tmp_path / "b", "json")


# ------------------------------------------------------------ item 4: compreport plan's ranges

WIDE = "id,y,A,B\n" + "".join(
    f"{i},{'ab'[i % 2]},{'ab'[i % 3 == 0]},{'ab'[i % 2]}\n" for i in range(40)
)

PLAN = ("plan", "w.csv", "--metric", "accuracy", "-B", "200")


@pytest.mark.parametrize(
    "option, value, words",
    [
        ("--delta", "1e-300", "below 1e-09"),
        ("--delta", "1e-20", "below 1e-09"),
        ("--delta", "5e-324", "below 1e-09"),
        ("--delta", "inf", "out of range"),
        ("--draws", str(10**8), "must be between 100 and 100000"),
    ],
)
def test_plan_out_of_range_is_one_error_and_writes_nothing(tmp_path, option, value, words):
    (tmp_path / "w.csv").write_text(WIDE)
    res = run_cli(
        tmp_path, "plan", "w.csv", "--metric", "accuracy", "-B", "200", option, value, "-o", "p"
    )
    one_error(res, option, value, words)  # the option and the value given, and why
    assert sorted(os.listdir(tmp_path)) == ["w.csv"]


def test_twin_plan_at_the_smallest_delta_keeps_its_curve_in_range(tmp_path):
    """At ``--delta 1e-9`` no test set reaches the power: the normal approximation is huge and
    the curve stays within the sizes searched (it was drawn at ~10^17 items, or failed with
    ``lam value too large``)."""
    (tmp_path / "w.csv").write_text(WIDE)
    res = run_cli(
        tmp_path,
        "plan",
        "w.csv",
        "--metric",
        "accuracy",
        "-B",
        "200",
        "--draws",
        "100",
        "--delta",
        "1e-9",
        "-o",
        "p",
    )
    assert res.returncode == 0, res.stderr
    pairs = json.loads((tmp_path / "p" / "plan.json").read_text())["competitions"][0]["metrics"][0]
    for pair in pairs["pairs"]:
        assert pair["n_needed"] is None
        assert all(size <= MAX_FACTOR * 40 for size, _ in pair["curve"])


@pytest.mark.parametrize(
    "kw, words",
    [
        ({"delta": 1e-20}, "delta=1e-20 is below 1e-09"),
        ({"draws": 10**8}, "`draws` must be between 100 and 100000"),
        ({"draws": 100.0}, "draws=100.0 is not a whole number"),
        ({"power": True}, "power=True is out of range"),
    ],
)
def test_api_plan_checks_its_ranges_before_the_analysis(tmp_path, monkeypatch, kw, words):
    (tmp_path / "w.csv").write_text(WIDE)
    monkeypatch.setattr(cr.api, "analyze", lambda *a, **k: pytest.fail("analysed first"))
    with pytest.raises(InputError, match=words.replace("(", r"\(")):
        cr.plan(cr.load(str(tmp_path / "w.csv"), metrics=["accuracy"]), **kw)


# ------------------------------------------- item 4: text drawn by matplotlib is never mathtext

MATH = r"$\frac{$"


def test_pos_label_holding_mathtext_is_drawn_literally(tmp_path):
    rows = [f"{i},{MATH if i % 2 else 'b'},{MATH if i % 3 else 'b'},{MATH}\n" for i in range(30)]
    (tmp_path / "w.csv").write_text("id,y,A,B\n" + "".join(rows))
    res = run_cli(
        tmp_path,
        "report",
        "w.csv",
        "-B",
        "200",
        "--metric",
        "f1",
        "--pos-label",
        MATH,
        "--format",
        "html",
        "-o",
        "out",
    )
    assert res.returncode == 0, res.stderr[-2000:]
    assert "Traceback" not in res.stderr
    svg = (tmp_path / "out" / "w" / "figures" / "ci-f1.svg").read_text()
    assert f"(positive class {MATH})" in svg


def test_metric_and_system_names_holding_mathtext_are_drawn_literally(tmp_path, monkeypatch):
    """A user metric file named ``$\\frac{$.py``, a run named ``$\\frac{$``: every figure is
    drawn, also one a notebook shows (:meth:`Report.figure`), its text as given."""
    (tmp_path / f"{MATH}.py").write_text("def acc(y, p):\n    return float((y == p).mean())\n")
    df = DF.rename(columns={"B": MATH})
    monkeypatch.chdir(tmp_path)
    metric = f"{MATH}.py:acc"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = cr.analyze(
            cr.from_frame(df, name="toy", gold="gold", id="id", metrics=[metric]),
            bootstrap=200,
            seed=0,
        )
    report = cr.Report(a)
    report.write(tmp_path / "out", "html", figure_formats="svg")
    svgs = "".join(p.read_text() for p in (tmp_path / "out" / "toy" / "figures").glob("*.svg"))
    assert MATH in svgs
    import io

    for kind in ("ci", "diff", "dist"):
        report.figure(kind).savefig(io.BytesIO(), format="png", bbox_inches="tight")


def test_twin_a_name_with_one_dollar_was_always_literal(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = cr.analyze(
            cr.from_frame(DF.rename(columns={"B": "US$ 5"}), name="toy", gold="gold", id="id"),
            bootstrap=200,
            seed=0,
        )
    cr.Report(a).write(tmp_path / "out", "html", figure_formats="svg")
    assert "US$ 5" in (tmp_path / "out" / "toy" / "figures" / "ci-accuracy.svg").read_text()


def test_plan_curves_draw_system_names_holding_mathtext_literally(tmp_path):
    (tmp_path / "w.csv").write_text(WIDE.replace(",B\n", f",{MATH}\n", 1))
    res = run_cli(tmp_path, *PLAN, "--draws", "100", "-o", "p")
    assert res.returncode == 0, res.stderr[-2000:]
    assert (tmp_path / "p" / "power-w-accuracy.png").stat().st_size > 0


@pytest.mark.parametrize("out", [None, b"p", ""])
def test_write_plan_refuses_an_out_that_is_not_a_path(tmp_path, monkeypatch, out):
    from compreport.report.planning import write_plan

    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match="`out_dir` must"):
        write_plan(None, out)
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize(
    "where, value, said",
    [
        (("metrics", 0, "vs_best", 0, "system"), "nobody", 'vs_best names "nobody", not a system'),
        (("metrics", 0, "scores", 0, "system"), "A", "scores must hold one score per system"),
        (("metrics", 0, "scores", 0, "rank"), "1", "scores[0].rank must be a whole number"),
        (("metrics", 0, "competitiveness", "ties"), {}, "no key competitions[0].metrics[0]."),
        (("metrics", 0, "verdicts", "marks"), [[0.05]], "marks[0] must be [threshold, mark]"),
        (("team_ranks", 0, "runs"), "B", "team_ranks[0].runs must be a JSON array"),
        (("missing",), {"A": "0"}, 'missing["A"] must be a whole number'),
        (("classes", "confusion"), [[1]], "classes: the confusion matrix"),
        (("group",), None, "group must be a JSON array"),
    ],
)
def test_a_results_json_of_the_wrong_shape_names_its_key(tmp_path, analysis, where, value, said):
    """Each value the report reads is checked when the file is read, so a tampered one is one
    error naming it, never a traceback while the report is written."""
    d = json.loads(analysis.to_json())
    cur = d["competitions"][0]
    for key in where[:-1]:
        cur = cur[key]
    cur[where[-1]] = value
    (tmp_path / "r.json").write_text(json.dumps(d))
    with pytest.raises(InputError, match=r"r\.json: ") as err:
        cr.Analysis.read(tmp_path / "r.json")
    assert said in str(err.value), str(err.value)
