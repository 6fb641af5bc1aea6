"""Names of the files a report writes, and where a participant's name may wrap.

File names: metric stems, competition folders, team letters, emails. Wrapping: :func:`pieces`
(HTML's ``<wbr>``, LaTeX's ``\\allowbreak``).

Names come from participants and organizers, so they are treated as hostile: file names are
ASCII slugs (no path separators, no leading dot, never empty), and a competition folder is
its validated id (:func:`compreport.inputs.slugs.check_id`).
"""

from __future__ import annotations

import re
from pathlib import Path

from compreport.errors import InputError
from compreport.inputs.slugs import ascii_text, check_id, slug
from compreport.stats.results import Analysis, CompetitionAnalysis

#: Characters after which a participant's name may wrap (runs of them; spaces wrap anyway).
NAME_SEPARATORS = "._-/+&@:,;|)]}"
#: Windows device names: not usable as file names there, whatever the extension.
_RESERVED = frozenset(
    {
        "con",
        "prn",
        "aux",
        "nul",
        *(f"com{i}" for i in range(1, 10)),
        *(f"lpt{i}" for i in range(1, 10)),
    }
)


def metric_stems(comp: CompetitionAnalysis) -> dict[str, str]:
    """``{metric name: file stem}``: the name's slug (``macro_f1`` -> ``macro-f1``); a stem taken
    by an earlier metric gets ``-<position>``. Tables and figures of a metric share its stem."""
    out: dict[str, str] = {}
    for i, ma in enumerate(comp.metrics):
        key = slug(ma.name)
        out[ma.name] = key if key not in out.values() else f"{key}-{i + 1}"
    return out


def pieces(name) -> list[str]:
    """``name`` cut after each run of separators (:data:`NAME_SEPARATORS`) that a word follows.

    There the HTML (:func:`compreport.report.pages.html.breakable`) and the LaTeX captions
    (:func:`compreport.report.latex.tex.breakable`) let a name wrap.

    Examples
    --------
    >>> pieces("UNED-NLP.run1")
    ['UNED-', 'NLP.', 'run1']
    >>> pieces("a--b c")
    ['a--', 'b c']
    """
    sep = re.escape(NAME_SEPARATORS)
    return re.split(f"(?<=[{sep}])(?=[^{sep}\\s])", str(name))


def competition_dir(out: Path, comp: CompetitionAnalysis) -> Path:
    """``out/<comp.id>``; refuses ids that would leave ``out`` (the load-time rule, applied again
    for analyses built without the loader).

    Raises
    ------
    InputError
        When ``comp.id`` is not a valid competition id.
    """
    cid = str(comp.id or "")
    check_id(cid, Path(out))
    return Path(out) / cid


def check_names(analysis: Analysis, where: Path | str = "the analysis") -> None:
    """Refuse, before anything is written, an analysis whose data would name a path outside OUT.

    The one check of every output path made from data: each competition id must name a folder of
    OUT (:func:`compreport.inputs.slugs.check_id`: no ``..``, separator or absolute path), and
    no two ids may name the same folder (ids differing only in case share one on macOS and
    Windows). Team letters, emails, figures and metric files are named by slugs
    (:func:`letter_files`, :func:`metric_stems`), which cannot leave their folder.
    :meth:`compreport.report.Report.write` calls it before it creates anything; ``where`` (a
    file, ``the analysis``) starts the :class:`InputError`.

    Examples
    --------
    >>> a = cr.analyze(cr.load("examples/workshop/paraphrase"), bootstrap=0)
    >>> check_names(a)
    >>> a.competitions[0].id = "../victim"
    >>> check_names(a, "results.json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    compreport.errors.InputError: results.json: competition id '../victim' must be 1-100 ASCII ...
    """
    seen: dict[str, str] = {}
    for comp in analysis.competitions:
        cid = comp.id
        if not isinstance(cid, str):
            raise InputError(f"{where}: competition id {cid!r} must be a string")
        check_id(cid, where)
        if cid.lower() in seen:
            raise InputError(
                f"{where}: competition ids {seen[cid.lower()]!r} and {cid!r} name the same folder"
            )
        seen[cid.lower()] = cid


def _unique_files(names: list[str], suffix: str = ".pdf") -> list[str]:
    """``<slug><suffix>`` for each of ``names`` (distinct): a name taken by an earlier one, or by
    another's own slug, gets ``-2``, ``-3``... in order; a name with no ASCII letter or digit
    becomes ``system``."""
    bases = [_file_base(x) for x in names]
    natural = set(bases)
    taken: set[str] = set()
    out = []
    for base in bases:
        name = base
        if name in taken:
            k = 2
            while f"{base}-{k}" in taken or f"{base}-{k}" in natural:
                k += 1
            name = f"{base}-{k}"
        taken.add(name)
        out.append(f"{name}{suffix}")
    return out


def email_files(teams: list[str]) -> dict[str, str]:
    """``{team: file name}`` (``<slug>.eml``) of the emails, made unique as the letters are."""
    return dict(zip(teams, _unique_files(teams, ".eml"), strict=True))


def letter_files(teams: list[str]) -> dict[str, str]:
    """``{team: file name}`` (``<slug>.pdf``) of the team letters, made unique in order.

    Examples
    --------
    >>> letter_files(["UNED NLP", "uned-nlp", "深度"])
    {'UNED NLP': 'uned-nlp.pdf', 'uned-nlp': 'uned-nlp-2.pdf', '深度': 'system.pdf'}
    """
    return dict(zip(teams, _unique_files(teams), strict=True))


def pairs_file(comp: CompetitionAnalysis, metric: str) -> str:
    """``pairs-<stem>.csv``: the file (in the competition's folder) holding every pair under
    ``metric``."""
    return f"pairs-{metric_stems(comp)[metric]}.csv"


def team_of(comp: CompetitionAnalysis, system: str) -> str:
    """The team of ``system`` in the analysis' teams' ranking (``comp.team_ranks``); for a
    baseline, which is in no team, its stored team or the system itself."""
    found = comp.team_rank(system)
    return found.team if found is not None else comp.teams.get(system) or system


def team_letters(comp: CompetitionAnalysis) -> dict[str, tuple[str, list[str]]]:
    """``{team: (file name, its runs best first)}`` for every team of ``comp.team_ranks`` (the
    teams with a competing run), best team first.

    File names are ``<slug>.pdf`` of the team names, made unique (``-2``, ``-3``...) in the order
    of each team's first run in ``comp.systems``, so that a team's file does not depend on scores.
    """
    teams = {tr.team: tr.runs for tr in comp.team_ranks}
    runs_team = {run: tr.team for tr in comp.team_ranks for run in tr.runs}
    first: dict[str, int] = {}
    for system in comp.systems:
        if system in runs_team:
            first.setdefault(runs_team[system], len(first))
    files = letter_files(sorted(teams, key=first.__getitem__))
    return {team: (files[team], runs) for team, runs in teams.items()}


def _file_base(system: str) -> str:
    """The stem of a file named after ``system``: its slug, ``system`` for a name without an ASCII
    letter or digit, ``<slug>-system`` for a Windows device name."""
    if not re.search(r"[A-Za-z0-9]", ascii_text(system)):
        return "system"  # slug() would say "competition"
    base = slug(system)
    return f"{base}-system" if base in _RESERVED else base
