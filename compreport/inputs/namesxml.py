"""A names file written as XML, as some tasks publish their participants (SemEval-2018 Task 12's
``metadata-public.xml``): one element per run, its facts in attributes.

    <participant username="abrassard" submissionID="438181" systemName="Skip-Thought based
                 classification" shownName="TakeLab" />
    <participant username="rgtjf" submissionID="436419" systemName="" withdrawn="true" />

Each element with a run attribute (:data:`RUN`, the first non-empty) is one row of the names table
:func:`compreport.inputs.runfiles.apply_names` reads: ``name`` is the first non-empty of
:data:`NAME`, ``team`` of :data:`TEAM`, ``baseline`` the attribute of that name, ``exclude`` that of
:data:`EXCLUDE`. Other elements and attributes are left alone (the schema is the task's own).
Parsed with expat, which fetches no external entity.
"""

from __future__ import annotations

from xml.parsers import expat

from compreport.errors import InputError
from compreport.inputs.delimited import read_bytes

#: Attributes that hold a run's id (file stem, submission id), first non-empty wins (not a bare
#: ``id``, which a root element may carry for itself).
RUN = ("run", "submissionID", "submission_id", "submission")
#: Attributes that name a run, first non-empty wins (shown name before the system's own name).
NAME = ("name", "shownName", "systemName", "username", "team")
#: Attributes that name a run's team, first non-empty wins.
TEAM = ("team", "username")
#: Attributes that mark a run as left out, first present wins.
EXCLUDE = ("exclude", "withdrawn")
#: The columns of the table it returns.
HEAD = ("run", "name", "team", "baseline", "exclude")


def _first(attrs: dict[str, str], keys: tuple[str, ...], *, non_empty: bool = False) -> str:
    """The value of the first of ``keys`` in ``attrs`` (``non_empty``: the first not blank),
    stripped; ``""`` when none."""
    for key in keys:
        if key in attrs and (attrs[key].strip() or not non_empty):
            return attrs[key].strip()
    return ""


def read_xml_names(path: str) -> tuple[list[str], int, list[tuple[list[str], int]]]:
    """The names table of the XML file at ``path``: (header, its line, [(row, line), ...]).

    Raises
    ------
    InputError
        Naming the file and line: XML that does not parse; no element with a run attribute.
    """
    rows: list[tuple[list[str], int]] = []
    parser = expat.ParserCreate()

    def start(_tag: str, attrs: dict[str, str]) -> None:
        run = _first(attrs, RUN, non_empty=True)
        if run or any(k in attrs for k in RUN):  # present but empty: an error naming its line
            rows.append(
                (
                    [
                        run,
                        _first(attrs, NAME, non_empty=True),
                        _first(attrs, TEAM, non_empty=True),
                        attrs.get("baseline", "").strip(),
                        _first(attrs, EXCLUDE),
                    ],
                    parser.CurrentLineNumber,
                )
            )

    parser.StartElementHandler = start
    try:
        parser.Parse(read_bytes(path), True)
    except expat.ExpatError as exc:
        raise InputError(
            f"{path}, line {exc.lineno}: not well-formed XML ({expat.ErrorString(exc.code)})"
        ) from None
    if not rows:
        raise InputError(
            f"{path}: no element with a run attribute ({', '.join(RUN)}); an XML names file has "
            f"one element per run"
        )
    return HEAD, rows[0][1], rows
