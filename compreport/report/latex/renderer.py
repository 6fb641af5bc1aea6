"""LaTeX renderer: the paper's tables from Jinja templates (templates/latex/), laid out for a class.

Each table file is one or more floats ready to ``\\input`` into a paper whose preamble has the
lines of ``OUT/preamble.tex`` (:func:`preamble`): fontenc T1, the style's fonts, booktabs and
array; the file's header comment names them. Numbers are set by :func:`compreport.report.latex.tex.num`
in ``r`` columns (no siunitx). No
``\\resizebox``, no vertical rules, no change of type size, no ``longtable``: a table that does
not fit is split into several floats, numbered in order (:mod:`compreport.report.latex.layout`
measures every column as pdflatex does). In two-column styles a part that fits the column is a
``table``, a wider one a ``table*``. Captions go where the class wants them (ceurart above,
SEPLN and ACL below); every ``\\label`` is ``tab:<prefix>:...`` so several outputs can share
one paper.

Every value printed is a cell of :mod:`compreport.report.model` (the same digits and bold as
HTML and Markdown); every verdict is the stored one and every caption stating one names the
rule; every user string goes through :func:`compreport.report.latex.tex.escape`.
"""

from __future__ import annotations

import jinja2

from compreport.language import count, current, decimal_comma, tr
from compreport.report import model, prose
from compreport.report.latex import tex
from compreport.report.latex.layout import (
    Options,
    Style,
    _Part,
    spans,
    split_even,
    split_rows,
    tex_width,
)  # noqa: F401
from compreport.report.latex.pairwise import PairwiseTables
from compreport.report.latex.tex import escape, metric_name
from compreport.report.latex.words import (
    alpha,
    ci_method,
    continued,
    header,
    legend_tex,
    level,
    p_test,
    part,
)  # noqa: F401
from compreport.report.naming import metric_stems
from compreport.report.prose import direction
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
    """``OUT/preamble.tex``: the exact lines the tables of ``options.style`` need."""
    st = options.layout
    lines = [
        f"% compreport {version}: what the tables need in a paper of style {st.name} ({st.title}).",
        "% \\input{preamble.tex} after \\documentclass (and the class's own packages), or copy these lines;",
        "% a line for a package the class already loads is harmless.",
        *st.preamble,
        r"\usepackage{booktabs}% \toprule, \midrule, \cmidrule, \bottomrule",
        r"\usepackage{array}% >{...} before the p{} columns of the legend and summary headers, <{...} after the "
        r"numbers of the pair matrices",
    ]
    if (
        current() == "es"
    ):  # the tables' words are Spanish; a class in English needs babel for the rest
        lines.append(
            r"% a report in Spanish: \usepackage[spanish]{babel} (SEPLN's class loads it) names tables and "
            r"figures in Spanish and hyphenates its words"
        )
    return "\n".join(lines) + "\n"


def default_prefix(analysis: Analysis) -> str:
    """Label prefix when none is given: the workshop's name as a slug, else the first competition's id."""
    from compreport.inputs.slugs import slug

    name = (analysis.workshop or {}).get("name")
    if name:
        return slug(str(name))
    return analysis.competitions[0].id if analysis.competitions else "compreport"


