"""Letters and e-mails that say where a team stands (issue 40 item 5).

The done-when case of issue 40 (tests/test_baselines_teams.py builds it: 35 runs of 14 teams and
``baseline-svm.tsv``, 3 classes, n = 2,000), reported with ``--baseline 'baseline*'``, small B and
``--emails``. The 9th team's letter (pdftotext) and its .eml must state the team's rank among the
teams, the winner and the verdict against the baseline, and how many of the other runs each run
is significantly better and worse than. Every expected number is read from results.json (the
pairs' stored verdicts, recounted here), never written down; the letters must hold no Monte-Carlo
SE and no significance-group letters, and the e-mail body must say what the letter says."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from email import policy
from email.parser import BytesParser

import pytest
from test_baselines_teams import _task

import compreport as cr
from compreport.language import language
from compreport.report.model import Format
from compreport.report.naming import team_letters
from compreport.report.pages.team import team_context, team_html
from conftest import run_cli, write_binary_task

pytest.importorskip("weasyprint")

B = 1000  # small, yet most verdicts of the 630 pairs settle under max-T at this B (seed 1)


def _flat(text: str) -> str:
    """``text`` on one line: runs of white space as one space (pdftotext breaks lines), the
    zero-width spaces of wrapped names dropped, ligatures unfolded."""
    text = text.replace("\u200b", "").replace("\ufb01", "fi").replace("\ufb02", "fl")
    return re.sub(r"\s+", " ", text).strip()


def _pages(pdf) -> list[str]:
    """The text of every page of ``pdf`` (pdftotext), flattened."""
    text = subprocess.run(
        ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    return [_flat(p) for p in text.split("\f") if p.strip()]


def _report(root, formats: str, *extra: str):
    """``compreport report`` of the 35-run case with ``--baseline 'baseline*'`` into ``out``."""
    return run_cli(
        root, "report", "gold.tsv", "--runs", "runs", "--metric", "macro_f1",
        "--baseline", "baseline*", "-B", str(B), "--seed", "1", "--format", formats,
        *extra, "-o", "out",
    )  # fmt: skip


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    """``compreport report gold.tsv --runs runs --baseline 'baseline*' --emails`` on the 35-run
    case: (results.json's competition, the output folder, the 9th team)."""
    if shutil.which("pdftotext") is None:
        pytest.skip("poppler-utils not installed")
    root = tmp_path_factory.mktemp("standing")
    _task(root)
    res = _report(root, "json")
    assert res.returncode == 0, res.stderr
    (comp,) = json.loads((root / "out/results.json").read_text(encoding="utf-8"))["competitions"]
    ninth = comp["team_ranks"][8]["team"]
    winner_team = comp["team_ranks"][0]["team"]
    (root / "contacts.csv").write_text(
        f"team,address,language\n{ninth},t9@example.org\n{winner_team},w@example.org,es\n",
        encoding="utf-8",
    )
    res = _report(root, "json,pdf", "--emails", "contacts.csv", "--force")
    assert res.returncode == 0, res.stderr
    return comp, root / "out", ninth


def _expected(comp: dict, run: str) -> dict:
    """What the letter must say of ``run``, recounted from results.json's stored pairs (the
    baselines' verdicts too, from their pairs, not from ``vs_baselines``)."""
    baselines = set(comp["baselines"])
    ma = comp["metrics"][0]
    better = worse = 0
    for c in ma["pairs"]:
        if run not in (c["a"], c["b"]) or ({c["a"], c["b"]} & baselines):
            continue
        if c["significant"] is True:
            # a is ranked above b: a positive diff means a is better
            run_better = (c["diff"] > 0) == (c["a"] == run)
            better, worse = better + run_better, worse + (not run_better)
    (base,) = comp["baselines"]
    (pair,) = [c for c in ma["pairs"] if {c["a"], c["b"]} == {run, base}]
    if pair["significant"] is None:
        verdict = f"{run} was not tested against the baseline {base}"
    elif not pair["significant"]:
        verdict = f"{run} cannot be told apart from the baseline {base} at α = 0.05"
    else:
        run_better = (pair["diff"] > 0) == (pair["a"] == run)
        verdict = (
            f"{run} is significantly {'better' if run_better else 'worse'} than the baseline "
            f"{base} at α = 0.05"
        )
    return {"better": better, "worse": worse, "baseline": verdict}


def _team_of(comp: dict, run: str) -> str:
    return next(t["team"] for t in comp["team_ranks"] if run in t["runs"])


@pytest.mark.slow
def test_the_9th_teams_letter_says_where_it_stands(case):
    comp, out, ninth = case
    analysis = cr.Analysis.read(out / "results.json")
    name, runs = team_letters(analysis.competition())[ninth]
    team = next(t for t in comp["team_ranks"] if t["team"] == ninth)
    assert runs == team["runs"] and len(runs) == 3
    pages = _pages(out / comp["id"] / "teams" / name)
    assert len(pages) == len(runs)
    ma = comp["metrics"][0]
    (best,) = [s for s in ma["scores"] if s["is_best"]]
    others = len(comp["systems"]) - len(comp["baselines"]) - 1
    for k, (run, page) in enumerate(zip(runs, pages, strict=True), start=1):
        head = "your best run" if k == 1 else f"your {['2nd', '3rd'][k - 2]}-best run"
        assert f"{run} {comp['name']} · team {ninth} · {head}, page {k} of 3" in page, page
        assert (
            f"Your team, {ninth}, ranks 9th of the {len(comp['team_ranks'])} teams, each team "
            "ranked by its best run." in page
        )
        assert (
            f"The winner is {best['system']}, of team {_team_of(comp, best['system'])}, with the "
            f"best macro-F1, {best['score']:.4f}." in page
        )
        want = _expected(comp, run)
        assert (
            f"{run} is significantly better than {want['better']} of the {others} other runs and "
            f"significantly worse than {want['worse']} of them, at α = 0.05." in page
        ), page
        assert want["baseline"] in page, page
        me = next(s for s in ma["scores"] if s["system"] == run)
        assert f"{me['rank']} of 36 systems: 35 runs and 1 baseline" in page
        # the organizer's jargon stays in the organizer's report
        assert "Monte-Carlo SE" not in page and "group" not in page.lower(), page
    # the recount is not vacuous: the best run beats some runs and loses to others
    first = _expected(comp, runs[0])
    assert first["better"] > 0 and first["worse"] > 0


@pytest.mark.slow
def test_the_9th_teams_email_says_what_its_letter_says(case):
    comp, out, ninth = case
    analysis = cr.Analysis.read(out / "results.json")
    name, runs = team_letters(analysis.competition())[ninth]
    pages = _pages(out / comp["id"] / "teams" / name)
    (eml,) = [p for p in (out / "emails").iterdir() if ninth.lower() in p.stem.replace("-", "_")]
    msg = BytesParser(policy=policy.default).parse(eml.open("rb"))
    body = msg.get_body(preferencelist=("plain",)).get_content()
    flat = _flat(body)
    (best,) = [s for s in comp["metrics"][0]["scores"] if s["is_best"]]
    assert f"Your team, {ninth}, ranks 9th of the 14 teams" in flat
    assert f"The winner is {best['system']}, of team {_team_of(comp, best['system'])}" in flat
    for k, (run, page) in enumerate(zip(runs, pages, strict=True)):
        label = "Your best run" if k == 0 else f"Your {['2nd', '3rd'][k - 1]}-best run"
        assert f"- {label}, {run}: rank " in body, body
        want = _expected(comp, run)
        # every sentence of the run's paragraph is on its letter's page, word for word
        para = body.split(f"- {label}, {run}: ", 1)[1].split("\n- ", 1)[0].split("\n\n", 1)[0]
        sentences = [_flat(x) for x in para.split("\n")[1:] if x.strip()]
        assert any(want["baseline"] in x for x in sentences)
        assert any(f"better than {want['better']} of the 34 other runs" in x for x in sentences)
        for sentence in sentences:
            # pdftotext drops the hyphen of a line broken after one ("step-" / "down")
            said = sentence.replace("Your run ", "").replace("-", "")
            assert said in page.replace("Your run ", "").replace("-", ""), sentence
    # the leaderboard excerpt: the winner, the baseline and each run marked, with its stored rank
    scores = {x["system"]: x for x in comp["metrics"][0]["scores"]}
    for run in runs:
        me = scores[run]
        assert f"  {me['rank']}. {run} (team {ninth}): {me['score']:.4f} [" in body
        assert re.search(rf"  {me['rank']}\. {re.escape(run)} .*\] <- your run$", body, re.M)
    assert f"  1. {best['system']} (team {_team_of(comp, best['system'])}): " in body
    base = scores["baseline-svm"]
    assert f"  {base['rank']}. baseline-svm (baseline): {base['score']:.4f}" in body
    assert "alpha" not in body and "α = 0.05" in body
    assert "group" not in body.lower() and "Monte-Carlo SE" not in body
    # one count of runs throughout: the rank's 35 runs are the winner's and the counts' runs
    assert "35 runs and 1 baseline" in body and "of the 34 other runs" in body


def test_counts_of_runs_agree_when_baselines_compete(task):
    """With ``include_baselines`` the baseline competes: the winner's sentence still counts the 35
    runs that the rank's "36 systems: 35 runs and 1 baseline" names, not 36 "competing runs"."""
    analysis = cr.analyze(task, bootstrap=200, seed=1, refine=False, include_baselines=True)
    comp = analysis.competition()
    page = _flat(re.sub(r"<[^>]+>", "", team_html(analysis, comp, comp.primary.best)))
    assert comp.primary.best not in comp.baselines and comp.primary.competitiveness["m"] == 36
    assert "it ranked first of the 35 competing runs" in page, page
    assert "1 of 36 systems: 35 runs and 1 baseline" in page


@pytest.mark.slow
def test_the_winning_team_is_told_it_won_in_spanish(case):
    comp, out, _ = case
    winner_team = comp["team_ranks"][0]["team"]
    (best,) = [s for s in comp["metrics"][0]["scores"] if s["is_best"]]
    (eml,) = [p for p in (out / "emails").iterdir() if winner_team.lower() in p.stem]
    body = _flat(
        BytesParser(policy=policy.default)
        .parse(eml.open("rb"))
        .get_body(preferencelist=("plain",))
        .get_content()
    )
    assert f"Su equipo, {winner_team}, ocupa el 1.º puesto de los 14 equipos" in body, body
    assert f"Su equipo ganó: su envío {best['system']} tiene el mejor valor de" in body
    assert "quedó en primer lugar entre los 35 envíos que compiten" in body
    assert "Su mejor envío, " in body and "alpha" not in body


@pytest.fixture(scope="module")
def task(tmp_path_factory):
    root = tmp_path_factory.mktemp("standing-api")
    _task(root)
    return cr.load(root / "gold.tsv", runs=root / "runs", metrics="macro_f1", baselines="baseline*")


def _ninth_best_run(analysis):
    comp = analysis.competition()
    return comp, comp.team_ranks[8].runs[0]


def test_under_vs_best_the_letter_says_what_was_not_tested(task):
    """The family of the winner's comparisons tests no run against the baseline, nor against the
    runs but the winner: the letter says so rather than count untested pairs as ties."""
    analysis = cr.analyze(task, bootstrap=B, seed=1, family="vs-best")
    comp, run = _ninth_best_run(analysis)
    page = _flat(re.sub(r"<[^>]+>", "", team_html(analysis, comp, run)))
    assert f"{run} was not tested against the baseline baseline-svm" in page
    assert (
        "33 of the other runs were not compared with it (only the comparisons with the "
        "winner are tested)." in page
    )
    winner = comp.primary.score_of(comp.primary.best)
    worse = analysis.competition().primary.pair(comp.primary.best, run)[0].significant
    assert (
        f"{run} is significantly better than 0 of the 1 other runs compared with it and "
        f"significantly worse than {int(bool(worse))} of them" in page
    ), page
    assert winner.system in page


def test_under_vs_baseline_the_letter_states_the_baseline_verdict_only(task):
    analysis = cr.analyze(task, bootstrap=B, seed=1, family="vs-baseline")
    comp, run = _ninth_best_run(analysis)
    page = _flat(re.sub(r"<[^>]+>", "", team_html(analysis, comp, run)))
    (v,) = comp.primary.beats_baselines(run)
    assert v.significant is not None and v.family == "vs-baseline"
    word = "better" if v.beats else "worse" if v.worse else None
    if word:
        assert f"{run} is significantly {word} than the baseline baseline-svm" in page
    assert (
        f"{run} was not compared with the 34 other runs (only the comparisons of participants "
        "with baselines are tested), so this report gives no count of the runs it beats." in page
    ), page


def test_the_letters_leaderboard_excerpt(task):
    """The excerpt holds the winner, the two rows above and below the run and the baseline, in
    rank order, with a gap row where rows are left out; the run's row is marked."""
    analysis = cr.analyze(task, bootstrap=200, seed=1, refine=False)
    comp, run = _ninth_best_run(analysis)
    page = team_html(analysis, comp, run)
    at = page.index('<table class="excerpt">')
    table = page[at : page.index("</table>", at)]
    rows = [
        [
            html.unescape(re.sub(r"<[^>]+>", "", c)).replace("\u200b", "").strip()
            for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)
        ]
        for r in re.findall(r"<tr[^>]*>.*?</tr>", table.split("<tbody>")[1], re.S)
    ]
    order = [x.system for x in comp.primary.scores]
    k = order.index(run)
    keep = sorted({0, order.index("baseline-svm"), *range(k - 2, k + 3)})
    want = []
    for i, j in enumerate(keep):
        if i and j > keep[i - 1] + 1 or (not i and j > 0):
            want.append("…")
        want.append(order[j])
    if keep[-1] < len(order) - 1:
        want.append("…")
    shown = [r[0] if len(r) == 1 else r[1].removesuffix("baseline") for r in rows]
    assert shown == want, rows
    (mine,) = re.findall(r'<tr class="mine">.*?</tr>', table, re.S)
    assert run in mine.replace("<wbr>", "")


