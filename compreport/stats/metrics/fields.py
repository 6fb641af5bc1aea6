"""One field of a competition's string cells, as metrics read it: label codes, numbers or scores."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import InputError
from ...inputs.competition import Competition
from ...settings import suggest


def field_index(comp: Competition, params: dict, key: str = "field", default: int = 0) -> int:
    """The column of the field that ``params[key]`` names, or ``default`` when it names none.

    Raises :class:`~compreport.errors.InputError` (with a suggestion) for an unknown field name.
    """
    name = params.get(key)
    if name is None:
        return default
    if name not in comp.fields:
        raise InputError(f"competition {comp.id!r}: `{key}` {name!r} is not a field "
                         f"(fields: {', '.join(comp.fields)}){suggest(str(name), comp.fields)}")
    return comp.fields.index(name)


@dataclass
class Encoded:
    """Labels of one field coded 0..K-1 (labels sorted as strings).

    Attributes
    ----------
    labels : list of str
        The K labels seen in gold or in any prediction; code ``c`` is ``labels[c]``.
    gold : ndarray of int, shape (n,)
    pred : ndarray of int, shape (m, n)
    """

    labels: list[str]
    gold: np.ndarray
    pred: np.ndarray

    @property
    def k(self) -> int:
        """Number of labels."""
        return len(self.labels)

    def code(self, comp: Competition, label, what: str) -> int:
        """The code of a user-given ``label``; InputError naming ``what`` when it is not a label."""
        s = str(label)
        if s not in self.labels:
            where = comp.gold_source.path if comp.gold_source else f"competition {comp.id!r}"
            raise InputError(f"{where}: {what} {s!r} is not among the labels of gold and predictions "
                             f"({', '.join(self.labels)}){suggest(s, self.labels)}")
        return self.labels.index(s)


def encode(comp: Competition, f: int) -> Encoded:
    """Code field ``f`` of gold and of every system's predictions with one shared label list."""
    n, m = comp.n, comp.m
    allv = np.concatenate([comp.gold[:, f], comp.predictions[:, :, f].ravel()])
    labels, inv = np.unique(allv, return_inverse=True)
    return Encoded([str(x) for x in labels], inv[:n].astype(np.int64), inv[n:].reshape(m, n).astype(np.int64))


def to_float(comp: Competition, f: int, metric: str) -> tuple[np.ndarray, np.ndarray]:
    """Field ``f`` of gold and predictions as floats.

    Returns
    -------
    gold : ndarray, shape (n,)
    pred : ndarray, shape (m, n)

    Raises :class:`~compreport.errors.InputError` at the first cell that is not a finite
    number, naming ``metric``.
    """
    def conv(values: np.ndarray, system: int | None) -> np.ndarray:
        try:
            out = values.astype(np.float64)
        except ValueError:
            out = None
        if out is not None and np.isfinite(out).all():
            return out
        for i, v in enumerate(values):
            try:
                ok = np.isfinite(float(v))
            except ValueError:
                ok = False
            if not ok:
                raise InputError(f"{comp.locate(system, i, f)}: value {str(v)!r} is not a finite number "
                                 f"(metric {metric!r} needs numbers)")
        raise AssertionError("unreachable")  # pragma: no cover

    gold = conv(comp.gold[:, f], None)
    pred = np.stack([conv(comp.predictions[s, :, f], s) for s in range(comp.m)])
    return gold, pred


def to_scores(comp: Competition, f: int, metric: str) -> np.ndarray:
    """Field ``f`` of the predictions as floats, shape (m, n) (gold may hold labels).

    Raises :class:`~compreport.errors.InputError` at the first cell that is not a finite
    number, naming ``metric``.
    """
    out = np.empty((comp.m, comp.n))
    for s in range(comp.m):
        col = comp.predictions[s, :, f]
        try:
            out[s] = col.astype(np.float64)
        except ValueError:
            out[s] = np.nan
        bad = ~np.isfinite(out[s])
        if bad.any():
            i = int(np.argmax(bad))
            raise InputError(f"{comp.locate(s, i, f)}: value {str(col[i])!r} is not a finite number "
                             f"(metric {metric!r} needs scores)")
    return out
