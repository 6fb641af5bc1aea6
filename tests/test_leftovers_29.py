"""Issue 29's leftovers in the outputs: relations glued in every HTML page, the LaTeX differences
table without the uncorrected "Excl. 0" column, the team column of leaderboard.md, the teams in
`compreport validate`'s summary and ``Report.table("teams")``."""

from __future__ import annotations

import re
import warnings
from html.parser import HTMLParser

import numpy as np
import pytest

from compreport.report.pages import html as htmlreport
from compreport.report.pages.team import team_html
from compreport.settings import Settings
from compreport.stats.analysis import analyze_competition
from compreport.stats.results import Analysis
from conftest import make_competition

SETTINGS = Settings(bootstrap=300, refine=False)


def _analysis(systems, teams=None, baselines=(), cid="t", accuracies=None) -> Analysis:
    """One competition of 400 binary items: system i right with probability ``accuracies[i]``
    (default 0.55 + 0.1 i), its ``teams`` and ``baselines``, analysed with B = 300."""
    rng = np.random.default_rng(7)
    gold = rng.integers(0, 2, 400)
    acc = accuracies or [0.55 + 0.1 * i for i in range(len(systems))]
    preds = np.array([np.where(rng.random(400) < a, gold, 1 - gold) for a in acc])
    comp = make_competition(gold, preds, systems=systems, cid=cid)
    comp.teams = dict(teams or {})
    comp.baselines = list(baselines)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return Analysis(SETTINGS, [analyze_competition(comp, SETTINGS, progress=False)])


@pytest.fixture(scope="module")
def teamed() -> Analysis:
    """Five runs of three teams (one a single run named apart from its team), a baseline."""
    systems = ["base", "Alpha.run1", "Alpha.run2", "Beta_run1", "solo"]
    teams = {"Alpha.run1": "Alpha", "Alpha.run2": "Alpha", "Beta_run1": "Beta", "solo": "solo"}
    return _analysis(systems, teams, baselines=["base"], accuracies=[0.55, 0.7, 0.75, 0.83, 0.84])


# ------------------------------------------------------------------- 1. relations in HTML pages


class _Visible(HTMLParser):
    """The text a browser shows: the text outside ``<style>`` and ``<script>``."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.hidden = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.hidden += tag in ("style", "script")

    def handle_endtag(self, tag):
        self.hidden -= tag in ("style", "script")

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def _visible(page: str) -> str:
    parser = _Visible()
    parser.feed(page)
    return "".join(parser.parts)


#: A relation broken by a plain space: "α = 0.05", "p < 0.0001", "n = 400", "B = 300".
_BREAKABLE = re.compile(r"(?<!\w)(α|p|n|B)( (=|<|≤|≥)|(=|<|≤|≥) )")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_html_pages_glue_alpha_and_p(teamed, tmp_path, lang):
    from compreport.language import language

    with language(lang):
        written = htmlreport.write_html(teamed, tmp_path)
        comp = teamed.competitions[0]
        sheets = {
            f"team {s}": team_html(teamed, comp, s) for s in comp.systems if s not in comp.baselines
        }
    pages = {p.name: p.read_text(encoding="utf-8") for p in written} | sheets
    assert {"index.html", "report.html"} <= set(pages)
    for name, page in pages.items():
        text = _visible(page)
        assert "α\u00a0=\u00a0" in text, name  # glued ...
        assert not _BREAKABLE.search(text), (name, _BREAKABLE.search(text)[0])  # ... everywhere
    report = _visible(pages["report.html"])
    assert "p\u00a0<\u00a00." in report  # the key of the significance marks
    # the styles are left as written
    assert "\u00a0" not in re.search(r"<style>.*?</style>", pages["report.html"], re.S)[0]


# ------------------------------------------------------------- 2. the LaTeX differences table


@pytest.mark.parametrize("lang", ["en", "es"])
def test_latex_differences_show_ci_difference_verdict_p_and_verdict(teamed, lang):
    """No uncorrected "Excl. 0" column beside the corrected verdict: System, the CI and the
    difference, the p-value stored as the verdict's, and the verdict."""
    from compreport.language import language, tr
    from compreport.report import Report
    from compreport.report.latex.renderer import Renderer

    report = Report(teamed, lang=lang)
    tex = report.to_latex("diff-best")
    assert "Excl" not in tex and "excluye" not in tex.lower() and "excludes" not in tex
    [spec] = re.findall(r"\\begin\{tabular\}\{@\{\}([^@]*)@\{\}\}", tex)
    assert spec.split() == ["l", "r", "r", "r", "r", "c"]
    header = next(x for x in tex.splitlines() if x.endswith("Sig. \\\\"))
    assert header.count("&") == 5 and "{$p$}" in header
    # twin: every row keeps its CI, difference, stored p (verdict) and stored verdict
    t = report.table("diff-best")
    rows = [x for x in tex.splitlines() if x.count("&") == 5 and x != header]
    assert len(rows) == len(t.rows)
    cell = Renderer(teamed, report.latex_options).cell
    for row, r in zip(rows, t.rows):
        cells = [c.strip() for c in row.removesuffix("\\\\").split("&")]
        assert cells[1:] == [cell(r[k]) for k in ("ci_low", "diff", "ci_high", "p_adjusted")] + [
            r["significant"].text
        ]
    with language(lang):
        assert {r["significant"].text for r in t.rows} == {tr("yes"), tr("no")}


