"""The cluster (grouped) bootstrap: items sharing a cluster are resampled together.

Checked replicate by replicate: with one item per cluster it is the item bootstrap; with real
clusters every replicate equals scikit-learn on the items of the drawn clusters, and every
randomization p-value equals a plain loop that swaps whole clusters. Clusters that make items
alike (an easy or a hard question for every system) widen the intervals, as they must.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as sk

import compreport as cr
from compreport.errors import InputError
from compreport.inputs.clusters import Clusters
from compreport.stats import resampling as bootstrap
from compreport.stats.resampler import Resampler, competition_key
from conftest import make_competition, prepare, run_cli

KEY = competition_key("clusters-test")


def _competition(n=72, seed=3):
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 3, n)
    preds = np.stack(
        [np.where(rng.random(n) < q, rng.integers(0, 3, n), gold) for q in (0.2, 0.35, 0.5)]
    )
    return make_competition(gold, preds, metrics=["accuracy", "macro_f1"]), gold, preds


def test_one_item_per_cluster_is_the_item_bootstrap():
    """Clusters of one item: the same replicates, bit for bit, for every engine and a metric
    evaluated per resample (spearman), and the same BCa jackknife (leave one item out)."""
    comp, gold, preds = _competition()
    n = comp.n
    singletons = Clusters.from_labels([f"q{i}" for i in range(n)])
    for engine in ("dense", "cells"):
        p = [prepare(comp, "accuracy"), prepare(comp, "macro_f1")]
        kw = dict(B=300, seed=5, key=KEY, engine=engine, jackknife=True, progress=False)
        items = bootstrap.run(p, n, comp.m, mode="items", **kw)
        grouped = bootstrap.run(p, n, comp.m, clusters=singletons, **kw)
        assert grouped.mode == "clusters" and grouped.clusters == n and grouped.engine == engine
        for a, b in zip(items.replicates, grouped.replicates, strict=True):
            assert np.array_equal(a, b)
        for (va, wa), (vb, wb) in zip(items.jackknife, grouped.jackknife, strict=True):
            # the item jackknife groups equal items (weights), the cluster one lists each item
            assert np.allclose(
                np.average(va, axis=0, weights=wa), np.average(vb, axis=0, weights=wb)
            )
    numeric = make_competition(
        np.round(np.linspace(0, 1, n) ** 2, 3),
        [np.round(np.linspace(0, 1, n) + 0.1 * np.sin(np.arange(n) * k), 3) for k in (1, 2)],
        metrics=["spearman"],
    )
    p = [prepare(numeric, "spearman")]
    items = bootstrap.run(p, n, 2, B=120, seed=2, key=KEY, mode="items", progress=False)
    grouped = bootstrap.run(p, n, 2, B=120, seed=2, key=KEY, clusters=singletons, progress=False)
    assert np.array_equal(items.replicates[0], grouped.replicates[0])


def test_every_replicate_is_the_metric_on_the_drawn_clusters_items():
    comp, gold, preds = _competition(n=60)
    labels = [
        f"q{i // 5}" if i < 40 else f"q{i}" for i in range(comp.n)
    ]  # clusters of 5 items and of 1
    clusters = Clusters.from_labels(labels, "question")
    assert clusters.count == 8 + 20 and clusters.sizes.tolist()[:8] == [5] * 8
    p = [prepare(comp, "accuracy"), prepare(comp, "macro_f1")]
    B = 40
    res = bootstrap.run(p, comp.n, comp.m, B=B, seed=9, key=KEY, clusters=clusters, progress=False)
    plan = Resampler(comp.n, B, 9, KEY, clusters.count)
    r = 0
    for k, _ in enumerate(plan.blocks()):
        for draw in plan.indices(k):
            rows = clusters.items(draw)
            assert len(rows) == clusters.sizes[draw].sum()
            for s in range(comp.m):
                g, q = gold[rows].astype(str), preds[s, rows].astype(str)
                assert res.replicates[0][r, s] == pytest.approx(sk.accuracy_score(g, q), abs=1e-12)
                assert res.replicates[1][r, s] == pytest.approx(
                    sk.f1_score(g, q, labels=["0", "1", "2"], average="macro", zero_division=0),
                    abs=1e-12,
                )
            r += 1
    assert r == B


def test_randomization_swaps_whole_clusters():
    """Every p-value equals a plain loop: in round r the clusters the plan flips swap the two
    systems' predictions of all their items; p = (1 + #{|d_r| >= |d|}) / (R + 1)."""
    comp, gold, preds = _competition(n=48)
    clusters = Clusters.from_labels([i // 4 for i in range(comp.n)])
    R = 200
    res = bootstrap.run(
        [prepare(comp, "accuracy")],
        comp.n,
        comp.m,
        B=R,
        seed=4,
        key=KEY,
        clusters=clusters,
        randomization=True,
        progress=False,
    )
    a, b = np.array([0, 0, 1]), np.array([1, 2, 2])
    got = res.randomization_p(0, a, b)
    plan = Resampler(comp.n, R, 4, KEY, clusters.count)
    flips = np.vstack([plan.cluster_swaps(k) for k, _ in enumerate(plan.blocks())])[
        :, clusters.codes
    ].astype(bool)
    right = preds == gold
    for j, (x, y) in enumerate(zip(a, b, strict=True)):
        observed = abs(right[x].mean() - right[y].mean())
        rx = np.where(flips, right[y], right[x]).mean(axis=1)
        ry = np.where(flips, right[x], right[y]).mean(axis=1)
        hits = (np.abs(rx - ry) >= observed - 1e-10).sum()
        assert got[j] == pytest.approx((1 + hits) / (R + 1), abs=1e-12)


def _questions(G=40, k=8, seed=0):
    """G questions of k answers each; a question is easy or hard for every system alike."""
    rng = np.random.default_rng(seed)
    n = G * k
    q = np.repeat(np.arange(G), k)
    gold = rng.integers(0, 2, n)
    hard = np.repeat(rng.random(G) < 0.5, k)
    df = pd.DataFrame(
        {"id": [f"a{i}" for i in range(n)], "y": gold, "question": [f"Q{i:02d}" for i in q]}
    )
    for s, base in (("A", 0.85), ("B", 0.8), ("C", 0.7)):
        df[s] = np.where(rng.random(n) < np.where(hard, base - 0.3, base + 0.1), gold, 1 - gold)
    return df


def test_correlated_clusters_give_wider_intervals():
    df = _questions()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        flat = cr.analyze(
            cr.from_frame(df.drop(columns="question"), id="id"), bootstrap=2000, seed=1
        )
        grouped = cr.analyze(cr.from_frame(df, id="id", cluster="question"), bootstrap=2000, seed=1)
    a, b = flat.leaderboard().set_index("system"), grouped.leaderboard().set_index("system")
    assert list(b.index) == ["A", "B", "C"] and np.allclose(a["score"], b["score"])
    width = lambda t: t["ci_high"] - t["ci_low"]  # noqa: E731
    assert (width(b) > 1.4 * width(a)).all(), (width(a), width(b))
    comp = grouped.competitions[0]
    assert comp.clusters == {"column": "question", "clusters": 40, "items": 320}
    assert comp.engine["resampling"] == "clusters"
    assert flat.competitions[0].clusters is None
    assert cr.Analysis.from_dict(grouped.to_dict()).competitions[0].clusters == comp.clusters


def _files(tmp_path, df):
    (tmp_path / "runs").mkdir()
    df[["id", "question", "y"]].rename(columns={"y": "label"}).to_csv(
        tmp_path / "qa.tsv", sep="\t", index=False
    )
    for s in ("A", "B", "C"):
        df[["id", s]].rename(columns={s: "label"}).to_csv(
            tmp_path / "runs" / f"{s}.tsv", sep="\t", index=False
        )


def test_gold_file_column_wide_table_and_spec_give_the_same_numbers(tmp_path):
    df = _questions(G=12, k=5)
    _files(tmp_path, df)
    # the same stream key, qa, in the three layouts: the files' names and the spec's id
    df.to_csv(tmp_path / "qa.csv", index=False)
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "competition.toml").write_text(
        'id = "qa"\n[data]\ngold = "../qa.tsv"\nruns = "../runs"\nlabel_col = "label"\n'
        'cluster = "question"\n[[metrics]]\nname = "accuracy"\n',
        encoding="utf-8",
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        runs = cr.load(
            tmp_path / "qa.tsv",
            runs=tmp_path / "runs",
            metrics="accuracy",
            cluster_col="question",
            label_col="label",
        )
        by_position = cr.load(
            tmp_path / "qa.tsv",
            runs=tmp_path / "runs",
            metrics="accuracy",
            cluster_col=2,
            label_col="label",
        )
        wide = cr.load(tmp_path / "qa.csv", metrics="accuracy", id="id", cluster_col="question")
        spec = cr.load(tmp_path / "c")
    for data in (runs, by_position, wide, spec):
        (comp,) = data.competitions
        assert sorted(comp.systems) == ["A", "B", "C"] and comp.clusters.count == 12
        assert comp.clusters.column == "question" and comp.clusters.sizes.tolist() == [5] * 12
    with pytest.warns(UserWarning, match="only 12 clusters"):  # fewer than FEW_CLUSTERS: a note
        boards = [
            cr.analyze(d, bootstrap=300, seed=3).leaderboard()[["system", "ci_low", "ci_high"]]
            for d in (runs, wide, spec)
        ]
    for board in boards[1:]:
        pd.testing.assert_frame_equal(boards[0], board)


def test_cli_states_the_unit_in_results_json(tmp_path):
    _files(tmp_path, _questions(G=10, k=4))
    res = run_cli(
        tmp_path,
        "report",
        "qa.tsv",
        "--runs",
        "runs",
        "--label-col",
        "label",
        "--metric",
        "accuracy",
        "--cluster-col",
        "question",
        "-B",
        "200",
        "--format",
        "json",
        "-o",
        "out",
        "-q",
    )
    assert res.returncode == 0, res.stderr
    (comp,) = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))[
        "competitions"
    ]
    assert comp["clusters"] == {"column": "question", "clusters": 10, "items": 40}


