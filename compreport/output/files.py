"""Opening the files compreport writes: never through a final symbolic link, never into a device
or FIFO.

Every writer opens its file with :func:`open_new` (or :func:`write_text`, :func:`write_bytes`):
``O_NOFOLLOW`` refuses a final symbolic link (the open fails with ``ELOOP``, which
:func:`compreport.output.staging.Claim.write_error` turns into one message), ``O_NONBLOCK`` keeps
a FIFO from blocking, and a file that is not regular once opened is refused. :func:`replace_file`
writes a file the user did not name (``compreport init``'s spec) into a new file beside it and
renames it over the old one, so a link planted there is replaced, not followed.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from pathlib import Path

_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
_FLAGS |= getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


def _open_fd(path: str | os.PathLike, flags: int = _FLAGS) -> int:
    """A descriptor of ``path`` open for writing: a regular file, reached without following a
    final link."""
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # O_NOFOLLOW met a link: say so, not "too many levels"
            raise OSError(
                errno.ELOOP, "is a symbolic link, which compreport does not follow", str(path)
            ) from None
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "is not a regular file", str(path))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_new(path: str | os.PathLike, mode: str = "w", **kwargs):
    """Open ``path`` for writing (truncated) like :func:`open`, refusing a final symbolic link, a
    FIFO or a device.

    Parameters
    ----------
    path : str or path-like
        The file to write.
    mode : {"w", "wb"}
        Text or binary.
    **kwargs
        Passed to :func:`open` (``encoding``, ``newline``).

    Returns
    -------
    file object

    Raises
    ------
    OSError
        ``ELOOP`` ("is a symbolic link ...") for a link, ``EINVAL`` for a file that is not
        regular, and any other failure to open; ``filename`` is ``path``.

    Examples
    --------
    >>> with open_new("a.txt", encoding="utf-8") as fh:
    ...     _ = fh.write("x")
    >>> os.symlink("a.txt", "link.txt")
    >>> open_new("link.txt")
    Traceback (most recent call last):
    ...
    OSError: [Errno 40] is a symbolic link, which compreport does not follow: 'link.txt'
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"mode {mode!r}: 'w' or 'wb'")
    return open(_open_fd(path), mode, **kwargs)  # noqa: SIM115 - the caller closes it


def write_text(path: str | os.PathLike, text: str, encoding: str = "utf-8", newline=None) -> int:
    """:meth:`pathlib.Path.write_text` through :func:`open_new`."""
    with open_new(path, "w", encoding=encoding, newline=newline) as fh:
        return fh.write(text)


def write_bytes(path: str | os.PathLike, data: bytes) -> int:
    """:meth:`pathlib.Path.write_bytes` through :func:`open_new`."""
    with open_new(path, "wb") as fh:
        return fh.write(data)


def replace_file(path: Path, text: str, encoding: str = "utf-8") -> None:
    """Write ``text`` as ``path``: into a new file beside it (``O_EXCL``), then renamed over
    ``path``, so that whatever ``path`` is when the rename happens (a link included) is replaced
    and never written through. The new file has mode 0644 (less the umask)."""
    tmp = path.with_name(f".{path.name}.new-{os.getpid()}-{secrets.token_hex(4)}")
    fd = _open_fd(tmp, _FLAGS | os.O_EXCL)
    try:
        with open(fd, "w", encoding=encoding) as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
