r"""LaTeX text: escaped user strings, metric names as captions set them, numbers, model cells.

Every user-supplied string goes through :func:`escape`, which never injects markup: team
names are hostile (``\input{/etc/passwd}``, ``x}\end{tabular}``) and print literally, also
under ``babel`` spanish (whose ``\%`` adds a space before the sign: a name's ``%`` is
``\char37{}``). Every number of a table, in cells and captions, goes through :func:`num`, which
decides its decimal marker (``comma``: the ``--decimal-comma`` option; ``{,}`` in math, so babel
spanish's math comma never applies), its minus sign and its digit groups. No siunitx: numeric
columns are ``r`` columns whose cells have the same decimals (the model's), so their decimal
points align (a bold value's too: its fraction reserves the width of regular digits, see
:func:`cell`), and a significance mark sits in a space every cell of its column reserves
(:func:`cell`'s ``overlap``). No siunitx because its ``S`` columns cost 85% of the appendix's
compile time.
"""

from __future__ import annotations

import re
import unicodedata
from types import MappingProxyType

import numpy as np

from compreport.errors import option, warn
from compreport.language import N_, grouped, tr
from compreport.report.metricnames import metric_label, positive
from compreport.report.model import MISSING, Cell
from compreport.report.naming import pieces
from compreport.stats.results import MetricAnalysis

_SPECIAL = MappingProxyType(
    {
        "\\": r"\textbackslash{}",
        "&": r"\&",
        "%": r"\char37{}",
        "$": r"\$",
        "#": r"\#",
        "_": r"\_",
        "{": r"\{",
        "}": r"\}",
        "~": r"\textasciitilde{}",
        "^": r"\textasciicircum{}",
        "<": r"\textless{}",
        ">": r"\textgreater{}",
        "|": r"\textbar{}",
        '"': r"\textquotedbl{}",
        "'": r"\textquotesingle{}",
        "`": r"\textasciigrave{}",
        "-": "-{}",  # "-{}" keeps "--" from becoming a dash
        "\n": " ",
        "\r": " ",
        "\t": " ",
    }
)
#: Non-ASCII characters pdflatex (utf8 input, T1 fonts) typesets: Latin-1 and Latin Extended-A,
#: plus common punctuation. Others fall back to their ASCII decomposition, else "?".
UNICODE_OK = (set(map(chr, range(0xA1, 0x180))) - set("ĦħĸĿŀŉŦŧſ")) | set("–—‘’“”…•€†‡")
#: Symbols our own prose uses, as LaTeX that pdflatex sets.
_UNICODE_TEX = MappingProxyType(
    {
        "−": r"\textminus{}",
        "α": r"$\alpha$",
        "δ": r"$\delta$",
        "θ": r"$\theta$",
        "≥": r"$\geq$",
        "≤": r"$\leq$",
        "\u00a0": "~",
    }
)


def escape(text: object) -> str:
    r"""``text`` as LaTeX that prints it literally (T1 + utf8 under pdflatex); never injects markup.

    Examples
    --------
    >>> print(escape(r"x}\end{tabular} 100% & co_op"))
    x\}\textbackslash{}end\{tabular\} 100\char37{} \& co\_op
    >>> print(escape("Șerban → Łódź"))
    Serban ? Łódź
    """
    out = []
    for ch in str(text):
        if ch in _SPECIAL:
            out.append(_SPECIAL[ch])
        elif ch.isascii():
            out.append(ch if ch.isprintable() else " ")
        elif ch in UNICODE_OK:
            out.append(ch)
        elif ch in _UNICODE_TEX:
            out.append(_UNICODE_TEX[ch])
        else:
            out.append("".join(_SPECIAL.get(c, c) for c in _fallback(ch)))
    return "".join(out)


def _fallback(ch: str) -> str:
    """What :func:`escape` prints for a character pdflatex cannot set: its ASCII decomposition
    (``ș`` -> ``s``), else ``?`` (``深`` -> ``?``)."""
    ascii_ = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
    return "".join(c for c in ascii_ if c.isprintable()) or "?"


