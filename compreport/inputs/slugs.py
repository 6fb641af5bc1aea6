"""File-name-safe ids made from names (competitions, metrics, teams): :func:`slug`.

Names come from organizers and participants in any script; ids and file names are ASCII.
"""

from __future__ import annotations

import re
import unicodedata

#: Latin letters Unicode does not decompose (``Ł`` is not L + a mark), as their languages transliterate them.
_LATIN = str.maketrans({"Ł": "L", "ł": "l", "Ø": "O", "ø": "o", "Đ": "D", "đ": "d", "Ħ": "H", "ħ": "h",
                        "ß": "ss", "Æ": "AE", "æ": "ae", "Œ": "OE", "œ": "oe", "Þ": "Th", "þ": "th", "ı": "i"})


def ascii_text(text: str) -> str:
    """``text`` in ASCII: accents dropped, ``Ł``, ``ß``... transliterated, other letters left out."""
    return unicodedata.normalize("NFKD", text.translate(_LATIN)).encode("ascii", "ignore").decode()


def slug(text: str) -> str:
    """A file-name-safe id: ASCII letters, digits and dashes (``Tü Par`` -> ``tu-par``, ``Łódź`` -> ``lodz``)."""
    s = re.sub(r"[^a-z0-9]+", "-", ascii_text(text).lower()).strip("-")
    return s[:80].strip("-") or "competition"
