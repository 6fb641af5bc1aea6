"""The emails to the teams: headers (From, Reply-To, X-Unsent), a body a team reads (salutation,
attachments, the winner's sentence), addresses written as mail servers read them (IDNA domains,
UTF-8 local parts) and malformed addresses refused with their row. Each .eml is parsed back with
the standard library's email package."""

from __future__ import annotations

import dataclasses
import shutil
from email import policy
from email.parser import BytesParser, Parser
from pathlib import Path

import pytest

import compreport as cr
from compreport.errors import InputError, Note
from compreport.report import check_write_options
from compreport.report.model import Format
from compreport.report.naming import competition_dir, team_letters
from compreport.report.pages import pdf
from compreport.report.pages.emails import read_recipients, senders, write_emails
from conftest import run_cli, write_binary_task

pytest.importorskip("weasyprint")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

#: Runs as files named Team.NN: R&D_team's first run is far ahead, Beta and Gamma far behind.
RUNS = {"R&D_team.01": 0.97, "R&D_team.02": 0.75, "Beta.01": 0.6, "Gamma.01": 0.55}


def _task(root: Path) -> Path:
    """A gold file and a runs folder under ``root`` (150 items, :data:`RUNS`); returns the gold
    file."""
    return write_binary_task(root, RUNS, n=150)


@pytest.fixture(scope="module")
def letters(tmp_path_factory):
    """An analysis of two competitions (the same runs under two names) and the teams' letters,
    rendered as Report.write renders them, under ``root/letters``."""
    root = tmp_path_factory.mktemp("emails")
    data = cr.load(_task(root), runs=root / "runs", metrics="accuracy", name="gold")
    one = cr.analyze(data, bootstrap=199, seed=2)
    first = one.competitions[0]
    second = dataclasses.replace(first, id="second", name="Second task")
    both = dataclasses.replace(one, competitions=[first, second], workshop=None)
    out = root / "letters"
    for comp in both.competitions:
        for name, runs in team_letters(comp).values():
            pdf.write_letter(
                both, comp, runs, Format(), competition_dir(out, comp) / "teams" / name
            )
    return one, both, out


def _emails(analysis, letters_dir: Path, tmp_path: Path, rows: str, **sender):
    """Write the emails of ``rows`` (a contacts file's text) beside a copy of the letters; return
    ``{file name: (raw bytes, parsed message)}``."""
    out = tmp_path / "out"
    shutil.copytree(letters_dir, out)
    (tmp_path / "contacts.csv").write_text(rows, encoding="utf-8")
    recipients = read_recipients(tmp_path / "contacts.csv")
    if sender:
        recipients = dataclasses.replace(recipients, **sender)
    written = write_emails(analysis, out, recipients)
    return {
        p.name: (p.read_bytes(), BytesParser(policy=policy.default).parsebytes(p.read_bytes()))
        for p in written
    }


def _body(msg) -> str:
    return msg.get_body(preferencelist=("plain",)).get_content().replace("\r\n", "\n")


@pytest.mark.slow
def test_cli_email_has_from_reply_to_x_unsent_and_the_letter(tmp_path):
    """``compreport report ... --emails --email-from --reply-to``: every .eml parses back with
    its From, Reply-To, To and ``X-Unsent: 1``, and the team's letter attached, byte for byte."""
    gold = _task(tmp_path)
    (tmp_path / "contacts.csv").write_text(
        "team,address\nR&D_team,Ana <ana@example.org>\nBeta,beta@example.org\n"
    )
    res = run_cli(
        tmp_path,
        *("report", str(gold), "--runs", "runs", "--name", "gold", "-o", "out"),
        *("--format", "json,pdf"),
        *("--metric", "accuracy", "--figure-formats", "svg", "-B", "199"),
        *("--emails", "contacts.csv"),
        *("--email-from", "Task organizers <task@example.org>"),
        *("--reply-to", "task@example.org, chair@example.org"),
    )
    assert res.returncode == 0, res.stderr
    assert "error:" not in res.stderr
    out = tmp_path / "out"
    assert sorted(p.name for p in (out / "emails").iterdir()) == ["beta.eml", "r-d-team.eml"]
    msg = BytesParser(policy=policy.default).parse((out / "emails/r-d-team.eml").open("rb"))
    assert msg["From"] == "Task organizers <task@example.org>"
    assert msg["Reply-To"] == "task@example.org, chair@example.org"
    assert msg["To"] == "Ana <ana@example.org>"
    assert msg["X-Unsent"] == "1"
    (attachment,) = msg.iter_attachments()
    assert attachment.get_content_type() == "application/pdf"
    (letter,) = (out / "gold" / "teams").glob("r-d-team*.pdf")
    assert attachment.get_filename() == f"gold-{letter.name}"
    assert attachment.get_content() == letter.read_bytes()


