"""The output directory contract, each case with what the user sees.

compreport writes only into a new or empty OUT, or one holding its manifest ``.compreport.json``
(``--force`` replaces only the files it lists; other files stay, named in one ``note:`` line); an
unmarked non-empty OUT, an OUT that is or holds an input, and ``-o .`` are refused with nothing
deleted; the report is swapped in from a sibling temporary directory, under the lock ``.OUT.lock``;
every failure (an OS error, Ctrl-C, SIGTERM, a full disk) leaves the previous OUT and no temporary
directory; the temporaries of a killed run are cleared by the next one.

Cases run the command line's ``main()`` in this process (:func:`conftest.run_cli`, cwd =
tmp_path, ``--format json -B 20``); signals, SIGKILL, a lock held by a second run, read-only
folders (for root: a mount namespace) and a full tiny tmpfs need a real ``python -m compreport``
process. A full disk is also simulated in-process (a write raising ENOSPC).
"""

from __future__ import annotations

import errno
import json
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import COMP, GOLD, RUN_A, RUN_B, json_only, json_only_top, run_cli, said, write

WIDE = "id,y,A,B\n1,a,a,b\n2,b,b,b\n3,a,a,a\n4,b,a,b\n"
#: A user metric slow enough to signal a run in the middle of its bootstrap.
SLOW = "import time\ndef slow(y, p):\n    time.sleep(0.01)\n    return float((y == p).mean())\n"
ENV = os.environ | {
    "PYTHONIOENCODING": "utf-8",
    "PYTHONPATH": str(Path(__file__).resolve().parent.parent),
}


def competition(folder: Path) -> None:
    """folder/competition.toml with gold.tsv and runs/sysA.tsv, runs/sysB.tsv."""
    write(folder, "competition.toml", COMP)
    write(folder, "gold.tsv", GOLD)
    write(folder, "runs/sysA.tsv", RUN_A)
    write(folder, "runs/sysB.tsv", RUN_B)


def cmd(*args: str, out: str = "out", B: str = "20") -> list[str]:
    return [
        sys.executable,
        "-m",
        "compreport",
        "report",
        *args,
        "-o",
        out,
        "-B",
        B,
        "--format",
        "json",
    ]


def cli(tmp: Path, *args: str, out: str = "out", B: str = "20") -> subprocess.CompletedProcess:
    """The CLI in this process (:func:`conftest.run_cli`); tests of signals, locks held by other
    processes and full disks start real processes (:func:`cmd`)."""
    return run_cli(tmp, *cmd(*args, out=out, B=B)[3:])


def wide(tmp: Path, *args: str, out: str = "out") -> subprocess.CompletedProcess:
    """``report wide.csv --id id --metric accuracy ARGS -o OUT -B 20 --format json`` (writes
    wide.csv)."""
    write(tmp, "wide.csv", WIDE)
    return cli(tmp, "wide.csv", "--id", "id", "--metric", "accuracy", *args, out=out)


def lines(res) -> list[str]:
    return said(res.stderr)


def error(res, *needles: str) -> str:
    """Exit 2, one stderr line ``error: ...`` holding the needles, no traceback, nothing on
    stdout."""
    assert "Traceback" not in res.stderr, res.stderr
    assert res.returncode == 2, (res.returncode, res.stderr)
    got = lines(res)
    assert len(got) == 1 and got[0].startswith("error: "), res.stderr
    for needle in needles:
        assert needle in got[0], (needle, got[0])
    assert res.stdout == ""
    return got[0]


def ok(res) -> None:
    assert res.returncode == 0 and "Traceback" not in res.stderr and "error:" not in res.stderr, (
        res.stderr
    )


def snapshot(directory: Path) -> dict[str, bytes | None]:
    """Every file (bytes) and folder (None) under ``directory``, hidden ones included."""
    return {
        str(p.relative_to(directory)): (p.read_bytes() if p.is_file() else None)
        for p in sorted(directory.rglob("*"))
    }


def temporaries(folder: Path, out: str = "out") -> list[str]:
    """compreport's own entries beside OUT: temporary folders, replaced OUTs, the lock."""
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(f".{out}."))


def manifest(out: Path) -> dict:
    return json.loads((out / ".compreport.json").read_text(encoding="utf-8"))


def dead_pid() -> int:
    """The pid of a process that has ended (and been reaped)."""
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


# ------------------------------------------------------------------------ the manifest and --force


def test_manifest_lists_every_file_written_last(tmp_path):
    ok(wide(tmp_path))
    out = tmp_path / "out"
    m = manifest(out)
    assert m["tool"]["name"] == "compreport" and m["tool"]["version"]
    assert (
        sorted(m["files"]) == json_only("wide")
        and m["formats"] == ["json"]
        and m["settings"]["bootstrap"] == 20
    )
    assert sorted(p.name for p in out.iterdir()) == json_only_top("wide")
    assert temporaries(tmp_path) == []


