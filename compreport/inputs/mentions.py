"""Mentions (spans, entities) read from the layouts span tasks publish, one document per item.

Four layouts are read, each recognised with no option (:func:`detect`):

- **brat standoff**: a folder of ``.ann`` files, one per document (its file name without ``.ann``
  is the document's id). ``T`` lines give mentions: ``T1<TAB>LOC 10 15<TAB>text``. A
  discontinuous mention (``LOC 10 15;20 25``) is read as one mention from its first fragment's
  start to its last fragment's end. When the document's text is beside it (``doc.txt`` next to
  ``doc.ann``), an offset beyond the text is an error. ``N`` lines
  (``N1<TAB>Reference T1 DB:ID<TAB>name``) give a mention its code (entity linking); a mention
  with several codes is one mention per code. ``R`` lines (``R1<TAB>Located_in Arg1:T1
  Arg2:T2``) are relations, read into a second field, ``relations``, when the gold has any.
  Other lines (``E``, ``A``, ``#``) are not read.
- **the MEDDOPLACE TSV** (also CSV): a header naming ``filename``, ``label``, ``start_span`` and
  ``end_span``, one mention per row; a ``code`` (else ``normalization``) column gives codes
  (:data:`NO_CODE` cells give none); other columns, such as ``text``, are not read.
- **JSON**: an array of objects, or JSON lines, each with ``document`` (or ``filename``),
  ``start`` (or ``start_span``), ``end`` (or ``end_span``) and ``label`` (or ``type``), and
  optionally ``code``.
- **CoNLL**: one token per line, its tag (IOB2 or IOBES/BILOU) in the last column, sentences
  separated by blank lines (``-DOCSTART-`` lines separate too and are not tokens). Files named
  ``*.conll``, ``*.iob``, ``*.iob2``, ``*.bio``, ``*.bioes``, or starting with ``-DOCSTART-``.
  Each **sentence is an item**, named by its number (``1``, ``2``, ...), and a mention's
  offsets are token indices in it (end exclusive). Runs must have the gold's sentences, with as
  many tokens each. When ``-DOCSTART-`` lines divide the gold into two or more documents, the
  documents are the clusters of the cluster bootstrap: each is resampled whole.

Offsets are end-exclusive character offsets (brat's and MEDDOPLACE's). Every document's mentions
become one canonical mention list (:func:`compreport.inputs.structured.mentions_text`), so the
rest of the pipeline sees one value per document.

Examples
--------
>>> tags_to_mentions(["B-PER", "I-PER", "O", "B-LOC"], "s.conll", [1, 2, 3, 4])
[(0, 2, 'PER'), (3, 4, 'LOC')]
>>> tags_to_mentions(["S-LOC", "B-PER", "E-PER"], "s.conll", [1, 2, 3])
[(0, 1, 'LOC'), (1, 3, 'PER')]
"""

from __future__ import annotations

import csv
import fnmatch
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from types import MappingProxyType

import numpy as np

from compreport.errors import InputError, note, option, os_reason
from compreport.inputs.clusters import Clusters
from compreport.inputs.competition import Source
from compreport.inputs.delimited import decode, read_bytes, sha256, shown, text_name
from compreport.inputs.records import zip_prediction
from compreport.inputs.runfiles import RunFile, apply_names, find_runs, name_runs

__all__ = ["Mentions", "detect", "read_mention_runs", "read_mentions_file", "tags_to_mentions"]

#: The columns a MEDDOPLACE-style header names (any order, other columns allowed).
TSV_COLUMNS = ("filename", "label", "start_span", "end_span")
#: File name endings read as CoNLL token files.
CONLL_SUFFIXES = (".conll", ".iob", ".iob2", ".bio", ".bioes")
#: JSON keys of a mention object: each role and the keys accepted for it, first found wins.
JSON_KEYS = MappingProxyType(
    {
        "document": ("document", "filename", "doc_id", "doc"),
        "start": ("start", "start_span"),
        "end": ("end", "end_span"),
        "label": ("label", "type"),
    }
)
_TAG = re.compile(r"^(?:O|([BIESLU])-(.+))$")


