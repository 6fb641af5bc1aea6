"""The README's Python API example runs, prints what the README shows, and gives the CLI's results.json."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def _section(text: str, title: str) -> str:
    """The body of the ``## title`` section of a Markdown text (up to the next ``## `` heading)."""
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## )", text, flags=re.M | re.S)
    assert m, f"README has no '## {title}' section"
    return m.group(1)


def _blocks(section: str, lang: str) -> list[str]:
    """The fenced code blocks of ``lang`` in a section, in order."""
    return re.findall(rf"^```{lang}\n(.*?)^```\n", section, flags=re.M | re.S)


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    """Run the README's Python API code in a fresh directory holding a link to ``examples/``.

    Yields (namespace, printed text, the section, the directory). Paths in the example are
    relative to the repository root; the link makes them resolve without running (and writing)
    in the repository itself. The example must run without a warning (a reader would see it).
    """
    section = _section(README.read_text(encoding="utf-8"), "Python API")
    code = _blocks(section, "python")
    assert len(code) == 1, "the Python API section has one runnable example"
    cwd = tmp_path_factory.mktemp("readme")
    (cwd / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    namespace: dict = {"__name__": "__readme__"}
    out = io.StringIO()
    old = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), warnings.catch_warnings():
            warnings.simplefilter("error")
            exec(compile(code[0], "README.md (Python API)", "exec"), namespace)
    finally:
        os.chdir(old)
    yield namespace, out.getvalue(), section, cwd
    if "out" in namespace:  # the example's tempfile.mkdtemp()
        shutil.rmtree(namespace["out"], ignore_errors=True)


def test_example_prints_what_the_readme_shows(example):
    namespace, printed, section, _ = example
    shown = _blocks(section, "text")
    assert shown, "the README shows what the example prints"
    assert printed.rstrip("\n") == shown[0].rstrip("\n")
    # the prose after the tables quotes ParaNLP.02's row of the differences: the same numbers
    header, row = (
        next(line for line in printed.splitlines() if line.startswith(start))
        for start in ("| System | Difference", "| ParaNLP.02 |")
    )
    cells = dict(zip(header.strip("|").split(" | "), row.strip("|").split(" | ")))
    prose = " ".join(section.split(shown[0])[1].split())
    quoted = re.search(
        r"raw p-value of (\S+) .*?`p \(verdict\)` = (\S+) ≥ 0\.05, its max-T column; Holm over "
        r"the same pairs gives (\S+)\)",
        prose,
    )
    assert cells["max-T"] == cells["p (verdict)"] and cells["Significant"].strip() == "no", cells
    assert quoted and quoted.groups() == (
        cells["p"].strip(),
        cells["p (verdict)"].strip(),
        cells["Holm"].strip(),
    ), (quoted, cells)
    # and so does the results.json section further down
    later = " ".join(README.read_text(encoding="utf-8").split())
    quoted = re.findall(
        r"ParaNLP\.02 has `p_value` (\S+) and `p_adjusted` (\S+) \(its `p_maxt`\),", later
    )
    assert quoted == [(cells["p"].strip(), cells["p (verdict)"].strip())], (quoted, cells)


def test_example_objects(example):
    from matplotlib.figure import Figure

    import compreport as cr

    namespace, _, _, _ = example
    analysis = namespace["analysis"]
    assert isinstance(analysis, cr.Analysis)
    assert list(namespace["board"]["system"])[0] == analysis.competition("paraphrase").primary.best
    assert len(namespace["pairs"]) == 8 * 7 // 2
    assert len(namespace["summary"]) == len(analysis.competitions)
    assert (
        "\\begin{table}" in namespace["latex"] and "longtable" not in namespace["latex"]
    )  # row-split floats
    assert isinstance(namespace["fig"], Figure) and namespace["fig"]._repr_png_().startswith(
        b"\x89PNG"
    )
    written = [Path(p) for p in namespace["written"]]
    out = Path(namespace["out"])
    assert out / "results.json" in written and all(
        p.is_file() and out in p.parents for p in written
    )
    assert json.loads((out / "results.json").read_text(encoding="utf-8")) == analysis.to_dict()


def test_example_equals_the_cli(example, tmp_path):
    """The CLI with the example's settings, run from the same directory, writes the same results.json."""
    namespace, _, _, cwd = example
    analysis = namespace["analysis"]
    s = analysis.settings
    out = tmp_path / "cli"
    res = run_cli(
        cwd,
        "report",
        "examples/workshop",
        "-B",
        str(s.bootstrap),
        "--seed",
        str(s.seed),
        "--format",
        "json",
        "-o",
        str(out),
    )
    assert res.returncode == 0, res.stderr
    assert json.loads((out / "results.json").read_text(encoding="utf-8")) == analysis.to_dict()


def test_report_is_exported_and_import_stays_light():
    import compreport as cr
    from compreport.report import Report

    assert cr.Report is Report and "Report" in cr.__all__
    code = (
        "import sys, compreport; heavy = {'pandas', 'matplotlib', 'jinja2', 'statsmodels', 'scipy', "
        "'weasyprint', 'pylatex'} & set(sys.modules); assert not heavy, heavy"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
