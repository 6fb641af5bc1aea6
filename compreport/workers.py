"""Worker processes: independent figures, documents and competitions handled in parallel.

:func:`run_tasks` runs a list of ``(function, args)`` tasks in forked worker processes and returns
their results in task order, so what is written does not depend on ``jobs`` (each task is
deterministic on its own; byte-identical files are tested with 1 and 2 workers).

* Tasks cross to the workers by index only: the workers inherit the task list when they are
  forked, so functions and their arguments (the analysis, a figure builder) need not be picklable;
  only results and exceptions are pickled back.
* Warnings raised in a worker (matplotlib's missing-glyph warning for a team name holding a control
  character, say) are recorded there and re-issued in the caller, in task order.
* Workers ignore Ctrl-C (the caller stops them), so an interrupted run prints one ``error:`` line.
  They die of SIGTERM outright, whatever they are doing; one still running :data:`STOP_GRACE`
  seconds after the caller stopped it is killed.
* A worker that dies (killed for lack of memory, a crash in a library) is one
  :class:`~compreport.errors.InputError`, not a run that waits forever.
* An OSError raised while a task handled another error (matplotlib turns a full disk into an
  AttributeError while closing the file) comes back as that OSError.
* Tasks run in the caller's context (:mod:`contextvars`): the report's language. Messages keep
  their references to options (:func:`compreport.errors.raw`), worded by the caller.
* Without a safe ``fork`` or with ``jobs == 1`` the tasks run in this process, in order: ``fork``
  is used on Linux and the BSDs only. macOS offers it, but a process that has loaded Apple's system
  frameworks (matplotlib's macOS backend, the Accelerate BLAS) may crash or hang in a forked child,
  so on macOS (and on Windows, which has no ``fork``) one process does the work; the files are the
  same, only slower (:func:`can_fork`).
"""

from __future__ import annotations

import contextlib
import contextvars
import gc
import multiprocessing
import numbers
import os
import signal
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from compreport import interrupts
from compreport.errors import InputError, raw

#: The tasks of the running :func:`run_tasks`; forked workers inherit it.
_TASKS: list[tuple[Callable[..., Any], tuple]] = []
#: The caller's context (the report's language), in which workers run tasks.
_CONTEXT: contextvars.Context | None = None


def can_fork() -> bool:
    """Whether worker processes are forked here: ``fork`` exists and the platform is not macOS,
    where forking a process that loaded Apple's frameworks is unsafe (see the module's notes).

    >>> isinstance(can_fork(), bool)
    True
    """
    return "fork" in multiprocessing.get_all_start_methods() and sys.platform != "darwin"


def default_jobs() -> int:
    """Worker processes by default: the cores this process may run on."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not Linux
        return max(os.cpu_count() or 1, 1)


def check_jobs(jobs) -> int:
    """``jobs`` as an int; :class:`~compreport.errors.InputError` unless it is a whole number >= 1.

    >>> check_jobs(2)
    2
    """
    if isinstance(jobs, bool) or not isinstance(jobs, numbers.Integral) or jobs < 1:
        raise InputError(f"`jobs` must be a whole number >= 1; got {jobs!r}")
    return int(jobs)


def show_progress(progress: bool | None) -> bool:
    """Whether to draw progress bars: ``progress``, or None for "when stderr is a terminal"."""
    return sys.stderr.isatty() if progress is None else bool(progress)


def os_error(exc: BaseException | None) -> OSError | None:
    """``exc`` or the OSError it was raised while handling, or None (matplotlib turns a full disk
    into an AttributeError raised while closing the file)."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, OSError):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


@contextlib.contextmanager
def _frozen_heap():
    """Keep the collector off the caller's objects while workers fork from it: a worker's garbage
    collection would otherwise write to every object it inherited and copy the page holding it
    (the analysis, the figures' SVG text), costing memory and system time in each worker. A
    program that froze objects itself keeps them frozen (only what this froze is let go)."""
    frozen_before = gc.get_freeze_count()
    gc.freeze()
    try:
        yield
    finally:
        if not frozen_before:
            gc.unfreeze()


