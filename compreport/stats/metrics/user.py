"""User metrics: a Python function named ``path/to/file.py:function``.

Two forms. The *label form* ``function(y_true, y_pred, **params) -> float`` is evaluated on every
resample. The *statistics form* is a function ``score(sums, **params) -> float`` carrying an
attribute ``score.stats``, a function ``stats(y_true, y_pred, **params) -> (n, k) array`` of
numeric per-item statistics of one system: the bootstrap sums them with the resampling weights, as
it sums the built-in metrics' statistics, and scores the (k,) sums (:class:`UserMetric`).

A metric file is executed Python, run with the user's permissions, as a plugin is: only name files
you trust. What can be contained is: its import and every call run with ``sys.argv`` set to
``[path]``, their printing captured and the working directory restored afterwards (a metric that
calls ``os.chdir`` moves neither the output folder nor the next relative path), an exception or
``sys.exit()`` there is an :class:`InputError` naming the file, each file is imported once (again
only when it changes), and every value the function returns, and its ``ideal``, must be a finite
real number (``10**400`` is refused, not an OverflowError).

Printing while the file is imported is shown on stderr. Printing while the function scores (once
per system and resample) is discarded, what it writes to file descriptor 1 and the warnings it
raises too: stdout holds
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
import warnings
from pathlib import Path
from types import ModuleType

import numpy as np

from compreport.errors import InputError, os_reason
from compreport.inputs.competition import Competition
from compreport.inputs.delimited import text_name
from compreport.stats.metrics.base import Metric, Prepared

#: Cache: imported metric files, keyed by (resolved path, mtime_ns, size) so that a changed file
#: is imported again; a file is imported once per process, as Python imports a module. One entry
#: per metric file (and version of it) used.
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
            _warnings_to(sink) if fd_stdout else contextlib.nullcontext(),
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


@contextlib.contextmanager
def _warnings_to(sink):
    """Inside (a scoring call), a warning the user code raises is printed to ``sink`` as Python
    would print it to stderr: with the rest of what it prints, whatever process runs it (a
    worker records the warnings of compreport's own code and re-issues them in the caller, where
    the user's would otherwise reach stderr once per block of resamples). Warnings raised while
    the file is imported are compreport's to show, one line each."""
    with warnings.catch_warnings():

        def show(message, category, filename, lineno, file=None, line=None):
            sink.write(warnings.formatwarning(message, category, filename, lineno, line))

        warnings.showwarning = show
        yield


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


def _array_problem(value, n: int) -> tuple[np.ndarray | None, str]:
    """``value`` as a float (n, k) array (a (n,) array is one statistic, k = 1), or None and what
    is wrong with it."""
    try:
        arr = np.asarray(value)
    except Exception as exc:  # a ragged list, an object whose __array__ raises
        return None, f"{_describe(value)}, which is no array ({type(exc).__name__}: {exc})"
    if arr.dtype.kind not in "biuf":
        return None, (
            f"{_describe(value)} of dtype {arr.dtype}; statistics must be numbers (int, float or "
            f"bool)"
        )
    if arr.ndim == 1:
        arr = arr[:, None]
    if arr.ndim != 2 or arr.shape[0] != n or arr.shape[1] == 0:
        return None, (
            f"an array of shape {np.shape(value)}; it must be (n, k): one row per item "
            f"(n = {n}) and k >= 1 statistics"
        )
    with np.errstate(over="ignore"):
        out = arr.astype(float)
    return out, ""


class UserMetric(Metric):
    r"""``path/to/file.py:function``: a user's metric, in one of two forms.

    *Label form*: ``function(y_true, y_pred, **params) -> float``, called on every resample (the
    ``items`` bootstrap; no randomization test).

    *Statistics form*: ``function(sums, **params) -> float`` with an attribute
    ``function.stats``, a function ``stats(y_true, y_pred, **params)`` that returns a numeric
    (n, k) array, row ``i`` the statistics of item ``i`` (it must depend on that item's gold and
    prediction only). ``stats`` is called once per system; the bootstrap sums the rows with each
    resample's weights and ``function`` scores the (k,) sums, one call per system and resample;
    with ``function.vectorized = True`` it is called once on an array (..., k) and must return
    (...). The randomization test works with this form.

    In both forms, values are passed as float arrays when every value (gold and every run) is
    numeric, else as str arrays; a missing prediction (``--missing wrong``) is passed as ``""``
    (so as str arrays) and the function decides what it is worth. The function may carry the
    attributes ``higher_is_better`` (a bool, default True), ``ideal`` (a finite number) and
    ``display_name`` (the name reports show instead of ``path:function``). The file is executed
    Python (see the module docstring).

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

    Examples
    --------
    Token accuracy in the statistics form: per item, 1 when right and a 1 that counts it, and the
    score is the first sum over the second; a resample weights each row by how often it was drawn.

    >>> import tempfile, numpy as np
    >>> from pathlib import Path
    >>> from compreport.inputs.competition import Competition, MetricSpec
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "acc.py").write_text(
    ...     "import numpy as np\n"
    ...     "def per_item(gold, pred):\n"
    ...     "    return np.stack([gold == pred, np.ones(len(gold))], axis=1)\n"
    ...     "def accuracy(sums):\n"
    ...     "    return sums[0] / sums[1]\n"
    ...     "accuracy.stats = per_item\n"
    ...     "accuracy.display_name = 'token accuracy'\n")
    >>> comp = Competition("demo", "demo", gold=np.array([["a"], ["b"], ["a"]]),
    ...                    predictions=np.array([[["a"], ["b"], ["b"]], [["a"], ["a"], ["a"]]]),
    ...                    systems=["s1", "s2"], item_ids=np.array(["1", "2", "3"]),
    ...                    metrics=[MetricSpec("acc.py:accuracy")])
    >>> p = UserMetric("acc.py:accuracy", folder).prepare(comp, {})
    >>> p.decomposable, p.label
    (True, 'token accuracy')
    >>> shared, per = p.stats(p.columns)         # (3, 0) and (3, 2, 2): items, systems, k
    >>> p.finalize(shared.sum(0), per.sum(0), 3).round(3).tolist()
    [0.667, 0.667]
    >>> w = np.array([0.0, 1.0, 2.0])            # a resample: item 2 once, item 3 twice
    >>> p.finalize(w @ shared, np.tensordot(w, per, 1), 3).round(3).tolist()
    [0.333, 0.667]
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
        stats = getattr(self.func, "stats", None)
        if stats is not None and not callable(stats):
            raise InputError(
                f"{path}: {func}.stats must be a function stats(y_true, y_pred) returning the "
                f"(n, k) per-item statistics; got {_describe(stats)}"
            )
        self.stats_func = stats
        self.stats_name = getattr(stats, "__name__", "stats") if stats is not None else None
        vectorized = getattr(self.func, "vectorized", False)
        if not isinstance(vectorized, (bool, np.bool_)):
            raise InputError(
                f"{path}: {func}.vectorized must be True or False; got {_describe(vectorized)}"
            )
        self.vectorized = bool(vectorized)
        label = getattr(self.func, "display_name", None)
        if label is not None and (
            not isinstance(label, str)
            or not label.strip()
            or len(label) > 80
            or any(not ch.isprintable() for ch in label)
        ):
            raise InputError(
                f"{path}: {func}.display_name must be a non-empty line of text of at most 80 "
                f"printable characters; got {_describe(label)}"
            )
        self.label = None if label is None else label.strip()

    def check_params(self, params: dict) -> dict:
        """A copy of ``params``: every parameter is passed on to the function."""
        return dict(params)

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        """Bind to the first field; the function's errors and return values that are not finite real
        numbers become InputError naming the system (and, in the statistics form, the item)."""
        params = self.check_params(params)
        gold, pred = comp.gold[:, 0], comp.predictions[:, :, 0]
        try:
            gold, pred = gold.astype(float), pred.astype(float)
        except ValueError:  # some value is not a number (a missing prediction is ""): as text
            pass
        if self.stats_func is not None:
            return self._prepare_stats(comp, params, gold, pred)
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

        return self._prepared(params, evaluate=evaluate, label=self.label)

    def _prepare_stats(self, comp: Competition, params: dict, gold, pred) -> Prepared:
        """The statistics form: ``stats`` once per system, checked, as the metric's columns;
        ``finalize`` scores the summed statistics with the function."""
        name, path, n, m = self.name, self.name.rpartition(":")[0], comp.n, comp.m
        what = f"user metric {name!r}: its stats function {self.stats_name!r}"
        blocks = []
        printed = _Tail()
        with _guarded(path, printed, fd_stdout=True) as cwd:
            for s in range(m):
                system = comp.systems[s]
                try:
                    # copies: a function that writes into its arguments changes nothing here
                    value = self.stats_func(gold.copy(), pred[s].copy(), **params)
                except (Exception, SystemExit) as exc:
                    raise InputError(
                        f"{what} failed on system {system!r}: {type(exc).__name__}: {exc}"
                        f"{_last_line(printed.getvalue())}"
                    ) from None
                finally:
                    cwd.restore()
                arr, problem = _array_problem(value, n)
                if arr is None:
                    raise InputError(f"{what} returned {problem}, for system {system!r}")
                bad = ~np.isfinite(arr)
                if bad.any():
                    i, j = (int(x) for x in np.argwhere(bad)[0])
                    raise InputError(
                        f"{what} returned {arr[i, j]!r} for system {system!r} at item "
                        f"{str(comp.item_ids[i])!r} (statistic {j}); every statistic must be a "
                        f"finite number"
                    )
                if blocks and arr.shape[1] != blocks[0].shape[1]:
                    raise InputError(
                        f"{what} returned {arr.shape[1]} statistics per item for system "
                        f"{system!r} but {blocks[0].shape[1]} for {comp.systems[0]!r}; every "
                        f"system must have the same k"
                    )
                blocks.append(arr)
        k = blocks[0].shape[1]
        columns = np.hstack(blocks)  # (n, m * k): system s in columns s*k .. s*k + k - 1
        score, vectorized, systems_all = self.func, self.vectorized, comp.systems

        def stats(rows):
            return np.zeros((len(rows), 0)), rows.reshape(len(rows), m, k)

        def call(sums, system):
            try:
                return score(sums, **params)
            except (Exception, SystemExit) as exc:
                raise InputError(
                    f"user metric {name!r} failed on the summed statistics of system "
                    f"{system!r}: {type(exc).__name__}: {exc}{_last_line(printed.getvalue())}"
                ) from None

        def finalize(shared_sum, system_sum, count, systems=None):
            # a copy: the engine reuses the full data's sums (jackknife, randomization), and a
            # function may write into its argument
            sums = np.array(system_sum, dtype=float)
            idx = np.arange(m) if systems is None else np.asarray(systems)
            names = [systems_all[int(i)] for i in idx]
            width = sums.shape[-2]
            flat = sums.reshape(-1, k)
            out = np.empty(len(flat))
            printed.text = ""
            with _guarded(path, printed, fd_stdout=True) as cwd:
                if vectorized:
                    try:
                        got = call(sums.copy(), names[0])
                    finally:
                        cwd.restore()
                    out = _vector_scores(got, sums.shape[:-1], name, names).reshape(-1)
                    # the first row again, one system at a time: a function that is not really
                    # vectorised (it reads sums[0] as the first statistic) differs here
                    for j in range(width):
                        one = check_score(_scalar(call(flat[j], names[j])), name, names[j])
                        cwd.restore()
                        if not math.isclose(one, out[j], rel_tol=1e-9, abs_tol=1e-12):
                            raise InputError(
                                f"user metric {name!r} is declared vectorized but gave "
                                f"{out[j]!r} for system {names[j]!r} on an array of sums and "
                                f"{one!r} on that system's (k,) sums alone; it must score the "
                                f"last axis (sums[..., 0] is the first statistic)"
                            )
                else:
                    for j, row in enumerate(flat):
                        try:
                            value = call(row, names[j % width])
                        finally:
                            cwd.restore()
                        out[j] = check_score(_scalar(value), name, names[j % width])
            return out.reshape(sums.shape[:-1])

        return self._prepared(
            params, columns=columns, stats=stats, finalize=finalize, label=self.label
        )

    def reference(self, gold, pred, **params):
        """The function itself (in the statistics form, of its summed statistics); see
        :meth:`Metric.reference`."""
        if self.stats_func is not None:
            sums = np.asarray(self.stats_func(gold, pred, **params), dtype=float)
            sums = sums.reshape(len(sums), -1).sum(axis=0)
            return check_score(self.func(sums, **params), self.name, "reference")
        return check_score(self.func(gold, pred, **params), self.name, "reference")


def _scalar(value):
    """A 0-d numeric numpy array (what numpy arithmetic on a (k,) row may give) as its scalar;
    anything else unchanged."""
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf":
        return value[()]
    return value


def _vector_scores(value, shape: tuple, name: str, systems: list[str]) -> np.ndarray:
    """The scores ``value`` a vectorised user metric returned for sums of ``shape`` + (k,), as a
    float array of ``shape``; InputError when it is not numeric, of another shape or not finite."""
    try:
        arr = np.asarray(value)
    except Exception:
        arr = np.asarray(None)
    if arr.dtype.kind not in "iuf" or arr.shape != tuple(shape):
        raise InputError(
            f"user metric {name!r} is declared vectorized and returned {_describe(value)} of "
            f"shape {np.shape(value)} for summed statistics of shape {tuple(shape) + ('k',)}; "
            f"it must return numbers of shape {tuple(shape)}"
        )
    with np.errstate(over="ignore"):
        out = arr.astype(float)
    bad = ~np.isfinite(out)
    if bad.any():
        j = int(np.argmax(bad.reshape(-1)))
        raise InputError(
            f"user metric {name!r} returned {out.reshape(-1)[j]!r} for system "
            f"{systems[j % len(systems)]!r}; it must return a finite number"
        )
    return out
