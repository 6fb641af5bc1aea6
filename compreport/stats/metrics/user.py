"""User metrics: a Python function named ``path/to/file.py:function``, evaluated per resample.

A metric file is executed Python, run with the user's permissions, as a plugin is: only name files
you trust. What can be contained is: its import and every call run with ``sys.argv`` set to
``[path]``, their printing captured and the working directory restored afterwards (a metric that
calls ``os.chdir`` moves neither the output folder nor the next relative path), an exception or
``sys.exit()`` there is an :class:`InputError` naming the file, each file is imported once (again
only when it changes), and every value the function returns, and its ``ideal``, must be a finite
real number (``10**400`` is refused, not an OverflowError).

Printing while the file is imported is shown on stderr. Printing while the function scores (once
per system and resample) is discarded, what it writes to file descriptor 1 too: stdout holds
compreport's own output only; when a call fails, its last printed line is in the error.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import math
import numbers
import os
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

from compreport.errors import InputError, os_reason
from compreport.inputs.competition import Competition
from compreport.inputs.delimited import text_name
from compreport.stats.metrics.base import Metric, Prepared
from compreport.stats.metrics.fields import NO_PREDICTION, missing_error

#: Imported metric files: (resolved path, mtime_ns, size) -> module.
_MODULES: dict[tuple[str, int, int], ModuleType] = {}


@contextlib.contextmanager
def _isolated_argv(path: Path):
    """``sys.argv`` is ``[path]`` inside: a metric file parsing it sees no compreport options."""
    saved = sys.argv
    sys.argv = [str(path)]
    try:
        yield
    finally:
        sys.argv = saved


class _Tail(io.TextIOBase):
    """A text sink that keeps only the last ``limit`` characters written to it."""

    def __init__(self, limit: int = 4096):
        self.limit, self.text = limit, ""

    def writable(self) -> bool:
        return True

    def write(self, text) -> int:
        self.text = (self.text + str(text))[-self.limit :]
        return len(text)

    def getvalue(self) -> str:
        return self.text


class _WorkingDirectory:
    """The current working directory, to go back to after user code (held open as a descriptor
    where possible, so that it is found again even if user code renames it)."""

    def __init__(self):
        self.fd, self.path = None, None
        try:
            self.fd = os.open(".", os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        except OSError:  # no read permission on it: by name
            try:
                self.path = os.getcwd()
            except OSError:  # deleted: nothing to go back to
                pass

    def restore(self) -> None:
        """Go back to the saved directory (nothing when none could be saved)."""
        if self.fd is not None:
            os.fchdir(self.fd)
        elif self.path is not None:
            os.chdir(self.path)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


@contextlib.contextmanager
def _guarded(path, sink, *, fd_stdout: bool = False):
    """Run user code with ``sys.argv == [path]``, ``sys.stdout`` and ``sys.stderr`` writing to
    ``sink`` and, with ``fd_stdout``, file descriptor 1 to ``os.devnull``; the working directory,
    the streams and descriptor 1 are restored on leaving. Yields the saved working directory
    (its ``restore()`` may be called in between)."""
    cwd = _WorkingDirectory()
    saved_fd = None
    if fd_stdout:
        try:
            sys.stdout.flush()
        except (AttributeError, OSError, ValueError):
            pass
        try:
            saved_fd = os.dup(1)
        except OSError:  # no descriptor 1 (stdout closed): nothing to protect
            saved_fd = None
        if saved_fd is not None:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.close(null)
    try:
        with (
            _isolated_argv(path),
            contextlib.redirect_stdout(sink),
            contextlib.redirect_stderr(sink),
        ):
            yield cwd
    finally:
        try:
            cwd.restore()
        finally:
            cwd.close()
            if saved_fd is not None:
                os.dup2(saved_fd, 1)
                os.close(saved_fd)


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return f"; it printed: {lines[-1][:200]}" if lines else ""


def load_module(path: Path, shown: Path | None = None) -> ModuleType:
    """Import the metric file ``path`` once (again only when its size or time changes); errors
    name it as ``shown`` (default ``path``).

    The import runs with ``sys.argv == [path]`` and its output captured (shown on stderr when the
    import succeeds, its last line in the error when it fails) and the working directory restored
    afterwards. An exception or ``SystemExit`` raised by the file becomes an :class:`InputError`
    naming it; Ctrl-C is not caught.
    """
    shown = path if shown is None else shown
    st = path.stat()
    key = (str(path.resolve()), st.st_mtime_ns, st.st_size)
    if key in _MODULES:
        return _MODULES[key]
    modname = "compreport_user_" + "".join(ch if ch.isalnum() else "_" for ch in str(path))
    module_spec = importlib.util.spec_from_file_location(modname, path)
    module = importlib.util.module_from_spec(module_spec)
    captured = io.StringIO()
    try:
        with _guarded(path, captured):
            module_spec.loader.exec_module(module)
    except SystemExit as exc:  # sys.exit() or an argparse error in the metric file
        raise InputError(
            f"{shown}: user metric file exited while loading (SystemExit: {exc.code!r})"
            f"{_last_line(captured.getvalue())}; a metric file must define a function, not run a "
            f"program"
        ) from None
    except Exception as exc:  # user code: report, do not crash
        raise InputError(
            f"{shown}: user metric failed to load: {type(exc).__name__}: {exc}"
            f"{_last_line(captured.getvalue())}"
        ) from None
    if captured.getvalue():
        sys.stderr.write(captured.getvalue())
    _MODULES[key] = module
    return module


def _describe(value) -> str:
    shown_value = repr(value)
    if len(shown_value) > 60:
        shown_value = shown_value[:57] + "..."
    return f"{shown_value} ({type(value).__name__})"


def _finite(value) -> float | None:
    """``value`` as a float when it is a real number (not ``bool``) that converts to a finite
    float; else None (``10**400`` overflows: None)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        return None
    try:
        out = float(value)
    except Exception:  # OverflowError for a huge int; a Real subclass may raise anything
        return None
    return out if math.isfinite(out) else None


