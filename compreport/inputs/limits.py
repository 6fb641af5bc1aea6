"""The limits of the parsers compreport reads inputs with (JSON, TOML), as one-line errors.

Python's parsers stop at its recursion limit (``[[[[...`` nested 100,000 deep) and at its limit on
the digits of an integer (4,300: ``sys.get_int_max_str_digits``); both would be tracebacks.
:func:`parser_limits` turns them into an :class:`~compreport.errors.InputError` naming the file
and, for a number, its line.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from compreport.errors import InputError


def max_digits() -> int:
    """The most digits Python turns into an int (0: no limit)."""
    return getattr(sys, "get_int_max_str_digits", lambda: 0)()


@contextmanager
def parser_limits(shown: str, text: str, kind: str) -> Iterator[None]:
    """Parse inside this block: a nesting deeper than the parser can follow, or an integer longer
    than :func:`max_digits`, is an :class:`InputError`.

    Parameters
    ----------
    shown : str
        The file, for the message.
    text : str
        What is parsed: the line of a long number is found in it.
    kind : str
        The format, for the message (``JSON``, ``TOML``).

    Examples
    --------
    >>> import json
    >>> with parser_limits("run.json", "[" * 100_000, "JSON"):
    ...     json.loads("[" * 100_000)
    Traceback (most recent call last):
        ...
    compreport.errors.InputError: run.json: JSON nested too deeply to read (hundreds of brackets ...
    """
    try:
        yield
    except RecursionError:
        raise InputError(
            f"{shown}: {kind} nested too deeply to read (hundreds of brackets or tables inside "
            f"one another)"
        ) from None
    except ValueError as exc:
        limit = max_digits()
        if isinstance(exc, InputError) or not limit or "integer string conversion" not in str(exc):
            raise
        long = re.search(rf"[0-9_]{{{limit + 1},}}", text)
        where = f", line {text.count(chr(10), 0, long.start()) + 1}" if long else ""
        raise InputError(
            f"{shown}{where}: a number of more than {limit:,} digits, too long to read"
        ) from None
