"""Spanish reports: the translation table is complete, and a Spanish report holds no English
sentence."""

from __future__ import annotations

import ast
import json
import re
import shutil
import string
import subprocess
from pathlib import Path

import pytest
from jinja2 import nodes

import compreport
from compreport.language import count, language, tr
from compreport.language.translations import ES
from compreport.report.latex.renderer import environment as latex_environment
from compreport.report.latex.tex import breakable, escape
from compreport.report.pages.html import environment as html_environment
from conftest import run_cli

PACKAGE = Path(compreport.__file__).parent
TEMPLATES = PACKAGE.parent / "templates"


def _python_texts() -> dict[str, str]:
    """Every constant text passed to ``tr(...)`` or marked ``N_(...)`` in the package, with where it
    is."""
    out = {}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("tr", "N_")
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                out[node.args[0].value] = f"{path.name}:{node.lineno}"
    return out


def _template_texts() -> dict[str, str]:
    """Every constant text passed to ``tr(...)`` in the HTML and LaTeX templates."""
    out = {}
    for kind, env in (("html", html_environment()), ("latex", latex_environment())):
        for path in sorted((TEMPLATES / kind).iterdir()):
            if path.suffix not in (".html", ".j2"):
                continue
            tree = env.parse(path.read_text(encoding="utf-8"))
            for call in tree.find_all(nodes.Call):
                if (
                    isinstance(call.node, nodes.Name)
                    and call.node.name == "tr"
                    and call.args
                    and isinstance(call.args[0], nodes.Const)
                ):
                    out[call.args[0].value] = f"{kind}/{path.name}:{call.lineno}"
    return out


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}


def test_every_text_has_its_spanish_with_the_same_placeholders():
    texts = {**_python_texts(), **_template_texts()}
    assert len(texts) > 50  # the scan finds the texts (it would pass vacuously otherwise)
    missing = [f"{where}: {t!r}" for t, where in texts.items() if t not in ES]
    assert not missing, "no Spanish for:\n" + "\n".join(missing)
    wrong = [t for t in texts if _fields(t) != _fields(ES[t])]
    assert not wrong, f"placeholders differ: {wrong}"
    unused = set(ES) - set(texts)
    assert not unused, f"translations no code uses: {sorted(unused)}"


def test_no_text_is_translated_twice():
    """A key written twice, in one part of the table or in two, would silently keep only the last
    Spanish."""
    keys = []
    for part in sorted((PACKAGE / "language" / "translations").glob("[!_]*.py")):
        for table in (
            n
            for n in ast.walk(ast.parse(part.read_text(encoding="utf-8")))
            if isinstance(n, ast.Dict)
        ):
            keys += [k.value for k in table.keys]
    assert len(keys) == len(ES) > 300
    assert len(keys) == len(set(keys)), sorted({k for k in keys if keys.count(k) > 1})


def test_tr_and_count():
    assert tr("tied with best") == "tied with best"
    with language("es"):
        assert tr("tied with best") == "empatado con el mejor"
        assert count(10_000) == "10\u00a0000" and count(1_000) == "1000"
    assert count(10_000) == "10,000"
    with pytest.raises(compreport.InputError, match="`lang` must be one of en, es; got 'de'"):
        with language("de"):
            pass


