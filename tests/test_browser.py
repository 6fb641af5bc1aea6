"""The HTML pages in a real browser: headless Chromium (Debian's ``chromium``, installed by
``make test``) lays out the pages at 1280 and 390 px (a phone) and the checks read the layout:
no caption wider than the screen, no participant's name broken inside a word, and no sideways
scrolling of the page itself (wide tables scroll inside their own box). Skipped without Chromium."""

from __future__ import annotations

import html
import json
import shutil
import subprocess
import warnings

import numpy as np
import pytest

from compreport.report import Report
from compreport.report.naming import NAME_SEPARATORS
from compreport.settings import Settings
from compreport.stats.analysis import analyze
from conftest import make_competition

CHROMIUM = next(
    (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None
)
#: Every test lays pages out in Chromium: slow (skipped by `pytest -m "not slow"`).
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None, reason="Chromium is not installed (`make test` installs it)"
    ),
]

WIDTHS = (1280, 390)
#: The embedding frame's colour scheme is the page's ``prefers-color-scheme`` in Chromium.
SCHEMES = ("light", "dark")
#: Realistic and hostile participant names: long ones with separators, one without any.
NAMES = [
    "Universidad_Politécnica_Valencia.01",
    "UNED-NLP.run1",
    "UNED-NLP.run2",
    "R&D_team.01",
    "<b>bold</b>.01",
    "DeepComentariosSinSeparadores.01",
    "Team 42.01",
]

#: Runs in the harness page once every frame has loaded; one result per frame.
CHECK = """
const seps = %s;
function check(frame) {
  // the page's width without a vertical scrollbar (innerWidth counts a classic scrollbar's width
  // too)
  const w = frame.contentWindow, d = w.document, width = d.documentElement.clientWidth;
  // a caption's visible box: the screen, or the box its table scrolls in (which clips it)
  const edge = c => Math.min(
    width, c.closest('.scroll') ? c.closest('.scroll').getBoundingClientRect().right : width);
  const wide = [...d.querySelectorAll('caption, figcaption')]
    .filter(c => c.getClientRects().length && c.getBoundingClientRect().right > edge(c) + 1)
    .map(c => c.textContent.slice(0, 60));
  const broken = [];
  for (const el of d.querySelectorAll('.system')) {
    if (!el.getClientRects().length) continue;
    const r = d.createRange(), walk = d.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let top = null, prev = '';
    while (walk.nextNode()) {
      const node = walk.currentNode;
      for (let i = 0; i < node.length; i++) {
        r.setStart(node, i); r.setEnd(node, i + 1);
        const rects = r.getClientRects();
        if (!rects.length) continue;
        const t = rects[0].top;
        if (top !== null && t > top + 2 && !seps.includes(prev) && !/\\s/.test(prev)
            && !/\\s/.test(node.data[i]))
          broken.push(el.textContent);
        top = t; prev = node.data[i];
      }
    }
  }
  const toc = [...d.querySelectorAll('details.toc a')].map(a => a.getAttribute('href'));
  return {page: frame.dataset.page, width: +frame.getAttribute('width'),
          scheme: frame.dataset.scheme, wide: wide, broken: broken,
          overflow: d.documentElement.scrollWidth - width,
          names: d.querySelectorAll('.system').length,
          background: w.getComputedStyle(d.body).backgroundColor, toc: toc,
          dangling: toc.filter(h => !d.getElementById(h.slice(1)))};
}
// the harness's own load event waits for every frame
window.addEventListener('load', () => document.body.setAttribute(
  'data-check', JSON.stringify([...document.querySelectorAll('iframe')].map(check))));
"""


def layout_checks(root, pages) -> list[dict]:
    """Load every page of ``pages`` (paths relative to ``root``) at each of :data:`WIDTHS` in each
    of :data:`SCHEMES`, in one Chromium run, and return what :data:`CHECK` found in each."""
    frames = "".join(
        f'<iframe data-page="{p}" data-scheme="{c}" src="{p}" width="{w}" height="900" '
        f'style="color-scheme: {c}"></iframe>'
        for p in pages
        for w in WIDTHS
        for c in SCHEMES
    )
    return _run_frames(root / "_layout_check.html", frames, CHECK % json.dumps(NAME_SEPARATORS))


