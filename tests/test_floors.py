"""The constraints of `make floors` (tools/floors.py, issue 39 item 3): every dependency declares
a floor, and the constraints pin exactly those floors, in a form pip reads."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tools" / "floors.py"


def _module():
    spec = importlib.util.spec_from_file_location("floors", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _dependencies() -> list[str]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "dependencies"
    ]


def test_every_dependency_declares_a_floor():
    """A dependency without a floor could not be tested at its lowest version."""
    lines = _module().floors(_dependencies())
    assert not [line for line in lines if line.startswith("#")], lines


def test_constraints_pin_the_declared_floors():
    """The script's output, read back line by line, is each dependency at its `>=` bound."""
    out = subprocess.run(
        [sys.executable, str(SCRIPT)], capture_output=True, text=True, check=True
    ).stdout
    pins = dict(line.split("==") for line in out.splitlines())
    declared = {}
    for req in _dependencies():
        name, low = re.match(r"([A-Za-z0-9_.-]+)(?:\[.*\])?\s*>=\s*([^,;\s]+)", req).groups()
        declared[name] = low
    assert pins == declared


@pytest.mark.parametrize(
    "req, line",
    [
        ("numpy>=1.26", "numpy==1.26"),
        ("dask[distributed]>=2024.8", "dask[distributed]==2024.8"),
        ("ruff>=0.17.6,<0.18", "ruff==0.17.6"),
        ("pyyaml", "# pyyaml: no floor declared"),
        ("pkg >= 2.0 ; python_version < '3.12'", "pkg==2.0"),
    ],
)
def test_floor_of_one_requirement(req, line):
    assert _module().floors([req]) == [line]
