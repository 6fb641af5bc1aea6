"""Page geometry of the LaTeX tables, how a table too large is split, and the rendering options.

A :class:`Style` is one target class with its measured geometry (``\\columnwidth``,
``\\textwidth``, ``\\textheight``), the font and size its tables are set in, where captions go
and the preamble lines that select its fonts. Widths are not guessed: the width model of
:mod:`compreport.report.latex.widths` measures the LaTeX this package writes as pdflatex sets it
in the style's fonts. Heights (:meth:`Style.float_height`) count a float's caption lines as
:func:`lines` fills them at those widths, its rows at the table font's ``\\baselineskip`` and its
rules. The tests compile every table in each style and compare pdflatex's natural width of each
tabular, and the height of each float, with the model.

Splitting (:func:`split_even`, :func:`even_sizes`): a table that does not fit is cut into the
fewest parts of as-even-as-possible consecutive columns (or rows, by height), so no part is left
with a single column or row when an even split avoids it.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
import shutil
import subprocess
from dataclasses import dataclass
from types import MappingProxyType

from compreport import options
from compreport.errors import InputError, suggest
from compreport.report.latex.widths import Metrics, font_metrics, tex_width
from compreport.report.model import Format

#: The families of ``fontmetrics.json`` by name.
FONT_NAMES = MappingProxyType(
    {
        "libertinus-sans": "Libertinus Sans",
        "lmss10": "Latin Modern Sans",
        "lmss8": "Latin Modern Sans",
        "lmr10": "Latin Modern",
        "times": "Times",
    }
)


#: Cache: whether this machine's TeX has libertinus.sty, asked once per process (a subprocess);
#: no argument, one entry.
@functools.cache
def libertinus_installed() -> bool:
    """Whether this machine's TeX finds ``libertinus.sty`` (Debian: texlive-fonts-extra), which
    ceurart.cls then loads: ``kpsewhich libertinus.sty``, asked once. False without kpsewhich."""
    exe = shutil.which("kpsewhich")
    if exe is None:
        return False
    try:
        found = subprocess.run(
            [exe, "libertinus.sty"], capture_output=True, text=True, timeout=30
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return False
    return bool(found)


@dataclass(frozen=True)
class Style:
    """A target class: measured geometry, the tables' font, caption placement, preamble.

    Attributes
    ----------
    name : str
        The ``--latex-style`` value.
    title : str
        What it is, in a few words (help text, header comments).
    fonts : tuple of str
        Font families of ``fontmetrics.json`` the tables may be set in; the model takes each glyph's
        widest advance among them (ceurart: Libertinus Sans, and Latin Modern Sans, which
        ``preamble.tex`` loads when texlive-fonts-extra is absent and the class falls back).
    size, baselineskip : float
        Type size (pt) and line height of the table body.
    caption_size, caption_baselineskip : float
        The same for captions.
    textwidth, columnwidth, textheight : float
        The class's measured dimensions (pt).
    twocolumn : bool
        Two columns: a table wider than the column is a ``table*``.
    caption_below : bool
        Captions below the tabular (ACL's rule, SEPLN's template) instead of above.
    caption_skip : float
        Vertical space a caption adds besides its lines (``\\abovecaptionskip``; ceurart: its
        6 pt + 4 pt and the line holding "Table N").
    label_line : bool
        ceurart sets "Table N" on a line of its own above the caption text.
    preamble : tuple of str
        The font lines of ``preamble.tex`` (fontenc and the fonts that avoid Type 3 bitmaps).
    source : str
        Where the numbers come from.
    document : tuple of str
        The ``\\documentclass`` line and geometry of a document with this style's measurements and
        table font, for classes that cannot be shipped (the appendix; the tests' SEPLN and ACL
        papers).
    babel : str or None
        The class's babel language (SEPLN's template writes in Spanish).
    """

    name: str
    title: str
    fonts: tuple[str, ...]
    size: float
    baselineskip: float
    caption_size: float
    caption_baselineskip: float
    textwidth: float
    columnwidth: float
    textheight: float
    twocolumn: bool
    caption_below: bool
    caption_skip: float
    label_line: bool
    preamble: tuple[str, ...]
    source: str
    document: tuple[str, ...] = ()
    babel: str | None = None
    tabcolsep: float = 6.0

    def env(self, width: float) -> str | None:
        """``table`` if ``width`` (pt) fits the column, ``table*`` if it fits the page of a
        two-column layout, else None."""
        if width <= self.columnwidth:
            return "table"
        if self.twocolumn and width <= self.textwidth:
            return "table*"
        return None

    @property
    def widest(self) -> float:
        """Widest table (pt): the page in two-column layouts, the column otherwise."""
        return self.textwidth if self.twocolumn else self.columnwidth

    @property
    def font_names(self) -> str:
        """The fonts the model measures, in words (``Libertinus Sans and Latin Modern Sans``)."""
        return " and ".join(dict.fromkeys(FONT_NAMES.get(f, f) for f in self.fonts))

    @property
    def metrics(self) -> Metrics:
        """The width model of the table font."""
        return font_metrics(self.fonts, self.size)

    @property
    def caption_metrics(self) -> Metrics:
        """The width model of the caption font."""
        return font_metrics(self.fonts, self.caption_size)

    def table_width(self, columns: list[float]) -> float:
        """Width (pt) of a tabular ``@{}...@{}`` whose columns' contents are ``columns`` pt wide."""
        return sum(columns) + 2 * self.tabcolsep * max(0, len(columns) - 1)

    def caption_height(self, caption: str, width: float) -> float:
        """Height (pt) a caption takes in a float ``width`` pt wide: its lines (:func:`lines`,
        after the label "Cuadro 99: ", the widest of the classes' languages, unless the label
        has a line of its own) at ``caption_baselineskip``, and the skips. A caption of several
        lines gets one more: TeX's justified breaks (and babel's hyphenation) can take a line
        more than the natural-width fill."""
        label = "" if self.label_line else "Cuadro 99: "
        n = lines(label + caption, width, self.caption_metrics)
        n += (1 if n > 1 else 0) + (1 if self.label_line else 0)
        return n * self.caption_baselineskip + self.caption_skip

    def tabular_height(self, rows: int, header_rows: int = 1, extra_rules: int = 0) -> float:
        """Height (pt) of a booktabs tabular: rows at ``baselineskip`` and the rules around them
        (top, mid, bottom rule with their separations, about 0.9 line)."""
        return (rows + header_rows) * self.baselineskip + (
            1 + 0.5 * extra_rules
        ) * self.baselineskip

    def max_rows(
        self, caption_height: float, header_rows: int = 1, extra_rules: int = 0, below: float = 0.0
    ) -> int:
        """How many body rows fit in a float of ``\\textheight`` under a caption of that height,
        with ``below`` pt (:meth:`note_height`) under the tabular."""
        free = (
            self.textheight
            - caption_height
            - below
            - self.tabular_height(0, header_rows, extra_rules)
        )
        return max(1, int(free // self.baselineskip))

    def note_height(self, note: str, width: float) -> float:
        """Height (pt) of a note set under a tabular after ``\\medskip`` in a float ``width`` pt
        wide (the leaderboard's line on baselines)."""
        return MEDSKIP + lines(note, width, self.metrics) * self.baselineskip

    def float_height(self, caption: str, body: str, width: float) -> float:
        """Height (pt) of a float holding ``body`` (one booktabs tabular as this package writes
        it: a row per line ending in ``\\\\``) under ``caption``, its tabular ``width`` pt wide:
        the caption as :meth:`caption_height` in the column or page it takes, and the tabular as
        :meth:`tabular_height`, each ``\\midrule`` or ``\\cmidrule`` line after the first an
        extra rule. The splits keep it within :attr:`textheight`."""
        tabular, _, after = body.partition("\\end{tabular}")
        rows = sum(1 for line in tabular.splitlines() if line.rstrip().endswith("\\\\"))
        rules = sum(1 for line in tabular.splitlines() if "midrule" in line or "cmidrule" in line)
        span = self.columnwidth if self.env(width) == "table" else self.textwidth
        # a note below the tabular, after \medskip
        note = " ".join(x for x in after.split("\n") if x.strip() and not x.startswith("\\"))
        below = self.note_height(note, span) if "\\medskip" in after else 0.0
        return (
            self.caption_height(caption, span)
            + self.tabular_height(rows, header_rows=0, extra_rules=max(0, rules - 1))
            + below
        )


#: ``\\medskip`` (pt, its natural size).
MEDSKIP = 6.0


def lines(text: str, width: float, metrics: Metrics) -> int:
    """How many lines a paragraph of LaTeX takes in ``width`` pt: words (split at spaces and at
    ``\\allowbreak``) set one after another at their natural widths (:func:`tex_width`), a new
    line when the next one does not fit, a word wider than the line over as many lines as it
    needs (hyphenated). TeX, which may also shrink the spaces, sets no more lines than this.

    Examples
    --------
    >>> from compreport.report.latex.layout import STYLES
    >>> m = STYLES["acl"].metrics
    >>> lines("", 100.0, m), lines("a few words", 100.0, m), lines("a few words " * 20, 100.0, m)
    (0, 1, 14)
    """
    words = [w for w in re.split(r"[ \n]+", text) if w]
    if not words:
        return 0
    space = metrics.space["r"]
    count, used = 1, 0.0
    for word in words:
        pieces = [tex_width(x, metrics) for x in word.split("\\allowbreak{}")]
        for k, w in enumerate(pieces):
            gap = space if k == 0 and used > 0 else 0.0
            if used + gap + w <= width:
                used += gap + w
                continue
            if used > 0:
                count += 1
            extra = max(0, math.ceil(w / width) - 1)  # a piece wider than the line, hyphenated
            count += extra
            used = w - extra * width
    return count


def _ceur_document(fontsize: str, twocolumn: bool) -> tuple[str, ...]:
    """ceurart's page and table font on KOMA's scrartcl (the class ceurart builds on).

    Tables switch to ``\\sffamily\\small`` after ``\\@float``, as ceurart.cls does (a hook at the
    environment's start is undone by ``\\@floatboxreset``), and set their captions as it does:
    6 pt above, the bold label on a line of its own, the text justified across the float's width
    and 4 pt below (KOMA's own captions hang under the label, two or three lines taller in a long
    caption than the class's). Without an option a table takes
    ``\\fps@table``, as LaTeX's own does, so the appendix's ``\\floatplacement{table}{H}`` applies
    (a fixed placement such as ``[tbp]`` would override it).
    """
    two = ",twocolumn" if twocolumn else ""
    return (
        f"\\documentclass[a4paper,fontsize={fontsize}{two}]{{scrartcl}}",
        "\\usepackage[a4paper,textwidth=418.25555pt,textheight=595.80026pt"
        f"{',columnsep=10pt' if twocolumn else ''}]{{geometry}}",
        r"\IfFileExists{libertinus.sty}{\usepackage{libertinus}}{}",
        r"\makeatletter"
        r"\long\def\ceur@makecaption#1#2{\vskip6pt\parbox{\linewidth}"
        r"{\rightskip=0pt\sffamily\small\textbf{#1}\par#2\par\vskip4pt}}"
        r"\renewenvironment{table}[1][\fps@table]"
        r"{\edef\reserved@a{\noexpand\@float{table}[#1]}\reserved@a\sffamily\small"
        r"\let\@makecaption\ceur@makecaption}{\end@float}"
        r"\renewenvironment{table*}[1][\fps@table]"
        r"{\edef\reserved@a{\noexpand\@dblfloat{table}[#1]}\reserved@a\sffamily\small"
        r"\let\@makecaption\ceur@makecaption}"
        r"{\end@dblfloat}"
        r"\makeatother",
    )


_CEUR = MappingProxyType(
    dict(
        textwidth=418.25555,
        textheight=595.80026,
        caption_below=False,
        caption_skip=10.0,
        label_line=True,
        preamble=(
            r"\usepackage[T1]{fontenc}",
            r"\IfFileExists{libertinus.sty}{}{\usepackage{lmodern}}% ceurart sets Libertinus "
            r"(texlive-fonts-extra); without it, Latin Modern rather than Type 3 bitmap fonts",
        ),
    )
)
_CEUR_SOURCE = (
    "ceurart.cls v0.4.8, measured with pdflatex (TeX Live 2022): tables are \\sffamily\\small, "
    "captions above in the same font with 'Table N' on a line of its own"
)

#: The styles of ``--latex-style``. ceurart measured with pdflatex on the real class
#: (tests/data/ceurart); SEPLN and ACL from their templates' measured widths, fonts and captions.
STYLES = MappingProxyType(
    {
        "ceurart": Style(
            "ceurart",
            "CEUR-WS ceurart.cls, one column (IberLEF working notes)",
            size=10.0,
            baselineskip=12.0,
            caption_size=10.0,
            caption_baselineskip=12.0,
            columnwidth=418.25555,
            twocolumn=False,
            source=_CEUR_SOURCE + "; 11 pt class, tables at 10 pt",
            document=_ceur_document("11pt", False),
            fonts=("libertinus-sans", "lmss10"),
            **_CEUR,
        ),
        "ceurart-2col": Style(
            "ceurart-2col",
            "CEUR-WS ceurart.cls, two columns",
            size=8.21255,
            baselineskip=9.85503,
            caption_size=8.21255,
            caption_baselineskip=9.85503,
            columnwidth=204.12778,
            twocolumn=True,
            source=_CEUR_SOURCE + "; 9 pt class, tables at 8.2 pt",
            document=_ceur_document("9pt", True),
            fonts=("libertinus-sans", "lmss8"),
            **_CEUR
            | {
                "preamble": (
                    *_CEUR["preamble"],
                    r"\ifcsname c@dblbotnumber\endcsname\setcounter{dblbotnumber}{0}\fi% page-wide "
                    r"tables on top, as LaTeX sets them: at a page's foot (stfloats, which ceurart "
                    r"loads) one would come after the column tables that follow it",
                )
            },
        ),
        "sepln": Style(
            "sepln",
            "SEPLN journal Procesamiento del Lenguaje Natural, two columns",
            fonts=("lmr10",),
            size=10.95,
            baselineskip=12.6,
            caption_size=10.95,
            caption_baselineskip=12.6,
            textwidth=455.24,
            columnwidth=213.40,
            textheight=697.09,
            twocolumn=True,
            caption_below=True,
            caption_skip=10.0,
            label_line=False,
            preamble=(
                r"\usepackage[T1]{fontenc}",
                r"\usepackage{lmodern}% Computer Modern shapes as Type 1 fonts",
            ),
            source="sepln.sty template: 11 pt Computer Modern on 12.6 pt lines (its \\normalsize), "
            "babel spanish, columns 213.40 pt, text 16 cm (455.24 pt) by 24.5 cm (697.09 pt)",
            document=(
                r"\documentclass[a4paper,11pt,twocolumn]{article}",
                r"\usepackage[a4paper,textwidth=455.24pt,textheight=697.09pt,columnsep=28.44pt]"
                r"{geometry}",
                r"\makeatletter\renewcommand\normalsize{\@setfontsize\normalsize\@xipt{12.6}}"
                r"\makeatother\normalsize",
            ),
            babel="spanish",
        ),
        "acl": Style(
            "acl",
            "ACL/SemEval acl.sty, two columns",
            fonts=("times",),
            size=10.95,
            baselineskip=13.6,
            caption_size=10.0,
            caption_baselineskip=12.0,
            textwidth=455.24411,
            columnwidth=219.08614,
            textheight=704.60031,
            twocolumn=True,
            caption_below=True,
            caption_skip=10.0,
            label_line=False,
            preamble=(r"\usepackage[T1]{fontenc}", r"\usepackage{times}% the ACL template's font"),
            source=(
                "acl.sty: 11 pt Times, A4 with 2.5 cm margins, columns 219.09 pt, captions below "
                "at 10 pt"
            ),
            document=(
                r"\documentclass[11pt,twocolumn]{article}",
                r"\usepackage[a4paper,margin=2.5cm,heightrounded=true]{geometry}\setlength\columnsep{0.6cm}",
                r"\usepackage{caption}\DeclareCaptionFont{10pt}{\fontsize{10pt}{12pt}\selectfont}"
                r"\captionsetup{font=10pt}",
            ),
        ),
    }
)


# -- splitting ----------------------------------------------------------------------------------


def even_sizes(n: int, k: int) -> list[int]:
    """Sizes of ``k`` consecutive parts of ``n`` items, as even as possible, larger parts first.

    Examples
    --------
    >>> even_sizes(7, 3)
    [3, 2, 2]
    """
    q, r = divmod(n, k)
    return [q + 1] * r + [q] * (k - r)


def consecutive(sizes: list[int]) -> list[list[int]]:
    """Index lists of consecutive parts of the given sizes."""
    out, start = [], 0
    for s in sizes:
        out.append(list(range(start, start + s)))
        start += s
    return out


def split_even(units: list[float], fits) -> list[list[int]] | None:
    """The fewest consecutive, as-even-as-possible parts of ``units`` such that ``fits(part)`` holds
    for each part (a list of unit indices); None when single units do not fit.

    Examples
    --------
    >>> split_even([30.0] * 5, lambda part: len(part) <= 2)
    [[0, 1], [2, 3], [4]]
    """
    n = len(units)
    if n == 0:
        return [[]]
    for k in range(1, n + 1):
        groups = consecutive(even_sizes(n, k))
        if all(fits(g) for g in groups):
            return groups
    return None


def split_rows(n: int, max_rows: int) -> list[list[int]]:
    """Row indices cut into the fewest even parts of at most ``max_rows`` rows.

    Examples
    --------
    >>> split_rows(7, 3)
    [[0, 1, 2], [3, 4], [5, 6]]
    """
    if n == 0:
        return [[]]
    k = math.ceil(n / max(1, max_rows))
    return consecutive(even_sizes(n, k))


# -- headers ------------------------------------------------------------------------------------


def spans(values: list[str], keys: list) -> list[tuple[str, int, int]]:
    """Runs of consecutive columns with equal ``keys``: ``[(value, span, first index), ...]``.

    Examples
    --------
    >>> spans(["A", "A", "B"], ["a", "a", "b"])
    [('A', 2, 0), ('B', 1, 2)]
    """
    out: list[tuple[str, int, int]] = []
    for i, (v, k) in enumerate(zip(values, keys)):
        if i and keys[i - 1] == k:
            out[-1] = (out[-1][0], out[-1][1] + 1, out[-1][2])
        else:
            out.append((v, 1, i))
    return out


# -- options ------------------------------------------------------------------------------------

_PREFIX = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


def check_label_prefix(value: str | None, where: str = "`label_prefix`") -> str | None:
    """``value`` if it can prefix LaTeX labels, or None when it is None.

    Parameters
    ----------
    value : str or None
        The prefix: 1-100 ASCII letters, digits, ``.``, ``_`` or ``-``, starting with a letter or
        digit.
    where : str
        How the message names the value (an option or a parameter).

    Raises
    ------
    InputError
        When ``value`` is not such a prefix.

    Examples
    --------
    >>> check_label_prefix("iberlef-2024")
    'iberlef-2024'
    """
    if value is None:
        return None
    if not isinstance(value, str) or not _PREFIX.fullmatch(value):
        raise InputError(
            f"{where} must be 1-100 ASCII letters, digits, '.', '_' or '-' starting with a "
            f"letter or digit; got {value!r}"
        )
    return value


#: The optional columns of ``leaderboard.tex`` and ``teams.tex`` (``--latex-columns``), in the
#: order they are left out when they would split a table that fits without them (the group
#: letters never are): ``rank_set`` (the simultaneous rank confidence set), ``ci`` (the primary
#: metric's interval, which ``ci.tex`` also gives), ``marks`` (tied with best, undecided...),
#: ``team``, ``group``.
OPTIONAL_COLUMNS = options.LATEX_COLUMNS


def check_columns(value, where: str = "`latex_columns`") -> tuple[str, ...]:
    """The optional columns ``value`` names, as a tuple in :data:`OPTIONAL_COLUMNS`' terms: a
    comma-separated string (``"team,ci"``; ``"none"`` or ``""`` for none) or an iterable of names.

    Examples
    --------
    >>> check_columns("team, ci")
    ('team', 'ci')
    >>> check_columns("none")
    ()
    """
    if isinstance(value, str):
        value = [] if value.strip().lower() in ("", "none") else value.split(",")
    try:
        names = tuple(str(v).strip().replace("-", "_") for v in value)
    except TypeError:
        raise InputError(f"{where} must be a list of column names; got {value!r}") from None
    for name in names:
        if name not in OPTIONAL_COLUMNS:
            raise InputError(
                f"{where} must name columns among {', '.join(OPTIONAL_COLUMNS)} (or none); got "
                f"{name!r}{suggest(name, OPTIONAL_COLUMNS)}"
            )
    return tuple(dict.fromkeys(names))


@dataclass(frozen=True)
class Options:
    """Rendering options of the LaTeX output.

    Attributes
    ----------
    style : str
        A key of :data:`STYLES`.
    decimals, diff_decimals, p_decimals, summary_decimals : int
        The decimals of :class:`~compreport.report.model.Format`.
    label_prefix : str or None
        Prefix of every ``\\label`` (``tab:<prefix>:...``); None: the workshop's name as a slug,
        else the first competition's id.
    decimal_comma : bool
        Numbers printed with a decimal comma: every number of the tables, cells and captions, goes
        through :func:`compreport.report.latex.tex.num`, which sets the marker.
    libertinus : bool or None
        For ceurart: lay the tables out for Libertinus Sans alone, the font the class sets when
        TeX finds ``libertinus.sty`` (True), or for the wider glyph of Libertinus Sans and of Latin
        Modern Sans, its fallback's, so that they fit whichever the class finds (False); None
        (default): True exactly when this machine's TeX finds it (:func:`libertinus_installed`),
        as the appendix compiled here and a paper on a full TeX Live (Overleaf) do.
    columns : tuple of str
        The optional columns of ``leaderboard.tex`` and ``teams.tex``, among
        :data:`OPTIONAL_COLUMNS` (default: all). Each is shown only when it has something to say
        (a Team column when the teams say more than the run names, marks when some row has one);
        one that would split a table that fits without it is left out, and the file says so.
    """

    style: str = "ceurart"
    decimals: int = 4
    diff_decimals: int = 3
    p_decimals: int = 4
    summary_decimals: int = 3
    label_prefix: str | None = None
    decimal_comma: bool = False
    columns: tuple[str, ...] = ("rank_set", "team", "ci", "group", "marks")
    libertinus: bool | None = None

    def __post_init__(self):
        if self.style not in STYLES:
            raise InputError(
                f"`latex_style` must be one of {', '.join(STYLES)}; got {self.style!r}"
                f"{suggest(self.style, STYLES)}"
            )
        check_label_prefix(self.label_prefix)
        if not isinstance(self.decimal_comma, bool):
            raise InputError(f"`decimal_comma` must be True or False; got {self.decimal_comma!r}")
        if self.libertinus not in (None, True, False):
            raise InputError(f"`libertinus` must be True, False or None; got {self.libertinus!r}")
        _ = self.format  # Format validates the decimals
        object.__setattr__(self, "columns", check_columns(self.columns))

    @property
    def layout(self) -> Style:
        """The :class:`Style` named by ``style``; ceurart's measured in Libertinus Sans alone when
        ``libertinus`` (or, by default, this machine's TeX has it)."""
        st = STYLES[self.style]
        if "libertinus-sans" in st.fonts and len(st.fonts) > 1:
            use = libertinus_installed() if self.libertinus is None else self.libertinus
            if use:
                st = dataclasses.replace(st, fonts=("libertinus-sans",))
        return st

    @property
    def format(self) -> Format:
        """The decimals as a :class:`~compreport.report.model.Format`."""
        return Format(self.decimals, self.diff_decimals, self.p_decimals, self.summary_decimals)