class Renderer(PairwiseTables):
    """Renders one Analysis's tables as LaTeX snippets under the given :class:`Options`."""

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

    # -- helpers ---------------------------------------------------------------------------------

    def label(self, what: str) -> str:
        """The label ``tab:<prefix>:<what>`` (unique across outputs with different prefixes)."""
        return f"tab:{self.prefix}:{what}"

    def _render(self, template: str, **kw) -> str:
        return self.env.get_template(template).render(**kw)

    def _file(self, parts: list[_Part]) -> str:
        """The stamp, the packages comment and every part as a float."""
        body = "\n".join(self._float(p) for p in parts)
        packages = ["booktabs"] + (["array"] if ">{" in body or "<{" in body else [])
        needs = f"% needs (see preamble.tex): \\usepackage[T1]{{fontenc}}, \\usepackage{{{','.join(packages)}}}"
        return f"{self.stamp}\n{needs}\n{body}"

    def _float(self, p: _Part) -> str:
        st = self.style
        env = st.env(p.width) or ("table*" if st.twocolumn else "table")
        where = f"column {st.columnwidth:.1f}pt" + (
            f", page {st.textwidth:.1f}pt" if st.twocolumn else ""
        )
        return self._render(
            "float.tex.j2",
            env=env,
            caption=p.caption,
            label=p.label,
            body=p.body,
            below=st.caption_below,
            measure=f"% tabular {p.width:.2f}pt wide by the {st.name} width model ({where})",
        )

    def _empty(self, what: str, reason: str) -> str:
        return self._render("empty.tex.j2", stamp=self.stamp, what=what, reason=reason)

    def _col(self, cells: list[str]) -> float:
        """Width of a text column (``l``/``r``/``c``) holding these LaTeX cells."""
        return max([tex_width(c, self.m) for c in cells] + [0.0])

    def _num_col(self, cells: list[model.Cell], header: str, pad: str = "") -> float:
        """Width of a numeric column under ``header``; ``pad``: what every cell reserves (``r<{pad}``)."""
        return self._col([header + pad] + [self.cell(c, bool(pad)) + pad for c in cells])

    def cell(self, c: model.Cell, overlap: bool = False) -> str:
        """A model cell as LaTeX under this renderer's decimal marker (:func:`~compreport.report.latex.tex.cell`)."""
        return tex.cell(c, self.opt.decimal_comma, overlap)

    def num(self, value: object, math: bool = False) -> str:
        """A number under this renderer's decimal marker (:func:`~compreport.report.latex.tex.num`)."""
        return tex.num(value, self.opt.decimal_comma, math)

    def _name(self, name: str, baseline: bool) -> str:
        return f"\\textit{{{escape(name)}}}" if baseline else escape(name)

    def _caption_height(self, caption: str, width: float) -> float:
        st = self.style
        return st.caption_height(
            caption, st.columnwidth if st.env(width) == "table" else st.textwidth
        )

    def _row_groups(
        self, n: int, caption: str, width: float, header_rows: int = 1, extra: int = 0
    ) -> list[list[int]]:
        """Rows cut evenly so each part fits ``\\textheight`` under its caption."""
        return split_rows(
            n, self.style.max_rows(self._caption_height(caption, width), header_rows, extra)
        )

    _part_text = staticmethod(part)  # " (part k of n)"; latex_pairwise uses it through the renderer
    _continued = staticmethod(continued)  # a later part's caption, pointing at the first

    @staticmethod
    def _key(numbered: list[tuple[int, str]]) -> str:
        """``1: name; 2: name`` for systems shown by their number, names breakable (:func:`tex.breakable`)."""
        return "; ".join(f"{k}: {tex.breakable(name)}" for k, name in numbered)

    @staticmethod
    def _parts(label: str, n: int) -> list[str]:
        """Labels of ``n`` parts: ``label``, ``label-2``, ..."""
        return [label if k == 0 else f"{label}-{k + 1}" for k in range(n)]

    # -- per competition ------------------------------------------------------------------------

    def leaderboard(self, comp: CompetitionAnalysis) -> str:
        """Rank, system, every metric (best in bold), significance group (paper Table 1)."""
        t = model.leaderboard(comp, self.fmt)
        st = self.style
        keys = [f"score:{ma.name}" for ma in comp.metrics]
        groups = [escape(r["group"].text) for r in t.rows]
        metric_w = [
            self._num_col([r[k] for r in t.rows], metric_name(ma, True))
            for ma, k in zip(comp.metrics, keys)
        ]

        def plan_for(names):  # metric columns split evenly, rank, system and group in every part
            fixed = [
                self._col([header("Rank")] + [r["rank"].text for r in t.rows]),
                self._col([header("System")] + names),
                self._col([header("Group")] + groups),
            ]
            return fixed, split_even(
                metric_w, lambda g: st.table_width(fixed + [metric_w[i] for i in g]) <= st.widest
            )

        names = [self._name(r.label, r.baseline) for r in t.rows]
        fixed, col_groups = plan_for(names)
        key = ""
        if col_groups is None:  # names too long for even one metric: numbers, with a key
            names = [f"{i + 1}." for i in range(len(t.rows))]
            fixed, col_groups = plan_for(names)
            key = tr(
                " Systems are numbered by position ({key}).",
                key=self._key([(i + 1, r.label) for i, r in enumerate(t.rows)]),
            )
        col_groups = col_groups or [[i] for i in range(len(keys))]

        def width(g):
            return st.table_width(fixed + [metric_w[i] for i in g])

        head = tr("Leaderboard of {competition}", competition=escape(comp.name))
        tail = (
            tr(
                ", ranked by {metric} ({direction}; best values in bold). Systems sharing a letter in column Group "
                "are not significantly different ({rule}, {alpha}).",
                metric=metric_name(comp.primary),
                direction=direction(comp.primary),
                rule=self._rule(),
                alpha=alpha(self.analysis.settings.alpha, self.opt.decimal_comma),
            )
            + key
        )
        baselines = any(r.baseline for r in t.rows)
        plan = []  # (metric columns, rows, index of the part it continues)
        for cg in col_groups:
            rows = self._row_groups(
                len(t.rows), head + tail, width(cg), extra=3 if baselines else 0
            )
            plan += [(cg, rg, len(plan)) for rg in rows]
        labels = self._parts(self.label(f"{comp.id}-leaderboard"), len(plan))
        parts = []
        for k, (cg, rg, first) in enumerate(plan):
            sel = [comp.metrics[i] for i in cg]
            rows = [
                {
                    "rank": t.rows[i]["rank"].text,
                    "system": names[i],
                    "baseline": t.rows[i].baseline,
                    "scores": [self.cell(t.rows[i][keys[j]]) for j in cg],
                    "group": groups[i],
                }
                for i in rg
            ]
            body = self._render(
                "leaderboard.tex.j2",
                metrics=sel,
                rows=rows,
                has_baselines=any(r["baseline"] for r in rows),
            )
            caption = (
                head + self._part_text(k + 1, len(plan)) + tail
                if k == first
                else self._continued(head, labels[first], k + 1, len(plan)) + key
            )
            parts.append(_Part(width(cg), body, caption, labels[k]))
        return self._file(parts)

    def confidence_intervals(
        self, comp: CompetitionAnalysis, ma: MetricAnalysis | None = None
    ) -> str:
        """Ordered bootstrap CIs, one block per metric side by side (only ``ma``'s when given); split
        when too wide."""
        blocks = [(metric_name(x), comp, x) for x in ([ma] if ma else comp.metrics)]
        with decimal_comma(
            self.opt.decimal_comma
        ):  # its count grouped as the appendix's prose groups it
            unit = (
                tr(" (resampling {unit})", unit=escape(prose.unit(comp))) if comp.clusters else ""
            )
        label = f"{comp.id}-ci-{metric_stems(comp)[ma.name]}" if ma else f"{comp.id}-ci"
        caption = tr(
            "Ordered bootstrap confidence intervals for {competition}{unit}",
            competition=escape(comp.name),
            unit=unit,
        )
        return self.ci_blocks(blocks, caption=caption, label=self.label(label))

    def ci_blocks(
        self,
        blocks: list[tuple[str, CompetitionAnalysis, MetricAnalysis]],
        caption: str,
        label: str,
    ) -> str:
        """Blocks ``(LaTeX title, competition, metric)`` side by side (paper Table 2); titles are LaTeX.

        Blocks are packed evenly into the fewest tables that fit, rows split by height.
        """
        st = self.style
        prepared, block_cols = [], []
        keys = []  # blocks whose names are too long for the page: numbers, with a key
        for title, comp, ma in blocks:
            t = model.confidence_intervals(comp, ma, self.fmt)
            nums = [
                self._num_col([r[k] for r in t.rows], header(h))
                for k, h in (("ci_low", "LCI"), ("mean", "Mean"), ("ci_high", "UCI"))
            ]
            title_w = tex_width(title, self.m)

            def columns(names):
                cols = [self._col([header("System")] + names)] + nums
                if title_w > st.table_width(cols):  # the spanning title widens the last column
                    cols[-1] += title_w - st.table_width(cols)
                return cols

            names = [self._name(r.label, r.baseline) for r in t.rows]
            cols = columns(names)
            if st.table_width(cols) > st.widest:
                names = [f"{i + 1}." for i in range(len(t.rows))]
                cols = columns(names)
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
            ": bootstrap mean and {level}\\% {method} confidence interval (LCI, UCI) from {resamples} resamples, "
            "best first.",
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
                caption + self._part_text(k + 1, len(plan)) + tail
                if k == first
                else self._continued(caption, labels[first], k + 1, len(plan)) + "".join(keys)
            )
            parts.append(_Part(width(g), body, cap, labels[k]))
        return self._file(parts)

    # -- workshop --------------------------------------------------------------------------------

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
                _Part(
                    self.style.columnwidth,
                    body,
                    tr("Information summary: the rows of the competitiveness tables."),
                    self.label("competitiveness-legend"),
                )
            ]
        )

    def summary(self) -> str:
        """Cross-competition competitiveness (paper Tables 7-11), competitions split evenly into the
        fewest tables that fit."""
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
        legend = self.label("competitiveness-legend")
        labels = self._parts(self.label("competitiveness"), len(id_groups))
        parts = []
        for k, g in enumerate(id_groups):
            sub = [ids[i] for i in g]
            h = [heads[cid] for cid in sub]
            # a header cell spans equal neighbours under the same parent: challenge; task within its
            # challenge; metric within its task; languages never span
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
                body=body,
                ncols=len(sub),
                colwidth=col_w,
                sep=2 * st.tabcolsep,
            )
            cap = tr(
                "Competitiveness of the competitions{part}; rows as in Table~{ref}. Ties are the paper's counts "
                "among competitors at {alpha} with the {test}: with the winner on the winner's comparisons with the "
                "other competitors as the report's family corrects them, between competitors over {ties}.",
                part=self._part_text(k + 1, len(id_groups)),
                ref=f"\\ref{{{legend}}}",
                alpha=alpha(s.alpha, self.opt.decimal_comma),
                test=p_test(s.test),
                ties=escape(prose.ties_family(s)),
            )
            with decimal_comma(
                self.opt.decimal_comma
            ):  # the rule's numbers with the tables' marker
                notes = [
                    prose.ties_are_not_verdicts(s, escape),
                    prose.ppi_note(t, sub, escape, self.num),
                ]
            cap += "".join(f" {n}" for n in notes if n)
            parts.append(_Part(width(g), tabular, cap, labels[k]))
        return self._file(parts)

    # -- files -----------------------------------------------------------------------------------

    def per_class(self, comp: CompetitionAnalysis) -> str | None:
        """The best system's per-class precision, recall, F1 and support (``comp.classes``; the HTML and
        PDF table), or None for a competition without them."""
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
            ", the best system of {competition} by {metric}, on the full test set (field {field}): precision of "
            "the items it labels with the class, recall of the class's gold items, their F$_1$, and the class's "
            "gold items (support); 0 where undefined. Point estimates, without intervals.",
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
            self.label(f"{comp.id}-classes"),
            body,
        )

    def _row_parts(
        self,
        groups: list[list[int]],
        width: float,
        head: str,
        tail: str,
        label: str,
        body,
        continued=lambda rows: "",
    ) -> str:
        """A table split by rows into ``groups``: ``body(rows)`` is a part's tabular; the first part's
        caption is ``head`` + ``tail``, a later part's says it continues (plus ``continued(rows)``)."""
        labels = self._parts(label, len(groups))
        parts = []
        for k, rg in enumerate(groups):
            cap = (
                head + self._part_text(1, len(groups)) + tail
                if k == 0
                else self._continued(head, labels[0], k + 1, len(groups)) + continued(rg)
            )
            parts.append(_Part(width, body(rg), cap, labels[k]))
        return self._file(parts)

    def competition_tables(self, comp: CompetitionAnalysis) -> dict[str, str]:
        """File name -> LaTeX of every table of one competition; with many systems
        (:func:`~compreport.report.model.many_systems`) no pair matrix or p-value list (the appendix
        shows the pairs' heat map figure; every pair is in ``pairs-<metric>.csv``)."""
        out = {"leaderboard.tex": self.leaderboard(comp), "ci.tex": self.confidence_intervals(comp)}
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
