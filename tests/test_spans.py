"""Span and entity measures (``span_f1``, ``span_precision``, ``span_recall``) on files in the
layouts span tasks publish: CoNLL against seqeval, brat folders and the MEDDOPLACE TSV against an
independent matcher written here, through the CLI and the API, plus bad input and resamples."""

from __future__ import annotations

import json

import numpy as np
import pytest
from seqeval.scheme import IOB2

import compreport as cr
from conftest import engine_on, observed, one_error, prepare, run_cli, write

TYPES = ("LOC", "PER", "ORG")


# --- an independent matcher: set arithmetic (strict), MEDDOPLACE's greedy loop (overlap) ------


def ref_counts(gold: dict, pred: dict, match: str) -> dict:
    """Per type: [gold, predicted, true positives] summed over the gold's documents and the run's,
    from dicts document -> set of (start, end, type)."""
    out: dict = {}
    for doc in set(gold) | set(pred):
        g, p = set(gold.get(doc, ())), set(pred.get(doc, ()))
        for t in {x[2] for x in g | p}:
            gt = sorted(x for x in g if x[2] == t)
            pt = sorted(x for x in p if x[2] == t)
            if match == "strict":
                tp = len(set(gt) & set(pt))
            else:  # each gold, in order, takes the first unmatched overlapping prediction
                left, tp = list(pt), 0
                for a in gt:
                    hit = next(
                        (
                            b
                            for b in left
                            if (b[0] <= a[0] <= b[1] or a[0] <= b[0] <= a[1]) and a[3:] == b[3:]
                        ),
                        None,
                    )
                    if hit is not None:
                        left.remove(hit)
                        tp += 1
            c = out.setdefault(t, [0, 0, 0])
            c[0], c[1], c[2] = c[0] + len(gt), c[1] + len(pt), c[2] + tp
    return out


def prf(tp, ng, np_):
    p = tp / np_ if np_ else 0.0
    r = tp / ng if ng else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def ref_score(gold: dict, pred: dict, match="strict", average="micro", which="f1") -> float:
    counts = ref_counts(gold, pred, match)
    k = {"precision": 0, "recall": 1, "f1": 2}[which]
    if average == "micro":
        ng, np_, tp = (sum(c[j] for c in counts.values()) for j in range(3))
        return prf(tp, ng, np_)[k]
    if average == "weighted":
        total = sum(c[0] for c in counts.values())
        return (
            sum(c[0] * prf(c[2], c[0], c[1])[k] for c in counts.values()) / total if total else 0.0
        )
    per = [prf(c[2], c[0], c[1])[k] for c in counts.values() if c[0] or c[1]]
    return sum(per) / len(per) if per else 0.0


def random_docs(rng, n_docs: int, per_doc: int) -> dict:
    docs = {}
    for d in range(n_docs):
        ments = set()
        for _ in range(rng.integers(0, per_doc + 1)):
            s = int(rng.integers(0, 200))
            ments.add((s, s + int(rng.integers(1, 12)), TYPES[rng.integers(0, 3)]))
        docs[f"doc{d:03d}"] = ments
    return docs


def perturb(rng, docs: dict, p_keep=0.6, p_shift=0.25) -> dict:
    out = {}
    for doc, ments in docs.items():
        new = set()
        for s, e, t in ments:
            u = rng.random()
            if u < p_keep:
                new.add((s, e, t))
            elif u < p_keep + p_shift:
                new.add((s + int(rng.integers(-2, 3)) if s > 2 else s, e + 1, t))
            elif u < p_keep + p_shift + 0.05:
                new.add((s, e, TYPES[(TYPES.index(t) + 1) % 3]))
        if rng.random() < 0.5:
            s = int(rng.integers(0, 200))
            new.add((s, s + 3, TYPES[rng.integers(0, 3)]))
        out[doc] = new
    return out


def write_brat(folder, docs: dict, every=True) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for doc, ments in docs.items():
        if not ments and not every:
            continue
        lines = [f"T{k}\t{t} {s} {e}\tx\n" for k, (s, e, t) in enumerate(sorted(ments), 1)]
        (folder / f"{doc}.ann").write_text("".join(lines), encoding="utf-8")


def write_tsv(path, docs: dict) -> None:
    rows = ["filename\tlabel\tstart_span\tend_span\ttext\n"]
    for doc, ments in docs.items():
        rows += [f"{doc}\t{t}\t{s}\t{e}\tsome text\n" for s, e, t in sorted(ments)]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(rows), encoding="utf-8")


