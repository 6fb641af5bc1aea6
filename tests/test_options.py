"""The option schema (compreport.options) is the one declaration of every option: the CLI's
``--help``, the docs' tables, the API's keywords, the spec's ``[bootstrap]`` keys and the words of
errors all come from it; and one run validates its settings once."""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import pytest

import compreport as cr
import compreport.settings as settings_module
from compreport import options
from compreport.inputs.specmodels import BootstrapSpec
from compreport.language import vocabulary as vocab
from compreport.settings import SPELLING, Settings
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]
STANCE = ROOT / "examples" / "workshop" / "stance-eu"


@pytest.mark.parametrize(
    ("command", "groups"),
    [
        ("report", (options.READING, options.STATISTICS, options.OUTPUT)),
        ("demo", (options.STATISTICS, options.OUTPUT)),
        ("validate", (options.READING,)),
        ("plan", (options.READING, options.PLANNING)),
    ],
)
def test_help_lists_every_option_of_the_schema(tmp_path, command, groups):
    """``compreport COMMAND --help`` lists every flag of the schema's groups of that command, in
    a section named after the group, with the first words of its help text."""
    res = run_cli(tmp_path, command, "--help")
    assert res.returncode == 0, res.stderr
    text = " ".join(res.stdout.split())  # argparse wraps the help text
    for name in groups:
        assert f"{name}:" in res.stdout
        for o in options.group(name):
            for flag in o.flags:
                assert re.search(rf"(^|[\s\[,]){re.escape(flag)}([\s,\]]|$)", res.stdout), flag
            start = " ".join(o.help.split()[:4])
            if "{" not in start:
                assert start in text, (o.name, start)


