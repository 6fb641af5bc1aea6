"""Codabench's bulk download (``bulk_submissions.zip``) read as it is: each case and its twin.

The downloads are made here as Codabench makes them (``download_many`` names each submission
``<id>_<owner>_PhaseId<phase>_<date %Y-%m-%d:%M-%S>_<file>``; the browser replaces ``:``, ``/``
and ``\\`` by ``_`` and adds ``failed.txt``), and read through the command line (one ``error:``
line, exit 2, nothing written) or ``cr.load``. Scores are checked against scikit-learn on the
same predictions.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import struct
import warnings
import zipfile
from datetime import datetime
from pathlib import Path

import numpy as np
import pytest
from sklearn import metrics as sk

import compreport as cr
from compreport.errors import InputError, Note
from conftest import run_cli

RNG = np.random.default_rng(28)
N = 80
LABELS = ["pos", "neg", "neu"]
GOLD = [str(x) for x in RNG.choice(LABELS, N)]
IDS = [f"t{i:03d}" for i in range(N)]


def predictions(quality: float, seed: int) -> list[str]:
    """A run that copies the gold with probability ``quality``, else guesses."""
    rng = np.random.default_rng(seed)
    return [g if rng.random() < quality else str(rng.choice(LABELS)) for g in GOLD]


def tsv(preds: list[str]) -> str:
    return "id\tlabel\n" + "".join(f"{i}\t{p}\n" for i, p in zip(IDS, preds, strict=True))


def submission(preds: list[str] | None, members: dict[str, str | bytes] | None = None) -> bytes:
    """A submission zip as a participant uploads it: ``predictions.tsv`` (and ``members``)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        if preds is not None:
            z.writestr("predictions.tsv", tsv(preds))
        for name, data in (members or {}).items():
            z.writestr(name, data)
    return buf.getvalue()


def server_name(sid: int, owner: str, phase: int, when: datetime, file: str) -> str:
    """The name ``download_many`` gives a submission (before the browser's replacements)."""
    return f"{sid}_{owner}_PhaseId{phase}_{when.strftime('%Y-%m-%d:%M-%S')}_{file}"


def browser_name(name: str) -> str:
    """``file.name.replace(/[:/\\\\]/g, "_")``, as ``bulk_download`` stores it."""
    return re.sub(r"[:/\\]", "_", name)


#: (id, owner, phase, quality): 3 owners, 6 submissions, ids out of owner order.
SUBMISSIONS = [
    (101, "alice", 7, 0.55),
    (102, "bob_lab", 7, 0.70),
    (105, "alice", 7, 0.80),
    (110, "carol", 7, 0.60),
    (111, "bob_lab", 7, 0.75),
    (120, "bob_lab", 7, 0.90),
]
#: The names each gets: owner.k in submission-id order per owner.
NAMES = {101: "alice.1", 105: "alice.2", 102: "bob_lab.1", 111: "bob_lab.2", 120: "bob_lab.3"}
NAMES[110] = "carol.1"
WHEN = datetime(2025, 3, 14, 10, 5, 9)
FAILED = server_name(130, "dave", 7, WHEN, "sub.zip") + " (HTTP 404)"


def entries(subs=SUBMISSIONS) -> list[tuple[str, bytes]]:
    """The members of a bulk download holding ``subs``: (name, bytes)."""
    return [
        (browser_name(server_name(sid, owner, phase, WHEN, "submission.zip")), data)
        for sid, owner, phase, q in subs
        for data in [submission(predictions(q, sid))]
    ]


def bulk(
    path: Path,
    members: list[tuple[str, bytes]] | None = None,
    failed: list[str] | None = (FAILED,),
) -> Path:
    """``bulk_submissions.zip`` as the browser writes it (JSZip: stored members, failed.txt)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as z:
        for name, data in entries() if members is None else members:
            z.writestr(name, data)
        if failed:
            z.writestr(
                "failed.txt",
                "The following submissions failed to download:\n\n" + "\n".join(failed),
            )
    return path


def gold(tmp: Path) -> Path:
    path = tmp / "gold.tsv"
    path.write_text(tsv(GOLD), encoding="utf-8")
    return path


def expected(sid: int) -> tuple[float, float]:
    """scikit-learn's accuracy and macro F1 of submission ``sid``."""
    q = next(q for s, _, _, q in SUBMISSIONS if s == sid)
    p = predictions(q, sid)
    return sk.accuracy_score(GOLD, p), sk.f1_score(GOLD, p, average="macro")


