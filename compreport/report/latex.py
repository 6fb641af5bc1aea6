"""LaTeX renderer: the paper's tables from Jinja templates (templates/latex/).

Each table is a snippet ready to ``\\input`` into a paper that loads ``booktabs``, ``siunitx``,
``array`` and (for ``ceurart``) ``longtable``. No ``\\resizebox``, no vertical rules, captions
above, numbers in siunitx ``S`` columns (aligned on the decimal point), no change of type size.
Tables wider than the page (or the column, in SEPLN's two-column layout) are split into
several tables, as the paper does (:mod:`compreport.report.latex_layout`).

Every value printed is a cell of :mod:`compreport.report.model` (the same digits and bold as
HTML and Markdown); every verdict is the stored one; every user string goes through
:func:`compreport.report.tex.escape`.
"""

from __future__ import annotations

import jinja2

from .. import vocabulary as vocab
from ..stats.results import Analysis, CompetitionAnalysis, MetricAnalysis
from . import model
from .latex_layout import (TABCOLSEP, Options, chunks, col, has_negative, int_digits, num_width, pack, spans,
                           table_format, text_width)
from .naming import metric_stems
from .prose import direction
from .tex import cell, escape, metric_name, number  # noqa: F401  (number: re-exported for callers)
from ..resources import templates_dir


