"""Every table in the real classes: the demo and competitions of 12 and 48 systems with
35-character names, compiled with pdflatex in each style's geometry, read back from the log, the
.aux and the PDF.

ceurart and ceurart-2col use the real ``ceurart.cls`` (tests/data/ceurart, LPPL); SEPLN and ACL,
whose templates cannot be shipped, are emulated with their measured widths, fonts and caption
rules (:attr:`~compreport.report.latex.layout.Style.document`; SEPLN with babel spanish). The
three outputs (the demo, 12 and 48 systems) go into one paper per style, as three
``--label-prefix`` outputs would, with text between the tables and a page break after each
competition. One pdflatex run per style.

Checked: no error, no overfull box over 1 pt nor overfull page, no ``Float too large``, every
float's height within the height model and the text height, tables numbered in page
order, no part of a split table with a single column or row, no label defined twice, no Type 3
font (pdffonts), and the width model against pdflatex's natural width of every tabular. And the
appendix itself (a pdflatex run each): every float under its own section's heading, and no page
or float too tall with 12 and 48 systems in every style.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pytest

import compreport as cr
from compreport.inputs.competition import MetricSpec
from compreport.report.latex import appendix
from compreport.report.latex.layout import STYLES, Options
from compreport.report.latex.renderer import Renderer, preamble
from compreport.resources import demo_workshop_dir
from compreport.settings import Settings
from compreport.stats.analysis import analyze_competition
from compreport.stats.results import Analysis
from conftest import make_competition

HERE = Path(__file__).parent
CEUR = HERE / "data" / "ceurart"
#: Every test compiles LaTeX: slow (skipped by `pytest -m "not slow"`).
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        shutil.which("pdflatex") is None or shutil.which("pdffonts") is None,
        reason="pdflatex or pdffonts not installed",
    ),
]

#: 35 characters each, with the characters a LaTeX table must escape.
LONG_NAMES = [
    "Universidad_Politécnica_Valencia.01",
    "Universidad_Politécnica_Valencia.02",
    "Instituto_Nacional_Astrofísica_O.01",
    "Universidad_Nacional_Educación_D.01",
    "Centro_de_Investigación_en_Compu.01",
    "R&D_Lenguaje_Natural_y_Minería_T.01",
    "Universidad_Autónoma_de_Barcelona.1",
    "100%_Toxicidad_y_Discurso_de_Odio.1",
    "baseline.support_vector_machine_tfi",
    "Grupo_de_Procesamiento_del_Lengua.1",
    "Laboratorio_de_Tecnologías_del_Ha.1",
    "baseline.majority_class_of_training",
]
#: The outputs compiled into each style's paper (one ``--label-prefix`` each).
OUTPUTS = ("demo", "twelve", "fortyeight")
FILLER = (
    "The tables of this section report the paired bootstrap analysis of the competition; their "
    "numbers, marks and verdicts come from the stored analysis and are discussed in the text. "
) * 3


def _long_competition(systems: int, cid: str):
    """A competition of ``systems`` systems named with 35 characters (:data:`LONG_NAMES`, numbered
    on from the 13th), two of them baselines, and macro-F1 and accuracy."""
    assert all(len(n) == 35 for n in LONG_NAMES), [len(n) for n in LONG_NAMES]
    names = LONG_NAMES + [f"{LONG_NAMES[i % 12][:-3]}.{i:02d}" for i in range(12, systems)]
    assert len(set(names)) == systems and all(len(n) == 35 for n in names)
    rng = np.random.default_rng(7)
    n = 400
    gold = rng.integers(0, 3, n)
    preds = []
    for i in range(systems):
        p = gold.copy()
        flip = rng.random(n) < 0.12 + 0.3 * i / systems
        p[flip] = rng.integers(0, 3, flip.sum())
        preds.append(p)
    comp = make_competition(
        gold,
        preds,
        systems=names,
        metrics=[MetricSpec("macro_f1"), MetricSpec("accuracy")],
        cid=cid,
    )
    comp.name = "Detección de discurso de odio en español (100% sintético)"
    comp.baselines = [names[8], names[11]]
    return comp


def _twelve() -> Analysis:
    s = Settings(bootstrap=1400, seed=1)
    return Analysis(s, [analyze_competition(_long_competition(12, "twelve"), s, progress=False)])


def _forty_eight() -> Analysis:
    """48 systems: leaderboard, intervals and differences from the best split by height (no pair
    matrix or p-value list: too many systems)."""
    s = Settings(bootstrap=300, seed=1, refine=False)
    return Analysis(
        s, [analyze_competition(_long_competition(48, "fortyeight"), s, progress=False)]
    )


@pytest.fixture(scope="module")
def analyses():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        demo = cr.analyze(cr.load(str(demo_workshop_dir())), bootstrap=300, seed=0)
        forty_eight = _forty_eight()
    return {"demo": demo, "twelve": _twelve(), "fortyeight": forty_eight}


def _head(style: str, preamble: str = "demo/preamble.tex") -> list[str]:
    """The preamble of a paper in ``style``: the real class or its emulation, then ``preamble``."""
    st = STYLES[style]
    if style.startswith("ceurart"):
        head = [r"\documentclass%s{ceurart}" % ("[twocolumn]" if st.twocolumn else "")]
    else:
        head = list(st.document) + ([rf"\usepackage[{st.babel}]{{babel}}"] if st.babel else [])
    return head + [rf"\input{{{preamble}}}"]


def _pdflatex(folder: Path, name: str = "paper") -> str:
    """Compile ``folder/<name>.tex`` once (ceurart.cls from tests/data); its log (the run must
    succeed)."""
    env = dict(os.environ, TEXINPUTS=f"{CEUR}{os.pathsep}")
    proc = subprocess.run(
        [
            "pdflatex",
            "-interaction=nonstopmode",
            "-halt-on-error",
            "-no-shell-escape",
            f"{name}.tex",
        ],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        errors="replace",
    )
    log = (folder / f"{name}.log").read_text(errors="replace")
    assert proc.returncode == 0, log[-4000:]
    return log


def _paper(style: str, out: Path, head: list[str] | None = None) -> str:
    """A paper in ``style`` with both outputs' tables, text between them (``head``: another
    preamble than the style's, such as the real sepln.sty's)."""
    head = list(head) if head is not None else _head(style)
    # every tabular's natural width to the log, in input order
    head.append(r"""\makeatletter