@pytest.mark.parametrize(
    "edit, args, words",
    [
        (None, ("--cluster-col", "topic"), "qa.tsv, line 1: no column 'topic' for --cluster-col"),
        (
            "blank",
            ("--cluster-col", "question"),
            "qa.tsv, line 4, column 'question': blank cluster",
        ),
        ("single", ("--cluster-col", "question"), "names a single cluster, 'Q00'"),
        (None, ("--cluster-col", "0"), "--cluster-col"),
    ],
)
def test_bad_cluster_column_is_one_error(tmp_path, edit, args, words):
    df = _questions(G=6, k=3)
    if edit == "blank":
        df.loc[2, "question"] = ""
    if edit == "single":
        df["question"] = "Q00"
    _files(tmp_path, df)
    res = run_cli(
        tmp_path,
        "report",
        "qa.tsv",
        "--runs",
        "runs",
        "--label-col",
        "label",
        "--metric",
        "accuracy",
        *args,
        "-B",
        "50",
        "--format",
        "json",
        "-o",
        "out",
    )
    lines = [x for x in res.stderr.splitlines() if x.strip()]
    assert res.returncode == 2 and len(lines) == 1 and lines[0].startswith("error:"), res.stderr
    assert words in lines[0], lines[0]
    assert not (tmp_path / "out").exists()


