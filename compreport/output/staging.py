"""The output directory contract: compreport writes only into a directory it owns and never deletes
a file it did not write (README, Outputs).

* OUT is resolved first (``.``, ``..``, symlinks: a symlink's target is replaced, the link kept).
  OUT must not be, or hold, an input file or the current directory, nor lie where runs are read
  (:mod:`compreport.output.overlap`).
* OUT may be absent or empty; otherwise it must hold the manifest (:mod:`.manifest`) and
  ``force`` must be given, and only the files the manifest lists are replaced. A non-empty
  directory without a manifest is refused, even with ``force``.
* The lock ``.OUT.lock`` beside OUT (``O_EXCL``, holding pid and host) is held from the claim to
  the end of the run: a second run into the same OUT fails naming it; a dead process's lock is
  taken over.
* The report is written into ``.OUT.tmp-<pid>-<random>`` beside OUT (a marker inside holds pid
  and host), its manifest last. At the swap, with SIGINT and SIGTERM held back, the ownership
  check is repeated: a file compreport did not write (one saved during the run included) where the
  new report has a file refuses the swap. Otherwise OUT becomes ``.OUT.old-<pid>-<random>``, the
  temporary directory becomes OUT, and the old one is swept: its listed files deleted, every other
  file moved into the new OUT and named in a note.
* An OUT that is a mount point (a container's volume), which cannot be renamed, is filled in
  place: the lock is ``OUT/.compreport.lock`` and the temporary directory
  ``OUT/.compreport-tmp-<pid>-<random>``, both on OUT's own file system (OUT's parent may be
  read-only); at the swap a manifest listing the earlier report's files and the new ones is put in
  OUT, the new files are renamed in one by one (each replacing its earlier version), the earlier
  report's other files are deleted, and the new manifest goes last. A failure while the report is
  written leaves OUT as it was; only an OS failure or SIGKILL during those renames can leave a mix
  of the two reports, under a manifest naming both, which the next ``force`` run replaces.
* On any failure (an error, Ctrl-C, SIGTERM, a full disk) the temporary directory is removed and
  OUT is as it was. Temporaries of a process that no longer runs (SIGKILL) are recognised by name,
  marker and pid and cleared by the next run: a ``.tmp-`` is removed, an ``.old-`` is put back as
  OUT (when OUT is missing) or swept into it.
"""

from __future__ import annotations

import errno
import json
import os
import re
import secrets
import shutil
import signal
import socket
import stat
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path

from compreport import interrupts
from compreport.errors import OutputError, note, option, os_reason
from compreport.output.files import write_text
from compreport.output.manifest import (
    LOCK,
    MANIFEST,
    MARKER,
    clashes,
    parents,
    read_manifest,
    sweep,
    unlisted,
    write_manifest,
)
from compreport.output.overlap import check

#: The prefix of the temporary directory inside an OUT that is a mount point.
INSIDE = ".compreport-tmp-"
_INSIDE = re.compile(rf"{re.escape(INSIDE)}(\d+)-[A-Za-z0-9_]+")

#: Claims this process holds: resolved OUT -> Claim (a claim is re-entered, not locked twice).
_HELD: dict[str, Claim] = {}
_SHOWN = 3  # files named in an error or a note


def _few(names: list[str]) -> str:
    shown = ", ".join(names[:_SHOWN])
    return shown + (f" and {len(names) - _SHOWN} more" if len(names) > _SHOWN else "")


def _owner() -> str:
    return f"{os.getpid()} {socket.gethostname()}\n"


def _read_owner(path: Path) -> tuple[int, str] | None:
    """(pid, host) written by :func:`_owner`, or None when unreadable or not of that form."""
    try:
        pid, host = path.read_text(encoding="utf-8").split()
        return int(pid), host
    except (OSError, ValueError, UnicodeDecodeError):
        return None