def test_email_without_sender_still_has_x_unsent(letters, tmp_path):
    """Without --email-from and --reply-to there is no From or Reply-To (the mail client fills in
    its account), and still X-Unsent."""
    one, _, out = letters
    with pytest.warns(Note):  # teams without an address
        emails = _emails(one, out, tmp_path, "Beta,beta@example.org\n")
    (_, msg) = emails["beta.eml"]
    assert list(msg.keys())[:3] == ["To", "Subject", "X-Unsent"]
    assert msg["From"] is None and msg["Reply-To"] is None and msg["X-Unsent"] == "1"


@pytest.mark.parametrize(
    "email_from, reply_to, words",
    [
        ("@b", None, "--email-from: '@b' is not an email address: nothing before the @"),
        ("a@x.org, b@x.org", None, "--email-from: give one address, not 2"),
        (None, "a b@c.com", "--reply-to: 'a b@c.com' is not an email address: a space"),
    ],
)
def test_cli_bad_sender_is_one_error_before_any_work(tmp_path, email_from, reply_to, words):
    gold = _task(tmp_path)
    (tmp_path / "contacts.csv").write_text("Beta,beta@example.org\n")
    given = [*(["--email-from", email_from] if email_from else [])]
    given += ["--reply-to", reply_to] if reply_to else []
    res = run_cli(
        tmp_path,
        *("report", str(gold), "--runs", "runs", "--name", "gold", "-o", "out"),
        *("--format", "json,pdf"),
        *("--metric", "accuracy", "--emails", "contacts.csv", *given),
    )
    assert res.returncode == 2
    lines = [x for x in res.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], lines
    assert not (tmp_path / "out").exists()


def test_sender_is_checked_in_python_words_and_twin_is_kept(tmp_path):
    with pytest.raises(InputError, match=r"^`email_from`: '<a@b.com' is not an email address"):
        senders("<a@b.com", None)
    sender, reply = senders("Org <org@example.org>", "a@example.org, B <b@example.org>")
    assert str(sender) == "Org <org@example.org>"
    assert [str(a) for a in reply] == ["a@example.org", "B <b@example.org>"]
    (tmp_path / "c.csv").write_text("Beta,beta@example.org\n")
    *_, recipients = check_write_options("json,pdf", "svg", tmp_path / "c.csv", str(sender), None)
    assert recipients.sender == sender and recipients.reply_to == ()


def test_sender_without_emails_is_a_note():
    with pytest.warns(Note, match="email_from` applies to the emails"):
        assert check_write_options("json", "svg", None, "org@example.org") == (
            ["json"],
            ["svg"],
            None,
        )


def test_salutation_capital_and_one_attachment_in_the_singular(letters, tmp_path):
    one, _, out = letters
    with pytest.warns(Note):
        emails = _emails(one, out, tmp_path, "R&D_team,rd@example.org\nBeta,b@example.org,es\n")
    body = _body(emails["r-d-team.eml"][1])
    assert body.startswith(
        "Dear members of R&D_team,\n\nThese are the results of your runs in gold. "
        "The attached PDF has a page per run"
    ), body
    assert "R&D_team team" not in body
    assert _body(emails["beta.eml"][1]).startswith(
        "Estimados miembros de Beta:\n\nEstos son los resultados de sus envíos en gold. "
        "El PDF adjunto tiene"
    )


