"""Work on a dask.distributed cluster: ``--scheduler ADDRESS``, ``analyze(..., scheduler=...)``.

:func:`connect` opens a client to the scheduler at an address (``tcp://host:8786``), or starts a
:class:`~distributed.LocalCluster` of worker processes for ``"local"``, and yields it as a
:class:`Cluster`: the :class:`~compreport.workers.Executor` that the analysis is given, as an
argument, for its independent work: the competitions of a workshop (one task each) or the blocks
of replicates of a single competition. :meth:`Cluster.map` (:func:`cluster_map`) runs such tasks
and yields their results in task order.

* The numbers are those of a local run: each competition and each block draws from its own
  seeded stream, whatever process draws it, and every task runs with BLAS on one thread (as
  :func:`compreport.stats.analysis.analyze_competition` does), so results.json is byte for byte
  the one of a local run with the same seed. The scheduler is therefore not recorded in it.
* Tasks and what they share are pickled (cloudpickle) to the workers, which must run the same
  version of compreport (checked when connecting) and have what metric files import; the
  metric files themselves travel by value.
* Warnings raised in a task are recorded there and re-issued here, in task order; tasks run with
  the caller's language and decimal comma (the :mod:`contextvars` of :mod:`compreport.language`);
  messages keep their references to options, worded by the caller.
* An unreachable scheduler is one :class:`~compreport.errors.InputError` after
  :data:`CONNECT_TIMEOUT` seconds. A worker lost while it runs a task is one
  :class:`~compreport.errors.InputError`: at once with ``"local"`` (its scheduler allows no
  failure); on a cluster of one's own, once its scheduler gives up rerunning the task
  (``distributed.scheduler.allowed-failures``, 3 by default: a rerun gives the same numbers).
  A cluster left without workers for :data:`NO_WORKERS_WAIT` seconds is the same error.
* Every wait on the scheduler has a timeout: one that stops answering while the connection stays
  open (a frozen process, SIGSTOP) is one :class:`~compreport.errors.InputError` within
  :data:`ANSWER_TIMEOUT` seconds (:data:`SEND_TIMEOUT` while the shared state is sent or a
  result fetched), and closing the connection then takes at most :data:`CLOSE_TIMEOUT` seconds
  more.
* dask's own log lines (a restarted worker, a closed connection, the CRITICAL lines of a cluster
  stopped by SIGTERM) never reach the terminal: :func:`_quiet` sends them nowhere, in this
  process and in the workers of ``"local"``; what goes wrong is said by the one error of the run.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import itertools
import logging
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from compreport import interrupts
from compreport.errors import InputError, raw
from compreport.workers import Executor, LocalPool, replay

#: Seconds to wait for the scheduler to answer before giving up.
CONNECT_TIMEOUT = 5
#: Seconds a cluster may have no worker while tasks wait before the run gives up.
NO_WORKERS_WAIT = 30
#: Seconds between checks of the interrupts and the cluster while waiting for a task.
POLL = 0.2
#: Seconds the scheduler has to answer a question (its workers, a run of :func:`version` on
#: them) before the run gives up: a scheduler that stops answering is an error within them.
ANSWER_TIMEOUT = 30
#: Seconds to send the state shared by the tasks to every worker, or to fetch a task's result
#: (either may be large).
SEND_TIMEOUT = 120
#: Seconds closing the client and a ``"local"`` cluster may take.
CLOSE_TIMEOUT = 5


def check_scheduler(address) -> str | None:
    """``address`` as given: None, ``"local"`` or a scheduler address (``tcp://host:8786``).

    Raises :class:`~compreport.errors.InputError` for anything but a non-empty string of
    printable characters without spaces.

    >>> check_scheduler("local")
    'local'
    """
    if address is None:
        return None
    if (
        not isinstance(address, str)
        or not address
        or not address.isprintable()
        or any(c.isspace() for c in address)
    ):
        from compreport.errors import option

        raise InputError(
            f"{option('scheduler')} must be 'local' or a dask scheduler address such as "
            f"tcp://host:8786; got {address!r}"
        )
    return address


def _dask():
    """The ``distributed`` package, or the error saying how to install it."""
    try:
        import distributed
    except ImportError:
        from compreport.errors import option

        raise InputError(
            f"{option('scheduler')} needs dask.distributed, which is not installed: "
            f"pip install 'compreport[dask]'"
        ) from None
    return distributed


#: The loggers whose lines :func:`_quiet` keeps off the terminal, with everything under them.
QUIET_LOGGERS = ("distributed", "dask", "tornado", "asyncio")


def _quiet() -> None:
    """Keep dask's own log lines (a restarted worker, a closed connection, CRITICAL lines with
    tracebacks when the cluster is stopped by a signal) off stderr, for the rest of the process:
    what goes wrong is said by the one error of the run.

    Each of :data:`QUIET_LOGGERS` gets only a :class:`logging.NullHandler` and stops passing
    records up to the root logger, and every logger under it that exists now (dask's
    configuration sets levels on some, such as ``distributed.client``) is disabled. A level of
    CRITICAL would not do: CRITICAL records still pass it.

    >>> _quiet(); logging.getLogger("distributed.nanny").critical("not shown")
    """
    for name in QUIET_LOGGERS:
        top = logging.getLogger(name)
        for handler in list(top.handlers):
            top.removeHandler(handler)
        top.addHandler(logging.NullHandler())
        top.propagate = False
        top.setLevel(logging.CRITICAL + 1)
    for name, logger in list(logging.Logger.manager.loggerDict.items()):
        if isinstance(logger, logging.Logger) and name.startswith(
            tuple(f"{top}." for top in QUIET_LOGGERS)
        ):
            logger.disabled = True


def dask_setup(worker) -> None:  # noqa: ARG001 (dask's preload signature)
    """A LocalCluster worker's start (a dask preload): quiet logs; Ctrl-C is for the caller, which
    stops the cluster."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _quiet()