def test_force_keeps_unrelated_files_and_names_them_in_one_note(tmp_path):
    ok(wide(tmp_path))
    write(tmp_path, "out/main.tex", "\\documentclass{article}\n")
    write(tmp_path, "out/notes/todo.txt", "cite the paper\n")
    before = (tmp_path / "out/results.json").read_bytes()
    res = wide(tmp_path, "--seed", "7", "--force")
    ok(res)
    assert lines(res) == ["note: kept in out what compreport did not write: main.tex, notes/"]
    out = tmp_path / "out"
    assert (out / "main.tex").read_text() == "\\documentclass{article}\n"
    assert (out / "notes/todo.txt").read_text() == "cite the paper\n"
    assert (out / "results.json").read_bytes() != before  # replaced: the seed differs
    assert sorted(manifest(out)["files"]) == json_only("wide")  # the kept files stay the user's
    assert temporaries(tmp_path) == []


def test_force_replaces_only_listed_files(tmp_path):
    """Files of the earlier report that this one does not write go; the user's stay."""
    ok(wide(tmp_path))
    out = tmp_path / "out"
    m = manifest(out)
    m["files"].append("c-old/tables/x.tex")  # as if an earlier report had written it
    write(tmp_path, "out/c-old/tables/x.tex", "old table\n")
    write(tmp_path, "out/c-old/mine.txt", "mine\n")
    (out / ".compreport.json").write_text(json.dumps(m), encoding="utf-8")
    ok(wide(tmp_path, "--force"))
    assert not (out / "c-old/tables").exists()
    assert (out / "c-old/mine.txt").read_text() == "mine\n"
    assert temporaries(tmp_path) == []


def test_earlier_report_needs_force(tmp_path):
    ok(wide(tmp_path))
    before = snapshot(tmp_path / "out")
    error(wide(tmp_path), "out", "holds an earlier report", "--force", "any other file is kept")
    assert snapshot(tmp_path / "out") == before and temporaries(tmp_path) == []


@pytest.mark.parametrize("force", [(), ("--force",)])
def test_unmarked_non_empty_directory_is_refused_even_with_force(tmp_path, force):
    write(tmp_path, "out/main.tex", "mine\n")
    write(tmp_path, "out/notes/todo.txt", "mine too\n")
    write(tmp_path, "out/a.txt", "a\n")
    write(tmp_path, "out/b.txt", "b\n")
    before = snapshot(tmp_path / "out")
    msg = error(
        wide(tmp_path, *force),
        "out",
        "not empty",
        "compreport did not write it",
        "a.txt, b.txt, main.tex and 1 more",
        ".compreport.json",
        "even with --force",
    )
    assert snapshot(tmp_path / "out") == before and temporaries(tmp_path) == []
    assert "notes/" not in msg  # a few names, not all


def test_empty_directory_is_used_without_force(tmp_path):
    (tmp_path / "out").mkdir()
    ok(wide(tmp_path))
    assert (tmp_path / "out/results.json").is_file()


def test_manifest_that_is_not_compreports_is_refused(tmp_path):
    write(
        tmp_path,
        "out/.compreport.json",
        json.dumps({"tool": {"name": "compreport"}, "files": ["../wide.csv"]}),
    )
    write(tmp_path, "out/keep.txt", "x\n")
    before = snapshot(tmp_path / "out")
    error(wide(tmp_path, "--force"), ".compreport.json", "not a compreport manifest")
    assert snapshot(tmp_path / "out") == before and (tmp_path / "wide.csv").is_file()


def test_user_file_where_the_report_writes_one_refuses_the_swap(tmp_path):
    """A file compreport did not write, with the name of one it writes: refused, nothing changed."""
    ok(wide(tmp_path))
    out = tmp_path / "out"
    (out / ".compreport.json").write_text(
        json.dumps(manifest(out) | {"files": []}), encoding="utf-8"
    )
    before = snapshot(out)
    error(
        wide(tmp_path, "--force"),
        "results.json",
        "not written by compreport",
        "nothing was changed",
    )
    assert snapshot(out) == before and temporaries(tmp_path) == []


# ------------------------------------------------------------------- -o at an input, its parent, .


def test_output_at_the_input_folder_its_parent_and_dot_is_refused(tmp_path):
    competition(tmp_path / "c1")
    before = snapshot(tmp_path)
    for out, words in (("c1", ("-o c1", "is the input c1")), (".", ("-o .", "holds the input c1"))):
        for force in ((), ("--force",)):
            error(
                cli(tmp_path, "c1", *force, out=out),
                *words,
                "write the report to a folder of its own",
            )
    error(cli(tmp_path, "c1", "--force", out="c1/runs"), "c1/runs", "compreport did not write it")
    sub = tmp_path / "sub"
    sub.mkdir()
    error(cli(sub, "../c1", "--force", out=".."), "-o ..", "holds the input ../c1")
    sub.rmdir()
    assert snapshot(tmp_path) == before


