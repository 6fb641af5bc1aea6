"""Codabench's bulk download of submissions, read as it is.

On a Codabench competition's submissions page, an organizer selects submissions and downloads
them at once. The server lists them (``src/apps/api/views/submissions.py`` of
``codalab/codabench``, ``SubmissionViewSet.download_many``), naming each::

    f"{sub.id}_{sub.owner}_PhaseId{sub.phase.id}_{created_when:%Y-%m-%d:%M-%S}_{file name}"

(the owner is the user name, the file name the one uploaded). The browser
(``src/static/riot/competitions/detail/submission_manager.tag``, ``bulk_download``) fetches each
into one ``bulk_submissions.zip``, under that name with ``:``, ``/`` and ``\\`` replaced by ``_``
(``12_alice_PhaseId3_2025-03-14_05-09_predictions.zip``), and adds ``failed.txt``
(``The following submissions failed to download:``, then ``<name> (<reason>)`` a line) when some
could not be fetched. Every submission is a zip holding the prediction file.

:func:`codabench_runs` reads such a download given as ``--runs``: the zip itself, a folder holding
such zips (``bulk_submissions*.zip``), or the folder it was unzipped into. Each submission of the
chosen phase is one run named ``<owner>.<k>`` (``k`` = 1, 2, ... in submission-id order among the
owner's submissions of the phase), of team ``<owner>``; with ``submissions="last"`` only the
highest id of each owner is kept (keeping its ``k``). The submissions' bytes go to the run reader
(:func:`~compreport.inputs.records.read_file`), which takes the prediction file out of each
(its one prediction file, or ``--zip-member``).

The names come from participants: an archive member that leaves the archive (``../x``, ``/x``),
a name not in Codabench's form, an owner with control characters, a submission that is not a zip,
two different submissions under one id, one id given to two owners (or two phases), and selected
submissions larger than the zip member limit are one :class:`~compreport.errors.InputError` each,
naming members escaped (:func:`~compreport.errors.printable`: a U+2028 in a name does not break
the line); an owner that would be unsafe as a file name (``con``, ``..x``) is one note (the report
names files by a safe slug); ``failed.txt`` is one note naming the submissions it lists, cut as
every message is (:func:`~compreport.errors.capped`).

A zip is a bulk download by its members' naming alone (:func:`_is_bulk`): a run zip that holds
a ``failed.txt`` beside its prediction file is a run, read as any other.
"""

from __future__ import annotations

import fnmatch
import io
import os
import re
import unicodedata
import zipfile
from dataclasses import dataclass

from compreport.errors import InputError, excerpt, note, option, os_reason, printable
from compreport.inputs.delimited import not_a_file, read_bytes, shown, text_name
from compreport.inputs.records import _ZIP_MEMBER_LIMIT as ZIP_MEMBER_LIMIT
from compreport.inputs.runfiles import RunFile

#: A submission as Codabench names it in a bulk download (after ``:`` ``/`` ``\\`` -> ``_``).
NAMING = re.compile(
    r"(?P<id>\d{1,18})_(?P<owner>.+?)_PhaseId(?P<phase>\d{1,18})_"
    r"(?P<date>\d{4}-\d\d-\d\d_\d\d-\d\d)_(?P<file>.+)",
    re.DOTALL,
)
#: The same name as the server gives it (``failed.txt`` lists these; the date holds a ``:``).
_LISTED = re.compile(
    r"(?P<id>\d{1,18})_(?P<owner>.+?)_PhaseId(?P<phase>\d{1,18})_"
    r"(?P<date>\d{4}-\d\d-\d\d[:_]\d\d-\d\d)_(?P<file>.+?)(?: \((?P<reason>[^()]*)\))?",
    re.DOTALL,
)
#: The part after the owner, found twice in an ambiguous name.
_AFTER_OWNER = re.compile(r"_PhaseId\d{1,18}_\d{4}-\d\d-\d\d_\d\d-\d\d_")
#: The file of failed downloads and its first line.
FAILED = "failed.txt"
_FAILED_HEAD = "The following submissions failed to download:"
#: How a browser names a bulk download (a second one: ``bulk_submissions (1).zip``).
_BULK_GLOB = "bulk_submissions*.zip"
#: Windows device names, which no file may be called.
_DEVICES = frozenset(
    {
        "con",
        "prn",
        "aux",
        "nul",
        *(f"com{i}" for i in range(10)),
        *(f"lpt{i}" for i in range(10)),
    }
)


