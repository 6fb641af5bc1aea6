"""The manifest of an output directory, and how a replaced one is emptied without losing a file.

``OUT/.compreport.json`` lists every file a run wrote into OUT (relative, '/'-separated paths),
with the version and settings; it is written last. What it does not list belongs to the user:
:func:`unlisted` names it, :func:`clashes` finds it where a new report writes, and :func:`sweep`
moves it into the new report after deleting the listed files (see :mod:`.staging`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path, PurePosixPath

from compreport._version import __version__
from compreport.errors import OutputError, os_reason
from compreport.output.files import write_text

#: The manifest: every file a run wrote into OUT (relative, '/'-separated), its version and
#: settings.
MANIFEST = ".compreport.json"
#: Inside a temporary directory: the pid and host of the run writing it.
MARKER = ".compreport-staging"
#: The lock inside an OUT that is a mount point (:mod:`.staging`).
LOCK = ".compreport.lock"
#: compreport's own files in OUT, which no manifest lists.
OURS = frozenset({MANIFEST, MARKER})


def write_manifest(directory: Path, info: dict) -> None:
    """Write ``directory``'s manifest: the tool, ``info`` (settings, formats) and every file in
    it."""
    files = sorted(
        PurePosixPath(Path(d).relative_to(directory), f).as_posix()
        for d, _, names in os.walk(directory)
        for f in names
    )
    manifest = {
        "tool": {"name": "compreport", "version": __version__},
        **info,
        "files": [f for f in files if f not in OURS],
    }
    write_text(directory / MANIFEST, json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")


def _safe(rel) -> bool:
    """Whether ``rel`` is a manifest entry: a relative '/'-path inside OUT, without '..', that is
    not compreport's own file."""
    if not isinstance(rel, str) or not rel or rel.startswith("/") or "\\" in rel or "\x00" in rel:
        return False
    parts = rel.split("/")
    return all(p not in ("", ".", "..") for p in parts) and rel not in OURS


def read_manifest(directory: Path) -> set[str] | None:
    """The files ``directory``'s manifest lists, or None when it has none.

    Raises
    ------
    OutputError
        A manifest that is not compreport's: unreadable, not a regular file, not JSON, without
        compreport's ``tool`` and list of ``files``, or listing a path that leaves the directory.
    """
    path = directory / MANIFEST
    if not os.path.lexists(path):
        return None
    problem = None
    try:
        if path.is_symlink() or not path.is_file():
            raise ValueError("not a regular file")
        data = json.loads(path.read_text(encoding="utf-8"))
        files = data.get("files") if isinstance(data, dict) else None
        tool = data.get("tool") if isinstance(data, dict) else None
        if (
            not isinstance(tool, dict)
            or tool.get("name") != "compreport"
            or not isinstance(files, list)
            or not all(_safe(f) for f in files)
        ):
            raise ValueError("no list of files written by compreport")
    except (OSError, ValueError) as exc:
        problem = os_reason(exc) if isinstance(exc, OSError) else str(exc)
    if problem is not None:
        raise OutputError(
            f"{path}: not a compreport manifest ({problem}); compreport replaces only a "
            f"directory it wrote: remove that directory yourself or choose another output directory"
        )
    return set(files)


def parents(listed: set[str]) -> set[str]:
    """Every folder above the files ``listed`` ('/'-separated paths).

    >>> sorted(parents({"a/b/c.tex", "d.json"}))
    ['a', 'a/b']
    """
    return {
        str(PurePosixPath(*PurePosixPath(f).parts[:i]))
        for f in listed
        for i in range(1, len(PurePosixPath(f).parts))
    }


def unlisted(directory: Path, listed: set[str], new: Path | None = None) -> list[str]:
    """What ``directory`` holds that ``listed`` does not name (compreport's own files aside): files
    and links, and directories that hold no listed file (named once, ending in '/'), unless ``new``
    has a directory of that name, whose contents are then listed one by one."""
    inner = parents(listed)
    out: list[str] = []

    def walk(d: str, rel: str) -> None:
        for e in sorted(os.scandir(d), key=lambda e: e.name):
            r = rel + e.name
            if not rel and e.name in OURS:
                continue
            if e.is_dir(follow_symlinks=False):
                if r in inner or (
                    new is not None and (new / r).is_dir() and not (new / r).is_symlink()
                ):
                    walk(e.path, r + "/")
                else:
                    out.append(r + "/")
            elif r not in listed:
                out.append(r)

    walk(str(directory), "")
    return out


def clashes(others: list[str], new: Path) -> list[str]:
    """Entries of ``others`` whose name a file of ``new`` takes (or whose folder is a file
    there)."""
    out = []
    for rel in others:
        parts = PurePosixPath(rel.rstrip("/")).parts
        if os.path.lexists(new.joinpath(*parts)) or any(
            os.path.lexists(new.joinpath(*parts[:i])) and not new.joinpath(*parts[:i]).is_dir()
            for i in range(1, len(parts))
        ):
            out.append(rel)
    return out


def sweep(old: Path, out: Path, listed: set[str]) -> tuple[list[str], list[str]]:
    """Empty a replaced OUT: delete the files ``listed`` names (never through a link), move every
    other file into ``out`` (the new report); returns (moved, left in ``old``). ``old`` is removed
    when nothing is left in it."""
    real = os.path.realpath(old)
    for rel in sorted(listed):
        path = os.path.join(old, *rel.split("/"))
        if os.path.realpath(os.path.dirname(path)) != os.path.normpath(
            os.path.join(real, os.path.dirname(rel))
        ):
            continue  # reached through a symlinked folder: not a file compreport wrote
        if os.path.isdir(path) and not os.path.islink(path):
            continue
        try:
            os.unlink(path)
        except OSError:
            pass  # gone already, or left in old (reported below)
    moved, left = [], []
    for rel in unlisted(old, listed, out):
        parts = PurePosixPath(rel.rstrip("/")).parts
        src, dst = old.joinpath(*parts), out.joinpath(*parts)
        if os.path.lexists(dst):
            left.append(rel)
            continue
        try:
            dst.parent.mkdir(parents=True, exist_ok=True)
            os.rename(src, dst)
            moved.append(rel)
        except OSError:
            left.append(rel)
    for dirpath, _, _ in os.walk(old, topdown=False):  # compreport's folders, now empty
        if dirpath != str(old):
            try:
                os.rmdir(dirpath)
            except OSError:
                pass
    try:
        remaining = sorted(n for n in os.listdir(old) if n not in OURS)
        if remaining:
            left = left or remaining
        else:  # the manifest goes last: a sweep cut short is finished by the next run
            for name in OURS:
                (old / name).unlink(missing_ok=True)
            os.rmdir(old)
    except OSError:
        pass
    return moved, left
