"""Hostile numbers and hostile user metric code (issue 30): each bad case next to its good twin."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.stats

from compreport.stats import resampling as bootstrap
from conftest import make_competition, prepare, run_cli, said

# --------------------------------------------------------------------------- Pearson at any scale


def _pearson_data(n=40, seed=4):
    rng = np.random.default_rng(seed)
    gold = np.round(rng.normal(3, 1, n), 2)
    a = np.round(gold + rng.normal(0, 0.8, n), 2)
    b = np.round(0.4 * gold + 7 + rng.normal(0, 0.5, n), 2)
    return gold, np.stack([a, b])


@pytest.mark.parametrize("scale", [1e200, 1e160, 1e-200, 1e-160, 1.0])
def test_pearson_is_scipys_at_extreme_scales(scale):
    """Values scaled by 1e200 or 1e-200 have the correlation scipy gives (not "undefined"): the
    sums are formed from values centred and scaled into [-1, 1]; the twin, scale 1, too."""
    gold, preds = _pearson_data()
    gold, preds = gold * scale, preds * scale
    comp = make_competition(gold, preds, metrics=["pearson"])
    p = prepare(comp, "pearson")
    res = bootstrap.run([p], comp.n, 2, B=200, seed=0, progress=False)
    expected = [scipy.stats.pearsonr(gold, x)[0] for x in preds]
    np.testing.assert_allclose(res.observed[0], expected, rtol=0, atol=1e-12)
    assert np.isfinite(res.replicates[0]).all()
    # the replicates are those of the same data at ordinary scale
    plain = make_competition(*_pearson_data(), metrics=["pearson"])
    ref = bootstrap.run([prepare(plain, "pearson")], comp.n, 2, B=200, seed=0, progress=False)
    np.testing.assert_allclose(res.replicates[0], ref.replicates[0], rtol=0, atol=1e-12)


@pytest.mark.parametrize("scales", [(1e200, 1e-200), (1e-200, 1.0), (1e160, 1e160)])
def test_pearson_randomization_with_systems_on_extreme_scales(scales):
    """The randomization test swaps raw predictions of systems on scales 1e400 apart: its
    p-value is that of swapping the raw vectors (scipy on every swap mask, exhaustively)."""
    gold, preds = _pearson_data(n=10, seed=7)
    preds = preds * np.array(scales)[:, None]
    n = len(gold)
    masks = ((np.arange(1 << n)[:, None] >> np.arange(n)) & 1).astype(bool)
    g = np.broadcast_to(gold, masks.shape)
    a, b = preds
    with np.errstate(all="ignore"):
        sa = scipy.stats.pearsonr(g, np.where(masks, b, a), axis=1).statistic
        sb = scipy.stats.pearsonr(g, np.where(masks, a, b), axis=1).statistic
    observed = abs(scipy.stats.pearsonr(gold, a)[0] - scipy.stats.pearsonr(gold, b)[0])
    exact = np.mean(np.abs(sa - sb) >= observed - 1e-10)
    comp = make_competition(gold, preds, metrics=["pearson"])
    R = 6000
    res = bootstrap.run(
        [prepare(comp, "pearson")], n, 2, R, seed=3, randomization=True, progress=False
    )
    (got,) = res.randomization_p(0, np.array([0]), np.array([1]))
    se = np.sqrt(exact * (1 - exact) / R)
    assert abs(got - exact) <= 4 * se + 1 / (R + 1), (got, exact)


def test_pearson_constant_system_at_extreme_scale_is_undefined():
    """A constant system stays undefined (NaN) at 1e200 as at 1; the other system is scored."""
    gold, preds = _pearson_data()
    for scale in (1e200, 1.0):
        comp = make_competition(
            gold * scale,
            np.stack([preds[0] * scale, np.full(len(gold), 0.3 * scale)]),
            metrics=["pearson"],
        )
        res = bootstrap.run([prepare(comp, "pearson")], comp.n, 2, B=50, seed=0, progress=False)
        assert np.isnan(res.observed[0][1]) and np.isnan(res.replicates[0][:, 1]).all()
        assert res.observed[0][0] == pytest.approx(scipy.stats.pearsonr(gold, preds[0])[0])


# --------------------------------------------------------------------------- user metric code

GOLD = "id\tlabel\n1\ta\n2\tb\n3\ta\n4\tb\n"
RUNS = {
    "sysA": "id\tlabel\n1\ta\n2\tb\n3\ta\n4\ta\n",
    "sysB": "id\tlabel\n1\ta\n2\ta\n3\ta\n4\tb\n",
}
ACC = "def acc(y, p):\n    return float((y == p).mean())\n"


def beyond_small_sample_note(stderr: str) -> str:
    """``stderr`` without the warning every run of these few items gets (fewer than
    ``FEW_ITEMS`` under the bootstrap test: issue 36 item 7)."""
    return "".join(
        line
        for line in stderr.splitlines(keepends=True)
        if "the bootstrap test's verdicts are liberal" not in line
    )


def _layout(tmp: Path, **files: str) -> None:
    """gold.tsv, runs/sysA.tsv and runs/sysB.tsv, a folder elsewhere/, and ``files``."""
    (tmp / "runs").mkdir()
    (tmp / "elsewhere").mkdir()
    (tmp / "gold.tsv").write_text(GOLD, encoding="utf-8")
    for name, text in RUNS.items():
        (tmp / "runs" / f"{name}.tsv").write_text(text, encoding="utf-8")
    for name, text in files.items():
        (tmp / name).write_text(text, encoding="utf-8")


def _report(tmp: Path, metric: str, *args: str, process: bool = False):
    """``compreport report gold.tsv --runs runs --metric METRIC -o out -B 20 --format json``, in
    this process or (``process``) in a real one."""
    argv = ["report", "gold.tsv", "--runs", "runs", "--metric", metric, "-o", "out", "-B", "20"]
    argv += ["--format", "json", *args]
    if not process:
        return run_cli(tmp, *argv)
    return subprocess.run(
        [sys.executable, "-m", "compreport", *argv],
        cwd=tmp,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _good(tmp: Path, res) -> dict:
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr
    assert not (tmp / "elsewhere" / "out").exists()
    return json.loads((tmp / "out" / "results.json").read_text(encoding="utf-8"))


def _bad(tmp: Path, res, *needles: str) -> str:
    """Exit 2, one ``error:`` line holding ``needles``, no traceback, nothing written."""
    assert "Traceback" not in res.stderr, res.stderr
    assert res.returncode == 2, (res.returncode, res.stderr)
    lines = said(res.stderr)
    errors = [line for line in lines if line.startswith("error: ")]
    assert len(errors) == 1 and len(lines) == 1, res.stderr
    for needle in needles:
        assert needle in errors[0], (needle, errors[0])
    assert res.stdout == ""
    assert not (tmp / "out").exists() and not (tmp / "elsewhere" / "out").exists()
    assert not [p for p in tmp.iterdir() if p.name.startswith(".out.")]
    return errors[0]


def _scores(results: dict) -> list[float]:
    return [s["score"] for s in results["competitions"][0]["metrics"][0]["scores"]]


@pytest.mark.parametrize("moves", [False, True], ids=["stays", "chdir-at-import"])
def test_metric_changing_directory_at_import_moves_neither_out_nor_next_metric(tmp_path, moves):
    """A metric file that calls os.chdir when imported: the relative -o is still ./out and a
    second metric named by a relative path is still found (twin: a file that stays)."""
    first = ("import os\nos.chdir('elsewhere')\n" if moves else "") + ACC
    _layout(tmp_path, **{"m.py": first, "n.py": ACC})
    res = _report(tmp_path, "m.py:acc,n.py:acc")
    results = _good(tmp_path, res)
    metrics = results["competitions"][0]["metrics"]
    assert [m["name"] for m in metrics] == ["m.py:acc", "n.py:acc"]


@pytest.mark.parametrize("moves", [False, True], ids=["stays", "chdir-per-call"])
def test_metric_changing_directory_while_scoring_does_not_move_out(tmp_path, moves):
    """A metric function that changes directory on every call (and reads a file relative to the
    directory it was started in): each call starts in the caller's directory, OUT is ./out."""
    body = "    import os\n    os.chdir('elsewhere')\n" if moves else ""
    code = (
        "def acc(y, p):\n"
        "    assert open('gold.tsv').read().startswith('id')\n"
        f"{body}"
        "    return float((y == p).mean())\n"
    )
    _layout(tmp_path, **{"m.py": code})
    results = _good(tmp_path, _report(tmp_path, "m.py:acc"))
    assert _scores(results) == [0.75, 0.75]


