"""Reading a TOML spec file and validating it against a pydantic model, with errors that name
the file and, when it can be found, the line of the offending key."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pydantic import BaseModel, ValidationError

from compreport.errors import InputError, suggest
from compreport.inputs.delimited import decode, read_bytes
from compreport.inputs.limits import parser_limits


def _text(path: Path) -> str:
    """The text of ``path``: UTF-8, a BOM dropped, line breaks as written (TOML reads CRLF)."""
    return decode(str(path), read_bytes(path))


def read_toml(path: Path) -> dict:
    """The TOML document at ``path`` (a UTF-8 BOM, as Windows editors save, is dropped; CRLF line
    breaks are read); :class:`InputError` when it is missing, a directory, unreadable, not TOML or
    not UTF-8."""
    text = _text(path)
    try:
        with parser_limits(str(path), text, "TOML"):
            return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: invalid TOML: {exc}") from None


_TOML_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\[\]]+?)\s*\]\]?\s*(#.*)?$")
_TOML_KEY = re.compile(r"^\s*([A-Za-z0-9_\-.\"' ]+?)\s*=")


def _toml_key_path(text: str) -> tuple:
    """The names of a dotted key or table header (``a."b c".d`` -> ``('a', 'b c', 'd')``)."""
    return tuple(part.strip().strip("\"'") for part in text.split("."))


def key_line(path: Path, loc: tuple) -> int | None:
    """Best-effort 1-based line of the key at pydantic ``loc`` (``('competitions', 0, 'grup')``).

    Understands ``[table]``, ``[[array.of.tables]]`` and dotted keys; None when not found
    (inline tables, multi-line values).
    """
    try:
        lines = _text(path).splitlines()
    except InputError:
        return None
    target = tuple(loc)
    current: tuple = ()
    counts: dict[tuple, int] = {}
    for number, line in enumerate(lines, start=1):
        head = _TOML_HEADER.match(line)
        if head:
            names = _toml_key_path(head.group(2))
            if names == target:  # the unknown key is a table name: [tabel] or [[tabel]]
                return number
            if head.group(1) == "[[":
                counts[names] = counts.get(names, -1) + 1
                current = names + (counts[names],)
            else:
                current = names
            continue
        key = _TOML_KEY.match(line)
        if key and current + _toml_key_path(key.group(1)) == target:
            return number
    return None


def where(path: Path, loc: tuple) -> str:
    """``path, line N`` when the key at ``loc`` (or, within an inline table or array, the key that
    holds it) can be found, else ``path``.

    >>> _ = Path("c.toml").write_text('name = "x"\\n[data]\\ngold = "g.tsv"\\n')
    >>> where(Path("c.toml"), ("data", "gold")), where(Path("c.toml"), ("metrics",))
    ('c.toml, line 3', 'c.toml')
    """
    line = next((n for n in (key_line(path, loc[:k]) for k in range(len(loc), 0, -1)) if n), None)
    return f"{path}, line {line}" if line else f"{path}"


def _model_for(loc: tuple, model: type[BaseModel]) -> type[BaseModel] | None:
    """The pydantic model that owns the key at ``loc`` (to list its known keys)."""
    for part in loc[:-1]:
        if isinstance(part, int):
            continue
        fld = model.model_fields.get(part)
        if fld is None:
            return None
        ann = fld.annotation
        args = getattr(ann, "__args__", ())
        cands = [a for a in (ann, *args) if isinstance(a, type) and issubclass(a, BaseModel)]
        if not cands:
            return None
        model = cands[0]
    return model


def is_spec(path) -> bool:
    """Whether an INPUT is read as a spec (a ``.toml`` file, or a folder of specs), not as a table
    or a gold file: the one rule :func:`compreport.inputs.spec.load_inputs` follows.

    >>> is_spec("examples/workshop"), is_spec("gold.tsv")
    (True, False)
    """
    return Path(path).is_dir() or Path(path).suffix.lower() == ".toml"


def validate_model(model: type[BaseModel], data: dict, path: Path) -> Any:
    """``data`` read from ``path`` validated as ``model``.

    Raises
    ------
    InputError
        For the first problem, an unknown key first (it is usually a typo, and the cause of any
        "missing key"): the file, the key's line when found, the key, and for an unknown key the
        closest known key and all known keys of its table.
    """
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors()
        err = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
        loc = tuple(err["loc"])
        dotted = ".".join(str(p) for p in loc)
        if err["type"] == "extra_forbidden":
            owner = _model_for(loc, model)
            known = list(owner.model_fields) if owner else []
            section = ".".join(str(p) for p in loc[:-1] if not isinstance(p, int))
            sect = f" in [{section}]" if section else ""
            raise InputError(
                f"{where(path, loc)}: unknown key {loc[-1]!r}{sect}{suggest(str(loc[-1]), known)}"
                f" (known keys: {', '.join(known)})"
            ) from None
        if err["type"] in ("missing", "too_short"):
            owner = _model_for(loc, model)
            field = owner.model_fields.get(str(loc[-1])) if owner else None
            example = (
                (field.json_schema_extra or {}).get("example")
                if field is not None and isinstance(field.json_schema_extra, dict)
                else None
            )
            problem = (
                f"missing key {dotted!r}"
                if err["type"] == "missing"
                else f"key {dotted!r} is empty, at least one is needed"
            )
            raise InputError(
                f"{path}: {problem}" + (f"; for example: {example}" if example else "")
            ) from None
        # the error deepest in the file's data (within a table given for a key, what is wrong
        # inside it); several errors at that place are the types of a union, none of which the
        # value has
        err = max(errors, key=lambda e: len(_data_loc(tuple(e["loc"]), data)))
        key = _data_loc(tuple(err["loc"]), data)
        same = [e for e in errors if _data_loc(tuple(e["loc"]), data) == key]
        dotted = ".".join(str(p) for p in key)
        if len(same) > 1:
            kinds = list(dict.fromkeys(_KINDS.get(e["type"], e["type"]) for e in same))
            raise InputError(
                f"{where(path, key)}: key {dotted!r}: expected {' or '.join(kinds)} (got "
                f"{_shown(_value_at(data, key))})"
            ) from None
        raise InputError(
            f"{where(path, key)}: key {dotted!r}: {err['msg']} (got {_shown(err.get('input'))})"
        ) from None


def _shown(value) -> str:
    """A value as TOML writes it (``true``, not ``True``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_shown(v)}" for k, v in value.items()) + "}"
    return repr(value)


#: Pydantic's type errors in words, for a value that matches none of a union's types.
_KINDS = MappingProxyType(
    {
        "int_type": "a whole number",
        "string_type": "a string",
        "bool_type": "true or false",
        "float_type": "a number",
        "list_type": "a list",
        "model_type": "a table",
        "dict_type": "a table",
    }
)


def _value_at(data, loc: tuple):
    """The value at the keys and indices ``loc`` of ``data``."""
    for part in loc:
        data = data[part]
    return data


def _data_loc(loc: tuple, data) -> tuple:
    """The place in ``data`` of an error's ``loc``: its keys and indices, without the union members
    pydantic names in it (``int``, ``str``, ``list[...]``, a model's class name)."""
    out = []
    for part in loc:
        if (
            isinstance(data, dict)
            and part in data
            or isinstance(data, list)
            and isinstance(part, int)
            and 0 <= part < len(data)
        ):
            data = data[part]
            out.append(part)
        elif not (isinstance(part, str) and (part[:1].isupper() or part in _TAGS or "[" in part)):
            break
    return tuple(out)


#: Union members pydantic names in an error's location.
_TAGS = frozenset({"int", "str", "bool", "float", "list", "dict"})