def test_several_attachments_are_in_the_plural(letters, tmp_path):
    _, both, out = letters
    with pytest.warns(Note):
        emails = _emails(both, out, tmp_path, "Beta,b@example.org\nGamma,g@example.org,es\n")
    _, msg = emails["beta.eml"]
    assert len(list(msg.iter_attachments())) == 2
    assert "The attached PDFs (one per competition) have a page per run" in _body(msg)
    assert "Los PDF adjuntos (uno por competición) tienen" in _body(emails["gamma.eml"][1])


def test_the_winner_is_told_it_ranked_first_and_the_others_are_not(letters, tmp_path):
    one, both, out = letters
    primary = one.competitions[0].primary
    assert primary.best == "R&D_team.01" and primary.score_of("R&D_team.01").is_best
    rows = "R&D_team,rd@example.org\nBeta,b@example.org\nGamma,g@example.org,es\n"
    emails = _emails(one, out, tmp_path, rows)
    winner = _body(emails["r-d-team.eml"][1])
    assert (
        "Congratulations! Your run R&D_team.01 ranked first of the 4 competing runs of gold "
        "with the best accuracy." in winner
    ), winner
    assert "R&D_team.02 ranked first" not in winner
    for name in ("beta.eml", "gamma.eml"):
        body = _body(emails[name][1])
        assert "ranked first" not in body and "Congratulations" not in body
        assert "quedó primer" not in body and "quedó en primer lugar" not in body
        assert "Enhorabuena" not in body
    # a team that won two competitions gets a sentence for each
    with pytest.warns(Note):  # Beta and Gamma have no address here
        both_emails = _emails(both, out, tmp_path / "two", "R&D_team,rd@example.org\n")
    two = _body(both_emails["r-d-team.eml"][1])
    assert "competing runs of gold with" in two
    assert "competing runs of Second task with" in two


def test_a_winner_tied_exactly_is_told_with_whom(tmp_path):
    """Two teams whose runs predict the same labels share the first place: each is told so."""
    gold = _task(tmp_path)
    runs = tmp_path / "runs"
    (runs / "Tied.01.tsv").write_bytes((runs / "R&D_team.01.tsv").read_bytes())
    analysis = cr.analyze(
        cr.load(gold, runs=runs, metrics="accuracy", name="gold"), bootstrap=99, seed=1
    )
    comp = analysis.competitions[0]
    out = tmp_path / "letters"
    name, team_runs = team_letters(comp)["Tied"]
    pdf.write_letter(
        analysis, comp, team_runs, Format(), competition_dir(out, comp) / "teams" / name
    )
    with pytest.warns(Note):  # the other teams have no address
        emails = _emails(analysis, out, tmp_path / "e", "Tied,t@example.org\n")
    assert (
        "Congratulations! Your run Tied.01 ranked first of the 5 competing runs of gold with "
        "the best accuracy, tied exactly with R&D_team.01." in _body(emails["tied.eml"][1])
    )


def test_spanish_winner_sentence(letters, tmp_path):
    one, _, out = letters
    with pytest.warns(Note):
        emails = _emails(one, out, tmp_path, "R&D_team,rd@example.org,es\n")
    assert (
        "¡Enhorabuena! Su envío R&D_team.01 quedó en primer lugar entre los 4 envíos que "
        "compiten en gold, con el mejor valor de exactitud." in _body(emails["r-d-team.eml"][1])
    )


def test_non_ascii_domain_is_idna_encoded_and_ascii_twin_unchanged(letters, tmp_path):
    one, _, out = letters
    rows = "Beta,Ana Núñez <ana@bücher.example>\nGamma,g@example.org\n"
    with pytest.warns(Note):
        emails = _emails(one, out, tmp_path, rows)
    raw, msg = emails["beta.eml"]
    header = raw.split(b"\r\n\r\n", 1)[0]
    assert b"<ana@xn--bcher-kva.example>" in header and "bücher".encode() not in header
    assert raw.isascii()  # an ASCII address: the display name is an RFC 2047 word, as it may be
    (address,) = msg["To"].addresses
    assert (address.display_name, address.domain) == ("Ana Núñez", "xn--bcher-kva.example")
    raw, msg = emails["gamma.eml"]
    assert msg["To"] == "g@example.org" and raw.isascii()


