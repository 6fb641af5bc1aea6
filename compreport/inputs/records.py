"""Gold and run files as shared tasks publish them, read into ids and values.

A file is read in two steps, because whether its first row is a header is decided knowing the
other files:

1. :func:`read_file` reads the bytes (a ``.zip`` submission: its one prediction file), then

   * ``.json`` / ``.jsonl``: objects with an id key and a label key, an object mapping id to label,
     or a list of labels (no ids) -> :class:`Parsed` at once;
   * any other file: text split into fields (:func:`~compreport.inputs.delimited.split_fields`:
     ``#`` comment lines, separator per file) -> :class:`RawText`.

2. :func:`headers` decides every text file's header the same way, and :func:`layout` picks the id
   and label columns (``id_col``/``label_col``: a 1-based position or a header name) -> :class:`Parsed`.

A file whose every row holds one field per label (no id) is *aligned by line* with the gold
(``ids`` is None); a blank line inside it is an item without a value.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from ..settings import suggest
from ..words import option
from .delimited import MISSING, SEPARATORS, decode, read_bytes, split_fields, text_name

#: ``--missing`` values.
MISSING_POLICIES = ("error", "wrong")

#: Largest zip member read (bytes): a prediction file, not an archive bomb.
_ZIP_MEMBER_LIMIT = 1 << 31

_NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


@dataclass
class ReadOptions:
    """How gold and run files are read (``--sep``, ``--no-comments``, ``--id-col``, ``--label-col``,
    ``--zip-member``, ``--missing``, ``--exclude``, ``--names`` and their ``[data]`` keys).

    Attributes
    ----------
    sep : str
        One of :data:`~compreport.inputs.delimited.SEPARATORS`.
    comments : bool
        Skip lines whose first character is ``#``.
    id_col, label_col : int, str, list or None
        The id column and the label column(s) of the gold (and of the runs unless ``runs_id_col`` /
        ``runs_label_col``): 1-based positions or header names (JSON: keys); None: found as
        described in :func:`layout`.
    zip_member : str or None
        The prediction file inside every ``.zip`` run (its name or path in the archive).
    missing : str
        ``error``: a blank, absent or unreadable prediction is an error; ``wrong``: it is scored as
        a wrong answer.
    exclude : list of str
        Globs of run files to leave out (matched against the path inside the runs folder and the name).
    names : str or None
        The names file (``run``, ``name``, ``team``, ``baseline``, ``exclude`` columns).
    """

    sep: str = "auto"
    comments: bool = True
    id_col: int | str | None = None
    label_col: list | None = None
    runs_id_col: int | str | None = None
    runs_label_col: list | None = None
    zip_member: str | None = None
    missing: str = "error"
    exclude: list[str] = field(default_factory=list)
    names: str | None = None

    def check(self) -> "ReadOptions":
        """Validated and normalised in place (column lists, positions >= 1); returns self."""
        if self.sep not in SEPARATORS:
            raise InputError(f"{option('sep')} must be one of {', '.join(SEPARATORS)}; got {self.sep!r}"
                             f"{suggest(self.sep, SEPARATORS)}")
        if self.missing not in MISSING_POLICIES:
            raise InputError(f"{option('missing')} must be one of {', '.join(MISSING_POLICIES)}; got {self.missing!r}"
                             f"{suggest(self.missing, MISSING_POLICIES)}")
        if not isinstance(self.comments, bool):
            raise InputError(f"`comments` must be True or False; got {self.comments!r}")
        self.id_col = one_column(self.id_col, "id_col")
        self.runs_id_col = one_column(self.runs_id_col, "id_col")
        self.label_col = columns(self.label_col, "label_col")
        self.runs_label_col = columns(self.runs_label_col, "label_col")
        return self


def one_column(value, what: str, label: str | None = None):
    """A column given by the user: None, a position (``2``, ``"2"``) as int >= 1, or a name.

    ``what`` is the option (``id_col``, ``label_col``) named in errors, unless ``label`` (a spec key) is given.
    """
    if value is None:
        return None
    name = label or option(what)
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise InputError(f"{name} must be a column name or a 1-based position; got {value!r}")
    if isinstance(value, str):
        value = value.strip()
        if re.fullmatch(r"-?\d+", value):
            value = int(value)
    if isinstance(value, int) and value < 1:
        raise InputError(f"{name} must be a column name or a 1-based position (1 is the first column); got {value}")
    if value == "":
        raise InputError(f"{name} names no column")
    return value


def columns(value, what: str, label: str | None = None) -> list | None:
    """Label columns: None, one column, a comma list (``"3,5"``) or a list; see :func:`one_column`."""
    if value is None:
        return None
    if isinstance(value, str):
        value = [v for v in value.split(",") if v.strip()]
    elif not isinstance(value, (list, tuple)):
        value = [value]
    out = [one_column(v, what, label) for v in value]
    if not out:
        raise InputError(f"{label or option(what)} names no column")
    return out


@dataclass
class Parsed:
    """One gold or run file read into items.

    Attributes
    ----------
    path : str
        The file as messages name it (a zip member: ``run.zip:answer.txt``).
    file : str
        The file read from disk (its SHA-256 is recorded).
    ids : list of str or None
        The id of each item; None: no ids, the items are aligned with the gold by line.
    values : list of list
        Per item, one value per field: stripped text, or None where there is no value (blank,
        ``nan``/``null``, absent).
    lines : list of int
        Line (or JSON entry) of each item.
    columns : list of str
        How each field is named in messages (``column 2``, ``column 'label'``, ``key 'label'``).
    unit : str
        ``line`` or ``entry`` (a ``.json`` file).
    header : list of str or None
        The header row, when the file has one (text files).
    id_index : int or None
        0-based column of the ids (text files with ids).
    label_index : list of int
        0-based columns of the values (text files).
    width : int
        Columns of a complete row (text files).
    """

    path: str
    file: str
    ids: list[str] | None
    values: list[list[str | None]]
    lines: list[int]
    columns: list[str]
    unit: str = "line"
    header: list[str] | None = None
    id_index: int | None = None
    label_index: list[int] = field(default_factory=list)
    width: int = 0

    def where(self, k: int, f: int | None = None) -> str:
        """``path, line L[, column]`` of item ``k`` (and field ``f``)."""
        col = f", {self.columns[f]}" if f is not None else ""
        return f"{self.path}, {self.unit} {self.lines[k]}{col}"


@dataclass
class RawText:
    """A text gold or run file split into fields (:func:`~compreport.inputs.delimited.split_fields`).

    ``rows[i]`` (``[]`` for a blank line) is on line ``lines[i]``; ``sep`` is the separator used.
    """

    path: str
    file: str
    rows: list[list[str]]
    lines: list[int]
    sep: str

    @property
    def start(self) -> int:
        """Index of the first non-blank row."""
        return next(i for i, r in enumerate(self.rows) if r)


# --------------------------------------------------------------------------- reading a file

def _ignored_member(name: str) -> bool:
    parts = name.split("/")
    base = parts[-1]
    return "__MACOSX" in parts or base.startswith(".") or base.lower() == "metadata"


def zip_member(path: str, data: bytes, wanted: str | None) -> tuple[str, bytes]:
    """The prediction file of a zipped submission: its name and bytes.

    The one file of the archive that is not a folder, under ``__MACOSX/``, hidden, or CodaLab's
    ``metadata``; with ``wanted`` (``--zip-member``), the member of that name or path.
    """
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError):
        raise InputError(f"{path}: not a zip archive, or a damaged one") from None
    infos = {i.filename: i for i in archive.infolist() if not i.is_dir()}
    candidates = [name for name in infos if not _ignored_member(name)]
    listed = ", ".join(repr(c) for c in candidates) or "none"
    if wanted is not None:
        chosen = [c for c in infos if c == wanted or c.rsplit("/", 1)[-1] == wanted]
        if len(chosen) != 1:
            what = "no member" if not chosen else f"{len(chosen)} members"
            raise InputError(f"{path}: {what} named {wanted!r} ({option('zip_member')}); its prediction files: "
                             f"{listed}")
    else:
        chosen = candidates
        if not chosen:
            raise InputError(f"{path}: the archive holds no prediction file (members: "
                             f"{', '.join(repr(n) for n in infos) or 'none'})")
        if len(chosen) > 1:
            raise InputError(f"{path}: the archive holds {len(chosen)} candidate prediction files ({listed}); "
                             f"pass {option('zip_member', 'NAME')}")
    info = infos[chosen[0]]
    if info.file_size > _ZIP_MEMBER_LIMIT:
        raise InputError(f"{path}:{info.filename}: {info.file_size} bytes uncompressed; a prediction file is "
                         f"smaller than {_ZIP_MEMBER_LIMIT} bytes")
    try:
        return info.filename, archive.read(info)
    except (zipfile.BadZipFile, NotImplementedError, OSError, RuntimeError, ValueError) as exc:
        raise InputError(f"{path}:{info.filename}: cannot be read from the archive ({exc})") from None


def read_file(path: str, opts: ReadOptions, role: str, fields: list[str] | None = None) -> RawText | Parsed:
    """Read a gold (``role="gold"``) or run (``role="run"``) file: :class:`Parsed` for JSON, else :class:`RawText`.

    Raises
    ------
    InputError
        For a missing, unreadable, empty or non-UTF-8 file, a zip without exactly one prediction
        file, malformed JSON or CSV; naming the file and line.
    """
    path = text_name(path)
    if os.path.isdir(path):
        raise InputError(f"{path}: is a directory, expected a CSV/TSV file")
    data = read_bytes(path)
    shown, inner = path, path
    if Path(path).suffix.lower() == ".zip" or data[:4] == b"PK\x03\x04":
        inner, data = zip_member(path, data, opts.zip_member)
        shown = f"{path}:{inner}"
    suffix = Path(inner).suffix.lower()
    text = decode(shown, data)
    if not text.strip():
        raise InputError(f"{shown}: file is empty")
    id_col, label_col = (opts.id_col, opts.label_col) if role == "gold" else \
        (opts.runs_id_col if opts.runs_id_col is not None else opts.id_col,
         opts.runs_label_col if opts.runs_label_col is not None else opts.label_col)
    if suffix in (".json", ".jsonl"):
        return read_json(shown, path, text, suffix, id_col, label_col, fields, role)
    rows, lines, sep = split_fields(shown, text, opts.sep, opts.comments, suffix)
    if not any(rows):
        raise InputError(f"{shown}: file holds only comment lines ('#'); pass {option('no_comments', True)} "
                         f"if '#' starts data")
    return RawText(shown, path, rows, lines, sep)


# --------------------------------------------------------------------------- JSON

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
    """A JSON scalar as the text a delimited file would hold; None for null, NaN or a blank string."""
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
        text = value.strip()
        return None if text.lower() in MISSING else text
    kind = {"dict": "object", "list": "array"}.get(type(value).__name__, type(value).__name__)
    raise InputError(f"{where}: {what} is a JSON {kind}, expected a label or a number")


def read_json(shown: str, file: str, text: str, suffix: str, id_col, label_col,
              fields: list[str] | None, role: str = "gold") -> Parsed:
    """A ``.jsonl`` file (one object per line) or a ``.json`` file (a list of objects, an object
    mapping id to label, or a list of labels) as :class:`Parsed`.

    Keys: ``id`` and ``label`` (several fields: the field names) unless ``id_col``/``label_col``
    name them.
    """
    nf = len(fields) if fields else 1
    for spec, what in ((id_col, "id_col"), *((c, "label_col") for c in (label_col or []))):
        if isinstance(spec, int):
            raise InputError(f"{shown}: a JSON file names its values by key, not position: pass "
                             f"{option(what, 'KEY')}")
    id_key = id_col or "id"
    label_keys = list(label_col) if label_col else (list(fields) if fields else ["label"])
    if len(label_keys) != nf:
        raise InputError(f"{shown}: {nf} field(s) but {len(label_keys)} label key(s) ({option('label_col')})")
    entries: list[tuple[int, object]] = []
    unit = "line"
    try:
        if suffix == ".jsonl":
            for number, line in enumerate(text.splitlines(), start=1):
                if not line.strip():
                    continue
                try:
                    entries.append((number, json.loads(line, object_pairs_hook=_pairs)))
                except json.JSONDecodeError as exc:
                    raise InputError(f"{shown}, line {number}: not JSON ({exc.msg}, column {exc.colno})") from None
        else:
            unit = "entry"
            try:
                doc = json.loads(text, object_pairs_hook=_pairs)
            except json.JSONDecodeError as exc:
                raise InputError(f"{shown}, line {exc.lineno}: not JSON ({exc.msg}, column {exc.colno})") from None
            if isinstance(doc, dict):  # id -> label, or id -> object with the label keys
                if nf != 1 and not all(isinstance(v, dict) for v in doc.values()):
                    raise InputError(f"{shown}: an object mapping id to label holds one field; {nf} are expected")
                entries = [(k, (v | {id_key: key}) if isinstance(v, dict) else {id_key: key, label_keys[0]: v})
                           for k, (key, v) in enumerate(doc.items(), start=1)]
            elif isinstance(doc, list):
                entries = list(enumerate(doc, start=1))
            else:
                raise InputError(f"{shown}: holds a JSON {type(doc).__name__}; expected a list of objects "
                                 f"(keys {id_key!r} and {label_keys[0]!r}), an object mapping id to label, or a "
                                 f"list of labels")
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
        return Parsed(shown, file, None, values, lines, ["value"], unit)
    if not all(objects):
        pos, obj = next(e for e, o in zip(entries, objects, strict=True) if not o)
        raise InputError(f"{shown}, {unit} {pos}: a JSON {type(obj).__name__}, where the other entries are objects")
    keys = sorted({k for _, obj in entries for k in obj})
    if role == "run":  # a run that lacks a key named for the gold is read with the default keys
        if id_key not in keys and "id" in keys:
            id_key = "id"
        if nf == 1 and label_keys[0] not in keys and "label" in keys:
            label_keys = ["label"]
            columns = ["key 'label'"]
    for key, what in ((id_key, "id_col"), *((k, "label_col") for k in label_keys)):
        if key not in keys:
            others = [k for k in keys if k != id_key and k not in label_keys]
            raise InputError(f"{shown}: no entry has the key {key!r} (keys: {', '.join(map(repr, keys))}); pass "
                             f"{option(what, others[0] if len(others) == 1 else 'KEY')}{suggest(key, keys)}")
    ids, values = [], []
    for pos, obj in entries:
        where = f"{shown}, {unit} {pos}"
        if id_key not in obj:
            raise InputError(f"{where}: no key {id_key!r} (the id)")
        ident = obj[id_key]
        if isinstance(ident, bool) or not isinstance(ident, (str, int)) or \
                (isinstance(ident, str) and not ident.strip()):
            raise InputError(f"{where}: the id ({id_key!r}) must be a non-empty string or a whole number; "
                             f"got {ident!r}")
        ids.append(str(ident).strip())
        values.append([_json_text(obj.get(k), where, f"the value of {k!r}") for k in label_keys])
    return Parsed(shown, file, ids, values, lines, columns, unit)


# --------------------------------------------------------------------------- headers

def _is_number(cell: str) -> bool:
    return bool(_NUMBER.fullmatch(cell))


def headers(files: list[RawText | Parsed], names: list[set[str]]) -> list[bool]:
    """Whether the first row of each text file is a header (False for :class:`Parsed` files);
    ``files[0]`` is the gold, decided first.

    A first row is a header when it holds one of ``names[i]`` (column names given for that file)
    or ``id`` (in any case); otherwise when none of its fields is a number or a known value: a value
    found below the first row of any file, an id or value of a JSON file, and, for the runs, any
    value of the gold's data (so a run's first row holding a gold id is an item).
    """
    firsts = [set(f.rows[f.start]) if isinstance(f, RawText) else set() for f in files]
    targets = set().union(*firsts)
    found: set[str] = set()
    if targets:
        for f in files:
            if isinstance(f, RawText):
                for row in f.rows[f.start + 1:]:
                    found.update(c for c in row if c in targets)
            else:
                found.update(i for i in (f.ids or []) if i in targets)
                found.update(v for vals in f.values for v in vals if v in targets)

    def decide(k: int) -> bool:
        if not isinstance(files[k], RawText):
            return False
        if any(c in names[k] or c.lower() == "id" for c in firsts[k]):
            return True
        return not any(_is_number(c) or c in found for c in firsts[k])

    out = [decide(0)]
    if not out[0]:
        found |= firsts[0]  # the gold's first row is an item: its id and label are known values
    return out + [decide(k) for k in range(1, len(files))]


# --------------------------------------------------------------------------- columns

def _shown_header(row: list[str]) -> str:
    return ", ".join(repr(c) for c in row)


def _name_error(raw: RawText, head: list[str] | None, head_line: int, name: str, what: str) -> InputError:
    """A column named by ``what`` (``id_col``, ``label_col``) that the file does not have."""
    if head is not None:
        return InputError(f"{raw.path}, line {head_line}: the header ({_shown_header(head)}) has no column {name!r}; "
                          f"pass {option(what, 'NAME')} with one of its names, or a position{suggest(name, head)}")
    return InputError(f"{raw.path}: the file has no header, so no column can be found by the name {name!r} (first "
                      f"line {raw.lines[raw.start]}: {_shown_header(raw.rows[raw.start])}); pass its position, e.g. "
                      f"{option(what, 1 if what == 'id_col' else 2)}")


def layout(raw: RawText | Parsed, role: str, header: bool, opts: ReadOptions, fields: list[str] | None,
           gold: Parsed | None = None) -> Parsed:
    """The ids and values of a text file (a :class:`Parsed` file is returned as it is).

    Columns: ``id_col``/``label_col`` when given (a name needs a header; a headerless run takes the
    gold's positions for it). Otherwise the id is the column called ``id`` (a run: also the gold's id
    column name or position; a headerless file: the first column), and the label the one other
    column (several fields: the columns named after them; a run as wide as the gold: the gold's).
    A file with one field per row (per label) has no ids and is aligned by line.

    Raises
    ------
    InputError
        A header without the id column (the gold: it shows the header and the option), a column
        that is not there, rows of the wrong width, an empty id; and, unless ``opts.missing`` is
        ``wrong``, a run row without its value. The gold's blank values and duplicate ids are
        checked by the caller.
    """
    if isinstance(raw, Parsed):
        return raw
    nf = len(fields) if fields else 1
    id_spec, label_spec = (opts.id_col, opts.label_col) if role == "gold" else \
        (opts.runs_id_col if opts.runs_id_col is not None else opts.id_col,
         opts.runs_label_col if opts.runs_label_col is not None else opts.label_col)
    start = raw.start
    head = raw.rows[start] if header else None
    head_line = raw.lines[start]
    first = start + 1 if header else 0
    body, lines = raw.rows[first:], raw.lines[first:]
    filled = [r for r in body if r]
    if not filled:
        raise InputError(f"{raw.path}: no data rows" + (f" after the header on line {head_line} "
                                                        f"({_shown_header(head)})" if head else ""))
    widths = {len(r) for r in filled}
    if widths == {nf} and (head is None or len(head) == nf):
        last = max(i for i, r in enumerate(body) if r)
        body, lines = body[:last + 1], lines[:last + 1]
        values = [[None if c.lower() in MISSING else c for c in r] if r else [None] * nf for r in body]
        names = [f"column {h!r}" for h in head] if head else [f"column {j + 1}" for j in range(nf)]
        return Parsed(raw.path, raw.file, None, values, lines, names, header=head,
                      label_index=list(range(nf)), width=nf)
    like_gold = role == "run" and gold is not None and gold.ids is not None
    # a complete row: the header's width, or the most common one (a short row misses a value, a long
    # row has a value split at a blank)
    width0 = len(head) if head else Counter(len(r) for r in filled).most_common(1)[0][0]
    # the id column; a run that lacks a named column is read as when none is named (its ids are
    # checked against the gold's)
    idx = None
    if isinstance(id_spec, int):
        idx = id_spec - 1
    elif isinstance(id_spec, str):
        if head is not None and id_spec in head:
            idx = head.index(id_spec)
        elif role == "gold":
            raise _name_error(raw, head, head_line, id_spec, "id_col")
    if idx is None:
        lowered = [h.lower() for h in head] if head else []
        if "id" in lowered:
            idx = lowered.index("id")
        elif head and like_gold and gold.header and gold.header[gold.id_index] in head:
            idx = head.index(gold.header[gold.id_index])
        elif head and role == "gold":
            raise InputError(f"{raw.path}, line {head_line}: the first line is a header ({_shown_header(head)}) "
                             f"without a column called 'id'; pass {option('id_col', head[0])} (the id column's "
                             f"name or position)")
        elif like_gold and width0 == gold.width:
            idx = gold.id_index
        else:
            idx = 0
    # the label column(s)
    cols: list[int] | None = None
    if label_spec is not None:
        if len(label_spec) != nf:
            raise InputError(f"{option('label_col')} names {len(label_spec)} column(s); the files have {nf} "
                             f"field(s) ({', '.join(fields or ['label'])})")
        cols = []
        for spec in label_spec:
            if isinstance(spec, int):
                cols.append(spec - 1)
            elif head is not None and spec in head:
                cols.append(head.index(spec))
            elif role == "gold":
                raise _name_error(raw, head, head_line, spec, "label_col")
            else:
                cols = None
                break
    if cols is not None:
        pass
    elif head and fields and all(f in head for f in fields):
        cols = [head.index(f) for f in fields]
    elif width0 - 1 == nf:
        cols = [j for j in range(width0) if j != idx]
    elif like_gold and head and gold.header and all(gold.header[j] in head for j in gold.label_index):
        cols = [head.index(gold.header[j]) for j in gold.label_index]
    elif like_gold and width0 == gold.width:
        cols = list(gold.label_index)
    else:
        shown = f" (header: {_shown_header(head)})" if head else ""
        raise InputError(f"{raw.path}: {width0} columns{shown}, expected an id column and "
                         f"{'one label column' if nf == 1 else f'{nf} label columns'}; pass "
                         f"{option('label_col', 'N')} (a position or a header name) to say which holds the "
                         f"label" + ("" if id_spec is not None else f", and {option('id_col', 'N')} for the id"))
    if idx in cols:
        raise InputError(f"{raw.path}: the id column and a label column are the same (column {idx + 1}); "
                         f"check {option('id_col')} and {option('label_col')}")
    need = max([idx, *cols]) + 1
    width = width0
    if need > width:
        has = f"the header has {width} ({_shown_header(head)})" if head else f"its rows have {width}"
        raise InputError(f"{raw.path}{f', line {head_line}' if head else ''}: column {need} is asked for "
                         f"({option('id_col')}, {option('label_col')}), but {has}")
    ids, values, item_lines = [], [], []
    for row, line in zip(body, lines, strict=True):
        if not row:
            continue
        if len(row) > width or (len(row) < width and (role == "gold" or len(row) <= idx
                                                      or opts.missing == "error")):
            hint = ""
            if len(row) > width and raw.sep == "whitespace":
                hint = f"; fields are split at blanks here, so a value holding a space needs {option('sep', 'tab')}"
            elif role == "run" and idx < len(row) < width:
                hint = f"; pass {option('missing', 'wrong')} to score a missing prediction as a wrong answer"
            raise InputError(f"{raw.path}, line {line}: expected {width} columns, found {len(row)}{hint}")
        ident = row[idx]
        if not ident:
            raise InputError(f"{raw.path}, line {line}: empty id (column {idx + 1})")
        ids.append(ident)
        values.append([None if j >= len(row) or row[j].lower() in MISSING else row[j] for j in cols])
        item_lines.append(line)
    names = [f"column {head[j]!r}" for j in cols] if head else [f"column {j + 1}" for j in cols]
    return Parsed(raw.path, raw.file, ids, values, item_lines, names, header=head, id_index=idx,
                  label_index=cols, width=width)
