"""Settings that could only hang a run are refused at once (issue 41, item 5): an alpha no B can
honour (the count of resamples it would need once looped without end), and a ``plan --draws``
beyond :data:`~compreport.settings.MAX_DRAWS`. Each next to its good twin. The commands run in
real processes with a timeout, so a hang fails the test instead of stalling the suite."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

import compreport as cr
from compreport.errors import InputError
from compreport.settings import MAX_DRAWS, MIN_ALPHA
from compreport.stats.multitest import resamples_needed
from conftest import said

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "examples" / "workshop" / "stance-eu"


def _cli(tmp: Path, *args: str, timeout: float = 60) -> tuple[subprocess.CompletedProcess, float]:
    """``compreport ARGS`` in a real process (killed after ``timeout`` s): its result and the
    seconds it took."""
    start = time.monotonic()
    res = subprocess.run(
        [sys.executable, "-m", "compreport", *args],
        cwd=tmp,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return res, time.monotonic() - start


@pytest.mark.parametrize("alpha", ["1e-20", "1e-300", "5e-324", "9.99e-10"])
@pytest.mark.parametrize("command", ["report", "plan"])
def test_alpha_no_b_can_honour_is_one_error_at_once(tmp_path, command, alpha):
    """``--alpha`` below :data:`MIN_ALPHA` under report and plan: one ``error:`` line naming
    --alpha, the value and the smallest alpha allowed, status 2, within seconds, OUT not
    written."""
    res, took = _cli(tmp_path, command, str(DEMO), "-o", "out", "--alpha", alpha, "-B", "200")
    assert res.returncode == 2, res.stderr
    lines = said(res.stderr)
    assert len(lines) == 1 and lines[0].startswith("error: --alpha "), res.stderr
    assert "cannot be honoured" in lines[0] and f"use {MIN_ALPHA:g} or more" in lines[0]
    assert not (tmp_path / "out").exists()
    assert took < 30, took


def test_smallest_alpha_is_honoured_and_answered_at_once(tmp_path):
    """The twin: alpha = :data:`MIN_ALPHA` runs, and its too-few-resamples warning names the B it
    needs (10**9 + 1 for one comparison; the count was a loop of one resample at a time)."""
    res, took = _cli(
        tmp_path, "report", str(DEMO), "-o", "out", "--alpha", f"{MIN_ALPHA:g}", "-B", "200",
        "--format", "json", "-q",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert "use -B 1000000000 or more" in res.stderr, res.stderr
    assert (tmp_path / "out" / "results.json").is_file()
    assert took < 60, took


@pytest.mark.parametrize("alpha", [1e-20, 1e-300, 0.0])
def test_api_refuses_alpha_no_b_can_honour(alpha):
    """``cr.analyze`` and ``cr.plan`` (before any work) and :class:`cr.Settings`: one
    :class:`InputError` naming ``alpha``; the twin, alpha = 0.05, is every other API test."""
    data = cr.load(DEMO)
    start = time.monotonic()
    with pytest.raises(InputError, match="`alpha`"):
        cr.analyze(data, alpha=alpha, bootstrap=100)
    with pytest.raises(InputError, match="`alpha`"):
        cr.plan(data, alpha=alpha, bootstrap=100)
    with pytest.raises(InputError, match="`alpha`"):
        cr.Settings(alpha=alpha)
    assert time.monotonic() - start < 30


@pytest.mark.parametrize("alpha", [1e-9, 1e-12, 1e-20, 1e-300, 0.05, 0.049999, 1 / 3])
@pytest.mark.parametrize("correction", ["none", "bonferroni", "holm", "bh", "maxt"])
def test_resamples_needed_is_the_smallest_b_at_once(alpha, correction):
    """:func:`resamples_needed` is the smallest B whose smallest p-value is rejected, for any
    alpha down to 1e-300, without a loop over B; the twin, 28 comparisons under Holm at 0.05,
    gives the 560 of the docs."""
    from compreport.stats.multitest import rejects, smallest_adjusted_p

    for tested in (1, 28, 1000):
        start = time.monotonic()
        b = resamples_needed(tested, alpha, correction)
        assert time.monotonic() - start < 0.5
        assert rejects(smallest_adjusted_p(tested, b, correction), alpha)
        assert b == 1 or not rejects(smallest_adjusted_p(tested, b - 1, correction), alpha)
    assert resamples_needed(28, 0.05, "holm") == 560


@pytest.mark.parametrize("draws", [str(10**8), str(MAX_DRAWS + 1), "1" + "0" * 40])
def test_plan_draws_beyond_the_largest_is_refused_at_once(tmp_path, draws):
    """``plan --draws`` above :data:`MAX_DRAWS`: one error naming --draws and the range, before
    the analysis, within seconds, OUT not written; the API's ``cr.plan(draws=...)`` too."""
    res, took = _cli(tmp_path, "plan", str(DEMO), "-o", "out", "--draws", draws, "-B", "200")
    assert res.returncode == 2, res.stderr
    lines = said(res.stderr)
    assert lines == [f"error: --draws must be between 100 and {MAX_DRAWS}; got {draws}"], lines
    assert not (tmp_path / "out").exists()
    assert took < 30, took
    start = time.monotonic()
    with pytest.raises(InputError, match=f"`draws` must be between 100 and {MAX_DRAWS}"):
        cr.plan(cr.load(DEMO), draws=int(draws), bootstrap=200)
    assert time.monotonic() - start < 5  # refused before the analysis


def test_plan_largest_draws_is_accepted(tmp_path):
    """The twin: ``--draws`` at the bounds' inside (100) plans; MAX_DRAWS passes the check."""
    from compreport.settings import check_draws

    res, _ = _cli(tmp_path, "plan", str(DEMO), "-o", "out", "--draws", "100", "-B", "200", "-q")
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "out" / "plan.json").is_file()
    assert check_draws(MAX_DRAWS, "--draws") == MAX_DRAWS


@pytest.mark.parametrize("source, where", [("spec", "[bootstrap] alpha"), ("cli", "--alpha")])
def test_every_surface_names_the_alpha_it_refuses(source, where):
    """The one check (:func:`compreport.settings.validate`) in each caller's words, a spec's
    ``[bootstrap] alpha`` included; the twin, :data:`MIN_ALPHA` itself, is accepted."""
    from compreport.settings import validate

    with pytest.raises(InputError, match=rf"^{re.escape(where)} 1e-20 cannot be honoured"):
        validate({"alpha": 1e-20}, source)
    assert validate({"alpha": MIN_ALPHA}, source) == {"alpha": MIN_ALPHA}
