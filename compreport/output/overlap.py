"""An output directory and the inputs must not overlap (README, the output directory contract).

OUT must not be or hold an input (a data file, a spec, a runs folder, a user metric file):
replacing it would delete inputs. Nor may it lie inside a folder read for runs, which is read
whole (every file in it and its subfolders is a run), or where a runs glob reaches: the lock and
temporary folder beside OUT would be listed as files of the runs folder, and the next run would
read the report as runs. A data file's folder (the gold's), a spec's folder or a workshop folder
may hold OUT: only the files they name are read, and their competition folders hold a
``competition.toml``.

:func:`check` is the rule (:meth:`compreport.output.staging.Claim.protect` applies it).
:func:`check_runs` applies it to one runs folder or glob before it is read, given the output
directory the caller will write (``out_dir`` of :func:`compreport.load`, ``-o`` on the command
line): a spec's runs folder is known only once the spec is read, after OUT was claimed.
"""

from __future__ import annotations

import fnmatch
import glob
import os

from compreport.errors import OutputError, option
from compreport.inputs.runfiles import runs_read


def _parts(path: str) -> list[str]:
    """The names along ``path``, without empty ones."""
    return [p for p in path.split(os.sep) if p]


def _matches(pattern: list[str], names: list[str]) -> bool:
    """Whether the glob components ``pattern`` (as :func:`glob.glob` with ``recursive=True`` reads
    them) can match the path ``names``, a folder above it (walked whole), or a path below it."""
    if not pattern or not names:
        return True
    head, name = pattern[0], names[0]
    # a wildcard does not match a hidden name
    hidden = name.startswith(".") and not head.startswith(".")
    if head == "**":
        return _matches(pattern[1:], names) or (not hidden and _matches(pattern, names[1:]))
    if glob.has_magic(head) and hidden:
        return False
    return fnmatch.fnmatchcase(name, head) and _matches(pattern[1:], names[1:])


def reaches(runs: str, out: str) -> bool:
    """Whether reading the runs ``runs`` (a folder, walked whole, or a glob, whose matched folders
    are walked whole) reads in the directory ``out`` (resolved): ``runs`` is, holds or lies inside
    ``out``, or is a folder above it, or a glob that can match it, a folder above it or a path
    below it. Symbolic links are followed.

    >>> os.makedirs("runs")
    >>> out = os.path.realpath("runs/out")
    >>> reaches("runs", out), reaches("runs/*", out), reaches("runs/*.tsv", out)
    (True, True, False)
    """
    given = os.path.abspath(runs)
    parts = _parts(given)
    if runs_read(runs) in (None, [runs]):
        # a folder (or a file) by its name, as find_runs reads it: "[v2]" is no pattern
        literal = len(parts)
    else:
        literal = next((k for k, p in enumerate(parts) if glob.has_magic(p)), len(parts))
    real = _parts(os.path.realpath(os.sep + os.sep.join(parts[:literal])))
    # the literal head as given and as resolved, escaped: names, not patterns
    escaped = ([glob.escape(p) for p in parts[:literal]], [glob.escape(p) for p in real])
    return any(_matches(head + parts[literal:], _parts(out)) for head in escaped)


def check(where: str, out: str, paths=(), runs=()) -> None:
    """Refuse the output directory ``out`` if it is or holds an input, or lies where runs are read.

    Parameters
    ----------
    where : str
        OUT as messages name it (``-o out``, ``out_dir='out'``).
    out : str
        OUT resolved (:func:`os.path.realpath`).
    paths : iterable of str
        Every input file (data, specs, names files, user metric files).
    runs : iterable of str
        Runs folders and globs: OUT must not be or hold one, nor be read with them
        (:func:`reaches`).

    Raises
    ------
    OutputError
        Naming ``where``, the input, and what to do instead.
    """
    inside = out.rstrip(os.sep) + os.sep
    runs = [str(r) for r in runs if r]
    for raw in [*paths, *runs]:
        if not raw:
            continue
        for p in {os.path.abspath(raw), os.path.realpath(raw)}:
            if p == out or p.startswith(inside):
                what = "is" if p == out else "holds"
                raise OutputError(
                    f"{where}: the output directory {what} the input {raw}; replacing it "
                    f"would delete inputs: write the report to a folder of its own"
                )
    for raw in runs:
        if reaches(raw, out):
            if glob.has_magic(raw):
                what = f"the runs glob {raw!r} can match the output directory or files in it"
                away = "it does not reach"
            else:
                what, away = f"the output directory is inside the runs folder {raw}", "outside it"
            raise OutputError(
                f"{where}: {what} (every file there is read as a run): the next run would read "
                f"this report as runs; write the report to a folder {away}"
            )


def check_runs(runs: str, out_dir: str | None) -> None:
    """Refuse to read the runs ``runs`` when they reach the output directory ``out_dir`` (as the
    caller named it; None: no check)."""
    if out_dir is not None:
        check(option("output", str(out_dir)), os.path.realpath(out_dir), runs=[runs])
