"""PDF reports with WeasyPrint: the competition reports, the workshop overview and one-page team sheets.

The PDFs are the HTML of :mod:`compreport.htmlreport` under its print CSS (A4, page numbers,
repeated table headers, landscape pages for wide pairwise matrices). WeasyPrint is imported
only here, and only when PDF output is asked for.

* Nothing is fetched: the URL fetcher refuses every URL that is not a ``data:`` URL (the pages
  reference none anyway; the refusals are recorded in :data:`REFUSED` for the tests).
* Reproducible: no creation/modification dates, no file identifier, so the same inputs give
  byte-identical PDFs.
* Team sheets: ``<id>/teams/<file>.pdf`` for every system that is not a baseline, one page
  each (rendered again with smaller type when the first layout overflows); file names come
  from :func:`team_files`.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from . import html as htmlreport
from ..stats.analysis import Analysis, CompetitionAnalysis
from ..inputs.spec import slug

#: URLs the fetcher refused during this process (should stay empty: our pages reference nothing).
REFUSED: list[str] = []

#: Type sizes tried in turn until a team sheet fits on one page (None: the template's own).
_TEAM_DENSITIES = (
    None,
    "body.team { font-size: 8.5pt !important; } body.team table { font-size: 8pt !important; }",
    "body.team { font-size: 7pt !important; line-height: 1.2 !important; }"
    " body.team table { font-size: 6.5pt !important; } body.team h2 { margin-top: .6em !important; }",
    "@page { margin: 10mm !important; } body.team { font-size: 5.5pt !important; line-height: 1.15 !important; }"
    " body.team table { font-size: 5.5pt !important; } body.team h1 { font-size: 12pt !important; }"
    " body.team h2 { margin-top: .4em !important; }",
)

#: Windows device names: not usable as file names there, whatever the extension.
_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)), *(f"lpt{i}" for i in range(1, 10))}


def _weasyprint():
    try:
        import weasyprint
    except (ImportError, OSError) as exc:  # OSError: Pango/HarfBuzz libraries missing
        raise RuntimeError(f"PDF output needs WeasyPrint and its system libraries (Pango): {exc}") from exc
    return weasyprint


def _refuse(url: str) -> None:
    REFUSED.append(url)
    raise ValueError(f"compreport does not fetch external resources: {url[:80]!r}")


def url_fetcher():
    """A WeasyPrint URL fetcher that serves ``data:`` URLs only and refuses everything else."""
    weasyprint = _weasyprint()
    urls = weasyprint.urls
    if hasattr(urls, "URLFetcher"):  # WeasyPrint >= 68: fetchers are URLFetcher instances
        class DataOnlyFetcher(urls.URLFetcher):
            def fetch(self, url, headers=None):
                if not url.lower().startswith("data:"):
                    _refuse(url)
                return super().fetch(url, headers)

        return DataOnlyFetcher(allowed_protocols={"data"})

    def fetch(url, *args, **kwargs):  # older WeasyPrint: a plain function
        if not url.lower().startswith("data:"):
            _refuse(url)
        return weasyprint.default_url_fetcher(url, *args, **kwargs)

    return fetch


def team_files(comp: CompetitionAnalysis) -> dict[str, str]:
    """``{system: file name}`` (``<slug>.pdf``) for every non-baseline system, in the order of ``comp.systems``.

    Names are :func:`compreport.spec.slug` of the system name (ASCII letters, digits, dashes: no
    path separators, no leading dot, never empty — ``system`` when nothing is left); a name taken
    by an earlier system, or by another system's own slug, gets ``-2``, ``-3``... in system order.
    """
    systems = [s for s in comp.systems if s not in set(comp.baselines)]
    bases = [_file_base(s) for s in systems]
    natural = set(bases)
    taken: set[str] = set()
    out = {}
    for system, base in zip(systems, bases):
        name = base
        if name in taken:
            k = 2
            while f"{base}-{k}" in taken or f"{base}-{k}" in natural:
                k += 1
            name = f"{base}-{k}"
        taken.add(name)
        out[system] = f"{name}.pdf"
    return out


def _file_base(system: str) -> str:
    ascii_ = unicodedata.normalize("NFKD", system).encode("ascii", "ignore").decode()
    if not re.search(r"[A-Za-z0-9]", ascii_):
        return "system"  # slug() would say "competition"
    base = slug(system)
    return f"{base}-system" if base in _RESERVED else base


class _Renderer:
    """One WeasyPrint set-up (fetcher, fonts) shared by every document of a report."""

    def __init__(self):
        self.wp = _weasyprint()
        self.fetcher = url_fetcher()
        from weasyprint.text.fonts import FontConfiguration

        self.fonts = FontConfiguration()

    def render(self, html: str, css: str | None = None):
        wp = self.wp
        stylesheets = [wp.CSS(string=css, url_fetcher=self.fetcher, font_config=self.fonts)] if css else None
        doc = wp.HTML(string=html, base_url=None, url_fetcher=self.fetcher).render(
            stylesheets=stylesheets, font_config=self.fonts, pdf_identifier=False)
        # Reproducible files: no dates (WeasyPrint takes them from <meta> only, but be explicit).
        doc.metadata.created = None
        doc.metadata.modified = None
        return doc

    @staticmethod
    def write(doc, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        doc.write_pdf(path, pdf_identifier=False)
        return path


def write_pdf(analysis: Analysis, out: Path) -> list[Path]:
    """Write ``out/overview.pdf``, ``out/<id>/report.pdf`` and ``out/<id>/teams/<file>.pdf`` (one page
    per non-baseline system, see :func:`team_files`); return the paths written."""
    out = Path(out)
    r = _Renderer()
    written = [r.write(r.render(htmlreport.index_html(analysis, for_pdf=True)), out / "overview.pdf")]
    for comp in analysis.competitions:
        cdir = htmlreport.competition_dir(out, comp)
        written.append(r.write(r.render(htmlreport.competition_html(analysis, comp, for_pdf=True)),
                               cdir / "report.pdf"))
        for system, name in team_files(comp).items():
            written.append(r.write(_team_document(r, analysis, comp, system), cdir / "teams" / name))
    return written


def _team_document(r: _Renderer, analysis: Analysis, comp: CompetitionAnalysis, system: str):
    """The team sheet laid out on one page: smaller type while it overflows."""
    html = htmlreport.team_html(analysis, comp, system)
    for css in _TEAM_DENSITIES:
        doc = r.render(html, css)
        if len(doc.pages) == 1:
            break
    return doc
