"""The LaTeX an IberLEF overview prints first: ``tables/teams.tex`` (the teams' ranking, as page 1
of the report shows it) and a leaderboard with the Team column, the primary metric's interval and
the "tied with best" marks (``--latex-columns``), checked against the stored analysis and an
independent reading of the runs, through the CLI and the Python API, and compiled in the real
ceurart class and in ACL's geometry."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import warnings
from pathlib import Path

import pytest

import compreport as cr
from compreport.report.latex.layout import OPTIONAL_COLUMNS, STYLES, Options
from compreport.report.latex.renderer import Renderer, preamble
from conftest import one_error, run_cli, write_binary_task

HERE = Path(__file__).parent
CEUR = HERE / "data" / "ceurart"

#: 14 teams, 35 runs: 7 teams of 3 runs, 7 of 2 (TEAM.N names), about 60-85 % right.
RUNS = {
    f"Team{t:02d}.{r:02d}": 0.6 + 0.25 * ((t * 7 + r * 3) % 35) / 35
    for t in range(1, 15)
    for r in range(1, (3 if t <= 7 else 2) + 1)
}


@pytest.fixture(scope="module")
def teamed(tmp_path_factory):
    """The 35-run task through the CLI (no spec), LaTeX only: (output folder, analysis)."""
    root = tmp_path_factory.mktemp("teams35")
    assert len(RUNS) == 35
    write_binary_task(root, RUNS, n=400, seed=5)
    res = run_cli(
        root,
        "report",
        "gold.tsv",
        "--runs",
        "runs/*.tsv",
        "--metric",
        "accuracy",
        "-B",
        "300",
        "--seed",
        "1",
        "--format",
        "latex",
        "--no-compile",
        "-o",
        "out",
    )
    assert res.returncode == 0, res.stderr
    out = root / "out"
    return out, cr.Analysis.read(out / "results.json")


def _rows(tex: str) -> list[list[str]]:
    """The body rows of every tabular of a table file, as lists of cells."""
    rows = []
    for body in re.findall(r"\\midrule\n(.*?)\\bottomrule", tex, re.S):
        for line in body.splitlines():
            if line.endswith("\\\\"):
                rows.append([c.strip() for c in line.removesuffix("\\\\").split(" & ")])
    return rows


def _number(cell: str) -> float:
    """A score cell's number: ``\\bfseries 0.\\rlap{8600}\\phantom{\\textmd{8600}}`` is 0.86."""
    cell = re.sub(r"\\phantom\{\\textmd\{\d+\}\}", "", cell)
    return float(re.sub(r"\\[a-z]+|[{}\s]", "", cell))


def _header(tex: str) -> list[str]:
    line = re.search(r"\\toprule\n(.*?)\\\\\n", tex).group(1)
    return [c.strip().strip("{}") for c in line.split(" & ")]


def test_teams_tex_ranks_each_team_by_its_best_run(teamed):
    """teams.tex: one row per team, ranked by its best run's score, read from the run files
    independently of the analysis (the accuracy of each run against gold.tsv)."""
    out, an = teamed
    comp = an.competitions[0]
    folder = out / comp.id / "tables"
    tex = (folder / "teams.tex").read_text(encoding="utf-8")
    root = out.parent
    gold = dict(line.split("\t") for line in (root / "gold.tsv").read_text().splitlines()[1:])
    accuracy = {}
    for name in RUNS:
        pred = dict(
            line.split("\t")
            for line in (root / "runs" / f"{name}.tsv").read_text().splitlines()[1:]
        )
        accuracy[name] = sum(pred[i] == g for i, g in gold.items()) / len(gold)
    best = {}
    for name, acc in accuracy.items():
        team = name.split(".")[0]
        if team not in best or acc > accuracy[best[team]]:
            best[team] = name
    order = sorted(best, key=lambda t: -accuracy[best[t]])
    head = _header(tex)
    assert head[:4] == ["Rank", "Team", "Best run", "Acc."] and "Runs" in head, head
    rows = _rows(tex)
    assert len(rows) == 14
    assert [r[1] for r in rows] == [t.replace("_", "\\_") for t in order]
    runs = head.index("Runs")
    for r in rows:
        team = r[1]
        assert r[2] == best[team]
        assert _number(r[3]) == pytest.approx(accuracy[best[team]], abs=5e-5)
        assert int(r[runs]) == sum(n.split(".")[0] == team for n in RUNS)
    # one competition, no workshop: the label prefix is its id, which the label does not repeat
    assert f"\\label{{tab:{comp.id}:teams}}" in tex
    # the appendix inputs it before the leaderboard, as page 1 shows the teams first
    appendix = (out / "appendix.tex").read_text(encoding="utf-8")
    assert appendix.index("tables/teams.tex") < appendix.index("tables/leaderboard.tex")


