"""Figures: each drawn once per report by a :class:`~compreport.report.figures.gallery.Gallery`.

This package's own namespace holds only what needs no matplotlib, so the command line can name the
figure formats without loading it. Importing it gives matplotlib a private configuration folder
when the user's cannot be written (:func:`private_matplotlib_dir`): every module of compreport
that imports matplotlib is in this package, so the command line and API users alike get it before
matplotlib is loaded.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

#: Figure file formats of :meth:`compreport.Report.write` (``figure_formats``).
FIGURE_FORMATS = ("pdf", "svg", "png")

#: The XDG variables and their defaults under HOME behind matplotlib's configuration and cache.
_XDG = (("XDG_CONFIG_HOME", ".config"), ("XDG_CACHE_HOME", ".cache"))


def private_matplotlib_dir() -> str | None:
    """Give matplotlib a private folder (``MPLCONFIGDIR``) when ``MPLCONFIGDIR`` is unset and the
    folders it would use for its configuration and font cache cannot be written (a read-only or
    missing HOME): matplotlib would otherwise print two lines of its own on every run and rebuild
    its font cache each time. The folder is ``compreport-matplotlib-UID`` in the temporary folder,
    used only if this user owns it and no one else may write it (else a new one). Run when this
    package is imported; it has no effect on a matplotlib already imported.

    Returns
    -------
    str or None
        The folder set as ``MPLCONFIGDIR``, or None when it was left alone.
    """
    import stat
    import tempfile

    if os.environ.get("MPLCONFIGDIR"):
        return None
    try:
        home = Path.home()
    except (RuntimeError, KeyError):  # no HOME and no password entry
        home = None
    if home is not None:
        if sys.platform.startswith(("linux", "freebsd")):
            bases = [os.environ.get(v) or str(home / d) for v, d in _XDG]
            wanted = [Path(b, "matplotlib") for b in bases]
        else:
            wanted = [home / ".matplotlib"]
        if all(_could_write(p) for p in wanted):
            return None
    uid = os.getuid() if hasattr(os, "getuid") else 0
    private = Path(tempfile.gettempdir(), f"compreport-matplotlib-{uid}")
    with contextlib.suppress(OSError):
        os.mkdir(private, 0o700)
    try:
        st = os.lstat(private)
        mine = stat.S_ISDIR(st.st_mode) and st.st_uid == uid and not st.st_mode & 0o022
    except OSError:
        mine = False
    if not mine:  # someone else's, or a link: a fresh folder of this run's own
        private = Path(tempfile.mkdtemp(prefix="compreport-matplotlib-"))
    os.environ["MPLCONFIGDIR"] = str(private)
    return str(private)


def _could_write(path: Path) -> bool:
    """Whether folder ``path`` exists and can be written, or could be created (its nearest
    existing ancestor is a folder that can be written)."""
    path = Path(os.path.abspath(path))
    while not os.path.lexists(path) and path.parent != path:
        path = path.parent
    return path.is_dir() and os.access(path, os.W_OK | os.X_OK)


private_matplotlib_dir()
