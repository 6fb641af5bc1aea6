"""LaTeX renderer: the paper's tables from Jinja templates (templates/latex/), and the appendix.

Each table is a snippet ready to ``\\input`` into a paper that loads ``booktabs``, ``siunitx``,
``array`` and (for ``ceurart``) ``longtable``. No ``\\resizebox``, no vertical rules, captions
above, numbers in siunitx ``S`` columns (aligned on the decimal point), no change of type size.
Tables wider than the page (or the column, in SEPLN's two-column layout) are split into
several tables, as the paper does. Every user-supplied string goes through :func:`escape`.

This module computes no statistics: it formats :mod:`compreport.tables` frames.
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import jinja2

from . import prose as methods

from . import tables
from ..stats.analysis import Analysis, CompetitionAnalysis, MetricAnalysis
from ..resources import templates_dir
from ..inputs.spec import slug

# --------------------------------------------------------------------------------------------------
# Escaping

_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
    "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"\textless{}",
    ">": r"\textgreater{}", "|": r"\textbar{}", '"': r"\textquotedbl{}", "'": r"\textquotesingle{}",
    "`": r"\textasciigrave{}", "-": "-{}",  # "-{}" keeps "--" from becoming a dash
    "\n": " ", "\r": " ", "\t": " ",
}
#: Non-ASCII characters pdflatex (utf8 input, T1 fonts) typesets: Latin-1 and Latin Extended-A,
#: plus common punctuation. Others fall back to their ASCII decomposition, else "?".
_UNICODE_OK = (set(map(chr, range(0xA1, 0x180))) - set("ĦħĸĿŀŉŦŧſ")) | set("–—‘’“”…•€†‡")
#: Symbols our own prose uses, as LaTeX that pdflatex sets.
_UNICODE_TEX = {"−": r"\textminus{}", "α": r"$\alpha$", "δ": r"$\delta$", "θ": r"$\theta$", "≥": r"$\geq$",
                "≤": r"$\leq$"}


def escape(text: object) -> str:
    """``text`` as LaTeX that prints it literally (T1 + utf8 under pdflatex); never injects markup."""
    out = []
    for ch in str(text):
        if ch in _SPECIAL:
            out.append(_SPECIAL[ch])
        elif ch.isascii():
            out.append(ch if ch.isprintable() else " ")
        elif ch in _UNICODE_OK:
            out.append(ch)
        elif ch in _UNICODE_TEX:
            out.append(_UNICODE_TEX[ch])
        else:
            ascii_ = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
            out.append("".join(_SPECIAL.get(c, c) for c in ascii_ if c.isprintable()) or "?")
    return "".join(out)


def number(value, decimals: int) -> str:
    """Fixed decimals; ``{--}`` (an en dash, braced for siunitx) for None/NaN/inf."""
    if value is None or not isinstance(value, (int, float)) or not math.isfinite(value):
        return "{--}"
    return f"{value:.{decimals}f}"


#: Metric names as set in captions and headers (LaTeX); others are escaped as given.
METRIC_NAMES = {
    "accuracy": "accuracy", "f1": "F$_1$ score", "macro_f1": "macro-averaged F$_1$ score",
    "micro_f1": "micro-averaged F$_1$ score", "weighted_f1": "weighted F$_1$ score", "precision": "precision",
    "recall": "recall", "macro_precision": "macro-averaged precision", "macro_recall": "macro-averaged recall",
    "mae": "MAE", "mse": "MSE", "rmse": "RMSE", "pearson": "Pearson's $r$", "spearman": "Spearman's $\\rho$",
    "roc_auc": "ROC AUC", "measure_s": "$\\mathit{measure}_S$", "measure_c": "$\\mathit{measure}_C$",
}
SHORT_NAMES = {
    "accuracy": "Acc.", "f1": "F$_1$", "macro_f1": "macro-F$_1$", "micro_f1": "micro-F$_1$",
    "weighted_f1": "w-F$_1$", "precision": "P", "recall": "R", "macro_precision": "macro-P",
    "macro_recall": "macro-R", "mae": "MAE", "mse": "MSE", "rmse": "RMSE", "pearson": "$r$",
    "spearman": "$\\rho$", "roc_auc": "AUC", "measure_s": "$\\mathit{m}_S$", "measure_c": "$\\mathit{m}_C$",
}


def metric_name(ma: MetricAnalysis | str, short: bool = False) -> str:
    name = ma if isinstance(ma, str) else ma.name
    table = SHORT_NAMES if short else METRIC_NAMES
    base = table.get(name, escape(name))
    params = {} if isinstance(ma, str) else ma.params
    if not short and params.get("labels"):
        base += " (" + ", ".join(escape(x) for x in params["labels"]) + ")"
    elif not short and params.get("pos_label") is not None:
        base += f" (positive class {escape(params['pos_label'])})"
    return base


# --------------------------------------------------------------------------------------------------
# Page geometry: how much fits, without resizing anything


@dataclass(frozen=True)
class Style:
    """A target layout. Widths in pt of the body font; ``em`` is the body font size in pt."""

    name: str
    em: float
    textwidth: float
    columnwidth: float
    twocolumn: bool

    def env(self, width: float) -> str | None:
        """``table`` if ``width`` fits the column, ``table*`` if it fits the page (two columns), else None."""
        if width <= SAFETY * self.columnwidth:
            return "table"
        if self.twocolumn and width <= SAFETY * self.textwidth:
            return "table*"
        return None

    @property
    def widest(self) -> float:
        """Usable width (pt) for one table: the page in two-column layouts, less the estimate's margin."""
        return SAFETY * (self.textwidth if self.twocolumn else self.columnwidth)


