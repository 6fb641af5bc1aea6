"""Command line: ``compreport report|demo|validate|init|metrics|plan``.

The CLI parses arguments, calls the public API (:mod:`compreport.api`, :class:`~compreport.Report`)
and turns an :class:`InputError` into one line ``error: ...`` on stderr with exit status 2. It
computes nothing itself.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import sys
import warnings
from pathlib import Path
from types import MappingProxyType

from compreport import api, interrupts
from compreport.cli_parser import (
    LATEX_STYLES,
    SETTING_OPTIONS,
    build_parser,
    comma_list,
)
from compreport.errors import (
    InputError,
    InputWarning,
    Note,
    Terminated,
    note,
    os_reason,
    printable,
    raw,
    suggest,
    worded,
)
from compreport.language import LANGUAGES
from compreport.language.caller import command_line
from compreport.options import load_keywords
from compreport.report import FORMATS, check_appendix_compile, check_write_options
from compreport.report.figures import FIGURE_FORMATS
from compreport.report.latex.layout import check_columns, check_label_prefix
from compreport.settings import (
    NUMERIC,
    check_draws,
    check_paper,
    check_plan_options,
    from_text,
    one_of,
    validate,
    whole_number,
)

#: A single competition of this many items or more is bootstrapped by every core unless --jobs says
#: otherwise (its blocks of replicates drawn by forked workers; the numbers do not depend on it).
BIG_N = 100_000


def _load(inputs: list[str], args=None, out_dir: Path | None = None):
    """:func:`compreport.load` of the INPUTs with the reading options of ``args`` (None: the
    defaults), its notes left for the command line to word; no runs are read where ``out_dir``
    lies."""
    from compreport.api import load_unworded

    if args is None:
        return load_unworded(inputs, out_dir=out_dir)
    return load_unworded(inputs, **load_keywords(args), out_dir=out_dir)


def _cli_settings(args) -> dict:
    """The statistics options given on the command line, parsed from text and validated, by
    Settings field."""
    given = {}
    for name, option in SETTING_OPTIONS.items():
        value = getattr(args, option)
        if value is not None:
            given[name] = from_text(value, NUMERIC[name]) if name in NUMERIC else value
    given = validate(given, "cli")
    check_paper(given, "cli")  # before any work, in the command line's words
    return given


def _check_options(args) -> None:
    """Check every option of ``report``/``demo`` before any work or heavy import.

    An invalid value is one :class:`InputError`. Normalises ``args`` in place: ``args.given`` holds
    the statistics options, ``args.recipients`` the addresses file of ``--emails``, read.
    """
    args.given = _cli_settings(args)
    if args.jobs is not None:
        args.jobs = whole_number(from_text(args.jobs, whole=True), "--jobs", 1)
    if getattr(args, "scheduler", None) is not None:
        from compreport.distributed import check_scheduler

        args.scheduler = check_scheduler(args.scheduler)
    args.decimals = whole_number(from_text(args.decimals, whole=True), "--decimals", 0, 10)
    args.diff_decimals = whole_number(
        from_text(args.diff_decimals, whole=True), "--diff-decimals", 0, 10
    )
    args.latex_style = one_of(args.latex_style, LATEX_STYLES, "--latex-style")
    args.lang = one_of(args.lang, LANGUAGES, "--lang")
    args.label_prefix = check_label_prefix(args.label_prefix, "--label-prefix")
    if hasattr(args, "latex_columns"):
        args.latex_columns = check_columns(args.latex_columns, "--latex-columns")
    formats_given = args.format is not None
    args.format = _formats(args.format)
    args.figure_formats = _choices("--figure-formats", args.figure_formats, FIGURE_FORMATS)
    if getattr(args, "decimal_comma", False) and not {"latex", "html", "pdf"} & set(args.format):
        warnings.warn(
            "--decimal-comma applies to the LaTeX, HTML and PDF outputs and the e-mails, and "
            "--format has none of them: it changes nothing here (results.json, the CSV files and "
            "Markdown keep the decimal point)",
            Note,
            stacklevel=2,
        )
    # Report.write's own checks (--emails needs the pdf format; its file is read; PDF needs
    # Pango: without it the default formats skip pdf with one note), before any work
    args.format, args.figure_formats, args.recipients = check_write_options(
        args.format,
        args.figure_formats,
        args.emails,
        args.email_from,
        args.reply_to,
        pdf_optional=not formats_given,
    )
    # latexmk and pdflatex for appendix.pdf: without them, one note now, and no compile later
    if hasattr(args, "no_compile"):
        args.no_compile = not check_appendix_compile(args.format, not args.no_compile)


def _choices(option: str, value: str, allowed: tuple[str, ...]) -> list[str]:
    """A comma list of ``allowed`` values; an unknown one is an error naming ``option``."""
    wanted = comma_list([value])
    for f in wanted:
        if f not in allowed:
            raise InputError(
                f"{option} takes a comma list of {', '.join(allowed)}; "
                f"got {f!r}{suggest(f, allowed)}"
            )
    return wanted


def _formats(value: str | None) -> list[str]:
    """The formats of ``--format``, json first (default: every format)."""
    if value is None:
        return list(FORMATS)
    if not comma_list([value]):  # `--format=` (an unset shell variable, say): not json only
        raise InputError(f"--format takes a comma list of {', '.join(FORMATS)}; got nothing")
    return ["json"] + [f for f in _choices("--format", value, FORMATS) if f != "json"]


def _report(inputs: list[str], args, reading) -> list[Path]:
    """Load (``reading``: the args whose reading options apply, or None), analyse and write,
    through the public API (:func:`compreport.load`, :func:`compreport.analyze`,
    :class:`compreport.Report`)."""
    from compreport.api import run_analysis
    from compreport.inputs.spec import metric_file
    from compreport.output.staging import claim
    from compreport.report import Report

    out = Path(args.output)
    formats, figure_formats = args.format, args.figure_formats  # checked by _check_options
    # The output directory is claimed before any work (refused if not ours, or an input, or where
    # --runs reads; locked), then checked against every file the inputs name once they are read
    # (and every runs folder a spec names, before it is read: load's out_dir).
    metrics = comma_list(reading.metric) if reading is not None else []
    runs = reading.runs if reading is not None else None
    names = reading.names if reading is not None else None
    named = [
        *inputs,
        *([runs] if runs else []),
        *([names] if names else []),
        *map(metric_file, metrics),
        *([args.emails] if args.emails else []),
    ]
    say = _stage_reporter(args.verbose)
    with claim(out, args.force, protect=named, runs=[runs] if runs else []) as target:
        loaded = _load(inputs, reading, out)
        target.protect(loaded.files)
        say(
            f"read {len(loaded.competitions)} competition(s): "
            + ", ".join(f"{c.id} ({c.n} items, {c.m} systems)" for c in loaded.competitions)
        )
        # --jobs as given; by default every core for several competitions (one per worker) or
        # for a single one of BIG_N items or more (its blocks of replicates); one process for a
        # smaller one, where forking workers costs more than it saves
        from compreport.workers import default_jobs

        several = len(loaded.competitions) > 1 or loaded.competitions[0].n >= BIG_N
        jobs = args.jobs or (default_jobs() if several or args.scheduler == "local" else 1)
        # the statistics options were validated by _check_options, before any work: the run's
        # one Settings is made from them without checking them again
        analysis = run_analysis(
            loaded,
            args.given,
            "cli",
            checked=True,
            jobs=jobs,
            progress=False if args.quiet else None,
            scheduler=args.scheduler,
        )
        say(f"analysed: {_resamples_said(analysis)}, {analysis.settings.rule}")
        for comp in analysis.competitions if not args.quiet else ():
            if line := _undecided(comp, analysis.settings):
                note(line)
        report = Report(
            analysis,
            decimals=args.decimals,
            diff_decimals=args.diff_decimals,
            latex_style=args.latex_style,
            label_prefix=args.label_prefix,
            latex_columns=getattr(args, "latex_columns", None),
            decimal_comma=args.decimal_comma,
            lang=args.lang,
        )
        written = report.write(
            out,
            formats,
            force=args.force,
            figure_formats=figure_formats,
            compile_pdf=not args.no_compile,
            emails=args.recipients,
            jobs=args.jobs,
            progress=False if args.quiet else None,
        )
        say(f"wrote {len(written)} files ({', '.join(formats)})")
    if not args.quiet:
        _print_written(out, written)
        _print_leaderboards(report)
    return written


def _resamples_said(analysis) -> str:
    """The resamples behind the analysis, as ``-v`` says them: B, and the most that refinement
    drew for some p-values (the stored ``verdicts["resamples"]``) when it drew more, so that a
    p-value re-estimated from 32,000 resamples is not said to come from 2,000."""
    b = analysis.settings.bootstrap
    most = max(
        (int(ma.verdicts.get("resamples") or 0) for c in analysis.competitions for ma in c.metrics),
        default=0,
    )
    if most > b:
        return f"{b:,} resamples (some p-values re-estimated from up to {most:,})"
    return f"{b:,} resamples"


def _undecided(comp, settings) -> str | None:
    """The run's one line on ``comp``'s undecided verdicts (the stored ``verdicts["undecided"]``
    of each metric): how many, of how many, and the option that would settle them (a larger
    ``-B``; ``--refine on`` when it is off and the correction is not max-T, whose error
    refinement hardly shrinks). None when every verdict is settled."""
    counts = [
        (ma.name, int(ma.verdicts.get("undecided") or 0), int(ma.verdicts.get("tested") or 0))
        for ma in comp.metrics
    ]
    undecided = sum(k for _, k, _ in counts)
    if not undecided:
        return None
    where = ", ".join(f"{name}: {k:,} of {n:,}" for name, k, n in counts if k)
    # under max-T the error of an adjusted p-value comes mostly from the studentization by the
    # first B resamples, which refinement keeps: only a larger B shrinks it (docs/performance.md)
    how = (
        "a larger -B may settle them (their error falls as 1/sqrt(B))"
        if settings.refine or settings.correction == "maxt"
        else "--refine on re-estimates their p-values from more resamples, or a larger -B"
    )
    return (
        f"competition {comp.id!r}: {undecided:,} verdict{'s' if undecided > 1 else ''} undecided "
        f"({where}): p-values within the Monte-Carlo error of alpha = {settings.alpha:g}, "
        f"reported as neither significant nor tied; {how}"
    )


def _stage_reporter(verbose: bool):
    """``say(text)``: with ``--verbose``, one ``compreport: <text> (<seconds> s)`` line on stderr
    per stage, timed from the previous one; otherwise nothing."""
    import time

    last = [time.perf_counter()]

    def say(text: str) -> None:
        if verbose:
            now = time.perf_counter()
            print(f"compreport: {printable(text)} ({now - last[0]:.1f} s)", file=sys.stderr)
            last[0] = now

    return say


def _print(text: str, end: str = "\n") -> None:
    """``text`` on stdout; once its reader has gone (``compreport report ... | head -1``), nothing:
    the rest of the output is dropped and the command goes on (:func:`_drop_stdout`)."""
    try:
        sys.stdout.write(text + end)
    except BrokenPipeError:
        _drop_stdout()


def _flush_stdout() -> None:
    """Flush stdout, dropping what a reader that has gone no longer reads (:func:`_print`)."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _drop_stdout()


