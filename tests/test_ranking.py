"""Ranking metrics over queries: map, map@k, mrr, p@k, ndcg@k equal trec_eval's (pytrec_eval
runs trec_eval's own code), ties in scores broken as trec_eval breaks them, and the query is the
resampling unit: every replicate is the mean of trec_eval's values over the drawn queries."""

from __future__ import annotations

import json
import re
import shutil
import warnings

import numpy as np
import pytest

import compreport as cr
from compreport.errors import InputError
from compreport.stats import resampling as bootstrap
from compreport.stats.metrics import get_metric
from compreport.stats.resampler import Resampler
from conftest import run_cli, said

#: compreport's name -> trec_eval's measure.
MEASURES = {
    "map": "map",
    "map@5": "map_cut_5",
    "mrr": "recip_rank",
    "p@3": "P_3",
    "p@10": "P_10",
    "ndcg@5": "ndcg_cut_5",
    "ndcg@10": "ndcg_cut_10",
}


def _task(tmp_path, graded: bool, seed: int = 4):
    """A SemEval-2016 Task 3-like task: 30 questions of 4-12 comments each (ids unique), relevance
    in the gold, three runs scoring every comment (scores rounded to 1 decimal: many ties), one run
    leaving some comments unscored (not retrieved). Returns the qrels and runs in trec_eval's
    form."""
    rng = np.random.default_rng(seed)
    gold_lines, runs = ["qid\tcid\tlabel"], {f"run{s}": ["qid\tcid\tscore"] for s in range(3)}
    qrels, trec = {}, {name: {} for name in runs}
    for q in range(30):
        qid = f"Q{q:03d}"
        qrels[qid] = {}
        for c in range(rng.integers(4, 13)):
            cid = f"{qid}_C{c}"
            rel = int(rng.choice([0, 0, 1, 2])) if graded else int(rng.random() < 0.35)
            if q == 7:
                rel = 0  # a question without a relevant comment
            qrels[qid][cid] = rel
            gold_lines.append(f"{qid}\t{cid}\t{rel if graded else ('true' if rel else 'false')}")
            for s, name in enumerate(runs):
                if s == 2 and rng.random() < 0.25:
                    continue  # run2 does not score this comment
                score = round(float(rel * (0.3 + 0.2 * s) + rng.random()), 1)
                runs[name].append(f"{qid}\t{cid}\t{score}")
                trec[name].setdefault(qid, {})[cid] = score
    (tmp_path / "runs").mkdir()
    (tmp_path / "gold.tsv").write_text("\n".join(gold_lines) + "\n", encoding="utf-8")
    for name, lines in runs.items():
        (tmp_path / "runs" / f"{name}.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return qrels, trec


def _load(tmp_path, metrics, graded):
    return cr.load(
        tmp_path / "gold.tsv",
        runs=tmp_path / "runs",
        metrics=metrics,
        id_col="cid",
        label_col="label",
        cluster_col="qid",
        score_col="score",
        missing="wrong",
        pos_label=None if graded else "true",
        name="gold",
    )


def _trec_eval(qrels, trec, measure):
    """Per system, per query: trec_eval's value (a query a run leaves out scores 0, as
    trec_eval -c)."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    out = {}
    for name, run in trec.items():
        per = pytrec_eval.RelevanceEvaluator(qrels, {measure}).evaluate(run)
        out[name] = {q: per.get(q, {}).get(measure, 0.0) for q in qrels}
    return out


@pytest.mark.parametrize("graded", [False, True])
def test_scores_equal_trec_eval(tmp_path, graded):
    qrels, trec = _task(tmp_path, graded)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        data = _load(tmp_path, list(MEASURES), graded)
        analysis = cr.analyze(data, bootstrap=0)
    comp = analysis.competitions[0]
    assert comp.clusters == {
        "column": "qid",
        "clusters": 30,
        "items": sum(len(v) for v in qrels.values()),
    }
    for ma in comp.metrics:
        expected = _trec_eval(qrels, trec, MEASURES[ma.name])
        for score in ma.scores:
            assert score.score == pytest.approx(
                np.mean(list(expected[score.system].values())), abs=1e-12
            ), (ma.name, score.system)


def test_every_replicate_is_the_mean_over_the_drawn_queries(tmp_path):
    qrels, trec = _task(tmp_path, graded=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        comp = _load(tmp_path, ["map", "ndcg@5"], graded=False).competitions[0]
    prepared = [get_metric(s.name).prepare(comp, dict(s.params)) for s in comp.metrics]
    B = 60
    res = bootstrap.run(
        prepared,
        comp.n,
        comp.m,
        B=B,
        seed=3,
        key=11,
        clusters=comp.clusters,
        jackknife=True,
        progress=False,
    )
    queries = comp.clusters.labels
    plan = Resampler(comp.n, B, 3, 11, comp.clusters.count)
    draws = np.vstack([plan.indices(k) for k, _ in enumerate(plan.blocks())])
    for i, measure in enumerate(("map", "ndcg_cut_5")):
        per = _trec_eval(qrels, trec, measure)
        for s, system in enumerate(comp.systems):
            values = np.array([per[system][q] for q in queries])
            assert np.allclose(res.replicates[i][:, s], values[draws].mean(axis=1), atol=1e-12)
            jack, weights = res.jackknife[i]
            loo = (values.sum() - values) / (len(values) - 1)  # leave one query out
            assert np.allclose(jack[:, s], loo) and (weights == 1).all()


def test_cli_reads_query_and_score_columns(tmp_path):
    qrels, trec = _task(tmp_path, graded=False)
    res = run_cli(
        tmp_path,
        "report",
        "gold.tsv",
        "--runs",
        "runs",
        "--id-col",
        "cid",
        "--label-col",
        "label",
        "--query-col",
        "qid",
        "--score-col",
        "score",
        "--missing",
        "wrong",
        "--pos-label",
        "true",
        "--metric",
        "map,p@3",
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
    assert [m["name"] for m in comp["metrics"]] == ["map", "p@3"] and comp["engine"][
        "resampling"
    ] == "clusters"
    expected = _trec_eval(qrels, trec, "map")
    for score in comp["metrics"][0]["scores"]:
        assert score["score"] == pytest.approx(
            np.mean(list(expected[score["system"]].values())), abs=1e-12
        )


def test_ranking_without_queries_or_with_labels_is_one_error(tmp_path):
    _task(tmp_path, graded=False)
    with pytest.raises(
        InputError,
        match=r"ranks the candidates of each query: name the gold's query column with "
        r"`cluster_col`",
    ):
        cr.analyze(
            cr.load(
                tmp_path / "gold.tsv",
                runs=tmp_path / "runs",
                metrics="map",
                id_col="cid",
                label_col="label",
                score_col="score",
                missing="wrong",
                pos_label="true",
            ),
            bootstrap=10,
        )
    with pytest.raises(
        InputError,
        match=r"relevance 'false' is not a number; give the relevant label with "
        r"`pos_label`",
    ):
        cr.analyze(_load(tmp_path, ["map"], graded=True), bootstrap=10)
    for bad in ("p", "ndcg", "mrr@3", "p@0"):
        with pytest.raises(InputError, match="unknown metric"):
            get_metric(bad)


def test_spec_keys_give_the_same_numbers(tmp_path):
    _task(tmp_path, graded=False)
    (tmp_path / "c").mkdir()
    # the spec's id keys its random streams as the gold file's name does: "gold" is generic, so
    # the gold file is known by its folder's name
    from compreport.inputs.slugs import slug

    (tmp_path / "c" / "competition.toml").write_text(
        f'id = "{slug(tmp_path.name)}"\n[data]\ngold = "../gold.tsv"\nruns = "../runs"\n'
        'id_col = "cid"\n'
        'label_col = "label"\nquery_col = "qid"\nscore_col = "score"\nmissing = "wrong"\n'
        '[[metrics]]\nname = "mrr"\npos_label = "true"\n',
        encoding="utf-8",
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        spec = cr.analyze(cr.load(tmp_path / "c"), bootstrap=100)
        api = cr.analyze(_load(tmp_path, ["mrr"], graded=False), bootstrap=100)
    assert (
        spec.to_dict()["competitions"][0]["metrics"] == api.to_dict()["competitions"][0]["metrics"]
    )


#: TREC's own layout: the qrels (``qid 0 docno rel``) and runs (``qid Q0 docno rank score tag``)
#: of :func:`_trec_task`, read by position.
TREC_OPTIONS = (
    "qrels.txt", "--runs", "runs",
    "--query-col", "1", "--id-col", "3", "--label-col", "4", "--score-col", "5",
)  # fmt: skip


def _trec_task(tmp_path, seed: int = 9):
    """TREC's own layout: qrels ``qid 0 docno rel`` and runs ``qid Q0 docno rank score tag``,
    document numbers repeated across queries, negative grades (junk, spam), runs retrieving
    documents nobody judged (not in the qrels) and leaving judged ones out, tied scores."""
    rng = np.random.default_rng(seed)
    qrels, trec, lines = {}, {f"sys{s}": {} for s in range(3)}, []
    pool = [f"D{d:03d}" for d in range(40)]
    for q in range(25):
        qid = str(401 + q)
        judged = rng.choice(pool, 8, replace=False)
        qrels[qid] = {d: int(rng.choice([-2, -1, 0, 0, 1, 2, 2])) for d in judged}
        lines += [f"{qid} 0 {d} {r}" for d, r in qrels[qid].items()]
    (tmp_path / "qrels.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "runs").mkdir()
    for s, name in enumerate(trec):
        out = []
        for qid, judged in qrels.items():
            docs = list(rng.choice(list(judged), 6, replace=False)) + list(
                rng.choice(pool, 5, replace=False)
            )
            docs = list(dict.fromkeys(docs))  # judged or not, each once
            scores = {
                d: round(float(abs(judged.get(d, 0)) * (0.4 + 0.2 * s) + rng.random()), 1)
                for d in docs
            }
            trec[name][qid] = scores
            ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
            out += [f"{qid} Q0 {d} {k + 1} {sc} {name}" for k, (d, sc) in enumerate(ranked)]
        (tmp_path / "runs" / f"{name}.txt").write_text("\n".join(out) + "\n", encoding="utf-8")
    return qrels, trec


def test_trec_layout_with_unjudged_documents_equals_trec_eval(tmp_path):
    qrels, trec = _trec_task(tmp_path)
    measures = {"map": "map", "ndcg@5": "ndcg_cut_5", "p@5": "P_5", "mrr": "recip_rank"}
    res = run_cli(
        tmp_path,
        "report",
        *TREC_OPTIONS,
        "--unjudged",
        "--missing",
        "wrong",
        "--metric",
        ",".join(measures),
        "-B",
        "100",
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
    retrieved = {(q, d) for run in trec.values() for q, docs in run.items() for d in docs}
    judged = {(q, d) for q, docs in qrels.items() for d in docs}
    assert comp["n"] == len(judged | retrieved) > len(judged) and comp["clusters"]["clusters"] == 25
    for ma in comp["metrics"]:
        expected = _trec_eval(qrels, trec, measures[ma["name"]])
        for score in ma["scores"]:
            assert score["score"] == pytest.approx(
                np.mean(list(expected[score["system"]].values())), abs=1e-12
            ), (ma["name"], score["system"])


def test_trec_layout_without_unjudged_names_the_unknown_document(tmp_path):
    _trec_task(tmp_path)
    res = run_cli(
        tmp_path,
        "report",
        *TREC_OPTIONS,
        "--missing",
        "wrong",
        "--metric",
        "map",
        "-B",
        "10",
        "--format",
        "json",
        "-o",
        "out",
    )
    lines = [x for x in res.stderr.splitlines() if x.strip()]
    assert res.returncode == 2 and len(lines) == 1, res.stderr
    assert re.search(
        r"error: runs/sys0\.txt, line \d+: id 'D\d{3} \(query \d+\)' is not in the gold file",
        lines[0],
    )


def test_unjudged_items_take_ranking_metrics_only(tmp_path):
    _trec_task(tmp_path)
    res = run_cli(
        tmp_path,
        "report",
        *TREC_OPTIONS,
        "--unjudged",
        "--missing",
        "wrong",
        "--metric",
        "map,accuracy",
        "-B",
        "10",
        "--format",
        "json",
        "-o",
        "out",
    )
    lines = [x for x in res.stderr.splitlines() if x.strip()]
    assert res.returncode == 2 and len(lines) == 1, res.stderr
    assert re.search(
        r"error: competition 'qrels': \d+ unjudged items \(--unjudged\) have no gold value; metric "
        r"'accuracy' needs one",
        lines[0],
    ), lines[0]


def test_negative_grades_are_gain_zero_as_in_trec_eval(tmp_path):
    """TREC's -1/-2 (junk, spam): gain 0 in the DCG and the ideal DCG, not relevant, still ranked.
    Values worked by hand from trec_eval's ndcg_cut, map, recip_rank and P (pytrec_eval agrees)."""
    (tmp_path / "qrels.txt").write_text(
        "1 0 d1 -1\n1 0 d2 1\n1 0 d3 0\n2 0 d1 2\n2 0 d4 -2\n2 0 d5 1\n", encoding="utf-8"
    )
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "s.run").write_text(  # junk first: d1 d2 d3 and d4 d1 d5
        "1 Q0 d1 1 0.9 s\n1 Q0 d2 2 0.5 s\n1 Q0 d3 3 0.1 s\n"
        "2 Q0 d4 1 0.9 s\n2 Q0 d1 2 0.8 s\n2 Q0 d5 3 0.2 s\n",
        encoding="utf-8",
    )
    (tmp_path / "runs" / "t.run").write_text(  # the ideal order: d2 d1 d3 and d1 d5 d4
        "1 Q0 d2 1 0.9 t\n1 Q0 d1 2 0.5 t\n1 Q0 d3 3 0.1 t\n"
        "2 Q0 d1 1 0.9 t\n2 Q0 d5 2 0.8 t\n2 Q0 d4 3 0.2 t\n",
        encoding="utf-8",
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # two queries: the few-clusters warning
        data = cr.load(
            tmp_path / "qrels.txt",
            runs=tmp_path / "runs",
            metrics=["ndcg@3", "map", "mrr", "p@2"],
            cluster_col=1,
            id_col=3,
            label_col=4,
            score_col=5,
        )
        comp = cr.analyze(data, bootstrap=0).competitions[0]
    got = {ma.name: {sc.system: sc.score for sc in ma.scores} for ma in comp.metrics}
    d3 = 1 / np.log2(3)  # the discount at rank 2
    s_ndcg = (
        d3 / 1 + (2 * d3 + 1 / 2) / (2 + d3)
    ) / 2  # q1: 1 at rank 2 over ideal 1; q2: 2, 1 at 2, 3 over 2, 1
    expected = {
        "ndcg@3": {"s": s_ndcg, "t": 1.0},
        "map": {"s": (1 / 2 + (1 / 2 + 2 / 3) / 2) / 2, "t": 1.0},
        "mrr": {"s": 1 / 2, "t": 1.0},
        "p@2": {"s": 1 / 2, "t": (1 / 2 + 1) / 2},
    }
    assert got == {name: pytest.approx(v, abs=1e-12) for name, v in expected.items()}
    assert s_ndcg == pytest.approx(0.65030, abs=1e-5)


def test_an_infinite_grade_is_named_where_it_is(tmp_path):
    (tmp_path / "qrels.txt").write_text("1 0 d1 1\n1 0 d2 inf\n2 0 d3 1\n", encoding="utf-8")
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "s.run").write_text(
        "1 Q0 d1 1 0.9 s\n1 Q0 d2 2 0.5 s\n2 Q0 d3 1 0.5 s\n", encoding="utf-8"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        data = cr.load(
            tmp_path / "qrels.txt",
            runs=tmp_path / "runs",
            metrics="ndcg@2",
            cluster_col=1,
            id_col=3,
            label_col=4,
            score_col=5,
        )
    with pytest.raises(
        InputError, match=r"qrels\.txt, line 2, column 4: relevance 'inf' is not a number"
    ):
        cr.analyze(data, bootstrap=0)


def _repeated_ids(tmp_path, run_files: dict):
    """A gold ``id q label`` whose ids repeat across queries (joined by (query, id)), and runs."""
    (tmp_path / "gold.tsv").write_text(
        "id\tq\tlabel\nc1\tQ1\tpos\nc2\tQ1\tneg\nc1\tQ2\tneg\nc2\tQ2\tpos\n", encoding="utf-8"
    )
    (tmp_path / "runs").mkdir()
    for name, text in run_files.items():
        (tmp_path / "runs" / name).write_text(text, encoding="utf-8")


@pytest.mark.parametrize("query_col", ["q", 2])
def test_runs_read_the_query_where_the_gold_has_it(tmp_path, query_col):
    """A headerless run as wide as the gold: the gold's column of the query's name; a run with a
    header: its column of that name, also for a position (the gold's name there)."""
    _repeated_ids(
        tmp_path,
        {
            "a.tsv": "c1\tQ1\tpos\nc2\tQ1\tneg\nc1\tQ2\tneg\nc2\tQ2\tneg\n",  # 3 of 4
            "b.tsv": "q\tlabel\tid\nQ2\tpos\tc1\nQ1\tneg\tc1\nQ2\tpos\tc2\nQ1\tneg\tc2\n",
        },
    )  # 2 of 4
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # two queries
        data = cr.load(
            tmp_path / "gold.tsv", runs=tmp_path / "runs", metrics="accuracy", cluster_col=query_col
        )
        comp = cr.analyze(data, bootstrap=0).competitions[0]
    assert {sc.system: sc.score for sc in comp.metrics[0].scores} == {"a": 0.75, "b": 0.5}


@pytest.mark.parametrize(
    "run_file, args, message",
    [
        (
            {"a.tsv": "c1\tQ1\tpos\tx\nc2\tQ1\tneg\tx\nc1\tQ2\tneg\tx\nc2\tQ2\tpos\tx\n"},
            ["--score-col", "3"],
            r"runs/a\.tsv, line 1: no header, and 4 columns where the gold has 3, so the query "
            r"column 'q' \(--cluster-col\) cannot be found by its name; give its position, the "
            r"same in the gold and the runs \(the gold has it at --cluster-col 2\), or give the "
            r"run a header line",
        ),
        (
            {"a.tsv": "query\tid\tlabel\nQ1\tc1\tpos\nQ1\tc2\tneg\nQ2\tc1\tneg\nQ2\tc2\tpos\n"},
            [],
            r"runs/a\.tsv, line 1: the header \('query', 'id', 'label'\) has no query column "
            r"'q' \(--cluster-col\); a run joined to the gold by \(query, id\) needs each "
            r"candidate's query",
        ),
        (
            {"a.json": '{"c1": "pos", "c2": "neg"}'},
            [],
            r"runs/a\.json: a run joined to the gold by \(query, id\) needs the query "
            r"\(--cluster-col\) in a column of a delimited file \(CSV, TSV or "
            r"whitespace-separated\)",
        ),
    ],
)
def test_a_run_without_a_findable_query_column_is_one_error(tmp_path, run_file, args, message):
    _repeated_ids(tmp_path, run_file)
    res = run_cli(
        tmp_path,
        "validate",
        "gold.tsv",
        "--runs",
        "runs",
        "--cluster-col",
        "q",
        *args,
        "--metric",
        "accuracy",
    )
    lines = [x for x in res.stderr.splitlines() if x.strip() and not x.startswith("warning:")]
    assert res.returncode == 2 and len(lines) == 1, res.stderr
    assert re.fullmatch("error: " + message, lines[0]), lines[0]


def _semeval2016_map(gold_lines: list[str], run_lines: list[str], th: int = 10) -> float:
    """MAP as the SemEval-2016 Task 3 scorer computes it (``_scorer/ev.py`` and ``metrics.py`` of
    the task's published distribution): each question's candidates appended in the prediction
    file's order, sorted with ``sorted(..., key=score, reverse=True)`` (stable: equal scores keep
    the file's order), then the precision at each relevant candidate of the first ``th``, averaged
    over those found, and the mean over every question (0 for one without a relevant candidate)."""
    relevant = {}
    for line in gold_lines:
        qid, cid, label = line.split("\t")
        relevant[(qid, cid)] = label
    per: dict[str, list] = {}
    for line in run_lines:
        qid, cid, score = line.split("\t")
        per.setdefault(qid, []).append((relevant[(qid, cid)], float(score)))
    total = 0.0
    for cands in per.values():
        ranked = [rel for rel, _ in sorted(cands, key=lambda c: c[1], reverse=True)]
        precisions, correct = [], 0
        for i in range(min(th, len(ranked))):
            if ranked[i] == "true":
                correct += 1
                precisions.append(correct / (i + 1))
        total += sum(precisions) / len(precisions) if precisions else 0.0
    return total / len(per)


def _cqa_twin(tmp_path):
    """A faithful twin of SemEval-2016 Task 3 subtask A: 40 questions of 10 comments, gold
    ``qid cid rank score true|false`` (whitespace, no header), three runs ``qid cid 0 score label``
    scoring every comment with many equal scores (0.5, 0, 1, as classifiers that output
    probabilities rounded or labels), each listing the comments of a question in its own order.
    Returns the gold's and each run's (qid, cid, label-or-score) lines as the scorer reads them."""
    rng = np.random.default_rng(2016)
    gold, runs = [], {f"team{s}": [] for s in range(3)}
    scorer_gold, scorer_runs = [], {name: [] for name in runs}
    for q in range(40):
        qid = f"Q{q + 268}_R{q % 7}"
        rels = ["true" if rng.random() < 0.4 else "false" for _ in range(10)]
        if q == 5:
            rels = ["false"] * 10  # no relevant comment: 0 for every system
        for c, rel in enumerate(rels):
            gold.append(f"{qid}\t{qid}_C{c + 1}\t{c + 1}\t{1 / (c + 1):.3f}\t{rel}")
            scorer_gold.append(f"{qid}\t{qid}_C{c + 1}\t{rel}")
        for s, name in enumerate(runs):
            order = rng.permutation(10) if s == 2 else np.arange(10)
            for c in order:
                rel = rels[c] == "true"
                score = float(
                    rng.choice([0.0, 0.5, 1.0], p=[0.3, 0.4, 0.3] if not rel else [0.1, 0.4, 0.5])
                )
                label = "true" if score >= 0.5 else "false"
                runs[name].append(f"{qid} {qid}_C{c + 1} 0 {score} {label}")
                scorer_runs[name].append(f"{qid}\t{qid}_C{c + 1}\t{score}")
    (tmp_path / "runs").mkdir()
    (tmp_path / "gold.relevancy").write_text("\n".join(gold) + "\n", encoding="utf-8")
    for name, lines in runs.items():
        (tmp_path / "runs" / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return scorer_gold, scorer_runs


CQA_OPTIONS = (
    "--query-col", "1", "--id-col", "2", "--label-col", "5", "--score-col", "4",
    "--pos-label", "true", "--metric", "map", "-B", "50", "--format", "json", "-o", "out", "-q",
)  # fmt: skip


def _scores(tmp_path) -> dict[str, float]:
    (comp,) = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))[
        "competitions"
    ]
    return {s["system"]: s["score"] for s in comp["metrics"][0]["scores"]}