def test_output_holding_a_file_a_spec_names_is_refused_before_the_analysis(tmp_path):
    """Data saved into an earlier report's folder, named by a spec elsewhere: the arguments do not
    show it, the spec does; refused before its runs folder is read (so before any resampling:
    -B 10^8 would be refused for memory)."""
    ok(wide(tmp_path))
    competition(tmp_path / "out")
    (tmp_path / "out/competition.toml").unlink()
    write(
        tmp_path,
        "spec/competition.toml",
        COMP.replace('"gold.tsv"', '"../out/gold.tsv"').replace('"runs"', '"../out/runs"'),
    )
    before = snapshot(tmp_path)
    error(
        cli(tmp_path, "spec", "--force", B="100000000"),
        "-o out",
        "holds the input spec/../out/runs;",
    )
    assert snapshot(tmp_path) == before


def test_output_at_a_user_metric_file_folder_is_refused(tmp_path):
    write(tmp_path, "metrics/m.py", "def acc(y, p):\n    return float((y == p).mean())\n")
    write(tmp_path, "wide.csv", WIDE)
    error(
        cli(tmp_path, "wide.csv", "--id", "id", "--metric", "metrics/m.py:acc", out="metrics"),
        "-o metrics",
        "holds the input metrics/m.py",
    )


def test_output_holding_the_names_file_is_refused_before_it_is_read(tmp_path):
    """A names file saved into an earlier report's folder: refused as an input before it is read
    (its own problems, here no header, are not what the user is told)."""
    ok(wide(tmp_path))
    competition(tmp_path / "c1")
    write(tmp_path, "out/names.tsv", "not a names file\n")
    before = snapshot(tmp_path)
    error(
        cli(
            tmp_path,
            "c1/gold.tsv",
            "--runs",
            "c1/runs",
            "--metric",
            "accuracy",
            "--names",
            "out/names.tsv",
            "--force",
        ),
        "-o out",
        "holds the input out/names.tsv",
    )
    assert snapshot(tmp_path) == before


def test_output_inside_a_runs_folder_is_refused_before_any_work(tmp_path):
    """A runs folder is read whole: an OUT inside it (--runs, or a spec's [data] runs), or where a
    runs glob reaches, is one error naming -o and the folder, with nothing written (no lock listed
    among the runs); an earlier report already there is not read as a team folder first. A glob
    that cannot match in OUT, a spec's folder (the gold's) and a folder of competition folders may
    hold OUT."""
    competition(tmp_path / "c1")
    runs = tmp_path / "c1" / "runs"
    before = snapshot(tmp_path)
    for args, out, words in (
        (("c1/gold.tsv", "--runs", "c1/runs"), "c1/runs/out", "inside the runs folder c1/runs ("),
        (
            ("c1/gold.tsv", "--runs", str(runs)),
            str(runs / "team" / "out"),
            f"inside the runs folder {runs} (",
        ),
        (
            ("c1/gold.tsv", "--runs", "c1/runs/*"),
            "c1/runs/out",
            "the runs glob 'c1/runs/*' can match",
        ),
        (("c1/gold.tsv", "--runs", "c1/*/*"), "c1/runs/out", "the runs glob 'c1/*/*' can match"),
        (("c1",), "c1/runs/out", "inside the runs folder c1/runs ("),
    ):
        error(cli(tmp_path, *args, "--metric", "accuracy", out=out), f"-o {out}: ", words)
        assert snapshot(tmp_path) == before, args
    # an earlier report in the runs folder (a glob of .tsv files reads none of it, so it may be
    # written)
    for force in ((), ("--force",)):
        ok(
            cli(
                tmp_path,
                "c1/gold.tsv",
                "--runs",
                "c1/runs/*.tsv",
                "--metric",
                "accuracy",
                *force,
                out="c1/runs/out",
            )
        )
    error(
        cli(tmp_path, "c1", "--force", out="c1/runs/out"),
        "-o c1/runs/out: ",
        "inside the runs folder c1/runs (",
    )
    shutil.rmtree(runs / "out")
    for args, out in (
        (("c1",), "c1/out"),
        (("c1/gold.tsv", "--runs", "c1/runs", "--metric", "accuracy"), "out"),
        ((".",), "all"),
    ):
        for force in ((), ("--force",)):
            ok(cli(tmp_path, *args, *force, out=out))
    assert [
        temporaries(tmp_path / d, o) for d, o in (("c1", "out"), (".", "out"), (".", "all"))
    ] == [[]] * 3


