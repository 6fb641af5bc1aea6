"""Shared test helpers: build a Competition straight from arrays (no files); the end-to-end
workshop."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

# One BLAS thread, here and in every `python -m compreport` the tests start (they inherit the
# environment): the suite's matrices are small, and OpenBLAS's idle threads spin on the 2 shared
# cores (about a quarter of an analysis's CPU time). Set before numpy is imported; a value
# already in the environment wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from compreport.inputs.competition import Competition, MetricSpec  # noqa: E402
from compreport.resources import demo_workshop_dir  # noqa: E402
from compreport.stats import resampling as bootstrap  # noqa: E402
from compreport.stats.metrics import get_metric  # noqa: E402


def make_competition(gold, predictions, systems=None, metrics=None, fields=None, cid="t"):
    """A :class:`Competition` from arrays of values.

    ``gold``: (n,) or (n, F); ``predictions``: (m, n) or (m, n, F); values become strings,
    as the loaders give them. ``metrics``: names or :class:`MetricSpec` (default accuracy).
    """
    gold = np.asarray(gold).astype(str)
    predictions = np.asarray(predictions).astype(str)
    if gold.ndim == 1:
        gold = gold[:, None]
    if predictions.ndim == 2:
        predictions = predictions[:, :, None]
    n, f = gold.shape
    m = predictions.shape[0]
    assert predictions.shape == (m, n, f), (predictions.shape, gold.shape)
    systems = list(systems) if systems is not None else [f"s{i}" for i in range(m)]
    metrics = [x if isinstance(x, MetricSpec) else MetricSpec(x) for x in (metrics or ["accuracy"])]
    fields = (
        list(fields)
        if fields is not None
        else (["label"] if f == 1 else [f"f{j}" for j in range(f)])
    )
    return Competition(
        id=cid,
        name=cid,
        gold=gold,
        predictions=predictions,
        systems=systems,
        item_ids=np.arange(n).astype(str),
        metrics=metrics,
        fields=fields,
    )


def prepare(comp, name, **params):
    """``get_metric(name).prepare(comp, params)``."""
    return get_metric(name).prepare(comp, dict(params))


def observed(comp, name, **params):
    """Full-data scores (m,) of one metric, through the engine (B=0)."""
    p = prepare(comp, name, **params)
    res = bootstrap.run([p], comp.n, comp.m, B=0, seed=0, progress=False)
    assert res.replicates[0].shape == (0, comp.m)
    return res.observed[0]


def engine_on(p, idx):
    """Scores (m,) of prepared metric ``p`` on the resample ``idx`` (int array, repeats allowed).

    Decomposable metrics: sum the per-item statistics of the rows ``idx`` and finalize,
    as the engine does; others: ``p.evaluate(idx)``.
    """
    idx = np.asarray(idx, dtype=np.int64)
    if not p.decomposable:
        return np.asarray(p.evaluate(idx), dtype=float)
    shared, per = p.stats(p.columns[idx])
    return np.asarray(p.finalize(shared.sum(0), per.sum(0), float(len(idx))), dtype=float)


@pytest.fixture
def competition_factory():
    return make_competition


def json_only(cid: str, metrics: tuple[str, ...] = ("accuracy",)) -> list[str]:
    """The files (sorted, '/'-separated) a ``--format json`` report of one competition ``cid`` with
    several systems writes: results.json and the exports (:mod:`compreport.report.exports`), with a
    ``pairs-<stem>.csv`` per metric (``metrics``: their file stems)."""
    return sorted(
        [
            "results.json",
            f"{cid}/leaderboard.csv",
            f"{cid}/leaderboard.md",
            "summary/summary.csv",
            *(f"{cid}/pairs-{m}.csv" for m in metrics),
        ]
    )


def json_only_top(cid: str) -> list[str]:
    """The top-level names of OUT after a ``--format json`` report of one competition ``cid``."""
    return sorted([".compreport.json", cid, "results.json", "summary"])


#: The run warning of a competition of fewer than 100 items under the bootstrap test (its measured
#: size): the tests' tiny data sets all get it, so tests of other messages read stderr without it.
SMALL_SAMPLE_WARNING = "the bootstrap test's verdicts are liberal"


def said(stderr: str) -> list[str]:
    """The non-empty lines of ``stderr`` but the small-sample warning
    (:data:`SMALL_SAMPLE_WARNING`, tested in tests/test_small_samples.py)."""
    return [x for x in stderr.splitlines() if x.strip() and SMALL_SAMPLE_WARNING not in x]


def one_error(res, *parts: str) -> str:
    """The single ``error:`` line of a run that exited with status 2, holding every part."""
    assert res.returncode == 2, (res.stdout, res.stderr)
    assert "Traceback" not in res.stderr, res.stderr
    lines = said(res.stderr)
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    for part in parts:
        assert part in lines[0], (part, lines[0])
    return lines[0]


def run_cli(cwd, *args: str) -> subprocess.CompletedProcess:
    """``compreport ARGS`` run in this process from ``cwd``, as a CompletedProcess (exit status,
    stdout, stderr text): the same ``main()`` a shell runs, without paying ~1 s of imports per call.
    Every warning is shown (as the command line shows it); the working directory is restored. Tests
    of what only a separate process can show (signals, ``sys.exit`` in a user metric,
    process-substitution pipes, interpreter start-up) start a real process instead."""
    import contextlib
    import io
    import subprocess
    import warnings

    from compreport.cli import main

    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        with (
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
            warnings.catch_warnings(),
        ):
            warnings.simplefilter("always")
            try:
                status = main(list(args))
            except SystemExit as exc:  # argparse's --help/--version, or a parse error
                status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    finally:
        os.chdir(here)
    return subprocess.CompletedProcess(
        ["compreport", *args], status, out.getvalue(), err.getvalue()
    )


#: The demo's detox-binary runs kept in the end-to-end workshop: the hostile names, both
#: baselines and a team with two runs (one letter).
DETOX_RUNS = (
    "ToxiHunters.01",
    "ToxiHunters.02",
    "R&D_team.01",
    "100%Tox.01",
    "Álvarez-UNED.01",
    "Team 42.01",
    "baseline.majority",
    "baseline.svm",
)


#: The demo's stance-eu runs kept: one per team.
STANCE_RUNS = ("Iruñea-HLT.01", "MultiHizkuntza.01", "TxertoNLP.01")


@pytest.fixture(scope="module")
def two_competitions(tmp_path_factory) -> Path:
    """A workshop of two demo competitions, copied to a temp dir: detox-binary cut to its
    hostile-named runs, both baselines and its first 400 items (both metrics), stance-eu to a run
    per team and its first metric (macro-F1 over two of three labels). Every format is rendered
    twice below; the full demo would spend most of the suite's time drawing and typesetting."""
    root = tmp_path_factory.mktemp("ws")
    src = demo_workshop_dir()
    stance = root / "stance-eu"
    (stance / "runs").mkdir(parents=True)
    shutil.copy(src / "stance-eu" / "gold.tsv", stance)
    for run in STANCE_RUNS:
        shutil.copy(src / "stance-eu" / "runs" / f"{run}.tsv", stance / "runs")
    toml = (src / "stance-eu" / "competition.toml").read_text(encoding="utf-8")
    first, second = toml.split('[[metrics]]\nname = "accuracy"')  # the second metric block, dropped
    assert 'name = "macro_f1"' in first and not second.strip()
    (stance / "competition.toml").write_text(first, encoding="utf-8")
    detox = root / "detox-binary"
    (detox / "runs").mkdir(parents=True)
    shutil.copy(src / "detox-binary" / "competition.toml", detox)
    gold = (
        (src / "detox-binary" / "gold.tsv")
        .read_text(encoding="utf-8")
        .splitlines(keepends=True)[:401]
    )
    (detox / "gold.tsv").write_text("".join(gold), encoding="utf-8")
    ids = {line.split("\t")[0] for line in gold[1:]}
    for run in DETOX_RUNS:
        lines = (
            (src / "detox-binary" / "runs" / f"{run}.tsv")
            .read_text(encoding="utf-8")
            .splitlines(keepends=True)
        )
        kept = [line for line in lines if line.split("\t")[0] in ids | {"id"}]  # the header, if any
        (detox / "runs" / f"{run}.tsv").write_text("".join(kept), encoding="utf-8")
    (root / "workshop.toml").write_text(
        'name = "Mini workshop"\n\n[[competitions]]\nspec = "detox-binary"\n\n'
        '[[competitions]]\nspec = "stance-eu"\n',
        encoding="utf-8",
    )
    return root