@pytest.fixture(scope="module")
def brat_task(tmp_path_factory):
    rng = np.random.default_rng(7)
    root = tmp_path_factory.mktemp("brat")
    gold = random_docs(rng, 40, 6)
    gold["doc999"] = set()  # no gold mention: a run's mentions there are false positives
    runs = {
        "alpha/run1": perturb(rng, gold),
        "alpha/run2": perturb(rng, gold, 0.3, 0.5),
        "beta": perturb(rng, gold, 0.8, 0.1),
    }
    runs["beta"]["doc999"] = {(0, 5, "LOC")}
    write_brat(root / "gold", gold)
    for name, docs in runs.items():
        write_brat(root / "runs" / name, docs, every=False)
    return root, gold, runs


@pytest.mark.parametrize("match", ["strict", "overlap"])
@pytest.mark.parametrize("average", ["micro", "macro", "weighted"])
@pytest.mark.parametrize("which", ["f1", "precision", "recall"])
def test_brat_folders_against_the_matcher(brat_task, match, average, which):
    root, gold, runs = brat_task
    data = cr.load(root / "gold", runs=str(root / "runs"), metrics="span_f1")
    comp = data.competitions[0]
    assert comp.systems == ["alpha run1", "alpha run2", "beta"]
    assert comp.n == len(gold)
    got = observed(comp, f"span_{which}", match=match, average=average)
    want = [
        ref_score(gold, runs[s], match, average, which)
        for s in ("alpha/run1", "alpha/run2", "beta")
    ]
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_brat_background_documents_are_not_scored(tmp_path):
    write(tmp_path, "gold/d1.ann", "T1\tLOC 0 4\tMadr\n")
    write(tmp_path, "gold/d2.ann", "")
    write(tmp_path, "runs/r1/d1.ann", "T1\tLOC 0 4\tMadr\n")
    write(tmp_path, "runs/r1/d2.ann", "T1\tPER 5 9\tJuan\n")  # a false positive, scored
    write(tmp_path, "runs/r1/bg7.ann", "T1\tPER 5 9\tJuan\n")  # background: not scored
    res = run_cli(tmp_path, "validate", "gold", "--runs", "runs", "--metric", "span_precision")
    assert res.returncode == 0, res.stderr
    assert "1 document(s) of runs have no .ann file in the gold folder" in res.stderr
    assert "bg7" in res.stderr
    assert "2 items" in res.stdout and "0.5000" in res.stdout


def test_brat_run_folders_take_names_and_exclude(brat_task, tmp_path):
    root, gold, runs = brat_task
    write(tmp_path, "names.tsv", "run\tname\tteam\nalpha/run1\tA-primary\tAlpha\nbeta\tB\tBeta\n")
    data = cr.load(
        root / "gold",
        runs=str(root / "runs"),
        metrics="span_f1",
        names=str(tmp_path / "names.tsv"),
        exclude=["run2"],
    )
    comp = data.competitions[0]
    assert comp.systems == ["A-primary", "B"]
    assert comp.teams == {"A-primary": "Alpha", "B": "Beta"}
    want = [ref_score(gold, runs[r]) for r in ("alpha/run1", "beta")]
    np.testing.assert_allclose(observed(comp, "span_f1"), want, rtol=0, atol=1e-12)


def test_overlap_differs_from_strict(brat_task):
    root, gold, runs = brat_task
    comp = cr.load(root / "gold", runs=str(root / "runs"), metrics="span_f1").competitions[0]
    assert (observed(comp, "span_f1", match="overlap") > observed(comp, "span_f1") + 0.01).all()


def test_tsv_through_the_cli_and_a_spec(tmp_path):
    rng = np.random.default_rng(3)
    gold = random_docs(rng, 30, 5)
    runs = {"TeamA.1": perturb(rng, gold), "TeamB.1": perturb(rng, gold, 0.4, 0.4)}
    write_tsv(tmp_path / "gold.tsv", gold)
    for name, docs in runs.items():
        write_tsv(tmp_path / "runs" / f"{name}.tsv", docs)
    write(
        tmp_path,
        "competition.toml",
        'name = "places"\n[data]\ngold = "gold.tsv"\nruns = "runs"\n'
        '[[metrics]]\nname = "span_f1"\n[[metrics]]\nname = "span_f1_overlap"\n'
        '[[metrics]]\nname = "span_recall"\naverage = "macro"\n',
    )
    res = run_cli(tmp_path, "report", ".", "-o", "out", "--format", "json", "-B", "200")
    assert res.returncode == 0, res.stderr
    doc = json.loads((tmp_path / "out" / "results.json").read_text())
    metrics = doc["competitions"][0]["metrics"]
    docs_with_mentions = {d: m for d, m in gold.items() if m}  # a TSV names only these
    for entry, (match, average, which) in zip(
        metrics,
        [("strict", "micro", "f1"), ("overlap", "micro", "f1"), ("strict", "macro", "recall")],
        strict=True,
    ):
        got = {s["system"]: s["score"] for s in entry["scores"]}
        for name, docs in runs.items():
            want = ref_score(docs_with_mentions, docs, match, average, which)
            assert got[name] == pytest.approx(want, abs=1e-12), (entry["name"], name)


