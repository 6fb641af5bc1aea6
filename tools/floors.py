"""Write the constraints that pin every declared dependency to its lowest declared version.

``python tools/floors.py [EXTRA ...]`` prints one ``name==version`` line per requirement of
``pyproject.toml``'s ``[project] dependencies`` (and of the optional-dependency groups named) that
declares a floor (``>=X``); a requirement without one is left out, with a comment. ``make floors``
installs the package under these constraints into a fresh venv and runs a subset of the tests, so
that the floors pyproject declares are floors that work (issue 39, item 3).

Only the direct dependencies are pinned: pip resolves the others to their newest versions that
fit, as a user who installs compreport next to old versions of numpy or WeasyPrint would get.

>>> floors(["numpy>=1.26", "ruff>=0.17.6,<0.18", "dask[distributed]>=2024.8", "pyyaml"])
['numpy==1.26', 'ruff==0.17.6', 'dask[distributed]==2024.8', '# pyyaml: no floor declared']
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"
_REQ = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*(?:\[[^\]]*\])?)\s*(.*?)\s*(?:;.*)?$")


def floors(requirements: list[str]) -> list[str]:
    """One constraint line per requirement: ``name==floor``, or a comment when none is declared.

    Parameters
    ----------
    requirements : list of str
        PEP 508 requirement strings, as in pyproject.toml (``"numpy>=1.26"``).

    Returns
    -------
    list of str
        ``"name==version"`` for each requirement with a ``>=`` (or ``==``, ``~=``) bound, the extras
        kept; ``"# name: no floor declared"`` for the others.
    """
    out = []
    for req in requirements:
        m = _REQ.match(req)
        if m is None:
            raise ValueError(f"not a requirement: {req!r}")
        name, spec = m.group(1), m.group(2)
        low = re.search(r"(?:>=|==|~=)\s*([0-9][^,\s]*)", spec)
        out.append(f"{name}=={low.group(1)}" if low else f"# {name}: no floor declared")
    return out


def main(argv: list[str]) -> int:
    """Print the constraints of the dependencies and of the extras named in ``argv``."""
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    reqs = list(project["dependencies"])
    for extra in argv:
        reqs += project["optional-dependencies"][extra]
    # pip's constraints take no extras: "dask[distributed]==X" constrains "dask==X".
    for line in floors(reqs):
        print(re.sub(r"\[[^\]]*\]", "", line))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
