"""Hostile and odd input, each case with exactly what the user sees.

User metric files are untrusted code (argv isolated, ``sys.exit`` caught, return values checked,
loaded once); every argparse error is one ``error:`` line; inputs that are pipes, unreadable or
directories; file names that are not UTF-8; specs with a BOM or CRLF; a label column of
probabilities; resample counts that would not fit in memory; control characters in names.

Most cases run the command line's ``main()`` in this process (:func:`conftest.run_cli`, cwd =
tmp_path, ``--format json -B 20``): exit status 2, one ``error:`` line, no traceback, nothing on
stdout, no output directory. Inputs from process substitution (``<(...)``) and a ``ulimit -v`` need
a real process.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import COMP, RUN_A, RUN_B, layout, run_cli, write


def cli(tmp: Path, *args: str) -> subprocess.CompletedProcess:
    return run_cli(tmp, *args)


def report(tmp: Path, *args: str, B: str = "20") -> subprocess.CompletedProcess:
    return cli(tmp, "report", *args, "-o", "out", "-B", B, "--format", "json")


def runs_report(
    tmp: Path, *args: str, metric: str = "accuracy", B: str = "20"
) -> subprocess.CompletedProcess:
    """``report gold.tsv --runs runs --metric METRIC ARGS -o out -B B --format json``."""
    return report(tmp, "gold.tsv", "--runs", "runs", "--metric", metric, *args, B=B)


def bad(tmp: Path, res: subprocess.CompletedProcess, *needles: str) -> str:
    """Exit 2, one ``error:`` line (others only ``warning:``), no traceback, no usage block,
    nothing written."""
    assert "Traceback" not in res.stderr, res.stderr
    assert res.returncode == 2, (res.returncode, res.stderr)
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("error: ")]
    assert len(errors) == 1 and all(line.startswith(("error: ", "warning: ")) for line in lines), (
        res.stderr
    )
    for needle in needles:
        assert needle in errors[0], (needle, errors[0])
    assert res.stdout == ""
    assert not (tmp / "out").exists()
    assert not [p for p in tmp.iterdir() if p.name.startswith(".out.")]
    return errors[0]


def good(tmp: Path, res: subprocess.CompletedProcess) -> dict:
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr
    return json.loads((tmp / "out" / "results.json").read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- 3. user metric files

METRIC_OK = "def acc(y, p):\n    return float((y == p).mean())\n"


def test_user_metric_exiting_at_import_is_an_error_naming_the_file(tmp_path):
    layout(tmp_path)
    write(tmp_path, "m.py", "import sys\nsys.exit('bye')\n" + METRIC_OK)
    bad(tmp_path, runs_report(tmp_path, metric="m.py:acc"), "m.py", "exited while loading", "'bye'")


def test_user_metric_argparse_error_is_contained(tmp_path):
    """A metric file that parses the command line sees only its own path, and its usage text is
    not shown."""
    layout(tmp_path)
    write(
        tmp_path,
        "m.py",
        "import argparse\np = argparse.ArgumentParser()\np.add_argument('--k', required=True)\n"
        "p.parse_args()\n" + METRIC_OK,
    )
    res = runs_report(tmp_path, metric="m.py:acc")
    bad(tmp_path, res, "m.py", "exited while loading (SystemExit: 2)", "--k")
    assert "usage:" not in res.stderr


def test_user_metric_import_sees_isolated_argv(tmp_path):
    layout(tmp_path)
    write(
        tmp_path,
        "m.py",
        "import sys\nassert sys.argv == [__file__] or sys.argv == ['m.py'], sys.argv\n" + METRIC_OK,
    )
    assert (
        good(tmp_path, runs_report(tmp_path, metric="m.py:acc"))["competitions"][0]["metrics"][0][
            "name"
        ]
        == "m.py:acc"
    )


def test_user_metric_raising_at_import_names_the_file(tmp_path):
    layout(tmp_path)
    write(tmp_path, "m.py", "raise RuntimeError('no model here')\n")
    bad(
        tmp_path,
        runs_report(tmp_path, metric="m.py:acc"),
        "m.py",
        "failed to load",
        "RuntimeError",
        "no model here",
    )


@pytest.mark.parametrize(
    "value,shown",
    [
        ("float('nan')", "nan (float)"),
        ("float('inf')", "inf (float)"),
        ("'0.5'", "'0.5' (str)"),
        ("None", "None (NoneType)"),
        ("True", "True (bool)"),
    ],
)
def test_user_metric_return_value_must_be_a_finite_real_number(tmp_path, value, shown):
    layout(tmp_path)
    write(tmp_path, "m.py", f"def f(y, p):\n    return {value}\n")
    bad(
        tmp_path,
        runs_report(tmp_path, metric="m.py:f"),
        "user metric 'm.py:f'",
        f"returned {shown}",
        "for system 'sysA'",
    )


def test_user_metric_numpy_scalars_are_numbers(tmp_path):
    layout(tmp_path)
    write(
        tmp_path,
        "m.py",
        "import numpy as np\ndef f(y, p):\n    return np.float32((y == p).mean())\n"
        "def g(y, p):\n    return np.int64((y == p).sum())\n",
    )
    res = good(tmp_path, runs_report(tmp_path, metric="m.py:f,m.py:g"))
    assert [m["name"] for m in res["competitions"][0]["metrics"]] == ["m.py:f", "m.py:g"]


def test_user_metric_attributes_are_typed(tmp_path):
    layout(tmp_path)
    write(tmp_path, "m.py", METRIC_OK + "acc.higher_is_better = 'no'\n")
    bad(
        tmp_path,
        runs_report(tmp_path, metric="m.py:acc"),
        "m.py",
        "acc.higher_is_better must be True or False",
        "'no' (str)",
    )


def test_user_metric_file_is_imported_once(tmp_path):
    layout(tmp_path)
    write(
        tmp_path,
        "m.py",
        "from pathlib import Path\nwith open(Path(__file__).with_name('imports'), 'a') as fh:\n"
        "    fh.write('x')\n" + METRIC_OK,
    )
    good(tmp_path, runs_report(tmp_path, metric="m.py:acc"))
    assert (tmp_path / "imports").read_text() == "x"


def test_user_metric_loaded_by_load_is_the_one_analysed(tmp_path, monkeypatch):
    """cr.load runs the metric file and hands the metric on: cr.analyze neither runs the file
    again nor sees it changed in between."""
    import compreport as cr

    layout(tmp_path)
    monkeypatch.chdir(tmp_path)
    counting = (
        "from pathlib import Path\nwith open(Path(__file__).with_name('imports'), 'a') as fh:\n"
        "    fh.write('x')\n"
    )
    write(tmp_path, "m.py", counting + METRIC_OK)
    data = cr.load("gold.tsv", runs="runs", metrics="m.py:acc")
    write(tmp_path, "m.py", counting + "def acc(y, p):\n    return 0.5\n")
    score = cr.analyze(data, bootstrap=20).competitions[0].primary.scores[0].score
    assert (tmp_path / "imports").read_text() == "x" and score != 0.5


def test_user_metric_path_that_is_a_directory(tmp_path):
    layout(tmp_path)
    (tmp_path / "m.py").mkdir()
    bad(tmp_path, runs_report(tmp_path, metric="m.py:acc"), "m.py", "is a directory")


# -------------------------------------------------------------------- 4. type-strict CLI and specs


@pytest.mark.parametrize(
    "args,needles",
    [
        (("--bogus",), ("unrecognized arguments: --bogus",)),
        (("-B",), ("-B/--bootstrap: expected one argument",)),
        (("-B", "-1e4"), ("-B/--bootstrap: expected one argument", "-B=VALUE")),
        (("--seed", "\x1b[31m"), ("--seed", "'\\x1b[31m'")),
    ],
    ids=["unknown-option", "missing-value", "negative-float-value", "control-character"],
)
def test_every_option_error_is_one_line(tmp_path, args, needles):
    layout(tmp_path)
    res = runs_report(tmp_path, *args)
    bad(tmp_path, res, *needles)
    assert "usage:" not in res.stderr and "\x1b" not in res.stderr


@pytest.mark.parametrize(
    "args,needle",
    [
        (("report", "gold.tsv"), "the following arguments are required: -o/--output"),
        ((), "the following arguments are required: COMMAND"),
        (("frob",), "invalid choice: 'frob'"),
    ],
    ids=["missing-output", "no-command", "unknown-command"],
)
def test_missing_output_and_command_are_one_line(tmp_path, args, needle):
    res = cli(tmp_path, *args)
    bad(tmp_path, res, needle, "--help")
    assert "usage:" not in res.stderr


def test_float_form_of_B_shows_the_accepted_form(tmp_path):
    layout(tmp_path)
    bad(
        tmp_path,
        runs_report(tmp_path, B="1e4"),
        "-B/--bootstrap must be a whole number",
        "'1e4'",
        "(write it as 10000)",
    )


def test_whole_number_forms_of_B(tmp_path):
    layout(tmp_path)
    assert good(tmp_path, runs_report(tmp_path, B="2_0"))["settings"]["bootstrap"] == 20


def test_boolean_resamples_in_spec_is_an_error(tmp_path):
    layout(tmp_path / "c1")
    write(tmp_path, "c1/competition.toml", COMP + "[bootstrap]\nresamples = true\n")
    res = cli(tmp_path, "report", "c1", "-o", "out", "--format", "json")
    bad(
        tmp_path,
        res,
        "competition.toml, line 9",
        "[bootstrap] resamples must be a whole number",
        "got True",
    )


@pytest.mark.parametrize(
    "line,needle",
    [
        ("id_col = true", "key 'data.id_col': expected a whole number or a string (got true)"),
        ("id_col = 1.0", "key 'data.id_col': expected a whole number or a string (got 1.0)"),
        (
            "label_col = [2, true]",
            "key 'data.label_col.1': expected a whole number or a string (got true)",
        ),
        ("runs = {path = 3}", "key 'data.runs.path': Input should be a valid string (got 3)"),
        ("exclude = 5", "key 'data.exclude': Input should be a valid list (got 5)"),
        ("comments = 1", "key 'data.comments': Input should be a valid boolean (got 1)"),
        ("comments = 0", "key 'data.comments': Input should be a valid boolean (got 0)"),
    ],
)
def test_spec_reading_keys_are_type_strict(tmp_path, line, needle):
    """Booleans are not integers, floats are not column positions, integers are not booleans."""
    layout(tmp_path / "c1")
    write(
        tmp_path,
        "c1/competition.toml",
        COMP.replace(
            'runs = "runs"\n',
            f"{line}\n" if line.startswith("runs") else f'runs = "runs"\n{line}\n',
        ),
    )
    bad(
        tmp_path,
        cli(tmp_path, "report", "c1", "-o", "out", "-B", "20", "--format", "json"),
        f"competition.toml, line {5 if line.startswith('runs') else 6}",
        needle,
    )


# ----------------------------------------------------------------------- 2. input-side OS failures


def test_permission_denied_on_an_input(tmp_path, monkeypatch, capsys):
    """Simulated in-process (root reads any file): an input whose open() is refused."""
    from compreport import cli as cli_module
    from compreport.inputs import delimited

    layout(tmp_path)
    monkeypatch.chdir(tmp_path)

    real = delimited._open

    def refuse(path):
        if str(path).endswith("sysB.tsv"):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(delimited, "_open", refuse)
    status = cli_module.main(
        [
            "report",
            "gold.tsv",
            "--runs",
            "runs",
            "--metric",
            "accuracy",
            "-o",
            "out",
            "-B",
            "20",
            "--format",
            "json",
        ]
    )
    err = capsys.readouterr().err
    assert status == 2 and err.splitlines() == [
        f"error: {Path('runs') / 'sysB.tsv'}: cannot read (Permission denied)"
    ]
    assert not (tmp_path / "out").exists()


@pytest.mark.skipif(not shutil.which("bash"), reason="needs bash for <(...)")
def test_pipe_input_is_read_not_called_empty(tmp_path):
    """``<(...)``: a quoted wide table goes through both readers (fast, then csv), and is hashed."""
    text = 'id,y,A,B\n1,"a",a,b\n2,b,b,b\n3,a,a,a\n4,b,a,b\n'
    write(tmp_path, "wide.csv", text)
    res = subprocess.run(
        [
            "bash",
            "-c",
            f'"{sys.executable}" -m compreport report <(cat wide.csv) --metric accuracy '
            f"-o out -B 20 --format json",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    comp = good(tmp_path, res)["competitions"][0]
    assert comp["n"] == 4 and comp["systems"] == ["A", "B"]
    assert comp["inputs"][0]["sha256"] == hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.skipif(not shutil.which("bash"), reason="needs bash for <(...)")
def test_pipe_run_file(tmp_path):
    layout(tmp_path)
    res = subprocess.run(
        [
            "bash",
            "-c",
            f'"{sys.executable}" -m compreport report gold.tsv --runs <(cat runs/sysA.tsv) '
            f"--metric accuracy -o out -B 20 --format json",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    comp = good(tmp_path, res)["competitions"][0]
    assert comp["inputs"][1]["sha256"] == hashlib.sha256(RUN_A.encode()).hexdigest()


def test_directory_where_a_file_is_expected(tmp_path):
    layout(tmp_path / "c1")
    write(tmp_path, "c1/competition.toml", COMP.replace('gold = "gold.tsv"', 'gold = "runs"'))
    bad(
        tmp_path,
        cli(tmp_path, "report", "c1", "-o", "out", "-B", "20", "--format", "json"),
        "runs",
        "is a directory, expected a CSV/TSV file",
    )


# --------------------------------------------------------------------------- 5. odd inputs


def _bytes_name(folder: Path, name: bytes, text: str) -> None:
    try:
        fd = os.open(os.fsencode(folder) + b"/" + name, os.O_WRONLY | os.O_CREAT)
    except OSError:  # a file system that takes only UTF-8 names (macOS)
        pytest.skip("file system refuses non-UTF-8 names")
    os.write(fd, text.encode())
    os.close(fd)


def test_run_file_name_not_utf8_is_refused_naming_it(tmp_path):
    layout(tmp_path)
    _bytes_name(tmp_path / "runs", b"Pe\xf1afiel.tsv", RUN_B)
    msg = bad(
        tmp_path,
        runs_report(tmp_path),
        "Pe\\xf1afiel.tsv",
        "file name is not UTF-8",
        "'runs/Peñafiel.tsv'",
    )
    assert "\udcf1" not in msg


def test_competition_folder_name_not_utf8_is_refused(tmp_path):
    folder = os.fsencode(tmp_path) + b"/c\xe9"
    try:
        os.mkdir(folder)
    except OSError:
        pytest.skip("file system refuses non-UTF-8 names")
    layout(Path(os.fsdecode(folder)))
    write(Path(os.fsdecode(folder)), "competition.toml", COMP.replace('name = "C1"\n', ""))
    bad(
        tmp_path,
        cli(tmp_path, "report", os.fsdecode(b"c\xe9"), "-o", "out", "-B", "20", "--format", "json"),
        "c\\xe9",
        "file name is not UTF-8",
    )


@pytest.mark.parametrize(
    "bom,newline",
    [("\ufeff", "\n"), ("", "\r\n"), ("\ufeff", "\r\n")],
    ids=["bom", "crlf", "bom-crlf"],
)
def test_spec_with_bom_or_crlf_is_read(tmp_path, bom, newline):
    layout(tmp_path / "c1")
    (tmp_path / "c1" / "competition.toml").write_bytes(
        (bom + COMP).replace("\n", newline).encode("utf-8")
    )
    assert (
        good(tmp_path, cli(tmp_path, "report", "c1", "-o", "out", "-B", "20", "--format", "json"))[
            "competitions"
        ][0]["name"]
        == "C1"
    )


def test_spec_with_bom_and_crlf_names_the_line_of_a_bad_key(tmp_path):
    layout(tmp_path / "c1")
    spec = "\ufeff" + COMP.replace('language = "en"\n', 'language = "en"\ncolour = 1\n')
    (tmp_path / "c1" / "competition.toml").write_bytes(spec.replace("\n", "\r\n").encode("utf-8"))
    bad(
        tmp_path,
        cli(tmp_path, "report", "c1", "-o", "out", "-B", "20", "--format", "json"),
        "competition.toml, line 3",
        "unknown key 'colour'",
    )


def test_label_column_of_probabilities_is_refused(tmp_path):
    n = 60
    write(tmp_path, "gold.tsv", "".join(f"{i}\t{i % 2}\n" for i in range(n)))
    write(tmp_path, "runs/ok.tsv", "".join(f"{i}\t{i % 2}\n" for i in range(n)))
    write(
        tmp_path, "runs/probs.tsv", "".join(f"{i}\t{(i * 37 % 101) / 101:.4f}\n" for i in range(n))
    )
    msg = bad(
        tmp_path,
        report(tmp_path, "gold.tsv", "--runs", "runs", "--metric", "macro_f1"),
        f"{Path('runs') / 'probs.tsv'}, line 1, column 2",
        "system 'probs'",
        "60 distinct labels",
        "gold does not have",
        "e.g. '0.0000', '0.3663', '0.7327'",
        "gold has 2: '0', '1'",
        "more than 50 is refused",
    )
    assert "probabilities" in msg


def test_resamples_beyond_memory_are_one_error_line(tmp_path):
    layout(tmp_path)
    bad(
        tmp_path,
        runs_report(tmp_path, B="1000000000"),
        "-B 1000000000 would need about",
        "GiB of memory",
        "available; use a smaller -B",
    )


def test_resamples_beyond_ulimit_are_one_error_line(tmp_path):
    """Under ``ulimit -v`` (a cluster's limit; not seen by MemAvailable), the check counts what is
    left of it."""
    import resource

    layout(tmp_path)
    limit = 1536 << 20

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "compreport",
            "report",
            "gold.tsv",
            "--runs",
            "runs",
            "--metric",
            "accuracy",
            "-o",
            "out",
            "-B",
            "50000000",
            "--format",
            "json",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=cap,
        env=os.environ | {"OPENBLAS_NUM_THREADS": "1"},
    )  # BLAS threads reserve address space
    bad(tmp_path, res, "-B 50000000 would need about", "available; use a smaller -B")


def test_out_of_memory_is_one_error_line(tmp_path, monkeypatch, capsys):
    """A MemoryError the check did not foresee: one line, exit 2, nothing written."""
    from compreport import api
    from compreport import cli as cli_module

    layout(tmp_path)
    monkeypatch.chdir(tmp_path)

    def oom(*args, **kwargs):
        raise MemoryError("Unable to allocate 2.24 GiB for an array")

    monkeypatch.setattr(api, "run_analysis", oom)  # what the command line calls
    assert (
        cli_module.main(
            [
                "report",
                "gold.tsv",
                "--runs",
                "runs",
                "--metric",
                "accuracy",
                "-o",
                "out",
                "-B",
                "20",
                "--format",
                "json",
            ]
        )
        == 2
    )
    assert not (tmp_path / "out").exists()
    assert capsys.readouterr().err.splitlines()[-1] == (
        "error: out of memory (Unable to allocate 2.24 GiB for an array); use fewer resamples "
        "(-B), --jobs 1, or a machine with more memory"
    )


def test_statistics_beyond_memory_are_refused_before_allocation(monkeypatch):
    """The per-item statistics of a run (distinct items x systems x labels) are checked too."""
    import pandas as pd

    import compreport
    from compreport.errors import InputError
    from compreport.stats import memory

    labels = [f"c{i}" for i in range(30)]
    df = pd.DataFrame(
        {"y": labels * 4} | {f"s{j}": labels[j:] + labels[:j] + labels * 3 for j in range(5)}
    )
    monkeypatch.setattr(memory, "available_memory", lambda: 100_000)
    with pytest.raises(
        InputError,
        match=r"competition 'competition': the bootstrap with bootstrap=20 would need "
        r"about .* KiB of memory \(largest part: per-item statistics",
    ):
        compreport.analyze(
            compreport.from_frame(df, metrics="macro_f1"), bootstrap=20, correction="none"
        )


def test_available_memory_is_read():
    from compreport.stats.memory import available_memory

    avail = available_memory()
    assert avail is None or avail > 0


def test_control_characters_in_names_are_escaped(tmp_path):
    """A run file named with ESC and a newline, in an error message: escaped, on one line."""
    layout(tmp_path)
    write(tmp_path, "runs/t\x1b[31m\nred.tsv", "1\ta\n1\tb\n")
    res = runs_report(tmp_path)
    bad(tmp_path, res, "t\\x1b[31m\\nred.tsv", "appears twice")
    assert "\x1b" not in res.stderr


def test_output_paths_are_printed_escaped(tmp_path):
    """The files written are listed on stdout with control characters and undecodable bytes escaped:
    no raw ESC reaches the terminal, and a name that is not UTF-8 does not crash a strict stdout."""
    layout(tmp_path)
    for out, shown in (("esc\x1b[31mred", "esc\\x1b[31mred"), (os.fsdecode(b"d\xe9"), "d\\xe9")):
        res = cli(
            tmp_path,
            "report",
            "gold.tsv",
            "--runs",
            "runs",
            "--metric",
            "accuracy",
            "-o",
            out,
            "-B",
            "20",
            "--format",
            "json",
        )
        assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr
        assert f"{shown}/results.json" in res.stdout.splitlines() and "\x1b" not in res.stdout
        # what a strict UTF-8 stdout accepts: no surrogate-escaped byte printed raw
        res.stdout.encode("utf-8")


def test_control_characters_in_figure_warnings_are_escaped(tmp_path):
    """Warnings that quote a system named with ESC (the LaTeX tables print its Chinese characters as
    ?) reach the terminal escaped; matplotlib's glyph warning for ESC itself is no font problem and
    gives no "install a font" advice. (Without a CJK font that matplotlib's font cache knows, the
    figures warn that no font has 深, quoting the name escaped; ESC is never among the
    characters.)"""
    layout(tmp_path, **{"t\x1bred深": RUN_B})
    (tmp_path / "runs" / "sysB.tsv").unlink()
    res = cli(
        tmp_path,
        "report",
        "gold.tsv",
        "--runs",
        "runs",
        "--metric",
        "accuracy",
        "-o",
        "out",
        "-B",
        "20",
        "--format",
        "html,latex",
        "--no-compile",
        "--figure-formats",
        "svg",
    )
    assert res.returncode == 0, res.stderr
    assert "\x1b" not in res.stderr and "\x1b" not in res.stdout
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert all(line.startswith("warning: ") for line in lines)
    assert [line for line in lines if "pdflatex cannot set" in line and "red深" in line], res.stderr
    fonts = [line for line in lines if "no installed font has" in line]
    lacking = [
        re.match(r"warning: figures: no installed font has (.*?)(?: \(in '|: )", line)
        for line in fonts
    ]
    assert all(
        m and m.group(1) == "深" and "'t\\x1bred深'" in line for m, line in zip(lacking, fonts)
    ), res.stderr


def _square(x):
    return x * x


def _die(x):
    os._exit(3)  # what the kernel's out-of-memory killer leaves of a worker


def test_a_dying_worker_is_one_error_not_a_hang():
    """Figures and PDF documents are drawn by worker processes: one that dies is an InputError at
    once (multiprocessing.Pool would wait for its task forever); results otherwise come in order."""
    from compreport.errors import InputError
    from compreport.workers import run_tasks

    assert run_tasks([(_square, (i,)) for i in range(5)], jobs=2) == [0, 1, 4, 9, 16]
    with pytest.raises(InputError, match=r"a worker process died .* \(--jobs 1\)"):
        run_tasks([(_square, (1,)), (_die, (2,)), (_square, (3,))], jobs=2)


def test_a_dying_bootstrap_worker_is_one_error_not_a_hang(monkeypatch):
    """The bootstrap's blocks (drawn by workers for 100,000 items or more) go through the same kind
    of pool: a worker that dies is an InputError naming the work, and the blocks otherwise come in
    order."""
    import numpy as np

    from compreport.errors import InputError
    from compreport.stats import resampling
    from compreport.stats.metrics import get_metric
    from compreport.workers import LocalPool
    from conftest import make_competition

    assert list(LocalPool(2).map(_square, range(5), "squaring")) == [0, 1, 4, 9, 16]
    with pytest.raises(InputError, match=r"a worker process died while squaring \(\d of 3 done\)"):
        list(LocalPool(2).map(_die, [1, 2, 3], "squaring"))
    rng = np.random.default_rng(0)
    gold = rng.integers(0, 2, 300)
    comp = make_competition(
        gold, [np.where(rng.random(300) < a, gold, 1 - gold) for a in (0.8, 0.7)], metrics=["f1"]
    )
    prep = [get_metric("f1").prepare(comp, {})]
    monkeypatch.setattr(resampling, "_block", lambda work, task: _die(task))
    with pytest.raises(
        InputError, match=r"a worker process died while drawing the resamples \(the bootstrap\)"
    ):
        resampling.run(prep, 300, 2, 2000, 0, executor=LocalPool(2), mode="items")
