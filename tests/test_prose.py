"""The words of the methods paragraph and the team sheets' method sentences
(compreport.report.prose)."""

from __future__ import annotations

import re

import pytest

from compreport.language import language
from compreport.report import prose, references
from compreport.settings import Settings


def _as_html(segments) -> str:
    """Segments as the HTML pages print them: a citation in its own parentheses,
    ``(Holm, 1979)``."""
    return "".join(
        f"({'; '.join(references.short(k) for k in s.keys)})" if isinstance(s, prose.Cite) else s
        for s in segments
    )


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize(
    "settings",
    [
        Settings(),
        Settings(test="randomization", correction="none"),
        Settings(ci_method="bca", correction="bh", family="vs-best"),
    ],
    ids=["default", "randomization", "bca-bh"],
)
def test_no_citation_sits_inside_parentheses(lang, settings):
    """A citation prints its own parentheses (``\\citep``, "(Piepho, 2004)"): inside a parenthesis
    it would close it twice, "… at α = 0.05 (Piepho, 2004)), uses"."""
    with language(lang):
        texts = [_as_html(prose.paragraph(settings)), _as_html(prose.method_sentences(settings))]
    for text in texts:
        depth = 0
        for i, ch in enumerate(text):
            depth += {"(": 1, ")": -1}.get(ch, 0)
            assert 0 <= depth <= 1, text[max(0, i - 80) : i + 20]
        assert depth == 0 and "(Piepho, 2004): " in text, text


def _comp(name: str, clusters: bool):
    """The little of a competition the methods sentences read: its name, clusters and metrics."""
    from types import SimpleNamespace

    return SimpleNamespace(
        name=name,
        metrics=[],
        clusters={"column": "question", "clusters": 40, "items": 320} if clusters else None,
    )


def test_cluster_sentences_follow_the_unit_the_test_and_the_interval_method():
    """Under the cluster bootstrap no sentence speaks of resampling or swapping single items, the
    randomization test's p-values are not said to resample, and the BCa jackknife appears only with
    BCa intervals (no sentence swaps whole clusters while the next swaps each item's
    predictions)."""
    grouped, flat = _comp("Q", True), _comp("F", False)
    rand_bca = Settings(test="randomization", ci_method="bca")
    text = _as_html(prose.paragraph(rand_bca, [grouped]))
    team = _as_html(prose.method_sentences(rand_bca, grouped))
    for t in (text, team):
        assert (
            "resamples of the clusters of test items" in t and "of the test items (seed" not in t
        ), t
        assert (
            "swapping the two predictions of all the items of each cluster together, with "
            "probability 1/2" in t
        )
        assert (
            "each item's" not in t
            and "p-values all resample" not in t
            and "intervals and differences resample" in t
        )
        assert "jackknife of BCa leaves out one cluster" in t
    text = _as_html(prose.paragraph(Settings(), [grouped]))
    assert "intervals, differences and p-values all resample clusters." in text
    assert "jackknife" not in text and "randomization round" not in text and "swapping" not in text
    mixed = _as_html(prose.paragraph(Settings(test="randomization"), [grouped, flat]))
    assert (
        "resamples of the test items or, where they form clusters, of the clusters (seed" in mixed
    )
    assert (
        "swapping with probability 1/2 the two predictions of each item or, where items form "
        "clusters, those of all the items of each cluster together"
    ) in mixed and "jackknife" not in mixed
    items = _as_html(prose.paragraph(Settings(test="randomization"), [flat]))
    assert (
        "resamples of the test items (seed" in items
        and "swapping each item's two predictions" in items
    )
    assert "cluster" not in items


@pytest.mark.parametrize(
    "test, side",
    [
        ("randomization", "two-sided,"),
        ("berg-kirkpatrick", "one-sided,"),
        ("bootstrap", "two-sided paired bootstrap test"),
    ],
)
def test_the_methods_paragraph_says_which_alternative_the_test_has(test, side):
    """README: "The methods paragraph of every report and the team sheets say which alternative";
    the paragraph said so only for the bootstrap test. Under the paper's one-sided test every
    verdict's rule says so too, with its two-sided level."""
    text = _as_html(prose.paragraph(Settings(test=test)))
    assert side in text, text
    sheet = _as_html(prose.method_sentences(Settings(test=test)))
    assert ("one-sided" in sheet) == (test == "berg-kirkpatrick"), sheet
    if test == "berg-kirkpatrick":
        assert (
            "on one-sided p-values in the direction the data chose, whose two-sided level is 0.1"
            in sheet
        )
        assert (
            "significantly better than B at α = 0.05 (Holm correction over all pairs of systems, "
            "on one-sided p-values" in prose.verdict(Settings(test=test), True, "A", "B")
        )
    if test == "randomization":
        assert (
            "(Chinchor, 1992), two-sided, counting the rounds whose difference reaches the "
            "observed one in absolute value, with p = (c + 1)/(R + 1)"
        ) in text


def test_without_resamples_the_methods_say_so_in_one_sentence():
    """-B 0: no "95% percentile confidence intervals … from 0 paired bootstrap resamples", no
    p-value formula, no rule deciding verdicts; one sentence says there are none, and the team
    sheet's note on the other family's p-values ("Holm: p = –") is left out."""

    none = Settings(bootstrap=0)
    sentence = (
        "No resamples were drawn (B = 0), so there are no confidence intervals, p-values, verdicts "
        "or significance groups. "
    )
    text = _as_html(prose.paragraph(none, [_comp("Q", True)]))
    assert text.startswith(sentence) and text.count("B = 0") == 1, text
    for claim in (
        "confidence intervals (",
        "resamples of",
        "p = (c + 1)",
        "Holm",
        "cluster",
        "compared and grouped",
    ):
        assert claim not in text, claim
    assert "Baselines are ranked with the participants but do not compete" in text
    assert prose.method_sentences(none, _comp("Q", True)) == [sentence]
    with language("es"):
        assert "B = 0" in _as_html(prose.method_sentences(none))


def test_without_resamples_no_empty_references():
    """-B 0 cites nothing, so the HTML methods section and the appendix print no References heading
    over an empty list."""
    import numpy as np

    import compreport as cr
    from compreport.report.latex.appendix import appendix
    from compreport.report.latex.layout import Options
    from compreport.report.pages import html
    from conftest import make_competition

    assert html.methods_context(Settings(bootstrap=0))["references"] == []
    macro = html.environment().from_string(
        '{% from "_macros.html" import methods_section with context %}{{ methods_section(m) }}'
    )
    assert "References" not in macro.render(m=html.methods_context(Settings(bootstrap=0)))
    assert "References" in macro.render(m=html.methods_context(Settings()))
    gold = np.arange(20) % 2
    analysis = cr.analyze(make_competition(gold, [gold, 1 - gold]), bootstrap=0)
    # without resamples the methods cite nothing; the competitiveness summary's caption still
    # cites the method paper, so the bibliography holds that one entry and nothing else
    bare = appendix(analysis, Options(), {}, {}, "", "x")
    assert re.findall(r"\\bibitem\[[^\]]*\]\{([^}]+)\}", bare) == ["navamunoz2024"]
    cited = cr.analyze(make_competition(gold, [gold, 1 - gold]), bootstrap=20)
    assert "\\begin{thebibliography}" in appendix(cited, Options(), {}, {}, "", "x")
