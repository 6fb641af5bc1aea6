"""Issue 39, items 4 and 5: the demo in the API (``cr.load_demo``) and notebook ergonomics
(short reprs and HTML of ``Report`` and of its tables, ``Table.to_frame()``, ``tqdm.auto``,
``py.typed``)."""

from __future__ import annotations

import math
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pandas as pd
import pytest

import compreport as cr
from compreport.resources import demo_workshop_dir

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def demo():
    """The whole demo workshop, analysed lightly, and its report."""
    with warnings.catch_warnings():  # B = 200: every corrected tie of the summary is certain
        warnings.simplefilter("ignore", cr.errors.InputWarning)
        a = cr.analyze(cr.load_demo(), bootstrap=200, seed=0)
    return a, cr.Report(a)


@pytest.fixture(scope="module")
def hostile():
    """A competition whose system names are HTML."""
    df = pd.DataFrame(
        {
            "y": list("abab" * 10),
            "<script>alert(1)</script>": list("abaa" * 10),
            "A&B <i>": list("abbb" * 10),
        }
    )
    with warnings.catch_warnings():  # 40 items: the small-sample warning
        warnings.simplefilter("ignore", cr.errors.InputWarning)
        a = cr.analyze(cr.from_frame(df, name="x", metrics="accuracy"), bootstrap=200, seed=0)
    return a, cr.Report(a)


# --------------------------------------------------------------------------- load_demo


def _same(x: cr.Inputs, y: cr.Inputs) -> None:
    assert repr(x) == repr(y)
    assert (x.specs, x.workshop, x.settings) == (y.specs, y.workshop, y.settings)
    assert [(c.id, c.n, c.systems) for c in x.competitions] == [
        (c.id, c.n, c.systems) for c in y.competitions
    ]
    vx, vy = cr.validate(x), cr.validate(y)
    for c in vx.competitions:
        pd.testing.assert_frame_equal(
            vx.leaderboard(competition=c.id), vy.leaderboard(competition=c.id)
        )


