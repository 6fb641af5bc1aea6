"""HTML and PDF reports: self-contained, escaped, complete, one-page team sheets, reproducible."""

from __future__ import annotations

import re
import shutil
import subprocess
import warnings
from html.parser import HTMLParser
from pathlib import Path
from unittest import mock

import numpy as np
import pytest

from compreport.errors import InputError
from compreport.inputs.spec import Options, load_inputs
from compreport.report.model import Format
from compreport.report.naming import letter_files, metric_stems, team_letters
from compreport.report.pages import html as htmlreport
from compreport.report.pages.team import team_context, team_html
from compreport.resources import demo_workshop_dir
from compreport.settings import Settings
from compreport.stats.analysis import analyze_competition
from compreport.stats.results import Analysis
from conftest import make_competition, words_beyond_margins

B = 500
SCRIPT = "<script>alert(1)</script>"
HOSTILE = [
    SCRIPT,
    "../evil",
    ".hidden",
    "a/b",
    "Tü Par",
    "Tu Par",
    '"q" & <b>bold</b>',
    "???",
    "CON",
    "baseline",
]
VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}


def _hostile_competition():
    rng = np.random.default_rng(5)
    n = 240
    gold = rng.integers(0, 3, n)
    preds = []
    for i, _ in enumerate(HOSTILE):
        keep = rng.random(n) < 0.45 + 0.04 * i
        preds.append(np.where(keep, gold, rng.integers(0, 3, n)))
    comp = make_competition(
        gold, np.array(preds), systems=HOSTILE, metrics=["accuracy", "macro_f1"], cid="hostile"
    )
    comp.baselines = ["baseline"]
    comp.name = "Hostile & <Names>"
    comp.challenge, comp.task, comp.language, comp.year = "Evil", "Escaping", "Spanish", 2026
    comp.group = ["Evil 2026", "Escaping", "Spanish"]
    comp.inputs = [{"path": "/somewhere/runs/<x>.tsv", "sha256": "0" * 64}]
    return comp


@pytest.fixture(scope="module")
def settings():
    return Settings(bootstrap=B, refine=False)  # refinement has its own tests (test_refine.py)


@pytest.fixture(scope="module")
def hostile(settings):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return analyze_competition(_hostile_competition(), settings, progress=False)


