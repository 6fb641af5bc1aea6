"""Emails to the teams, ready to open in a mail client: ``OUT/emails/<team>.eml``; nothing is sent.

``--emails FILE`` (``Report.write(emails=...)``) names a CSV or TSV file with one row per team:
``team, address[, language]`` (an optional header row starting with ``team``; several addresses
separated by commas in one quoted cell; the language, ``en`` or ``es``, words the subject and body,
by default the report's; the attached letters are in the report's language). Each email has a
``To``, a ``Subject``, a short plain-text body with the team's results in words (rank, score,
interval, group and the stored verdict of every run, from the team sheet's context:
:func:`compreport.report.pages.team.team_context`), and the team's letter of every competition it
took part in attached (``<competition>/teams/<team>.pdf``). Built with the standard library's
:mod:`email` package; no ``Date`` or ``Message-ID`` header and a MIME boundary derived from the
content, so the same report gives byte-identical files.
"""

from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.utils import getaddresses
from pathlib import Path

from compreport.errors import InputError, note
from compreport.inputs.delimited import decode, read_bytes
from compreport.language import LANGUAGES, count, current, language, tr
from compreport.output.files import write_bytes
from compreport.report import model
from compreport.report.naming import competition_dir, email_files, team_letters
from compreport.report.pages.team import team_context
from compreport.stats.results import Analysis


@dataclass(frozen=True)
class Recipient:
    """One row of the addresses file: the team, its address(es) as written, the language (None: the
    report's), the row."""

    team: str
    to: str
    language: str | None
    row: int


def _clean(text: str) -> str:
    """A header-safe line: control characters (CR, LF, tab, ESC...) become spaces, runs of spaces
    one.

    Examples
    --------
    >>> _clean("Team\\r\\nBcc: x@y.org")
    'Team Bcc: x@y.org'
    """
    return " ".join("".join(ch if ch.isprintable() else " " for ch in str(text)).split())


@dataclass(frozen=True)
class Recipients:
    """An addresses file read: its ``source`` (the path as given) and its rows."""

    source: str
    rows: list[Recipient]


def read_recipients(path: str | Path) -> Recipients:
    """The rows of an addresses file (see the module docstring).

    Raises
    ------
    InputError
        A missing, unreadable, empty or non-UTF-8 file, a row without a team or an address, an
        address without ``@`` or with control characters, a team listed twice; naming the file
        and row.
    """
    shown = str(path)
    text = decode(shown, read_bytes(shown))
    first = text.split("\n", 1)[0]
    rows = list(csv.reader(io.StringIO(text), delimiter="\t" if "\t" in first else ","))
    out: list[Recipient] = []
    seen: dict[str, int] = {}
    for number, row in enumerate(rows, start=1):
        cells = [c.strip() for c in row]
        if not any(cells) or cells[0].startswith("#"):
            continue
        if number == 1 and cells[0].lower() == "team":
            continue  # a header row
        where = f"{shown}, row {number}"
        if len(cells) < 2 or not cells[0] or not cells[1]:
            raise InputError(f"{where}: expected a team and an address (team, address[, language])")
        team, to = cells[0], cells[1]
        if any(not ch.isprintable() for ch in to):
            raise InputError(f"{where}: the address holds a control character")
        addresses = getaddresses([to])
        if not addresses or any("@" not in addr for _, addr in addresses):
            raise InputError(f"{where}: {to!r} is not an email address")
        if team in seen:
            raise InputError(
                f"{where}: team {team!r} is listed twice (also row {seen[team]}); give its "
                f"addresses in one cell, separated by commas"
            )
        seen[team] = number
        wording = cells[2].lower() if len(cells) > 2 and cells[2] else None
        if wording is not None and wording not in LANGUAGES:
            note(
                f"{where}: language {wording!r} is not available (only {', '.join(LANGUAGES)}); "
                f"the email to {team!r} is in the report's language"
            )
            wording = None
        out.append(
            Recipient(
                team, ", ".join(f"{n} <{a}>" if n else a for n, a in addresses), wording, number
            )
        )
    if not out:
        raise InputError(f"{shown}: no team and address (expected rows: team, address[, language])")
    return Recipients(shown, out)


