"""PDF reports with WeasyPrint: the competition reports, the workshop overview, the team letters.

The PDFs are the HTML of :mod:`compreport.report.pages.html` under its print CSS (A4, page numbers,
repeated table headers, landscape pages for wide pairwise matrices). WeasyPrint is imported
only here, and only when PDF output is asked for. The pages are rendered ``for_pdf``: without
their ``<style>``, whose stylesheets each process parses once (:class:`PdfRenderer`).

* Nothing is fetched: the URL fetcher refuses every URL that is not a ``data:`` URL (the pages
  reference none anyway; :func:`url_fetcher` can be given a list to record the refusals in).
* Reproducible: no creation/modification dates, no file identifier, so the same inputs give
  byte-identical PDFs.
* Team letters: ``<id>/teams/<team>.pdf`` for every team with a run that is not a baseline, one
  page per run, best run first (a page is rendered again with smaller type when it overflows);
  file names come from :func:`compreport.report.naming.team_letters`.
"""

from __future__ import annotations

import os
from pathlib import Path

from compreport.output import files
from compreport.report import model
from compreport.report.figures.gallery import Gallery
from compreport.report.naming import competition_dir, team_letters
from compreport.report.pages import html
from compreport.report.pages.team import team_html
from compreport.stats.results import Analysis

#: Type sizes tried in turn until a team sheet fits on one page (None: the template's own).
_TEAM_DENSITIES = (
    None,
    "body.team { font-size: 8.5pt !important; } body.team table { font-size: 8pt !important; }",
    "body.team { font-size: 7pt !important; line-height: 1.2 !important; }"
    " body.team table { font-size: 6.5pt !important; }"
    " body.team h2 { margin-top: .6em !important; }",
    "@page { margin: 10mm !important; }"
    " body.team { font-size: 5.5pt !important; line-height: 1.15 !important; }"
    " body.team table { font-size: 5.5pt !important; } body.team h1 { font-size: 12pt !important; }"
    " body.team h2 { margin-top: .4em !important; }",
)


def _weasyprint():
    """The weasyprint module; RuntimeError naming what is missing and how to install it when it
    cannot be imported (:func:`compreport.report.pdfsupport.pdf_unavailable`, which keeps
    WeasyPrint's import-time prints off stdout)."""
    from compreport.report.pdfsupport import pdf_unavailable

    missing = pdf_unavailable()
    if missing is not None:
        raise RuntimeError(f"PDF output: {missing}")
    import weasyprint

    return weasyprint


def _refuse(url: str, refused: list[str] | None) -> None:
    """Record ``url`` in ``refused`` (unless None) and refuse it (ValueError)."""
    if refused is not None:
        refused.append(url)
    raise ValueError(f"compreport does not fetch external resources: {url[:80]!r}")


def url_fetcher(refused: list[str] | None = None):
    """A WeasyPrint URL fetcher that serves ``data:`` URLs only and refuses everything else,
    appending each URL it refuses to ``refused`` when one is given (the tests': our pages
    reference nothing, so it stays empty)."""
    weasyprint = _weasyprint()
    urls = weasyprint.urls
    if hasattr(urls, "URLFetcher"):  # WeasyPrint >= 68: fetchers are URLFetcher instances

        class DataOnlyFetcher(urls.URLFetcher):
            def fetch(self, url, headers=None):
                if not url.lower().startswith("data:"):
                    _refuse(url, refused)
                return super().fetch(url, headers)

        return DataOnlyFetcher(allowed_protocols={"data"})

    def fetch(url, *args, **kwargs):  # older WeasyPrint: a plain function
        if not url.lower().startswith("data:"):
            _refuse(url, refused)
        return weasyprint.default_url_fetcher(url, *args, **kwargs)

    return fetch


#: The stylesheets of the pages (``templates/html``): the reports' and the team sheets'.
_REPORT_CSS = ("report.css",)
_TEAM_CSS = ("report.css", "team.css")


