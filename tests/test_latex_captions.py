"""Captions a reviewer accepts and labels that follow the files (issue 40 item 4): every caption
stands alone (a ``\\ref`` only to another part of its own table), the competitiveness summary
cites its method paper by the key references.bib holds and describes its rows itself, one
competition's name is not repeated down the summary's header, and each label is the file's
name, with no competition id twice."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import compreport as cr
from compreport.report.latex import appendix
from compreport.report.latex.layout import Options
from compreport.report.latex.renderer import Renderer
from compreport.resources import demo_workshop_dir
from conftest import make_competition


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    out = tmp_path_factory.mktemp("demo-latex")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        an = cr.analyze(cr.load(str(demo_workshop_dir())), bootstrap=200, seed=0)
    appendix.write_latex(an, out, Options(), compile_pdf=False)
    return out, an


def _files(out):
    return sorted(out.glob("*/tables/*.tex")) + sorted((out / "summary").glob("*.tex"))


def test_every_ref_points_into_its_own_file(demo):
    """A caption refers to no table the paper may leave out: its only references are to the
    first part of its own split table ("continued from Table N")."""
    out, _ = demo
    refs = 0
    for f in _files(out):
        text = f.read_text(encoding="utf-8")
        labels = set(re.findall(r"\\label\{([^}]*)\}", text))
        for ref in re.findall(r"\\ref\{([^}]*)\}", text):
            assert ref in labels, (f.name, ref)
            refs += 1
    assert refs > 0  # tables split by rows refer to their first part


def test_labels_follow_file_names(demo):
    """tables/<stem>.tex is labelled tab:<prefix>:<competition id>-<stem> (its later parts -2,
    -3...); summary/<stem>.tex tab:<prefix>:<stem>."""
    out, an = demo
    prefix = "iberlef-2026-synthetic-demo"
    checked = 0
    for f in _files(out):
        text = f.read_text(encoding="utf-8")
        labels = re.findall(r"\\label\{([^}]*)\}", text)
        if f.parent.name == "summary":
            first = f"tab:{prefix}:{f.stem}"
        else:
            first = f"tab:{prefix}:{f.parent.parent.name}-{f.stem}"
        assert labels and labels[0] == first, (f, labels)
        assert labels[1:] == [f"{first}-{k}" for k in range(2, len(labels) + 1)], (f, labels)
        checked += 1
    assert checked > 50


def test_summary_caption_cites_the_method_paper_and_says_its_rows(demo):
    out, _ = demo
    text = (out / "summary" / "competitiveness.tex").read_text(encoding="utf-8")
    assert "\\cite{navamunoz2024}" in text
    rows = ("n", "m", "Ties w/ win.", "Poss. compars.", "none/Bonf.", "Holm/BH", "CV", "PPI")
    rows += ("\\textbar{}win.-{}med.\\textbar{}",)  # |win.-med.|, escaped
    for row in rows:
        assert re.search(rf"[ (]{re.escape(row)}[:,] ", text), row
    for bad in ("the paper's counts", "reports' correction", "as the report's family corrects"):
        assert bad not in text, bad
    # the appendix's bibliography and references.bib hold the work the caption cites
    assert "\\bibitem[" in (out / "appendix.tex").read_text(encoding="utf-8")
    assert "]{navamunoz2024}" in (out / "appendix.tex").read_text(encoding="utf-8")
    assert "@misc{navamunoz2024," in (out / "references.bib").read_text(encoding="utf-8")


def test_one_competition_without_challenge_or_task_is_named_once():
    """A competition that names no challenge or task: the summary's header has no Task row
    repeating its name under Challenge, and no empty Language row."""
    rng = np.random.default_rng(1)
    gold = rng.integers(0, 2, 120)
    preds = [np.where(rng.random(120) < 0.2 + 0.05 * i, 1 - gold, gold) for i in range(4)]
    comp = make_competition(gold, preds, systems=["a.1", "b.1", "c.1", "d.1"], cid="solo")
    comp.name = "A single shared task with a long name"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        an = cr.analyze([comp], bootstrap=100, seed=0, refine=False)
    text = Renderer(an).summary()
    header = text[text.index("\\toprule") : text.index("\\midrule")]
    assert header.count(comp.name) == 1, header
    assert re.search(r"^Challenge &", header, re.M) and re.search(r"^Metric &", header, re.M)
    assert not re.search(r"^(Task|Language) &", header, re.M), header
    # its tables' labels do not repeat its id (the prefix is the id)
    assert "\\label{tab:solo:leaderboard}" in Renderer(an).leaderboard(an.competitions[0])
