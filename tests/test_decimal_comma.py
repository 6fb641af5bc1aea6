"""``--decimal-comma`` (``Report(decimal_comma=True)``) in everything a reader reads: the HTML
pages, the PDF reports and team letters, the e-mails, the figures; and in no number: results.json,
the CSV files and Markdown are the same bytes with it or without it."""

from __future__ import annotations

import email
import json
import re
from email import policy

import numpy as np
import pytest
from test_spanish import _html_text, _pdf_text

import compreport as cr
from compreport.report.model import Format
from conftest import make_competition, run_cli

#: A number with a decimal point or a decimal comma, not inside a name or a version.
_POINT = re.compile(r"(?<![\w.,])(\d+)\.(\d+)(?!\w|\.\d)")
_COMMA = re.compile(r"(?<![\w.,])\d+,\d+(?!\w|,\d)")


@pytest.mark.parametrize("digits", [0, 1, 3, 4])
def test_a_comma_number_is_the_point_number_with_a_comma(digits):
    """Every number of a :class:`Format` with ``decimal_comma`` reads back as Python's own
    fixed-point text of the same value (``f"{x:.{digits}f}"``), with a comma for the point; an
    interval separates its bounds by a semicolon; a missing value is the same dash."""
    rng = np.random.default_rng(digits)
    values = [*rng.normal(0, 2, 200), 0.0, -0.0004, 1e-7, 0.99995, float("nan"), None]
    plain = Format(decimals=digits, diff_decimals=digits, p_decimals=max(digits, 1))
    comma = Format(
        decimals=digits, diff_decimals=digits, p_decimals=max(digits, 1), decimal_comma=True
    )
    for x in values:
        for kind in ("score", "diff", "summary"):
            point_text, comma_text = getattr(plain, kind)(x), getattr(comma, kind)(x)
            assert comma_text == point_text.replace(".", ","), (kind, x)
            if x is not None and np.isfinite(x) and kind != "summary":
                reference = f"{x:.{digits}f}".removeprefix(
                    "-" if abs(x) < 0.5 * 10**-digits else ""
                )
                assert comma_text == reference.replace(".", ","), (kind, x)
        if x is not None and np.isfinite(x) and 0 <= x <= 1:
            assert comma.p(x) == plain.p(x).replace(".", ",")
            assert comma.p_is(x) == plain.p_is(x).replace(".", ",")
    low, high = 0.61234, 0.74871
    assert plain.interval(low, high) == f"[{plain.score(low)}, {plain.score(high)}]"
    assert comma.interval(low, high) == f"[{comma.score(low)}; {comma.score(high)}]"
    assert comma.interval(-low, high, diff=True) == f"[{comma.diff(-low)}; {comma.diff(high)}]"
    with pytest.raises(cr.InputError, match="`decimal_comma` must be True or False; got 'yes'"):
        Format(decimal_comma="yes")


def _analysis():
    """Three systems on 300 items, names without digits (so every number of a page is ours)."""
    rng = np.random.default_rng(7)
    gold = rng.integers(0, 2, 300)
    runs = [np.where(rng.random(300) < p, gold, 1 - gold) for p in (0.81, 0.78, 0.6)]
    comp = make_competition(gold, runs, systems=["Alfa", "Beta", "Gamma"], cid="tarea")
    return cr.analyze(comp, bootstrap=400, seed=3)


def _spaced(digits: str) -> str:
    """Whole-number digits grouped by threes with a no-break space when there are five or more."""
    if len(digits) < 5:
        return digits
    head = len(digits) % 3 or 3
    return "\u00a0".join([digits[:head]] + [digits[i : i + 3] for i in range(head, len(digits), 3)])


def _text(page: str) -> str:
    """A page's visible text, a bold number's fraction (set in a box of its own) joined to it,
    the version left out (not a number of ours)."""
    page = re.sub(r'<span class="frac w\d+"><span>(\d+)</span></span>', r"\1", page)
    page = page.replace('<html lang="en">', "<html>")  # an English page is read too
    return re.sub(r"compreport \S+", "compreport", _html_text(page))


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_page_with_a_comma_is_the_page_with_a_point_and_nothing_else(lang):
    """The HTML page of ``decimal_comma=True`` is, as text, the page without it where every
    decimal point of a number is a comma and every interval's ``, `` a ``; ``: the same cells,
    sentences and settings, no number left with a point, none changed."""
    analysis = _analysis()
    point, comma = (
        _text(cr.Report(analysis, lang=lang, decimal_comma=c).to_html()) for c in (False, True)
    )
    assert _POINT.search(point) and not _POINT.search(comma), _POINT.findall(comma)[:5]
    # English groups thousands with a comma, which a decimal comma forbids: then, as in Spanish, a
    # no-break space groups five digits or more (RAE), and 6400 stays whole
    expected = re.sub(
        r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?![\d])",
        lambda m: _spaced(m.group(0).replace(",", "")),
        point,
    )
    expected = _POINT.sub(r"\1,\2", expected)
    expected = re.sub(r"\[(-?[\d,]+|–), (-?[\d,]+|–)\]", r"[\1; \2]", expected)
    assert comma == expected
    assert "α = 0,05" in comma.replace("\u00a0", " ")
    assert re.search(r"\[0,\d{4}; 0,\d{4}\]", comma)  # the leaderboard's intervals


