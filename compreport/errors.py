"""Exceptions and warnings shown to users as one line on stderr, and helpers for their messages.

A message names an option by reference (:func:`option`), worded where it is shown: ``str()`` in
Python words, the command line in its own (:mod:`compreport.language.caller`)."""

from __future__ import annotations

import difflib
import functools
import json
import re
import shlex
import unicodedata
import warnings
from collections.abc import Mapping

from compreport.options import words

#: The longest message an :class:`InputError` carries; a longer one is cut in the middle.
MAX_MESSAGE = 1000
#: The most characters of a value from an input file quoted in a message (:func:`excerpt`).
MAX_EXCERPT = 24
#: The longest text between the markers that is read as a reference to an option (:func:`option`
#: writes them; a list of globs stays far below).
MAX_REFERENCE = 10_000


class InputError(ValueError):
    """Bad input or an invalid setting: the CLI prints ``error: <message>`` and exits with status 2.

    The message names the file and the line, column or id at fault. A message longer than
    :data:`MAX_MESSAGE` characters (a list of 10,000 zip members) keeps its start and its end,
    with the number of characters left out between them.

    >>> len(str(InputError("x" * 100_000))) <= MAX_MESSAGE
    True
    """

    def __init__(self, *args):
        super().__init__(*_kept(self, args))

    def __str__(self) -> str:  # in Python words (:func:`worded`)
        return worded(raw(self))

    def __repr__(self) -> str:
        return _worded_repr(self) or super().__repr__()


def _kept(exc: BaseException, args: tuple) -> tuple:
    """The ``args`` of ``exc``: a message naming options by reference (:func:`option`) is kept in
    ``exc._raw`` (:func:`raw`, for the edges to word) and given in Python words as ``args[0]``,
    as any exception's text; pickling (workers, dask) carries both. A message is cut as
    :func:`capped`, one naming options once worded."""
    exc._raw = None  # type: ignore[attr-defined]
    if len(args) == 1 and isinstance(args[0], str):
        if _OPEN not in args[0]:
            return (capped(args[0]),)
        exc._raw = args[0]  # type: ignore[attr-defined]
        return (worded(args[0]),)
    return args


def reword(exc: InputError | InputWarning, wording: Wording) -> None:
    """Name the options of ``wording`` in ``exc``'s message in its words, the others kept as
    references (a spec's wording on the way out of :func:`compreport.analyze`)."""
    exc.args = _kept(exc, (spoken(raw(exc), wording, partial=True),))


class OutputError(InputError):
    """The report cannot be written where asked: an output directory compreport does not own, one
    that is (or holds) an input, a lock held by another run, or an OS failure (read-only, permission
    denied, no space left). The message names the directory or file; nothing was replaced."""


class Terminated(BaseException):
    """SIGTERM reached the command line (``timeout``, ``kill``): raised like Ctrl-C so that the
    temporary output is removed; the CLI prints one ``error:`` line and exits with status 143."""


class InputWarning(UserWarning):
    """Suspicious but usable input (printed as ``warning: <message>``)."""

    def __init__(self, *args):
        super().__init__(*_kept(self, args))

    def __str__(self) -> str:  # in Python words (:func:`worded`)
        return worded(raw(self))

    def __repr__(self) -> str:
        return _worded_repr(self) or super().__repr__()


class Note(InputWarning):
    """What compreport did that a user should know, not a problem (printed as ``note: <message>``):
    files it kept in an output directory because it did not write them; files of a runs folder that
    are not runs, the gold file matched by the runs glob, runs a names file excludes."""


def capped(text: str) -> str:
    """``text`` cut to :data:`MAX_MESSAGE` characters, as every message is: its start and its end,
    with the number of characters left out between them.

    >>> capped("ok")
    'ok'
    >>> len(capped("x" * 5_328)) <= MAX_MESSAGE
    True
    """
    if len(text) <= MAX_MESSAGE:
        return text
    head, tail = MAX_MESSAGE * 3 // 4, MAX_MESSAGE // 5
    cut = len(text) - head - tail
    return f"{text[:head]} [... {cut:,} characters left out ...] {text[-tail:]}"


def warn(message: str) -> None:
    """Emit an :class:`InputWarning` attributed to the caller's caller, cut as :func:`capped`."""
    warnings.warn(message, InputWarning, stacklevel=3)  # cut by InputWarning


def note(message: str) -> None:
    """Emit a :class:`Note` attributed to the caller's caller, cut as :func:`capped` (a
    ``failed.txt`` reason of 5,000 characters)."""
    warnings.warn(message, Note, stacklevel=3)  # cut by Note


