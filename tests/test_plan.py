"""``compreport plan`` / ``cr.plan``: minimum detectable differences and items needed, checked
against simulations of the process that made the test set."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import compreport as cr
from compreport.stats.plan import plan_test_set
from conftest import run_cli

PARAPHRASE = str(Path(__file__).parents[1] / "examples" / "workshop" / "paraphrase")

# Two systems 0.78 and 0.75 accurate on n = 800 binary items, paired: per item both right
# (0.70), only A (0.08), only B (0.05), neither (0.17).
JOINT = {(1, 1): 0.70, (1, 0): 0.08, (0, 1): 0.05, (0, 0): 0.17}
N = 800


def _draw(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    cells = list(JOINT)
    k = rng.choice(len(cells), size=n, p=list(JOINT.values()))
    right_a = np.array([cells[i][0] for i in k])
    right_b = np.array([cells[i][1] for i in k])
    y = rng.integers(0, 2, n)
    return y, np.where(right_a == 1, y, 1 - y), np.where(right_b == 1, y, 1 - y)


@pytest.fixture(scope="module")
def simulated_se() -> float:
    """The paired standard error of the accuracy difference at n = 800, over 4,000 test sets
    drawn from the process (not from one test set)."""
    rng = np.random.default_rng(7)
    diffs = []
    for _ in range(4000):
        y, a, b = _draw(rng, N)
        diffs.append((a == y).mean() - (b == y).mean())
    return float(np.std(diffs, ddof=1))


@pytest.fixture(scope="module")
def two_systems():
    y, a, b = _draw(np.random.default_rng(3), N)
    df = pd.DataFrame({"y": y, "A": a, "B": b})
    return cr.from_frame(df, name="two systems", metrics="accuracy")


def test_mdd_is_2_8_paired_se(two_systems, simulated_se):
    plan = cr.plan(two_systems, bootstrap=2000, seed=0, draws=1000)
    (pair,) = plan.pairs
    assert (pair.best, pair.system) == ("A", "B")
    target = 2.8 * simulated_se
    assert target / 1.3 <= pair.mdd <= target * 1.3, (pair.mdd, target)
    # the normal approximation's factor, exactly: z(0.975) + z(0.8)
    assert pair.mdd / pair.se == pytest.approx(2.8016, abs=1e-3)


def test_n_needed_for_the_mdd_is_n(two_systems, simulated_se):
    delta = 2.8 * simulated_se
    plan = cr.plan(two_systems, bootstrap=2000, seed=0, draws=1000, delta=delta)
    (pair,) = plan.pairs
    assert N / 1.3 <= pair.n_needed <= N * 1.3, pair.n_needed
    assert N / 1.3 <= pair.n_normal <= N * 1.3, pair.n_normal
    # power now is about 0.8 (the MDD is the difference detected with power 0.8 at n)
    assert 0.7 <= pair.power_now <= 0.9


def test_n_needed_has_the_power_it_claims(two_systems):
    """At the n' the plan gives for a difference of 0.03, test sets drawn from the process (true
    difference 0.03) are found significant about 80% of the time by the paired z test."""
    plan = cr.plan(two_systems, bootstrap=2000, seed=0, draws=1000, delta=0.03)
    n_needed = plan.pairs[0].n_needed
    rng = np.random.default_rng(11)
    hits = 0
    for _ in range(1000):
        y, a, b = _draw(rng, n_needed)
        d = (a == y).astype(float) - (b == y)
        hits += abs(d.mean()) > 1.96 * d.std(ddof=1) / np.sqrt(n_needed)
    assert 0.70 <= hits / 1000 <= 0.90, (n_needed, hits)


def test_plan_is_reproducible_and_ordered(two_systems):
    one = cr.plan(two_systems, bootstrap=500, seed=4, draws=200)
    two = cr.plan(two_systems, bootstrap=500, seed=4, draws=200)
    assert one.to_json() == two.to_json()
    assert json.loads(one.to_json())["settings"]["seed"] == 4


def test_bad_settings_are_one_error(two_systems):
    a = cr.analyze(two_systems, bootstrap=200, seed=0, refine=False)
    comps = list(two_systems.competitions)
    with pytest.raises(cr.InputError, match="power"):
        plan_test_set(a, comps, power=1.5)
    with pytest.raises(cr.InputError, match="delta"):
        plan_test_set(a, comps, delta=-0.1)
    with pytest.raises(cr.InputError, match="draws"):
        plan_test_set(a, comps, draws=10)
    scores_only = cr.analyze(two_systems, bootstrap=0, seed=0)
    with pytest.raises(cr.InputError, match="bootstrap replicates"):
        plan_test_set(scores_only, comps)


def _plan_cli(tmp_path, *args):
    r = run_cli(tmp_path, "plan", PARAPHRASE, *args)
    return r.returncode, r.stdout, r.stderr


def test_cli_writes_plan_files(tmp_path):
    out = tmp_path / "plan"
    code, stdout, stderr = _plan_cli(tmp_path, "-B", "500", "--draws", "200", "-o", str(out))
    assert code == 0, stderr
    names = sorted(p.name for p in out.iterdir())
    assert "plan.json" in names and "plan.csv" in names
    assert "power-paraphrase-accuracy.pdf" in names and "power-paraphrase-accuracy.png" in names
    plan = json.loads((out / "plan.json").read_text())
    pairs = plan["competitions"][0]["metrics"][0]["pairs"]
    assert {"mdd", "n_needed"} <= set(pairs[0])
    assert "items needed" in stdout and "ParaNLP.01" in stdout
    # the same command again without --force: refused, nothing changed
    before = (out / "plan.json").read_bytes()
    code, _, stderr = _plan_cli(tmp_path, "-B", "500", "--draws", "200", "-o", str(out))
    assert code == 2 and stderr.startswith("error:")
    assert (out / "plan.json").read_bytes() == before


@pytest.mark.parametrize(
    ("option", "value"), [("--power", "1"), ("--power", "x"), ("--delta", "0"), ("--draws", "5")]
)
def test_cli_bad_option_is_one_line(tmp_path, option, value):
    code, _, stderr = _plan_cli(tmp_path, option, value, "-o", str(tmp_path / "p"))
    assert code == 2
    assert stderr.count("\n") == 1 and stderr.startswith("error:") and option in stderr
    assert not (tmp_path / "p").exists()
