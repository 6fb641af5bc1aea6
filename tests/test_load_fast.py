"""The fast wide-table reader gives exactly what the csv-module reader gives, or steps aside.

``load.read_wide`` tries ``fastwide.read_wide_fast`` (numpy on the bytes, pandas' C parser for
non-ASCII text) and falls back to ``_read_wide_csv`` (the csv module, which knows line numbers)
whenever a file is not plain or has a problem. These tests write tricky files and check that

* plain files are taken by the fast path, with arrays (values, dtypes, shapes), line numbers,
  column names and hashes identical to the csv path's;
* other files are refused by the fast path, and ``read_wide`` then returns the csv path's result
  or raises its error message unchanged.

``read_wide`` adds the systems' teams to either path's pieces
(:func:`~compreport.inputs.runfiles.name_columns`): the csv path's result it is compared with has
them added the same way.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from compreport.errors import InputError
from compreport.inputs import fastwide
from compreport.inputs import readers as load
from compreport.inputs.runfiles import name_columns


def same(a, b) -> bool:
    """Deep equality, strict on numpy dtypes and shapes."""
    if isinstance(a, np.ndarray):
        return (
            isinstance(b, np.ndarray)
            and a.dtype == b.dtype
            and a.shape == b.shape
            and bool((a == b).all())
        )
    if isinstance(a, (list, tuple)):
        return (
            type(a) is type(b)
            and len(a) == len(b)
            and all(same(x, y) for x, y in zip(a, b, strict=True))
        )
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if hasattr(a, "__dict__"):
        return type(a) is type(b) and same(vars(a), vars(b))
    return a == b


def write(tmp: Path, name: str, data: str | bytes) -> str:
    path = tmp / name
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)
    return str(path)


def csv_result(path: str, gold: str, id_column: str | None):
    """The csv path's pieces with the teams :func:`load.read_wide` adds, or its error."""
    try:
        return name_columns(load._read_wide_csv(path, gold, id_column), path)
    except InputError as exc:
        return f"InputError: {exc}"


def public_result(path: str, gold: str, id_column: str | None):
    try:
        return load.read_wide(path, gold, id_column)
    except InputError as exc:
        return f"InputError: {exc}"


# (file name, contents, gold column, id column)
FAST = {
    "plain": ("t.csv", "id,y,A,B\n1,a,a,b\n2,b,b,b\n3,a,a,a\n", "y", "id"),
    "no final newline": ("t.csv", "id,y,A,B\n1,a,a,b\n2,b,b,b\n3,a,a,a", "y", "id"),
    "crlf": ("t.csv", "id,y,A,B\r\n1,a,a,b\r\n2,b,b,b\r\n3,a,a,a\r\n", "y", "id"),
    "bom": ("t.csv", "\ufeffid,y,A,B\n1,a,a,b\n2,b,b,b\n", "y", "id"),
    "bom crlf": ("t.csv", "\ufeffid,y,A,B\r\n1,a,a,b\r\n2,b,b,b", "y", "id"),
    "empty lines": ("t.csv", "\n\nid,y,A,B\n\n1,a,a,b\n\r\n\n2,b,b,b\n\n\n", "y", "id"),
    "spaces around cells": ("t.csv", "id , y,A ,  B\n 1,a , a,b\n2 ,  b,b  ,b\n", "y", "id"),
    "tabs in csv cells": ("t.csv", "id,y,A\n\t1,a\t,a\n2, b,\tb \n", "y", "id"),
    "inner spaces kept": ("t.csv", "id,y,A\n1,very good, very  good \n2,bad,so bad\n", "y", "id"),
    "tsv": ("t.tsv", "id\ty\tA\tB\n1\ta b\ta\tb\n2\tb\t b \tb\n", "y", "id"),
    "tsv with commas in cells": ("t.tsv", "id\ty\tA\n1\ta,b\ta\n2\tb\ta,b\n", "y", "id"),
    "txt tab detected": ("t.txt", "id\ty\tA\n1\ta\ta\n2\tb\tb\n", "y", "id"),
    "txt comma": ("t.txt", "id,y,A\n1,a,a\n2,b,b\n", "y", "id"),
    "no suffix tab": ("table", "id\ty\tA\n1\ta\ta\n2\tb\tb\n", "y", "id"),
    "no id column": ("t.csv", "y,A,B\na,a,b\nb,b,b\na,a,a\n", "y", None),
    "id detected": ("t.csv", "y,A,id,B\na,a,1,b\nb,b,2,b\n", "y", None),
    "other id column": ("t.csv", "gold,doc,A,B\na,d1,a,b\nb,d2,b,b\n", "gold", "doc"),
    "ids that differ by case": ("t.csv", "id,y,A\nx,a,a\nX,b,b\n", "y", "id"),
    "nan-like but not missing": (
        "t.csv",
        "id,y,A,B\n1,nana,nan1,NaN.\n2,none,nul,nulls\n",
        "y",
        "id",
    ),
    "long and short cells": (
        "t.csv",
        "id,y,A\n1,a,a\n" + "22222222222,bbbbbbbbbbbbbbbbbb,b\n",
        "y",
        "id",
    ),
    "header longer than cells": (
        "t.csv",
        "identifier,gold,system_one\n1,a,b\n22,b,a\n",
        "gold",
        None,
    ),
    "numbers": ("t.csv", "id,y,A,B\n1,1.5,1.50,2e3\n2,-3,+3,0x1\n", "y", "id"),
    "single quotes": ("t.csv", "id,y,A\n1,'a',a'\n2,it's,b\n", "y", "id"),
    "utf-8": ("t.csv", "id,y,A,B\n1,café,café,cafe\n2,日本,日本語,🙂\n", "y", "id"),
    "utf-8 bom crlf spaces": ("t.csv", "\ufeffid , y,Ä\r\n 1,ñ , ñ\r\n\r\n2,ü,u \r\n", "y", "id"),
    "utf-8 header": ("t.tsv", "id\tetiqueta\tequipo_ñ\n1\ta\ta\n2\tb\tb\n", "etiqueta", "id"),
}