def load(tmp: Path, runs: Path, **kw):
    """``cr.load`` of the gold and ``runs``, with the notes it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        data = cr.load(str(gold(tmp)), runs=str(runs), metrics="accuracy,macro_f1", **kw)
    return data.competitions[0], [str(w.message) for w in caught if w.category is Note]


def cli(tmp: Path, *args: str):
    """``compreport report gold.tsv ARGS`` in ``tmp``, into a fresh ``out``."""
    gold(tmp)
    shutil.rmtree(tmp / "out", ignore_errors=True)
    return run_cli(
        tmp, "report", "gold.tsv", *args, "--metric", "accuracy,macro_f1", "-o", "out", "-B",
        "30", "--format", "json",
    )  # fmt: skip


def bad(tmp: Path, res, *needles: str) -> str:
    """One ``error:`` line holding every needle, exit 2, no traceback, OUT not written."""
    lines = [x for x in res.stderr.splitlines() if x.strip()]
    errors = [x for x in lines if x.startswith("error: ")]
    assert res.returncode == 2 and len(errors) == 1, res.stderr
    assert all(x.startswith(("error: ", "note: ", "warning: ")) for x in lines), res.stderr
    for needle in needles:
        assert needle in errors[0], (needle, errors[0])
    assert not (tmp / "out").exists()
    return errors[0]


def good(tmp: Path, res) -> dict:
    """Exit 0 with only notes and warnings; the first competition of results.json."""
    assert res.returncode == 0, res.stderr
    assert all(
        x.startswith(("note: ", "warning: ")) for x in res.stderr.splitlines() if x.strip()
    ), res.stderr
    return json.loads((tmp / "out" / "results.json").read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- the download


def test_bulk_download_runs_teams_and_exact_scores(tmp_path):
    """The issue's "done when": 3 owners, 6 submissions and a failed.txt give 6 runs owner.k,
    3 teams, the scores scikit-learn gives, and one note naming the failed submission."""
    comp, notes = load(tmp_path, bulk(tmp_path / "bulk_submissions.zip"))
    assert sorted(comp.systems) == sorted(NAMES.values())
    assert comp.teams == {name: name.split(".")[0] for name in NAMES.values()}
    assert len(set(comp.teams.values())) == 3
    analysis = cr.analyze(comp, bootstrap=30)
    ca = analysis.competitions[0]
    for sid, name in NAMES.items():
        acc, f1 = expected(sid)
        assert ca.metric("accuracy").score_of(name).score == pytest.approx(acc, abs=1e-12)
        assert ca.metric("macro_f1").score_of(name).score == pytest.approx(f1, abs=1e-12)
    (failed,) = [n for n in notes if "failed to download" in n]
    assert "1 submission(s) of phase 7" in failed and "130 by 'dave', HTTP 404" in failed
    assert str(tmp_path / "bulk_submissions.zip") in failed


def test_bulk_download_on_the_command_line(tmp_path):
    bulk(tmp_path / "bulk_submissions.zip")
    res = cli(tmp_path, "--runs", "bulk_submissions.zip")
    results = good(tmp_path, res)
    comp = results["competitions"][0]
    scores = {s["system"]: s["score"] for s in comp["metrics"][0]["scores"]}
    assert scores == pytest.approx({name: expected(sid)[0] for sid, name in NAMES.items()})
    assert comp["teams"] == {name: name.split(".")[0] for name in NAMES.values()}
    assert "note: bulk_submissions.zip:failed.txt: 1 submission(s)" in res.stderr
    # the bulk zip is the input recorded, once, with its checksum
    paths = [i["path"] for i in comp["inputs"]]
    assert paths.count("bulk_submissions.zip") == 1 and len(paths) == 2


def test_unzipped_download_reads_the_same(tmp_path):
    folder = tmp_path / "bulk_submissions"
    with zipfile.ZipFile(bulk(tmp_path / "b.zip")) as z:
        z.extractall(folder)
    comp, notes = load(tmp_path, folder)
    assert sorted(comp.systems) == sorted(NAMES.values())
    assert any("130 by 'dave'" in n for n in notes)
    zipped, _ = load(tmp_path, tmp_path / "b.zip")
    order = [zipped.systems.index(s) for s in comp.systems]
    assert np.array_equal(comp.predictions, zipped.predictions[order])


def test_unzipped_download_with_a_fifo(tmp_path):
    """A FIFO planted under a submission's name is refused, never read (nor waited for)."""
    folder = tmp_path / "dl"
    with zipfile.ZipFile(bulk(tmp_path / "b.zip")) as z:
        z.extractall(folder)
    name = entries()[0][0]
    (folder / name).unlink()
    os.mkfifo(folder / name)
    err = bad(tmp_path, cli(tmp_path, "--runs", "dl"), f"dl/{name}: is a FIFO")
    assert "must be a file" in err
    (folder / name).unlink()
    (folder / name).write_bytes(entries()[0][1])
    assert len(good(tmp_path, cli(tmp_path, "--runs", "dl"))["competitions"][0]["systems"]) == 6