class PdfRenderer:
    """One WeasyPrint set-up (fetcher, fonts, parsed stylesheets) shared by the documents of a
    process.

    WeasyPrint gives stylesheets passed to it the user origin: above its defaults, below a page's
    own declarations (``style`` attributes; our pages have none).
    """

    def __init__(self):
        self.wp = _weasyprint()
        self.fetcher = url_fetcher()
        from weasyprint.text.fonts import FontConfiguration

        self.fonts = FontConfiguration()
        self._sheets: dict[str, object] = {}

    def _sheet(self, css: str):
        """``css`` parsed once (parsing and compiling the selectors costs as much as styling a team
        sheet)."""
        if css not in self._sheets:
            self._sheets[css] = self.wp.CSS(
                string=css, url_fetcher=self.fetcher, font_config=self.fonts
            )
        return self._sheets[css]

    def render(self, page: str, sheets: tuple[str, ...] = _REPORT_CSS, css: str | None = None):
        """Lay out a ``for_pdf`` page under the stylesheets ``sheets`` of ``templates/html``, then
        ``css``; return WeasyPrint's document, without dates."""
        wp = self.wp
        stylesheets = [self._sheet(html.stylesheet(name)) for name in sheets] + (
            [self._sheet(css)] if css else []
        )
        doc = wp.HTML(string=page, base_url=None, url_fetcher=self.fetcher).render(
            stylesheets=stylesheets, font_config=self.fonts, pdf_identifier=False
        )
        # Reproducible files: no dates (WeasyPrint takes them from <meta> only, but be explicit).
        doc.metadata.created = None
        doc.metadata.modified = None
        return doc

    @staticmethod
    def write(doc, path: Path) -> Path:
        """Write ``doc`` as PDF to ``path`` (without a file identifier); return ``path``."""
        path.parent.mkdir(parents=True, exist_ok=True)
        with files.open_new(path, "wb") as fh:
            doc.write_pdf(fh, pdf_identifier=False)
        return path


def write_pdf(
    analysis: Analysis,
    out: Path,
    fmt: model.Format | None = None,
    gallery: Gallery | None = None,
    jobs: int = 1,
    progress: bool = False,
) -> list[Path]:
    """Write the PDF documents of a report.

    ``out/overview.pdf``, ``out/<id>/report.pdf`` and ``out/<id>/teams/<file>.pdf`` (one letter per
    team, one page per run, see :func:`compreport.report.naming.team_letters`).

    Parameters
    ----------
    analysis : Analysis
        What the documents report.
    out : Path
        The report root.
    fmt : Format, optional
        The decimals of the numbers; default ``Format()``.
    gallery : Gallery, optional
        The report's figures; default a new gallery, which draws each figure a page shows.
    jobs : int
        Worker processes drawing the documents (:func:`compreport.workers.run_tasks`; the files
        do not depend on it); default 1.
    progress : bool
        Show a progress bar on stderr.

    Returns
    -------
    list of Path
        The files written.

    Raises
    ------
    RuntimeError
        When WeasyPrint or its system libraries are missing.
    """
    from compreport.workers import run_tasks

    out = Path(out)
    fmt = fmt or model.Format()
    gallery = gallery if gallery is not None else Gallery(analysis)
    _weasyprint()  # a missing WeasyPrint is one error here, not one per worker
    # the long documents first, so the workers finish together (the files do not depend on it)
    tasks = [(write_overview, (analysis, fmt, gallery, out / "overview.pdf"))]
    letters = []
    for comp in analysis.competitions:
        cdir = competition_dir(out, comp)
        tasks.append((write_report, (analysis, comp, fmt, gallery, cdir / "report.pdf")))
        letters += [
            (write_letter, (analysis, comp, runs, fmt, cdir / "teams" / name))
            for name, runs in team_letters(comp).values()
        ]
    return run_tasks(tasks + letters, jobs, "PDF documents" if progress else None)


#: Cache: the WeasyPrint set-up of this process (fetcher, fonts, parsed stylesheets), by process
#: id so that a forked worker makes its own; it holds no setting of a run. One entry.
_RENDERERS: dict[int, PdfRenderer] = {}


def renderer() -> PdfRenderer:
    """This process's WeasyPrint set-up (one per worker process, reused by its documents)."""
    pid = os.getpid()
    if pid not in _RENDERERS:
        _RENDERERS.clear()
        _RENDERERS[pid] = PdfRenderer()
    return _RENDERERS[pid]


def write_overview(analysis: Analysis, fmt: model.Format, gallery: Gallery, path: Path) -> Path:
    """Write the workshop overview to ``path``; return ``path``."""
    r = renderer()
    return r.write(r.render(html.index_html(analysis, fmt, gallery, for_pdf=True)), path)


def write_report(analysis: Analysis, comp, fmt: model.Format, gallery: Gallery, path: Path) -> Path:
    """Write the report of competition ``comp`` to ``path``; return ``path``."""
    r = renderer()
    return r.write(
        r.render(html.competition_html(analysis, comp, fmt, gallery, for_pdf=True)), path
    )


def write_letter(analysis: Analysis, comp, runs: list[str], fmt: model.Format, path: Path) -> Path:
    """Write a team's letter to ``path``: the team sheet of each of ``runs``, one page each, in
    order; return ``path``."""
    r = renderer()
    pages = [
        team_document(r, team_html(analysis, comp, system, fmt, for_pdf=True)) for system in runs
    ]
    return r.write(pages[0].copy([page for doc in pages for page in doc.pages]), path)


def team_document(r: PdfRenderer, page: str):
    """The team sheet (``for_pdf``) laid out on one page: smaller type while it overflows."""
    for css in _TEAM_DENSITIES:
        doc = r.render(page, _TEAM_CSS, css)
        if len(doc.pages) == 1:
            break
    return doc
