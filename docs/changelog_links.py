"""MkDocs hook: the Changelog page is CHANGELOG.md, whose links are relative to the repository's
root (``docs/statistics.md``, right on GitHub and in a checkout); on the site, relative to ``docs/``
(``statistics.md``), so that ``mkdocs build --strict`` checks each of them and its anchor."""

from __future__ import annotations

from pathlib import Path

#: The page that shows the changelog, and the file it shows.
PAGE, CHANGELOG = "changelog.md", Path(__file__).resolve().parent.parent / "CHANGELOG.md"


def on_page_markdown(markdown: str, page, **kwargs) -> str:
    """CHANGELOG.md, its links into ``docs/`` made relative to ``docs/``, as the Changelog page."""
    if page.file.src_uri != PAGE:
        return markdown
    return CHANGELOG.read_text(encoding="utf-8").replace("](docs/", "](")
