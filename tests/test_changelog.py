"""CHANGELOG.md is a release changelog (Keep a Changelog): ``[Unreleased]`` on top, then each
release ``[X.Y.Z] - date``, newest first, whose links point at pages that exist; CITATION.cff cites
its newest release. The development log before the first release is docs/changelog-dev.md."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
CHANGELOG = ROOT / "CHANGELOG.md"

#: A release's heading; ``unreleased`` until the day of its tag (docs/development.md, Releasing).
RELEASE = re.compile(r"## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2}|unreleased)")


def _headings() -> list[str]:
    return [x for x in CHANGELOG.read_text(encoding="utf-8").splitlines() if x.startswith("## ")]


def releases() -> list[str]:
    """The versions of CHANGELOG.md's releases, newest first."""
    return [m[1] for m in map(RELEASE.fullmatch, _headings()) if m]


def test_unreleased_on_top_then_releases_newest_first():
    headings = _headings()
    assert headings[0] == "## [Unreleased]"
    assert all(RELEASE.fullmatch(h) for h in headings[1:]), headings
    versions = [tuple(map(int, v.split("."))) for v in releases()]
    assert versions and versions == sorted(versions, reverse=True)


def test_links_point_at_files_that_exist():
    """Each relative link of CHANGELOG.md names a file of the repository (the docs site shows the
    page with these links made relative to docs/, and `mkdocs build --strict` checks anchors)."""
    text = CHANGELOG.read_text(encoding="utf-8")
    targets = re.findall(r"\]\((?!https?://)([^)#]+)(?:#[^)]*)?\)", text)
    assert targets
    assert [t for t in targets if not (ROOT / t).is_file()] == []


def test_citation_cff_cites_the_newest_release():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert str(cff["version"]) == releases()[0]