@pytest.mark.parametrize(
    "runs, out, read",
    [
        ("runs", "runs/out", True),
        ("runs", "runs/a/b/out", True),
        ("runs", "runsx/out", False),
        ("runs/a.tsv", "runs/out", False),
        ("runs/*.tsv", "runs/out", False),
        ("runs/*", "runs/out", True),
        ("r?ns", "runs/out", True),
        ("*/x.tsv", "out", True),  # out/x.tsv, saved there, would be a run
        ("**/*.tsv", "out", True),
        ("runs/**", "runs/a/b/out", True),
        ("runs/*", "runs/.hidden/out", False),
        ("link", "runs/out", True),
        ("link/*", "runs/out", True),
        ("runs/*", "other/out", False),
        ("runs[v2]", "runs[v2]/out", True),
        ("runs[v2]/*.tsv", "runs[v2]/out", False),
    ],
)
def test_where_runs_are_read(tmp_path, runs, out, read):
    """A folder is read whole; a glob (as glob.glob(recursive=True) reads it) where it can match
    OUT, a folder above it or a path below it; through symbolic links. A folder named like a
    pattern (``runs[v2]``) is a folder, as find_runs reads it, not a pattern matching nothing."""
    from compreport.output.overlap import reaches

    (tmp_path / "runs").mkdir()
    (tmp_path / "runs[v2]").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "runs")
    assert reaches(str(tmp_path / runs), str(tmp_path / out)) is read


def test_python_api_refuses_an_output_inside_the_runs_folder(tmp_path, monkeypatch):
    """Report.write knows the runs folders cr.load read (not those of an analysis read back from
    results.json, which names files only)."""
    import compreport as cr
    from compreport.errors import OutputError

    competition(tmp_path / "c1")
    monkeypatch.chdir(tmp_path)
    for analysis in (
        cr.analyze(cr.load("c1"), bootstrap=20),
        cr.analyze(cr.load("c1/gold.tsv", runs="c1/runs", metrics="accuracy"), bootstrap=20),
    ):
        before = snapshot(tmp_path)
        with pytest.raises(
            OutputError,
            match=r"^out_dir='c1/runs/x/out': the output directory is inside the runs "
            r"folder c1/runs \(",
        ):
            cr.Report(analysis).write("c1/runs/x/out", "json")
        assert snapshot(tmp_path) == before
    cr.Report(analysis).write("c1/out", "json")


def test_load_refuses_runs_read_where_the_output_directory_lies(tmp_path, monkeypatch):
    """cr.load(out_dir=) refuses a runs folder (given, or a spec's) that reaches the output
    directory before reading it, in Python words; elsewhere it reads them."""
    import compreport as cr
    from compreport.errors import OutputError

    competition(tmp_path / "c1")
    monkeypatch.chdir(tmp_path)
    before = snapshot(tmp_path)
    for args, kw in ((("c1",), {}), (("c1/gold.tsv",), {"runs": "c1/runs", "metrics": "accuracy"})):
        with pytest.raises(
            OutputError,
            match=r"^out_dir='c1/runs/out': the output directory is inside the runs folder "
            r"c1/runs \(",
        ):
            cr.load(*args, **kw, out_dir="c1/runs/out")
        assert snapshot(tmp_path) == before
        assert len(cr.load(*args, **kw, out_dir=tmp_path / "out").competitions) == 1


def test_load_checks_each_runs_folder_against_the_output_once(tmp_path, monkeypatch):
    """The run readers know nothing of OUT: cr.load checks each runs folder (given, or a spec's)
    once, before it is read (it was checked up to three times, inside the readers)."""
    import compreport as cr
    from compreport.output import overlap

    competition(tmp_path / "c1")
    monkeypatch.chdir(tmp_path)
    checked = []
    monkeypatch.setattr(overlap, "check_runs", lambda runs, out_dir: checked.append(runs))
    for args, kw in ((("c1",), {}), (("c1/gold.tsv",), {"runs": "c1/runs", "metrics": "accuracy"})):
        checked.clear()
        cr.load(*args, **kw, out_dir=tmp_path / "out")
        assert len(checked) == 1, checked
        assert os.path.samefile(checked[0], "c1/runs")


def test_dot_is_refused_even_when_it_holds_no_input(tmp_path):
    write(tmp_path, "data/wide.csv", WIDE)
    run_dir = tmp_path / "empty"
    run_dir.mkdir()
    error(
        cli(run_dir, "../data/wide.csv", "--id", "id", "--metric", "accuracy", "--force", out="."),
        "-o .",
        "is the current directory",
    )
    assert list(run_dir.iterdir()) == [] and temporaries(tmp_path, "empty") == []


def test_python_api_refuses_an_input_folder_in_its_own_words(tmp_path, monkeypatch):
    import compreport as cr
    from compreport.errors import OutputError

    competition(tmp_path / "c1")
    monkeypatch.chdir(tmp_path)
    analysis = cr.analyze(cr.load("c1"), bootstrap=20)
    before = snapshot(tmp_path)
    for out in ("c1", tmp_path / "c1" / "runs"):
        with pytest.raises(
            OutputError, match="out_dir=.*the output directory (is|holds) the input"
        ):
            cr.Report(analysis).write(out, "json", force=True)
    with pytest.raises(OutputError, match="out_dir='.': the output directory"):
        cr.Report(analysis).write(".", "json", force=True)
    assert snapshot(tmp_path) == before
    cr.Report(analysis).write("out", "json")
    with pytest.raises(OutputError, match="pass force=True"):
        cr.Report(analysis).write("out", "json")