def test_ties_file_reproduces_the_semeval2016_task3_scorer(tmp_path):
    scorer_gold, scorer_runs = _cqa_twin(tmp_path)
    res = run_cli(
        tmp_path, "report", "gold.relevancy", "--runs", "runs", *CQA_OPTIONS, "--ties", "file"
    )
    assert res.returncode == 0, res.stderr
    got = _scores(tmp_path)
    for name, lines in scorer_runs.items():
        assert got[name] == pytest.approx(_semeval2016_map(scorer_gold, lines), abs=1e-12), name


def test_ties_by_default_are_trec_evals_decreasing_id(tmp_path):
    """The twin of the test above: without --ties (or with --ties id) equal scores are ordered by
    decreasing id, as trec_eval orders them; on these runs that gives other numbers than the
    SemEval scorer's file order."""
    scorer_gold, scorer_runs = _cqa_twin(tmp_path)
    qrels: dict[str, dict[str, int]] = {}
    for line in scorer_gold:
        qid, cid, rel = line.split("\t")
        qrels.setdefault(qid, {})[cid] = int(rel == "true")
    trec = {
        name: {
            qid: {
                ln.split("\t")[1]: float(ln.split("\t")[2])
                for ln in lines
                if ln.startswith(qid + "\t")
            }
            for qid in qrels
        }
        for name, lines in scorer_runs.items()
    }
    expected = _trec_eval(qrels, trec, "map")
    for ties in ((), ("--ties", "id")):
        res = run_cli(tmp_path, "report", "gold.relevancy", "--runs", "runs", *CQA_OPTIONS, *ties)
        assert res.returncode == 0, res.stderr
        got = _scores(tmp_path)
        for name in scorer_runs:
            assert got[name] == pytest.approx(np.mean(list(expected[name].values())), abs=1e-12)
        assert any(
            got[name] != pytest.approx(_semeval2016_map(scorer_gold, lines), abs=1e-9)
            for name, lines in scorer_runs.items()
        )
        shutil.rmtree(tmp_path / "out")