def _drop_stdout() -> None:
    """Send the rest of stdout nowhere: its file descriptor becomes ``/dev/null`` (so neither this
    process nor the interpreter's last flush fails on the closed pipe again)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a file: replace the object itself
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (for the process)
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, fd)
    finally:
        os.close(null)
    with contextlib.suppress(OSError):
        sys.stdout.flush()  # what the closed pipe refused, now to /dev/null


def _escape_unencodable() -> None:
    r"""Make stdout and stderr escape what their encoding cannot show (``\u6df1`` under
    ``PYTHONIOENCODING=latin-1``) instead of raising ``UnicodeEncodeError``."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", None) != "backslashreplace":
            with contextlib.suppress(ValueError, OSError, io.UnsupportedOperation):
                reconfigure(errors="backslashreplace")


def _matplotlib_notes() -> None:
    """Show matplotlib's log messages of level WARNING and above (its font cache being built, a
    font not found) as ``note: matplotlib: ...`` lines, escaped like every message, instead of
    Python's raw last-resort output; left alone if the caller has set up that logger."""
    import logging

    logger = logging.getLogger("matplotlib")
    if logger.handlers:
        return

    class _Notes(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            with contextlib.suppress(Exception):
                print(f"note: matplotlib: {printable(record.getMessage())}", file=sys.stderr)

    logger.addHandler(_Notes(logging.WARNING))
    logger.propagate = False


def _print_leaderboards(report) -> None:
    """Each competition's leaderboard (the table of its ``leaderboard.md``) in the report's
    language, under a heading that names the metric, the interval and the rule behind groups and
    marks."""
    for comp in report.analysis.competitions:
        _print(report.to_text(comp.id, escape=printable), end="")


def _print_written(out: Path, paths: list[Path]) -> None:
    """One line per top-level file, one line per competition folder with its file count (control
    characters and undecodable bytes of a path escaped, as in every message)."""
    per_folder: dict[str, int] = {}
    for p in paths:
        rel = p.relative_to(out)
        if len(rel.parts) == 1:
            _print(printable(p))
        else:
            per_folder[rel.parts[0]] = per_folder.get(rel.parts[0], 0) + 1
    for folder, count in per_folder.items():
        _print(f"{printable(out / folder)}/ ({count} files)")


def cmd_report(args) -> int:
    """``compreport report``: analyse the INPUTs and write the report to ``--output``; print the
    files written and each competition's leaderboard (not with ``--quiet``); exit status 0."""
    _check_options(args)
    _report(args.inputs, args, args)
    return 0


def cmd_demo(args) -> int:
    """``compreport demo``: ``report`` on the bundled synthetic workshop; exit status 0."""
    _check_options(args)
    from compreport.resources import demo_workshop_dir

    _report([str(demo_workshop_dir())], args, None)
    return 0


def cmd_validate(args) -> int:
    """``compreport validate``: read the INPUTs and score every system without resampling.

    Prints every warning ``report`` would print (stderr) and, per competition, one ``ok:`` line,
    the teams it found (:func:`_teams_found`) and its point-score leaderboard (stdout); exit
    status 0.
    """
    import dataclasses

    loaded = _load(args.inputs, args)
    for comp in loaded.competitions:
        # one competition at a time: its warnings come right before its lines
        analysis = api.validate(dataclasses.replace(loaded, competitions=[comp]))
        scored = analysis.competition()
        names = [
            f"{ma.name}({', '.join(f'{k}={v}' for k, v in ma.params.items())})"
            if ma.params
            else ma.name
            for ma in scored.metrics
        ]
        clusters = (
            f" in {scored.clusters['clusters']} clusters "
            f"(column {printable(scored.clusters['column'])})"
            if scored.clusters
            else ""
        )
        m = len(scored.systems)
        _print(
            f"ok: {scored.id}: {scored.n} items{clusters}, {m} system{'s' if m != 1 else ''}, "
            f"metrics: {', '.join(names)}"
        )
        for line in _teams_found(scored):
            _print(line)
        for line in _point_leaderboard(analysis):
            _print(line)
    return 0


#: ``compreport validate`` wraps its lists of teams and baselines at this many characters.
LIST_WIDTH = 100


def _listed(head: str, items: list[str], width: int = LIST_WIDTH) -> list[str]:
    """``head`` followed by every one of ``items``, comma-separated, in lines of at most
    ``width`` characters where the items allow (an item is never split), the next lines
    indented by four spaces.

    >>> _listed("  2 teams:", ["Alpha (2 runs)", "beta"])
    ['  2 teams: Alpha (2 runs), beta']
    >>> _listed("  x:", ["aaaa", "bbbb", "cccc"], width=14)
    ['  x: aaaa,', '    bbbb, cccc']
    """
    lines, line = [], head
    for k, item in enumerate(items):
        piece = item + ("," if k < len(items) - 1 else "")
        if line != head and len(line) + 1 + len(piece) > width:
            lines.append(line)
            line = "    " + piece
        else:
            line += " " + piece
    return [*lines, line]


def _teams_found(comp) -> list[str]:
    """The teams and runs of ``comp`` as ``compreport report`` counts them
    (:func:`~compreport.report.plaintext.teams_line`); when the teams say more than the run names
    (:func:`~compreport.report.model.shows_teams`), every team follows, best first, each with
    its number of runs when it has several: ``2 teams, 3 runs: Alpha (2 runs), beta``; then,
    when there are baselines, a line naming every one. Long lists wrap (:func:`_listed`)."""
    from compreport.report.model import shows_teams
    from compreport.report.plaintext import teams_line

    line = "  " + teams_line(comp)
    if shows_teams(comp):
        lines = _listed(
            line + ":",
            [
                printable(t.team if len(t.runs) == 1 else f"{t.team} ({len(t.runs)} runs)")
                for t in comp.team_ranks
            ],
        )
    else:
        lines = [printable(line)]
    if comp.baselines:
        lines += _listed("  baselines:", [printable(b) for b in comp.baselines])
    return lines


def _point_leaderboard(analysis) -> list[str]:
    """The point scores of the one competition of ``analysis``, ranked by its primary metric: one
    line per system (rank, name, every metric's score, baseline and missing marks)."""
    comp = analysis.competition()
    boards = [analysis.leaderboard(metric=ma.name) for ma in comp.metrics]
    score = [dict(zip(board["system"], board["score"])) for board in boards]
    header = ["rank", "system", *(ma.label or ma.name for ma in comp.metrics), ""]
    rows = []
    for rank, system, baseline in boards[0][["rank", "system", "baseline"]].itertuples(index=False):
        marks = (["baseline"] if baseline else []) + (
            [f"{comp.missing[system]} missing"] if comp.missing.get(system) else []
        )
        rows.append(
            [
                str(rank),
                printable(system),
                *("undefined" if s[system] != s[system] else f"{s[system]:.4f}" for s in score),
                ", ".join(marks),
            ]
        )
    widths = [max(len(r[j]) for r in [header, *rows]) for j in range(len(header))]
    right = {0} | set(range(2, len(header) - 1))

    def fmt(row):
        return (
            "  "
            + "  ".join(
                c.rjust(w) if j in right else c.ljust(w)
                for j, (c, w) in enumerate(zip(row, widths, strict=True))
            ).rstrip()
        )

    return [fmt(header)] + [fmt(r) for r in rows]


def cmd_metrics(args) -> int:
    """``compreport metrics``: the metrics grouped by what they read, one line each (orientation,
    ideal value, description)."""
    metrics = api.metric_infos(command_line())
    width = max(len(m.name) for m in metrics)
    groups: dict[str, list] = {}
    for m in metrics:
        groups.setdefault(m.reads, []).append(m)
    for reads, members in groups.items():
        _print(f"{reads[0].upper()}{reads[1:]}:")
        for m in members:
            orient = "higher" if m.higher_is_better else "lower"
            ideal = "none" if m.ideal is None else f"{m.ideal:g}"
            _print(f"  {m.name:<{width}}  {orient} is better, ideal {ideal}  {m.description}")
    _print("Your own function:")
    _print(f"  {'FILE.py:FUNC':<{width}}  user metric: FUNC(y_true, y_pred) -> float, or per-item")
    _print(f"  {'':<{width}}  statistics (docs/metrics.md)")
    return 0


def cmd_init(args) -> int:
    """``compreport init DIR``: write a commented competition.toml and its folders, printing each
    path."""
    from compreport.scaffold import scaffold

    for path in scaffold(Path(args.directory), args.force):
        _print(printable(path))
    return 0


def cmd_plan(args) -> int:
    """``compreport plan``: analyse the INPUTs, size the next test set
    (:func:`compreport.plan`), write OUT/plan.json, plan.csv and the power curves, print the
    table; exit status 0."""
    from compreport.report.planning import plan_table, write_plan

    given = {}
    for name in ("bootstrap", "seed", "alpha"):
        value = getattr(args, name)
        if value is not None:
            given[name] = from_text(value, NUMERIC[name])
    given = validate(given, "cli")
    power, delta = from_text(args.power), None if args.delta is None else from_text(args.delta)
    draws = check_draws(from_text(args.draws, whole=True), "--draws")
    jobs = 1 if args.jobs is None else whole_number(from_text(args.jobs, whole=True), "--jobs", 1)
    check_plan_options(power, delta, draws)  # as the API checks them, before OUT is claimed
    out = Path(args.output)
    named = [
        *args.inputs,
        *([args.runs] if args.runs else []),
        *([args.names] if args.names else []),
    ]
    from compreport.output.staging import claim

    with claim(out, args.force, protect=named, runs=[args.runs] if args.runs else []) as target:
        loaded = _load(args.inputs, args, out)
        target.protect(loaded.files)
        plan = api.plan(
            loaded,
            power=power,
            delta=delta,
            alpha=given.get("alpha"),
            draws=draws,
            bootstrap=given.get("bootstrap"),
            seed=given.get("seed"),
            jobs=jobs,
            progress=False if args.quiet else None,
        )
        written = write_plan(plan, out, force=args.force, protect=loaded.files)
    if not args.quiet:
        _print_written(out, written)
        _print(plan_table(plan))
    return 0


COMMANDS = MappingProxyType(
    {
        "report": cmd_report,
        "demo": cmd_demo,
        "validate": cmd_validate,
        "init": cmd_init,
        "metrics": cmd_metrics,
        "plan": cmd_plan,
    }
)


def _show_warning(message, category, filename, lineno, file=None, line=None):
    """A warning as one line, in the command line's words, escaped and cut as messages are
    (:func:`_said`), whoever raised it."""
    if issubclass(category, Note):
        print(f"note: {_said(message)}", file=sys.stderr)
    elif issubclass(category, InputWarning):
        print(f"warning: {_said(message)}", file=sys.stderr)
    else:  # e.g. matplotlib's "Glyph 27 (\x1b) missing from font(s)" for a name holding ESC
        print(f"warning: {category.__name__}: {_said(message)}", file=sys.stderr)


def _said(message) -> str:
    """An error's or a warning's message as the command line prints it: the options it names in
    the command line's words (``--pos-label LABEL``), cut (:func:`~compreport.errors.worded`) and
    escaped for the terminal (:func:`~compreport.errors.printable`)."""
    return printable(worded(raw(message), command_line()))


def _on_sigterm(pid: int):
    """A SIGTERM handler that raises :class:`Terminated` in process ``pid`` (cleanup runs as for
    Ctrl-C); a forked worker dies of the signal as usual."""

    def handler(signum, frame):
        if os.getpid() != pid:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)
            return
        interrupts.request(Terminated)  # raised again at the next checkpoint if this one is lost
        if not interrupts.deferring():  # else at the end of the deferred block
            raise Terminated()

    return handler


