"""Which files are runs, what each run is called, and the names file.

:func:`find_runs` lists the run files of a folder (walked into its subfolders: one folder per
team) or a glob. ``README*``, ``*.md``, ``*.pdf``, names files (``*.xml``, ``names.*``,
``metadata.*``, ``metadata-public.*``), hidden files and ``__MACOSX`` are not runs and are left
out with one note; so are the gold file and the ``--names`` file when the glob matches them, and
what ``--exclude`` matches. Every other file is a run: one that cannot be read as a run is an
error, never skipped.

:func:`name_runs` names them: a run at the top of the runs folder by its file stem (its team read
from the stem by :func:`stem_teams`: ``UPV.run1``, ``X_run2``, ``X-run3``, ``Team.01``); a run in a
subfolder by that folder, its team, followed when the
team has several runs by what differs between their file names (``ECNU/subtask_A_primary.txt``
and ``ECNU/subtask_A_contrastive1.txt`` -> ``ECNU primary``, ``ECNU contrastive1``).

:func:`apply_names` applies a names file (CSV/TSV with a header: ``run``, and any of ``name``,
``team``, ``baseline``, ``exclude``; or XML, one element per run: :mod:`.namesxml`).

:func:`name_columns` does both for the system columns of a wide table: each column's team by
:func:`stem_teams` on its header, then the names file, whose ``run`` names a column.
"""

from __future__ import annotations

import fnmatch
import glob as _glob
import os
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import numpy as np

from compreport.errors import InputError, note, option, os_reason, suggest
from compreport.inputs.delimited import (
    decode,
    not_a_file,
    read_bytes,
    sha256,
    shown,
    split_fields,
    text_name,
)
from compreport.inputs.namesxml import read_xml_names


@dataclass
class RunFile:
    """One run file and what the report calls it.

    Attributes
    ----------
    path : str
        The file, as found (runs folder or glob joined with its place in it).
    rel : str
        Its path inside the runs folder (the glob's common folder), ``/``-separated.
    name : str
        The system name.
    team : str or None
        The team, when known (its folder, the stem (:func:`stem_teams`), the names file).
    baseline : bool
        Marked as a baseline by the names file.
    data : bytes or None
        The run's bytes when it is not a file of its own (a submission inside a Codabench bulk
        download, :mod:`.codabench`); None: read from ``path``.
    container : str or None
        The file on disk holding it when ``data`` is given (its checksum is recorded).
    column : bool
        A system column of a wide table (``path``), named by its header ``rel`` alone
        (:func:`name_columns`).
    """

    path: str
    rel: str
    name: str = ""
    team: str | None = None
    baseline: bool = False
    data: bytes | None = field(default=None, repr=False)
    container: str | None = None
    column: bool = False

    @property
    def stem(self) -> str:
        """The file name without its extension."""
        return Path(self.rel).stem


#: Stems of the names files a runs folder may hold beside the runs (``names.tsv``,
#: ``metadata-public.xml``): never runs.
NAMES_STEMS = ("names", "metadata", "metadata-public", "metadata_public")


def _not_a_run(name: str) -> bool:
    """README*, *.md, *.pdf and hidden files are documentation or clutter, not runs; an ``.xml``
    file or one of :data:`NAMES_STEMS` is a names file (runs are never XML)."""
    low = name.lower()
    return (
        name.startswith(".")
        or low.startswith("readme")
        or low.endswith((".md", ".pdf", ".xml"))
        or Path(low).stem in NAMES_STEMS
    )


def _same_file(a: str, b: str | None) -> bool:
    """Whether ``a`` and ``b`` (None: no file) are the same file, through links too."""
    if b is None:
        return False
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def runs_read(runs: str) -> list[str] | None:
    """How :func:`find_runs` reads ``runs``: None for a folder (walked whole); else the paths its
    glob matches, sorted, or ``[runs]`` when it exists and no match replaces it (a pipe, or a name
    a glob would read as a pattern: ``runs[v2]``). The check of an output directory reads runs the
    same way."""
    if os.path.isdir(runs):
        return None
    matches = sorted(_glob.glob(runs, recursive=True))
    return matches or ([runs] if os.path.lexists(runs) else [])


