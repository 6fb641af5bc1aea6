"""The pairwise LaTeX tables of one metric: differences from the best, the pair matrix, the p-values.

:class:`PairwiseTables` holds these methods of :class:`compreport.report.latex.renderer.Renderer` (which
inherits them); they use the renderer's helpers and attributes (``style``, ``fmt``, ``m``, ``marks``,
``_col``, ``_num_col``, ``_row_groups``, ``_file``...).
"""

from __future__ import annotations

import math

from compreport.language import N_, decimal_comma, tr
from compreport.language import vocabulary as vocab
from compreport.report import model
from compreport.report.latex.layout import _Part, split_even
from compreport.report.latex.tex import escape, mark, metric_name
from compreport.report.latex.words import alpha, ci_method, header, level, p_test
from compreport.report.naming import metric_stems
from compreport.report.prose import draws
from compreport.stats.results import CompetitionAnalysis, MetricAnalysis


class PairwiseTables:
    """The pairwise tables of :class:`~compreport.report.latex.renderer.Renderer` (a mixin)."""

    def _rule(self) -> str:
        """The rule of every verdict (:attr:`~compreport.settings.Settings.rule`), escaped, its numbers
        (the one-sided test's two-sided level) with the tables' decimal marker."""
        with decimal_comma(self.opt.decimal_comma):
            return escape(self.analysis.settings.rule)

    def differences_from_best(self, comp: CompetitionAnalysis, ma: MetricAnalysis) -> str:
        """CIs of the differences from the best (paper Table 3) with the stored verdicts; names
        become rank numbers with a key in the caption only if the table cannot fit otherwise."""
        t = model.differences_from_best(comp, ma, self.fmt)
        st = self.style
        position = {s.system: i + 1 for i, s in enumerate(ma.scores)}
        other = [
            self._num_col([r[k] for r in t.rows], header(h))
            for k, h in (("ci_low", "LCI"), ("diff", "Diff."), ("ci_high", "UCI"))
        ]
        other += [
            self._col(["Excl.~0"] + [escape(r["excludes_zero"].text) for r in t.rows]),
            self._num_col([r["p_adjusted"] for r in t.rows], "$p$"),
            self._col(["Sig."] + [escape(r["significant"].text) for r in t.rows]),
        ]
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
            ", {best} (positive: the best is better), with {level}\\% {method} bootstrap confidence intervals "
            "(not corrected for multiple comparisons); Excl.~0: the interval excludes zero. Sig.: significantly "
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
                        "excludes": escape(t.rows[i]["excludes_zero"].text),
                        "p": self.cell(t.rows[i]["p_adjusted"]),
                        "significant": escape(t.rows[i]["significant"].text),
                    }
                    for i in rg
                ],
            )

        def continued(rg):  # a later part's key to its rank numbers
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
            self.label(f"{comp.id}-diff-{metric_stems(comp)[ma.name]}"),
            body,
            continued,
        )

    def _monte_carlo(self, ma: MetricAnalysis, t) -> str:
        """The Monte-Carlo error of the table's p-values, in the caption (the per-pair standard errors
        are in results.json and the HTML table): resamples behind them, the largest standard error,
        and how many verdicts are unsettled."""
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
        if unsettled == 1:
            text += tr(
                "; {n} verdict unsettled (within that error: drawing more could change it)",
                n=unsettled,
            )
        elif unsettled:
            text += tr(
                "; {n} verdicts unsettled (within that error: drawing more could change them)",
                n=unsettled,
            )
        return text + "."

    def _marks_text(self, ma: MetricAnalysis) -> str:
        """The legend of the marks a corrected p-value of ``ma`` can earn (:func:`model.possible_marks`)."""
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
        return tr("Marks: {marks} ({rule})", marks=text, rule=self._rule())

    def pair_matrix(self, comp: CompetitionAnalysis, ma: MetricAnalysis) -> str:
        """Lower-triangular differences (column − row) with the stored marks; columns split evenly to
        fit, rows by height; row names become rank numbers (key in the caption) only when a split
        would otherwise leave a part with a single column."""
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
        # space for the widest mark a cell can hold; a column with marks sets each cell in a box of no
        # height (matrix.tex.j2: \smash), so a raised mark, taller than the strut in most styles' fonts
        # (0.45 pt at SEPLN's 11 pt, 1 pt in ceurart-2col), makes no row taller than the height model's
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

        def caption(
            g, rows, part
        ):  # the key names the part's columns, and its rows when abbreviated
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
                part=part,
                key=self._key(sorted(shown.items())),
                marks=self._marks_text(ma),
            )

        plan = []
        for g in col_groups:
            first = position[cols[g[0]]]
            rows = [r for r in t.rows if position[r.label] > first]
            w = st.table_width([stub] + [col_w] * len(g))

            def part_caption(k, rg, n, g=g, rows=rows):  # the key names the part's columns and rows
                return caption(g, [rows[i] for i in rg], self._part_text(99, 99))

            plan += [
                (g, [rows[i] for i in rg], w)
                for rg in self._fewest_parts(len(rows), part_caption, w)
            ]
        labels = self._parts(
            self.label(f"{comp.id}-pairs-{metric_stems(comp)[ma.name]}"), len(plan)
        )
        parts = []
        for k, (g, rows, _) in enumerate(plan):
            sel = [cols[i] for i in g]
            w = st.table_width([self._col([names[r.label] for r in rows])] + [col_w] * len(g))
            cap = caption(g, rows, self._part_text(k + 1, len(plan)))
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
            parts.append(_Part(w, body, cap, labels[k]))
        return self._file(parts)

    def _fewest_parts(self, n: int, caption, width: float) -> list[list[int]]:
        """``n`` rows cut into consecutive parts, each with as many rows as fit ``\\textheight`` under its
        own caption, ``caption(k, rows, parts)`` (part ``k``, whose key names the systems of ``rows``;
        ``parts`` is given as 99, the widest count): a part whose key names fewer systems holds more
        rows. A last part of one row takes a second from the part before (no part of a single row)."""
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

    def p_values(self, comp: CompetitionAnalysis, ma: MetricAnalysis) -> str:
        """All pairs with raw, Bonferroni, Holm and BH p-values (paper Table 5), in row-split floats
        that fit the page; names become rank numbers (key in the caption) only if they cannot fit."""
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
        shown = [
            k for k in vocab.P_FIELD if k != "maxt" or s.test == "bootstrap"
        ]  # max-T needs the bootstrap
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
            "Estimated $p$-values of the {metric} differences (A $-$ B, positive: A is better) for {competition}",
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
                ", without adjustment, with Bonferroni, Holm and Benjamini--Hochberg (BH) adjustments and with "
                "the max-$T$ step-down over {family} ({test}). Verdicts of this report: {rule}, {alpha}.",
                **words,
            )
        else:
            tail = tr(
                ", without adjustment and with Bonferroni, Holm and Benjamini--Hochberg (BH) adjustments over "
                "{family} ({test}). Verdicts of this report: {rule}, {alpha}.",
                **words,
            )

        def key(rows):
            if not abbreviate:
                return ""
            shown = sorted(
                {
                    position[t.rows[i][x].text]: t.rows[i][x].text for i in rows for x in ("a", "b")
                }.items()
            )
            return tr(" Systems are numbered by rank ({key}).", key=self._key(shown))

        label = self.label(f"{comp.id}-pvalues-{metric_stems(comp)[ma.name]}")
        groups = self._fewest_parts(
            len(t.rows),
            lambda k, rg, n: (
                head + self._part_text(1, n) + tail + key(rg)
                if k == 0
                else self._continued(head, label, k + 1, n) + key(rg)
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
                head + self._part_text(1, len(groups)) + tail + key(rg)
                if k == 0
                else self._continued(head, labels[0], k + 1, len(groups)) + key(rg)
            )
            parts.append(_Part(w, body, cap, labels[k]))
        return self._file(parts)