def as_printed(text: object) -> str:
    """``text`` as its :func:`escape` prints under pdflatex: each character pdflatex cannot set
    replaced by its :func:`_fallback`, an ASCII control character by a space; others as given."""
    return "".join(
        (ch if ch.isprintable() else " ")
        if ch.isascii()
        else ch
        if ch in UNICODE_OK or ch in _UNICODE_TEX
        else _fallback(ch)
        for ch in str(text)
    )


def warn_unset_names(comp) -> None:
    """Warn (once per call) when some system names of ``comp`` print otherwise in its LaTeX tables
    (:func:`as_printed`: a Chinese name as ``??.01``), naming each and those that print alike, which
    a table then cannot tell apart. The HTML reports print every name as given."""
    looks = {s: as_printed(s) for s in comp.systems}
    altered = [(s, p) for s, p in looks.items() if p != s]
    if not altered:
        return
    shown = ", ".join(f"'{s}' as '{p}'" for s, p in altered[:5]) + (
        f" and {len(altered) - 5} more" if len(altered) > 5 else ""
    )
    printed: dict[str, list[str]] = {}
    for s, p in looks.items():
        printed.setdefault(p, []).append(s)
    alike = [names for names in printed.values() if len(names) > 1]
    clash = (
        (
            "; "
            + "; ".join(" and ".join(f"'{s}'" for s in names) for names in alike)
            + " print alike, so the tables cannot tell them apart"
        )
        if alike
        else ""
    )
    warn(
        f"LaTeX tables of {comp.id}: pdflatex cannot set every character of {len(altered)} system "
        f"name{'s' if len(altered) > 1 else ''}: they print {shown}{clash}. The HTML reports print "
        f"them as given (the PDF reports too, with a font that has them); to name them in Latin "
        f"script, use a names file ({option('names')}, or `[names] file` in a spec) or, for a wide "
        f"table, its column names"
    )


def breakable(name: object) -> str:
    r"""A participant's name as :func:`escape` writes it, with ``\allowbreak{}`` where the HTML
    lets it wrap (:func:`~compreport.report.naming.pieces`: after a run of separators).

    For captions, whose keys list names too long for a line's justification
    (``Universidad\_Politécnica\_...``), never for table cells, which do not wrap.

    Examples
    --------
    >>> print(breakable("UNED-NLP.run1"))
    UNED-{}\allowbreak{}NLP.\allowbreak{}run1
    """
    return "\\allowbreak{}".join(escape(part) for part in pieces(name))


def num(value: object, comma: bool = False, math: bool = False) -> str:
    r"""A number as LaTeX, with its minus sign, decimal marker and digit groups.

    ``value`` is a number's text (``"0.05"``, ``-0.025``, ``10000``) or a float, written
    positionally with up to 6 significant digits (``0.00005``, never ``5e-05``). The minus is
    ``\textminus{}`` (``-`` in ``math``), the decimal marker ``,`` under ``comma``, and a thin
    space separates groups of three digits in integer parts of five digits or more (``10\,000``;
    ``1950``; decimals are not grouped). In math the marker is braced (``0{.}05``, ``0{,}05``) so
    babel spanish does not turn it into the other one. Other text is escaped.

    Examples
    --------
    >>> print(num(-0.025), num(12345.5, comma=True), num(0.00005), num(0.05, math=True))
    \textminus{}0.025 12\,345,5 0.00005 0{.}05
    """
    # a float with 6 significant digits, never 5e-05
    text = (
        np.format_float_positional(value, precision=6, unique=False, fractional=False, trim="-")
        if isinstance(value, float)
        else str(value)
    )
    mt = _NUMBER.fullmatch(text)
    if not mt:
        return escape(text)
    sign, whole, frac = mt.group(1), grouped(mt.group(2), "\\,"), mt.group(3)
    marker = "," if comma else "."
    marker = "{" + marker + "}" if math else marker
    minus = ("-" if math else "\\textminus{}") if sign else ""
    return minus + whole + (marker + frac if frac is not None else "")