@pytest.mark.parametrize("noisy", [False, True], ids=["silent", "prints"])
def test_metric_printing_while_scoring_reaches_neither_stdout_nor_stderr(tmp_path, noisy):
    """A metric printing on every call (print, sys.stderr, os.write to descriptor 1): under -q
    nothing at all on stdout or stderr; without -q stdout holds compreport's own lines only."""
    noise = (
        "    import os, sys\n"
        "    print('noise-print')\n"
        "    print('noise-stderr', file=sys.stderr)\n"
        "    os.write(1, b'noise-fd1\\n')\n"
        if noisy
        else ""
    )
    _layout(tmp_path, **{"m.py": f"def acc(y, p):\n{noise}    return float((y == p).mean())\n"})
    res = _report(tmp_path, "m.py:acc", "-q", process=True)
    _good(tmp_path, res)
    # the few items get the small-sample warning (issue 36 item 7), and nothing else
    stderr = beyond_small_sample_note(res.stderr)
    assert res.stdout == "" and stderr == "", (res.stdout[:300], stderr[:300])
    shutil.rmtree(tmp_path / "out")
    res = _report(tmp_path, "m.py:acc", process=True)
    _good(tmp_path, res)
    assert "noise" not in res.stdout and "noise" not in res.stderr
    assert "results.json" in res.stdout