@contextlib.contextmanager
def connect(address: str | None, jobs: int = 1) -> Iterator[Executor]:
    """The executor of the analysis' tasks: a dask cluster's while the block runs, else local.

    Parameters
    ----------
    address : str or None
        ``"local"``: a :class:`distributed.LocalCluster` of ``jobs`` worker processes (one thread
        each), closed with the block; else the address of a running scheduler
        (``tcp://host:8786``); None: no cluster, a :class:`~compreport.workers.LocalPool`.
    jobs : int
        Workers of the ``"local"`` cluster, or of the local pool.

    Yields
    ------
    Cluster or LocalPool

    Raises
    ------
    InputError
        When dask.distributed is not installed, or the scheduler does not answer within
        :data:`CONNECT_TIMEOUT` seconds.
    """
    if address is None:
        yield LocalPool(jobs)
        return
    distributed = _dask()
    import dask

    _quiet()
    cluster = client = None
    try:
        try:
            if address == "local":
                # no task is retried on another worker: a lost worker (out of memory) is one
                # error; a signal waits for the cluster to have started (then closed below)
                with (
                    dask.config.set(
                        {
                            "distributed.scheduler.allowed-failures": 0,
                            "logging.distributed": "critical",
                        }
                    ),
                    interrupts.deferred(),
                ):
                    cluster = distributed.LocalCluster(
                        n_workers=jobs,
                        threads_per_worker=1,
                        processes=True,
                        host="127.0.0.1",
                        dashboard_address="127.0.0.1:0",  # no dashboard on 8787
                        silence_logs=logging.CRITICAL,
                        preload=["compreport.distributed"],
                    )
                _quiet()  # again: the cluster's start configures dask's logging anew
                client = distributed.Client(cluster, timeout=ANSWER_TIMEOUT, set_as_default=False)
            else:
                _probe(address)
                client = distributed.Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
                _check_versions(client, address)
        except (OSError, ValueError, TypeError) as exc:
            raise InputError(f"cannot reach the dask scheduler at {address!r}: {exc}") from None
        except RuntimeError as exc:  # a worker process that could not start
            raise InputError(
                f"cannot start the local dask cluster: {exc} (a script that calls analyze() "
                f"with scheduler='local' must do so under `if __name__ == \"__main__\":`)"
            ) from None
        yield Cluster(client)
    finally:
        if client is not None:
            with contextlib.suppress(Exception):
                client.close(timeout=CLOSE_TIMEOUT)
        if cluster is not None:
            with contextlib.suppress(Exception):
                cluster.close(timeout=CLOSE_TIMEOUT)


