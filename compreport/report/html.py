"""HTML reports: one self-contained page per competition and a workshop overview.

Every page is a single file: CSS in a ``<style>`` block, figures as inline SVG, no scripts,
fonts or other resources fetched from anywhere; the only links are relative links between the
files of one report directory. The same HTML, with print CSS, is what :mod:`compreport.pdfreport`
turns into PDF.

The functions here only *format*: every number is read from the :class:`~compreport.analysis.Analysis`
or from the DataFrames of :mod:`compreport.tables`; nothing statistical is computed. The Jinja
templates live in ``templates/html/`` (``base.html``, ``competition.html``, ``index.html``,
``team.html``, ``report.css``); autoescaping is on, so a team called ``<script>`` is text.

Decimals: scores and their intervals 4, differences 3, p-values 4 (``<0.0001`` below that);
missing values (None, NaN) are shown as an en dash.
"""

from __future__ import annotations

from .. import vocabulary as vocab

import math
import numbers
import re
from functools import lru_cache
from pathlib import Path

from . import prose as methods

from . import tables
from ..settings import Settings
from ..stats.analysis import Analysis, CompetitionAnalysis, MetricAnalysis
from ..resources import templates_dir

SCORE_DIGITS = 4
DIFF_DIGITS = 3
P_DIGITS = 4
MISSING = "\u2013"  # en dash

#: Pairwise matrices with more columns than this show rank positions instead of names in the header.
MATRIX_NAMED_COLUMNS = 8
#: In PDF, matrices with more columns than this go on a landscape page ...
MATRIX_PORTRAIT_COLUMNS = 12
#: ... and are split into blocks of at most this many columns.
MATRIX_COLUMNS_PER_BLOCK = 20
#: In PDF, the competitiveness summary is split into blocks of at most this many competitions.
SUMMARY_COLUMNS_PER_BLOCK = 7

_FIGURE_CAPTIONS = {
    "ci": "Scores with their {level} bootstrap confidence intervals, best first.",
    "diff": "Differences from the best with their {level} confidence intervals (positive: the best is better).",
    "dist": ("Bootstrap distribution of the difference between the best system and the runner-up; the p-value "
             "counts the replicates at or beyond twice the observed difference."),
    "dist-randomization": ("Bootstrap distribution of the difference between the best system and the runner-up; "
                           "the p-value in the title is the approximate randomization test's."),
    "facets": "All metrics side by side.",
}


# --------------------------------------------------------------------------------------------- formatting

def _finite(x) -> float | None:
    if x is None or isinstance(x, bool):
        return None
    try:
        f = float(x)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def fmt_num(x, digits: int = SCORE_DIGITS) -> str:
    """``x`` with ``digits`` decimals; None/NaN/inf -> an en dash; no negative zero; strings as is."""
    if isinstance(x, str):
        return x
    f = _finite(x)
    if f is None:
        return MISSING
    s = f"{f:.{digits}f}"
    if s.startswith("-") and not any(c in "123456789" for c in s):
        s = s[1:]
    return s


def fmt_score(x) -> str:
    return fmt_num(x, SCORE_DIGITS)


def fmt_diff(x) -> str:
    return fmt_num(x, DIFF_DIGITS)


def fmt_p(p) -> str:
    """A p-value with 4 decimals; ``<0.0001`` when it would round to 0 (p-values are never 0)."""
    f = _finite(p)
    if f is None:
        return MISSING
    if f < 0.5 * 10 ** -P_DIGITS:
        return f"<{10 ** -P_DIGITS:.{P_DIGITS}f}"
    return f"{f:.{P_DIGITS}f}"


def fmt_ci(low, high, digits: int = SCORE_DIGITS) -> str:
    """``[low, high]``; an en dash when both ends are missing."""
    if _finite(low) is None and _finite(high) is None:
        return MISSING
    return f"[{fmt_num(low, digits)}, {fmt_num(high, digits)}]"


def fmt_cell(x, digits: int = DIFF_DIGITS) -> str:
    """A cell of the competitiveness summary: integers as integers, other numbers with ``digits``
    decimals, strings (the ``a/b/c/d`` tie counts) as they are."""
    if isinstance(x, numbers.Integral) and not isinstance(x, bool):
        return str(int(x))
    return fmt_num(x, digits)


def level(settings: Settings) -> str:
    """``95%`` for alpha = 0.05."""
    return f"{100 * (1 - settings.alpha):g}%"


# --------------------------------------------------------------------------------------------- Jinja

