"""The paper's tables as LaTeX (Jinja templates of ``templates/latex/``), laid out for a class.

Each table file is one or more floats ready to ``\\input`` into a paper whose preamble has the
lines of ``OUT/preamble.tex`` (:func:`preamble`): fontenc T1, the style's fonts, booktabs and
array; the file's header comment names them. Numbers are set by
:func:`~compreport.report.latex.tex.num` in ``r`` columns (no siunitx). No ``\\resizebox``, no
vertical rules, no change of type size, no ``longtable``: a table that does not fit is split into
several floats, numbered in order (:mod:`~compreport.report.latex.widths` measures every column as
pdflatex does). In two-column styles a part that fits the column is a ``table``, a wider one a
``table*``. Captions go where the class wants them (ceurart above, SEPLN and ACL below); every
``\\label`` is ``tab:<prefix>:...`` so several outputs can share one paper.

Every value printed is a cell of :mod:`compreport.report.model` (the same digits and bold as HTML
and Markdown); every verdict is the stored one and every caption stating one names the rule;
every user string goes through :func:`~compreport.report.latex.tex.escape`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

import jinja2

from compreport.language import N_, count, current, decimal_comma, tr
from compreport.language import vocabulary as vocab
from compreport.report import model, prose
from compreport.report.latex import tex
from compreport.report.latex.layout import (
    OPTIONAL_COLUMNS,
    Options,
    Style,
    spans,
    split_even,
    split_rows,
)
from compreport.report.latex.tex import escape, mark, metric_name
from compreport.report.latex.widths import tex_width
from compreport.report.latex.words import (
    alpha,
    ci_method,
    continued,
    header,
    legend_tex,
    level,
    p_test,
    part,
)
from compreport.report.naming import metric_stems
from compreport.report.prose import direction, draws
from compreport.resources import templates_dir
from compreport.stats.results import Analysis, CompetitionAnalysis, MetricAnalysis


def environment() -> jinja2.Environment:
    """Jinja with LaTeX-safe delimiters: ``\\VAR{x}``, ``\\BLOCK{for ...}``, ``\\#{comment}``."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir() / "latex")),
        block_start_string=r"\BLOCK{",
        block_end_string="}",
        variable_start_string=r"\VAR{",
        variable_end_string="}",
        comment_start_string=r"\#{",
        comment_end_string="}",
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["tex"] = escape
    env.filters["metric"] = metric_name
    env.filters["count"] = count
    env.globals["tr"] = tr
    return env


def preamble(options: Options, version: str) -> str:
    """The text of ``OUT/preamble.tex``: the exact lines the tables of ``options.style`` need.

    Parameters
    ----------
    options : Options
        The rendering options; their style decides the font lines.
    version : str
        The compreport version named in the first comment.
    """
    st = options.layout
    lines = [
        f"% compreport {version}: what the tables need in a paper of style {st.name} ({st.title}).",
        "% \\input{preamble.tex} after \\documentclass (and the class's own packages), or copy "
        "these lines;",
        "% a line for a package the class already loads is harmless.",
        *st.preamble,
        r"\usepackage{booktabs}% \toprule, \midrule, \cmidrule, \bottomrule",
        r"\usepackage{array}% >{...} before the p{} columns of the legend and summary headers, "
        r"<{...} after the numbers of the pair matrices",
    ]
    # the tables' words are Spanish; a class in English needs babel for the rest
    if current() == "es":
        lines.append(
            r"% a report in Spanish: \usepackage[spanish]{babel} (SEPLN's class loads it) names "
            r"tables and figures in Spanish and hyphenates its words"
        )
    return "\n".join(lines) + "\n"


def default_prefix(analysis: Analysis) -> str:
    """The label prefix when none is given: the workshop's name as a slug, else the first
    competition's id (``compreport`` for an analysis without competitions)."""
    from compreport.inputs.slugs import slug

    name = (analysis.workshop or {}).get("name")
    if name:
        return slug(str(name))
    return analysis.competitions[0].id if analysis.competitions else "compreport"


@dataclass
class Part:
    """One float of a table: its tabular's model width (pt), its LaTeX body, caption and label."""

    width: float
    body: str
    caption: str
    label: str


