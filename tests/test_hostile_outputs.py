"""Hostile cases on the writing side: links where compreport writes, an OUT that is a mount point.

Each bad case has its good twin next to it. ``compreport init`` and the writers open their files
without following a final symbolic link (:mod:`compreport.output.files`); an empty OUT that is a
mount point is filled in place (:mod:`compreport.output.staging`), tested on a real tmpfs mounted
in a mount namespace of its own (root only).
"""

from __future__ import annotations

import errno
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from compreport.output import files
from compreport.output.staging import mount_point
from compreport.scaffold import TEMPLATE
from conftest import one_error, run_cli

ROOT = Path(__file__).resolve().parent.parent
ENV = os.environ | {"PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(ROOT)}
WIDE = "id,y,A,B\n1,a,a,b\n2,b,b,b\n3,a,a,a\n4,b,a,b\n"


# ------------------------------------------------------------------ compreport init through a link


def test_init_force_refuses_a_spec_that_is_a_symlink(tmp_path):
    outside = tmp_path / "elsewhere.toml"
    outside.write_text("mine\n")
    (tmp_path / "comp").mkdir()
    (tmp_path / "comp" / "competition.toml").symlink_to(outside)
    res = run_cli(tmp_path, "init", "comp", "--force")
    one_error(res, "comp/competition.toml", "symbolic link", str(outside))
    assert outside.read_text() == "mine\n"
    assert sorted(os.listdir(tmp_path)) == ["comp", "elsewhere.toml"]
    assert os.listdir(tmp_path / "comp") == ["competition.toml"]  # no runs/, no backup


def test_init_refuses_a_dangling_symlink_spec(tmp_path):
    (tmp_path / "comp").mkdir()
    (tmp_path / "comp" / "competition.toml").symlink_to(tmp_path / "created-outside.toml")
    one_error(run_cli(tmp_path, "init", "comp"), "comp/competition.toml", "symbolic link")
    one_error(run_cli(tmp_path, "init", "comp", "--force"), "symbolic link")
    assert not (tmp_path / "created-outside.toml").exists()


def test_init_refuses_a_spec_that_is_a_fifo(tmp_path):
    (tmp_path / "comp").mkdir()
    os.mkfifo(tmp_path / "comp" / "competition.toml")  # reading it to compare would block
    one_error(
        run_cli(tmp_path, "init", "comp", "--force"), "comp/competition.toml", "not a regular file"
    )


def test_init_force_twin_a_regular_spec_is_kept_and_replaced(tmp_path):
    (tmp_path / "comp").mkdir()
    (tmp_path / "comp" / "competition.toml").write_text("mine\n")
    res = run_cli(tmp_path, "init", "comp", "--force")
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "comp" / "competition.toml").read_text() == TEMPLATE
    assert (tmp_path / "comp" / "competition.toml.bak").read_text() == "mine\n"
    assert sorted(os.listdir(tmp_path / "comp")) == [
        "competition.toml",
        "competition.toml.bak",
        "runs",
    ]


def test_init_twin_a_directory_that_is_a_link_is_followed(tmp_path):
    """The user named DIR: a DIR that is a link is where they asked the spec to go."""
    (tmp_path / "real").mkdir()
    (tmp_path / "comp").symlink_to(tmp_path / "real")
    res = run_cli(tmp_path, "init", "comp")
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "real" / "competition.toml").read_text() == TEMPLATE
    assert (tmp_path / "real" / "runs").is_dir()