def _probe(address: str) -> None:
    """Ask ``address`` who it is, within :data:`CONNECT_TIMEOUT` seconds; an OSError unless a
    dask scheduler answers. (A client that fails to connect is left to a finalizer that prints a
    traceback at exit; this asks first, in a thread of its own, so a running event loop of the
    caller's, as in Jupyter, does not matter.)"""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from distributed.core import rpc

    async def ask():
        async with rpc(address, timeout=CONNECT_TIMEOUT) as remote:
            return await asyncio.wait_for(remote.identity(), CONNECT_TIMEOUT)

    with ThreadPoolExecutor(1) as thread:
        try:
            who = thread.submit(asyncio.run, ask()).result()
        except (OSError, ValueError, TypeError):
            raise
        except TimeoutError:
            raise OSError(f"no answer after {CONNECT_TIMEOUT} s") from None
        except Exception as exc:  # MemoryError or a decoding error: something else answered
            raise OSError(f"it did not answer as a dask scheduler ({type(exc).__name__})") from None
    if not isinstance(who, dict) or who.get("type") != "Scheduler":
        kind = who.get("type") if isinstance(who, dict) else type(who).__name__
        raise OSError(f"it is not a dask scheduler (a {kind!r})")


def version() -> str:
    """This process' compreport version (run on every worker by :func:`_check_versions`)."""
    from compreport._version import __version__

    return __version__


def _check_versions(client, address: str) -> None:
    """:class:`~compreport.errors.InputError` unless every worker of ``client`` runs this version
    of compreport (another version could give other numbers)."""
    try:
        found = client.sync(client._run, version, callback_timeout=ANSWER_TIMEOUT)
    except TimeoutError:
        with contextlib.suppress(Exception):
            client.close(timeout=CLOSE_TIMEOUT)
        raise InputError(
            f"the dask scheduler at {address!r} did not answer within {ANSWER_TIMEOUT} s "
            f"(asked for its workers' compreport version)"
        ) from None
    except Exception as exc:  # a worker that cannot import compreport, or lost meanwhile
        client.close(timeout=CLOSE_TIMEOUT)
        raise InputError(
            f"the workers of the dask scheduler at {address!r} cannot run compreport "
            f"({type(exc).__name__}: {exc}); install compreport {version()} with its dask extra "
            f"on every worker"
        ) from None
    other = {worker: v for worker, v in found.items() if v != version()}
    if other:
        client.close(timeout=CLOSE_TIMEOUT)
        worker, v = sorted(other.items())[0]
        raise InputError(
            f"{len(other)} worker(s) of the dask scheduler at {address!r} run compreport {v} "
            f"({worker}), this is {version()}: install the same version on every worker, or "
            f"the numbers could differ"
        )


def _carried() -> dict[str, Any]:
    """The caller's context that tasks run in: the language and the decimal comma. (Messages
    name options by reference, worded by the caller: :func:`compreport.errors.option`.)"""
    from compreport import language

    return {"lang": language._LANG.get(), "comma": language._COMMA.get()}


