"""Item scores from any scorer: ``mean`` of per-item scores (BERTScore, similarity) and ``ratio``
of two per-item sums (WER, CER), against numpy and a word error rate computed here, on files as
published, through the command line and the Python API."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

import compreport as cr
from tests.conftest import engine_on, make_competition, one_error, prepare, run_cli, write

RNG = np.random.default_rng(6)
WORDS = "el la de que y en un una casa perro gato azul rojo grande".split()


def edits(ref: list[str], hyp: list[str]) -> int:
    """Word-level Levenshtein distance (substitutions + deletions + insertions), as jiwer."""
    prev = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        cur = [i]
        for j, h in enumerate(hyp, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (r != h)))
        prev = cur
    return prev[-1]


def corpus_wer(refs: list[str], hyps: list[str]) -> float:
    """jiwer.wer(refs, hyps): the edits of every sentence over the words of every reference."""
    total = sum(edits(r.split(), h.split()) for r, h in zip(refs, hyps, strict=True))
    return total / sum(len(r.split()) for r in refs)


def sentences(n):
    return [" ".join(RNG.choice(WORDS, RNG.integers(2, 12))) for _ in range(n)]


def garble(text, p):
    out = []
    for w in text.split():
        r = RNG.random()
        if r < p / 3:
            continue  # deletion
        out.append(RNG.choice(WORDS) if r < 2 * p / 3 else w)
        if r > 1 - p / 3:
            out.append(RNG.choice(WORDS))  # insertion
    return " ".join(out)


def results(out):
    (comp,) = json.loads((out / "results.json").read_text())["competitions"]
    return {m["name"]: ({s["system"]: s["score"] for s in m["scores"]}, m) for m in comp["metrics"]}


def report(tmp, *args):
    return run_cli(tmp, "report", *args, "-o", "out", "-B", "200", "--format", "json")


def test_mean_of_per_item_scores_cli_and_api(tmp_path):
    """RefutES-like: the gold gives the references, each run the scorer's BERTScore per item."""
    n = 90
    refs = sentences(n)
    write(
        tmp_path,
        "gold.tsv",
        "id\treference\n" + "".join(f"r{i}\t{t}\n" for i, t in enumerate(refs)),
    )
    scores = {"A.1": RNG.beta(8, 2, n).round(5), "B.1": RNG.beta(5, 3, n).round(5)}
    for name, s in scores.items():
        write(
            tmp_path,
            f"runs/{name}.tsv",
            "id\tbertscore_f1\n" + "".join(f"r{i}\t{v}\n" for i, v in enumerate(s)),
        )
    write(
        tmp_path,
        "competition.toml",
        '[data]\ngold = "gold.tsv"\nruns = "runs"\n'
        '[[metrics]]\nname = "mean"\nlabel = "BERTScore"\n'
        '[[metrics]]\nname = "mean"\nlabel = "mean_lower"\nhigher_is_better = false\n',
    )  # fmt: skip
    res = report(tmp_path, ".")
    assert res.returncode == 0, res.stderr
    got = results(tmp_path / "out")
    for name, s in scores.items():
        assert got["BERTScore"][0][name] == pytest.approx(np.mean(s), abs=1e-12)
    assert got["BERTScore"][1]["higher_is_better"] is True
    assert got["mean_lower"][1]["higher_is_better"] is False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        data = cr.load(tmp_path / "gold.tsv", runs=tmp_path / "runs", metrics="mean")
        board = cr.analyze(data, bootstrap=100, seed=0).leaderboard()
    api = dict(zip(board.system, board.score, strict=True))
    assert api == pytest.approx({k: np.mean(v) for k, v in scores.items()}, abs=1e-12)
    assert board.system.tolist() == ["A.1", "B.1"]  # beta(8, 2) scores higher


def test_mean_on_resamples_equals_numpy():
    n, m = 40, 3
    scores = RNG.normal(size=(m, n))
    comp = make_competition(np.array(["x"] * n), scores)
    p = prepare(comp, "mean")
    for _ in range(5):
        idx = RNG.integers(0, n, n)
        np.testing.assert_allclose(engine_on(p, idx), scores[:, idx].mean(1), atol=1e-12)


def asr_task(tmp, n=70):
    refs = sentences(n)
    hyps = {"A.1": [garble(t, 0.1) for t in refs], "B.1": [garble(t, 0.3) for t in refs]}
    return refs, hyps