def find_runs(
    runs: str,
    gold: str | None = None,
    exclude: list[str] | None = None,
    names: str | None = None,
) -> list[RunFile]:
    """The run files of a folder (and its subfolders) or a glob, sorted by path.

    Parameters
    ----------
    runs : str
        A folder, a glob (``**`` spans folders), or one file (a pipe ``<(...)`` too).
    gold : str, optional
        The gold file: left out, with a note, when ``runs`` matches it.
    exclude : list of str, optional
        Globs (``--exclude``) matched against each file's path inside the runs folder and its name.
    names : str, optional
        The names file (``--names``): left out, with a note, when ``runs`` matches it.

    Raises
    ------
    InputError
        No run file, a folder that cannot be listed, a dangling symbolic link, a name that is not
        UTF-8.
    """
    runs = text_name(runs)
    listing = _Listing(runs)
    root = listing.read()
    files, excluded = _kept(listing.found, root, gold, names, exclude or [])
    _note_left_out(runs, listing.skipped, excluded)
    if not files:
        raise InputError(f"{runs}: no run files found")
    return files


@dataclass
class _Listing:
    """The files found under a runs folder or glob (``runs``), in the order found, and those that
    are not runs (``skipped``: README, hidden, ``__MACOSX``...)."""

    runs: str
    found: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)

    def read(self) -> str:
        """List every file of the folder or of what the glob matches (:func:`runs_read`); returns
        the runs folder, the root of each run's path inside it (a glob: the matches' common
        folder)."""
        matches = runs_read(self.runs)
        if matches is None:
            self.walk(self.runs)
            return self.runs
        for m in matches:
            if os.path.isdir(m):
                self.walk(m)
            else:
                self.file(m)
        if len(matches) == 1 and os.path.isdir(matches[0]):
            return matches[0]
        parents = [os.path.dirname(f) for f in self.found]
        if parents and len({os.path.isabs(p) for p in parents}) == 1:
            return os.path.commonpath(parents)
        return ""

    def walk(self, folder: str) -> None:
        """Every file in ``folder`` and its subfolders, by name; hidden ones and ``__MACOSX``
        skipped."""
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            raise InputError(f"{folder}: cannot list the run files ({os_reason(exc)})") from None
        for entry in entries:
            full = os.path.join(folder, entry.name)
            if entry.name == "__MACOSX" or entry.name.startswith("."):
                if os.path.normpath(full) not in self.seen:
                    self.seen.add(os.path.normpath(full))
                    self.skipped.append(full + ("/" if entry.is_dir() else ""))
            elif entry.is_dir():
                self.walk(full)
            else:
                self.file(full)

    def file(self, full: str) -> None:
        """One file: found once (a glob such as ``runs/**`` matches a folder and its files),
        skipped when it is not a run, refused when it is a dangling link or not a file."""
        name = os.path.basename(full)
        if os.path.normpath(full) in self.seen:
            return
        self.seen.add(os.path.normpath(full))
        if _not_a_run(name) or "__MACOSX" in Path(full).parts:
            self.skipped.append(full)
            return
        if os.path.islink(full) and not os.path.exists(full):
            raise InputError(
                f"{shown(full)}: a symbolic link to {shown(os.readlink(full))!r}, which does not "
                f"exist (a run file that is not there)"
            )
        if full != self.runs:  # found, not named: a pipe the user named (<(...)) is read
            _refuse_not_a_file(full, self.runs)
        self.found.append(full)


def _refuse_not_a_file(full: str, runs: str) -> None:
    """Refuse a run ``full`` found in ``runs`` that is not a regular file (a FIFO, a device)."""
    try:
        what = not_a_file(full, os.stat(full).st_mode)
    except OSError:
        what = None  # read_bytes names the problem
    if what is not None:
        link = f" (a symbolic link to {shown(os.readlink(full))!r})" if os.path.islink(full) else ""
        raise InputError(f"{shown(full)}{link}: {what}; a run in {shown(runs)} must be a file")