def test_leaderboard_has_team_interval_and_tied_with_best(teamed):
    """leaderboard.tex: the Team column (each run's team), the interval of every row (the stored
    one), and "tied with best" exactly on the runs whose stored comparison with the best is not
    significant; each column is explained in the caption."""
    out, an = teamed
    comp = an.competitions[0]
    ma = comp.primary
    # the interval and the marks in two renderings: at this B many rows carry "N undecided" marks,
    # and with both the table would not fit ceurart's column (the interval is then left out)
    with_ci = Renderer(an, Options(columns=("team", "ci", "group"))).leaderboard(comp)
    tex = Renderer(an, Options(columns=("team", "group", "marks"))).leaderboard(comp)
    assert _header(with_ci)[:5] == ["Rank", "System", "Team", "Acc.", "CI"], _header(with_ci)
    head = _header(tex)
    assert head[:3] == ["Rank", "System", "Team"] and head[-1] == "Marks", head
    rows, ci_rows = _rows(tex), _rows(with_ci)
    assert len(rows) == len(ci_rows) == 35
    stored = {s.system: s for s in ma.scores}
    best = ma.scores[0].system
    vs_best = {
        (c.b if c.a == best else c.a): c for c in ma.pairs if best in (c.a, c.b)
    }  # every other run's comparison with the best
    for row in ci_rows:
        s = stored[row[1]]
        assert row[2] == row[1].split(".")[0]
        assert row[4] == f"[{s.ci_low:.4f}, {s.ci_high:.4f}]"
    tied = 0
    for row in rows:
        system = row[1]
        if system == best:
            assert row[-1].startswith("best")
        else:
            c = vs_best[system]
            ties = c.significant is False
            assert ("tied with best" in row[-1]) == ties, (system, row[-1], c.p_adjusted)
            tied += ties
    assert tied >= 2  # the test sees ties
    assert "\\textit{best}, not significantly different from the best" in tex
    assert "CI: the 95\\% percentile bootstrap confidence interval of accuracy" in with_ci


def test_optional_columns_that_would_split_are_left_out_and_said(teamed):
    """In ceurart's one column, the 35 runs' leaderboard keeps one float: the columns that would
    widen it past the column are left out in the stated order, and the file says which; asking
    for none gives the plain leaderboard."""
    out, an = teamed
    comp = an.competitions[0]
    plain = Renderer(an, Options(columns=())).leaderboard(comp)
    assert _header(plain) == ["Rank", "System", "Acc."]
    full = Renderer(an, Options()).leaderboard(comp)
    assert full.count("\\begin{table") == plain.count("\\begin{table")
    widths = [float(w) for w in re.findall(r"% tabular ([0-9.]+)pt wide", full)]
    assert max(widths) <= STYLES["ceurart"].columnwidth
    said = re.search(r"^% left out, as they would split or widen the table: (.*) \(", full, re.M)
    shown = {"rank_set": "Rank set", "ci": "CI", "marks": "Marks", "team": "Team"}
    left = said.group(1).split(", ") if said else []
    head = _header(full)
    for key, title in shown.items():
        assert (title in head) != (key in left), (key, head, left)
    # left out in the stated order: a later column only when every earlier one is
    order = [c for c in OPTIONAL_COLUMNS if c in left]
    assert left == order
    assert (out / comp.id / "tables" / "leaderboard.tex").read_text(encoding="utf-8") == full