def test_an_unknown_ties_value_is_one_error(tmp_path):
    _cqa_twin(tmp_path)
    res = run_cli(
        tmp_path, "report", "gold.relevancy", "--runs", "runs", *CQA_OPTIONS, "--ties", "files"
    )
    assert res.returncode == 2
    assert res.stderr.strip().splitlines()[-1] == (
        "error: --ties must be one of id, file; got 'files' (did you mean 'file'?)"
    ), res.stderr
    assert not (tmp_path / "out").exists()
    with pytest.raises(InputError, match=r"`ties` must be one of id, file; got 'x'"):
        cr.load(
            tmp_path / "gold.relevancy",
            runs=tmp_path / "runs",
            metrics="map",
            cluster_col=1,
            id_col=2,
            label_col=5,
            score_col=4,
            pos_label="true",
            ties="x",
        )


def test_a_spec_gives_ties_as_a_metric_parameter(tmp_path):
    """``ties = "file"`` in a spec's [[metrics]] entry is the same as --ties file."""
    scorer_gold, scorer_runs = _cqa_twin(tmp_path)
    (tmp_path / "competition.toml").write_text(
        'name = "CQA"\n[data]\ngold = "gold.relevancy"\nruns = "runs"\nquery_col = 1\nid_col = 2\n'
        'label_col = 5\nscore_col = 4\n[[metrics]]\nname = "map"\npos_label = "true"\n'
        'ties = "file"\n',
        encoding="utf-8",
    )
    res = run_cli(
        tmp_path, "report", "competition.toml", "-B", "20", "--format", "json", "-o", "out", "-q"
    )
    assert res.returncode == 0, res.stderr
    got = _scores(tmp_path)
    for name, lines in scorer_runs.items():
        assert got[name] == pytest.approx(_semeval2016_map(scorer_gold, lines), abs=1e-12)


