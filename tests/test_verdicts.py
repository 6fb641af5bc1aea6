"""One verdict, one model: every rendered verdict is the stored one, and every format prints the
same cells.

A 12-system competition is built so that the Holm correction over the m − 1 comparisons with the
winner and the Holm correction over all 66 pairs disagree for several systems: the report's rule
(all pairs) must decide everything the team sheets, HTML pages and LaTeX tables say.
"""

from __future__ import annotations

import html as htmllib
import re
import warnings

import numpy as np
import pytest

import compreport as cr
from compreport.language import language
from compreport.report import Report, prose
from compreport.report.latex.renderer import Renderer
from compreport.report.latex.tex import escape
from compreport.report.model import MISSING, Format
from compreport.report.pages import html
from compreport.report.pages.team import FOOTNOTE, plain_verdict, team_context, team_html
from compreport.resources import demo_workshop_dir
from compreport.settings import Settings, make_settings
from compreport.stats.analysis import analyze
from conftest import make_competition


def _stated(c):
    """What a letter states of comparison ``c``: its stored verdict, or "undecided"."""
    return "undecided" if c.undecided else c.significant


def _twelve_competition():
    rng = np.random.default_rng(0)
    n = 400
    gold = rng.integers(0, 2, n)
    accs = [0.80, 0.74, 0.73, 0.72, 0.71, 0.70, 0.69, 0.68, 0.66, 0.64, 0.62, 0.60]
    preds = [np.where(rng.random(n) < a, gold, 1 - gold) for a in accs]
    return make_competition(
        gold, preds, systems=[f"Team{i:02d}.01" for i in range(12)], cid="twelve"
    )


def _analyze(settings: Settings):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return analyze([_twelve_competition()], settings)


@pytest.fixture(scope="module")
def twelve():
    a = _analyze(Settings(bootstrap=2000))
    ma = a.competitions[0].primary
    # the premise: some systems differ from the best and some cannot be told apart from it
    assert any(c.significant for c in ma.vs_best) and any(
        c.significant is False for c in ma.vs_best
    )
    return a


@pytest.fixture(scope="module")
def demo():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cr.analyze(cr.load(str(demo_workshop_dir())), bootstrap=300, seed=0)


def _text(page: str) -> str:
    body = re.sub(r"<style.*?</style>|<svg.*?</svg>", " ", page, flags=re.S)
    return (
        re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", " ", body)))
        .replace(" .", ".")
        .replace(" ,", ",")
    )


def _sentences(text: str) -> list[str]:
    return re.split(r"(?<=[.!?])\s+(?=[A-Z])", text)


def _states_a_verdict(sentence: str) -> bool:
    return bool(re.search(r"significantly|told apart|not significantly", sentence))


def test_team_sheets_state_the_stored_verdicts_and_never_contradict(demo, twelve):
    checked = 0
    for analysis in (demo, twelve):
        s = analysis.settings
        for comp in analysis.competitions:
            ma = comp.primary
            for system in comp.systems:
                me = ma.score_of(system)
                ctx = team_context(analysis, comp, system, Report(analysis).format)
                text = _text(team_html(analysis, comp, system).replace("<wbr>", ""))
                subject = system if system in comp.baselines else f"Your run {system}"
                # "cannot be told apart from" is exactly the stored pair verdicts
                for x in ma.scores:
                    if x.system != system:
                        c, _ = ma.pair(system, x.system)
                        assert (x.system in ctx["alike"]) == (c.significant is False), (
                            comp.id,
                            system,
                            x.system,
                        )
                if me.is_best:
                    runner = next((x for x in ma.scores if not x.is_best), None)
                    if runner is not None:
                        c, _ = ma.pair(system, runner.system)
                        who = system if c.undecided else subject  # "Whether X differs"
                        said = plain_verdict(s, _stated(c), "runner-up", who, runner.system)
                        assert said in text
                        assert (runner.system in ctx["alike"]) == (c.significant is False)
                else:
                    c, _ = ma.pair(ma.best, system)
                    if system not in comp.baselines:  # a participant's verdict against the best
                        assert c.significant == me.differs_from_best
                    who = system if c.undecided else subject  # "Whether X differs"
                    said = plain_verdict(s, _stated(c), "winner", who, ma.best)
                    assert said in text
                    assert (
                        plain_verdict(s, not c.significant, "winner", subject, ma.best) not in text
                    )
                    # the two statements about the winner agree
                    assert (ma.best in ctx["alike"]) == (c.significant is False)
                # every verdict points to the one footnote, which names the rule that decided
                for sentence in _sentences(text):
                    if _states_a_verdict(sentence):
                        assert FOOTNOTE in sentence or s.rule in sentence, sentence
                note = text[text.index(f"{FOOTNOTE} Method:") :]
                assert f"Every verdict on this page uses the {s.rule}" in note
                checked += 1
    assert checked > 60