def test_non_ascii_local_part_is_written_in_utf8_with_a_note(letters, tmp_path):
    """``josé@example.es`` is written as it is in UTF-8 (SMTPUTF8), never as an encoded word
    inside the address, which no server delivers; a note says so and names the row."""
    one, _, out = letters
    with pytest.warns(Note, match=r"contacts.csv, row 1: 'josé@example.es' .* SMTPUTF8"):
        emails = _emails(one, out, tmp_path, "Beta,josé@example.es\n")
    raw, _ = emails["beta.eml"]
    header = raw.split(b"\r\n\r\n", 1)[0]
    assert "To: josé@example.es\r\n".encode() in header and b"=?" not in header
    # an RFC 6532 message is UTF-8 text (BytesParser reads headers as ASCII)
    msg = Parser(policy=policy.default).parsestr(raw.decode("utf-8"))
    (address,) = msg["To"].addresses
    assert (address.username, address.domain) == ("josé", "example.es")
    assert len(list(msg.iter_attachments())) == 1


@pytest.mark.parametrize(
    "address, words",
    [
        ("@b", "'@b' is not an email address: nothing before the @"),
        ("a b@c.com", "'a b@c.com' is not an email address: a space before the @"),
        ("<a@b.com", "'<a@b.com' is not an email address: a < without its >"),
        ("a@b.com>", "'a@b.com>' is not an email address: a < without its >"),
        ("a@b@c.org", "'a@b@c.org' is not an email address: more than one @"),
        ("ana@example", "'ana@example' is not an email address: the domain 'example' has no dot"),
        ("ana@", "'ana@' is not an email address: nothing after the @"),
        ("ana@x..org", "two dots in a row"),
        ("ana@straße.de", "write it in its ASCII form (xn--...)"),
        ("a@x.org b@x.org", "'a@x.org b@x.org' is not an email address: more than one @"),
        ('"a@x.org,, b@x.org"', "'' is not an email address: an empty address"),
        ("a@x.org, b@x.org", "3 cells; expected team, address[, language] (several addresses go"),
        ("a@x.org,en,b@x.org", "4 cells; expected team, address[, language]"),
        ('"Ana, B <ana@x.org>"', "is not an email address"),
        # issue 41, item 2: one addr-spec per item, a name that reads as an address refused
        ("alice@example.org)<bob@example.org>", "')' in the name before the <; a name holding"),
        ('"""alice@example.org"" <bob@example.org>"', "an @ in the name before the <"),
        ("=?utf-8?q?alice=40example.org?= <bob@example.org>", "an @ in the name before the <"),
        ("Ana (CEO) <ana@x.org>", "'(' in the name before the <"),
    ],
)
def test_malformed_address_is_one_error_naming_the_row(tmp_path, address, words):
    (tmp_path / "a.csv").write_text(f"team,address\nBeta,{address}\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"a\.csv, row 2(, column 2)?: ") as info:
        read_recipients(tmp_path / "a.csv")
    assert words in str(info.value), str(info.value)
    # an address's error names its column; a row's (cells counted) names the row alone
    assert ("column 2" in str(info.value)) == ("is not an email address" in str(info.value))
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "address, to",
    [
        ("ana@example.org", "ana@example.org"),
        ('"Ana <Ana@Example.org>"', "Ana <Ana@Example.org>"),
        ('"""Núñez, Ana"" <ana@x.org>, bo@x.org"', '"Núñez, Ana" <ana@x.org>, bo@x.org'),
        ("ana+task@münchen.de", "ana+task@xn--mnchen-3ya.de"),
        ("o'brien@x.org", "o'brien@x.org"),
        ("ana@xn--mnchen-3ya.de", "ana@xn--mnchen-3ya.de"),
        # the twins of issue 41, item 2: a dot in a plain name, an encoded word decoded
        ("J. Smith <j@x.org>", '"J. Smith" <j@x.org>'),
        ("=?utf-8?q?Jos=C3=A9?= <j@x.org>", "José <j@x.org>"),
        ('"""Ana (CEO)"" <ana@x.org>"', '"Ana (CEO)" <ana@x.org>'),
    ],
)
def test_well_formed_address_twin_is_read(tmp_path, address, to):
    (tmp_path / "a.csv").write_text(f"team,address\nBeta,{address}\n", encoding="utf-8")
    (row,) = read_recipients(tmp_path / "a.csv").rows
    assert (row.team, row.to, row.row) == ("Beta", to, 2)


