"""Hostile inputs, second round (issue 30), the reading side: what is not a file, parser limits,
messages. Every bad case has its good twin next to it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from conftest import COMP, GOLD, RUN_A, layout, run_cli, write

ROOT = Path(__file__).resolve().parent.parent


def report(tmp: Path, *args: str) -> subprocess.CompletedProcess:
    return run_cli(tmp, "report", *args, "-o", "out", "-B", "20", "--format", "json")


def runs_report(tmp: Path, *args: str, gold: str = "gold.tsv") -> subprocess.CompletedProcess:
    return report(tmp, gold, "--runs", "runs", "--metric", "accuracy", *args)


def process(tmp: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """``compreport report ARGS -o out -B 20 --format json`` in a real process, with a timeout:
    for what could block (a FIFO)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "compreport", "report", *args, "-o", "out", "-B", "20"]
        + ["--format", "json"],
        cwd=tmp,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def bad(tmp: Path, res: subprocess.CompletedProcess, *needles: str) -> str:
    """Exit 2, one ``error:`` line (others only ``warning:``/``note:``), no traceback, nothing
    written."""
    assert "Traceback" not in res.stderr, res.stderr
    assert res.returncode == 2, (res.returncode, res.stderr)
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("error: ")]
    assert len(errors) == 1, res.stderr
    assert all(line.startswith(("error: ", "warning: ", "note: ")) for line in lines), res.stderr
    for needle in needles:
        assert needle in errors[0], (needle, errors[0])
    assert res.stdout == ""
    assert not (tmp / "out").exists()
    return errors[0]


