"""LaTeX tables: escaping, real pdflatex builds in one- and two-column documents, overfull boxes,
snapshots, byte-identical output, and the paper's Table 5 layout (per-row family)."""

from __future__ import annotations

import copy
import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from compreport.inputs.competition import MetricSpec
from compreport.language import vocabulary as vocab
from compreport.report import model
from compreport.report.latex import appendix, layout, tex, words
from compreport.report.latex import renderer as latex
from compreport.settings import Settings
from compreport.stats import multitest
from compreport.stats.analysis import analyze_competition
from compreport.stats.multitest import smallest_adjusted_p, smallest_family
from compreport.stats.results import Analysis, Comparison, MetricAnalysis, Score
from conftest import make_competition

HERE = Path(__file__).parent
SNAPSHOTS = HERE / "snapshots" / "latex"
#: The compreport version the snapshots name in their first line.
SNAPSHOT_VERSION = "0.1.0"
needs_tex = pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed")

HOSTILE = [
    "Tü Par.01",
    "Álvarez.01",
    "R&D_team.01",
    "100%.01",
    r"\input{x}",
    "{",
    r"x}\end{tabular}",
    "$x^2$ #1",
    "a--b ~c",
    "<<q>> 'z' `y`",
]


def _preamble(style: str, babel: str | None = None, decimal_comma: bool = False) -> str:
    """A document in the style's geometry and table font with the tables' preamble.tex lines."""
    opt = layout.Options(style=style, decimal_comma=decimal_comma)
    lines = list(opt.layout.document) + ([rf"\usepackage[{babel}]{{babel}}"] if babel else [])
    return "\n".join(lines) + "\n" + latex.preamble(opt, "test")


def _competition(m: int, names=None, seed=0, n=300, cid="t"):
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 3, n)
    preds = []
    for i in range(m):
        p = gold.copy()
        flip = rng.random(n) < 0.15 + 0.03 * i
        p[flip] = rng.integers(0, 3, flip.sum())
        preds.append(p)
    comp = make_competition(
        gold,
        preds,
        systems=names or [f"System{i:02d}.{i % 3 + 1:02d}" for i in range(m)],
        metrics=[MetricSpec("macro_f1"), MetricSpec("accuracy")],
        cid=cid,
    )
    comp.name = f"Task {cid}"
    return comp


def _analysis(comps, **settings) -> Analysis:
    s = Settings(bootstrap=settings.pop("bootstrap", 400), **settings)
    return Analysis(s, [analyze_competition(c, s, progress=False) for c in comps])


def _compile(folder: Path, body: str, style: str, **kw) -> tuple[str, str]:
    """pdflatex the body in a test document of ``style``; returns (log, pdftotext)."""
    (folder / "doc.tex").write_text(
        _preamble(style, **kw) + "\\begin{document}\n" + body + "\n\\end{document}\n",
        encoding="utf-8",
    )
    proc = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "doc.tex"],
        cwd=folder,
        capture_output=True,
        text=True,
        errors="replace",
    )
    log = (folder / "doc.log").read_text(errors="replace")
    assert proc.returncode == 0, log[-3000:]
    text = (
        subprocess.run(
            ["pdftotext", "-enc", "UTF-8", "doc.pdf", "-"],
            cwd=folder,
            capture_output=True,
            text=True,
        ).stdout
        if shutil.which("pdftotext")
        else ""
    )
    return log, text


def _overfull(log: str) -> list[float]:
    return [float(x) for x in re.findall(r"Overfull \\hbox \(([0-9.]+)pt too wide\)", log)]


def _all_tables(analysis: Analysis, style: str) -> dict[str, str]:
    r = latex.Renderer(analysis, layout.Options(style=style))
    out = {}
    for comp in analysis.competitions:
        for name, text in r.competition_tables(comp).items():
            out[f"{comp.id}/{name}"] = text
    out["legend.tex"] = r.legend()
    out["summary.tex"] = r.summary()
    return out


# --------------------------------------------------------------------------------------------------


def test_escape_prints_literally_and_never_injects():
    assert tex.escape(r"\input{/etc/passwd}") == r"\textbackslash{}input\{/etc/passwd\}"
    assert tex.escape("x}\\end{tabular}") == r"x\}\textbackslash{}end\{tabular\}"
    # % as \char37: babel spanish turns \% into a spaced "100 %"
    assert (
        tex.escape("100% R&D_team $#^~")
        == r"100\char37{} R\&D\_team \$\#\textasciicircum{}\textasciitilde{}"
    )
    assert tex.escape("Tü Par") == "Tü Par"
    assert tex.escape("a--b") == "a-{}-{}b"
    assert tex.escape("line\nbreak") == "line break"
    # no character outside pdflatex's utf8/T1 coverage survives
    assert tex.escape("北京 ✓") == "?? ?"
    for s in HOSTILE:
        out = tex.escape(s)
        assert "\\input" not in out and "\\end" not in out
        # braces only as escapes or empty groups of our own
        assert re.sub(r"\\[A-Za-z]+(37)?\{\}|\\[{}]|-\{\}", "", out).count("{") == 0


