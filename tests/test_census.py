"""The IberLEF census in docs/tasks/index.md names, for each of the 96 subtasks, the compreport
measure that computes its official measure: every name must be a measure compreport knows, and
the count the page states must be the table's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

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


@pytest.mark.filterwarnings("ignore")  # 60 items: the small-sample warning
def test_a_measure_defined_by_a_work_is_cited_in_the_methods(tmp_path):
    """A report with kappa, QWK and macro-F1 cites Cohen (1960, 1968) beside the measures, in the
    methods text and in references.bib; F1 cites nothing."""
    import pandas as pd

    import compreport as cr

    frame = pd.DataFrame({"y": list("0121" * 15), "A": list("0122" * 15), "B": list("0011" * 15)})
    analysis = cr.analyze(
        cr.from_frame(frame, metrics=("kappa", "qwk", "macro_f1")), bootstrap=200, seed=1
    )
    cr.Report(analysis).write(tmp_path / "out", formats=("latex",), compile_pdf=False)
    tmp_path = tmp_path / "out"
    bib = (tmp_path / "references.bib").read_text(encoding="utf-8")
    assert "@article{cohen1960," in bib and "@article{cohen1968," in bib
    methods = "".join(p.read_text(encoding="utf-8") for p in tmp_path.rglob("*.tex"))
    assert "The measures are defined as in:" in methods
    assert "\\citep{cohen1960}" in methods and "\\citep{cohen1968}" in methods
