"""The report model: pure functions from the Analysis to format-neutral tables of cells.

Every renderer (LaTeX, HTML, Markdown, the team sheets) prints the same :class:`Cell`: its
``text`` is the display text under the report's :class:`Format` (so a number prints the same
digits everywhere) and ``bold`` its emphasis (the best value of a metric, by the stored
:attr:`~compreport.stats.results.Score.is_best`). Nothing here decides anything: significance,
best, groups and intervals excluding zero are read from the stored verdicts.

Table kinds follow the paper (Nava-Muñoz et al.): leaderboard (Table 1), ordered bootstrap
CIs (Table 2), CIs of differences from the best (Table 3), lower-triangular matrix of
pairwise differences (Table 4), pairwise p-values with corrections (Table 5), the
competitiveness legend (Table 6) and the cross-competition summary (Tables 7-11).
"""

from __future__ import annotations

import html
import math
import numbers
import re
from dataclasses import dataclass, field
from types import MappingProxyType

from compreport.errors import InputError
from compreport.language import N_, count, tr
from compreport.language import vocabulary as vocab
from compreport.report.metricnames import metric_label
from compreport.stats.letters import ALPHABET
from compreport.stats.results import Analysis, Comparison, CompetitionAnalysis, MetricAnalysis

#: How a missing or undefined value is shown (an en dash).
MISSING = "\u2013"


def _finite(x) -> float | None:
    """``x`` as a finite float; None for None, a bool, a string, NaN or an infinity."""
    if x is None or isinstance(x, bool) or isinstance(x, str):
        return None
    try:
        f = float(x)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


@dataclass(frozen=True)
class Format:
    """The decimals of a report's numbers, and the numbers as text.

    p-values below half a unit of the last decimal print as ``<0.0001`` (never as 0). With
    ``decimal_comma`` the numbers take a decimal comma (``0,713``) and an interval's bounds are
    separated by a semicolon (``[0,625; 0,748]``, :meth:`interval`), as Spanish and most of Europe
    write them: display only, no number changes (results.json and the CSV keep their point).

    Attributes
    ----------
    decimals : int
        Scores and their intervals (default 4).
    diff_decimals : int
        Differences between systems and their intervals (default 3).
    p_decimals : int
        p-values and their Monte-Carlo standard errors (default 4).
    summary_decimals : int
        The competitiveness summary's values that are not whole numbers (default 3).
    decimal_comma : bool
        A decimal comma instead of the point (default False): the pages, letters and e-mails of
        ``--decimal-comma`` (LaTeX sets its own marker: :func:`compreport.report.latex.tex.num`).

    Raises
    ------
    InputError
        When a number of decimals is not a whole number from 0 to 10.

    Examples
    --------
    >>> fmt = Format(decimals=3)
    >>> fmt.score(0.71268), fmt.diff(-0.0004), fmt.p(0.00004), fmt.p_is(0.0123)
    ('0.713', '0.000', '<0.0001', 'p = 0.0123')
    >>> comma = Format(decimals=3, decimal_comma=True)
    >>> comma.score(0.71268), comma.p_is(0.00004), comma.interval(0.6251, 0.748)
    ('0,713', 'p < 0,0001', '[0,625; 0,748]')
    """

    decimals: int = 4
    diff_decimals: int = 3
    p_decimals: int = 4
    summary_decimals: int = 3
    decimal_comma: bool = False

    def __post_init__(self):
        for name in ("decimals", "diff_decimals", "p_decimals", "summary_decimals"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, numbers.Integral) or not 0 <= v <= 10:
                raise InputError(f"`{name}` must be a whole number between 0 and 10; got {v!r}")
        if not isinstance(self.decimal_comma, bool):
            raise InputError(f"`decimal_comma` must be True or False; got {self.decimal_comma!r}")

    @staticmethod
    def number(x, digits: int, comma: bool = False) -> str:
        """``x`` with ``digits`` decimals (a decimal comma when ``comma``); an en dash when
        missing; no negative zero; a string as it is."""
        if isinstance(x, str):
            return x
        f = _finite(x)
        if f is None:
            return MISSING
        s = f"{f:.{digits}f}"
        if s.startswith("-") and not any(c in "123456789" for c in s):
            s = s[1:]
        return s.replace(".", ",") if comma else s

    def score(self, x) -> str:
        """A score or a score's interval bound, with ``decimals`` decimals."""
        return self.number(x, self.decimals, self.decimal_comma)

    def diff(self, x) -> str:
        """A difference between two systems or its interval bound, with ``diff_decimals``
        decimals."""
        return self.number(x, self.diff_decimals, self.decimal_comma)

    def interval(self, low, high, diff: bool = False) -> str:
        """An interval as a sentence or a cell shows it: ``[0.625, 0.748]``, or ``[0,625; 0,748]``
        with a decimal comma (a comma between the bounds would read as a decimal mark); its bounds
        as :meth:`score` writes them, or as :meth:`diff` when ``diff``."""
        bound = self.diff if diff else self.score
        return f"[{bound(low)}{'; ' if self.decimal_comma else ', '}{bound(high)}]"

    def p(self, x) -> str:
        """A p-value with ``p_decimals`` decimals (``<0.0001`` below half a unit of the last); an
        en dash when missing."""
        f = _finite(x)
        if f is None:
            return MISSING
        if f < 0.5 * 10**-self.p_decimals:
            text = f"<{10**-self.p_decimals:.{self.p_decimals}f}"
        else:
            text = f"{f:.{self.p_decimals}f}"
        return text.replace(".", ",") if self.decimal_comma else text

    def p_is(self, x, name: str = "p") -> str:
        """``name`` stated with the p-value ``x`` for a sentence: ``p = 0.0123``, or
        ``p < 0.0001`` where :meth:`p` prints ``<0.0001`` (never ``p = <0.0001``)."""
        text = self.p(x)
        return f"{name} < {text[1:]}" if text.startswith("<") else f"{name} = {text}"

    def summary(self, x) -> str:
        """A competitiveness-summary value: integers as they are, others with
        ``summary_decimals`` decimals."""
        if isinstance(x, numbers.Integral) and not isinstance(x, bool):
            return str(int(x))
        return self.number(x, self.summary_decimals, self.decimal_comma)