def test_number_format():
    """Numbers: minus, decimal marker, integer digit groups, braced markers in math, floats
    positional."""
    assert tex.cell(model.Cell(0.12345, model.Format.number(0.12345, 4))) == "0.1235"
    for missing in (float("nan"), None):
        assert tex.cell(model.Cell(missing, model.Format.number(missing, 3))) == "--"
    assert (
        tex.cell(model.Cell(0.0, "<0.0001", bold=True), comma=True)
        == r"\bfseries \textless{}0,0001"
    )
    assert tex.num("-0.025") == r"\textminus{}0.025" and tex.num("-0.025", math=True) == "-0{.}025"
    assert (
        tex.num("0.05", comma=True) == "0,05" and tex.num("0.05", comma=True, math=True) == "0{,}05"
    )
    assert (tex.num(10000), tex.num("1950"), tex.num(1234567)) == (
        r"10\,000",
        "1950",
        r"1\,234\,567",
    )
    assert (tex.num(5e-05), tex.num(100 * (1 - 0.00005)), tex.num(95.0)) == (
        "0.00005",
        "99.995",
        "95",
    )
    assert words.alpha(5e-05) == "$\\alpha = 0{.}00005$"
    assert (
        tex.with_numbers("Team 42.01") == "Team 42.01"
    )  # (never called on names: shown for the rule)


@pytest.fixture(scope="module")
def hostile_analysis():
    return _analysis([_competition(len(HOSTILE), HOSTILE, cid="hostile")], bootstrap=1000)


@needs_tex
@pytest.mark.parametrize("style", ["ceurart", "sepln"])
def test_hostile_and_unicode_names_compile_and_print_as_given(hostile_analysis, style, tmp_path):
    """Also under SEPLN's babel spanish, whose \\% would print "100 %.01"."""
    tables = _all_tables(hostile_analysis, style)
    body = "\n\\clearpage\n".join(tables.values())
    log, text = _compile(tmp_path, body, style, babel=layout.STYLES[style].babel)
    flat = re.sub(r"\s+", " ", text)
    for name in HOSTILE:
        assert name in flat, (name, flat[:2000])


@pytest.fixture(scope="module")
def twelve():
    names = [
        "ToxiHunters.01",
        "ToxiHunters.02",
        "Álvarez-UNED.01",
        "R&D_team.01",
        "DeepComentarios.01",
        "LenguaViva.02",
        "NLP-Cántabro.01",
        "baseline.svm",
        "Team 42.01",
        "BertoLab.01",
        "100%Tox.01",
        "baseline.majority",
    ]
    a = _competition(12, names, cid="twelve")
    a.baselines = ["baseline.svm", "baseline.majority"]
    b = _competition(5, None, seed=3, cid="five")
    b.language, b.task, b.challenge = "Basque", "Stance detection", "VaxxStance 2021"
    b.group = ["VaxxStance 2021", "Stance detection", "Basque"]
    return _analysis([a, b], bootstrap=2000)


@pytest.mark.parametrize("style", list(layout.STYLES))
def test_captions_where_the_class_wants_them(twelve, style):
    """ceurart: above the tabular; SEPLN and ACL: below (ACL's rule). Every float has one caption
    and one label, and no longtable anywhere (tests/test_latex_classes.py compiles them all)."""
    below = layout.STYLES[style].caption_below
    for src in _all_tables(twelve, style).values():
        assert "longtable" not in src and "resizebox" not in src
        for part in re.findall(r"\\begin\{table\*?\}.*?\\end\{table\*?\}", src, re.S):
            assert part.count("\\caption{") == part.count("\\label{") == 1
            assert (part.index("\\caption") > part.index("\\end{tabular}")) == below


def test_sepln_uses_table_star_for_wide_tables_and_splits_the_matrix(twelve):
    r = latex.Renderer(twelve, layout.Options(style="sepln"))
    comp = twelve.competitions[0]
    matrix = r.pair_matrix(comp, comp.primary)
    parts = matrix.count("\\begin{table")
    assert parts >= 2 and "part 1 of" in matrix
    # every system appears as a row label or in the caption key, and every pair once
    cells = re.findall(r"& (\d\.\d{3})", matrix)
    assert len(cells) == 12 * 11 // 2
    ceur = latex.Renderer(twelve, layout.Options(style="ceurart")).pair_matrix(comp, comp.primary)
    assert "table*" not in ceur


def test_pair_matrix_marks_follow_corrected_p_values(twelve):
    comp = twelve.competitions[0]
    ma = comp.primary
    tex = latex.Renderer(twelve).pair_matrix(comp, ma)
    # the default rule: max-T over all pairs; a mark is p_maxt below a threshold at most alpha (no
    # "†")
    # "†"); an undecided pair earns none, and "?" in the matrix
    assert all(
        c.p_adjusted == c.p_maxt
        and c.mark == ("" if c.undecided else multitest.stars(c.p_maxt, 0.05))
        for c in ma.pairs
    )
    n_marked = sum(1 for c in ma.pairs if c.p_maxt < 0.05 and not c.undecided)
    assert (
        0 < n_marked < sum(1 for c in ma.pairs if c.p_maxt < 0.1)
    )  # a pair in [0.05, 0.1) earns no mark
    marked = re.findall(r"\d\\rlap\{\\textsuperscript\{([^}?]*)\}", tex)
    assert len(marked) == n_marked and set(marked) <= {"***", "**", "*"}
    assert "max-{}T step-{}down correction over all pairs" in tex and "\\dag" not in tex


def test_caption_names_family_and_decimals_are_configurable(twelve):
    r = latex.Renderer(twelve, layout.Options(decimals=2, diff_decimals=5))
    comp = twelve.competitions[0]
    lb = r.leaderboard(comp)
    assert re.search(r"& \\bfseries 0\.\\rlap\{\d\d\}\\phantom\{\\textmd\{\d\d\}\} ", lb)
    vb = r.differences_from_best(comp, comp.primary)
    assert re.search(r"-?0\.\d{5} &", vb)
    per_row = Analysis(Settings(bootstrap=400, family="per-row"), twelve.competitions)
    assert "each row" in latex.Renderer(per_row).p_values(comp, comp.primary)