def test_init_read_only_folder_is_one_error(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root writes in a read-only folder")
    (tmp_path / "comp" / "runs").mkdir(parents=True)
    (tmp_path / "comp").chmod(0o555)
    try:
        one_error(run_cli(tmp_path, "init", "comp"), "cannot write", "Permission denied")
    finally:
        (tmp_path / "comp").chmod(0o755)
    assert os.listdir(tmp_path / "comp") == ["runs"]


# ------------------------------------------------------------------ the writers' open


def test_open_new_refuses_a_final_link(tmp_path):
    target = tmp_path / "target"
    target.write_text("mine\n")
    (tmp_path / "link").symlink_to(target)
    with pytest.raises(OSError) as caught:
        files.write_text(tmp_path / "link", "x")
    assert caught.value.errno == errno.ELOOP and "symbolic link" in caught.value.strerror
    assert target.read_text() == "mine\n"


def test_open_new_refuses_a_fifo_without_blocking(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(OSError):  # ENXIO: no reader; never blocks
        files.write_bytes(tmp_path / "fifo", b"x")


def test_open_new_twin_writes_and_truncates_a_regular_file(tmp_path):
    path = tmp_path / "f.txt"
    path.write_text("a longer earlier text\n")
    files.write_text(path, "new\n")
    assert path.read_text() == "new\n"
    files.write_bytes(tmp_path / "g.bin", b"\x00\x01")
    assert (tmp_path / "g.bin").read_bytes() == b"\x00\x01"


# ------------------------------------------------------------------ an OUT that is a mount point


def _can_mount() -> bool:
    if os.geteuid() != 0 or not shutil.which("unshare") or not shutil.which("mountpoint"):
        return False
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=16k tmpfs /mnt"], capture_output=True
    )
    return probe.returncode == 0


CAN_MOUNT = _can_mount()
needs_mount = pytest.mark.skipif(
    not CAN_MOUNT, reason="needs root and mount namespaces to mount a tmpfs as OUT"
)


def _report(data: str, *more: str) -> str:
    """A shell line running ``compreport report DATA -o out`` and echoing its status."""
    args = [sys.executable, "-m", "compreport", "report", data, "--id", "id", "--metric"]
    args += ["accuracy", "-B", "20", "--format", "json", "-o", "out", *more]
    return " ".join(shlex.quote(a) for a in args) + '; echo "rc=$?"'


def in_namespace(tmp: Path, size: str, *lines: str) -> subprocess.CompletedProcess:
    """Run shell ``lines`` in a mount namespace of their own where ``tmp/out`` is a fresh tmpfs of
    ``size`` (the mount is gone when they end: they print what the test checks)."""
    (tmp / "out").mkdir(exist_ok=True)
    script = "\n".join([f"mount -t tmpfs -o size={size} tmpfs out || exit 9", *lines])
    return subprocess.run(
        ["unshare", "-m", "sh", "-c", script],
        cwd=tmp,
        capture_output=True,
        text=True,
        timeout=180,
        env=ENV,
    )


def test_mount_point_detection(tmp_path):
    assert mount_point("/proc") and mount_point("/")
    assert not mount_point(tmp_path) and not mount_point(tmp_path / "absent")


@needs_mount
def test_an_empty_mount_point_is_filled_in_place(tmp_path):
    (tmp_path / "wide.csv").write_text(WIDE)
    res = in_namespace(
        tmp_path,
        "4m",
        _report("wide.csv"),
        "mountpoint -q out && echo still-mounted",
        "echo listing; ls -A out; ls -A .",
    )
    assert "Traceback" not in res.stderr, res.stderr
    assert "rc=0" in res.stdout and "still-mounted" in res.stdout, (res.stdout, res.stderr)
    listing = res.stdout.split("listing\n", 1)[1].split()
    assert listing == [".compreport.json", "results.json", "summary", "wide"] + [
        "out",
        "wide.csv",
    ]  # OUT holds the report only (no temporary left); beside it: no lock, no temporary


@needs_mount
def test_mount_point_with_an_earlier_report_is_replaced_in_place(tmp_path):
    """--force into a mount point holding a report: the new files in, the earlier report's other
    files out, the user's file kept, the manifest naming only the new report."""
    (tmp_path / "wide.csv").write_text(WIDE)
    (tmp_path / "other.csv").write_text(WIDE)
    res = in_namespace(
        tmp_path,
        "4m",
        _report("wide.csv"),
        "echo mine > out/mine.txt",
        _report("other.csv", "--force", "--seed", "3"),
        "mountpoint -q out && echo still-mounted",
        "echo listing; ls -A out; echo manifest; cat out/.compreport.json",
    )
    assert "Traceback" not in res.stderr, res.stderr
    assert res.stdout.count("rc=0") == 2 and "still-mounted" in res.stdout, res.stderr
    listing, manifest = res.stdout.split("listing\n", 1)[1].split("manifest\n")
    assert listing.split() == [".compreport.json", "mine.txt", "other", "results.json", "summary"]
    files_listed = json.loads(manifest)["files"]
    assert "mine.txt" not in files_listed and not [f for f in files_listed if "wide" in f]
    assert json.loads(manifest)["settings"]["seed"] == 3


@needs_mount
def test_mount_point_full_disk_leaves_the_earlier_report(tmp_path):
    """A real full disk while the report is written inside a mounted OUT: OUT as it was, no
    temporary left, the mount kept."""
    (tmp_path / "wide.csv").write_text(WIDE)
    res = in_namespace(
        tmp_path,
        "1m",
        _report("wide.csv"),
        "sha=$(cat out/results.json out/.compreport.json | sha256sum)",
        "i=0; while head -c 4096 /dev/zero > out/fill$i 2>/dev/null; do i=$((i+1)); done",
        "rm out/fill0 out/fill1",
        _report("wide.csv", "--force", "--seed", "9"),
        '[ "$sha" = "$(cat out/results.json out/.compreport.json | sha256sum)" ] && echo same',
        "mountpoint -q out && echo still-mounted",
        "echo listing; ls -A out | grep -v '^fill'; ls -A .",
    )
    assert "Traceback" not in res.stderr, res.stderr
    assert "rc=0" in res.stdout and "rc=2" in res.stdout, (res.stdout, res.stderr)
    err = [x for x in res.stderr.splitlines() if x.startswith("error:")]
    assert len(err) == 1 and "No space left on device" in err[0], res.stderr
    assert "same" in res.stdout.split() and "still-mounted" in res.stdout
    listing = res.stdout.split("listing\n", 1)[1].split()
    assert listing == [".compreport.json", "results.json", "summary", "wide", "out", "wide.csv"]


@needs_mount
def test_mount_point_in_a_read_only_folder(tmp_path):
    """A volume mounted in a read-only folder (a container's root): the lock and the temporary
    folder go inside OUT, nothing beside it."""
    (tmp_path / "wide.csv").write_text(WIDE)
    (tmp_path / "ro" / "out").mkdir(parents=True)
    run = _report(str(tmp_path / "wide.csv")).replace("-o out", "-o ro/out")
    script = "\n".join(
        [
            "mount --bind ro ro && mount -o remount,bind,ro ro || exit 9",
            "mount -t tmpfs -o size=4m tmpfs ro/out || exit 9",
            "touch ro/probe 2>/dev/null && echo parent-writable",
            run,
            "echo listing; ls -A ro/out; ls -A ro",
        ]
    )
    res = subprocess.run(
        ["unshare", "-m", "sh", "-c", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=180,
        env=ENV,
    )
    assert "Traceback" not in res.stderr, res.stderr
    assert "parent-writable" not in res.stdout and "rc=0" in res.stdout, (res.stdout, res.stderr)
    listing = res.stdout.split("listing\n", 1)[1].split()
    assert listing == [".compreport.json", "results.json", "summary", "wide", "out"]


def test_twin_an_ordinary_out_is_still_swapped_whole(tmp_path):
    """Not a mount point: the report is written beside OUT and renamed in (OUT's inode changes)."""
    (tmp_path / "wide.csv").write_text(WIDE)
    args = ["wide.csv", "--id", "id", "--metric", "accuracy", "-B", "20", "--format", "json"]
    assert run_cli(tmp_path, "report", *args, "-o", "out").returncode == 0
    before = os.stat(tmp_path / "out").st_ino
    res = run_cli(tmp_path, "report", *args, "-o", "out", "--force", "--seed", "2")
    assert res.returncode == 0, res.stderr
    assert os.stat(tmp_path / "out").st_ino != before
    assert sorted(os.listdir(tmp_path)) == ["out", "wide.csv"]


# ------------------------------------------------------------------ a link planted while writing

#: A user metric that plants ``results.json`` in the run's temporary folder, a link to
#: ``victim.txt`` (when ``PLANT`` is true), then scores accuracy.
PLANTER = """\
import glob, os
PLANT = {plant}
def score(y, p):
    for tmp in glob.glob(os.path.join({folder!r}, ".out.tmp-*")):
        link = os.path.join(tmp, "results.json")
        if PLANT and not os.path.lexists(link):
            os.symlink({victim!r}, link)
    return float((y == p).mean())
"""


@pytest.mark.parametrize("plant", [True, False])
def test_a_link_planted_in_the_temporary_folder_is_not_followed(tmp_path, plant):
    victim = tmp_path / "victim.txt"
    victim.write_text("mine\n")
    (tmp_path / "wide.csv").write_text(WIDE)
    (tmp_path / "m.py").write_text(
        PLANTER.format(plant=plant, folder=str(tmp_path), victim=str(victim))
    )
    args = ["wide.csv", "--id", "id", "--metric", "m.py:score", "-B", "20", "--format", "json"]
    res = run_cli(tmp_path, "report", *args, "-o", "out")
    if plant:
        one_error(res, "out: cannot write the report", "symbolic link", "results.json")
        assert sorted(os.listdir(tmp_path)) == ["m.py", "victim.txt", "wide.csv"]
    else:  # the twin: the same metric, nothing planted
        assert res.returncode == 0, res.stderr
        assert json.loads((tmp_path / "out" / "results.json").read_text())["tool"]
    assert victim.read_text() == "mine\n"
