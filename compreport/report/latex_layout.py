"""Page geometry of the LaTeX tables: how much fits a column or a page, without resizing anything.

Widths are estimated generously from Latin Modern metrics (in pt of the body font), so that
estimates err towards splitting a table rather than overflowing the page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import InputError
from ..settings import suggest
from .model import Format



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
TABCOLSEP = 6.0  # pt, LaTeX's default (each side of a column)


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


def num_width(decimals: int, em: float, int_digits: int = 1, sign: bool = False, post: int = 0) -> float:
    """Digits are 0.5 em in Latin Modern; the point 0.28 em, a minus 0.78 em, a superscript star 0.4 em."""
    return (0.5 * (int_digits + decimals) + 0.28 + (0.78 if sign else 0) + 0.4 * post) * em


def col(width: float) -> float:
    """Width (pt) of a column whose content is ``width`` pt wide, with its two ``\\tabcolsep``."""
    return width + 2 * TABCOLSEP


def chunks(items: list, size: int) -> list[list]:
    """``items`` cut into consecutive lists of ``size`` (at least 1); ``[[]]`` when empty."""
    size = max(1, size)
    return [items[i:i + size] for i in range(0, len(items), size)] or [[]]


def int_digits(values) -> int:
    """Integer digits of the largest finite magnitude among ``values`` (at least 1)."""
    finite = [abs(v) for v in values if isinstance(v, (int, float)) and math.isfinite(v)]
    return max(1, len(str(int(max(finite))))) if finite else 1


def has_negative(values) -> bool:
    """Whether any finite number among ``values`` is negative (non-numbers are skipped)."""
    return any(isinstance(v, (int, float)) and math.isfinite(v) and v < 0 for v in values)


def table_format(decimals: int, values, post: str = "") -> str:
    """siunitx ``table-format`` for ``values``: sign, integer digits, decimals."""
    sign = "-" if has_negative(values) else ""
    extra = f", table-space-text-post={{{post}}}" if post else ""
    return f"S[table-format={sign}{int_digits(values)}.{decimals}{extra}]"




def pack(widths: list[float], limit: float) -> list[list[int]]:
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


def spans(values: list[str], keys: list) -> list[tuple[str, int, int]]:
    """Runs of consecutive columns with equal ``keys``: ``[(value, span, first column index), ...]``."""
    out: list[tuple[str, int, int]] = []
    for i, (v, k) in enumerate(zip(values, keys)):
        if i and keys[i - 1] == k:
            out[-1] = (out[-1][0], out[-1][1] + 1, out[-1][2])
        else:
            out.append((v, 1, i))
    return out


@dataclass(frozen=True)
class Options:
    """Rendering options: layout ``style`` (``ceurart`` or ``sepln``) and the decimals of :class:`Format`."""

    style: str = "ceurart"
    decimals: int = 4
    diff_decimals: int = 3
    p_decimals: int = 4
    summary_decimals: int = 3

    def __post_init__(self):
        if self.style not in STYLES:
            raise InputError(f"`latex_style` must be one of {', '.join(STYLES)}; got {self.style!r}"
                             f"{suggest(self.style, STYLES)}")
        self.format  # validates the decimals

    @property
    def layout(self) -> Style:
        """The :class:`Style` named by ``style``."""
        return STYLES[self.style]

    @property
    def format(self) -> Format:
        """The decimals as a :class:`~compreport.report.model.Format`."""
        return Format(self.decimals, self.diff_decimals, self.p_decimals, self.summary_decimals)