def _run(fn: Callable, shared, item, carried: dict[str, Any]):
    """On a worker: ``fn(shared, item)`` (``fn(item)`` when ``shared`` is None) in the caller's
    context, BLAS on one thread; the result and the warnings raised."""
    from threadpoolctl import threadpool_limits

    from compreport import language

    def call():
        language._LANG.set(carried["lang"])
        language._COMMA.set(carried["comma"])
        with threadpool_limits(limits=1, user_api="blas"):
            return fn(item) if shared is None else fn(shared, item)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        result = contextvars.Context().run(call)
    return result, [(raw(w.message), w.category, w.filename, w.lineno) for w in caught]


def _settled(future) -> bool:
    """Whether ``future`` has finished (or failed), waiting up to :data:`POLL` seconds."""
    with contextlib.suppress(Exception):  # its error is raised by the caller
        future.result(timeout=POLL)
    return future.done()


def _silent(what: str, finished: int, total: int, seconds: float | None = None) -> InputError:
    """The error of a scheduler that stopped answering for ``seconds`` (default
    :data:`ANSWER_TIMEOUT`): frozen, overloaded, or its machine gone."""
    seconds = ANSWER_TIMEOUT if seconds is None else seconds
    return InputError(
        f"the dask scheduler did not answer for {seconds} s while {what} ({finished} of "
        f"{total} done): is it stopped or overloaded?"
    )


def _lost(what: str, finished: int, total: int, why: str) -> InputError:
    from compreport.errors import option

    return InputError(
        f"a dask worker was lost while {what} ({finished} of {total} done): {why}; out of "
        f"memory? Try fewer workers, or run without {option('scheduler')}"
    )


@dataclasses.dataclass(frozen=True)
class Cluster:
    """A dask cluster, reached through its :class:`distributed.Client`, as an
    :class:`~compreport.workers.Executor` (made by :func:`connect`)."""

    client: Any

    def map(self, fn: Callable, items: Sequence, what: str, shared: Any = None) -> Iterator:
        """:func:`cluster_map` on this cluster."""
        return cluster_map(fn, items, what, shared, self.client)


def cluster_map(fn: Callable, items: Sequence, what: str, shared: Any, client) -> Iterator:
    """``fn(shared, item)`` (``fn(item)`` without ``shared``) for every item, computed on the
    cluster of ``client`` and yielded in order.

    Parameters
    ----------
    fn : callable
        A module-level function (pickled by reference: the workers import compreport).
    items : sequence
        One task each, pickled.
    what : str
        The work, named in the error when a worker is lost.
    shared : object or None
        Sent once to every worker and passed to every task (the state of a bootstrap run).
    client : distributed.Client

    Raises
    ------
    InputError
        When a worker is lost (see the module docstring) or the connection to the scheduler is.
    Exception
        The first exception a task raises; the other tasks are cancelled. Closing the generator
        cancels them too.
    """
    _dask()
    items = list(items)
    sent: list = []  # the futures of the tasks and of what they share: cancelled at the end
    try:
        futures = _send(client, fn, items, shared, what, sent)
        watch = _Watch()
        for finished in range(len(futures)):
            future = _awaited(client, futures, finished, what, watch)
            result, caught = _fetched(future, finished, len(items), what)
            replay(caught)
            yield result
    finally:
        if sent:  # sent to the scheduler without waiting for it: no wait, even if it is frozen
            with contextlib.suppress(Exception):
                client.cancel(sent)


