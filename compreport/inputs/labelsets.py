"""Label sets (multi-label) as tasks publish them, read into canonical label-set texts
(:mod:`compreport.inputs.structured`).

Four layouts:

- a JSON array per item (``{"id": 1, "label": ["a", "b"]}``): read so by the JSON reader, with no
  option (:mod:`compreport.inputs.jsonfiles`);
- PyEvALL's files: JSON objects with the keys ``test_case``, ``id`` and ``value``, or a TSV/CSV
  of those three columns with or without their header, the value a label, a JSON array (a label
  set) or a JSON object (a soft label), as PyEvALL parses them; detected with no option
  (:func:`pyevall_keys`, :func:`pyevall_text`). A file holding several test cases is refused:
  PyEvALL scores each test case apart, and one competition is one of them;
- a delimited cell, ``a|b`` (``--multi-label '|'``; ``[data] multi_label``; :func:`split_cells`);
- one 0/1 column per label, as HUHU publishes (``--multi-label columns`` with
  ``--label-col sexist,racist,...``; :func:`label_columns`): the columns read into one set.

Examples
--------
>>> p = Parsed("g.tsv", "g.tsv", ["1", "2"], [["a|b"], ["c"]], [2, 3], ["column 'label'"])
>>> split_cells(p, "|").values
[['["a","b"]'], ['["c"]']]
"""

from __future__ import annotations

import dataclasses
import json

from compreport.errors import InputError, excerpt, option
from compreport.inputs.parsed import JSON_NULL, Parsed, RawText, option_of
from compreport.inputs.structured import json_value_text, label_set_text

#: The option (schema key) that gives the label column(s): ``--label-col``.
_LABEL = option_of("label_columns")

#: ``--multi-label`` value that reads one 0/1 column per label.
COLUMNS = "columns"
#: PyEvALL's keys and columns, in order.
PYEVALL = ("test_case", "id", "value")
#: Values PyEvALL's TSV/CSV reader reads as empty (any case).
PYEVALL_NULL = frozenset({"", "nan", "none", "null"})
#: The cells of a 0/1 label column that say a label is on, and off.
ON, OFF = frozenset({"1", "1.0", "true"}), frozenset({"0", "0.0", "false"})


def split_cells(parsed: Parsed, sep: str) -> Parsed:
    """Every value of ``parsed`` split at ``sep`` into a label set (labels stripped, blanks
    dropped); a value already a label set (a JSON array) is kept, and a missing one stays missing.

    >>> p = Parsed("r.tsv", "r.tsv", None, [["a | b"], [None], ['["x"]']], [1, 2, 3], ["c"])
    >>> split_cells(p, "|").values
    [['["a","b"]'], [None], ['["x"]']]
    """
    values = [
        [
            v
            if v is None or v.startswith("[")
            else label_set_text(x.strip() for x in v.split(sep) if x.strip())
            for v in row
        ]
        for row in parsed.values
    ]
    return dataclasses.replace(parsed, values=values)


def label_names(parsed: Parsed, given: list) -> list[str]:
    """The labels of the 0/1 columns of ``parsed``: the header's names of its label columns (a
    JSON file: its keys), else the names given (``--label-col``)."""
    if parsed.header and parsed.label_index:
        return [parsed.header[j] for j in parsed.label_index]
    if all(isinstance(c, str) for c in given):
        return [str(c) for c in given]
    raise InputError(
        f"{parsed.path}: {option('multi_label', COLUMNS)} reads the labels from the names of the "
        f"0/1 columns: the file needs a header, or {option(_LABEL)} the columns' names"
    )


def label_columns(parsed: Parsed, given: list, names: list[str] | None = None) -> Parsed:
    """The 0/1 label columns of ``parsed`` (one field each) read into one field, the set of the
    labels whose column holds 1 (``1``, ``1.0``, ``true``; off: ``0``, ``0.0``, ``false``). An
    item with a blank column is missing. The labels are ``names`` (a run: the gold's), else
    :func:`label_names`.

    Raises
    ------
    InputError
        Naming the file, line and column of a cell that is neither on nor off.

    >>> p = Parsed("g.csv", "g.csv", ["1", "2"], [["1", "0"], ["0", "0"]], [2, 3],
    ...            ["column 'sexist'", "column 'racist'"], header=["index", "sexist", "racist"],
    ...            label_index=[1, 2])
    >>> label_columns(p, ["sexist", "racist"]).values
    [['["sexist"]'], ['[]']]
    """
    names = names or label_names(parsed, given)
    values, missing = [], {}
    for k, row in enumerate(parsed.values):
        if any(v is None for v in row):
            values.append([None])
            missing[k, 0] = next(
                (
                    parsed.missing_text[k, f]
                    for f, v in enumerate(row)
                    if v is None and (k, f) in parsed.missing_text
                ),
                JSON_NULL,
            )
            continue
        on = []
        for f, v in enumerate(row):
            cell = v.strip().lower()
            if cell in ON:
                on.append(names[f])
            elif cell not in OFF:
                raise InputError(
                    f"{parsed.where(k, f)}: {excerpt(v)} is not 0 or 1 (each label column of "
                    f"{option('multi_label', COLUMNS)} says whether the item has that label)"
                )
        values.append([label_set_text(on)])
    shown = ", ".join(repr(x) for x in names)
    return dataclasses.replace(
        parsed, values=values, columns=[f"columns {shown}"], missing_text=missing
    )