def test_zipped_codalab_submission(tmp_path):
    import zipfile

    rng = np.random.default_rng(4)
    gold = random_docs(rng, 15, 4)
    run = perturb(rng, gold)
    write_tsv(tmp_path / "gold.tsv", gold)
    write_tsv(tmp_path / "plain" / "pred.tsv", run)
    (tmp_path / "runs").mkdir()
    with zipfile.ZipFile(tmp_path / "runs" / "TeamZ.zip", "w") as z:
        z.write(tmp_path / "plain" / "pred.tsv", "res/pred.tsv")
        z.writestr("metadata", "description: x\n")
    comp = cr.load(
        tmp_path / "gold.tsv", runs=str(tmp_path / "runs"), metrics="span_f1"
    ).competitions[0]
    assert comp.systems == ["TeamZ"]
    want = ref_score({d: m for d, m in gold.items() if m}, run)
    assert observed(comp, "span_f1")[0] == pytest.approx(want, abs=1e-12)


def test_csv_with_quoted_commas_and_a_code_after_the_text(tmp_path):
    head = "filename,label,start_span,end_span,text,code\n"
    write(tmp_path, "gold.csv", head + 'd1,LOC,0,12,"Madrid, Spain",C1\nd1,PER,20,24,Juan,C2\n')
    write(tmp_path, "runs/a.csv", head + 'd1,LOC,0,12,"Madrid, Spain",C1\nd1,PER,20,24,"Juan",C9\n')
    comp = cr.load(
        tmp_path / "gold.csv", runs=str(tmp_path / "runs"), metrics="span_f1"
    ).competitions[0]
    assert comp.gold[0, 0] == '[[0,12,"LOC","C1"],[20,24,"PER","C2"]]'
    assert observed(comp, "span_f1", codes=True)[0] == pytest.approx(0.5)
    assert observed(comp, "span_f1")[0] == 1.0


def test_json_mentions_read_as_the_tsv(tmp_path):
    rng = np.random.default_rng(5)
    gold = random_docs(rng, 12, 4)
    run = perturb(rng, gold)
    objs = [
        {"document": d, "start": s, "end": e, "label": t}
        for d, ms in gold.items()
        for s, e, t in sorted(ms)
    ]
    (tmp_path / "gold.json").write_text(json.dumps(objs))
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "sys.jsonl").write_text(
        "".join(
            json.dumps({"filename": d, "start_span": s, "end_span": e, "type": t}) + "\n"
            for d, ms in run.items()
            for s, e, t in sorted(ms)
        )
    )
    comp = cr.load(
        tmp_path / "gold.json", runs=str(tmp_path / "runs"), metrics="span_f1"
    ).competitions[0]
    want = ref_score({d: m for d, m in gold.items() if m}, run)
    assert observed(comp, "span_f1")[0] == pytest.approx(want, abs=1e-12)


# --- entity linking: (mention, code) pairs ----------------------------------------------------


def with_codes(rng, docs: dict, p_wrong: float) -> dict:
    """Each mention given a code (``C0``..``C4``): a share ``p_wrong`` of them shifted by one."""
    out = {}
    for doc, ments in docs.items():
        out[doc] = {(s, e, t, f"C{(s + (rng.random() < p_wrong)) % 5}") for s, e, t in ments}
    return out


