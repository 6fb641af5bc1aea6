"""What holds across versions of Python, numpy, scipy and compreport (docs/reproducibility.md):
every number of results.json within 1e-12 of a stored reference, every verdict, rank, group and
text equal. The reference was written by the versions its ``tool.versions`` names; regenerate it
(only when a change of compreport is meant to change numbers, said in CHANGELOG) with::

    python -c "import compreport as cr; print(cr.analyze(cr.load('examples/workshop/paraphrase'),
    bootstrap=1000, seed=0).to_json())" > tests/data/reference/paraphrase-B1000-seed0.json
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import compreport as cr

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "tests" / "data" / "reference" / "paraphrase-B1000-seed0.json"
TOLERANCE = 1e-12


def leaves(value, path=()):
    """Every scalar of a JSON document with its path."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from leaves(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from leaves(v, (*path, i))
    else:
        yield path, value


def differences(now: dict, then: dict) -> list[str]:
    """Where ``now`` departs from ``then``: a number by more than the tolerance (relative to its
    size above 1), anything else (a verdict, a rank, a name, a missing key) at all."""
    a, b = dict(leaves(now)), dict(leaves(then))
    out = [f"{p}: only in one" for p in sorted(set(a) ^ set(b), key=str)]
    for p in a.keys() & b.keys():
        x, y = a[p], b[p]
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (x, y))
        if numbers and not (isinstance(x, int) and isinstance(y, int)):
            if math.isnan(x) and math.isnan(y):
                continue
            if abs(x - y) > TOLERANCE * max(1.0, abs(y)):
                out.append(f"{p}: {x!r} != {y!r}")
        elif x != y:
            out.append(f"{p}: {x!r} != {y!r}")
    return sorted(out)


def test_numbers_within_tolerance_and_verdicts_equal_to_the_stored_reference():
    then = json.loads(REFERENCE.read_text(encoding="utf-8"))
    analysis = cr.analyze(
        cr.load(ROOT / "examples" / "workshop" / "paraphrase"), bootstrap=1000, seed=0
    )
    now = json.loads(analysis.to_json())
    then.pop("tool"), now.pop("tool")  # the versions differ by design
    assert differences(now, then) == []


def test_the_comparison_can_fail():
    """A number moved by 1e-9, or a verdict flipped, is reported."""
    then = json.loads(REFERENCE.read_text(encoding="utf-8"))
    moved = json.loads(REFERENCE.read_text(encoding="utf-8"))
    score = moved["competitions"][0]["metrics"][0]["scores"][0]
    score["score"] += 1e-9
    moved_by = differences(moved, then)
    assert len(moved_by) == 1 and "'score')" in moved_by[0], moved_by
    flipped = json.loads(REFERENCE.read_text(encoding="utf-8"))
    keys = [p for p, v in leaves(flipped) if isinstance(v, bool)]
    assert keys, "the reference holds verdicts"
    node = flipped
    for k in keys[0][:-1]:
        node = node[k]
    node[keys[0][-1]] = not node[keys[0][-1]]
    assert len(differences(flipped, then)) == 1