def pyevall_keys(
    shown: str, entries: list[tuple[int, object]], keys: list[str], unit: str, role: str
) -> bool:
    """Whether JSON objects are PyEvALL's (every one has the keys ``test_case``, ``id`` and
    ``value``); refuses objects of more than one test case, and a gold value that is an empty
    array or object (:func:`_empty_gold`).

    Raises
    ------
    InputError
        When the objects hold several test cases, naming the first entry of the second.
    """
    if not set(PYEVALL) <= set(keys):
        return False
    if not all(isinstance(obj, dict) and set(PYEVALL) <= set(obj) for _, obj in entries):
        return False
    _one_test_case(shown, [(pos, obj["test_case"]) for pos, obj in entries], unit)
    if role == "gold":
        _empty_gold(shown, [(pos, obj["value"]) for pos, obj in entries], unit)
    return True


def _empty_gold(shown: str, values: list[tuple[int, object]], unit: str) -> None:
    """Refuse a PyEvALL gold value that is an empty array or object: PyEvALL leaves such an
    item out of every score (a non-evaluable row), where compreport scores every gold item, so
    the scores would differ."""
    for pos, value in values:
        if value in ([], {}, "[]", "{}"):
            raise InputError(
                f"{shown}, {unit} {pos}: the gold value is empty "
                f"({value if isinstance(value, str) else json.dumps(value)}); PyEvALL "
                f"leaves such an item out of its scores, compreport scores every gold item: "
                f"remove the item from the gold (and the runs) to score as PyEvALL does, or give "
                f"it its labels"
            )


def _one_test_case(shown: str, cases: list[tuple[int, object]], unit: str) -> None:
    first = cases[0][1]
    other = next(((pos, c) for pos, c in cases if c != first), None)
    if other is not None:
        names = list(dict.fromkeys(str(c) for _, c in cases))
        raise InputError(
            f"{shown}, {unit} {other[0]}: test case {str(other[1])!r} after {str(first)!r}: the "
            f"file holds {len(names)} PyEvALL test cases ({', '.join(map(repr, names[:5]))}); "
            f"PyEvALL scores each one apart and compreport reads one per competition: give each "
            f"test case its own gold and run files"
        )


def pyevall_value(text: str, where: str) -> str | None:
    """A value of a PyEvALL TSV/CSV as PyEvALL reads it: empty for ``""``, ``nan``, ``none`` and
    ``null`` (None), a JSON array or object when the cell is one, else the label as written.

    >>> pyevall_value('["b","a"]', ""), pyevall_value("NULL", ""), pyevall_value("[x", "")
    ('["a","b"]', None, '[x')
    """
    if text.strip().lower() in PYEVALL_NULL:
        return None
    if (text.startswith("[") and text.endswith("]")) or (
        text.startswith("{") and text.endswith("}")
    ):
        try:
            value = json.loads(text)
        except ValueError:
            return text
        return json_value_text(value, where, "the value")
    return text


def pyevall_text(raw: RawText, opts_given: bool, role: str = "run") -> Parsed | None:
    """A text file in PyEvALL's layout as :class:`Parsed` (ids from column 2, values from column
    3), or None when it is not one: its first row is the header ``test_case id value``, or (no
    column option given, ``opts_given`` False) every row has three cells and the same first cell.

    Raises
    ------
    InputError
        For rows of another width, or several test cases (:func:`pyevall_keys`).
    """
    rows = [(r, line) for r, line in zip(raw.rows, raw.lines, strict=True) if r]
    if not rows:
        return None
    header = [c.strip() for c in rows[0][0]] == list(PYEVALL)
    body = rows[1:] if header else rows
    if not header and (
        opts_given
        or len(body) < 2
        or any(len(r) != 3 for r, _ in body)
        or len({r[0] for r, _ in body}) != 1
    ):
        return None
    for r, line in body:
        if len(r) != 3:
            raise InputError(
                f"{raw.path}, line {line}: {len(r)} cells; a PyEvALL file has three "
                f"(test_case, id, value)"
            )
    _one_test_case(raw.path, [(line, r[0]) for r, line in body], "line")
    if role == "gold":
        _empty_gold(raw.path, [(line, r[2].strip()) for r, line in body], "line")
    values = [[pyevall_value(r[2], f"{raw.path}, line {line}")] for r, line in body]
    missing = {(k, 0): r[2] for k, (r, _) in enumerate(body) if values[k][0] is None}
    return Parsed(
        raw.path,
        raw.file,
        [r[1] for r, _ in body],
        values,
        [line for _, line in body],
        ["column 'value'" if header else "column 3"],
        header=list(PYEVALL) if header else None,
        id_index=1,
        label_index=[2],
        width=3,
        missing_text=missing,
    )