def test_ranking_and_label_metrics_in_one_run(tmp_path):
    """CQA runs give a score (column 4) and a label (column 5): ``map`` ranks by the score while
    ``f1`` and ``accuracy`` read the label, in one command, as the SemEval-2016 scorer reports
    MAP beside F1 and accuracy (before: the scores read as 3270 distinct labels)."""
    from sklearn.metrics import accuracy_score, f1_score

    scorer_gold, scorer_runs = _cqa_twin(tmp_path)
    options = [*CQA_OPTIONS]
    options[options.index("map")] = "map,f1,accuracy"
    res = run_cli(
        tmp_path, "report", "gold.relevancy", "--runs", "runs", *options, "--ties", "file"
    )
    assert res.returncode == 0, res.stderr
    (comp,) = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))[
        "competitions"
    ]
    assert [(m["name"], m["params"]) for m in comp["metrics"]] == [
        ("map", {"pos_label": "true", "ties": "file", "field": "score"}),
        ("f1", {"pos_label": "true"}),
        ("accuracy", {}),
    ]
    gold = {tuple(ln.split("\t")[:2]): ln.split("\t")[2] for ln in scorer_gold}
    for name, lines in scorer_runs.items():
        text = (tmp_path / "runs" / f"{name}.txt").read_text(encoding="utf-8").splitlines()
        truth = [gold[tuple(t.split()[:2])] for t in text]
        labels = [t.split()[4] for t in text]
        got = {m["name"]: {s["system"]: s["score"] for s in m["scores"]} for m in comp["metrics"]}
        assert got["map"][name] == pytest.approx(_semeval2016_map(scorer_gold, lines), abs=1e-12)
        assert got["f1"][name] == pytest.approx(f1_score(truth, labels, pos_label="true"))
        assert got["accuracy"][name] == pytest.approx(accuracy_score(truth, labels))


