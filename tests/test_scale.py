"""Many systems: the work stays polynomial in the number of systems, or is refused at once."""

import json
import re

import numpy as np
import pytest

from compreport.stats import letters as cld
from compreport.stats.multinomial import Multinomial
from conftest import run_cli
from tests.test_letter_display import _columns, _redundant, _represents


def test_letters_of_exponentially_many_maximal_groups():
    """40 systems where only the systems of 20 disjoint pairs differ: the maximal groups of
    mutually non-different systems number 2**20, more than insert-and-absorb enumerates. The
    display is built greedily instead, and is still exact (two systems share a letter iff they do
    not differ), ordered by the ranking and without a redundant letter."""
    m = 40
    different = np.zeros((m, m), dtype=bool)
    for k in range(0, m, 2):
        different[k, k + 1] = different[k + 1, k] = True
    assert cld._maximal_groups(different) is None
    groups = cld.letters(list(range(m)), different)
    cols = _columns(groups, m)
    assert _represents(cols, different)
    assert _redundant(cols, different) == []
    assert groups[0].startswith("a")
    first_seen = list(dict.fromkeys(re.findall(r"[a-zA-Z]\d*", "".join(groups.values()))))
    names = [cld.ALPHABET[k % 52] + (str(k // 52) if k >= 52 else "") for k in range(99)]
    assert first_seen == names[: len(first_seen)]
    assert cld.letters(list(range(m)), different.copy()) == groups


def test_letters_of_few_maximal_groups_are_insert_and_absorb():
    """The twin: a leaderboard-like pattern of 150 systems has few maximal groups, which
    insert-and-absorb enumerates; the greedy cover is not used."""
    score = np.sort(np.random.default_rng(7).random(150))[::-1]
    different = np.abs(score[:, None] - score[None, :]) > 0.2
    assert cld._maximal_groups(different) is not None
    groups = cld.letters(list(range(150)), different)
    cols = _columns(groups, 150)
    assert _represents(cols, different)
    assert _redundant(cols, different) == []


def _wide(path, m: int, n: int = 30, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A wide CSV of ``n`` binary items and ``m`` systems s0..s{m-1} of varied skill; returns the
    gold (n,) and the predictions (n, m)."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 2, n)
    right = rng.random((n, m)) < rng.uniform(0.5, 0.9, m)
    pred = np.where(right, gold[:, None], 1 - gold[:, None])
    lines = ["id,gold," + ",".join(f"s{i}" for i in range(m))]
    lines += [f"i{j},{gold[j]}," + ",".join(map(str, pred[j])) for j in range(n)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return gold, pred


def test_two_thousand_systems_are_refused_at_once(tmp_path):
    """2,000 runs of 30 items make 1,999,000 pairs, which every family compares and stores: one
    error line with the systems, the pairs, the memory and time they would take and the number of
    systems that fits, exit status 2, nothing written."""
    _wide(tmp_path / "wide.csv", 2000)
    res = run_cli(
        tmp_path, "report", "wide.csv", "--id", "id", "--gold", "gold", "--metric", "accuracy",
        "-o", "out", "--format", "json", "-B", "200", "--refine", "off", "-q",
    )  # fmt: skip
    assert res.returncode == 2, res.stderr
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in res.stderr
    assert lines[0].startswith("error: competition 'wide': 2,000 systems make 1,999,000 pairs")
    assert "GiB of memory" in lines[0] and "minutes" in lines[0]
    assert f"at most {447:,} systems" in lines[0] and "--exclude" in lines[0]
    assert not (tmp_path / "out").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["wide.csv"]


def test_three_hundred_systems_run_with_the_right_numbers(tmp_path):
    """The twin: 300 systems (44,850 pairs, under the limit) are analysed; every score is the
    system's accuracy, every pair is stored, and every system has a group letter."""
    import compreport as cr

    gold, pred = _wide(tmp_path / "wide.csv", 300)
    data = cr.load(tmp_path / "wide.csv", id="id", gold="gold", metrics="accuracy")
    analysis = cr.analyze(data, bootstrap=50, refine=False)
    ma = analysis.competitions[0].metrics[0]
    accuracy = (pred == gold[:, None]).mean(axis=0)
    assert {s.system: s.score for s in ma.scores} == pytest.approx(
        {f"s{i}": accuracy[i] for i in range(300)}
    )
    assert len(ma.pairs) == 300 * 299 // 2
    assert all(s.group for s in ma.scores)


def test_multinomial_when_every_pattern_is_frequent():
    """Patterns all more frequent than the lookup tables cover (three runs of 1,000,000 binary
    items have at most 16 patterns): every count comes from the Poisson draws of large
    frequencies, and each resample still has n items, with the expected mean."""
    freq = np.array([400_000, 300_000, 200_000, 100_000])
    counts = Multinomial(freq).draw(np.random.default_rng(0), 200)
    assert counts.shape == (200, 4)
    assert (counts.sum(axis=1) == freq.sum()).all()
    assert counts.mean(axis=0) == pytest.approx(freq, rel=0.01)


def test_multinomial_with_small_and_frequent_patterns():
    """The twin: small frequencies (from the tables) beside a large one."""
    freq = np.array([1, 3, 64, 65, 10_000])
    counts = Multinomial(freq).draw(np.random.default_rng(0), 2000)
    assert (counts.sum(axis=1) == freq.sum()).all()
    assert counts.mean(axis=0) == pytest.approx(freq, rel=0.1)


@pytest.mark.parametrize("n", [2_000, 200])
def test_runs_of_few_frequent_patterns_are_analysed(tmp_path, n):
    """A gold of ``n`` binary items and two runs: 2,000 items make at most 8 patterns of about 250
    items each, resampled by pattern counts with no small frequency (the case of three runs of
    1,000,000 rows); 200 items (the twin) make patterns of about 25 items, drawn from the lookup
    tables. Both give each run's accuracy and a p-value."""
    rng = np.random.default_rng(1)
    gold = rng.integers(0, 2, n)
    runs = tmp_path / "runs"
    runs.mkdir()
    (tmp_path / "gold.tsv").write_text(
        "id\tlabel\n" + "".join(f"{i}\t{g}\n" for i, g in enumerate(gold)), encoding="utf-8"
    )
    accuracy = {}
    for name, skill in (("r0", 0.6), ("r1", 0.5)):
        pred = np.where(rng.random(n) < skill, gold, 1 - gold)
        accuracy[name] = float((pred == gold).mean())
        (runs / f"{name}.tsv").write_text(
            "id\tlabel\n" + "".join(f"{i}\t{p}\n" for i, p in enumerate(pred)), encoding="utf-8"
        )
    res = run_cli(
        tmp_path, "report", "gold.tsv", "--runs", "runs", "--metric", "accuracy", "-o", "out",
        "--format", "json", "-B", "200", "-q",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    results = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    comp = results["competitions"][0]
    assert comp["engine"]["resampling"] == "patterns"
    ma = comp["metrics"][0]
    assert {s["system"]: s["score"] for s in ma["scores"]} == pytest.approx(accuracy)
    assert ma["pairs"][0]["p_value"] is not None