def test_negative_numbers_print_a_true_minus_sign(tmp_path):
    """Two runs a hair apart: the gap's interval to the runner-up crosses zero, and its lower end
    prints U+2212, never a hyphen-minus."""
    gold = write_binary_task(tmp_path, {"A.01": 0.8, "B.01": 0.79}, n=150, seed=5)
    analysis = cr.analyze(
        cr.load(gold, runs=tmp_path / "runs", metrics="accuracy"), bootstrap=199, seed=1
    )
    comp = analysis.competition()
    ctx = team_context(analysis, comp, comp.primary.best, Format())
    c, _ = comp.primary.pair(comp.primary.best, comp.primary.runner_up)
    assert c.ci_low < 0 < c.ci_high  # the premise: the interval crosses zero
    assert ctx["comparison"]["ci"].startswith("[\u2212") and "-" not in ctx["comparison"]["ci"]


def test_spanish_letter_words(task):
    analysis = cr.analyze(task, bootstrap=200, seed=1, refine=False)
    comp = analysis.competition()
    team = comp.team_ranks[8]
    with language("es"):
        page = _flat(re.sub(r"<[^>]+>", "", team_html(analysis, comp, team.runs[1])))
    assert f"su 2.º mejor envío, página 2 de {len(team.runs)}" in page
    assert f"Su equipo, {team.team}, ocupa el 9.º puesto de los 14 equipos" in page
    assert "Dónde queda su equipo" in page and "no es transitiva" in page


