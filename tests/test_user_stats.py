"""User metrics in the statistics form (``score.stats``): the same numbers as the label form,
the randomization test, hostile returns, the display name, ``--missing wrong``; CLI and API.

The metric is the example of docs/metrics.md (``examples/user-metrics/morphemes.py``): a morpheme
F-measure on a segmentation task (SIGMORPHON 2022 style), in both forms in one file.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import compreport as cr
from tests.conftest import one_error, run_cli, said, write

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "user-metrics" / "morphemes.py"
STATS, LABELS = "morphemes.py:morpheme_f", "morphemes.py:morpheme_f_labels"


def segmentation_task(root: Path, n: int = 300, m: int = 6, seed: int = 7, skip=()) -> Path:
    """A segmentation task in the SIGMORPHON layout (``id<TAB>un @@break @@able``): gold.tsv and
    runs/team<s>.run1.tsv, system ``s`` dropping and adding morpheme boundaries at its own error
    rate; run 0 leaves out the items ``skip``. Returns the folder."""
    rng = np.random.default_rng(seed)
    letters = list("abcdefghijklmnoprstuvyzáéíóúčřšž")
    inventory = ["".join(rng.choice(letters, rng.integers(1, 6))) for _ in range(400)]
    gold = [[inventory[j] for j in rng.integers(0, 400, rng.integers(1, 5))] for _ in range(n)]
    lines = "".join(f"w{i}\t{' @@'.join(g)}\n" for i, g in enumerate(gold))
    write(root, "gold.tsv", "id\tsegmentation\n" + lines)
    for s in range(m):
        err = 0.05 + 0.4 * s / max(m - 1, 1)
        rows = []
        for i, g in enumerate(gold):
            word = "".join(g)
            cuts = [c for c in np.cumsum([len(x) for x in g])[:-1].tolist() if rng.random() > err]
            if len(word) > 1 and rng.random() < err:
                cuts.append(int(rng.integers(1, len(word))))
            cuts = sorted(set(cuts))
            parts = [word[a:b] for a, b in zip([0, *cuts], [*cuts, len(word)], strict=True)]
            if not (s == 0 and i in skip):
                rows.append(f"w{i}\t{' @@'.join(parts)}\n")
        write(root, f"runs/team{s}.run1.tsv", "id\tsegmentation\n" + "".join(rows))
    shutil.copy(EXAMPLE, root / "morphemes.py")
    return root


def morpheme_f(gold: list[str], pred: list[str]) -> float:
    """Morpheme F written here, independently of the example file: 2 right / (predicted + gold)
    over the multisets of morphemes, "" having none."""
    right = predicted = total = 0
    for g, p in zip(gold, pred, strict=True):
        g, p = Counter(g.replace("@@", " ").split()), Counter(p.replace("@@", " ").split())
        right += sum((g & p).values())
        predicted += sum(p.values())
        total += sum(g.values())
    return 2 * right / (predicted + total)


def read_tsv(path: Path) -> dict[str, str]:
    rows = path.read_text(encoding="utf-8").splitlines()[1:]
    return dict(row.split("\t") for row in rows)


def report(root: Path, metric: str, *args: str, B: int = 300):
    return run_cli(
        root,
        "report",
        "gold.tsv",
        "--runs",
        "runs",
        "--metric",
        metric,
        "-o",
        "out",
        "-B",
        str(B),
        "--seed",
        "3",
        "--format",
        "json",
        "--force",
        *args,
    )


def results(root: Path, res) -> dict:
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr
    return json.loads((root / "out" / "results.json").read_text(encoding="utf-8"))


def metrics_of(data: dict) -> list[dict]:
    return data["competitions"][0]["metrics"]


NUMBERS = ("score", "boot_mean", "se", "ci_low", "ci_high", "p_vs_best")
PAIR_NUMBERS = ("diff", "ci_low", "ci_high", "p_value", "p_maxt", "p_holm")


def _close(key: str, x, y) -> None:
    """Equal to 1e-12, or both None (NaN in results.json)."""
    if x is None or y is None:
        assert x is None and y is None, (key, x, y)
    else:
        assert abs(x - y) <= 1e-12, (key, x, y)


def assert_same_analysis(a: dict, b: dict) -> None:
    """Two metrics' entries of results.json hold the same numbers (1e-12) and verdicts."""
    assert [s["system"] for s in a["scores"]] == [s["system"] for s in b["scores"]]
    for x, y in zip(a["scores"], b["scores"], strict=True):
        for key in NUMBERS:
            _close(key, x[key], y[key])
        assert (x["group"], x["rank_low"], x["rank_high"]) == (
            y["group"],
            y["rank_low"],
            y["rank_high"],
        )
    for x, y in zip(a["pairs"], b["pairs"], strict=True):
        assert (x["a"], x["b"], x["significant"]) == (y["a"], y["b"], y["significant"])
        for key in PAIR_NUMBERS:
            _close(key, x[key], y[key])


