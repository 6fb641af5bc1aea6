"""``--scheduler`` and ``analyze(scheduler=...)``: the analysis on a dask.distributed cluster
(issue 28). The clusters are real: a LocalCluster of two worker processes started here, or the one
``--scheduler local`` starts; workers are killed with real signals."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import distributed
import numpy as np
import pytest

import compreport as cr
from compreport import distributed as crd
from compreport.errors import InputError
from conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]

#: A user metric, scored per resample on the workers (it travels to them by value); with
#: CR_MARK set, every call leaves a file named by the pid of the process scoring it, and waits.
USER_METRIC = """import os, time
def acc(y, p):
    d = os.environ.get("CR_MARK")
    if d:
        open(os.path.join(d, str(os.getpid())), "w").close()
        time.sleep(0.002)
    return float((y == p).mean())
"""


@pytest.fixture(scope="module")
def cluster():
    """A LocalCluster of two worker processes started by the test: (scheduler address, a client)."""
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address="127.0.0.1:0",  # no dashboard on 8787
            silence_logs=logging.CRITICAL,
        ) as local,
        distributed.Client(local, set_as_default=False) as client,
    ):
        yield local.scheduler_address, client


def _layout(tmp: Path, n: int = 300) -> Path:
    """gold.tsv, three runs and the user metric m.py in ``tmp``."""
    rng = np.random.default_rng(0)
    gold = rng.integers(0, 2, n)
    (tmp / "runs").mkdir()

    def write(path, labels):
        rows = "".join(f"{i}\t{'ab'[g]}\n" for i, g in enumerate(labels))
        path.write_text("id\tlabel\n" + rows, encoding="utf-8")

    write(tmp / "gold.tsv", gold)
    for name, acc in (("sysA", 0.8), ("sysB", 0.75), ("sysC", 0.7)):
        write(tmp / "runs" / f"{name}.tsv", np.where(rng.random(n) < acc, gold, 1 - gold))
    (tmp / "m.py").write_text(USER_METRIC, encoding="utf-8")
    return tmp


def _json(tmp: Path, out: str, res) -> bytes:
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr
    return (tmp / out / "results.json").read_bytes()


def _one_error(res, tmp: Path, *needles: str) -> str:
    """Exit 2, stderr one ``error:`` line holding ``needles``, no OUT and no temporary folder."""
    assert res.returncode == 2, (res.returncode, res.stderr)
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    assert not (tmp / "out").exists()
    assert not [p for p in tmp.iterdir() if p.name.startswith(".out.")]
    return lines[0]


def test_workshop_on_a_cluster_gives_the_local_results_json(cluster, two_competitions, tmp_path):
    """A workshop's competitions, one task each on a cluster of two workers: results.json byte
    for byte the one of the local pool, the same warnings in the same order (worded for the
    command line); the tasks ran on both workers."""
    address, client = cluster
    # B = 60 is too few for Holm to reject: a warning per competition
    args = ["report", str(two_competitions), "--format", "json", "-B", "60"]
    args += ["--correction", "holm", "--refine", "off"]
    local = run_cli(tmp_path, *args, "-o", "local", "--jobs", "2")
    with distributed.get_task_stream(client=client) as stream:
        remote = run_cli(tmp_path, *args, "-o", "remote", "--scheduler", address)
    results = _json(tmp_path, "remote", remote)
    assert results == _json(tmp_path, "local", local)
    assert remote.stderr == local.stderr and "use -B " in local.stderr, local.stderr
    tasks = [t for t in stream.data if t["key"].startswith("_run-")]
    assert len(tasks) == len(json.loads(results)["competitions"])
    assert len({t["worker"] for t in tasks}) == 2


@pytest.mark.parametrize("ci", ["percentile", "bca"])
def test_one_competition_draws_its_blocks_on_the_cluster(cluster, tmp_path, ci):
    """A single competition's blocks of replicates (a user metric scored per resample, and
    accuracy from per-item statistics; refinement on) as tasks of the cluster: results.json byte
    for byte the one drawn here, in one process and by forked workers."""
    address, client = cluster
    _layout(tmp_path)
    args = ["report", "gold.tsv", "--runs", "runs", "--metric", "m.py:acc,accuracy"]
    args += ["--format", "json", "-B", "1000", "--ci", ci, "-q"]
    one = run_cli(tmp_path, *args, "-o", "one")
    forked = run_cli(tmp_path, *args, "-o", "forked", "--jobs", "2")
    with distributed.get_task_stream(client=client) as stream:
        remote = run_cli(tmp_path, *args, "-o", "remote", "--scheduler", address)
    assert _json(tmp_path, "remote", remote) == _json(tmp_path, "one", one)
    assert _json(tmp_path, "forked", forked) == _json(tmp_path, "one", one)
    blocks = [t for t in stream.data if t["key"].startswith("_run-")]
    assert len(blocks) >= 4  # 1,000 replicates in blocks of 256 (more if refined)
    assert len({t["worker"] for t in blocks}) == 2


@pytest.mark.slow
def test_python_api_with_a_local_cluster_gives_the_same_analysis():
    """``analyze(..., scheduler="local", jobs=2)`` starts and closes its own LocalCluster: the
    analysis (and its warnings, worded for Python) is the one without it."""
    import warnings

    data = cr.load(ROOT / "examples" / "workshop")
    got = []
    for scheduler in (None, "local"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            a = cr.analyze(
                data, bootstrap=60, correction="holm", refine=False, jobs=2, scheduler=scheduler
            )
        got.append((a.to_json(), [str(w.message) for w in caught]))
    assert got[0] == got[1]
    assert any("use bootstrap=" in message for message in got[0][1])  # Python words, not -B


def _closed_port() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"tcp://127.0.0.1:{s.getsockname()[1]}"


@pytest.fixture
def not_a_scheduler():
    """A real TCP server on localhost that answers every connection like a web server."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def serve():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.sendall(b"HTTP/1.0 200 OK\r\nContent-Length: 5\r\n\r\nhello" * 8)
                time.sleep(0.2)

    threading.Thread(target=serve, daemon=True).start()
    yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    server.close()