def test_ranking_metrics_alone_read_the_score_column_as_their_one_field(tmp_path):
    """The twin: ``map`` alone reads the runs' score column as the one field (no ``field``
    parameter), with the same numbers."""
    scorer_gold, scorer_runs = _cqa_twin(tmp_path)
    res = run_cli(
        tmp_path, "report", "gold.relevancy", "--runs", "runs", *CQA_OPTIONS, "--ties", "file"
    )
    assert res.returncode == 0, res.stderr
    (comp,) = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))[
        "competitions"
    ]
    assert comp["metrics"][0]["params"] == {"pos_label": "true", "ties": "file"}
    for name, lines in scorer_runs.items():
        assert _scores(tmp_path)[name] == pytest.approx(_semeval2016_map(scorer_gold, lines))


def _unjudged_case(tmp_path, runs: dict[str, list[str]], *options: str) -> dict:
    """Issue 41 item 8's minimal case (qrels ``q1 0 d1 1``, run a also listing ``q2 d9``), with a
    second judged query ``q3`` (the cluster bootstrap needs two): per run and metric, the score
    compreport gives under ``--unjudged``, and the notes it printed."""
    (tmp_path / "qrels.txt").write_text("q1 0 d1 1\nq3 0 d3 1\nq3 0 d4 0\n", encoding="utf-8")
    (tmp_path / "runs").mkdir()
    for name, lines in runs.items():
        text = "".join(f"{q} Q0 {d} {k + 1} {s} {name}\n" for k, (q, d, s) in enumerate(lines))
        (tmp_path / "runs" / f"{name}.txt").write_text(text, encoding="utf-8")
    res = run_cli(
        tmp_path,
        "report",
        *TREC_OPTIONS,
        "--unjudged",
        "--metric",
        "map,mrr",
        "-B",
        "20",
        "--format",
        "json",
        "-o",
        "out",
        "-q",
        *options,
    )
    assert res.returncode == 0, res.stderr
    (comp,) = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))[
        "competitions"
    ]
    scores = {(ma["name"], s["system"]): s["score"] for ma in comp["metrics"] for s in ma["scores"]}
    notes = [x for x in said(res.stderr) if x.startswith("note:")]
    return {"scores": scores, "notes": notes, "n": comp["n"], "warnings": comp["warnings"]}


