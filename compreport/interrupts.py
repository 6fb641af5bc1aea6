"""Signals that stop a run, remembered until the run has stopped.

The command line turns Ctrl-C and SIGTERM into exceptions (``KeyboardInterrupt``,
:class:`~compreport.errors.Terminated`) so the temporary output is removed on the way out. Python
raises a signal handler's exception wherever the main thread happens to be, and when that is a
finalizer (a weakref callback during an import, a ``__del__``) the exception is printed as
"Exception ignored" and lost: the run would go on and even commit its output. So the handlers also
record the signal here, and :func:`check` raises it again at the run's checkpoints (between tasks,
stages and competitions, and before the output is swapped in) until the command line has handled it.
"""

from __future__ import annotations

_PENDING: list[type[BaseException]] = []


def request(exc_type: type[BaseException]) -> None:
    """Record that the run must stop with ``exc_type`` (called by the signal handlers)."""
    _PENDING[:] = [exc_type]


def check() -> None:
    """Raise the recorded stop, if any (a checkpoint)."""
    if _PENDING:
        raise _PENDING[0]()


def clear() -> None:
    """Forget the recorded stop (the command line has handled it)."""
    _PENDING.clear()