FALLBACK = {
    "blank id (an error)": ("t.csv", "id,y,A\n,a,a\n2,b,b\n", "y", "id"),
    "quoted field": ("t.csv", 'id,y,A\n1,"a,b",a\n2,b,b\n', "y", "id"),
    "quoted newline": ("t.csv", 'id,y,A\n1,"a\nb",a\n2,b,b\n', "y", "id"),
    "quoted plain cell": ("t.csv", 'id,y,A\n1,"a",a\n2,b,b\n', "y", "id"),
    "lone cr": ("t.csv", "id,y,A\r1,a,a\r2,b,b\r", "y", "id"),
    "form feed": ("t.csv", "id,y,A\n1,a,a\x0c\n2,b,b\n", "y", "id"),
    "vertical tab": ("t.csv", "id,y,A\n1,a,a\x0bb\n2,b,b\n", "y", "id"),
    "line separator": ("t.csv", "id,y,A\n1,a,a\u2028\n2,b,b\n", "y", "id"),
    "nbsp around a cell": ("t.csv", "id,y,A\n1,a,\u00a0a\n2,b,b\n", "y", "id"),
    "nul": ("t.csv", "id,y,A\n1,a,a\x00\n2,b,b\n", "y", "id"),
    "second bom": ("t.csv", "\ufeff\ufeffid,y,A\n1,a,a\n2,b,b\n", "y", "id"),
    "blank line of spaces": ("t.csv", "id,y,A\n1,a,a\n   \n2,b,b\n", "y", "id"),
    "blank line of delimiters": ("t.csv", "id,y,A\n1,a,a\n,,\n2,b,b\n", "y", "id"),
    "blank line of delimiters and spaces": ("t.csv", "id,y,A\n1,a,a\n , ,\t\n2,b,b\n", "y", "id"),
    "short row": ("t.csv", "id,y,A,B\n1,a,a,b\n2,b,b\n3,a,a,a\n", "y", "id"),
    "long row": ("t.csv", "id,y,A,B\n1,a,a,b\n2,b,b,b,b\n3,a,a,a\n", "y", "id"),
    "short and long rows": ("t.csv", "id,y,A,B\n1,a,a\n2,b,b,b,b\n", "y", "id"),
    "ragged header": ("t.csv", "id,y,A\n1,a,a,b\n2,b,b,b\n", "y", "id"),
    "duplicate id": ("t.csv", "id,y,A,B\n1,a,a,b\n2,b,b,b\n2,a,a,a\n", "y", "id"),
    "duplicate id after strip": ("t.csv", "id,y,A\n1,a,a\n1 ,b,b\n", "y", "id"),
    "blank cell": ("t.csv", "id,y,A,B\n1,a,a,b\n2,b,,b\n", "y", "id"),
    "blank cell of spaces": ("t.csv", "id,y,A,B\n1,a,a,b\n2,b,  ,b\n", "y", "id"),
    "nan": ("t.csv", "id,y,A,B\n1,a,a,b\n2,b,b,NaN\n", "y", "id"),
    "null": ("t.csv", "id,y,A,B\n1,a,a,b\n2,NULL,b,b\n", "y", "id"),
    "trailing delimiter is an empty column name": (
        "t.csv",
        "id,y,A,\n1,a,a,x\n2,b,b,y\n",
        "y",
        "id",
    ),
    "empty column name": ("t.csv", "id,y,,B\n1,a,a,b\n2,b,b,b\n", "y", "id"),
    "duplicate column": ("t.csv", "id,y,A,A\n1,a,a,b\n2,b,b,b\n", "y", "id"),
    "gold absent": ("t.csv", "id,y,A\n1,a,a\n", "label", "id"),
    "id absent": ("t.csv", "id,y,A\n1,a,a\n", "y", "doc"),
    "header only": ("t.csv", "id,y,A\n", "y", "id"),
    "no systems": ("t.csv", "id,y\n1,a\n2,b\n", "y", "id"),
    "empty file": ("t.csv", "", "y", "id"),
    "blank file": ("t.csv", "\n \n", "y", "id"),
    "not utf-8": ("t.csv", "id,y,A\n1,a,a\n2,caf\xe9,b\n".encode("latin-1"), "y", "id"),
    "utf-8 quoted": ("t.csv", 'id,y,A\n1,"ñ,a",a\n2,b,b\n', "y", "id"),
    "utf-8 blank cell": ("t.csv", "id,y,A\n1,ñ,\n2,b,b\n", "y", "id"),
    "utf-8 ideographic space": ("t.csv", "id,y,A\n1,ñ,\u3000a\n2,b,b\n", "y", "id"),
    "utf-8 ragged": ("t.csv", "id,y,A\n1,ñ,a\n2,b\n", "y", "id"),
}