def _vaxxstance_basque() -> Analysis:
    """The paper's Table 5 (VaxxStance Basque, F1) from its raw p-values, corrected per row, under
    the paper's settings: its one-sided test (``berg-kirkpatrick``) and Holm behind the verdicts."""
    names = ["WordUp.01", "WordUp.02", "MultiAztertest.01", "SQYQP.01", "MultiAztertest.02"]
    scores = [0.5734, 0.5465, 0.5024, 0.4256, 0.3402]
    ia, ib = np.triu_indices(5, k=1)
    diff = [0.027, 0.071, 0.148, 0.231, 0.044, 0.121, 0.204, 0.077, 0.160, 0.083]
    p = np.array([0.2030, 0.0551, 0.0012, 0.0000, 0.1490, 0.0039, 0.0000, 0.0330, 0.0003, 0.0427])
    corr = multitest.correct_within(p, ia)
    # the stored verdicts, as the analysis takes them: Holm (the paper's correction) over each row,
    # with the marks at alpha = 0.05 (***, **, *: no "†", whose 0.1 is above alpha)
    pairs = [
        Comparison(
            names[a],
            names[b],
            d,
            np.nan,
            np.nan,
            float(pv),
            float(corr["bonferroni"][k]),
            float(corr["holm"][k]),
            float(corr["bh"][k]),
            p_adjusted=float(corr["holm"][k]),
            significant=bool(corr["holm"][k] < 0.05),
            mark=multitest.stars(corr["holm"][k], 0.05),
        )
        for k, (a, b, d, pv) in enumerate(zip(ia, ib, diff, p))
    ]
    sc = [
        Score(nm, s, s, 0.0, s, s, i + 1, "a", is_best=i == 0)
        for i, (nm, s) in enumerate(zip(names, scores))
    ]
    ma = MetricAnalysis(
        "f1",
        {},
        True,
        1.0,
        True,
        names[0],
        sc,
        [],
        pairs,
        {},
        {"marks": [list(m) for m in vocab.marks_at(0.05)]},
    )
    from compreport.stats.results import CompetitionAnalysis

    comp = CompetitionAnalysis("vaxx-eu", "VaxxStance 2021 Basque", 312, names, [], [ma])
    settings = Settings(family="per-row", test="berg-kirkpatrick", correction="holm")
    # the version the snapshots' first lines name, not the running one (a build between two release
    # tags names its commit, so that version changes with every commit)
    return Analysis(settings, [comp], version=SNAPSHOT_VERSION)


def test_paper_table5_layout_per_row_family():
    an = _vaxxstance_basque()
    comp = an.competitions[0]
    tex = latex.Renderer(an, layout.Options(p_decimals=4)).p_values(comp, comp.primary)
    p_cell = (
        r"([0-9.]+|\\textless\{\}0\.0001)"  # p = 0 prints as <0.0001, as every format prints it
    )
    rows = re.findall(
        rf"^(\S+) & (\S+) & ([0-9.]+) & {p_cell} & {p_cell} & {p_cell} & {p_cell} \\\\$", tex, re.M
    )
    assert len(rows) == 10
    assert [r[:2] for r in rows[:4]] == [
        ("WordUp.01", b)
        for b in ("WordUp.02", "MultiAztertest.01", "SQYQP.01", "MultiAztertest.02")
    ]
    zero = r"\textless{}0.0001"  # the paper's 0.0000
    paper_bonferroni = [
        "0.8120",
        "0.2204",
        "0.0048",
        zero,
        "0.4470",
        "0.0117",
        zero,
        "0.0660",
        "0.0006",
        "0.0427",
    ]
    paper_holm = [
        "0.2030",
        "0.1102",
        "0.0036",
        zero,
        "0.1490",
        "0.0078",
        zero,
        "0.0330",
        "0.0006",
        "0.0427",
    ]
    assert [r[4] for r in rows] == paper_bonferroni
    assert [r[5] for r in rows] == paper_holm
    assert [r[2] for r in rows][:4] == ["0.027", "0.071", "0.148", "0.231"]
    assert "each row" in tex


def test_snapshots(twelve):
    """Emitted LaTeX equals the stored snapshots (regenerate with UPDATE_SNAPSHOTS=1)."""
    an = _vaxxstance_basque()
    got = {}
    for style in ("ceurart", "sepln"):
        # laid out for both ceurart fonts, whatever fonts this machine has
        r = latex.Renderer(an, layout.Options(style=style, libertinus=False))
        comp = an.competitions[0]
        got[f"{style}-pvalues.tex"] = r.p_values(comp, comp.primary)
        got[f"{style}-matrix.tex"] = r.pair_matrix(comp, comp.primary)
        got[f"{style}-leaderboard.tex"] = r.leaderboard(comp)
    if os.environ.get("UPDATE_SNAPSHOTS"):
        SNAPSHOTS.mkdir(parents=True, exist_ok=True)
        for name, text in got.items():
            (SNAPSHOTS / name).write_text(text, encoding="utf-8")
    for name, text in got.items():
        assert (SNAPSHOTS / name).read_text(encoding="utf-8") == text, name


# write_latex's byte-identical output and the compiled appendix (latexmk, twice): checked in
# tests/test_report_cli.py::test_report_writes_every_format_and_is_byte_identical, the suite's one
# run of every format.


BUILD_FILES = (".aux", ".fls", ".fdb_latexmk", ".bbl", ".blg", ".out", ".run.xml")