@dataclass
class Mentions:
    """One file's (or brat folder's) mentions by document.

    Attributes
    ----------
    path : str
        The file or folder, as named.
    docs : dict
        Document id -> list of ``(start, end, type)``, documents in the order the input gives them.
    lines : dict
        Document id -> the line (or entry) first naming it (0: none, such as a brat file).
    unit : str
        What ``lines`` count: ``line`` or ``entry``.
    files : list of str
        Every file read (for checksums).
    tokens : list of int or None
        CoNLL: the number of tokens of each sentence (runs must match); else None.
    blocks : list of int or None
        CoNLL: the ``-DOCSTART-`` block (0, 1, ...) of each sentence; else None.
    relations : dict
        brat: document id -> its relations (``R`` lines) as 7-tuples (head start, head end,
        relation, head type, tail start, tail end, tail type).
    """

    path: str
    docs: dict = field(default_factory=dict)
    lines: dict = field(default_factory=dict)
    unit: str = "line"
    files: list = field(default_factory=list)
    tokens: list | None = None
    blocks: list | None = None
    relations: dict = field(default_factory=dict)

    def add(self, doc: str, mention: tuple | None, line: int) -> None:
        """Record ``mention`` (None: the document only) of ``doc`` found at ``line``."""
        if doc not in self.docs:
            self.docs[doc] = []
            self.lines[doc] = line
        if mention is not None:
            self.docs[doc].append(mention)


def _is_brat(path: str) -> bool:
    try:
        if not os.path.isdir(path):
            return False
        with os.scandir(path) as entries:
            return any(e.name.endswith(".ann") and e.is_file() for e in entries)
    except OSError:
        return False


def _head(path: str, data: bytes | None, size: int) -> bytes:
    """The first ``size`` bytes of ``data``, or of the regular file ``path`` (b"" if unreadable)."""
    if data is not None:
        return data[:size]
    try:
        with open(path, "rb") as fh:
            return fh.read(size)
    except OSError:
        return b""


def _first_line(path: str, data: bytes | None) -> str:
    text = _head(path, data, 4096).decode("utf-8-sig", errors="replace")
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


def _tsv_header(line: str) -> str | None:
    """The separator of a MEDDOPLACE header line (tab or comma), or None."""
    for sep in ("\t", ","):
        names = [c.strip().strip('"').lower() for c in line.split(sep)]
        if all(c in names for c in TSV_COLUMNS):
            return sep
    return None


def detect(path: str, data: bytes | None = None) -> str | None:
    """Which mention layout ``path`` is: ``brat``, ``tsv``, ``json``, ``conll``, or None.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "g.tsv").write_text("filename\\tlabel\\tstart_span\\tend_span\\ttext\\n")
    >>> detect(str(d / "g.tsv")), detect(str(d / "none.tsv"))
    ('tsv', None)
    """
    if data is None and _is_brat(path):
        return "brat"
    if data is None and not os.path.isfile(path):
        return None
    first = _first_line(path, data)
    low = path.lower()
    if low.endswith(CONLL_SUFFIXES) or first.startswith("-DOCSTART-"):
        return "conll"
    if _tsv_header(first):
        return "tsv"
    if low.endswith((".json", ".jsonl")) and first[:1] in ("[", "{"):
        sample = _head(path, data, 65536).decode("utf-8-sig", "replace")
        if re.search(r'"(start|start_span)"\s*:', sample):
            return "json"
    return None


def _offset(text: str, where, what: str) -> int:
    """``text`` as an offset; ``where`` (a string, or a function giving it) names it in errors."""
    if text.isascii() and text.isdigit():
        return int(text)
    text = text.strip()
    if not (text.isascii() and text.isdigit()):
        where = where() if callable(where) else where
        raise InputError(f"{where}: {what} {text!r} is not a non-negative whole number")
    return int(text)


def _checked(start: int, end: int, where: str, length: int | None = None) -> None:
    if start > end:
        raise InputError(f"{where}: the span starts after it ends ({start} > {end})")
    if length is not None and end > length:
        raise InputError(
            f"{where}: the span {start}-{end} ends beyond the document's text ({length} characters)"
        )