def _kept(
    found: list[str], root: str, gold: str | None, names: str | None, exclude: list[str]
) -> tuple[list[RunFile], list[str]]:
    """The runs among the files ``found`` (their paths inside ``root``), and the files
    ``exclude`` leaves out; the gold and the names file are left out with a note."""
    files, excluded = [], []
    for f in found:
        text_name(f)
        rel = PurePosixPath(Path(os.path.relpath(f, root) if root else f)).as_posix()
        if _same_file(f, gold):
            note(f"{f}: is the gold file, matched by {option('runs')}; it is not a run")
        elif _same_file(f, names):
            note(f"{f}: is the names file ({option('names')}); it is not a run")
        elif any(
            fnmatch.fnmatch(rel, pat)
            or fnmatch.fnmatch(os.path.basename(f), pat)
            or fnmatch.fnmatch(f, pat)
            for pat in exclude
        ):
            excluded.append(f)
        else:
            files.append(RunFile(f, rel))
    return files, excluded


def _note_left_out(runs: str, skipped: list[str], excluded: list[str]) -> None:
    """One note for the files of ``runs`` that are not runs, one for those ``--exclude`` left
    out."""
    if skipped:
        note(
            f"{runs}: {len(skipped)} file(s) that are not runs left out (README, .md, .pdf, "
            f"names files: .xml, names.*, metadata.*; hidden, __MACOSX): "
            f"{', '.join(skipped[:5])}{', ...' if len(skipped) > 5 else ''}"
        )
    if excluded:
        note(
            f"{runs}: {len(excluded)} run file(s) left out by {option('exclude')}: "
            f"{', '.join(excluded[:5])}{', ...' if len(excluded) > 5 else ''}"
        )


#: A run number after the word "run" (any case): ``X.run1``, ``X_run2``, ``X-run-3``, ``X run 4``.
_RUN_WORD = re.compile(r"(?P<team>.*?[^._\- ])[._\- ]+run[._\- ]?\d+", re.IGNORECASE)
#: A run number after a dot: ``X.1``, ``X.01``.
_DOT_NUMBER = re.compile(r"(?P<team>.*[^._\- ])\.(?P<run>\d+)")
#: A final ``_N``, ``-N`` (digits) or ``_A``, ``-A`` (one letter): ``Team_Nova_1``,
#: ``DeepSPIN-2``, ``AUUH_B``; a team only when several stems share ``TEAM``.
_SUFFIX = re.compile(r"(?P<team>.*[^._\- ])[_-](?:\d+|[A-Za-z])")


def _stem_forms(stems: list[str]) -> list[tuple[str, bool, bool] | None]:
    """Each stem's ``(TEAM, strong, suffix)`` (None: no form of :func:`stem_teams` matches):
    ``strong`` when the form makes a team of a lone stem, ``suffix`` when it is the final
    ``_N``/``-N``/``_A`` form."""
    found: list[tuple[str, bool, bool] | None] = []
    for stem in stems:
        word = _RUN_WORD.fullmatch(stem)
        dot = _DOT_NUMBER.fullmatch(stem)
        suffix = _SUFFIX.fullmatch(stem)
        if word:
            found.append((word["team"], True, False))
        elif dot:
            version = dot["team"][-1].isdigit() and not dot["run"].startswith("0")
            found.append((dot["team"], not version, False))
        elif suffix:
            found.append((suffix["team"], False, True))
        else:
            found.append(None)
    return found


