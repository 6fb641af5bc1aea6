"""Worker processes: independent figures, documents, competitions and blocks of resamples
handled in parallel.

:class:`LocalPool` is the local :class:`Executor`: made once where a run starts (with
:class:`compreport.distributed.Cluster`, the dask one, it is what
:func:`compreport.distributed.connect` yields) and passed down as an argument to the code that
fans out work. Its ``map`` yields the results in item order, so what is written does not depend on
``jobs`` (each task is deterministic on its own; byte-identical files are tested with 1 and 2
workers). :func:`run_tasks` runs a list of ``(function, args)`` tasks on one, with a progress bar.

* Tasks cross to the workers by index only: the workers inherit the function, what the tasks
  share and the items when they are forked, so none of them (the analysis, a figure builder, the
  state of a bootstrap run) need be picklable; only results and exceptions are pickled back.
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
import dataclasses
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
from typing import Any, Protocol

from compreport import interrupts
from compreport.errors import InputError, raw

#: What a forked worker inherits from the :meth:`LocalPool.map` that started it: ``(fn, shared,
#: items, context)``. Set by the worker's initializer in the worker process only, never in the
#: caller: it lives as long as that worker, and nothing crosses to a worker but an index.
_INHERITED: tuple[Callable[..., Any], Any, list, contextvars.Context] | None = None


class Executor(Protocol):
    """What fans out independent work: a :class:`LocalPool` or a dask cluster
    (:class:`compreport.distributed.Cluster`), made once where the run starts and passed down.

    ``map(fn, items, what, shared)`` yields ``fn(shared, item)`` (``fn(item)`` when ``shared`` is
    None) for every item, in item order, re-issuing each task's warnings before its result; the
    first task that fails stops the others. ``what`` names the work in the error for a worker that
    died or was lost. Closing the generator stops the work still running.
    """

    def map(
        self, fn: Callable[..., Any], items: Sequence, what: str, shared: Any = None
    ) -> Iterator: ...


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


def _start_worker(inherited: tuple[Callable[..., Any], Any, list, contextvars.Context]) -> None:
    """A forked worker's start: keep what it inherited (:data:`_INHERITED`); Ctrl-C is the
    caller's to handle; SIGTERM kills it outright. The worker inherits the caller's Python-level
    SIGTERM handler, which runs only between bytecodes of the main thread: a worker inside a long C
    call, or blocked where no handler gets to run, would outlive :func:`_stop`'s terminate and the
    caller would wait for it."""
    global _INHERITED
    _INHERITED = inherited
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _call(fn: Callable[..., Any], shared: Any, item: Any) -> Any:
    """``fn(shared, item)``, or ``fn(item)`` when ``shared`` is None."""
    return fn(item) if shared is None else fn(shared, item)


def _run_one(i: int) -> tuple[Any, list[tuple[str, type, str, int]]]:
    """In a worker: item ``i`` of what it inherited, run in the caller's context; the result and
    the warnings raised. An OSError raised while the task handled another error comes back as that
    OSError."""
    fn, shared, items, context = _INHERITED
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        try:
            result = context.run(_call, fn, shared, items[i])
        except Exception as exc:
            cause = os_error(exc)
            if cause is not None and cause is not exc:
                raise OSError(cause.errno, cause.strerror, cause.filename) from None
            raise
    return result, [(raw(w.message), w.category, w.filename, w.lineno) for w in caught]


def replay(caught: list[tuple[str, type, str, int]]) -> None:
    """Re-issue here, in order, the warnings a task recorded where it ran."""
    for message, category, filename, lineno in caught:
        warnings.warn_explicit(message, category, filename, lineno)


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


@dataclasses.dataclass(frozen=True)
class LocalPool:
    """Up to ``jobs`` worker processes forked from this one, an :class:`Executor`; ``jobs=1`` or
    no safe ``fork`` (:func:`can_fork`): this process, one item after another.

    The workers inherit ``fn``, ``shared`` and the items when they are forked, so none of them
    needs to be picklable (a figure builder, the state of a bootstrap run); only results, warnings
    and exceptions are pickled back. A worker that dies is one
    :class:`~compreport.errors.InputError` naming ``what``.

    >>> list(LocalPool(2).map(abs, [-2, 3], "absolute values"))
    [2, 3]
    >>> list(LocalPool(2).map(pow, [2, 3], "powers of ten", shared=10))
    [100, 1000]
    """

    jobs: int = 1

    def map(
        self, fn: Callable[..., Any], items: Sequence, what: str, shared: Any = None
    ) -> Iterator:
        """``fn(shared, item)`` (``fn(item)`` when ``shared`` is None) for every item, in order."""
        items = list(items)
        jobs = min(int(self.jobs), len(items))
        if jobs <= 1 or not can_fork():
            return _here(fn, shared, items)
        return _forked(fn, shared, items, jobs, what)


def _here(fn: Callable[..., Any], shared: Any, items: list) -> Iterator:
    """:meth:`LocalPool.map` in this process: each item in turn, after a check of the
    interrupts."""
    for item in items:
        interrupts.check()
        yield _call(fn, shared, item)


def _forked(fn: Callable[..., Any], shared: Any, items: list, jobs: int, what: str) -> Iterator:
    """:meth:`LocalPool.map` by ``jobs`` forked workers that ignore Ctrl-C: results yielded in
    item order as soon as they and those before them are in; the first task to fail, whatever its
    place, stops the run at once; closing the generator (or an error) stops the workers."""
    # an executor, not multiprocessing.Pool: a worker that dies (killed for memory, a crash)
    # breaks the executor at once, where Pool would wait for its task forever. The workers
    # inherit what they run when they fork (initargs are not pickled under fork): the state of a
    # bootstrap run (its Summer, the patterns) is shared copy-on-write, not copied into each
    # worker (the million-item case of docs/performance.md, two workers)
    pool = ProcessPoolExecutor(
        jobs,
        mp_context=multiprocessing.get_context("fork"),
        initializer=_start_worker,
        initargs=((fn, shared, items, contextvars.copy_context()),),
    )
    futures: dict = {}
    try:
        with _frozen_heap():  # the workers fork at the first submit
            futures = {pool.submit(_run_one, i): i for i in range(len(items))}
        arrived: dict[int, tuple] = {}
        following = 0
        for future in as_completed(futures):
            arrived[futures[future]] = future.result()
            interrupts.check()
            while following in arrived:
                result, caught = arrived.pop(following)
                replay(caught)
                yield result
                following += 1
    except BrokenProcessPool:
        raise _died(what, sum(_succeeded(f) for f in futures), len(items)) from None
    finally:
        _stop(pool)


def _succeeded(future) -> bool:
    """Whether ``future`` has finished without an error."""
    return future.done() and not future.cancelled() and future.exception() is None


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
    bar = progress_bar(progress, len(tasks))
    results = LocalPool(jobs).map(_apply, tasks, what)
    try:
        done = []
        for result in results:
            done.append(result)
            if bar is not None:
                bar.update()
        interrupts.check()
        return done
    finally:
        results.close()
        if bar is not None:
            bar.close()


def _apply(task: tuple[Callable[..., Any], tuple]) -> Any:
    """``fn(*args)`` for a ``(fn, args)`` task of :func:`run_tasks`."""
    fn, args = task
    return fn(*args)