def _read_brat(folder: str) -> Mentions:
    """The mentions (``T``, with ``N`` codes) and relations (``R``) of a folder's ``.ann`` files."""
    out = Mentions(folder)
    try:
        with os.scandir(folder) as entries:
            anns = [e.path for e in entries if e.name.endswith(".ann") and e.name[0] != "."]
    except OSError as exc:
        raise InputError(f"{shown(folder)}: cannot list the folder ({os_reason(exc)})") from None
    for path in sorted(anns):
        doc = os.path.basename(path)[: -len(".ann")]
        txt = path[: -len(".ann")] + ".txt"
        length = len(decode(txt, read_bytes(txt))) if os.path.isfile(txt) else None
        out.files.append(path)
        out.add(doc, None, 0)
        spans_of: dict = {}
        codes: dict = {}
        rels: list = []
        for k, line in enumerate(decode(path, read_bytes(path)).splitlines(), 1):
            if line.startswith("N"):
                _brat_code(line, shown(path), k, codes)
                continue
            if line.startswith("R"):
                rels.append((k, line))
                continue
            if not line.startswith("T"):
                continue
            where = f"{shown(path)}, line {k}"
            parts = line.split("\t")
            if len(parts) < 2 or " " not in parts[1].strip():
                raise InputError(
                    f"{where}: a T line is `T1<TAB>TYPE START END<TAB>text`, not {line[:60]!r}"
                )
            kind, _, spans = parts[1].strip().partition(" ")
            pieces = [s.split() for s in spans.split(";")]
            if any(len(p) != 2 for p in pieces):
                raise InputError(f"{where}: offsets {spans!r} are not `START END(;START END)*`")
            offs = [(_offset(a, where, "offset"), _offset(b, where, "offset")) for a, b in pieces]
            for a, b in offs:
                _checked(a, b, where, length)
            spans_of[parts[0].strip()] = (offs[0][0], offs[-1][1], kind)
        for ref, (line, _) in codes.items():
            if ref not in spans_of:
                raise InputError(
                    f"{shown(path)}, line {line}: normalizes {ref}, which no T line is"
                )
        for ref, mention in spans_of.items():
            if ref in codes:
                out.docs[doc] += [(*mention, c) for c in codes[ref][1]]
            else:
                out.docs[doc].append(mention)
        out.relations[doc] = [_brat_relation(line, shown(path), k, spans_of) for k, line in rels]
    return out


def _brat_relation(line: str, path: str, k: int, spans_of: dict) -> tuple:
    """The relation of an ``R`` line (``R1<TAB>Located_in Arg1:T1 Arg2:T2``) as
    ``(head start, head end, relation, head type, tail start, tail end, tail type)``: the head is
    the first argument as written, the tail the second."""
    parts = line.split("\t")
    fields = parts[1].split() if len(parts) > 1 else []
    if len(fields) != 3 or any(":" not in f for f in fields[1:]):
        raise InputError(f"{path}, line {k}: an R line is `R1<TAB>TYPE Arg1:T1 Arg2:T2`")
    args = []
    for f in fields[1:]:
        ref = f.partition(":")[2]
        if ref not in spans_of:
            raise InputError(f"{path}, line {k}: relation argument {ref}, which no T line is")
        args.append(spans_of[ref])
    (hs, he, ht), (ts, te, tt) = args
    return (hs, he, fields[0], ht, ts, te, tt)


def _brat_code(line: str, path: str, k: int, codes: dict) -> None:
    """Record the code of an ``N`` line (``N1<TAB>Reference T1 DB:ID<TAB>name``) in ``codes``:
    mention id -> (first line, codes)."""
    parts = line.split("\t")
    fields = parts[1].split() if len(parts) > 1 else []
    if len(fields) != 3:
        raise InputError(f"{path}, line {k}: an N line is `N1<TAB>Reference T1 DB:ID<TAB>text`")
    entry = codes.setdefault(fields[1], (k, []))
    entry[1].append(fields[2])


#: Code cells that mean "no code" (pandas reads them as missing, as the MEDDOPLACE scorer does).
NO_CODE = ("", "None", "NA", "N/A", "nan", "NaN", "null", "NULL")
#: Header names of a TSV's code column, first found wins (``code``: DisTEMIST, MedProcNER;
#: ``normalization``: MEDDOPLACE).
CODE_COLUMNS = ("code", "normalization")


