"""The words of the LaTeX tables in the report's language: headers, shared caption pieces, legend.

Column headers, the pieces captions share and the legend rows that hold mathematics are
translated by :mod:`compreport.language`.

Captions are LaTeX. A translated text that holds our own markup (``\\ref{...}``,
``$\\alpha = ...$``) receives it through placeholders, so the translation table holds no braces of
its own; user strings are escaped before they go in. The width model measures these same words
(the translated ones), so a Spanish table is split where its Spanish headers need it.
"""

from __future__ import annotations

from types import MappingProxyType

from compreport.language import N_, tr
from compreport.language import vocabulary as vocab
from compreport.report.latex.tex import escape, num

#: LaTeX of the legend rows whose description has mathematics (the others are escaped as written
#: in :data:`compreport.report.model.LEGEND`); ``str.format`` templates (``{f1}``: F$_1$).
LEGEND_TEX = MappingProxyType(
    {
        "Ties w/ win.": N_(
            r"Possible ties with the winner, with corrections none / Bonferroni / Holm / BH / "
            r"max-$T$ "
            r"(max-$T$ under the bootstrap test only) over the report's family, on the winner's "
            r"comparisons with the other competitors"
        ),
        "Poss. compars.": N_(r"Total possible comparisons, $m(m-1)/2$"),
        "CV": N_(
            r"Coefficient of variation of competitors' performance, "
            r"$\mathit{{CV}} = 100\,s/\bar{{x}}$, in \%"
        ),
        "PPI": N_(
            r"Possible percentage improvement, e.g.\ for {f1}: $100\,(1 - \mbox{{{f1} of the "
            r"winner}})$"
        ),
    }
)


def legend_tex(name: str, description: str) -> str:
    """The LaTeX description of legend row ``name`` (English ``description``), translated."""
    if name in LEGEND_TEX:
        return tr(LEGEND_TEX[name], f1="F$_1$")
    return escape(tr(description))


def header(text: str) -> str:
    """A column header (English ``text``) in the report's language, escaped."""
    return escape(tr(text))


def part(k: int, n: int) -> str:
    """`` (part k of n)`` after a caption's head, when a table is split; else empty.

    Examples
    --------
    >>> part(2, 3)
    ' (part 2 of 3)'
    >>> part(1, 1)
    ''
    """
    return tr(" (part {k} of {n})", k=k, n=n) if n > 1 else ""


def continued(head: str, first: str, k: int, n: int) -> str:
    """The caption of a row-split part after the first: short, pointing at the first part (label
    ``first``)."""
    return tr(
        "{head} (continued from Table~{ref}, part {k} of {n}).",
        head=head,
        ref=f"\\ref{{{first}}}",
        k=k,
        n=n,
    )


def alpha(value: float, comma: bool = False) -> str:
    """``alpha`` as LaTeX math, with a decimal comma when ``comma``.

    Examples
    --------
    >>> print(alpha(0.05), alpha(0.05, comma=True))
    $\\alpha = 0{.}05$ $\\alpha = 0{,}05$
    """
    return f"$\\alpha = {num(float(value), comma, math=True)}$"


def level(settings, comma: bool = False) -> str:
    """The confidence level's number, ``95`` (the caption writes the percent sign; ``comma``:
    ``99,9``)."""
    return num(100 * settings.level, comma)


def p_test(test: str) -> str:
    """The test behind the p-values as a caption names it (``bootstrap test``), escaped."""
    return escape(vocab.test_phrase(test))


def ci_method(method: str) -> str:
    """The interval method as a caption names it: its label in the vocabulary (``percentile``,
    ``BCa``), escaped."""
    return escape(vocab.CI_METHODS[method].label)