def test_wer_with_the_reference_length_in_the_gold(tmp_path):
    """The gold gives each reference's length in words; each run the scorer's edits per item."""
    refs, hyps = asr_task(tmp_path)
    write(
        tmp_path,
        "gold.tsv",
        "id\twords\n" + "".join(f"u{i}\t{len(t.split())}\n" for i, t in enumerate(refs)),
    )
    for name, h in hyps.items():
        errs = [edits(r.split(), x.split()) for r, x in zip(refs, h, strict=True)]
        write(
            tmp_path,
            f"runs/{name}.tsv",
            "id\terrors\n" + "".join(f"u{i}\t{e}\n" for i, e in enumerate(errs)),
        )
    res = report(tmp_path, "gold.tsv", "--runs", "runs", "--metric", "ratio")
    assert res.returncode == 0, res.stderr
    got, ma = results(tmp_path / "out")["ratio"]
    for name, h in hyps.items():
        assert got[name] == pytest.approx(corpus_wer(refs, h), abs=1e-12)
    assert ma["higher_is_better"] is False
    assert ma["params"] == {"numerator": "label", "denominator": "gold"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        data = cr.load(tmp_path / "gold.tsv", runs=tmp_path / "runs", metrics="ratio")
        board = cr.analyze(data, bootstrap=100, seed=0).leaderboard()
    assert board.system.tolist() == ["A.1", "B.1"]  # lower first
    assert board.score.tolist() == pytest.approx([corpus_wer(refs, hyps[s]) for s in board.system])


def test_wer_with_both_numbers_in_the_runs(tmp_path):
    """The scorer writes both numbers per item (sclite's Err and #Wrd; jiwer's edits and
    hits + substitutions + deletions); a resample is the ratio of its sums."""
    refs, hyps = asr_task(tmp_path)
    write(
        tmp_path,
        "gold.tsv",
        "id\terrors\twords\n" + "".join(f"u{i}\t0\t{len(t.split())}\n" for i, t in enumerate(refs)),
    )
    for name, h in hyps.items():
        rows = [(edits(r.split(), x.split()), len(r.split())) for r, x in zip(refs, h, strict=True)]
        write(
            tmp_path,
            f"runs/{name}.tsv",
            "id\terrors\twords\n" + "".join(f"u{i}\t{e}\t{w}\n" for i, (e, w) in enumerate(rows)),
        )
    write(
        tmp_path,
        "competition.toml",
        '[data]\ngold = "gold.tsv"\nruns = "runs"\nfields = ["errors", "words"]\n'
        '[[metrics]]\nname = "ratio"\nlabel = "wer"\nnumerator = "errors"\ndenominator = "words"\n',
    )  # fmt: skip
    res = report(tmp_path, ".")
    assert res.returncode == 0, res.stderr
    got, _ = results(tmp_path / "out")["wer"]
    for name, h in hyps.items():
        assert got[name] == pytest.approx(corpus_wer(refs, h), abs=1e-12)
    comp = cr.load(tmp_path).competitions[0]
    p = prepare(comp, "ratio", numerator="errors", denominator="words")
    for _ in range(3):
        idx = RNG.integers(0, len(refs), len(refs))
        exp = [corpus_wer([refs[i] for i in idx], [hyps[s][i] for i in idx]) for s in comp.systems]
        np.testing.assert_allclose(engine_on(p, idx), exp, atol=1e-12)


@pytest.mark.parametrize(
    "gold, run, metric, parts",
    [
        ("1\n2\n", "0.5\nhigh\n", "mean", ["runs/A.1.tsv, line 3", "'high' is not a finite"]),
        ("4\n2\n", "1\n-1\n", "ratio", ["runs/A.1.tsv, line 3", "'-1' is negative"]),
        ("4\nfour\n", "1\n1\n", "ratio", ["gold.tsv, line 3", "'four' is not a number at least 0"]),
        ("0\n0\n", "1\n1\n", "ratio", ["sum to 0 over the test set"]),
    ],
)  # fmt: skip
def test_bad_item_scores(tmp_path, gold, run, metric, parts):
    write(
        tmp_path,
        "gold.tsv",
        "id\tv\n" + "".join(f"i{k}\t{v}\n" for k, v in enumerate(gold.split())),
    )
    runs = "".join(f"i{k}\t{v}\n" for k, v in enumerate(run.split()))
    write(tmp_path, "runs/A.1.tsv", "id\tv\n" + runs)
    one_error(report(tmp_path, "gold.tsv", "--runs", "runs", "--metric", metric), *parts)


@pytest.mark.parametrize(
    "entry, parts",
    [
        ('numerator = "error"', ["`numerator` 'error' is not a field", "did you mean 'errors'"]),
        ('numerator = "words"', ["`numerator` and `denominator` name one field"]),
        ('higher_is_better = "yes"', ["`higher_is_better` must be true or false"]),
    ],
)
def test_bad_ratio_parameters(tmp_path, entry, parts):
    write(tmp_path, "gold.tsv", "id\terrors\twords\na\t0\t3\nb\t0\t4\n")
    write(tmp_path, "runs/A.1.tsv", "id\terrors\twords\na\t1\t3\nb\t0\t4\n")
    write(
        tmp_path,
        "competition.toml",
        '[data]\ngold = "gold.tsv"\nruns = "runs"\nfields = ["errors", "words"]\n'
        f'[[metrics]]\nname = "ratio"\ndenominator = "words"\n{entry}\n',
    )
    one_error(report(tmp_path, "."), *parts)