@pytest.mark.parametrize("case", FAST)
def test_fast_path_matches_csv_path(tmp_path, case):
    name, data, gold, idc = FAST[case]
    path = write(tmp_path, name, data)
    fast = fastwide.read_wide_fast(path, gold, idc)
    assert fast is not None, "expected the fast path to take this file"
    slow = load._read_wide_csv(path, gold, idc)
    assert same(fast, slow)
    assert same(load.read_wide(path, gold, idc), name_columns(slow, path))


@pytest.mark.parametrize("case", FALLBACK)
def test_other_files_fall_back_unchanged(tmp_path, case):
    name, data, gold, idc = FALLBACK[case]
    path = write(tmp_path, name, data)
    assert fastwide.read_wide_fast(path, gold, idc) is None
    expected = csv_result(path, gold, idc)
    assert same(public_result(path, gold, idc), expected)


def test_missing_file_and_directory(tmp_path):
    for path in (str(tmp_path / "nope.csv"), str(tmp_path)):
        assert fastwide.read_wide_fast(path, "y", None) is None
        with pytest.raises(InputError) as exc:
            load.read_wide(path)
        assert str(exc.value) == csv_result(path, "y", None).removeprefix("InputError: ")


def test_synthetic_table_line_numbers_and_dtype(tmp_path):
    """A larger file with empty lines and ragged label widths: same arrays both ways."""
    rng = np.random.default_rng(3)
    labels = np.array(["neg", "neu", "pos", "very positive", "x"])
    lines = ["id,gold,s1,s2,s3"]
    for i in range(2000):
        if i % 97 == 0:
            lines.append("")
        lines.append(",".join([f"item{i}"] + list(rng.choice(labels, 4))))
    path = write(tmp_path, "syn.csv", "\r\n".join(lines) + "\r\n")
    fast = fastwide.read_wide_fast(path, "gold", None)
    assert fast is not None
    slow = load._read_wide_csv(path, "gold", None)
    assert same(fast, slow)
    assert fast["predictions"].dtype == np.dtype("<U13")
    assert fast["gold_source"].lines[:3].tolist() == [3, 4, 5]


def test_random_files_agree(tmp_path):
    """Mutated small tables (quotes, odd blanks, line breaks, BOMs, latin-1): same result either
    way."""
    import random

    rng = random.Random(20240601)
    atoms = [
        "a",
        "b",
        "1",
        "22",
        "id",
        "y",
        " ",
        "\t",
        ",",
        "\n",
        "\r\n",
        "\r",
        '"',
        "ñ",
        "nan",
        "NULL",
        "",
        "\u00a0",
        "\x0c",
        "\ufeff",
        "é日",
    ]
    taken = 0
    for t in range(400):
        k = rng.randint(2, 4)
        rows = [["id", "y", "A", "B"][:k]]
        for i in range(rng.randint(0, 6)):
            rows.append(
                [str(i) if rng.random() < 0.8 else rng.choice(["1", " 1", ""])]
                + [rng.choice(["a", "b", "ñ", " a", "b "]) for _ in range(k - 1)]
            )
        chars = list("\n".join(",".join(r) for r in rows) + rng.choice(["", "\n"]))
        for _ in range(rng.randint(0, 3)):
            pos = rng.randint(0, len(chars))
            if rng.random() < 0.7:
                chars.insert(pos, rng.choice(atoms))
            elif chars:
                del chars[min(pos, len(chars) - 1)]
        text = ("\ufeff" if rng.random() < 0.2 else "") + "".join(chars)
        name = rng.choice(["t.csv", "t.tsv", "t.txt"])
        if name == "t.tsv":
            text = text.replace(",", "\t")
        data = text.encode("utf-8") if rng.random() < 0.95 else text.encode("latin-1", "replace")
        path = write(tmp_path, f"{t}-{name}", data)
        idc = rng.choice(["id", None])
        taken += fastwide.read_wide_fast(path, "y", idc) is not None
        assert same(public_result(path, "y", idc), csv_result(path, "y", idc)), repr(data)
    assert taken > 40  # the fast path is exercised, not only the fallback