def test_folder_of_bulk_downloads(tmp_path):
    """Two downloads (the second saved as ``bulk_submissions (1).zip``) sharing one submission."""
    members = entries()
    bulk(tmp_path / "dl" / "bulk_submissions.zip", members[:4], failed=None)
    bulk(tmp_path / "dl" / "bulk_submissions (1).zip", members[3:])
    comp, _ = load(tmp_path, tmp_path / "dl")
    assert sorted(comp.systems) == sorted(NAMES.values())


def test_same_id_with_other_contents_is_an_error(tmp_path):
    members = entries()
    other = (members[0][0], submission(predictions(0.3, 9)))
    bulk(tmp_path / "dl" / "bulk_submissions.zip", members[:3], failed=None)
    bulk(tmp_path / "dl" / "bulk_submissions (1).zip", [other])
    with pytest.raises(InputError, match="submission 101 is also .*with other contents"):
        load(tmp_path, tmp_path / "dl")


def test_last_submission_per_owner(tmp_path):
    path = bulk(tmp_path / "bulk_submissions.zip")
    comp, _ = load(tmp_path, path, submissions="last")
    assert sorted(comp.systems) == ["alice.2", "bob_lab.3", "carol.1"]
    twin, _ = load(tmp_path, path, submissions="all")
    assert len(twin.systems) == 6


def test_last_when_the_newest_failed_to_download(tmp_path):
    failed = [server_name(125, "carol", 7, WHEN, "late.zip") + " (HTTP 500)"]
    comp, notes = load(tmp_path, bulk(tmp_path / "b.zip", failed=failed), submissions="last")
    assert "carol.1" in comp.systems
    (msg,) = [n for n in notes if "failed to download" in n]
    assert "the newest submission of 'carol' is among them" in msg


def test_several_phases_need_phase(tmp_path):
    subs = [*SUBMISSIONS, (200, "alice", 8, 0.9), (201, "erin", 8, 0.5)]
    bulk(tmp_path / "bulk_submissions.zip", entries(subs))
    err = bad(tmp_path, cli(tmp_path, "--runs", "bulk_submissions.zip"), "bulk_submissions.zip")
    assert "2 phases: 7 (6 submissions), 8 (2 submissions); choose one with --phase N" in err
    results = good(tmp_path, cli(tmp_path, "--runs", "bulk_submissions.zip", "--phase", "8"))
    assert sorted(results["competitions"][0]["systems"]) == ["alice.1", "erin.1"]
    err = bad(tmp_path, cli(tmp_path, "--runs", "bulk_submissions.zip", "--phase", "9"))
    assert "no submission of phase 9 (--phase 9); its phases: 7 (6 submissions), 8" in err


