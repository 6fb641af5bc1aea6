"""JSON predictions: ``.jsonl`` (one object per line) and ``.json`` (a list of objects, an object
mapping id to label, or a list of labels), read into :class:`~compreport.inputs.parsed.Parsed`."""

from __future__ import annotations

import json
import math

from compreport.errors import InputError, option, suggest
from compreport.inputs.labelsets import pyevall_keys
from compreport.inputs.limits import parser_limits
from compreport.inputs.parsed import JSON_NULL, Parsed, option_of
from compreport.inputs.structured import json_value_text

#: The options (schema keys) that give the id and the label column(s): ``--id-col``,
#: ``--label-col``.
_ID, _LABEL = option_of("id_column"), option_of("label_columns")


class _Duplicate(Exception):
    pass


def _pairs(pairs):
    out = {}
    for k, v in pairs:
        if k in out:
            raise _Duplicate(k)
        out[k] = v
    return out


def _json_text(value, where: str, what: str) -> str | None:
    """A JSON scalar as the text a delimited file would hold; None for null, NaN and a blank
    string. An array of labels is a label set and an object of numbers a soft label, in their
    canonical texts (:mod:`compreport.inputs.structured`). A string is the label as written:
    ``"nan"``, ``"null"`` and ``" a "`` are labels (a JSON string is delimited, so neither its
    words nor its spaces are read away). ``where`` and ``what`` name the value in the error for
    anything else.

    >>> _json_text(2.0, "gold.json, line 1", "the label"), _json_text(" nan ", "", "")
    ('2', ' nan ')
    >>> _json_text(None, "", ""), _json_text(float("nan"), "", ""), _json_text("  ", "", "")
    (None, None, None)
    """
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return None
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, str):
        return value if value.strip() else None
    return json_value_text(value, where, what)