@dataclass(frozen=True)
class Cell:
    """One printed value.

    Attributes
    ----------
    value : object
        The stored value (float, int, str, bool or None).
    text : str
        Display text under the report's :class:`Format` (plain Unicode; renderers escape it).
    bold : bool
        Emphasis: the best value of its metric.
    mark : str
        Significance mark printed after the number (``***``, ``**``, ``*``, ``†``) in the matrix.
    level : int
        Shading class of ``mark``: 3 for ``***`` ... 0 for ``†``; -1 unmarked.
    """

    value: object
    text: str
    bold: bool = False
    mark: str = ""
    level: int = -1

    @property
    def numeric(self) -> bool:
        """A number (or a missing number) rather than text: renderers align these on the
        decimal point."""
        return self.value is None or (
            isinstance(self.value, numbers.Real) and not isinstance(self.value, bool)
        )

    @property
    def fraction(self) -> str:
        """The digits after the decimal point of a number's text (``7543`` of ``-0.7543``); ``""``
        for other text. A bold number sets them over the width of regular digits, so its point
        aligns."""
        mt = re.fullmatch(r"-?\d+[.,](\d+)", self.text)
        return mt.group(1) if mt else ""


@dataclass
class Row:
    """One table row: the system (or row label) it is about and its cells by column key."""

    label: str
    cells: dict[str, Cell]
    baseline: bool = False

    def __getitem__(self, key: str) -> Cell:
        return self.cells[key]


@dataclass
class Table:
    """A format-neutral table: column keys with their plain labels, and rows of cells.

    Attributes
    ----------
    kind : str
        ``leaderboard``, ``ci``, ``diff-best``, ``pvalues``, ``pairs``, ``summary`` or ``legend``.
    columns : dict
        Column key -> plain-text header label (in the report's language), in display order.
    rows : list of Row
    competition, metric : optional
        What the table is about (captions read them).
    """

    kind: str
    columns: dict[str, str]
    rows: list[Row]
    competition: CompetitionAnalysis | None = None
    metric: MetricAnalysis | None = None
    extra: dict = field(default_factory=dict)

    def _about(self) -> str:
        """``kind: competition, metric`` (what the table is about), for its reprs."""
        about = [x.id if hasattr(x, "id") else x.name for x in (self.competition, self.metric) if x]
        return self.kind + (f": {', '.join(about)}" if about else "")

    def __repr__(self) -> str:
        names = list(self.columns.values())
        shown = ", ".join(names[:6]) + (", ..." if len(names) > 6 else "")
        return f"<Table {self._about()}; {len(self.rows)} rows x {len(names)} columns ({shown})>"

    def _repr_html_(self) -> str:
        """The table as escaped HTML: the display texts under the report's format, a missing
        cell empty."""
        esc = html.escape
        head = "".join(f"<th>{esc(label)}</th>" for label in self.columns.values())
        body = "".join(
            "<tr>"
            + "".join(
                f"<td>{esc(row.cells[k].text) if k in row.cells else ''}</td>" for k in self.columns
            )
            + "</tr>"
            for row in self.rows
        )
        return (
            f"<table><caption>{esc(self._about())}</caption>"
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        )

    def to_frame(self, labels: bool = False):
        """The table as a pandas DataFrame of the stored values (not their display texts).

        The row label (the system, the team, the summary's row) is the index; a column that
        repeats it is dropped and names the index. Columns are the table's column keys (its
        header labels with ``labels=True``), in display order. A column of numbers is float
        (a missing one NaN), a column of yes/no verdicts the nullable ``"boolean"`` dtype
        (undecided ``<NA>``); text stays text (pandas picks its string dtype).

        Examples
        --------
        >>> a = cr.analyze(cr.load("examples/workshop/stance-eu"), bootstrap=200, seed=0)
        >>> df = cr.Report(a).table("diff-best").to_frame()
        >>> df[["diff", "significant"]].round(4)
                             diff  significant
        system
        TxertoNLP.01       0.0243        False
        MultiHizkuntza.01  0.0554         <NA>
        Iruñea-HLT.01      0.2291         True
        Iruñea-HLT.02      0.3378         True
        >>> df.dtypes[["diff", "significant"]].tolist()
        [dtype('float64'), BooleanDtype]
        """
        import pandas as pd

        index = [row.label for row in self.rows]
        named = next(
            (
                k
                for k in self.columns
                if self.rows
                and all(r.cells.get(k, Cell(None, "")).value == r.label for r in self.rows)
            ),
            None,
        )
        data = {}
        for key, label in self.columns.items():
            if key == named:
                continue
            values = [row.cells[key].value if key in row.cells else None for row in self.rows]
            given = [v for v in values if v is not None]
            if given and all(isinstance(v, bool) for v in given):
                col = pd.array(values, dtype="boolean")
            elif given and all(
                isinstance(v, numbers.Real) and not isinstance(v, bool) for v in given
            ):
                col = [math.nan if v is None else float(v) for v in values]
                col = pd.array(col, dtype="float64")
            else:
                col = pd.array(values, dtype=object)
            data[label if labels else key] = col
        frame = pd.DataFrame(data, index=pd.Index(index, dtype=object))
        frame.index.name = (self.columns[named] if labels else named) if named else None
        return frame


