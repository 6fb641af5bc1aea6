"""Settings are validated once (:func:`compreport.settings.validate`), whoever gives them.

Every invalid value of every setting raises :class:`compreport.errors.InputError` (a
``ValueError``) through the Python API (``Settings(...)``, ``make_settings``), through a
competition.toml ``[bootstrap]`` table (message: the file, ``[bootstrap] <key>``) and through the
CLI's main() (one ``error:`` line, exit 2, nothing written). The message names the setting in the
caller's words, the value, the allowed values and, when one is close, "did you mean".
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from compreport.errors import InputError
from compreport.inputs.spec import Options, load_inputs
from compreport.language import vocabulary as vocab
from compreport.settings import SPELLING, Settings, from_text, make_settings
from conftest import run_cli

WIDE = "id,y,A,B\n1,a,a,b\n2,b,b,b\n3,a,a,a\n4,b,a,b\n"
COMP = (
    'name = "C1"\n[data]\ntable = "wide.csv"\nid_column = "id"\n'
    '[[metrics]]\nname = "accuracy"\n[bootstrap]\n'
)

#: One invalid value per setting, as (Settings field, Python value, TOML literal, command-line
#: option and text).
BAD = [
    ("bootstrap", -1, "-1", ("-B", "-1")),
    ("seed", 1.5, "1.5", ("--seed", "1.5")),
    ("alpha", 1.5, "1.5", ("--alpha", "1.5")),
    ("ci_method", "bcx", '"bcx"', ("--ci", "bcx")),
    ("test", "permutation", '"permutation"', ("--test", "permutation")),
    ("family", "typo", '"typo"', ("--family", "typo")),
    ("correction", "xyz", '"xyz"', ("--correction", "xyz")),
]
KEY = {
    "bootstrap": "resamples",
    "seed": "seed",
    "alpha": "alpha",
    "ci_method": "ci",
    "test": "test",
    "family": "family",
    "correction": "correction",
}
ALLOWED = {
    "ci_method": vocab.CI_METHODS,
    "test": vocab.TESTS,
    "family": vocab.FAMILIES,
    "correction": vocab.CORRECTIONS,
}


def raises(fn, *needles: str) -> str:
    with pytest.raises(InputError) as info:
        fn()
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    for needle in needles:
        assert needle in message, (needle, message)
    return message


def allowed_words(field: str) -> tuple[str, ...]:
    return (", ".join(ALLOWED[field]),) if field in ALLOWED else ()


# --------------------------------------------------------------------------- Python API


@pytest.mark.parametrize("field,value,toml,cli", BAD, ids=[b[0] for b in BAD])
def test_api_rejects_each_setting(field, value, toml, cli):
    needles = (
        SPELLING["api"][field],
        repr(value) if isinstance(value, str) else str(value),
        *allowed_words(field),
    )
    raises(lambda: Settings(**{field: value}), *needles)
    raises(lambda: make_settings({field: value}), *needles)
    raises(lambda: make_settings({field: value}, base=Settings(bootstrap=50)), *needles)


def test_api_cases_of_the_issue():
    raises(lambda: Settings(family="typo"), "`family`", "all-pairs, per-row, vs-best", "'typo'")
    raises(
        lambda: Settings(test="permutation"),
        "`test`",
        "bootstrap, berg-kirkpatrick, randomization",
        "'permutation'",
    )
    raises(lambda: Settings(alpha=1.5), "`alpha`", "between 0 and 1", "1.5")
    msg = raises(
        lambda: Settings(correction="xyz"),
        "`correction` must be one of none, bonferroni, holm, bh, maxt; got 'xyz'",
    )
    assert "did you mean" not in msg
    raises(lambda: Settings(correction="holmm"), "got 'holmm' (did you mean 'holm'?)")
    raises(lambda: Settings(ci_method="BCa"), "(did you mean 'bca'?)")
    assert "--" not in msg  # a Python caller is not told about command-line options


@pytest.mark.parametrize(
    "field", ["bootstrap", "seed", "alpha", "ci_method", "test", "family", "correction"]
)
def test_bools_and_wrong_types_are_rejected(field):
    raises(lambda: Settings(**{field: True}), SPELLING["api"][field], "True")
    raises(lambda: make_settings({field: False}, "cli"), SPELLING["cli"][field], "False")
    raises(
        lambda: Settings(**{field: ["x"]}), SPELLING["api"][field]
    )  # unhashable: InputError, not TypeError


def test_numbers_must_be_numbers_of_the_right_kind():
    raises(lambda: Settings(bootstrap=1e4), "whole number", "10000.0", "(write it as 10000)")
    raises(lambda: Settings(seed="3"), "`seed`", "'3'")
    raises(lambda: Settings(alpha="0.05"), "`alpha`", "'0.05'")
    raises(lambda: Settings(alpha=float("nan")), "`alpha`", "nan")
    raises(lambda: Settings(alpha=0), "`alpha`", "between 0 and 1")
    assert Settings(bootstrap=0, seed=2**40, alpha=0.01).bootstrap == 0


def test_aliases_are_accepted_and_canonicalised():
    s = Settings(correction="fdr_bh", family="vs_best")
    assert (s.correction, s.family) == ("bh", "vs-best")
    assert make_settings({"correction": "benjamini-hochberg"}, "spec").correction == "bh"
    assert Settings.from_dict(s.to_dict()) == s


def test_unknown_setting_and_caller_words():
    raises(lambda: make_settings({"alfa": 0.1}), "unknown setting 'alfa'", "did you mean 'alpha'")
    raises(lambda: make_settings({"alpha": 2}, "cli"), "--alpha must be between 0 and 1")
    raises(lambda: make_settings({"alpha": 2}, "spec"), "[bootstrap] alpha must be between 0 and 1")


def test_command_line_text_is_parsed_in_one_place():
    assert from_text("10000", whole=True) == 10000 and from_text("10_000", whole=True) == 10000
    assert from_text("-1", whole=True) == -1
    assert from_text("1e4", whole=True) == "1e4"  # refused by the validation, which names '1e4'
    assert from_text("0.05") == 0.05 and from_text("5e-2") == 0.05
    assert from_text("abc") == "abc" and from_text(7, whole=True) == 7


# --------------------------------------------------------------------------- competition.toml
# [bootstrap]


def spec_dir(tmp: Path, lines: str, folder: str = "c1") -> Path:
    d = tmp / folder
    d.mkdir(parents=True, exist_ok=True)
    (d / "wide.csv").write_text(WIDE, encoding="utf-8")
    (d / "competition.toml").write_text(COMP + lines + "\n", encoding="utf-8")
    return d


@pytest.mark.parametrize("field,value,toml,cli", BAD, ids=[b[0] for b in BAD])
def test_spec_rejects_each_setting(tmp_path, field, value, toml, cli):
    d = spec_dir(tmp_path, f"{KEY[field]} = {toml}")
    msg = raises(
        lambda: load_inputs([str(d)], Options()),
        str(d / "competition.toml"),
        "line 8",
        f"[bootstrap] {KEY[field]} must be",
        *allowed_words(field),
    )
    assert repr(value) in msg or str(value) in msg


def test_spec_type_cases(tmp_path):
    d = spec_dir(tmp_path, "resamples = true")
    raises(
        lambda: load_inputs([str(d)], Options()),
        "competition.toml",
        "[bootstrap] resamples",
        "True",
    )
    d = spec_dir(tmp_path, 'alpha = "0.05"')
    raises(
        lambda: load_inputs([str(d)], Options()),
        str(d / "competition.toml"),
        "[bootstrap] alpha",
        "'0.05'",
    )
    d = spec_dir(tmp_path, 'correction = ["holm"]')
    raises(lambda: load_inputs([str(d)], Options()), "[bootstrap] correction", "['holm']")
    d = spec_dir(tmp_path, "resamples = 1e4")
    raises(lambda: load_inputs([str(d)], Options()), "[bootstrap] resamples", "(write it as 10000)")


def test_spec_aliases_and_workshop(tmp_path):
    d = spec_dir(
        tmp_path, 'correction = "fdr_bh"\nfamily = "per_row"\nci = "bca"\ntest = "randomization"'
    )
    assert load_inputs([str(d)], Options()).bootstrap == {
        "correction": "bh",
        "family": "per-row",
        "ci_method": "bca",
        "test": "randomization",
    }
    spec_dir(tmp_path, "")
    (tmp_path / "workshop.toml").write_text(
        '[bootstrap]\nfamily = "al-pairs"\n[[competitions]]\nspec = "c1"\n', encoding="utf-8"
    )
    raises(
        lambda: load_inputs([str(tmp_path / "workshop.toml")], Options()),
        "workshop.toml, line 2",
        "[bootstrap] family",
        "'al-pairs'",
        "(did you mean 'all-pairs'?)",
    )


# --------------------------------------------------------------------------- the real CLI


def cli(tmp: Path, *args: str) -> subprocess.CompletedProcess:
    """``compreport ARGS`` from ``tmp``, in this process (:func:`conftest.run_cli`: the same
    ``main()``)."""
    return run_cli(tmp, *args)


def report(tmp: Path, *args: str) -> subprocess.CompletedProcess:
    """``compreport report wide.csv ... -o out --format json -B 50 ARGS`` (ARGS last: a bad -B
    wins)."""
    (tmp / "wide.csv").write_text(WIDE, encoding="utf-8")
    return cli(
        tmp,
        "report",
        "wide.csv",
        "--id",
        "id",
        "--metric",
        "accuracy",
        "-o",
        "out",
        "--format",
        "json",
        "-B",
        "50",
        *args,
    )


def one_error(tmp: Path, res: subprocess.CompletedProcess, *needles: str) -> str:
    """Exit 2, exactly one stderr line ``error: ...`` holding the needles, no traceback, nothing
    written."""
    assert res.returncode == 2, (res.returncode, res.stderr)
    assert "Traceback" not in res.stderr and "usage:" not in res.stderr, res.stderr
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    assert res.stdout == ""
    assert sorted(p.name for p in tmp.iterdir()) == ["wide.csv"]  # no out, no staging directory
    return lines[0]


@pytest.mark.parametrize("field,value,toml,cli_args", BAD, ids=[b[0] for b in BAD])
def test_cli_rejects_each_setting(tmp_path, field, value, toml, cli_args):
    option, text = cli_args
    one_error(
        tmp_path,
        report(tmp_path, option, text),
        SPELLING["cli"][field],
        text,
        *allowed_words(field),
    )


CLI_CASES = [
    (
        ("--correction", "holmm"),
        (
            "error: --correction must be one of none, bonferroni, holm, bh, maxt; got 'holmm' (did "
            "you mean 'holm'?)",
        ),
    ),
    (("-B", "1e4"), ("-B/--bootstrap", "'1e4'", "(write it as 10000)")),
    (("-B", "true"), ("-B/--bootstrap", "'true'")),
    (("--alpha", "abc"), ("--alpha", "'abc'")),
    (("--jobs", "0"), ("--jobs", ">= 1", "0")),
    (("--jobs", "two"), ("--jobs", "'two'")),
    (("--decimals", "12"), ("--decimals", "between 0 and 10", "12")),
    (("--diff-decimals", "x"), ("--diff-decimals", "'x'")),
    (
        ("--latex-style", "seplm"),
        ("--latex-style", "ceurart, ceurart-2col, sepln, acl", "did you mean 'sepln'"),
    ),
    (("--label-prefix", "a:b"), ("--label-prefix", "'a:b'")),
    (
        ("--format", "json,htm"),
        ("--format", "json, latex, html, pdf", "'htm'", "did you mean 'html'"),
    ),
    (("--figure-formats", "gif"), ("--figure-formats", "pdf, svg, png", "'gif'")),
]


@pytest.mark.parametrize("args,needles", CLI_CASES, ids=[" ".join(args) for args, _ in CLI_CASES])
def test_cli_one_error_line(tmp_path, args, needles):
    one_error(tmp_path, report(tmp_path, *args), *needles)


def test_cli_spec_error_names_the_file(tmp_path):
    spec_dir(tmp_path, "resamples = true")
    res = cli(tmp_path, "report", "c1", "-o", "out", "--format", "json")
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert res.stderr.strip().splitlines() == [
        f"error: {Path('c1') / 'competition.toml'}, line 8: [bootstrap] resamples must be a whole "
        "number >= 0; "
        f"got True"
    ]
    assert not (tmp_path / "out").exists()


def test_cli_aliases_canonicalised_in_results_json(tmp_path):
    res = report(
        tmp_path,
        "-B",
        "10_0",
        "--seed",
        "7",
        "--alpha",
        "0.1",
        "--correction",
        "fdr_bh",
        "--family",
        "vs_best",
    )
    assert res.returncode == 0, res.stderr
    s = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))["settings"]
    assert (s["bootstrap"], s["seed"], s["alpha"], s["correction"], s["family"]) == (
        100,
        7,
        0.1,
        "bh",
        "vs-best",
    )


def test_help_lists_the_allowed_values(capsys):
    from compreport.cli import main

    with pytest.raises(SystemExit):
        main(["report", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for table in (vocab.CI_METHODS, vocab.TESTS, vocab.FAMILIES, vocab.CORRECTIONS):
        assert ", ".join(table) in text.replace(
            "- ", "-"
        )  # argparse may wrap "all-pairs" after the dash