@pytest.mark.parametrize("kind", ["closed-port", "web-server", "bad-address"])
def test_unreachable_scheduler_is_one_error_within_seconds(tmp_path, kind, not_a_scheduler):
    """A scheduler that does not answer (nothing listens), a server that is not a dask scheduler,
    an address dask cannot parse: one error naming the address, within the connect timeout plus
    a few seconds, before any work, OUT not written. (The twin, a reachable scheduler, is every
    test above.)"""
    address = {
        "closed-port": _closed_port(),
        "web-server": not_a_scheduler,
        "bad-address": "nonsense:::",
    }[kind]
    _layout(tmp_path)
    start = time.monotonic()
    res = run_cli(
        tmp_path, "report", "gold.tsv", "--runs", "runs", "--metric", "accuracy", "-o", "out",
        "--format", "json", "-B", "100", "--scheduler", address,
    )  # fmt: skip
    took = time.monotonic() - start
    _one_error(res, tmp_path, "cannot reach the dask scheduler", repr(address))
    assert took < crd.CONNECT_TIMEOUT + 5, took


@pytest.mark.parametrize("value", ["", "tcp://a b:1", "local\x1b[2J"])
def test_scheduler_value_must_be_an_address(tmp_path, value):
    """An empty address, one with a space or a control character: one error naming --scheduler
    (in Python, ``scheduler``); the twin, ``local`` and an address, are accepted."""
    _layout(tmp_path)
    res = run_cli(
        tmp_path, "report", "gold.tsv", "--runs", "runs", "--metric", "accuracy", "-o", "out",
        "--scheduler", value,
    )  # fmt: skip
    _one_error(res, tmp_path, "--scheduler must be 'local' or a dask scheduler address")
    with pytest.raises(InputError, match="`scheduler` must be"):
        cr.analyze(cr.load(ROOT / "examples" / "workshop" / "stance-eu"), scheduler=value)
    with pytest.raises(InputError, match="`scheduler` must be"):
        cr.analyze(cr.load(ROOT / "examples" / "workshop" / "stance-eu"), scheduler=8786)
    assert crd.check_scheduler("local") == "local"
    assert crd.check_scheduler("tcp://10.0.0.5:8786") == "tcp://10.0.0.5:8786"