def _as_trec(runs: dict[str, list[tuple]]) -> tuple[dict, dict]:
    """:func:`_unjudged_case`'s qrels and ``runs`` in trec_eval's form."""
    trec = {name: {} for name in runs}
    for name, lines in runs.items():
        for q, d, s in lines:
            trec[name].setdefault(q, {})[d] = float(s)
    return {"q1": {"d1": 1}, "q3": {"d3": 1, "d4": 0}}, trec


def test_unjudged_query_counts_for_no_run_as_in_trec_eval(tmp_path):
    """A query only run a lists (q2, absent from the qrels) is left out for every run, as trec_eval
    skips it: both runs score 1.0, not 0.5 (issue 41, item 8), whatever the other runs list; a
    run that does not list another run's unjudged candidate of a judged query (d5) has not
    retrieved it, which is not a missing prediction (no --missing needed)."""
    runs = {
        "a": [("q1", "d1", 3), ("q2", "d9", 2), ("q3", "d3", 2), ("q3", "d5", 1), ("q3", "d4", 0)],
        "b": [("q1", "d1", 3), ("q3", "d3", 2), ("q3", "d4", 1)],
    }
    got = _unjudged_case(tmp_path, runs)
    qrels, trec = _as_trec(runs)
    for name, measure in (("map", "map"), ("mrr", "recip_rank")):
        expected = _trec_eval(qrels, trec, measure)
        for system in runs:
            assert got["scores"][(name, system)] == pytest.approx(
                np.mean(list(expected[system].values())), abs=1e-12
            )
            assert got["scores"][(name, system)] == 1.0
    assert got["n"] == 4  # d1, d3, d4 judged and d5 (judged query q3); q2's d9 is not an item
    (line,) = got["notes"]
    assert line == (
        "note: qrels.txt: 1 candidate(s) of 1 query no gold line names ('q2') left out of every "
        "run, as trec_eval skips unjudged queries (runs/a.txt: 1)"
    ), line