def stem_teams(stems: list[str]) -> list[str | None]:
    """The team of each run named by a file stem in ``stems`` (None: a team of one).

    The one rule: a stem is ``TEAM`` followed by a run number, in one of three forms.

    - ``TEAM`` + separator + ``run`` + number, ``run`` in any case, the separator one or more of
      ``.``, ``_``, ``-`` or a space, and an optional one before the number: ``UPV-ELiRF.run1``,
      ``X_run2``, ``X-RUN-3``, ``X run 4``. The word ``run`` makes it a team even for a lone run.
    - ``TEAM.N`` (a dot and digits): a team unless it reads as a version number, a digit on each
      side of the dot: ``UPV.2``, ``Team03.01`` (zero-padded) and ``X1.1`` with ``X1.2`` (another
      stem with the same ``TEAM``, in any form) are teams; a lone ``GPT-3.5`` or ``v1.2`` is a
      system of its own.
    - ``TEAM`` + ``_`` or ``-`` + digits or one letter, at the end: ``Team_Nova_1``,
      ``DeepSPIN-2``, ``AUUH_B``. A team only when another stem has the same ``TEAM`` (in any
      form): ``Team_Nova_1`` to ``_3`` are team ``Team_Nova``, ``bert_2`` with ``bert_3`` team
      ``bert``; a lone ``X_1``, ``GPT-4`` or ``bert_2`` is a team of one, named as written.

    Any other stem is a team of one. ``TEAM`` keeps its case and is never empty. A runs folder per
    team, the ``team`` column of a names file and a Codabench download's owners take precedence
    over this rule (:func:`name_runs`, :func:`apply_names`); :func:`suffix_teams` says which teams
    the third form made.

    Examples
    --------
    >>> stem_teams(["UPV-ELiRF.run1", "X_run2", "X-RUN-3", "Team.01", "GPT-3.5", "bert_2"])
    ['UPV-ELiRF', 'X', 'X', 'Team', None, None]
    >>> stem_teams(["UPV.2", "llm3.1", "llm3.2", "Team03.01", "v1.2", "GPT-4", "run1"])
    ['UPV', 'llm3', 'llm3', 'Team03', None, None, None]
    >>> stem_teams(["Team_Nova_1", "Team_Nova_2", "DeepSPIN-1", "AUUH_A", "AUUH_B", "X_1"])
    ['Team_Nova', 'Team_Nova', None, 'AUUH', 'AUUH', None]
    """
    found = _stem_forms(stems)
    shared: dict[str, int] = {}
    for f in found:
        if f is not None:
            shared[f[0]] = shared.get(f[0], 0) + 1
    return [f[0] if f is not None and (f[1] or shared[f[0]] > 1) else None for f in found]


def suffix_teams(
    systems: list[str], teams: dict[str, str | None], baselines=()
) -> dict[str, list[str]]:
    """The teams that :func:`stem_teams` formed from names differing only in a final ``_N``,
    ``-N`` or ``_A``: team -> its runs (in ``systems`` order), for each team of ``teams``
    (system -> team) with several runs, one of which is in that form with that ``TEAM``.
    ``baselines`` are left out. A team a folder or a names file gave under another name is not
    one of them.

    >>> systems = ["Team_Nova_1", "Team_Nova_2", "UPV.run1", "UPV.run2", "X_1"]
    >>> suffix_teams(systems, dict(zip(systems, stem_teams(systems))))
    {'Team_Nova': ['Team_Nova_1', 'Team_Nova_2']}
    """
    members: dict[str, list[str]] = {}
    for s in systems:
        if s not in baselines and teams.get(s) is not None:
            members.setdefault(teams[s], []).append(s)
    out = {}
    for s, f in zip(systems, _stem_forms(systems), strict=True):
        t = teams.get(s)
        if f is not None and f[2] and f[0] == t and t not in out and len(members.get(t, [])) > 1:
            out[t] = members[t]
    return dict(sorted(out.items(), key=lambda kv: systems.index(kv[1][0])))


def suffix_note(groups: dict[str, list[str]], cid: str) -> str | None:
    """The note that says which teams :func:`suffix_teams` found (None: none), shown on the
    command line and among the report's notes.

    >>> from compreport.errors import worded  # the options it names, in Python words
    >>> print(worded(suffix_note({"Nova": ["Nova_1", "Nova_2"]}, "t")))
    competition 't': 1 team read from run names that differ only in a final _N, -N or _A:
    Nova (Nova_1, Nova_2); a names file with a `team` column (names='FILE') says otherwise
    """
    if not groups:
        return None
    listed = "; ".join(f"{t} ({', '.join(runs)})" for t, runs in groups.items())
    count = f"{len(groups)} team{'s' if len(groups) > 1 else ''}"
    return (
        f"competition {cid!r}: {count} read from run names that differ only in a final _N, -N "
        f"or _A: {listed}; a names file with a `team` column ({option('names', 'FILE')}) says "
        f"otherwise"
    )


_TOKEN = re.compile(r"([_\-. ]+)")