@lru_cache(maxsize=1)
def environment():
    """The one Jinja environment of the HTML renderer (autoescape on, strict undefined)."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir() / "html")),
        autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True)
    env.filters.update(score=fmt_score, diff=fmt_diff, p=fmt_p, num=fmt_num, cell=fmt_cell)
    env.globals.update(fmt_ci=fmt_ci, MISSING=MISSING)
    env.filters["family"] = tables.family_words
    return env


def _render(template: str, **context) -> str:
    return environment().get_template(template).render(**context)


# --------------------------------------------------------------------------------------------- pieces

def citation_segments(segments) -> list[dict]:
    """Methods segments as ``{"text": ...}`` or ``{"cite": "Author, year", "key": ...}`` for the templates."""
    out = []
    for s in segments:
        if isinstance(s, methods.Cite):
            out.append({"cite": methods.REFERENCES[s.key][0], "key": s.key})
        else:
            out.append({"text": s})
    return out


def _bib_fields(entry: str) -> dict[str, str]:
    """Fields of one BibTeX entry (balanced braces), with inner braces dropped and spaces collapsed."""
    fields = {}
    for m in re.finditer(r"(\w+)\s*=\s*\{", entry):
        depth, i = 1, m.end()
        while i < len(entry) and depth:
            depth += {"{": 1, "}": -1}.get(entry[i], 0)
            i += 1
        value = entry[m.end():i - 1].replace("{", "").replace("}", "")
        fields[m.group(1).lower()] = re.sub(r"\s+", " ", value).strip().replace("--", "\u2013")
    return fields


def reference_text(key: str) -> str:
    """A one-line reference from :data:`compreport.methods.REFERENCES` (authors, year, title, venue)."""
    f = _bib_fields(methods.REFERENCES[key][1])
    venue = f.get("journal") or f.get("booktitle") or ""
    if f.get("volume"):
        venue += f", {f['volume']}" + (f"({f['number']})" if f.get("number") else "")
    if f.get("pages"):
        venue += f", {f['pages']}"
    if not venue:
        venue = ", ".join(x for x in (f.get("publisher"), f.get("address")) if x)
    parts = [f"{f.get('author', '')} ({f.get('year', '')}).", f"{f.get('title', '')}."]
    if venue:
        parts.append(venue.rstrip(".") + ".")
    return " ".join(parts)


def methods_context(settings: Settings) -> dict:
    segments = methods.paragraph(settings)
    keys = methods.cited(segments)
    return {"segments": citation_segments(segments),
            "references": [{"key": k, "cite": methods.REFERENCES[k][0], "text": reference_text(k)} for k in keys]}


def _basename(path) -> str:
    return re.split(r"[\\/]", str(path or ""))[-1]


def provenance(analysis: Analysis, comp: CompetitionAnalysis | None = None) -> dict:
    s = analysis.settings
    rows = [("compreport version", analysis.version), ("Seed", str(s.seed)), ("Bootstrap replicates B", f"{s.bootstrap:,}"),
            ("alpha", f"{s.alpha:g}"), ("Confidence level", level(s)), ("CI method", s.ci_method),
            ("Test", s.test), ("Pairwise correction family", s.family),
            ("Correction for significance groups", vocab.CORRECTIONS[s.correction].label)]
    out = {"rows": rows, "inputs": [], "warnings": [], "engine": []}
    if comp is not None:
        out["inputs"] = [{"name": _basename(i.get("path")), "sha256": i.get("sha256") or MISSING} for i in comp.inputs]
        out["warnings"] = list(comp.warnings)
        out["engine"] = [(k, str(v)) for k, v in sorted(comp.engine.items())]
    return out


def _scope_svg(svg: str, prefix: str) -> str:
    """Prefix the ids of one inline SVG (and the references to them) so that several figures on one
    page cannot clash (matplotlib names clip paths and glyphs per figure)."""
    ids = set(re.findall(r'\bid="([^"]+)"', svg))
    if not ids:
        return svg
    pattern = "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
    svg = re.sub(r'\bid="(' + pattern + r')"', lambda m: f'id="{prefix}{m.group(1)}"', svg)
    return re.sub(r'#(' + pattern + r')(?=["\')])', lambda m: f"#{prefix}{m.group(1)}", svg)


def _svg_markup(fig, prefix: str):
    from markupsafe import Markup

    from . import figures

    svg = figures.to_svg(fig, salt=prefix)
    svg = re.sub(r"^\s*<\?xml[^>]*\?>\s*", "", svg)
    svg = re.sub(r"^\s*<!DOCTYPE[^>]*>\s*", "", svg)
    return Markup(_scope_svg(svg.strip(), prefix))


def _close(fig) -> None:
    """Release a figure's artists (figures are built without pyplot)."""
    fig.clear()