def test_example_contacts_file_lists_every_team_of_the_example_workshop():
    """examples/contacts.csv (comments, then a header) reads without a note and names every team
    of examples/workshop, once."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        recipients = read_recipients(EXAMPLES / "contacts.csv")
    teams = {
        team
        for comp in cr.load(EXAMPLES / "workshop").competitions
        for team in comp.teams.values()
        if team is not None
    }
    assert sorted(r.team for r in recipients.rows) == sorted(teams)
    by_team = {r.team: r for r in recipients.rows}
    assert by_team["Iruñea-HLT"].to == "hlt@xn--iruea-qta.example"
    assert by_team["Álvarez-UNED"].addresses[0].display_name == "Álvarez, Lucía"
    assert by_team["Álvarez-UNED"].language == "es"


# issue 41, item 2: header injection through RFC 2047 encoded words. CR/LF stripped before
# encoding came back when the mail library decoded ``=?utf-8?q?...=0D=0A...?=``: a Bcc in a draft.

#: Team names that decode to CR LF and a header: quoted-printable, base64, and one nested twice.
HOSTILE_TEAMS = [
    "=?utf-8?q?T=0D=0ABcc:_t@evil.example?=",
    "=?utf-8?b?Qg0KQmNjOiBiQGV2aWwuZXhhbXBsZQ==?=",  # "B\r\nBcc: b@evil.example"
    "=?utf-8?q?=3D=3Futf-8=3Fq=3FN=3D0D=3D0ABcc:_n@evil.example=3F=3D?=",
]

#: The headers an email may hold, each once.
ALLOWED = {
    "From",
    "Reply-To",
    "To",
    "Subject",
    "X-Unsent",
    "MIME-Version",
    "Content-Type",
    "Content-Transfer-Encoding",
}


def _hostile_emails(tmp_path, contacts: str, name: str, email_from=None, reply_to=None):
    """Emails of a competition whose teams are :data:`HOSTILE_TEAMS` and ``Beta`` (stand-in
    letters) named ``name``, to the ``contacts`` rows; ``{file name: (raw bytes, parsed
    message)}``."""
    runs = {f"{team}.01": 0.9 - 0.1 * i for i, team in enumerate([*HOSTILE_TEAMS, "Beta"])}
    root = tmp_path / "task"
    gold = write_binary_task(root, runs, n=120)
    data = cr.load(gold, runs=root / "runs", metrics="accuracy", name=name)
    with pytest.warns(Warning):
        analysis = cr.analyze(data, bootstrap=99, seed=1)
    comp = analysis.competitions[0]
    out = tmp_path / "out"
    for name, _ in team_letters(comp).values():
        letter = competition_dir(out, comp) / "teams" / name
        letter.parent.mkdir(parents=True, exist_ok=True)
        letter.write_bytes(b"%PDF-1.4 stand-in\n")
    (tmp_path / "contacts.csv").write_text(contacts, encoding="utf-8")
    sender, reply = senders(email_from, reply_to)
    recipients = dataclasses.replace(
        read_recipients(tmp_path / "contacts.csv"), sender=sender, reply_to=reply
    )
    written = write_emails(analysis, out, recipients)
    return {
        p.name: (p.read_bytes(), BytesParser(policy=policy.default).parsebytes(p.read_bytes()))
        for p in written
    }


def _only_expected_headers(msg) -> None:
    keys = list(msg.keys())
    assert set(keys) <= ALLOWED and len(keys) == len(set(keys)), keys
    for key, value in msg.items():
        assert not any(ch in str(value) for ch in "\r\n\t\x00"), (key, str(value))


def test_encoded_words_decoding_to_cr_lf_inject_no_header(tmp_path):
    """Hostile team names (encoded words, nested too), display names in the contacts file,
    --email-from and --reply-to that decode to CR LF and a header: every .eml parses back with the
    expected headers only, each once, the addresses as given, and the names shown on one line."""
    contacts = "".join(
        f'"{team}","""=?utf-8?q?A{i}=0D=0AX-Evil:_{i}?="" <team{i}@example.org>"\n'
        for i, team in enumerate(HOSTILE_TEAMS)
    )
    emails = _hostile_emails(
        tmp_path,
        contacts + "Beta,beta@example.org\n",
        "=?utf-8?q?C=0AX-C:_1?=",
        email_from="=?utf-8?q?Org=0D=0AX-Evil=3A_from?= <org@example.org>",
        reply_to='"=?utf-8?q?R=0D=0ABcc:_r?=" <r@example.org>, s@example.org',
    )
    assert len(emails) == 4
    for raw, msg in emails.values():
        _only_expected_headers(msg)
        # the header block (the body's quoted-printable soft breaks may start a line with any
        # text of a name the body prints, as the leaderboard excerpt does: no header there)
        head = raw.split(b"\r\n\r\n", 1)[0]
        assert b"\nBcc" not in head and b"\nX-Evil" not in head and b"\nX-C:" not in head
        assert not any(x.startswith(("Bcc", "X-Evil", "X-C:")) for x in _body(msg).split("\n"))
        assert [a.addr_spec for a in msg["From"].addresses] == ["org@example.org"]
        assert msg["From"].addresses[0].display_name == "Org X-Evil: from"
        assert [a.addr_spec for a in msg["Reply-To"].addresses] == [
            "r@example.org",
            "s@example.org",
        ]
        assert "C X-C: 1" in str(msg["Subject"])
    for i in range(len(HOSTILE_TEAMS)):
        (msg,) = [m for _, m in emails.values() if m["To"].addresses[0].username == f"team{i}"]
        assert msg["To"].addresses[0].display_name == f"A{i} X-Evil: {i}"
        assert "Bcc: " in str(msg["Subject"])  # the name shown, on one line, not a header