def test_teams_and_winners_tied_exactly_are_named(tmp_path):
    """Two teams whose best runs predict the same labels share the first place: each is told its
    team ties with the other, and a third team is told both winners."""
    gold = write_binary_task(tmp_path, {"Ana.01": 0.9, "Ana.02": 0.7, "Beta.01": 0.6}, n=150)
    runs = tmp_path / "runs"
    (runs / "Tied.01.tsv").write_bytes((runs / "Ana.01.tsv").read_bytes())
    analysis = cr.analyze(cr.load(gold, runs=runs, metrics="accuracy"), bootstrap=199, seed=1)
    comp = analysis.competition()
    best = comp.primary.score_of("Ana.01")
    assert best.is_best and comp.primary.score_of("Tied.01").is_best  # the premise
    score = f"{best.score:.4f}"
    tied = team_context(analysis, comp, "Tied.01", Format())
    assert tied["team_sentence"] == (
        "Your team, Tied, ranks 1st of the 3 teams, each team ranked by its best run, tied "
        "exactly with Ana."
    )
    assert tied["winner_sentence"] == (
        f"Your team won: your run Tied.01 has the best accuracy, {score}, tied exactly with "
        "Ana.01 (team Ana)."
    )
    beta = team_context(analysis, comp, "Beta.01", Format())
    assert beta["team_sentence"].startswith("Your team, Beta, ranks 3rd of the 3 teams")
    assert beta["winner_sentence"] == (
        f"The winners, tied exactly with the best accuracy, {score}, are Ana.01 (team Ana), "
        "Tied.01 (team Tied)."
    )
    # Ana's 2nd-best run: its page and the winner sentence name the team's winning run
    second = team_context(analysis, comp, "Ana.02", Format())
    assert second["page_label"] == "your 2nd-best run, page 2 of 2"
    assert second["winner_sentence"].startswith("Your team won: your run Ana.01 has the best")