def read_json(
    shown: str,
    file: str,
    text: str,
    suffix: str,
    id_column,
    label_columns,
    fields: list[str] | None,
    role: str = "gold",
) -> Parsed:
    """A ``.jsonl`` file (one object per line) or a ``.json`` file (a list of objects, an object
    mapping id to label, or a list of labels) as :class:`Parsed`.

    Keys: ``id`` and ``label`` (several fields: the field names) unless ``id_column`` /
    ``label_columns`` name them (``--id-col``, ``--label-col``). Objects of which none has the id
    key, when no id key is named (``id_column`` None), have no ids: they are aligned with the gold
    by position, as the DSTC and CodaLab scorers read a list of objects (``ids`` None, as a list
    of labels).
    """
    nf = len(fields) if fields else 1
    for spec, what in ((id_column, _ID), *((c, _LABEL) for c in (label_columns or []))):
        if isinstance(spec, int):
            raise InputError(
                f"{shown}: a JSON file names its values by key, not position: pass "
                f"{option(what, 'KEY')}"
            )
    id_key = id_column or "id"
    label_keys = list(label_columns) if label_columns else (list(fields) if fields else ["label"])
    if len(label_keys) != nf:
        raise InputError(
            f"{shown}: {nf} field(s) but {len(label_keys)} label key(s) ({option(_LABEL)})"
        )
    entries: list[tuple[int, object]] = []
    unit = "line"
    try:
        if suffix == ".jsonl":
            for number, line in enumerate(text.splitlines(), start=1):
                if not line.strip():
                    continue
                try:
                    with parser_limits(f"{shown}, line {number}", line, "JSON"):
                        entries.append((number, json.loads(line, object_pairs_hook=_pairs)))
                except json.JSONDecodeError as exc:
                    raise InputError(
                        f"{shown}, line {number}: not JSON ({exc.msg}, column {exc.colno})"
                    ) from None
        else:
            unit = "entry"
            try:
                with parser_limits(shown, text, "JSON"):
                    doc = json.loads(text, object_pairs_hook=_pairs)
            except json.JSONDecodeError as exc:
                raise InputError(
                    f"{shown}, line {exc.lineno}: not JSON ({exc.msg}, column {exc.colno})"
                ) from None
            if isinstance(doc, dict):  # id -> label, or id -> object with the label keys
                if nf != 1 and not all(isinstance(v, dict) for v in doc.values()):
                    raise InputError(
                        f"{shown}: an object mapping id to label holds one field; {nf} are expected"
                    )
                entries = [
                    (
                        k,
                        (v | {id_key: key})
                        if isinstance(v, dict)
                        else {id_key: key, label_keys[0]: v},
                    )
                    for k, (key, v) in enumerate(doc.items(), start=1)
                ]
            elif isinstance(doc, list):
                entries = list(enumerate(doc, start=1))
            else:
                raise InputError(
                    f"{shown}: holds a JSON {type(doc).__name__}; expected a list of objects "
                    f"(keys {id_key!r} and {label_keys[0]!r}), an object mapping id to label, or a "
                    f"list of labels"
                )
    except _Duplicate as dup:
        raise InputError(f"{shown}: key {str(dup)!r} appears twice in one object") from None
    if not entries:
        raise InputError(f"{shown}: no entries")
    columns = [f"key {k!r}" for k in label_keys]
    lines = [pos for pos, _ in entries]
    objects = [isinstance(obj, dict) for _, obj in entries]
    if not any(objects):  # a list of labels: aligned with the gold
        if nf != 1:
            raise InputError(f"{shown}: a list of labels holds one field; {nf} are expected")
        values = [[_json_text(obj, f"{shown}, {unit} {pos}", "the value")] for pos, obj in entries]
        raw = [[obj] for _, obj in entries]
        return Parsed(
            shown, file, None, values, lines, ["value"], unit, missing_text=_missing_text(raw)
        )
    if not all(objects):
        pos, obj = next(e for e, o in zip(entries, objects, strict=True) if not o)
        raise InputError(
            f"{shown}, {unit} {pos}: a JSON {type(obj).__name__}, where the other entries are "
            f"objects"
        )
    keys = sorted({k for _, obj in entries for k in obj})
    if (
        id_column is None
        and not label_columns
        and nf == 1
        and pyevall_keys(shown, entries, keys, unit, role)
    ):
        label_keys, columns = ["value"], ["key 'value'"]  # PyEvALL's test_case, id, value
    if role == "run":  # a run that lacks a key named for the gold is read with the default keys
        if id_key not in keys and "id" in keys:
            id_key = "id"
        if nf == 1 and label_keys[0] not in keys and "label" in keys:
            label_keys = ["label"]
            columns = ["key 'label'"]
    by_position = id_column is None and id_key not in keys  # DSTC, CodaLab: aligned by position
    for key, what in ((id_key, _ID), *((k, _LABEL) for k in label_keys)):
        if key not in keys and not (by_position and key == id_key):
            others = [k for k in keys if k != id_key and k not in label_keys]
            raise InputError(
                f"{shown}: no entry has the key {key!r} (keys: {', '.join(map(repr, keys))}); pass "
                f"{option(what, others[0] if len(others) == 1 else 'KEY')}{suggest(key, keys)}"
            )
    if by_position:
        values = [
            [
                _json_text(obj.get(k), f"{shown}, {unit} {pos}", f"the value of {k!r}")
                for k in label_keys
            ]
            for pos, obj in entries
        ]
        raw = [[obj.get(k) for k in label_keys] for _, obj in entries]
        return Parsed(
            shown, file, None, values, lines, columns, unit, missing_text=_missing_text(raw)
        )
    ids, values = [], []
    for pos, obj in entries:
        where = f"{shown}, {unit} {pos}"
        if id_key not in obj:
            raise InputError(f"{where}: no key {id_key!r} (the id)")
        ident = obj[id_key]
        if (
            isinstance(ident, bool)
            or not isinstance(ident, (str, int))
            or (isinstance(ident, str) and not ident.strip())
        ):
            raise InputError(
                f"{where}: the id ({id_key!r}) must be a non-empty string or a whole number; "
                f"got {ident!r}"
            )
        ids.append(str(ident).strip())
        values.append([_json_text(obj.get(k), where, f"the value of {k!r}") for k in label_keys])
    raw = [[obj.get(k) for k in label_keys] for _, obj in entries]
    return Parsed(shown, file, ids, values, lines, columns, unit, missing_text=_missing_text(raw))


def _missing_text(raw: list[list]) -> dict[tuple[int, int], str]:
    """What :attr:`Parsed.missing_text` holds for JSON values read as missing: a blank string as
    ``""``, NaN as ``NaN``, null and an absent key as
    :data:`~compreport.inputs.parsed.JSON_NULL`."""
    out = {}
    for k, row in enumerate(raw):
        for f, v in enumerate(row):
            if v is None:
                out[k, f] = JSON_NULL
            elif isinstance(v, str) and not v.strip():
                out[k, f] = ""
            elif isinstance(v, float) and math.isnan(v):
                out[k, f] = "NaN"
    return out
