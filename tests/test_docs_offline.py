"""The documentation site works offline, opened from disk: ``mkdocs build --strict`` builds it,
no built page or stylesheet loads a script, stylesheet or font from another host (MathJax and the
offline search shim are served from ``docs/js/vendor/``, the fonts are the system's), links point
at ``.html`` files rather than folders, and, when Chromium is installed, the formulas of
docs/statistics.md render from ``file://`` with the network cut off."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = next(
    (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None
)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        importlib.util.find_spec("mkdocs") is None,
        reason="MkDocs is not installed (the `docs` extra)",
    ),
]

#: A tag or a CSS rule that makes the browser fetch a script, stylesheet or font from another host.
EXTERNAL = [
    re.compile(r"<script\b[^>]*\bsrc=[\"']?(?:https?:)?//", re.I),
    re.compile(
        r"<link\b(?=[^>]*\brel=[\"']?(?:stylesheet|preload|preconnect|modulepreload)\b)"
        r"[^>]*\bhref=[\"']?(?:https?:)?//",
        re.I,
    ),
    re.compile(r"<link\b[^>]*\bhref=[\"']?(?:https?:)?//fonts\.", re.I),
    re.compile(r"@import\s+(?:url\()?[\"']?(?:https?:)?//", re.I),
    re.compile(r"url\([\"']?(?:https?:)?//fonts\.", re.I),
]


def external_loads(text: str) -> list[str]:
    """The snippets of ``text`` (HTML or CSS) that load a script, stylesheet or font from another
    host.

    >>> external_loads('<script src="https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-mml-chtml.js">')
    ['<script src="https://']
    >>> external_loads('<script src="js/vendor/mathjax/tex-svg.js"></script>')
    []
    """
    return [m.group(0) for pattern in EXTERNAL for m in pattern.finditer(text)]


def test_external_loads_are_caught():
    """The good twin: the patterns find what the site used to load from CDNs and Google Fonts,
    and pass what it loads from itself (a canonical link is a link, not a load)."""
    bad = [
        '<script src="https://unpkg.com/iframe-worker/shim"></script>',
        '<link rel="stylesheet" href="https://fonts.googleapis.com/css?family=Roboto">',
        '<link rel="preconnect" href="https://fonts.gstatic.com" crossorigin>',
        "@import url(https://fonts.googleapis.com/css2?family=Roboto);",
        "src: url(https://fonts.gstatic.com/s/roboto.woff2)",
    ]
    good = [
        '<script src="assets/javascripts/bundle.min.js"></script>',
        '<link rel="stylesheet" href="assets/stylesheets/main.min.css">',
        '<link rel="canonical" href="https://compreport.github.io/compreport/statistics.html">',
        '<a href="https://github.com/">GitHub</a>',
    ]
    assert all(external_loads(b) for b in bad)
    assert not any(external_loads(g) for g in good)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site as ``make test`` builds it: ``mkdocs build --strict``, into a temporary folder."""
    out = tmp_path_factory.mktemp("site")
    res = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert res.returncode == 0, res.stderr[-3000:]
    return out


def test_no_page_loads_from_another_host(site):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 10
    found = {
        str(p.relative_to(site)): hits
        for p in [*pages, *site.rglob("*.css")]
        if (hits := external_loads(p.read_text(encoding="utf-8", errors="replace")))
    }
    assert found == {}
    # MathJax and the search shim are the site's own files, with their licences beside them
    html = (site / "statistics.html").read_text(encoding="utf-8")
    for script in ("js/vendor/mathjax/tex-svg.js", "js/vendor/iframe-worker/shim.js"):
        assert f'src="{script}"' in html
        assert (site / script).is_file() and (site / script).with_name("LICENSE").is_file()


def test_links_open_pages_not_folders(site):
    """Opened from disk, a link to ``statistics/`` would show a folder listing."""
    html = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="statistics.html"' in html
    assert not (site / "statistics").is_dir()
    # the offline plugin inlines the search index so that search works from file:// too
    assert (site / "search" / "search_index.js").is_file()


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (`make test` installs it)")
def test_formulas_render_from_disk_without_network(site):
    """docs/statistics.md opened from ``file://`` in headless Chromium with every host unreachable:
    each formula becomes a MathJax container, none is a MathJax error, none is left as raw TeX."""
    page = site / "statistics.html"
    formulas = page.read_text(encoding="utf-8").count('class="arithmatex"')
    assert formulas >= 10
    res = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            # no network: any request to another host fails
            "--proxy-server=127.0.0.1:9",
            "--host-resolver-rules=MAP * ~NOTFOUND",
            "--virtual-time-budget=20000",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    dom = res.stdout
    assert "<body" in dom, res.stderr[-2000:]
    assert dom.count("<mjx-container") == formulas
    # screen readers get each formula as MathML
    assert dom.count("<mjx-assistive-mml") == formulas
    assert "data-mjx-error" not in dom and "<mjx-merror" not in dom
    raw = re.findall(r'class="arithmatex">\s*\\[(\[]', dom)
    assert raw == []
