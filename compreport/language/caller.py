"""How messages name an option, in the words of whoever called compreport.

The core names an option by reference (:func:`compreport.errors.option`); a message reaches a user
of the command line (``pass --pos-label LABEL``) or of the Python API (``pass pos_label=LABEL``,
the words ``str()`` of an error gives). The edges word it: the CLI with :func:`command_line`
where it prints ``error:``, ``warning:`` and ``note:`` lines, :func:`compreport.analyze` with
:func:`from_specs` for a setting a spec gave. A wording is a plain value
(:data:`compreport.errors.Wording`), made here from the one declaration of every option
(:func:`compreport.options.words`).
"""

from __future__ import annotations

import functools

from compreport.errors import OVERRIDE, Wording
from compreport.options import words


#: Cache: the command line's words of the options, a constant made on first use; no argument,
#: one entry.
@functools.cache
def command_line() -> Wording:
    """Every option as the command line spells it: its flag, then its value quoted for a shell
    (none for a switch); a setting the specs give is overridden ``on the command line``.

    >>> from compreport.errors import option, worded
    >>> worded(f"{option('pos_label', 'LABEL')}, {option('force', True)}", command_line())
    '--pos-label LABEL, --force'
    """
    out: dict[str, tuple[str, str, str, str]] = {
        name: (flag, flag, "", "shell") for name, (flag, _, _) in words().items()
    }
    out[OVERRIDE] = ("on the command line",) * 2 + ("", "text")
    return out


def from_specs(said: dict[str, tuple[str, str]]) -> Wording:
    """Each option of ``said`` (id -> (key, where)) as the spec that gave it: its key, with its
    file and line.

    >>> from compreport.errors import option, spoken
    >>> wording = from_specs({"bootstrap": ("[bootstrap] resamples", "c.toml, line 6")})
    >>> spoken(option("bootstrap", 10**10), wording)
    '[bootstrap] resamples = 10000000000 (c.toml, line 6)'
    """
    return {
        name: (f"{key} ({where})", f"{key} = ", f" ({where})", "text")
        for name, (key, where) in said.items()
    }