def test_load_demo_is_load_of_the_bundled_workshop(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no examples/ here: the package's own copy is read
    data = cr.load_demo()
    assert data.workshop["name"] == "IberLEF 2026 (synthetic demo)"
    assert len(data.competitions) == 7
    _same(data, cr.load(demo_workshop_dir()))
    _same(cr.load_demo("stance-eu"), cr.load(demo_workshop_dir() / "stance-eu"))
    assert "load_demo" in cr.__all__


@pytest.mark.parametrize("bad", ["stance", "../workshop", "stance-eu/../paraphrase", "", "."])
def test_load_demo_names_only_its_competitions(bad):
    with pytest.raises(cr.InputError, match=r"`competition` of load_demo\(\) must be one of "):
        cr.load_demo(bad)


def test_load_demo_suggests_the_close_name():
    with pytest.raises(cr.InputError, match="did you mean 'stance-eu'"):
        cr.load_demo("stance_eu")


# --------------------------------------------------------------------------- reprs


def test_report_repr_is_short_and_says_what_it_holds(demo):
    a, r = demo
    text = repr(r)
    assert len(text) < 500, text
    assert text.startswith("<Report: 7 competition(s) (detox-binary, ")
    assert "formats json, latex, html, pdf" in text and "ceurart" in text
    page = r._repr_html_()
    assert "<table" in page and "SiameseTwins.01" in page
    assert "&lt;Report: 7 competition(s)" in page


@pytest.mark.parametrize(
    "kind", ["leaderboard", "teams", "ci", "diff-best", "pairs", "pvalues", "summary", "legend"]
)
def test_table_repr_and_html(demo, kind):
    _, r = demo
    comp = None if kind in ("summary", "legend") else "paraphrase"
    t = r.table(kind, competition=comp)
    text = repr(t)
    assert len(text) < 500, text
    assert text.startswith(f"<Table {kind}") and f"{len(t.rows)} rows" in text
    page = t._repr_html_()
    assert page.startswith("<table>") and page.endswith("</table>")
    assert page.count("<tr>") == len(t.rows) + 1
    for label in t.columns.values():
        assert f"<th>{label.replace('&', '&amp;')}</th>" in page


def test_table_html_escapes_names(hostile):
    _, r = hostile
    for kind in ("leaderboard", "diff-best", "pvalues"):
        page = r.table(kind)._repr_html_()
        assert "<script>" not in page and "<i>" not in page
    for kind in ("leaderboard", "pvalues"):  # diff-best: the best is not a row
        page = r.table(kind)._repr_html_()
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
        assert "A&amp;B &lt;i&gt;" in page
    assert "<script>" not in r._repr_html_() and "<script>" not in repr(r.table("leaderboard"))


# --------------------------------------------------------------------------- to_frame


def _equal(x, y) -> bool:
    """Stored value ``y`` (None or NaN: missing) as a frame holds it (NaN or <NA>)."""
    if y is None or (isinstance(y, float) and math.isnan(y)):
        return bool(pd.isna(x))
    return bool(x == y)


def test_leaderboard_frame(demo):
    a, r = demo
    t = r.table("leaderboard", competition="paraphrase")
    df = t.to_frame()
    assert df.index.name == "system" and "system" not in df.columns
    assert list(df.index) == [row.label for row in t.rows]
    assert list(df.columns) == [k for k in t.columns if k != "system"]
    for col in ("rank", "score:accuracy", "score:f1", "ci_low", "ci_high"):
        assert df[col].dtype == "float64", col
    assert not any(pd.api.types.is_bool_dtype(d) for d in df.dtypes)
    # the stored numbers, not their three-decimal text
    board = a.leaderboard(competition="paraphrase").set_index("system")
    assert df["score:accuracy"].tolist() == board.loc[df.index, "score"].tolist()
    assert df["ci_low"].tolist() == board.loc[df.index, "ci_low"].tolist()
    assert df["rank"].tolist() == [float(x) for x in board.loc[df.index, "rank"]]
    for row in t.rows:
        for key, cell in row.cells.items():
            if key != "system":
                assert _equal(df.at[row.label, key], cell.value), (row.label, key)
    labelled = t.to_frame(labels=True)
    assert labelled.index.name == "System" and list(labelled.columns)[:3] == [
        "Rank",
        "Rank set",
        "Team",
    ]


def test_diff_best_frame(demo):
    a, r = demo
    t = r.table("diff-best", competition="paraphrase")
    df = t.to_frame()
    assert df.index.name == "system"
    for col in ("excludes_zero", "significant", "settled"):
        assert df[col].dtype == "boolean", col
    for col in ("diff", "ci_low", "ci_high", "none", "holm", "p_adjusted", "p_se"):
        assert df[col].dtype == "float64", col
    for row in t.rows:
        for key, cell in row.cells.items():
            if key != "system":
                assert _equal(df.at[row.label, key], cell.value), (row.label, key)
    # the stored comparisons with the best, not their texts
    vs_best = a.competition("paraphrase").primary.vs_best
    assert list(df.index) == [c.b for c in vs_best]
    assert df["diff"].tolist() == [c.diff for c in vs_best]
    assert df["ci_high"].tolist() == [c.ci_high for c in vs_best]
    assert df["holm"].tolist() == [c.p_holm for c in vs_best]
    assert df["excludes_zero"].tolist() == [c.excludes_zero for c in vs_best]
    assert [None if v is pd.NA else v for v in df["significant"]] == [
        c.significant for c in vs_best
    ]


def test_frame_of_missing_cells(demo):
    _, r = demo
    pairs = r.table("pairs", competition="paraphrase").to_frame()
    assert all(d == "float64" for d in pairs.dtypes)
    assert pairs.isna().to_numpy().sum() > 0  # the upper triangle
    summary = r.table("summary").to_frame()
    assert list(summary.columns) == [c.id for c in r.analysis.competitions]
    assert summary.index.name is None


# --------------------------------------------------------------------------- tqdm.auto, py.typed

#: A Jupyter kernel as tqdm.auto recognises one, without ipywidgets.
_FAKE_KERNEL = textwrap.dedent(
    """
    import sys, types, warnings
    sys.modules["ipykernel.zmqshell"] = types.ModuleType("ipykernel.zmqshell")
    ipython = types.ModuleType("IPython")
    ipython.get_ipython = lambda: type("ZMQInteractiveShell", (), {})()
    sys.modules["IPython"] = ipython
    sys.modules["ipywidgets"] = None  # not installed
    warnings.simplefilter("error")
    from compreport.workers import progress_bar
    bar = progress_bar("bootstrap", 3)
    bar.update(3)
    bar.close()
    print(type(bar).__module__)
    """
)


def test_progress_in_a_notebook_without_ipywidgets():
    """tqdm.auto falls back to the text bar on stderr, without its warning about ipywidgets."""
    r = subprocess.run(
        [sys.executable, "-c", _FAKE_KERNEL],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": ""},
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() in ("tqdm.std", "tqdm.asyncio")  # not tqdm.notebook
    assert "bootstrap:   0%" in r.stderr and "0/3" in r.stderr
    assert "IProgress" not in r.stderr


def test_progress_bar_is_tqdm_auto():
    from tqdm.auto import tqdm

    from compreport.workers import progress_bar

    bar = progress_bar("x", 1)
    try:
        assert isinstance(bar, tqdm)
    finally:
        bar.close()


def test_py_typed_ships_in_the_package():
    marker = Path(cr.__file__).parent / "py.typed"
    assert marker.is_file()
    tracked = subprocess.run(
        ["git", "ls-files", "--error-unmatch", "compreport/py.typed"],
        cwd=ROOT,
        capture_output=True,
    )
    assert tracked.returncode == 0, "py.typed is not in git: hatch's wheel would miss it"
