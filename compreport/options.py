"""Every option of compreport, declared once: :data:`SCHEMA`.

Each :class:`Option` entry gives an option's name, type, default, allowed values, help text and,
beside them, how each caller spells it: the command-line flag(s), the keyword of
:func:`compreport.load` / :func:`compreport.analyze` / :class:`compreport.Report`, and the key of
a ``competition.toml`` / ``workshop.toml``. From this table come

- the argparse groups of ``compreport report|demo|validate|plan`` (:mod:`compreport.cli_parser`),
- how an error names an option for the command line or for Python
  (:func:`words`, :data:`compreport.settings.SPELLING`),
- the ``[bootstrap]`` keys of a spec and the Settings field each sets
  (:mod:`compreport.inputs.specmodels`),
- the defaults of :class:`compreport.settings.Settings` and of :func:`compreport.load`'s
  keywords (a test holds ``load``'s signature to the schema),
- the keywords :mod:`compreport.cli` passes to :func:`compreport.load`,
- and the "Options" tables of docs/getting-started.md (:func:`markdown_table`; a test compares).

This module imports nothing of compreport: every other layer may read it.

>>> OPTIONS["alpha"].default, OPTIONS["alpha"].flags, OPTIONS["alpha"].spec
(0.05, ('--alpha',), '[bootstrap] alpha')
>>> OPTIONS["cluster_col"].api, OPTIONS["cluster_col"].spec
('cluster_col', '[data] cluster')
>>> default_correction("randomization")
'holm'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

#: Option groups: the ``--help`` section each is listed in.
READING, STATISTICS, OUTPUT, PLANNING = "reading inputs", "statistics", "output", "planning"

#: Allowed values of the options that take one of a list (the first: the default where one is).
SEPARATORS = ("auto", "tab", "comma", "whitespace")
MISSING_POLICIES = ("error", "wrong")
EXTRA_LINES = ("error", "drop")
#: ``--bio`` values: how CoNLL tags are read (:mod:`compreport.inputs.mentions`): IOB2, where an
#: ``I-`` that starts a mention is an error, or IOB1, where it starts one (conlleval, seqeval's
#: default mode).
BIO_SCHEMES = ("iob2", "iob1")
SUBMISSIONS = ("all", "last")
TIES = ("id", "file")
CI_METHODS = ("percentile", "bca", "normal")
TESTS = ("bootstrap", "berg-kirkpatrick", "randomization")
FAMILIES = ("all-pairs", "per-row", "vs-best", "vs-baseline")
CORRECTIONS = ("none", "bonferroni", "holm", "bh", "maxt")
LANGUAGES = ("en", "es")
#: ``--latex-columns`` values: the optional columns of the LaTeX leaderboard and teams' ranking,
#: in the order they are left out when a table would split
#: (:data:`compreport.report.latex.layout.OPTIONAL_COLUMNS`).
LATEX_COLUMNS = ("rank_set", "ci", "marks", "team", "group")


def default_correction(test: str) -> str:
    """The correction used when none is given: ``maxt`` under the ``bootstrap`` test, else
    ``holm`` (max-T resamples the bootstrap's studentized differences). The one place this
    default is decided: :class:`~compreport.settings.Settings`, :func:`compreport.analyze`, a
    spec and ``--help`` all ask here.

    >>> default_correction("bootstrap")
    'maxt'
    """
    return "maxt" if test == "bootstrap" else "holm"


@dataclass(frozen=True)
class Option:
    """One option, as every caller spells it.

    Attributes
    ----------
    name : str
        Its id: the argparse destination and how code names it in a message
        (``errors.option(name, value)``).
    flags : tuple of str
        Command-line flags; the first names the option in messages (``-B``).
    group : str
        :data:`READING`, :data:`STATISTICS`, :data:`OUTPUT` or :data:`PLANNING`: the ``--help``
        section and the commands that take it.
    help : str
        The ``--help`` text (``{formats}``-style fields are filled by the parser builder).
    type : str
        ``int``, ``float``, ``str``, ``bool``, ``column(s)`` or ``list``; command-line text of an
        ``int``/``float`` setting is read as a number (:func:`compreport.settings.from_text`).
    default : object
        The value when no caller gives one (None: none, or decided from other options).
    choices : tuple of str
        The allowed values, when the option takes one of a list.
    unit : str
        What a number counts (``resamples``, ``decimals``), for the docs.
    metavar : str, optional
        The value's placeholder in ``--help``.
    api : str or None
        The Python keyword (of :func:`compreport.load`, :func:`compreport.analyze` or
        :class:`compreport.Report`); None: none.
    setting : str or None
        The :class:`~compreport.settings.Settings` field a statistics option sets.
    spec : str or None
        The key of a spec that gives the same value (``[bootstrap] resamples``).
    shape : str
        How a Python value is written in a message (``{!r}``: quoted; ``{}``: as is).
    action, const, dest, cli_default, required, exclusive :
        How argparse reads it: ``store_true``/``append``/``store_const``, the constant, the
        destination when it is not the flag's, the value stored when the flag is absent (None:
        "not given", so a spec's value applies), required, and the key of a mutually exclusive
        group.
    doc : str or None
        The row of the docs' options table (Markdown), when shorter than ``help``.
    spec_also : tuple of str
        Other spec keys that give the same value (``[data] query_col``).
    plain : bool
        A reading option whose value is the caller's, else the spec's ``[data]`` key of the same
        name, else ``default`` (:func:`compreport.inputs.spec.plain_reading`); ``blank``: empty
        text counts as not given.
    runs_only : bool
        An option of gold and run files that a wide table refuses.
    runs_key : bool
        A ``[data.runs]`` key of the same name as its ``[data]`` key gives the runs' own value
        (their id or label column, where it differs from the gold's).
    reads : str or None
        The field of :class:`compreport.inputs.parsed.ReadOptions` a reading option sets: what
        the file readers receive, resolved (``id_column``, ``member``); None: not one of theirs.
    """

    name: str
    flags: tuple[str, ...]
    group: str
    help: str
    type: str = "str"
    default: Any = None
    choices: tuple[str, ...] = ()
    unit: str = ""
    metavar: str | None = None
    api: str | None = None
    setting: str | None = None
    spec: str | None = None
    shape: str = "{!r}"
    action: str | None = None
    const: Any = None
    dest: str | None = None
    cli_default: Any = None
    required: bool = False
    exclusive: str | None = None
    doc: str | None = None
    spec_also: tuple[str, ...] = ()
    plain: bool = False
    blank: bool = False
    runs_only: bool = False
    runs_key: bool = False
    reads: str | None = None

    def argparse_kwargs(self, fill: dict | None = None) -> dict:
        """The keywords of ``ArgumentParser.add_argument`` for this option."""
        kw: dict[str, Any] = {"help": self.help.format(**fill) if fill else self.help}
        if self.action:
            kw["action"] = self.action
        if self.action == "store_const":
            kw["const"] = self.const
        if self.dest:
            kw["dest"] = self.dest
        if self.metavar:
            kw["metavar"] = self.metavar
        if self.action == "store_true" or self.cli_default is not None:
            kw["default"] = self.cli_default
        if self.required:
            kw["required"] = True
        return kw


def _o(name: str, flags, group: str, help: str, **kw) -> Option:
    """An :class:`Option` whose Python keyword is its name unless given."""
    kw.setdefault("api", name)
    return Option(name, tuple(flags), group, help, **kw)


_CHOICE = ", ".join
#: Defaults of the statistics settings (:class:`compreport.settings.Settings`).
_B, _SEED, _ALPHA = 10000, 0, 0.05

#: Every option, in ``--help`` order within each group.
SCHEMA: tuple[Option, ...] = (
    # ------------------------------------------------------------------ reading inputs
    _o(
        "metric",
        ["--metric"],
        READING,
        "metric (repeatable or comma list; the first ranks systems); overrides specs",
        type="list",
        action="append",
        metavar="NAME",
        api="metrics",
        spec="[[metrics]] name",
        shape="[{}]",
        doc="metric, repeatable or a comma list; the first ranks the systems; overrides the specs",
    ),
    _o(
        "pos_label",
        ["--pos-label"],
        READING,
        "positive class of f1/precision/recall/roc_auc",
        metavar="LABEL",
        shape="{}",
        doc="positive class of `f1`/`precision`/`recall`/`roc_auc`",
    ),
    _o(
        "labels",
        ["--labels"],
        READING,
        "classes averaged over by macro/micro/weighted metrics",
        type="list",
        metavar="A,B",
        shape="{}",
    ),
    _o(
        "gold",
        ["--gold"],
        READING,
        "gold column of a wide table (default: y)",
        default="y",
        metavar="NAME",
        spec="[data] gold_column",
        shape="{}",
        doc="gold column of a wide table (default `y`)",
    ),
    _o(
        "id",
        ["--id"],
        READING,
        "id column (wide table: optional; gold file: default id)",
        metavar="NAME",
        spec="[data] id_column",
        shape="{}",
        doc="id column (wide table: optional; gold file: default `id`)",
    ),
    _o(
        "runs",
        ["--runs"],
        READING,
        "run files (a folder, its subfolders one per team, or a glob); INPUT is then the gold file",
        metavar="DIR_OR_GLOB",
        spec="[data] runs",
        shape="{}",
    ),
    _o(
        "sep",
        ["--sep"],
        READING,
        "field separator of gold and run files: auto (default: per file, tab or comma when "
        "every line has one, else runs of blanks), tab, comma, whitespace",
        default="auto",
        choices=SEPARATORS,
        metavar="SEP",
        spec="[data] sep",
        doc="field separator: `auto` (default), `tab`, `comma`, `whitespace`",
        plain=True,
        blank=True,
        reads="sep",
    ),
    _o(
        "id_col",
        ["--id-col"],
        READING,
        "id column of gold and run files: a 1-based position or a header name (JSON: a key)",
        type="column",
        metavar="COL",
        spec="[data] id_col",
        doc="id column: a 1-based position or a header name (JSON: a key)",
        reads="id_column",
        runs_key=True,
    ),
    _o(
        "label_col",
        ["--label-col"],
        READING,
        "label column(s) of gold and run files: a position or a header name (JSON: a key); a "
        "comma list for several fields",
        type="columns",
        metavar="COL",
        spec="[data] label_col",
        doc="label column(s): a 1-based position or a header name (JSON: a key); a comma list "
        "for several fields",
        runs_only=True,
        reads="label_columns",
        runs_key=True,
    ),
    _o(
        "cluster_col",
        ["--cluster-col", "--query-col"],
        READING,
        "column of the gold file (or wide table) naming each item's cluster (question, "
        "document, author) or query: clusters are resampled whole (cluster bootstrap); ranking "
        "metrics (map, mrr, p@K, ndcg@K) rank within each; a 1-based position or a header name",
        type="column",
        metavar="COL",
        dest="cluster_col",
        spec="[data] cluster",
        spec_also=("[data] query_col",),
        doc="the gold's column naming each item's cluster or query: the cluster bootstrap, and "
        "ranking metrics (`[data] cluster` or `query_col`)",
        reads="cluster_column",
    ),
    _o(
        "score_col",
        ["--score-col"],
        READING,
        "score column of the run files (ranking metrics): a 1-based position or a header name",
        type="column",
        metavar="COL",
        spec="[data] score_col",
        doc="score column of the run files (ranking metrics)",
    ),
    _o(
        "unjudged",
        ["--unjudged"],
        READING,
        "candidates that runs list and the gold does not (unjudged documents) become items that "
        "are not relevant, in their query (needs --query-col; ranking metrics); a query the gold "
        "does not name is left out for every run, as trec_eval does",
        type="bool",
        default=False,
        action="store_true",
        spec="[data] unjudged",
        shape="{}",
        doc="candidates runs list and the gold does not become non-relevant items (ranking "
        "metrics)",
        plain=True,
        reads="unjudged",
    ),
    _o(
        "ties",
        ["--ties"],
        READING,
        "how ranking metrics order candidates of equal score: id (default: by decreasing id, as "
        "trec_eval) or file (in the run file's order, as the SemEval-2016 Task 3 scorer)",
        default="id",
        choices=TIES,
        metavar="ORDER",
        doc="ranking metrics, candidates of equal score: `id` (default, trec_eval's decreasing "
        "id) or `file` (the run's order, as the SemEval-2016 Task 3 scorer)",
    ),
    _o(
        "no_comments",
        ["--no-comments"],
        READING,
        "read lines starting with '#' as data (default: they are comments)",
        type="bool",
        default=True,  # of `comments` (the flag --no-comments sets it False)
        action="store_true",
        cli_default=False,
        api="comments",
        spec="[data] comments",
        shape="False",
        doc="read lines starting with `#` as data (Python: `comments=False`)",
        plain=True,
        reads="comments",
    ),
    _o(
        "keep_spaces",
        ["--keep-spaces"],
        READING,
        "labels of tab- and comma-separated gold and run files keep their surrounding spaces "
        "(default: every cell is stripped; ids always are)",
        type="bool",
        default=False,
        action="store_true",
        spec="[data] keep_spaces",
        shape="{}",
        doc="labels of tab- and comma-separated files keep their surrounding spaces",
        plain=True,
        reads="keep_spaces",
    ),
    _o(
        "multi_label",
        ["--multi-label"],
        READING,
        "label sets per item: SEP splits each label cell into a set ('|': a|b), or 'columns': "
        "the --label-col columns are one 0/1 column per label (docs/tasks/multi-label.md)",
        metavar="SEP",
        spec="[data] multi_label",
        doc="label sets per item: SEP splits each label cell (`a\\|b`), or `columns`: one 0/1 "
        "column per label ([Multi-label](tasks/multi-label.md))",
        plain=True,
        runs_only=True,
        reads="multi_label",
    ),
    _o(
        "header",
        ["--header"],
        READING,
        "the first line of the gold and of every text run is a header (default: decided per "
        "file, see docs/inputs.md, Headers)",
        type="bool",
        action="store_const",
        const=True,
        dest="header",
        exclusive="header",
        spec="[data] header",
        shape="True",
        doc="the first line of the gold and of every text run is a header (default: decided per "
        "file; Python: `header=True`)",
        plain=True,
        reads="header",
    ),
    _o(
        "no_header",
        ["--no-header"],
        READING,
        "the first line of the gold and of every text run is an item",
        type="bool",
        action="store_const",
        const=False,
        dest="header",
        exclusive="header",
        api="header",
        spec="[data] header",
        shape="False",
        doc="the first line of the gold and of every text run is an item (Python: `header=False`)",
        plain=True,
        reads="header",
    ),
    _o(
        "zip_member",
        ["--zip-member"],
        READING,
        "the prediction file inside every .zip run",
        metavar="NAME",
        spec="[data] zip_member",
        doc="the prediction file inside every `.zip` run",
        plain=True,
        blank=True,
        runs_only=True,
        reads="member",
    ),
    _o(
        "phase",
        ["--phase"],
        READING,
        "the phase id to read from a Codabench bulk download (--runs bulk_submissions.zip); "
        "needed when it holds several",
        type="int",
        metavar="N",
        spec="[data] phase",
        shape="{}",
        doc="a Codabench `bulk_submissions.zip` as `--runs`: the phase to read "
        "([Inputs](inputs.md#codabench-bulk-downloads))",
        plain=True,
        runs_only=True,
        reads="phase",
    ),
    _o(
        "submissions",
        ["--submissions"],
        READING,
        "of a Codabench bulk download: all (default; runs OWNER.1, OWNER.2, ...) or last (the "
        "highest submission id of each owner)",
        default=None,  # every submission, as "all"
        choices=SUBMISSIONS,
        metavar="WHICH",
        spec="[data] submissions",
        doc="of a Codabench bulk download: every submission (`all`, default) or each owner's "
        "`last`",
        plain=True,
        blank=True,
        runs_only=True,
        reads="submissions",
    ),
    _o(
        "name",
        ["--name"],
        READING,
        "the competition's name (titles, captions; its id, folder and random streams) when it "
        "is read from a table or a gold file (default: the file's stem, or its folder's name "
        "when the stem says only what the file holds: gold, truth, test, labels...); a spec "
        "gives its own `name`",
        metavar="TEXT",
        spec="name",
        doc="the competition's name when read from a table or a gold file (default: the file's "
        "stem, or its folder's name when the stem is generic: `truth`, `gold`, `test`)",
    ),
    _o(
        "names",
        ["--names"],
        READING,
        "names file: CSV/TSV with columns run, name, team, baseline, exclude; or XML, one "
        "element per run",
        metavar="FILE",
        spec="[names] file",
        doc="names file: CSV/TSV (`run, name, team, baseline, exclude`) or XML",
        reads="names",
    ),
    _o(
        "exclude",
        ["--exclude"],
        READING,
        "leave out run files matching GLOB (repeatable)",
        type="list",
        action="append",
        metavar="GLOB",
        spec="[data] exclude",
        shape="[{!r}]",
        runs_only=True,
        reads="exclude",
    ),
    _o(
        "baseline",
        ["--baseline"],
        READING,
        "runs whose name, file name or path in the runs folder matches GLOB are baselines: "
        "compared, never ranked among the teams (repeatable; a wide table: its column headers); "
        "a GLOB that matches no run is an error",
        type="list",
        action="append",
        metavar="GLOB",
        api="baselines",
        spec="[data] baselines",
        shape="[{!r}]",
        doc="runs whose name, file name or path in the runs folder matches GLOB are baselines "
        "(repeatable); a GLOB matching no run is an error ([Inputs](inputs.md#baselines))",
        reads="baselines",
    ),
    _o(
        "missing",
        ["--missing"],
        READING,
        "a blank, absent or unreadable prediction: error (default) or wrong (scored as a wrong "
        "answer)",
        default="error",
        choices=MISSING_POLICIES,
        metavar="POLICY",
        spec="[data] missing",
        doc="a blank, absent or unreadable prediction: `error` (default) or `wrong`",
        plain=True,
        blank=True,
        reads="missing",
    ),
    _o(
        "extra_lines",
        ["--extra-lines"],
        READING,
        "a run without ids that has more lines than the gold has items: error (default) or "
        "drop (scored on its first lines, one per gold item, as official scorers that read line "
        "by line do; a warning names the run and the count)",
        default="error",
        choices=EXTRA_LINES,
        metavar="POLICY",
        spec="[data] extra_lines",
        doc="a run without ids longer than the gold: `error` (default) or `drop` (score its "
        "first n lines, with a warning)",
        plain=True,
        blank=True,
        reads="extra",
    ),
    _o(
        "bio",
        ["--bio"],
        READING,
        "CoNLL tags: iob2 (default; an I- that starts a mention is an error) or iob1 (it starts "
        "one, as conlleval and seqeval's default mode read it)",
        default="iob2",
        choices=BIO_SCHEMES,
        metavar="SCHEME",
        spec="[data] bio",
        doc="how CoNLL tags are read: `iob2` (default) or `iob1` ([Spans](tasks/spans.md))",
        plain=True,
        blank=True,
        reads="bio",
    ),
    # ------------------------------------------------------------------ statistics
    _o(
        "bootstrap",
        ["-B", "--bootstrap"],
        STATISTICS,
        f"bootstrap replicates, a whole number >= 0 (default {_B}; 0: scores only)",
        type="int",
        default=_B,
        unit="resamples",
        metavar="N",
        setting="bootstrap",
        spec="[bootstrap] resamples",
        shape="{}",
        doc=f"bootstrap replicates (default {_B}; 0: scores only)",
    ),
    _o(
        "seed",
        ["--seed"],
        STATISTICS,
        f"seed of the resampling plan, a whole number >= 0 (default {_SEED}, recorded)",
        type="int",
        default=_SEED,
        metavar="N",
        setting="seed",
        spec="[bootstrap] seed",
        shape="{}",
        doc=f"seed of the resampling plan (default {_SEED}, recorded)",
    ),
    _o(
        "alpha",
        ["--alpha"],
        STATISTICS,
        f"significance level in [1e-9, 1); CIs at 1-alpha (default {_ALPHA})",
        type="float",
        default=_ALPHA,
        metavar="A",
        setting="alpha",
        spec="[bootstrap] alpha",
        shape="{}",
        doc=f"significance level; intervals at 1 − α (default {_ALPHA})",
    ),
    _o(
        "ci",
        ["--ci"],
        STATISTICS,
        f"interval method for systems and differences: {_CHOICE(CI_METHODS)} (default "
        f"{CI_METHODS[0]})",
        default=CI_METHODS[0],
        choices=CI_METHODS,
        metavar="METHOD",
        setting="ci_method",
        spec="[bootstrap] ci",
        doc="`percentile` (default), `bca`, `normal`",
    ),
    _o(
        "test",
        ["--test"],
        STATISTICS,
        f"where p-values come from: {_CHOICE(TESTS)} (default {TESTS[0]}, two-sided; "
        f"berg-kirkpatrick is the paper's one-sided test)",
        default=TESTS[0],
        choices=TESTS,
        metavar="TEST",
        setting="test",
        spec="[bootstrap] test",
        doc="`bootstrap` (default, two-sided), `berg-kirkpatrick` (the paper's one-sided test), "
        "`randomization`",
    ),
    _o(
        "family",
        ["--family"],
        STATISTICS,
        f"correction family of the pairwise comparisons: {_CHOICE(FAMILIES)} (default "
        f"{FAMILIES[0]}); vs-best states only the comparisons of the winner with the other "
        f"competitors, corrected over all pairs since the winner is chosen on the same data; "
        f"vs-baseline tests only each participant against each baseline (every competition "
        f"needs one); per-row bounds no family-wise error rate",
        default=FAMILIES[0],
        choices=FAMILIES,
        metavar="FAMILY",
        setting="family",
        spec="[bootstrap] family",
        doc="`all-pairs` (default), `vs-best`, `vs-baseline` (each participant against each named "
        "baseline; needs a baseline), `per-row`",
    ),
    _o(
        "correction",
        ["--correction"],
        STATISTICS,
        f"correction behind every verdict: {_CHOICE(CORRECTIONS)} (default "
        f"{default_correction('bootstrap')} under the bootstrap test, "
        f"{default_correction('randomization')} under the others)",
        default=None,  # decided by default_correction(test)
        choices=CORRECTIONS,
        metavar="NAME",
        setting="correction",
        spec="[bootstrap] correction",
        doc="`maxt` (default under the bootstrap test), `holm` (default under the others), "
        "`bonferroni`, `bh`, `none`",
    ),
    _o(
        "include_baselines",
        ["--include-baselines"],
        STATISTICS,
        "let baselines compete: by default they are compared and grouped, but the winner, the "
        "comparisons with the winner and the competitiveness figures are over participants only",
        type="bool",
        default=False,
        action="store_true",
        setting="include_baselines",
        spec="[bootstrap] include_baselines",
        shape="{}",
        doc="let baselines compete",
    ),
    _o(
        "paper",
        ["--paper"],
        STATISTICS,
        "the paper's settings in one switch (Nava-Muñoz et al., Tables 7-11): --test "
        "berg-kirkpatrick (one-sided), --family per-row, --include-baselines, --correction "
        "bonferroni, --refine off; an option that contradicts them is an error",
        type="bool",
        default=False,
        action="store_true",
        setting="paper",
        spec="[bootstrap] paper",
        shape="{}",
        doc="the paper's settings at once: `--test berg-kirkpatrick --family per-row "
        "--include-baselines --correction bonferroni --refine off` (the competitiveness tables "
        "count ties and m as its Tables 7–11); an option that contradicts them is an error. "
        "Spec: `[bootstrap] paper = true`; Python: `cr.analyze(..., paper=True)` "
        "([statistics](statistics.md#the-papers-settings))",
    ),
    _o(
        "refine",
        ["--refine"],
        STATISTICS,
        "on: re-estimate p-values from more resamples (up to 16 x B) while a verdict is within "
        "their Monte-Carlo error of the threshold (1.7-9.4 x the run where measured); off "
        "(default): every p-value from B resamples, a verdict within that error reported as "
        "undecided",
        type="bool",
        default=False,
        metavar="on|off",
        setting="refine",
        spec="[bootstrap] refine",
        shape="{}",
        doc="draw more resamples (up to 16 × B) while a verdict is unsettled (default off: it is "
        "reported as undecided, neither significant nor tied)",
    ),
    _o(
        "jobs",
        ["--jobs"],
        STATISTICS,
        "worker processes (default: every core): competitions are analysed, figures and PDF "
        "documents drawn, N at once; a single competition's per-resample metrics use N only "
        "when given; the files do not depend on N",
        type="int",
        metavar="N",
        shape="{}",
        doc="worker processes (default: every core); the files do not depend on N",
    ),
    _o(
        "scheduler",
        ["--scheduler"],
        STATISTICS,
        "analyse on a dask.distributed cluster (pip install 'compreport[dask]'): the address of "
        "its scheduler (tcp://host:8786), or 'local' for a cluster of --jobs worker processes on "
        "this machine; its tasks are the competitions, or a single competition's blocks of "
        "resamples; the numbers do not depend on it",
        metavar="ADDRESS",
        doc="analyse on a dask.distributed cluster: `tcp://host:8786`, or `local` for a cluster "
        "of `--jobs` worker processes here (`pip install 'compreport[dask]'`); the numbers do "
        "not depend on it ([More than one machine](performance.md#more-than-one-machine))",
    ),
    # ------------------------------------------------------------------ output
    _o(
        "output",
        ["-o", "--output"],
        OUTPUT,
        "output directory",
        required=True,
        metavar="OUT",
        api="out_dir",
        doc="output directory (required)",
    ),
    _o(
        "force",
        ["--force"],
        OUTPUT,
        "replace an earlier report in OUT: only the files its manifest (OUT/.compreport.json) "
        "lists",
        type="bool",
        default=False,
        action="store_true",
        cli_default=False,
        shape="{}",
        doc="replace an earlier report in OUT: only the files its manifest lists",
    ),
    _o(
        "format",
        ["--format"],
        OUTPUT,
        "comma list of {formats} (default: all; json always)",
        type="list",
        metavar="LIST",
        api="formats",
        doc="comma list of formats: `json`, `latex`, `html`, `pdf` (default: all; `json` always)",
    ),
    _o(
        "latex_style",
        ["--latex-style"],
        OUTPUT,
        "the class the LaTeX tables go into: {styles} (default ceurart)",
        default="ceurart",
        cli_default="ceurart",
        metavar="STYLE",
        doc="`ceurart` (default), `ceurart-2col`, `sepln`, `acl` ([LaTeX tables](latex.md))",
    ),
    _o(
        "label_prefix",
        ["--label-prefix"],
        OUTPUT,
        "prefix of every LaTeX label (tab:PREFIX:...), so several outputs can share one paper "
        "(default: the workshop name as a slug, else the competition id)",
        metavar="PREFIX",
        doc="prefix of every LaTeX label (default: the workshop's name as a slug, else the "
        "competition id)",
    ),
    _o(
        "latex_columns",
        ["--latex-columns"],
        OUTPUT,
        "optional columns of the LaTeX leaderboard and teams' ranking, comma list of "
        f"{', '.join(LATEX_COLUMNS)}, or none (default: all; one that would split a table is "
        "left out, and the file says so)",
        default=",".join(LATEX_COLUMNS),
        cli_default=",".join(LATEX_COLUMNS),
        metavar="LIST",
        doc="optional columns of the LaTeX leaderboard and teams' ranking: `rank_set`, `ci`, "
        "`marks`, `team`, `group`, or `none` (default: all; one that would split a table is left "
        "out, and the file says so: [LaTeX](latex.md#the-tables))",
    ),
    _o(
        "decimal_comma",
        ["--decimal-comma"],
        OUTPUT,
        "numbers with a decimal comma in the LaTeX, HTML, PDF, figures and e-mails (tables, "
        "captions, prose, letters; intervals as [0,62; 0,75]); results.json, CSV and Markdown "
        "keep the point. Not implied by --lang es",
        type="bool",
        default=False,
        action="store_true",
        cli_default=False,
        doc="numbers with a decimal comma in the LaTeX, HTML, PDFs, figures and e-mails (not "
        "implied by `--lang es`; [Numbers](spanish.md#numbers))",
    ),
    _o(
        "lang",
        ["--lang"],
        OUTPUT,
        "language of every caption, sentence, heading, figure, team letter and email body: en "
        "or es (default en; file names, CSV columns and results.json stay English)",
        default="en",
        cli_default="en",
        choices=LANGUAGES,
        metavar="LANG",
        doc="`en` (default) or `es` ([Spanish reports](spanish.md))",
    ),
    _o(
        "decimals",
        ["--decimals"],
        OUTPUT,
        "decimals of scores and CIs, 0-10 (default 4)",
        type="int",
        default=4,
        cli_default=4,
        unit="decimals",
        metavar="N",
        doc="decimals of scores and intervals (default 4)",
    ),
    _o(
        "diff_decimals",
        ["--diff-decimals"],
        OUTPUT,
        "decimals of differences, 0-10 (default 3)",
        type="int",
        default=3,
        cli_default=3,
        unit="decimals",
        metavar="N",
        doc="decimals of differences (default 3)",
    ),
    _o(
        "figure_formats",
        ["--figure-formats"],
        OUTPUT,
        "figure files to write: comma list of {figure_formats} (default pdf,svg)",
        type="list",
        default="pdf,svg",
        cli_default="pdf,svg",
        metavar="LIST",
        doc="comma list of `pdf`, `svg`, `png` (default `pdf,svg`)",
    ),
    _o(
        "no_compile",
        ["--no-compile"],
        OUTPUT,
        "write appendix.tex without running latexmk",
        type="bool",
        default=False,
        action="store_true",
        cli_default=False,
        api="compile_pdf",
        shape="False",
        doc="write `appendix.tex` without running latexmk",
    ),
    _o(
        "emails",
        ["--emails"],
        OUTPUT,
        "CSV/TSV of team, address[, language]: write OUT/emails/<team>.eml with the team's "
        "letters attached (needs the pdf format; nothing is sent)",
        metavar="FILE",
        doc="one e-mail per team with its letters attached ([Emails to teams](emails.md))",
    ),
    _o(
        "email_from",
        ["--email-from"],
        OUTPUT,
        "the From of every email, e.g. 'Org <org@example.org>' (default: none; the mail client "
        "fills in its account)",
        metavar="ADDRESS",
        doc="the e-mails' `From` (one address)",
    ),
    _o(
        "reply_to",
        ["--reply-to"],
        OUTPUT,
        "the Reply-To of every email: one or more addresses, separated by commas",
        metavar="ADDRESS",
        doc="the e-mails' `Reply-To`, one or more addresses separated by commas",
    ),
    _o(
        "quiet",
        ["-q", "--quiet"],
        OUTPUT,
        "print nothing on stdout and no progress bar (warnings and errors still go to stderr)",
        type="bool",
        default=False,
        action="store_true",
        cli_default=False,
        exclusive="talk",
        api=None,
        doc="print nothing on stdout and no progress bar",
    ),
    _o(
        "verbose",
        ["-v", "--verbose"],
        OUTPUT,
        "also say on stderr what each stage did and how long it took",
        type="bool",
        default=False,
        action="store_true",
        cli_default=False,
        exclusive="talk",
        api=None,
        doc="say what each stage did and how long it took",
    ),
    # ------------------------------------------------------------------ planning (plan)
    _o(
        "bootstrap",
        ["-B", "--bootstrap"],
        PLANNING,
        f"bootstrap replicates of the analysis (default {_B})",
        type="int",
        default=_B,
        metavar="N",
        setting="bootstrap",
        shape="{}",
    ),
    _o(
        "seed",
        ["--seed"],
        PLANNING,
        f"seed (default {_SEED}, recorded)",
        type="int",
        default=_SEED,
        metavar="N",
        setting="seed",
        shape="{}",
    ),
    _o(
        "alpha",
        ["--alpha"],
        PLANNING,
        f"two-sided level of one comparison, in [1e-9, 1) (default {_ALPHA})",
        type="float",
        default=_ALPHA,
        metavar="A",
        setting="alpha",
        shape="{}",
    ),
    _o(
        "power",
        ["--power"],
        PLANNING,
        "power to reach, in (0, 1) (default 0.8)",
        type="float",
        default=0.8,
        cli_default="0.8",
        metavar="P",
        shape="{}",
    ),
    _o(
        "delta",
        ["--delta"],
        PLANNING,
        "the difference to detect, in the metric's units, >= 1e-9 (default: each pair's "
        "observed one)",
        type="float",
        metavar="D",
        shape="{}",
    ),
    _o(
        "draws",
        ["--draws"],
        PLANNING,
        "resamples behind each power estimate, 100 to 100000 (default 1000)",
        type="int",
        default=1000,
        cli_default="1000",
        metavar="N",
        shape="{}",
    ),
    _o(
        "jobs",
        ["--jobs"],
        PLANNING,
        "worker processes of the analysis",
        type="int",
        metavar="N",
        shape="{}",
    ),
    _o(
        "output",
        ["-o", "--output"],
        PLANNING,
        "output folder for plan.json, plan.csv and the power curves (default plan)",
        default="plan",
        cli_default="plan",
        metavar="OUT",
        api="out_dir",
    ),
    _o(
        "force",
        ["--force"],
        PLANNING,
        "replace an earlier plan in OUT",
        type="bool",
        default=False,
        action="store_true",
        cli_default=False,
    ),
    _o(
        "quiet",
        ["-q", "--quiet"],
        PLANNING,
        "print nothing but errors",
        type="bool",
        default=False,
        action="store_true",
        cli_default=False,
        api=None,
    ),
)


def group(name: str) -> tuple[Option, ...]:
    """The options of group ``name``, in ``--help`` order."""
    return tuple(o for o in SCHEMA if o.group == name)


def _by_name(schema: tuple[Option, ...]) -> dict[str, Option]:
    """Each option of ``schema`` by name, in order: of an option of several groups, its first
    entry."""
    out: dict[str, Option] = {}
    for o in schema:
        out.setdefault(o.name, o)
    return out


#: Each option by name (an option of several groups: its first entry, not the planning one).
OPTIONS: Mapping[str, Option] = MappingProxyType(_by_name(SCHEMA))

#: The statistics options by :class:`~compreport.settings.Settings` field.
SETTINGS: Mapping[str, Option] = MappingProxyType(
    {o.setting: o for o in group(STATISTICS) if o.setting}
)


def words() -> dict[str, tuple[str, str | None, str]]:
    """Option id -> (command-line flag, Python keyword, how a Python value is written): how an
    error names an option (:func:`compreport.errors.option`). A second long flag is an
    id of its own (``query_col``: ``--query-col``).

    >>> words()["query_col"], words()["bootstrap"]
    (('--query-col', 'cluster_col', '{!r}'), ('-B', 'bootstrap', '{}'))
    """
    out: dict[str, tuple[str, str | None, str]] = {}
    for o in SCHEMA:
        out.setdefault(o.name, (o.flags[0], o.api, o.shape))
        for flag in o.flags[1:]:
            alias = flag.lstrip("-").replace("-", "_")
            if flag.startswith("--") and alias != o.name:
                out.setdefault(alias, (flag, o.api, o.shape))
    return out


def load_keywords(args) -> dict:
    """The keywords of :func:`compreport.load` that the parsed command line ``args`` gives
    (every reading option; None where not given): list options as lists, ``--no-comments`` as
    ``comments=False``, ``--labels`` and ``--metric`` split at commas.

    >>> import argparse
    >>> ns = argparse.Namespace(**{o.dest or o.name: None for o in group(READING)})
    >>> ns.no_comments, ns.labels, ns.metric = True, "a, b", ["f1,accuracy"]
    >>> kw = load_keywords(ns)
    >>> kw["comments"], kw["labels"], kw["metrics"], kw["exclude"], kw["sep"]
    (False, ['a', 'b'], ['f1', 'accuracy'], [], None)
    """
    out: dict[str, Any] = {}
    for o in group(READING):
        value = getattr(args, o.dest or o.name)
        if o.name == "no_comments":
            value = False if value else None
        elif o.name in ("metric", "labels"):
            items = [
                x.strip()
                for v in ([value] if isinstance(value, str) else value or [])
                for x in v.split(",")
            ]
            value = [x for x in items if x] or None
        elif o.action == "append":
            value = list(value or [])
        out[o.api] = value
    return out


#: The pydantic type of a ``[data]`` key, by the option's type (strict: ``true`` is not 1).
_SPEC_TYPES: Mapping[str, Any] = MappingProxyType(
    {
        "str": str | None,
        "bool": bool | None,
        "int": int | None,
        "column": int | str | None,
        "columns": int | str | list[int | str] | None,
        "list": list[str] | None,
    }
)


def data_keys() -> dict[str, Any]:
    """The ``[data]`` keys of a ``competition.toml`` that reading options give, with their
    pydantic types (:class:`compreport.inputs.specmodels.DataSpec`), in schema order.

    >>> data_keys()["query_col"], data_keys()["comments"]
    (int | str | None, bool | None)
    """
    out: dict[str, Any] = {}
    for o in group(READING):
        for key in (o.spec, *o.spec_also):
            if key and key.startswith("[data] "):
                out.setdefault(key.removeprefix("[data] "), _SPEC_TYPES[o.type])
    return out


def runs_keys() -> dict[str, Any]:
    """The keys of a ``[data.runs]`` table besides ``path``, with their pydantic types
    (:class:`compreport.inputs.specmodels.RunsSpec`): the options marked ``runs_key``."""
    return {
        o.spec.removeprefix("[data] "): _SPEC_TYPES[o.type]
        for o in group(READING)
        if o.runs_key and o.spec
    }


def markdown_table(group_name: str) -> str:
    """The docs' table of the options of ``group_name`` (docs/getting-started.md): one row per
    option, its flags with their value and its ``doc`` text (else its help)."""
    rows = ["| option | meaning |", "|---|---|"]
    for o in group(group_name):
        value = f" {o.metavar}" if o.metavar else ""
        flags = ", ".join(f"`{f}{value}`" for f in o.flags).replace("|", "\\|")
        rows.append(f"| {flags} | {o.doc or o.help} |")
    return "\n".join(rows)