@pytest.fixture(scope="module")
def analysis(settings, hostile):
    comps = load_inputs([str(demo_workshop_dir())], Options()).competitions
    keep = [c for c in comps if c.id in ("detox-binary", "ratings-mae")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        done = [analyze_competition(c, settings, progress=False) for c in keep]
    return Analysis(settings, [*done, hostile])


@pytest.fixture(scope="module")
def gallery(analysis):
    """The figures of ``analysis``, drawn once for the HTML and the PDF pages, as in one report
    run."""
    from compreport.report.figures.gallery import Gallery

    return Gallery(analysis)


@pytest.fixture(scope="module")
def html_dir(analysis, gallery, tmp_path_factory):
    out = tmp_path_factory.mktemp("html")
    written = htmlreport.write_html(analysis, out, gallery=gallery)
    assert written == [
        out / "index.html",
        *(out / c.id / "report.html" for c in analysis.competitions),
    ]
    # the exports every report writes, whatever its formats: the pages link pairs-<metric>.csv
    from compreport.report.exports import write_exports

    write_exports(analysis, out, Format())
    return out


class _Page(HTMLParser):
    """Collects tags, attributes and text; checks that non-void elements are closed in order."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.attrs, self.text, self.stack, self.errors = [], [], [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += attrs
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += attrs

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def _parse(text: str) -> _Page:
    page = _Page()
    page.feed(text)
    page.close()
    assert not page.errors, page.errors[:5]
    assert not page.stack, page.stack
    return page


def _squeeze(s: str) -> str:
    """The text without blanks, nor the zero-width spaces that mark where names may wrap (which
    WeasyPrint 63 keeps in the PDF's text and later versions leave out)."""
    return re.sub(r"[\s\u200b]+", "", s)


# -----------------------------------------------------------------------------------------------
# formatting


def test_number_formats():
    fmt = Format()
    assert fmt.score(0.123456) == "0.1235"
    assert fmt.diff(0.12345) == "0.123"
    assert fmt.diff(-0.0001) == "0.000"  # no negative zero
    assert fmt.diff(-0.25) == "-0.250"
    for missing in (None, float("nan"), float("inf"), np.nan):
        assert fmt.score(missing) == "–"
        assert fmt.p(missing) == "–"
    assert fmt.p(0.03456) == "0.0346"
    assert fmt.p(1 / 100001) == "<0.0001"  # p is never 0
    assert fmt.summary(np.int64(12)) == "12"
    assert fmt.summary("2/2/2/2") == "2/2/2/2"
    assert fmt.summary(34.0223) == "34.022"
    assert Format(decimals=2).score(0.123456) == "0.12"
    with pytest.raises(InputError, match="decimals"):
        Format(decimals=11)


def test_reference_texts():
    from compreport.report import references

    for key in references.REFERENCES:
        text = references.reference_text(key)
        assert "{" not in text and "}" not in text and "year" not in text
        assert references.short(key).split(",")[-1].strip() in text  # the year


# -----------------------------------------------------------------------------------------------
# HTML


@pytest.mark.slow
def test_html_parses_and_names_every_system(analysis, html_dir):
    index = (html_dir / "index.html").read_text(encoding="utf-8")
    page = _parse(index)
    text = "".join(page.text)
    for comp in analysis.competitions:
        assert comp.name in text
        assert f"{comp.id}/report.html" in index
        assert comp.primary.best in text
    for comp in analysis.competitions:
        page = _parse((html_dir / comp.id / "report.html").read_text(encoding="utf-8"))
        text = "".join(page.text)
        for system in comp.systems:
            assert system in text, system
        for sec in (
            "Leaderboard",
            "Differences from the best",
            "Pairwise differences",
            "Methods",
            "References",
            "Provenance",
            "max-T step-down correction over all pairs",
        ):
            assert sec in text, sec
        # the p-value behind each verdict, not every correction's: those are in the exports
        raw = (html_dir / comp.id / "report.html").read_text(encoding="utf-8")
        assert "Pairwise p-values" not in text and "p (verdict)" in text
        assert not re.search(r">(Bonferroni|Holm|BH|MC SE|Settled)</th>", raw)
        assert "svg" in page.tags  # inline figures
        html_text = (html_dir / comp.id / "report.html").read_text(encoding="utf-8")
        for stem in metric_stems(comp).values():  # each metric's section holds its own figures
            assert f'id="fig-ci-{stem}"' in html_text, stem
        for i in comp.inputs:
            assert i["sha256"] in text
            assert Path(i["path"]).name in text


def test_metrics_show_display_names_not_identifiers(analysis, html_dir):
    """Headings, captions and figures say "F1 (positive class 1)", not ``f1 (pos_label=1)``."""
    from types import SimpleNamespace as NS

    from compreport.report.metricnames import metric_title

    assert (
        metric_title(NS(name="macro_f1", params={"labels": [str(i) for i in range(20)]}))
        == "macro-F1 over 20 classes"
    )
    assert (
        metric_title(NS(name="macro_f1", params={"labels": ["FAVOR", "AGAINST"]}))
        == "macro-F1 over FAVOR, AGAINST"
    )
    assert metric_title(NS(name="mae", params={"field": "polarity"})) == "MAE of polarity"
    assert metric_title(NS(name="my_metric", params={"k": 2})) == "my_metric (k = 2)"
    page = (html_dir / "detox-binary" / "report.html").read_text(encoding="utf-8")
    text = re.sub(r"\s+", " ", "".join(_parse(page).text))
    assert "F1 (positive class 1) — ranking metric" in text
    assert "pos_label" not in text and "macro_f1" not in text
    assert "every metric (systems in the order of F1)" in page  # the inline figures


def test_script_team_is_text(hostile, html_dir):
    raw = (html_dir / "hostile" / "report.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in raw
    page = _parse(raw)
    assert "script" not in page.tags and "b" not in page.tags
    assert SCRIPT in "".join(page.text)
    for f in html_dir.rglob("*.html"):
        content = f.read_text(encoding="utf-8")
        assert "<script" not in content.lower(), f
        assert "Hostile & <Names>" not in content  # the competition name is escaped too


def test_no_remote_resources(html_dir):
    for f in html_dir.rglob("*.html"):
        content = f.read_text(encoding="utf-8")
        page = _parse(content)
        for name, value in page.attrs:
            if name in ("src", "href", "xlink:href", "action", "srcset", "poster"):
                assert not re.match(r"\s*(https?:)?//", value or "", re.I), (f, name, value)
                if name == "href" and not value.startswith(
                    "#"
                ):  # relative links between our own files
                    assert (f.parent / value).resolve().is_file(), (f, value)
        assert "@import" not in content and not re.search(r"url\(\s*['\"]?(https?:)?//", content)
        assert not {"link", "iframe", "object", "embed", "img"} & set(page.tags), f


# Byte-identical HTML (and PDFs) across two whole runs: tests/test_report_cli.py.


def test_matrix_shading_and_caption(analysis):
    comp = analysis.competitions[0]
    raw = htmlreport.competition_html(analysis, comp)
    assert 'class="cell sig' in raw
    assert "max-T step-down correction over all pairs" in raw
    ctx = htmlreport.matrix_context(comp, comp.primary, Format(), for_pdf=True)
    cells = [c for b in ctx["blocks"] for r in b["rows"] for c in r["cells"] if c is not None]
    m = len(comp.systems)
    assert len(cells) == m * (m - 1) // 2  # every pair once, lower triangle


def test_team_html_winner_and_alike(analysis):
    comp = analysis.competitions[0]
    ma = comp.primary
    winner, last = (
        ma.scores[0].system,
        [s.system for s in ma.scores if s.system not in comp.baselines][-1],
    )
    text = "".join(_parse(team_html(analysis, comp, winner)).text)
    assert "is the winner" in text and ma.vs_best[0].b in text
    text = "".join(_parse(team_html(analysis, comp, last)).text)
    assert f"Winner: {winner}" in text
    ctx = team_context(analysis, comp, last, Format())
    me = next(s for s in ma.scores if s.system == last)
    # sharing a letter: not significantly different (alike), or undecided
    sharing = [s.system for s in ma.scores if s.system != last and set(s.group) & set(me.group)]
    assert sorted(ctx["alike"] + ctx["undecided"]) == sorted(sharing)
    assert not set(ctx["alike"]) & set(ctx["undecided"])


def test_unsafe_competition_id(analysis, tmp_path):
    comp = analysis.competitions[0]
    bad = Analysis(analysis.settings, [type(comp)(**{**comp.__dict__, "id": "../up"})])
    with pytest.raises(InputError):
        htmlreport.write_html(bad, tmp_path)


# -----------------------------------------------------------------------------------------------
# PDF


def _tool(name):
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} (poppler-utils) not installed")
    return path


def _pages(pdf: Path) -> int:
    out = subprocess.run(
        [_tool("pdfinfo"), str(pdf)], capture_output=True, text=True, check=True
    ).stdout
    return int(re.search(r"^Pages:\s+(\d+)", out, re.M).group(1))


def _text(pdf: Path) -> str:
    return subprocess.run(
        [_tool("pdftotext"), "-enc", "UTF-8", str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


@pytest.fixture(scope="module")
def pdf_analysis(analysis):
    """The PDFs' analysis: the hostile competition. The demo's pages are HTML-tested above, and the
    end-to-end test (tests/test_report_cli.py) writes and reads detox-binary's PDFs and letters
    (teams with two runs among them); here they would add 4 s and check nothing new."""
    return Analysis(analysis.settings, [c for c in analysis.competitions if c.id == "hostile"])


@pytest.fixture(scope="module")
def pdf_dir(pdf_analysis, gallery, tmp_path_factory):
    pytest.importorskip("weasyprint")
    from compreport.report.pages import pdf as pdfreport

    out = tmp_path_factory.mktemp("pdf")
    with mock.patch.object(pdfreport, "_refuse", wraps=pdfreport._refuse) as refuse:
        written = pdfreport.write_pdf(pdf_analysis, out, gallery=gallery)
    assert written[0] == out / "overview.pdf"
    assert all(p.is_file() for p in written)
    assert not refuse.called  # nothing was fetched, nothing even tried
    return out


@pytest.mark.slow
def test_report_pdfs(pdf_analysis, pdf_dir):
    analysis = pdf_analysis
    assert _pages(pdf_dir / "overview.pdf") >= 1
    overview = _squeeze(_text(pdf_dir / "overview.pdf"))
    for comp in analysis.competitions:
        assert _squeeze(comp.name) in overview
        pdf = pdf_dir / comp.id / "report.pdf"
        assert _pages(pdf) >= 2
        text = _squeeze(_text(pdf))
        for system in comp.systems:
            assert _squeeze(system) in text, system
        assert "1/" in text  # page numbers "1 / N"
        assert not words_beyond_margins(pdf), words_beyond_margins(
            pdf
        )  # no table wider than the page
    info = subprocess.run(
        [_tool("pdfinfo"), str(pdf_dir / "overview.pdf")], capture_output=True, text=True
    ).stdout
    assert "CreationDate" not in info and "ModDate" not in info
    # the 9-column pair matrix of the 10 hostile systems fits a portrait page: no landscape page
    # left 70 % empty
    pdf = pdf_dir / "hostile" / "report.pdf"
    sizes = subprocess.run(
        [_tool("pdfinfo"), "-f", "1", "-l", "99", str(pdf)], capture_output=True, text=True
    ).stdout
    pages = re.findall(r"^Page\s+(\d+) size:\s+([\d.]+) x ([\d.]+)", sizes, re.M)
    assert pages and all(float(w) < float(h) for _, w, h in pages)
    assert "Pairwise differences" in _text(pdf)


def test_bold_best_value_keeps_the_decimal_points_aligned(pdf_analysis, pdf_dir):
    """In report.pdf the bold best score's decimal point sits where the column's regular scores put
    theirs: its fraction is set in a box as wide as regular digits (``.frac``). DejaVu Sans Bold's
    digits are wider, so as plain bold text the point sat ~0.5 pt per fraction digit to the left.
    Measured: a word's left edge (``pdftotext -bbox``) plus the advance of its integer part and
    point in its weight (the font files' metrics; the size from a regular word's width)."""
    from fontTools.ttLib import TTFont

    def font(style):
        path = subprocess.run(
            ["fc-match", "-f", "%{file}", f"DejaVu Sans:{style}"], capture_output=True, text=True
        ).stdout
        if not path.endswith((".ttf", ".otf")):
            pytest.skip("DejaVu Sans not found by fc-match")
        f = TTFont(path)
        return f["head"].unitsPerEm, {
            ch: f["hmtx"][f.getBestCmap()[ord(ch)]][0] for ch in "0123456789.-"
        }

    (upm, regular), (_, bold) = font("book"), font("bold")
    comp = pdf_analysis.competitions[0]
    best = Format().score(
        comp.primary.score_of(comp.primary.best).score
    )  # the bold one (not a baseline above)
    bbox = subprocess.run(
        [
            _tool("pdftotext"),
            "-bbox",
            "-f",
            "1",
            "-l",
            "1",
            str(pdf_dir / comp.id / "report.pdf"),
            "-",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    words = [
        (float(x0), float(x1), w)
        for x0, x1, w in re.findall(
            r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">(-?\d\.\d+)</word>',
            bbox,
        )
    ]
    b0, _, _ = next(w for w in words if w[2] == best)  # the leaderboard's first bold score
    column = [w for w in words if abs(w[0] - b0) < 3 and w[2] != best]  # regular scores below it
    assert len(column) >= 3, (best, words[:12])
    size = (column[0][1] - column[0][0]) * upm / sum(regular[c] for c in column[0][2])
    point = lambda x0, text, adv: x0 + sum(adv[c] for c in text.split(".")[0] + ".") * size / upm  # noqa: E731
    shifts = [point(b0, best, bold) - point(x0, text, regular) for x0, _, text in column]
    assert max(abs(s) for s in shifts) < 0.3, shifts


def test_first_page_not_blank(pdf_dir, tmp_path):
    from PIL import Image

    subprocess.run(
        [
            _tool("pdftoppm"),
            "-r",
            "50",
            "-png",
            "-f",
            "1",
            "-l",
            "1",
            str(pdf_dir / "hostile" / "report.pdf"),
            str(tmp_path / "p"),
        ],
        check=True,
    )
    png = next(tmp_path.glob("p*.png"))
    img = np.asarray(Image.open(png).convert("L"))
    assert (img < 128).sum() > 500


def test_team_pdfs_one_page(pdf_analysis, pdf_dir):
    analysis = pdf_analysis

    for comp in analysis.competitions:
        letters = team_letters(comp)
        assert sorted(r for _, runs in letters.values() for r in runs) == sorted(
            set(comp.systems) - set(comp.baselines)
        )
        winner = comp.primary.best
        by_system = {s.system: s for s in comp.primary.scores}
        teams = pdf_dir / comp.id / "teams"
        assert sorted(p.name for p in teams.iterdir()) == sorted(f for f, _ in letters.values())
        for team, (name, runs) in letters.items():
            pdf = teams / name
            assert _pages(pdf) == len(runs), (comp.id, team)  # one page per run
            text = _squeeze(_text(pdf))
            for system in runs:
                assert _squeeze(system) in text
                assert Format().score(by_system[system].score) in text
            assert _squeeze(winner) in text


def test_team_file_names(hostile, pdf_dir):

    files = {
        team: f for team, (f, _) in team_letters(hostile).items()
    }  # no teams: each run its own
    assert "baseline" not in files
    names = list(files.values())
    assert len(set(names)) == len(names)
    for name in names:
        assert re.fullmatch(r"[a-z0-9][a-z0-9-]*\.pdf", name), name
    assert files["Tü Par"] == "tu-par.pdf" and files["Tu Par"] == "tu-par-2.pdf"
    assert (
        files["../evil"] == "evil.pdf"
        and files[".hidden"] == "hidden.pdf"
        and files["a/b"] == "a-b.pdf"
    )
    assert files["???"] == "system.pdf" and files["CON"] == "con-system.pdf"
    teams = (pdf_dir / "hostile" / "teams").resolve()
    for name in names:
        assert (teams / name).resolve().parent == teams
    assert (
        not (pdf_dir / "evil.pdf").exists() and not (pdf_dir / "hostile" / ".hidden.pdf").exists()
    )


def test_team_names_collide_deterministically():

    comp = make_competition(
        [0, 1], [[0, 1], [1, 0], [0, 0], [1, 1]], systems=["A b", "a-b", "a b-2", "A B"]
    )
    assert letter_files(comp.systems) == {
        "A b": "a-b.pdf",
        "a-b": "a-b-3.pdf",
        "a b-2": "a-b-2.pdf",
        "A B": "a-b-4.pdf",
    }


# Byte-identical PDFs (overview, reports, team sheets) from two runs: checked in
# tests/test_report_cli.py::test_report_writes_every_format_and_is_byte_identical, the suite's one
# run of every format.


def test_fetcher_refuses_network(tmp_path):
    weasyprint = pytest.importorskip("weasyprint")
    from compreport.report.pages import pdf as pdfreport

    refused: list[str] = []
    html = (
        '<html><body><p>x</p><img src="http://127.0.0.1:9/x.png">'
        '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">'
        '<link rel="stylesheet" href="https://127.0.0.1:9/a.css"></body></html>'
    )
    weasyprint.HTML(string=html, url_fetcher=pdfreport.url_fetcher(refused)).write_pdf(
        tmp_path / "x.pdf"
    )
    assert refused and all(not u.startswith("data:") for u in refused)
    assert any(u.startswith("http://127.0.0.1:9") for u in refused)


def test_team_sheet_shrinks_to_one_page(settings):
    """90 systems with long names, all in one group: the list of look-alikes still fits one page."""
    pytest.importorskip("weasyprint")
    from compreport.report.pages import pdf as pdfreport

    rng = np.random.default_rng(2)
    n, m = 80, 90
    gold = rng.integers(0, 2, n)
    preds = np.array([np.where(rng.random(n) < 0.6 + 0.001 * i, gold, 1 - gold) for i in range(m)])
    names = [f"A-Rather-Long-Team-Name-Number-{i:03d}.run{i % 4}" for i in range(m)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ca = analyze_competition(
            make_competition(
                gold, preds, systems=names, metrics=["accuracy", "macro_f1"], cid="big"
            ),
            Settings(bootstrap=200),
            progress=False,
        )
    an = Analysis(Settings(bootstrap=200), [ca])
    system = ca.primary.scores[40].system
    assert len(team_context(an, ca, system, Format())["alike"]) > 60
    doc = pdfreport.team_document(pdfreport.PdfRenderer(), team_html(an, ca, system, for_pdf=True))
    assert len(doc.pages) == 1


def test_pdf_pages_are_lean(analysis, gallery):
    """The HTML the PDFs are made of: no <style> (the renderer parses the stylesheets once), each
    figure an <img> of its SVG, U+200B where a name may wrap; WeasyPrint would style each <wbr> and
    SVG node."""
    from types import SimpleNamespace

    comp = next(c for c in analysis.competitions if c.id == "detox-binary")
    raw = htmlreport.competition_html(analysis, comp, gallery=gallery, for_pdf=True)
    page = _parse(raw)
    assert not {"style", "svg", "wbr"} & set(page.tags)
    sources = [v for k, v in page.attrs if k == "src"]
    assert len(sources) == len(gallery.stems(comp))
    assert all(s.startswith("data:image/svg+xml;base64,") for s in sources)
    assert "NLP-\u200bCántabro.\u200b01" in raw
    sheet = team_html(analysis, comp, comp.primary.best, for_pdf=True)
    assert "<style" not in sheet and "<wbr>" not in sheet
    assert "<style" in team_html(analysis, comp, comp.primary.best)
    assert 'class="provenance inputs"' in raw  # short file names: the hashes do not wrap in print
    long = SimpleNamespace(
        inputs=[{"path": "runs/" + "f" * 40 + ".tsv", "sha256": "0" * 64}], warnings=[], engine={}
    )
    assert htmlreport.provenance(analysis, long)["long_names"]


def test_team_sheet_bookmark_is_the_name_as_given(analysis):
    """The letter's outline entry is the run's name, without the U+200B break points of the PDF's
    heading (a reader's PDF viewer lists it)."""
    pytest.importorskip("weasyprint")
    from compreport.report.pages import pdf as pdfreport

    comp = next(c for c in analysis.competitions if c.id == "detox-binary")
    system = next(s for s in comp.systems if "." in s and s not in comp.baselines)
    doc = pdfreport.team_document(
        pdfreport.renderer(), team_html(analysis, comp, system, Format(), for_pdf=True)
    )
    assert [label for label, *_ in doc.make_bookmark_tree()] == [system]