def _body(analysis: Analysis, team: str, parts: list[tuple], fmt: model.Format) -> str:
    """The plain-text body: per competition, one paragraph per run (the team sheet's words)."""
    s = analysis.settings
    event = (analysis.workshop or {}).get("name") or ", ".join(comp.name for comp, _ in parts)
    lines = [
        tr("Dear {team} team,", team=team),
        "",
        tr(
            "these are the results of your runs in {event}. The attached PDF (one per competition) "
            "has a page per run with the details and the method.",
            event=event,
        ),
        "",
    ]
    for comp, runs in parts:
        first = team_context(analysis, comp, runs[0], fmt)
        lines += [
            tr(
                "{competition} - ranked by {metric} ({direction}); {level} bootstrap intervals "
                "from {resamples} resamples; verdicts: {rule}, alpha = {alpha}.",
                competition=comp.name,
                metric=first["metric"],
                direction=first["direction"],
                level=first["level"],
                resamples=count(s.bootstrap),
                rule=s.rule,
                alpha=f"{s.alpha:g}",
            )
        ]
        lines += first["alerts"] + [""]
        for system in runs:
            c = team_context(analysis, comp, system, fmt)
            lines.append(
                tr(
                    "- {system}: rank {rank} of {m}, {metric} = {score} ({level} CI {ci}), group "
                    "{group}.",
                    system=system,
                    rank=c["rank"],
                    m=c["m"],
                    metric=c["metric"],
                    score=c["score"],
                    level=c["level"],
                    ci=c["ci"],
                    group=c["group"],
                )
            )
            if c["verdict"]:
                lines.append(f"  {c['verdict']}")
        lines.append("")
    lines += [
        tr("Best regards,"),
        tr("The organizers"),
        "",
        tr(
            "(Prepared with compreport {version}, seed {seed}.)",
            version=analysis.version,
            seed=s.seed,
        ),
    ]
    return "\n".join(x[: len(x) - len(x.lstrip(" "))] + _clean(x) for x in lines) + "\n"


def write_emails(
    analysis: Analysis, out: Path, recipients: Recipients, fmt: model.Format | None = None
) -> list[Path]:
    """Write ``out/emails/<team>.eml`` for every team of ``recipients`` with a run in the report.

    Each email has the team's letters (already written under ``out``) attached; a note names the
    teams without an address and the listed teams without a run.

    Parameters
    ----------
    analysis : Analysis
        What the emails report.
    out : Path
        The report root, holding the letters.
    recipients : Recipients
        The addresses file (:func:`read_recipients`).
    fmt : Format, optional
        The decimals of the numbers; default ``Format()``.

    Returns
    -------
    list of Path
        The files written.
    """
    fmt = fmt or model.Format()
    source, recipients = recipients.source, recipients.rows
    letters: dict[str, list[tuple]] = {}  # team -> [(comp, runs, pdf path)]
    for comp in analysis.competitions:
        for team, (name, runs) in team_letters(comp).items():
            letters.setdefault(team, []).append(
                (comp, runs, competition_dir(out, comp) / "teams" / name)
            )
    listed = {r.team for r in recipients}
    unknown = [r for r in recipients if r.team not in letters]
    for r in unknown:
        note(f"{source}, row {r.row}: team {r.team!r} has no run in the report; no email")
    missing = [t for t in letters if t not in listed]
    if missing:
        note(
            f"no address for {len(missing)} team(s) in {source}, so no email: "
            f"{', '.join(map(repr, missing))}"
        )
    known = [r for r in recipients if r.team in letters]
    files = email_files([r.team for r in known])
    title = (analysis.workshop or {}).get("name")
    written = []
    for r in known:
        parts = letters[r.team]
        msg = EmailMessage(policy=policy.SMTP)
        msg["To"] = r.to
        with language(r.language or current()):
            # the workshop, else every competition the email covers
            event = title or ", ".join(comp.name for comp, _, _ in parts)
            msg["Subject"] = _clean(tr("{event}: results of {team}", event=event, team=r.team))
            body = _body(analysis, r.team, [(c, runs) for c, runs, _ in parts], fmt)
        msg.set_content(body)
        digest = hashlib.sha256(f"{r.to}\n{body}".encode())
        for comp, _, pdf in parts:
            data = pdf.read_bytes()
            digest.update(data)
            msg.add_attachment(
                data, maintype="application", subtype="pdf", filename=f"{comp.id}-{pdf.name}"
            )
        # a boundary from the content: the same report gives the same file
        msg.set_boundary(f"==compreport-{digest.hexdigest()[:32]}")
        path = out / "emails" / files[r.team]
        path.parent.mkdir(parents=True, exist_ok=True)
        write_bytes(path, msg.as_bytes())
        written.append(path)
    return written