def test_figures_take_the_comma_on_their_numbers_not_on_names():
    """``Report.figure`` under ``decimal_comma``: the numeric axis of the difference figure reads
    ``0,05``, the names' axis keeps ``Team 42.01``, and the distribution figure's δ(x) and p-value
    take the comma; without the option, the same ticks with a point."""
    rng = np.random.default_rng(11)
    gold = rng.integers(0, 2, 300)
    runs = [np.where(rng.random(300) < p, gold, 1 - gold) for p in (0.85, 0.75, 0.6)]
    analysis = cr.analyze(
        make_competition(gold, runs, systems=["Alfa", "Team 42.01", "Gamma"]), bootstrap=300
    )
    for comma in (False, True):
        report = cr.Report(analysis, lang="es", decimal_comma=comma)
        fig = report.figure("diff")
        fig.canvas.draw()
        ax = fig.axes[0]
        xs = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
        ys = [t.get_text() for t in ax.get_yticklabels()]
        assert "Team 42.01" in ys
        decimals = [x for x in xs if re.search(r"\d[.,]\d", x)]
        assert decimals and all(("," in x) == comma and ("." in x) != comma for x in decimals), xs
        title = report.figure("dist").axes[0].get_title(loc="left")
        delta = re.search(r"δ\(x\) = (\S+),", title).group(1)
        assert ("," in delta) == comma and ("." in delta) != comma, title
        assert title.startswith("Alfa − Team 42.01: ")  # names as written


@pytest.mark.slow
def test_letters_and_emails_in_spanish_take_the_comma_and_no_number_changes(
    two_competitions, tmp_path
):
    """``--lang es --decimal-comma`` through the CLI: every number of the team letters and the
    figures (pdftotext), of the e-mails and of the HTML page has a decimal comma, the letters'
    intervals read ``[0,xxxx; 0,xxxx]``; and results.json, the CSV files and leaderboard.md are
    the bytes of a run without the option."""
    book = tmp_path / "addresses.csv"
    book.write_text(
        "team,address\nToxiHunters,ana@example.org\nTxertoNLP,jo@example.org\n", encoding="utf-8"
    )
    common = ["report", str(two_competitions), "-B", "200", "--seed", "5", "--lang", "es"]
    res = run_cli(
        tmp_path,
        *common,
        "-o",
        str(tmp_path / "comma"),
        "--format",
        "html,pdf",
        "--decimal-comma",
        "--emails",
        str(book),
    )
    assert res.returncode == 0, res.stderr
    res = run_cli(tmp_path, *common, "-o", str(tmp_path / "point"), "--format", "json")
    assert res.returncode == 0, res.stderr
    comma, point = tmp_path / "comma", tmp_path / "point"
    data = [p.relative_to(point) for p in point.rglob("*") if p.suffix in (".json", ".csv", ".md")]
    assert len(data) > 5 and (point / "results.json") in [point / p for p in data]
    for rel in data:
        if rel.name != ".compreport.json":
            assert (comma / rel).read_bytes() == (point / rel).read_bytes(), rel
    results = json.loads((point / "results.json").read_text(encoding="utf-8"))
    names = sorted(
        {s for c in results["competitions"] for s in c["systems"]}, key=len, reverse=True
    )

    def numbers_with_a_point(text: str) -> list[str]:
        for name in names:  # "Team 42.01" is a name, not a number
            text = text.replace(name, " ")
        text = re.sub(r"compreport \S+", " ", text)  # the version
        return _POINT.findall(text)

    letters = sorted(comma.glob("*/teams/*.pdf"))
    assert len(letters) >= 8
    for letter in letters:
        text = re.sub(r"\s+", " ", _pdf_text(letter))
        assert not numbers_with_a_point(text), (letter.name, numbers_with_a_point(text)[:5])
        assert "α = 0,05" in text.replace("\u00a0", " "), letter.name
        assert _COMMA.search(text), letter.name
    toxi = re.sub(r"\s+", " ", _pdf_text(comma / "detox-binary" / "teams" / "toxihunters.pdf"))
    assert re.search(r"IC al 95 % \[0,\d{4}; 0,\d{4}\]", toxi.replace("\u00a0", " ")), toxi
    mails = sorted((comma / "emails").glob("*.eml"))
    assert len(mails) == 2
    for path in mails:
        msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        body = msg.get_body(("plain",)).get_content()
        assert not numbers_with_a_point(body), (path.name, numbers_with_a_point(body)[:5])
        assert "α = 0,05" in body and re.search(r"\[0,\d{4}; 0,\d{4}\]", body), body
    page = _text((comma / "detox-binary" / "report.html").read_text(encoding="utf-8"))
    assert not numbers_with_a_point(page), numbers_with_a_point(page)[:5]
    figures = sorted(comma.glob("*/figures/*.pdf"))
    assert len(figures) > 5
    for figure in figures:  # axes, legends, titles and values, as pdftotext reads them
        text = re.sub(r"\s+", " ", _pdf_text(figure))
        assert not numbers_with_a_point(text), (figure.name, numbers_with_a_point(text)[:5])
    assert _COMMA.search(_pdf_text(comma / "detox-binary" / "figures" / "diff-f1.pdf"))