def _readme_files(tmp_path, df):
    """README's cluster example: a gold with the header ``id question label`` and runs in the four
    shapes README allows: with or without a header, with or without the question column (one of
    them placed after the label)."""
    (tmp_path / "runs").mkdir()
    df[["id", "question", "y"]].rename(columns={"y": "label"}).to_csv(
        tmp_path / "qa.tsv", sep="\t", index=False
    )
    runs = tmp_path / "runs"
    df[["id", "A"]].rename(columns={"A": "label"}).to_csv(runs / "A.tsv", sep="\t", index=False)
    df[["id", "question", "B"]].rename(columns={"B": "label"}).to_csv(
        runs / "B.tsv", sep="\t", index=False
    )
    df[["id", "question", "C"]].to_csv(runs / "C.tsv", sep="\t", index=False, header=False)
    df[["id", "D"]].to_csv(runs / "D.tsv", sep="\t", index=False, header=False)
    df[["id", "E", "question"]].rename(columns={"E": "pred"}).to_csv(
        runs / "E.tsv", sep="\t", index=False
    )


def test_cluster_column_is_not_the_label(tmp_path):
    """README's example runs as it is written: with --cluster-col (a name or a position) and no
    --label-col, the label is the one column besides the id and the cluster column, in the gold and
    in every run, whether a run carries the cluster column or not; validate, report and a
    competition.toml's [data] cluster read what --label-col label reads."""
    df = _questions(G=6, k=3)
    df["D"], df["E"] = 1 - df["A"], df["B"]
    _readme_files(tmp_path, df)
    truth = {s: float((df[s] == df["y"]).mean()) for s in "ABCDE"}
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "competition.toml").write_text(
        'name = "qa"\n[data]\ngold = "../qa.tsv"\nruns = "../runs"\ncluster = "question"\n'
        '[[metrics]]\nname = "accuracy"\n',
        encoding="utf-8",
    )
    base = ("--metric", "accuracy")
    for args in (
        ["qa.tsv", "--runs", "runs", *base, "--cluster-col", "question"],
        ["qa.tsv", "--runs", "runs", *base, "--cluster-col", "2"],
        ["qa.tsv", "--runs", "runs", *base, "--cluster-col", "question", "--label-col", "label"],
        ["c"],
    ):
        res = run_cli(tmp_path, "validate", *args)
        assert res.returncode == 0, (args, res.stderr)
        assert "18 items in 6 clusters (column question), 5 systems" in res.stdout, res.stdout
        board = {line.split()[1]: float(line.split()[2]) for line in res.stdout.splitlines()[3:]}
        assert board == pytest.approx(truth, abs=5e-5), (args, res.stdout)  # printed to 4 decimals
    res = run_cli(
        tmp_path,
        "report",
        "qa.tsv",
        "--runs",
        "runs",
        *base,
        "--cluster-col",
        "question",
        "-B",
        "20",
        "--format",
        "json",
        "-o",
        "out",
        "-q",
    )
    assert res.returncode == 0, res.stderr
    (comp,) = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))[
        "competitions"
    ]
    assert comp["clusters"] == {"column": "question", "clusters": 6, "items": 18}
    assert {s["system"]: s["score"] for s in comp["metrics"][0]["scores"]} == pytest.approx(truth)


