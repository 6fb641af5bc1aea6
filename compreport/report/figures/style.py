"""The look of compreport's figures: palette, rc settings, reproducible metadata, drawing helpers.

Figures are built with the object API (:class:`matplotlib.figure.Figure` on an Agg canvas) inside
:func:`styled`'s ``rc_context``: no pyplot, no global state; mathtext is off so team names print
literally.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import io
import threading
import types
from collections.abc import Callable, Sequence
from types import MappingProxyType

import fontTools.subset
import matplotlib
import matplotlib.ticker
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import get_font
from matplotlib.lines import Line2D

from compreport._version import __version__
from compreport.language import comma, decimal, marked, tr
from compreport.report.figures.glyphs import font_family
from compreport.report.metricnames import metric_label
from compreport.stats.results import MetricAnalysis

#: Okabe & Ito (2008) colour-blind-safe palette.
OKABE_ITO = MappingProxyType(
    {
        "black": "#000000",
        "orange": "#E69F00",
        "sky_blue": "#56B4E9",
        "bluish_green": "#009E73",
        "yellow": "#F0E442",
        "blue": "#0072B2",
        "vermillion": "#D55E00",
        "reddish_purple": "#CC79A7",
    }
)
#: Participant systems and baselines in the CI plots.
SYSTEM_COLOR = OKABE_ITO["blue"]
BASELINE_COLOR = OKABE_ITO["orange"]
#: Difference plot (paper Fig. 2), by the stored verdict: vermillion (a caption's "orange", hue
#: 26°) = tied with the best, bluish green ("green") = significantly different from it.
TIED_COLOR = OKABE_ITO["vermillion"]
DIFFERS_COLOR = OKABE_ITO["bluish_green"]
#: A comparison that is not tested or an interval that is not defined (B = 0): grey.
UNDEFINED_COLOR = "#999999"
#: An undecided verdict (within the Monte-Carlo error of its p-values), in every figure: reddish
#: purple, a caption's "pink" (hue 327°).
UNDECIDED_COLOR = OKABE_ITO["reddish_purple"]

PNG_DPI = 200

#: The matplotlib settings every figure is built and saved under (:func:`styled`).
RC = MappingProxyType(
    {
        "font.family": font_family(),
        "font.size": 9,
        "axes.titlesize": 10,
        "axes.labelsize": 9,
        "xtick.labelsize": 8,
        "ytick.labelsize": 8,
        "legend.fontsize": 8,
        "figure.titlesize": 10,
        "text.usetex": False,
        "text.parse_math": False,
        "axes.unicode_minus": True,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.axisbelow": True,
        "grid.color": "#d9d9d9",
        "grid.linewidth": 0.6,
        "legend.frameon": False,
        "pdf.fonttype": 42,
        "ps.fonttype": 42,
        "svg.fonttype": "none",
        "svg.hashsalt": "compreport",
        "savefig.dpi": PNG_DPI,
        "figure.dpi": 100,
    }
)
#: The metadata of each file format: no dates, so files are byte-reproducible.
METADATA = MappingProxyType(
    {
        "pdf": {
            "CreationDate": None,
            "ModDate": None,
            "Producer": f"compreport {__version__}",
            "Creator": f"compreport {__version__} (matplotlib {matplotlib.__version__})",
        },
        "svg": {
            "Date": None,
            "Creator": f"compreport {__version__} (matplotlib {matplotlib.__version__})",
        },
        "png": {"Software": f"compreport {__version__} (matplotlib {matplotlib.__version__})"},
    }
)
#: Keyword arguments of the titles and axis labels: names are shown literally, and a long text wraps
#: at the edge of the figure instead of widening it (measured literally too: :func:`literal_wrap`).
TEXT = MappingProxyType({"parse_math": False, "wrap": True})


def literal_wrap() -> bool:
    """Make matplotlib measure a wrapped text's words as it draws them: literally when the text
    does not parse mathtext.

    matplotlib (3.11) wraps a ``wrap=True`` text by measuring each line with mathtext whenever
    the line holds two ``$``, even under ``parse_math=False``: a metric name, a ``pos_label`` or a
    team name such as ``$\\frac{$`` then raises a ``ValueError`` at layout time, where the same
    text drawn without wrapping is shown literally. This replaces
    ``matplotlib.text.Text._get_rendered_text_width`` (private) by one that measures with the
    text's own math setting; a text that parses mathtext is measured as before, so only the
    failing case changes. Done once, when this module is imported (figures are measured in
    notebooks too, outside compreport's blocks); a matplotlib without that method, or with
    another signature, is left as it is. Returns whether the method is compreport's.

    >>> literal_wrap()
    True
    """
    import math

    import matplotlib.text as mtext

    original = getattr(mtext.Text, "_get_rendered_text_width", None)
    if getattr(original, "_compreport", False):
        return True
    if original is None or list(inspect.signature(original).parameters) != ["self", "text"]:
        return False  # pragma: no cover - another matplotlib

    def width(self, text):
        if self.get_usetex() or self.get_parse_math():
            return original(self, text)
        w, _, _ = mtext._get_text_metrics_with_cache(
            self._renderer, text, self.get_fontproperties(), False, self.get_figure(root=True).dpi
        )
        return math.ceil(w)

    width._compreport = True
    mtext.Text._get_rendered_text_width = width
    return True


literal_wrap()

#: Every figure is drawn at the size it is placed at (the report PDF, the LaTeX appendix, the web
#: page), so its smallest text (8 pt tick labels and legends) stays at or above 7 pt once placed:
#: a fixed height per system row, at most :data:`ROWS_PER_FIGURE` rows a figure (a taller figure is
#: split into parts, :func:`row_parts`), and at most :data:`MAX_WIDTH_IN` wide.
ROW_IN = 0.2  # inches per system row
#: Most system rows in one figure: 25 rows and the titles, axis and legend stay within 0.8 of the
#: shortest text height of the LaTeX styles (ceurart, 595.8 pt) and one A4 page of the report.
ROWS_PER_FIGURE = 25
#: Widest figure (inches): the text width of ceurart (418.3 pt), the narrowest LaTeX style.
MAX_WIDTH_IN = 5.8
CHAR_IN = 0.062  # approximate width of one 8 pt DejaVu Sans character
#: Longest system name shown whole as a tick label; longer ones lose their middle (the tables have
#: them whole).
LABEL_CHARS = 40


class _LeanSubsetOptions(fontTools.subset.Options):
    """fontTools subsetting options that also drop the OpenType layout tables."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.drop_tables = [*self.drop_tables, *LAYOUT_TABLES]
        self.layout_features = []


class _LeanSubset(types.ModuleType):
    """fontTools.subset with :class:`_LeanSubsetOptions` as its ``Options``."""

    Options = _LeanSubsetOptions

    def __getattr__(self, name):
        return getattr(fontTools.subset, name)


#: OpenType layout tables: glyph substitution and positioning rules for a text-shaping engine. A
#: PDF's text is already shaped (glyphs and positions are in the page), so no viewer reads them.
LAYOUT_TABLES = ("GSUB", "GPOS", "GDEF", "BASE", "JSTF", "MATH")


@contextlib.contextmanager
def lean_pdf_fonts():
    """While saving a PDF, subset its embedded TrueType fonts without their OpenType layout tables
    (:data:`LAYOUT_TABLES`), and from a small copy of each font file (:func:`_subset_from_copy`).

    fontTools otherwise reads DejaVu Sans's large GSUB/GPOS, glyf and post tables for every font
    of every figure. Text, glyphs and their positions are unchanged. Patches matplotlib's
    (private) subsetting module while any such block runs in the process (nested blocks and threads
    share one patch, counted; the last block out restores matplotlib's functions); a matplotlib
    without the names it patches is left as it is."""
    try:
        from matplotlib.backends import _backend_pdf_ps as pdf_ps
    except ImportError:  # pragma: no cover - another matplotlib layout
        yield
        return
    with _counted_patch(_PATCH, pdf_ps, functools.partial(_lean_attributes, pdf_ps)):
        yield


#: rcParams a text's measured size depends on besides the renderer, its resolution and the font.
_METRIC_RC = (
    "text.usetex",
    "text.hinting",
    "text.hinting_factor",  # deprecated in matplotlib 3.11; read without a warning by .get
    "text.kerning_factor",
    "text.parse_math",
    "mathtext.fontset",
    "pdf.use14corefonts",
    "ps.useafm",
)


@contextlib.contextmanager
def shared_text_metrics():
    """While figures are drawn in the block, measure each text once per kind of renderer,
    resolution and font, not once per renderer object.

    matplotlib keeps its text measurements per renderer object, and every figure and every save
    makes a new one, so the tick labels, system names and titles that recur across a report's
    figures were measured again for each (6,340 FreeType layouts for the demo's 55 figures in PDF
    and SVG, 1,543 different ones). A measurement is the renderer method's result for the text,
    font properties, math flag and dpi, under the rcParams in :data:`_METRIC_RC`: the key holds
    them all, so the figures are unchanged. Patches matplotlib's (private)
    ``matplotlib.text._get_text_metrics_with_cache`` while any such block runs in the process
    (counted, like :func:`lean_pdf_fonts`; forked workers inherit the patch and fill their own
    copy of the cache); a matplotlib without that function, or with another signature, is left
    as it is."""
    import matplotlib.text as mtext

    original = getattr(mtext, "_get_text_metrics_with_cache", None)
    if original is None or list(inspect.signature(original).parameters) != [
        "renderer",
        "text",
        "fontprop",
        "ismath",
        "dpi",
    ]:  # pragma: no cover - another matplotlib
        yield
        return
    with _counted_patch(
        _METRICS, mtext, lambda: {"_get_text_metrics_with_cache": _measured_once(original)}
    ):
        yield


def _measured_once(original):
    """``original`` (matplotlib's ``_get_text_metrics_with_cache``) behind a cache keyed by the
    measuring method, its renderer's type and dpi, the text, font, math flag, dpi and the rcParams
    of :data:`_METRIC_RC` (:func:`shared_text_metrics`)."""
    cache: dict = {}

    def measured(renderer, text, fontprop, ismath, dpi):
        # the method that measures (a MixedModeRenderer hands over its current renderer's)
        method = renderer.get_text_width_height_descent
        inner = getattr(method, "__self__", renderer)
        props = fontprop.copy()  # FontProperties hashes by its (mutable) state
        key = (
            getattr(method, "__func__", method),
            type(inner),
            getattr(inner, "dpi", None),
            text,
            props,
            ismath,
            dpi,
            tuple(matplotlib.rcParams.get(k) for k in _METRIC_RC),
        )
        if key not in cache:
            cache[key] = original(renderer, text, props, ismath, dpi)
        return cache[key]

    return measured


@contextlib.contextmanager
def _counted_patch(state: dict, module, replacements: Callable[[], dict]):
    """Set attributes of ``module`` to ``replacements()`` (a dict by name) while any block of
    ``state`` runs in the process: nested blocks and threads share one patch, counted in
    ``state``; the last block out puts the original attributes back."""
    with _PATCH_LOCK:
        if not state["depth"]:
            new = replacements()
            state["saved"] = {name: getattr(module, name) for name in new}
            for name, value in new.items():
                setattr(module, name, value)
        state["depth"] += 1
    try:
        yield
    finally:
        with _PATCH_LOCK:
            state["depth"] -= 1
            if not state["depth"]:
                for name, value in state.pop("saved").items():
                    setattr(module, name, value)


_PATCH_LOCK = threading.Lock()
#: How many :func:`lean_pdf_fonts` blocks are running, and matplotlib's functions they replaced.
_PATCH: dict = {"depth": 0}
#: How many :func:`shared_text_metrics` blocks are running, and the function they replaced.
_METRICS: dict = {"depth": 0}


def _lean_attributes(pdf_ps) -> dict:
    """The attributes of ``pdf_ps`` that make its subsetting lean (:func:`lean_pdf_fonts`), by
    name: fontTools' subset module without layout tables, and subsets from a small font copy."""
    new = {}
    if getattr(pdf_ps, "subset", None) is fontTools.subset:
        new["subset"] = _LeanSubset("fontTools.subset")
    if subsets_by_gids(pdf_ps):
        new["get_glyphs_subset"] = functools.partial(
            _subset_from_copy, pdf_ps, pdf_ps.get_glyphs_subset
        )
    return new


def subsets_by_gids(pdf_ps) -> bool:
    """Whether ``pdf_ps`` subsets fonts the way :func:`_subset_from_copy` expects (matplotlib 3.11):
    ``get_glyphs_subset(fontfile, glyphs)`` giving ``SubsetResults(font, glyph_index_map)``."""
    get, results = (
        getattr(pdf_ps, "get_glyphs_subset", None),
        getattr(pdf_ps, "SubsetResults", None),
    )
    if getattr(get, "func", None) is _subset_from_copy:  # ours already: never wrap it again
        return False
    try:
        params = list(inspect.signature(get).parameters)
    except (TypeError, ValueError):  # not a function
        return False
    return (
        params == ["fontfile", "glyphs"]
        and callable(getattr(pdf_ps, "font_as_file", None))
        and getattr(results, "_fields", None) == ("font", "glyph_index_map")
    )


#: Characters a font copy holds from the start (:func:`_subset_from_copy`), so that few figures
#: need a larger copy: Latin-1, general punctuation, Greek small letters, minus, ≤ ≥ and the
#: f-ligatures that text shaping puts in words.
COMMON_CHARS = (
    *range(0x20, 0x7F),
    *range(0xA0, 0x100),
    *range(0x2010, 0x2028),
    *range(0x3B1, 0x3CA),
    0x2212,
    0x2264,
    0x2265,
    *range(0xFB00, 0xFB05),
)
#: Cache: per process and font face (keyed by the font file's path and face index), a subset of
#: the font file (bytes) holding :data:`COMMON_CHARS` and every glyph asked for so far, and the
#: map from the file's glyph ids to the copy's. Only speed depends on it: the subset of the copy
#: is the subset of the file, byte for byte. One entry per font face drawn (a few), each a few
#: hundred kB at most.
FONT_COPIES: dict[tuple[str, int], tuple[bytes, dict[int, int]]] = {}


class _FontBytes(io.BytesIO):
    """A font file in memory, with the face index matplotlib reads from a font path."""

    face_index = 0


@contextlib.contextmanager
def _subset_from_copy(pdf_ps, original, fontfile, glyphs):
    """``original(fontfile, glyphs)`` (matplotlib's ``get_glyphs_subset``) made from a small copy of
    the font file: ``original``'s subset of the file to :data:`COMMON_CHARS` and every glyph asked
    for so far in this process (made again, larger, when a glyph is new). fontTools keeps the glyph
    order, outlines, metrics and tables, so the subset of the copy is the subset of the file, byte
    for byte (a test compares them). Yields matplotlib's result with its glyph map in the file's
    ids."""
    glyphs = set(glyphs)
    key = (str(fontfile), fontfile.face_index)
    held = FONT_COPIES.get(key)
    if held is None or not glyphs <= held[1].keys():
        charmap = get_font(fontfile).get_charmap()
        wanted = (
            {charmap[c] for c in COMMON_CHARS if c in charmap}
            | glyphs
            | (held[1].keys() if held else set())
        )
        with original(fontfile, wanted) as whole:
            held = FONT_COPIES[key] = (
                pdf_ps.font_as_file(whole.font).getvalue(),
                dict(whole.glyph_index_map),
            )
    data, to_copy = held
    from_copy = {c: g for g, c in to_copy.items()}
    with original(_FontBytes(data), {to_copy[g] for g in glyphs}) as result:
        yield result._replace(
            glyph_index_map={from_copy[c]: i for c, i in result.glyph_index_map.items()}
        )


def styled(func):
    """Run ``func`` inside the module's rc_context (no global rcParams change); inside
    :func:`compreport.language.decimal_comma`, the numeric tick labels of a figure it returns
    take a decimal comma (:func:`comma_ticks`)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with matplotlib.rc_context(RC):
            fig = func(*args, **kwargs)
        if isinstance(fig, Figure) and comma():  # a builder's figure (save() returns paths)
            comma_ticks(fig)
        return fig

    return wrapper


class _CommaFormatter(matplotlib.ticker.Formatter):
    """A tick formatter's labels with a decimal comma: ``inner`` decides the ticks' text (its
    locations, its offset), this one swaps the mark."""

    def __init__(self, inner):
        self.inner = inner

    def set_axis(self, axis):
        super().set_axis(axis)
        self.inner.set_axis(axis)

    def set_locs(self, locs):
        self.inner.set_locs(locs)

    def __call__(self, x, pos=None):
        return self.inner(x, pos).replace(".", ",")

    def format_ticks(self, values):
        return [t.replace(".", ",") for t in self.inner.format_ticks(values)]

    def get_offset(self):
        return self.inner.get_offset().replace(".", ",")


#: Tick formatters that write numbers (matplotlib's defaults for linear, log and percent axes).
_NUMERIC = (
    matplotlib.ticker.ScalarFormatter,
    matplotlib.ticker.LogFormatter,
    matplotlib.ticker.FormatStrFormatter,
    matplotlib.ticker.StrMethodFormatter,
    matplotlib.ticker.PercentFormatter,
)


def comma_ticks(fig: Figure) -> None:
    """Give every numeric axis of ``fig`` a decimal comma (``0,25``): an axis whose formatter
    writes numbers (:data:`_NUMERIC`); an axis of names (fixed labels: systems, classes; or
    categories) is left as it is, since ``Team 42.01`` is a name.

    >>> import matplotlib.figure
    >>> fig = matplotlib.figure.Figure()
    >>> ax = fig.add_subplot()
    >>> _ = ax.plot([0, 0.5], [0, 1])
    >>> _ = ax.set_yticks([0, 1], ["Team 42.01", "B.1"])
    >>> comma_ticks(fig)
    >>> ax.xaxis.get_major_formatter().format_ticks([0.1, 0.25])
    ['0,10', '0,25']
    >>> ax.yaxis.get_major_formatter().format_ticks([0, 1])
    ['Team 42.01', 'B.1']
    """
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            for get, put in (
                (axis.get_major_formatter, axis.set_major_formatter),
                (axis.get_minor_formatter, axis.set_minor_formatter),
            ):
                inner = get()
                if isinstance(inner, _NUMERIC):
                    put(_CommaFormatter(inner))


class ReportFigure(Figure):
    """A matplotlib Figure that shows itself as an image in a notebook (without
    ``%matplotlib inline``) and whose layout can be computed once for several saves
    (:meth:`fix_layout`)."""

    _layout_fixed = False

    def get_layout_engine(self):
        return None if self._layout_fixed else super().get_layout_engine()

    def fix_layout(self):
        """Run the layout engine once, as a drawing would before drawing the artists, and keep its
        positions; return the tight bounding box in inches, padded as
        ``savefig(bbox_inches="tight")`` pads it. Each later ``savefig`` given this box draws the
        figure once, where ``"tight"`` with a layout engine draws it twice (a layout pass, then the
        output); no artist is drawn here."""
        engine = self.get_layout_engine()
        if engine is not None and self.axes:  # Figure.draw's condition
            engine.execute(self)
        self._layout_fixed = True
        return self.get_tightbbox().padded(matplotlib.rcParams["savefig.pad_inches"])

    def _repr_png_(self) -> bytes:
        buf = io.BytesIO()
        with matplotlib.rc_context(RC):
            self.savefig(buf, format="png", bbox_inches="tight", dpi=100, metadata=METADATA["png"])
        return buf.getvalue()


def new_figure(width: float, height: float) -> Figure:
    """An empty figure of ``width`` x ``height`` inches on an Agg canvas (constrained layout)."""
    fig = ReportFigure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def pct(level: float) -> str:
    """A confidence level (0.95) as a percentage (``95%``)."""
    return tr("{percent}%", percent=decimal(100 * level))


def label_width(labels: Sequence[str], limit: int = LABEL_CHARS) -> float:
    """Width in inches that the longest of ``labels`` takes as a tick label, counting at most
    ``limit`` characters (:func:`short_label` cuts system names there)."""
    return min(max((len(s) for s in labels), default=0), limit) * CHAR_IN


def short_label(name: str) -> str:
    """``name`` as a tick label: whole up to :data:`LABEL_CHARS` characters, else that many with
    "…" in the middle, keeping its end (where ``.run1`` and ``.run2`` differ).

    Examples
    --------
    >>> short_label("UNED-NLP.run1")
    'UNED-NLP.run1'
    >>> short_label("Universidad Politécnica de Valencia, grupo ELiRF.run2")
    'Universidad Politécn…a, grupo ELiRF.run2'
    """
    name = str(name)
    if len(name) <= LABEL_CHARS:
        return name
    tail = (LABEL_CHARS - 1) // 2
    return name[: LABEL_CHARS - 1 - tail] + "…" + name[-tail:]


def row_parts(m: int, per: int = ROWS_PER_FIGURE) -> list[slice]:
    """``m`` rows cut into as few parts of at most ``per`` rows as can hold them, of even sizes
    (earlier parts one row longer); ``[slice(0, m)]`` when they fit one figure.

    Examples
    --------
    >>> row_parts(12)
    [slice(0, 12, None)]
    >>> [s.stop - s.start for s in row_parts(48)]
    [24, 24]
    >>> [s.stop - s.start for s in row_parts(151)]
    [22, 22, 22, 22, 21, 21, 21]
    """
    k = max(1, -(-m // per))
    size, extra = divmod(m, k)
    out, start = [], 0
    for i in range(k):
        stop = start + size + (i < extra)
        out.append(slice(start, stop))
        start = stop
    return out


def padded_span(values: Sequence[float], pad: float = 0.05) -> tuple[float, float] | None:
    """The range of the finite ``values``, widened by ``pad`` of its width on each side (by
    ``pad`` of the value, or ``pad``, when all are equal); None without a finite value. The parts
    of a split figure share it, so their axes compare."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if not v.size:
        return None
    low, high = float(v.min()), float(v.max())
    margin = pad * (high - low) if high > low else max(abs(high), 1.0) * pad
    return low - margin, high + margin


def lower_note(metric: MetricAnalysis) -> str:
    """``"; lower <metric> is better"`` for a lower-is-better metric (axis labels), else ``""``."""
    return (
        ""
        if metric.higher_is_better
        else tr("; lower {metric} is better", metric=metric_label(metric))
    )


def set_system_ticks(ax, names: Sequence[str], whole: bool = False) -> None:
    """One y tick per system (row 0 at top), names shown literally (:func:`short_label`, or
    ``whole``)."""
    labels = list(names) if whole else [short_label(n) for n in names]
    ax.set_yticks(np.arange(len(names)), labels, parse_math=False)
    for text in ax.get_yticklabels():
        text.set_parse_math(False)
    ax.set_ylim(len(names) - 0.5, -0.5)
    ax.tick_params(axis="y", length=0)
    ax.grid(True, axis="x")


def _interval_arrays(names: Sequence[str], scores: dict, baselines: set[str]):
    """Lower and upper CI bounds, scores and baseline flags of ``names`` (NaN for a missing row)."""
    rows = [scores.get(s) for s in names]
    lo = np.array([np.nan if r is None else r.ci_low for r in rows], dtype=float)
    hi = np.array([np.nan if r is None else r.ci_high for r in rows], dtype=float)
    pt = np.array([np.nan if r is None else r.score for r in rows], dtype=float)
    is_base = np.array([s in baselines for s in names], dtype=bool)
    return lo, hi, pt, is_base


def interval_span(
    names: Sequence[str], scores: dict, baselines: set[str]
) -> tuple[float, float] | None:
    """The x-range that :func:`draw_intervals` gives all of ``names``: that of the rows drawn on
    the axis (off-axis baselines left out), padded; the parts of a split figure share it."""
    lo, hi, pt, is_base = _interval_arrays(names, scores, baselines)
    off, span = _off_axis(lo, hi, pt, is_base)
    return span if span is not None else padded_span(np.concatenate([lo, hi, pt]))


def draw_intervals(
    ax,
    names: Sequence[str],
    scores: dict,
    baselines: set[str],
    gid: str,
    span: tuple[float, float] | None = None,
) -> None:
    """Score points and CI bars, one row per name (in ``names`` order).

    A baseline whose interval has zero width (a majority baseline's F1 of 0, say) and lies outside
    the range of the other rows does not set the axis: it is drawn at the axis edge as an outward
    triangle with its value written beside it (gid ``<gid>-offaxis``), so it cannot squash the
    other intervals into a corner. ``span``: the x-range to use (:func:`interval_span` of every row
    when ``names`` are one part of a split figure); a zero-width baseline outside it is drawn off
    the axis the same way.
    """
    y = np.arange(len(names))
    lo, hi, pt, is_base = _interval_arrays(names, scores, baselines)
    if span is None:
        off, span = _off_axis(lo, hi, pt, is_base)
    else:
        finite = np.isfinite(lo) & np.isfinite(hi) & np.isfinite(pt)
        off = is_base & finite & (lo == hi) & ((pt < span[0]) | (pt > span[1]))
        ax.set_xlim(*span)
    shown = ~off
    colors = [BASELINE_COLOR if b else SYSTEM_COLOR for b in is_base]
    # segment i is row i; an off-axis row's segment is empty (NaN)
    ax.hlines(
        y,
        np.where(off, np.nan, lo),
        np.where(off, np.nan, hi),
        colors=colors,
        linewidth=1.8,
        gid=gid,
    )
    for sel, color, marker, what in (
        (~is_base & shown, SYSTEM_COLOR, "o", "systems"),
        (is_base & shown, BASELINE_COLOR, "D", "baselines"),
    ):
        if sel.any():
            ax.plot(
                pt[sel],
                y[sel],
                linestyle="none",
                marker=marker,
                markersize=4.5,
                color=color,
                markeredgecolor="white",
                markeredgewidth=0.5,
                zorder=3,
                gid=f"{gid}-{what}",
            )
    if off.any():
        left, right = span
        ax.set_xlim(left, right)
        inset = 0.01 * (right - left)
        for i in np.flatnonzero(off):
            below = pt[i] < left
            x = left + inset if below else right - inset
            ax.plot(
                [x],
                [y[i]],
                linestyle="none",
                marker="<" if below else ">",
                markersize=6,
                color=BASELINE_COLOR,
                zorder=3,
                clip_on=False,
                gid=f"{gid}-offaxis",
            )
            ax.annotate(
                tr("{value} (off scale)", value=marked(f"{pt[i]:.4g}")),
                (x, y[i]),
                xytext=(6 if below else -6, 0),
                textcoords="offset points",
                ha="left" if below else "right",
                va="center",
                fontsize=8,
                color=BASELINE_COLOR,
                annotation_clip=False,
                parse_math=False,
            )


def _off_axis(lo: np.ndarray, hi: np.ndarray, pt: np.ndarray, is_base: np.ndarray):
    """Rows drawn off the axis (baselines with a zero-width interval outside the range of the other
    rows) and the x-range of the others, padded; ``(none, None)`` when there is no such row."""
    finite = np.isfinite(lo) & np.isfinite(hi) & np.isfinite(pt)
    candidate = is_base & finite & (lo == hi)
    others = finite & ~candidate
    none = np.zeros(len(pt), dtype=bool)
    if not candidate.any() or not others.any():
        return none, None
    low = float(min(lo[others].min(), pt[others].min()))
    high = float(max(hi[others].max(), pt[others].max()))
    pad = 0.08 * (high - low) if high > low else max(abs(high), 1.0) * 0.05
    left, right = low - pad, high + pad
    off = candidate & ((pt < left) | (pt > right))
    return (off, (left, right)) if off.any() else (none, None)


def lattice_bins(values: np.ndarray, most: int = 60):
    """Histogram bins for bootstrap ``values``: edges aligned with their lattice when every value is
    a whole number of steps from the smallest (an accuracy difference on n items moves in steps of
    1/n), each bin holding the same number of lattice points, at most ``most`` bins, so no bar is
    a comb's tooth; otherwise a number of equal bins (√size, 10 to ``most``)."""
    values = np.asarray(values, dtype=float)
    fallback = int(np.clip(np.sqrt(values.size), 10, most)) if values.size else 10
    u = np.unique(values[np.isfinite(values)])
    if u.size < 2:
        return fallback
    u = u[
        np.concatenate([[True], np.diff(u) > 1e-9 * (u[-1] - u[0])])
    ]  # one value per rounding cluster
    if u.size < 2:
        return fallback
    step = float(np.min(np.diff(u)))
    k = (u - u[0]) / step
    if not np.all(np.abs(k - np.round(k)) < 1e-3):
        return fallback
    points = int(round(k[-1])) + 1
    per = -(-points // most)
    return u[0] - step / 2 + step * per * np.arange(-(-points // per) + 1)


def ci_legend_handles(level: float, has_baselines: bool) -> list:
    """Legend entries of the CI figures: systems, and baselines when ``has_baselines``."""
    handles = [
        Line2D(
            [],
            [],
            color=SYSTEM_COLOR,
            marker="o",
            markersize=4.5,
            linewidth=1.8,
            label=tr("system: score and {level} CI", level=pct(level)),
        )
    ]
    if has_baselines:
        handles.append(
            Line2D(
                [],
                [],
                color=BASELINE_COLOR,
                marker="D",
                markersize=4.5,
                linewidth=1.8,
                label=tr("baseline: score and {level} CI", level=pct(level)),
            )
        )
    return handles
