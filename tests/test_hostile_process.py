"""Hostile conditions around the process (issue 30): locales and encodings, a closed stdout, an
unwritable HOME, signals while the program ends.

Every case runs the real command in a real process (``python -m compreport``), each next to its
twin, the same command under ordinary conditions.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Names a latin-1 or ASCII terminal cannot show.
WIDE = "id,y,深度,Núcleo\n1,a,a,b\n2,b,b,b\n3,a,a,a\n4,b,a,b\n"
BASE = {k: v for k, v in os.environ.items() if k not in ("PYTHONIOENCODING", "MPLCONFIGDIR")}
ENV = BASE | {"PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}


def command(*args: str, out: str = "out") -> list[str]:
    # the randomization test: under the bootstrap test these 4 items would get the small-sample
    # warning (issue 36 item 7), and these tests read stderr whole
    return [sys.executable, "-m", "compreport", "report", *args, "--id", "id", "--metric",
            "accuracy", "-o", out, "-B", "20", "--test", "randomization"]  # fmt: skip


def run(tmp: Path, *args: str, env: dict | None = None, out: str = "out", **kw):
    kw = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE} | kw
    return subprocess.run(
        command(*args, out=out), cwd=tmp, timeout=120, env=ENV if env is None else env, **kw
    )


def wide(tmp: Path, name: str = "wide.csv") -> str:
    (tmp / name).write_text(WIDE, encoding="utf-8")
    return name


def complete(out: Path) -> dict:
    """The results.json of a complete report in ``out`` (its manifest lists it)."""
    manifest = json.loads((out / ".compreport.json").read_text(encoding="utf-8"))
    assert "results.json" in manifest["files"]
    return json.loads((out / "results.json").read_text(encoding="utf-8"))


# ------------------------------------------------------------------------- locales and encodings


@pytest.mark.parametrize(
    "env, shown",
    [
        ({"PYTHONIOENCODING": "latin-1"}, ["\\u6df1\\u5ea6", "Núcleo"]),
        ({"LC_ALL": "C", "PYTHONUTF8": "0"}, ["深度", "Núcleo"]),  # run in UTF-8 mode
        ({}, ["深度", "Núcleo"]),  # the twin: a UTF-8 terminal
    ],
)
def test_leaderboard_prints_whatever_the_terminal_encoding(tmp_path, env, shown):
    res = run(tmp_path, wide(tmp_path), "--format", "json", env=BASE | {"PYTHONPATH": str(ROOT)}
              | (env or {"PYTHONIOENCODING": "utf-8"}))  # fmt: skip
    encoding = env.get("PYTHONIOENCODING", "utf-8")
    stdout, stderr = res.stdout.decode(encoding), res.stderr.decode(encoding)
    assert res.returncode == 0 and stderr == "", stderr
    for name in shown:
        assert name in stdout, stdout
    assert set(complete(tmp_path / "out")["competitions"][0]["systems"]) == {"深度", "Núcleo"}


def test_utf8_file_name_under_the_c_locale_is_read(tmp_path):
    """``LC_ALL=C PYTHONUTF8=0``: a valid UTF-8 file name is the competition's name."""
    name = wide(tmp_path, "dátos.csv")
    res = run(tmp_path, name, "--format", "json", env=ENV | {"LC_ALL": "C", "PYTHONUTF8": "0"})
    assert res.returncode == 0 and res.stderr == b"", res.stderr
    assert complete(tmp_path / "out")["competitions"][0]["id"] == "datos"


def test_file_name_that_is_not_utf8_is_still_refused_under_the_c_locale(tmp_path):
    """The twin: ``Pe\\xf1afiel.csv`` (Windows-1252) is refused in any locale."""
    with open(os.path.join(os.fsencode(tmp_path), b"Pe\xf1afiel.csv"), "wb") as f:
        f.write(WIDE.encode())
    for env in (ENV, ENV | {"LC_ALL": "C", "PYTHONUTF8": "0"}):
        res = run(tmp_path, "Pe\udcf1afiel.csv", "--format", "json", env=env)
        err = res.stderr.decode("utf-8")
        assert res.returncode == 2 and "Traceback" not in err, err
        assert err.startswith("error: Pe\\xf1afiel.csv: file name is not UTF-8 text"), err
        assert err.count("\n") == 1 and not (tmp_path / "out").exists()


def test_python_api_in_another_file_system_encoding_says_what_to_do(tmp_path):
    """Python code started in the C locale without UTF-8 mode cannot open a UTF-8 name: the
    message says so instead of calling the name not UTF-8."""
    name = wide(tmp_path, "dátos.csv")
    script = tmp_path / "api.py"
    script.write_text(
        "import os\nfrom compreport.cli import main\n"
        f"name = os.fsdecode({os.fsencode(name)!r})\n"
        "raise SystemExit(main(['report', name, '--id', 'id', '--metric', 'accuracy', "
        "'-o', 'out', '-B', '20', '--format', 'json']))\n",
        encoding="ascii",
    )
    res = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        capture_output=True,
        timeout=120,
        env=ENV | {"LC_ALL": "C", "PYTHONUTF8": "0"},
    )
    err = res.stderr.decode("utf-8")
    assert res.returncode == 2 and err.count("\n") == 1, err
    assert "file name is UTF-8 but Python reads file names as ascii" in err, err
    assert "PYTHONUTF8=1" in err and not (tmp_path / "out").exists()


