"""Report: one Analysis, many renderings (LaTeX, Markdown, HTML, PDF, figures, files).

:class:`Report` holds the rendering options (decimals, LaTeX layout) and the figures of one
report, drawn once and shared by every format. Tables come from :mod:`.model` (format-neutral
cells), words from :mod:`.prose`, verdicts from the stored analysis.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

from compreport import interrupts
from compreport.errors import InputError, suggest
from compreport.language import LANGUAGES, language
from compreport.report import model
from compreport.stats.results import Analysis
from compreport.workers import os_error as _os_error

#: Table kinds of :meth:`Report.table`, :meth:`Report.to_latex` and :meth:`Report.to_markdown`.
TABLES = ("leaderboard", "ci", "diff-best", "pairs", "pvalues", "summary", "legend")
#: Output formats of :meth:`Report.write` (json is always written).
FORMATS = ("json", "latex", "html", "pdf")
#: Figure kinds of :meth:`Report.figure`.
FIGURES = ("ci", "diff", "dist", "facets", "workshop")


def _names(value: str | Sequence[str]) -> list[str]:
    """A comma list (``"json,latex"``) or a sequence of names, as a list."""
    return (
        [x.strip() for x in value.split(",") if x.strip()]
        if isinstance(value, str)
        else list(value)
    )


def _choice(what: str, value: str, allowed: Sequence[str]) -> str:
    if value not in allowed:
        raise InputError(
            f"`{what}` must be one of {', '.join(allowed)}; got {value!r}{suggest(value, allowed)}"
        )
    return value


def _worded(method):
    """Run a :class:`Report` method in the report's language (:func:`compreport.language.language`)."""

    @functools.wraps(method)
    def inner(self, *args, **kwargs):
        with language(self.lang):
            return method(self, *args, **kwargs)

    return inner