# --------------------------------------------------------------------------- symlinks


def test_symlinked_output_replaces_the_target_and_keeps_the_link(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "out").symlink_to("real", target_is_directory=True)
    ok(wide(tmp_path))
    ok(wide(tmp_path, "--seed", "3", "--force"))
    assert (tmp_path / "out").is_symlink() and os.readlink(tmp_path / "out") == "real"
    assert json.loads((tmp_path / "real/results.json").read_text())["settings"]["seed"] == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "out",
        "real",
        "wide.csv",
    ]  # no .out.old-*, no .real.*


def test_output_that_is_a_file_or_a_link_to_one(tmp_path):
    write(tmp_path, "afile", "mine\n")
    error(wide(tmp_path, out="afile"), "afile", "exists and is not a directory")
    (tmp_path / "link").symlink_to("afile")
    error(wide(tmp_path, out="link"), "link", "exists and is not a directory")
    assert (tmp_path / "afile").read_text() == "mine\n"


# ------------------------------------------------------------ OS failures: one error: line, exit 2


def _can_mount() -> bool:
    if os.geteuid() != 0 or not shutil.which("unshare") or not shutil.which("mount"):
        return False
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=16k tmpfs /mnt"], capture_output=True
    )
    return probe.returncode == 0


CAN_MOUNT = _can_mount()


def readonly(tmp: Path, folder: Path, args: list[str]) -> subprocess.CompletedProcess:
    """Run ``args`` with ``folder`` read-only: chmod a-w for a user, a read-only bind mount (in a
    mount namespace of its own) for root, whom permission bits do not stop."""
    if os.geteuid() != 0:
        mode = folder.stat().st_mode
        folder.chmod(0o555)
        try:
            return subprocess.run(
                args, cwd=tmp, capture_output=True, text=True, timeout=120, env=ENV
            )
        finally:
            folder.chmod(mode)
    if not CAN_MOUNT:
        pytest.skip(
            "running as root, where chmod does not restrict, and cannot mount a read-only folder"
        )
    script = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"'
    return subprocess.run(
        ["unshare", "-m", "sh", "-c", script, "sh", str(folder), *args],
        cwd=tmp,
        capture_output=True,
        text=True,
        timeout=120,
        env=ENV,
    )


def test_read_only_parent(tmp_path):
    write(tmp_path, "wide.csv", WIDE)
    (tmp_path / "ro").mkdir()
    res = readonly(
        tmp_path,
        tmp_path / "ro",
        cmd("wide.csv", "--id", "id", "--metric", "accuracy", out="ro/out"),
    )
    error(res, "ro/out", "cannot write in", "ro")
    assert list((tmp_path / "ro").iterdir()) == []


def test_read_only_target_with_force(tmp_path):
    ok(wide(tmp_path))
    before = snapshot(tmp_path / "out")
    res = readonly(
        tmp_path, tmp_path / "out", cmd("wide.csv", "--id", "id", "--metric", "accuracy", "--force")
    )
    error(res, "out", "not writable")
    assert snapshot(tmp_path / "out") == before and temporaries(tmp_path) == []


def test_output_parent_that_is_a_file(tmp_path):
    write(tmp_path, "afile", "mine\n")
    error(wide(tmp_path, out="afile/out"), "afile/out", "Not a directory")
    assert (tmp_path / "afile").read_text() == "mine\n"


def _full_disk(monkeypatch, target: str, wrap: bool = False):
    """Opening a file called ``target`` for writing (every writer opens through
    :mod:`compreport.output.files`) raises ENOSPC (``wrap``: as matplotlib does, an AttributeError
    raised while handling it)."""
    from compreport.output import files

    real = files._open_fd

    def open_fd(path, *args, **kwargs):
        if pathlib.Path(path).name == target and ".out.tmp-" in str(path):
            try:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
            except OSError:
                if wrap:  # as matplotlib does, while handling the OSError (no `from`)
                    raise AttributeError("'NoneType' object has no attribute 'close'")  # noqa: B904
                raise
        return real(path, *args, **kwargs)

    monkeypatch.setattr(files, "_open_fd", open_fd)


@pytest.mark.parametrize(
    "target, wrap", [("results.json", False), ("results.json", True), (".compreport.json", False)]
)
def test_disk_full_keeps_the_previous_output(tmp_path, monkeypatch, capsys, target, wrap):
    from compreport.cli import main

    write(tmp_path, "wide.csv", WIDE)
    monkeypatch.chdir(tmp_path)
    args = [
        "report",
        "wide.csv",
        "--id",
        "id",
        "--metric",
        "accuracy",
        "-o",
        "out",
        "-B",
        "20",
        "--format",
        "json",
    ]
    assert main(args) == 0
    before = snapshot(tmp_path / "out")
    capsys.readouterr()
    _full_disk(monkeypatch, target, wrap)
    assert main([*args, "--seed", "5", "--force"]) == 2
    err = said(capsys.readouterr().err)
    assert err == [
        f"error: out: cannot write the report (No space left on device: {target}); "
        f"the previous output is unchanged"
    ]
    assert snapshot(tmp_path / "out") == before and temporaries(tmp_path) == []


