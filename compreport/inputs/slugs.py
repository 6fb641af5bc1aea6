"""File-name-safe ids made from names (competitions, metrics, teams): :func:`slug`.

Names come from organizers and participants in any script; ids and file names are ASCII.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from compreport.errors import InputError
from compreport.inputs.tomlfile import is_spec
from compreport.language.caller import option

#: Latin letters Unicode does not decompose (``Ł`` is not L + a mark), as their languages transliterate them.
_LATIN = str.maketrans(
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


def ascii_text(text: str) -> str:
    """``text`` in ASCII: accents dropped, ``Ł``, ``ß``... transliterated, other letters left out."""
    return unicodedata.normalize("NFKD", text.translate(_LATIN)).encode("ascii", "ignore").decode()


def slug(text: str) -> str:
    """A file-name-safe id: ASCII letters, digits and dashes (``Tü Par`` -> ``tu-par``, ``Łódź`` -> ``lodz``)."""
    s = re.sub(r"[^a-z0-9]+", "-", ascii_text(text).lower()).strip("-")
    return s[:80].strip("-") or "competition"


#: Names OUT uses, which no competition id may take.
RESERVED_IDS = {
    "summary",
    "index.html",
    "overview.pdf",
    "results.json",
    "appendix.tex",
    "appendix.pdf",
    "references.bib",
}


_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


def check_id(cid: str, where: Path | str) -> None:
    """A competition id names its folder in OUT, LaTeX paths and links: ASCII letters, digits, ``.``,
    ``_``, ``-``; starting with a letter or digit; at most 100 characters; not a name OUT uses."""
    if not _ID.fullmatch(cid) or cid.lower() in RESERVED_IDS:
        raise InputError(
            f"{where}: competition id {cid!r} must be 1-100 ASCII letters, digits, '.', '_' or '-', "
            f"start with a letter or digit, and not be one of {', '.join(sorted(RESERVED_IDS))}"
        )


def check_name(name: str, paths: list[str]) -> None:
    """``--name``/``name=``: it names the one competition read from a table or a gold file (its id,
    folder and random streams are made from it), so not an empty name, several inputs, a spec (which
    has its own ``name``) or a name whose id OUT uses. Raises :class:`InputError` before any file is read."""
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