@pytest.fixture(scope="module")
def task(tmp_path_factory) -> Path:
    return segmentation_task(tmp_path_factory.mktemp("segs"))


def test_example_file_scores_as_written_here(task):
    """Both forms of the example give the morpheme F of an independent implementation on the
    full data (the point scores of ``validate``, no bootstrap)."""
    gold = read_tsv(task / "gold.tsv")
    expected = {
        f"team{s}.run1": morpheme_f(
            list(gold.values()), [read_tsv(task / f"runs/team{s}.run1.tsv")[i] for i in gold]
        )
        for s in range(6)
    }
    for metric in (STATS, LABELS):
        data = results(task, report(task, metric, B=0))
        got = {s["system"]: s["score"] for s in metrics_of(data)[0]["scores"]}
        assert got.keys() == expected.keys()
        for system, value in expected.items():
            assert abs(got[system] - value) <= 1e-12, (metric, system)


@pytest.mark.parametrize("ci", ["percentile", "bca"])
def test_stats_form_equals_label_form_through_the_cli(task, ci):
    """The statistics form, run on its own, gives the label form's scores, intervals, p-values,
    groups and rank sets to 1e-12, from the same resamples (percentile and BCa, whose jackknife
    leaves each item out)."""
    fast = metrics_of(results(task, report(task, STATS, "--ci", ci)))[0]
    slow = metrics_of(results(task, report(task, LABELS, "--ci", ci)))[0]
    assert fast["label"] == slow["label"] == "morpheme F"
    assert_same_analysis(fast, slow)


def test_stats_form_equals_label_form_through_the_api(task):
    """The same through ``cr.load``/``cr.analyze``: one analysis with both forms, and the
    leaderboard names the metric by its display name."""
    data = cr.load(
        str(task / "gold.tsv"),
        runs=str(task / "runs"),
        metrics=[str(task / STATS), str(task / LABELS)],
    )
    analysis = cr.analyze(data, bootstrap=300, seed=5, progress=False)
    fast, slow = analysis.competition().metrics
    assert fast.label == slow.label == "morpheme F"
    d = analysis.to_dict()["competitions"][0]["metrics"]
    assert_same_analysis(d[0], d[1])
    assert np.allclose(fast.replicates, slow.replicates, rtol=0, atol=1e-12)
    board = cr.Report(analysis).to_markdown("leaderboard")
    assert "morpheme F" in board and "morpheme_f" not in board


TOKEN_ACCURACY = """\
import numpy as np

def right(gold, pred):
    return np.stack([gold == pred, np.ones(len(gold))], axis=1)

def accuracy(sums):
    return sums[0] / sums[1]

accuracy.stats = right
"""