def _differing(stems: list[str]) -> list[str] | None:
    """What differs between ``stems``: their common leading and trailing words (split at
    ``_ - . space``) removed; None when that leaves one empty or two equal."""
    tokens = [_TOKEN.split(s) for s in stems]
    lead = 0
    while all(len(t) > lead + 1 and t[lead] == tokens[0][lead] for t in tokens):
        lead += 1
    trail = 0
    while all(len(t) > lead + trail + 1 and t[-1 - trail] == tokens[0][-1 - trail] for t in tokens):
        trail += 1
    out = ["".join(t[lead : len(t) - trail]).strip("_-. ") for t in tokens]
    return out if all(out) and len(set(out)) == len(out) else None


def name_runs(files: list[RunFile]) -> None:
    """Set every run's ``name`` and ``team`` (see the module docstring), in place.

    Raises :class:`InputError` when two runs get the same name.

    >>> files = [
    ...     RunFile("runs/ECNU/subtask_A_primary.txt", "ECNU/subtask_A_primary.txt"),
    ...     RunFile("runs/ECNU/subtask_A_contrastive1.txt", "ECNU/subtask_A_contrastive1.txt"),
    ...     RunFile("runs/HITS.01.tsv", "HITS.01.tsv"),
    ... ]
    >>> name_runs(files)
    >>> [(f.name, f.team) for f in files]
    [('ECNU primary', 'ECNU'), ('ECNU contrastive1', 'ECNU'), ('HITS.01', 'HITS')]
    """
    teams: dict[str, list[RunFile]] = {}
    top: list[RunFile] = []
    for f in files:
        parts = PurePosixPath(f.rel).parts
        if len(parts) > 1 and parts[0] not in ("..", "/"):
            teams.setdefault(parts[0], []).append(f)
        else:
            top.append(f)
    for f, team in zip(top, stem_teams([f.stem for f in top]), strict=True):
        f.name, f.team = f.stem, team
    for team, members in teams.items():
        rests = [
            str(PurePosixPath(*PurePosixPath(f.rel).parts[1:]).with_suffix("")) for f in members
        ]
        if len(members) == 1:
            names = [team]
        else:
            diff = _differing(rests)
            names = [f"{team} {d}" for d in diff] if diff else [f"{team} {r}" for r in rests]
        for f, name in zip(members, names, strict=True):
            f.name, f.team = name, team
    seen: dict[str, RunFile] = {}
    for f in files:
        if f.name in seen:
            raise InputError(
                f"{f.path}: system name {f.name!r} is also the name of {seen[f.name].path}; rename "
                f"one, or name them in a names file ({option('names', 'FILE')})"
            )
        seen[f.name] = f


#: The columns of a names file.
_NAME_COLUMNS = ("run", "name", "team", "baseline", "exclude")
#: How a names file writes true and false (in any case; blank is false).
_TRUE = frozenset({"true", "yes", "y", "1", "x"})
_FALSE = frozenset({"false", "no", "n", "0", ""})


