"""The words of the methods paragraph and the team sheets' method sentences (compreport.report.prose)."""

from __future__ import annotations

import pytest

from compreport.lang import language
from compreport.report import prose, references
from compreport.settings import Settings


def _as_html(segments) -> str:
    """Segments as the HTML pages print them: a citation in its own parentheses, ``(Holm, 1979)``."""
    return "".join(f"({references.short(s.key)})" if isinstance(s, prose.Cite) else s for s in segments)


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("settings", [Settings(), Settings(test="randomization", correction="none"),
                                      Settings(ci_method="bca", correction="bh", family="vs-best")],
                         ids=["default", "randomization", "bca-bh"])
def test_no_citation_sits_inside_parentheses(lang, settings):
    """A citation prints its own parentheses (``\\citep``, "(Piepho, 2004)"): inside a parenthesis
    it would close it twice, "… at α = 0.05 (Piepho, 2004)), uses"."""
    with language(lang):
        texts = [_as_html(prose.paragraph(settings)), _as_html(prose.method_sentences(settings))]
    for text in texts:
        depth = 0
        for i, ch in enumerate(text):
            depth += {"(": 1, ")": -1}.get(ch, 0)
            assert 0 <= depth <= 1, text[max(0, i - 80):i + 20]
        assert depth == 0 and "(Piepho, 2004): " in text, text