#: Shading level of each mark of :data:`~compreport.language.vocabulary.STARS`: 3 for the
#: strictest, down to 0.
_STAR_LEVEL = MappingProxyType(
    {mark: len(vocab.STARS) - 1 - i for i, (_, mark) in enumerate(vocab.STARS)}
)


def mark_level(mark: str) -> int:
    """The shading level of a stored significance mark (``Comparison.mark``): 3 for ``***`` down to
    0 for ``†``, -1 for no mark (:data:`~compreport.language.vocabulary.STARS`).

    Examples
    --------
    >>> mark_level("***"), mark_level("†"), mark_level("")
    (3, 0, -1)
    """
    return _STAR_LEVEL.get(mark, -1)


def possible_marks(metric: MetricAnalysis) -> tuple[tuple[float, str], ...]:
    """The significance marks a corrected p-value of ``metric`` can earn, strictest first.

    Those of its stored scheme (``verdicts["marks"]``:
    :func:`~compreport.language.vocabulary.marks_at`) whose threshold is above the smallest
    p-value its stored rule can reach (``verdicts["min_p"]``: 1/(R + 1) for R resamples, times the
    smallest family under Bonferroni or Holm); none without resamples; every mark of
    :data:`~compreport.language.vocabulary.STARS` when the rule does not say (an analysis built by
    hand).
    """
    scheme = tuple(tuple(m) for m in metric.verdicts.get("marks", vocab.STARS))
    if "min_p" not in metric.verdicts:
        return scheme
    min_p = metric.verdicts["min_p"]
    if min_p is None or min_p != min_p:
        return ()
    from compreport.stats.multitest import rejects

    return tuple((t, mark) for t, mark in scheme if rejects(min_p, t))


def _verdict_cell(c) -> Cell:
    """The cell of a comparison's stored verdict: ``undecided`` when it is
    (:attr:`~compreport.stats.results.Comparison.undecided`), else :func:`_yes_no`."""
    return Cell(None, tr("undecided")) if c.undecided else _yes_no(c.significant)


def _yes_no(v: bool | None) -> Cell:
    """A verdict's cell: ``yes`` or ``no`` in the report's language, an en dash for None."""
    if v is None:
        return Cell(v, MISSING)
    if v:
        return Cell(v, tr("yes"))
    return Cell(v, "no")  # the same word in Spanish: no translation


#: Above this many systems a report shows the pairs as a heat map figure and lists only the
#: comparisons with the best in tables (HTML, PDF and the LaTeX appendix): a 26-system pair list has
#: 325 rows per metric. Every pair is in ``<competition>/pairs-<metric>.csv`` whatever the size.
MANY_SYSTEMS = 25


#: A group letter past the 52 of :data:`compreport.stats.letters.ALPHABET`: ``a1``, ``b1``...
_LETTER = re.compile(r"[A-Za-z][0-9]*")


def _letter_index(token: str) -> int:
    """The position of one group letter in the order :func:`compreport.stats.letters.letters`
    names them (``a`` 0, ``Z`` 51, ``a1`` 52)."""
    return ALPHABET.index(token[0]) + len(ALPHABET) * int(token[1:] or 0)


