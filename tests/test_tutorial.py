"""The tutorial notebook (docs/tutorial.ipynb, issue 39 item 4): stored without outputs, free of
checkout paths, and executed from start to end in a kernel (nbclient) in a scratch directory,
where what it shows is checked against scikit-learn on the gold and run files it reads and against
the table docs/api.md prints (which tests/test_readme.py checks against the command line)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from sklearn.metrics import accuracy_score

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "docs" / "tutorial.ipynb"
API_PAGE = ROOT / "docs" / "api.md"

#: The probe the test appends to the notebook: what its variables hold, as one JSON line.
PROBE = """
import json as _json
print("PROBE " + _json.dumps({
    "gold": str(gold), "runs": str(runs),
    "points": points.set_index("system")["score"].to_dict(),
    "written": [str(p) for p in written],
    "groups": board.set_index("system")["group"].to_dict(),
}))
"""


def _cells(kind: str) -> list[dict]:
    return [
        c
        for c in json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
        if c["cell_type"] == kind
    ]


def _source(cell: dict) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def test_stored_without_outputs():
    """Stored as written, not as run: no outputs, no execution counts, no kernel's metadata."""
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    assert set(nb["metadata"]) <= {"kernelspec", "language_info"}, nb["metadata"]
    for cell in _cells("code"):
        assert cell["outputs"] == [], _source(cell)
        assert cell["execution_count"] is None, _source(cell)
        assert cell["metadata"] == {}, _source(cell)


def test_no_checkout_paths_and_links_resolve():
    """It reads the demo through the API (cr.load_demo), never a path of the repository, and
    its links name pages of the docs."""
    code = "\n".join(_source(c) for c in _cells("code"))
    assert "cr.load_demo(" in code
    assert "examples/" not in code and "demo_workshop_dir" not in code
    for cell in _cells("markdown"):
        for target in re.findall(r"\]\(([^)#]+)", _source(cell)):
            if "://" not in target:
                assert (NOTEBOOK.parent / target).is_file(), target


def _outputs(cell) -> str:
    """The text a reader sees under a cell: its streams and the plain text of its results."""
    parts = []
    for out in cell.outputs:
        if out.output_type == "stream":
            parts.append(out.text)
        elif "text/plain" in out.get("data", {}):
            parts.append(out.data["text/plain"])
    return "".join(parts)


@pytest.mark.slow
def test_notebook_executes(tmp_path):
    """Every cell runs in a fresh kernel whose working directory is outside the checkout, with
    no error and no warning shown; its point scores are scikit-learn's on the files it read, and
    its leaderboard is the one docs/api.md prints (the CLI's, as tests/test_readme.py checks)."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(PROBE))
    client = nbclient.NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()  # raises CellExecutionError on any error

    for cell in nb.cells:
        if cell.cell_type == "code":
            shown = [
                line
                for o in cell.outputs
                if o.output_type == "stream" and o.name == "stderr"
                for line in o.text.splitlines()
                # matplotlib's first import on a fresh machine says so once: not the notebook's
                if line.strip() and "building the font cache" not in line
            ]
            assert not shown, (cell.source, shown)
    *cells, probe = [c for c in nb.cells if c.cell_type == "code"]
    line = next(x for x in _outputs(probe).splitlines() if x.startswith("PROBE "))
    seen = json.loads(line.removeprefix("PROBE "))

    # The point scores of section 1: accuracy, by scikit-learn, on the gold and run files.
    gold = pd.read_csv(seen["gold"], sep="\t", dtype=str)
    expected = {}
    for run in sorted(Path(seen["runs"]).iterdir()):
        pred = pd.read_csv(run, sep="\t", header=None, names=["id", "label"], dtype=str)
        joined = gold.merge(pred, on="id", suffixes=("", "_run"), validate="one_to_one")
        assert len(joined) == len(gold)
        expected[run.name.removesuffix(".tsv")] = accuracy_score(
            joined["label"], joined["label_run"]
        )
    assert seen["points"].keys() == expected.keys()
    for system, score in expected.items():
        assert seen["points"][system] == pytest.approx(score, abs=1e-12), system

    # The leaderboard it prints is the one of docs/api.md's first analysis (same calls).
    page = API_PAGE.read_text(encoding="utf-8")
    table = re.search(r"^(\| Rank \| Rank set .*?)\n\n", page, flags=re.M | re.S).group(1)
    printed = next(_outputs(c) for c in cells if 'to_markdown("leaderboard"' in c.source)
    assert printed.strip() == table.strip()
    for row in table.splitlines()[2:]:
        cells_ = [x.strip() for x in row.strip("|").split(" | ")]
        assert seen["groups"][cells_[2].strip("*")] == cells_[7]

    # The LaTeX of a table, a table environment; the files written; the figure, an image.
    latex = next(_outputs(c) for c in cells if "to_latex(" in c.source)
    assert "\\begin{table}" in latex and latex.rstrip().endswith("\\end{table}")
    assert "\\label{tab:" in latex and "paraphrase-leaderboard" in latex
    assert seen["written"] and all(Path(p).is_file() for p in seen["written"])
    assert any(Path(p).name == "results.json" for p in seen["written"])
    figure = next(c for c in cells if "figure(" in c.source)
    assert any("image/png" in o.get("data", {}) for o in figure.outputs)