def test_phase_for_runs_that_are_not_a_download(tmp_path):
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "A.tsv").write_text(tsv(predictions(0.7, 1)), encoding="utf-8")
    err = bad(tmp_path, cli(tmp_path, "--runs", "runs", "--phase", "3"), "--phase 3 reads")
    assert "Codabench bulk download" in err and "and runs is not one" in err
    bad(tmp_path, cli(tmp_path, "--runs", "runs", "--submissions", "first"), "--submissions")
    assert good(tmp_path, cli(tmp_path, "--runs", "runs"))["competitions"][0]["systems"] == ["A"]


def test_an_ordinary_zip_run_is_not_a_download(tmp_path):
    """A folder of zipped runs and a single zip run are read as before."""
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "A.zip").write_bytes(submission(predictions(0.7, 1)))
    assert good(tmp_path, cli(tmp_path, "--runs", "runs"))["competitions"][0]["systems"] == ["A"]
    assert good(tmp_path, cli(tmp_path, "--runs", "runs/A.zip"))["competitions"][0]["systems"] == [
        "A"
    ]


def test_names_file_and_exclude(tmp_path):
    """A names file names the runs ``owner.k``; ``--exclude`` matches them or the file names."""
    bulk(tmp_path / "bulk_submissions.zip")
    (tmp_path / "names.tsv").write_text(
        "run\tname\tbaseline\nalice.1\tAlice first\tno\ncarol.1\tCarol\tyes\n",
        encoding="utf-8",
    )
    res = cli(
        tmp_path, "--runs", "bulk_submissions.zip", "--names", "names.tsv",
        "--exclude", "bob_lab.2", "--exclude", "120_*",
    )  # fmt: skip
    comp = good(tmp_path, res)["competitions"][0]
    assert sorted(comp["systems"]) == ["Alice first", "Carol", "alice.2", "bob_lab.1"]
    assert comp["baselines"] == ["Carol"]
    assert "2 submission(s) left out by --exclude: bob_lab.2, bob_lab.3" in res.stderr


def test_phase_for_a_wide_table(tmp_path):
    (tmp_path / "table.csv").write_text("y,A\na,a\nb,a\n", encoding="utf-8")
    res = run_cli(
        tmp_path, "report", "table.csv", "--metric", "accuracy", "--phase", "3", "-o", "out"
    )
    bad(tmp_path, res, "--phase applies to gold and run files (--runs), not to a wide table")


def test_a_bulk_name_that_is_not_a_download(tmp_path):
    bulk(tmp_path / "dl" / "bulk_submissions.zip")
    (tmp_path / "dl" / "bulk_submissions (2).zip").write_bytes(submission(GOLD))
    err = bad(tmp_path, cli(tmp_path, "--runs", "dl"), "bulk_submissions (2).zip")
    assert "not a Codabench bulk download" in err


def test_spec_keys(tmp_path):
    subs = [*SUBMISSIONS, (200, "alice", 8, 0.9), (201, "erin", 8, 0.5)]
    bulk(tmp_path / "bulk_submissions.zip", entries(subs))
    gold(tmp_path)
    spec = (
        'name = "T"\n[data]\ngold = "gold.tsv"\nruns = "bulk_submissions.zip"\nphase = 7\n'
        'submissions = "last"\n[[metrics]]\nname = "accuracy"\n'
    )
    (tmp_path / "competition.toml").write_text(spec, encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Note)
        data = cr.load(str(tmp_path / "competition.toml"))
    assert sorted(data.competitions[0].systems) == ["alice.2", "bob_lab.3", "carol.1"]


# --------------------------------------------------------------------------- hostile downloads


def test_inner_file_not_a_zip(tmp_path):
    members = entries()
    members[2] = (members[2][0], tsv(predictions(0.8, 105)).encode())
    bulk(tmp_path / "bulk_submissions.zip", members)
    err = bad(tmp_path, cli(tmp_path, "--runs", "bulk_submissions.zip"), "not a zip archive")
    assert "bulk_submissions.zip:105_alice_PhaseId7_2025-03-14_05-09_submission.zip" in err
    bulk(tmp_path / "bulk_submissions.zip")
    good(tmp_path, cli(tmp_path, "--runs", "bulk_submissions.zip"))