@needs_tex
@pytest.mark.skipif(shutil.which("latexmk") is None, reason="latexmk not installed")
def test_failed_build_keeps_its_log_and_says_its_first_error(twelve, tmp_path):
    """A build that fails leaves appendix.log (no PDF) in the output and quotes pdflatex's first
    error; no build file reaches the output and the private build folder is removed. Its twin: the
    same appendix compiled as written leaves appendix.pdf and nothing else."""
    good = tmp_path / "good"
    written = appendix.write_latex(twelve, good)
    assert good / "appendix.pdf" in written and (good / "appendix.pdf").is_file()
    assert not (good / "appendix.log").exists()
    assert not [p.name for p in good.rglob("*") if p.suffix in BUILD_FILES or "pdflatex" in p.name]

    bad = tmp_path / "bad"
    appendix.write_latex(twelve, bad, compile_pdf=False)
    tex_file = bad / "appendix.tex"
    tex_file.write_text(
        tex_file.read_text(encoding="utf-8").replace(
            "\\begin{document}", "\\begin{document}\n\\undefinedmacro"
        ),
        encoding="utf-8",
    )
    build = appendix.start_compile(bad)
    try:
        with pytest.warns(UserWarning) as caught:
            kept = build.wait()
    finally:
        build.stop()
    assert kept == [bad / "appendix.log"] and (bad / "appendix.log").is_file()
    assert not (bad / "appendix.pdf").exists() and not build.build_dir.exists()
    said = [str(w.message) for w in caught if "appendix.pdf not built" in str(w.message)]
    assert len(said) == 1, [str(w.message) for w in caught]
    assert "see appendix.log in the output" in said[0], said
    assert "! Undefined control sequence." in said[0] and "\\undefinedmacro" in said[0], said
    assert not [p.name for p in bad.rglob("*") if p.suffix in BUILD_FILES or "pdflatex" in p.name]


