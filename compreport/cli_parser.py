"""The command line's options: the argparse parser of ``compreport COMMAND``.

The commands are ``report``, ``demo``, ``validate``, ``init`` and ``metrics``. Values are parsed
and checked in :mod:`compreport.cli` (one ``error:`` line each); the parser itself turns every
argparse error into one such line too (:class:`_Parser`).
"""

from __future__ import annotations

import argparse
import sys

from compreport._version import __version__
from compreport.errors import printable
from compreport.language import vocabulary as vocab
from compreport.report import FORMATS
from compreport.report.figures import FIGURE_FORMATS
from compreport.report.latex.layout import OPTIONAL_COLUMNS, STYLES
from compreport.settings import Settings

LATEX_STYLES = tuple(STYLES)  # report.latex.layout is light (no jinja2, fonts read on first use)
#: Settings field -> attribute of the parsed arguments.
SETTING_OPTIONS = {
    "bootstrap": "bootstrap",
    "seed": "seed",
    "alpha": "alpha",
    "ci_method": "ci",
    "test": "test",
    "family": "family",
    "correction": "correction",
    "include_baselines": "include_baselines",
    "refine": "refine",
    "paper": "paper",
}
_DEFAULT = Settings()


def comma_list(values: list[str] | None) -> list[str]:
    """The items of comma-list option values, in order, blanks dropped.

    >>> comma_list(["json, html", "pdf,"])
    ['json', 'html', 'pdf']
    """
    out: list[str] = []
    for v in values or []:
        out += [x.strip() for x in v.split(",") if x.strip()]
    return out


def _add_input_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("reading inputs")
    g.add_argument(
        "--metric",
        action="append",
        metavar="NAME",
        help="metric (repeatable or comma list; the first ranks systems); overrides specs",
    )
    g.add_argument(
        "--pos-label", metavar="LABEL", help="positive class of f1/precision/recall/roc_auc"
    )
    g.add_argument(
        "--labels", metavar="A,B", help="classes averaged over by macro/micro/weighted metrics"
    )
    g.add_argument("--gold", metavar="NAME", help="gold column of a wide table (default: y)")
    g.add_argument(
        "--id", metavar="NAME", help="id column (wide table: optional; gold file: default id)"
    )
    g.add_argument(
        "--runs",
        metavar="DIR_OR_GLOB",
        help="run files (a folder, its subfolders one per team, or a "
        "glob); INPUT is then the gold file",
    )
    g.add_argument(
        "--sep",
        metavar="SEP",
        help="field separator of gold and run files: auto (default: per file, tab "
        "or comma when every line has one, else runs of blanks), tab, comma, whitespace",
    )
    g.add_argument(
        "--id-col",
        metavar="COL",
        help="id column of gold and run files: a 1-based position or a header name (JSON: a key)",
    )
    g.add_argument(
        "--label-col",
        metavar="COL",
        help="label column(s) of gold and run files: a position or a header "
        "name (JSON: a key); a comma list for several fields",
    )
    g.add_argument(
        "--cluster-col",
        "--query-col",
        dest="cluster_col",
        metavar="COL",
        help="column of the gold file (or wide table) naming each item's cluster (question, "
        "document, author) or query: clusters are resampled whole (cluster bootstrap); ranking "
        "metrics (map, mrr, p@K, ndcg@K) rank within each; a 1-based position or a header name",
    )
    g.add_argument(
        "--score-col",
        metavar="COL",
        help="score column of the run files (ranking metrics): a 1-based position or a header name",
    )
    g.add_argument(
        "--unjudged",
        action="store_true",
        default=None,
        help="candidates that runs list and the gold "
        "does not (unjudged documents) become items that are not relevant, in their query (needs "
        "--query-col; ranking metrics); a query the gold does not name is left out for every "
        "run, as trec_eval does",
    )
    g.add_argument(
        "--ties",
        metavar="ORDER",
        help="how ranking metrics order candidates of equal score: id (default: by decreasing id, "
        "as trec_eval) or file (in the run file's order, as the SemEval-2016 Task 3 scorer)",
    )
    g.add_argument(
        "--no-comments",
        action="store_true",
        help="read lines starting with '#' as data (default: they are comments)",
    )
    g.add_argument(
        "--keep-spaces",
        action="store_true",
        default=None,
        help="labels of tab- and comma-separated gold and run files keep their surrounding "
        "spaces (default: every cell is stripped; ids always are)",
    )
    g.add_argument(
        "--multi-label",
        metavar="SEP",
        help="label sets per item: SEP splits each label cell into a set ('|': a|b), or "
        "'columns': the --label-col columns are one 0/1 column per label "
        "(docs/tasks/multi-label.md)",
    )
    heads = g.add_mutually_exclusive_group()
    heads.add_argument(
        "--header",
        dest="header",
        action="store_const",
        const=True,
        default=None,
        help="the first line of the gold and of every text run is a header (default: decided "
        "per file, see docs/inputs.md, Headers)",
    )
    heads.add_argument(
        "--no-header",
        dest="header",
        action="store_const",
        const=False,
        help="the first line of the gold and of every text run is an item",
    )
    g.add_argument("--zip-member", metavar="NAME", help="the prediction file inside every .zip run")
    g.add_argument(
        "--phase",
        metavar="N",
        help="the phase id to read from a Codabench bulk download (--runs bulk_submissions.zip); "
        "needed when it holds several",
    )
    g.add_argument(
        "--submissions",
        metavar="WHICH",
        help="of a Codabench bulk download: all (default; runs OWNER.1, OWNER.2, ...) or last "
        "(the highest submission id of each owner)",
    )
    g.add_argument(
        "--name",
        metavar="TEXT",
        help="the competition's name (titles, captions; its id, folder and random streams) when "
        "it is read from a table or a gold file (default: the file's stem, or its folder's name "
        "when the stem says only what the file holds: gold, truth, test, labels...); a spec "
        "gives its own `name`",
    )
    g.add_argument(
        "--names",
        metavar="FILE",
        help="names file: CSV/TSV with columns run, name, team, baseline, "
        "exclude; or XML, one element per run",
    )
    g.add_argument(
        "--exclude",
        action="append",
        metavar="GLOB",
        help="leave out run files matching GLOB (repeatable)",
    )
    g.add_argument(
        "--baseline",
        action="append",
        metavar="GLOB",
        help="runs whose name, file name or path in the runs folder matches GLOB are baselines: "
        "compared, never ranked among the teams (repeatable; a wide table: its column headers); "
        "a GLOB that matches no run is an error",
    )
    g.add_argument(
        "--missing",
        metavar="POLICY",
        help="a blank, absent or unreadable prediction: error (default) or "
        "wrong (scored as a wrong answer)",
    )
    g.add_argument(
        "--extra-lines",
        metavar="POLICY",
        help="a run without ids that has more lines than the gold has items: error (default) or "
        "drop (scored on its first lines, one per gold item, as official scorers that read "
        "line by line do; a warning names the run and the count)",
    )
    g.add_argument(
        "--bio",
        metavar="SCHEME",
        help="CoNLL tags: iob2 (default; an I- that starts a mention is an error) or iob1 (it "
        "starts one, as conlleval and seqeval's default mode read it)",
    )