def group_text(group: str, ranges: bool) -> str:
    """A system's significance group as the tables show it: its letters, or with ``ranges`` each
    run of three or more consecutive letters as ``first–last`` (en dash), the pieces separated by
    commas; an en dash for none. The letters are the stored ones; only their display changes, so
    the range says exactly what the letters say. The tables use ranges past
    :data:`MANY_SYSTEMS` systems (:func:`group_cell`).

    Examples
    --------
    >>> group_text("fghij", True), group_text("fghij", False), group_text("", True)
    ('f–j', 'fghij', '–')
    >>> group_text("TUVWXYZa1b1c1d1e1f1g1", True), group_text("abdfgh", True)
    ('T–g1', 'abd,f–h')
    """
    if not group:
        return MISSING
    tokens = _LETTER.findall(group)
    if not ranges or "".join(tokens) != group:  # not letters as letters() names them: as stored
        return group
    runs: list[list[str]] = []
    for t in tokens:
        if runs and _letter_index(t) == _letter_index(runs[-1][-1]) + 1:
            runs[-1].append(t)
        else:
            runs.append([t])
    pieces: list[str] = []
    loose = ""  # letters of runs shorter than three, written as they are
    for run in runs:
        if len(run) >= 3:
            pieces += [loose] if loose else []
            pieces.append(f"{run[0]}{MISSING}{run[-1]}")
            loose = ""
        else:
            loose += "".join(run)
    return ",".join(pieces + ([loose] if loose else []))


def group_cell(comp: CompetitionAnalysis, group: str) -> Cell:
    """The cell of a stored significance group: value the letters, text :func:`group_text`, with
    ranges past :data:`MANY_SYSTEMS` systems (:func:`many_systems`), where letter strings grow
    long (``fghij`` at 36 runs, ``TUVWXYZa1b1c1d1e1f1g1`` at 150)."""
    return Cell(group, group_text(group, many_systems(comp)))


def many_systems(comp: CompetitionAnalysis) -> bool:
    """Whether ``comp`` has more than :data:`MANY_SYSTEMS` systems (baselines included)."""
    return len(comp.systems) > MANY_SYSTEMS


#: Columns of the exported leaderboard (``leaderboard.md``, the terminal summary), in order;
#: ``score:*`` stands for one column per metric; ``team`` is shown only when the teams say more
#: than the run names (:func:`shows_teams`).
LEADERBOARD_EXPORT = ("rank", "rank_set", "system", "team", "score:*", "ci", "group", "marks")


def rank_set(low: int | None, high: int | None) -> str:
    """A rank's confidence set as text: ``2–6`` (en dash), ``1`` when it is one rank, an en dash
    when there is none (:attr:`~compreport.stats.results.Score.rank_low`).

    Examples
    --------
    >>> rank_set(2, 6), rank_set(1, 1), rank_set(None, None)
    ('2–6', '1', '–')
    """
    if _finite(low) is None or _finite(high) is None:  # None, or NaN from a DataFrame
        return MISSING
    low, high = int(low), int(high)
    return str(low) if low == high else f"{low}{MISSING}{high}"


def leaderboard(comp: CompetitionAnalysis, fmt: Format) -> Table:
    """Rank, ``rank_set`` (the stored simultaneous rank confidence set, :func:`rank_set`), system,
    ``team`` (the stored ``comp.teams``; a run without a team, a team of one, by its own name;
    an en dash for a baseline, which is in no team), one score per metric
    (``score:<metric>``; best in bold), the primary metric's CI (``ci_low``, ``ci_high``, and both
    as ``ci`` text ``[low, high]``), significance group and ``marks``
    (:func:`~compreport.report.prose.marks`, with ``beats B`` for each baseline B that the stored
    verdicts say the system beats, under ``vs-baseline``: :func:`shows_beats`); rows in the
    primary metric's order.
    ``extra["teams"]``: whether the team column says more than the system column
    (:func:`shows_teams`); ``extra["rank_sets"]``: whether there are rank sets to show
    (:func:`has_rank_sets`)."""
    from compreport.report.prose import marks

    primary = comp.primary
    columns = {
        "rank": tr("Rank"),
        "rank_set": tr("Rank set"),
        "system": tr("System"),
        "team": tr("Team"),
    }
    columns |= {f"score:{ma.name}": metric_label(ma) for ma in comp.metrics}
    columns |= {
        "ci_low": tr("CI low"),
        "ci_high": tr("CI high"),
        "ci": tr("CI"),
        "group": tr("Group"),
        "marks": tr("Marks"),
    }
    by_metric = {ma.name: {s.system: s for s in ma.scores} for ma in comp.metrics}
    rows = []
    for s in primary.scores:
        # a run without a team is a team of one, named after it (as the teams' ranking names it)
        team = None if s.system in comp.baselines else (comp.teams.get(s.system) or s.system)
        cells = {
            "rank": Cell(s.rank, str(s.rank)),
            "rank_set": Cell(rank_set(s.rank_low, s.rank_high), rank_set(s.rank_low, s.rank_high)),
            "system": Cell(s.system, s.system),
            "team": Cell(team, team or MISSING),
        }
        for ma in comp.metrics:
            o = by_metric[ma.name][s.system]
            cells[f"score:{ma.name}"] = Cell(o.score, fmt.score(o.score), bold=o.is_best)
        if _finite(s.ci_low) is None:
            ci = None
        else:
            ci = fmt.interval(s.ci_low, s.ci_high)
        mark = marks(
            s,
            s.system in comp.baselines,
            comp.missing.get(s.system, 0),
            beaten(primary, s) if shows_beats(primary) else (0, 0),
            undecided_with(primary, s),
        )
        cells |= {
            "ci_low": Cell(s.ci_low, fmt.score(s.ci_low)),
            "ci_high": Cell(s.ci_high, fmt.score(s.ci_high)),
            "ci": Cell(ci, ci or MISSING),
            "group": group_cell(comp, s.group),
            "marks": Cell(mark, mark),
        }
        rows.append(Row(s.system, cells, s.system in comp.baselines))
    return Table(
        "leaderboard",
        columns,
        rows,
        comp,
        primary,
        {"teams": shows_teams(comp), "rank_sets": has_rank_sets(comp)},
    )