def test_cluster_column_errors_without_label_col(tmp_path):
    """Without --label-col: a cluster name the gold lacks is that error (not a call for
    --label-col); a gold with two columns besides the id and the cluster column asks for
    --label-col, naming them."""
    df = _questions(G=6, k=3)
    _files(tmp_path, df)
    res = run_cli(
        tmp_path,
        "validate",
        "qa.tsv",
        "--runs",
        "runs",
        "--metric",
        "accuracy",
        "--cluster-col",
        "topic",
    )
    assert (
        res.returncode == 2 and "qa.tsv, line 1: no column 'topic' for --cluster-col" in res.stderr
    ), res.stderr
    df.assign(note="x")[["id", "question", "y", "note"]].to_csv(
        tmp_path / "qa.tsv", sep="\t", index=False
    )
    res = run_cli(
        tmp_path,
        "validate",
        "qa.tsv",
        "--runs",
        "runs",
        "--metric",
        "accuracy",
        "--cluster-col",
        "question",
    )
    assert res.returncode == 2 and res.stderr.startswith(
        "error: qa.tsv: 4 columns (header: 'id', 'question', 'y', 'note'), expected an id column, "
        "the cluster column 'question' and one label column; pass --label-col N"
    ), res.stderr


def test_wide_table_cluster_column_errors(tmp_path):
    df = _questions(G=4, k=2)
    df.loc[3, "question"] = ""
    df.to_csv(tmp_path / "wide.csv", index=False)
    with pytest.raises(InputError, match=r"wide.csv, line 5, column 'question': blank cluster"):
        cr.load(tmp_path / "wide.csv", metrics="accuracy", id="id", cluster_col="question")
    df = _questions(G=4, k=2)
    df.to_csv(tmp_path / "wide.csv", index=False)
    with pytest.raises(InputError, match=r"wide.csv: no column 'topic' for `cluster_col`"):
        cr.load(tmp_path / "wide.csv", metrics="accuracy", id="id", cluster_col="topic")
    with pytest.raises(InputError, match="by its header name"):
        cr.load(tmp_path / "wide.csv", metrics="accuracy", id="id", cluster_col=3)
    with pytest.raises(InputError, match="DataFrame: no column 'topic'"):
        cr.from_frame(df, id="id", cluster="topic")