@pytest.mark.skipif(not CAN_MOUNT, reason="needs root and mount namespaces for a tiny tmpfs")
def test_disk_full_on_a_tiny_file_system(tmp_path):
    """A real full disk: a 1 MiB tmpfs holding an earlier report, filled but for two pages."""
    write(tmp_path, "wide.csv", WIDE)
    (tmp_path / "disk").mkdir()
    run = " ".join(
        f"'{a}'"
        for a in cmd(
            str(tmp_path / "wide.csv"), "--id", "id", "--metric", "accuracy", out="disk/out", B="20"
        )[:-2]
    )
    script = (
        f"mount -t tmpfs -o size=1m tmpfs disk && {run} --format json >/dev/null && i=0 && "
        f"while head -c 4096 /dev/zero > disk/fill$i 2>/dev/null; do i=$((i+1)); done && "
        f"rm disk/fill0 disk/fill1 && {run} --format json --force --seed 9; "
        f'echo "rc=$?"; ls -a disk; '
        f"cat disk/out/results.json"
    )
    res = subprocess.run(
        ["unshare", "-m", "sh", "-c", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env=ENV,
    )
    assert "Traceback" not in res.stderr, res.stderr
    assert "rc=2" in res.stdout, (res.stdout, res.stderr)
    err = said(res.stderr)
    assert (
        len(err) == 1
        and err[0].startswith("error: disk/out: ")
        and "No space left on device" in err[0]
    ), err
    after = res.stdout.split("rc=2", 1)[1]
    assert not [
        x for x in after.split("{", 1)[0].split() if x.startswith(".out.")
    ]  # no temporary folder, no lock
    results = json.loads(after[after.index("{") :])  # the previous results.json, whole
    assert results["settings"]["seed"] == 0


# ------------------------------------------------------------ signals, stale temporaries, the lock


def _start(tmp: Path, *args: str, B: str) -> subprocess.Popen:
    return subprocess.Popen(
        cmd(*args, B=B), cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV
    )


def _wait_for(tmp: Path, proc: subprocess.Popen, ready) -> None:
    deadline = time.monotonic() + 60
    while not ready():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the run never started writing"
        time.sleep(0.01)


def _staging(tmp: Path) -> list[Path]:
    return [p for p in tmp.iterdir() if p.name.startswith(".out.tmp-")]


@pytest.mark.parametrize(
    "sig, status, line",
    [
        (signal.SIGINT, 130, "error: interrupted"),
        (signal.SIGTERM, 143, "error: terminated (SIGTERM)"),
    ],
)
def test_signal_during_the_bootstrap_keeps_the_previous_output(tmp_path, sig, status, line):
    ok(wide(tmp_path))
    before = snapshot(tmp_path / "out")
    write(tmp_path, "slow.py", SLOW)
    proc = _start(
        tmp_path, "wide.csv", "--id", "id", "--metric", "slow.py:slow", "--force", B="5000"
    )
    _wait_for(tmp_path, proc, lambda: _staging(tmp_path))
    time.sleep(0.3)  # into the resampling
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == status, err
    assert said(err) == [line] and out == ""
    assert snapshot(tmp_path / "out") == before and temporaries(tmp_path) == []


@pytest.mark.parametrize(
    "sig, status, line",
    [
        (signal.SIGINT, 130, "error: interrupted"),
        (signal.SIGTERM, 143, "error: terminated (SIGTERM)"),
    ],
)
def test_signal_before_the_run_or_after_it_is_one_line(tmp_path, sig, status, line):
    """The ``compreport`` command handles signals before the package is imported and after the run
    restores its handlers: a signal then is one line and the status, not a traceback or silence."""
    code = (
        "import os, sys, compreport_entry; compreport_entry.install(); "
        f"os.kill(os.getpid(), {int(sig)}); import compreport.cli; sys.exit(0)"
    )
    res = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        env=ENV,
    )
    assert (res.returncode, said(res.stderr), res.stdout) == (status, [line], "")
    ok(wide(tmp_path))  # after a whole run in this process, the entry's handlers are back
    code = (
        "import os, sys, compreport_entry; compreport_entry.install(); "
        "from compreport.cli import main; "
        "assert main(['report', 'wide.csv', '--id', 'id', '--metric', 'accuracy', '-o', 'o2', "
        "'-B', '20', '--format', 'json', '-q']) == 0; "
        f"os.kill(os.getpid(), {int(sig)}); sys.exit(0)"
    )
    res = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        env=ENV,
    )
    assert (res.returncode, said(res.stderr)) == (status, [line]) and (
        tmp_path / "o2" / "results.json"
    ).is_file()