def _figure_metric(stem: str, comp: CompetitionAnalysis) -> tuple[str, str | None]:
    """``ci-macro_f1`` -> (``ci``, ``macro_f1``); the metric may appear as its name or its slug."""
    from ..inputs.spec import slug

    kind, _, rest = stem.partition("-")
    for ma in comp.metrics:
        if rest and rest in (ma.name, slug(ma.name), ma.name.replace("_", "-")):
            return kind, ma.name
    return kind, None


#: (id(analysis), competition id) -> (analysis, blocks): the HTML and the PDF pages of one run share
#: their inline figures instead of drawing them twice. Holding the analysis keeps its id unique.
_FIGURE_CACHE: dict[tuple[int, str], tuple] = {}


def competition_figure_blocks(analysis: Analysis, comp: CompetitionAnalysis) -> tuple[dict, list]:
    """Inline SVG figures of one competition: ({metric name: [figure, ...]}, [other figures])."""
    key = (id(analysis), comp.id)
    hit = _FIGURE_CACHE.get(key)
    if hit is not None and hit[0] is analysis:
        return hit[1]
    if len(_FIGURE_CACHE) > 64:
        _FIGURE_CACHE.clear()
    blocks = _draw_figure_blocks(analysis, comp)
    _FIGURE_CACHE[key] = (analysis, blocks)
    return blocks


def _draw_figure_blocks(analysis: Analysis, comp: CompetitionAnalysis) -> tuple[dict, list]:
    from . import figures

    per_metric: dict[str, list] = {ma.name: [] for ma in comp.metrics}
    others: list = []
    figs = figures.competition_figures(comp, level=1 - analysis.settings.alpha, test=analysis.settings.test)
    for i, (stem, fig) in enumerate(figs.items()):
        kind, metric = _figure_metric(stem, comp)
        key = f"{kind}-{analysis.settings.test}" if f"{kind}-{analysis.settings.test}" in _FIGURE_CAPTIONS else kind
        caption = _FIGURE_CAPTIONS.get(key, "").format(level=level(analysis.settings))
        item = {"stem": stem, "svg": _svg_markup(fig, f"f{i}-"), "caption": caption, "metric": metric}
        _close(fig)
        (per_metric[metric] if metric else others).append(item)
    return per_metric, others


def _p_corrected(obj, correction: str) -> float:
    return getattr(obj, tables.P_COLUMNS[correction])


def _metric_title(ma: MetricAnalysis) -> str:
    params = ", ".join(f"{k}={v}" for k, v in sorted(ma.params.items())) if ma.params else ""
    return ma.name + (f" ({params})" if params else "")


#: Shading class of a significance mark: 3 for the strictest (``***``) ... 0 for ``†``; -1 unmarked.
_STAR_LEVEL = {mark: len(tables.STARS) - 1 - i for i, (_, mark) in enumerate(tables.STARS)}


def matrix_context(ma: MetricAnalysis, settings: Settings, *, for_pdf: bool) -> dict:
    """The pairwise matrix (paper Table 4) as blocks of columns ready for the template."""
    pm = tables.pair_matrix(ma, settings.correction, settings.family)
    order = [s.system for s in ma.scores]
    position = {name: i + 1 for i, name in enumerate(order)}
    cols = list(pm.diff.columns)
    named = len(cols) <= MATRIX_NAMED_COLUMNS
    per_block = MATRIX_COLUMNS_PER_BLOCK if for_pdf else max(len(cols), 1)
    blocks = []
    for start in range(0, len(cols), per_block):
        bcols = cols[start:start + per_block]
        rows = []
        for r in pm.diff.index:
            cells = []
            for c in bcols:
                d, p, mark = pm.diff.loc[r, c], pm.p.loc[r, c], pm.marks.loc[r, c]
                if _finite(d) is None and _finite(p) is None:
                    cells.append(None)
                else:
                    cells.append({"diff": d, "p": p, "mark": mark, "level": _STAR_LEVEL.get(mark, -1)})
            if any(cell is not None for cell in cells):
                rows.append({"system": r, "pos": position[r], "cells": cells})
        blocks.append({"columns": [{"system": c, "pos": position[c]} for c in bcols], "rows": rows,
                       "first": position[bcols[0]] if bcols else 0, "last": position[bcols[-1]] if bcols else 0})
    return {"blocks": blocks, "named": named, "ncols": len(cols),
            "landscape": for_pdf and len(cols) > MATRIX_PORTRAIT_COLUMNS,
            "correction": tables.correction_label(settings, "pairs"),
            "uncorrected": settings.correction == "none"}