def _start_worker() -> None:
    """A forked worker's start: Ctrl-C is the caller's to handle; SIGTERM kills it outright. The
    worker inherits the caller's Python-level SIGTERM handler, which runs only between bytecodes
    of the main thread: a worker inside a long C call, or blocked where no handler gets to run,
    would outlive :func:`_stop`'s terminate and the caller would wait for it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _run_one(i: int) -> tuple[Any, list[tuple[str, type, str, int]]]:
    fn, args = _TASKS[i]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        try:
            result = _CONTEXT.run(fn, *args) if _CONTEXT is not None else fn(*args)
        except Exception as exc:
            cause = os_error(exc)
            if cause is not None and cause is not exc:
                raise OSError(cause.errno, cause.strerror, cause.filename) from None
            raise
    return result, [(raw(w.message), w.category, w.filename, w.lineno) for w in caught]


#: Seconds a terminated worker has to end before it is killed (SIGKILL).
STOP_GRACE = 5.0


def _stop(pool: ProcessPoolExecutor) -> None:
    """Shut ``pool`` down without waiting for its tasks: queued ones are cancelled and running
    workers terminated (after an error or Ctrl-C nothing they draw is kept), and killed if one has
    not ended :data:`STOP_GRACE` seconds later; then its manager thread is joined, so no thread of
    the pool runs when the next pool forks. (``shutdown(wait=False)`` forgets the manager thread:
    a later ``shutdown(wait=True)`` would not join it.)"""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        if proc.is_alive():
            proc.terminate()
    for proc in processes:
        proc.join(STOP_GRACE)
        if proc.exitcode is None:
            proc.kill()
            proc.join()
    if manager is not None:
        manager.join(STOP_GRACE)


def _died(what: str, finished: int, total: int) -> Exception:
    """The error for a worker that died (killed for memory, a crash) while ``what``."""
    return InputError(
        f"a worker process died while {what} ({finished} of {total} done): out of memory? "
        f"Try fewer workers (--jobs 1)"
    )


def forked_map(fn: Callable[[Any], Any], items: Sequence, jobs: int, what: str) -> Iterator:
    """``fn(item)`` for every item, yielded in order as they come, computed by up to ``jobs`` forked
    workers that ignore Ctrl-C (``jobs=1`` or no ``fork``: here, one after another). For work whose
    results the caller consumes as they arrive (the bootstrap's blocks): ``fn`` and the items are
    pickled, so ``fn`` is a module-level function reading what it needs from state set before the
    call. A worker that dies is one :class:`~compreport.errors.InputError` naming ``what``; closing
    the generator (or an error) stops the workers."""
    items = list(items)
    jobs = min(int(jobs), len(items))
    if jobs <= 1 or not can_fork():
        yield from map(fn, items)
        return
    pool = ProcessPoolExecutor(
        jobs, mp_context=multiprocessing.get_context("fork"), initializer=_start_worker
    )
    finished = 0
    try:
        with _frozen_heap():
            results = pool.map(fn, items)  # the workers fork here
        for result in results:
            yield result
            finished += 1
    except BrokenProcessPool:
        raise _died(what, finished, len(items)) from None
    finally:
        _stop(pool)


def progress_bar(what: str | None, total: int, unit: str = "it"):
    """A progress bar named ``what``, counting ``total`` ``unit`` (``tqdm.auto``: a widget in a
    Jupyter notebook with ipywidgets, else text on stderr); None when ``what`` is None or there is
    nothing to count.

    The name says the stage, so that bars which follow one another (a competition's bootstrap,
    then each round of refinement) are told apart. ``unit`` is a word without spaces: tqdm writes
    the rate as ``12.50it/s`` or, below one per second, ``2.14s/it``.

    Examples
    --------
    >>> import io, contextlib
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err):
    ...     bar = progress_bar("figures", 2)
    ...     bar.update(2)
    ...     bar.close()
    >>> "figures:   0%" in err.getvalue() and "0/2" in err.getvalue()
    True
    """
    if what is None or total < 1:
        return None
    if not unit or unit != unit.strip():
        raise ValueError(f"a progress unit is a word without spaces; got {unit!r}")
    with warnings.catch_warnings():
        # tqdm.auto: a widget in Jupyter; the text bar on stderr elsewhere, and in a notebook
        # without ipywidgets (whose warning at import is not the user's concern).
        warnings.simplefilter("ignore")
        from tqdm.auto import tqdm

    return tqdm(total=total, desc=what, unit=unit, file=sys.stderr, leave=False)


def run_tasks(
    tasks: Sequence[tuple[Callable[..., Any], tuple]],
    jobs: int = 1,
    progress: str | None = None,
    what: str = "drawing figures or PDF documents",
) -> list:
    """Results of ``fn(*args)`` for every ``(fn, args)`` of ``tasks``, in task order.

    Parameters
    ----------
    tasks : sequence of (callable, tuple)
        The work; forked workers inherit it, so nothing in it needs to be picklable.
    jobs : int, default 1
        Worker processes (no more than there are tasks); 1: here, one task after another.
    progress : str, optional
        The name of a progress bar on stderr counting finished tasks; None: no bar.
    what : str
        The work, named in the error when a worker dies.

    Raises
    ------
    Exception
        The first exception a task raises (the other workers are stopped), or an
        :class:`~compreport.errors.InputError` when a worker dies.

    Examples
    --------
    >>> run_tasks([(pow, (2, 3)), (pow, (3, 2))], jobs=2)
    [8, 9]
    """
    tasks = list(tasks)
    jobs = min(int(jobs), len(tasks))
    bar = progress_bar(progress, len(tasks))
    try:
        if jobs <= 1 or not can_fork():
            results = []
            for fn, args in tasks:
                interrupts.check()
                results.append(fn(*args))
                if bar is not None:
                    bar.update()
            interrupts.check()
            return results
        global _TASKS, _CONTEXT
        _TASKS, _CONTEXT = tasks, contextvars.copy_context()
        done = [None] * len(tasks)
        # an executor, not multiprocessing.Pool: a worker that dies (killed for memory, a crash)
        # breaks the executor at once, where Pool would wait for its task forever
        pool = ProcessPoolExecutor(
            jobs, mp_context=multiprocessing.get_context("fork"), initializer=_start_worker
        )
        try:
            with _frozen_heap():  # the workers fork at the first submit
                futures = {pool.submit(_run_one, i): i for i in range(len(tasks))}
            for future in as_completed(futures):  # the first failure stops the rest at once
                done[futures[future]] = future.result()
                interrupts.check()
                if bar is not None:
                    bar.update()
        except BrokenProcessPool:
            raise _died(what, sum(x is not None for x in done), len(tasks)) from None
        finally:
            _TASKS, _CONTEXT = [], None
            _stop(pool)
    finally:
        if bar is not None:
            bar.close()
    results = []
    for result, caught in done:
        for message, category, filename, lineno in caught:
            warnings.warn_explicit(message, category, filename, lineno)
        results.append(result)
    return results