@dataclass
class Submission:
    """One submission of a bulk download.

    Attributes
    ----------
    id, phase : int
        Codabench's submission id and phase id.
    owner : str
        The user who submitted it.
    where : str
        How messages name it: ``bulk_submissions.zip:<name>``, or its file in an unzipped folder.
    container : str
        The file on disk that holds it (the bulk zip, or the submission's own file).
    name : str
        Its name in Codabench's form.
    size : int
        Its size in bytes (uncompressed).
    read : callable
        Returns its bytes.
    """

    id: int
    phase: int
    owner: str
    where: str
    container: str
    name: str
    size: int
    read: object


def _parse(name: str, where: str) -> re.Match | None:
    """``name`` split into Codabench's fields; None when it is not in Codabench's form.

    Raises
    ------
    InputError
        When the form is found twice in it (an owner or file name holding ``_PhaseId<n>_<date>_``),
        so the owner cannot be told, or the owner holds control characters.

    >>> _parse("12_ana_maria_PhaseId3_2025-03-14_05-09_sub.zip", "x")["owner"]
    'ana_maria'
    """
    m = NAMING.fullmatch(name)
    if m is None:
        return None
    if len(_AFTER_OWNER.findall(name)) > 1:
        raise InputError(
            f"{where}: the name holds `_PhaseId<n>_<date>_` twice, so its owner cannot be told; "
            f"unzip the download and rename the file `<id>_<owner>_PhaseId<n>_<date>_<file>` "
            f"with its true owner"
        )
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in m["owner"]):
        raise InputError(
            f"{where}: owner {excerpt(m['owner'])} holds control characters; a Codabench user "
            f"name cannot, and it would name a run and a team"
        )
    return m


def _unsafe(owner: str) -> str | None:
    """Why ``owner`` would be unsafe as a file name as it is; None when it is safe."""
    stem = owner.split(".")[0].strip().lower()
    if owner.startswith("."):
        return "it starts with a dot"
    if stem in _DEVICES:
        return "a Windows device name"
    if owner != owner.rstrip(". "):
        return "it ends with a dot or a space"
    if any(c in '<>:"|?*\\/' for c in owner):
        return "it holds a character Windows refuses in file names"
    return None


def _member_path(bulk: str, name: str) -> tuple[str, str]:
    """A bulk zip member's folder and base name; a path that leaves the archive is an error."""
    parts = name.replace("\\", "/").split("/")
    if name.startswith(("/", "\\")) or ".." in parts or re.match(r"[A-Za-z]:", name):
        raise InputError(
            f"{shown(bulk)}: member {excerpt(name)} leads out of the archive (a zip slip); "
            f"Codabench writes no folders into its bulk download"
        )
    return "/".join(parts[:-1]), parts[-1]


def _ignored(base: str, parts: list[str]) -> bool:
    """Hidden files and ``__MACOSX`` (an archive re-made on a Mac): not submissions."""
    return base.startswith(".") or "__MACOSX" in parts or base == ""


def _is_bulk(archive: zipfile.ZipFile, infos: list[zipfile.ZipInfo]) -> bool:
    """Whether a zip is a Codabench bulk download, by its members' naming: some member is named as
    Codabench names a submission, or its only members are ``failed.txt`` files opening with
    Codabench's line (a download of which nothing could be fetched). A ``failed.txt`` beside other
    files (a run zip that holds one) does not make a download."""
    bases = []
    for info in infos:
        parts = re.split(r"[/\\]", info.filename)
        if not _ignored(parts[-1], parts):
            bases.append(parts[-1])
    if any(NAMING.fullmatch(b) for b in bases):
        return True
    if not bases or any(b != FAILED for b in bases):
        return False
    try:
        return all(
            archive.open(i)
            .read(len(_FAILED_HEAD) + 3)
            .decode("utf-8-sig", "replace")
            .split("\n", 1)[0]
            .strip()
            == _FAILED_HEAD
            for i in infos
            if i.filename.replace("\\", "/").split("/")[-1] == FAILED
        )
    except (zipfile.BadZipFile, NotImplementedError, OSError, RuntimeError, ValueError):
        return False