def test_randomization_test_works_and_matches_the_builtin(tmp_path):
    """``--test randomization`` with a stats-form metric: token accuracy written as a user metric
    gets the p-values of the built-in ``accuracy`` in the same run (the same swaps) to 1e-12,
    vectorised or not; the label form is still refused, with one error."""
    segmentation_task(tmp_path, n=200, m=5)
    write(tmp_path, "acc.py", TOKEN_ACCURACY)
    write(
        tmp_path,
        "vacc.py",
        TOKEN_ACCURACY.replace("sums[0] / sums[1]", "sums[..., 0] / sums[..., 1]")
        + "accuracy.vectorized = True\n",
    )
    res = report(tmp_path, "accuracy,acc.py:accuracy,vacc.py:accuracy", "--test", "randomization")
    builtin, user, vectorised = metrics_of(results(tmp_path, res))
    assert builtin["verdicts"]["correction"] == user["verdicts"]["correction"]
    assert_same_analysis(builtin, user)
    assert_same_analysis(builtin, vectorised)
    assert any(c["p_value"] < 0.05 for c in user["pairs"])  # the test can reject
    res = report(tmp_path, LABELS, "--test", "randomization")
    one_error(res, "--test randomization", "morphemes.py:morpheme_f_labels")


def test_randomization_through_the_api(task):
    """The randomization test from the API: every pair has a p-value of R rounds, and the best
    and the worst systems (F far apart) are never reached by a swap: p = 1 / (R + 1)."""
    data = cr.load(str(task / "gold.tsv"), runs=str(task / "runs"), metrics=str(task / STATS))
    analysis = cr.analyze(data, bootstrap=400, seed=1, test="randomization", progress=False)
    ma = analysis.competition().metrics[0]
    assert ma.verdicts["resamples"] == 400
    for c in ma.pairs:
        assert 1 / 401 <= c.p_value <= 1.0
    best, worst = ma.scores[0].system, ma.scores[-1].system
    assert ma.pair(best, worst)[0].p_value == pytest.approx(1 / 401)  # never reached by chance


def _hostile(tmp: Path, code: str, *needles: str) -> str:
    """``m.py`` holding ``code`` (a metric ``f``): one error line holding ``needles``, exit 2,
    nothing written."""
    write(tmp, "m.py", "import numpy as np\n" + code)
    res = report(tmp, "m.py:f", B=20)
    line = one_error(res, *needles)
    assert res.stdout == "" and not (tmp / "out").exists()
    return line


COUNTS = "def s(gold, pred):\n    return np.stack([gold == pred, np.ones(len(gold))], axis=1)\n"
SCORE = "def f(sums):\n    return sums[0] / sums[1]\n"


