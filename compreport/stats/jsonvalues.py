"""Values of results.json: numpy and non-finite numbers out (:func:`json_ready`), dataclasses
back in (:func:`dataclass_from`)."""

from __future__ import annotations

import math
from dataclasses import fields

import numpy as np


def json_ready(obj):
    """``obj`` with numpy scalars made Python and NaN/inf made None, recursively.

    Parameters
    ----------
    obj : object
        Dicts, lists and tuples (tuples become lists) of numbers, strings, bools and None.

    Returns
    -------
    object
        A value :func:`json.dumps` writes with ``allow_nan=False``.

    Examples
    --------
    >>> import numpy as np
    >>> json_ready({"p": np.float64(0.5), "se": float("nan"), "ok": (np.bool_(True), np.int64(3))})
    {'p': 0.5, 'se': None, 'ok': [True, 3]}
    """
    if isinstance(obj, dict):
        return {k: json_ready(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_ready(v) for v in obj]
    if isinstance(obj, (np.floating, float)):
        f = float(obj)
        return f if math.isfinite(f) else None
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.bool_):
        return bool(obj)
    return obj


def dataclass_from(cls, d: dict):
    """An instance of the dataclass ``cls`` from a results.json object.

    Keys that are not fields of ``cls`` are ignored (``ties_with_best``, ``system``); ``null``
    in a ``float`` field becomes NaN again (the reverse of :func:`json_ready`).
    """
    kw = {}
    for f in fields(cls):
        if f.name in d:
            v = d[f.name]
            kw[f.name] = float("nan") if v is None and f.type == "float" else v
    return cls(**kw)
