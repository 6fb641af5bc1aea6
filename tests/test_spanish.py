"""Spanish reports (issue 15 item 6): the translation table is complete, and a Spanish report
holds no English sentence."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import jinja2
import pytest
from jinja2 import nodes

import compreport
from compreport.lang import count, language, tr
from compreport.report.html import environment as html_environment
from compreport.report.latex import environment as latex_environment
from compreport.translations import ES

PACKAGE = Path(compreport.__file__).parent
TEMPLATES = PACKAGE.parent / "templates"


def _python_texts() -> dict[str, str]:
    """Every constant text passed to ``tr(...)`` or marked ``N_(...)`` in the package, with where it is."""
    out = {}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("tr", "N_")
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
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
                if (isinstance(call.node, nodes.Name) and call.node.name == "tr" and call.args
                        and isinstance(call.args[0], nodes.Const)):
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
    """A key written twice in the table would silently keep only the last Spanish."""
    table = next(n for n in ast.walk(ast.parse((PACKAGE / "translations.py").read_text(encoding="utf-8")))
                 if isinstance(n, ast.Dict))
    keys = [k.value for k in table.keys]
    assert len(keys) == len(set(keys)), sorted({k for k in keys if keys.count(k) > 1})


def test_tr_and_count():
    assert tr("tied with best") == "tied with best"
    with language("es"):
        assert tr("tied with best") == "empata con el mejor"
        assert count(10_000) == "10\u00a0000" and count(1_000) == "1000"
    assert count(10_000) == "10,000"
    with pytest.raises(compreport.InputError, match="`lang` must be one of en, es; got 'de'"):
        with language("de"):
            pass


#: English words that no Spanish sentence of a report holds: function words and the report's own
#: terms. The test workshop's team, competition and file names hold none of them.
ENGLISH = set("""
the of and with from is are by for to than which that this these each every not or its their be on at
system systems score scores winner significantly significant confidence interval intervals resamples resample
pair pairs best rank ranked group groups difference differences metric metrics table tables figure figures
competition competitions team teams baseline baselines items item correction corrected adjusted raw better
lower higher ties tied page method results analysis missing unsettled runner replicates label labels class
classes predicted gold value values mark marks none legend challenge task summary contents overview report
seed test notes warnings inputs settings versus over side shows counted cannot told apart winner's
""".split())
#: Text that is not a sentence of ours: file names, LaTeX commands, citations' titles.
_NOT_WORDS = re.compile(r"\S+\.(?:csv|tex|pdf|svg|json|md|html|eml)\b|\\[A-Za-z]+|https?://\S+")


def english_words(text: str) -> set[str]:
    """The words of :data:`ENGLISH` in ``text`` (file names and LaTeX commands left out)."""
    return {w for w in re.findall(r"[A-Za-z]+(?:'[a-z]+)?", _NOT_WORDS.sub(" ", text)) if w.lower() in ENGLISH}
