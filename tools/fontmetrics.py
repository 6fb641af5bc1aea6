"""Regenerate compreport/report/latex/fontmetrics.json from the TeX fonts' TFM files.

The LaTeX width model (:mod:`compreport.report.latex.layout`) sums the advance widths and kerns
of the body font each style sets its tables in; this script reads them from the TFM files that
pdflatex itself uses (through ``kpsewhich`` and ``tftopl``), so the model measures what pdflatex
measures. Run it where TeX Live has every font below (Libertinus needs texlive-fonts-extra):

    python tools/fontmetrics.py > compreport/report/latex/fontmetrics.json

Widths are in em of the font (multiply by the point size); kerns are kept for pairs of printable
ASCII characters (the ones that carry nearly all kerns in names and headers), the rest of the
ligature/kern program is left out (ligatures only narrow the text).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

#: family -> shape (r regular, b bold, i italic, s the optical size LaTeX picks for superscripts
#: at script size) -> TFM name. Text fonts are T1-encoded, the encoding the tables need.
FONTS = {
    # ceurart sets tables in \sffamily\small: Libertinus Sans (texlive-fonts-extra), or Latin Modern
    # Sans where Libertinus is absent (the class falls back, the preamble loads lmodern)
    "libertinus-sans": {
        "r": "LibertinusSans-Regular-tlf-t1",
        "b": "LibertinusSans-Bold-tlf-t1",
        "i": "LibertinusSans-Italic-tlf-t1",
        "s": "LibertinusSans-Regular-tlf-t1",
    },
    "lmss10": {"r": "ec-lmss10", "b": "ec-lmssbx10", "i": "ec-lmsso10", "s": "ec-lmss8"},
    "lmss8": {"r": "ec-lmss8", "b": "ec-lmssbx10", "i": "ec-lmsso8", "s": "ec-lmss8"},
    # SEPLN: Computer Modern (Latin Modern, same metrics) at 11 pt
    "lmr10": {"r": "ec-lmr10", "b": "ec-lmbx10", "i": "ec-lmri10", "s": "ec-lmr8"},
    # ACL: Times (the times package: URW Nimbus Roman)
    "times": {"r": "ptmr8t", "b": "ptmb8t", "i": "ptmri8t", "s": "ptmr8t"},
    # math in every style: Computer Modern (r: subscript digits, i: letters, s: subscript letters)
    "cm-math": {"r": "cmr7", "i": "cmmi10", "s": "cmmi7"},
}


def _code(kind: str, value: str) -> int:
    return ord(value) if kind == "C" else int(value, 8)


def read_tfm(name: str) -> dict:
    """``{"widths": [256 widths in em], "italic": [256 italic corrections in em], "kerns": {"ab": em},
    "space": em, "extraspace": em}`` of one TFM font."""
    path = subprocess.run(
        ["kpsewhich", f"{name}.tfm"], capture_output=True, text=True, check=True
    ).stdout.strip()
    pl = subprocess.run(["tftopl", path], capture_output=True, text=True, check=True).stdout
    widths, italic = [0.0] * 256, [0.0] * 256
    for m in re.finditer(r"\(CHARACTER ([CO]) (\S+)\n((?:\s+\(CHAR\w+ R -?[0-9.]+\)\n)*)", pl):
        code = _code(m.group(1), m.group(2))
        dims = dict(re.findall(r"\((CHAR\w+) R (-?[0-9.]+)\)", m.group(3)))
        widths[code] = round(float(dims.get("CHARWD", 0.0)), 5)
        italic[code] = round(float(dims.get("CHARIC", 0.0)), 5)
    kerns: dict[str, float] = {}
    table = re.search(r"\(LIGTABLE\n(.*?)\n   \)\n", pl, re.S)
    labels: list[int | None] = []
    for line in table.group(1).splitlines() if table else []:
        line = line.strip()
        if m := re.match(r"\(LABEL ([CO]) (\S+)\)", line):
            labels.append(_code(*m.groups()))
        elif line.startswith("(LABEL BOUNDARYCHAR"):
            labels.append(None)
        elif line.startswith("(STOP"):
            labels = []
        elif m := re.match(r"\(KRN ([CO]) (\S+) R (-?[0-9.]+)\)", line):
            right = _code(m.group(1), m.group(2))
            for left in labels:
                if left is not None and 33 <= left < 127 and 33 <= right < 127:
                    kerns.setdefault(chr(left) + chr(right), round(float(m.group(3)), 5))
    dimen = {k: float(v) for k, v in re.findall(r"\((SPACE|EXTRASPACE) R (-?[0-9.]+)\)", pl)}
    return {
        "widths": widths,
        "italic": italic,
        "kerns": kerns,
        "space": round(dimen.get("SPACE", 0.0), 5),
        "extraspace": round(dimen.get("EXTRASPACE", 0.0), 5),
    }


def main() -> None:
    data = {
        family: {shape: read_tfm(name) for shape, name in shapes.items()}
        for family, shapes in FONTS.items()
    }
    data["_source"] = {family: shapes for family, shapes in FONTS.items()}
    json.dump(data, sys.stdout, separators=(",", ":"), sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