def test_a_p_value_below_the_printed_decimals_reads_p_less_than(twelve):
    """A p-value printed ``<0.01`` is stated ``p < 0.01`` in a sentence, never ``p = <0.01``: the
    team sheet (English and Spanish)."""
    fmt = Format(p_decimals=2)
    assert (fmt.p_is(0.2532), fmt.p_is(0.001), fmt.p_is(None, "q")) == (
        "p = 0.25",
        "p < 0.01",
        "q = \u2013",
    )
    comp = twelve.competitions[0]
    ma = comp.primary
    last = ma.scores[-1].system
    assert fmt.p(ma.pair(ma.best, last)[0].p_value) == "<0.01"  # the premise
    for lang, raw in (("en", "p < 0.01 (raw"), ("es", "p < 0.01 (sin corregir")):
        with language(lang):
            text = _text(team_html(twelve, comp, last, fmt))
        assert raw in text and "= <" not in text, text


def _html_tables(page: str, cls: str) -> list[list[list[tuple[str, bool]]]]:
    """Every ``<table class=cls>`` of a page: rows of (text, bold) per <td>."""
    out = []
    for table in re.findall(rf'<table class="{cls}">(.*?)</table>', page, re.S):
        body = table.split("<tbody>", 1)[1]
        rows = []
        for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
            cells = re.findall(r'<td(?: class="([^"]*)")?>(.*?)</td>', tr, re.S)
            t_ = [
                re.sub(r'<span class="tag">baseline</span>', "", t) for _, t in cells
            ]  # the system's tag
            rows.append(
                [
                    (
                        re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", "", t))).strip(),
                        "best" in (c or "").split(),
                    )
                    for (c, _), t in zip(cells, t_)
                ]
            )
        out.append(rows)
    return out


def _latex_rows(tex: str) -> list[list[tuple[str, bool]]]:
    """Body rows of LaTeX tables: (text, bold) per cell, marks removed, numbers' LaTeX undone."""
    rows = []
    bodies = (
        [tex.split("\\endlastfoot", 1)[1].split("\\end{longtable}", 1)[0]]
        if "\\endlastfoot" in tex
        else re.findall(r"\\midrule\n(.*?)\\bottomrule", tex, re.S)
    )
    for body in bodies:
        for line in body.splitlines():
            if not line.endswith(r"\\") or "&" not in line:
                continue
            cells = []
            for raw in line[:-2].split(" & "):
                raw = raw.strip()
                bold = raw.startswith(r"\bfseries ")
                raw = re.sub(
                    r"(\\rlap\{)?\\textsuperscript\{[^}]*\}\}?", "", raw.removeprefix(r"\bfseries ")
                )
                raw = re.sub(
                    r"\\rlap\{(\d+)\}\\phantom\{\\textmd\{\1\}\}", r"\1", raw
                )  # a bold fraction
                raw = raw.replace(r"\textminus{}", "-").replace(r"\textless{}", "<")
                raw = MISSING if raw == "--" else raw
                cells.append((raw, bold))
            rows.append(cells)
    return rows


def _markdown_rows(md: str) -> list[list[tuple[str, bool]]]:
    rows = []
    for line in md.splitlines()[2:]:
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        rows.append(
            [
                (re.sub(r"\\(.)", r"\1", c.strip("*")).replace("&lt;", "<"), c.startswith("**"))
                for c in cells
            ]
        )
    return rows