def _bulk_members(bulk: str, data: bytes, subs: list, failed: list) -> bool:
    """Add the submissions (and ``failed.txt`` texts) of the bulk zip ``bulk``; False when the
    zip is not a Codabench bulk download (:func:`_is_bulk`). Messages name a member
    ``<bulk>:<member>``, the member escaped (:func:`~compreport.errors.printable`)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = [i for i in archive.infolist() if not i.is_dir()]
    except (zipfile.BadZipFile, OSError, ValueError):
        return False
    if not _is_bulk(archive, infos):
        return False
    found, odd, failed_texts = [], [], []
    for info in infos:
        folder, base = _member_path(bulk, info.filename)
        if _ignored(base, folder.split("/")):
            continue
        where = f"{shown(bulk)}:{printable(info.filename)}"
        if base == FAILED:
            failed_texts.append((where, info))
            continue
        m = _parse(base, where)
        if m is None:
            odd.append(info.filename)
            continue

        def read(info=info, where=where) -> bytes:
            try:
                return archive.read(info)
            except (
                zipfile.BadZipFile,
                NotImplementedError,
                OSError,
                RuntimeError,
                ValueError,
            ) as e:
                raise InputError(f"{where}: cannot be read from the archive ({e})") from None

        found.append(
            Submission(
                int(m["id"]), int(m["phase"]), m["owner"], where, bulk, base, info.file_size, read
            )
        )
    if odd:
        raise InputError(
            f"{shown(bulk)}: member {excerpt(odd[0])} is not named as Codabench names a submission "
            f"(`<id>_<owner>_PhaseId<n>_<date>_<file>`)"
            + (f", nor are {len(odd) - 1} more" if len(odd) > 1 else "")
        )
    for where, info in failed_texts:
        if info.file_size > 1 << 20:
            raise InputError(f"{where}: {info.file_size} bytes; Codabench's list is a few lines")
        try:
            failed.append((where, archive.read(info).decode("utf-8", "replace")))
        except (zipfile.BadZipFile, NotImplementedError, OSError, RuntimeError, ValueError) as e:
            raise InputError(f"{where}: cannot be read from the archive ({e})") from None
    subs.extend(found)
    return True


def _from_folder(runs: str, subs: list, failed: list) -> bool:
    """Add the submissions of a folder: the files named as Codabench names submissions (an
    unzipped download), and those of the ``bulk_submissions*.zip`` in it; False when it holds
    neither.

    Hidden files, ``__MACOSX`` and ``README*`` are left out with one note; any other entry (a
    folder, a FIFO, a device, a dangling link, a file named otherwise) is an error naming it.
    """
    try:
        entries = sorted(os.scandir(runs), key=lambda e: e.name)
    except OSError:
        return False  # find_runs names the problem
    named = {e.name for e in entries if NAMING.fullmatch(e.name)}
    bulks = {e.name for e in entries if fnmatch.fnmatch(e.name, _BULK_GLOB)}
    if not named and not bulks:
        return False
    skipped = []
    for e in entries:
        full = os.path.join(runs, e.name)
        text_name(full)
        if _ignored(e.name, [e.name]) or e.name.lower().startswith("readme"):
            skipped.append(full)
            continue
        try:
            what = not_a_file(full, os.stat(full).st_mode)
        except OSError as exc:
            link = f" (a symbolic link to {shown(os.readlink(full))!r})" if e.is_symlink() else ""
            raise InputError(f"{shown(full)}{link}: {os_reason(exc)}") from None
        if what is not None:
            raise InputError(
                f"{shown(full)}: {what}; a submission in a Codabench download ({shown(runs)}) "
                f"must be a file"
            )
        if e.name in bulks:
            if not _bulk_members(full, read_bytes(full), subs, failed):
                raise InputError(
                    f"{shown(full)}: not a Codabench bulk download (no member named "
                    f"`<id>_<owner>_PhaseId<n>_<date>_<file>`)"
                )
        elif e.name in named:
            m = _parse(e.name, full)
            subs.append(
                Submission(
                    int(m["id"]),
                    int(m["phase"]),
                    m["owner"],
                    full,
                    full,
                    e.name,
                    os.stat(full).st_size,
                    lambda full=full: read_bytes(full),
                )
            )
        elif e.name == FAILED:
            failed.append((full, read_bytes(full).decode("utf-8", "replace")))
        else:
            raise InputError(
                f"{shown(full)}: in a Codabench download ({shown(runs)}), but neither a submission "
                f"named `<id>_<owner>_PhaseId<n>_<date>_<file>` nor a {_BULK_GLOB}"
            )
    if skipped:
        note(
            f"{runs}: {len(skipped)} file(s) that are not submissions left out: "
            f"{', '.join(skipped)}"
        )
    return True


def _cut(reason: str, most: int = 80) -> str:
    """A ``failed.txt`` reason (``HTTP 404``) as a note quotes it: its first ``most`` characters.

    >>> _cut("HTTP 404"), _cut("x" * 5000, 4)
    ('HTTP 404', 'xxxx... (5,000 characters)')
    """
    return reason if len(reason) <= most else f"{reason[:most]}... ({len(reason):,} characters)"


def _failed_note(failed: list, phase: int | None, kept: list[Submission], last: bool) -> None:
    """One note per ``failed.txt`` naming the submissions it lists (those of ``phase``, None:
    every phase; and lines not in Codabench's form), and under ``last``, the owners whose newest
    submission is one of them."""
    newest = {}
    for s in kept:
        newest[s.owner] = max(newest.get(s.owner, -1), s.id)
    for where, text in failed:
        lines = [x.strip() for x in text.splitlines() if x.strip() and x.strip() != _FAILED_HEAD]
        named, later = [], []
        for line in lines:
            m = _LISTED.fullmatch(line)
            if m is None:
                named.append(excerpt(line))
            elif phase is None or int(m["phase"]) == phase:
                reason = f", {_cut(m['reason'])}" if m["reason"] else ""
                named.append(f"{m['id']} by {excerpt(m['owner'])}{reason}")
                if last and int(m["id"]) > newest.get(m["owner"], 1 << 63):
                    later.append(m["owner"])
        if named:
            more = f", and {len(named) - 10} more" if len(named) > 10 else ""
            newer = (
                f"; the newest submission of {', '.join(map(excerpt, later))} is among them, so "
                f"an older one is used"
                if later
                else ""
            )
            of = "" if phase is None else f" of phase {phase}"
            note(
                f"{where}: {len(named)} submission(s){of} that Codabench failed to download are "
                f"not in the report: {'; '.join(named[:10])}{more}{newer}"
            )


def _one_per_id(subs: list[Submission]) -> list[Submission]:
    """``subs`` by submission id, each id once: the same submission found in two downloads is
    kept once.

    Raises
    ------
    InputError
        When one id names two owners or two phases (Codabench gives every submission its own
        id, so one of the two names was altered), or two different contents; the message names
        both files and both owners.
    """
    by_id: dict[int, Submission] = {}
    for s in sorted(subs, key=lambda s: s.id):
        other = by_id.setdefault(s.id, s)
        if other is s:
            continue
        if (other.owner, other.phase) != (s.owner, s.phase):
            raise InputError(
                f"{s.where}: submission {s.id} is owned by {excerpt(s.owner)} in phase "
                f"{s.phase}, but {other.where} gives the same id to {excerpt(other.owner)} in "
                f"phase {other.phase}; Codabench gives every submission its own id, so one name "
                f"was altered: remove or rename the wrong file"
            )
        if other.size != s.size or other.read() != s.read():
            raise InputError(
                f"{s.where}: submission {s.id} is also {other.where}, with other contents"
            )
    return list(by_id.values())


def codabench_runs(
    runs: str,
    phase: int | None = None,
    submissions: str | None = None,
    exclude: list[str] | None = None,
    named=None,
) -> list[RunFile] | None:
    """The runs of a Codabench bulk download, or None when ``runs`` is not one.

    Parameters
    ----------
    runs : str
        ``bulk_submissions.zip``, a folder holding such zips, or the folder it was unzipped into.
    phase : int, optional
        The phase id to read (``--phase``); needed when the download holds several.
    submissions : {"all", "last"}, optional
        Every submission (default), or the one of highest id of each owner.
    exclude : list of str, optional
        Globs (``--exclude``) matched against each submission's name and its run name.
    named : callable, optional
        ``named("phase", 7)``: how messages name the option and its value as the caller gave it
        (``--phase 7``, ``phase=7``, a spec's ``[data] phase``:
        :meth:`~compreport.inputs.parsed.ReadOptions.named`); default: as an option.

    Returns
    -------
    list of RunFile or None
        One per submission kept, by owner then id: ``name`` ``<owner>.<k>``, ``team`` the
        owner, ``data`` the submission's bytes (a zip), ``container`` the file holding it.

    Raises
    ------
    InputError
        See the module docstring; also several phases and no ``phase``, or a ``phase`` the
        download does not hold, both listing its phases; ``phase`` or ``submissions`` given for
        runs that are not a Codabench download.
    """
    runs = text_name(runs)
    named = named or option
    subs: list[Submission] = []
    failed: list[tuple[str, str]] = []
    if os.path.isdir(runs):
        found = _from_folder(runs, subs, failed)
    elif os.path.isfile(runs) and runs.lower().endswith(".zip"):
        found = _bulk_members(runs, read_bytes(runs), subs, failed)
    else:
        found = False
    if not found:
        for value, name in ((phase, "phase"), (submissions, "submissions")):
            if value is not None:
                raise InputError(
                    f"{named(name, value)} reads a Codabench bulk download (bulk_submissions.zip, "
                    f"or the folder it was unzipped into), and {shown(runs)} is not one"
                )
        return None
    last = submissions == "last"
    subs = _one_per_id(subs)
    phases: dict[int, int] = {}
    for s in subs:
        phases[s.phase] = phases.get(s.phase, 0) + 1
    listed = ", ".join(
        f"{p} ({n} submission{'s' if n > 1 else ''})" for p, n in sorted(phases.items())
    )
    if phase is None and len(phases) > 1:
        raise InputError(
            f"{shown(runs)}: the download holds submissions of {len(phases)} phases: {listed}; "
            f"choose one with {option('phase', 'N')}"
        )
    if phase is not None and phase not in phases:
        raise InputError(
            f"{shown(runs)}: no submission of phase {phase} ({named('phase', phase)}); its "
            f"phases: {listed or 'none'}"
        )
    if not subs:
        _failed_note(failed, phase, [], last)
        raise InputError(f"{shown(runs)}: the download holds no submission, only {FAILED}")
    chosen = phase if phase is not None else next(iter(phases))
    owners: dict[str, list[Submission]] = {}
    for s in subs:
        if s.phase == chosen:
            owners.setdefault(s.owner, []).append(s)
    kept = [
        (f"{owner}.{k}", s)
        for owner, mine in sorted(owners.items())
        for k, s in enumerate(mine, 1)
        if not last or k == len(mine)
    ]
    left = [
        (name, s)
        for name, s in kept
        if any(fnmatch.fnmatch(x, p) for p in exclude or [] for x in (s.name, name))
    ]
    if left:
        kept = [k for k in kept if k not in left]
        note(
            f"{shown(runs)}: {len(left)} submission(s) left out by {option('exclude')}: "
            f"{', '.join(name for name, _ in left[:5])}{', ...' if len(left) > 5 else ''}"
        )
    if not kept:
        raise InputError(f"{shown(runs)}: every submission of phase {chosen} is excluded")
    total = sum(s.size for _, s in kept)
    if total > ZIP_MEMBER_LIMIT:
        raise InputError(
            f"{shown(runs)}: the submissions of phase {chosen} hold {total} bytes; compreport "
            f"reads up to {ZIP_MEMBER_LIMIT} bytes of them"
        )
    out = []
    for name, s in kept:
        data = s.read()
        if data[:4] not in (b"PK\x03\x04", b"PK\x05\x06"):
            raise InputError(
                f"{s.where}: not a zip archive; a Codabench submission is a zip holding the "
                f"prediction file"
            )
        out.append(RunFile(s.where, s.name, name, s.owner, data=data, container=s.container))
    unsafe = [(o, why) for o in dict.fromkeys(s.owner for _, s in kept) if (why := _unsafe(o))]
    if unsafe:
        note(
            f"{shown(runs)}: owner name(s) unsafe as file names, kept as the names of runs and "
            f"teams (files named after them use a safe form): "
            + "; ".join(f"{excerpt(o)} ({why})" for o, why in unsafe)
        )
    _failed_note(failed, chosen, [s for _, s in kept], last)
    return out
