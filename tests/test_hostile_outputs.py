"""Hostile cases on the writing side: links where compreport writes, an OUT that is a mount point.

Each bad case has its good twin next to it. ``compreport init`` and the writers open their files
without following a final symbolic link (:mod:`compreport.output.files`); an empty OUT that is a
mount point is filled in place (:mod:`compreport.output.staging`), tested on a real tmpfs mounted
in a mount namespace of its own (root only).
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from compreport.inputs.scaffold import TEMPLATE
from compreport.output import files
from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
ENV = os.environ | {"PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(ROOT)}
WIDE = "id,y,A,B\n1,a,a,b\n2,b,b,b\n3,a,a,a\n4,b,a,b\n"


def one_error(res, *parts: str) -> str:
    """The single ``error:`` line of a run that exited with status 2, holding every part."""
    assert res.returncode == 2, (res.stdout, res.stderr)
    assert "Traceback" not in res.stderr, res.stderr
    lines = [x for x in res.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    for part in parts:
        assert part in lines[0], (part, lines[0])
    return lines[0]


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
