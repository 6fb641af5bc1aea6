"""The IberLEF census in docs/tasks/index.md names, for each of the 96 subtasks, the compreport
measure that computes its official measure: every name must be a measure compreport knows, and
the count the page states must be the table's."""

from __future__ import annotations

import re
from pathlib import Path

from compreport.stats.metrics import get_metric

PAGE = Path(__file__).resolve().parents[1] / "docs" / "tasks" / "index.md"


def rows() -> list[list[str]]:
    text = PAGE.read_text(encoding="utf-8").split("## The IberLEF census", 1)[1]
    out = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and cells[0].isdigit():
            out.append(cells)
    return out


def test_the_census_has_every_subtask_once():
    numbers = [int(r[0]) for r in rows()]
    assert numbers == list(range(1, 97))
    assert {r[1] for r in rows()} == {"2023", "2024", "2025"}


def test_every_measure_named_is_one_compreport_computes():
    native = 0
    for row in rows():
        cell = row[-1]
        if cell.startswith("not native: "):
            assert len(cell) > len("not native: ") + 10, row  # a reason, not a blank
            continue
        name = re.match(r"`([^`]+)`", cell)
        assert name, row
        for each in re.findall(r"`([a-z_@0-9]+)`", cell.split(" (")[0]):
            assert get_metric(each).name == each, row
        native += 1
    stated = re.search(r"\*\*(\d+) of the 96 subtasks", PAGE.read_text(encoding="utf-8"))
    assert stated and int(stated.group(1)) == native
    missing = sum(r[-1].startswith("not native") for r in rows())
    assert f"the other {missing} are named" in PAGE.read_text(encoding="utf-8")