def os_reason(exc: OSError) -> str:
    """What an OSError says, without its errno and the path (which the message names itself).

    >>> os_reason(PermissionError(13, "Permission denied", "out/results.json"))
    'Permission denied'
    """
    return exc.strerror or str(exc)


def suggest(value, options) -> str:
    """A "did you mean" for the closest of ``options`` (ignoring case), or ``""``.

    >>> suggest("Hlom", ["none", "bonferroni", "holm"])
    " (did you mean 'holm'?)"
    >>> suggest("xyz", ["holm"])
    ''
    """
    by_lower = {str(o).lower(): str(o) for o in options}
    close = difflib.get_close_matches(str(value).lower(), list(by_lower), n=1, cutoff=0.6)
    return f" (did you mean {by_lower[close[0]]!r}?)" if close else ""


def excerpt(value, quote=repr) -> str:
    """A value read from an input file (a cell, an id, a header) as a message quotes it: escaped
    (``repr``), and cut to :data:`MAX_EXCERPT` characters, so that an error never echoes more of
    a file that is not a valid input (``/etc/passwd`` named as the gold) than a short excerpt.
    ``quote``: ``ascii`` escapes every code point beyond ASCII too.

    >>> excerpt("positive"), excerpt("x" * 100)
    ("'positive'", "'xxxxxxxxxxxxxxxxxxxxxxxx'... (100 characters)")
    """
    text = str(value)
    if len(text) <= MAX_EXCERPT:
        return quote(text)
    return f"{quote(text[:MAX_EXCERPT])}... ({len(text):,} characters)"


#: Invisible format characters kept by :func:`printable`: the zero-width joiner and non-joiner
#: that emoji sequences and Indic, Arabic and Persian spelling need.
_JOINERS = frozenset("\u200c\u200d")


def printable(text) -> str:
    r"""``text`` safe for the terminal, on one line: how every message is printed, and how a
    message names what came from a participant (a zip member, a file name) in full.

    Control characters (ESC, newlines, ...), the line and paragraph separators (U+2028, U+2029,
    which a terminal or an editor shows as a line break), and invisible format characters
    (bidirectional controls, which reorder what a terminal shows; the zero-width space U+200B;
    the soft hyphen) become escapes (``\x1b``, ``\n``, ``\u2028``, ``\u202e``), and the
    undecodable bytes of a file name that is not UTF-8 (surrogate-escaped by Python) become
    ``\xf1``. The zero-width joiners of emoji and of scripts that need them are kept.

    Examples
    --------
    >>> print(printable("team\x1b[31m\nB"))
    team\x1b[31m\nB
    >>> print(printable("a\u2028b\u200bc"))
    a\u2028b\u200bc
    """
    text = str(text)
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if 0xDC80 <= ord(ch) <= 0xDCFF:
            out.append(f"\\x{ord(ch) - 0xDC00:02x}")
        elif ch not in _JOINERS and unicodedata.category(ch) in ("Cc", "Cs", "Cf", "Zl", "Zp"):
            out.append(ch.encode("unicode_escape").decode("ascii"))
        else:
            out.append(ch)
    return "".join(out)


# --------------------------------------------------------------------------- options in messages
#
# The core names an option by reference (:func:`option`); the edge words it for whoever called:
# the command line (``--pos-label LABEL``), Python (``pos_label=LABEL``, the default) or the spec
# file that gave the value (``[bootstrap] resamples = 10 (c.toml, line 6)``). A reference is text
# between two noncharacters, so it survives f-strings, joins and pickling to worker processes.

#: What opens and closes a reference to an option in a message (Unicode noncharacters, which no
#: text exchanged between programs holds; the reference between them is ASCII JSON).
_OPEN, _CLOSE = "\ufdd0", "\ufdd1"
# a reference holds no other marker: a stray U+FDD0 in a participant's file name before a real
# reference does not swallow it
_REFERENCE = re.compile("\ufdd0([^\ufdd0\ufdd1]*)\ufdd1")

#: How an edge words the options it knows: option id -> (without a value, before the value, after
#: the value, and which form of the value: ``"shell"`` for the command line's ``' LABEL'`` after
#: the flag, quoted for a shell and empty for a switch, ``"text"`` for the value as ``str``).
#: An option a wording leaves out keeps its Python words.
Wording = Mapping[str, tuple[str, str, str, str]]

#: The reference to "where a setting the specs give is overridden" (:func:`overriding`).
OVERRIDE = "(override)"