#: Share of the nominal width a table may take by our estimate (estimates are approximate).
SAFETY = 0.93


#: ``ceurart``: one column (CEUR-WS working notes); ``sepln``: two columns of 7.5 cm on A4 at 11 pt.
STYLES = {
    "ceurart": Style("ceurart", em=10.0, textwidth=398.0, columnwidth=398.0, twocolumn=False),
    "sepln": Style("sepln", em=11.0, textwidth=441.0, columnwidth=213.0, twocolumn=True),
}
_TABCOLSEP = 6.0  # pt, LaTeX's default (each side of a column)


def text_width(text: str, em: float) -> float:
    """Rough width (pt) of plain text in Latin Modern: generous, so estimates err towards splitting."""
    w = 0.0
    for ch in text:
        if ch.isdigit() or ch in "/-":
            w += 0.5
        elif ch.isupper() or ch in "mwMW%&@":
            w += 0.78
        elif ch in "ilj.,;:|!'() ":
            w += 0.32
        else:
            w += 0.56
    return w * em


def _num_width(decimals: int, em: float, int_digits: int = 1, sign: bool = False, post: int = 0) -> float:
    """Digits are 0.5 em in Latin Modern; the point 0.28 em, a minus 0.78 em, a superscript star 0.4 em."""
    return (0.5 * (int_digits + decimals) + 0.28 + (0.78 if sign else 0) + 0.4 * post) * em


def _col(width: float) -> float:
    return width + 2 * _TABCOLSEP


def _chunks(items: list, size: int) -> list[list]:
    size = max(1, size)
    return [items[i:i + size] for i in range(0, len(items), size)] or [[]]


def _int_digits(values) -> int:
    finite = [abs(v) for v in values if isinstance(v, (int, float)) and math.isfinite(v)]
    return max(1, len(str(int(max(finite))))) if finite else 1


def _has_negative(values) -> bool:
    return any(isinstance(v, (int, float)) and math.isfinite(v) and v < 0 for v in values)


def _fmt(decimals: int, values, post: str = "") -> str:
    """siunitx ``table-format`` for ``values``: sign, integer digits, decimals."""
    sign = "-" if _has_negative(values) else ""
    extra = f", table-space-text-post={{{post}}}" if post else ""
    return f"S[table-format={sign}{_int_digits(values)}.{decimals}{extra}]"


# --------------------------------------------------------------------------------------------------
# Rendering


@dataclass
class Options:
    """Rendering options: layout ``style`` and decimals (scores/CIs, differences, p-values, summary)."""

    style: str = "ceurart"
    decimals: int = 4
    diff_decimals: int = 3
    p_decimals: int = 4
    summary_decimals: int = 3

    @property
    def layout(self) -> Style:
        return STYLES[self.style]