def _read_tsv(path: str, text: str) -> Mentions:
    out = Mentions(path)
    lines = text.splitlines()
    head_at = next(k for k, line in enumerate(lines) if line.strip())
    sep = _tsv_header(lines[head_at].strip())
    names = [c.strip().strip('"').lower() for c in lines[head_at].split(sep)]
    col = {c: names.index(c) for c in TSV_COLUMNS}
    need = max(col.values()) + 1
    i_doc, i_label, i_start, i_end = (col[c] for c in TSV_COLUMNS)
    i_code = next((names.index(c) for c in CODE_COLUMNS if c in names), None)
    for k, line in enumerate(lines[head_at + 1 :], head_at + 2):
        if not line.strip():
            continue
        # a CSV's quoted cells may hold commas (the mention's text); a TSV is split on tabs
        cells = next(csv.reader([line])) if sep == "," and '"' in line else line.split(sep)
        where = lambda k=k: f"{shown(path)}, line {k}"  # noqa: E731 - built only for an error
        if len(cells) < need:
            raise InputError(
                f"{where()}: {len(cells)} column(s); the header names {need} up to "
                f"{names[need - 1]!r}"
            )
        doc = cells[i_doc].strip().strip('"')
        a, b = cells[i_start], cells[i_end]
        start = int(a) if a.isdigit() and a.isascii() else _offset(a, where, "start_span")
        end = int(b) if b.isdigit() and b.isascii() else _offset(b, where, "end_span")
        if start > end:
            _checked(start, end, where())
        label = cells[i_label].strip().strip('"')
        if not doc or not label:
            raise InputError(f"{where()}: a blank filename or label")
        code = (
            cells[i_code].strip().strip('"') if i_code is not None and i_code < len(cells) else ""
        )
        out.add(doc, (start, end, label, code) if code not in NO_CODE else (start, end, label), k)
    return out


def _json_objects(path: str, text: str) -> list[tuple[int, object]]:
    stripped = text.lstrip()
    if stripped.startswith("["):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"{shown(path)}, line {exc.lineno}: not JSON ({exc.msg})") from None
        return list(enumerate(value, 1))
    objs = []
    for k, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                objs.append((k, json.loads(line)))
            except json.JSONDecodeError as exc:
                raise InputError(f"{shown(path)}, line {k}: not JSON ({exc.msg})") from None
    return objs


def _read_json(path: str, text: str) -> Mentions:
    array = text.lstrip().startswith("[")
    out = Mentions(path, unit="entry" if array else "line")
    for k, obj in _json_objects(path, text):
        where = f"{shown(path)}, {out.unit} {k}"
        if not isinstance(obj, dict):
            raise InputError(f"{where}: a mention is a JSON object, not {type(obj).__name__}")
        got = {}
        for role, keys in JSON_KEYS.items():
            key = next((x for x in keys if x in obj), None)
            if key is None:
                raise InputError(f"{where}: no {' or '.join(map(repr, keys))} key")
            got[role] = obj[key]
        for role in ("start", "end"):
            v = got[role]
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise InputError(f"{where}: {role} {v!r} is not a non-negative whole number")
        _checked(got["start"], got["end"], where)
        mention = (got["start"], got["end"], str(got["label"]))
        code = obj.get("code")
        out.add(str(got["document"]), mention if code in (None, "") else (*mention, str(code)), k)
    return out