def metric_context(analysis: Analysis, comp: CompetitionAnalysis, ma: MetricAnalysis, *, for_pdf: bool) -> dict:
    s = analysis.settings
    ci = tables.confidence_intervals(ma)
    scores = [dict(r) | {"baseline": r["system"] in comp.baselines} for r in ci.to_dict("records")]
    by_system = {x.system: x for x in ma.scores}
    for row in scores:
        row["se"] = by_system[row["system"]].se
    diffs = tables.differences_from_best(ma).to_dict("records")
    for row in diffs:
        row["baseline"] = row["system"] in comp.baselines
    pairs = tables.pairwise_p_values(ma).to_dict("records")
    return {
        "name": ma.name, "title": _metric_title(ma), "primary": ma.primary, "best": ma.best,
        "direction": "higher is better" if ma.higher_is_better else "lower is better",
        "scores": scores, "diffs": diffs, "pairs": pairs,
        "matrix": matrix_context(ma, s, for_pdf=for_pdf),
        "group_correction": tables.correction_label(s, "pairs"),
        "figures": [],
    }


def _subtitle(comp: CompetitionAnalysis) -> str:
    bits = [comp.challenge + (f" {comp.year}" if comp.year and str(comp.year) not in comp.challenge else "")
            if comp.challenge else (str(comp.year) if comp.year else ""),
            comp.task, comp.subtask, comp.language]
    return " \u00b7 ".join(b for b in bits if b)


def competition_context(analysis: Analysis, comp: CompetitionAnalysis, *, for_pdf: bool = False,
                        with_figures: bool = True) -> dict:
    s = analysis.settings
    lb = tables.leaderboard(comp)
    primary = comp.primary
    by_system = {x.system: x for x in primary.scores}
    best = tables.best_values(comp)
    leaderboard = []
    for r in lb.to_dict("records"):
        sc = by_system[r["system"]]
        leaderboard.append({
            "rank": r["rank"], "system": r["system"], "baseline": bool(r["baseline"]), "group": r["group"],
            "ci_low": sc.ci_low, "ci_high": sc.ci_high,
            "scores": [{"value": r[ma.name], "best": _finite(r[ma.name]) is not None and r[ma.name] == best[ma.name]}
                       for ma in comp.metrics]})
    metrics_ctx = [metric_context(analysis, comp, ma, for_pdf=for_pdf) for ma in comp.metrics]
    other_figures = []
    if with_figures:
        per_metric, other_figures = competition_figure_blocks(analysis, comp)
        for mc in metrics_ctx:
            mc["figures"] = per_metric.get(mc["name"], [])
    return {
        "for_pdf": for_pdf, "comp": comp, "subtitle": _subtitle(comp), "settings": s, "level": level(s),
        "metrics": metrics_ctx, "metric_names": [ma.name for ma in comp.metrics],
        "primary": {"name": primary.name, "best": primary.best,
                    "direction": "higher is better" if primary.higher_is_better else "lower is better"},
        "leaderboard": leaderboard, "has_baselines": any(r["baseline"] for r in leaderboard),
        "group_correction": tables.correction_label(s, "pairs"),
        "other_figures": other_figures, "methods": methods_context(s),
        "provenance": provenance(analysis, comp), "stars": tables.STARS,
    }


# --------------------------------------------------------------------------------------------- public API

def competition_html(analysis: Analysis, comp: CompetitionAnalysis, *, for_pdf: bool = False) -> str:
    """One self-contained HTML page for one competition.

    Leaderboard with CIs and significance groups, per metric the ordered CIs, the differences
    from the best, the lower-triangular pairwise matrix shaded by the corrected p-value, the
    pairwise p-values (raw, Bonferroni, Holm, BH) and the figures (inline SVG); then the methods
    paragraph with its references and the provenance (version, settings, input files and their
    SHA-256). ``for_pdf``: no link back to the overview, wide matrices split in column blocks on
    landscape pages.
    """
    return _render("competition.html", **competition_context(analysis, comp, for_pdf=for_pdf))


