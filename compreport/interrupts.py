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

import contextlib
from collections.abc import Iterator

_PENDING: list[type[BaseException]] = []
#: How many :func:`deferred` blocks are running.
_DEFERRED = [0]


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


def deferring() -> bool:
    """Whether a :func:`deferred` block runs: the handlers then only :func:`request`."""
    return _DEFERRED[0] > 0


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Hold the command line's signals until the block has run, then raise the one recorded.

    For work that a signal must not cut in half, such as starting a local dask cluster: stopped
    part-way, its worker processes and semaphores are left to the interpreter's exit, which warns
    about them ("leaked semaphore objects") after the run's error line. The signal is raised when
    the block ends, where its caller can close what the block made.

    >>> try:
    ...     with deferred():
    ...         request(RuntimeError)  # as the handlers record KeyboardInterrupt, Terminated
    ...         print("the block goes on")
    ... except RuntimeError:
    ...     print("raised at its end")
    the block goes on
    raised at its end
    >>> clear()
    """
    _DEFERRED[0] += 1
    try:
        yield
    finally:
        _DEFERRED[0] -= 1
    check()
