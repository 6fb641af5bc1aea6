"""Exceptions and warnings shown to users as one line on stderr."""

from __future__ import annotations

import warnings


class InputError(ValueError):
    """Bad input or an invalid setting: the CLI prints ``error: <message>`` and exits with status 2.

    The message names the file and the line, column or id at fault.
    """


class InputWarning(UserWarning):
    """Suspicious but usable input (printed as ``warning: <message>``)."""


def warn(message: str) -> None:
    """Emit an :class:`InputWarning` attributed to the caller's caller."""
    warnings.warn(message, InputWarning, stacklevel=3)