def test_two_prediction_files_in_one_submission(tmp_path):
    members = entries()
    members[1] = (
        members[1][0],
        submission(predictions(0.7, 102), {"other.tsv": tsv(predictions(0.1, 3))}),
    )
    bulk(tmp_path / "bulk_submissions.zip", members)
    err = bad(tmp_path, cli(tmp_path, "--runs", "bulk_submissions.zip"), "2 candidate prediction")
    assert "102_bob_lab_PhaseId7" in err and "--zip-member NAME" in err
    res = cli(tmp_path, "--runs", "bulk_submissions.zip", "--zip-member", "predictions.tsv")
    assert len(good(tmp_path, res)["competitions"][0]["systems"]) == 6


def test_zip_slip_member(tmp_path):
    members = entries()
    members[0] = ("../../" + members[0][0], members[0][1])
    bulk(tmp_path / "bulk_submissions.zip", members)
    err = bad(tmp_path, cli(tmp_path, "--runs", "bulk_submissions.zip"), "zip slip")
    assert "'../../101_alice_PhaseId7" in err
    # the twin: a download re-zipped with its folder
    bulk(tmp_path / "bulk_submissions.zip", [("bulk_submissions/" + n, d) for n, d in entries()])
    assert len(good(tmp_path, cli(tmp_path, "--runs", "bulk_submissions.zip"))["competitions"][0][
        "systems"
    ]) == 6  # fmt: skip


def _claim_size(path: Path, member: str, size: int) -> None:
    """Rewrite the central directory of ``path`` so ``member`` claims ``size`` bytes
    uncompressed (a zip bomb's header: zipfile trusts it)."""
    data = bytearray(path.read_bytes())
    name = member.encode()
    at = data.find(b"PK\x01\x02")
    while at >= 0:
        n = struct.unpack_from("<H", data, at + 28)[0]
        if data[at + 46 : at + 46 + n] == name:
            struct.pack_into("<I", data, at + 24, size)
            path.write_bytes(bytes(data))
            return
        at = data.find(b"PK\x01\x02", at + 46)
    raise AssertionError(member)


def test_zip_bomb_sizes(tmp_path):
    path = bulk(tmp_path / "bulk_submissions.zip")
    _claim_size(path, entries()[3][0], 3 << 30)
    with zipfile.ZipFile(path) as z:  # what a reader is told
        assert max(i.file_size for i in z.infolist()) == 3 << 30
    err = bad(tmp_path, cli(tmp_path, "--runs", "bulk_submissions.zip"), "bulk_submissions.zip")
    assert "phase 7 hold 3221" in err and "reads up to 2147483648 bytes" in err
    bulk(tmp_path / "bulk_submissions.zip")
    good(tmp_path, cli(tmp_path, "--runs", "bulk_submissions.zip"))


def test_member_larger_than_it_claims(tmp_path):
    """A member whose header claims fewer bytes than it holds is read no further than the claim,
    and fails its checksum: one error naming it."""
    path = bulk(tmp_path / "bulk_submissions.zip")
    _claim_size(path, entries()[3][0], 100)
    err = bad(tmp_path, cli(tmp_path, "--runs", "bulk_submissions.zip"), "cannot be read")
    assert "bulk_submissions.zip:110_carol_PhaseId7" in err


def test_owner_with_control_characters(tmp_path):
    members = entries()
    members[0] = (members[0][0].replace("alice", "al\x1b[31mice"), members[0][1])
    bulk(tmp_path / "bulk_submissions.zip", members)
    err = bad(tmp_path, cli(tmp_path, "--runs", "bulk_submissions.zip"), "control characters")
    assert "'al\\x1b[31mice'" in err and "\x1b" not in err