# ------------------------------------------------------------------ 3. leaderboard.md's teams


def _leaderboard_md(analysis: Analysis, tmp_path) -> list[list[str]]:
    """The rows of the written ``leaderboard.md`` as lists of cells (header first), split at the
    pipes that are not escaped."""
    from compreport.report import exports
    from compreport.report.model import Format

    exports.write_exports(analysis, tmp_path, Format())
    text = (tmp_path / analysis.competitions[0].id / "leaderboard.md").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert all(x.startswith("| ") and x.endswith(" |") for x in lines[:1] + lines[2:]), lines
    return [
        [c.strip() for c in re.split(r"(?<!\\)\|", x)[1:-1]] for x in lines if x and "---" not in x
    ]


def test_leaderboard_md_has_a_team_column_with_hostile_names_escaped(tmp_path):
    hostile = "R|D `x` \n*team*"
    systems = ["base", "A.run1", "A.run2", "B_run1"]
    a = _analysis(systems, {"A.run1": hostile, "A.run2": hostile, "B_run1": "B"}, ["base"])
    rows = _leaderboard_md(a, tmp_path)
    assert rows[0][:4] == ["Rank", "Rank set", "System", "Team"]
    assert all(len(r) == len(rows[0]) for r in rows)  # no pipe or newline splits a row
    teams = {r[2].strip("*"): r[3] for r in rows[1:]}
    assert teams == {
        "base": "–",
        "A.run1": r"R\|D \`x\`  \*team\*",
        "A.run2": r"R\|D \`x\`  \*team\*",
        r"B\_run1": "B",
    }


def test_leaderboard_md_has_no_team_column_when_the_runs_are_the_teams(tmp_path):
    """Twin: each run its own team of the same name (or no team at all): no column."""
    systems = ["base", "alpha", "beta"]
    for teams in ({}, {"alpha": "alpha", "beta": "beta"}):
        rows = _leaderboard_md(_analysis(systems, teams, ["base"]), tmp_path / str(len(teams)))
        assert rows[0][:4] == ["Rank", "Rank set", "System", "accuracy"] and "Team" not in rows[0]


# ------------------------------------------------------------ 4. the teams `validate` found

GOLD = "id\tlabel\n1\ta\n2\tb\n3\ta\n4\tb\n5\tc\n6\tc\n"
RUNS = ("1\ta\n2\tb\n3\ta\n4\tb\n5\tc\n6\ta\n", "1\ta\n2\ta\n3\ta\n4\tb\n5\tc\n6\tb\n")


def _validate(tmp_path, runs: dict[str, str], *extra: str) -> list[str]:
    """``compreport validate gold.tsv --runs runs`` (the CLI's ``main``): stdout's lines."""
    from conftest import run_cli

    (tmp_path / "runs").mkdir(parents=True)
    (tmp_path / "gold.tsv").write_text(GOLD, encoding="utf-8")
    for name, text in runs.items():
        (tmp_path / "runs" / name).write_text(text, encoding="utf-8")
    res = run_cli(
        tmp_path, "validate", "gold.tsv", "--runs", "runs", "--metric", "accuracy", *extra
    )
    assert res.returncode == 0 and "error:" not in res.stderr, res.stderr
    return res.stdout.splitlines()


def test_validate_names_the_teams_it_found(tmp_path):
    runs = {"UPV-ELiRF.run1.tsv": RUNS[0], "UPV-ELiRF.run2.tsv": RUNS[1], "X_run1.tsv": RUNS[1]}
    runs["solo.tsv"] = RUNS[0]
    out = _validate(tmp_path, runs)
    assert out[0].endswith(": 6 items, 4 systems, metrics: accuracy")
    assert out[1] == "  3 teams, 4 runs: UPV-ELiRF (2 runs), solo, X"
    assert out[2].split() == ["rank", "system", "accuracy"]