def undecided_with(ma: MetricAnalysis, s) -> list[str]:
    """The systems, in ``ma``'s rank order, whose stored verdict with the system of
    :class:`~compreport.stats.results.Score` ``s`` is undecided
    (:attr:`~compreport.stats.results.Comparison.undecided`: within the Monte-Carlo error of its
    p-values), so that its leaderboard row carries the mark
    (:func:`~compreport.report.prose.marks`). The best is left out of the row whose own
    ``undecided`` mark (the verdict against the best, ``Score.undecided``) already says it.

    Examples
    --------
    >>> from compreport.stats.results import Comparison, MetricAnalysis, Score
    >>> scores = [Score(x, 0.9 - i / 10, 0, 0, 0, 0, i + 1, "a") for i, x in enumerate("ABC")]
    >>> pair = Comparison("B", "C", 0.1, 0.0, 0.2, 0.04, 0.1, 0.1, 0.1, settled=False)
    >>> ma = MetricAnalysis("acc", {}, True, 1.0, True, "A", scores, [], [pair], {})
    >>> undecided_with(ma, scores[1]), undecided_with(ma, scores[2]), undecided_with(ma, scores[0])
    (['C'], ['B'], [])
    """
    others = {
        c.b if c.a == s.system else c.a for c in ma.pairs if c.undecided and s.system in (c.a, c.b)
    }
    if s.undecided:
        others.discard(ma.best)
    return [x.system for x in ma.scores if x.system in others]


def has_rank_sets(comp: CompetitionAnalysis) -> bool:
    """Whether the primary metric of ``comp`` stores rank sets (none without resamples, nor in a
    results.json written before they existed): the rank set columns are shown only then."""
    return bool(comp.metrics) and any(s.rank_low is not None for s in comp.primary.scores)


def shows_beats(ma: MetricAnalysis) -> bool:
    """Whether the leaderboard marks the runs that beat a baseline: under ``vs-baseline``, the
    family that asks that question. Under the others the team sheets say it, from the same stored
    verdicts, and the leaderboard's groups show it; a mark on most rows would crowd page 1."""
    return ma.verdicts.get("family") == "vs-baseline"


def beaten(ma: MetricAnalysis, s) -> tuple[int, int]:
    """How many baselines the stored :attr:`~compreport.stats.results.MetricAnalysis.vs_baselines`
    of ``ma`` say the system of :class:`~compreport.stats.results.Score` ``s`` beats, and of how
    many it was compared with ((0, 0) for a baseline, or without baselines)."""
    mine = ma.beats_baselines(s.system)
    return sum(bool(v.beats) for v in mine), len(mine)


def shows_teams(comp: CompetitionAnalysis) -> bool:
    """Whether the teams of ``comp`` say more than its run names: some team has several runs or a
    name other than its run's (a run without a team is a team of one named after it).

    Examples
    --------
    >>> from compreport.stats.results import CompetitionAnalysis
    >>> def comp(teams):
    ...     return CompetitionAnalysis("c", "c", n=1, systems=list(teams), baselines=[],
    ...                                metrics=[], teams=teams)
    >>> shows_teams(comp({"A.1": "A", "B": "B"})), shows_teams(comp({"A": "A", "B": "B"}))
    (True, False)
    """
    return any(len(t.runs) > 1 or t.runs != [t.team] for t in comp.team_ranks) or any(
        team is not None and team != system for system, team in comp.teams.items()
    )


def has_team_ranking(comp: CompetitionAnalysis) -> bool:
    """Whether the teams' ranking says more than the leaderboard: some team has several runs
    (page 1 of the report and ``tables/teams.tex`` show it only then)."""
    return any(len(t.runs) > 1 for t in comp.team_ranks)