def _on_sigint(signum, frame):
    """Ctrl-C: ``KeyboardInterrupt``, recorded for the checkpoints
    (:mod:`compreport.interrupts`)."""
    interrupts.request(KeyboardInterrupt)
    if not interrupts.deferring():  # else at the end of the deferred block
        raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    """Run the command line.

    Parameters
    ----------
    argv : list of str, optional
        The arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        Exit status: 0 on success; 2 for an input, option or output error, or any other OS error
        (one ``error:`` line on stderr); 130 when interrupted (Ctrl-C); 143 on SIGTERM.
    """
    _escape_unencodable()
    args = build_parser().parse_args(argv)
    warnings.showwarning = _show_warning
    _matplotlib_notes()
    try:
        previous = signal.signal(signal.SIGTERM, _on_sigterm(os.getpid()))
        previous_int = signal.signal(signal.SIGINT, _on_sigint)
    except ValueError:  # not the main thread: leave the signals alone
        previous = previous_int = None
    interrupts.clear()
    try:
        status = COMMANDS[args.command](args)
        _flush_stdout()  # a pipe's reader that has gone is no error (:func:`_print`)
        return status
    except InputError as exc:
        print(f"error: {_said(exc)}", file=sys.stderr)
        return 2
    except OSError as exc:  # an OS failure no stage turned into an InputError
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"error: {printable(where)}{printable(os_reason(exc))}", file=sys.stderr)
        return 2
    except MemoryError as exc:  # more than the memory check foresaw
        print(
            f"error: out of memory{f' ({printable(exc)})' if str(exc) else ''}; "
            f"use fewer resamples (-B), --jobs 1, or a machine with more memory",
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except Terminated:
        print("error: terminated (SIGTERM)", file=sys.stderr)
        return 143
    finally:
        interrupts.clear()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
            signal.signal(signal.SIGINT, previous_int)


def run() -> None:
    """The ``compreport`` command: :func:`main`, then exit with its status.

    SIGINT and SIGTERM are handled until the process ends. The exit status is decided once
    :func:`main` has returned (the report written, everything printed) and stdout and stderr are
    flushed. A signal before that ends the run with status 130 or 143 and its one ``error:`` line
    (with the output as it stood: the previous one, or the new one complete); from then on both
    signals are ignored and the process ends with the status decided. The interpreter's shutdown
    would otherwise give them their default action part-way and end the process silently. After an
    interruption the process ends at once, without that shutdown.
    """
    try:
        status = main()
    except KeyboardInterrupt:  # a signal in main's last lines, before its handlers were restored
        print("error: interrupted", file=sys.stderr)
        status = 130
    except Terminated:
        print("error: terminated (SIGTERM)", file=sys.stderr)
        status = 143
    _flush_stdout()
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.flush()
    # the exit decision
    with contextlib.suppress(ValueError):  # not the main thread: leave the signals alone
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if status in (130, 143):
        os._exit(status)
    sys.exit(status)


if __name__ == "__main__":  # pragma: no cover
    run()