def _add_stats_options(p: argparse.ArgumentParser) -> None:
    # No argparse type= or choices=: every value is checked by compreport.settings.validate, which
    # gives one `error:` line (exit 2) in the words of the command line.
    d = _DEFAULT
    g = p.add_argument_group("statistics")
    g.add_argument(
        "-B",
        "--bootstrap",
        metavar="N",
        help=f"bootstrap replicates, a whole number >= 0 (default {d.bootstrap}; 0: scores only)",
    )
    g.add_argument(
        "--seed",
        metavar="N",
        help=f"seed of the resampling plan, a whole number >= 0 (default {d.seed}, recorded)",
    )
    g.add_argument(
        "--alpha",
        metavar="A",
        help=f"significance level in [1e-9, 1); CIs at 1-alpha (default {d.alpha})",
    )
    g.add_argument(
        "--ci",
        metavar="METHOD",
        help=f"interval method for systems and differences: "
        f"{', '.join(vocab.CI_METHODS)} (default {d.ci_method})",
    )
    g.add_argument(
        "--test",
        metavar="TEST",
        help=f"where p-values come from: {', '.join(vocab.TESTS)} "
        f"(default {d.test}, two-sided; berg-kirkpatrick is the paper's one-sided test)",
    )
    g.add_argument(
        "--family",
        metavar="FAMILY",
        help=f"correction family of the pairwise comparisons: {', '.join(vocab.FAMILIES)} "
        f"(default {d.family}); vs-best states only the comparisons of the winner with the other "
        f"competitors, corrected over all pairs since the winner is chosen on the same data; "
        f"vs-baseline tests only each participant against each baseline (every competition "
        f"needs one); per-row bounds no family-wise error rate",
    )
    g.add_argument(
        "--correction",
        metavar="NAME",
        help=f"correction behind every verdict: "
        f"{', '.join(vocab.CORRECTIONS)} (default {d.correction} under the bootstrap test, "
        f"holm under the others)",
    )
    g.add_argument(
        "--include-baselines",
        action="store_true",
        default=None,
        help="let baselines compete: by default they are compared and grouped, but the winner, the "
        "comparisons with the winner and the competitiveness figures are over participants only",
    )
    g.add_argument(
        "--paper",
        action="store_true",
        default=None,
        help="the paper's settings in one switch (Nava-Muñoz et al., Tables 7-11): --test "
        "berg-kirkpatrick (one-sided), --family per-row, --include-baselines, --correction "
        "bonferroni, --refine off; an option that contradicts them is an error",
    )
    g.add_argument(
        "--refine",
        metavar="on|off",
        help="on: re-estimate p-values from more resamples (up to 16 x B) while a verdict is "
        "within their Monte-Carlo error of the threshold (1.7-9.4 x the run where measured); off "
        "(default): every p-value from B resamples, a verdict within that error reported as "
        "undecided",
    )
    g.add_argument(
        "--jobs",
        metavar="N",
        default=None,
        help="worker processes (default: every core): competitions are analysed, figures and PDF "
        "documents drawn, N at once; a single competition's per-resample metrics use N only when "
        "given; the files do not depend on N",
    )
    g.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        help="analyse on a dask.distributed cluster (pip install 'compreport[dask]'): the address "
        "of its scheduler (tcp://host:8786), or 'local' for a cluster of --jobs worker processes "
        "on this machine; its tasks are the competitions, or a single competition's blocks of "
        "resamples; the numbers do not depend on it",
    )