@pytest.mark.parametrize(
    ("owner", "why"),
    [("con", "a Windows device name"), ("../x", "starts with a dot"), ("team.", "ends with")],
)
def test_owner_unsafe_as_a_file_name(tmp_path, owner, why):
    """``../x`` reaches the download as ``.._x`` (the browser replaces ``/``)."""
    subs = [(101, owner, 7, 0.5), (102, "bob_lab", 7, 0.7)]
    comp, notes = load(tmp_path, bulk(tmp_path / "b.zip", entries(subs), failed=None))
    stored = browser_name(owner)
    assert sorted(comp.systems) == sorted([f"{stored}.1", "bob_lab.1"])
    (msg,) = [n for n in notes if "unsafe as file names" in n]
    assert repr(stored) in msg and why in msg
    # the twin: safe owners, no note
    _, notes = load(tmp_path, bulk(tmp_path / "b.zip", entries(SUBMISSIONS[:2]), failed=None))
    assert not [n for n in notes if "unsafe" in n]


def test_member_not_named_as_codabench_names_it(tmp_path):
    bulk(tmp_path / "bulk_submissions.zip", [*entries(), ("notes.zip", submission(GOLD))])
    err = bad(tmp_path, cli(tmp_path, "--runs", "bulk_submissions.zip"), "'notes.zip'")
    assert "not named as Codabench names a submission" in err


def test_ambiguous_owner(tmp_path):
    owner = "eve_PhaseId7_2025-03-14_05-09_x"
    bulk(tmp_path / "bulk_submissions.zip", entries([*SUBMISSIONS, (140, owner, 7, 0.5)]))
    bad(tmp_path, cli(tmp_path, "--runs", "bulk_submissions.zip"), "owner cannot be told")


def test_only_failed_downloads(tmp_path):
    bulk(tmp_path / "bulk_submissions.zip", [])
    err = bad(tmp_path, cli(tmp_path, "--runs", "bulk_submissions.zip"), "no submission")
    assert "failed.txt" in err


# --------------------------------------------------------------------------- issue 41, items 6, 9


def test_one_id_for_two_owners_is_an_error_naming_both(tmp_path):
    """Two downloads giving submission 101 to alice and to mallory: before, one owner's run was
    dropped without a word; now one error names both files and both owners."""
    members = entries()
    mallory = (browser_name(server_name(101, "mallory", 7, WHEN, "submission.zip")), members[0][1])
    bulk(tmp_path / "dl" / "bulk_submissions.zip", members, failed=None)
    bulk(tmp_path / "dl" / "bulk_submissions (1).zip", [mallory], failed=None)
    err = bad(tmp_path, cli(tmp_path, "--runs", "dl"), "submission 101", "'alice'", "'mallory'")
    assert "bulk_submissions.zip:101_alice_PhaseId7" in err
    assert "bulk_submissions (1).zip:101_mallory_PhaseId7" in err
    # one id in two phases: the same
    other = (browser_name(server_name(101, "alice", 8, WHEN, "submission.zip")), members[0][1])
    bulk(tmp_path / "dl" / "bulk_submissions (1).zip", [other], failed=None)
    bad(tmp_path, cli(tmp_path, "--runs", "dl", "--phase", "7"), "in phase 8")
    # the twin: the same submission (same owner, same bytes) in both downloads is read once
    bulk(tmp_path / "dl" / "bulk_submissions (1).zip", [members[0]], failed=None)
    comp = good(tmp_path, cli(tmp_path, "--runs", "dl"))["competitions"][0]
    assert sorted(comp["systems"]) == sorted(NAMES.values())


def test_a_run_zip_holding_failed_txt_is_a_run(tmp_path):
    """A participant's run zip with a ``failed.txt`` beside its predictions is a run, not a
    Codabench download: given alone or in a folder, it asks for --zip-member, and is read with
    it."""
    (tmp_path / "runs").mkdir()
    data = submission(predictions(0.7, 1), {"failed.txt": "2 items failed to parse\n"})
    (tmp_path / "runs" / "A.zip").write_bytes(data)
    for runs in ("runs/A.zip", "runs"):
        err = bad(tmp_path, cli(tmp_path, "--runs", runs), "runs/A.zip", "--zip-member NAME")
        assert "2 candidate prediction files" in err and "Codabench" not in err
        res = cli(tmp_path, "--runs", runs, "--zip-member", "predictions.tsv")
        comp = good(tmp_path, res)["competitions"][0]
        assert comp["systems"] == ["A"]
        assert comp["metrics"][0]["scores"][0]["score"] == pytest.approx(
            sk.accuracy_score(GOLD, predictions(0.7, 1))
        )
    # the twin: a download of which only failed.txt came is still a download
    bulk(tmp_path / "bulk_submissions.zip", [])
    bad(tmp_path, cli(tmp_path, "--runs", "bulk_submissions.zip"), "holds no submission")