def test_latex_columns_option_on_the_command_line(teamed, tmp_path):
    out, _ = teamed
    root = out.parent
    res = run_cli(
        root,
        "report",
        "gold.tsv",
        "--runs",
        "runs/*.tsv",
        "--metric",
        "accuracy",
        "-B",
        "0",
        "--format",
        "latex",
        "--no-compile",
        "--latex-columns",
        "none",
        "-o",
        str(tmp_path / "plain"),
    )
    assert res.returncode == 0, res.stderr
    (board,) = [p.read_text() for p in (tmp_path / "plain").glob("*/tables/leaderboard.tex")]
    assert _header(board) == ["Rank", "System", "Acc."]
    bad = run_cli(
        root,
        "report",
        "gold.tsv",
        "--runs",
        "runs/*.tsv",
        "--latex-columns",
        "team,intervals",
        "-o",
        str(tmp_path / "bad"),
    )
    one_error(bad, "--latex-columns", "'intervals'", "rank_set, ci, marks, team, group")
    assert not (tmp_path / "bad").exists()


def test_no_teams_tex_when_every_team_has_one_run(tmp_path):
    write_binary_task(tmp_path, {"alpha": 0.7, "beta": 0.8, "gamma": 0.75})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        an = cr.analyze(
            cr.load(
                str(tmp_path / "gold.tsv"),
                runs=str(tmp_path / "runs" / "*.tsv"),
                metrics=["accuracy"],
            ),
            bootstrap=0,
        )
    tables = Renderer(an).competition_tables(an.competitions[0])
    assert "teams.tex" not in tables and "leaderboard.tex" in tables


def _pdflatex(folder: Path) -> str:
    env = dict(os.environ, TEXINPUTS=f"{CEUR}{os.pathsep}")
    proc = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "paper.tex"],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        errors="replace",
    )
    log = (folder / "paper.log").read_text(errors="replace")
    assert proc.returncode == 0, log[-3000:]
    return log


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed")
@pytest.mark.parametrize("style", ["ceurart", "acl"])
def test_teams_and_leaderboard_compile_in_the_class(teamed, tmp_path, style):
    """teams.tex and leaderboard.tex of the 35 runs in the real ceurart class and in ACL's
    geometry (Times, two columns; acl.sty cannot be shipped): no error, no overfull box over
    1 pt, no float too large, and each tabular no wider than the model says (by 0.5 pt)."""
    _, an = teamed
    comp = an.competitions[0]
    options = Options(style=style)
    r = Renderer(an, options)
    (tmp_path / "preamble.tex").write_text(preamble(options, "test"), encoding="utf-8")
    (tmp_path / "teams.tex").write_text(r.team_ranking(comp), encoding="utf-8")
    (tmp_path / "leaderboard.tex").write_text(r.leaderboard(comp), encoding="utf-8")
    st = STYLES[style]
    head = ["\\documentclass{ceurart}"] if style == "ceurart" else list(st.document)
    measure = r"""\makeatletter
\newsavebox\crbox
\let\cr@tabular\tabular \let\cr@endtabular\endtabular
\renewenvironment{tabular}{\begin{lrbox}{\crbox}\cr@tabular}{\cr@endtabular\end{lrbox}%
\typeout{CRWIDTH \the\wd\crbox}\usebox\crbox}
\makeatother"""
    body = [
        "\\begin{document}",
        "Text before the tables.",
        "\\input{teams.tex}",
        "\\clearpage",
        "\\input{leaderboard.tex}",
        "\\end{document}",
    ]
    (tmp_path / "paper.tex").write_text(
        "\n".join(head + ["\\input{preamble.tex}", measure] + body) + "\n", encoding="utf-8"
    )
    log = _pdflatex(tmp_path)
    assert not re.search(r"^! ", log, re.M)
    assert "Float too large" not in log
    overfull = [float(x) for x in re.findall(r"Overfull \\hbox \(([0-9.]+)pt too wide\)", log)]
    assert max(overfull, default=0.0) <= 1.0
    measured = [float(x) for x in re.findall(r"^CRWIDTH ([0-9.]+)pt", log, re.M)]
    model = [
        float(w)
        for f in ("teams.tex", "leaderboard.tex")
        for w in re.findall(r"% tabular ([0-9.]+)pt wide", (tmp_path / f).read_text())
    ]
    assert len(measured) == len(model) >= 2
    assert all(mo - me >= -0.5 for mo, me in zip(model, measured)), (model, measured)
    assert "Team" in (tmp_path / "leaderboard.tex").read_text()