# ------------------------------------------------------------------------------ a closed stdout


def test_stdout_closed_before_the_report_is_written(tmp_path):
    """The reader of stdout has gone before the run starts: the report is written, nothing is
    said, exit 0."""
    read, write = os.pipe()
    os.close(read)
    try:
        res = run(tmp_path, wide(tmp_path), "--format", "json", stdout=write)
    finally:
        os.close(write)
    assert (res.returncode, res.stderr) == (0, b""), res.stderr
    complete(tmp_path / "out")


def test_stdout_closed_by_head_after_its_first_line(tmp_path):
    """``compreport report ... | head -1``: one line, exit 0, nothing on stderr."""
    wide(tmp_path)
    shell = " ".join(f"'{a}'" for a in command("wide.csv", "--format", "json"))
    res = subprocess.run(
        ["bash", "-c", f"{shell} 2>err | head -1; echo status=${{PIPESTATUS[0]}}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env=ENV,
    )
    assert res.stdout == "out/results.json\nstatus=0\n", res.stdout
    assert (tmp_path / "err").read_text() == ""
    complete(tmp_path / "out")


def test_stdout_open_gets_the_files_and_the_leaderboard(tmp_path):
    """The twin: a reader that stays gets every line."""
    res = run(tmp_path, wide(tmp_path), "--format", "json", text=True)
    assert res.returncode == 0 and res.stderr == ""
    assert res.stdout.startswith("out/results.json\nout/wide/ (3 files)\n")
    assert "Núcleo" in res.stdout and "深度" in res.stdout


# ------------------------------------------------------------------------------- HOME and figures


FONT_CACHE = "note: matplotlib: Matplotlib is building the font cache; this may take a moment.\n"


@pytest.mark.parametrize("home", ["file", "folder"])
def test_unwritable_home_gives_no_matplotlib_message(tmp_path, home):
    """HOME is a file (matplotlib cannot create its folders there; for root, whom a read-only mode
    does not stop): no message of matplotlib's, figures drawn, matplotlib's cache in a private
    folder of the temporary folder. The twin: a HOME that can be written is used as it is."""
    (tmp_path / "tmp").mkdir()
    if home == "file":
        (tmp_path / "home").write_text("")
    else:
        (tmp_path / "home").mkdir()
    env = ENV | {"HOME": str(tmp_path / "home"), "TMPDIR": str(tmp_path / "tmp")}
    env = {k: v for k, v in env.items() if not k.startswith("XDG_")}
    res = run(tmp_path, wide(tmp_path), "--format", "json,html", "-q", env=env, text=True)
    # matplotlib's one message on its first run with a new cache, as a note
    assert res.returncode == 0 and res.stdout == "" and res.stderr in ("", FONT_CACHE), res.stderr
    assert any(p.suffix == ".svg" for p in (tmp_path / "out").rglob("*"))
    private = tmp_path / "tmp" / f"compreport-matplotlib-{os.getuid()}"
    if home == "file":
        assert (private.stat().st_mode & 0o777) == 0o700 and any(private.iterdir())
    else:
        assert not private.exists() and (tmp_path / "home" / ".cache" / "matplotlib").is_dir()


# ------------------------------------------------------------------------- signals while ending


@pytest.mark.slow
@pytest.mark.parametrize(
    "sig, status, line",
    [
        (signal.SIGINT, 130, "error: interrupted"),
        (signal.SIGTERM, 143, "error: terminated (SIGTERM)"),
    ],
)
def test_signal_while_the_program_ends(tmp_path, sig, status, line):
    """A signal at any point of the end of a run (from its first printed byte, just before it
    returns, through the interpreter's shutdown): either status 130/143 and exactly its one
    ``error:`` line (it came before the exit decision), or status 0 with nothing on stderr (it came
    after); never death by the signal, silence, or a traceback. The report is complete either way
    (it was written before anything was printed)."""
    wide(tmp_path)
    outcomes = []
    for delay in (0, 0.003, 0.01, 0.03, 0.07, 0.15):
        proc = subprocess.Popen(
            command("wide.csv", "--format", "json", "--force"),
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=ENV,
        )
        first = proc.stdout.read(1)  # the output is flushed once, as main returns
        time.sleep(delay)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=120)
        assert first + out != "" and "Traceback" not in err, err
        if proc.returncode == 0:
            assert err == "", (delay, err)
        else:
            assert (proc.returncode, err) == (status, line + "\n"), (delay, proc.returncode, err)
        complete(tmp_path / "out")
        outcomes.append(proc.returncode)
    assert set(outcomes) <= {0, status}, outcomes