def check_score(value, name: str, system: str) -> float:
    """``value`` as a float when it is a finite real number of a numeric type (``int``, ``float``,
    numpy scalars; not ``bool``); otherwise :class:`InputError` naming the metric (its file and
    function), the system and the value.

    Examples
    --------
    >>> check_score(3, "m.py:score", "team1")
    3.0
    >>> check_score(10**400, "m.py:score", "team1")
    Traceback (most recent call last):
    ...
    compreport.errors.InputError: user metric 'm.py:score' returned 1000...000... (int) for system
    'team1'; it must return a finite number
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise InputError(
            f"user metric {name!r} returned {_describe(value)} for system {system!r}; it must "
            f"return a real number (int or float)"
        )
    out = _finite(value)
    if out is None:
        raise InputError(
            f"user metric {name!r} returned {_describe(value)} for system {system!r}; it must "
            f"return a finite number"
        )
    return out


class UserMetric(Metric):
    """``path/to/file.py:function``: ``function(y_true, y_pred, **params) -> float``.

    Values are passed as float arrays when every value is numeric, else as str arrays.
    The function may carry attributes ``higher_is_better`` (a bool, default True) and ``ideal``
    (a finite number). The file is executed Python (see the module docstring).

    Parameters
    ----------
    spec : str
        ``path/to/file.py:function``.
    base : Path or None
        Directory a relative path is resolved against (the spec's folder).

    Raises
    ------
    InputError
        When the file is missing, fails to import or exits, has no such function, or its
        attributes are not of the right type.
    """

    allowed = ()

    def __init__(self, spec: str, base: Path | None = None):
        self.name = spec
        path_s, _, func = spec.rpartition(":")
        path = Path(path_s)
        if base is not None and not path.is_absolute():
            path = base / path
        text_name(path)
        if path.is_dir():
            raise InputError(
                f"{path}: is a directory, expected a Python file (user metric {spec!r})"
            )
        if not path.is_file():
            raise InputError(f"{path}: no such file (user metric {spec!r})")
        try:
            # imported by its absolute path (named as given in errors)
            module = load_module(Path(os.path.abspath(path)), shown=path)
        except OSError as exc:
            raise InputError(
                f"{path}: cannot read ({os_reason(exc)}) (user metric {spec!r})"
            ) from None
        if not callable(getattr(module, func, None)):
            raise InputError(f"{path}: no function {func!r} (user metric {spec!r})")
        self.func = getattr(module, func)
        higher = getattr(self.func, "higher_is_better", True)
        if not isinstance(higher, (bool, np.bool_)):
            raise InputError(
                f"{path}: {func}.higher_is_better must be True or False; got {_describe(higher)}"
            )
        self.higher_is_better = bool(higher)
        ideal = getattr(self.func, "ideal", None)
        if ideal is not None and _finite(ideal) is None:
            raise InputError(
                f"{path}: {func}.ideal must be a finite number or None; got {_describe(ideal)}"
            )
        self.ideal = None if ideal is None else _finite(ideal)
        self.description = (self.func.__doc__ or "user metric").strip().splitlines()[0]

    def check_params(self, params: dict) -> dict:
        """A copy of ``params``: every parameter is passed on to the function."""
        return dict(params)

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        """Bind to the first field; the function's errors and return values that are not finite real
        numbers become InputError naming the system."""
        params = self.check_params(params)
        gold, pred = comp.gold[:, 0], comp.predictions[:, :, 0]
        absent = pred == NO_PREDICTION
        if absent.any():
            s, i = (int(x) for x in np.argwhere(absent)[0])
            raise missing_error(comp, s, i, 0, self.name, "the values as given")
        try:
            gold, pred = gold.astype(float), pred.astype(float)
        except ValueError:
            pass
        func, name, path = self.func, self.name, self.name.rpartition(":")[0]

        def evaluate(idx):
            out = np.empty(comp.m)
            printed = _Tail()
            with _guarded(path, printed, fd_stdout=True) as cwd:
                for s in range(comp.m):
                    try:
                        value = func(gold[idx], pred[s, idx], **params)
                    except (Exception, SystemExit) as exc:
                        raise InputError(
                            f"user metric {name!r} failed on system {comp.systems[s]!r}: "
                            f"{type(exc).__name__}: {exc}{_last_line(printed.getvalue())}"
                        ) from None
                    finally:
                        cwd.restore()
                    out[s] = check_score(value, name, comp.systems[s])
            return out

        return self._prepared(params, evaluate=evaluate)

    def reference(self, gold, pred, **params):
        """The function itself; see :meth:`Metric.reference`."""
        return check_score(self.func(gold, pred, **params), self.name, "reference")