\newsavebox\crbox
\let\cr@tabular\tabular \let\cr@endtabular\endtabular
\renewenvironment{tabular}{\begin{lrbox}{\crbox}\cr@tabular}{\cr@endtabular\end{lrbox}%
\typeout{CRWIDTH \the\wd\crbox}\usebox\crbox}
\let\cr@largefloatcheck\@largefloatcheck
\def\@largefloatcheck{\typeout{CRHEIGHT \the\dimexpr\ht\@currbox+\dp\@currbox\relax}%
\cr@largefloatcheck}
\makeatother""")
    body = [r"\begin{document}"] + ([r"\twocolumn"] if style == "ceurart-2col" else [])
    for name in OUTPUTS:
        files = _table_files(out / name)
        for f, after in zip(files, [*files[1:], None]):
            body += [FILLER, rf"\input{{{f.relative_to(out).as_posix()}}}"]
            if after is None or after.parent != f.parent:
                body.append(r"\clearpage")  # end of a competition (or of the summary)
    return "\n".join(head + body + [r"\end{document}"]) + "\n"


def _table_files(out: Path) -> list[Path]:
    """Every table file of one output in the appendix's order: summary, then each competition's
    (the demo's p-value lists included: 560 rows, half of each paper's pdflatex time)."""
    files = [out / "summary" / "legend.tex", out / "summary" / "competitiveness.tex"]
    files += sorted((out / "summary").glob("ci-*.tex"))
    for line in (out / "appendix.tex").read_text(encoding="utf-8").splitlines():
        m = re.fullmatch(r"\\input\{(.+/tables/.+\.tex)\}", line.strip())
        if m:
            files.append(out / m.group(1))
    return files


def _libertinus() -> bool:
    return bool(
        subprocess.run(
            ["kpsewhich", "libertinus.sty"], capture_output=True, text=True
        ).stdout.strip()
    )


@pytest.fixture(scope="module")
def compiled(analyses, tmp_path_factory):
    """style -> (folder, pdflatex log, .aux, pdffonts output, model widths in input order, and
    (file name, model height or None) of every float in input order).

    The default output of each style, as a user gets it: ceurart's tables are laid out for
    Libertinus Sans and Latin Modern Sans at once (the wider glyph of the two), so they fit whether
    the class finds Libertinus (texlive-fonts-extra) or falls back to what preamble.tex loads;
    without it, they are compiled and measured here in Latin Modern Sans (see
    test_ceurart_sets_tables_in_libertinus).
    """
    cache: dict[str, tuple] = {}

    def build(style: str):
        if style in cache:
            return cache[style]
        folder = tmp_path_factory.mktemp(style)
        for name, an in analyses.items():
            appendix.write_latex(an, folder / name, Options(style=style), compile_pdf=False)
        (folder / "paper.tex").write_text(_paper(style, folder), encoding="utf-8")
        log = _pdflatex(folder)
        aux = (folder / "paper.aux").read_text(errors="replace")
        fonts = subprocess.run(
            ["pdffonts", "paper.pdf"], cwd=folder, capture_output=True, text=True
        ).stdout
        model, heights = [], []
        for name in OUTPUTS:
            for f in _table_files(folder / name):
                model += [
                    float(w)
                    for w in re.findall(r"^% tabular ([0-9.]+)pt wide", f.read_text(), re.M)
                ]
                for part in _parts(f.read_text()):
                    tall = re.search(r"^% tabular .*, float ([0-9.]+)pt tall", part, re.M)
                    heights.append((f.name, float(tall.group(1)) if tall else None))
        cache[style] = (folder, log, aux, fonts, model, heights)
        return cache[style]

    return build


@pytest.mark.parametrize("style", list(STYLES))
def test_every_table_compiles_cleanly_in_the_class(compiled, style):
    folder, log, aux, fonts, _, _ = compiled(style)
    assert not re.search(r"^! ", log, re.M), log[-3000:]
    assert "Float too large" not in log
    assert "Overfull \\vbox" not in log, [line for line in log.splitlines() if "vbox" in line]
    overfull = [float(x) for x in re.findall(r"Overfull \\hbox \(([0-9.]+)pt too wide\)", log)]
    assert max(overfull, default=0.0) <= 1.0, [
        line for line in log.splitlines() if "Overfull" in line
    ]
    assert "multiply defined" not in log and "multiply-defined" not in log
    labels = re.findall(r"\\newlabel\{(tab:[^}]*)\}\{\{(\d+)\}\{(\d+)\}", aux)
    names = [x for x, _, _ in labels]
    sources = "\n".join(f.read_text() for name in OUTPUTS for f in _table_files(folder / name))
    assert (
        len(names) == len(set(names)) == sources.count("\\label{tab:") > 60
    )  # every float of the three outputs
    assert any(x.startswith("tab:iberlef-2026-synthetic-demo:") for x in names)
    # the prefix is the competition's id: the labels do not repeat it
    assert "tab:twelve:leaderboard" in names and "tab:fortyeight:leaderboard" in names
    assert not any(
        x.startswith(("tab:twelve:twelve-", "tab:fortyeight:fortyeight-")) for x in names
    )
    # numbered in page order: the .aux gets a label when its float is shipped out
    numbers = [int(n) for _, n, _ in labels]
    pages = [int(p) for _, _, p in labels]
    assert numbers == sorted(numbers) == list(range(1, len(numbers) + 1))
    assert pages == sorted(pages)
    assert "Type 3" not in fonts, fonts
    # no longtable, no resizing, no size change, no vertical rules
    for bad in (
        "longtable",
        "\\resizebox",
        "\\scalebox",
        "\\small",
        "\\footnotesize",
        "\\scriptsize",
        "\\tiny",
    ):
        assert bad not in sources, bad
    assert not re.search(r"\\begin\{tabular\}\{[^}\n]*\|", sources)


@pytest.mark.parametrize("style", list(STYLES))
def test_width_model_matches_pdflatex(compiled, style):
    """The model never underestimates a tabular by more than half a point, and is calibrated from
    the fonts' metrics, not a safety factor: at most 1 % + 4 pt wider than pdflatex's natural
    width (2 % + 4 pt for ceurart set in Latin Modern Sans, laid out for Libertinus Sans too)."""
    _, log, _, fonts, model, _ = compiled(style)
    measured = [float(x) for x in re.findall(r"^CRWIDTH ([0-9.]+)pt", log, re.M)]
    assert len(measured) == len(model) > 60
    gaps = [mo - me for mo, me in zip(model, measured)]
    worst = min(range(len(gaps)), key=gaps.__getitem__)
    assert gaps[worst] >= -0.5, (worst, model[worst], measured[worst])
    # ceurart compiled without Libertinus: the model allows for it too (each glyph the wider of
    # Libertinus Sans and Latin Modern Sans), so tables of words (the teams' names and marks of
    # teams.tex, 8.9 pt over 358 pt) are wider in the model than in Latin Modern Sans alone
    share = 0.02 if style.startswith("ceurart") and not _libertinus() else 0.01
    assert all(g <= share * me + 4.0 for g, me in zip(gaps, measured)), max(gaps)
    font = (
        "Libertinus Sans"
        if "LibertinusSans" in fonts
        else "Latin Modern Sans"
        if "LMSans" in fonts
        else "Latin Modern"
        if "LMRoman" in fonts
        else "Times"
    )
    print(
        f"\n{style} ({font}): {len(gaps)} tabulars, model - pdflatex: min {min(gaps):.2f} pt, "
        f"median {float(np.median(gaps)):.2f} pt, max {max(gaps):.2f} pt "
        f"({100 * max(g / me for g, me in zip(gaps, measured)):.1f} % of the width)"
    )


@pytest.mark.parametrize("style", list(STYLES))
def test_height_model_matches_pdflatex(compiled, style):
    """Every float the height model covers (all but the legend and summary, whose wrapped cells do
    not grow with the systems) is at most its model height, the model within the text height;
    and the model is no safety factor: at most two caption lines (three for ceurart in Latin Modern
    Sans) and 4 pt above pdflatex's
    height (ht + dp of the float box, read when LaTeX checks it against \\textheight). Before, the
    SEPLN model assumed a text height of 650 pt (the class: 24.5 cm, 697 pt), captions were
    counted by their width over the line's, and the ceurart stand-in's captions (KOMA's, hanging
    under "Table N:") were up to 34 pt taller than the class's: the one-column appendix's p-value
    tables ran 12 and 24 pt past the page ("Overfull \\vbox")."""
    _, log, _, _, _, heights = compiled(style)
    measured = [float(x) for x in re.findall(r"^CRHEIGHT ([0-9.]+)pt", log, re.M)]
    assert len(measured) == len(heights) > 60
    st = STYLES[style]
    # ceurart's captions are modelled in the wider glyph of Libertinus Sans and Latin Modern Sans:
    # set in Latin Modern Sans alone (no texlive-fonts-extra), a long one takes a line less
    slack = 3 if style.startswith("ceurart") and not _libertinus() else 2
    checked = 0
    for (name, model), real in zip(heights, measured):
        assert real <= st.textheight, (name, real)
        if model is None:
            assert name in ("legend.tex", "competitiveness.tex"), name
            continue
        checked += 1
        assert real - 0.5 <= model <= st.textheight, (name, model, real)
        assert model <= real + slack * st.caption_baselineskip + 4.0, (name, model, real)
    assert checked > 50
    assert max(m for _, m in heights if m) > 0.85 * st.textheight  # tall tables were split


def _parts(src: str) -> list[str]:
    return re.findall(r"\\begin\{table\*?\}.*?\\end\{table\*?\}", src, re.S)


def _body_rows(part: str) -> int:
    body = re.search(r"\\midrule\n(.*?)\\bottomrule", part, re.S).group(1)
    return sum(1 for line in body.splitlines() if line.endswith("\\\\"))


@pytest.mark.parametrize("style", list(STYLES))
def test_split_tables_have_no_single_column_or_row_part(compiled, style):
    folder = compiled(style)[0]
    split = 0
    for name in OUTPUTS:
        for f in _table_files(folder / name):
            parts = _parts(f.read_text())
            if len(parts) < 2:
                continue
            split += 1
            rows = [_body_rows(p) for p in parts]
            assert min(rows) >= 2, (f, rows)
            if f.name.startswith("pairs-"):
                cols = [len(re.findall(r"& \{\d+\}", p)) for p in parts]
                assert min(cols) >= 2, (f, cols)
                assert max(cols) - min(cols) <= 1, (f, cols)  # even
            if f.name == "competitiveness.tex":
                cols = [re.search(r"^n( & [^\\]*)\\\\", p, re.M).group(1).count("&") for p in parts]
                assert min(cols) >= 2 and max(cols) - min(cols) <= 1, (f, cols)
    assert split >= 4  # the 66-pair p-value lists at least


def test_table_star_only_when_the_column_is_too_narrow(compiled):
    """Two-column styles: a part is a table* exactly when the model says it is wider than the
    column."""
    for style in ("ceurart-2col", "sepln", "acl"):
        folder = compiled(style)[0]
        st = STYLES[style]
        for name in OUTPUTS:
            for f in _table_files(folder / name):
                for part in _parts(f.read_text()):
                    w = float(re.search(r"% tabular ([0-9.]+)pt wide", part).group(1))
                    star = part.startswith("\\begin{table*}")
                    assert star == (w > round(st.columnwidth, 2)), (style, f.name, w)


def test_ceurart_sets_tables_in_libertinus(compiled):
    """With texlive-fonts-extra, ceurart.cls sets the tables in Libertinus Sans, the font of the
    ceurart model."""
    if not _libertinus():
        pytest.skip(
            "texlive-fonts-extra is not installed: ceurart.cls falls back to Computer Modern, for "
            "which preamble.tex loads Latin Modern, so the ceurart tables (laid out for Libertinus "
            "Sans and Latin Modern Sans at once) were compiled and measured in Latin Modern Sans; "
            "typesetting them in Libertinus Sans, as the class does with texlive-fonts-extra, was "
            "not checked here"
        )
    for style in ("ceurart", "ceurart-2col"):
        assert "LibertinusSans-Regular" in compiled(style)[3]


#: 40 names of 45 characters, words joined by "_" (no space): too long for the pairwise tables,
#: which number the systems with a key in the caption, where a line holds one or two of these names.
KEY_NAMES = [
    f"{stem}.{i:02d}"
    for i, stem in enumerate(
        [
            "Universidad_Politécnica_de_Valencia_PLN&IR",
            "Instituto_Nacional_de_Astrofísica_Óptica1%",
            "Centro_de_Investigación_en_Computación_#te",
            "R&D_Lenguaje_Natural_y_Minería_de_Texto{x}",
            "baseline.support_vector_machine_tfidf_ngra",
        ]
        * 8
    )
]


@pytest.mark.parametrize(
    "style", ["ceurart", "sepln"]
)  # the two that broke (ACL, ceurart-2col: same input, clean)
def test_keys_of_long_names_fit_the_page(tmp_path, style):
    """40 systems named with 45 characters: the p-value list, the pair matrix and the differences
    from the best number them, with a key in the caption. Each part's rows fit under its own key
    (before: a probe of 40 "x" per name, short by 2-4 lines: "Float too large"), and the parts are
    as few as that allows: the p-value list's continued parts fill their pages (under a key naming
    every system it took half as many parts again); the key's names wrap after their separators
    (before: caption lines up to 107 pt too wide)."""
    assert all(len(n) == 45 for n in KEY_NAMES) and len(set(KEY_NAMES)) == 40
    rng = np.random.default_rng(3)
    gold = rng.integers(0, 3, 120)
    preds = []
    for i in range(40):
        p = gold.copy()
        flip = rng.random(120) < 0.1 + 0.015 * i
        p[flip] = rng.integers(0, 3, flip.sum())
        preds.append(p)
    comp = make_competition(gold, preds, systems=KEY_NAMES, metrics=["macro_f1"], cid="keys")
    comp.baselines = KEY_NAMES[4::5]
    s = Settings(bootstrap=50, seed=1, refine=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        an = Analysis(s, [analyze_competition(comp, s, progress=False)])
    c, ma = an.competitions[0], an.competitions[0].primary
    r = Renderer(an, Options(style=style))
    tables = {
        "vs-best": r.differences_from_best(c, ma),
        "pairs": r.pair_matrix(c, ma),
        "pvalues": r.p_values(c, ma),
    }
    assert (
        "numbered by rank" in tables["pairs"] and "numbered by rank" in tables["pvalues"]
    )  # with a key
    (tmp_path / "preamble.tex").write_text(preamble(Options(style=style), "test"), encoding="utf-8")
    body = [r"\begin{document}"]
    for name, src in tables.items():
        (tmp_path / f"{name}.tex").write_text(src, encoding="utf-8")
        body += [FILLER, rf"\input{{{name}.tex}}", r"\clearpage"]
    (tmp_path / "paper.tex").write_text(
        "\n".join(_head(style, "preamble.tex") + body + [r"\end{document}"]) + "\n",
        encoding="utf-8",
    )
    log = _pdflatex(tmp_path)
    assert not re.search(r"^! ", log, re.M), log[-3000:]
    assert "Float too large" not in log, [
        line for line in log.splitlines() if "Float too large" in line
    ]
    overfull = [float(x) for x in re.findall(r"Overfull \\hbox \(([0-9.]+)pt too wide\)", log)]
    assert max(overfull, default=0.0) <= 1.0, [
        line for line in log.splitlines() if "Overfull" in line
    ]
    # the p-value list's continued parts but the last fill their pages: the text's height (caption
    # to last row, the page number left out) is at least 85% of the text height
    bbox = subprocess.run(
        ["pdftotext", "-bbox", "paper.pdf", "-"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    fills = []
    for page in re.findall(r"<page [^>]*>(.*?)</page>", bbox, re.S):
        words = [
            (float(a), float(b), w)
            for a, b, w in re.findall(
                r'yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)</word>', page
            )
        ]
        text = " ".join(w for _, _, w in words)
        if "Estimated" in text and "continued" in text:
            top = min(a for a, _, _ in words)
            fills.append(
                (max(b for _, b, _ in words if b <= top + STYLES[style].textheight) - top)
                / STYLES[style].textheight
            )
    assert len(fills) > 10 and min(fills[:-1]) >= 0.85, " ".join(f"{f:.2f}" for f in fills)


@pytest.mark.parametrize("style", list(STYLES))
@pytest.mark.parametrize("data", ["twelve", "fortyeight"])
def test_appendix_tall_tables_fit_the_page(analyses, tmp_path, style, data):
    """The appendix of 12 and 48 systems with 35-character names, in each style's document, has
    no float or page taller than the text: tall tables are split by the style's text height.
    Before, the one-column ceurart appendix set the p-value lists [H] 12 and 24 pt past the page
    ("Overfull \\vbox ... while \\output is active"): the class stand-in's captions hung under
    "Table N:", taller than the height model's."""
    appendix.write_latex(analyses[data], tmp_path, Options(style=style), compile_pdf=False)
    log = _pdflatex(tmp_path, "appendix")
    assert not re.search(r"^! ", log, re.M), log[-3000:]
    assert "Float too large" not in log, [x for x in log.splitlines() if "too large" in x]
    assert "Overfull \\vbox" not in log, [x for x in log.splitlines() if "vbox" in x]