def test_member_names_escaped_in_messages(tmp_path):
    """A member under a folder named with U+2028 and U+200B: the error is one line, the
    characters escaped, in the message itself (the API) and on the terminal."""
    members = entries()
    members[2] = ("x\u2028y\u200b/" + members[2][0], b"not a zip")
    bulk(tmp_path / "bulk_submissions.zip", members)
    err = bad(tmp_path, cli(tmp_path, "--runs", "bulk_submissions.zip"), "not a zip archive")
    assert "bulk_submissions.zip:x\\u2028y\\u200b/105_alice_PhaseId7" in err
    assert "\u2028" not in err and "\u200b" not in err
    with pytest.raises(InputError) as exc:
        load(tmp_path, tmp_path / "bulk_submissions.zip")
    assert "x\\u2028y\\u200b/105_alice" in str(exc.value) and "\u2028" not in str(exc.value)
    # the twin: a folder named in plain (non-ASCII) letters is shown as it is
    members[2] = ("Iruñea/" + entries()[2][0], b"not a zip")
    bulk(tmp_path / "bulk_submissions.zip", members)
    bad(tmp_path, cli(tmp_path, "--runs", "bulk_submissions.zip"), "zip:Iruñea/105_alice")


def test_printable_escapes_line_separators_and_invisible_characters():
    from compreport.errors import printable

    assert printable("a\u2028b\u2029c\u200bd\u00ade") == "a\\u2028b\\u2029c\\u200bd\\xade"
    assert printable("x\u202ey") == "x\\u202ey"  # bidirectional controls, as before
    # the twin: letters, emoji sequences and the joiners of scripts that need them stay
    for kept in ("Iruñea", "👩\u200d🔬", "می\u200cخواهم", "日本語"):
        assert printable(kept) == kept


def test_a_long_failed_reason_is_cut(tmp_path):
    """A failed.txt reason of 5,000 characters: the note stays under MAX_MESSAGE and still names
    the submission and its owner."""
    from compreport.errors import MAX_MESSAGE

    reason = "HTTP 500 " + "A" * 5000
    failed = [server_name(130, "dave", 7, WHEN, "sub.zip") + f" ({reason})"]
    res = cli(tmp_path, "--runs", str(bulk(tmp_path / "bulk_submissions.zip", failed=failed)))
    good(tmp_path, res)
    (msg,) = [x for x in res.stderr.splitlines() if "failed to download" in x]
    assert len(msg) <= MAX_MESSAGE + len("note: ")
    assert "130 by 'dave', HTTP 500 AAA" in msg and "(5,009 characters)" in msg
    # the twin: a short reason is quoted whole
    res = cli(tmp_path, "--runs", str(bulk(tmp_path / "bulk_submissions.zip")))
    good(tmp_path, res)
    assert "130 by 'dave', HTTP 404" in res.stderr


def test_every_note_is_capped():
    from compreport.errors import MAX_MESSAGE, note

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        note("x" * 100_000)
        note("short")
    assert len(str(caught[0].message)) <= MAX_MESSAGE and "characters left out" in str(
        caught[0].message
    )
    assert str(caught[1].message) == "short"


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        ("phase = -1", "competition.toml, line 5: [data] phase must be a phase id"),
        ('submissions = "fist"', "competition.toml, line 5: [data] submissions must be one of"),
    ],
)
def test_spec_phase_and_submissions_named_with_the_spec(tmp_path, line, needle):
    bulk(tmp_path / "bulk_submissions.zip")
    gold(tmp_path)
    spec = (
        'name = "T"\n[data]\ngold = "gold.tsv"\nruns = "bulk_submissions.zip"\n{}\n'
        '[[metrics]]\nname = "accuracy"\n'
    )
    (tmp_path / "competition.toml").write_text(spec.format(line), encoding="utf-8")
    res = run_cli(tmp_path, "report", "competition.toml", "-o", "out", "-B", "30")
    err = bad(tmp_path, res, needle)
    assert "--phase" not in err and "--submissions" not in err
    # the twin: a good value reads
    good_line = "phase = 7" if "phase" in line else 'submissions = "last"'
    (tmp_path / "competition.toml").write_text(spec.format(good_line), encoding="utf-8")
    res = run_cli(
        tmp_path, "report", "competition.toml", "-o", "out", "-B", "30", "--format", "json"
    )
    assert good(tmp_path, res)["competitions"][0]["systems"]