@pytest.mark.parametrize("match", ["strict", "overlap"])
def test_linking_from_a_code_column_and_brat_n_lines(tmp_path, match):
    rng = np.random.default_rng(9)
    plain = random_docs(rng, 25, 5)
    gold = with_codes(rng, plain, 0.0)
    run_plain = perturb(rng, plain)
    run = with_codes(rng, run_plain, 0.3)
    # DisTEMIST-style TSV with a `code` column
    for path, docs in [
        (tmp_path / "tsv" / "gold.tsv", gold),
        (tmp_path / "tsv" / "runs" / "a.tsv", run),
    ]:
        path.parent.mkdir(parents=True, exist_ok=True)
        rows = ["filename\tlabel\tstart_span\tend_span\ttext\tcode\n"]
        rows += [
            f"{d}\t{t}\t{a}\t{b}\tx\t{c}\n" for d, ms in docs.items() for a, b, t, c in sorted(ms)
        ]
        path.write_text("".join(rows))
    # brat with N lines
    for folder, docs in [
        (tmp_path / "brat" / "gold", gold),
        (tmp_path / "brat" / "runs" / "a", run),
    ]:
        folder.mkdir(parents=True)
        for d, ms in docs.items():
            lines = []
            for k, (a, b, t, c) in enumerate(sorted(ms), 1):
                lines += [f"T{k}\t{t} {a} {b}\tx\n", f"N{k}\tReference T{k} {c}\tx\n"]
            (folder / f"{d}.ann").write_text("".join(lines))
    named = {d: m for d, m in gold.items() if m}
    for gold_path, runs in [("tsv/gold.tsv", "tsv/runs"), ("brat/gold", "brat/runs")]:
        comp = cr.load(
            tmp_path / gold_path, runs=str(tmp_path / runs), metrics="span_f1"
        ).competitions[0]
        base = named if gold_path.endswith(".tsv") else gold
        for which in ("f1", "recall"):
            linked = observed(comp, f"span_{which}", match=match, codes=True)[0]
            assert linked == pytest.approx(ref_score(base, run, match, which=which), abs=1e-12)
            ner = observed(comp, f"span_{which}", match=match)[0]
            strip = {d: {m[:3] for m in ms} for d, ms in base.items()}
            assert ner == pytest.approx(ref_score(strip, run_plain, match, which=which), abs=1e-12)
            assert linked < ner


# --- relations: brat R lines -------------------------------------------------------------------

RELS = ("Located_in", "Part_of")


