"""Emails to the teams, ready to open in a mail client: ``OUT/emails/<team>.eml``; nothing is sent.

``--emails FILE`` (``Report.write(emails=...)``) names a CSV or TSV file with one row per team:
``team, address[, language]`` (blank rows and rows starting with ``#`` skipped; an optional
header row starting with ``team``; several addresses separated by commas in one quoted cell; the
language, ``en`` or ``es``, words the subject and body, by default the report's; the attached
letters are in the report's language). Each email has a ``From`` (``--email-from``) and a
``Reply-To`` (``--reply-to``) when given, a ``To``, a ``Subject``, ``X-Unsent: 1`` (mail clients
open the file as a draft to send), a short plain-text body with the team's results in words, the
letter's own sentences (the team's rank among the teams, the winner; every run's rank, score,
interval, stored verdict against the winner, how many runs it is significantly better than and its
verdict against each baseline, from the team sheet's context:
:func:`compreport.report.pages.team.team_context`; a sentence for each run that ranked first), and
the team's letter of every competition it took part in attached
(``<competition>/teams/<team>.pdf``).

Addresses (:func:`parse_addresses`) are ``name@domain``, ``Name <name@domain>`` or
``"Name, Q" <name@domain>``; a domain with non-ASCII letters is written IDNA-encoded
(``xn--``); a non-ASCII part before the @ (``josé@example.es``) is written as it is, in UTF-8,
with every header of that email (SMTPUTF8, RFC 6531/6532), and a note says so; a malformed
address is an error naming its row and column, and an item is one address (a display name holding
an ``@``, or an unquoted special such as ``)``, is refused). Headers come from
:class:`~email.headerregistry.Address` objects and text made safe *after* its RFC 2047 encoded
words are decoded (:func:`header_text`), so a name that decodes to CR LF adds no header; each email
is parsed back before it is written (:func:`_check_headers`). Built with the standard library's
:mod:`email` package; no
``Date`` or ``Message-ID`` header and a MIME boundary derived from the content, so the same report
gives byte-identical files.
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
import re
from dataclasses import dataclass
from email import policy
from email.headerregistry import Address
from email.message import EmailMessage
from pathlib import Path

from compreport.errors import InputError, note, option
from compreport.inputs.delimited import decode, read_bytes
from compreport.language import LANGUAGES, count, current, decimal, language, tr
from compreport.output.files import write_bytes
from compreport.report import model
from compreport.report.naming import competition_dir, email_files, team_letters
from compreport.report.pages.team import excerpt_rows, team_context
from compreport.report.standing import run_label
from compreport.stats.results import Analysis


@dataclass(frozen=True)
class Recipient:
    """One row of the addresses file: the team, its addresses (a non-ASCII domain IDNA-encoded),
    the language (None: the report's), the row."""

    team: str
    addresses: tuple[Address, ...]
    language: str | None
    row: int

    @property
    def to(self) -> str:
        """The addresses as the ``To`` header shows them."""
        return ", ".join(map(str, self.addresses))


#: The characters of an unquoted local part besides letters and digits (RFC 5322 ``atext``);
#: a non-ASCII character is allowed too (RFC 6532).
_ATEXT = frozenset("!#$%&'*+-/=?^_`{|}~")
#: The characters an unquoted display name cannot hold (RFC 5322 ``specials`` but the dot, which
#: names such as ``J. Smith`` carry).
_SPECIALS = frozenset('()<>[]:;@\\,"')
#: Characters that IDNA 2003 (Python's ``idna`` codec) maps differently from IDNA 2008 (what
#: registries use): ß, final sigma, zero-width joiner and non-joiner.
_DEVIATIONS = frozenset("\u00df\u03c2\u200c\u200d")


def _split(text: str) -> list[str]:
    """The comma-separated items of an address cell, commas inside ``"..."`` or ``<...>`` kept.

    >>> _split('"Smith, J" <j@x.org>, ana@x.org')
    ['"Smith, J" <j@x.org>', 'ana@x.org']
    """
    items, cur, quoted, angle = [], [], False, False
    escaped = False
    for ch in text:
        if escaped:
            escaped = False
        elif quoted and ch == "\\":
            escaped = True
        elif ch == '"' and not angle:
            quoted = not quoted
        elif ch == "<" and not quoted:
            angle = True
        elif ch == ">" and not quoted:
            angle = False
        elif ch == "," and not quoted and not angle:
            items.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    items.append("".join(cur).strip())
    return items


def _domain(domain: str) -> str:
    """``domain`` as written in a header: ASCII, a non-ASCII label IDNA-encoded (``xn--``).

    Raises
    ------
    ValueError
        The reason the domain cannot be one.

    Examples
    --------
    >>> _domain("Universität.de"), _domain("example.org")
    ('xn--universitt-y5a.de', 'example.org')
    """
    if not domain:
        raise ValueError("nothing after the @")
    if domain.startswith("["):
        raise ValueError("an IP address literal is not supported; give a domain name")
    labels = domain.split(".")
    if len(labels) < 2:
        raise ValueError(f"the domain {domain!r} has no dot")
    out = []
    for label in labels:
        if not label:
            raise ValueError(f"the domain {domain!r} has two dots in a row, or one at an end")
        if not label.isascii():
            if _DEVIATIONS & set(label.lower()):
                raise ValueError(
                    f"the domain {domain!r} holds ß, ς or a zero-width joiner, which the two IDNA "
                    f"standards encode differently; write it in its ASCII form (xn--...)"
                )
            try:
                label = label.encode("idna").decode("ascii")
            except UnicodeError:
                raise ValueError(f"the domain {domain!r} cannot be IDNA-encoded") from None
        if (
            len(label) > 63
            or label.startswith("-")
            or label.endswith("-")
            or not all(ch.isascii() and (ch.isalnum() or ch == "-") for ch in label)
        ):
            raise ValueError(
                f"the domain {domain!r} holds {label!r}: a label is 1-63 letters, digits and "
                f"hyphens, not starting or ending with a hyphen"
            )
        out.append(label)
    ascii_domain = ".".join(out)
    if len(ascii_domain) > 253:
        raise ValueError(f"the domain {domain!r} is longer than 253 characters")
    return ascii_domain


def _local(local: str) -> str:
    """``local`` checked as a dot-atom (RFC 5322; non-ASCII letters allowed, RFC 6532).

    Raises
    ------
    ValueError
        The reason it cannot be the part before the @.
    """
    if not local:
        raise ValueError("nothing before the @")
    if local.startswith('"'):
        raise ValueError("a quoted part before the @ is not supported")
    bad = next(
        (
            ch
            for ch in local
            if ch.isspace() or (ch.isascii() and not (ch.isalnum() or ch in _ATEXT or ch == "."))
        ),
        None,
    )
    if bad is not None:
        what = "a space" if bad.isspace() else repr(bad)
        raise ValueError(f"{what} before the @ (several addresses are separated by commas)")
    if local.startswith(".") or local.endswith(".") or ".." in local:
        raise ValueError("a dot at an end of the part before the @, or two dots in a row")
    if len(local.encode("utf-8")) > 64:
        raise ValueError("more than 64 bytes before the @")
    return local


def _mailbox(item: str) -> Address:
    """One address: ``name@domain``, ``Name <name@domain>`` or ``"Name, Q" <name@domain>``.

    Raises
    ------
    ValueError
        The reason it is not one.
    """
    if not item:
        raise ValueError("an empty address (two commas, or one at an end)")
    name = ""
    spec = item
    if "<" in item or ">" in item:
        match = re.fullmatch(r'((?:"(?:[^"\\]|\\.)*"|[^<>"])*)<([^<>]*)>', item)
        if match is None:
            raise ValueError("a < without its >, or a > without its <")
        name, spec = match.group(1).strip(), match.group(2).strip()
        if name.startswith('"') and name.endswith('"') and len(name) > 1:
            name = re.sub(r"\\(.)", r"\1", name[1:-1])
        elif set(name) & _SPECIALS:
            bad = sorted(set(name) & _SPECIALS)[0]
            raise ValueError(
                f"{bad!r} in the name before the <; a name holding one is quoted: "
                f'"Name" <name@domain>'
            )
        name = header_text(name, phrase=True)
        if "@" in name:
            raise ValueError(
                "an @ in the name before the < (a name that reads as another address); give one "
                "address per item"
            )
    if spec.count("@") != 1:
        raise ValueError("no @" if "@" not in spec else "more than one @")
    local, domain = spec.split("@")
    return Address(name, _local(local), _domain(domain))


def parse_addresses(text: str) -> list[Address]:
    """The addresses of ``text``: one or more, separated by commas; a domain with non-ASCII
    letters IDNA-encoded, a non-ASCII part before the @ kept (written in UTF-8: SMTPUTF8).

    Raises
    ------
    ValueError
        ``'<item>' is not an email address: <reason>``, for the first bad one.

    Examples
    --------
    >>> [str(a) for a in parse_addresses('"Pérez, Ana" <ana@Universität.de>, bo@x.org')]
    ['"Pérez, Ana" <ana@xn--universitt-y5a.de>', 'bo@x.org']
    >>> parse_addresses("<a@b.com")
    Traceback (most recent call last):
    ...
    ValueError: '<a@b.com' is not an email address: a < without its >, or a > without its <
    """
    if any(not ch.isprintable() for ch in text):
        raise ValueError(f"{text!r} holds a control character")
    out = []
    for item in _split(text):
        try:
            out.append(_mailbox(item))
        except ValueError as exc:
            raise ValueError(f"{item!r} is not an email address: {exc}") from None
    return out


def _clean(text: str) -> str:
    """A header-safe line: control characters (CR, LF, tab, ESC...) become spaces, runs of spaces
    one.

    Examples
    --------
    >>> _clean("Team\\r\\nBcc: x@y.org")
    'Team Bcc: x@y.org'
    """
    return " ".join("".join(ch if ch.isprintable() else " " for ch in str(text)).split())


def _decoded(text: str, phrase: bool) -> str:
    """``text`` as a mail reader gets it back from a header: RFC 2047 encoded words
    (``=?utf-8?q?...?=``) decoded, as the standard library decodes them when a header is set, in an
    unstructured header (``Subject``) or, with ``phrase``, as an address's display name."""
    plain = str(policy.default.header_factory("Subject", text))
    if not phrase or plain != text:
        return plain  # (a name: its words decoded first, as plain text)
    try:
        parsed = policy.default.header_factory("To", str(Address(text, "x", "example.org")))
        (address,) = parsed.addresses
    except (ValueError, TypeError, IndexError, AttributeError):
        # a name the parser does not read back (a CR or LF decoded): no encoded word left
        return text.replace("=?", "= ?")
    if address.addr_spec != "x@example.org":
        return text.replace("=?", "= ?")
    return address.display_name


def header_text(text: str, phrase: bool = False) -> str:
    """``text`` made safe for a header (a ``Subject``, or with ``phrase`` a display name): control
    characters removed (:func:`_clean`) *after* decoding the RFC 2047 encoded words that the mail
    library decodes when the header is set or read, repeated until decoding changes nothing, so no
    CR or LF can come back as a new header (``Bcc:``).

    Examples
    --------
    >>> header_text("=?utf-8?q?T=0D=0ABcc:_t@evil.example?=")
    'T Bcc: t@evil.example'
    >>> header_text("=?utf-8?q?Jos=C3=A9?=", phrase=True), header_text("Team 1")
    ('José', 'Team 1')
    """
    text = _clean(text)
    for _ in range(16):
        clean = _clean(_decoded(text, phrase))
        if clean == text:
            return text
        text = clean
    return _clean(text.replace("=?", "= ?"))  # nested past any reason: no encoded word left


@dataclass(frozen=True)
class Recipients:
    """An addresses file read: its ``source`` (the path as given) and its rows; the ``sender``
    (``From``) and ``reply_to`` (``Reply-To``) of every email, when given."""

    source: str
    rows: list[Recipient]
    sender: Address | None = None
    reply_to: tuple[Address, ...] = ()


def _utf8_note(where: str, addresses) -> None:
    """A note for the addresses whose part before the @ is not ASCII: written in UTF-8."""
    for a in addresses:
        if not a.username.isascii():
            note(
                f"{where}: {a.addr_spec!r} has non-ASCII letters before the @: written in UTF-8 "
                f"(SMTPUTF8, RFC 6531/6532); only mail servers that support SMTPUTF8 deliver it"
            )


def senders(
    email_from: str | None, reply_to: str | None
) -> tuple[Address | None, tuple[Address, ...]]:
    """The ``From`` address and the ``Reply-To`` addresses of the emails, checked.

    Parameters
    ----------
    email_from : str or None
        One address (``Name <name@domain>`` or ``name@domain``).
    reply_to : str or None
        One or more addresses, separated by commas.

    Raises
    ------
    InputError
        A malformed address, several ``From`` addresses; naming the option.

    Examples
    --------
    >>> senders("Org <org@sepln.org>", None)
    (Address(display_name='Org', username='org', domain='sepln.org'), ())
    >>> senders("org@", None)
    Traceback (most recent call last):
    ...
    compreport.errors.InputError: `email_from`: 'org@' is not an email address: nothing after the @
    """
    found: dict[str, list[Address]] = {}
    for key, text in (("email_from", email_from), ("reply_to", reply_to)):
        if text is None:
            continue
        where = option(key)
        try:
            found[key] = parse_addresses(text.strip())
        except ValueError as exc:
            raise InputError(f"{where}: {exc}") from None
        _utf8_note(where, found[key])
    sender = found.get("email_from")
    if sender is not None and len(sender) != 1:
        raise InputError(f"{option('email_from')}: give one address, not {len(sender)}")
    return (sender[0] if sender else None), tuple(found.get("reply_to", ()))


def read_recipients(path: str | os.PathLike[str]) -> Recipients:
    """The rows of an addresses file (see the module docstring).

    Raises
    ------
    InputError
        A missing, unreadable, empty or non-UTF-8 file, a row without a team or an address, a
        malformed address (:func:`parse_addresses`), a team listed twice; naming the file and
        row.
    """
    shown = str(path)
    text = decode(shown, read_bytes(shown))
    # the separator of the first line that is not blank or a comment
    first = next((x for x in text.split("\n") if x.strip() and not x.startswith("#")), "")
    rows = list(csv.reader(io.StringIO(text), delimiter="\t" if "\t" in first else ","))
    out: list[Recipient] = []
    seen: dict[str, int] = {}
    header = False
    for number, row in enumerate(rows, start=1):
        cells = [c.strip() for c in row]
        if not any(cells) or cells[0].startswith("#"):
            continue
        if not out and not seen and not header and cells[0].lower() == "team":
            header = True
            continue  # a header row: the first that is not blank or a comment
        where = f"{shown}, row {number}"
        if len(cells) < 2 or not cells[0] or not cells[1]:
            raise InputError(f"{where}: expected a team and an address (team, address[, language])")
        while cells and not cells[-1]:
            cells.pop()
        if len(cells) > 3 or (len(cells) == 3 and "@" in cells[2]):
            raise InputError(
                f"{where}: {len(cells)} cells; expected team, address[, language] (several "
                f'addresses go in one quoted cell: "a@example.org, b@example.org")'
            )
        team, to = cells[0], cells[1]
        try:
            addresses = tuple(parse_addresses(to))
        except ValueError as exc:
            raise InputError(f"{where}, column 2: {exc}") from None
        _utf8_note(where, addresses)
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
        out.append(Recipient(team, addresses, wording, number))
    if not out:
        raise InputError(f"{shown}: no team and address (expected rows: team, address[, language])")
    return Recipients(shown, out)


def _won(analysis: Analysis, comp, runs: list[str], fmt: model.Format) -> list[str]:
    """The winner's sentences: one per run of ``runs`` that ranked first among the competing
    runs of ``comp`` (the team sheet's stored ``is_best``), counted as the letter counts them."""
    out = []
    for system in runs:
        if not comp.primary.score_of(system).is_best:
            continue
        c = team_context(analysis, comp, system, fmt)
        if c["competing"] <= 1:
            continue  # the only competing run: nothing was won
        words = dict(system=system, m=c["runs_n"], competition=comp.name, metric=c["metric"])
        out.append(
            tr(
                "Your run {system} ranked first of the {m} competing runs of {competition} with "
                "the best {metric}, tied exactly with {others}.",
                others=", ".join(c["co_winners"]),
                **words,
            )
            if c["co_winners"]
            else tr(
                "Your run {system} ranked first of the {m} competing runs of {competition} with "
                "the best {metric}.",
                **words,
            )
        )
        if c["baselines_above"]:
            out.append(
                tr(
                    "Baselines do not compete; scored higher: {baselines}.",
                    baselines=", ".join(c["baselines_above"]),
                )
            )
    return out


def _run_lines(analysis: Analysis, comp, system: str, fmt: model.Format) -> list[str]:
    """One run's lines of the body: its rank, score and interval, then the letter's sentences
    (its verdict against the winner or the runner-up, how many runs it is significantly better
    than, its verdict against each baseline), from the letter's own context."""
    s = analysis.settings
    c = team_context(analysis, comp, system, fmt)
    place = c["standing"]
    lines = [
        "- "
        + tr(
            "{run}: rank {rank}; {metric} = {score} ({level} CI {ci}).",
            run=run_label(place, system),
            rank=c["rank_among"],
            metric=c["metric"],
            score=c["score"],
            level=c["level"],
            ci=c["ci"],
        )
    ]
    if c["plain_verdict"]:
        undecided = c["comparison"]["significant"] == "undecided"
        lines.append(
            tr(
                c["plain_verdict"],
                system=system if undecided else tr("Your run {system}", system=system),
                other=c["comparison"]["other"],
                alpha=decimal(s.alpha),
            )
        )
    lines += c["better_sentences"] + c["vs_baselines"]
    return [lines[0]] + [f"  {x}" for x in lines[1:]]


def _excerpt_lines(comp, runs: list[str], fmt: model.Format, metric: str, level: str) -> list[str]:
    """The leaderboard excerpt around the team's runs as plain-text lines, the letter's rows
    (:func:`compreport.report.pages.team.excerpt_rows`): ``16. R (team T): 0.7094 [0.6894,
    0.7284]``, ``...`` for rows left out, the team's runs marked."""
    out = [tr("Leaderboard excerpt ({metric}, {level} CI):", metric=metric, level=level)]
    for r in excerpt_rows(comp, runs, fmt):
        if r is None:
            out.append("  ...")
            continue
        who = (
            tr("{system} (baseline)", system=r["system"])
            if r["team"] is None
            else r["system"]
            if r["team"] == r["system"]
            else tr("{run} (team {team})", run=r["system"], team=r["team"])
        )
        line = f"  {r['rank']}. {who}: {r['score']} {r['ci']}"
        out.append(line + " " + tr("<- your run") if r["mine"] else line)
    return out


def _body(analysis: Analysis, team: str, parts: list[tuple], fmt: model.Format) -> str:
    """The plain-text body: per competition, where the team stands (the letter's sentences:
    its rank among the teams, the winner), then one paragraph per run."""
    s = analysis.settings
    event = (analysis.workshop or {}).get("name") or ", ".join(comp.name for comp, _ in parts)
    lines = [
        tr("Dear members of {team},", team=team),
        "",
        tr("These are the results of your runs in {event}.", event=event)
        + " "
        + (
            tr("The attached PDF has a page per run with the details and the method.")
            if len(parts) == 1
            else tr(
                "The attached PDFs (one per competition) have a page per run with the details "
                "and the method."
            )
        ),
        "",
    ]
    won = [line for comp, runs in parts for line in _won(analysis, comp, runs, fmt)]
    if won:
        lines += [tr("Congratulations!") + " " + " ".join(won), ""]
    for comp, runs in parts:
        first = team_context(analysis, comp, runs[0], fmt)
        lines += [
            tr(
                "{competition}: ranked by {metric} ({direction}); {level} bootstrap intervals "
                "from {resamples} resamples; verdicts: {rule}, α = {alpha}.",
                competition=comp.name,
                metric=first["metric"],
                direction=first["direction"],
                level=first["level"],
                resamples=count(s.bootstrap),
                rule=s.rule,
                alpha=decimal(s.alpha),
            )
        ]
        lines += first["alerts"]
        lines += [x for x in (first["team_sentence"], first["winner_sentence"]) if x] + [""]
        lines += _excerpt_lines(comp, runs, fmt, first["metric"], first["level"]) + [""]
        for system in runs:
            lines += _run_lines(analysis, comp, system, fmt)
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


#: The headers of an email, each at most once: anything else read back is an injected header.
HEADERS = frozenset(
    (
        "from",
        "reply-to",
        "to",
        "subject",
        "x-unsent",
        "mime-version",
        "content-type",
        "content-transfer-encoding",
    )
)


def _check_headers(data: bytes, msg: EmailMessage, team: str) -> None:
    """Parse the email ``data`` back as a mail client does and check that it holds only
    :data:`HEADERS`, each once, no value with a control character, and the addresses and subject
    of ``msg``: a guard behind :func:`header_text`, so no header can be injected.

    Raises
    ------
    RuntimeError
        The email does not read back as written (a bug: nothing is written).
    """
    from email.parser import Parser

    # read as UTF-8, as a client supporting SMTPUTF8 reads it (an ASCII email is the same)
    back = Parser(policy=policy.default).parsestr(data.decode("utf-8", "surrogateescape"))
    names = [k.lower() for k in back.keys()]
    wrong = [k for k in names if k not in HEADERS or names.count(k) > 1]
    wrong += [k for k, v in back.items() if any(not ch.isprintable() for ch in str(v))]
    for key in ("from", "reply-to", "to"):
        if key in names:
            given = [a.addr_spec for a in msg[key].addresses]
            if [a.addr_spec for a in back[key].addresses] != given:
                wrong.append(key)
    if str(back["subject"]) != str(msg["subject"]):
        wrong.append("subject")
    if wrong:
        raise RuntimeError(
            f"the email to {team!r} does not read back as written (headers {sorted(set(wrong))}); "
            f"a bug in compreport, please report it"
        )


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
    sender = [recipients.sender] if recipients.sender else []
    recipients_reply = list(recipients.reply_to)
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
        everyone = [*r.addresses, *sender, *recipients_reply]
        # a non-ASCII part before an @ is written as it is, in UTF-8 (SMTPUTF8): an encoded word
        # there is no address; else every header is ASCII (RFC 2047 words in names and subject)
        utf8 = any(not a.username.isascii() for a in everyone)
        msg = EmailMessage(policy=policy.SMTPUTF8 if utf8 else policy.SMTP)
        if sender:
            msg["From"] = sender
        if recipients_reply:
            msg["Reply-To"] = recipients_reply
        msg["To"] = r.addresses
        with language(r.language or current()):
            # the workshop, else every competition the email covers
            event = title or ", ".join(comp.name for comp, _, _ in parts)
            subject = tr("{event}: results of {team}", event=event, team=r.team)
            msg["Subject"] = header_text(subject)
            body = _body(analysis, r.team, [(c, runs) for c, runs, _ in parts], fmt)
        msg["X-Unsent"] = "1"  # mail clients open the file as a draft, ready to send
        msg.set_content(body)
        digest = hashlib.sha256(f"{msg['From']}\n{msg['Reply-To']}\n{r.to}\n{body}".encode())
        for comp, _, pdf in parts:
            data = pdf.read_bytes()
            digest.update(data)
            msg.add_attachment(
                data, maintype="application", subtype="pdf", filename=f"{comp.id}-{pdf.name}"
            )
        # a boundary from the content: the same report gives the same file
        msg.set_boundary(f"==compreport-{digest.hexdigest()[:32]}")
        data = msg.as_bytes()
        _check_headers(data, msg, r.team)
        path = out / "emails" / files[r.team]
        path.parent.mkdir(parents=True, exist_ok=True)
        write_bytes(path, data)
        written.append(path)
    return written