def test_spec_phase_for_runs_that_are_not_a_download(tmp_path):
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "A.tsv").write_text(tsv(predictions(0.7, 1)), encoding="utf-8")
    gold(tmp_path)
    spec = 'name = "T"\n[data]\ngold = "gold.tsv"\nruns = "runs"\nphase = 7\n'
    (tmp_path / "competition.toml").write_text(
        spec + '[[metrics]]\nname = "accuracy"\n', encoding="utf-8"
    )
    res = run_cli(tmp_path, "report", "competition.toml", "-o", "out", "-B", "30")
    bad(tmp_path, res, "competition.toml, line 5: [data] phase = 7 reads a Codabench")
    # given on the command line, the option is named
    res = run_cli(tmp_path, "report", "competition.toml", "--phase", "3", "-o", "out", "-B", "30")
    bad(tmp_path, res, "--phase 3 reads a Codabench")


def _spec_with_resamples(tmp: Path, resamples: int) -> None:
    bulk(tmp / "bulk_submissions.zip")
    gold(tmp)
    (tmp / "competition.toml").write_text(
        'name = "T"\n[data]\ngold = "gold.tsv"\nruns = "bulk_submissions.zip"\n'
        f'[bootstrap]\nresamples = {resamples}\n[[metrics]]\nname = "accuracy"\n',
        encoding="utf-8",
    )


def test_spec_resamples_too_large_named_with_the_spec(tmp_path):
    """``[bootstrap] resamples`` that would not fit in memory: the error names the spec, its line
    and the key, where it said ``-B``; given on the command line or to analyze(), the option."""
    from compreport.stats.memory import available_memory

    if available_memory() is None:
        pytest.skip("no memory limit to check against here")
    _spec_with_resamples(tmp_path, 10**10)
    res = run_cli(tmp_path, "report", "competition.toml", "-o", "out")
    err = bad(tmp_path, res, "[bootstrap] resamples = 10000000000 (competition.toml, line 6)")
    assert "-B" not in err and "use a smaller [bootstrap] resamples (competition.toml" in err
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        data = cr.load(str(tmp_path / "competition.toml"))
        with pytest.raises(InputError, match=r"\[bootstrap\] resamples = 10000000000 \(") as exc:
            cr.analyze(data)
        assert str(tmp_path / "competition.toml") in str(exc.value)
        # the twin: the same value given to analyze() or on the command line is named as such
        with pytest.raises(InputError, match="bootstrap=10000000000 would need"):
            cr.analyze(data, bootstrap=10**10)
    res = run_cli(tmp_path, "report", "competition.toml", "-B", "10000000000", "-o", "out")
    err = bad(tmp_path, res, "-B 10000000000 would need")
    assert "[bootstrap]" not in err


def test_spec_resamples_too_small_named_with_the_spec(tmp_path):
    """The warning that B is too small for the correction to reject asks for more resamples
    where they were given: the spec's key, or -B."""
    _spec_with_resamples(tmp_path, 30)
    res = run_cli(tmp_path, "report", "competition.toml", "-o", "out", "--format", "json")
    good(tmp_path, res)
    assert "use [bootstrap] resamples = 300 (competition.toml, line 6) or more" in res.stderr
    shutil.rmtree(tmp_path / "out")
    res = run_cli(
        tmp_path, "report", "competition.toml", "-B", "30", "-o", "out", "--format", "json"
    )
    good(tmp_path, res)
    assert "use -B 300 or more" in res.stderr and "[bootstrap] resamples = 300" not in res.stderr