class Report:
    """Renderings of one :class:`~compreport.stats.results.Analysis`.

    Parameters
    ----------
    analysis : Analysis
        The numbers and stored verdicts; nothing is recomputed.
    decimals, diff_decimals, p_decimals : int
        Decimals of scores and CIs (default 4), differences (3) and p-values (4), in every format.
    latex_style : {"ceurart", "ceurart-2col", "sepln", "acl"}
        LaTeX layout: the class the tables go into (:data:`~compreport.report.latex.layout.STYLES`):
        CEUR-WS ceurart one column (default) or two columns, the SEPLN journal, ACL/SemEval.
    label_prefix : str, optional
        Prefix of every LaTeX label (``tab:<prefix>:...``), so several outputs can share a paper;
        default: the workshop's name as a slug, else the first competition's id.
    decimal_comma : bool
        LaTeX numbers with a decimal comma (every number of the tables, cells and captions, and of
        the appendix's prose); HTML, Markdown and results.json keep the point.
    lang : {"en", "es"}
        The language of every caption, sentence, heading, figure label, team letter and email body
        (:mod:`compreport.language`); file names, CSV columns and results.json keys stay English.

    Examples
    --------
    >>> r = Report(analysis, decimals=3)              # doctest: +SKIP
    >>> print(r.to_markdown("leaderboard"))           # doctest: +SKIP
    >>> r.write("out", formats=("json", "latex"))     # doctest: +SKIP
    """

    def __init__(
        self,
        analysis: Analysis,
        *,
        decimals: int = 4,
        diff_decimals: int = 3,
        p_decimals: int = 4,
        latex_style: str = "ceurart",
        label_prefix: str | None = None,
        decimal_comma: bool = False,
        lang: str = "en",
    ):
        from compreport.report.latex.layout import Options

        self.analysis = analysis
        self.lang = _choice("lang", lang, LANGUAGES)
        self.latex_options = Options(
            style=latex_style,
            decimals=decimals,
            diff_decimals=diff_decimals,
            p_decimals=p_decimals,
            label_prefix=label_prefix,
            decimal_comma=decimal_comma,
        )
        self.format = self.latex_options.format
        self._gallery = None

    @property
    def gallery(self):
        """The report's figures (:class:`~compreport.report.figures.gallery.Gallery`), each drawn once."""
        if self._gallery is None:
            from compreport.report.figures.gallery import Gallery

            self._gallery = Gallery(self.analysis)
        return self._gallery

    def _target(self, competition: str | None, metric: str | None):
        comp = self.analysis.competition(competition)
        return comp, comp.metric(metric)

    @_worded
    def table(
        self, kind: str, competition: str | None = None, metric: str | None = None
    ) -> model.Table:
        """The format-neutral table ``kind`` (one of :data:`TABLES`); ``competition`` may be omitted
        when there is one, ``metric`` defaults to the primary metric."""
        _choice("kind", kind, TABLES)
        if kind == "summary":
            return model.summary(self.analysis, self.format)
        if kind == "legend":
            return model.legend()
        comp, ma = self._target(competition, metric)
        if kind == "leaderboard":
            return model.leaderboard(comp, self.format)
        build = {
            "ci": model.confidence_intervals,
            "diff-best": model.differences_from_best,
            "pairs": model.pair_matrix,
            "pvalues": model.pairwise_p_values,
        }[kind]
        return build(comp, ma, self.format)

    @_worded
    def to_latex(self, kind: str, competition: str | None = None, metric: str | None = None) -> str:
        """LaTeX of table ``kind`` (one of :data:`TABLES`), ready to ``\\input``."""
        from compreport.report.latex.renderer import Renderer
        from compreport.report.latex.tex import warn_unset_names

        _choice("kind", kind, TABLES)
        r = Renderer(self.analysis, self.latex_options)
        if kind == "summary":
            return r.summary()
        if kind == "legend":
            return r.legend()
        comp, ma = self._target(competition, metric)
        warn_unset_names(comp)
        if kind == "leaderboard":
            return r.leaderboard(comp)
        if kind == "ci":
            return r.confidence_intervals(comp, ma)
        return {
            "diff-best": r.differences_from_best,
            "pairs": r.pair_matrix,
            "pvalues": r.p_values,
        }[kind](comp, ma)

    @_worded
    def to_markdown(
        self, kind: str, competition: str | None = None, metric: str | None = None
    ) -> str:
        """A Markdown pipe table of ``kind`` (one of :data:`TABLES`)."""
        from compreport.report.markdown import table

        t = self.table(kind, competition, metric)
        if kind == "leaderboard":
            return table(t, model.export_keys(t))
        return table(t)

    @_worded
    def to_text(self, competition: str | None = None, escape=str) -> str:
        """One competition's leaderboard as aligned plain text, as ``compreport report`` prints it:
        a heading (metric, interval, the rule behind groups and marks), warnings, the table of its
        ``leaderboard.md``. ``escape`` makes each line safe for where it is printed."""
        from compreport.report import plaintext

        comp = self.analysis.competition(competition)
        return plaintext.leaderboard(comp, self.analysis.settings, self.format, escape)

    @_worded
    def to_html(self, competition: str | None = None) -> str:
        """The self-contained HTML page of one competition (omit ``competition`` when there is one),
        or the workshop overview when ``competition`` is None and there are several."""
        from compreport.report.pages import html

        if competition is None and len(self.analysis.competitions) > 1:
            return html.index_html(self.analysis, self.format, self.gallery)
        return html.competition_html(
            self.analysis, self.analysis.competition(competition), self.format, self.gallery
        )

    @_worded
    def figure(
        self,
        kind: str,
        competition: str | None = None,
        metric: str | None = None,
        *,
        a: str | None = None,
        b: str | None = None,
    ):
        """A new matplotlib Figure (shows as an image in a notebook).

        ``kind``: ``ci`` (ordered CIs), ``diff`` (differences from the best), ``dist`` (bootstrap
        distribution of ``a`` − ``b``, default winner − runner-up; needs the replicates of a run,
        not a results.json), ``facets`` (every metric), ``workshop`` (competitiveness).
        """
        from compreport.report.figures import gallery as figures

        _choice("kind", kind, FIGURES)
        if kind != "dist" and (a is not None or b is not None):
            raise InputError(
                f"`a` and `b` choose the pair of the 'dist' figure; {kind!r} takes neither"
            )
        if kind == "workshop":
            return figures.workshop_plot(self.analysis)
        comp, ma = self._target(competition, metric)
        level = self.analysis.settings.level
        if kind == "ci":
            return figures.ci_plot(comp, ma, level=level)
        if kind == "diff":
            return figures.diff_plot(comp, ma, level=level)
        if kind == "facets":
            return figures.facet_plot(comp, level=level)
        if len(ma.scores) < 2:
            raise InputError(f"competition {comp.id!r} has a single system: no difference to show")
        pick = [
            x for x in (ma.best, ma.runner_up, *(s.system for s in ma.scores)) if x
        ]  # best, runner-up, ...
        a = a or next(x for x in pick if x != b)
        b = b or next(x for x in pick if x != a)
        for which, name in (("a", a), ("b", b)):
            if name not in comp.systems:
                raise InputError(
                    f"`{which}`: no system {name!r} in competition {comp.id!r}{suggest(str(name), comp.systems)}"
                )
        if a == b:
            raise InputError(f"`a` and `b` must be two systems; both are {a!r}")
        return figures.distribution_plot(comp, ma, a, b, self.analysis.settings.test)

    @_worded
    def write(
        self,
        out_dir: str | Path,
        formats: str | Sequence[str] = FORMATS,
        *,
        force: bool = False,
        figure_formats: str | Sequence[str] = ("pdf", "svg"),
        compile_pdf: bool = True,
        emails=None,
        jobs: int | None = None,
        progress: bool | None = False,
    ) -> list[Path]:
        """Write the report into ``out_dir``; returns the paths written. results.json is always
        written; ``formats`` and ``figure_formats`` are sequences or comma lists (``"json,latex"``).

        The output directory contract (:mod:`compreport.output.staging`): ``out_dir`` must be new,
        empty, or a directory an earlier report wrote (marked by its manifest ``.compreport.json``,
        written last and not among the paths returned), which ``force=True`` replaces: only the
        files its manifest lists; any other file is kept and named in a :class:`~compreport.errors.Note`.
        The report is written into a temporary directory beside ``out_dir`` and swapped in when
        complete; on any failure ``out_dir`` is left as it was.

        Raises :class:`~compreport.errors.OutputError` (an :class:`InputError`) for an ``out_dir``
        that is not empty and not compreport's, or holds an earlier report without ``force``, or is
        (or holds) an input file or the current directory, or lies inside a runs folder the analysis
        was read from (or where its runs glob reaches: :mod:`compreport.output.overlap`; known to an
        analysis made by :func:`compreport.analyze`, not to one read from results.json), or is being
        written by another run, or cannot be written (read-only, no space left); :class:`InputError`
        for an unknown format or missing PDF libraries.

        ``emails``: an addresses file (CSV/TSV: ``team, address[, language]``) or what
        :func:`compreport.report.pages.emails.read_recipients` returned: writes ``emails/<team>.eml`` with the
        team's letters attached (needs the ``pdf`` format; :mod:`compreport.report.pages.emails`).

        ``jobs``: worker processes drawing figures and rendering PDF documents (default: every core
        this process may use); ``appendix.pdf`` compiles alongside them. The files do not depend on it.
        ``progress``: a progress bar per stage on stderr (figures, PDF documents); None: when stderr
        is a terminal.
        """
        from compreport.output.staging import claim
        from compreport.workers import check_jobs, default_jobs, show_progress

        jobs = check_jobs(default_jobs() if jobs is None else jobs)
        progress = show_progress(progress)

        formats = [_choice("formats", f, FORMATS) for f in _names(formats)]
        if emails is not None:
            from compreport.report.pages.emails import (
                Recipients,
                read_recipients,
            )  # imports the renderers: only when asked

            if not isinstance(emails, Recipients):
                emails = read_recipients(emails)
            if "pdf" not in formats:
                raise InputError("emails attach the team letters: add pdf to the formats")
        figure_formats = [
            _choice("figure_formats", f, ("pdf", "svg", "png")) for f in _names(figure_formats)
        ]
        out = Path(out_dir)
        # the files the analysis was read from (cr.analyze records them); else what results.json names
        protect = self.analysis.sources or [
            i.get("path") for c in self.analysis.competitions for i in c.inputs
        ]
        protect = [*protect, *([emails.source] if emails is not None else [])]
        with claim(out, force, protect=protect, runs=self.analysis.scanned) as target:
            tmp = target.tmp
            try:
                (tmp / "results.json").write_text(self.analysis.to_json(), encoding="utf-8")
                written = [tmp / "results.json"] + self._render(
                    tmp, formats, tuple(figure_formats), compile_pdf, jobs, progress
                )
                if emails is not None:
                    from compreport.report.pages.emails import write_emails

                    written += write_emails(self.analysis, tmp, emails, self.format)
            except InputError:
                raise
            except (
                Exception
            ) as exc:  # a full disk may surface as another error raised while handling it
                cause = _os_error(exc)
                if cause is None:
                    raise
                raise target.write_error(cause) from None
            target.commit(
                {
                    "settings": self.analysis.settings.to_dict(),
                    "formats": formats,
                    "figure_formats": figure_formats,
                }
            )
        return [out / p.relative_to(tmp) for p in written]

    def _render(
        self,
        tmp: Path,
        formats: list[str],
        figure_formats: tuple[str, ...],
        compile_pdf: bool,
        jobs: int,
        progress: bool = False,
    ) -> list[Path]:
        from compreport.report.exports import write_exports

        written: list[Path] = write_exports(self.analysis, tmp, self.format)
        pages = bool({"html", "pdf"} & set(formats))
        if {"latex", "html", "pdf"} & set(formats) and figure_formats:
            written += self.gallery.render(
                tmp, figure_formats, svg=pages, jobs=jobs, progress=progress
            )
        build = None
        try:
            interrupts.check()
            if "latex" in formats:
                from compreport.report.latex.appendix import cited_keys, start_compile, write_latex

                written += write_latex(
                    self.analysis,
                    tmp,
                    self.latex_options,
                    compile_pdf=False,
                    figures=self.gallery.pdfs,
                )
                # latexmk runs beside the HTML and PDF work; its figures are written above
                build = (
                    start_compile(
                        tmp, cited_keys(self.analysis.settings, self.analysis.competitions)
                    )
                    if compile_pdf
                    else None
                )
            interrupts.check()
            if "html" in formats:
                from compreport.report.pages.html import write_html

                written += write_html(self.analysis, tmp, self.format, self.gallery)
            if "pdf" in formats:
                from compreport.report.pages.pdf import write_pdf

                try:
                    written += write_pdf(
                        self.analysis, tmp, self.format, self.gallery, jobs=jobs, progress=progress
                    )
                except (
                    RuntimeError
                ) as exc:  # WeasyPrint or its Pango libraries missing: nothing is written
                    raise InputError(
                        f"PDF output: {exc} (install them with `make demo`, or leave pdf out of "
                        f"the formats)"
                    ) from None
            interrupts.check()
            if build is not None:
                pdf = build.wait()
                if pdf is not None:
                    written.append(pdf)
        finally:
            if build is not None:
                build.stop()
        return written


__all__ = ["Report", "TABLES", "FORMATS", "FIGURES"]