def apply_names(
    path: str, files: list[RunFile], sep: str = "auto", comments: bool = True
) -> list[RunFile]:
    """Apply the names file at ``path`` to ``files`` (named by :func:`name_runs`): the runs kept.

    The file has a header with a ``run`` column (a run's file stem, default name, path inside the
    runs folder, or path; a wide table's system column by its header alone) and any of ``name``
    (blank: the run's own name), ``team``, ``baseline`` and ``exclude`` (true/false, yes/no, 1/0;
    blank is false). Runs it does not list keep their name. A ``.xml`` file gives the same table,
    one element per run (:func:`~compreport.inputs.namesxml.read_xml_names`). ``sep`` and
    ``comments`` read a CSV/TSV file as they read the gold.

    Raises
    ------
    InputError
        Naming the file and line: no header with ``run``, an unknown column, a row that matches no
        run or several, a run listed twice, a value that is not true/false, two runs with one name.
    """
    path = text_name(path)
    if Path(path).suffix.lower() == ".xml":
        head, head_line, body = read_xml_names(path)
    else:
        text = decode(path, read_bytes(path))
        rows, lines, _ = split_fields(path, text, sep, comments, Path(path).suffix.lower())
        body = [(r, line) for r, line in zip(rows, lines, strict=True) if r]
        if not body:
            raise InputError(f"{path}: the names file is empty")
        (head, head_line), body = body[0], body[1:]
    if "run" not in head:
        raise InputError(
            f"{path}, line {head_line}: a names file starts with a header naming its columns, "
            f"one of them `run` (then any of {', '.join(_NAME_COLUMNS[1:])}); found "
            f"{', '.join(repr(h) for h in head)}"
        )
    for h in head:
        if h not in _NAME_COLUMNS:
            raise InputError(
                f"{path}, line {head_line}: unknown column {h!r}{suggest(h, _NAME_COLUMNS)} "
                f"(columns: {', '.join(_NAME_COLUMNS)})"
            )
        if head.count(h) > 1:
            raise InputError(f"{path}, line {head_line}: column {h!r} appears twice")
    keys: dict[int, set[str]] = {}
    for k, f in enumerate(files):
        keys[k] = (
            {f.rel}
            if f.column
            else {
                f.stem,
                f.name,
                f.rel,
                str(PurePosixPath(f.rel).with_suffix("")),
                f.path,
                os.path.basename(f.path),
            }
        )
    what, listed_as = (
        ("system column", "columns") if any(f.column for f in files) else ("run file", "runs")
    )
    listed: dict[int, int] = {}
    drop: set[int] = set()

    def flag(row: list[str], line: int, col: str) -> bool:
        value = row[head.index(col)].lower() if col in head and head.index(col) < len(row) else ""
        if value in _TRUE:
            return True
        if value in _FALSE:
            return False
        raise InputError(f"{path}, line {line}, column {col!r}: {value!r} is not true or false")

    for row, line in body:
        if len(row) > len(head):
            raise InputError(f"{path}, line {line}: expected {len(head)} columns, found {len(row)}")
        cell = dict(zip(head, row, strict=False))
        run = cell.get("run", "")
        if not run:
            raise InputError(f"{path}, line {line}: empty `run`")
        hits = [k for k, ks in keys.items() if run in ks]
        if not hits:
            shown = [f.rel for f in files]
            raise InputError(
                f"{path}, line {line}: run {run!r} matches no {what}{suggest(run, shown)} "
                f"({listed_as}: {', '.join(shown[:10])}{', ...' if len(shown) > 10 else ''})"
            )
        if len(hits) > 1:
            raise InputError(
                f"{path}, line {line}: run {run!r} matches {len(hits)} run files ("
                f"{', '.join(files[k].rel for k in hits)}); write the path inside the runs folder"
            )
        k = hits[0]
        if k in listed:
            raise InputError(
                f"{path}, line {line}: run {files[k].rel!r} is listed twice (lines {listed[k]} "
                f"and {line})"
            )
        listed[k] = line
        f = files[k]
        if cell.get("name"):
            f.name = cell["name"]
        if cell.get("team"):
            f.team = cell["team"]
        f.baseline = flag(row, line, "baseline")
        if flag(row, line, "exclude"):
            drop.add(k)
    kept = [f for k, f in enumerate(files) if k not in drop]
    if drop:
        note(
            f"{path}: {len(drop)} run(s) excluded: {', '.join(files[k].rel for k in sorted(drop))}"
        )
    seen: dict[str, int] = {}
    for k, f in enumerate(files):
        if k in drop:
            continue
        if f.name in seen:
            j = seen[f.name]
            where = (
                f", line {listed[k]}"
                if k in listed
                else (f", line {listed[j]}" if j in listed else "")
            )
            raise InputError(
                f"{path}{where}: runs {files[j].rel!r} and {f.rel!r} would both be named {f.name!r}"
            )
        seen[f.name] = k
    if not kept:
        raise InputError(f"{path}: every run is excluded")
    return kept