def test_every_output_states_the_unit(tmp_path):
    """The methods text (HTML page, team sheet, appendix) names the cluster bootstrap with its
    citation; the facts, the CI caption, leaderboard.md, summary.csv and the terminal heading name
    the clusters and their column. A competition without clusters says none of it."""
    from compreport.report.latex import appendix
    from compreport.report.pages import team

    df = _questions(G=12, k=5)
    _files(tmp_path, df)
    res = run_cli(
        tmp_path,
        "report",
        "qa.tsv",
        "--runs",
        "runs",
        "--label-col",
        "label",
        "--metric",
        "accuracy",
        "--cluster-col",
        "question",
        "-B",
        "300",
        "--format",
        "json",
        "-o",
        "out",
    )
    assert res.returncode == 0, res.stderr
    unit = "12 clusters given by column “question”"
    assert f"resampled by cluster, {unit}" in res.stdout
    checked = run_cli(
        tmp_path,
        "validate",
        "qa.tsv",
        "--runs",
        "runs",
        "--label-col",
        "label",
        "--metric",
        "accuracy",
        "--cluster-col",
        "question",
    )
    assert (
        checked.returncode == 0
        and "ok: qa: 60 items in 12 clusters (column question), 3 systems" in checked.stdout
    )
    out = tmp_path / "out"
    assert (
        (out / "qa" / "leaderboard.md")
        .read_text(encoding="utf-8")
        .endswith(f"Resampled by cluster: 60 items in {unit}.\n")
    )
    summary = pd.read_csv(out / "summary" / "summary.csv")
    assert summary.loc[0, "clusters"] == 12 and summary.loc[0, "n"] == 60
    analysis = cr.Analysis.from_dict(json.loads((out / "results.json").read_text(encoding="utf-8")))
    comp = analysis.competitions[0]
    report = cr.Report(analysis)
    page = report.to_html()
    assert f"60 test items in {unit}, resampled by cluster" in page
    assert f"Resamples draw the {unit}.</caption>" in page  # the CI table's caption, as in LaTeX
    assert (
        "the cluster bootstrap (Davison and Hinkley, 1997)" in page
        and "Bootstrap Methods and their Application" in page
    )
    assert f"(resampling {unit})" in report.to_latex("ci")
    sheet = team.team_html(analysis, comp, comp.primary.best)
    assert (
        f"n\u00a0=\u00a060 items in {unit}, resampled by cluster" in sheet  # glued relation
        and "Davison and Hinkley, 1997" in sheet
    )
    assert "\\citep{davison1997}" in appendix.methods_latex(
        analysis.settings, analysis.competitions
    )
    assert "davison1997" in appendix.cited_keys(analysis.settings, analysis.competitions)
    flat = cr.analyze(cr.from_frame(df.drop(columns="question"), id="id"), bootstrap=50)
    text = cr.Report(flat).to_html() + cr.Report(flat).to_latex("ci")
    assert "cluster" not in text.lower()
    assert "davison1997" not in appendix.cited_keys(flat.settings, flat.competitions)


def test_few_clusters_get_a_note():
    with pytest.warns(
        UserWarning,
        match=r"competition 'few': only 6 clusters \(column 'question'\); with fewer than "
        r"100 the cluster bootstrap's intervals come out too narrow",
    ):
        few = cr.analyze(
            cr.from_frame(_questions(G=6, k=4), id="id", cluster="question", name="few"),
            bootstrap=50,
        )
    assert any("only 6 clusters" in w for w in few.competitions[0].warnings)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        many = cr.analyze(
            cr.from_frame(_questions(G=100, k=2), id="id", cluster="question"), bootstrap=200
        )
    assert not any("clusters" in w for w in many.competitions[0].warnings)
