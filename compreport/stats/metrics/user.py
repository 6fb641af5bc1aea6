"""User metrics: a Python function named ``path/to/file.py:function``, evaluated per resample."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

from ...errors import InputError
from ...inputs.competition import Competition
from .base import Metric, Prepared


class UserMetric(Metric):
    """``path/to/file.py:function``: ``function(y_true, y_pred, **params) -> float``.

    Values are passed as float arrays when every value is numeric, else as str arrays.
    The function may carry attributes ``higher_is_better`` (default True) and ``ideal``.

    Parameters
    ----------
    spec : str
        ``path/to/file.py:function``.
    base : Path or None
        Directory a relative path is resolved against (the spec's folder).

    Raises
    ------
    InputError
        When the file is missing, fails to import, or has no such function.
    """

    allowed = ()

    def __init__(self, spec: str, base: Path | None = None):
        self.name = spec
        path_s, _, func = spec.rpartition(":")
        path = Path(path_s)
        if base is not None and not path.is_absolute():
            path = base / path
        if not path.is_file():
            raise InputError(f"{path}: no such file (user metric {spec!r})")
        modname = "compreport_user_" + "".join(ch if ch.isalnum() else "_" for ch in str(path))
        module_spec = importlib.util.spec_from_file_location(modname, path)
        module = importlib.util.module_from_spec(module_spec)
        try:
            module_spec.loader.exec_module(module)
        except Exception as exc:  # user code: report, do not crash
            raise InputError(f"{path}: user metric failed to load: {type(exc).__name__}: {exc}") from None
        if not callable(getattr(module, func, None)):
            raise InputError(f"{path}: no function {func!r} (user metric {spec!r})")
        self.func = getattr(module, func)
        self.higher_is_better = bool(getattr(self.func, "higher_is_better", True))
        ideal = getattr(self.func, "ideal", None)
        self.ideal = None if ideal is None else float(ideal)
        self.description = (self.func.__doc__ or "user metric").strip().splitlines()[0]

    def check_params(self, params: dict) -> dict:
        """A copy of ``params``: every parameter is passed on to the function."""
        return dict(params)

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        """Bind to the first field; the function's errors become InputError naming the system."""
        params = self.check_params(params)
        gold, pred = comp.gold[:, 0], comp.predictions[:, :, 0]
        try:
            gold, pred = gold.astype(float), pred.astype(float)
        except ValueError:
            pass
        func, name = self.func, self.name

        def evaluate(idx):
            out = np.empty(comp.m)
            for s in range(comp.m):
                try:
                    out[s] = float(func(gold[idx], pred[s, idx], **params))
                except Exception as exc:
                    raise InputError(f"user metric {name!r} failed on system {comp.systems[s]!r}: "
                                     f"{type(exc).__name__}: {exc}") from None
            return out
        return self._prepared(params, evaluate=evaluate)

    def reference(self, gold, pred, **params):
        """The function itself; see :meth:`Metric.reference`."""
        return float(self.func(gold, pred, **params))
