"""File-name-safe ids made from names (competitions, metrics, teams), and the rule for a
competition's id.

Names come from organizers and participants in any script; ids and file names are ASCII
(:func:`slug`). A competition id names its folder in the output directory (:func:`check_id`).
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from types import MappingProxyType

from compreport.errors import InputError, option
from compreport.inputs.tomlfile import is_spec

#: Latin letters Unicode does not decompose (``Ł`` is not L + a mark), as their languages
#: transliterate them.
_LATIN = MappingProxyType(
    str.maketrans(
        {
            "Ł": "L",
            "ł": "l",
            "Ø": "O",
            "ø": "o",
            "Đ": "D",
            "đ": "d",
            "Ħ": "H",
            "ħ": "h",
            "ß": "ss",
            "Æ": "AE",
            "æ": "ae",
            "Œ": "OE",
            "œ": "oe",
            "Þ": "Th",
            "þ": "th",
            "ı": "i",
        }
    )
)


def ascii_text(text: str) -> str:
    """``text`` in ASCII: accents dropped, ``Ł``, ``ß``... transliterated, other letters left out.

    >>> ascii_text("Łódź, Straße, 深度")
    'Lodz, Strasse, '
    """
    return unicodedata.normalize("NFKD", text.translate(_LATIN)).encode("ascii", "ignore").decode()


def slug(text: str) -> str:
    """A file-name-safe id: lowercase ASCII letters, digits and dashes, at most 80 characters
    (``competition`` when nothing is left).

    >>> slug("Tü Par 2026"), slug("Łódź"), slug("深度")
    ('tu-par-2026', 'lodz', 'competition')
    """
    s = re.sub(r"[^a-z0-9]+", "-", ascii_text(text).lower()).strip("-")
    return s[:80].strip("-") or "competition"


#: Names OUT uses, which no competition id may take.
RESERVED_IDS = frozenset(
    {
        "summary",
        "index.html",
        "overview.pdf",
        "results.json",
        "appendix.tex",
        "appendix.pdf",
        "references.bib",
    }
)

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


def check_id(cid: str, where: Path | str) -> None:
    """Refuse a competition id that cannot name its folder in OUT, LaTeX paths and links.

    An id is ASCII letters, digits, ``.``, ``_`` and ``-``, starts with a letter or digit, has at
    most 100 characters, and is not a name OUT uses (:data:`RESERVED_IDS`); ``where`` (a file, an
    option) starts the :class:`InputError`.

    >>> check_id("summary", "spec.toml")
    Traceback (most recent call last):
        ...
    compreport.errors.InputError: spec.toml: competition id 'summary' must be 1-100 ASCII ...
    """
    if not _ID.fullmatch(cid) or cid.lower() in RESERVED_IDS:
        raise InputError(
            f"{where}: competition id {cid!r} must be 1-100 ASCII letters, digits, '.', '_' or "
            f"'-', start with a letter or digit, and not be one of "
            f"{', '.join(sorted(RESERVED_IDS))}"
        )


def check_name(name: str, paths: list[str]) -> None:
    """Check ``--name``/``name=`` before any file is read: it names the one competition read from
    a table or a gold file (its id, folder and random streams are made from it), so an empty name,
    several inputs ``paths``, a spec (which has its own ``name``) or a name whose id OUT uses is
    an :class:`InputError`."""
    if not name.strip() or len(paths) != 1:
        raise InputError(
            f"{option('name')} names the one competition read from a table or a gold file; got "
            f"{'an empty name' if not name.strip() else f'{len(paths)} inputs'}"
        )
    if is_spec(paths[0]):
        raise InputError(
            f"{paths[0]}: {option('name')} names a competition read from a table or a gold file; "
            f"a spec gives its own `name`"
        )
    check_id(slug(name), option("name", name))