#: Cache: the schema's words of the options, a constant made on first use; no argument, one entry.
@functools.cache
def _python_words() -> dict[str, tuple[str, str | None, str]]:
    """The schema's words of every option (:func:`compreport.options.words`), read once (a cache
    of a constant)."""
    return words()


def option(name: str, value=None) -> str:
    """A reference to option ``name`` (with ``value`` when given) in a message, worded where the
    message is shown: ``str()`` of an :class:`InputError` or :class:`InputWarning` in Python words,
    the command line in its own (:func:`worded`).

    >>> worded(f"pass {option('pos_label', 'LABEL')}")
    'pass pos_label=LABEL'
    >>> worded(option("force", True), {"force": ("--force", "--force", "", "shell")})
    '--force'
    """
    cli, api, shape = _python_words()[name]
    python = f"`{api}`" if value is None else f"{api}={shape.format(value)}"
    text = shell = None
    if value is not None:
        text = str(value)
        # a switch takes no value; a list is given comma-separated; a value a shell would split
        # or drop is quoted
        shown = ",".join(map(str, value)) if isinstance(value, list) else text
        shell = "" if value is True else f" {shlex.quote(shown)}"
    return _reference([name, python, text, shell])


def overriding() -> str:
    """A reference to where a call overrides a setting the specs give: ``to analyze()`` in
    Python words, ``on the command line`` in the command line's.

    >>> worded(overriding())
    'to analyze()'
    """
    return _reference([OVERRIDE, "to analyze()", None, None])


def _reference(fields: list) -> str:
    return f"{_OPEN}{json.dumps(fields, ensure_ascii=True)}{_CLOSE}"


def _fields(text: str) -> list | None:
    """The four fields of a reference written by :func:`_reference`, or None for text between the
    two markers that no reference wrote (a file or zip member named with U+FDD0 ... U+FDD1).

    >>> _fields('["alpha", "alpha=2", "2", " 2"]'), _fields("junk"), _fields('[1, 2]')
    (['alpha', 'alpha=2', '2', ' 2'], None, None)
    """
    # a reference is ASCII JSON (written with ensure_ascii) opening with '["': anything else is a
    # participant's text, never parsed (10,000 brackets in a zip member's name would recurse)
    if not (text.startswith('["') and text.isascii() and len(text) <= MAX_REFERENCE):
        return None
    try:
        fields = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if (
        isinstance(fields, list)
        and len(fields) == 4
        and all(isinstance(f, str) for f in fields[:2])
        and all(f is None or isinstance(f, str) for f in fields[2:])
    ):
        return fields
    return None


def _word(match: re.Match, wording: Wording, keep: bool) -> str:
    """One reference in the words of ``wording``; in Python words where it has none (kept as a
    reference when ``keep``)."""
    fields = _fields(match.group(1))
    if fields is None:  # not one of ours: text a participant wrote (a file name), shown as it is
        return match.group(0)
    name, python, text, shell = fields
    words = wording.get(name)
    if words is None:
        return match.group(0) if keep else python
    bare, before, after, form = words
    if text is None:
        return bare
    return f"{before}{shell if form == 'shell' else text}{after}"


def spoken(message: str, wording: Wording, *, partial: bool = False) -> str:
    """``message`` with its references to options in the words of ``wording``: the others in
    Python words, or kept as references when ``partial`` (a spec's wording applied on the way
    out of :func:`compreport.analyze`, before the caller's)."""
    if _OPEN not in message:
        return message
    return _REFERENCE.sub(lambda m: _word(m, wording, partial), message)


def worded(message: str, wording: Wording | None = None) -> str:
    """``message`` as shown: its references worded (:func:`spoken`; Python words by default) and
    cut to :data:`MAX_MESSAGE` characters (:func:`capped`)."""
    return capped(spoken(message, wording or {}))


def raw(message) -> str:
    """The text of an exception, a warning or a message with its references to options kept, to
    carry into another message or across processes.

    >>> raw(InputError(f"bad {option('alpha', 2)}")) == f"bad {option('alpha', 2)}"
    True
    """
    kept = getattr(message, "_raw", None)
    if kept is not None:
        return kept
    if isinstance(message, BaseException) and len(message.args) == 1:
        if isinstance(message.args[0], str):
            return message.args[0]
    if isinstance(message, (InputError, InputWarning)):
        return BaseException.__str__(message)
    return str(message)


def _worded_repr(exc: InputError | InputWarning) -> str | None:
    """``InputError('...')`` with the message in Python words, or None when it is no one text."""
    if len(exc.args) == 1 and isinstance(exc.args[0], str):
        return f"{type(exc).__name__}({str(exc)!r})"
    return None