def _alive(pid: int, host: str | None = None) -> bool:
    """Whether process ``pid`` may still run (another host's process, or an unsure answer: yes)."""
    if host is not None and host != socket.gethostname():
        return True
    if pid <= 0 or pid == os.getpid():
        return pid > 0
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: another user's live process
        return True
    try:  # a zombie (killed, not yet reaped by its parent) runs no more
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] not in ("Z", "X")
    except (OSError, IndexError):
        return True


def mount_point(path: str | os.PathLike) -> bool:
    """Whether ``path`` (resolved) is a mount point: another device than its parent's, or a mount
    point named in ``/proc/self/mountinfo`` (a bind mount of the same file system)."""
    if os.path.ismount(path):
        return True
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="surrogateescape") as fh:
            points = {
                re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), line.split()[4])
                for line in fh
                if len(line.split()) > 4
            }
    except OSError:
        return False
    return os.fspath(path) in points


@contextmanager
def _signals_held():
    """SIGINT and SIGTERM wait until the block ends (the swap is never cut in the middle)."""
    if (
        not hasattr(signal, "pthread_sigmask")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


class Claim:
    """One run's hold on an output directory (see the module docstring); made by :func:`claim`."""

    def __init__(self, given: Path, force: bool):
        self.given = given
        self.force = force
        self.out = Path(os.path.realpath(given))
        self.parent, self.name = self.out.parent, self.out.name
        self.lock = self.parent / f".{self.name}.lock"
        self.tmp: Path | None = None
        self.pid = os.getpid()
        self.locked = False
        self.in_place = False  # OUT is a mount point: filled in place (module docstring)
        self.committed = False
        self.made: list[Path] = []  # parent folders this claim created
        self.partial = False  # an in-place fill has begun moving files into OUT

    # ------------------------------------------------------------------ checks before the lock

    @property
    def where(self) -> str:
        """OUT as the caller named it: ``-o out`` (command line) or ``out_dir='out'`` (Python)."""
        return option("output", str(self.given))

    def check_place(self) -> None:
        """OUT is not the current directory (nor holds it) and, when it exists, is a directory."""
        cwd = os.path.realpath(os.getcwd())
        if (
            not self.name
            or cwd == str(self.out)
            or cwd.startswith(str(self.out).rstrip(os.sep) + os.sep)
        ):
            what = "is" if cwd == str(self.out) else "holds"
            raise OutputError(
                f"{self.where}: the output directory {what} the current directory, which replacing "
                f"it would pull from under you; write the report to a folder of its own "
                f"(e.g. {option('output', 'report')})"
            )
        if os.path.lexists(self.out) and not self.out.is_dir():
            raise OutputError(f"{self.given}: exists and is not a directory")

    def protect(self, paths, runs=()) -> None:
        """Refuse an OUT that is or holds one of ``paths`` (every input: data, specs, metric files)
        or ``runs`` (folders or globs of runs), or lies where those runs are read
        (:func:`compreport.output.overlap.check`)."""
        check(self.where, str(self.out), paths, runs)

    # ------------------------------------------------------------------ lock, recovery, ownership

    def acquire(self) -> None:
        """Create OUT's parent if needed and take the lock ``.OUT.lock`` beside OUT (inside an OUT
        that is a mount point: ``OUT/.compreport.lock``)."""
        self.in_place = self.out.is_dir() and not self.out.is_symlink() and mount_point(self.out)
        if self.in_place:
            self.lock = self.out / LOCK
        missing = []
        p = self.parent
        while not os.path.lexists(p) and p != p.parent:
            missing.append(p)
            p = p.parent
        try:
            for d in reversed(missing):
                d.mkdir()
                self.made.append(d)
        except OSError as exc:
            raise OutputError(
                f"{self.given}: cannot create the folder {exc.filename or self.parent} "
                f"({os_reason(exc)})"
            ) from None
        for _ in range(2):
            try:
                fd = os.open(self.lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                holder = _read_owner(self.lock)
                if holder is not None and not _alive(*holder) and _read_owner(self.lock) == holder:
                    try:
                        self.lock.unlink()
                    except FileNotFoundError:
                        pass
                    except OSError as exc:
                        raise OutputError(
                            f"{self.lock}: cannot remove the lock of a run that has ended "
                            f"({os_reason(exc)})"
                        ) from None
                    continue
                by = f"pid {holder[0]} on {holder[1]}" if holder else "a run that is starting"
                raise OutputError(
                    f"{self.given}: another compreport run is writing to it (lock {self.lock} held "
                    f"by {by}); wait for it to end, or delete {self.lock} if no compreport runs"
                ) from None
            except OSError as exc:
                if self.in_place:
                    raise OutputError(
                        f"{self.given}: not writable ({os_reason(exc)}); compreport writes its "
                        f"lock and temporary folder inside an output directory that is a mount "
                        f"point: make it writable or choose another output directory"
                    ) from None
                raise OutputError(
                    f"{self.given}: cannot write in {self.parent} ({os_reason(exc)}); compreport "
                    f"writes a lock and a temporary folder beside the output directory"
                ) from None
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as fh:
                    fh.write(_owner())
            except OSError as exc:
                self.lock.unlink(missing_ok=True)
                raise OutputError(
                    f"{self.given}: cannot write the lock {self.lock} ({os_reason(exc)})"
                ) from None
            self.locked = True
            return
        raise OutputError(f"{self.given}: cannot take the lock {self.lock}")

    def recover(self) -> None:
        """Clear the temporaries of runs into this OUT whose process is gone (SIGKILL, a crash),
        beside OUT and inside an OUT that is a mount point."""
        try:
            inside = [n for n in os.listdir(self.out) if _INSIDE.fullmatch(n)]
        except OSError:
            inside = []
        for entry in inside:
            path = self.out / entry
            holder = _read_owner(path / MARKER)
            if path.is_symlink() or not path.is_dir():
                continue
            if (holder is not None and not _alive(*holder)) or (
                holder is None
                and not _alive(int(_INSIDE.fullmatch(entry).group(1)))
                and set(os.listdir(path)) <= {MARKER}
            ):
                shutil.rmtree(path, ignore_errors=True)
        pattern = re.compile(rf"\.{re.escape(self.name)}\.(tmp|old)-(\d+)-[A-Za-z0-9_]+")
        try:  # .old- first
            entries = sorted(os.listdir(self.parent), key=lambda n: (".tmp-" in n, n))
        except OSError:
            return
        for entry in entries:
            m = pattern.fullmatch(entry)
            path = self.parent / entry
            if not m or path.is_symlink() or not path.is_dir():
                continue
            try:
                if m.group(1) == "tmp":
                    holder = _read_owner(path / MARKER)
                    if holder is not None and not _alive(*holder):
                        shutil.rmtree(path, ignore_errors=True)
                    elif (
                        holder is None
                        and not _alive(int(m.group(2)))
                        and set(os.listdir(path)) <= {MARKER}
                    ):
                        # killed between creating the folder and writing its marker: nothing
                        # else inside
                        shutil.rmtree(path, ignore_errors=True)
                elif not _alive(int(m.group(2))):
                    if not os.path.lexists(self.out):
                        # the swap was cut short: put the previous output back
                        os.rename(path, self.out)
                        continue
                    moved, left = sweep(path, self.out, read_manifest(path) or set())
                    self._say(moved, left, path)
            except (OSError, OutputError):
                continue  # best effort: what cannot be cleared stays, nothing is deleted blindly

    def inspect(self) -> None:
        """The ownership check: OUT absent, empty, or marked by a manifest (and ``force`` given)."""
        if not os.path.lexists(self.out):
            return
        if not self.out.is_dir():
            raise OutputError(f"{self.given}: exists and is not a directory")
        try:
            ours = (MARKER, LOCK) if self.in_place else (MARKER,)
            entries = sorted(n for n in os.listdir(self.out) if n not in ours)
            if "lost+found" in entries and mount_point(self.out):  # a fresh file system's
                entries.remove("lost+found")
        except OSError as exc:
            raise OutputError(
                f"{self.given}: cannot list the output directory ({os_reason(exc)})"
            ) from None
        if not entries:
            return self._writable(set())
        listed = read_manifest(self.out)
        if listed is None:
            hint = ""
            try:
                tool = json.loads((self.out / "results.json").read_text(encoding="utf-8"))["tool"][
                    "name"
                ]
                if tool == "compreport":
                    hint = (
                        " (an earlier report written without a manifest: delete it yourself, once)"
                    )
            except Exception:  # noqa: BLE001 - only a hint
                pass
            shown = [
                n + "/" if (self.out / n).is_dir() and not (self.out / n).is_symlink() else n
                for n in entries
            ]
            raise OutputError(
                f"{self.given}: the output directory is not empty and compreport did not write it "
                f"(it holds {_few(shown)}){hint}; compreport writes only into a new or empty "
                f"directory, or one holding its manifest {MANIFEST}, even with "
                f"{option('force', True)}: choose another output directory"
            )
        if not self.force:
            raise OutputError(
                f"{self.given}: the output directory holds an earlier report; pass "
                f"{option('force', True)} to replace the files compreport wrote there "
                f"(any other file is kept)"
            )
        self._writable(listed)

    def _writable(self, listed: set[str]) -> None:
        for d in sorted({""} | parents(listed)):
            path = self.out / d if d else self.out
            if path.is_dir() and not os.access(path, os.W_OK | os.X_OK):
                raise OutputError(
                    f"{path}: not writable; compreport cannot replace the files it wrote there: "
                    f"make it writable or choose another output directory"
                )

    def stage(self) -> None:
        """Create the temporary directory, with its marker: beside OUT, or inside an OUT that is a
        mount point."""
        try:
            if self.in_place:
                self.tmp = Path(tempfile.mkdtemp(prefix=f"{INSIDE}{os.getpid()}-", dir=self.out))
            else:
                self.tmp = Path(
                    tempfile.mkdtemp(prefix=f".{self.name}.tmp-{os.getpid()}-", dir=self.parent)
                )
            (self.tmp / MARKER).write_text(_owner(), encoding="utf-8")
        except OSError as exc:
            raise OutputError(
                f"{self.given}: cannot create a temporary folder in {self.parent} "
                f"({os_reason(exc)})"
            ) from None

    # ------------------------------------------------------------------ the swap

    def write_error(self, exc: OSError) -> OutputError:
        """An OS error met while writing into the temporary directory, as one message."""
        name = exc.filename if isinstance(exc.filename, str) else None
        if name and self.tmp is not None and name.startswith(str(self.tmp)):
            name = os.path.relpath(name, self.tmp)
        state = (
            "the previous output is unchanged"
            if os.path.lexists(self.out)
            else "nothing was written"
        )
        return OutputError(
            f"{self.given}: cannot write the report ({os_reason(exc)}"
            f"{': ' + name if name else ''}); {state}"
        )

    def commit(self, info: dict) -> None:
        """Write the manifest (``info`` plus the tool and every file of the report), then swap the
        report in."""
        interrupts.check()  # a stop whose exception was lost never commits the output
        try:
            write_manifest(self.tmp, info)
        except OSError as exc:
            raise self.write_error(exc) from None
        with _signals_held():
            try:
                moved, left, old = self._swap()
            except OSError as exc:
                if self.committed:
                    state = "the new report is in place"
                elif self.partial:
                    state = (
                        f"it holds part of the new report, under a manifest naming every file: "
                        f"run again with {option('force', True)}"
                    )
                else:
                    state = "it is unchanged"
                raise OutputError(
                    f"{self.given}: cannot replace the output directory ({os_reason(exc)}); {state}"
                ) from None
        self._say(moved, left, old)

    def _swap(self) -> tuple[list[str], list[str], Path | None]:
        if not os.path.lexists(self.out):
            os.chmod(self.tmp, 0o755)  # mkdtemp made it private
            os.rename(self.tmp, self.out)
            self._swapped()
            return [], [], None
        if self.out.is_symlink() or not self.out.is_dir():
            raise OutputError(
                f"{self.given}: became something other than a directory during the run; "
                f"nothing was changed"
            )
        # The ownership check again, at the moment of the swap (under the lock).
        listed = read_manifest(self.out)
        if listed is not None and not self.force:
            raise OutputError(
                f"{self.given}: an earlier report appeared there during the run; pass "
                f"{option('force', True)} to replace it; nothing was changed"
            )
        listed = listed or set()
        others = unlisted(self.out, listed, self.tmp)
        if self.in_place:
            others = [r for r in others if r.rstrip("/") not in (self.tmp.name, LOCK)]
        taken = clashes(others, self.tmp)
        if taken:
            raise OutputError(
                f"{self.given}: {_few(taken)}: not written by compreport, where this report "
                f"writes a file of that name; move {'them' if len(taken) > 1 else 'it'} away and "
                f"run again; nothing was changed"
            )
        if self.in_place:
            self._fill(listed)
            return [], [], None
        os.chmod(self.tmp, stat.S_IMODE(os.stat(self.out).st_mode))  # OUT keeps its permissions
        old = self.parent / f".{self.name}.old-{os.getpid()}-{secrets.token_hex(4)}"
        os.rename(self.out, old)
        try:
            os.rename(self.tmp, self.out)
        except BaseException:
            os.rename(old, self.out)
            raise
        self._swapped()
        moved, left = sweep(old, self.out, listed)
        return moved, left, old

    def _fill(self, listed: set[str]) -> None:
        """The swap into an OUT that is a mount point: the new files renamed in one by one, under a
        manifest naming the earlier report's files and the new ones until the new manifest is put
        in, last (module docstring)."""
        tmp, out = self.tmp, self.out
        manifest = json.loads((tmp / MANIFEST).read_text(encoding="utf-8"))
        new = manifest["files"]
        both = {**manifest, "files": sorted(listed | set(new))}
        union = tmp / f"{MANIFEST}.both"
        write_text(union, json.dumps(both, indent=1, ensure_ascii=False) + "\n")
        os.replace(union, out / MANIFEST)
        self.partial = True
        for rel in new:
            parts = rel.split("/")
            for i in range(1, len(parts)):
                folder = out.joinpath(*parts[:i])
                if not os.path.lexists(folder):
                    os.mkdir(folder)
                elif folder.is_symlink() or not folder.is_dir():
                    raise OSError(errno.ENOTDIR, "Not a directory", str(folder))
            os.replace(tmp.joinpath(*parts), out.joinpath(*parts))
        gone = set(listed) - set(new)
        for rel in sorted(gone):
            path = out.joinpath(*rel.split("/"))
            if os.path.realpath(path.parent) == os.path.join(str(out), *rel.split("/")[:-1]):
                if not path.is_dir() or path.is_symlink():  # never through a linked folder
                    path.unlink(missing_ok=True)
        for folder in sorted(parents(gone), key=lambda d: -d.count("/")):
            try:
                os.rmdir(out.joinpath(*folder.split("/")))
            except OSError:
                pass  # not empty (a user's file, a new file) or gone
        os.replace(tmp / MANIFEST, out / MANIFEST)
        shutil.rmtree(tmp, ignore_errors=True)
        self.partial = False
        self._swapped()

    def _swapped(self) -> None:
        self.tmp = None
        self.committed = True
        try:
            os.unlink(self.out / MARKER)
        except OSError:
            pass

    def _say(self, moved: list[str], left: list[str], old: Path | None) -> None:
        """A note naming the files a sweep of ``old`` kept in OUT (``moved``) or left behind."""
        said = []
        if moved:
            said.append(f"kept in {self.given} what compreport did not write: {_few(moved)}")
        if left and old is not None:
            said.append(
                f"left in {old}: {_few(left)} (the new report has files of those names, or they "
                f"could not be moved)"
            )
        if said:
            note("; ".join(said))

    def release(self) -> None:
        """Remove the temporary directory (when not swapped in), the lock, and the parent folders
        made for a report that was not written."""
        with _signals_held():
            if self.tmp is not None:
                shutil.rmtree(self.tmp, ignore_errors=True)
                self.tmp = None
            if self.locked:
                if _read_owner(self.lock) == (os.getpid(), socket.gethostname()):
                    try:
                        self.lock.unlink()
                    except OSError:
                        pass
                self.locked = False
            if not self.committed:
                for d in reversed(self.made):
                    try:
                        d.rmdir()
                    except OSError:
                        break


def out_path(out_dir) -> Path:
    """``out_dir`` as a :class:`~pathlib.Path`, refusing what cannot name a folder (``None``,
    bytes, a number, an empty string) with one :class:`OutputError`: the check of every writer's
    output argument (:func:`claim`, :meth:`compreport.Report.write`, ``write_plan``).

    >>> out_path("out")
    PosixPath('out')
    >>> out_path(b"out")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    compreport.errors.OutputError: `out_dir` must be a folder's path (str or pathlib.Path); got ...
    """
    if not isinstance(out_dir, (str, os.PathLike)) or not isinstance(os.fspath(out_dir), str):
        raise OutputError(
            f"`out_dir` must be a folder's path (str or pathlib.Path); got "
            f"{type(out_dir).__name__} {out_dir!r:.80}"
        )
    if not os.fspath(out_dir).strip():
        raise OutputError("`out_dir` must name a folder; got an empty string")
    return Path(out_dir)


@contextmanager
def claim(out_dir: str | Path, force: bool = False, protect=(), runs=()):
    """Hold the output directory ``out_dir`` for one run (see the module docstring).

    In order: OUT must not be or hold a path of ``protect``, nor be read with the runs ``runs``
    (:meth:`Claim.protect`), nor be the current directory or a file; the lock is taken, stale
    temporaries are cleared, and the ownership check is made (:meth:`Claim.inspect`). The block
    then runs with a :class:`Claim` whose ``tmp`` is the empty temporary directory to write into
    and whose :meth:`Claim.commit` swaps it in. Whatever happens, the temporary directory and the
    lock are gone when the block ends.

    Claiming an OUT this process already holds yields that claim, after checking ``protect`` and
    ``runs``: the command line claims OUT before it reads the inputs, then
    :meth:`compreport.Report.write` claims it again.

    Parameters
    ----------
    out_dir : str or Path
        The output directory, as the caller named it.
    force : bool, default False
        Replace an earlier report: the files its manifest lists.
    protect : iterable of str
        Every input file, which OUT must not be or hold.
    runs : iterable of str
        Runs folders and globs, which OUT must not be, hold or lie where they read.

    Raises
    ------
    OutputError
        For every refusal and OS failure; nothing was changed.

    Examples
    --------
    >>> with claim("out") as target:
    ...     _ = (target.tmp / "results.json").write_text("{}")
    ...     target.commit({"formats": ["json"]})
    >>> sorted(os.listdir("out"))
    ['.compreport.json', 'results.json']
    """
    given = out_path(out_dir)
    key = os.path.realpath(given)
    held = _HELD.get(key)
    if held is not None and held.pid == os.getpid():
        held.protect(protect, runs)
        yield held
        return
    c = Claim(given, force)
    c.protect(protect, runs)
    c.check_place()
    try:
        c.acquire()
        _HELD[key] = c
        c.recover()
        c.inspect()
        c.stage()
        yield c
    finally:
        _HELD.pop(key, None)
        c.release()