@pytest.mark.parametrize(
    "code, needles",
    [
        (
            "def s(gold, pred):\n    return np.ones((len(gold) + 1, 2))\n"
            + SCORE
            + "f.stats = s\n",
            ["'m.py:f'", "stats function 's'", "shape (301, 2)", "n = 300"],
        ),
        (
            "def s(gold, pred):\n    return np.ones((len(gold), 2, 1))\n" + SCORE + "f.stats = s\n",
            ["'m.py:f'", "shape (300, 2, 1)"],
        ),
        (
            "def s(gold, pred):\n    return np.ones((len(gold), 0))\n" + SCORE + "f.stats = s\n",
            ["'m.py:f'", "k >= 1"],
        ),
        (
            "def s(gold, pred):\n    return pred[:, None]\n" + SCORE + "f.stats = s\n",
            ["'m.py:f'", "statistics must be numbers"],
        ),
        (
            "def s(gold, pred):\n    return None\n" + SCORE + "f.stats = s\n",
            ["'m.py:f'", "None", "statistics must be numbers"],
        ),
        (
            "def s(gold, pred):\n    return [[1.0], [1.0, 2.0]] * (len(gold) // 2)\n"
            + SCORE
            + "f.stats = s\n",
            ["'m.py:f'", "no array"],
        ),
        (
            "def s(gold, pred):\n    out = np.ones((len(gold), 2))\n    out[7, 1] = np.nan\n"
            "    return out\n" + SCORE + "f.stats = s\n",
            ["'m.py:f'", "nan", "item 'w7' (statistic 1)", "finite"],
        ),
        (
            "def s(gold, pred):\n    return np.full((len(gold), 1), np.inf)\n"
            + SCORE.replace("sums[0] / sums[1]", "sums[0]")
            + "f.stats = s\n",
            ["'m.py:f'", "inf", "item 'w0'"],
        ),
        (
            "def s(gold, pred):\n    raise KeyError('lemma')\n" + SCORE + "f.stats = s\n",
            ["'m.py:f'", "stats function 's' failed on system 'team0.run1'", "KeyError"],
        ),
        (
            "calls = []\ndef s(gold, pred):\n    calls.append(1)\n"
            "    return np.ones((len(gold), len(calls)))\n" + SCORE + "f.stats = s\n",
            ["'m.py:f'", "2 statistics per item for system 'team1.run1' but 1"],
        ),
        (
            COUNTS + "def f(sums):\n    return float('nan')\nf.stats = s\n",
            ["'m.py:f' returned nan", "must return a finite number"],
        ),
        (
            COUNTS + "def f(sums):\n    return 'high'\nf.stats = s\n",
            ["'m.py:f' returned 'high' (str)", "real number"],
        ),
        (
            COUNTS + "def f(sums):\n    raise ZeroDivisionError('no items')\nf.stats = s\n",
            ["'m.py:f' failed on the summed statistics", "ZeroDivisionError"],
        ),
        (
            COUNTS + SCORE + "f.stats = s\nf.vectorized = True\n",
            ["'m.py:f' is declared vectorized", "shape"],
        ),
        (
            COUNTS + "def f(sums):\n    return sums.sum(axis=-1)[..., :1]\n"
            "f.stats = s\nf.vectorized = True\n",
            ["'m.py:f' is declared vectorized", "must return numbers of shape"],
        ),
        (COUNTS + SCORE + "f.stats = 3\n", ["m.py", "f.stats must be a function"]),
        (COUNTS + SCORE + "f.stats = s\nf.vectorized = 'yes'\n", ["f.vectorized must be True"]),
        (COUNTS + SCORE + "f.stats = s\nf.display_name = ''\n", ["f.display_name must be"]),
        (COUNTS + SCORE + "f.stats = s\nf.display_name = 'a\\nb'\n", ["f.display_name must be"]),
        (COUNTS + SCORE + "f.stats = s\nf.display_name = 7\n", ["f.display_name must be"]),
    ],
    ids=[
        "rows",
        "3d",
        "k0",
        "text",
        "none",
        "ragged",
        "nan-stat",
        "inf-stat",
        "stats-raises",
        "k-varies",
        "nan-score",
        "str-score",
        "score-raises",
        "not-vectorised",
        "vector-shape",
        "stats-not-callable",
        "vectorized-not-bool",
        "empty-name",
        "newline-name",
        "int-name",
    ],
)
def test_hostile_returns_are_one_error(tmp_path, code, needles):
    """Every hostile declaration or return of the statistics form is one ``error:`` line naming
    the metric (file and function), exit 2, nothing written."""
    segmentation_task(tmp_path)
    _hostile(tmp_path, code, *needles)


def test_well_behaved_twin_of_the_hostile_metrics(tmp_path):
    """The twin of the hostile cases: the same file, well formed (a bool column, a (k,) row
    scored one at a time), reports token accuracy, whose scores are counted here."""
    segmentation_task(tmp_path)
    write(tmp_path, "m.py", "import numpy as np\n" + COUNTS + SCORE + "f.stats = s\n")
    data = results(tmp_path, report(tmp_path, "m.py:f", B=20))
    gold = read_tsv(tmp_path / "gold.tsv")
    for s in metrics_of(data)[0]["scores"]:
        run = read_tsv(tmp_path / "runs" / f"{s['system']}.tsv")
        assert s["score"] == pytest.approx(np.mean([run[i] == gold[i] for i in gold]), abs=1e-12)