def good(tmp: Path, res: subprocess.CompletedProcess) -> dict:
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr
    return json.loads((tmp / "out" / "results.json").read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- 1. not a file

needs_dev = pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")


@needs_dev
def test_gold_that_is_dev_zero_is_refused_before_reading(tmp_path):
    layout(tmp_path)
    bad(tmp_path, runs_report(tmp_path, gold="/dev/zero"), "/dev/zero", "character device")


@needs_dev
def test_gold_linked_to_dev_zero_is_refused(tmp_path):
    layout(tmp_path)
    (tmp_path / "g.tsv").symlink_to("/dev/zero")
    bad(tmp_path, runs_report(tmp_path, gold="g.tsv"), "g.tsv", "character device")


def test_gold_linked_to_a_regular_file_is_read(tmp_path):
    layout(tmp_path)
    (tmp_path / "g.tsv").symlink_to(tmp_path / "gold.tsv")
    assert good(tmp_path, runs_report(tmp_path, gold="g.tsv"))["competitions"][0]["n"] == 4


@needs_dev
def test_run_linked_to_dev_urandom_in_a_submission_is_refused(tmp_path):
    layout(tmp_path)
    (tmp_path / "runs" / "evil.tsv").symlink_to("/dev/urandom")
    bad(
        tmp_path,
        runs_report(tmp_path),
        "runs/evil.tsv",
        "'/dev/urandom'",
        "character device",
        "must be a file",
    )


def test_run_linked_to_a_regular_file_is_read(tmp_path):
    layout(tmp_path)
    (tmp_path / "runs" / "sysC.tsv").symlink_to(tmp_path / "runs" / "sysA.tsv")
    comp = good(tmp_path, runs_report(tmp_path))["competitions"][0]
    assert len(comp["systems"]) == 3


@needs_dev
def test_spec_gold_that_is_a_device_is_refused(tmp_path):
    layout(tmp_path / "c1")
    write(tmp_path, "c1/competition.toml", COMP.replace('"gold.tsv"', '"/dev/zero"'))
    bad(tmp_path, report(tmp_path, "c1"), "/dev/zero", "character device")


def test_spec_gold_that_is_a_file_is_read(tmp_path):
    layout(tmp_path / "c1")
    write(tmp_path, "c1/competition.toml", COMP)
    assert good(tmp_path, report(tmp_path, "c1"))["competitions"][0]["n"] == 4


@needs_dev
def test_names_file_that_is_a_device_is_refused(tmp_path):
    layout(tmp_path)
    bad(tmp_path, runs_report(tmp_path, "--names", "/dev/zero"), "/dev/zero", "character device")


def test_names_file_is_read(tmp_path):
    layout(tmp_path)
    write(tmp_path, "names.tsv", "run\tname\nsysA\tAlpha\nsysB\tBeta\n")
    res = runs_report(tmp_path, "--names", "names.tsv")
    assert sorted(good(tmp_path, res)["competitions"][0]["systems"]) == ["Alpha", "Beta"]


@needs_dev
def test_emails_file_that_is_a_device_is_refused(tmp_path):
    layout(tmp_path)
    res = run_cli(
        tmp_path, "report", "gold.tsv", "--runs", "runs", "--metric", "accuracy", "-B", "20",
        "-o", "out", "--format", "json,pdf", "--emails", "/dev/zero",
    )  # fmt: skip
    bad(tmp_path, res, "/dev/zero", "character device")


def test_emails_file_is_read(tmp_path):
    from compreport.report.pages.emails import read_recipients

    # the good twin, without the LaTeX build the letters need (tests/test_letters.py builds them)
    path = write(tmp_path, "emails.tsv", "team\taddress\nAlpha\ta@example.org\n")
    assert [r.to for r in read_recipients(path).rows] == ["a@example.org"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_without_writer_in_runs_folder_is_refused_not_waited_for(tmp_path):
    layout(tmp_path)
    os.mkfifo(tmp_path / "runs" / "sysC.tsv")
    bad(tmp_path, process(tmp_path, "gold.tsv", "--runs", "runs", "--metric", "accuracy"),
        "runs/sysC.tsv", "FIFO", "must be a file")  # fmt: skip


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_without_writer_named_as_gold_is_empty_not_waited_for(tmp_path):
    layout(tmp_path)
    os.mkfifo(tmp_path / "g.tsv")
    res = process(tmp_path, "g.tsv", "--runs", "runs", "--metric", "accuracy", timeout=60)
    bad(tmp_path, res, "g.tsv", "empty")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_named_as_gold_with_a_writer_is_read(tmp_path):
    layout(tmp_path)
    fifo = tmp_path / "g.tsv"
    os.mkfifo(fifo)

    def feed():
        with open(fifo, "w", encoding="utf-8") as fh:  # waits for the reader
            fh.write(GOLD)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    proc = subprocess.Popen(
        [sys.executable, "-m", "compreport", "report", "g.tsv", "--runs", "runs", "--metric"]
        + ["accuracy", "-o", "out", "-B", "20", "--format", "json"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    out, err = proc.communicate(timeout=120)
    writer.join(timeout=5)
    res = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    assert good(tmp_path, res)["competitions"][0]["n"] == 4


def test_file_larger_than_the_cap_is_refused_before_reading(tmp_path):
    from compreport.inputs.delimited import MAX_FILE_BYTES as limit

    layout(tmp_path)
    with open(tmp_path / "huge.tsv", "wb") as fh:  # sparse: takes no disk
        fh.truncate(limit + (1 << 20))
    bad(tmp_path, runs_report(tmp_path, gold="huge.tsv"), "huge.tsv", "larger than the")


# --------------------------------------------------------------------------- 2. parser limits


def test_json_run_nested_100000_deep_is_one_error(tmp_path):
    layout(tmp_path)
    write(tmp_path, "runs/sysC.json", "[" * 100_000 + "]" * 100_000)
    bad(tmp_path, runs_report(tmp_path), "runs/sysC.json", "JSON nested too deeply")


def test_jsonl_run_line_nested_deeply_is_one_error_naming_the_line(tmp_path):
    layout(tmp_path)
    write(tmp_path, "runs/sysC.jsonl", '{"id": "1", "label": "a"}\n' + "[" * 100_000 + "\n")
    bad(tmp_path, runs_report(tmp_path), "runs/sysC.jsonl, line 2", "nested too deeply")


def test_json_run_nested_a_little_is_read(tmp_path):
    layout(tmp_path)
    write(tmp_path, "runs/sysC.json", '[["a"], "b", "a", "b"]'.replace('["a"]', '"a"'))
    assert len(good(tmp_path, runs_report(tmp_path))["competitions"][0]["systems"]) == 3


@pytest.mark.parametrize("value", ["[" * 50_000 + "]" * 50_000, "{a=" * 50_000 + "}" * 50_000])
def test_spec_nested_50000_deep_is_one_error(tmp_path, value):
    layout(tmp_path / "c1")
    write(tmp_path, "c1/competition.toml", f"x = {value}\n" + COMP)
    bad(tmp_path, report(tmp_path, "c1"), "competition.toml", "TOML nested too deeply")


def test_spec_seed_of_5000_digits_is_one_error_naming_the_line(tmp_path):
    layout(tmp_path / "c1")
    write(tmp_path, "c1/competition.toml", COMP + "[bootstrap]\nseed = " + "9" * 5000 + "\n")
    bad(tmp_path, report(tmp_path, "c1"), "competition.toml, line 9", "4,300 digits")


def test_spec_seed_of_30_digits_is_read(tmp_path):
    layout(tmp_path / "c1")
    write(tmp_path, "c1/competition.toml", COMP + "[bootstrap]\nseed = " + "9" * 30 + "\n")
    assert good(tmp_path, report(tmp_path, "c1"))["competitions"][0]["n"] == 4


def test_cli_seed_of_5000_digits_is_one_error(tmp_path):
    layout(tmp_path)
    bad(tmp_path, runs_report(tmp_path, "--seed", "9" * 5000), "--seed", "5,000 digits")


def test_cli_seed_of_30_digits_is_read(tmp_path):
    layout(tmp_path)
    good(tmp_path, runs_report(tmp_path, "--seed", "9" * 30))


def test_json_label_of_5000_digits_is_one_error_naming_the_line(tmp_path):
    layout(tmp_path)
    write(tmp_path, "runs/sysC.json", '{"1": "a",\n "2": ' + "9" * 5000 + ', "3": "a", "4": "b"}')
    bad(tmp_path, runs_report(tmp_path), "runs/sysC.json, line 2", "4,300 digits")


def test_long_label_and_id_in_a_tsv_run_are_text(tmp_path):
    """A 5,000-digit label in a TSV run is a wrong prediction (text, no int conversion); a
    5,000-digit id is an id not in gold, one error."""
    layout(tmp_path, sysB="1\t" + "9" * 5000 + "\n2\ta\n3\ta\n4\tb\n")
    good(tmp_path, runs_report(tmp_path))
    (tmp_path / "out").rename(tmp_path / "out1")
    layout(tmp_path, sysB="id\tlabel\n" + "9" * 5000 + "\ta\n2\tb\n3\ta\n4\ta\n")
    bad(tmp_path, runs_report(tmp_path), "runs/sysB.tsv", "not in the gold file")


# --------------------------------------------------------------------------- 3. structure


def test_workshop_with_no_competitions_is_one_error(tmp_path):
    layout(tmp_path / "c1")
    write(tmp_path, "c1/competition.toml", COMP)
    write(tmp_path, "ws/workshop.toml", 'name = "W"\ncompetitions = []\n')
    bad(tmp_path, report(tmp_path, "ws"), "workshop.toml", "'competitions' is empty", "[[comp")


def test_workshop_with_one_competition_is_read(tmp_path):
    layout(tmp_path / "c1")
    write(tmp_path, "c1/competition.toml", COMP)
    write(tmp_path, "ws/workshop.toml", 'name = "W"\n[[competitions]]\nspec = "../c1"\n')
    assert len(good(tmp_path, report(tmp_path, "ws"))["competitions"]) == 1


@pytest.mark.parametrize("name, sep", [("wide.csv", ","), ("wide.tsv", "\t")])
def test_empty_id_cell_in_a_wide_table_is_an_error_naming_the_row(tmp_path, name, sep):
    rows = [["id", "y", "A", "B"], ["1", "a", "a", "b"], ["", "b", "b", "b"], ["3", "a", "a", "a"]]
    write(tmp_path, name, "".join(sep.join(r) + "\n" for r in rows))
    res = report(tmp_path, name, "--metric", "accuracy")
    bad(tmp_path, res, f"{name}, line 3", "empty id", "'id'")


@pytest.mark.parametrize("name, sep", [("wide.csv", ","), ("wide.tsv", "\t")])
def test_wide_table_with_every_id_is_read(tmp_path, name, sep):
    rows = [["id", "y", "A", "B"], ["1", "a", "a", "b"], ["2", "b", "b", "b"], ["3", "a", "a", "a"]]
    write(tmp_path, name, "".join(sep.join(r) + "\n" for r in rows))
    comp = good(tmp_path, report(tmp_path, name, "--metric", "accuracy"))["competitions"][0]
    assert comp["n"] == 3


def test_spec_gold_that_is_etc_passwd_is_quoted_only_as_a_short_excerpt(tmp_path):
    layout(tmp_path / "c1")
    secret = "root:x:0:0:root:/root:/bin/bash"
    write(tmp_path, "c1/passwd", f"{secret}\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n")
    write(tmp_path, "c1/competition.toml", COMP.replace('"gold.tsv"', '"passwd"'))
    error = bad(tmp_path, report(tmp_path, "c1"), "c1/passwd", "(31 characters)")
    assert secret not in error and "daemon" not in error


def test_spec_gold_with_a_short_header_is_quoted_whole(tmp_path):
    layout(tmp_path / "c1")
    write(tmp_path, "c1/g.tsv", "doc\tlabel\n1\ta\n2\tb\n3\ta\n4\tb\n")
    write(tmp_path, "c1/competition.toml", COMP.replace('"gold.tsv"', '"g.tsv"'))
    bad(tmp_path, report(tmp_path, "c1"), "('doc', 'label')", "--id-col doc")


# --------------------------------------------------------------------------- 4. messages


def test_zip_with_10000_candidate_members_is_one_capped_line(tmp_path):
    import zipfile

    from compreport.errors import MAX_MESSAGE

    layout(tmp_path)
    with zipfile.ZipFile(tmp_path / "runs" / "sysC.zip", "w") as z:
        for k in range(10_000):
            z.writestr(f"predictions_{k:05d}.tsv", RUN_A)
    error = bad(tmp_path, runs_report(tmp_path), "runs/sysC.zip", "characters left out")
    assert len(error) <= MAX_MESSAGE + len("error: ")


def test_zip_with_two_candidate_members_is_listed_whole(tmp_path):
    import zipfile

    layout(tmp_path)
    with zipfile.ZipFile(tmp_path / "runs" / "sysC.zip", "w") as z:
        z.writestr("a.tsv", RUN_A)
        z.writestr("b.tsv", RUN_A)
    error = bad(tmp_path, runs_report(tmp_path), "runs/sysC.zip", "a.tsv", "b.tsv")
    assert "left out" not in error


def test_5000_digit_id_not_in_gold_is_quoted_as_an_excerpt(tmp_path):
    layout(tmp_path, sysB="id\tlabel\n" + "9" * 5000 + "\ta\n2\tb\n3\ta\n4\ta\n")
    error = bad(tmp_path, runs_report(tmp_path), "(5,000 characters)", "not in the gold file")
    assert len(error) < 200


def test_nfd_id_not_in_gold_is_shown_escaped_with_the_gold_id(tmp_path):
    write(tmp_path, "gold.tsv", GOLD.replace("\n1\t", "\ncaf\u00e9\t"))
    write(tmp_path, "runs/sysA.tsv", RUN_A.replace("\n1\t", "\ncafe\u0301\t"))
    bad(
        tmp_path,
        runs_report(tmp_path),
        "id 'cafe\\u0301' is not in the gold file",
        "(differs from gold id 'caf\u00e9' only by Unicode normalization)",
    )


def test_nfc_id_matching_the_gold_is_read(tmp_path):
    write(tmp_path, "gold.tsv", GOLD.replace("\n1\t", "\ncaf\u00e9\t"))
    for name, text in {"sysA": RUN_A, "sysB": RUN_A}.items():
        write(tmp_path, f"runs/{name}.tsv", text.replace("\n1\t", "\ncaf\u00e9\t"))
    assert good(tmp_path, runs_report(tmp_path))["competitions"][0]["n"] == 4


def test_unknown_id_without_a_normalization_twin_has_no_note(tmp_path):
    layout(tmp_path, sysB="id\tlabel\nzzz\ta\n2\tb\n3\ta\n4\ta\n")
    error = bad(tmp_path, runs_report(tmp_path), "id 'zzz' is not in the gold file")
    assert "normalization" not in error


# --------------------------------------------------------------------------- issue 41, item 6


def _tweets(tmp: Path, texts: dict[int, str], sep: str = "\t", suffix: str = "tsv") -> list[str]:
    """A gold of 20 raw tweets (``id``, ``text``, ``label``; tweet ``i`` is ``texts[i]`` if
    given) and a run that is right on every even item; the gold labels."""
    labels = ["pos" if i % 3 else "neg" for i in range(20)]
    lines = [sep.join(["id", "text", "label"])]
    lines += [sep.join([f"t{i}", texts.get(i, f"tweet {i}"), labels[i]]) for i in range(20)]
    (tmp / f"gold.{suffix}").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp / "runs").mkdir(exist_ok=True)
    run = "".join(
        f"t{i}\t{lab if i % 2 == 0 else ('neg' if lab == 'pos' else 'pos')}\n"
        for i, lab in enumerate(labels)
    )
    (tmp / "runs" / "A.tsv").write_text("id\tlabel\n" + run, encoding="utf-8")
    return labels


@pytest.mark.parametrize(
    "texts",
    [
        {5: '"oh no'},  # a quote that never closes: lines 7 to the end merged, then an error
        {5: '"oh no', 12: 'so "good"'},  # closes on line 14: 8 items merged into one
        {5: '"oh no', 12: 'never"'},  # closes at a line's end: the run blamed for t6..t12
    ],
)
def test_tsv_raw_tweet_quotes_do_not_merge_lines(tmp_path, texts):
    """A TSV's text column opening a quote it does not close on its line is read as it stands:
    20 items, the run's accuracy exactly 10/20, where lines merged into one item before."""
    _tweets(tmp_path, texts)
    res = runs_report(tmp_path, "--label-col", "label")
    comp = good(tmp_path, res)["competitions"][0]
    assert comp["n"] == 20
    assert comp["metrics"][0]["scores"][0]["score"] == pytest.approx(0.5)


def test_tsv_quotes_closed_on_their_line_read_as_before(tmp_path):
    """The twin: fields quoted and closed on one line (as pandas and R write a TSV) are unquoted
    as in a CSV, labels included."""
    labels = _tweets(tmp_path, {3: '"a ""quoted"" tweet"', 4: '"tab\tinside"'})
    gold = (tmp_path / "gold.tsv").read_text(encoding="utf-8")
    gold = gold.replace(f"\t{labels[0]}\n", f'\t"{labels[0]}"\n', 1)
    (tmp_path / "gold.tsv").write_text(gold, encoding="utf-8")
    comp = good(tmp_path, runs_report(tmp_path, "--label-col", "label"))["competitions"][0]
    assert comp["n"] == 20
    assert comp["metrics"][0]["scores"][0]["score"] == pytest.approx(0.5)


def test_csv_quote_that_never_closes_names_the_gold_and_its_line(tmp_path):
    """In a CSV a quote may span lines; one that never closes is an error naming the gold file and
    the line where it opens (line 7), not the run."""
    _tweets(tmp_path, {5: '"oh no'}, sep=",", suffix="csv")
    err = bad(tmp_path, runs_report(tmp_path, "--label-col", "label", gold="gold.csv"))
    assert err.startswith("error: gold.csv, line 7: a field opens a quote") and "runs" not in err
    # the twin: a CSV field quoted across two lines is one field, as CSV says
    _tweets(tmp_path, {5: '"oh\nno"'}, sep=",", suffix="csv")
    comp = good(tmp_path, runs_report(tmp_path, "--label-col", "label", gold="gold.csv"))
    assert comp["competitions"][0]["n"] == 20


def test_wide_tsv_raw_quote_does_not_merge_rows(tmp_path):
    """The wide layout reads its TSV by the same rule (read_table)."""
    texts = ['"oh no' if i == 2 else "x" for i in range(10)]
    rows = ["id\ttext\ty\tA"] + [f"{i}\t{texts[i]}\t{'a' if i % 2 else 'b'}\ta" for i in range(10)]
    (tmp_path / "table.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    res = report(tmp_path, "table.tsv", "--metric", "accuracy")
    comp = good(tmp_path, res)["competitions"][0]
    assert comp["n"] == 10 and comp["metrics"][0]["scores"][0]["score"] == pytest.approx(0.5)
