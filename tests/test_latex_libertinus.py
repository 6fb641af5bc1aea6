"""ceurart's width model measures the font the class sets (issue 40 item 3): Libertinus Sans when
TeX finds libertinus.sty (texlive-fonts-extra), so the demo's detox-binary intervals set their two
metrics side by side in one table, as the paper's Table 2; without it, the wider glyph of
Libertinus Sans and Latin Modern Sans (the class's fallback), so the tables fit either way."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import warnings
from pathlib import Path

import pytest

import compreport as cr
from compreport.errors import InputError
from compreport.report.latex.layout import STYLES, Options, libertinus_installed
from compreport.report.latex.renderer import Renderer, preamble
from compreport.resources import demo_workshop_dir

CEUR = Path(__file__).parent / "data" / "ceurart"


@pytest.fixture(scope="module")
def detox():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        an = cr.analyze(cr.load(str(demo_workshop_dir() / "detox-binary")), bootstrap=200, seed=0)
    return an


def _widths(tex: str) -> list[float]:
    return [float(w) for w in re.findall(r"% tabular ([0-9.]+)pt wide", tex)]


def test_the_model_follows_the_font_the_class_will_use(detox):
    comp = detox.competitions[0]
    both = Renderer(detox, Options(libertinus=False)).confidence_intervals(comp)
    alone = Renderer(detox, Options(libertinus=True)).confidence_intervals(comp)
    # in Libertinus Sans alone the two blocks fit the column: one table of two metrics
    assert alone.count("\\begin{table}") == 1 and alone.count("\\multicolumn{4}") == 2
    assert _widths(alone)[0] <= STYLES["ceurart"].columnwidth
    assert "Libertinus Sans)" in alone
    # allowing for Latin Modern Sans too, each block is wider: the two do not fit together
    assert both.count("\\begin{table}") == 2 and "Libertinus Sans and Latin Modern Sans" in both
    # the default is what this machine's TeX finds
    default = Renderer(detox, Options()).confidence_intervals(comp)
    assert default == (alone if libertinus_installed() else both)
    # other styles have one font: the option changes nothing
    for style in ("sepln", "acl"):
        assert Options(style=style, libertinus=True).layout == STYLES[style]
    with pytest.raises(InputError, match="libertinus"):
        Options(libertinus="yes")


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed")
def test_detox_ci_is_one_table_in_real_ceurart_with_libertinus(detox, tmp_path):
    """The demo's detox-binary ci.tex, compiled in the real ceurart class with Libertinus: one
    float, no overfull box, and pdflatex's width of the tabular within the model's."""
    if not libertinus_installed():
        pytest.skip(
            "libertinus.sty is not installed (Debian: texlive-fonts-extra): ceurart.cls falls back "
            "to Computer Modern, so the tables are laid out for both fonts and the Libertinus "
            "layout cannot be compiled here"
        )
    options = Options()
    ci = Renderer(detox, options).confidence_intervals(detox.competitions[0])
    assert ci.count("\\begin{table}") == 1
    (tmp_path / "preamble.tex").write_text(preamble(options, "test"), encoding="utf-8")
    (tmp_path / "ci.tex").write_text(ci, encoding="utf-8")
    (tmp_path / "paper.tex").write_text(
        "\n".join(
            [
                "\\documentclass{ceurart}",
                "\\input{preamble.tex}",
                r"\makeatletter\newsavebox\crbox\let\cr@tabular\tabular"
                r"\let\cr@endtabular\endtabular\renewenvironment{tabular}{\begin{lrbox}{\crbox}"
                r"\cr@tabular}{\cr@endtabular\end{lrbox}\typeout{CRWIDTH \the\wd\crbox}"
                r"\usebox\crbox}\makeatother",
                "\\begin{document}",
                "\\input{ci.tex}",
                "\\end{document}",
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    env = dict(os.environ, TEXINPUTS=f"{CEUR}{os.pathsep}")
    proc = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "paper.tex"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        errors="replace",
    )
    log = (tmp_path / "paper.log").read_text(errors="replace")
    assert proc.returncode == 0, log[-3000:]
    assert "Overfull \\hbox" not in log
    fonts = subprocess.run(
        ["pdffonts", "paper.pdf"], cwd=tmp_path, capture_output=True, text=True
    ).stdout
    assert "LibertinusSans" in fonts
    (measured,) = [float(x) for x in re.findall(r"^CRWIDTH ([0-9.]+)pt", log, re.M)]
    assert measured - 0.5 <= _widths(ci)[0] <= STYLES["ceurart"].columnwidth