def tags_to_mentions(
    tags: list[str], path: str, lines: list[int], scheme: str = "iob2"
) -> list[tuple]:
    """The mentions ``(start, end, type)`` (token indices, end exclusive) of one sentence's tags.

    IOB2 by default; a sentence with ``E-``/``S-`` (or ``L-``/``U-``) tags is read as IOBES
    (BILOU). A sequence that is not well formed is an error naming the line: an ``I-`` that does
    not continue an entity of its type (IOB2, seqeval's strict mode, refuses it; with
    ``scheme="iob1"`` it starts an entity, as seqeval's default mode and conlleval read it), an
    ``E-`` that ends nothing, a ``B-`` left open in IOBES.

    >>> tags_to_mentions(["O", "I-LOC", "I-PER"], "s.conll", [1, 2, 3], "iob1")
    [(1, 2, 'LOC'), (2, 3, 'PER')]

    >>> tags_to_mentions(["O", "I-LOC"], "s.conll", [7, 8])
    Traceback (most recent call last):
        ...
    compreport.errors.InputError: s.conll, line 8: I-LOC follows O, so it starts an entity: \
IOB2 (seqeval's strict mode) refuses this; IOB1 (conlleval, seqeval's default mode) would read \
it as the start of an entity. Write B-LOC for an entity's first token, or pass bio='iob1' to \
read the file as IOB1
    """
    parsed = []
    for tag, line in zip(tags, lines, strict=True):
        m = _TAG.match(tag)
        if not m:
            raise InputError(
                f"{shown(path)}, line {line}: tag {tag!r} is not O or B-/I-/E-/S-/L-/U- TYPE"
            )
        p, t = m.group(1), m.group(2)
        parsed.append((("E" if p == "L" else "S" if p == "U" else p) if p else "O", t))
    iobes = any(p in ("E", "S") for p, _ in parsed)
    out, open_at, open_type = [], None, None
    prev = "O"
    for i, ((p, t), line) in enumerate(zip(parsed, lines, strict=True)):
        where = f"{shown(path)}, line {line}"
        if p == "I" and scheme == "iob1" and not iobes and (open_type != t or open_at is None):
            p = "B"  # IOB1: an I- that continues nothing starts a mention
        if p in ("I", "E") and (open_type != t or open_at is None):
            if p == "I":
                raise InputError(
                    f"{where}: I-{t} follows {prev}, so it starts an entity: IOB2 (seqeval's "
                    f"strict mode) refuses this; IOB1 (conlleval, seqeval's default mode) would "
                    f"read it as the start of an entity. Write B-{t} for an entity's first "
                    f"token, or pass {option('bio', 'iob1')} to read the file as IOB1"
                )
            raise InputError(f"{where}: E-{t} follows {prev}: it ends no {t} entity (IOBES)")
        if p in ("O", "B", "S") and open_at is not None:
            if iobes:
                this = "O" if p == "O" else f"{p}-{t}"
                raise InputError(
                    f"{where}: {prev} is not closed by E-{open_type} before {this} (IOBES)"
                )
            out.append((open_at, i, open_type))
            open_at = open_type = None
        if p == "B":
            open_at, open_type = i, t
        elif p == "S":
            out.append((i, i + 1, t))
        elif p == "E":
            out.append((open_at, i + 1, t))
            open_at = open_type = None
        prev = "O" if p == "O" else f"{p}-{t}"
    if open_at is not None:
        if iobes:
            raise InputError(
                f"{shown(path)}, line {lines[-1]}: {prev} ends the sentence without E-{open_type} "
                f"(IOBES)"
            )
        out.append((open_at, len(parsed), open_type))
    return out


def _read_conll(path: str, text: str, scheme: str = "iob2") -> Mentions:
    out = Mentions(path)
    out.tokens, out.blocks = [], []
    tags: list[str] = []
    lines: list[int] = []
    block = 0

    def flush() -> None:
        if tags:
            doc = str(len(out.tokens) + 1)
            out.tokens.append(len(tags))
            out.blocks.append(block)
            out.add(doc, None, lines[0])
            out.docs[doc] = tags_to_mentions(tags, path, lines, scheme)
            tags.clear()
            lines.clear()

    for k, line in enumerate(text.splitlines(), 1):
        cells = line.split()
        if not cells or cells[0] == "-DOCSTART-":
            flush()
            if cells and out.tokens:  # a new document once the first has sentences
                block += 1
            continue
        if len(cells) < 2:
            raise InputError(f"{shown(path)}, line {k}: a token line is `TOKEN ... TAG`: no tag")
        tags.append(cells[-1])
        lines.append(k)
    flush()
    return out


def read_mentions_file(
    path: str, fmt: str | None = None, data: bytes | None = None, bio: str = "iob2"
) -> Mentions:
    """The mentions of a file or brat folder, by document.

    Parameters
    ----------
    path : str
        A brat folder, or a TSV/CSV, JSON or CoNLL file.
    fmt : str, optional
        ``brat``, ``tsv``, ``json`` or ``conll``; None: :func:`detect`.
    data : bytes, optional
        The file's bytes when not read from ``path`` (a zip member).
    bio : str
        How CoNLL tags are read: ``iob2`` (default) or ``iob1`` (:func:`tags_to_mentions`).

    Raises
    ------
    InputError
        A file in no mention layout, or bad input, naming the file and line.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> head = "filename\\tlabel\\tstart_span\\tend_span\\n"
    >>> _ = (d / "g.tsv").write_text(head + "d1\\tLOC\\t0\\t4\\n")
    >>> read_mentions_file(str(d / "g.tsv")).docs
    {'d1': [(0, 4, 'LOC')]}
    """
    path = text_name(path)
    fmt = fmt or detect(path, data)
    if fmt == "brat":
        return _read_brat(path)
    if fmt is None:
        raise InputError(
            f"{shown(path)}: not a mention file: expected a folder of brat .ann files, a TSV "
            f"whose header names {', '.join(TSV_COLUMNS)}, JSON mention objects, or a CoNLL file"
        )
    raw = data if data is not None else read_bytes(path)
    text = decode(path, raw)
    if fmt == "conll":
        out = _read_conll(path, text, bio)
    else:
        out = {"tsv": _read_tsv, "json": _read_json}[fmt](path, text)
    out.files.append(path)
    return out


