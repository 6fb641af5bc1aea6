"""Values that are not one label: label sets (multi-label), soft labels (a distribution over
classes) and mention lists (spans), held in a competition's string arrays as canonical JSON text.

A competition stores every value as a string (``Competition.gold`` (n, F), ``predictions``
(m, n, F)). Readers turn a structured value into one canonical text, so that equal values are
equal strings (item patterns merge, runs compare) and every metric parses one encoding:

- a **label set** is a JSON array of distinct strings in sorted order: ``["a","b"]``; the empty
  set ``[]`` is a prediction (no label), distinct from a missing one (``""``);
- a **soft label** is a JSON object from class to a finite number, keys sorted:
  ``{"NO":0.33,"YES":0.67}``;
- a **mention list** (one document's spans) is a JSON array of arrays
  ``[start, end, "type"]`` or ``[start, end, "type", "code"]``, sorted, duplicates dropped.

Examples
--------
>>> label_set_text(["b", "a", "b"])
'["a","b"]'
>>> read_label_set('["a","b"]')
('a', 'b')
>>> soft_text({"YES": 0.67, "NO": 0.33})
'{"NO":0.33,"YES":0.67}'
>>> read_soft('{"NO":0.33,"YES":0.67}')
{'NO': 0.33, 'YES': 0.67}
>>> kind('["a"]'), kind('{"a":1}'), kind("a"), kind("")
('set', 'soft', 'label', 'missing')
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping

import numpy as np

from compreport.errors import InputError

__all__ = [
    "holds_sets",
    "is_set_text",
    "kind",
    "label_set_text",
    "mentions_text",
    "read_label_set",
    "read_soft",
    "soft_text",
]


def _dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def label_set_text(labels: Iterable[str]) -> str:
    """The canonical text of a label set: a JSON array of distinct strings, sorted.

    >>> label_set_text([]), label_set_text(["x"])
    ('[]', '["x"]')
    """
    return _dumps(sorted({str(x) for x in labels}))


def soft_text(dist: Mapping[str, float]) -> str:
    """The canonical text of a soft label: a JSON object, keys sorted, values as floats (whole
    numbers written without a fraction, as the JSON reader writes scalars).

    >>> soft_text({"b": 1, "a": 0.5})
    '{"a":0.5,"b":1}'
    """
    out = {}
    for key in sorted(dist):
        v = float(dist[key])
        out[str(key)] = int(v) if v.is_integer() else v
    return _dumps(out)


def mentions_text(mentions: Iterable[Iterable]) -> str:
    """The canonical text of one document's mentions: ``[start, end, type(, code)]`` sorted,
    duplicates dropped (two identical mentions are one, as the scorers' sets count them).

    >>> mentions_text([(5, 9, "LOC"), (0, 4, "PER"), (5, 9, "LOC")])
    '[[0,4,"PER"],[5,9,"LOC"]]'
    """
    rows = {tuple((int(x) if i < 2 else str(x)) for i, x in enumerate(m)) for m in mentions}
    return _dumps([list(r) for r in sorted(rows, key=lambda r: (r[0], r[1], r[2:]))])


def kind(text: str) -> str:
    """What a stored value is: ``missing`` (``""``), ``set``, ``soft``, ``mentions`` or
    ``label`` (anything else: a plain label or number)."""
    if text == "":
        return "missing"
    if text[0] == "[":
        return "mentions" if text.startswith("[[") else "set"
    if text[0] == "{":
        return "soft"
    return "label"


def read_label_set(text: str) -> tuple[str, ...]:
    """The labels of a stored label set (sorted); a plain label reads as a set of one.

    >>> read_label_set("a"), read_label_set("[]")
    (('a',), ())
    """
    if not text.startswith("["):
        return (text,)
    return tuple(json.loads(text))


def read_soft(text: str) -> dict[str, float]:
    """The distribution of a stored soft label; a plain label reads as probability 1 on it.

    >>> read_soft("YES")
    {'YES': 1.0}
    """
    if not text.startswith("{"):
        return {text: 1.0}
    return {k: float(v) for k, v in json.loads(text).items()}


def is_set_text(text: str) -> bool:
    """Whether a stored value is a label set: a JSON array of labels (not of mentions).

    >>> is_set_text('["a","b"]'), is_set_text("[]"), is_set_text("[CLS]"), is_set_text("a")
    (True, True, False, False)
    """
    if not text.startswith("[") or text.startswith("[["):
        return False
    try:
        value = json.loads(text)
    except ValueError:
        return False
    return isinstance(value, list) and all(isinstance(x, str) for x in value)


def holds_sets(values: np.ndarray) -> bool:
    """Whether any of ``values`` (strings, any shape) is a label set (:func:`is_set_text`).

    >>> holds_sets(np.array(["a", '["b"]'])), holds_sets(np.array(["a", "[b"]))
    (True, False)
    """
    starts = np.unique(values[np.char.startswith(values.astype(str), "[")])
    return any(is_set_text(str(v)) for v in starts)


def json_value_text(value, where: str, what: str) -> str | None:
    """A JSON array of scalars as a label set, or a JSON object of numbers as a soft label (the
    canonical texts above); ``where``/``what`` name the value in the error for anything else.

    >>> json_value_text(["b", "a"], "", ""), json_value_text({"a": 1.0}, "", "")
    ('["a","b"]', '{"a":1}')
    """
    if isinstance(value, list):
        if not all(isinstance(x, (str, int)) and not isinstance(x, bool) for x in value):
            raise InputError(f"{where}: {what} is a JSON array of non-labels; expected labels")
        return label_set_text(str(x).strip() for x in value)
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise InputError(
                    f"{where}: {what} gives class {k!r} the value {v!r}; a soft label maps each "
                    f"class to a finite number"
                )
            if v < 0:
                raise InputError(f"{where}: {what} gives class {k!r} a negative weight ({v!r})")
        return soft_text(value)
    kind_name = type(value).__name__
    raise InputError(f"{where}: {what} is a JSON {kind_name}, expected a label or a number")
