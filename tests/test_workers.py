"""Stopping forked workers (issue 30's hang in ``workers._stop``): a worker terminated after an
error ends at once whatever it is doing, one that outlives SIGTERM is killed, and the pool's manager
thread has ended before the next pool forks. Real processes and real signals, in a child Python
holding the command line's SIGTERM handler, as ``compreport`` does."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Runs ``run_tasks`` in a process whose SIGTERM handler is the command line's (inherited by the
#: forked workers), prints its result or error, the seconds it took, the threads left alive and
#: the worker processes still running.
SCRIPT = """
import json, os, signal, sys, threading, time
from compreport import workers
from compreport.cli import _on_sigterm

signal.signal(signal.SIGTERM, _on_sigterm(os.getpid()))

def fail():
    time.sleep(1.5)  # the other task is under way by then
    raise ValueError("first task failed")

def busy():  # one C call: no Python-level signal handler runs until it returns (minutes)
    return sum(range(10**12))

def deaf():  # hostile code: ignores SIGTERM, then computes
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    return sum(range(10**12))

def fine(x):
    return x * x

tasks = {"busy": [(fail, ()), (busy, ())], "deaf": [(fail, ()), (deaf, ())],
         "fine": [(fine, (3,)), (fine, (4,))]}[sys.argv[1]]
start = time.monotonic()
try:
    out = workers.run_tasks(tasks, jobs=2)
except ValueError as exc:
    out = str(exc)
def parent(pid):
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(") ", 1)[1].split()[1]
    except OSError:  # ended meanwhile
        return None
children = [p for p in os.listdir("/proc") if p.isdigit() and parent(p) == str(os.getpid())]
print(json.dumps({"result": out, "seconds": time.monotonic() - start,
                  "threads": threading.active_count(), "children": children}))
"""


def _run(case: str) -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT, case],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_worker_inside_a_long_c_call_ends_at_once_when_the_run_stops():
    """A task fails while the other worker is inside one long C call: the caller's Python-level
    SIGTERM handler (inherited) could only run once the call returned, minutes later; workers die
    of SIGTERM outright, so the error comes back within a second or two, nothing left running."""
    got = _run("busy")
    assert got["result"] == "first task failed"
    assert got["seconds"] < 1.5 + 3, got
    assert got["threads"] == 1 and got["children"] == [], got


def test_worker_ignoring_sigterm_is_killed_after_the_grace_period():
    """A task that ignores SIGTERM (hostile metric code) and computes on: killed
    :data:`~compreport.workers.STOP_GRACE` seconds after the terminate, not waited for forever."""
    from compreport.workers import STOP_GRACE

    got = _run("deaf")
    assert got["result"] == "first task failed"
    assert 1.5 + STOP_GRACE - 0.5 < got["seconds"] < 1.5 + STOP_GRACE + 4, got
    assert got["threads"] == 1 and got["children"] == [], got


def test_tasks_that_succeed_under_the_same_handler():
    """The twin: the same process, tasks that succeed; their results in order, the pool's manager
    thread ended and no worker left."""
    got = _run("fine")
    assert got["result"] == [9, 16]
    assert got["threads"] == 1 and got["children"] == [], got


@pytest.mark.parametrize("jobs", [1, 2])
def test_local_pool_map_closed_early_leaves_no_thread(jobs):
    """LocalPool.map closed early (as the bootstrap does after an error) ends its pool's
    threads."""
    import threading
    from concurrent.futures.process import _ExecutorManagerThread

    from compreport import workers

    results = workers.LocalPool(jobs).map(abs, [-1, -2, -3, -4], "testing")
    assert next(results) == 1
    results.close()
    assert not [t for t in threading.enumerate() if isinstance(t, _ExecutorManagerThread)]


def test_forking_leaves_the_collector_as_the_caller_had_it():
    """The heap is frozen only while the workers fork: afterwards nothing of this process stays
    frozen; a caller that froze objects itself finds them still frozen."""
    import gc

    from compreport.workers import run_tasks

    assert gc.get_freeze_count() == 0
    assert run_tasks([(pow, (2, 3)), (pow, (3, 2))], jobs=2) == [8, 9]
    assert gc.get_freeze_count() == 0
    gc.freeze()
    try:
        mine = gc.get_freeze_count()
        assert mine > 0
        assert run_tasks([(pow, (2, 3)), (pow, (3, 2))], jobs=2) == [8, 9]
        assert gc.get_freeze_count() > 0.9 * mine  # not let go (a few were freed meanwhile)
    finally:
        gc.unfreeze()