#: For each table kind: the model keys of the cells each format prints, in order (None: a cell not
#: compared).
LAYOUTS = {
    "ci": {
        "latex": [None, "ci_low", "mean", "ci_high"],
        "html": ["rank", None, "score", "mean", "se", "ci_low", "ci_high", "group"],
        "markdown": ["rank", None, "score", "mean", "se", "ci_low", "ci_high", "group"],
    },
    "diff-best": {
        "latex": [None, "ci_low", "diff", "ci_high", "p_adjusted", "significant"],
        # the pages show the one p-value behind each verdict (model.DIFF_BEST_SHOWN)
        "html": [None, "diff", "ci_low", "ci_high", "p_adjusted", "significant"],
        "markdown": [
            None,
            "diff",
            "ci_low",
            "ci_high",
            "excludes_zero",
            "none",
            "p_se",
            "bonferroni",
            "holm",
            "bh",
            "maxt",
            "p_adjusted",
            "significant",
            "settled",
        ],
    },
    "pvalues": {
        "latex": [None, None, "diff", "none", "bonferroni", "holm", "bh", "maxt"],
        "html": None,  # every pair's p-values are in pairs-<metric>.csv, not on the pages
        "markdown": [None, None, "diff", "none", "bonferroni", "holm", "bh", "maxt", "significant"],
    },
}
HTML_CLASS = {"ci": "cis", "diff-best": "diffs", "pvalues": "pvalues"}


def _compare(table, rows, keys, where):
    assert len(rows) == len(table.rows), where
    for r, got in zip(table.rows, rows):
        assert len(got) == len(keys), (where, got)
        for key, (text, bold) in zip(keys, got):
            if key is not None:
                cell = r.cells[key]
                assert (text, bold) == (cell.text, cell.bold), (where, r.label, key)


def test_latex_html_and_markdown_print_the_same_cells(demo):
    report = Report(demo, decimals=3)  # --decimals reaches every format
    # the LaTeX leaderboard with the columns this test reads (its other optional columns, the
    # team, interval and marks, come and go with the width model: tests/test_latex_teams.py)
    latex_report = Report(demo, decimals=3, latex_columns="rank_set,group")
    # the HTML tables are read from pages built without their figures (drawing them is most of the
    # cost and no figure is read here); Report.to_html, figures included, prints the same tables
    first = demo.competitions[0]
    full = report.to_html(first.id)
    for cls in ("leaderboard", *HTML_CLASS.values()):
        assert _html_tables(full, cls) == _html_tables(
            html.competition_html(demo, first, report.format), cls
        )
    for comp in demo.competitions:
        page = html.competition_html(demo, comp, report.format)
        lb = report.table("leaderboard", comp.id)
        scores = [f"score:{ma.name}" for ma in comp.metrics]
        team = ["team"] if lb.extra["teams"] else []  # the team column, when teams say more
        _compare(
            lb,
            _latex_rows(latex_report.to_latex("leaderboard", comp.id)),
            ["rank", "rank_set", None, *scores, "group"],
            (comp.id, "leaderboard", "latex"),
        )
        _compare(
            lb,
            _markdown_rows(report.to_markdown("leaderboard", comp.id)),
            ["rank", "rank_set", None, *team, *scores, "ci", "group", "marks"],
            (comp.id, "leaderboard", "markdown"),
        )
        ci = 3 + len(team)
        html_rows = [
            [c for i, c in enumerate(row) if i != ci]
            for row in _html_tables(page, "leaderboard")[0]
        ]
        _compare(
            lb,
            html_rows,
            ["rank", None, *team, scores[0], "group", "rank_set", *scores[1:], "marks"],
            (comp.id, "leaderboard", "html"),
        )
        assert sum(c.bold for r in lb.rows for c in r.cells.values()) >= len(comp.metrics)
        for i, ma in enumerate(comp.metrics):
            for kind, layout in LAYOUTS.items():
                t = report.table(kind, comp.id, ma.name)
                if not t.rows:
                    continue
                where = (comp.id, ma.name, kind)
                _compare(
                    t,
                    _latex_rows(report.to_latex(kind, comp.id, ma.name)),
                    layout["latex"],
                    where + ("latex",),
                )
                _compare(
                    t,
                    _markdown_rows(report.to_markdown(kind, comp.id, ma.name)),
                    layout["markdown"],
                    where + ("markdown",),
                )
                if layout["html"] is not None:
                    _compare(
                        t,
                        _html_tables(page, HTML_CLASS[kind])[i],
                        layout["html"],
                        where + ("html",),
                    )


