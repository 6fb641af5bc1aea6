"""The sdist and the wheel are publishable: the licence text in both, the metadata a package index
shows (classifiers, URLs, authors, keywords), and a long description whose links and images are
absolute, so that they resolve on the index's page (README's relative links would not)."""

from __future__ import annotations

import email
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: A Markdown link or image target that is not an absolute http(s) URL: ``](docs/x.md)``.
RELATIVE_TARGET = re.compile(r"\]\((?!https?://)[^)]*\)")


def relative_targets(markdown: str) -> list[str]:
    """The link and image targets of ``markdown`` that are not absolute URLs.

    >>> relative_targets("[a](docs/a.md) ![b](https://x.org/b.png) [c](CHANGELOG.md#top)")
    ['](docs/a.md)', '](CHANGELOG.md#top)']
    """
    return RELATIVE_TARGET.findall(markdown)


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    """The sdist and the wheel, built from the checkout by ``python -m build`` into a temporary
    folder (a few seconds: hatchling, in an isolated environment)."""
    pytest.importorskip("build", reason="`build` is in the test extra: pip install -e '.[test]'")
    out = tmp_path_factory.mktemp("dist")
    res = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    return out


def _wheel(dist: Path) -> zipfile.ZipFile:
    (wheel,) = dist.glob("*.whl")
    return zipfile.ZipFile(wheel)


def _sdist(dist: Path) -> tarfile.TarFile:
    (sdist,) = dist.glob("*.tar.gz")
    return tarfile.open(sdist)


def _metadata(dist: Path) -> email.message.Message:
    with _wheel(dist) as whl:
        (name,) = [n for n in whl.namelist() if n.endswith(".dist-info/METADATA")]
        return email.message_from_bytes(whl.read(name))


def test_both_hold_the_licence(dist):
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License") and "the compreport authors" in licence
    with _wheel(dist) as whl:
        names = [n for n in whl.namelist() if n.endswith(".dist-info/licenses/LICENSE")]
        assert len(names) == 1, whl.namelist()
        assert whl.read(names[0]).decode("utf-8") == licence
    with _sdist(dist) as sdist:
        (top,) = {n.split("/")[0] for n in sdist.getnames()}
        member = sdist.extractfile(f"{top}/LICENSE")
        assert member is not None and member.read().decode("utf-8") == licence


def test_metadata_has_what_an_index_shows(dist):
    meta = _metadata(dist)
    assert meta["License-Expression"] == "MIT" and meta["License-File"] == "LICENSE"
    assert meta["Author"] == "the compreport authors"
    assert "bootstrap" in meta["Keywords"].split(",")
    classifiers = meta.get_all("Classifier")
    assert "Programming Language :: Python :: 3.11" in classifiers
    assert "Intended Audience :: Science/Research" in classifiers
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert {"Homepage", "Documentation", "Source", "Issues", "Changelog"} <= set(urls)
    assert all(u.startswith("https://") for u in urls.values()), urls


def _git(*args: str) -> str | None:
    """The output of ``git ARGS`` in the checkout, or None without git or outside a repository."""
    try:
        res = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    except OSError:
        return None
    return res.stdout.strip() if res.returncode == 0 else None


def test_version_is_the_git_tags(dist):
    """The version comes from git: at a tag ``vX.Y.Z`` it is ``X.Y.Z``; between tags (or before
    the first) a development version naming the commit, ``X.Y.Z.devN+g<hash>``. The sdist carries
    it, so the wheel built from the sdist (which has no ``.git``) has the same one."""
    version = _metadata(dist)["Version"]
    with _sdist(dist) as sdist:
        (top,) = {n.split("/")[0] for n in sdist.getnames()}
        assert top == f"compreport-{version}"
    head = _git("rev-parse", "HEAD")
    if head is None:
        pytest.skip("not a git checkout: the version is pyproject's fallback-version")
    tag = _git("describe", "--tags", "--exact-match", "--match", "v[0-9]*")
    if tag is not None and not _git("status", "--porcelain", "--untracked-files=no"):
        assert version == tag.removeprefix("v")
    else:
        m = re.fullmatch(r"\d+\.\d+\.\d+\.dev\d+\+g([0-9a-f]{7,})(\.d\d{8})?", version)
        assert m and head.startswith(m[1]), (version, head)


def test_installed_wheel_says_its_version(dist, tmp_path):
    """``compreport.__version__`` of the installed wheel is its metadata's version (read with
    importlib.metadata): the wheel unpacked into a folder first on ``sys.path``, as pip would
    install it, imported in a fresh interpreter."""
    with _wheel(dist) as whl:
        whl.extractall(tmp_path / "site")
    res = subprocess.run(
        [
            sys.executable,
            "-c",
            "import compreport; print(compreport.__file__, compreport.__version__)",
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path / "site")},
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stderr[-3000:]
    where, version = res.stdout.split()
    assert Path(where).is_relative_to(tmp_path / "site")
    assert version == _metadata(dist)["Version"]


def test_long_description_is_the_readme_with_absolute_links(dist):
    """The long description is the README, as Markdown, hero image included, with every link and
    image made absolute (pyproject.toml, hatch-fancy-pypi-readme): the README's own stay relative,
    right on GitHub and in a checkout, but would not resolve on a package index's page."""
    meta = _metadata(dist)
    assert meta["Description-Content-Type"].startswith("text/markdown")
    description = meta.get_payload(decode=True).decode("utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "](docs/img/report-page1.png)" in relative_targets(readme)
    assert relative_targets(description) == []
    raw = "https://raw.githubusercontent.com/compreport/compreport/main/"
    assert f"and marks]({raw}docs/img/report-page1.png)" in description  # the hero image
    # the README itself but for its relative targets, each made absolute: the same text once the
    # two prefixes are taken off again
    blob = "https://github.com/compreport/compreport/blob/main/"
    tree = "https://github.com/compreport/compreport/tree/main/"
    assert f"]({tree}docs/)" in description  # a folder
    back = description.replace(f"]({raw}", "](").replace(f"]({blob}", "](")
    assert back.replace(f"]({tree}", "](") == readme