#: English words that no Spanish sentence of a report holds: function words and the report's own
#: terms. The test workshop's team, competition and file names hold none of them.
ENGLISH = set(
    """
the of and with from is are by for to than which that this these each every not or its their be on
at system systems score scores winner significantly significant confidence interval intervals
resamples resample pair pairs best rank ranked group groups difference differences metric metrics
table tables figure figures competition competitions team teams baseline baselines items item
correction corrected adjusted raw better lower higher ties tied page method results analysis missing
unsettled runner replicates label labels class classes predicted gold value values mark marks none
legend challenge task summary contents overview report seed test notes warnings inputs settings
versus over side shows counted cannot told apart winner's
""".split()
)
#: Text that is not a sentence of ours: file names, LaTeX commands (with the names of environments,
#: files, labels and packages they take; internal ones with @ too, as \fps@table).
_NOT_WORDS = re.compile(
    r"\S*\.(?:csv|tsv|txt|toml|jsonl|zip|tex|pdf|svg|json|md|html|eml)\b|https?://\S+"
    r"|\\(?:begin|end|input|includegraphics|label|ref|usepackage|IfFileExists|renewenvironment|@float"
    r"|@dblfloat|floatplacement|bibliographystyle|bibliography|documentclass)\*?(?:\[[^\]]*\])?\{[^}]*\}"
    r"|\\[A-Za-z@]+|\[[^\]\n]*=[^\]\n]*\]"
)  # and key=value options: S[table-format=1.4]


def english_words(text: str, data: re.Pattern | None = None) -> set[str]:
    """The words of :data:`ENGLISH` in ``text``: whole words, what ``data`` matches (the
    participants' names and labels), file names and LaTeX commands left out."""
    text = data.sub(" ", text) if data is not None else text
    text = _NOT_WORDS.sub(" ", text)
    return {w for w in re.findall(r"\b[A-Za-z]+(?:'[a-z]+)?\b", text) if w.lower() in ENGLISH}


def _html_text(html: str) -> str:
    """The visible text of a page: no tags, styles, scripts, identifiers (``<code>``), nor elements
    marked ``lang="en"`` (the analysis's warnings, the works in the bibliography)."""
    from html.parser import HTMLParser

    class Text(HTMLParser):
        def __init__(self):
            super().__init__()
            self.out, self.skip = (
                [],
                [],
            )  # a stack of the open elements, True where text is left out
            self.glue = False  # after <wbr>: the next text continues the same word

        def handle_starttag(self, tag, attrs):
            self.glue = tag == "wbr"
            if tag in ("br", "img", "meta", "link", "input", "hr", "col", "wbr", "path", "use"):
                return
            a = dict(attrs)
            self.skip.append(
                tag in ("style", "script", "svg", "code")
                or a.get("lang") == "en"
                or (bool(self.skip) and self.skip[-1])
            )

        def handle_endtag(self, tag):
            if (
                tag not in ("br", "img", "meta", "link", "input", "hr", "col", "wbr", "path", "use")
                and self.skip
            ):
                self.skip.pop()

        def handle_data(self, data):
            if not (self.skip and self.skip[-1]):
                if self.glue and self.out:
                    self.out[-1] += data
                else:
                    self.out.append(data)
            self.glue = False

    parser = Text()
    parser.feed(html)
    return " ".join(parser.out)


