"""``compreport init DIR``: a commented competition.toml and the folders it names."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from compreport.errors import InputError, note, os_reason
from compreport.output.files import replace_file
from compreport.resources import templates_dir

#: The commented competition.toml that ``compreport init`` writes (``templates/``).
TEMPLATE = (templates_dir() / "competition.toml").read_text(encoding="utf-8")


def scaffold(directory: Path, force: bool = False) -> list[Path]:
    """Write ``directory/competition.toml`` (:data:`TEMPLATE`) and create ``directory/runs``.

    The spec is written into a new file beside it and renamed into place
    (:func:`compreport.output.files.replace_file`): an existing ``competition.toml`` that is a
    symbolic link, a folder, a FIFO or a device is refused, never written through, and a link
    planted while it runs is replaced, not followed. ``directory`` itself may be a link (the user
    named it).

    Parameters
    ----------
    directory : Path
        Created if missing.
    force : bool
        Replace an existing competition.toml; unless it is the template itself, the user's file is
        kept beside it as ``competition.toml.bak`` (``.bak.2``, ... when taken), with a note.

    Returns
    -------
    list of Path
        The spec and the runs folder.

    Raises
    ------
    InputError
        When the spec exists (without ``force``) or is not a regular file, when ``directory`` is a
        file, or on an OS failure (read-only folder, full disk); nothing was written.

    Examples
    --------
    >>> [p.name for p in scaffold(Path("new"))]
    ['competition.toml', 'runs']
    >>> Path("linked").mkdir()
    >>> os.symlink("/etc/hostname", "linked/competition.toml")
    >>> scaffold(Path("linked"), force=True)
    Traceback (most recent call last):
    ...
    compreport.errors.InputError: linked/competition.toml: is a symbolic link (to /etc/hostname); \
compreport init writes the spec only as a regular file: remove the link, or choose another folder
    """
    spec = directory / "competition.toml"
    if os.path.lexists(spec):
        if spec.is_symlink():
            raise InputError(
                f"{spec}: is a symbolic link (to {os.readlink(spec)}); compreport init writes the "
                f"spec only as a regular file: remove the link, or choose another folder"
            )
        if not stat.S_ISREG(spec.lstat().st_mode):
            kind = "a folder" if spec.is_dir() else "not a regular file"
            raise InputError(f"{spec}: is {kind}; compreport init writes the spec there")
        if not force:
            raise InputError(f"{spec}: already exists; pass --force to overwrite it")
    if directory.exists() and not directory.is_dir():
        raise InputError(f"{directory}: exists and is not a directory")
    try:
        (directory / "runs").mkdir(parents=True, exist_ok=True)
        keep = os.path.lexists(spec) and spec.read_bytes() != TEMPLATE.encode("utf-8")
        if keep:  # the user's: never lost
            kept, k = spec.with_name(spec.name + ".bak"), 1
            while os.path.lexists(kept):
                k += 1
                kept = spec.with_name(f"{spec.name}.bak.{k}")
            try:  # a second name for the user's file, which fails if taken meanwhile
                os.link(spec, kept, follow_symlinks=False)
            except FileExistsError:
                raise
            except OSError:  # a file system without hard links
                os.rename(spec, kept)
        replace_file(spec, TEMPLATE)
    except OSError as exc:
        name = exc.filename or directory
        raise InputError(f"{name}: cannot write ({os_reason(exc)}); nothing was replaced") from None
    if keep:
        note(f"{spec}: the existing file is kept as {kept.name}")
    return [spec, directory / "runs"]