def _png(path: Path, w: int = 40, h: int = 30) -> None:
    """A grey ``w`` x ``h`` PNG, a figure's stand-in (as tall as the demo's, at \\linewidth)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    rows = b"".join(b"\0" + b"\x80" * w for _ in range(h))
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def _headings_before(lines, heading: str, label: str) -> list[tuple[int, str]]:
    """(headings seen so far, label) for every label matched by ``label`` in ``lines``."""
    out, heads = [], 0
    for line in lines:
        heads += bool(re.match(heading, line))
        out += [(heads, x) for x in re.findall(label, line)]
    return out


@pytest.mark.parametrize("data, style", [("two", "ceurart"), ("two", "sepln"), ("demo", "acl")])
def test_appendix_floats_stay_under_their_section(request, tmp_path, data, style):
    """Every table and figure of the compiled appendix comes after its section's (or the Figures
    subsection's) heading and before the next heading. The .aux is written at shipout in reading
    order (a page's table* first, then the columns; in each, top floats, text, bottom floats), so
    the number of headings before each float's label there is the number before it in appendix.tex
    and its inputs. Before: one-column tables floated despite \\floatplacement{table}{H} (the
    ceurart stand-in's [tbp] overrode it), and nothing stopped a float at a section's end: the §2
    heading stood empty below the summary tables and §3's leaderboard. ACL's demo: the legend rose
    above the §2 heading that opens a new column (placeins' \\suppressfloats[t] applies to the
    previous one; flafter stops it)."""
    if data == "demo":
        an = request.getfixturevalue("analyses")[
            "demo"
        ]  # the module's (tables of seven competitions)
        figures = None
    else:
        rng = np.random.default_rng(5)
        comps = []
        for cid in ("alpha", "beta"):
            gold = rng.integers(0, 3, 200)
            preds = [
                np.where(rng.random(200) < 0.15 + 0.03 * i, rng.integers(0, 3, 200), gold)
                for i in range(6)
            ]
            comps.append(
                make_competition(
                    gold,
                    preds,
                    systems=[f"Sys{i}.01" for i in range(6)],
                    metrics=["macro_f1", "accuracy"],
                    cid=cid,
                )
            )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # B = 50: no correction can reject
            an = cr.analyze(comps, bootstrap=50, refine=False)
        figures = {}
        for comp in an.competitions:
            (tmp_path / comp.id / "figures").mkdir(parents=True)
            for stem in ("ci-macro_f1", "diff-macro_f1", "dist-macro_f1"):
                _png(tmp_path / comp.id / "figures" / f"{stem}.png")
                figures.setdefault(comp.id, []).append(f"{comp.id}/figures/{stem}.png")
    appendix.write_latex(an, tmp_path, Options(style=style), compile_pdf=False, figures=figures)
    _pdflatex(tmp_path, "appendix")
    source = []
    for line in (tmp_path / "appendix.tex").read_text(encoding="utf-8").splitlines():
        inputs = re.findall(r"\\input\{([^}]*)\}", line)
        source += [line] + [(tmp_path / rel).read_text(encoding="utf-8") for rel in inputs]
    expected = _headings_before(source, r"\\(sub)?section\{", r"\\label\{((?:tab|fig):[^}]*)\}")
    aux = (tmp_path / "appendix.aux").read_text(encoding="utf-8").splitlines()
    got = _headings_before(
        aux,
        r"\\@writefile\{toc\}\{\\contentsline \{(sub)?section\}",
        r"^\\newlabel\{((?:tab|fig):[^}]*)\}",
    )
    expected, got = {x: h for h, x in expected}, {x: h for h, x in got}
    assert got.keys() == expected.keys() and len(got) > 20
    assert got == expected, {
        x: (h, expected[x]) for x, h in got.items() if h != expected[x]
    }  # (got, wanted)


def test_one_column_appendix_sets_tables_where_they_are_input(tmp_path):
    """ceurart's one-column appendix sets tables [H] (\\floatplacement{table}{H}) through the class
    stand-in's table environment: one too tall for the rest of the page moves to the next with the
    text after it. Before, the stand-in's fixed [tbp] kept it a float: the text after it stayed
    above."""
    (tmp_path / "preamble.tex").write_text(preamble(Options(), "test"), encoding="utf-8")
    rows = "".join(f"{i} & row {i} \\\\\n" for i in range(12))
    (tmp_path / "doc.tex").write_text(
        "\n".join(
            [
                STYLES["ceurart"].document[0],
                *appendix.document_preamble(Options()),
                r"\begin{document}",
                r"Alpha\par\rule{1pt}{0.8\textheight}\par",
                r"\begin{table}\centering\caption{Tall table}",
                rf"\begin{{tabular}}{{rl}}{rows}\end{{tabular}}\end{{table}}",
                r"Omega",
                r"\end{document}",
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    _pdflatex(tmp_path, "doc")
    pages = [
        subprocess.run(
            ["pdftotext", "-f", str(p), "-l", str(p), "doc.pdf", "-"],
            cwd=tmp_path,
            text=True,
            capture_output=True,
        ).stdout
        for p in (1, 2)
    ]
    assert "Alpha" in pages[0] and "Tall table" not in pages[0] and "Omega" not in pages[0], pages
    assert pages[1].index("Tall table") < pages[1].index("Omega"), pages


SEPLN_STY = os.environ.get("COMPREPORT_SEPLN_STY")


@pytest.mark.slow
@pytest.mark.skipif(
    not SEPLN_STY,
    reason="set COMPREPORT_SEPLN_STY to the SEPLN template's sepln.sty (no licence: not shipped)",
)
def test_sepln_tables_fit_the_real_template(analyses, tmp_path):
    """Both outputs' tables in a paper set with the journal's own sepln.sty (its 11 pt option:
    \\normalsize on 12.6 pt lines, 16 x 24.5 cm, columns 1 cm apart): they compile, every float
    fits the text height and is at most the height model's (docs/latex.md cites the figures)."""
    import shutil as sh

    sh.copy(SEPLN_STY, tmp_path / "sepln.sty")
    for name, an in analyses.items():
        appendix.write_latex(an, tmp_path / name, Options(style="sepln"), compile_pdf=False)
    head = [
        r"\documentclass[a4paper,twocolumn,11pt]{article}",
        r"\usepackage{sepln}",
        r"\usepackage[spanish]{babel}",
        r"\input{demo/preamble.tex}",
        r"\AtBeginDocument{\typeout{CRBASELINE \the\baselineskip}}",
    ]
    (tmp_path / "paper.tex").write_text(_paper("sepln", tmp_path, head), encoding="utf-8")
    log = _pdflatex(tmp_path)
    assert "CRBASELINE 12.6pt" in log  # the template's normalsize: the model's line height
    measured = [float(x) for x in re.findall(r"^CRHEIGHT ([0-9.]+)pt", log, re.M)]
    heights = []
    for name in OUTPUTS:
        for f in _table_files(tmp_path / name):
            for part in _parts(f.read_text()):
                tall = re.search(r"^% tabular .*, float ([0-9.]+)pt tall", part, re.M)
                heights.append((f.name, float(tall.group(1)) if tall else None))
    assert len(measured) == len(heights) > 60
    textheight = STYLES["sepln"].textheight
    for (name, model), real in zip(heights, measured, strict=True):
        assert real <= textheight, (name, real)
        if model is not None:
            assert real - 0.5 <= model, (name, model, real)
    assert "Overfull \\vbox" not in log
