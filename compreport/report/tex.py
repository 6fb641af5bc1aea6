"""LaTeX text: escaping of user strings, metric names as set in captions, model cells in S columns.

Every user-supplied string goes through :func:`escape`, which never injects markup: team
names are hostile (``\\input{/etc/passwd}``, ``x}\\end{tabular}``) and print literally, also
under ``babel`` spanish (whose ``\\%`` adds a space before the sign: a name's ``%`` is
``\\char37{}``). Every number of a table, in cells and captions, is set by siunitx (an ``S``
column or ``\\num``), so one ``\\sisetup{output-decimal-marker=...}`` decides its decimal
marker and babel spanish's math comma never applies.
"""

from __future__ import annotations

import re
import unicodedata

from ..lang import N_, tr
from ..stats.results import MetricAnalysis
from .metricnames import metric_label, positive
from .model import MISSING, Cell, Format


_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\char37{}", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
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
                "≤": r"$\leq$", "\u00a0": "~"}


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
    """``value`` with ``decimals`` decimals as an siunitx S-column entry (:func:`cell` of the model's text)."""
    return cell(Cell(value, Format.number(value, decimals)))


def cell(c: Cell) -> str:
    """A model :class:`~compreport.report.model.Cell` in an siunitx ``S`` column: the same text every
    format prints; a missing value is ``{--}``, other text (``<0.0001``) is braced; bold is
    ``\\bfseries`` (needs ``detect-weight``); the significance mark is a superscript."""
    return ("\\bfseries " if c.bold else "") + cell_text(c) + mark(c.mark)


def cell_text(c: Cell) -> str:
    """The cell's text for an S column, without emphasis: a number as it is (siunitx sets it),
    other text braced with its numbers in ``\\num`` (``{\\textless{}\\num{0.0001}}``)."""
    if c.text == MISSING:
        return "{--}"
    if _NUMBER.fullmatch(c.text):
        return c.text
    return "{" + with_numbers(c.text) + "}"


def with_numbers(text: str) -> str:
    """``text`` escaped, its decimal numbers in ``\\num{}`` (so they take siunitx's decimal marker).

    For the model's number texts only (``<0.0001``, ``0.109``); never for names, whose digits
    (``Team 42.01``) are not numbers.
    """
    return "".join(f"\\num{{{part}}}" if _DECIMAL.fullmatch(part) else escape(part)
                   for part in _DECIMAL_SPLIT.split(text) if part)


def mark(m: str) -> str:
    """A significance mark as a superscript (``\\textsuperscript{**}``, ``\\textsuperscript{\\dag}``)."""
    return "\\textsuperscript{" + m.replace("†", r"\dag") + "}" if m else ""


_NUMBER = re.compile(r"-?\d+(\.\d+)?")
_DECIMAL = re.compile(r"\d+\.\d+")
_DECIMAL_SPLIT = re.compile(r"(\d+\.\d+)")


#: Metric names as set in captions and headers (LaTeX), in English: :func:`metric_name` sets them in
#: the report's language ("accuracy", "precision" and "recall" are translated with the display names
#: of :mod:`compreport.report.metricnames`); others are escaped as given.
METRIC_NAMES = {
    "accuracy": "accuracy", "f1": N_("F$_1$ score"), "macro_f1": N_("macro-averaged F$_1$ score"),
    "micro_f1": N_("micro-averaged F$_1$ score"), "weighted_f1": N_("weighted F$_1$ score"), "precision": "precision",
    "recall": "recall", "macro_precision": N_("macro-averaged precision"),
    "macro_recall": N_("macro-averaged recall"), "mae": "MAE", "mse": "MSE", "rmse": "RMSE",
    "pearson": N_("Pearson's $r$"), "spearman": N_("Spearman's $\\rho$"),
    "roc_auc": "ROC AUC", "measure_s": "$\\mathit{measure}_S$", "measure_c": "$\\mathit{measure}_C$",
}
SHORT_NAMES = {
    "accuracy": N_("Acc."), "f1": "F$_1$", "macro_f1": "macro-F$_1$", "micro_f1": "micro-F$_1$",
    "weighted_f1": "w-F$_1$", "precision": "P", "recall": "R", "macro_precision": "macro-P",
    "macro_recall": "macro-R", "mae": "MAE", "mse": "MSE", "rmse": "RMSE", "pearson": "$r$",
    "spearman": "$\\rho$", "roc_auc": "AUC", "measure_s": "$\\mathit{m}_S$", "measure_c": "$\\mathit{m}_C$",
}


def metric_name(ma: MetricAnalysis | str, short: bool = False) -> str:
    """The metric's name as LaTeX: its typeset symbol when known, else the escaped name.

    The long form (``short=False``) adds the averaged labels or the positive class from the
    metric's parameters; the short form is for column headers.
    """
    name = ma if isinstance(ma, str) else ma.name
    table = SHORT_NAMES if short else METRIC_NAMES
    base = tr(table[name]) if name in table else escape(metric_label(name))
    params = {} if isinstance(ma, str) else ma.params
    if not short and params.get("labels"):
        base += " (" + ", ".join(escape(x) for x in params["labels"]) + ")"
    elif not short and params.get("pos_label") is not None:
        base += f" ({positive(name)} {escape(params['pos_label'])})"
    return base