def test_latex_verdicts_and_captions_are_the_stored_ones(twelve):
    comp = twelve.competitions[0]
    ma = comp.primary
    r = Renderer(twelve)
    rule = escape(twelve.settings.rule)
    rows = _latex_rows(r.differences_from_best(comp, ma))
    assert [row[-1][0] for row in rows] == [
        "undecided"
        if c.undecided
        else MISSING
        if c.significant is None
        else "yes"
        if c.significant
        else "no"
        for c in ma.vs_best
    ]
    tex = "\n".join(r.competition_tables(comp).values())
    for caption in re.findall(r"\\caption\{(.*)\}", tex):
        if re.search(r"significant|not significantly", caption):
            assert rule in caption, caption
    # the matrix marks are the stored marks of the verdicts: one per significant pair (thresholds <=
    # alpha)
    # alpha), and a "?" per undecided one
    matrix = r.pair_matrix(comp, ma)
    marked = len(re.findall(r"\d\\rlap\{\\textsuperscript\{[^?]", matrix))
    assert (
        marked == sum(c.mark != "" for c in ma.pairs) == sum(bool(c.significant) for c in ma.pairs)
    )
    assert len(re.findall(r"\d\\rlap\{\\textsuperscript\{\?\}", matrix)) == sum(
        c.undecided for c in ma.pairs
    )


def test_vs_best_family_decides_only_the_comparisons_with_the_best():
    a = _analyze(Settings(bootstrap=2000, family="vs-best"))
    ca = a.competitions[0]
    ma = ca.primary
    for c in ma.pairs:
        assert (c.significant is None and not c.undecided) == (c.a != ma.best)
    # the HTML matrix shades untested pairs apart from the not-significant ones, with a key
    page = html.competition_html(a, ca)
    untested = sum(c.significant is None and not c.undecided for c in ma.pairs)
    assert (
        page.count('<td class="cell sig-2">') == untested > 0
        and 'class="key sig-2">not tested' in page
    )
    worst = ma.scores[-1].system
    ctx = team_context(a, ca, worst, Report(a).format)
    assert ctx["untested"] and ma.best not in ctx["untested"]
    assert "only the comparisons with the winner are tested" in _text(team_html(a, ca, worst))