def test_display_name_in_latex_and_html(tmp_path):
    """The display name is what captions, table headers and the HTML show; the path as typed
    appears in no LaTeX file and in no HTML heading or table (files keep the metric id)."""
    root = segmentation_task(tmp_path, n=120, m=4)
    res = run_cli(
        root,
        "report",
        "gold.tsv",
        "--runs",
        "runs",
        "--metric",
        STATS,
        "-o",
        "out",
        "-B",
        "50",
        "--format",
        "latex,html",
    )
    assert res.returncode == 0, res.stderr
    tex = {p: p.read_text(encoding="utf-8") for p in (root / "out").rglob("*.tex")}
    assert any("morpheme F" in text and "\\caption" in text for text in tex.values())
    for path, text in tex.items():
        assert "morphemes.py" not in text and "morpheme\\_f" not in text, path
    (folder,) = [p.parent for p in (root / "out").glob("*/report.html")]
    leaderboard = (folder / "tables" / "leaderboard.tex").read_text(encoding="utf-8")
    assert "ranked by morpheme F" in leaderboard
    html = (folder / "report.html").read_text(encoding="utf-8")
    assert '<th class="num">morpheme F</th>' in html
    assert "ranked by morpheme F" in html
    assert '<th class="num">morphemes.py' not in html
    data = json.loads((root / "out" / "results.json").read_text(encoding="utf-8"))
    assert metrics_of(data)[0]["name"] == STATS and metrics_of(data)[0]["label"] == "morpheme F"
    # read back: the report rendered from results.json shows the same name
    back = cr.Analysis.read(root / "out" / "results.json")
    assert back.competition().metrics[0].label == "morpheme F"


def test_missing_wrong_passes_empty_predictions(tmp_path):
    """``--missing wrong``: the items a run leaves out reach both forms as "" (no morphemes: all
    of that item's gold morphemes missed), and both give the independent morpheme F with "" for
    them, the same intervals; without it, the missing items are one error."""
    skip = {3, 50, 51, 299}
    root = segmentation_task(tmp_path, skip=skip)
    gold = read_tsv(root / "gold.tsv")
    run = read_tsv(root / "runs" / "team0.run1.tsv")
    expected = morpheme_f(list(gold.values()), [run.get(i, "") for i in gold])
    fast = metrics_of(results(root, report(root, STATS, "--missing", "wrong")))[0]
    slow = metrics_of(results(root, report(root, LABELS, "--missing", "wrong")))[0]
    got = {s["system"]: s["score"] for s in fast["scores"]}
    assert abs(got["team0.run1"] - expected) <= 1e-12
    assert_same_analysis(fast, slow)
    data = cr.load(
        str(root / "gold.tsv"), runs=str(root / "runs"), metrics=str(root / STATS), missing="wrong"
    )
    with pytest.warns(cr.errors.InputWarning, match="4 missing prediction"):
        analysis = cr.analyze(data, bootstrap=0, progress=False)
    (score,) = [s.score for s in analysis.competition().primary.scores if s.system == "team0.run1"]
    assert abs(score - expected) <= 1e-12
    res = report(root, STATS)
    assert res.returncode == 2 and "team0.run1" in said(res.stderr)[0]


MUTATING = """\
import numpy as np

def right(gold, pred):
    out = np.stack([gold == pred, np.ones(len(gold))], axis=1)
    gold[:] = pred  # writes into its arguments: the next system must still see the gold
    return out

def accuracy(sums):
    sums[0] = sums[0] / sums[1]  # and into the sums
    sums[1] = -1.0
    return sums[0]

accuracy.stats = right
"""


@pytest.mark.parametrize("vectorized", [False, True], ids=["rows", "vectorised"])
def test_metric_writing_into_its_arguments_changes_nothing(tmp_path, vectorized):
    """A stats function that overwrites the gold it is given, and a score that overwrites the
    sums: the analysis is the built-in accuracy's (BCa, whose jackknife reuses the full data's
    sums, and the randomization test, which reuses them too)."""
    segmentation_task(tmp_path, n=150, m=4)
    code = MUTATING
    if vectorized:
        code = code.replace("sums[0]", "sums[..., 0]").replace("sums[1]", "sums[..., 1]")
        code += "accuracy.vectorized = True\n"
    write(tmp_path, "w.py", code)
    for test in ("bootstrap", "randomization"):
        res = report(tmp_path, "accuracy,w.py:accuracy", "--ci", "bca", "--test", test, B=200)
        builtin, user = metrics_of(results(tmp_path, res))
        assert_same_analysis(builtin, user)
