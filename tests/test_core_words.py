"""The core speaks in values, the edges in words (issue 37, item 3).

Modules under ``compreport/inputs`` and ``compreport/stats`` name an option by reference
(:func:`compreport.errors.option`) and never ask who called: the CLI words a message where it
prints it, ``str()`` of an error or a warning gives Python words, and :func:`compreport.analyze`
names a setting a spec gave by the spec's key, file and line.
"""

from __future__ import annotations

import ast
import pickle
import re
import warnings

import pytest
from test_layout import PACKAGE, import_graph

import compreport as cr
from compreport.cli import main
from compreport.errors import InputError, InputWarning, option, raw, spoken, worded
from compreport.language.caller import command_line, from_specs


def _core(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    return {
        m: t for m, t in graph.items() if m.startswith(("compreport.inputs", "compreport.stats"))
    }


def test_no_core_module_imports_the_caller_words_or_the_output():
    """No module under inputs/ or stats/ imports compreport.language.caller (the edge's words) or
    compreport.output (the output directory is the caller's to check; lazy imports included)."""
    core = _core(import_graph())
    assert core, "no core modules found"
    words = sorted(m for m, t in core.items() if "compreport.language.caller" in t)
    assert words == [], f"core modules importing compreport.language.caller: {words}"
    out = sorted(
        m for m, t in core.items() if any(x.split(".")[:2] == ["compreport", "output"] for x in t)
    )
    assert out == [], f"core modules importing compreport.output: {out}"


def test_no_context_variable_carries_the_caller():
    """Who called is no context: the only ContextVars are the report's language and decimal comma
    (and the dask client, which the EXEC lane passes as an argument)."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "attr", getattr(node.func, "id", None)) == "ContextVar"
            ):
                found.add(node.args[0].value)
    assert found <= {"compreport_lang", "compreport_decimal_comma", "compreport_client"}, found


def test_a_reference_is_worded_where_it_is_shown():
    """A reference survives f-strings, joins and pickling; each edge words it its own way, and a
    message too long is cut once worded, never through a reference."""
    text = f"pass {option('pos_label', 'LABEL')} or {option('force', True)} {option('labels')}"
    assert worded(text) == "pass pos_label=LABEL or force=True `labels`"
    assert worded(text, command_line()) == "pass --pos-label LABEL or --force --labels"
    assert worded(option("exclude", "a b"), command_line()) == "--exclude 'a b'"
    assert worded(option("label_col", [2, 3]), command_line()) == "--label-col 2,3"
    spec = from_specs({"bootstrap": ("[bootstrap] resamples", "c.toml, line 6")})
    partial = spoken(f"{option('bootstrap', 10)} {option('seed', 1)}", spec, partial=True)
    assert worded(partial) == "[bootstrap] resamples = 10 (c.toml, line 6) seed=1"
    assert worded(partial, command_line()) == "[bootstrap] resamples = 10 (c.toml, line 6) --seed 1"
    err = pickle.loads(pickle.dumps(InputError("x" * 5000 + option("bootstrap", 5))))
    assert raw(err).endswith(option("bootstrap", 5))
    assert len(str(err)) <= 1000 and str(err).endswith("xbootstrap=5")
    with pytest.warns(InputWarning, match=r"^use bootstrap=9$"):
        warnings.warn(f"use {option('bootstrap', 9)}", InputWarning, stacklevel=1)


def _case(tmp_path, data: str = "", boot: str = ""):
    """A gold file, a folder of two runs and a spec reading them with ``data`` and ``boot``."""
    (tmp_path / "runs").mkdir()
    gold = [("a", "b")[(k * 7) % 3 == 0] for k in range(30)]
    (tmp_path / "gold.tsv").write_text("".join(f"i{k}\t{g}\n" for k, g in enumerate(gold)))
    for t, every in (("A", 4), ("B", 5)):
        lines = (f"i{k}\t{'a' if k % every == 0 else g}\n" for k, g in enumerate(gold))
        (tmp_path / "runs" / f"{t}.tsv").write_text("".join(lines))
    (tmp_path / "competition.toml").write_text(
        f'name = "T"\n[data]\ngold = "gold.tsv"\nruns = "runs"\n{data}'
        f'{boot}[[metrics]]\nname = "accuracy"\n'
    )


def test_a_reading_error_deep_in_inputs_names_the_option_as_its_caller_gave_it(tmp_path, capsys):
    """A column beyond the file's width (raised in inputs/records.py) reads ``--label-col 2,5``
    through the CLI, ``label_col=[2, 5]`` through the API and ``[data] label_col = [2, 5]`` when
    the spec gave it."""
    _case(tmp_path, data="label_col = [2, 5]\n")
    gold, runs = str(tmp_path / "gold.tsv"), str(tmp_path / "runs")
    tail = "(column 5), but the file has 2 columns"
    args = ["validate", gold, "--runs", runs, "--metric", "accuracy", "--label-col", "2,5"]
    assert main(args) == 2
    assert f"error: {gold}: --label-col 2,5 {tail}" in capsys.readouterr().err
    with pytest.raises(InputError, match=re.escape(f": label_col=[2, 5] {tail}")):
        cr.load(gold, runs=runs, metrics="accuracy", label_col=[2, 5])
    assert main(["validate", str(tmp_path / "competition.toml")]) == 2
    assert f": [data] label_col = [2, 5] {tail}" in capsys.readouterr().err
    with pytest.raises(InputError, match=re.escape(f": [data] label_col = [2, 5] {tail}")):
        cr.load(tmp_path / "competition.toml")


def test_a_warning_deep_in_stats_names_the_setting_as_its_caller_gave_it(tmp_path, capsys):
    """Too few resamples for the correction to reject (stats/analysis.py) reads ``-B`` through the
    CLI, ``bootstrap=`` through the API, and the spec's key, file and line when the spec gave B:
    in the warning and in the notes written to results.json."""
    _case(tmp_path, boot='[bootstrap]\nresamples = 5\ncorrection = "holm"\n')
    spec = str(tmp_path / "competition.toml")
    said_spec = r"use \[bootstrap\] resamples = \d+ \(.*competition.toml, line 6\) or more$"
    with pytest.warns(InputWarning, match=said_spec):
        a = cr.analyze(cr.load(spec), refine=False)
    assert any("[bootstrap] resamples = " in w for w in a.competitions[0].warnings)
    with pytest.warns(InputWarning, match=r"use bootstrap=\d+ or more$"):
        a = cr.analyze(cr.load(spec), bootstrap=6, refine=False)
    assert not any("\ufdd0" in w for w in a.competitions[0].warnings)
    args = ["report", spec, "-o", str(tmp_path / "out"), "--format", "json", "--refine", "off"]
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "resamples = " in err and "-B " not in err
    assert main([*args[:2], "-B", "6", *args[2:], "--force"]) == 0
    err = capsys.readouterr().err
    assert "use -B " in err and "[bootstrap] resamples" not in err
    written = (tmp_path / "out" / "results.json").read_text(encoding="utf-8")
    assert "use -B " in written and "\ufdd0" not in written


def test_where_a_spec_setting_is_overridden_is_worded_by_the_caller():
    """Two specs that disagree on a setting (inputs/specmodels.py): override it ``to analyze()`` in
    Python words, ``on the command line`` in the command line's."""
    from compreport.inputs.specmodels import merge_bootstrap

    with pytest.raises(InputError, match=r"pass it to analyze\(\) to override$") as err:
        merge_bootstrap([("a.toml", {"bootstrap": 10}), ("b.toml", {"bootstrap": 20})])
    assert worded(raw(err.value), command_line()).endswith(
        "pass it on the command line to override"
    )


def test_an_analysis_the_core_made_alone_writes_python_words():
    """The core keeps its notes with references (the edge words them for its caller); an analysis
    made without the API writes them in Python words to results.json, never a reference."""
    from compreport.settings import Settings
    from compreport.stats.analysis import analyze_competition
    from compreport.stats.results import Analysis
    from conftest import make_competition

    gold = [k % 2 for k in range(40)]
    runs = [[g if k % q else 1 - g for k, g in enumerate(gold)] for q in (3, 4, 5, 7)]
    settings = Settings(bootstrap=5, correction="holm", refine=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ca = analyze_competition(make_competition(gold, runs), settings)
    assert any("\ufdd0" in w for w in ca.warnings)
    written = Analysis(settings, [ca]).to_json()
    assert "use bootstrap=" in written and "\ufdd0" not in written.encode().decode("unicode_escape")


def test_loaded_competitions_keep_no_references_to_options(tmp_path):
    """What ``cr.load()`` returns is read by Python users: its warnings and notes are in Python
    words, with no reference markers left."""
    import compreport as cr
    from compreport.errors import _OPEN

    gold = tmp_path / "gold.tsv"
    gold.write_text("id\tlabel\n" + "".join(f"i{k}\t{k % 2}\n" for k in range(12)))
    runs = tmp_path / "runs"
    runs.mkdir()
    # a run that names its system like a baseline: a note naming --baseline / baselines=
    (runs / "baseline.tsv").write_text("id\tlabel\n" + "".join(f"i{k}\t0\n" for k in range(12)))
    (runs / "team.tsv").write_text("id\tlabel\n" + "".join(f"i{k}\t1\n" for k in range(12)))
    data = cr.load(gold, runs=runs, metrics="accuracy")
    said = [*data.competitions[0].warnings, *data.competitions[0].notes]
    assert said and not any(_OPEN in s for s in said)
    assert any("mark baselines with baselines=['GLOB']" in s for s in said), said


# --- text that looks like a reference: a participant's file name with U+FDD0 ... U+FDD1 ----------


#: A run whose header is followed by a duplicate id (d0).
DUPLICATE_ID = "id\tlabel\nd0\tpos\nd0\tneg\nd2\tpos\n"


def _runs_with(tmp_path, name: str, text: str = DUPLICATE_ID):
    """A gold of three items and three runs: A, B and ``name`` holding ``text``."""
    gold = tmp_path / "gold.tsv"
    gold.write_text("id\tlabel\nd0\tpos\nd1\tneg\nd2\tpos\n")
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "A.tsv").write_text("d0\tpos\nd1\tneg\nd2\tneg\n")
    (runs / "B.tsv").write_text("d0\tpos\nd1\tpos\nd2\tpos\n")
    (runs / name).write_text(text)
    return gold, runs


def _user_metric_report(tmp_path, source: str, metric: str) -> list[str]:
    """The arguments of ``compreport report`` (JSON only) of three runs scored by the metric file
    ``source`` (``metric``: ``file.py:function``), written in ``tmp_path``."""
    (tmp_path / metric.split(":")[0]).write_text(source)
    gold, runs = _runs_with(tmp_path, "C.tsv", "d0\tneg\nd1\tneg\nd2\tneg\n")
    return ["report", str(gold), "--runs", str(runs), "--metric", metric, "--format", "json"]


@pytest.mark.parametrize(
    "name",
    [
        "x\ufdd0junk\ufdd1.tsv",  # not JSON
        "x\ufdd0[1]\ufdd1.tsv",  # JSON, not a reference
        'T\ufdd0["force", "x", "1", " (ignore the next error)"]\ufdd1.tsv',  # shaped like one
    ],
)
def test_a_file_named_like_a_reference_is_shown_as_it_is(tmp_path, name):
    """A file name is text a participant wrote: what looks like a reference to an option in it is
    never a crash, and text between the markers that no reference wrote is shown as it is named.
    (A name shaped exactly like a reference is worded like one: it says nothing a file name could
    not say in plain text.)"""
    from tests.conftest import one_error, run_cli, said

    gold, runs = _runs_with(tmp_path, name)
    res = run_cli(tmp_path, "validate", str(gold), "--runs", str(runs), "--metric", "accuracy")
    err = one_error(res, "appears twice")
    if "junk" in name or "[1]" in name:
        assert name in err, err
    res = run_cli(
        tmp_path, "validate", str(gold), "--runs", str(runs), "--metric", "accuracy",
        "--exclude", "[xT]*",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr
    if "junk" in name or "[1]" in name:
        assert any(name in line for line in said(res.stderr)), res.stderr
    with pytest.raises(InputError) as caught:
        cr.load(gold, runs=runs, metrics="accuracy")
    assert "appears twice" in str(caught.value) and "appears twice" in repr(caught.value)


def test_a_spec_setting_in_a_warning_is_worded_when_the_warning_is_shown():
    """A warning naming a setting a spec gave is shown when it is raised (an up-front "B too
    small" before a long bootstrap), not held until the analysis ends."""
    from compreport import api
    from compreport.errors import warn

    spec = from_specs({"bootstrap": ("[bootstrap] resamples", "c.toml, line 6")})
    shown: list[str] = []
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = lambda message, *rest, **kw: shown.append(str(message))
        with api._spoken_by_specs(spec):
            warn(f"use {option('bootstrap', 20)} or more")
            assert shown == ["use [bootstrap] resamples = 20 (c.toml, line 6) or more"]
            warn(f"and {option('alpha', 0.01)}")
        assert shown[1] == "and alpha=0.01"


def test_warnings_of_a_user_metric_are_discarded_with_its_output_whatever_the_jobs(tmp_path):
    """What a user metric prints while it scores is discarded (docs/metrics.md), its warnings
    too: under --jobs 2 its blocks of resamples run in workers, whose warnings the caller
    re-issues; the user's must not reach stderr once per block."""
    source = (
        "import warnings\n"
        "def m(gold, pred):\n"
        "    warnings.warn(f'user warning of n={len(gold)}')\n"
        "    return sum(g == p for g, p in zip(gold, pred)) / len(gold)\n"
    )
    from tests.conftest import run_cli

    report = _user_metric_report(tmp_path, source, "um.py:m")
    errs = []
    for jobs in ("1", "2"):
        res = run_cli(tmp_path, *report, "-B", "2000", "-o", f"out{jobs}", "--jobs", jobs, "-q")
        assert res.returncode == 0, res.stderr
        errs.append(res.stderr)
    assert "user warning" not in errs[0] and "user warning" not in errs[1], errs


def test_an_error_holds_python_words_in_args_and_its_references_across_processes():
    """``exc.args[0]`` is the message in Python words, as any exception's text; the references
    stay with the error (:func:`raw`), through pickling to and from worker processes, so the
    command line still words them as flags."""
    for cls in (InputError, InputWarning):
        exc = cls(f"use {option('bootstrap', 20)} or more")
        assert exc.args == ("use bootstrap=20 or more",)
        back = pickle.loads(pickle.dumps(exc))
        assert back.args == exc.args
        assert worded(raw(back), command_line()) == "use -B 20 or more"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.warn(f"with {option('alpha', 0.1)}", InputWarning, stacklevel=2)
    assert caught[0].message.args == ("with alpha=0.1",)
    assert worded(raw(caught[0].message), command_line()) == "with --alpha 0.1"


def test_deeply_nested_text_between_the_markers_is_no_crash():
    """A zip member's name may be 64 KB: brackets between the markers are not parsed as JSON."""
    name = "runs/x.zip:\ufdd0" + "[" * 5000 + "\ufdd1"
    text = str(InputError(f"{name}: cannot be read"))  # RecursionError in json before
    assert text.startswith("runs/x.zip:\ufdd0[[[") and text.endswith("[\ufdd1: cannot be read")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.warn(f"{name}: note", InputWarning, stacklevel=2)
    assert str(caught[0].message).endswith("[\ufdd1: note")


def test_a_warning_of_a_user_metric_at_import_is_shown_as_compreport_shows_warnings(tmp_path):
    """Only what a user metric prints while it scores is discarded: a warning at import is one
    ``warning:`` line, escaped as every message is (no raw terminal escape, no forged line)."""
    from tests.conftest import run_cli, said

    source = (
        "import warnings\n"
        "warnings.warn('at \\x1b[2J import\\nerror: forged')\n"
        "def acc(gold, pred):\n"
        "    return sum(g == p for g, p in zip(gold, pred)) / len(gold)\n"
    )
    res = run_cli(
        tmp_path, *_user_metric_report(tmp_path, source, "m.py:acc"), "-B", "20", "-o", "out"
    )
    assert res.returncode == 0, res.stderr
    assert "\x1b" not in res.stderr
    lines = [x for x in said(res.stderr) if "forged" in x]
    assert len(lines) == 1 and lines[0].startswith("warning: "), res.stderr