def team_ranking(comp: CompetitionAnalysis, fmt: Format) -> Table:
    """The teams' ranking (the stored ``comp.team_ranks``): each team by its best run under the
    primary metric. Columns ``rank`` (among teams), ``rank_set`` (its simultaneous confidence set
    among the teams, :func:`rank_set`), ``team``, ``best`` (the best run), ``score``
    (its primary score; bold when it is the best), ``group`` and ``marks`` of that run
    (:func:`~compreport.report.prose.marks`, its undecided verdicts counted as in the leaderboard),
    and ``runs`` (how many runs the team has); rows best
    team first. Baselines are in no team."""
    from compreport.report.prose import marks

    scores = {s.system: s for s in comp.primary.scores}
    columns = {
        "rank": tr("Rank"),
        "rank_set": tr("Rank set"),
        "team": tr("Team"),
        "best": tr("Best run"),
        "score": metric_label(comp.primary),
        "group": tr("Group"),
        "runs": tr("Runs"),
        "marks": tr("Marks"),
    }
    rows = []
    for t in comp.team_ranks:
        s = scores[t.runs[0]]
        mark = marks(
            s, False, comp.missing.get(s.system, 0), undecided_with=undecided_with(comp.primary, s)
        )
        cells = {
            "rank": Cell(t.rank, str(t.rank)),
            "rank_set": Cell(rank_set(t.rank_low, t.rank_high), rank_set(t.rank_low, t.rank_high)),
            "team": Cell(t.team, t.team),
            "best": Cell(s.system, s.system),
            "score": Cell(s.score, fmt.score(s.score), bold=s.is_best),
            "group": group_cell(comp, s.group),
            "runs": Cell(len(t.runs), count(len(t.runs))),
            "marks": Cell(mark, mark),
        }
        rows.append(Row(t.team, cells))
    return Table("teams", columns, rows, comp, comp.primary)


def export_keys(t: Table) -> list[str]:
    """The column keys of :data:`LEADERBOARD_EXPORT` in leaderboard ``t``; ``team`` only when
    ``t.extra["teams"]`` (:func:`shows_teams`), ``rank_set`` only when ``t.extra["rank_sets"]``."""
    shown = [
        s
        for s in LEADERBOARD_EXPORT
        if (s != "team" or t.extra.get("teams")) and (s != "rank_set" or t.extra.get("rank_sets"))
    ]
    return [
        k
        for spec in shown
        for k in t.columns
        if k == spec or (spec == "score:*" and k.startswith("score:"))
    ]


def confidence_intervals(comp: CompetitionAnalysis, ma: MetricAnalysis, fmt: Format) -> Table:
    """Ordered bootstrap CIs (paper Table 2): rank, system, score, bootstrap mean and SE, CI and
    group."""
    columns = {
        "rank": tr("Rank"),
        "system": tr("System"),
        "score": tr("Score"),
        "mean": tr("Boot. mean"),
        "se": tr("SE"),
        "ci_low": tr("CI low"),
        "ci_high": tr("CI high"),
        "group": tr("Group"),
    }
    rows = [
        Row(
            s.system,
            {
                "rank": Cell(s.rank, str(s.rank)),
                "system": Cell(s.system, s.system),
                "score": Cell(s.score, fmt.score(s.score), bold=s.is_best),
                "mean": Cell(s.boot_mean, fmt.score(s.boot_mean)),
                "se": Cell(s.se, fmt.score(s.se)),
                "ci_low": Cell(s.ci_low, fmt.score(s.ci_low)),
                "ci_high": Cell(s.ci_high, fmt.score(s.ci_high)),
                "group": group_cell(comp, s.group),
            },
            s.system in comp.baselines,
        )
        for s in ma.scores
    ]
    return Table("ci", columns, rows, comp, ma)


def _p_cells(c: Comparison, fmt: Format) -> dict[str, Cell]:
    """The raw and corrected p-values of ``c`` by column key (``none``, ``bonferroni``...)."""
    return {key: Cell(getattr(c, f), fmt.p(getattr(c, f))) for key, f in vocab.P_FIELD.items()}


#: The columns of the differences from the best that the report's pages show: the difference, its
#: interval, the one p-value behind the verdict and the verdict. The raw and other corrected
#: p-values and their Monte-Carlo errors are in the LaTeX appendix and ``pairs-<metric>.csv``.
DIFF_BEST_SHOWN = ("system", "diff", "ci_low", "ci_high", "p_adjusted", "significant")


def differences_from_best(comp: CompetitionAnalysis, ma: MetricAnalysis, fmt: Format) -> Table:
    """CIs of the differences from the best (paper Table 3), with the stored verdicts.

    ``diff`` is oriented: positive means the best is better. ``excludes_zero``, ``significant`` and
    ``settled`` are the stored verdicts, ``p_se`` the Monte-Carlo standard error of the p-value
    that decides (max-T: the adjusted one; else the raw one),
    ``p_adjusted`` the p-value behind ``significant`` (the report's rule); the p-value columns
    ``none``/``bonferroni``/``holm``/``bh``/``maxt`` are corrected over the report's family
    (``vs-best``: over all pairs, since the best is chosen on the same data).
    """
    columns = {
        "system": tr("System"),
        "diff": tr("Difference"),
        "ci_low": tr("CI low"),
        "ci_high": tr("CI high"),
        "excludes_zero": tr("Excludes 0"),
        "none": "p",
        "p_se": tr("MC SE"),
        "bonferroni": "Bonferroni",
        "holm": "Holm",
        "bh": "BH",
        "maxt": "max-T",
        "p_adjusted": tr("p (verdict)"),
        "significant": tr("Significant"),
        "settled": tr("Settled"),
    }
    rows = []
    for c in ma.vs_best:
        cells = {
            "system": Cell(c.b, c.b),
            "diff": Cell(c.diff, fmt.diff(c.diff)),
            "ci_low": Cell(c.ci_low, fmt.diff(c.ci_low)),
            "ci_high": Cell(c.ci_high, fmt.diff(c.ci_high)),
            "excludes_zero": _yes_no(c.excludes_zero),
            **_p_cells(c, fmt),
            "p_se": Cell(c.p_se, fmt.p(c.p_se)),
            "p_adjusted": Cell(c.p_adjusted, fmt.p(c.p_adjusted)),
            "significant": _verdict_cell(c),
            "settled": _yes_no(c.settled),
        }
        rows.append(Row(c.b, cells, c.b in comp.baselines))
    return Table("diff-best", columns, rows, comp, ma)