def test_a_runs_score_depends_on_that_run_alone(tmp_path):
    """Good twin: run b scores the same alone as beside run a, whose unjudged query q2 and
    unjudged candidate d5 of q3 change nothing for b (and no note is printed when no query is
    left out)."""
    b = [("q1", "d1", 3), ("q3", "d4", 2), ("q3", "d3", 1)]
    a = [("q1", "d5", 4), ("q1", "d1", 3), ("q2", "d9", 2), ("q3", "d3", 2), ("q3", "d4", 0)]
    (tmp_path / "alone").mkdir()
    (tmp_path / "beside").mkdir()
    alone = _unjudged_case(tmp_path / "alone", {"b": b})
    beside = _unjudged_case(tmp_path / "beside", {"a": a, "b": b})
    assert alone["scores"] == {("map", "b"): 0.75, ("mrr", "b"): 0.75}
    assert {k: v for k, v in beside["scores"].items() if k[1] == "b"} == alone["scores"]
    assert beside["scores"][("mrr", "a")] == 0.75  # d5, unjudged, ranked above d1 in q1
    assert alone["notes"] == [] and len(beside["notes"]) == 1


def test_unjudged_note_is_capped(tmp_path):
    """Many unjudged queries in many runs: one short note, not a line naming each."""
    runs = {
        f"r{k}": [("q1", "d1", 3), ("q3", "d3", 2), ("q3", "d4", 1)]
        + [(f"x{k}_{j}", "d9", 1) for j in range(40)]
        for k in range(30)
    }
    got = _unjudged_case(tmp_path, runs)
    assert all(v == 1.0 for v in got["scores"].values())
    (line,) = got["notes"]
    assert len(line) < 400 and "1200 candidate(s) of 1200 queries" in line, line
    assert "and 1197 more" in line and "and 27 more runs" in line, line


def test_missing_predictions_warning_is_capped(tmp_path):
    """30 runs that leave out a judged candidate (--missing wrong): the warning names 5 runs and
    counts the others, on one short line (it was ~3,000 characters under --unjudged)."""
    runs = {f"r{k:02d}": [("q1", "d1", 3), ("q3", "d3", 2)] for k in range(30)}
    got = _unjudged_case(tmp_path, runs, "--missing", "wrong")
    (line,) = [w for w in got["warnings"] if "missing prediction" in w]
    assert "30 missing prediction(s)" in line and "'r04': 1 and 25 more runs" in line, line
    assert len(line) < 300, line