def test_validate_counts_teams_of_one_and_lists_many_teams_in_full(tmp_path):
    """Twin: runs that are their own teams get the count only; more teams than fit a line are
    all listed, on wrapped lines (issue 40: no cap); a hostile team name (names file) is printed
    escaped on its one line."""
    out = _validate(tmp_path / "solo", {"A.tsv": RUNS[0], "B.tsv": RUNS[1]})
    assert out[1] == "  2 teams, 2 runs"
    many = {f"Team{i:02d}.run1.tsv": RUNS[i % 2] for i in range(30)}
    out = _validate(tmp_path / "many", many)
    assert out[1].startswith("  30 teams, 30 runs: Team")
    at = next(k for k, x in enumerate(out) if x.split() == ["rank", "system", "accuracy"])
    listed = " ".join(out[1:at]).split(": ", 1)[1]
    assert sorted(t.strip() for t in listed.split(",")) == [f"Team{i:02d}" for i in range(30)]
    assert at > 2 and all(x.startswith("    ") for x in out[2:at])  # wrapped, indented
    (tmp_path / "evil").mkdir()
    (tmp_path / "evil" / "names.tsv").write_text(
        'run\tteam\nA\t"E\x1b[31m\\nvil"\nB\t"E\x1b[31m\\nvil"\n', encoding="utf-8"
    )
    out = _validate(tmp_path / "evil", {"A.tsv": RUNS[0], "B.tsv": RUNS[1]}, "--names", "names.tsv")
    assert "\x1b" not in "\n".join(out)
    assert out[1].startswith("  1 team, 2 runs: E\\x1b[31m"), out[1]


# ---------------------------------------------------------------- 5. Report.table("teams")


def test_report_table_teams_is_the_stored_team_ranking(teamed):
    from compreport.report import TABLES, Report

    assert "teams" in TABLES
    comp = teamed.competitions[0]
    report = Report(teamed)
    t = report.table("teams")
    assert [k for k in t.columns] == [
        "rank",
        "rank_set",
        "team",
        "best",
        "score",
        "group",
        "runs",
        "marks",
    ]
    scores = {s.system: s for s in comp.primary.scores}
    assert [
        (r["rank"].value, r["team"].value, r["best"].value, r["score"].value, r["runs"].value)
        for r in t.rows
    ] == [
        (x.rank, x.team, x.best_run, scores[x.best_run].score, len(x.runs)) for x in comp.team_ranks
    ]
    assert [r["team"].text for r in t.rows] == ["solo", "Beta", "Alpha"]  # no baseline
    assert t.rows[0]["score"].bold and t.rows[-1]["runs"].text == "2"
    # every format prints the same cells
    md = report.to_markdown("teams").splitlines()
    assert md[0] == "| Rank | Rank set | Team | Best run | accuracy | Group | Runs | Marks |"
    for line, r in zip(md[2:], t.rows, strict=True):
        assert line.split(" | ")[2:4] == [r["team"].text, r["best"].text.replace("_", "\\_")]
    # the columns of the teams' table before it had optional ones (test_latex_teams.py: those)
    tex = Report(teamed, latex_columns="group").to_latex("teams")
    assert "\\label{tab:t:teams}" in tex  # the prefix is the id: not repeated
    body = [x for x in tex.splitlines() if x.count("&") == 5][1:]
    for line, r in zip(body, t.rows, strict=True):
        cells = [c.strip() for c in line.removesuffix("\\\\").split("&")]
        assert cells[0] == r["rank"].text and cells[1] == r["team"].text
        assert cells[5] == r["runs"].text
    es = Report(teamed, lang="es")
    assert es.table("teams").columns["best"] == "Mejor envío"
    assert "Equipos de t ordenados por su mejor envío" in es.to_latex("teams")


def test_report_table_teams_of_runs_without_teams(tmp_path):
    """Twin: runs without teams are teams of one, one row each, named after the run; an unknown
    kind still names every table."""
    from compreport.errors import InputError
    from compreport.report import Report

    a = _analysis(["x", "y", "z"])
    t = Report(a).table("teams")
    assert [(r["team"].text, r["best"].text, r["runs"].text) for r in t.rows] == [
        ("z", "z", "1"),
        ("y", "y", "1"),
        ("x", "x", "1"),
    ]
    with pytest.raises(InputError, match="leaderboard, teams, ci"):
        Report(a).table("team")


@pytest.mark.slow
@pytest.mark.parametrize("style", ["ceurart", "ceurart-2col", "sepln", "acl"])
def test_latex_teams_table_compiles_in_every_style(teamed, tmp_path, style):
    """The teams' ranking as LaTeX compiles with pdflatex in each style's geometry, with no
    overfull box, and reads back with every team and best run."""
    import shutil

    from test_latex import _compile

    from compreport.report import Report

    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex not installed")
    hostile = _analysis(
        ["base", "R&D_50%.run1", "R&D_50%.run2", "{x}$#.run1"],
        {"R&D_50%.run1": "R&D_50%", "R&D_50%.run2": "R&D_50%", "{x}$#.run1": "{x}$#"},
        ["base"],
    )
    for a, sub in ((teamed, "teamed"), (hostile, "hostile")):
        (tmp_path / sub).mkdir()
        tex = Report(a, latex_style=style).to_latex("teams")
        log, text = _compile(tmp_path / sub, tex, style)
        assert "Overfull" not in log, [x for x in log.splitlines() if "Overfull" in x]
        for t in a.competitions[0].team_ranks:
            assert t.team in text and t.best_run in text, (t.team, text)