def _summary_tables(analysis: Analysis, *, for_pdf: bool) -> list[dict]:
    """The competitiveness summary as one table whose columns are grouped challenge -> task ->
    language (the paper's Tables 7-11 side by side); in PDF split into blocks of at most
    :data:`SUMMARY_COLUMNS_PER_BLOCK` columns, never splitting a challenge unless it alone is wider."""
    df = tables.competitiveness_summary(analysis)
    comps = {c.id: c for c in analysis.competitions}
    link = "report.pdf" if for_pdf else "report.html"
    columns = []
    for j, key in enumerate(df.columns):
        challenge, task, language, metric, cid = key
        comp = comps[cid]
        unit = comp.primary.competitiveness.get("ppi_unit") if comp.primary.competitiveness else None
        columns.append({"challenge": challenge, "task": task, "language": language or comp.name, "metric": metric,
                        "id": cid, "name": comp.name, "href": f"{cid}/{link}", "ppi_unit": unit,
                        "values": list(df.iloc[:, j])})
    limit = SUMMARY_COLUMNS_PER_BLOCK if for_pdf else max(len(columns), 1)
    blocks: list[list[dict]] = []
    for challenge_cols in _runs(columns, lambda c: c["challenge"]):
        for start in range(0, len(challenge_cols), limit):
            piece = challenge_cols[start:start + limit]
            if blocks and len(blocks[-1]) + len(piece) <= limit:
                blocks[-1].extend(piece)
            else:
                blocks.append(list(piece))
    out = []
    for cols in blocks:
        out.append({
            "challenge_spans": _spans([c["challenge"] for c in cols]),
            "task_spans": _spans([(c["challenge"], c["task"]) for c in cols]),
            "metric_spans": _spans([(c["challenge"], c["task"], c["metric"]) for c in cols]),
            "columns": cols,
            "rows": [{"name": name, "cells": [c["values"][i] for c in cols]} for i, name in enumerate(df.index)],
            "metric_units": [c for c in cols if c["ppi_unit"] == "metric"],
        })
    return out


def _runs(items: list, key) -> list[list]:
    """Consecutive items with the same ``key``, as lists."""
    runs: list[list] = []
    for item in items:
        if runs and key(runs[-1][0]) == key(item):
            runs[-1].append(item)
        else:
            runs.append([item])
    return runs


def _spans(values: list) -> list[tuple[str, int]]:
    """Consecutive equal values as ``(label, count)``; a tuple value is labelled by its last element."""
    return [(run[0][-1] if isinstance(run[0], tuple) else run[0], len(run)) for run in _runs(values, lambda v: v)]


def index_context(analysis: Analysis, *, for_pdf: bool = False, with_figures: bool = True) -> dict:
    link = "report.pdf" if for_pdf else "report.html"
    workshop_svg = None
    if with_figures:
        from . import figures

        fig = figures.workshop_plot(analysis)
        if fig is not None:
            workshop_svg = _svg_markup(fig, "w-")
            _close(fig)
    competitions = [{"id": c.id, "name": c.name, "subtitle": _subtitle(c), "n": c.n, "m": len(c.systems),
                     "metric": c.primary.name, "best": c.primary.best, "href": f"{c.id}/{link}"}
                    for c in analysis.competitions]
    return {"for_pdf": for_pdf, "settings": analysis.settings, "level": level(analysis.settings),
            "summaries": _summary_tables(analysis, for_pdf=for_pdf),
            "legend": tables.legend().to_dict("records"), "competitions": competitions,
            "workshop_svg": workshop_svg, "methods": methods_context(analysis.settings),
            "provenance": provenance(analysis)}


def index_html(analysis: Analysis, *, for_pdf: bool = False) -> str:
    """The workshop overview: competitiveness summary per challenge (columns task -> language, as
    the paper's Tables 7-11), its legend (Table 6), the workshop figure and a link to each
    competition's report (``<id>/report.html``, or ``report.pdf`` when ``for_pdf``)."""
    return _render("index.html", **index_context(analysis, for_pdf=for_pdf))


def _shares_letter(a: str, b: str) -> bool:
    return bool(set(a or "") & set(b or ""))