def environment() -> jinja2.Environment:
    """Jinja with LaTeX-safe delimiters: ``\\VAR{x}``, ``\\BLOCK{for ...}``, ``\\#{comment}``."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir() / "latex")),
        block_start_string=r"\BLOCK{", block_end_string="}", variable_start_string=r"\VAR{",
        variable_end_string="}", comment_start_string=r"\#{", comment_end_string="}",
        trim_blocks=True, lstrip_blocks=True, autoescape=False, keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined)
    env.filters["tex"] = escape
    env.filters["metric"] = metric_name
    return env


def _values(t: model.Table, keys) -> list:
    return [r.cells[k].value for r in t.rows for k in keys if k in r.cells]


class Renderer:
    """Renders one Analysis's tables as LaTeX snippets under the given :class:`Options`."""

    def __init__(self, analysis: Analysis, options: Options | None = None):
        self.analysis = analysis
        self.opt = options or Options()
        self.fmt = self.opt.format
        self.env = environment()
        s = analysis.settings
        self.stamp = (f"% compreport {analysis.version}: B={s.bootstrap}, seed={s.seed}, alpha={s.alpha:g}, "
                      f"ci={s.ci_method}, test={s.test}, family={s.family}, correction={s.correction}, "
                      f"style={self.opt.style}")

    def _render(self, template: str, **kw) -> str:
        s = self.analysis.settings
        return self.env.get_template(template).render(
            stamp=self.stamp, settings=s, opt=self.opt, level=f"{100 * s.level:g}", rule=escape(s.rule),
            alpha=f"{s.alpha:g}", **kw)

    def _env_for(self, width: float) -> str:
        return self.opt.layout.env(width) or ("table*" if self.opt.layout.twocolumn else "table")

    # -- per competition ------------------------------------------------------------------------

    def leaderboard(self, comp: CompetitionAnalysis) -> str:
        """Rank, system, every metric (best in bold), significance group (paper Table 1)."""
        t = model.leaderboard(comp, self.fmt)
        lay, d = self.opt.layout, self.fmt.decimals
        keys = [f"score:{ma.name}" for ma in comp.metrics]
        metrics = [(ma, table_format(d, _values(t, [k]))) for ma, k in zip(comp.metrics, keys)]
        name_w = max([text_width(r.label, lay.em) for r in t.rows] + [0.0])
        group_w = max([text_width(r["group"].text, lay.em) for r in t.rows] + [0.0])
        width = col(lay.em) + col(name_w) + sum(col(num_width(d, lay.em)) for _ in metrics) + col(group_w)
        rows = [{"rank": r["rank"].text, "system": r.label, "baseline": r.baseline,
                 "scores": [cell(r[k]) for k in keys], "group": escape(r["group"].text)} for r in t.rows]
        return self._render("leaderboard.tex.j2", comp=comp, metrics=metrics, rows=rows, env=self._env_for(width),
                            label=_label(comp, "leaderboard"), has_baselines=any(r.baseline for r in t.rows),
                            direction=direction(comp.primary))

    def confidence_intervals(self, comp: CompetitionAnalysis) -> str:
        """Ordered bootstrap CIs, one block per metric side by side; split when too wide."""
        blocks = [(metric_name(ma), comp, ma) for ma in comp.metrics]
        return self.ci_blocks(blocks, caption=f"Ordered bootstrap confidence intervals for {escape(comp.name)}",
                              label=_label(comp, "ci"))

    def ci_blocks(self, blocks: list[tuple[str, CompetitionAnalysis, MetricAnalysis]], caption: str,
                  label: str) -> str:
        """Blocks ``(LaTeX title, competition, metric)`` side by side (paper Table 2); titles are LaTeX."""
        lay, d = self.opt.layout, self.fmt.decimals
        widths, prepared = [], []
        for title, comp, ma in blocks:
            t = model.confidence_intervals(comp, ma, self.fmt)
            vals = _values(t, ("ci_low", "mean", "ci_high"))
            name_w = max([text_width(r.label, lay.em) for r in t.rows] + [0.0])
            widths.append(col(name_w) + 3 * col(num_width(d, lay.em, int_digits(vals), has_negative(vals))))
            prepared.append({"title": title, "fmt": table_format(d, vals), "rows": [
                {"system": r.label, "baseline": r.baseline, "low": cell(r["ci_low"]), "mean": cell(r["mean"]),
                 "high": cell(r["ci_high"])}
                for r in t.rows]})
        groups = pack(widths, lay.widest)
        parts = []
        for k, idx in enumerate(groups):
            sel = [prepared[i] for i in idx]
            parts.append(self._render(
                "ci.tex.j2", blocks=sel, env=self._env_for(sum(widths[i] for i in idx)), caption=caption,
                label=label if k == 0 else f"{label}-{k + 1}", part=(k + 1, len(groups)),
                nrows=max(len(b["rows"]) for b in sel)))
        return "\n".join(parts)

    def differences_from_best(self, comp: CompetitionAnalysis, ma: MetricAnalysis) -> str:
        """CIs of the differences from the best (paper Table 3) with the stored verdicts."""
        t = model.differences_from_best(comp, ma, self.fmt)
        lay, d = self.opt.layout, self.fmt.diff_decimals
        vals = _values(t, ("ci_low", "diff", "ci_high"))
        name_w = max([text_width(r.label, lay.em) for r in t.rows] + [0.0])
        width = (col(name_w) + 3 * col(num_width(d, lay.em, int_digits(vals), True)) + col(text_width("Excl. 0", lay.em))
                 + col(num_width(self.fmt.p_decimals, lay.em)) + col(text_width("Sig.", lay.em)))
        rows = [{"system": r.label, "baseline": r.baseline, "low": cell(r["ci_low"]), "diff": cell(r["diff"]),
                 "high": cell(r["ci_high"]), "excludes": r["excludes_zero"].text, "p": cell(r["p_adjusted"]),
                 "significant": r["significant"].text} for r in t.rows]
        return self._render("vs_best.tex.j2", comp=comp, ma=ma, fmt=table_format(d, vals), rows=rows,
                            p_fmt=f"S[table-format=1.{self.fmt.p_decimals}]",
                            env=self._env_for(width), label=_label(comp, f"diff-{metric_stems(comp)[ma.name]}"))

    def pair_matrix(self, comp: CompetitionAnalysis, ma: MetricAnalysis) -> str:
        """Lower-triangular differences (column − row) with the stored marks; columns split to fit."""
        t = model.pair_matrix(comp, ma, self.fmt)
        lay, d = self.opt.layout, self.fmt.diff_decimals
        if not t.rows:
            return self._render("empty.tex.j2", what=f"pairwise differences of {escape(comp.name)}",
                                reason="a single system")
        position = t.extra["position"]
        vals = [c.value for r in t.rows for c in r.cells.values()]
        cell_w = col(num_width(d, lay.em, int_digits(vals), has_negative(vals), post=3))
        name_w = max(text_width(f"{position[r.label]}. {r.label}", lay.em) for r in t.rows)
        per_table = int((lay.widest - col(name_w)) // cell_w)
        col_chunks = chunks(list(t.columns), per_table)
        parts = []
        for k, cols in enumerate(col_chunks):
            body = [{"label": f"{position[r.label]}.~{escape(r.label)}",
                     "cells": [cell(r.cells[c]) if c in r.cells else "" for c in cols]}
                    for r in t.rows if position[r.label] > position[cols[0]]]
            parts.append(self._render(
                "matrix.tex.j2", comp=comp, ma=ma, cols=[position[c] for c in cols], rows=body,
                fmt=table_format(d, vals, post=r"\textsuperscript{***}"),
                env=self._env_for(col(name_w) + len(cols) * cell_w),
                label=_label(comp, f"pairs-{metric_stems(comp)[ma.name]}") + ("" if k == 0 else f"-{k + 1}"),
                part=(k + 1, len(col_chunks)), key=[(position[c], c) for c in cols]))
        return "\n".join(parts)

    def p_values(self, comp: CompetitionAnalysis, ma: MetricAnalysis) -> str:
        """All pairs with raw, Bonferroni, Holm and BH p-values; longtable (one column) or row chunks."""
        t = model.pairwise_p_values(comp, ma, self.fmt)
        lay, d, pd_ = self.opt.layout, self.fmt.diff_decimals, self.fmt.p_decimals
        if not t.rows:
            return self._render("empty.tex.j2", what=f"pairwise p-values of {escape(comp.name)}",
                                reason="a single system")
        name_w = max(text_width(r[k].text, lay.em) for r in t.rows for k in ("a", "b"))
        width = 2 * col(name_w) + col(num_width(d, lay.em)) + 4 * col(num_width(pd_, lay.em))
        rows = [{"a": r["a"].text, "b": r["b"].text, "diff": cell(r["diff"]),
                 "p": [cell(r[k]) for k in vocab.P_FIELD]} for r in t.rows]
        family = vocab.FAMILIES[self.analysis.settings.family].words
        common = dict(comp=comp, ma=ma, diff_fmt=table_format(d, _values(t, ["diff"])),
                      p_fmt=f"S[table-format=1.{pd_}]", family=escape(family),
                      label=_label(comp, f"pvalues-{metric_stems(comp)[ma.name]}"))
        if not lay.twocolumn:
            narrow = width > lay.widest  # 3pt instead of 6pt between columns: 7 x 6pt narrower
            return self._render("pvalues.tex.j2", rows=rows, long=True, env="table", part=(1, 1),
                                tabcolsep="3pt" if narrow else None, **common)
        row_chunks = chunks(rows, 45)
        return "\n".join(self._render("pvalues.tex.j2", rows=rc, long=False, env=self._env_for(width),
                                      tabcolsep=None, part=(k + 1, len(row_chunks)), **common)
                         for k, rc in enumerate(row_chunks))

    # -- workshop --------------------------------------------------------------------------------

    def legend(self) -> str:
        """The competitiveness legend (paper Table 6)."""
        return self._render("legend.tex.j2", rows=model.LEGEND, env="table")

    def summary(self) -> str:
        """Cross-competition competitiveness (paper Tables 7-11), split into several tables when wide."""
        t = model.summary(self.analysis, self.fmt)
        if not t.columns:
            return self._render("empty.tex.j2", what="competitiveness summary", reason="no competition")
        lay = self.opt.layout
        heads = t.extra["headings"]
        label_w = max(text_width(x, lay.em) for x in model.SUMMARY_ROWS + ("Challenge", "Language"))
        widest_cell = max(text_width(c.text, lay.em) for r in t.rows for c in r.cells.values())
        words = [w for cid in t.columns for text in heads[cid][:3] for w in str(text).split()]
        widest_word = max([text_width(w, lay.em) for w in words] + [0.0])
        # header names wrap between words, so a column is at least as wide as the widest word
        col_w = col(max(widest_cell, widest_word, 3.5 * lay.em))
        per_table = max(1, int((lay.widest - col(label_w)) // col_w))
        ids = list(t.columns)
        ties = vocab.FAMILIES[self.analysis.settings.ties_family].words
        parts = []
        id_chunks = chunks(ids, per_table)
        for k, sub in enumerate(id_chunks):
            h = [heads[cid] for cid in sub]
            # a header cell spans equal neighbours under the same parent: challenge; task within its
            # challenge; metric within its task; languages never span
            keys = [lambda c: c[:1], lambda c: c[:2], lambda c: c, lambda c: (c[0], c[1], c[3])]
            header = [spans([c[level] for c in h], [keys[level](c) for c in h]) for level in range(4)]
            body = [{"label": escape(r.label), "cells": [escape(r.cells[cid].text) for cid in sub]} for r in t.rows]
            parts.append(self._render("summary.tex.j2", header=header, body=body, ncols=len(sub), ties_family=ties,
                                      colwidth=col_w - 2 * TABCOLSEP, env=self._env_for(col(label_w) + len(sub) * col_w),
                                      part=(k + 1, len(id_chunks)),
                                      label="tab:competitiveness" + ("" if k == 0 else f"-{k + 1}")))
        return "\n".join(parts)

    # -- files -----------------------------------------------------------------------------------

    def competition_tables(self, comp: CompetitionAnalysis) -> dict[str, str]:
        """File name -> LaTeX of every table of one competition."""
        out = {"leaderboard.tex": self.leaderboard(comp), "ci.tex": self.confidence_intervals(comp)}
        stems = metric_stems(comp)
        for ma in comp.metrics:
            if len(comp.systems) > 1:
                key = stems[ma.name]
                out[f"diff-best-{key}.tex"] = self.differences_from_best(comp, ma)
                out[f"pairs-{key}.tex"] = self.pair_matrix(comp, ma)
                out[f"pvalues-{key}.tex"] = self.p_values(comp, ma)
        return out


def _label(comp: CompetitionAnalysis, what: str) -> str:
    return f"tab:{comp.id}-{what}"  # ids are letters, digits, '.', '_', '-' (spec.check_id)