def pairwise_p_values(comp: CompetitionAnalysis, ma: MetricAnalysis, fmt: Format) -> Table:
    """Every pair in rank order (paper Table 5): ``a``, ``b``, ``diff`` (a − b, oriented), raw and
    corrected p-values over the report's family (– for pairs outside it), and the verdict."""
    columns = {
        "a": tr("System A"),
        "b": tr("System B"),
        "diff": tr("Diff."),
        "none": "p",
        "bonferroni": "Bonferroni",
        "holm": "Holm",
        "bh": "BH",
        "maxt": "max-T",
        "significant": tr("Significant"),
    }
    rows = [
        Row(
            f"{c.a} – {c.b}",
            {
                "a": Cell(c.a, c.a),
                "b": Cell(c.b, c.b),
                "diff": Cell(c.diff, fmt.diff(c.diff)),
                **_p_cells(c, fmt),
                "significant": _verdict_cell(c),
            },
        )
        for c in ma.pairs
    ]
    return Table("pvalues", columns, rows, comp, ma)


def pair_matrix(comp: CompetitionAnalysis, ma: MetricAnalysis, fmt: Format) -> Table:
    """Lower-triangular differences column − row (paper Table 4), marked by the stored ``mark``.

    Columns are the systems but the last (key = system name), rows the systems but the first,
    best first; cell (row r, column c) is ``score(c) − score(r)`` oriented, for c ranked above r;
    its ``level`` is the mark's (:func:`mark_level`), -2 for a pair that is not tested; an
    undecided pair (:attr:`~compreport.stats.results.Comparison.undecided`) is marked ``?``, at
    level -1.
    ``extra["position"]`` maps each system to its 1-based position in the ranking.
    """
    order = [s.system for s in ma.scores]
    position = {name: i + 1 for i, name in enumerate(order)}
    columns = {name: name for name in order[:-1]}
    cells: dict[str, dict[str, Cell]] = {name: {} for name in order[1:]}
    for c in ma.pairs:  # a ranks above b: a is the column, b the row
        cells[c.b][c.a] = Cell(
            c.diff,
            fmt.diff(c.diff),
            mark="?" if c.undecided else c.mark,
            level=-1 if c.undecided else -2 if c.significant is None else mark_level(c.mark),
        )
    rows = [Row(name, cells[name], name in comp.baselines) for name in order[1:]]
    return Table("pairs", columns, rows, comp, ma, {"position": position})


def per_class(comp: CompetitionAnalysis, fmt: Format) -> Table | None:
    """The best system's per-class scores (the stored ``comp.classes``): class, precision,
    recall, F1 (scores' decimals) and support; None for a competition without them."""
    c = comp.classes
    if not c:
        return None
    columns = {
        "class": tr("Class"),
        "precision": tr("Precision"),
        "recall": tr("Recall"),
        "f1": "F1",
        "support": tr("Support"),
    }
    rows = [
        Row(
            lab,
            {
                "class": Cell(lab, lab),
                "precision": Cell(p, fmt.score(p)),
                "recall": Cell(r, fmt.score(r)),
                "f1": Cell(f, fmt.score(f)),
                "support": Cell(n, count(n)),
            },
        )
        for lab, p, r, f, n in zip(
            c["labels"], c["precision"], c["recall"], c["f1"], c["support"], strict=True
        )
    ]
    return Table(
        "classes", columns, rows, comp, comp.primary, {"system": c["system"], "field": c["field"]}
    )


#: The paper's Table 6: row label -> description (the competitiveness legend), in English: the
#: tables show them in the report's language (:func:`legend`, :func:`summary`); the CSV keeps
#: these.
LEGEND = (
    ("n", N_("Test data size")),
    ("m", N_("Number of participants or runs")),
    (
        N_("Ties w/ win."),
        N_(
            "Possible ties with the winner, with corrections none / Bonferroni / Holm / BH / max-T "
            "(max-T under the bootstrap test only) over the report's family, on the winner's "
            "comparisons with the other competitors"
        ),
    ),
    (N_("Poss. compars."), N_("Total possible comparisons, m(m-1)/2")),
    (N_("none/Bonf."), N_("Ties between competitors, with no correction / Bonferroni")),
    ("Holm/BH", N_("Ties between competitors, with Holm / Benjamini-Hochberg correction")),
    (
        N_("|win.-med.|"),
        N_(
            "Performance difference between the winner and the competitor in the middle of the "
            "table"
        ),
    ),
    ("CV", N_("Coefficient of variation of competitors' performance, CV = 100 s/mean (%)")),
    ("PPI", N_("Possible percentage improvement, e.g. for F1: 100 (1 - F1 of the winner)")),
)
#: The rows of the competitiveness summary: the labels of :data:`LEGEND`.
SUMMARY_ROWS = tuple(name for name, _ in LEGEND)