def test_appendix_without_tex_keeps_the_tex(twelve, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(appendix.shutil, "which", lambda name: None)
    written = appendix.write_latex(twelve, tmp_path)
    assert (tmp_path / "appendix.tex").exists() and not (tmp_path / "appendix.pdf").exists()
    assert tmp_path / "appendix.pdf" not in written
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not found" in err[0]


def test_languages_of_one_task_side_by_side(tmp_path):
    """Paper Table 2: competitions sharing challenge and task get their CI blocks titled by
    language."""
    comps = []
    for cid, lang in (("eu", "Basque"), ("es", "Spanish")):
        c = _competition(4, None, seed=len(lang), cid=cid)
        c.group = ["VaxxStance 2021", "Close track", lang]
        comps.append(c)
    other = _competition(3, None, seed=9, cid="other")
    other.group = ["Other 2021", "Task", "English"]
    an = _analysis(comps + [other], bootstrap=200)
    written = appendix.write_latex(an, tmp_path, compile_pdf=False)
    path = tmp_path / "summary" / "ci-vaxxstance-2021-close-track.tex"
    assert path in written and len([p for p in written if p.name.startswith("ci-")]) == 1
    tex = path.read_text()
    assert "{Basque}" in tex and "{Spanish}" in tex and "VaxxStance 2021: Close track" in tex
    assert (
        "\\input{summary/ci-vaxxstance-2021-close-track.tex}"
        in (tmp_path / "appendix.tex").read_text()
    )


@needs_tex
def test_vs_best_family_corrects_over_all_pairs_and_marks_only_the_best(tmp_path):
    """vs-best corrects over all pairs (the best is chosen on the same data) and reads the verdicts
    on the comparisons with the best: the p-value table shows every pair's p-values, those of
    all-pairs (no pair is outside the correction's family, so no dash), and the matrix marks only
    the comparisons with the best; an untested pair earns no mark even where its all-pairs p-value
    is below alpha."""
    comps = [_competition(5, None, seed=5, cid="vb")]
    an = _analysis(comps, bootstrap=2000, family="vs-best", refine=False)
    everyone = _analysis(comps, bootstrap=2000, refine=False)
    comp, comp_all = an.competitions[0], everyone.competitions[0]
    r, r_all = latex.Renderer(an), latex.Renderer(everyone)
    pv = r.p_values(comp, comp.primary)
    assert (
        "over all pairs of systems, read on the comparisons with the best, other pairs untested"
        in pv
    )
    row = r"^\S+ & \S+ & [0-9.]+( & ([0-9.]+|\\textless\{\}0\.0+1)){5} \\\\$"
    rows = [m.group(0) for m in re.finditer(row, pv, re.M)]
    assert len(rows) == 10 and " & --" not in pv
    assert rows == [
        m.group(0) for m in re.finditer(row, r_all.p_values(comp_all, comp_all.primary), re.M)
    ]
    best = comp.primary.best
    untested = [c for c in comp.primary.pairs if best not in (c.a, c.b)]
    assert all(c.significant is None and not c.mark for c in untested)
    assert any(c.p_maxt < 0.05 for c in untested)  # would be marked under all-pairs
    matrix = r.pair_matrix(comp, comp.primary)
    marked = len(re.findall(r"\d\\rlap\{\\textsuperscript\{[^?]", matrix))
    assert marked == sum(1 for c in comp.primary.vs_best if c.significant) >= 1
    # every mark, "?" (undecided) included: all-pairs marks pairs that vs-best leaves untested
    any_mark = r"\d\\rlap\{\\textsuperscript\{"
    assert len(re.findall(any_mark, r_all.pair_matrix(comp_all, comp_all.primary))) > len(
        re.findall(any_mark, matrix)
    )
    _compile(tmp_path, pv + "\n" + matrix + "\n" + r.summary(), "ceurart")


def test_user_metric_names_need_not_be_identifiers(tmp_path):
    """A metric called ``my_metric.py:f`` (or anything) renders: rows are records, not
    namedtuples."""
    path = tmp_path / "my_metric.py"
    path.write_text(
        "def f(y_true, y_pred):\n    return sum(a == b for a, b in zip(y_true, y_pred)) / "
        "len(y_true)\n"
    )
    comp = _competition(3, None, cid="um")
    comp.metrics = [MetricSpec(f"{path}:f"), MetricSpec("accuracy")]
    an = _analysis([comp], bootstrap=100)
    tex = latex.Renderer(an).leaderboard(an.competitions[0])
    assert "my\\_metric.py:f" in tex


@needs_tex
def test_every_kept_unicode_character_compiles(tmp_path):
    """Whatever escape() keeps as non-ASCII, pdflatex (utf8 + T1) sets without error."""
    kept = "".join(sorted(tex.UNICODE_OK))
    assert tex.escape(kept) == kept
    _compile(tmp_path, tex.escape(kept), "ceurart")
    assert tex.escape("Ħamrun") == "?amrun"  # no ASCII decomposition: "?"


def test_summary_header_spans_stay_within_their_parent():
    """Equal languages of different challenges (or tasks) are not merged into one header cell."""
    comps = []
    for cid, group in (
        ("a", ["A 2021", "Task 1", "Spanish"]),
        ("b", ["B 2022", "Task 1", "Spanish"]),
        ("c", ["B 2022", "Task 1", "Basque"]),
    ):
        c = _competition(3, None, cid=cid, n=120)
        c.group = group
        comps.append(c)
    tex = latex.Renderer(_analysis(comps, bootstrap=100)).summary()
    assert "\\multicolumn{2}" in tex  # B 2022 over two columns, and its Task 1 too
    lines = {line.split("&")[0].strip(): line for line in tex.splitlines() if "&" in line}
    assert lines["Challenge"].count("\\multicolumn{2}") == 1
    assert lines["Task"].count("\\multicolumn{2}") == 1  # Task 1 of A and Task 1 of B stay apart
    assert "\\multicolumn{2}" not in lines["Language"]


# -- layout, labels, legends, babel spanish, decimal comma -----------------------------------------


def test_even_splits():
    from compreport.report.latex.layout import even_sizes, split_even, split_rows

    assert (
        even_sizes(11, 2) == [6, 5] and even_sizes(7, 2) == [4, 3] and even_sizes(66, 2) == [33, 33]
    )
    # five columns fit per part: 11 columns become 4+4+3, never 5+5+1
    assert [len(g) for g in split_even([1.0] * 11, lambda g: len(g) <= 5)] == [4, 4, 3]
    assert split_even([1.0] * 3, lambda g: False) is None
    assert [len(g) for g in split_rows(66, 40)] == [33, 33]
    assert [len(g) for g in split_rows(10, 40)] == [10]


def test_blocks_side_by_side_when_they_fit(twelve):
    """Paper Table 2: the two CI blocks of a competition in one table when the page holds them."""
    together = set()
    for comp in twelve.competitions:
        for style, st in layout.STYLES.items():
            ci = latex.Renderer(twelve, layout.Options(style=style)).confidence_intervals(comp)
            widths = [float(w) for w in re.findall(r"% tabular ([0-9.]+)pt", ci)]
            if len(widths) == 1:
                assert ci.count("\\multicolumn{4}") == 2, (comp.id, style)
                together.add((comp.id, style))
            else:  # apart only because together they would not fit the page
                assert sum(widths) + 2 * st.tabcolsep > st.widest, (comp.id, style)
    # the five-system task in every style; the twelve-system one's 15-character names in ACL's Times
    # and ceurart-2col's 8 pt (not in ceurart's 10 pt, laid out for Latin Modern Sans too, nor
    # SEPLN's 11 pt Computer Modern)
    assert together >= {("five", s) for s in layout.STYLES} | {
        ("twelve", "acl"),
        ("twelve", "ceurart-2col"),
    }, together


def test_summary_splits_evenly():
    """Seven competitions that need two tables split 4 + 3, not 6 + 1 or 3 + 3 + 1."""
    comps = []
    for i in range(7):
        c = _competition(3, None, cid=f"c{i}", n=120, seed=i)
        c.group = [f"Challenge {i} with a long name", "Task", "Spanish"]
        comps.append(c)
    an = _analysis(comps, bootstrap=100)
    tex = latex.Renderer(an, layout.Options(style="acl")).summary()
    sizes = [
        len(re.findall(r"^n( & [^\\]*)\\\\", part, re.M)[0].split("&")) - 1
        for part in re.findall(r"\\begin\{table\*?\}.*?\\end\{table\*?\}", tex, re.S)
    ]
    assert sum(sizes) == 7 and max(sizes) - min(sizes) <= 1 and min(sizes) >= 2, sizes


def test_label_prefix_makes_labels_unique(twelve):
    from compreport.errors import InputError

    # no workshop: the first competition's id, which its labels then do not repeat
    default = latex.Renderer(twelve)
    comp = twelve.competitions[0]
    assert "\\label{tab:twelve:leaderboard}" in default.leaderboard(comp)
    assert "\\label{tab:twelve:diff-best-macro-f1}" in default.differences_from_best(
        comp, comp.primary
    )
    assert "\\label{tab:twelve:competitiveness}" in default.summary()
    assert "\\label{tab:twelve:legend}" in default.legend()
    # a caption never refers to a table the paper may not include (the legend)
    assert "\\ref{" not in default.summary().replace("\\ref{tab:twelve:competitiveness}", "")
    other = latex.Renderer(twelve, layout.Options(label_prefix="run-2"))
    assert "\\label{tab:run-2:twelve-leaderboard}" in other.leaderboard(twelve.competitions[0])
    assert "\\label{tab:run-2:twelve-per-class}" in other.per_class(twelve.competitions[0])
    ws = Analysis(
        twelve.settings, twelve.competitions, workshop={"name": "IberLEF 2026 (synthetic demo)"}
    )
    assert latex.Renderer(ws).prefix == "iberlef-2026-synthetic-demo"
    for bad in ("a:b", "", "-x", "tab{1}"):
        with pytest.raises(InputError, match="label_prefix"):
            layout.Options(label_prefix=bad)


def test_appendix_section_labels_transliterate_as_file_names(twelve):
    """``\\label{sec:metodos}``, not pylatex's ``sec:Mtodos`` (it drops what is not ASCII)."""
    from compreport.language import language

    with language("es"):
        doc = appendix.appendix(twelve, layout.Options(), {}, {}, "", "twelve")
    labels = re.findall(r"\\label\{(sec:[^}]*)\}", doc)
    assert labels == ["sec:metodos", "sec:competitividad-entre-competiciones"], labels
    assert "\\label{sec:methods}" in appendix.appendix(
        twelve, layout.Options(), {}, {}, "", "twelve"
    )


def _matrix_marks(tex: str) -> tuple[list[str], set[str]]:
    """(marks the captions list, marks the cells carry) of a rendered pair matrix."""
    listed = re.findall(r"\\textsuperscript\{([^}]*)\}~\$p", tex) + re.findall(
        r"(\\dag)\{\}~\$p", tex
    )
    cells = set(re.findall(r"\\textsuperscript\{(\*+)\}(?!~)", tex)) | (
        {"\\dag"} if re.search(r"\\dag\{\}(?!~)", tex) else set()
    )
    return listed, cells


@pytest.mark.slow
def test_legend_sets_x_bar_and_marks_only_those_that_can_occur(twelve):
    """The marks a legend lists are those a corrected p-value of that metric can earn under the
    stored rule: the stored scheme's (thresholds at most alpha: 0.001, 0.01 and 0.05 at alpha =
    0.05; "†" for p < 0.1 only when alpha is at least 0.1), each only when verdicts["min_p"]
    (1/(R+1) for R resamples, refined ones counted, times the smallest family under Holm; not under
    max-T) is below its threshold; every mark in a cell is listed."""
    legend = latex.Renderer(twelve).legend()
    assert r"$\mathit{CV} = 100\,s/\bar{x}$" in legend and "s/mean" not in legend
    raw = _competition(12, None, cid="twelve")
    rng = np.random.default_rng(44)  # three systems, one pair near alpha: refined from B = 200
    gold = rng.integers(0, 2, 200)
    small = make_competition(
        gold,
        [np.where(rng.random(200) < acc, gold, 1 - gold) for acc in (0.9, 0.72, 0.64)],
        systems=["A", "B", "C"],
        metrics=[MetricSpec("accuracy")],
        cid="three",
    )
    cases = [  # (analysis, marks that can occur; None: refined, so from its stored resamples)
        (
            _analysis([raw], bootstrap=2000, refine=False, correction="holm"),
            {"*"},
        ),  # 66 pairs: 66/2001 = 0.033
        (
            _analysis([raw], bootstrap=2000, refine=False),
            {"***", "**", "*"},
        ),  # max-T: 1/2001 = 0.0005
        (_analysis([raw], bootstrap=2000, correction="none"), {"***", "**", "*"}),
        (
            _analysis(
                [raw], bootstrap=2000, correction="none", alpha=0.1
            ),  # "†" only at alpha >= 0.1
            {"***", "**", "*", "\\dag"},
        ),
        (
            _analysis([raw], bootstrap=200, family="per-row", correction="holm", refine=False),
            {"**", "*"},
        ),  # per-row: its last row holds one pair
        (
            _analysis([raw], bootstrap=200, refine=False, correction="holm"),
            set(),
        ),  # 66/201 > 0.05: none
        (_analysis([raw], bootstrap=200, refine=False), {"**", "*"}),  # max-T: 1/201 = 0.005
        (_analysis([small], bootstrap=200, refine=True), None),  # refined: its strictest p: ***
        (twelve, {"***", "**", "*"}),  # max-T, refined from 2,000 to 32,000: 1/32001
    ]
    for an, expected in cases:
        c = an.competitions[0]
        ma = c.primary
        assert ma.verdicts["min_p"] == pytest.approx(
            smallest_adjusted_p(
                smallest_family(ma.verdicts["family"], ma.verdicts["tested"]),
                ma.verdicts["resamples"],
                ma.verdicts["correction"],
            )
        )
        assert [tuple(m) for m in ma.verdicts["marks"]] == list(vocab.marks_at(an.settings.alpha))
        tex = latex.Renderer(an).pair_matrix(c, ma)
        listed, cells = _matrix_marks(tex)
        can = {m for t, m in vocab.marks_at(an.settings.alpha) if ma.verdicts["min_p"] < t}
        assert {m.replace("†", "\\dag") for m in can} == set(listed) and cells <= set(listed), (
            listed,
            cells,
        )
        if expected is not None:
            assert set(listed) == expected, (an.settings, listed)
        else:  # refined: R > B, and its strictest mark is listed because a cell carries it
            assert ma.verdicts["resamples"] > an.settings.bootstrap and "***" in cells, (
                ma.verdicts,
                cells,
            )
        if not listed:
            assert (
                "No significance mark can occur: with 200 resamples the smallest corrected "
                "$p$-value is 0.328" in tex
            )
    no_b = _analysis([raw], bootstrap=0)
    assert "No significance mark: without resamples there are no $p$-values" in latex.Renderer(
        no_b
    ).pair_matrix(no_b.competitions[0], no_b.competitions[0].primary)


def test_decimal_comma_changes_every_number_and_nothing_else(twelve, tmp_path):
    """--decimal-comma changes the decimal marker of every number of the tables, cells and
    captions (tex.num), and nothing else; numbers in math keep their marker braced."""
    point = appendix.write_latex(twelve, tmp_path / "point", compile_pdf=False)
    comma = appendix.write_latex(
        twelve, tmp_path / "comma", layout.Options(decimal_comma=True), compile_pdf=False
    )
    changed = 0
    for a, b in zip(point, comma):  # appendix.tex: its methods prose groups thousands apart (below)
        if a.suffix == ".tex" and a.name != "appendix.tex":
            ta, tb = a.read_text(), b.read_text()
            tb = re.sub(r"(\[[^\]\n]*\d); ", r"\1, ", tb)  # an interval's bounds: [0,1; 0,2]
            assert (
                re.sub(
                    r"(\d)(\{,\}|,)(?=\d|\\rlap\{\d)", lambda m: m[1] + m[2].replace(",", "."), tb
                )
                == ta
            ), a
            changed += ta != tb
    assert changed >= 5
    # the appendix's methods paragraph (the HTML's prose) takes the comma too, and groups no
    # thousands with one ("2000", "10~000", never "2,000")
    methods = (
        (tmp_path / "comma" / "appendix.tex").read_text(encoding="utf-8").split("\\section")[1]
    )
    assert "0,05" in methods and "2000 paired" in methods, methods
    assert not re.search(r"\d\.\d", methods) and not re.search(r"[1-9],\d{3}\b", methods), methods
    # a CI caption's cluster count (prose) is grouped the same way, by the renderer alone as in
    # write_latex
    clustered = copy.copy(twelve.competitions[0])
    clustered.clusters = {"clusters": 1200, "column": "question", "items": 4800}
    for comma, shown in ((False, "1,200 clusters"), (True, "1200 clusters")):
        caption = latex.Renderer(twelve, layout.Options(decimal_comma=comma)).confidence_intervals(
            clustered
        )
        assert shown in caption, caption
    # no bare decimal point in math mode (babel spanish would turn it into a comma): captions write
    # alpha and the thresholds as 0{.}05
    text = "".join(p.read_text() for p in point if p.suffix == ".tex" and p.name != "appendix.tex")
    captions = re.findall(r"\\caption\{(.*)\}\\label", text)
    assert captions and all("\\alpha = 0{.}05" in c for c in captions if "alpha" in c)
    for caption in captions:
        for math in re.findall(r"\$([^$]*)\$", caption):
            assert not re.search(r"\d\.\d", math), caption


def test_decimal_comma_reaches_the_rule_of_the_one_sided_test():
    """Under the paper's one-sided test the rule states its two-sided level (0.1): with
    --decimal-comma every caption naming the rule writes it 0,1, as the captions' other numbers
    (also when a table is rendered on its own, outside write_latex)."""
    an = _analysis([_competition(4, None, cid="bk")], bootstrap=200, test="berg-kirkpatrick")
    c = an.competitions[0]
    for comma, shown in ((False, "two-{}sided level is 0.1"), (True, "two-{}sided level is 0,1")):
        r = latex.Renderer(an, layout.Options(decimal_comma=comma))
        for src in (
            r.leaderboard(c),
            r.differences_from_best(c, c.primary),
            r.pair_matrix(c, c.primary),
            r.p_values(c, c.primary),
            r.summary(),
        ):
            assert shown in src, src
    assert an.settings.rule.endswith(
        "whose two-sided level is 0.1"
    )  # the HTML's and the prose's, decimal point


@needs_tex
def test_babel_spanish_and_decimal_comma_print_right(twelve, tmp_path):
    """Under babel spanish with --decimal-comma: 0,7127 in the body, α = 0,05 in the captions, and
    a team called 100%Tox.01 prints as given (no space before %)."""
    comp = twelve.competitions[0]
    r = latex.Renderer(twelve, layout.Options(style="sepln", decimal_comma=True))
    body = r.leaderboard(comp) + r.pair_matrix(comp, comp.primary) + r.legend()
    log, text = _compile(tmp_path, body, "sepln", babel="spanish", decimal_comma=True)
    flat = re.sub(r"\s+", " ", text)
    best = comp.primary.scores[0].score
    assert f"{best:.4f}".replace(".", ",") in flat and f"{best:.4f}" not in flat
    assert "α = 0,05" in flat and "0.05" not in flat
    assert "100%Tox.01" in flat and "100 %Tox.01" not in flat
    assert "s/x̄, in %" in flat and "( %)" not in flat  # the legend's CV, no "( %)"
    assert "p < 0,1" in flat or "p < 0,001" in flat


def test_names_too_long_for_the_page_become_numbers_with_a_key():
    """Every table fits: a name too long for even one metric column is numbered, the key in the
    caption."""
    long_name = "Universidad " * 12 + "Team.01"
    an = _analysis([_competition(3, [long_name, "B.01", "C.01"], cid="long")], bootstrap=200)
    comp = an.competitions[0]
    for style, st in layout.STYLES.items():
        r = latex.Renderer(an, layout.Options(style=style))
        for src in (
            r.leaderboard(comp),
            r.confidence_intervals(comp),
            r.differences_from_best(comp, comp.primary),
            r.pair_matrix(comp, comp.primary),
            r.p_values(comp, comp.primary),
        ):
            widths = [float(w) for w in re.findall(r"% tabular ([0-9.]+)pt", src)]
            assert widths and max(widths) <= st.widest, (style, src[:300])
            # in the key when not in the table (breakable after its separators)
            assert long_name.strip() in re.sub(r"\s+", " ", src.replace("\\allowbreak{}", ""))


def test_spanish_tables_headers_and_captions(twelve, tmp_path):
    """``--lang es``: headers, captions and the legend in Spanish (the width model measures the
    Spanish headers); labels, escaping and the numbers' markup as in English; it compiles under
    babel spanish."""
    from compreport.language import language

    comp = twelve.competitions[0]
    english = latex.Renderer(twelve).leaderboard(comp)
    with language("es"):
        # the rank set, left out by default in SEPLN's column, asked for alone
        r = latex.Renderer(twelve, layout.Options(style="sepln", columns=("rank_set", "group")))
        board, vs_best, legend = (
            r.leaderboard(comp),
            r.differences_from_best(comp, comp.primary),
            r.legend(),
        )
        summary, ci = r.summary(), r.confidence_intervals(comp)
    assert "Posición & Posiciones & Sistema" in board and "Rank" not in board
    assert "Resultados de" in board
    assert (
        "Sistema & {LI} & {Dif.} & {LS}" in vs_best and "\\label{tab:twelve:diff-best-" in vs_best
    )
    assert r"$\mathit{CV} = 100\,s/\bar{x}$, en \%" in legend and "Nombre & Descripción" in legend
    assert (
        "Emp. c/ gan." in summary
        and "según la definición de \\cite{navamunoz2024}. Filas: n: tamaño" in summary
    )
    assert "(límites inferior LI y superior LS)" in ci and "réplicas" in ci
    assert re.findall(r"\\label\{[^}]*\}", board) == re.findall(r"\\label\{[^}]*\}", english)
    if shutil.which("pdflatex"):
        log, text = _compile(
            tmp_path, "\n".join((board, vs_best, legend)), "sepln", babel="spanish"
        )
        assert not _overfull(log) and "Descripción" in text, _overfull(log)


@needs_tex
@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils not installed")
def test_bold_best_value_keeps_the_decimal_points_aligned(tmp_path):
    """In an ``r`` column the bold best score's decimal point sits where the regular scores put
    theirs. Bold digits are wider in Latin Modern (SEPLN's font), so set as plain bold text the
    point sat 0.3 pt per fraction digit to the left. Measured on the PDF: a word's left edge
    (``pdftotext -bbox``) plus the width of its integer part and point in its weight (the font's
    metrics: :mod:`compreport.report.latex.widths`)."""
    an = _analysis([_competition(4)], bootstrap=50, refine=False)
    comp = an.competitions[0]
    opt = layout.Options(style="sepln")
    _compile(tmp_path, latex.Renderer(an, opt).leaderboard(comp), "sepln")
    bbox = subprocess.run(
        ["pdftotext", "-bbox", "doc.pdf", "-"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    words = [
        (float(x0), float(x1), w)
        for x0, x1, w in re.findall(
            r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</word>',
            bbox,
        )
    ]
    t = model.leaderboard(comp, model.Format())
    cells = [r.cells[f"score:{comp.primary.name}"] for r in t.rows]
    assert sum(c.bold for c in cells) == 1 and all(re.fullmatch(r"0\.\d{4}", c.text) for c in cells)
    metrics = opt.layout.metrics
    points = []
    for c in cells:
        (x0,) = [x0 for x0, _, w in words if w == c.text]  # each score printed once
        points.append(x0 + metrics.text("0.", "b" if c.bold else "r"))
    assert max(points) - min(points) < 0.2, points


def test_names_pdflatex_cannot_set_are_named_in_a_warning(tmp_path):
    """A Chinese name prints as ``??.01`` in the LaTeX tables (pdflatex, T1): the run says which
    names print otherwise, and which print alike (two rows a table cannot tell apart); Latin names
    do not."""
    import warnings as w

    import compreport as cr
    from conftest import run_cli

    names = ["深度.01", "学习.01", "Ștefan.01", "Álvarez.01"]
    comp = _competition(4, names=names, cid="cjk")
    with w.catch_warnings():
        w.simplefilter("ignore")  # B = 50
        a = _analysis([comp], bootstrap=50, refine=False)
    with w.catch_warnings(record=True) as caught:
        w.simplefilter("always")
        board = cr.Report(a).to_latex("leaderboard")
    said = [str(x.message) for x in caught if "pdflatex" in str(x.message)]
    assert len(said) == 1, said
    assert (
        "they print '深度.01' as '??.01', '学习.01' as '??.01', 'Ștefan.01' as 'Stefan.01'; "
        "'深度.01' and '学习.01' print alike"
    ) in said[0]
    assert (
        "Álvarez" not in said[0] and "a names file (`names`," in said[0]
    )  # the caller's words: Python
    assert board.count("??.01") == 2 and "Stefan.01" in board and "Álvarez.01" in board
    assert tex.as_printed("Tü Par ✓") == "Tü Par ?"
    # the command line says it once, as a warning line; a competition of Latin names says nothing
    rng = np.random.default_rng(1)
    gold = rng.integers(0, 2, 60)
    rows = ["id,y," + ",".join(names)] + [
        f"{i},{g}," + ",".join(str(g if rng.random() < 0.7 else 1 - g) for _ in names)
        for i, g in enumerate(gold)
    ]
    (tmp_path / "cjk.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    res = run_cli(
        tmp_path,
        "report",
        "cjk.csv",
        "--id",
        "id",
        "-o",
        "l",
        "--metric",
        "accuracy",
        "-B",
        "50",
        "--format",
        "latex",
        "--no-compile",
        "--figure-formats",
        "",
    )
    lines = [x for x in res.stderr.splitlines() if "pdflatex cannot set" in x]
    assert (
        res.returncode == 0
        and len(lines) == 1
        and lines[0].startswith("warning: LaTeX tables of cjk")
    ), res.stderr
    assert "a names file (--names," in lines[0]
    with w.catch_warnings(record=True) as caught:
        w.simplefilter("always")
        latin = _analysis([_competition(3, cid="latin")], bootstrap=50, refine=False)
        cr.Report(latin).to_latex("leaderboard")
    assert not [x for x in caught if "pdflatex" in str(x.message)]