def test_plain_names_twin_reads_back_unchanged(tmp_path):
    """The twin: ordinary names, display names and senders are written and read back as given."""
    emails = _hostile_emails(
        tmp_path,
        "Beta,Ana Pérez <ana@example.org>\n",
        "Gold task",
        email_from="Task organizers <task@example.org>",
        reply_to="chair@example.org",
    )
    (_, msg) = emails["beta.eml"]
    _only_expected_headers(msg)
    assert msg["To"] == "Ana Pérez <ana@example.org>"
    assert msg["From"] == "Task organizers <task@example.org>"
    assert msg["Reply-To"] == "chair@example.org"
    assert str(msg["Subject"]) == "Gold task: results of Beta"


@pytest.mark.parametrize(
    "email_from, reply_to, words",
    [
        ('"=?utf-8?q?A=0D=0ABcc:_x@evil.example?=" <a@example.org>', None, "an @ in the name"),
        ("=?utf-8?q?A=0D=0ABcc:_x@evil.example?= <a@example.org>", None, "':' in the name"),
        (None, "bob@example.org)<r@example.org>", "')' in the name before the <"),
    ],
)
def test_sender_naming_another_address_is_refused(email_from, reply_to, words):
    with pytest.raises(InputError, match=r"^`(email_from|reply_to)`: ") as info:
        senders(email_from, reply_to)
    assert words in str(info.value) and "\n" not in str(info.value)