def _run_frames(harness, frames: str, script: str) -> list[dict]:
    """Write ``harness``, an HTML page of the iframes ``frames`` and ``script`` (which sets the
    body's ``data-check`` to JSON once every frame has loaded), load it in one headless Chromium
    run and return that JSON."""
    harness.write_text(
        f"<!DOCTYPE html><html><body>{frames}<script>{script}</script></body></html>",
        encoding="utf-8",
    )
    res = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--allow-file-access-from-files",
            "--virtual-time-budget=20000",
            "--dump-dom",
            harness.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    start = res.stdout.find('data-check="')
    assert start >= 0, res.stderr[-2000:]
    value = res.stdout[start + len('data-check="') :]
    return json.loads(html.unescape(value[: value.index('"')]))


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    rng = np.random.default_rng(5)
    n = 300
    gold = rng.integers(0, 2, n)
    preds = np.stack(
        [np.where(rng.random(n) < q, 1 - gold, gold) for q in np.linspace(0.1, 0.4, len(NAMES))]
    )
    comp = make_competition(
        gold, preds, systems=NAMES, metrics=["accuracy", "macro_f1"], cid="long-names"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        analysis = analyze([comp], Settings(bootstrap=200, refine=False), progress=False)
    out = tmp_path_factory.mktemp("browser") / "out"
    Report(analysis).write(out, "html", figure_formats="svg", jobs=1)
    return out, ["index.html", "long-names/report.html"]


def test_pages_fit_a_phone_and_names_wrap_only_at_separators(pages):
    root, names = pages
    results = layout_checks(root, names)
    assert {(r["page"], r["width"], r["scheme"]) for r in results} == {
        (p, w, c) for p in names for w in WIDTHS for c in SCHEMES
    }
    report = [r for r in results if r["page"] == "long-names/report.html"]
    assert all(r["names"] >= 5 * len(NAMES) for r in report)  # the checks saw the tables' names
    for r in results:
        assert r["wide"] == [], r  # every caption within the screen
        assert r["broken"] == [], r  # no name broken inside a word
    phone = next(r for r in report if r["width"] == 390)
    # the page never scrolls sideways, but for the one name without a separator (its table scrolls)
    assert phone["overflow"] <= 0, phone


def test_table_of_contents_and_dark_screens(pages):
    """The competition page opens with a table of contents whose every link lands on a section; a
    dark screen (``prefers-color-scheme: dark``) gets a dark page, a light one stays white."""
    root, names = pages
    results = [
        r
        for r in layout_checks(root, names)
        if r["page"] == "long-names/report.html" and r["width"] == 1280
    ]
    light, dark = (next(r for r in results if r["scheme"] == c) for c in SCHEMES)
    assert (
        len(light["toc"]) >= 2 + 4 * 2 + 2 and light["dangling"] == []
    )  # leaderboard, 2 metrics x 4, ...
    assert light["background"] == "rgb(255, 255, 255)"
    channels = [int(x) for x in dark["background"][4:-1].split(",")]
    assert max(channels) < 50, dark["background"]


# ------------------------------------------------------------------ phone columns and figures

#: Reads, in each frame, the boxes of the leaderboard's header cells and of every figure.
MEASURE = """
function measure(frame) {
  const w = frame.contentWindow, d = w.document, width = d.documentElement.clientWidth;
  // the header cells shown (a phone hides some until "Show every column" is ticked)
  const shown = table => [...d.querySelectorAll(table + ' thead th')]
    .filter(th => th.getClientRects().length).map(th => {
      const r = th.getBoundingClientRect();
      return {text: th.textContent.trim(), left: r.left, right: r.right};
    });
  const heads = shown('table.leaderboard'), teams = shown('table.teams');
  const competitions = shown('table.competitions');
  // the leaderboard's columns with its "Show every column" box ticked
  const box = d.getElementById('all-columns-leaderboard');
  let every = null;
  if (box) { box.checked = true; every = shown('table.leaderboard').length; box.checked = false; }
  const figs = [...d.querySelectorAll('figure')].map(f => {
    const g = f.querySelector('svg, img'), r = g.getBoundingClientRect();
    const a = f.querySelector('a.full-size');
    // the figure's natural width in CSS px: its SVG's width attribute (pt), an image's own width
    const attr = g.getAttribute('width') || '';
    const natural = g.tagName.toLowerCase() === 'img' ? g.naturalWidth
      : parseFloat(attr) * (attr.endsWith('pt') ? 4 / 3 : 1);
    return {id: f.id, width: r.width, box: f.getBoundingClientRect().width, natural: natural,
            link: a ? a.getAttribute('href') : null,
            font: parseFloat(w.getComputedStyle(d.body).fontSize)};
  });
  return {page: frame.dataset.page, width: +frame.getAttribute('width'), viewport: width,
          content: d.body.clientWidth - parseFloat(w.getComputedStyle(d.body).paddingLeft)
                   - parseFloat(w.getComputedStyle(d.body).paddingRight),
          overflow: d.documentElement.scrollWidth - width, heads: heads, figs: figs,
          teams: teams, competitions: competitions, every: every,
          all: d.querySelectorAll('table.leaderboard thead th').length};
}
window.addEventListener('load', () => document.body.setAttribute(
  'data-check', JSON.stringify([...document.querySelectorAll('iframe')].map(measure))));
"""


def measure(root, pages, widths=WIDTHS) -> list[dict]:
    """Load every page of ``pages`` at each of ``widths`` in one Chromium run; return what
    :data:`MEASURE` read in each."""
    frames = "".join(
        f'<iframe data-page="{p}" src="{p}" width="{w}" height="900"></iframe>'
        for p in pages
        for w in widths
    )
    return _run_frames(root / "_measure.html", frames, MEASURE)


def key_columns(heads: list[dict]) -> dict[str, dict]:
    """The Rank, System, Score (the primary metric's, first after System and a Team column), Group
    and Marks header cells of a leaderboard."""
    texts = [h["text"] for h in heads]
    system = texts.index("System")
    score = system + 1 + (texts[system + 1] == "Team")
    return {
        "Rank": heads[0],
        "System": heads[system],
        "Score": heads[score],
        "Group": heads[texts.index("Group")],
        "Marks": heads[texts.index("Marks")],
    }


#: Twelve run names as shared tasks publish them: long, with separators where they may wrap.
TASK_NAMES = [
    "Universidad_Politécnica_Valencia.01",
    "UPV-ELiRF.run1",
    "UPV-ELiRF.run2",
    "R&D_team.01",
    "LaSTUS-TALN_UPF.primary",
    "UNED-NLP.run1",
    "ITAINNOVA-NLP_team.run3",
    "SINAI-UJAEN.contrastive",
    "Team 42.01",
    "CIC-IPN_México.run2",
    "baseline_majority",
    "HiTZ-Ixa_EHU.run1",
]


@pytest.fixture(scope="module")
def task_pages(tmp_path_factory):
    rng = np.random.default_rng(6)
    n = 300
    gold = rng.integers(0, 3, n)
    preds = np.stack(
        [
            np.where(rng.random(n) < q, rng.integers(0, 3, n), gold)
            for q in np.linspace(0.2, 0.6, len(TASK_NAMES))
        ]
    )
    comp = make_competition(gold, preds, systems=TASK_NAMES, metrics=["macro_f1"], cid="task")
    comp.baselines = ["baseline_majority"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        analysis = analyze([comp], Settings(bootstrap=200, refine=False), progress=False)
    out = tmp_path_factory.mktemp("phone") / "out"
    Report(analysis).write(out, "html", figure_formats="svg", jobs=1)
    return out


def test_rank_system_score_and_group_fit_a_phone(task_pages):
    """At 390 px the leaderboard's Rank, System, Score, Group and Marks columns lie within the
    screen (no sideways scrolling to read who won and who ties) and no name breaks inside a word;
    at 1280 px every column does. On the phone "Show every column" brings back the others. (A
    name with no separator wider than the screen's share still
    makes its table scroll: :func:`test_pages_fit_a_phone_and_names_wrap_only_at_separators`.)"""
    root = task_pages
    assert all(r["broken"] == [] for r in layout_checks(root, ["task/report.html"]))
    for r in measure(root, ["task/report.html"]):
        cols = key_columns(r["heads"])
        assert [h["text"] for h in r["heads"]][:2] == ["Rank", "System"], r["heads"]
        for name, h in cols.items():
            assert 0 <= h["left"] and h["right"] <= r["viewport"] + 0.5, (r["width"], name, h)
        if r["width"] == 1280:
            assert all(h["right"] <= r["viewport"] for h in r["heads"]), r["heads"]
            assert len(r["heads"]) == r["all"], r  # nothing hidden on a wide screen
        else:
            assert len(r["heads"]) < r["all"] == r["every"], r
        assert r["overflow"] <= 0, r


#: Seven teams of two or three runs, as a shared task's pages name them, and a baseline.
TEAM_RUNS = {
    f"{team}.run{k}": team
    for team, runs in [
        ("Universidad_Politécnica_Valencia", 2),
        ("LaSTUS-TALN_UPF", 3),
        ("ITAINNOVA-NLP_team", 2),
        ("CIC-IPN_México", 2),
        ("HiTZ-Ixa_EHU", 3),
        ("SINAI-UJAEN", 2),
        ("Team 42", 2),
    ]
    for k in range(1, runs + 1)
}


@pytest.fixture(scope="module")
def team_pages(tmp_path_factory):
    rng = np.random.default_rng(7)
    n = 400
    systems = [*TEAM_RUNS, "baseline_majority"]
    gold = rng.integers(0, 3, n)
    preds = np.stack(
        [
            np.where(rng.random(n) < q, rng.integers(0, 3, n), gold)
            for q in np.linspace(0.2, 0.6, len(systems))
        ]
    )
    comp = make_competition(gold, preds, systems=systems, metrics=["macro_f1"], cid="teams")
    comp.baselines = ["baseline_majority"]
    comp.teams = dict(TEAM_RUNS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        analysis = analyze([comp], Settings(bootstrap=200, refine=False), progress=False)
    out = tmp_path_factory.mktemp("teams") / "out"
    Report(analysis).write(out, "html", figure_formats="svg", jobs=1)
    return out


def test_teams_marks_and_best_system_fit_a_phone(team_pages):
    """At 390 px the Teams table's Marks column is visible without horizontal scrolling (with its
    Rank, Team, score and Group), and so is the overview's "Best system"; at 1280 px every column
    of both is shown."""
    root = team_pages
    for r in measure(root, ["teams/report.html", "index.html"]):
        table = r["teams"] if r["page"] == "teams/report.html" else r["competitions"]
        texts = [h["text"] for h in table]
        wanted = (
            ["Rank", "Team", "Group", "Marks"]
            if r["page"] == "teams/report.html"
            else ["Competition", "Metric", "Best system"]
        )
        assert set(wanted) <= set(texts), (r["width"], texts)
        for h in table:
            assert 0 <= h["left"] and h["right"] <= r["viewport"] + 0.5, (r["width"], h)
        if r["width"] == 1280 and r["page"] == "teams/report.html":
            assert {"Best run", "Runs"} <= set(texts), texts
        assert r["overflow"] <= 0, r


def test_figures_are_page_wide_readable_on_a_phone_and_open_full_size(pages):
    """At 1280 px a figure keeps its natural size (the size it is drawn at, so its text is no larger
    than the tables'), never stretched to the page's width; at 390 px it keeps a readable width
    (34rem, scrolling inside its own box, the page itself does not scroll); each links to its SVG
    file, which exists."""
    root, _ = pages
    results = measure(root, ["long-names/report.html"])
    for r in results:
        assert r["figs"], r
        for f in r["figs"]:
            assert f["link"] and (root / "long-names" / f["link"]).is_file(), f
            if r["width"] == 1280:
                assert f["natural"] > 0 and f["natural"] < r["content"] - 50, (r["content"], f)
                assert abs(f["width"] - f["natural"]) <= 1, f
            else:
                assert f["width"] >= 34 * f["font"] - 1, f
                assert f["box"] <= r["viewport"], f
        assert r["overflow"] <= 0, r