def test_a_system_with_no_tested_pair_has_no_group_letter():
    """A group letter says what the tests found: a baseline under vs-best (never compared with the
    best) and every system with B = 0 get none, not the letter of the best (a reviewer found the
    majority baseline at F1 = 0 sharing "a" with the winner); the others' letters are unchanged."""
    comp = _twelve_competition()
    comp.baselines = ["Team05.01", "Team11.01"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        vs = (
            analyze([comp], Settings(bootstrap=300, family="vs-best", refine=False))
            .competitions[0]
            .primary
        )
        none = analyze([comp], Settings(bootstrap=0)).competitions[0].primary
    groups = {s.system: s.group for s in vs.scores}
    assert groups["Team05.01"] == groups["Team11.01"] == "" and groups[vs.best].startswith("a")
    assert all(g for s, g in groups.items() if s not in comp.baselines)
    assert {s.group for s in none.scores} == {""}
    scores_only = analyze([comp], Settings(bootstrap=0))
    assert "| a |" not in Report(scores_only).to_markdown("leaderboard")
    sheet = _text(team_html(scores_only, scores_only.competitions[0], "Team03.01"))
    assert "with B = 0 no resamples were drawn" in sheet


def test_per_row_families_can_reject_through_their_smallest_row():
    """Per-row Holm over 12 systems at B = 200: the row of the system ranked second to last holds
    one comparison, so a corrected p-value can reach 1/201 (the 66 pairs of all-pairs Holm cannot go
    below 66/201). The stored rule says so: no sentence saying that no comparison can be
    significant, and the pairs it finds significant are consistent with it; only the best's own row
    cannot reject, which the warning says."""
    rng = np.random.default_rng(0)
    gold = rng.integers(0, 2, 500)
    accs = [0.9, 0.89, 0.88, 0.87, 0.86, 0.85, 0.84, 0.83, 0.82, 0.81, 0.80, 0.55]
    comp = make_competition(
        gold, [np.where(rng.random(500) < a, gold, 1 - gold) for a in accs], metrics=["accuracy"]
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        per_row = cr.analyze(comp, bootstrap=200, family="per-row", refine=False, correction="holm")
        all_pairs = cr.analyze(comp, bootstrap=200, refine=False, correction="holm")
    never = [str(w.message) for w in caught if "can never reject" in str(w.message)]
    # per row, the best's own row (11 comparisons, 11/201 > 0.05) cannot reject: every system ties
    # with the best whatever the data, and the warning says so, and only that
    assert (
        len(never) == 2
        and "the comparisons with the best" in never[0]
        and "(its row: 11 comparisons)" in never[0]
        and "every system ties with the best whatever the data" in never[0]
        and "all pairs" in never[1]
    ), never
    v = per_row.competitions[0].primary.verdicts
    assert v["min_p"] == pytest.approx(1 / 201) and v["can_reject"] is True
    # a corrected p-value below alpha (at B = 200 its Monte-Carlo error leaves it undecided)
    assert any(c.p_adjusted < 0.05 for c in per_row.competitions[0].primary.pairs)
    assert all_pairs.competitions[0].primary.verdicts["can_reject"] is False
    assert prose.cannot_reject(per_row.settings, per_row.competitions[0].primary) is None


def test_an_undefined_score_is_left_out_of_tests_and_groups():
    """A constant prediction has no Pearson correlation: undefined, warned, never 'significant'."""
    from compreport.errors import InputWarning
    from compreport.stats.analysis import analyze_competition

    rng = np.random.default_rng(1)
    n = 200
    gold = rng.normal(size=n).round(3)
    preds = [gold + rng.normal(scale=s, size=n) for s in (0.5, 0.8, 1.0)] + [np.full(n, 0.5)]
    comp = make_competition(
        gold, np.array(preds), systems=["a", "b", "c", "const"], metrics=["pearson"]
    )
    with pytest.warns(
        InputWarning, match=r"'pearson' is undefined for 'const'.*left out of the comparisons"
    ):
        ca = analyze_competition(comp, Settings(bootstrap=500), progress=False)
    ma = ca.primary
    const = ma.score_of("const")
    assert np.isnan(const.score) and const.group == "" and const.differs_from_best is None
    for c in ma.pairs:
        untested = "const" in (c.a, c.b)
        assert (c.significant is None) == untested and np.isnan(c.p_value) == untested
    tested = [c for c in ma.pairs if "const" not in (c.a, c.b)]
    # corrected over the 3 tested pairs, not 6
    assert all(c.p_bonferroni == pytest.approx(min(1.0, 3 * c.p_value)) for c in tested)
    a = analyze([], Settings(bootstrap=500))
    a.competitions = [ca]
    text = _text(team_html(a, ca, "const"))
    assert "significantly better" not in text and "its score is undefined" in text


def test_baselines_are_compared_but_do_not_compete():
    """A baseline above every participant: the winner is the best participant; the baseline is in
    the pairs and the groups, not in the comparisons with the best or the competitiveness
    figures."""
    comp = _twelve_competition()
    comp.baselines = ["Team00.01", "Team11.01"]  # the strongest and the weakest system
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = analyze([comp], Settings(bootstrap=500)).competitions[0].primary
        b = analyze([comp], Settings(bootstrap=500, include_baselines=True)).competitions[0].primary
    assert a.scores[0].system == "Team00.01" and a.best != "Team00.01"
    assert a.best == next(s.system for s in a.scores if s.system not in comp.baselines)
    assert [s.system for s in a.scores if s.is_best] == [a.best]
    assert not {c.b for c in a.vs_best} & set(comp.baselines) and len(a.vs_best) == 9
    assert a.score_of("Team00.01").differs_from_best is None and a.score_of("Team00.01").group
    assert (
        len(a.pairs) == 66
        and a.competitiveness["m"] == 10
        and a.competitiveness["possible_comparisons"] == 45
    )
    assert b.best == "Team00.01" and len(b.vs_best) == 11 and b.competitiveness["m"] == 12
    # same pairs and verdicts either way: the family of all pairs does not depend on who competes
    assert [(c.a, c.b, c.significant) for c in a.pairs] == [
        (c.a, c.b, c.significant) for c in b.pairs
    ]
    report = Report(analyze([comp], Settings(bootstrap=200)))
    text = _text(report.to_html())
    assert "do not compete" in text
    # the winner's sheet: the best of the 10 competing systems, and the baseline above it is named
    winner = report.analysis.competitions[0]
    sheet = _text(team_html(report.analysis, winner, winner.primary.best).replace("<wbr>", ""))
    assert (
        f"Your run {winner.primary.best} is the winner: it ranked first of the 10 competing runs "
        "with the best accuracy." in sheet
    ), sheet
    assert "Baselines do not compete; scored higher: Team00.01." in sheet
    assert "of the 12 systems" not in sheet


def test_a_lone_participant_and_per_row_baselines_read_right():
    """One participant with a baseline: its sheet says it is the only competing system and nothing
    else (it also said "Every system has the best score"). Per-row with baselines ranked below the
    best: the best's row holds them, and the sheets' verdicts and p-values are those of that row
    (the tables correct over the verdicts' family, so there is no second p-value to explain)."""
    rng = np.random.default_rng(3)
    gold = rng.integers(0, 2, 200)
    lone = make_competition(
        gold,
        [np.where(rng.random(200) < a, gold, 1 - gold) for a in (0.8, 0.6)],
        systems=["P.01", "base"],
        cid="lone",
    )
    lone.baselines = ["base"]
    comp = _twelve_competition()
    comp.baselines = ["Team05.01", "Team11.01"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = analyze([lone], Settings(bootstrap=200, refine=False))
        b = analyze([comp], Settings(bootstrap=2000, family="per-row", refine=False))
    sheet = _text(team_html(a, a.competitions[0], "P.01").replace("<wbr>", ""))
    assert "Your run P.01 is the winner: the only competing run of this competition." in sheet
    assert (
        "There is no other competing system to compare with." in sheet
        and "Every system" not in sheet
    )
    ma = b.competitions[0].primary
    for c in ma.vs_best:
        assert c.p_adjusted == c.p_maxt  # the row's step-down, baselines included
        sheet = _text(team_html(b, b.competitions[0], c.b).replace("<wbr>", ""))
        subject = c.b if c.b in b.competitions[0].baselines or c.undecided else f"Your run {c.b}"
        assert (
            "corrects over only" not in sheet
            and plain_verdict(b.settings, _stated(c), "winner", subject, ma.best) in sheet
        ), c.b


def test_the_summary_says_its_ties_are_not_the_verdicts(twelve, demo):
    """The competitiveness ties are the paper's counts among competitors: with the winner, its
    comparisons as the report's family corrects them (so the column of the report's correction holds
    the verdicts' "tied with best"); between competitors, corrected among competitors only, so they
    can differ from the verdicts (baselines included). The overview and the LaTeX caption say which
    is which; a PPI in a metric's units says so, with the ideal, in both."""
    ma = twelve.competitions[0].primary
    # an undecided verdict counts by its estimated p-value (not below alpha: a tie)
    tied = sum(
        s.differs_from_best is False or (s.undecided and s.p_vs_best >= 0.05) for s in ma.scores
    )
    assert ma.competitiveness["ties_with_winner"]["maxt"] == tied
    overview = re.sub(
        r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", " ", html.index_html(twelve)))
    )
    latex = re.sub(r"\s+", " ", Report(twelve).to_latex("summary")).replace(
        "-{}", "-"
    )  # LaTeX's escaped dash
    for text in (overview, latex):
        assert (
            "A tie is a pair not significantly different at" in text
            and "corrected over all pairs of systems (with the winner) or all pairs of "
            "competitors (between competitors)"
            in text
        ), text
        assert (
            "The max-T step-down count of ties with the winner holds this report's verdicts "
            "(max-T step-down correction over all pairs of systems; an undecided one counted by "
            "its estimated" in text
        ), text
        assert "the ties between competitors are not verdicts." in text
        assert "the reports' correction" not in text  # the typo the issue quoted
    # under vs-best the ties with the winner are still the verdicts (the best's comparisons)
    vs_best = _analyze(Settings(bootstrap=300, family="vs-best", refine=False))
    ma = vs_best.competitions[0].primary
    assert ma.competitiveness["ties_with_winner"]["maxt"] == sum(
        s.differs_from_best is False or (s.undecided and s.p_vs_best >= 0.05) for s in ma.scores
    )
    said = re.sub(r"\s+", " ", Report(vs_best).to_latex("summary"))
    assert "corrected over all pairs of systems, read on the comparisons with the best" in said
    assert "count of ties with the winner holds this report's verdicts" in said
    units = (
        "PPI of RateTrip 2026: Review rating (MAE, ideal 0) is the winner's distance to the "
        "metric's ideal value"
    )
    assert units in re.sub(r"\s+", " ", Report(demo).to_latex("summary"))
    assert units in re.sub(
        r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", " ", html.index_html(demo)))
    )


def test_the_difference_figure_and_the_methods_name_the_rule_behind_verdicts():
    """The difference figure colours intervals by the stored verdicts: its caption says so and
    names the rule; the methods text says the competitiveness ties between competitors can differ
    from the verdicts, and what each family controls."""
    s = Settings(bootstrap=1000, correction="holm", family="all-pairs")
    caption = prose.figure_caption("diff", s)
    assert (
        "the colours are the verdicts of the table (rule: Holm correction over all pairs of "
        "systems): green squares differ significantly from the best, open orange circles tie with "
        "it, pink diamonds are undecided (within the Monte-Carlo error), grey triangles are not "
        "tested" in caption
    )
    none = prose.figure_caption("diff", Settings(bootstrap=1000, correction="none"))
    assert "rule: uncorrected p-values, with no correction for multiple comparisons" in none
    methods = "".join(x for x in prose.paragraph(s) if isinstance(x, str))
    assert "among competitors" in methods and "which can differ from the verdicts" in methods
    assert "over all pairs of competitors" in methods and "m − 1" not in methods
    assert "max-T step-down" in methods and "controls the family-wise error rate" in methods
    vs = "".join(x for x in prose.paragraph(Settings(family="vs-best")) if isinstance(x, str))
    assert "the comparisons with it are corrected over all pairs" in vs
    row = "".join(x for x in prose.paragraph(Settings(family="per-row")) if isinstance(x, str))
    assert "bound no family-wise error rate" in row
    bk = "".join(
        x for x in prose.paragraph(Settings(test="berg-kirkpatrick")) if isinstance(x, str)
    )
    # no verdict is said to come from max-T (it needs the two-sided bootstrap test); only the rank
    # sets, read off the bootstrap replicates whatever the test, use its one-sided step-down
    verdicts_said = re.sub(r"Each rank set holds .*?resamples \. ", "", bk)
    assert "one-sided max-T step-down over every ordered pair" in bk
    assert "one-sided, in the direction of the observed difference" in bk
    assert "max-T" not in verdicts_said
    two = "".join(x for x in prose.paragraph(Settings()) if isinstance(x, str))
    assert "two-sided paired bootstrap test" in two and "twice the observed" not in two


def test_the_vs_best_rule_reads_without_nested_parentheses():
    """Under vs-best the rule says other pairs are untested, and reads inside a caption's
    parentheses."""
    rule = Settings(bootstrap=100, family="vs-best").rule
    assert (
        rule
        == "max-T step-down correction over all pairs of systems, read on the comparisons with "
        "the best, other pairs untested"
    )
    assert "(" not in rule and ")" not in rule


@pytest.mark.parametrize(
    ("given", "kind"),
    [
        ({}, "StepDownRule"),
        ({"test": "randomization"}, "CorrectionRule"),
        ({"correction": "holm", "refine": True}, "CorrectionRule"),
    ],
)
def test_one_verdict_rule_decides_every_metric_and_refinement_round(monkeypatch, given, kind):
    """The verdict rule (test x correction x family) is chosen once per competition, from its
    Settings, and every metric of every refinement round is decided under that one object."""
    from compreport.stats import analysis

    rules = []
    real = analysis.analyze_metric

    def spy(*args, rule=None, **kwargs):
        rules.append(rule)
        return real(*args, rule=rule, **kwargs)

    monkeypatch.setattr(analysis, "analyze_metric", spy)
    rng = np.random.default_rng(3)
    gold = rng.integers(0, 2, 120)
    preds = [np.where(rng.random(120) < acc, gold, 1 - gold) for acc in (0.8, 0.78, 0.7, 0.69)]
    comp = make_competition(gold, preds, metrics=["accuracy", "f1"])
    settings = make_settings({"bootstrap": 400, "refine": True} | given)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        analysis.analyze_competition(comp, settings)
    assert len(rules) > 2  # two metrics, and at least one refinement round
    assert len({id(r) for r in rules}) == 1
    assert type(rules[0]).__name__ == kind
    assert (rules[0].test, rules[0].correction, rules[0].family) == (
        settings.test,
        settings.correction,
        settings.family,
    )
