"""Reproducible and cited (issue 39 item 7): results.json records the versions that computed it,
``compreport --citation`` prints BibTeX that parses, and CITATION.cff has the keys CFF 1.2.0
requires."""

import json
import platform
import re
from pathlib import Path

import numpy as np
import pytest
import scipy
import yaml

import compreport as cr
from compreport._version import __version__
from compreport.errors import InputError
from compreport.report.references import REFERENCES
from compreport.stats.results import running_versions
from tests.conftest import run_cli

ROOT = Path(__file__).parent.parent
PARAPHRASE = ROOT / "examples" / "workshop" / "paraphrase"
RUNNING = {
    "python": platform.python_version(),
    "numpy": np.__version__,
    "scipy": scipy.__version__,
    "compreport": __version__,
}


# --------------------------------------------------------------------- versions in results.json


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """results.json of the paraphrase competition, written by the command line."""
    out = tmp_path_factory.mktemp("v") / "out"
    r = run_cli(ROOT, "report", str(PARAPHRASE), "-B", "0", "-o", str(out), "--format", "json")
    assert r.returncode == 0, r.stderr
    return out / "results.json"


def test_results_json_records_the_running_versions(written):
    tool = json.loads(written.read_text(encoding="utf-8"))["tool"]
    assert tool["versions"] == RUNNING == running_versions()
    assert tool["version"] == __version__


def test_analysis_read_keeps_the_versions(written):
    assert cr.Analysis.read(written).versions == RUNNING
    # the versions of what computed the numbers, not of what reads them: a file from elsewhere
    # keeps its own
    d = json.loads(written.read_text(encoding="utf-8"))
    d["tool"]["versions"] = {**RUNNING, "numpy": "1.26.0", "python": "3.11.0"}
    other = written.with_name("other.json")
    other.write_text(json.dumps(d), encoding="utf-8")
    back = cr.Analysis.read(other)
    assert back.versions["numpy"] == "1.26.0" and back.versions["python"] == "3.11.0"
    assert json.loads(back.to_json())["tool"]["versions"] == back.versions


def test_an_earlier_results_json_without_versions_reads_as_unknown(written):
    d = json.loads(written.read_text(encoding="utf-8"))
    del d["tool"]["versions"]
    older = written.with_name("older.json")
    older.write_text(json.dumps(d), encoding="utf-8")
    assert cr.Analysis.read(older).versions == {}


@pytest.mark.parametrize(
    "versions, said",
    [
        ('"3.11"', "tool.versions must be a JSON object"),
        ('{"numpy": 2}', 'tool.versions["numpy"] must be text'),
    ],
)
def test_tampered_versions_are_one_input_error(written, versions, said):
    text = written.read_text(encoding="utf-8")
    bad = written.with_name("bad.json")
    bad.write_text(re.sub(r'"versions": \{[^}]*\}', f'"versions": {versions}', text, count=1))
    with pytest.raises(InputError, match="bad.json") as err:
        cr.Analysis.read(bad)
    assert said in str(err.value)


# ----------------------------------------------------------------------------- --citation


def bibtex_entries(text: str) -> dict[str, str]:
    """The entries of ``text`` by key; each must open as ``@type{key,`` and close its braces."""
    entries = {}
    for chunk in re.split(r"\n(?=@)", text.strip()):
        m = re.match(r"@(\w+)\{([\w:-]+),\n", chunk)
        assert m, chunk[:60]
        depth = 0
        for i, ch in enumerate(chunk):
            depth += {"{": 1, "}": -1}.get(ch, 0)
            assert depth >= 0, chunk
            if depth == 0 and ch == "}":
                assert chunk[i + 1 :].strip() == "", chunk  # nothing after the closing brace
                break
        assert depth == 0, chunk
        fields = re.findall(r"^  (\w+) = \{", chunk, flags=re.M)
        assert "title" in fields and "author" in fields, chunk
        entries[m.group(2)] = chunk.strip()
    return entries


def test_citation_prints_bibtex_of_the_tool_and_the_methods(tmp_path):
    r = run_cli(tmp_path, "--citation")
    assert r.returncode == 0 and r.stderr == ""
    entries = bibtex_entries(r.stdout)
    assert list(entries)[:2] == ["compreport", "navamunoz2024"]
    assert f"version = {{{__version__}}}" in entries["compreport"]
    assert "2403.04693" in entries["navamunoz2024"]
    for key in ("westfall1993", "romano2005", "mogstad2024", "efron1993"):  # the defaults' methods
        assert entries[key] == REFERENCES[key][1]  # the registry's entry, as references.bib has it
    assert len(entries) == len(set(entries))


def test_citation_is_a_top_level_flag_only(tmp_path):
    r = run_cli(tmp_path, "metrics", "--citation")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("error: unrecognized arguments: --citation")


# ---------------------------------------------------------------------------- CITATION.cff


def test_citation_cff_has_the_required_keys():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    for key in ("cff-version", "message", "title", "authors", "version", "license"):
        assert cff[key], key
    assert cff["cff-version"] == "1.2.0" and cff["title"] == "compreport"
    # the released version to cite (a build between release tags names its commit: __version__)
    assert re.fullmatch(r"\d+\.\d+\.\d+", str(cff["version"])) and cff["license"] == "MIT"
    assert all(a.get("name") or a.get("family-names") for a in cff["authors"])
    paper = cff["preferred-citation"]
    assert paper["title"].startswith("Analysis of Systems' Performance in Natural Language")
    assert [a["family-names"] for a in paper["authors"]] == ["Nava-Muñoz", "Graff", "Escalante"]
    assert paper["year"] == 2024 and "2403.04693" in paper["url"]