def test_workers_of_another_compreport_version_are_refused(tmp_path):
    """A scheduler whose worker (a real ``dask worker`` process) imports a copy of compreport of
    another version: one error naming both versions before any work, OUT not written; the twin,
    a worker of this version on the same scheduler, runs the report."""
    import shutil

    copy = tmp_path / "other"
    shutil.copytree(ROOT / "compreport", copy / "compreport")
    (copy / "compreport" / "_version.py").write_text('__version__ = "0.0.1"\n', encoding="utf-8")
    _layout(tmp_path)
    argv = ["report", "gold.tsv", "--runs", "runs", "--metric", "accuracy", "--format", "json"]
    argv += ["-B", "100", "-o", "out"]
    with (
        distributed.LocalCluster(
            n_workers=0, host="127.0.0.1", dashboard_address="127.0.0.1:0",
            silence_logs=logging.CRITICAL,
        ) as local,
        distributed.Client(local, set_as_default=False) as client,
    ):  # fmt: skip
        for where, ok in ((copy, False), (ROOT, True)):
            worker = subprocess.Popen(
                [sys.executable, "-m", "distributed.cli.dask_worker", local.scheduler_address,
                 "--no-nanny", "--nthreads", "1", "--no-dashboard"],
                env=dict(os.environ, PYTHONPATH=str(where)),
                cwd=tmp_path,  # `-m` puts the working directory first on sys.path
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )  # fmt: skip
            try:
                client.wait_for_workers(1, timeout=120)
                res = run_cli(tmp_path, *argv, "--scheduler", local.scheduler_address)
            finally:
                worker.terminate()
                worker.wait(timeout=60)
                deadline = time.monotonic() + 60
                while client.nthreads() and time.monotonic() < deadline:
                    time.sleep(0.2)
            if ok:
                assert _json(tmp_path, "out", res)
            else:
                _one_error(res, tmp_path, "run compreport 0.0.1", f"this is {cr.__version__}")