class Renderer:
    """The LaTeX tables of one analysis.

    Every table method returns the text of one ``.tex`` file: a comment with the settings and the
    packages the file needs, then the table as one float or, when it does not fit the style's
    page, as several.

    Parameters
    ----------
    analysis : Analysis
        The analysis whose stored results the tables print.
    options : Options, optional
        Style, decimals, label prefix and decimal marker; default ``Options()``.

    Attributes
    ----------
    style : Style
        The class the tables are laid out for (``options.layout``).
    prefix : str
        The label prefix: ``options.label_prefix``, else :func:`default_prefix`.
    stamp : str
        The first line of every file: version and settings.
    """

    def __init__(self, analysis: Analysis, options: Options | None = None):
        self.analysis = analysis
        self.opt = options or Options()
        self.fmt = self.opt.format
        self.style: Style = self.opt.layout
        self.m = self.style.metrics
        self.prefix = self.opt.label_prefix or default_prefix(analysis)
        self.env = environment()
        s = analysis.settings
        self.stamp = (
            f"% compreport {analysis.version}: B={s.bootstrap}, seed={s.seed}, alpha={s.alpha:g}, "
            f"ci={s.ci_method}, test={s.test}, family={s.family}, correction={s.correction}, "
            f"style={self.opt.style}"
        )

    # -- cells, columns and floats -----------------------------------------------------------------

    def label(self, what: str) -> str:
        """The label ``tab:<prefix>:<what>`` (unique across outputs with different prefixes)."""
        return f"tab:{self.prefix}:{what}"

    def table_label(self, comp: CompetitionAnalysis, stem: str) -> str:
        """The label of a table of ``comp`` written to ``tables/<stem>.tex``:
        ``tab:<prefix>:<competition id>-<stem>``, or ``tab:<prefix>:<stem>`` when the prefix is
        the competition's id (never the id twice)."""
        return self.label(stem if self.prefix == comp.id else f"{comp.id}-{stem}")

    def cell(self, c: model.Cell, overlap: bool = False) -> str:
        """A model cell as LaTeX with this renderer's decimal marker
        (:func:`~compreport.report.latex.tex.cell`)."""
        return tex.cell(c, self.opt.decimal_comma, overlap)

    def num(self, value: object, math: bool = False) -> str:
        """A number as LaTeX with this renderer's decimal marker
        (:func:`~compreport.report.latex.tex.num`)."""
        return tex.num(value, self.opt.decimal_comma, math)

    def _render(self, template: str, **kw) -> str:
        return self.env.get_template(template).render(**kw)

    def _file(self, parts: list[Part], comment: str = "") -> str:
        """The stamp, the packages comment, ``comment`` (a ``%`` line, if any) and every part as
        a float."""
        body = "\n".join(self._float(p) for p in parts)
        packages = ["booktabs"] + (["array"] if ">{" in body or "<{" in body else [])
        needs = (
            "% needs (see preamble.tex): \\usepackage[T1]{fontenc}, "
            f"\\usepackage{{{','.join(packages)}}}"
        )
        return f"{self.stamp}\n{needs}\n" + (f"{comment}\n" if comment else "") + body

    def _float(self, p: Part) -> str:
        st = self.style
        env = st.env(p.width) or ("table*" if st.twocolumn else "table")
        where = f"column {st.columnwidth:.1f}pt" + (
            f", page {st.textwidth:.1f}pt" if st.twocolumn else ""
        )
        # heights of rows of one line (the wrapped p{} cells of the legend and summary, whose
        # rows do not grow with the systems, are not modelled)
        tall = ""
        if not re.search(r"(?<![A-Za-z])p\{", p.body):
            tall = f", float {st.float_height(p.caption, p.body, p.width):.2f}pt tall"
            where += f", text height {st.textheight:.1f}pt"
        return self._render(
            "float.tex.j2",
            env=env,
            caption=p.caption,
            label=p.label,
            body=p.body,
            below=st.caption_below,
            measure=f"% tabular {p.width:.2f}pt wide{tall} by the {st.name} model ({where}; "
            f"{st.font_names})",
        )

    def _empty(self, what: str, reason: str) -> str:
        return self._render("empty.tex.j2", stamp=self.stamp, what=what, reason=reason)

    def _col(self, cells: list[str]) -> float:
        """Width (pt) of a text column (``l``/``r``/``c``) holding these LaTeX cells."""
        return max([tex_width(c, self.m) for c in cells] + [0.0])

    def _num_col(self, cells: list[model.Cell], header: str, pad: str = "") -> float:
        """Width (pt) of a numeric column under ``header``; ``pad``: what every cell reserves
        (``r<{pad}``)."""
        return self._col([header + pad] + [self.cell(c, bool(pad)) + pad for c in cells])

    def _name(self, name: str, baseline: bool) -> str:
        return f"\\textit{{{escape(name)}}}" if baseline else escape(name)

    def _rule(self) -> str:
        """The rule of every verdict (:attr:`~compreport.settings.Settings.rule`), escaped, its
        numbers (the one-sided test's two-sided level) with the tables' decimal marker."""
        with decimal_comma(self.opt.decimal_comma):
            return escape(self.analysis.settings.rule)

    @staticmethod
    def _key(numbered: list[tuple[int, str]]) -> str:
        """``1: name; 2: name`` for systems shown by their number, names breakable
        (:func:`~compreport.report.latex.tex.breakable`)."""
        return "; ".join(f"{k}: {tex.breakable(name)}" for k, name in numbered)

    @staticmethod
    def _parts(label: str, n: int) -> list[str]:
        """Labels of ``n`` parts: ``label``, ``label-2``, ..."""
        return [label if k == 0 else f"{label}-{k + 1}" for k in range(n)]

    def _caption_height(self, caption: str, width: float) -> float:
        return self.style.caption_height(caption, self._span(width))

    def _span(self, width: float) -> float:
        """Width (pt) of the float holding a tabular ``width`` pt wide: the column or the page."""
        st = self.style
        return st.columnwidth if st.env(width) == "table" else st.textwidth

    def _row_groups(
        self,
        n: int,
        caption: str,
        width: float,
        header_rows: int = 1,
        extra: int = 0,
        note: str | None = None,
    ) -> list[list[int]]:
        """Rows cut evenly so each part fits ``\\textheight`` under its caption, with ``note``
        (if any) under the tabular."""
        st = self.style
        below = st.note_height(note, self._span(width)) if note is not None else 0.0
        return split_rows(
            n, st.max_rows(self._caption_height(caption, width), header_rows, extra, below)
        )

    def _fewest_parts(self, n: int, caption: Callable, width: float) -> list[list[int]]:
        """``n`` rows cut into consecutive parts, each with as many rows as fit ``\\textheight``
        under its own caption, ``caption(k, rows, parts)`` (part ``k``, whose key names the systems
        of ``rows``; ``parts`` is given as 99, the widest count): a part whose key names fewer
        systems holds more rows. A last part of one row takes a second from the part before (no
        part of a single row)."""
        groups, i = [], 0
        while i < n:
            lo, hi = 1, n - i  # the most rows r that fit under the caption naming them
            while lo < hi:
                mid = (lo + hi + 1) // 2
                cap = caption(len(groups), range(i, i + mid), 99)
                fits = mid <= self.style.max_rows(self._caption_height(cap, width))
                lo, hi = (mid, hi) if fits else (lo, mid - 1)
            groups.append(list(range(i, i + lo)))
            i += lo
        if len(groups) > 1 and len(groups[-1]) == 1 and len(groups[-2]) > 2:
            groups[-1].insert(0, groups[-2].pop())
        return groups or [[]]

    def _row_parts(
        self,
        groups: list[list[int]],
        width: float,
        head: str,
        tail: str,
        label: str,
        body: Callable[[list[int]], str],
        continued_key: Callable[[list[int]], str] = lambda rows: "",
        part_width: Callable[[list[int]], float] | None = None,
        comment: str = "",
    ) -> str:
        """A table split by rows into ``groups``: ``body(rows)`` is a part's tabular; the first
        part's caption is ``head`` + ``tail``, a later part's says it continues (plus
        ``continued_key(rows)``). ``part_width(rows)``: a part's own width (:meth:`_own_width`;
        default ``width``)."""
        labels = self._parts(label, len(groups))
        parts = []
        for k, rg in enumerate(groups):
            cap = (
                head + part(1, len(groups)) + tail
                if k == 0
                else continued(head, labels[0], k + 1, len(groups)) + continued_key(rg)
            )
            own = self._own_width(part_width(rg), width) if part_width else width
            parts.append(Part(own, body(rg), cap, labels[k]))
        return self._file(parts, comment)

    def _own_width(self, own: float, whole: float) -> float:
        """The width (pt) a part of a table split by rows is set at: its own rows' width ``own``,
        unless that would move it from the table's float (``table*``) into the column, whose
        narrower caption the split did not allow for: then the table's ``whole``."""
        return own if self.style.env(own) == self.style.env(whole) else whole

    # -- per competition ---------------------------------------------------------------------------

    def leaderboard(self, comp: CompetitionAnalysis) -> str:
        """Rank, system, team, every metric (best in bold) with the primary metric's interval,
        significance group and marks (paper Table 1; the optional columns: ``options.columns``).

        Metric columns are split evenly into the fewest floats that fit, rows by height; system
        names become numbers, with a key in the caption, when they leave no room for one metric.
        An optional column that would split the table into more floats than it needs without
        them, or move it from a column to the page (``table*``), is left out (in the order of
        :data:`~compreport.report.latex.layout.OPTIONAL_COLUMNS`), and the file's header comment
        says so.
        """
        t = model.leaderboard(comp, self.fmt)
        st = self.style
        keys = [f"score:{ma.name}" for ma in comp.metrics]
        cells = {
            "rank": [r["rank"].text for r in t.rows],
            "rank_set": [escape(r["rank_set"].text) for r in t.rows],
            "team": [self._text(r["team"]) for r in t.rows],
            "ci": [self._interval(r["ci_low"], r["ci_high"]) for r in t.rows],
            "group": [escape(r["group"].text) for r in t.rows],
            "marks": [escape(r["marks"].text) for r in t.rows],
        }
        heads = {
            "rank": header("Rank"),
            "rank_set": header("Rank set"),
            "system": header("System"),
            "team": header("Team"),
            "ci": header("CI"),
            "group": header("Group"),
            "marks": header("Marks"),
        }
        available = {
            "rank_set": t.extra["rank_sets"],
            "team": t.extra["teams"],
            "ci": any(c != "--" for c in cells["ci"]),
            "group": True,
            "marks": bool(self._mark_kinds(comp, t)),
        }
        metric_w = [
            self._num_col([r[k] for r in t.rows], metric_name(ma, True))
            for ma, k in zip(comp.metrics, keys)
        ]

        def col(key, names, rows):
            values = names if key == "system" else cells[key]
            return self._col([heads[key]] + [values[i] for i in rows])

        def fixed_for(names, rows, shown):  # every column but the metrics': in every part
            order = ("rank", "rank_set", "system", "team", "group", "marks")
            return [col(k, names, rows) for k in order if k in ("rank", "system") or k in shown]

        def units(rows, shown):  # each metric's column, the primary's with its interval
            out = list(metric_w)
            if "ci" in shown:
                out[0] += 2 * st.tabcolsep + col("ci", None, rows)
            return out

        def plan_for(names, shown):  # metric columns split evenly
            fixed, w = fixed_for(names, range(len(t.rows)), shown), units(range(len(t.rows)), shown)
            return fixed, split_even(
                w, lambda g: st.table_width(fixed + [w[i] for i in g]) <= st.widest
            )

        names = [self._name(r.label, r.baseline) for r in t.rows]
        key = ""
        if plan_for(names, set())[1] is None:  # names too long for even one metric: numbers
            names = [f"{i + 1}." for i in range(len(t.rows))]
            key = tr(
                " Systems are numbered by position ({key}).",
                key=self._key([(i + 1, r.label) for i, r in enumerate(t.rows)]),
            )

        def floats(shown):  # how many floats by columns, and whether a column's or the page's
            fixed, g = plan_for(names, shown)
            w = units(range(len(t.rows)), shown)
            if g is None:
                return (len(keys) + 1, None)
            envs = [st.env(st.table_width(fixed + [w[i] for i in x])) for x in g]
            return (len(g), max(("table", "table*", None).index(e) for e in envs))

        needed = floats(set())
        shown = {c for c in OPTIONAL_COLUMNS if c in self.opt.columns and available[c]}
        left_out = []
        for c in OPTIONAL_COLUMNS[:-1]:  # the group letters are never left out
            if floats(shown) == needed:
                break
            if c in shown:
                shown.discard(c)
                left_out.append(c)
        fixed, col_groups = plan_for(names, shown)
        col_groups = col_groups or [[i] for i in range(len(keys))]
        w_units = units(range(len(t.rows)), shown)

        def width(g):
            return st.table_width(fixed + [w_units[i] for i in g])

        head = tr("Leaderboard of {competition}", competition=escape(comp.name))
        tail = self._leaderboard_tail(comp, t, shown) + key
        # the note under a part with baselines (leaderboard.tex.j2)
        note = escape(tr("Baselines provided by the organizers are set in italics."))
        baselines = any(r.baseline for r in t.rows)
        plan = []  # (metric columns, rows, index of the part it continues)
        for cg in col_groups:
            rows = self._row_groups(
                len(t.rows), head + tail, width(cg), note=note if baselines else None
            )
            plan += [(cg, rg, len(plan)) for rg in rows]
        labels = self._parts(self.table_label(comp, "leaderboard"), len(plan))
        parts = []
        for k, (cg, rg, first) in enumerate(plan):
            rows = [
                {
                    "rank": cells["rank"][i],
                    "rank_set": cells["rank_set"][i],
                    "system": names[i],
                    "team": cells["team"][i],
                    "baseline": t.rows[i].baseline,
                    "scores": [self.cell(t.rows[i][keys[j]]) for j in cg],
                    "ci": cells["ci"][i],
                    "group": cells["group"][i],
                    "marks": cells["marks"][i],
                }
                for i in rg
            ]
            body = self._render(
                "leaderboard.tex.j2",
                metrics=[comp.metrics[j] for j in cg],
                ci=0 in cg and "ci" in shown,
                shown=shown,
                heads=heads,
                rows=rows,
                has_baselines=any(r["baseline"] for r in rows),
            )
            caption = (
                head + part(k + 1, len(plan)) + tail
                if k == first
                else continued(head, labels[first], k + 1, len(plan)) + key
            )
            mine = units(rg, shown)
            own = st.table_width(
                fixed_for(names, rg, shown)
                + [
                    self._num_col(
                        [t.rows[i][keys[j]] for i in rg], metric_name(comp.metrics[j], True)
                    )
                    + (mine[0] - metric_w[0] if j == 0 else 0.0)
                    for j in cg
                ]
            )
            parts.append(Part(self._own_width(own, width(cg)), body, caption, labels[k]))
        return self._file(parts, self._left_out(left_out))

    def _text(self, c: model.Cell) -> str:
        """A text cell (a name, not a number) as LaTeX: ``--`` when missing, else escaped."""
        return "--" if c.text == model.MISSING else escape(c.text)

    def _interval(self, low: model.Cell, high: model.Cell) -> str:
        """An interval as LaTeX, ``[0.6250, 0.7480]`` (``[0,6250; 0,7480]`` with the decimal
        comma), or ``--`` without one."""
        if low.text == model.MISSING or high.text == model.MISSING:
            return "--"
        comma = self.opt.decimal_comma
        sep = ";" if comma else ","
        return f"[{tex.cell_text(low, comma)}{sep} {tex.cell_text(high, comma)}]"

    @staticmethod
    def _left_out(columns: list[str], why: str = "split or widen the table") -> str:
        """The header comment naming the optional columns left out, and ``why``."""
        if not columns:
            return ""
        return f"% left out, as they would {why}: {', '.join(columns)} (see --latex-columns)"

    @staticmethod
    def _mark_kinds(comp: CompetitionAnalysis, t: model.Table, by: str | None = None) -> list[str]:
        """The marks of the table's rows that say more than its bold and italics (``best`` and
        ``baseline`` do not), as the captions explain them: ``tied``, ``undecided``, ``beats``,
        ``missing``; in that order. ``by``: the column naming each row's run (default: the row's
        label)."""
        scores = {s.system: s for s in comp.primary.scores}
        kinds = set()
        for r in t.rows:
            s = scores.get(r[by].value if by else r.label)
            if s is None:
                continue
            kinds |= {"tied"} if s.ties_with_best and not s.is_best else set()
            kinds |= {"undecided"} if s.undecided else set()
            kinds |= {"missing"} if comp.missing.get(s.system, 0) else set()
        if comp.baselines and model.shows_beats(comp.primary):
            if any(model.beaten(comp.primary, s)[0] for s in comp.primary.scores):
                kinds.add("beats")
        return [k for k in ("tied", "undecided", "beats", "missing") if k in kinds]

    def _marks_caption(
        self, comp: CompetitionAnalysis, t: model.Table, rule: bool, by: str | None = None
    ) -> str:
        """The caption's sentence on the Marks column: each kind of mark its rows hold, in words;
        ``rule``: name the rule of the verdicts (when no Group sentence names it)."""

        def em(words):  # in italics word by word, as the caption's height model measures them
            return " ".join(f"\\textit{{{w}}}" for w in escape(words).split())

        words = {
            "tied": tr(
                "{mark}, not significantly different from the best", mark=em(tr("tied with best"))
            ),
            "undecided": tr(
                "{mark}, a verdict within the Monte-Carlo error of its $p$-values",
                mark=em(tr("undecided")),
            ),
            "beats": tr(
                "{mark}, significantly better than the baseline", mark=em(tr("beats baseline"))
            ),
            "missing": tr(
                "{mark}, items without a prediction, scored as wrong answers",
                mark=em(tr("{n} missing", n="N")),
            ),
        }
        kinds = self._mark_kinds(comp, t, by)
        if by:  # the teams' table: its marks are those of each team's best run
            kinds = [k for k in kinds if k != "beats"]
        if not kinds:
            return ""
        text = tr(" Marks: {marks}", marks="; ".join(words[k] for k in kinds))
        if rule:
            comma = self.opt.decimal_comma
            text += f" ({self._rule()}, {alpha(self.analysis.settings.alpha, comma)})"
        return text + "."

    def _leaderboard_tail(self, comp: CompetitionAnalysis, t: model.Table, shown: set) -> str:
        """The caption of the leaderboard after its head: the ranking metric, then a sentence
        for each optional column shown."""
        s = self.analysis.settings
        comma = self.opt.decimal_comma
        text = tr(
            ", ranked by {metric} ({direction}; best values in bold).",
            metric=metric_name(comp.primary),
            direction=direction(comp.primary),
        )
        if "ci" in shown:
            text += tr(
                " CI: the {level}\\% {method} bootstrap confidence interval of {metric}.",
                level=level(s, comma),
                method=ci_method(s.ci_method),
                metric=metric_name(comp.primary),
            )
        if "group" in shown:
            text += tr(
                " Systems sharing a letter in column Group are not significantly different "
                "({rule}, {alpha}).",
                rule=self._rule(),
                alpha=alpha(s.alpha, comma),
            )
        if "marks" in shown:
            text += self._marks_caption(comp, t, "group" not in shown)
        if "rank_set" in shown:
            text += tr(
                " Column Rank set: the ranks a system may truly have, at {level}\\% "
                "confidence jointly for all systems.",
                level=level(s, comma),
            )
        return text

    def confidence_intervals(
        self, comp: CompetitionAnalysis, ma: MetricAnalysis | None = None
    ) -> str:
        """Ordered bootstrap CIs, one block per metric side by side (paper Table 2).

        Parameters
        ----------
        comp : CompetitionAnalysis
            The competition.
        ma : MetricAnalysis, optional
            Only this metric's block (default: every metric's, split into floats by
            :meth:`ci_blocks` when too wide).
        """
        blocks = [(metric_name(x), comp, x) for x in ([ma] if ma else comp.metrics)]
        with decimal_comma(self.opt.decimal_comma):  # its count grouped as the appendix's prose
            unit = (
                tr(" (resampling {unit})", unit=escape(prose.unit(comp))) if comp.clusters else ""
            )
        label = f"ci-{metric_stems(comp)[ma.name]}" if ma else "ci"
        caption = tr(
            "Ordered bootstrap confidence intervals for {competition}{unit}",
            competition=escape(comp.name),
            unit=unit,
        )
        return self.ci_blocks(blocks, caption=caption, label=self.table_label(comp, label))

    def ci_blocks(
        self,
        blocks: list[tuple[str, CompetitionAnalysis, MetricAnalysis]],
        caption: str,
        label: str,
    ) -> str:
        """Blocks of ordered bootstrap CIs side by side (paper Table 2).

        Blocks are packed evenly into the fewest floats that fit, rows split by height. A block
        whose system names do not fit the page numbers its systems, with a key in the caption.

        Parameters
        ----------
        blocks : list of (str, CompetitionAnalysis, MetricAnalysis)
            Each block's title (LaTeX), competition and metric.
        caption : str
            The caption's head (LaTeX); the method and its settings follow it.
        label : str
            The first float's label; later ones add ``-2``, ``-3``...
        """
        st = self.style
        prepared, block_cols = [], []
        keys = []  # blocks whose names are too long for the page: numbers, with a key

        def columns(names, nums, title_w):
            cols = [self._col([header("System")] + names)] + nums
            if title_w > st.table_width(cols):  # the spanning title widens the last column
                cols[-1] += title_w - st.table_width(cols)
            return cols

        for title, comp, ma in blocks:
            t = model.confidence_intervals(comp, ma, self.fmt)
            nums = [
                self._num_col([r[k] for r in t.rows], header(h))
                for k, h in (("ci_low", "LCI"), ("mean", "Mean"), ("ci_high", "UCI"))
            ]
            title_w = tex_width(title, self.m)
            names = [self._name(r.label, r.baseline) for r in t.rows]
            cols = columns(names, nums, title_w)
            if st.table_width(cols) > st.widest:
                names = [f"{i + 1}." for i in range(len(t.rows))]
                cols = columns(names, nums, title_w)
                keys.append(
                    tr(
                        " {title}: systems are numbered by position ({key}).",
                        title=title,
                        key=self._key([(i + 1, r.label) for i, r in enumerate(t.rows)]),
                    )
                )
            block_cols.append(cols)
            prepared.append(
                {
                    "title": title,
                    "rows": [
                        {
                            "system": n,
                            "low": self.cell(r["ci_low"]),
                            "mean": self.cell(r["mean"]),
                            "high": self.cell(r["ci_high"]),
                        }
                        for n, r in zip(names, t.rows)
                    ],
                }
            )

        def width(g):
            return st.table_width([w for i in g for w in block_cols[i]])

        groups = split_even(
            [st.table_width(c) for c in block_cols], lambda g: width(g) <= st.widest
        ) or [[i] for i in range(len(blocks))]
        s = self.analysis.settings
        tail = tr(
            ": bootstrap mean and {level}\\% {method} confidence interval (LCI, UCI) from "
            "{resamples} resamples, best first.",
            level=level(s, self.opt.decimal_comma),
            method=ci_method(s.ci_method),
            resamples=self.num(s.bootstrap),
        ) + "".join(keys)
        plan = []  # (blocks, rows, index of the part it continues)
        for g in groups:
            nrows = max(len(prepared[i]["rows"]) for i in g)
            rows = self._row_groups(nrows, caption + tail, width(g), header_rows=2, extra=1)
            plan += [(g, rg, len(plan)) for rg in rows]
        labels = self._parts(label, len(plan))
        parts = []
        for k, (g, rg, first) in enumerate(plan):
            sel = [
                dict(
                    prepared[i],
                    rows=[
                        prepared[i]["rows"][j] if j < len(prepared[i]["rows"]) else None for j in rg
                    ],
                )
                for i in g
            ]
            body = self._render("ci.tex.j2", blocks=sel)
            cap = (
                caption + part(k + 1, len(plan)) + tail
                if k == first
                else continued(caption, labels[first], k + 1, len(plan)) + "".join(keys)
            )
            parts.append(Part(width(g), body, cap, labels[k]))
        return self._file(parts)

    def team_ranking(self, comp: CompetitionAnalysis) -> str:
        """The teams' ranking, as page 1 of the report shows it (the stored ``comp.team_ranks``):
        rank among the teams, team, its best run, that run's primary score (best in bold),
        interval, group and marks, and the team's number of runs; rows split by height.

        The optional columns are ``options.columns``'; one that would make the table wider than
        it is without them (wider than the column, or than the page) is left out (in the order of
        :data:`~compreport.report.latex.layout.OPTIONAL_COLUMNS`; the team's is never), and the
        file's header comment says so.
        """
        t = model.team_ranking(comp, self.fmt)
        st = self.style
        scores = {s.system: s for s in comp.primary.scores}
        best = [scores[r["best"].value] for r in t.rows]
        cells = {k: [escape(r[k].text) for r in t.rows] for k in ("rank", "team", "best", "runs")}
        cells["rank_set"] = [escape(r["rank_set"].text) for r in t.rows]
        cells["group"] = [escape(r["group"].text) for r in t.rows]
        cells["marks"] = [escape(r["marks"].text) for r in t.rows]
        cells["ci"] = [
            self._interval(
                model.Cell(s.ci_low, self.fmt.score(s.ci_low)),
                model.Cell(s.ci_high, self.fmt.score(s.ci_high)),
            )
            for s in best
        ]
        score = metric_name(comp.primary, True)
        heads = {
            "rank": header("Rank"),
            "rank_set": header("Rank set"),
            "team": header("Team"),
            "best": header("Best run"),
            "ci": header("CI"),
            "group": header("Group"),
            "runs": header("Runs"),
            "marks": header("Marks"),
        }
        available = {
            "rank_set": any(r["rank_set"].text != model.MISSING for r in t.rows),
            "team": True,
            "ci": any(c != "--" for c in cells["ci"]),
            "group": True,
            "marks": bool(self._mark_kinds(comp, t, by="best")),
        }
        order = ("rank", "rank_set", "team", "best", "score", "ci", "group", "runs", "marks")

        def widths(rows, shown):
            out = []
            for k in order:
                if k == "score":
                    out.append(self._num_col([t.rows[i]["score"] for i in rows], score))
                elif k in ("rank", "best", "runs") or k in shown:
                    out.append(self._col([heads[k]] + [cells[k][i] for i in rows]))
            return out

        everything = range(len(t.rows))
        shown = {c for c in OPTIONAL_COLUMNS if c in self.opt.columns and available[c]}
        shown.add("team")
        left_out = []
        needed = st.env(st.table_width(widths(everything, set())))
        for c in OPTIONAL_COLUMNS[:-1]:
            if st.env(st.table_width(widths(everything, shown))) in (needed, "table"):
                break
            if c in shown and c != "team":
                shown.discard(c)
                left_out.append(c)
        w = st.table_width(widths(everything, shown))
        s = self.analysis.settings
        comma = self.opt.decimal_comma
        head = tr("Teams of {competition} ranked by their best run", competition=escape(comp.name))
        tail = tr(
            " under {metric} ({direction}): rank among the teams, the team's best run and its "
            "score, and the team's number of runs. Baselines are in no team.",
            metric=metric_name(comp.primary),
            direction=direction(comp.primary),
        )
        if "ci" in shown:
            tail += tr(
                " CI: the {level}\\% {method} bootstrap confidence interval of that score.",
                level=level(s, comma),
                method=ci_method(s.ci_method),
            )
        if "group" in shown:
            tail += tr(
                " Group: the run's significance group in the leaderboard; runs sharing a letter "
                "are not significantly different ({rule}, {alpha}).",
                rule=self._rule(),
                alpha=alpha(s.alpha, comma),
            )
        if "marks" in shown:
            tail += self._marks_caption(comp, t, "group" not in shown, by="best")
        if "rank_set" in shown:
            tail += tr(
                " Column Rank set: the ranks a team may truly have, at {level}\\% confidence "
                "jointly for all teams.",
                level=level(s, comma),
            )

        def body(rg):
            return self._render(
                "teams.tex.j2",
                metric=score,
                heads=heads,
                shown=shown,
                rows=[
                    {k: cells[k][i] for k in cells} | {"score": self.cell(t.rows[i]["score"])}
                    for i in rg
                ],
            )

        return self._row_parts(
            self._row_groups(len(t.rows), head + tail, w),
            w,
            head,
            tail,
            self.table_label(comp, "teams"),
            body,
            part_width=lambda rg: st.table_width(widths(rg, shown)),
            comment=self._left_out(left_out, "make the table wider than the column or page"),
        )

    def per_class(self, comp: CompetitionAnalysis) -> str | None:
        """The best system's per-class precision, recall, F1 and support (the stored
        ``comp.classes``), or None for a competition without them."""
        t = model.per_class(comp, self.fmt)
        if t is None:
            return None
        labels = [escape(r.label) for r in t.rows]
        w = self.style.table_width(
            [self._col([header("Class")] + labels)]
            + [
                self._num_col([r[k] for r in t.rows], h)
                for k, h in (
                    ("precision", header("Precision")),
                    ("recall", header("Recall")),
                    ("f1", "F$_1$"),
                )
            ]
            + [self._col([header("Support")] + [escape(r["support"].text) for r in t.rows])]
        )
        head = tr("Per-class scores of {system}", system=escape(t.extra["system"]))
        tail = tr(
            ", the best system of {competition} by {metric}, on the full test set (field "
            "{field}): precision of the items it labels with the class, recall of the class's "
            "gold items, their F$_1$, and the class's gold items (support); 0 where undefined. "
            "Point estimates, without intervals.",
            competition=escape(comp.name),
            metric=metric_name(comp.primary),
            field=escape(t.extra["field"]),
        )

        def body(rg):
            return self._render(
                "per_class.tex.j2",
                rows=[
                    {
                        "label": labels[i],
                        **{k: self.cell(t.rows[i][k]) for k in ("precision", "recall", "f1")},
                        "support": escape(t.rows[i]["support"].text),
                    }
                    for i in rg
                ],
            )

        return self._row_parts(
            self._row_groups(len(t.rows), head + tail, w),
            w,
            head,
            tail,
            self.table_label(comp, "per-class"),
            body,
        )

    # -- pairs of systems under one metric ---------------------------------------------------------

    def differences_from_best(self, comp: CompetitionAnalysis, ma: MetricAnalysis) -> str:
        """CIs of the differences from the best with the stored verdicts (paper Table 3).

        Rows are split by height; names become rank numbers, with a key in the caption, only if
        the table cannot fit otherwise.
        """
        t = model.differences_from_best(comp, ma, self.fmt)
        st = self.style
        position = {s.system: i + 1 for i, s in enumerate(ma.scores)}

        def other_for(rows):  # every column but the systems'
            sel = [t.rows[i] for i in rows]
            return [
                self._num_col([r[k] for r in sel], header(h))
                for k, h in (("ci_low", "LCI"), ("diff", "Diff."), ("ci_high", "UCI"))
            ] + [
                self._num_col([r["p_adjusted"] for r in sel], "$p$"),
                self._col(["Sig."] + [escape(r["significant"].text) for r in sel]),
            ]

        other = other_for(range(len(t.rows)))
        full = [self._name(r.label, r.baseline) for r in t.rows]
        short = [str(position[r.label]) + "." for r in t.rows]
        width_full = st.table_width([self._col([header("System")] + full)] + other)
        abbreviate = width_full > st.widest
        names = short if abbreviate else full
        w = st.table_width([self._col([header("System")] + names)] + other)
        s = self.analysis.settings
        head = tr(
            "Differences of {metric} from the best system of {competition}",
            metric=metric_name(ma),
            competition=escape(comp.name),
        )
        key = (
            tr(
                " Systems are numbered by rank ({key}).",
                key=self._key([(position[r.label], r.label) for r in t.rows]),
            )
            if abbreviate
            else ""
        )
        tail = tr(
            ", {best} (positive: the best is better), with {level}\\% {method} bootstrap "
            "confidence intervals (not corrected for multiple comparisons). Sig.: significantly "
            "different from the best, decided by $p$ ({rule}, {alpha}).",
            best=escape(ma.best),
            level=level(s, self.opt.decimal_comma),
            method=ci_method(s.ci_method),
            rule=self._rule(),
            alpha=alpha(s.alpha, self.opt.decimal_comma),
        )
        tail += self._monte_carlo(ma, t) + key

        def body(rg):
            return self._render(
                "vs_best.tex.j2",
                rows=[
                    {
                        "system": names[i],
                        "low": self.cell(t.rows[i]["ci_low"]),
                        "diff": self.cell(t.rows[i]["diff"]),
                        "high": self.cell(t.rows[i]["ci_high"]),
                        "p": self.cell(t.rows[i]["p_adjusted"]),
                        "significant": escape(t.rows[i]["significant"].text),
                    }
                    for i in rg
                ],
            )

        def continued_key(rg):  # a later part's key to its rank numbers
            return (
                tr(
                    " Systems: {key}",
                    key=self._key([(position[t.rows[i].label], t.rows[i].label) for i in rg]),
                )
                if abbreviate
                else ""
            )

        return self._row_parts(
            self._row_groups(len(t.rows), head + tail, w),
            w,
            head,
            tail,
            self.table_label(comp, f"diff-best-{metric_stems(comp)[ma.name]}"),
            body,
            continued_key,
            lambda rg: st.table_width(
                [self._col([header("System")] + [names[i] for i in rg])] + other_for(rg)
            ),
        )

    def _monte_carlo(self, ma: MetricAnalysis, t: model.Table) -> str:
        """The Monte-Carlo error of the table's p-values, for the caption (the per-pair standard
        errors are in results.json and the HTML table): the resamples behind them, the largest
        standard error, which p-value's error it is (``p_se``: the adjusted one under max-T, else
        the raw one), and how many verdicts are undecided."""
        ses = [
            r["p_se"].value
            for r in t.rows
            if r["p_se"].value is not None and math.isfinite(r["p_se"].value)
        ]
        if not ses:
            return ""
        d = self.fmt.p_decimals
        top = max(ses)
        s = self.analysis.settings
        behind = draws(s.test, int(ma.verdicts.get("resamples") or s.bootstrap), self.num)
        unsettled = sum(1 for r in t.rows if r["settled"].value is False)
        if round(top, d) > 0:
            text = tr(
                " $p$ from {draws}, Monte-Carlo standard error at most {se}",
                draws=behind,
                se=self.num(f"{top:.{d}f}"),
            )
        else:
            text = tr(
                " $p$ from {draws}, Monte-Carlo standard error at most below {se}",
                draws=behind,
                se=self.num(f"{10**-d:.{d}f}"),
            )
        text += (  # which p-value's error it is
            tr(" (of the max-T adjusted $p$-values, which decide)")
            if s.correction == "maxt"
            else tr(" (of the raw $p$-values, before the correction)")
        )
        if unsettled == 1:
            text += tr(
                "; {n} verdict undecided (within that error: drawing more could settle it)",
                n=unsettled,
            )
        elif unsettled:
            text += tr(
                "; {n} verdicts undecided (within that error: drawing more could settle them)",
                n=unsettled,
            )
        return text + "."

    def _marks_text(self, ma: MetricAnalysis) -> str:
        """The legend of the marks a corrected p-value of ``ma`` can earn
        (:func:`~compreport.report.model.possible_marks`)."""
        s = self.analysis.settings
        marks = model.possible_marks(ma)
        if not marks:
            resamples, min_p = ma.verdicts.get("resamples", s.bootstrap), ma.verdicts.get("min_p")
            if not resamples:
                return tr("No significance mark: without resamples there are no $p$-values")
            return tr(
                "No significance mark can occur: with {draws} the smallest corrected $p$-value is "
                "{p} ({rule})",
                draws=draws(s.test, resamples, self.num),
                rule=self._rule(),
                p=self.num(f"{min_p:.3g}") if min_p == min_p and min_p is not None else "$1/(B+1)$",
            )
        text = ", ".join(
            f"{mark(m)}~$p < {self.num(f'{t:g}', math=True)}$" for t, m in reversed(marks)
        )
        if any(c.undecided for c in ma.pairs):
            text += ", " + tr("{mark}~undecided (within the Monte-Carlo error)", mark=mark("?"))
        return tr("Marks: {marks} ({rule})", marks=text, rule=self._rule())

    def pair_matrix(self, comp: CompetitionAnalysis, ma: MetricAnalysis) -> str:
        """Lower-triangular differences (column − row) with the stored marks (paper Table 4).

        Columns are split evenly to fit, rows by height; row names become rank numbers, with a
        key in the caption, only when a split would otherwise leave a part with a single column.
        """
        t = model.pair_matrix(comp, ma, self.fmt)
        st = self.style
        if not t.rows:
            return self._empty(
                tr("pairwise differences of {competition}", competition=escape(comp.name)),
                tr("a single system"),
            )
        position = t.extra["position"]
        cells = [c for r in t.rows for c in r.cells.values()]
        marks = model.possible_marks(ma)
        # space for the widest mark a cell can hold; a column with marks sets each cell in a box
        # of no height (matrix.tex.j2: \smash), so a raised mark, taller than the strut in most
        # styles' fonts (0.45 pt at SEPLN's 11 pt, 1 pt in ceurart-2col), makes no row taller
        # than the height model's
        pad = f"\\phantom{{{mark(marks[0][1])}}}" if marks else ""
        cols = list(t.columns)
        col_w = max(self._num_col(cells, str(position[c]), pad) for c in cols)
        full = {r.label: f"{position[r.label]}.~{self._name(r.label, r.baseline)}" for r in t.rows}
        short = {r.label: f"{position[r.label]}." for r in t.rows}

        def plan_for(names):
            stub = self._col(list(names.values()))
            return split_even(
                [col_w] * len(cols),
                lambda g: st.table_width([stub] + [col_w] * len(g)) <= st.widest,
            )

        def single(groups):
            return groups is None or (len(cols) >= 2 and any(len(g) == 1 for g in groups))

        plan_full = plan_for(full)
        abbreviate = single(plan_full) and not single(plan_for(short)) or plan_full is None
        names = short if abbreviate else full
        col_groups = plan_for(names) or [[i] for i in range(len(cols))]
        stub = self._col(list(names.values()))
        head = tr(
            "Differences of {metric} (column $-$ row) for {competition}",
            metric=metric_name(ma),
            competition=escape(comp.name),
        )

        # the key names the part's columns, and its rows when abbreviated
        def caption(g, rows, part_text):
            shown = {position[cols[i]]: cols[i] for i in g}
            if abbreviate:
                shown |= {position[r.label]: r.label for r in rows}
            numbered = (
                N_("{head}{part}; systems are numbered by rank ({key}). {marks}.")
                if abbreviate
                else N_("{head}{part}; columns are numbered by rank ({key}). {marks}.")
            )
            return tr(
                numbered,
                head=head,
                part=part_text,
                key=self._key(sorted(shown.items())),
                marks=self._marks_text(ma),
            )

        plan = []
        for g in col_groups:
            first = position[cols[g[0]]]
            rows = [r for r in t.rows if position[r.label] > first]
            w = st.table_width([stub] + [col_w] * len(g))

            def part_caption(k, rg, n, g=g, rows=rows):  # the key names the part's columns and rows
                return caption(g, [rows[i] for i in rg], part(99, 99))

            plan += [
                (g, [rows[i] for i in rg], w)
                for rg in self._fewest_parts(len(rows), part_caption, w)
            ]
        labels = self._parts(
            self.table_label(comp, f"pairs-{metric_stems(comp)[ma.name]}"), len(plan)
        )
        parts = []
        for k, (g, rows, _) in enumerate(plan):
            sel = [cols[i] for i in g]
            w = st.table_width([self._col([names[r.label] for r in rows])] + [col_w] * len(g))
            cap = caption(g, rows, part(k + 1, len(plan)))
            body = self._render(
                "matrix.tex.j2",
                cols=[position[c] for c in sel],
                pad=pad,
                rows=[
                    {
                        "label": names[r.label],
                        "cells": [self.cell(r.cells[c], True) if c in r.cells else "" for c in sel],
                    }
                    for r in rows
                ],
            )
            parts.append(Part(w, body, cap, labels[k]))
        return self._file(parts)

    def p_values(self, comp: CompetitionAnalysis, ma: MetricAnalysis) -> str:
        """Every pair with its raw, Bonferroni, Holm, BH (and max-T) p-values (paper Table 5).

        Rows are split into floats that fit the page; names become rank numbers, with a key in
        the caption, only if they cannot fit.
        """
        t = model.pairwise_p_values(comp, ma, self.fmt)
        st = self.style
        if not t.rows:
            return self._empty(
                tr("pairwise p-values of {competition}", competition=escape(comp.name)),
                tr("a single system"),
            )
        position = {s.system: i + 1 for i, s in enumerate(ma.scores)}
        heads = {
            "none": "{$p$}",
            "bonferroni": "{Bonferroni}",
            "holm": "{Holm}",
            "bh": "{BH}",
            "maxt": "{max-$T$}",
        }
        s = self.analysis.settings
        # max-T needs the bootstrap
        shown = [k for k in vocab.P_FIELD if k != "maxt" or s.test == "bootstrap"]
        nums = [self._num_col([r["diff"] for r in t.rows], header("Diff."))]
        nums += [self._num_col([r[k] for r in t.rows], heads[k]) for k in shown]

        def names_for(abbr):
            if abbr:
                return [(str(position[r["a"].text]), str(position[r["b"].text])) for r in t.rows]
            return [(escape(r["a"].text), escape(r["b"].text)) for r in t.rows]

        def width(abbr):
            ab = names_for(abbr)
            return st.table_width(
                [
                    self._col([header("System A")] + [a for a, _ in ab]),
                    self._col([header("System B")] + [b for _, b in ab]),
                ]
                + nums
            )

        abbreviate = width(False) > st.widest
        names, w = names_for(abbreviate), width(abbreviate)
        family = vocab.FAMILIES[s.family].words
        head = tr(
            "Estimated $p$-values of the {metric} differences (A $-$ B, positive: A is better) "
            "for {competition}",
            metric=metric_name(ma),
            competition=escape(comp.name),
        )
        words = dict(
            family=escape(family),
            test=p_test(s.test),
            rule=self._rule(),
            alpha=alpha(s.alpha, self.opt.decimal_comma),
        )
        if "maxt" in shown:
            tail = tr(
                ", without adjustment, with Bonferroni, Holm and Benjamini--Hochberg (BH) "
                "adjustments and with the max-$T$ step-down over {family} ({test}). Verdicts of "
                "this report: {rule}, {alpha}.",
                **words,
            )
        else:
            tail = tr(
                ", without adjustment and with Bonferroni, Holm and Benjamini--Hochberg (BH) "
                "adjustments over {family} ({test}). Verdicts of this report: {rule}, {alpha}.",
                **words,
            )

        def key(rows):
            if not abbreviate:
                return ""
            numbered = sorted(
                {
                    position[t.rows[i][x].text]: t.rows[i][x].text for i in rows for x in ("a", "b")
                }.items()
            )
            return tr(" Systems are numbered by rank ({key}).", key=self._key(numbered))

        label = self.table_label(comp, f"pvalues-{metric_stems(comp)[ma.name]}")
        groups = self._fewest_parts(
            len(t.rows),
            lambda k, rg, n: (
                head + part(1, n) + tail + key(rg)
                if k == 0
                else continued(head, label, k + 1, n) + key(rg)
            ),
            w,
        )
        labels = self._parts(label, len(groups))
        parts = []
        for k, rg in enumerate(groups):
            rows = [
                {
                    "a": names[i][0],
                    "b": names[i][1],
                    "diff": self.cell(t.rows[i]["diff"]),
                    "p": [self.cell(t.rows[i][x]) for x in shown],
                }
                for i in rg
            ]
            body = self._render("pvalues.tex.j2", rows=rows, heads=[heads[k] for k in shown])
            w = st.table_width(
                [
                    self._col([header("System A")] + [r["a"] for r in rows]),
                    self._col([header("System B")] + [r["b"] for r in rows]),
                ]
                + nums
            )
            cap = (
                head + part(1, len(groups)) + tail + key(rg)
                if k == 0
                else continued(head, labels[0], k + 1, len(groups)) + key(rg)
            )
            parts.append(Part(w, body, cap, labels[k]))
        return self._file(parts)

    # -- workshop ----------------------------------------------------------------------------------

    def legend(self) -> str:
        """The competitiveness legend (paper Table 6), as wide as the column."""
        names = [header(n) for n, _ in model.LEGEND]
        name_w = self._col([header("Name")] + names)
        rows = [(name, legend_tex(n, text)) for name, (n, text) in zip(names, model.LEGEND)]
        body = self._render(
            "legend.tex.j2", rows=rows, desc_width=f"{name_w + 2 * self.style.tabcolsep:.2f}pt"
        )
        return self._file(
            [
                Part(
                    self.style.columnwidth,
                    body,
                    tr("Information summary: the rows of the competitiveness tables."),
                    self.label("legend"),
                )
            ]
        )

    def summary(self) -> str:
        """The competitiveness of every competition (paper Tables 7-11), the competitions split
        evenly into the fewest floats that fit."""
        t = model.summary(self.analysis, self.fmt)
        if not t.columns:
            return self._empty(tr("competitiveness summary"), tr("no competition"))
        st = self.style
        heads = t.extra["headings"]
        ids = list(t.columns)
        label_w = self._col(
            [header(x) for x in ("Challenge", "Task", "Language", "Metric")]
            + [escape(r.label) for r in t.rows]
        )
        texts = {
            cid: [tex.with_numbers(r.cells[cid].text, self.opt.decimal_comma) for r in t.rows]
            for cid in ids
        }
        widest_cell = max(tex_width(c, self.m) for cid in ids for c in texts[cid])
        words = [w for cid in ids for text in heads[cid][:3] for w in escape(str(text)).split()]
        words += [
            metric_name(heads[cid][3]) for cid in ids if " " not in metric_name(heads[cid][3])
        ]
        widest_word = max([tex_width(w, self.m) for w in words] + [0.0])
        # header names wrap between words, so a column is at least as wide as the widest word
        col_w = max(widest_cell, widest_word, 3.5 * st.size)

        def width(g):
            return st.table_width([label_w] + [col_w] * len(g))

        id_groups = split_even([col_w] * len(ids), lambda g: width(g) <= st.widest) or [
            [i] for i in range(len(ids))
        ]
        s = self.analysis.settings
        labels = self._parts(self.label("competitiveness"), len(id_groups))
        # the header rows that say something: no Task row when every task is its challenge (a
        # competition without either: its name twice), no Language row without languages
        levels = [0, 3]
        levels[1:1] = [1] * any(h[0] != h[1] for h in heads.values())
        levels[-1:-1] = [2] * any(h[2] for h in heads.values())
        parts = []
        for k, g in enumerate(id_groups):
            sub = [ids[i] for i in g]
            h = [heads[cid] for cid in sub]
            # a header cell spans equal neighbours under the same parent: challenge; task within
            # its challenge; metric within its task; languages never span
            keys = [lambda c: c[:1], lambda c: c[:2], lambda c: c, lambda c: (c[0], c[1], c[3])]
            heading = [
                spans([c[level] for c in h], [keys[level](c) for c in h]) for level in range(4)
            ]
            body = [
                {"label": escape(r.label), "cells": [texts[cid][j] for cid in sub]}
                for j, r in enumerate(t.rows)
            ]
            tabular = self._render(
                "summary.tex.j2",
                header=heading,
                levels=levels,
                body=body,
                ncols=len(sub),
                colwidth=col_w,
                sep=2 * st.tabcolsep,
            )
            cap = self._summary_caption(k, len(id_groups), labels[0])
            with decimal_comma(self.opt.decimal_comma):  # the rule's numbers with the marker
                notes = [
                    escape(prose.ties_settings(s)) if k == 0 else "",
                    prose.ppi_note(t, sub, escape, self.num),
                    escape(prose.not_computable_note(t, sub) or ""),
                ]
            cap += "".join(f" {n}" for n in notes if n)
            parts.append(Part(width(g), tabular, cap, labels[k]))
        return self._file(parts)

    def _summary_caption(self, k: int, n: int, first: str) -> str:
        """The caption of part ``k`` of ``n`` of the competitiveness summary, self-contained: the
        method paper cited by key, every row in words, the test and families behind the ties, and
        how they relate to the report's verdicts (the legend table, ``legend.tex``, is optional);
        a later part continues the first (label ``first``), in the same file."""
        head = tr("Competitiveness of the competitions")
        if k > 0:
            return continued(head, first, k + 1, n)
        s = self.analysis.settings
        with decimal_comma(self.opt.decimal_comma):  # the rule's numbers with the marker
            rule = self._rule()
        rows = tr(
            "{n}: test items; {m}: competitors; {tw}: ties with the winner, with no correction / "
            "Bonferroni / Holm / BH / max-$T$; {pc}: $m(m-1)/2$; {nb}, {hb}: ties between "
            "competitors with those corrections; {wm}: the winner's score minus that of the "
            "competitor in the middle; CV: coefficient of variation of the scores, in \\%; PPI: "
            "possible percentage improvement on the winner",
            n="n",
            m="m",
            tw=header("Ties w/ win."),
            pc=header("Poss. compars."),
            nb=header("none/Bonf."),
            hb="Holm/BH",
            wm=header("|win.-med.|"),
        )
        cap = (
            head
            + part(1, n)
            + tr(
                ", as defined by {cite}. Rows: {rows}. A tie is a pair not significantly "
                "different at {alpha} with the {test}, corrected over {family} (with the winner) "
                "or {ties} (between competitors). The {correction} count of ties with the winner "
                "holds this report's verdicts ({rule}; an undecided one counted by its estimated "
                "$p$-value); the ties between competitors are not verdicts.",
                cite="\\cite{navamunoz2024}",
                rows=rows,
                alpha=alpha(s.alpha, self.opt.decimal_comma),
                test=p_test(s.test),
                family=escape(vocab.FAMILIES[s.family].words),
                ties=escape(prose.ties_family(s)),
                correction=escape(tr(vocab.CORRECTIONS[s.correction].label)),
                rule=rule,
            )
        )
        return cap

    # -- files -------------------------------------------------------------------------------------

    def competition_tables(self, comp: CompetitionAnalysis) -> dict[str, str]:
        """Every table of one competition, by file name (``teams.tex`` when a team has several
        runs, :func:`~compreport.report.model.has_team_ranking`; ``leaderboard.tex``, ``ci.tex``,
        ``diff-best-<metric>.tex``...).

        With many systems (:func:`~compreport.report.model.many_systems`) there is no pair matrix
        or p-value list: the appendix shows the pairs' heat map, and ``pairs-<metric>.csv`` holds
        every pair.
        """
        out = {"teams.tex": self.team_ranking(comp)} if model.has_team_ranking(comp) else {}
        out |= {
            "leaderboard.tex": self.leaderboard(comp),
            "ci.tex": self.confidence_intervals(comp),
        }
        stems = metric_stems(comp)
        for ma in comp.metrics:
            if len(comp.systems) > 1:
                key = stems[ma.name]
                out[f"diff-best-{key}.tex"] = self.differences_from_best(comp, ma)
                if not model.many_systems(comp):
                    out[f"pairs-{key}.tex"] = self.pair_matrix(comp, ma)
                    out[f"pvalues-{key}.tex"] = self.p_values(comp, ma)
        classes = self.per_class(comp)
        if classes is not None:
            out["per-class.tex"] = classes
        return out