def legend() -> Table:
    """The competitiveness legend (paper Table 6): ``name``, ``description``."""
    rows = []
    for n, d in LEGEND:
        name, description = tr(n), tr(d)
        cells = {"name": Cell(name, name), "description": Cell(description, description)}
        rows.append(Row(name, cells))
    return Table("legend", {"name": tr("Name"), "description": tr("Description")}, rows)


def group_path(comp: CompetitionAnalysis) -> tuple[str, str, str]:
    """(challenge, task, language) headings of a competition's summary column; a language named
    in English in the report's language (:func:`~compreport.language.vocabulary.language_name`)."""
    g = list(comp.group or [])
    if len(g) >= 3:
        return g[0], " / ".join(g[1:-1]), vocab.language_name(g[-1])
    challenge = comp.challenge + (
        f" {comp.year}" if comp.year and str(comp.year) not in comp.challenge else ""
    )
    return (
        challenge or comp.name,
        comp.task or comp.name,
        vocab.language_name(comp.language or ""),
    )


def _tie_count(value) -> str:
    """A stored tie count as the summary prints it: :data:`MISSING` ("–") where it is None, not
    computable with the resamples drawn (``competitiveness["not_computable"]``)."""
    return MISSING if value is None else str(value)


def summary_values(ma: MetricAnalysis) -> list:
    """The :data:`SUMMARY_ROWS` values of one metric's competitiveness: tie counts as
    ``a/b/c/d``, and ``/e`` for max-T where the test is the bootstrap's (some comparison carries a
    max-T p-value); "–" for a count its correction cannot compute with the resamples drawn."""
    c = ma.competitiveness
    tw, t = c["ties_with_winner"], c["ties"]
    maxt = "maxt" in tw and any(v.p_maxt == v.p_maxt for v in ma.vs_best)
    shown = ("none", "bonferroni", "holm", "bh") + (("maxt",) if maxt else ())
    return [
        c["n"],
        c["m"],
        "/".join(_tie_count(tw[k]) for k in shown),
        c["possible_comparisons"],
        f"{_tie_count(t['none'])}/{_tie_count(t['bonferroni'])}",
        f"{_tie_count(t['holm'])}/{_tie_count(t['bh'])}",
        c["win_minus_median"],
        c["cv"],
        c["ppi"],
    ]


def summary(analysis: Analysis, fmt: Format, metric: str | None = None) -> Table:
    """Cross-competition summary (paper Tables 7-11), one column per competition (key = its id).

    ``extra["headings"]`` maps each id to (challenge, task, language, metric) (the metric's name,
    or the display name a user metric declares),
    ``extra["not_computable"]`` each id to its stored ``competitiveness["not_computable"]`` (the
    counts printed "–", :func:`~compreport.report.prose.not_computable_note`); rows are
    :data:`SUMMARY_ROWS`, labelled in the report's language. ``metric`` picks a metric by name
    (default: each competition's primary metric); a competition without it has no column.
    """
    columns, headings, values = {}, {}, {}
    for comp in analysis.competitions:
        ma = (
            comp.primary
            if metric is None
            else next((x for x in comp.metrics if x.name == metric), None)
        )
        if ma is None:
            continue
        columns[comp.id] = comp.name
        headings[comp.id] = (*group_path(comp), ma.label or ma.name)  # label: a user's
        values[comp.id] = (ma, summary_values(ma))
    rows = [
        Row(tr(name), {cid: Cell(v[i], fmt.summary(v[i])) for cid, (_, v) in values.items()})
        for i, name in enumerate(SUMMARY_ROWS)
    ]
    return Table(
        "summary",
        columns,
        rows,
        extra={
            "headings": headings,
            "ideal": {c: ma.ideal for c, (ma, _) in values.items()},
            "ppi_unit": {c: ma.competitiveness.get("ppi_unit") for c, (ma, _) in values.items()},
            "not_computable": {
                c: ma.competitiveness.get("not_computable") or {} for c, (ma, _) in values.items()
            },
        },
    )


def summary_frame(analysis: Analysis):
    """The summary as a pandas DataFrame for ``competitiveness.csv``: rows :data:`SUMMARY_ROWS`,
    a column per competition id, the stored values."""
    import pandas as pd

    t = summary(analysis, Format())
    return pd.DataFrame(
        {cid: [r.cells[cid].value for r in t.rows] for cid in t.columns},
        index=list(SUMMARY_ROWS),
        dtype=object,
    )
