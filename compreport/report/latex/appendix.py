"""The LaTeX files of a report: table snippets, the summary, and the appendix document.

``preamble.tex`` holds the lines the tables need in a paper of the chosen style. ``appendix.tex``
(pylatex) holds the methods paragraph with citations, the competitiveness summary, and every
competition's tables and figures, in the style's geometry and table font; ``latexmk`` compiles
it without shell escape into a byte-reproducible ``appendix.pdf`` when TeX is installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from compreport.inputs.slugs import slug
from compreport.language import current, decimal_comma, tr
from compreport.language import vocabulary as vocab
from compreport.output import files
from compreport.output.csvfile import write_frame
from compreport.report import model, prose, references
from compreport.report.latex.layout import Options
from compreport.report.latex.renderer import Renderer, preamble
from compreport.report.latex.tex import escape, metric_name, num, warn_unset_names
from compreport.report.naming import competition_dir
from compreport.stats.results import Analysis, CompetitionAnalysis, MetricAnalysis


def cited_keys(settings, comps=()) -> list[str]:
    """The BibTeX keys the appendix of the competitions ``comps`` cites, in order: its methods
    paragraph's, then the method paper of the competitiveness summary, whose caption cites it
    (``navamunoz2024``)."""
    return list(dict.fromkeys([*prose.cited(prose.paragraph(settings, comps)), "navamunoz2024"]))


def methods_latex(settings, comps=()) -> str:
    """The methods paragraph as LaTeX, with ``\\citep`` commands."""
    return "".join(
        escape(s).replace("-{}", "-") if isinstance(s, str) else f"\\citep{{{','.join(s.keys)}}}"
        for s in prose.paragraph(settings, comps)
    )


def document_preamble(options: Options) -> list[str]:
    """Preamble lines of a document in the style's geometry and table font, up to the tables'
    own ``\\input{preamble.tex}`` (the appendix; the tests build their papers the same way)."""
    lay = options.layout
    # \FloatBarrier (placeins) before every heading keeps floats from sinking into the next
    # section; flafter keeps them from rising above the point they are input, so above their
    # heading (placeins' own \suppressfloats[t] can act on the column before the one a heading
    # starts: the column breaks later)
    lines = list(lay.document[1:]) + [
        r"\input{preamble.tex}",
        r"\usepackage{placeins}",
        r"\usepackage{flafter}",
    ]
    if lay.twocolumn:  # tables stay floats (no [H] for table*), with room for a competition's
        lines.append(r"\extrafloats{100}")
    else:  # one column: keep tables where they are input, in order
        lines += [r"\usepackage{float}", r"\floatplacement{table}{H}"]
    return lines


def _section(title: str):
    """A pylatex section labelled ``sec:<slug>``, ASCII as the file names (``sec:metodos``;
    pylatex's own label drops what is not ASCII, ``sec:Mtodos``, and escapes a dash as ``{-}``)."""
    from pylatex import NoEscape, Section

    section = Section(title, label=False)
    section.append(NoEscape(f"\\label{{sec:{slug(title)}}}%\n"))
    return section


def appendix(
    analysis: Analysis,
    options: Options,
    tables_by_comp: dict[str, list[str]],
    figures_by_comp: dict[str, list[str]],
    stamp: str,
    prefix: str,
) -> str:
    """The text of ``appendix.tex`` (pylatex): methods, the competitiveness summary, then every
    competition's tables and figures, in the style's geometry
    (:attr:`~compreport.report.latex.layout.Style.document`) with ``preamble.tex``.

    Parameters
    ----------
    analysis : Analysis
        What the appendix reports.
    options : Options
        The LaTeX options (style, decimal marker).
    tables_by_comp, figures_by_comp : dict
        ``{competition id: [path relative to the report root, ...]}`` of the table files to
        ``\\input`` and the figure PDFs to include.
    stamp : str
        The first line (the renderer's ``stamp``: version and settings).
    prefix : str
        The label prefix of the figures (``fig:<prefix>:...``).
    """
    import re

    from pylatex import Command, Document, NoEscape, Section, Subsection

    lay = options.layout
    cls = re.fullmatch(r"\\documentclass\[(.*)\]\{(.*)\}", lay.document[0])
    doc = Document(
        documentclass=Command(
            "documentclass", arguments=cls.group(2), options=cls.group(1).split(",")
        ),
        fontenc=None,
        inputenc=None,
        lmodern=False,
        textcomp=False,
        page_numbers=False,
    )
    # a Spanish appendix: babel's Spanish names (Tabla, Figura, Referencias) and hyphenation
    spanish = [r"\usepackage[spanish,es-tabla]{babel}"] if current() == "es" else []
    for line in (
        document_preamble(options)
        + spanish
        + [r"\usepackage{graphicx}", r"\usepackage[round]{natbib}"]
    ):
        doc.preamble.append(NoEscape(line))
    # Reproducible PDF: no dates, no random trailer id.
    doc.preamble.append(NoEscape(r"\pdfinfoomitdate=1 \pdftrailerid{}"))
    doc.preamble.append(Command("title", NoEscape(escape(prose.title(analysis)))))
    doc.preamble.append(Command("author", f"compreport {analysis.version}"))
    doc.preamble.append(Command("date", ""))
    doc.append(NoEscape(r"\maketitle"))
    barrier = NoEscape("\n\\FloatBarrier")  # before each heading: the floats above stay above it
    with doc.create(_section(tr("Methods"))):
        doc.append(NoEscape(methods_latex(analysis.settings, analysis.competitions)))
    doc.append(barrier)
    with doc.create(_section(tr("Competitiveness across competitions"))):
        doc.append(
            NoEscape(r"\input{summary/legend.tex}" + "\n" + r"\input{summary/competitiveness.tex}")
        )
        for stem, _, _ in _language_blocks(analysis):
            doc.append(NoEscape(f"\n\\input{{summary/ci-{stem}.tex}}\n"))
    fig_pos = "[htbp]" if lay.twocolumn else "[H]"  # one column: figures in order, as tables
    # figures are drawn at most a one-column text wide: across both columns of a two-column style
    fig_env = "figure*" if lay.twocolumn else "figure"
    for comp in analysis.competitions:
        doc.append(barrier)
        with doc.create(Section(NoEscape(escape(comp.name)), label=False)):
            where = (
                tr(" in {unit}, resampled by cluster", unit=escape(prose.unit(comp)))
                if comp.clusters
                else ""
            )
            doc.append(
                NoEscape(
                    tr(
                        "{n} test items{where}, {m} systems.",
                        n=num(comp.n, options.decimal_comma),
                        where=where,
                        m=len(comp.systems),
                    )
                )
            )
            for rel in tables_by_comp.get(comp.id, []):
                doc.append(NoEscape(f"\n\\input{{{rel}}}\n"))
            figs = figures_by_comp.get(comp.id, [])
            if figs:
                doc.append(barrier)
                with doc.create(Subsection(tr("Figures"), label=False)):
                    for rel in figs:
                        stem = Path(rel).stem
                        caption = escape(
                            prose.figure_caption(stem.partition("-")[0], analysis.settings)
                        )
                        doc.append(
                            NoEscape(
                                f"\n\\begin{{{fig_env}}}{fig_pos}\\centering\n"
                                "\\includegraphics[width=\\linewidth,height=0.8\\textheight,"
                                f"keepaspectratio]{{{rel}}}\n"
                                f"\\caption{{{caption}}}\\label{{fig:{prefix}:{comp.id}-{stem}}}\n"
                                f"\\end{{{fig_env}}}\n"
                            )
                        )
        # one column: a competition starts a page; two: the next barrier only (a \clearpage
        # would leave a lone heading, its table* a page on)
        if not lay.twocolumn:
            doc.append(NoEscape(r"\clearpage"))
    doc.append(barrier)
    keys = cited_keys(analysis.settings, analysis.competitions)
    if keys:
        # written here, not by BibTeX: plainnat joins authors with "and" in every language
        doc.append(NoEscape(references.thebibliography(keys)))
    return stamp + "\n" + doc.dumps() + "\n"


def write_latex(
    analysis: Analysis,
    out: Path,
    options: Options | None = None,
    compile_pdf: bool = True,
    figures: dict[str, list[str]] | None = None,
) -> list[Path]:
    """Write the LaTeX files of a report.

    Every table file, the summary tables and ``summary/competitiveness.csv``, ``preamble.tex``
    (what the tables need in a paper), ``appendix.tex`` and ``references.bib`` and, when
    ``compile_pdf`` and a TeX engine is present, ``appendix.pdf``.

    Parameters
    ----------
    analysis : Analysis
        What the files report.
    out : Path
        The report root.
    options : Options, optional
        The LaTeX options; default ``Options()``.
    compile_pdf : bool
        Compile ``appendix.pdf`` (:func:`compile_appendix`); default True.
    figures : dict, optional
        ``{competition id: [figure PDF path relative to out, ...]}`` to include in the appendix
        (the figures written in this run; none when omitted).

    Returns
    -------
    list of Path
        The files written.
    """
    options = options or Options()
    with decimal_comma(options.decimal_comma):  # the prose's numbers too: methods, figure captions
        return _write_latex(analysis, out, options, compile_pdf, figures)


def _write_latex(
    analysis: Analysis,
    out: Path,
    options: Options,
    compile_pdf: bool,
    figures: dict[str, list[str]] | None,
) -> list[Path]:
    r = Renderer(analysis, options)
    written: list[Path] = []
    tables_by_comp: dict[str, list[str]] = {}
    figures_by_comp = figures or {}
    for comp in analysis.competitions:
        warn_unset_names(comp)
        folder = competition_dir(out, comp) / "tables"
        folder.mkdir(parents=True, exist_ok=True)
        for name, tex in r.competition_tables(comp).items():
            files.write_text(folder / name, tex)
            written.append(folder / name)
            tables_by_comp.setdefault(comp.id, []).append(f"{comp.id}/tables/{name}")
    summary = out / "summary"
    summary.mkdir(parents=True, exist_ok=True)
    for name, text in (("legend.tex", r.legend()), ("competitiveness.tex", r.summary())):
        files.write_text(summary / name, text)
        written.append(summary / name)
    for stem, caption, blocks in _language_blocks(analysis):  # paper Table 2: a task's languages
        name = f"ci-{stem}.tex"
        files.write_text(
            summary / name, r.ci_blocks(blocks, caption=caption, label=r.label(f"ci-{stem}"))
        )
        written.append(summary / name)
    files.write_text(out / "preamble.tex", preamble(options, analysis.version))
    written.append(out / "preamble.tex")
    df = model.summary_frame(analysis)
    write_frame(df, summary / "competitiveness.csv", index_label="row")
    written.append(summary / "competitiveness.csv")
    files.write_text(
        out / "appendix.tex",
        appendix(analysis, options, tables_by_comp, figures_by_comp, r.stamp, r.prefix),
    )
    keys = cited_keys(analysis.settings, analysis.competitions)
    files.write_text(out / "references.bib", references.bibtex(keys))
    written += [out / "appendix.tex", out / "references.bib"]
    if compile_pdf:
        written += compile_appendix(out)
    return written


def _language_blocks(
    analysis: Analysis,
) -> list[tuple[str, str, list[tuple[str, CompetitionAnalysis, MetricAnalysis]]]]:
    """Competitions that share challenge and task (all but the last level of ``group``) and primary
    metric, as CI blocks side by side titled by their last level (the language):
    ``[(file stem, caption, blocks), ...]``; only sets of two or more."""
    sets: dict[tuple, list[CompetitionAnalysis]] = {}
    for comp in analysis.competitions:
        if len(comp.group) >= 2:
            sets.setdefault((*comp.group[:-1], comp.primary.name), []).append(comp)
    out = []
    for key, comps in sets.items():
        if len(comps) < 2:
            continue
        *path, metric = key
        caption = tr(
            "Ordered bootstrap confidence intervals of {metric} for {task}",
            metric=metric_name(comps[0].primary),
            task=escape(": ".join(path)),
        )
        out.append(
            (
                slug("-".join(path)),
                caption,
                [(escape(vocab.language_name(c.group[-1])), c, c.primary) for c in comps],
            )
        )
    return out


#: Lines of pdflatex's log quoted in the warning of a failed build.
LOG_LINES = 4


def first_error(log: str, most: int = LOG_LINES) -> str:
    r"""The first error of a pdflatex log: its ``!`` line and the lines up to its ``l.N`` line.

    Parameters
    ----------
    log : str
        The text of a ``.log`` file.
    most : int
        At most this many lines are returned; default :data:`LOG_LINES`.

    Returns
    -------
    str
        The lines joined by `` / ``; empty when the log holds no ``!`` line.

    Examples
    --------
    >>> first_error("This is pdfTeX\n! Undefined control sequence.\nl.12 \\foo\n\nmore")
    '! Undefined control sequence. / l.12 \\foo'
    """
    lines = log.splitlines()
    start = next((k for k, line in enumerate(lines) if line.startswith("!")), None)
    if start is None:
        return ""
    picked = []
    for line in lines[start : start + most]:
        if line.strip():
            picked.append(line.strip())
        if line.startswith("l."):
            break
    return " / ".join(picked)


class AppendixBuild:
    """``latexmk`` compiling ``appendix.tex`` in the background (:func:`start_compile`).

    latexmk reads ``appendix.tex`` and what it inputs from the report root, and writes its build
    files (``.aux``, ``.log``, ``.fls``, ``.fdb_latexmk``) into a private folder outside
    it. :meth:`wait` copies ``appendix.pdf`` into the report root (through
    :mod:`compreport.output.files`: no link followed); a build that failed leaves
    ``appendix.log`` there instead. A build that is neither waited for nor finished is stopped by
    :meth:`stop`; the private folder is removed either way.
    """

    def __init__(self, out: Path, build_dir: Path, proc: subprocess.Popen):
        self.out = out
        self.build_dir = build_dir
        self.proc = proc

    def wait(self) -> list[Path]:
        """The files the build leaves in the report root: ``[appendix.pdf]``, or
        ``[appendix.log]`` (with one warning quoting its first error) when latexmk failed."""
        self.proc.communicate()
        pdf = self.build_dir / "appendix.pdf"
        if self.proc.returncode == 0 and pdf.is_file():
            files.write_bytes(self.out / "appendix.pdf", pdf.read_bytes())
            return [self.out / "appendix.pdf"]
        from compreport.errors import warn

        log = self.build_dir / "appendix.log"
        kept: list[Path] = []
        said = ""
        if log.is_file():
            files.write_bytes(self.out / "appendix.log", log.read_bytes())
            kept.append(self.out / "appendix.log")
            said = first_error(log.read_text(encoding="utf-8", errors="replace"))
        where = "see appendix.log in the output" if kept else "pdflatex wrote no log"
        warn(
            f"appendix.pdf not built: latexmk failed on appendix.tex ({where})"
            + (f": {said}" if said else "")
        )
        return kept

    def stop(self) -> None:
        """Stop latexmk (and its pdflatex) if it is still running, and remove the build folder."""
        if self.proc.poll() is None:
            import signal

            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
            except (ProcessLookupError, PermissionError):
                pass
            self.proc.wait()
        shutil.rmtree(self.build_dir, ignore_errors=True)


def start_compile(out: Path) -> AppendixBuild | None:
    """Start ``latexmk -pdf`` on ``out/appendix.tex`` without shell escape, and return at once.
    The bibliography is in ``appendix.tex`` (:func:`~compreport.report.references.thebibliography`):
    no BibTeX run.

    Parameters
    ----------
    out : Path
        The report root, holding ``appendix.tex``.

    Returns
    -------
    AppendixBuild or None
        The running build; None (with one note on stderr) when latexmk or pdflatex is absent.
    """
    import sys
    import tempfile

    latexmk = shutil.which("latexmk")
    if latexmk is None or shutil.which("pdflatex") is None:
        print(
            "note: latexmk/pdflatex not found: wrote appendix.tex without compiling it",
            file=sys.stderr,
        )
        return None
    build_dir = Path(tempfile.mkdtemp(prefix="compreport-latex-"))
    env = dict(os.environ, SOURCE_DATE_EPOCH="0", FORCE_SOURCE_DATE="1")
    cmd = [
        latexmk,
        "-pdf",
        "-interaction=nonstopmode",
        "-halt-on-error",
        "-no-shell-escape",
        "-quiet",
        f"-outdir={build_dir}",
        "appendix.tex",
    ]
    proc = subprocess.Popen(
        cmd,
        cwd=out,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    return AppendixBuild(out, build_dir, proc)


def compile_appendix(out: Path) -> list[Path]:
    """Compile ``out/appendix.tex`` (:func:`start_compile`) and wait: the files it left in ``out``
    (``appendix.pdf``, or ``appendix.log`` when it failed; none without TeX)."""
    build = start_compile(out)
    if build is None:
        return []
    try:
        return build.wait()
    finally:
        build.stop()