def random_relations(rng, docs: dict) -> dict:
    """Relations between a document's mentions: (head, relation, tail)."""
    out = {}
    for d, ments in docs.items():
        ms = sorted(ments)
        out[d] = (
            {
                (ms[i], RELS[rng.integers(0, 2)], ms[j])
                for i, j in rng.integers(0, len(ms), (len(ms) // 2, 2)).tolist()
                if i != j
            }
            if len(ms) > 1
            else set()
        )
    return out


def write_brat_relations(folder, docs: dict, rels: dict) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for d, ments in docs.items():
        ids = {m: f"T{k}" for k, m in enumerate(sorted(ments), 1)}
        lines = [f"{ids[m]}\t{m[2]} {m[0]} {m[1]}\tx\n" for m in sorted(ments)]
        lines += [
            f"R{k}\t{r} Arg1:{ids[h]} Arg2:{ids[t]}\n"
            for k, (h, r, t) in enumerate(sorted(rels[d]), 1)
        ]
        (folder / f"{d}.ann").write_text("".join(lines))


@pytest.mark.parametrize("average", ["micro", "macro", "weighted"])
def test_relations_against_set_arithmetic(tmp_path, average):
    rng = np.random.default_rng(13)
    gold = random_docs(rng, 30, 8)
    gold_rels = random_relations(rng, gold)
    run = {d: set(m) | {(500, 505, "LOC")} for d, m in gold.items()}  # same mentions, one more
    run_rels = {}
    for d, rs in gold_rels.items():
        kept = {x for x in rs if rng.random() < 0.6}
        flipped = {(h, RELS[1 - RELS.index(r)], t) for h, r, t in rs - kept if rng.random() < 0.5}
        extra = {((500, 505, "LOC"), "Part_of", h) for h, _, _ in list(rs)[:1]}
        run_rels[d] = kept | flipped | extra
    write_brat_relations(tmp_path / "gold", gold, gold_rels)
    write_brat_relations(tmp_path / "runs" / "a", run, run_rels)
    comp = cr.load(
        tmp_path / "gold", runs=str(tmp_path / "runs"), metrics="relation_f1"
    ).competitions[0]
    assert comp.fields == ["mentions", "relations"]
    # the independent reference: relations as sets of (document, head, relation, tail)
    as_mentions = {  # per relation type: gold's and run's document -> set of (head, relation, tail)
        rel: (
            {d: {(h, r, t) for h, r, t in rs if r == rel} for d, rs in gold_rels.items()},
            {d: {(h, r, t) for h, r, t in rs if r == rel} for d, rs in run_rels.items()},
        )
        for rel in RELS
    }
    per = {}
    for rel, (g, p) in as_mentions.items():
        ng = sum(len(v) for v in g.values())
        np_ = sum(len(v) for v in p.values())
        tp = sum(len(g[d] & p.get(d, set())) for d in g)
        per[rel] = (ng, np_, tp)
    for which, k in (("precision", 0), ("recall", 1), ("f1", 2)):
        if average == "micro":
            want = prf(
                sum(c[2] for c in per.values()),
                sum(c[0] for c in per.values()),
                sum(c[1] for c in per.values()),
            )[k]
        elif average == "macro":
            want = np.mean([prf(c[2], c[0], c[1])[k] for c in per.values()])
        else:
            want = sum(c[0] * prf(c[2], c[0], c[1])[k] for c in per.values()) / sum(
                c[0] for c in per.values()
            )
        assert observed(comp, f"relation_{which}", average=average)[0] == pytest.approx(
            want, abs=1e-12
        )
    # the mentions of the same folders still score as spans
    assert observed(comp, "span_recall")[0] == 1.0


def test_relation_to_an_unknown_mention_is_an_error(tmp_path):
    write(tmp_path, "gold/d1.ann", "T1\tLOC 0 4\tx\nT2\tLOC 6 9\tx\nR1\tPart_of Arg1:T1 Arg2:T2\n")
    write(tmp_path, "runs/a/d1.ann", "T1\tLOC 0 4\tx\nR1\tPart_of Arg1:T1 Arg2:T7\n")
    res = run_cli(tmp_path, "validate", "gold", "--runs", "runs", "--metric", "relation_f1")
    one_error(res, "d1.ann, line 2", "relation argument T7")


def test_relation_measure_without_relations_is_an_error(brat_task):
    root, _, _ = brat_task
    comp = cr.load(root / "gold", runs=str(root / "runs"), metrics="span_f1").competitions[0]
    with pytest.raises(cr.InputError, match="reads documents' relations"):
        prepare(comp, "relation_f1")


def test_meddoplace_none_is_no_code(tmp_path):
    head = "filename\tlabel\tstart_span\tend_span\ttext\tsource\tnormalization\n"
    write(
        tmp_path,
        "gold.tsv",
        head + "d1\tLOC\t0\t4\tx\tGN\t3117735\nd1\tPER\t9\t12\tx\tNone\tNone\n",
    )
    write(
        tmp_path,
        "runs/a.tsv",
        head + "d1\tLOC\t0\t4\tx\tGN\t3117735\nd1\tPER\t9\t12\tx\tNone\tNone\n",
    )
    comp = cr.load(
        tmp_path / "gold.tsv", runs=str(tmp_path / "runs"), metrics="span_f1"
    ).competitions[0]
    assert comp.gold[0, 0] == '[[0,4,"LOC","3117735"],[9,12,"PER"]]'
    assert observed(comp, "span_f1", codes=True)[0] == 1.0


# --- CoNLL against seqeval ---------------------------------------------------------------------


def random_tags(rng, n: int, iobes: bool) -> list[str]:
    tags, i = [], 0
    while i < n:
        if rng.random() < 0.6:
            tags.append("O")
            i += 1
            continue
        t, length = TYPES[rng.integers(0, 3)], int(min(rng.integers(1, 4), n - i))
        if iobes:
            tags += [f"S-{t}"] if length == 1 else [f"B-{t}", *[f"I-{t}"] * (length - 2), f"E-{t}"]
        else:
            tags += [f"B-{t}", *[f"I-{t}"] * (length - 1)]
        i += length
    return tags


def noisy(rng, sents: list[list[str]], iobes: bool) -> list[list[str]]:
    """A run: some sentences re-drawn (well formed), others kept."""
    return [s if rng.random() < 0.5 else random_tags(rng, len(s), iobes) for s in sents]


def write_conll(path, sents) -> None:
    lines = ["-DOCSTART- O\n", "\n"]
    for s in sents:
        lines += [f"tok{k} X {tag}\n" for k, tag in enumerate(s)] + ["\n"]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(lines), encoding="utf-8")


@pytest.mark.parametrize("iobes", [False, True])
def test_conll_against_seqeval(tmp_path, iobes):
    from seqeval import metrics as sq
    from seqeval.scheme import IOB2, IOBES

    rng = np.random.default_rng(11 + iobes)
    gold = [random_tags(rng, int(rng.integers(1, 25)), iobes) for _ in range(120)]
    runs = {f"sys{k}": noisy(rng, gold, iobes) for k in range(3)}
    write_conll(tmp_path / "gold.conll", gold)
    for name, sents in runs.items():
        write_conll(tmp_path / "runs" / f"{name}.conll", sents)
    comp = cr.load(
        tmp_path / "gold.conll", runs=str(tmp_path / "runs"), metrics="span_f1"
    ).competitions[0]
    assert comp.n == len(gold)
    scheme = IOBES if iobes else IOB2
    for which, fn in [
        ("f1", sq.f1_score),
        ("precision", sq.precision_score),
        ("recall", sq.recall_score),
    ]:
        for average in ("micro", "macro", "weighted"):
            got = observed(comp, f"span_{which}", average=average)
            for s, name in enumerate(comp.systems):
                strict = fn(gold, runs[name], average=average, mode="strict", scheme=scheme)
                assert got[s] == pytest.approx(strict, abs=1e-9), (which, average, name)
                if not iobes:  # well-formed IOB2: conlleval's reading (seqeval's default) agrees
                    default = fn(gold, runs[name], average=average)
                    assert got[s] == pytest.approx(default, abs=1e-9)


def test_conll_documents_are_the_clusters(tmp_path):
    from seqeval.metrics import f1_score

    rng = np.random.default_rng(2)
    docs = [[random_tags(rng, int(rng.integers(1, 15)), False) for _ in range(5)] for _ in range(6)]
    run = [noisy(rng, d, False) for d in docs]

    def text(blocks):
        out = []
        for b in blocks:
            out += ["-DOCSTART- -X- O O\n", "\n"]
            for sent in b:
                out += [f"w{k} {t}\n" for k, t in enumerate(sent)] + ["\n"]
        return "".join(out)

    write(tmp_path, "gold.conll", text(docs))
    write(tmp_path, "runs/a.conll", text(run))
    comp = cr.load(
        tmp_path / "gold.conll", runs=str(tmp_path / "runs"), metrics="span_f1"
    ).competitions[0]
    assert comp.n == 30 and comp.clusters.count == 6
    assert comp.clusters.codes.tolist() == [d for d in range(6) for _ in range(5)]
    p = prepare(comp, "span_f1")
    draw = np.array([2, 0, 1, 0, 0, 1])  # the documents drawn: 3, 1, 2, 1, 1, 2
    idx = comp.clusters.items(draw)
    flat_gold = [s for d in docs for s in d]
    flat_run = [s for d in run for s in d]
    want = f1_score(
        [flat_gold[i] for i in idx], [flat_run[i] for i in idx], mode="strict", scheme=IOB2
    )
    assert engine_on(p, idx)[0] == pytest.approx(want, abs=1e-9)


def test_iob1_against_seqeval_default_mode(tmp_path):
    """Tags drawn freely from O, B-X and I-X (so I- often starts a mention): read with
    ``bio="iob1"`` they score as seqeval's default mode (conlleval's reading)."""
    from seqeval import metrics as sq

    rng = np.random.default_rng(21)
    tags = ["O", *(f"{p}-{t}" for p in "BI" for t in TYPES)]

    def sents(k):
        return [
            [tags[j] for j in rng.integers(0, len(tags), int(rng.integers(1, 20)))]
            for _ in range(k)
        ]

    gold = sents(150)
    runs = {
        "a": [
            s if rng.random() < 0.4 else [tags[j] for j in rng.integers(0, len(tags), len(s))]
            for s in gold
        ]
    }
    write_conll(tmp_path / "gold.conll", gold)
    write_conll(tmp_path / "runs" / "a.conll", runs["a"])
    with pytest.raises(cr.InputError, match="bio='iob1'"):
        cr.load(tmp_path / "gold.conll", runs=str(tmp_path / "runs"), metrics="span_f1")
    comp = cr.load(
        tmp_path / "gold.conll", runs=str(tmp_path / "runs"), metrics="span_f1", bio="iob1"
    ).competitions[0]
    for which, fn in [
        ("f1", sq.f1_score),
        ("precision", sq.precision_score),
        ("recall", sq.recall_score),
    ]:
        for average in ("micro", "macro", "weighted"):
            got = observed(comp, f"span_{which}", average=average)[0]
            assert got == pytest.approx(fn(gold, runs["a"], average=average), abs=1e-9), (
                which,
                average,
            )


# --- resamples: the bootstrap's sums equal the reference on the drawn documents -----------------


@pytest.mark.parametrize("match", ["strict", "overlap"])
@pytest.mark.parametrize("average", ["micro", "macro", "weighted"])
def test_resample_equals_reference_on_drawn_documents(brat_task, match, average):
    root, gold, runs = brat_task
    comp = cr.load(root / "gold", runs=str(root / "runs"), metrics="span_f1").competitions[0]
    p = prepare(comp, "span_f1", match=match, average=average)
    rng = np.random.default_rng(1)
    ids = list(comp.item_ids)
    names = ["alpha/run1", "alpha/run2", "beta"]
    for _ in range(5):
        idx = rng.integers(0, comp.n, comp.n)
        got = engine_on(p, idx)
        # the reference on the resample: each drawn document a distinct copy
        g = {f"{j}:{ids[i]}": gold[ids[i]] for j, i in enumerate(idx)}
        for s, name in enumerate(names):
            r = {f"{j}:{ids[i]}": runs[name].get(ids[i], set()) for j, i in enumerate(idx)}
            # macro is over the types of the whole test set, as on the full data
            assert got[s] == pytest.approx(ref_score(g, r, match, average), abs=1e-12)


# --- bad input: one error line naming file and line -------------------------------------------


def _brat_case(tmp_path, ann: str, txt: str | None = None):
    write(tmp_path, "gold/d1.ann", "T1\tLOC 0 4\tMadr\n")
    write(tmp_path, "runs/r1/d1.ann", ann)
    if txt is not None:
        write(tmp_path, "gold/d1.txt", txt)
        write(tmp_path, "runs/r1/d1.txt", txt)
    return run_cli(tmp_path, "validate", "gold", "--runs", "runs", "--metric", "span_f1")


def test_start_after_end_is_an_error(tmp_path):
    one_error(_brat_case(tmp_path, "T1\tLOC 9 4\tx\n"), "d1.ann, line 1", "starts after it ends")


def test_span_beyond_the_text_is_an_error(tmp_path):
    res = _brat_case(tmp_path, "T1\tLOC 0 4\tMadr\nT2\tPER 5 40\tx\n", txt="Madrid es")
    one_error(res, "d1.ann, line 2", "beyond the document's text (9 characters)")


def test_tsv_start_after_end(tmp_path):
    write(tmp_path, "gold.tsv", "filename\tlabel\tstart_span\tend_span\nd1\tLOC\t0\t4\n")
    write(
        tmp_path,
        "runs/a.tsv",
        "filename\tlabel\tstart_span\tend_span\nd1\tLOC\t0\t4\nd1\tLOC\t8\t2\n",
    )
    res = run_cli(tmp_path, "validate", "gold.tsv", "--runs", "runs", "--metric", "span_f1")
    one_error(res, "a.tsv, line 3", "starts after it ends (8 > 2)")


def test_bio_starting_with_i_names_the_schemes(tmp_path):
    write(tmp_path, "gold.conll", "a B-LOC\nb I-LOC\n\nc O\n")
    write(tmp_path, "runs/a.conll", "a B-LOC\nb I-LOC\n\nc I-PER\n")
    res = run_cli(tmp_path, "validate", "gold.conll", "--runs", "runs", "--metric", "span_f1")
    one_error(
        res, "a.conll, line 4", "I-PER", "IOB1", "seqeval's default mode", "IOB2", "--bio iob1"
    )


def test_bio_scheme_must_be_known(tmp_path):
    write(tmp_path, "gold.conll", "a B-LOC\n")
    write(tmp_path, "runs/a.conll", "a B-LOC\n")
    res = run_cli(
        tmp_path, "validate", "gold.conll", "--runs", "runs", "--metric", "span_f1", "--bio", "iob3"
    )
    one_error(res, "--bio must be one of iob2, iob1", "'iob3'")


def test_conll_runs_must_have_the_gold_sentences(tmp_path):
    write(tmp_path, "gold.conll", "a B-LOC\nb I-LOC\n\nc O\n")
    write(tmp_path, "runs/a.conll", "a B-LOC\n\nc O\n")
    res = run_cli(tmp_path, "validate", "gold.conll", "--runs", "runs", "--metric", "span_f1")
    one_error(res, "a.conll, line 1", "sentence 1 has 1 token(s)", "has 2")


def test_column_options_do_not_apply_to_mentions(tmp_path):
    write(tmp_path, "gold.tsv", "filename\tlabel\tstart_span\tend_span\nd1\tLOC\t0\t4\n")
    write(tmp_path, "runs/a.tsv", "filename\tlabel\tstart_span\tend_span\nd1\tLOC\t0\t4\n")
    res = run_cli(
        tmp_path, "validate", "gold.tsv", "--runs", "runs", "--metric", "span_f1", "--id-col", "2"
    )
    one_error(res, "--id-col 2", "gold.tsv holds mentions")


def test_span_metric_on_labels_is_an_error(tmp_path):
    write(tmp_path, "gold.tsv", "id\tlabel\n1\ta\n2\tb\n")
    write(tmp_path, "runs/a.tsv", "id\tlabel\n1\ta\n2\ta\n")
    res = run_cli(tmp_path, "validate", "gold.tsv", "--runs", "runs", "--metric", "span_f1")
    one_error(res, "gold.tsv, line 2", "not a mention list")


def test_unknown_match_is_an_error(brat_task):
    root, _, _ = brat_task
    comp = cr.load(root / "gold", runs=str(root / "runs"), metrics="span_f1").competitions[0]
    with pytest.raises(cr.InputError, match="match 'lenient' is not one of strict, overlap"):
        prepare(comp, "span_f1", match="lenient")


# --- the MEDDOPLACE scorer itself, where a checkout is at hand ---------------------------------


def _meddoplace_scorer():
    """``calculat_fscore_per_entity`` of TeMU-BSC/meddoplace_scoring_script (no licence, so not
    vendored): ``COMPREPORT_MEDDOPLACE_SCORER`` names a checkout. Its module imports geopy and
    openlocationcode for the geographic subtasks, which this function does not use: stubbed."""
    import importlib.util
    import os
    import sys
    import types
    from pathlib import Path

    root = os.environ.get("COMPREPORT_MEDDOPLACE_SCORER")
    if not root or not (Path(root) / "utils" / "geonorm_utils.py").is_file():
        pytest.skip("set COMPREPORT_MEDDOPLACE_SCORER to a checkout of meddoplace_scoring_script")
    stubs = {}
    for name in (
        "geopy",
        "geopy.distance",
        "openlocationcode",
        "openlocationcode.openlocationcode",
    ):
        if name not in sys.modules:
            stubs[name] = sys.modules[name] = types.ModuleType(name)
    sys.modules["geopy.distance"].great_circle = getattr(
        sys.modules["geopy.distance"], "great_circle", None
    )
    sys.modules["openlocationcode"].openlocationcode = sys.modules[
        "openlocationcode.openlocationcode"
    ]
    try:
        spec = importlib.util.spec_from_file_location(
            "geonorm_utils", Path(root) / "utils" / "geonorm_utils.py"
        )
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        for name in stubs:
            del sys.modules[name]
    return module.calculat_fscore_per_entity


def test_against_the_meddoplace_scorer(tmp_path):
    """Strict and overlap micro F1 equal the scorer's ``f_score`` and ``overlapping_f_score`` on
    TSV files where its quirks do not bite: every run predicts every type, in gold documents."""
    import pandas as pd

    score = _meddoplace_scorer()
    rng = np.random.default_rng(0)
    gold = random_docs(rng, 25, 7)
    gold = {d: m for d, m in gold.items() if m}
    runs = {f"r{k}": perturb(rng, gold) for k in range(4)}
    first = next(iter(gold))
    for docs in runs.values():
        for d in list(docs):
            if d not in gold:
                del docs[d]
        docs[first] |= {(900 + j, 901 + j, t) for j, t in enumerate(TYPES)}
    write_tsv(tmp_path / "gold.tsv", gold)
    for name, docs in runs.items():
        write_tsv(tmp_path / "runs" / f"{name}.tsv", docs)
    comp = cr.load(
        tmp_path / "gold.tsv", runs=str(tmp_path / "runs"), metrics="span_f1"
    ).competitions[0]
    strict, overlap = observed(comp, "span_f1"), observed(comp, "span_f1_overlap")
    cols = ["filename", "start_span", "end_span", "text", "label"]

    def grouped(path):
        df = pd.read_csv(path, sep="\t")
        return [df[df.filename == f][cols].values.tolist() for f in sorted(df.filename.unique())]

    for k, name in enumerate(comp.systems):
        res = score(
            grouped(tmp_path / "gold.tsv"), grouped(tmp_path / "runs" / f"{name}.tsv"), strict=False
        )
        assert strict[k] == pytest.approx(res["f_score"], abs=1e-12)
        assert overlap[k] == pytest.approx(res["overlapping_f_score"], abs=1e-12)