def test_sigint_during_rendering_keeps_the_previous_output(tmp_path):
    """results.json is in the temporary folder, the figures are being drawn: Ctrl-C."""
    ok(wide(tmp_path))
    before = snapshot(tmp_path / "out")
    proc = subprocess.Popen(
        [
            *cmd("wide.csv", "--id", "id", "--metric", "accuracy", "--force")[:-2],
            "--format",
            "latex",
            "--no-compile",
            "--figure-formats",
            "pdf",
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    _wait_for(
        tmp_path, proc, lambda: any((p / "results.json").exists() for p in _staging(tmp_path))
    )
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert said(err) == ["error: interrupted"]
    assert snapshot(tmp_path / "out") == before and temporaries(tmp_path) == []


def _working_in(folder: Path) -> list[str]:
    """Command lines of the processes whose working directory is under ``folder`` (Linux /proc)."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and Path(os.readlink(proc / "cwd")).is_relative_to(folder):
                found.append(
                    (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                )
        except OSError:
            continue
    return found


@pytest.mark.skipif(
    shutil.which("latexmk") is None or not Path("/proc/self/cwd").exists(),
    reason="needs latexmk and /proc",
)
def test_sigterm_while_latexmk_compiles_stops_it_and_keeps_the_previous_output(tmp_path):
    """latexmk compiles the appendix in the background while the HTML is made: SIGTERM then ends
    the run with one error line, the previous OUT and no temporary folder (stopping latexmk itself:
    test_a_stopped_appendix_build_leaves_no_process)."""
    ok(wide(tmp_path))
    before = snapshot(tmp_path / "out")
    proc = subprocess.Popen(
        [
            *cmd("wide.csv", "--id", "id", "--metric", "accuracy", "--force")[:-2],
            "--format",
            "latex,html",
            "--figure-formats",
            "pdf,svg",
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    _wait_for(
        tmp_path,
        proc,
        lambda: any("pdflatex" in c or "latexmk" in c for c in _working_in(tmp_path)),
    )
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert said(err) == ["error: terminated (SIGTERM)"]
    assert snapshot(tmp_path / "out") == before and temporaries(tmp_path) == []


@pytest.mark.skipif(
    shutil.which("latexmk") is None or not Path("/proc/self/cwd").exists(),
    reason="needs latexmk and /proc",
)
def test_a_stopped_appendix_build_leaves_no_process(tmp_path):
    """``AppendixBuild.stop`` (what an interrupted report runs) kills latexmk and its pdflatex."""
    from compreport.report.latex.appendix import start_compile

    (tmp_path / "appendix.tex").write_text(
        "\\documentclass{article}\\begin{document}\\def\\spin{\\spin}\\spin\\end{document}\n",
        encoding="utf-8",
    )  # expands forever
    build = start_compile(tmp_path)
    deadline = time.monotonic() + 30
    while not any("pdflatex" in c for c in _working_in(tmp_path)):
        assert build.proc.poll() is None and time.monotonic() < deadline
        time.sleep(0.02)
    build.stop()
    assert build.proc.returncode not in (
        None,
        0,
    )  # stopped (latexmk exits 4 on SIGTERM), not finished
    deadline = time.monotonic() + 5
    while _working_in(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _working_in(tmp_path) == []


def test_sigkill_leaves_temporaries_the_next_run_clears(tmp_path):
    ok(wide(tmp_path))
    before = snapshot(tmp_path / "out")
    write(tmp_path, "slow.py", SLOW)
    proc = _start(
        tmp_path, "wide.csv", "--id", "id", "--metric", "slow.py:slow", "--force", B="5000"
    )
    _wait_for(tmp_path, proc, lambda: _staging(tmp_path))
    proc.kill()
    proc.communicate(timeout=60)
    left = temporaries(tmp_path)
    assert (
        len(left) == 2 and ".out.lock" in left
    )  # what SIGKILL leaves: the lock and the temporary folder
    assert snapshot(tmp_path / "out") == before
    ok(wide(tmp_path, "--force"))
    assert temporaries(tmp_path) == []


def test_stale_temporary_is_removed_only_with_its_marker_and_a_dead_pid(tmp_path):
    ok(wide(tmp_path))
    pid = dead_pid()
    host = socket.gethostname()
    write(tmp_path, f".out.tmp-{pid}-abcd1234/.compreport-staging", f"{pid} {host}\n")
    write(tmp_path, f".out.tmp-{pid}-abcd1234/results.json", "{half")
    write(
        tmp_path, f".out.tmp-{os.getpid()}-live5678/.compreport-staging", f"{os.getpid()} {host}\n"
    )
    write(tmp_path, f".out.tmp-{pid}-nomarker/results.json", "not recognisably compreport's\n")
    (tmp_path / f".out.tmp-{pid}-empty000").mkdir()  # SIGKILL between the folder and its marker
    write(tmp_path, f".out.tmp-{pid}-halfmark/.compreport-staging", "")  # ... or within the marker
    ok(wide(tmp_path, "--force"))
    assert temporaries(tmp_path) == sorted(
        [f".out.tmp-{pid}-nomarker", f".out.tmp-{os.getpid()}-live5678"]
    )


def test_swap_cut_short_by_sigkill_is_undone_by_the_next_run(tmp_path):
    """OUT renamed away, the new report not yet in place: the next run puts OUT back, the user's
    files kept."""
    ok(wide(tmp_path))
    write(tmp_path, "out/mine.txt", "mine\n")
    pid = dead_pid()
    (tmp_path / "out").rename(tmp_path / f".out.old-{pid}-0badc0de")
    ok(wide(tmp_path, "--seed", "4", "--force"))
    assert (tmp_path / "out/mine.txt").read_text() == "mine\n"
    assert json.loads((tmp_path / "out/results.json").read_text())["settings"]["seed"] == 4
    assert temporaries(tmp_path) == []


def test_second_run_into_the_same_output_fails_naming_the_lock(tmp_path):
    """The lock held by a live process (this one) stands for a run under way; a dead holder's lock
    is taken over."""
    write(tmp_path, ".out.lock", f"{os.getpid()} {socket.gethostname()}\n")
    error(
        wide(tmp_path), "another compreport run is writing to it", ".out.lock", f"pid {os.getpid()}"
    )
    assert not (tmp_path / "out").exists() and temporaries(tmp_path) == [".out.lock"]
    write(tmp_path, ".out.lock", f"{dead_pid()} {socket.gethostname()}\n")
    ok(wide(tmp_path))
    assert temporaries(tmp_path) == []


def test_two_runs_started_together(tmp_path):
    """One writes the report, the other fails naming the lock (or, started after the first ended, is
    refused by the earlier report); never both exit 0."""
    write(tmp_path, "wide.csv", WIDE)
    write(tmp_path, "slow.py", SLOW)
    first = _start(tmp_path, "wide.csv", "--id", "id", "--metric", "slow.py:slow", B="100")
    _wait_for(tmp_path, first, lambda: (tmp_path / ".out.lock").exists())
    error(cli(tmp_path, "wide.csv", "--id", "id", "--metric", "accuracy"), "lock", ".out.lock")
    _, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    assert (
        sorted(manifest(tmp_path / "out")["files"]) == json_only("wide", ("slow-py-slow",))
        and temporaries(tmp_path) == []
    )


#: A user metric that saves out/draft.tex once the run has staged its output (as a user might
#: meanwhile).
SAVING = (
    "from pathlib import Path\nhere = Path(__file__).parent\ndef saving(y, p):\n"
    "    draft = here / 'out' / 'draft.tex'\n"
    "    if any(here.glob('.out.tmp-*')) and not draft.exists():\n"
    "        draft.write_text('saved while the report rendered\\n', encoding='utf-8')\n"
    "    return float((y == p).mean())\n"
)


def test_file_saved_into_output_during_the_run_survives(tmp_path):
    """A file saved into OUT after the run checked it (while it resamples, by its user metric)."""
    (tmp_path / "out").mkdir()
    write(tmp_path, "wide.csv", WIDE)
    write(tmp_path, "saving.py", SAVING)
    res = cli(tmp_path, "wide.csv", "--id", "id", "--metric", "saving.py:saving", B="100")
    assert res.returncode == 0, res.stderr
    assert lines(res) == ["note: kept in out what compreport did not write: draft.tex"]
    assert (tmp_path / "out/draft.tex").read_text() == "saved while the report rendered\n"
    assert (tmp_path / "out/results.json").is_file() and temporaries(tmp_path) == []


def test_a_lost_interruption_is_raised_again_before_the_output_is_committed(tmp_path):
    """A signal handler's exception that lands in a finalizer is lost ("Exception ignored"); the
    handlers also record the stop (compreport.interrupts) and the run's checkpoints raise it again,
    so the output is never committed after Ctrl-C or SIGTERM."""
    import compreport as cr
    from compreport import interrupts
    from compreport.errors import Terminated

    write(tmp_path, "wide.csv", WIDE)
    analysis = cr.analyze(
        cr.load(str(tmp_path / "wide.csv"), id="id", metrics=["accuracy"]), bootstrap=20
    )
    for stop in (KeyboardInterrupt, Terminated):
        interrupts.request(stop)  # as if its exception had been swallowed
        try:
            with pytest.raises(stop):
                cr.Report(analysis).write(tmp_path / "out", "json", jobs=1)
        finally:
            interrupts.clear()
        assert not (tmp_path / "out").exists() and temporaries(tmp_path) == []
    cr.Report(analysis).write(tmp_path / "out", "json", jobs=1)  # cleared: the run completes
    assert (tmp_path / "out" / "results.json").exists()
