"""The language of what a reader sees: English (the source text) or Spanish (``--lang es``).

Every sentence, caption, heading and label of a report goes through :func:`tr` (Python) or
``tr(...)`` (the templates) with its English text, which is the key of the translation table
(:data:`compreport.language.translations.ES`, the one place Spanish lives). The language is a
context (the package's one, with the decimal comma): :class:`compreport.report.Report` renders
inside ``with language(...)``, and worker processes run their tasks in the context of the caller
(:mod:`compreport.workers`). File names, CSV columns, results.json keys, metric ids, messages and
errors stay English.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator

from compreport.errors import InputError, suggest

#: The languages a report can be written in (``--lang``, ``Report(lang=)``).
LANGUAGES = ("en", "es")

_LANG: contextvars.ContextVar[str] = contextvars.ContextVar("compreport_lang", default="en")
_COMMA: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "compreport_decimal_comma", default=False
)


@contextlib.contextmanager
def scoped(var: contextvars.ContextVar, value) -> Iterator[None]:
    """``var`` set to ``value`` inside the block, and back to what it was after (also on error)."""
    token = var.set(value)
    try:
        yield
    finally:
        var.reset(token)


def current() -> str:
    """The language reports are worded in now: ``"en"`` (the default) or ``"es"``."""
    return _LANG.get()


def language(code: str) -> contextlib.AbstractContextManager:
    """Word everything rendered inside in language ``code`` (one of :data:`LANGUAGES`); another
    code is an :class:`~compreport.errors.InputError`."""
    if code not in LANGUAGES:
        raise InputError(
            f"`lang` must be one of {', '.join(LANGUAGES)}; got {code!r}"
            f"{suggest(str(code), LANGUAGES)}"
        )
    return scoped(_LANG, code)


def tr(text: str, /, **values) -> str:
    """``text`` (English) in the current language, then ``str.format``-ed with ``values`` when
    given. A text the table lacks is left in English (a test keeps the table complete).

    >>> with language("es"):
    ...     tr("{n} verdicts undecided", n=2)
    '2 veredictos sin decidir'
    """
    if current() != "en":  # the table is imported only for a report that is not in English
        from compreport.language.translations import ES

        text = ES.get(text, text)
    return text.format(**values) if values else text


def N_(text: str) -> str:
    """Mark ``text`` for translation where it is written (a table of captions, a vocabulary term)
    and return it unchanged; the code that shows it passes it to :func:`tr` (gettext's ``N_``)."""
    return text


def decimal_comma(on: bool) -> contextlib.AbstractContextManager:
    """Write the numbers of sentences rendered inside (:func:`decimal`, :func:`count`) with a
    decimal comma when ``on``: everything ``--decimal-comma`` reaches (the LaTeX, its methods
    paragraph and figure captions; the HTML pages, PDF reports, team letters and e-mails, whose
    table cells take the comma from :class:`compreport.report.model.Format`)."""
    return scoped(_COMMA, bool(on))


def decimal(value: float) -> str:
    """A number for a sentence (``0.05``, ``95``, ``99.995``: 6 significant digits), with a decimal
    comma inside :func:`decimal_comma`.

    >>> with decimal_comma(True):
    ...     decimal(0.05)
    '0,05'
    """
    text = f"{value:g}"
    return text.replace(".", ",") if _COMMA.get() else text


def comma() -> bool:
    """Whether numbers take a decimal comma now (inside :func:`decimal_comma`)."""
    return _COMMA.get()


def marked(text: str) -> str:
    """A number's text as written with a point (``"0.0038"``, ``f"{x:.4f}"``) with the decimal
    mark of the context: a comma inside :func:`decimal_comma`. For numbers only, never for names.

    >>> with decimal_comma(True):
    ...     marked("0.0038")
    '0,0038'
    """
    return text.replace(".", ",") if _COMMA.get() else text


def count(n: int) -> str:
    """A whole number for a sentence: ``10,000`` in English; in Spanish, or with a decimal comma
    (:func:`decimal_comma`), ``10 000`` (a no-break space groups numbers of five digits or more,
    RAE; ``1000`` is not grouped) so a point or comma never reads as a decimal mark.

    >>> count(10000)
    '10,000'
    """
    n = int(n)
    if current() == "en" and not _COMMA.get():
        return f"{n:,}"
    return ("-" if n < 0 else "") + grouped(str(abs(n)), "\u00a0")


def grouped(digits: str, sep: str) -> str:
    """An integer's ``digits`` in groups of three joined by ``sep`` when there are five or more
    (``1000`` stays whole): the rule of :func:`count` and of the LaTeX numbers
    (:func:`compreport.report.latex.tex.num`, as siunitx's ``\\num``).

    >>> grouped("1234567", " "), grouped("1000", " ")
    ('1 234 567', '1000')
    """
    if len(digits) < 5:
        return digits
    return sep.join(digits[max(0, i - 3) : i] for i in range(len(digits), 0, -3)[::-1])