def team_context(analysis: Analysis, comp: CompetitionAnalysis, system: str) -> dict:
    """Everything the one-page team sheet shows (read from the primary metric's results)."""
    s = analysis.settings
    ma = comp.primary
    by_system = {x.system: x for x in ma.scores}
    if system not in by_system:
        raise KeyError(f"competition {comp.id!r} has no system {system!r}")
    me = by_system[system]
    vs = {c.b: c for c in ma.vs_best}
    corr = s.correction
    winner = system == ma.best
    comparison = None
    if winner:
        if ma.vs_best:
            c = ma.vs_best[0]
            comparison = {"other": c.b, "diff": c.diff, "ci_low": c.ci_low, "ci_high": c.ci_high,
                          "p": c.p_value, "p_corr": _p_corrected(c, corr)}
    elif system in vs:
        c = vs[system]
        comparison = {"other": ma.best, "diff": c.diff, "ci_low": c.ci_low, "ci_high": c.ci_high,
                      "p": c.p_value, "p_corr": _p_corrected(c, corr)}
    if comparison is not None:
        decide = comparison["p"] if corr == "none" else comparison["p_corr"]
        comparison["significant"] = _finite(decide) is not None and decide < s.alpha
    alike = [x.system for x in ma.scores if x.system != system and _shares_letter(x.group, me.group)]
    others = []
    for om in comp.metrics[1:]:
        o = next((x for x in om.scores if x.system == system), None)
        if o is not None:
            others.append({"name": _metric_title(om), "score": o.score, "ci_low": o.ci_low, "ci_high": o.ci_high,
                           "rank": o.rank, "m": len(om.scores),
                           "direction": "higher is better" if om.higher_is_better else "lower is better"})
    return {
        "comp": comp, "subtitle": _subtitle(comp), "settings": s, "level": level(s), "version": analysis.version,
        "metric": _metric_title(ma), "direction": "higher is better" if ma.higher_is_better else "lower is better",
        "system": system, "me": me, "m": len(ma.scores), "winner": winner, "best": ma.best,
        "best_score": by_system[ma.best].score,
        "comparison": comparison, "alike": alike, "alike_baselines": [a for a in alike if a in comp.baselines],
        "others": others, "correction": vocab.CORRECTIONS[corr].label,
        "vs_best_correction": tables.correction_label(s, "vs_best"),
        "group_correction": tables.correction_label(s, "pairs"),
        "method_sentences": method_sentences(s),
    }


def method_sentences(settings: Settings) -> list:
    """The methods in two sentences (for the team sheets), as segments with citations."""
    s = settings
    ci_words = {"percentile": "percentile", "bca": "BCa", "normal": "normal-approximation"}.get(s.ci_method, s.ci_method)
    ci_cite = {"bca": "efron1987"}.get(s.ci_method, "efron1993")
    first = [f"Scores carry {level(s)} {ci_words} confidence intervals ", methods.Cite(ci_cite),
             f" from {s.bootstrap:,} paired bootstrap resamples of the test items (seed {s.seed}); "]
    if s.test == "randomization":
        first += ["p-values come from an approximate randomization test ", methods.Cite("noreen1989"), ". "]
    else:
        first += ["p-values come from the paired bootstrap test ", methods.Cite("bergkirkpatrick2012"), ". "]
    if s.correction == "none":
        second = [f"Comparisons are not corrected for multiplicity, and systems sharing a significance-group "
                  f"letter are not significantly different at \u03b1 = {s.alpha:g} ", methods.Cite("piepho2004"), "."]
    else:
        label = vocab.CORRECTIONS[s.correction].label
        second = [f"The difference to the winner is {label}-corrected over the comparisons with the winner, and "
                  f"systems sharing a significance-group letter are not significantly different at "
                  f"\u03b1 = {s.alpha:g} after {label} correction over "
                  f"{tables.family_words(s.family)} ",
                  methods.Cite("piepho2004"), "."]
    return citation_segments(first + second)


def team_html(analysis: Analysis, comp: CompetitionAnalysis, system: str) -> str:
    """The one-page sheet of one system (rendered to PDF by :func:`compreport.pdfreport.write_pdf`)."""
    return _render("team.html", **team_context(analysis, comp, system))


def competition_dir(out: Path, comp: CompetitionAnalysis) -> Path:
    """``out/<comp.id>``; refuses ids that would leave ``out`` (the load-time rule, :func:`spec.check_id`,
    applied again for analyses built without the loader)."""
    from ..inputs.spec import check_id

    cid = str(comp.id or "")
    check_id(cid, Path(out))
    return Path(out) / cid


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)
    return path


def write_html(analysis: Analysis, out: Path) -> list[Path]:
    """Write ``out/index.html`` and ``out/<id>/report.html`` for every competition; return the paths."""
    out = Path(out)
    written = [_write(out / "index.html", index_html(analysis))]
    for comp in analysis.competitions:
        written.append(_write(competition_dir(out, comp) / "report.html", competition_html(analysis, comp)))
    return written