def _pdf_text(path: Path, first: int | None = None, last: int | None = None) -> str:
    """The text of ``path`` (real pdftotext; pages ``first`` to ``last`` when given), with the
    words hyphenated at a line's end joined again."""
    pages = [a for flag, n in (("-f", first), ("-l", last)) if n for a in (flag, str(n))]
    text = subprocess.run(
        ["pdftotext", *pages, str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    # a word hyphenated at a line's end
    text = re.sub(r"(?<=[a-záéíóúñ])[-\u2010\u00ad]\n(?=[a-záéíóúñ])", "", text)
    # a name in a caption's key wrapped after a separator
    return re.sub(r"(?<=[._/+&@:])\n(?=\w)", "", text)


#: What no Spanish PDF holds, whole words, in any case: the settings' ids, a language named in
#: English, English terms of the method (the "and" between authors: :func:`_published`).
FORBIDDEN = re.compile(
    r"(?<![\w-])(?:percentile|all-pairs|spanish|resamples|significantly)(?![\w-])", re.I
)


def _published() -> re.Pattern:
    """The one English a Spanish report quotes: the titles and venues of the cited works, as
    published (``Chapman and Hall``; ``Exact and Approximate Stepdown Methods ...``), matched
    whole across line breaks (:func:`_pdf_text` joins some: ``Zero:Calculating``) and a hyphenated
    compound's break (``Letter-`` / ``Based``)."""
    from compreport.report.references import REFERENCES, _bib_fields

    texts = {
        value
        for key in REFERENCES
        for name, value in _bib_fields(REFERENCES[key][1]).items()
        if name in ("title", "journal", "booktitle", "publisher", "howpublished")
    }
    return re.compile(
        "|".join(
            # pdflatex prints an apostrophe as a closing quote (Systems’)
            re.escape(x).replace(r"\ ", r"\s*").replace(r"\-", r"-\s?").replace("'", "['’]")
            for x in sorted(texts, key=len, reverse=True)
        )
    )


def _near_empty_pages(pdf: Path, data: re.Pattern) -> list[int]:
    """Pages of ``pdf`` holding nothing but a page number, a running header (a name: ``data``)
    and the footer (``Generado por compreport ...``; a team sheet's ``compreport 0.1 · semilla
    ...``)."""
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    out = []
    for page in range(1, int(re.search(r"^Pages:\s+(\d+)", info, re.M)[1]) + 1):
        text = re.sub(r"\s+", " ", _pdf_text(pdf, page, page))
        text = re.sub(r"Generado por compreport .*?(?:definido|indica)[^.]*\.", " ", text)
        text = re.sub(r"compreport \S+ · semilla .*", " ", text)
        text = re.sub(r"\b\d+ / \d+\b", " ", data.sub(" ", text))
        if len(re.findall(r"[^\W\d_]", text)) < 40:
            out.append(page)
    return out


#: Words a native organizer would send back (issue 40), whole or as a stem: "ejecución" for a run,
#: "ítem", "clasificación" for the leaderboard (a classification task's word), "max-T escalonado",
#: "no resuelto", "remuestra", "empata con el mejor" as a mark, and colours the figures do not draw.
OLD_TERMS = re.compile(
    r"[Ee]jecuci[oó]n|[Ee]jecuciones|(?<![\w\\])[Íí]tems?\b|[Cc]lasificaci[oó]n|clasificad[oa]|escalonad[oa]"
    r"|resuelt[oa]|remuestras?\b|empata con el mejor|círculos rojos|rombos morados|la ganadora"
    r"|quedó primera"
)
#: Where (a regular expression on the file's path) each chosen term must be read.
NEW_TERMS = {
    r"^index\.html$": ["instancias de prueba"],
    r"detox-binary/report\.html$": [
        "Tabla de resultados",
        "empatado con el mejor",
        "corrección max-T descendente sobre todos los pares de sistemas",
        "círculos naranjas sin relleno",
        "rombos rosas",
        "Mejor envío",
    ],
    r"detox-binary/teams/toxihunters\.pdf$": [
        "Su envío",
        "su mejor envío, página 1 de 2",
        "sistemas: 6 envíos y 2 líneas base",
    ],
    r"detox-binary/tables/leaderboard\.tex$": ["Resultados de", "ordenados por"],
    r"^appendix\.tex$": ["procedimiento max-T descendente", "de las instancias de prueba"],
    r"emails/.*\.eml$": ["resultados de sus envíos", "página por envío"],
}


needs_tex = pytest.mark.skipif(shutil.which("latexmk") is None, reason="latexmk not installed")


# two_competitions (conftest): the end-to-end workshop
@pytest.mark.slow
@needs_tex
def test_spanish_report_has_no_english_sentence(two_competitions, tmp_path):
    """Every format in Spanish (HTML, report and overview PDFs, team letters, LaTeX tables and the
    compiled appendix, Markdown, figures, emails): no word of :data:`ENGLISH` in what a reader
    sees. The PDFs, read by pdftotext, hold none of :data:`FORBIDDEN` and no "and" (authors are
    joined by "y"), and no page holds only a footer. Two exceptions, removed narrowly before
    reading: the participants' and organizer's names (the competitions ``... (Basque)``), and the
    titles and venues of the cited works as published (:func:`_published`)."""
    book = tmp_path / "addresses.csv"
    book.write_text(
        "team,address,language\nToxiHunters,ana@example.org\nIruñea-HLT,iker@example.org,es\n"
        "TxertoNLP,jo@example.org,en\n",
        encoding="utf-8",
    )
    out = tmp_path / "es"
    res = run_cli(
        tmp_path,
        "report",
        str(two_competitions),
        "-o",
        str(out),
        "-B",
        "200",
        "--lang",
        "es",
        "--emails",
        str(book),
    )
    assert res.returncode == 0, res.stderr
    data = json.loads((out / "results.json").read_text(encoding="utf-8"))
    names = {data["workshop"]["name"]} | {
        n
        for c in data["competitions"]
        for n in (c["name"], *c["systems"], *filter(None, c["teams"].values()))
    }
    names |= {
        cell.strip()
        for gold in two_competitions.glob("*/gold.tsv")  # the class labels, the columns
        for line in gold.read_text(encoding="utf-8").splitlines()
        for cell in line.split("\t")[1:]
    }
    names |= {
        Path(i["path"]).name for c in data["competitions"] for i in c["inputs"]
    }  # the input files
    names = {n for n in names if re.search("[A-Za-z]", n)}
    # as LaTeX, a caption's key and Markdown print them
    names |= (
        {escape(n) for n in names}
        | {breakable(n) for n in names}
        | {n.replace("_", "\\_") for n in names}
    )
    data_words = re.compile(
        r"(?<![\w\\])(?:"
        + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        + r")(?!\w)"
    )  # whole: not the "label" of \label
    # the names as a PDF prints them: wrapped anywhere, or joined after a separator
    pdf_data = re.compile(
        r"(?<![\w\\])(?:"
        + "|".join(
            # a name wraps at its spaces and after its separators ("baseline." / "majority"; in
            # pdftotext's reading order the rank of its row may come between the two lines)
            re.escape(n).replace(r"\ ", r"\s*").replace(r"\.", r"\.\s*(?:\d+\s+)?")
            for n in sorted(names, key=len, reverse=True)
            if "\\" not in n  # the LaTeX spellings
        )
        + r")(?!\w)"
    )
    published = _published()
    found, forbidden, seen = {}, {}, {}
    # the leaderboards printed at the end (after the files written), as leaderboard.md in Spanish
    board = res.stdout.split("\n\n", 1)[1]
    assert "grupos y marcas: corrección max-T descendente" in board and "Posición" in board, board
    if english_words(board, data_words):
        found["stdout"] = sorted(english_words(board, data_words))
    for path in sorted(p for p in out.rglob("*") if p.is_file()):
        rel = str(path.relative_to(out))
        if path.suffix == ".html":
            page = path.read_text(encoding="utf-8")
            assert '<html lang="es">' in page, rel
            text = _html_text(page)
        elif path.suffix == ".pdf":
            text = re.sub(r"\s+", " ", _pdf_text(path))
            text = published.sub(" ", pdf_data.sub(" ", text))
            # the engine's parts in the provenance: identifiers, shown as code in every language
            text = re.sub(r"Motor: [a-z_]+ [a-z0-9_]+", " ", text)
            # the analysis's warnings, worded for whoever ran it (lang="en" in the HTML)
            text = re.sub(r"Notas (• .*?)(?=Generado por)", " ", text)
            bad = {m.group(0).lower() for m in FORBIDDEN.finditer(text)}
            bad |= {"and" for _ in re.finditer(r"\band\b", text, re.I)}
            bad |= {f"page {p} near empty" for p in _near_empty_pages(path, pdf_data)}
            if bad:
                forbidden[rel] = sorted(bad)
        elif path.suffix in (".tex", ".md") and path.name != "preamble.tex":
            text = (
                published.sub(" ", re.sub(r"%[^\n]*", " ", path.read_text(encoding="utf-8")))
                if path.suffix == ".tex"
                else path.read_text(encoding="utf-8")
            )
        elif path.suffix == ".eml":
            import email
            from email import policy

            msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
            text = msg["Subject"] + "\n" + msg.get_body(("plain",)).get_content()
            if "txertonlp" in rel:  # asked for English in the addresses file
                assert "Dear members of TxertoNLP," in text
                continue
            assert "Estimados miembros de " in text, rel
        else:
            continue
        seen[rel] = re.sub(r"\s+", " ", text)
        words = english_words(text, data_words)  # names and labels are the participants' data
        if words:
            found[rel] = sorted(words)
    assert not found, found
    assert not forbidden, forbidden
    # the terms a native organizer writes (translations/__init__.py), and none of those replaced
    old = {rel: sorted(set(OLD_TERMS.findall(text))) for rel, text in seen.items()}
    assert not {rel: terms for rel, terms in old.items() if terms}, old
    for where, terms in NEW_TERMS.items():
        texts = [text for rel, text in seen.items() if re.search(where, rel)]
        assert texts, where
        for term in terms:
            assert any(term in text for text in texts), (where, term)
    # the methods paragraph of the appendix, compiled, with its accents
    appendix = re.sub(r"\s+", " ", _pdf_text(out / "appendix.pdf"))
    assert "réplicas bootstrap pareadas" in appendix and "significación" in appendix
    # the exceptions above are there, and narrow: authors joined by "y", titles as published
    assert "(Efron y Tibshirani, 1993)" in appendix
    assert "Referencias Yoav Benjamini y Yosef Hochberg. Controlling the False" in appendix
    assert "Chapman and Hall, New York, 1993." in appendix
    for path in (out / "detox-binary" / "report.html", out / "index.html"):
        page = path.read_text(encoding="utf-8")
        works = re.findall(r'<li id="ref-(\w+)">([^<]*) <span class="work" lang="en">', page)
        assert ("efron1993", "Bradley Efron y Robert J. Tibshirani (1993).") in works, path


def _small_analysis(**settings):
    """A real analysis of a two-system competition of ``language = "Spanish"`` under
    ``settings`` (B = 0: provenance, subtitles and headings only read the settings and names)."""
    import dataclasses

    import numpy as np

    from conftest import make_competition

    gold = np.arange(20) % 2
    comp = dataclasses.replace(
        make_competition(gold, [gold, 1 - gold]),
        challenge="SentIber",
        task="Polarity",
        language="Spanish",
        group=["SentIber", "Polarity", "Basque"],
    )
    return compreport.analyze(comp, bootstrap=0, **settings)


@pytest.mark.parametrize(
    ("settings", "spanish"),
    [
        (
            dict(ci="percentile", family="all-pairs", correction="holm"),
            ["percentil", "bootstrap pareado", "todos los pares", "Holm"],
        ),
        (
            dict(ci="bca", test="randomization", family="vs-best", correction="bonferroni"),
            ["BCa", "aleatorización aproximada", "frente al mejor", "Bonferroni"],
        ),
        (
            dict(family="per-row", correction="maxt"),
            ["percentil", "bootstrap pareado", "por fila", "max-T descendente"],
        ),
    ],
)
def test_provenance_shows_settings_in_spanish(settings, spanish):
    """A Spanish provenance names the CI method, test, family and correction in Spanish (the ids
    are English words: ``percentile``, ``all-pairs``); results.json keeps the ids."""
    from compreport.report.pages.html import provenance

    analysis = _small_analysis(**settings)
    s = analysis.settings
    with language("es"):
        rows = provenance(analysis)["rows"][5:9]
    assert [r[0] for r in rows] == [
        "Método del IC",
        "Prueba",
        "Familia de la corrección",
        "Corrección",
    ]
    assert [r[1] for r in rows] == spanish
    assert not any(code for _, _, code in rows)  # words, not identifiers
    assert json.loads(json.dumps(analysis.to_dict()))["settings"]["ci_method"] == s.ci_method


def test_provenance_shows_setting_ids_in_english():
    """The twin: an English provenance shows each setting as given to compreport, as code."""
    from compreport.report.pages.html import provenance

    analysis = _small_analysis(ci="percentile", family="all-pairs", correction="holm")
    rows = provenance(analysis)["rows"][5:9]
    assert [(r[1], r[2]) for r in rows] == [
        ("percentile", True),
        ("bootstrap", True),
        ("all-pairs", True),
        ("holm", True),
    ]


def test_language_names_in_spanish():
    """A competition's language named in English is shown in the report's language, in its
    subtitle, its summary column and the appendix's language blocks; a code or another name is
    shown as given."""
    from compreport.language.vocabulary import language_name
    from compreport.report import model, prose

    analysis = _small_analysis()
    comp = analysis.competitions[0]
    with language("es"):
        assert prose.subtitle(comp) == "SentIber · Polarity · español"
        assert model.group_path(comp) == ("SentIber", "Polarity", "euskera")
        assert [language_name(x) for x in ("SPANISH", " basque", "es", "Klingon")] == [
            "español",
            "euskera",
            "es",
            "Klingon",
        ]
    # the twin: English as given
    assert prose.subtitle(comp) == "SentIber · Polarity · Spanish"
    assert model.group_path(comp) == ("SentIber", "Polarity", "Basque")
    assert language_name("es") == "es"


def test_references_join_authors_in_spanish():
    """Authors are joined by "y" in a Spanish report, in the citations, the one-line references
    of the HTML and the appendix's bibliography; the titles of the works stay as published."""
    from compreport.report import references

    with language("es"):
        assert references.short("efron1993") == "Efron y Tibshirani, 1993"
        assert references.authors("bergkirkpatrick2012") == (
            "Taylor Berg-Kirkpatrick, David Burkett y Dan Klein"
        )
        text = references.reference_text("romano2005")
        bib = references.thebibliography(["efron1993", "romano2005", "holm1979"])
    assert text.startswith("Joseph P. Romano y Michael Wolf (2005). Exact and Approximate")
    assert "\\bibitem[Efron y Tibshirani(1993)]{efron1993}" in bib
    assert "Bradley Efron y Robert J. Tibshirani." in bib
    assert "Chapman and Hall" in bib  # a publisher's name, as published
    assert re.findall(r"\\bibitem\[[^]]*\]\{(\w+)\}", bib) == [
        "efron1993",
        "holm1979",
        "romano2005",
    ]


def test_references_join_authors_in_english():
    """The twin: "and" in English, with the serial comma for three authors as plainnat writes."""
    from compreport.report import references

    assert references.short("efron1993") == "Efron and Tibshirani, 1993"
    assert references.authors("navamunoz2024") == (
        "Sergio Nava-Muñoz, Mario Graff, and Hugo Jair Escalante"
    )
    bib = references.thebibliography(["navamunoz2024"])
    assert "\\bibitem[Nava-Muñoz et~al.(2024)]{navamunoz2024}" in bib
    assert "arXiv preprint arXiv:2403.04693, 2024." in bib


def _paragraph(**settings) -> str:
    """The methods paragraph under ``settings`` as text, its citations in parentheses."""
    from compreport.report import prose, references
    from compreport.settings import Settings

    return "".join(
        s if isinstance(s, str) else f"({'; '.join(references.short(k) for k in s.keys)})"
        for s in prose.paragraph(Settings(**settings))
    )


@pytest.mark.parametrize(
    ("ci", "words"),
    [
        ("percentile", "por el método percentil"),
        ("bca", "por el método corregido por sesgo y acelerado (BCa)"),
        ("normal", "por el método de aproximación normal (estimación ± z·EE)"),
    ],
)
def test_spanish_terms_of_the_method(ci, words):
    """The methods paragraph in standard Spanish statistics terms: "réplicas bootstrap" (not
    "remuestras"), the interval "por el método percentil" (not "intervalos percentil"), and the
    facts line's "intervalos de percentiles"; the SE column is an "error estándar (EE)"."""
    with language("es"):
        text = _paragraph(ci_method=ci)
        caption = tr(
            '<span class="label">Ordered bootstrap confidence intervals</span> of {metric} '
            "({level}, {method}): score on the full test set (the best in bold), mean and standard "
            "deviation (SE) of the bootstrap distribution, interval; groups as in the leaderboard "
            "({rule}).",
            metric="F1",
            level="95 %",
            method="BCa",
            rule="Holm",
        )
        facts = tr("{level} percentile intervals", level="95 %")
    assert f"intervalos de confianza al 95\u00a0% {words} (" in text
    assert "), obtenidos de 10\u00a0000 réplicas bootstrap pareadas de las instancias" in text
    assert "remuestra" not in text and "intervalos percentil" not in text
    assert "media y error estándar (EE) de la distribución bootstrap" in caption
    assert facts == "intervalos de percentiles al 95 %"


def test_english_terms_of_the_method():
    """The twin: the English paragraph as before."""
    text = _paragraph(ci_method="percentile")
    assert (
        "95% percentile confidence intervals (Efron and Tibshirani, 1993) from 10,000 paired"
        in text
    )


#: Hue ranges (degrees of the HSV wheel) and the words that name them, in English and Spanish: an
#: independent reading of a colour, so a caption names what the figure draws.
_HUES = (
    (15, "red", "rojos"),
    (45, "orange", "naranjas"),
    (70, "yellow", "amarillos"),
    (170, "green", "verdes"),
    (200, "cyan", "cian"),
    (260, "blue", "azules"),
    (290, "purple", "morados"),
    (345, "pink", "rosas"),
    (360, "red", "rojos"),
)
_SHAPES = {
    "s": ("squares", "cuadrados"),
    "o": ("circles", "círculos"),
    "D": ("diamonds", "rombos"),
    "^": ("triangles", "triángulos"),
}


def _colour_words(hex_colour: str) -> tuple[str, str]:
    import colorsys

    r, g, b = (int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    hue, saturation, _ = colorsys.rgb_to_hsv(r, g, b)
    if saturation < 0.1:
        return "grey", "grises"
    return next((en, es) for top, en, es in _HUES if hue * 360 < top)


def test_the_difference_figure_caption_names_the_colours_it_draws():
    """Each verdict's marker in the difference figure (its colour and shape, as drawn) is named by
    the caption in English ("orange circles") and in Spanish ("círculos naranjas"), the colour word
    read from the colour's hue; no caption names a colour that no marker has."""
    from compreport.report import prose
    from compreport.report.figures.gallery import VERDICT_LOOK
    from compreport.settings import Settings

    english = prose.figure_caption("diff", Settings())
    with language("es"):
        spanish = prose.figure_caption("diff", Settings())
    named_en, named_es = set(), set()
    for look in VERDICT_LOOK.values():
        (colour_en, colour_es), (shape_en, shape_es) = (
            _colour_words(look.color),
            _SHAPES[look.marker],
        )
        assert re.search(rf"\b{colour_en} {shape_en}\b", english), (look, english)
        assert re.search(rf"\b{shape_es}(?: \w+)? {colour_es}\b", spanish), (look, spanish)
        named_en.add(colour_en)
        named_es.add(colour_es)
    every_en = {en for _, en, _ in _HUES} | {"grey"}
    every_es = {es for _, _, es in _HUES} | {"grises"}
    assert set(re.findall(r"\b\w+\b", english)) & every_en == named_en
    assert set(re.findall(r"\b\w+\b", spanish)) & every_es == named_es