def _run_folders(runs: str, gold: str, o) -> list[RunFile]:
    """The runs of a brat task: every folder holding ``.ann`` files (under team folders too);
    ``--exclude`` globs are matched against each folder's path in the runs folder and its name
    (and against the files, as for other runs)."""
    files = find_runs(runs, None, o.exclude, o.names)
    gold_real = os.path.realpath(gold)
    folders: dict[str, RunFile] = {}
    for f in files:
        if not f.path.endswith(".ann"):
            continue
        folder = os.path.dirname(f.path)
        if os.path.realpath(folder) == gold_real:
            continue
        rel = PurePosixPath(f.rel).parent.as_posix()
        rel = PurePosixPath(runs).name if rel == "." else rel
        folders.setdefault(folder, RunFile(folder, rel + ".ann"))
    left = [
        k
        for k, r in folders.items()
        if any(
            fnmatch.fnmatch(r.rel[: -len(".ann")], pat) or fnmatch.fnmatch(os.path.basename(k), pat)
            for pat in o.exclude
        )
    ]
    if left:
        note(
            f"{runs}: {len(left)} run folder(s) left out by {option('exclude')}: "
            f"{', '.join(left[:5])}{', ...' if len(left) > 5 else ''}"
        )
    for k in left:
        del folders[k]
    if not folders:
        raise InputError(f"{runs}: no folder of .ann files (one per run) found")
    found = [folders[k] for k in sorted(folders)]
    name_runs(found)
    return found


def read_mention_runs(gold_path: str, runs: str, o) -> dict:
    """The pieces of a span competition: documents are the items, mention lists their values.

    The items are the gold's documents (every ``.ann`` file of a brat gold folder, even one with
    no mention; every document a TSV or JSON gold names; every CoNLL sentence), in the gold's
    order. A TSV or JSON gold cannot list a document with no mention, so the documents only runs
    name follow (sorted, with a note): their mentions are false positives. A brat gold folder
    lists every document, so a run's other documents are background documents, not scored
    (with a note). A document a run does not name has no mention in that run.

    Parameters
    ----------
    gold_path : str
        The gold: a brat folder or a mention file (:func:`detect`).
    runs : str
        A folder or glob of runs: brat folders (one per run, inside team folders or not) when the
        gold is brat, else mention files.
    o : ReadOptions
        ``exclude`` and ``names`` are used.

    Returns
    -------
    dict
        As :func:`compreport.inputs.readers.read_runs`, with one field ``mentions``.
    """
    for attr in (
        "id_column",
        "label_columns",
        "runs_id_column",
        "runs_label_columns",
        "cluster_column",
    ):
        value = getattr(o, attr)
        if value is not None:
            raise InputError(
                f"{o.named(attr, value)} names a column, but {shown(gold_path)} holds mentions "
                f"(read by their layout, with no column option)"
            )
    fmt = detect(gold_path)
    gold = read_mentions_file(gold_path, fmt, bio=o.bio)
    if fmt == "brat":
        found = _run_folders(str(runs), gold_path, o)
    else:
        found = find_runs(str(runs), gold_path, o.exclude, o.names)
        name_runs(found)
    if o.names:
        found = apply_names(o.names, found, o.sep, o.comments)
    read = []
    for r in found:
        if fmt == "brat":
            got = read_mentions_file(r.path, "brat")
        else:
            got = _read_run_file(r, o)
        if gold.tokens is not None:
            _same_sentences(gold, got)
        read.append(got)
    docs = list(gold.docs)
    extra = sorted({d for got in read for d in got.docs} - set(gold.docs))
    if extra and fmt == "brat":  # the gold folder lists every document: the rest are background
        note(
            f"{gold_path}: {len(extra)} document(s) of runs have no .ann file in the gold folder "
            f"and are not scored (background documents): "
            f"{', '.join(extra[:5])}{', ...' if len(extra) > 5 else ''}"
        )
        extra = []
    elif extra:
        note(
            f"{gold_path}: {len(extra)} document(s) named by runs and not by the gold are items "
            f"with no gold mention (their mentions are false positives): "
            f"{', '.join(extra[:5])}{', ...' if len(extra) > 5 else ''}"
        )
    keys = docs + extra
    # a brat gold with relations (R lines): a second field, read by the relation measures
    fields = ["mentions", "relations"] if any(gold.relations.values()) else ["mentions"]

    def values(got: Mentions) -> list:
        rows = [[_canonical(got.docs.get(d, []))] for d in keys]
        if len(fields) == 2:
            for row, d in zip(rows, keys, strict=True):
                row.append(_canonical(got.relations.get(d, [])))
        return rows

    gold_vals = np.array(values(gold), dtype=object)
    preds, sources = [], []
    for r, got in zip(found, read, strict=True):
        preds.append(values(got))
        sources.append(
            Source(r.path, np.array([got.lines.get(d, 0) for d in keys]), fields, got.unit)
        )
    clusters = None
    if gold.blocks and len(set(gold.blocks)) > 1:  # CoNLL documents: resampled whole
        clusters = Clusters.from_labels([f"document {b + 1}" for b in gold.blocks], "-DOCSTART-")
    files = list(dict.fromkeys([*gold.files, *([o.names] if o.names else [])]))
    files += list(dict.fromkeys(f for got in read for f in got.files))
    return dict(
        clusters=clusters,
        scanned=[str(runs)],
        gold=gold_vals.astype(str).reshape(len(keys), len(fields)),
        predictions=np.array(preds, dtype=object)
        .astype(str)
        .reshape(len(found), len(keys), len(fields)),
        systems=[r.name for r in found],
        item_ids=np.array(keys),
        fields=fields,
        gold_source=Source(
            gold_path, np.array([gold.lines.get(d, 0) for d in keys]), fields, gold.unit
        ),
        system_sources=sources,
        inputs=[{"path": p, "sha256": sha256(p)} for p in files],
        missing={r.name: 0 for r in found},
        teams={r.name: r.team for r in found},
        marked_baselines=[r.name for r in found if r.baseline],
    )


