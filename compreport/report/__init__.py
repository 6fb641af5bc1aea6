"""Report: one Analysis, many renderings (LaTeX, Markdown, HTML, PDF, figures, files).

:class:`Report` holds the rendering options (decimals, LaTeX layout) and the figures of one
report, drawn once and shared by every format. Tables come from :mod:`.model` (format-neutral
cells), words from :mod:`.prose`, verdicts from the stored analysis.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from compreport import interrupts
from compreport.errors import InputError, note, option, suggest
from compreport.language import LANGUAGES, decimal_comma, language
from compreport.output import files
from compreport.report import model
from compreport.report.figures import FIGURE_FORMATS
from compreport.report.pdfsupport import (
    PDF_LIBRARIES,
    appendix_compiler_missing,
    pdf_unavailable,
)
from compreport.stats.results import Analysis
from compreport.workers import os_error as _os_error

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from compreport.report.figures.gallery import Gallery
    from compreport.report.pages.emails import Recipients
    from compreport.stats.results import CompetitionAnalysis, MetricAnalysis

_Method = TypeVar("_Method", bound=Callable[..., Any])

#: Table kinds of :meth:`Report.table`, :meth:`Report.to_latex` and :meth:`Report.to_markdown`.
TABLES = ("leaderboard", "teams", "ci", "diff-best", "pairs", "pvalues", "summary", "legend")
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


def check_write_options(
    formats: str | Sequence[str] = FORMATS,
    figure_formats: str | Sequence[str] = ("pdf", "svg"),
    emails: str | os.PathLike[str] | Recipients | None = None,
    email_from: str | None = None,
    reply_to: str | None = None,
    pdf_optional: bool = False,
) -> tuple[list[str], list[str], Recipients | None]:
    """Check the options of :meth:`Report.write` that need no analysis, before any work.

    PDF output needs WeasyPrint and its system libraries (Pango): when ``formats`` has pdf and
    they cannot be loaded (:func:`pdf_unavailable`), pdf is dropped from the formats with one note
    naming the command that installs them when ``pdf_optional`` (the command line's default
    formats), and is an :class:`InputError` otherwise.

    Parameters
    ----------
    formats, figure_formats, emails, email_from, reply_to
        As for :meth:`Report.write`.
    pdf_optional : bool
        Write the other formats when PDF cannot be written (default False: an error). Ignored with
        ``emails``, which attach the PDF team letters.

    Returns
    -------
    formats, figure_formats : list of str
        The formats, each one checked.
    emails : Recipients or None
        The addresses file read (:func:`compreport.report.pages.emails.read_recipients`), with
        ``email_from`` and ``reply_to`` as its sender and reply-to addresses when given.

    Raises
    ------
    InputError
        An unknown format, emails without the pdf format, a bad addresses file, a malformed
        ``email_from`` or ``reply_to``, pdf asked for where it cannot be written.

    Examples
    --------
    >>> check_write_options("json,html", "svg")
    (['json', 'html'], ['svg'], None)
    >>> check_write_options("json", emails="addresses.csv")
    Traceback (most recent call last):
    ...
    compreport.errors.InputError: `emails` attaches the team letters: add pdf to `formats`
    """
    formats = [_choice("formats", f, FORMATS) for f in _names(formats)]
    figure_formats = [_choice("figure_formats", f, FIGURE_FORMATS) for f in _names(figure_formats)]
    if "pdf" in formats and (missing := pdf_unavailable()) is not None:
        if not pdf_optional or emails is not None:
            raise InputError(f"PDF output: {missing}, or leave pdf out of {option('format')}")
        note(f"PDF output skipped: {missing}")
        formats = [f for f in formats if f != "pdf"]
    if emails is None:
        if email_from is not None or reply_to is not None:
            given = option("email_from") if email_from is not None else option("reply_to")
            note(f"{given} applies to the emails, and there is no {option('emails')}: no email")
        return formats, figure_formats, None
    if "pdf" not in formats:
        raise InputError(
            f"{option('emails')} attaches the team letters: add pdf to {option('format')}"
        )
    # imports the renderers: only when asked
    from compreport.report.pages.emails import Recipients, read_recipients, senders

    sender, reply = senders(email_from, reply_to)  # checked before the file is read
    if not isinstance(emails, Recipients):
        emails = read_recipients(emails)
    if sender is not None or reply:
        emails = dataclasses.replace(
            emails, sender=sender or emails.sender, reply_to=reply or emails.reply_to
        )
    return formats, figure_formats, emails


def check_appendix_compile(formats: Sequence[str], compile_pdf: bool) -> bool:
    """Whether ``appendix.pdf`` will be compiled, asked before any work: ``compile_pdf``, the
    latex format asked for, and ``latexmk`` and ``pdflatex`` found
    (:func:`~compreport.report.pdfsupport.appendix_compiler_missing`); when only the tools are
    missing, one note says so and how to install them, and ``appendix.tex`` is still written.

    Examples
    --------
    >>> check_appendix_compile(["json", "html"], compile_pdf=True)
    False
    >>> check_appendix_compile(["json", "latex"], compile_pdf=False)
    False
    """
    if not compile_pdf or "latex" not in formats:
        return False
    missing = appendix_compiler_missing()
    if missing is not None:
        note(f"appendix.pdf skipped: {missing}; appendix.tex is written without compiling it")
        return False
    return True


def _worded(method: _Method) -> _Method:
    """Run a :class:`Report` method in the report's language
    (:func:`compreport.language.language`)."""

    @functools.wraps(method)
    def inner(self: Report, *args: Any, **kwargs: Any) -> Any:
        with language(self.lang):
            return method(self, *args, **kwargs)

    return cast(_Method, inner)


class Report:
    r"""Tables, pages, figures and files of one :class:`~compreport.stats.results.Analysis`.

    Every rendering reads the numbers and verdicts stored in the analysis; nothing is recomputed.
    The figures are drawn once and shared by every format.

    Parameters
    ----------
    analysis : Analysis
        What :func:`compreport.analyze` returned, or one read back from a results.json
        (:meth:`compreport.Analysis.read`).
    decimals : int, default 4
        Decimals of scores and intervals, 0-10, in every format.
    diff_decimals : int, default 3
        Decimals of differences, 0-10.
    p_decimals : int, default 4
        Decimals of p-values, 0-10.
    latex_style : {"ceurart", "ceurart-2col", "sepln", "acl"}, default "ceurart"
        The class the LaTeX tables go into (:data:`compreport.report.latex.layout.STYLES`):
        CEUR-WS ceurart in one column or two, the SEPLN journal, ACL/SemEval.
    label_prefix : str, optional
        Prefix of every LaTeX label (``tab:<prefix>:...``), so that several outputs can share one
        paper (default: the workshop's name as a slug, else the first competition's id).
    latex_columns : str or sequence of str, default all
        The optional columns of the LaTeX leaderboard and teams' ranking, among ``rank_set``,
        ``ci``, ``marks``, ``team`` and ``group`` (a comma list or a sequence; ``"none"``):
        :data:`compreport.report.latex.layout.OPTIONAL_COLUMNS`.
    decimal_comma : bool, default False
        Numbers with a decimal comma in everything a reader reads: the LaTeX (every number of the
        tables, captions and the appendix's prose), the HTML pages, the PDF reports and team
        letters, and the e-mails (intervals then read ``[0,625; 0,748]``), and the figures,
        which every format shares. Display only: results.json, the CSV files, Markdown and the
        terminal's leaderboards keep the point, and no number changes. Not implied by
        ``lang="es"`` (docs/spanish.md says why).
    lang : {"en", "es"}, default "en"
        The language of every caption, sentence, heading, figure label, team letter and email
        body (:mod:`compreport.language`); file names, CSV columns and results.json keys stay
        English.

    Raises
    ------
    InputError
        An unknown style or language, decimals out of range, a label prefix LaTeX cannot hold.

    Examples
    --------
    >>> a = cr.analyze(cr.load("examples/workshop/stance-eu"), bootstrap=2000, seed=0)
    >>> r = cr.Report(a, decimals=3)
    >>> r
    <Report: 1 competition(s) (stance-eu); formats json, latex, html, pdf; ceurart, 3 decimals, ...
    >>> print(r.to_markdown("leaderboard"))  # doctest: +ELLIPSIS
    | Rank | Rank set | System | Team | macro-F1 | accuracy | CI | Group | Marks |
    |---:|:---|:---|:---|---:|---:|:---|:---|:---|
    | 1 | 1–3 | TxertoNLP.02 | TxertoNLP | **0.689** | **0.696** | \[0.625, 0.748\] | a | best |
    | 2 | 1–3 | TxertoNLP.01 | TxertoNLP | 0.664 | **0.696** | \[0.597, 0.722\] | a | tied ...
    | 3 | 1–3 | MultiHizkuntza.01 | MultiHizkuntza | 0.633 | 0.654 | \[0.564, 0.693\] | a | ...
    | 4 | 4 | Iruñea-HLT.01 | Iruñea-HLT | 0.460 | 0.516 | \[0.385, 0.528\] | b |  |
    | 5 | 5 | Iruñea-HLT.02 | Iruñea-HLT | 0.351 | 0.407 | \[0.278, 0.417\] | c |  |
    >>> [str(path) for path in r.write("out", "json")]
    ['out/results.json', 'out/stance-eu/leaderboard.md', 'out/stance-eu/leaderboard.csv', ...]
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
        latex_columns: str | Sequence[str] | None = None,
        decimal_comma: bool = False,
        lang: str = "en",
    ) -> None:
        from compreport.report.latex.layout import OPTIONAL_COLUMNS, Options, check_columns

        self.analysis = analysis
        self.lang = _choice("lang", lang, LANGUAGES)
        self.latex_options = Options(
            style=latex_style,
            decimals=decimals,
            diff_decimals=diff_decimals,
            p_decimals=p_decimals,
            label_prefix=label_prefix,
            decimal_comma=decimal_comma,
            columns=OPTIONAL_COLUMNS if latex_columns is None else check_columns(latex_columns),
        )
        self.format = self.latex_options.format
        #: The pages', letters' and e-mails' numbers: :attr:`format` with the decimal comma.
        self.display_format = dataclasses.replace(self.format, decimal_comma=decimal_comma)
        self._gallery: Gallery | None = None

    def __repr__(self) -> str:
        ids = [c.id for c in self.analysis.competitions]
        shown = ", ".join(ids[:5]) + (", ..." if len(ids) > 5 else "")
        o = self.latex_options
        return (
            f"<Report: {len(ids)} competition(s) ({shown}); formats {', '.join(FORMATS)}; "
            f"{o.style}, {o.decimals} decimals, lang {self.lang}>"
        )

    def _repr_html_(self) -> str:
        """The repr's line, then the analysis's leaderboards (``Analysis._repr_html_``)."""
        import html

        return f"<p><code>{html.escape(repr(self))}</code></p>\n" + self.analysis._repr_html_()

    @property
    def gallery(self) -> Gallery:
        """The report's figures (:class:`~compreport.report.figures.gallery.Gallery`), each drawn
        once."""
        if self._gallery is None:
            from compreport.report.figures.gallery import Gallery

            self._gallery = Gallery(self.analysis)
        return self._gallery

    def _target(
        self, competition: str | None, metric: str | None
    ) -> tuple[CompetitionAnalysis, MetricAnalysis]:
        comp = self.analysis.competition(competition)
        return comp, comp.metric(metric)

    @_worded
    def table(
        self, kind: str, competition: str | None = None, metric: str | None = None
    ) -> model.Table:
        """One table, format-neutral: cells with their values, texts and marks.

        Parameters
        ----------
        kind : {"leaderboard", "teams", "ci", "diff-best", "pairs", "pvalues", "summary", "legend"}
            The leaderboard (every metric's score, the primary metric's interval, group and
            marks), the teams' ranking (each team by its best run:
            :func:`~compreport.report.model.team_ranking`), the ordered intervals of one metric,
            the differences from the best, the matrix of pairwise differences, every pair's
            p-values, the summary across competitions, or the legend of the summary's rows.
        competition : str, optional
            Competition id; may be omitted when the analysis holds one (``summary`` and
            ``legend`` take none).
        metric : str, optional
            Metric name (default: the primary, ranking metric).

        Returns
        -------
        compreport.report.model.Table

        Raises
        ------
        InputError
            An unknown kind, competition or metric.

        Examples
        --------
        >>> a = cr.analyze(cr.load("examples/workshop/stance-eu"), bootstrap=0)
        >>> teams = cr.Report(a).table("teams")
        >>> teams
        <Table teams: stance-eu, macro_f1; 3 rows x 8 columns (Rank, Rank set, Team, Best run, ...)>
        >>> for row in teams.rows:
        ...     print(*(row[k].text for k in ("rank", "team", "best", "score", "runs")))
        1 TxertoNLP TxertoNLP.02 0.6887 2
        2 MultiHizkuntza MultiHizkuntza.01 0.6333 1
        3 Iruñea-HLT Iruñea-HLT.01 0.4596 2
        """
        _choice("kind", kind, TABLES)
        if kind == "summary":
            return model.summary(self.analysis, self.format)
        if kind == "legend":
            return model.legend()
        comp, ma = self._target(competition, metric)
        if kind == "leaderboard":
            return model.leaderboard(comp, self.format)
        if kind == "teams":
            return model.team_ranking(comp, self.format)
        build = {
            "ci": model.confidence_intervals,
            "diff-best": model.differences_from_best,
            "pairs": model.pair_matrix,
            "pvalues": model.pairwise_p_values,
        }[kind]
        return build(comp, ma, self.format)

    @_worded
    def to_latex(self, kind: str, competition: str | None = None, metric: str | None = None) -> str:
        r"""One table as LaTeX, a ``table`` environment ready to ``\input``.

        Parameters
        ----------
        kind, competition, metric
            As for :meth:`table`.

        Returns
        -------
        str
            LaTeX source; the packages it needs are named in a comment at its top.

        Examples
        --------
        >>> a = cr.analyze(cr.load("examples/workshop/stance-eu"), bootstrap=0)
        >>> print(cr.Report(a).to_latex("leaderboard"))
        % compreport ...
        \begin{table}
        ...
        Rank & System & Team & {macro-F$_1$} & {Acc.} & Group \\
        \midrule
        1 & TxertoNLP.02 & ...
        ...
        \end{table}
        """
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
        if kind == "teams":
            return r.team_ranking(comp)
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
        """One table as a Markdown pipe table (as in ``leaderboard.md``).

        Parameters
        ----------
        kind, competition, metric
            As for :meth:`table`.

        Returns
        -------
        str
        """
        from compreport.report.markdown import table

        t = self.table(kind, competition, metric)
        if kind == "leaderboard":
            return table(t, model.export_keys(t))
        return table(t)

    @_worded
    def to_text(self, competition: str | None = None, escape: Callable[[str], str] = str) -> str:
        """One competition's leaderboard as aligned plain text, as ``compreport report`` prints it.

        A heading (metric, interval, the rule behind groups and marks), the competition's
        warnings, then the table of its ``leaderboard.md``.

        Parameters
        ----------
        competition : str, optional
            Competition id; may be omitted when the analysis holds one.
        escape : callable, default str
            Applied to each line, to make it safe where it is printed.

        Returns
        -------
        str
        """
        from compreport.report import plaintext

        comp = self.analysis.competition(competition)
        return plaintext.leaderboard(comp, self.analysis.settings, self.format, escape)

    @_worded
    def to_html(self, competition: str | None = None) -> str:
        """A self-contained HTML page: one competition's, or the workshop overview.

        Parameters
        ----------
        competition : str, optional
            Competition id. None: the only competition's page, or the overview when there are
            several.

        Returns
        -------
        str
            The page, with its figures and styles inline.
        """
        from compreport.report.pages import html

        fmt = self.display_format
        with decimal_comma(fmt.decimal_comma):
            if competition is None and len(self.analysis.competitions) > 1:
                return html.index_html(self.analysis, fmt, self.gallery)
            return html.competition_html(
                self.analysis, self.analysis.competition(competition), fmt, self.gallery
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
    ) -> Figure:
        """One figure of the report, as a new matplotlib Figure (an image in a notebook).

        Parameters
        ----------
        kind : {"ci", "diff", "dist", "facets", "workshop"}
            The ordered intervals, the differences from the best, the bootstrap distribution of
            the difference ``a`` - ``b``, every metric's intervals side by side, or the
            competitiveness of every competition of the workshop.
        competition : str, optional
            Competition id; may be omitted when the analysis holds one (``workshop`` takes none).
        metric : str, optional
            Metric name (default: the primary, ranking metric).
        a, b : str, optional
            The pair of systems of the ``dist`` figure (default: the winner and the runner-up).

        Returns
        -------
        matplotlib.figure.Figure

        Raises
        ------
        InputError
            An unknown kind, competition, metric or system; ``a``/``b`` with another kind than
            ``dist``, or naming one system twice; a ``dist`` figure of an analysis read back from
            results.json, which holds no bootstrap replicates.
        """
        with decimal_comma(self.display_format.decimal_comma):  # drawn as the pages draw it
            return self._figure(kind, competition, metric, a, b)

    def _figure(
        self,
        kind: str,
        competition: str | None,
        metric: str | None,
        a: str | None,
        b: str | None,
    ) -> Figure:
        """:meth:`figure`, in the report's language and decimal mark."""
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
        # the best, the runner-up, then every other system in rank order
        pick = [x for x in (ma.best, ma.runner_up, *(s.system for s in ma.scores)) if x]
        a = a or next(x for x in pick if x != b)
        b = b or next(x for x in pick if x != a)
        for which, name in (("a", a), ("b", b)):
            if name not in comp.systems:
                raise InputError(
                    f"`{which}`: no system {name!r} in competition {comp.id!r}"
                    f"{suggest(str(name), comp.systems)}"
                )
        if a == b:
            raise InputError(f"`a` and `b` must be two systems; both are {a!r}")
        return figures.distribution_plot(comp, ma, a, b, self.analysis.settings.test)

    @_worded
    def write(
        self,
        out_dir: str | Path,
        formats: str | Sequence[str] | None = None,
        *,
        force: bool = False,
        figure_formats: str | Sequence[str] = ("pdf", "svg"),
        compile_pdf: bool = True,
        emails: str | os.PathLike[str] | Recipients | None = None,
        email_from: str | None = None,
        reply_to: str | None = None,
        jobs: int | None = None,
        progress: bool | None = False,
    ) -> list[Path]:
        """Write the report into the directory ``out_dir``.

        ``out_dir`` must be new, empty, or a directory an earlier report wrote (marked by its
        manifest ``.compreport.json``, written last), which ``force=True`` replaces: only the
        files its manifest lists; any other file there is kept and named in a
        :class:`~compreport.errors.Note`. The report is written into a temporary directory
        beside ``out_dir`` and swapped in when complete; on any failure ``out_dir`` is left as it
        was (:mod:`compreport.output.staging`).

        Parameters
        ----------
        out_dir : str or path-like
            The output directory.
        formats : str or sequence of str, optional
            Any of ``"json"``, ``"latex"``, ``"html"``, ``"pdf"``, or a comma list of them;
            results.json and the CSV/Markdown exports are always written. Default: every
            format of :data:`FORMATS`, except that PDF is skipped with one
            :class:`~compreport.errors.Note` (naming the command that installs Pango) where
            WeasyPrint cannot load its libraries, as ``compreport report`` does without
            ``--format``; ``"pdf"`` named there is an :class:`InputError`, before any work.
        force : bool, default False
            Replace an earlier report in ``out_dir``.
        figure_formats : str or sequence of str, default ("pdf", "svg")
            Figure files to write: any of ``"pdf"``, ``"svg"``, ``"png"``, or a comma list.
        compile_pdf : bool, default True
            Compile the LaTeX appendix to ``appendix.pdf``. It needs ``latexmk`` and
            ``pdflatex``: without them, one :class:`~compreport.errors.Note` before any work
            says how to install them, and ``appendix.tex`` is written uncompiled.
        emails : str, path-like or Recipients, optional
            An addresses file (CSV/TSV: ``team, address[, language]``) or what
            :func:`compreport.report.pages.emails.read_recipients` returned: writes
            ``emails/<team>.eml`` with the team's letters attached (needs the ``pdf`` format;
            nothing is sent). Each has the header ``X-Unsent: 1``, so a mail client opens it as a
            draft.
        email_from : str, optional
            The ``From`` of every email: one address, ``name@domain`` or ``Name <name@domain>``.
            Without it the mail client fills in its own account.
        reply_to : str, optional
            The ``Reply-To`` of every email: one or more addresses, separated by commas.
        jobs : int, optional
            Worker processes drawing figures and rendering PDF documents (default: every core
            this process may use); ``appendix.pdf`` compiles beside them. The files do not depend
            on it.
        progress : bool or None, default False
            A progress bar per stage on stderr (figures, PDF documents); None: when stderr is a
            terminal.

        Returns
        -------
        list of Path
            The files written, in ``out_dir`` (the manifest not among them).

        Raises
        ------
        OutputError
            (an :class:`InputError`) ``out_dir`` is not empty and not compreport's, holds an
            earlier report and ``force`` is not given, is (or holds) an input file or the
            current directory, lies where the analysis read its runs (known to an analysis made by
            :func:`compreport.analyze`, not to one read from results.json), is being written by
            another run, or cannot be written (read-only, no space left).
        InputError
            An unknown format, emails without the pdf format, a bad addresses file or a
            malformed ``email_from`` or ``reply_to`` (naming the row or the parameter), or the
            PDF libraries missing.

        Examples
        --------
        >>> a = cr.analyze(cr.load("examples/workshop/stance-eu"), bootstrap=200)
        >>> written = cr.Report(a).write("out", "json")
        >>> sorted(p.name for p in written)
        ['leaderboard.csv', 'leaderboard.md', 'pairs-accuracy.csv', 'pairs-macro-f1.csv',
         'results.json', 'summary.csv']
        """
        from compreport.output.staging import claim, out_path
        from compreport.report.naming import check_names
        from compreport.workers import check_jobs, default_jobs, show_progress

        out = out_path(out_dir)  # None, bytes, "": one OutputError
        check_names(self.analysis)  # every path made from data, before anything is written
        jobs = check_jobs(default_jobs() if jobs is None else jobs)
        progress = show_progress(progress)

        fmts, figure_fmts, recipients = check_write_options(
            FORMATS if formats is None else formats,
            figure_formats,
            emails,
            email_from,
            reply_to,
            pdf_optional=formats is None,
        )
        compile_pdf = check_appendix_compile(fmts, compile_pdf)
        # the files the analysis was read from (cr.analyze records them), else what results.json
        # names
        protect: list[str | None] = list(self.analysis.sources) or [
            i.get("path") for c in self.analysis.competitions for i in c.inputs
        ]
        protect += [recipients.source] if recipients is not None else []
        with claim(out, force, protect=protect, runs=self.analysis.scanned) as target:
            tmp = target.tmp
            try:
                files.write_text(tmp / "results.json", self.analysis.to_json())
                written = [tmp / "results.json"] + self._render(
                    tmp, fmts, tuple(figure_fmts), compile_pdf, jobs, progress
                )
                if recipients is not None:
                    from compreport.report.pages.emails import write_emails

                    with decimal_comma(self.display_format.decimal_comma):
                        written += write_emails(self.analysis, tmp, recipients, self.display_format)
            except InputError:
                raise
            except Exception as exc:
                # a full disk may surface as another error, raised while handling it
                cause = _os_error(exc)
                if cause is None:
                    raise
                raise target.write_error(cause) from None
            target.commit(
                {
                    "settings": self.analysis.settings.to_dict(),
                    "formats": fmts,
                    "figure_formats": figure_fmts,
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
            with decimal_comma(self.display_format.decimal_comma):  # every format's figures
                written += self.gallery.render(
                    tmp, figure_formats, svg=pages, jobs=jobs, progress=progress
                )
        build = None
        try:
            interrupts.check()
            if "latex" in formats:
                from compreport.report.latex.appendix import start_compile, write_latex

                written += write_latex(
                    self.analysis,
                    tmp,
                    self.latex_options,
                    compile_pdf=False,
                    figures=self.gallery.pdfs,
                )
                # latexmk runs beside the HTML and PDF work; its figures are written above
                build = start_compile(tmp) if compile_pdf else None
            interrupts.check()
            fmt = self.display_format  # the pages' numbers, with a decimal comma when asked
            if "html" in formats:
                from compreport.report.pages.html import write_html

                with decimal_comma(fmt.decimal_comma):
                    written += write_html(self.analysis, tmp, fmt, self.gallery)
            if "pdf" in formats:
                from compreport.report.pages.pdf import write_pdf

                # WeasyPrint's libraries were checked by check_write_options, before any work
                with decimal_comma(fmt.decimal_comma):  # the workers run in this context
                    written += write_pdf(
                        self.analysis, tmp, fmt, self.gallery, jobs=jobs, progress=progress
                    )
            interrupts.check()
            if build is not None:
                written += build.wait()
        finally:
            if build is not None:
                build.stop()
        return written


__all__ = [
    "FIGURES",
    "FORMATS",
    "PDF_LIBRARIES",
    "TABLES",
    "Report",
    "check_appendix_compile",
    "check_write_options",
    "pdf_unavailable",
]