def test_metric_failing_while_scoring_shows_its_last_printed_line(tmp_path):
    """A call that raises: one error line naming the metric and the system, with the last line
    the function printed (its other output is not shown)."""
    code = (
        "def acc(y, p):\n    print('first')\n    print('model not found')\n    raise KeyError(3)\n"
    )
    _layout(tmp_path, **{"m.py": code})
    err = _bad(tmp_path, _report(tmp_path, "m.py:acc"), "'m.py:acc' failed on system", "KeyError")
    assert err.endswith("it printed: model not found")


@pytest.mark.parametrize(
    "value, ok",
    [("10**400", False), ("-10**400", False), ("10**300", True), ("7", True)],
    ids=["1e400", "-1e400", "1e300-int", "int"],
)
def test_metric_returning_a_huge_int_is_one_error(tmp_path, value, ok):
    """``return 10**400`` (no float holds it): one error naming the file and the function, not an
    OverflowError; a large int that fits a float (10**300) and a small one are scores."""
    _layout(tmp_path, **{"m.py": f"def acc(y, p):\n    return {value}\n"})
    res = _report(tmp_path, "m.py:acc")
    if ok:
        assert _scores(_good(tmp_path, res)) == [float(eval(value))] * 2
    else:
        _bad(tmp_path, res, "user metric 'm.py:acc' returned", "must return a finite number")


@pytest.mark.parametrize("ideal, ok", [("10**400", False), ("10**3", True)], ids=["1e400", "1e3"])
def test_metric_ideal_that_overflows_is_one_error(tmp_path, ideal, ok):
    """``acc.ideal = 10**400``: one error naming the file and the function's attribute; an ideal
    of 10**3 is kept as 1000.0."""
    _layout(tmp_path, **{"m.py": ACC + f"acc.ideal = {ideal}\n"})
    res = _report(tmp_path, "m.py:acc")
    if ok:
        assert _good(tmp_path, res)["competitions"][0]["metrics"][0]["ideal"] == 1000.0
    else:
        _bad(tmp_path, res, "m.py", "acc.ideal must be a finite number")


@pytest.mark.parametrize("fails", [False, True], ids=["loads", "raises"])
def test_metric_file_failing_at_import_is_named_as_given(tmp_path, fails):
    """The file is imported by its absolute path but an error names it as the user wrote it
    (``m.py``, not the absolute path); twin: the same file loading."""
    _layout(tmp_path, **{"m.py": ("raise RuntimeError('no model')\n" if fails else "") + ACC})
    res = _report(tmp_path, "m.py:acc")
    if fails:
        err = _bad(tmp_path, res, "--metric: m.py: user metric failed to load", "no model")
        assert str(tmp_path) not in err
    else:
        _good(tmp_path, res)