def _read_run_file(r: RunFile, o) -> Mentions:
    """A run file's mentions; a ``.zip`` run (a CodaLab submission) is read from its one
    prediction file (``--zip-member`` names it)."""
    data = r.data
    if r.path.lower().endswith(".zip") or (data is not None and data[:2] == b"PK"):
        name, member = zip_prediction(
            r.path, data if data is not None else read_bytes(r.path), o.member
        )
        got = read_mentions_file(f"{r.path}:{name}", None, member, o.bio)
        got.files = [r.container or r.path]
        return got
    got = read_mentions_file(r.path, None, data, o.bio)
    if data is not None:
        got.files = [r.container or r.path]
    return got


def _canonical(mentions: list) -> str:
    """:func:`~compreport.inputs.structured.mentions_text` of mentions the readers made (offsets
    already ints, types and codes str), without converting each again.

    >>> from compreport.inputs.structured import mentions_text
    >>> m = [(5, 9, "LOC"), (0, 4, "PER", "Q1"), (5, 9, "LOC")]
    >>> _canonical(m) == mentions_text(m)
    True
    """
    if not mentions:
        return "[]"
    rows = sorted(set(mentions), key=lambda r: (r[0], r[1], r[2:]))
    return json.dumps(rows, ensure_ascii=False, separators=(",", ":"))


def _same_sentences(gold: Mentions, run: Mentions) -> None:
    if run.tokens is None:
        raise InputError(f"{shown(run.path)}: the gold is a CoNLL file; this run is not")
    for k, (a, b) in enumerate(zip(gold.tokens, run.tokens, strict=False), 1):
        if a != b:
            raise InputError(
                f"{shown(run.path)}, line {run.lines[str(k)]}: sentence {k} has {b} token(s), "
                f"the gold's ({shown(gold.path)}, line {gold.lines[str(k)]}) has {a}"
            )
    if len(gold.tokens) != len(run.tokens):
        raise InputError(
            f"{shown(run.path)}: {len(run.tokens)} sentence(s), the gold "
            f"({shown(gold.path)}) has {len(gold.tokens)}"
        )
