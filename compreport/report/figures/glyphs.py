"""The glyphs of figure text: the font family, with a Chinese, Japanese and Korean fallback after
DejaVu Sans, and one warning per report for characters no installed font has (matplotlib warns
once per character and save)."""

from __future__ import annotations

import contextlib
import re
import warnings

from compreport.errors import warn

#: Fonts for the Chinese, Japanese and Korean characters of team names, which DejaVu Sans lacks
#: (matplotlib would draw empty boxes): the first one installed joins ``font.family`` as a per-glyph
#: fallback. `make demo` installs WenQuanYi Micro Hei (fonts-wqy-microhei).
CJK_FONTS = (
    "WenQuanYi Micro Hei",
    "Noto Sans CJK JP",
    "Noto Sans CJK SC",
    "Source Han Sans",
    "Droid Sans Fallback",
    "PingFang SC",
    "Hiragino Sans",
    "Microsoft YaHei",
    "Malgun Gothic",
)

#: matplotlib's warning for a character no font of ``font.family`` has (once per character and
#: save).
_MISSING_GLYPH = re.compile(r"Glyph (\d+) \(.*\) missing from font\(s\)")


#: Where re-raised warnings are registered, so a filter that shows a warning once still does.
_SHOWN: dict = {}


@contextlib.contextmanager
def held_glyph_warnings():
    """Hold back matplotlib's missing-glyph warnings raised in the block (24 lines for two Chinese
    names in one figure's PDF and SVG) and yield the set of those characters, filled when the block
    ends (a control character is left out: no font is meant to draw it); every other warning is
    raised again as it was, also when the block raises."""
    lacking: set[str] = set()
    others: list = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                yield lacking
            finally:
                for w in caught:
                    found = _MISSING_GLYPH.match(str(w.message))
                    if found is None:
                        others.append(w)
                    elif chr(int(found.group(1))).isprintable():
                        lacking.add(chr(int(found.group(1))))
    finally:  # the caller's filters again, also when the block raised
        for w in others:
            warnings.warn_explicit(
                w.message, w.category, w.filename, w.lineno, source=w.source, registry=_SHOWN
            )


def warn_missing_glyphs(chars, analysis) -> None:
    """One warning for the characters of names that no installed font has (drawn as empty boxes)."""
    chars = sorted(chars)
    names = sorted(
        {
            name
            for comp in analysis.competitions
            for name in [comp.name, *comp.systems]
            if set(name) & set(chars)
        }
    )
    shown = ", ".join(f"'{name}'" for name in names[:5]) + (
        f" and {len(names) - 5} more" if len(names) > 5 else ""
    )
    warn(
        f"figures: no installed font has {' '.join(chars)}{f' (in {shown})' if names else ''}: the "
        f"figures draw empty boxes for them; install a font that has them (Chinese, Japanese, "
        f"Korean: fonts-wqy-microhei, which `make demo` installs), then delete matplotlib's font "
        f"cache (~/.cache/matplotlib/fontlist-*.json)"
    )


def font_family() -> list[str]:
    """DejaVu Sans, then the first of :data:`CJK_FONTS` matplotlib knows (its font cache: a font
    installed after the cache was built is found once the cache is rebuilt). A figure without such
    characters is drawn, and its PDF and PNG written, as with DejaVu Sans alone."""
    from matplotlib.font_manager import fontManager

    known = {f.name for f in fontManager.ttflist}
    return ["DejaVu Sans", *[f for f in CJK_FONTS if f in known][:1]]