def environment() -> jinja2.Environment:
    """Jinja with LaTeX-safe delimiters: ``\\VAR{x}``, ``\\BLOCK{for ...}``, ``\\#{comment}``."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir() / "latex")),
        block_start_string=r"\BLOCK{", block_end_string="}", variable_start_string=r"\VAR{",
        variable_end_string="}", comment_start_string=r"\#{", comment_end_string="}",
        trim_blocks=True, lstrip_blocks=True, autoescape=False, keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined)
    env.filters["tex"] = escape
    env.filters["num"] = number
    env.filters["metric"] = metric_name
    env.filters["family"] = _family_words
    return env


class Renderer:
    """Renders one Analysis's tables as LaTeX snippets under the given :class:`Options`."""

    def __init__(self, analysis: Analysis, options: Options | None = None):
        self.analysis = analysis
        self.opt = options or Options()
        self.env = environment()
        s = analysis.settings
        self.stamp = (f"% compreport {analysis.version}: B={s.bootstrap}, seed={s.seed}, alpha={s.alpha:g}, "
                      f"ci={s.ci_method}, test={s.test}, family={s.family}, correction={s.correction}, "
                      f"style={self.opt.style}")

    def _render(self, template: str, **kw) -> str:
        return self.env.get_template(template).render(
            stamp=self.stamp, settings=self.analysis.settings, opt=self.opt, level=self._level(), **kw)

    def _level(self) -> str:
        return f"{100 * (1 - self.analysis.settings.alpha):g}"

    def _env_for(self, width: float) -> str:
        return self.opt.layout.env(width) or ("table*" if self.opt.layout.twocolumn else "table")

    # -- per competition ------------------------------------------------------------------------

    def leaderboard(self, comp: CompetitionAnalysis) -> str:
        lb = tables.leaderboard(comp)
        best = tables.best_values(comp)
        lay, d = self.opt.layout, self.opt.decimals
        metrics = [(ma, _fmt(d, lb[ma.name].tolist())) for ma in comp.metrics]
        name_w = max([text_width(s, lay.em) for s in lb["system"]] + [0.0])
        width = (_col(2 * 0.5 * lay.em) + _col(name_w) + sum(_col(_num_width(d, lay.em)) for _ in metrics)
                 + _col(text_width(max(lb["group"], key=len, default=""), lay.em)))
        rows = []
        for row in lb.to_dict("records"):  # records, not itertuples: metric names need not be identifiers
            rows.append({"rank": row["rank"], "system": row["system"], "baseline": row["baseline"],
                         "scores": [(number(row[ma.name], d), _is_best(row[ma.name], best[ma.name], d))
                                    for ma, _ in metrics],
                         "group": row["group"]})
        return self._render("leaderboard.tex.j2", comp=comp, metrics=metrics, rows=rows, env=self._env_for(width),
                            label=_label(comp, "leaderboard"), has_baselines=bool(lb["baseline"].any()),
                            correction=tables.correction_label(self.analysis.settings))

    def confidence_intervals(self, comp: CompetitionAnalysis) -> str:
        """Ordered bootstrap CIs, one block per metric side by side; split when too wide."""
        blocks = [(metric_name(ma), ma) for ma in comp.metrics]
        return self.ci_blocks(blocks, caption=f"Ordered bootstrap confidence intervals for {escape(comp.name)}",
                              label=_label(comp, "ci"))

    def ci_blocks(self, blocks: list[tuple[str, MetricAnalysis]], caption: str, label: str) -> str:
        """Blocks ``(LaTeX title, metric)`` side by side (paper Table 2); titles must be LaTeX already."""
        lay, d = self.opt.layout, self.opt.decimals
        frames = tables.ci_blocks(blocks)
        widths = []
        prepared = []
        for title, df in frames:
            vals = df[["ci_low", "mean", "ci_high"]].to_numpy().ravel().tolist()
            fmt = _fmt(d, vals)
            name_w = max([text_width(s, lay.em) for s in df["system"]] + [0.0])
            widths.append(_col(name_w) + 3 * _col(_num_width(d, lay.em, _int_digits(vals), _has_negative(vals))))
            prepared.append({"title": title, "fmt": fmt, "rows": [
                {"system": r.system, "low": number(r.ci_low, d), "mean": number(r.mean, d),
                 "high": number(r.ci_high, d)} for r in df.itertuples(index=False)]})
        groups = _pack(widths, lay.widest)
        parts = []
        for k, idx in enumerate(groups):
            sel = [prepared[i] for i in idx]
            width = sum(widths[i] for i in idx)
            parts.append(self._render(
                "ci.tex.j2", blocks=sel, env=self._env_for(width), caption=caption,
                label=label if k == 0 else f"{label}-{k + 1}", part=(k + 1, len(groups)),
                nrows=max(len(b["rows"]) for b in sel)))
        return "\n".join(parts)

    def differences_from_best(self, comp: CompetitionAnalysis, ma: MetricAnalysis) -> str:
        df = tables.differences_from_best(ma)
        lay, d = self.opt.layout, self.opt.diff_decimals
        vals = df[["ci_low", "diff", "ci_high"]].to_numpy().ravel().tolist()
        name_w = max([text_width(s, lay.em) for s in df["system"]] + [0.0])
        width = _col(name_w) + 3 * _col(_num_width(d, lay.em, _int_digits(vals), True)) + _col(0.6 * lay.em)
        rows = [{"system": r.system, "low": number(r.ci_low, d), "diff": number(r.diff, d),
                 "high": number(r.ci_high, d), "excludes": r.excludes_zero} for r in df.itertuples(index=False)]
        return self._render("vs_best.tex.j2", comp=comp, ma=ma, fmt=_fmt(d, vals), rows=rows,
                            env=self._env_for(width), label=_label(comp, f"diff-{slug(ma.name)}"),
                            baselines=comp.baselines)

    def pair_matrix(self, comp: CompetitionAnalysis, ma: MetricAnalysis) -> str:
        """Lower-triangular differences (column - row) with significance marks; columns split to fit."""
        s = self.analysis.settings
        pm = tables.pair_matrix(ma, s.correction, s.family)
        lay, d = self.opt.layout, self.opt.diff_decimals
        if pm.diff.empty:
            return self._render("empty.tex.j2", what=f"pairwise differences of {escape(comp.name)}",
                                reason="a single system")
        order = [sc.system for sc in ma.scores]
        number_of = {sysname: i + 1 for i, sysname in enumerate(order)}
        vals = [v for v in pm.diff.to_numpy().ravel().tolist() if v == v]
        cell_w = _col(_num_width(d, lay.em, _int_digits(vals), _has_negative(vals), post=3))
        name_w = max(text_width(f"{number_of[x]}. {x}", lay.em) for x in pm.diff.index)
        per_table = int((lay.widest - _col(name_w)) // cell_w)
        col_chunks = _chunks(list(pm.diff.columns), per_table)
        parts = []
        for k, cols in enumerate(col_chunks):
            rows_here = [r for r in pm.diff.index if order.index(r) > order.index(cols[0])]
            body = []
            for r in rows_here:
                cells = []
                for c in cols:
                    v = pm.diff.loc[r, c]
                    cells.append("" if v != v else number(v, d) + (
                        f"\\textsuperscript{{{_mark(pm.marks.loc[r, c])}}}" if pm.marks.loc[r, c] else ""))
                body.append({"label": f"{number_of[r]}.~{escape(r)}", "cells": cells})
            width = _col(name_w) + len(cols) * cell_w
            parts.append(self._render(
                "matrix.tex.j2", comp=comp, ma=ma, cols=[number_of[c] for c in cols], rows=body,
                fmt=_fmt(d, vals, post=r"\textsuperscript{***}"), env=self._env_for(width),
                correction=tables.correction_label(s), label=_label(comp, f"pairs-{slug(ma.name)}")
                + ("" if k == 0 else f"-{k + 1}"), part=(k + 1, len(col_chunks)),
                key=[(number_of[x], x) for x in order if x in cols]))
        return "\n".join(parts)

    def p_values(self, comp: CompetitionAnalysis, ma: MetricAnalysis) -> str:
        """All pairs with raw, Bonferroni, Holm and BH p-values; longtable (one column) or row chunks."""
        df = tables.pairwise_p_values(ma)
        lay, d, pd_ = self.opt.layout, self.opt.diff_decimals, self.opt.p_decimals
        if df.empty:
            return self._render("empty.tex.j2", what=f"pairwise p-values of {escape(comp.name)}",
                                reason="a single system")
        names = list(df["a"]) + list(df["b"])
        name_w = max(text_width(x, lay.em) for x in names)
        width = 2 * _col(name_w) + _col(_num_width(d, lay.em)) + 4 * _col(_num_width(pd_, lay.em))
        rows = [{"a": r.a, "b": r.b, "diff": number(r.diff, d),
                 "p": [number(getattr(r, c), pd_) for c in ("p_value", "p_bonferroni", "p_holm", "p_bh")]}
                for r in df.itertuples(index=False)]
        diff_vals = df["diff"].tolist()
        common = dict(comp=comp, ma=ma, diff_fmt=_fmt(d, diff_vals), p_fmt=f"S[table-format=1.{pd_}]",
                      family=_family_words(self.analysis.settings.family), label=_label(comp, f"pvalues-{slug(ma.name)}"))
        if not lay.twocolumn:
            narrow = width > lay.widest  # 3pt instead of 6pt between columns: 7 x 6pt narrower
            return self._render("pvalues.tex.j2", rows=rows, long=True, env="table", part=(1, 1),
                                tabcolsep="3pt" if narrow else None, **common)
        chunk_rows = 45
        chunks = _chunks(rows, chunk_rows)
        return "\n".join(self._render("pvalues.tex.j2", rows=rc, long=False, env=self._env_for(width), tabcolsep=None,
                                      part=(k + 1, len(chunks)), **common) for k, rc in enumerate(chunks))

    # -- workshop --------------------------------------------------------------------------------

    def legend(self) -> str:
        return self._render("legend.tex.j2", rows=tables.LEGEND, env="table")

    def summary(self) -> str:
        """Cross-competition competitiveness (paper Tables 7-11), split into several tables when wide."""
        df = tables.competitiveness_summary(self.analysis)
        if df.shape[1] == 0:
            return self._render("empty.tex.j2", what="competitiveness summary", reason="no competition")
        lay, d = self.opt.layout, self.opt.summary_decimals
        label_w = max(text_width(x, lay.em) for x in tables.SUMMARY_ROWS + ("Challenge", "Language"))
        cells = {c: [v if isinstance(v, str) else str(v) if isinstance(v, int) else number(v, d)
                     for v in df[c]] for c in df.columns}
        widest_cell = max(text_width(x, lay.em) for col in cells.values() for x in col)
        words = [w for c in df.columns for text in c[:3] for w in str(text).split()]
        widest_word = max([text_width(w, lay.em) for w in words] + [0.0])
        # header names wrap between words, so a column is at least as wide as the widest word
        col_w = _col(max(widest_cell, widest_word, 3.5 * lay.em))
        per_table = max(1, int((lay.widest - _col(label_w)) // col_w))
        cols = list(df.columns)
        chunks = _chunks(list(range(len(cols))), per_table)
        parts = []
        for k, idx in enumerate(chunks):
            sub = [cols[i] for i in idx]
            # a header cell spans equal neighbours under the same parent: challenge; task within its
            # challenge; metric within its task; languages never span
            keys = [lambda c: c[:1], lambda c: c[:2], lambda c: c, lambda c: (c[0], c[1], c[3])]
            header = [_spans([c[level] for c in sub], [keys[level](c) for c in sub]) for level in range(4)]
            body = []
            for row in tables.SUMMARY_ROWS:
                cells = []
                for c in sub:
                    v = df.loc[row, c]
                    cells.append(escape(v) if isinstance(v, str) else str(v) if isinstance(v, int) else number(v, d))
                body.append({"label": escape(row), "cells": cells})
            width = _col(label_w) + len(sub) * col_w
            parts.append(self._render("summary.tex.j2", header=header, body=body, ncols=len(sub),
                                      colwidth=col_w - 2 * _TABCOLSEP, env=self._env_for(width),
                                      part=(k + 1, len(chunks)), label="tab:competitiveness" + (
                                          "" if k == 0 else f"-{k + 1}")))
        return "\n".join(parts)

    # -- files -----------------------------------------------------------------------------------

    def competition_tables(self, comp: CompetitionAnalysis) -> dict[str, str]:
        """File name -> LaTeX of every table of one competition."""
        out = {"leaderboard.tex": self.leaderboard(comp), "ci.tex": self.confidence_intervals(comp)}
        keys: list[str] = []
        for i, ma in enumerate(comp.metrics):
            key = slug(ma.name)
            key = key if key not in keys else f"{key}-{i + 1}"  # two metric names with one slug
            keys.append(key)
            if comp.systems and len(comp.systems) > 1:
                out[f"diff-best-{key}.tex"] = self.differences_from_best(comp, ma)
                out[f"pairs-{key}.tex"] = self.pair_matrix(comp, ma)
                out[f"pvalues-{key}.tex"] = self.p_values(comp, ma)
        return out


def _is_best(value, best, decimals) -> bool:
    return (isinstance(value, float) and math.isfinite(value) and math.isfinite(best)
            and round(value, decimals) == round(best, decimals))


def _mark(marks: str) -> str:
    return marks.replace("†", r"\dag")


def _label(comp: CompetitionAnalysis, what: str) -> str:
    return f"tab:{comp.id}-{what}"  # ids are letters, digits, '.', '_', '-' (spec.check_id)


def _family_words(family: str) -> str:
    return escape(tables.family_words(family))


def _pack(widths: list[float], limit: float) -> list[list[int]]:
    """Consecutive groups of block indices whose summed width fits ``limit`` (a block alone always)."""
    groups, cur, acc = [], [], 0.0
    for i, w in enumerate(widths):
        if cur and acc + w > limit:
            groups.append(cur)
            cur, acc = [], 0.0
        cur.append(i)
        acc += w
    if cur:
        groups.append(cur)
    return groups


def _spans(values: list[str], keys: list) -> list[tuple[str, int, int]]:
    """Runs of consecutive columns with equal ``keys``: ``[(value, span, first column index), ...]``."""
    out: list[tuple[str, int, int]] = []
    for i, (v, k) in enumerate(zip(values, keys)):
        if i and keys[i - 1] == k:
            out[-1] = (out[-1][0], out[-1][1] + 1, out[-1][2])
        else:
            out.append((v, 1, i))
    return out


# --------------------------------------------------------------------------------------------------
# Files: tables, the summary, and the appendix document


def methods_latex(settings) -> str:
    """The methods paragraph with ``\\cite`` commands."""
    return "".join(escape(s).replace("-{}", "-") if isinstance(s, str) else f"\\citep{{{s.key}}}"
                   for s in methods.paragraph(settings))


def appendix(analysis: Analysis, options: Options, tables_by_comp: dict[str, list[str]],
             figures_by_comp: dict[str, list[str]], stamp: str) -> str:
    """The appendix document (pylatex): methods, then every competition's tables and figures."""
    from pylatex import Command, Document, NoEscape, Package, Section, Subsection

    lay = options.layout
    doc = Document(documentclass="article",
                   document_options=["a4paper", f"{lay.em:g}pt"] + (["twocolumn"] if lay.twocolumn else []),
                   fontenc="T1", inputenc="utf8", lmodern=True, textcomp=False, page_numbers=True,
                   geometry_options={"textwidth": f"{lay.textwidth:g}pt", "textheight": "24cm",
                                     "columnsep": "0.5cm"})
    for pkg in ("booktabs", "siunitx", "array", "longtable", "tabularx", "graphicx"):
        doc.packages.append(Package(pkg))
    doc.packages.append(Package("natbib", options=["round"]))
    if not options.layout.twocolumn:  # keep tables where they are input, in order
        doc.packages.append(Package("float"))
        doc.preamble.append(NoEscape(r"\floatplacement{table}{H}"))
    doc.preamble.append(NoEscape(r"\sisetup{detect-weight=true, mode=text}"))
    # Reproducible PDF: no dates, no random trailer id.
    doc.preamble.append(NoEscape(r"\pdfinfoomitdate=1 \pdftrailerid{}"))
    doc.preamble.append(Command("title", "Statistical analysis of the competition results"))
    doc.preamble.append(Command("author", f"compreport {analysis.version}"))
    doc.preamble.append(Command("date", ""))
    doc.append(NoEscape(r"\maketitle"))
    with doc.create(Section("Methods")):
        doc.append(NoEscape(methods_latex(analysis.settings)))
    with doc.create(Section("Competitiveness across competitions")):
        doc.append(NoEscape(r"\input{summary/legend.tex}" + "\n" + r"\input{summary/competitiveness.tex}"))
        for stem, _, _ in _language_blocks(analysis):
            doc.append(NoEscape(f"\n\\input{{summary/ci-{stem}.tex}}\n"))
    for comp in analysis.competitions:
        with doc.create(Section(NoEscape(escape(comp.name)))):
            doc.append(NoEscape(f"{comp.n:,} test items, {len(comp.systems)} systems."))
            for rel in tables_by_comp.get(comp.id, []):
                doc.append(NoEscape(f"\n\\input{{{rel}}}\n"))
            figs = figures_by_comp.get(comp.id, [])
            if figs:
                with doc.create(Subsection("Figures")):
                    for rel in figs:
                        doc.append(NoEscape(
                            "\n\\begin{figure}[htbp]\\centering\n"
                            f"\\includegraphics[width=\\linewidth,height=0.8\\textheight,keepaspectratio]{{{rel}}}\n"
                            "\\end{figure}\n"))
        doc.append(NoEscape(r"\clearpage"))
    doc.append(NoEscape(r"\bibliographystyle{plainnat}" + "\n" + r"\bibliography{references}"))
    return stamp + "\n" + doc.dumps() + "\n"


def write_latex(analysis: Analysis, out: Path, options: Options | None = None,
                compile_pdf: bool = True) -> list[Path]:
    """Write every table snippet, the summary, ``appendix.tex``/``references.bib`` and, when a TeX
    engine is present, ``appendix.pdf``. Returns the written paths. ``out`` is the report root."""
    options = options or Options()
    r = Renderer(analysis, options)
    written: list[Path] = []
    tables_by_comp: dict[str, list[str]] = {}
    figures_by_comp: dict[str, list[str]] = {}
    for comp in analysis.competitions:
        folder = out / comp.id / "tables"
        folder.mkdir(parents=True, exist_ok=True)
        for name, tex in r.competition_tables(comp).items():
            (folder / name).write_text(tex, encoding="utf-8")
            written.append(folder / name)
            tables_by_comp.setdefault(comp.id, []).append(f"{comp.id}/tables/{name}")
        figdir = out / comp.id / "figures"
        if figdir.is_dir():
            figures_by_comp[comp.id] = sorted(f"{comp.id}/figures/{p.name}" for p in figdir.glob("*.pdf"))
    summary = out / "summary"
    summary.mkdir(parents=True, exist_ok=True)
    for name, text in (("legend.tex", r.legend()), ("competitiveness.tex", r.summary())):
        (summary / name).write_text(text, encoding="utf-8")
        written.append(summary / name)
    for stem, caption, blocks in _language_blocks(analysis):  # paper Table 2: one task, several languages
        name = f"ci-{stem}.tex"
        (summary / name).write_text(r.ci_blocks(blocks, caption=caption, label=f"tab:ci-{stem}"), encoding="utf-8")
        written.append(summary / name)
    df = tables.competitiveness_summary(analysis)
    df.columns = df.columns.get_level_values("id")
    df.to_csv(summary / "competitiveness.csv", index_label="row", lineterminator="\n")
    written.append(summary / "competitiveness.csv")
    (out / "appendix.tex").write_text(appendix(analysis, options, tables_by_comp, figures_by_comp, r.stamp),
                                      encoding="utf-8")
    keys = methods.cited(methods.paragraph(analysis.settings))
    (out / "references.bib").write_text(methods.bibtex(keys), encoding="utf-8")
    written += [out / "appendix.tex", out / "references.bib"]
    if compile_pdf:
        pdf = compile_appendix(out)
        if pdf is not None:
            written.append(pdf)
    return written


def _language_blocks(analysis: Analysis) -> list[tuple[str, str, list[tuple[str, MetricAnalysis]]]]:
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
        caption = (f"Ordered bootstrap confidence intervals of {metric_name(comps[0].primary)} for "
                   f"{escape(': '.join(path))}")
        out.append((slug("-".join(path)), caption, [(escape(c.group[-1]), c.primary) for c in comps]))
    return out


def compile_appendix(out: Path) -> Path | None:
    """``latexmk -pdf`` in non-shell-escape mode; None (with one note on stderr) when TeX is absent."""
    import sys

    latexmk = shutil.which("latexmk")
    if latexmk is None or shutil.which("pdflatex") is None:
        print("note: latexmk/pdflatex not found: wrote appendix.tex without compiling it", file=sys.stderr)
        return None
    env = dict(os.environ, SOURCE_DATE_EPOCH="0", FORCE_SOURCE_DATE="1")
    cmd = [latexmk, "-pdf", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "-quiet",
           "appendix.tex"]
    proc = subprocess.run(cmd, cwd=out, env=env, capture_output=True, text=True)
    if proc.returncode != 0:  # our bug, not the user's: keep the .tex and the log, say so
        from ..errors import warn

        warn("appendix.pdf not built: latexmk failed on appendix.tex (see appendix.log in the output)")
        return None
    subprocess.run([latexmk, "-c", "appendix.tex"], cwd=out, env=env, capture_output=True)
    for leftover in ("appendix.bbl", "appendix.run.xml", "appendix.synctex.gz"):
        (out / leftover).unlink(missing_ok=True)
    return out / "appendix.pdf"
