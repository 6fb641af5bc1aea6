"""Names of the files a report writes: metric stems, competition folders, team sheets.

Names come from participants and organizers, so they are treated as hostile: file names are
ASCII slugs (no path separators, no leading dot, never empty), and a competition folder is
its validated id (:func:`compreport.inputs.spec.check_id`).
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from ..inputs.spec import check_id, slug
from ..stats.results import CompetitionAnalysis

#: Windows device names: not usable as file names there, whatever the extension.
_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)), *(f"lpt{i}" for i in range(1, 10))}


def metric_stems(comp: CompetitionAnalysis) -> dict[str, str]:
    """``{metric name: file stem}``: :func:`slug` of the name; a stem taken by an earlier metric gets
    ``-<position>`` (``macro_f1`` -> ``macro-f1``). Tables and figures of a metric share its stem."""
    out: dict[str, str] = {}
    for i, ma in enumerate(comp.metrics):
        key = slug(ma.name)
        out[ma.name] = key if key not in out.values() else f"{key}-{i + 1}"
    return out


def competition_dir(out: Path, comp: CompetitionAnalysis) -> Path:
    """``out/<comp.id>``; refuses ids that would leave ``out`` (the load-time rule, applied again for
    analyses built without the loader)."""
    cid = str(comp.id or "")
    check_id(cid, Path(out))
    return Path(out) / cid


def team_files(comp: CompetitionAnalysis) -> dict[str, str]:
    """``{system: file name}`` (``<slug>.pdf``) for every non-baseline system, in the order of ``comp.systems``.

    A name taken by an earlier system, or by another system's own slug, gets ``-2``, ``-3``... in
    system order; a name with no ASCII letter or digit becomes ``system``.
    """
    systems = [s for s in comp.systems if s not in set(comp.baselines)]
    bases = [_file_base(s) for s in systems]
    natural = set(bases)
    taken: set[str] = set()
    out = {}
    for system, base in zip(systems, bases):
        name = base
        if name in taken:
            k = 2
            while f"{base}-{k}" in taken or f"{base}-{k}" in natural:
                k += 1
            name = f"{base}-{k}"
        taken.add(name)
        out[system] = f"{name}.pdf"
    return out


def _file_base(system: str) -> str:
    ascii_ = unicodedata.normalize("NFKD", system).encode("ascii", "ignore").decode()
    if not re.search(r"[A-Za-z0-9]", ascii_):
        return "system"  # slug() would say "competition"
    base = slug(system)
    return f"{base}-system" if base in _RESERVED else base