def words_beyond_margins(pdf: Path, margin_mm: float = 14.0) -> list[tuple[int, str, float]]:
    """Words of ``pdf`` (pdftotext -bbox) that reach into the left or right page margin of
    ``margin_mm`` (the print CSS's; 0.5 pt of slack): ``(page, word, points beyond)``; a table wider
    than the page shows up here."""
    import re
    import subprocess

    out = subprocess.run(
        ["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    margin, bad = margin_mm * 72 / 25.4, []
    for k, page in enumerate(out.split("<page ")[1:], 1):
        width = float(re.search(r'width="([\d.]+)"', page)[1])
        words = (
            r'<word xMin="(-?[\d.]+)" yMin="-?[\d.]+" xMax="(-?[\d.]+)" yMax="-?[\d.]+">'
            r"([^<]*)</word>"
        )
        for x0, x1, word in re.findall(words, page):
            beyond = max(float(x1) - (width - margin), margin - float(x0))
            if beyond > 0.5:
                bad.append((k, word, round(beyond, 1)))
    return bad


# ------------------------------------------------------------------ a tiny task written to files
#: The four-item task of the input tests: a gold file with ids, a run with a header, a run
#: without one, and the spec that reads them.
GOLD = "id\tlabel\n1\ta\n2\tb\n3\ta\n4\tb\n"
RUN_A = "id\tlabel\n1\ta\n2\tb\n3\ta\n4\ta\n"
RUN_B = "1\ta\n2\ta\n3\ta\n4\tb\n"
COMP = (
    'name = "C1"\nlanguage = "en"\n[data]\ngold = "gold.tsv"\nruns = "runs"\n'
    '[[metrics]]\nname = "accuracy"\n'
)


def write(tmp: Path, name: str, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``tmp/name``, making its folders."""
    path = tmp / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def layout(tmp: Path, **runs: str) -> None:
    """gold.tsv plus runs/<name>.tsv (sysA and sysB unless replaced)."""
    write(tmp, "gold.tsv", GOLD)
    for name, text in ({"sysA": RUN_A, "sysB": RUN_B} | runs).items():
        write(tmp, f"runs/{name}.tsv", text)


def write_binary_task(root: Path, runs: dict[str, float], n: int = 200, seed: int = 3) -> Path:
    """A binary task written to files: ``root/gold.tsv`` (``n`` items) and ``root/runs/<name>.tsv``
    for each of ``runs``, right with about its accuracy (drawn from ``seed``); returns the gold
    file."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 2, n)
    (root / "runs").mkdir(parents=True, exist_ok=True)
    (root / "gold.tsv").write_text(
        "id\tlabel\n" + "".join(f"{i}\t{g}\n" for i, g in enumerate(gold))
    )
    for name, acc in runs.items():
        pred = np.where(rng.random(n) < acc, gold, 1 - gold)
        (root / "runs" / f"{name}.tsv").write_text(
            "id\tlabel\n" + "".join(f"{i}\t{p}\n" for i, p in enumerate(pred))
        )
    return root / "gold.tsv"