def _add_output_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("output")
    g.add_argument("-o", "--output", required=True, metavar="OUT", help="output directory")
    g.add_argument(
        "--force",
        action="store_true",
        help="replace an earlier report in OUT: only the files its manifest "
        "(OUT/.compreport.json) lists",
    )
    g.add_argument(
        "--format",
        metavar="LIST",
        help=f"comma list of {', '.join(FORMATS)} (default: all; json always)",
    )
    g.add_argument(
        "--latex-style",
        metavar="STYLE",
        default="ceurart",
        help="the class the LaTeX tables go into: "
        + "; ".join(f"{k}: {v.title}" for k, v in STYLES.items())
        + " (default ceurart)",
    )
    g.add_argument(
        "--label-prefix",
        metavar="PREFIX",
        help="prefix of every LaTeX label (tab:PREFIX:...), so several outputs can share one paper "
        "(default: the workshop name as a slug, else the competition id)",
    )
    g.add_argument(
        "--latex-columns",
        metavar="LIST",
        default=",".join(OPTIONAL_COLUMNS),
        help="optional columns of the LaTeX leaderboard and teams' ranking, comma list of "
        f"{', '.join(OPTIONAL_COLUMNS)}, or none (default: all; one that would split a table "
        "is left out, and the file says so)",
    )
    g.add_argument(
        "--decimal-comma",
        action="store_true",
        help="numbers with a decimal comma in the LaTeX, HTML, PDF, figures and e-mails "
        "(tables, captions, prose, letters; intervals as [0,62; 0,75]); results.json, CSV and "
        "Markdown keep the point. Not implied by --lang es",
    )
    g.add_argument(
        "--lang",
        default="en",
        metavar="LANG",
        help="language of every caption, sentence, heading, figure, team letter and email body: "
        "en or es (default en; file names, CSV columns and results.json stay English)",
    )
    g.add_argument(
        "--decimals", default=4, metavar="N", help="decimals of scores and CIs, 0-10 (default 4)"
    )
    g.add_argument(
        "--diff-decimals", default=3, metavar="N", help="decimals of differences, 0-10 (default 3)"
    )
    g.add_argument(
        "--figure-formats",
        metavar="LIST",
        default="pdf,svg",
        help=f"figure files to write: comma list of {', '.join(FIGURE_FORMATS)} (default pdf,svg)",
    )
    g.add_argument(
        "--no-compile", action="store_true", help="write appendix.tex without running latexmk"
    )
    g.add_argument(
        "--emails",
        metavar="FILE",
        help="CSV/TSV of team, address[, language]: write OUT/emails/<team>.eml with the team's "
        "letters attached (needs the pdf format; nothing is sent)",
    )
    g.add_argument(
        "--email-from",
        metavar="ADDRESS",
        help="the From of every email, e.g. 'Org <org@example.org>' (default: none; the mail "
        "client fills in its account)",
    )
    g.add_argument(
        "--reply-to",
        metavar="ADDRESS",
        help="the Reply-To of every email: one or more addresses, separated by commas",
    )
    talk = g.add_mutually_exclusive_group()
    talk.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="print nothing on stdout and no progress bar (warnings and errors still go to stderr)",
    )
    talk.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="also say on stderr what each stage did and how long it took",
    )


