"""Docstring examples (``pytest --doctest-modules``) run in a scratch directory.

Each example starts in a fresh temporary directory that holds a link to the repository's
``examples/``, so ``"examples/..."`` paths resolve and anything an example writes is thrown away;
``cr`` is the package, as the README imports it.
"""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent


@pytest.fixture(autouse=True)
def _doctest_scratch(request, doctest_namespace, tmp_path, monkeypatch):
    if not isinstance(request.node, pytest.DoctestItem):
        return
    import compreport

    (tmp_path / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    doctest_namespace["cr"] = compreport