def cell(c: Cell, comma: bool = False, overlap: bool = False) -> str:
    r"""A model :class:`~compreport.report.model.Cell` as LaTeX for an ``r`` column.

    The text is the one every format prints (numbers through :func:`num`); a missing value is
    ``--``; bold is ``\bfseries``; the significance mark is a superscript. ``overlap``: the mark
    takes no width (``\rlap``), for a column that reserves the widest mark's space after every
    cell (``r<{\phantom{...}}``), so the numbers stay aligned with or without one.

    A bold number's fraction is set over the width of the same digits in regular weight
    (``\bfseries 0.\rlap{7543}\phantom{\textmd{7543}}``), so its decimal point sits where the
    column's other numbers put theirs; the wider bold digits reach into the column gap (about
    0.3 pt per digit at 10 pt in Latin Modern; none in Times)."""
    text = cell_text(c, comma)
    if c.bold:
        if frac := c.fraction:
            text = f"{text[: -len(frac)]}\\rlap{{{frac}}}\\phantom{{\\textmd{{{frac}}}}}"
        text = "\\bfseries " + text
    return text + (f"\\rlap{{{mark(c.mark)}}}" if overlap and c.mark else mark(c.mark))


def cell_text(c: Cell, comma: bool = False) -> str:
    r"""The cell's text without emphasis: ``--`` when missing, else its numbers through
    :func:`num` (``\textless{}0.0001``)."""
    if c.text == MISSING:
        return "--"
    return with_numbers(c.text, comma)


def with_numbers(text: str, comma: bool = False) -> str:
    r"""``text`` escaped, its numbers through :func:`num` (so they take the decimal marker and
    minus).

    For the model's number texts only (``<0.0001``, ``-0.109``); never for names, whose digits
    (``Team 42.01``) are not numbers.

    Examples
    --------
    >>> print(with_numbers("<0.0001", comma=True))
    \textless{}0,0001
    """
    return "".join(
        num(part, comma) if _NUMBER.fullmatch(part) else escape(part)
        for part in _NUMBER_SPLIT.split(text)
        if part
    )


def mark(m: str) -> str:
    r"""A significance mark as a superscript; empty for no mark.

    Examples
    --------
    >>> print(mark("**"), mark("†"))
    \textsuperscript{**} \textsuperscript{\dag}
    """
    return "\\textsuperscript{" + m.replace("†", r"\dag") + "}" if m else ""


_NUMBER = re.compile(r"(-?)(\d+)(?:\.(\d+))?")
_NUMBER_SPLIT = re.compile(r"(-?\d+(?:\.\d+)?)")