def _send(client, fn: Callable, items: list, shared: Any, what: str, sent: list) -> list:
    """A task of ``fn`` per item, spread round-robin over the cluster's workers, ``shared`` sent
    once to every worker; their futures, also added to ``sent``. A scheduler that does not take
    them is one :class:`~compreport.errors.InputError`."""
    carried = _carried()
    try:
        if shared is not None:
            try:
                [shared] = client.scatter(
                    [shared], broadcast=True, hash=False, timeout=SEND_TIMEOUT
                )
            except TimeoutError:
                raise _silent(what, 0, len(items), SEND_TIMEOUT) from None
            sent.append(shared)
        # spread round-robin over the workers there are now (a loose restriction: a task still
        # runs elsewhere if its worker is lost); left to itself the scheduler may queue every
        # task on one worker of an idle cluster
        who = client.sync(client.scheduler.identity, n_workers=-1, callback_timeout=ANSWER_TIMEOUT)
        workers = sorted((who or {}).get("workers", {})) or [None]
        futures = [
            client.submit(
                _run,
                fn,
                shared,
                item,
                carried,
                pure=False,
                workers=None if w is None else [w],
                allow_other_workers=True,
            )
            for item, w in zip(items, itertools.cycle(workers))
        ]
    except InputError:
        raise
    except TimeoutError:
        raise _silent(what, 0, len(items)) from None
    except OSError as exc:  # the connection
        raise InputError(
            f"cannot send the work to the dask scheduler while {what}: {exc}"
        ) from None
    except Exception as exc:  # what cloudpickle cannot serialize
        raise InputError(
            f"cannot send the work to the dask workers while {what}: {type(exc).__name__}: {exc}"
        ) from None
    sent.extend(futures)
    return futures


def _awaited(client, futures: list, finished: int, what: str, watch: _Watch):
    """Task ``finished`` once it has settled, or the first task after it to fail (the first
    failure stops the run at once); meanwhile the interrupts and the cluster are checked."""
    future = futures[finished]
    while True:
        interrupts.check()
        if _settled(future):
            return future
        failed = next((f for f in futures[finished:] if f.status == "error"), None)
        if failed is not None:
            return failed
        watch.check(client, what, finished, len(futures))


@dataclasses.dataclass
class _Watch:
    """Whether the cluster can still do the work of one :func:`cluster_map`: its connection is up
    and it has had a worker within :data:`NO_WORKERS_WAIT` seconds."""

    #: When the cluster was first seen without workers (:func:`time.monotonic`), if it has none.
    since: float | None = None

    def check(self, client, what: str, finished: int, total: int) -> None:
        """An :class:`~compreport.errors.InputError` when the cluster cannot do the work."""
        try:
            workers = (
                client.sync(client.scheduler.ncores, callback_timeout=ANSWER_TIMEOUT)
                if client.status == "running"
                else None
            )
        except TimeoutError:
            raise _silent(what, finished, total) from None
        except OSError:
            workers = None
        if workers is None:
            raise InputError(
                f"the connection to the dask scheduler was lost while {what} "
                f"({finished} of {total} done)"
            )
        if workers:
            self.since = None
        elif self.since is None:
            self.since = time.monotonic()
        elif time.monotonic() - self.since > NO_WORKERS_WAIT:
            raise _lost(what, finished, total, f"no worker for {NO_WORKERS_WAIT} s")


def _fetched(future, finished: int, total: int, what: str) -> tuple[Any, list]:
    """The result of a settled task and the warnings it raised, fetched from its worker through
    the scheduler (it may be large); its failure as the run's error."""
    from distributed.client import FutureCancelledError
    from distributed.scheduler import KilledWorker

    try:
        return future.result(timeout=SEND_TIMEOUT)
    except TimeoutError:
        raise _silent(what, finished, total, SEND_TIMEOUT) from None
    except KilledWorker as exc:
        raise _lost(what, finished, total, "its process ended") from exc
    except ImportError as exc:  # compreport, or what a metric file imports, missing there
        raise InputError(
            f"a dask worker could not run the work while {what}: {exc}; install "
            f"compreport {version()} with its dask extra, and what the metric files "
            f"import, on every worker"
        ) from None
    except FutureCancelledError:
        raise InputError(
            f"the dask scheduler cancelled the work while {what} ({finished} of {total} done)"
        ) from None