def _report_process(tmp: Path, marks: Path, B: int) -> subprocess.Popen:
    """``compreport report`` with ``--scheduler local --jobs 2`` in a real process (its own
    cluster), the user metric marking the processes that score it."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), CR_MARK=str(marks))
    argv = ["report", "gold.tsv", "--runs", "runs", "--metric", "m.py:acc", "-o", "out"]
    argv += ["--format", "json", "-B", str(B), "--scheduler", "local", "--jobs", "2"]
    return subprocess.Popen(
        [sys.executable, "-m", "compreport", *argv],
        cwd=tmp,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.slow
@pytest.mark.parametrize("kill", [False, True], ids=["finishes", "worker-killed"])
def test_worker_killed_mid_run_is_one_error(tmp_path, kill):
    """A worker of ``--scheduler local`` killed (SIGKILL) while it scores resamples: one error line
    saying a dask worker was lost, status 2, OUT not written, and the cluster's processes gone;
    the twin, the same run left alone, writes its report."""
    _layout(tmp_path)
    marks = tmp_path / "marks"
    marks.mkdir()
    proc = _report_process(tmp_path, marks, 4000 if kill else 300)
    workers: set[int] = set()
    if kill:
        deadline = time.monotonic() + 240
        while not workers and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
            workers = {int(p.name) for p in marks.iterdir()} - {proc.pid}
        assert workers, "no worker scored a resample"
        os.kill(min(workers), signal.SIGKILL)
    out, err = proc.communicate(timeout=300)
    res = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    if not kill:
        assert res.returncode == 0 and res.stderr == "", res.stderr
        assert (tmp_path / "out" / "results.json").is_file()
        return
    _one_error(res, tmp_path, "a dask worker was lost while drawing the resamples", "of 16 done")
    assert res.stdout == ""
    time.sleep(1)
    scored = {int(p.name) for p in marks.iterdir()} - {proc.pid}
    assert not [pid for pid in scored if _alive(pid)]


def test_every_context_variable_reaches_the_workers():
    """The tasks run in the caller's context: every ContextVar of the package is carried to the
    workers (:func:`compreport.distributed._carried`)."""
    import re

    names = set()
    for path in (ROOT / "compreport").rglob("*.py"):
        names |= set(re.findall(r"ContextVar\(\s*\"(\w+)\"", path.read_text(encoding="utf-8")))
    carried = {"compreport_lang", "compreport_decimal_comma"}  # messages word no caller there
    assert names == carried
    assert set(crd._carried()) == {"lang", "comma"}


def _children(pid: int) -> list[int]:
    """The processes ``pid`` started, from any of its threads (Linux's /proc; [] elsewhere)."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            found += [int(x) for x in task.read_text(encoding="ascii").split()]
    return found


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie (which a container's init may never
    reap)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


#: Runs the command line with :data:`compreport.distributed.ANSWER_TIMEOUT` at 3 s, so that a test
#: of a frozen scheduler takes seconds.
_SHORT_TIMEOUT = (
    "import sys; import compreport.distributed as d; d.ANSWER_TIMEOUT = 3; "
    "from compreport.cli import run; sys.argv = ['compreport', *sys.argv[1:]]; run()"
)


@pytest.mark.slow
@pytest.mark.parametrize("freeze", [True, False], ids=["frozen", "left-alone"])
def test_frozen_scheduler_is_one_error_within_the_answer_timeout(tmp_path, freeze):
    """A real ``dask scheduler`` process stopped with SIGSTOP while its worker scores resamples
    (the connection stays open, nothing answers): one error line saying the scheduler did not
    answer, status 2, within the answer timeout (3 s here) plus the close timeout and a few
    seconds, OUT not written. The twin, the scheduler left alone, writes the report."""
    _layout(tmp_path)
    marks = tmp_path / "marks"
    marks.mkdir()
    env = dict(os.environ, PYTHONPATH=str(ROOT), CR_MARK=str(marks))
    quiet = {
        "cwd": tmp_path,
        "env": env,
        "stdout": subprocess.DEVNULL,
        "stderr": subprocess.DEVNULL,
    }
    where = tmp_path / "scheduler.json"
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
         "--port", "0", "--no-dashboard", "--scheduler-file", str(where)], **quiet,
    )  # fmt: skip
    worker = None
    try:
        deadline = time.monotonic() + 120
        while not where.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.5)  # the file is written whole
        address = json.loads(where.read_text(encoding="utf-8"))["address"]
        worker = subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", address, "--no-nanny",
             "--nthreads", "1", "--no-dashboard"], **quiet,
        )  # fmt: skip
        with distributed.Client(address, set_as_default=False, timeout=60) as client:
            client.wait_for_workers(1, timeout=120)
        argv = ["report", "gold.tsv", "--runs", "runs", "--metric", "m.py:acc", "-o", "out"]
        argv += ["--format", "json", "-B", "4000" if freeze else "300", "--scheduler", address]
        proc = subprocess.Popen(
            [sys.executable, "-c", _SHORT_TIMEOUT, *argv], cwd=tmp_path, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        if freeze:
            while not [p for p in marks.iterdir() if int(p.name) != proc.pid]:
                assert proc.poll() is None and time.monotonic() < deadline, "nothing was scored"
                time.sleep(0.05)
            os.kill(scheduler.pid, signal.SIGSTOP)
        start = time.monotonic()
        try:
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            pytest.fail("compreport still waited for the frozen scheduler after 60 s")
        took = time.monotonic() - start
    finally:
        os.kill(scheduler.pid, signal.SIGCONT)
        for p in (worker, scheduler):
            if p is not None:
                p.terminate()
                p.wait(timeout=60)
    res = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    if not freeze:
        assert _json(tmp_path, "out", res)
        return
    _one_error(res, tmp_path, "the dask scheduler did not answer for 3 s", "drawing the resamples")
    assert took < 3 + crd.CLOSE_TIMEOUT + 10, took


@pytest.mark.slow
@pytest.mark.parametrize("when", ["starting", "scoring"])
def test_sigterm_under_local_is_one_error_line(tmp_path, when):
    """SIGTERM while ``--scheduler local`` starts its cluster, or while its workers score
    resamples: status 143 and the one line ``error: terminated (SIGTERM)``, no dask log line, no
    traceback, no leaked-semaphore warning of an abandoned worker start; the cluster's processes
    gone. (The twin, the same run left alone, is test_worker_killed_mid_run_is_one_error.)"""
    _layout(tmp_path)
    marks = tmp_path / "marks"
    marks.mkdir()
    proc = _report_process(tmp_path, marks, 4000)
    deadline = time.monotonic() + 240
    started: list[int] = []
    while time.monotonic() < deadline and proc.poll() is None:
        scored = [p for p in marks.iterdir() if int(p.name) != proc.pid]
        started = _children(proc.pid)
        if (when == "scoring" and scored) or (when == "starting" and started and not scored):
            break
        time.sleep(0.02)
    assert proc.poll() is None, proc.communicate()
    if when == "starting":
        assert started, "the cluster's start was not seen"
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 143, err
    assert err == "error: terminated (SIGTERM)\n", err
    assert out == ""
    assert not (tmp_path / "out").exists()
    deadline = time.monotonic() + 30
    while [pid for pid in started if _running(pid)] and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [pid for pid in started if _running(pid)]


@pytest.mark.parametrize("quieted", [True, False])
def test_dask_log_lines_never_reach_the_terminal(quieted):
    """After :func:`compreport.distributed._quiet` (run by every connection), a CRITICAL line of
    any ``distributed`` logger, including one dask's configuration gave a level of its own
    (``distributed.client``) or one made later, prints nothing; the twin, without it, prints."""
    code = (
        "import logging, distributed\n"
        + ("from compreport.distributed import _quiet; _quiet()\n" if quieted else "")
        + "for name in ('distributed.client', 'distributed.nanny', 'distributed.new.one'):\n"
        "    logging.getLogger(name).critical('CRITICAL from %s', name)\n"
    )
    res = subprocess.run(
        [sys.executable, "-c", code], env=dict(os.environ, PYTHONPATH=str(ROOT)),
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    if quieted:
        assert res.stderr == ""
    else:
        assert res.stderr.count("CRITICAL from") == 3, res.stderr