def mark_baselines(
    files: list[RunFile], globs: list[str], where: str, said: dict | None = None
) -> None:
    """Mark as baselines, in place, the runs of ``files`` that a glob of ``globs`` (``--baseline``,
    ``[data] baselines``) matches: its system name, its file name, its file stem or its path
    inside the runs folder (a wide table's system column: its header alone). A glob matches a
    name also when it equals it (a name holding ``[`` is matched as written). Runs already
    marked (a names file's ``baseline`` column) stay baselines.

    ``where`` is the runs folder, glob or table the message names; ``said`` maps
    ``baseline:<glob>`` to how a spec gave the glob (its file, line and key).

    Raises
    ------
    InputError
        A glob that matches no run, named as the caller gave it, with the runs there are.

    Examples
    --------
    >>> files = [RunFile("runs/baseline-svm.tsv", "baseline-svm.tsv", "baseline-svm"),
    ...          RunFile("runs/Nova_1.tsv", "Nova_1.tsv", "Nova_1")]
    >>> mark_baselines(files, ["baseline*"], "runs")
    >>> [f.baseline for f in files]
    [True, False]
    """
    for glob in globs:
        hits = [
            f
            for f in files
            if any(
                key == glob or fnmatch.fnmatch(key, glob)
                for key in (
                    (f.name, f.rel)
                    if f.column
                    else (f.name, f.rel, f.stem, os.path.basename(f.path), f.path)
                )
            )
        ]
        if not hits:
            shown_runs = [f.name for f in files]
            spec = (said or {}).get(f"baseline:{glob}")
            head = (
                f"{spec} matches no run in {where}"
                if spec
                else (f"{where}: {option('baseline', glob)} matches no run")
            )
            raise InputError(
                f"{head}{suggest(glob, shown_runs)} (runs: "
                f"{', '.join(shown_runs[:10])}{', ...' if len(shown_runs) > 10 else ''})"
            )
        for f in hits:
            f.baseline = True


def name_columns(
    pieces: dict,
    path: str,
    names: str | None = None,
    sep: str = "auto",
    comments: bool = True,
    baselines: list[str] | None = None,
    said: dict | None = None,
) -> dict:
    """A wide table's pieces (:func:`~compreport.inputs.readers.read_wide`) with the team of each
    system column, and the names file ``names`` applied.

    The team of a column is read from its header by :func:`stem_teams`, as a run file's from its
    stem (``UPV-ELiRF.run1``, ``X_run2``, ``X-run3``, ``Team.01``). The names file
    (:func:`apply_names`) then has the last word: its ``run`` column names a system column by its
    header; ``name`` renames it, ``team`` and ``baseline`` set them (``pieces["teams"]``,
    ``pieces["marked_baselines"]``), ``exclude`` drops the column; the file is recorded in
    ``pieces["inputs"]``. ``path`` is the table; ``sep`` and ``comments`` read the names file.
    ``baselines`` (globs, ``--baseline``) mark the columns whose header they match
    (:func:`mark_baselines`; ``said``: how a spec gave them).

    Raises
    ------
    InputError
        What :func:`apply_names` raises: a row naming no column, two columns with one name...

    Examples
    --------
    >>> pieces = {"systems": ["UPV.run1", "UPV_run2", "GPT-3.5"], "inputs": []}
    >>> name_columns(pieces, "table.csv")["teams"]
    {'UPV.run1': 'UPV', 'UPV_run2': 'UPV', 'GPT-3.5': None}
    """
    systems = list(pieces["systems"])
    columns = [
        RunFile(path, s, s, team, column=True)
        for s, team in zip(systems, stem_teams(systems), strict=True)
    ]
    if names is None and not baselines:
        return dict(pieces, teams={c.name: c.team for c in columns})
    kept = apply_names(names, columns, sep, comments) if names is not None else columns
    mark_baselines(kept, list(baselines or []), path, said)
    if names is None:
        return dict(
            pieces,
            teams={c.name: c.team for c in kept},
            marked_baselines=[c.name for c in kept if c.baseline],
        )
    keep = [systems.index(c.rel) for c in kept]
    out = dict(
        pieces,
        systems=[c.name for c in kept],
        predictions=np.asarray(pieces["predictions"])[keep],
        teams={c.name: c.team for c in kept},
        marked_baselines=[c.name for c in kept if c.baseline],
        inputs=[*pieces["inputs"], {"path": names, "sha256": sha256(names)}],
    )
    if pieces.get("system_sources"):
        out["system_sources"] = [pieces["system_sources"][k] for k in keep]
    if "missing" in pieces:
        out["missing"] = {c.name: pieces["missing"][c.rel] for c in kept}
    return out