class _Parser(argparse.ArgumentParser):
    """An argument parser whose every error (unknown option, missing value or option) is one
    ``error:`` line on stderr and exit status 2, without the usage block.

    Options are not taken from a prefix (``--name`` is not ``--names``): a new option never
    changes what a script meant.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **{"allow_abbrev": False, **kwargs})

    def error(self, message):
        """Print ``error: MESSAGE (see PROG --help)`` and exit with status 2."""
        hint = f"see {self.prog} --help"
        if message.endswith("expected one argument"):  # -B -1e4: argparse takes -1e4 for an option
            option = message.removeprefix("argument ").split("/")[0].split(":")[0]
            hint = f"a value that starts with '-' is joined with '=': {option}=VALUE; {hint}"
        self.exit(2, f"error: {printable(message)} ({hint})\n")


class _Citation(argparse.Action):
    """``--citation``: print the BibTeX of compreport and of the works its default methods cite
    (:func:`compreport.report.references.citation`) and exit, as ``--version`` does."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, **kw):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, **kw)

    def __call__(self, parser, namespace, values, option_string=None):
        from compreport.report.references import citation

        parser._print_message(citation(), sys.stdout)  # stdout, as argparse's --version
        parser.exit(0)


def build_parser() -> argparse.ArgumentParser:
    """The ``compreport`` argument parser, one sub-command per entry of
    :data:`compreport.cli.COMMANDS`."""
    parser = _Parser(
        prog="compreport", description="Paired-bootstrap analysis and reports for NLP shared tasks."
    )
    parser.add_argument("--version", action="version", version=f"compreport {__version__}")
    parser.add_argument(
        "--citation",
        action=_Citation,
        help="print the BibTeX of compreport, its method paper and the methods the defaults use",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("report", help="analyse competitions and write the report")
    p.add_argument(
        "inputs",
        nargs="+",
        metavar="INPUT",
        help="wide CSV/TSV, gold file (with --runs), competition.toml, workshop.toml or a "
        "directory",
    )
    _add_input_options(p)
    _add_stats_options(p)
    _add_output_options(p)

    p = sub.add_parser("demo", help="report on the bundled synthetic workshop")
    _add_stats_options(p)
    _add_output_options(p)

    p = sub.add_parser("validate", help="check inputs without running the bootstrap")
    p.add_argument("inputs", nargs="+", metavar="INPUT")
    _add_input_options(p)

    p = sub.add_parser("init", help="scaffold a commented competition.toml and its folders")
    p.add_argument("directory", metavar="DIR")
    p.add_argument(
        "--force",
        action="store_true",
        help="replace an existing competition.toml (yours is kept as competition.toml.bak)",
    )

    sub.add_parser("metrics", help="list the metrics")

    p = sub.add_parser(
        "plan",
        help="size next year's test set: detectable differences now, items a difference needs",
    )
    p.add_argument("inputs", nargs="+", metavar="INPUT")
    _add_input_options(p)
    g = p.add_argument_group("planning")
    g.add_argument(
        "-B",
        "--bootstrap",
        metavar="N",
        help=f"bootstrap replicates of the analysis (default {_DEFAULT.bootstrap})",
    )
    g.add_argument("--seed", metavar="N", help=f"seed (default {_DEFAULT.seed}, recorded)")
    g.add_argument(
        "--alpha",
        metavar="A",
        help=f"two-sided level of one comparison, in [1e-9, 1) (default {_DEFAULT.alpha})",
    )
    g.add_argument(
        "--power", metavar="P", default="0.8", help="power to reach, in (0, 1) (default 0.8)"
    )
    g.add_argument(
        "--delta",
        metavar="D",
        help="the difference to detect, in the metric's units, >= 1e-9 (default: each pair's "
        "observed one)",
    )
    g.add_argument(
        "--draws",
        metavar="N",
        default="1000",
        help="resamples behind each power estimate, 100 to 100000 (default 1000)",
    )
    g.add_argument("--jobs", metavar="N", default=None, help="worker processes of the analysis")
    g.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        default="plan",
        help="output folder for plan.json, plan.csv and the power curves (default plan)",
    )
    g.add_argument("--force", action="store_true", help="replace an earlier plan in OUT")
    g.add_argument("-q", "--quiet", action="store_true", help="print nothing but errors")
    return parser