#: Metric names as set in captions and headers (LaTeX), in English: :func:`metric_name` sets them in
#: the report's language ("accuracy", "precision" and "recall" are translated with the display names
#: of :mod:`compreport.report.metricnames`); others are escaped as given.
METRIC_NAMES = MappingProxyType(
    {
        "accuracy": "accuracy",
        "f1": N_("F$_1$ score"),
        "macro_f1": N_("macro-averaged F$_1$ score"),
        "micro_f1": N_("micro-averaged F$_1$ score"),
        "weighted_f1": N_("weighted F$_1$ score"),
        "precision": "precision",
        "recall": "recall",
        "macro_precision": N_("macro-averaged precision"),
        "macro_recall": N_("macro-averaged recall"),
        "mae": "MAE",
        "mse": "MSE",
        "rmse": "RMSE",
        "pearson": N_("Pearson's $r$"),
        "spearman": N_("Spearman's $\\rho$"),
        "roc_auc": "ROC AUC",
        "measure_s": "$\\mathit{measure}_S$",
        "measure_c": "$\\mathit{measure}_C$",
        "icm": "ICM",
        "icm_norm": "ICM-Norm",
        "icm_soft": "ICM-Soft",
        "icm_soft_norm": "ICM-Soft-Norm",
        "cross_entropy": "CE",
        "soft_mae": "MAE-Soft",
        "samples_f1": N_("samples-averaged F$_1$ score"),
        "hamming_loss": N_("Hamming loss"),
        "subset_accuracy": N_("subset accuracy"),
        "kappa": N_("Cohen's $\\kappa$"),
        "qwk": N_("quadratic-weighted $\\kappa$"),
        "mcc": "MCC",
        "balanced_accuracy": N_("balanced accuracy"),
        "log_loss": N_("log loss"),
        "brier": N_("Brier score"),
        "span_f1": N_("span F$_1$ score"),
        "span_precision": N_("span precision"),
        "span_recall": N_("span recall"),
        "span_f1_overlap": N_("span F$_1$ score (overlap)"),
        "span_precision_overlap": N_("span precision (overlap)"),
        "span_recall_overlap": N_("span recall (overlap)"),
        "relation_f1": N_("relation F$_1$ score"),
        "relation_precision": N_("relation precision"),
        "relation_recall": N_("relation recall"),
    }
)
#: The short forms of :data:`METRIC_NAMES`, for column headers.
SHORT_NAMES = MappingProxyType(
    {
        "accuracy": N_("Acc."),
        "f1": "F$_1$",
        "macro_f1": "macro-F$_1$",
        "micro_f1": "micro-F$_1$",
        "weighted_f1": "w-F$_1$",
        "precision": "P",
        "recall": "R",
        "macro_precision": "macro-P",
        "macro_recall": "macro-R",
        "mae": "MAE",
        "mse": "MSE",
        "rmse": "RMSE",
        "pearson": "$r$",
        "spearman": "$\\rho$",
        "roc_auc": "AUC",
        "measure_s": "$\\mathit{m}_S$",
        "measure_c": "$\\mathit{m}_C$",
        "icm": "ICM",
        "icm_norm": "ICM-N",
        "icm_soft": "ICM-S",
        "icm_soft_norm": "ICM-S-N",
        "cross_entropy": "CE",
        "soft_mae": "MAE-S",
        "samples_f1": "s-F$_1$",
        "hamming_loss": N_("Hamming"),
        "subset_accuracy": N_("Subset acc."),
        "kappa": "$\\kappa$",
        "qwk": "QWK",
        "mcc": "MCC",
        "balanced_accuracy": N_("Bal. acc."),
        "log_loss": N_("Log loss"),
        "brier": "Brier",
        "span_f1": N_("Span F$_1$"),
        "span_precision": N_("Span P"),
        "span_recall": N_("Span R"),
        "span_f1_overlap": N_("Span F$_1$ (ov.)"),
        "span_precision_overlap": N_("Span P (ov.)"),
        "span_recall_overlap": N_("Span R (ov.)"),
        "relation_f1": N_("Rel. F$_1$"),
        "relation_precision": N_("Rel. P"),
        "relation_recall": N_("Rel. R"),
    }
)


def metric_name(ma: MetricAnalysis | str, short: bool = False) -> str:
    r"""The metric's name as LaTeX: its typeset symbol when known, else the escaped name.

    The long form (``short=False``) adds the averaged labels or the positive class from the
    metric's parameters; the short form is for column headers.

    Examples
    --------
    >>> print(metric_name("macro_f1"), metric_name("macro_f1", short=True), metric_name("my_f"))
    macro-averaged F$_1$ score macro-F$_1$ my\_f
    """
    name = ma if isinstance(ma, str) else ma.name
    table = SHORT_NAMES if short else METRIC_NAMES
    base = tr(table[name]) if name in table else escape(metric_label(ma))
    params = {} if isinstance(ma, str) else ma.params
    if not short and params.get("labels"):
        base += " (" + ", ".join(escape(x) for x in params["labels"]) + ")"
    elif not short and params.get("pos_label") is not None:
        base += f" ({positive(name)} {escape(params['pos_label'])})"
    return base