def test_docs_options_tables_are_the_schema():
    """docs/getting-started.md's three options tables are :func:`options.markdown_table` of the
    reading, statistics and output groups, as written between their markers."""
    page = (ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8")
    for name in (options.READING, options.STATISTICS, options.OUTPUT):
        begin, end = f"<!-- options: {name} -->", f"<!-- /options: {name} -->"
        assert begin in page and end in page, name
        table = page.split(begin, 1)[1].split(end, 1)[0].strip()
        assert table == options.markdown_table(name), (
            f'regenerate with: python -c "from compreport import options; '
            f"print(options.markdown_table('{name}'))\""
        )


def test_load_signature_is_the_schemas_reading_options():
    """Every reading option is a keyword of :func:`compreport.load` whose default is None (not
    given: a spec's value, else the schema's default), and every keyword but ``path`` and
    ``out_dir`` is one of them."""
    params = inspect.signature(cr.load).parameters
    keywords = {o.api for o in options.group(options.READING)}
    assert set(params) - {"path", "out_dir"} == keywords
    for name in keywords:
        assert params[name].default is None, name
        assert params[name].kind is inspect.Parameter.KEYWORD_ONLY, name


def test_analyze_signature_is_the_schemas_statistics_options():
    """Every statistics setting is a keyword of :func:`compreport.analyze` (default None), as
    the schema names it (``ci`` for the Settings field ``ci_method``)."""
    params = inspect.signature(cr.analyze).parameters
    for field, o in options.SETTINGS.items():
        assert params[o.api].default is None, field
    assert params["jobs"].default == 1 and params["scheduler"].default is None


def test_settings_defaults_come_from_the_schema():
    """The Settings defaults are the schema's; the default correction is decided by one
    function, which the help text and Settings both use."""
    s = Settings()
    for field, o in options.SETTINGS.items():
        if field != "correction":
            assert getattr(s, field) == o.default, field
    assert s.correction == options.default_correction(s.test) == "maxt"
    assert Settings(test="randomization").correction == options.default_correction("x") == "holm"
    assert "default maxt under the bootstrap test, holm under the others" in (
        options.SETTINGS["correction"].help
    )


def test_choices_are_the_vocabulary_terms():
    """The schema's allowed values of the statistics options are the terms the report words."""
    assert options.CI_METHODS == tuple(vocab.CI_METHODS)
    assert options.TESTS == tuple(vocab.TESTS)
    assert options.FAMILIES == tuple(vocab.FAMILIES)
    assert options.CORRECTIONS == tuple(vocab.CORRECTIONS)


def test_every_caller_spelling_comes_from_the_schema():
    """Messages name an option by the schema's flag (CLI), keyword (Python) or spec key."""
    words = options.words()
    for o in options.SCHEMA:
        flag, api, _ = words[o.name]
        if options.OPTIONS[o.name] is o:
            assert (flag, api) == (o.flags[0], o.api)
    assert words["query_col"][:2] == ("--query-col", "cluster_col")
    for field, o in options.SETTINGS.items():
        assert SPELLING["cli"][field] == "/".join(o.flags)
        assert SPELLING["analyze"][field] == f"`{o.api}`"
        assert SPELLING["spec"][field] == o.spec
    keys = {o.spec.removeprefix("[bootstrap] ") for o in options.SETTINGS.values()}
    assert set(BootstrapSpec.model_fields) == keys


def test_the_cli_passes_every_reading_option_to_load(tmp_path, monkeypatch):
    """What the command line parses reaches :func:`compreport.load` as its keyword: a value
    given to each reading option comes out under the schema's API name."""
    from compreport.cli_parser import build_parser

    argv = ["validate", "x", "--no-comments", "--header", "--metric", "f1,accuracy"]
    for o in options.group(options.READING):
        if o.metavar and o.name != "metric":
            argv += [o.flags[0], f"v-{o.name}"]
        elif o.action == "store_true" and o.name != "no_comments":
            argv.append(o.flags[0])
    args = build_parser().parse_args(argv)
    kw = options.load_keywords(args)
    assert kw["metrics"] == ["f1", "accuracy"] and kw["comments"] is False and kw["header"]
    for o in options.group(options.READING):
        if o.action in (None, "append") and o.name not in ("metric", "labels"):
            given = kw[o.api]
            assert given in (f"v-{o.name}", [f"v-{o.name}"]), (o.name, given)
        elif o.action == "store_true" and o.name != "no_comments":
            assert kw[o.api] is True, o.name


def _count_validations(monkeypatch) -> dict:
    """Count how often the settings are checked: the checks of ``alpha``'s value (every
    validation of a given alpha goes through ``settings._alpha``, whoever calls
    :func:`~compreport.settings.validate`) and the checks a :class:`Settings` runs when it is
    constructed (``__post_init__``)."""
    counts = {"alpha": 0, "post_init": 0}
    real_alpha, real_post = settings_module._alpha, Settings.__post_init__

    def alpha(*args, **kwargs):
        counts["alpha"] += 1
        return real_alpha(*args, **kwargs)

    def post_init(self):
        counts["post_init"] += 1
        real_post(self)

    monkeypatch.setattr(settings_module, "_alpha", alpha)
    monkeypatch.setattr(Settings, "__post_init__", post_init)
    return counts


def test_one_api_run_validates_its_settings_once(monkeypatch):
    counts = _count_validations(monkeypatch)
    data = cr.load(STANCE)
    analysis = cr.analyze(data, bootstrap=40, alpha=0.1, test="randomization", jobs=1)
    assert counts == {"alpha": 1, "post_init": 0}
    assert analysis.settings.alpha == 0.1 and analysis.settings.correction == "holm"


def test_one_cli_run_validates_its_settings_once(tmp_path, monkeypatch):
    """In process: ``compreport report`` checks its statistics options once, before any work,
    and the analysis trusts them."""
    from compreport.cli import main

    counts = _count_validations(monkeypatch)
    out = tmp_path / "out"
    code = main(
        [
            "report",
            str(STANCE),
            "-o",
            str(out),
            "-B",
            "40",
            "--alpha",
            "0.1",
            "--test",
            "randomization",
            "--format",
            "json",
            "-q",
            "--jobs",
            "1",
        ]
    )
    assert code == 0
    assert counts == {"alpha": 1, "post_init": 0}
    saved = json.loads((out / "results.json").read_text(encoding="utf-8"))["settings"]
    assert saved["alpha"] == 0.1 and saved["correction"] == "holm"


def test_the_cli_names_a_bad_combination_in_its_own_words(tmp_path):
    """``--correction maxt --test randomization``: the error names the flags (it named the
    Python keywords before the settings were made once, in the caller's words)."""
    res = run_cli(
        tmp_path,
        "report",
        str(STANCE),
        "-o",
        str(tmp_path / "o"),
        "--correction",
        "maxt",
        "--test",
        "randomization",
        "-B",
        "20",
    )
    assert res.returncode == 2
    assert "--correction maxt needs --test bootstrap" in res.stderr, res.stderr
    assert not (tmp_path / "o" / "results.json").exists()


#: The reading options that steer how gold and run files are read, each named in at most three
#: product files: the schema, :func:`compreport.load`'s signature and the one module that uses it
#: (the readers take resolved values: ``ReadOptions.id_column``, not the option).
READING_OPTIONS = ("cluster_col", "zip_member", "extra_lines", "score_col", "id_col", "label_col")


@pytest.mark.parametrize("name", READING_OPTIONS)
def test_each_reading_option_is_named_in_at_most_three_files(name):
    """``grep -rlw NAME compreport/ --include=*.py``: at most 3 files, the schema among them."""
    word = re.compile(rf"\b{name}\b")
    files = sorted(
        str(p.relative_to(ROOT))
        for p in (ROOT / "compreport").rglob("*.py")
        if word.search(p.read_text(encoding="utf-8"))
    )
    assert "compreport/options.py" in files
    assert len(files) <= 3, files


def test_read_options_are_the_schemas_reading_fields():
    """Every field of ReadOptions but the runs' own columns and ``said`` is an option's
    ``reads``, with the schema's default."""
    import dataclasses

    from compreport.inputs.parsed import ReadOptions

    reads = {o.reads: o for o in options.group(options.READING) if o.reads}
    extra = {"runs_id_column", "runs_label_columns", "said"}
    fields = {f.name: f for f in dataclasses.fields(ReadOptions)}
    assert set(fields) == set(reads) | extra
    made = ReadOptions()
    for name, o in reads.items():
        assert getattr(made, name) == ([] if o.type == "list" else o.default), name
