"""One letter per team (all its runs, one page each) and the emails that carry them."""

from __future__ import annotations

import re
import shutil
import subprocess
from email import policy
from email.parser import BytesParser

import numpy as np
import pandas as pd
import pytest

import compreport as cr
from compreport.errors import InputError
from compreport.report.naming import team_letters
from compreport.report.pages.emails import read_recipients
from conftest import write_binary_task

pytest.importorskip("weasyprint")

#: Runs as files named Team.NN: team Alpha has two runs, team Beta one.
RUNS = {"Alpha.01": 0.92, "Alpha.02": 0.8, "Beta.01": 0.62}


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    root = tmp_path_factory.mktemp("letters")
    gold = write_binary_task(root, RUNS, n=120, seed=1)
    data = cr.load(gold, runs=root / "runs", metrics="accuracy")
    analysis = cr.analyze(data, bootstrap=199, seed=2)
    (root / "addresses.csv").write_text(
        "team,address,language\n"
        'Alpha,"Ana <ana@example.org>, bo@example.org",en\n'
        "Nobody,x@example.org\n",
        encoding="utf-8",
    )
    out = root / "out"
    written = cr.Report(analysis).write(
        out, "json,pdf", figure_formats=(), emails=root / "addresses.csv"
    )
    return analysis, out, written


def test_one_letter_per_team_with_a_page_per_run(report):
    analysis, out, written = report
    comp = analysis.competitions[0]
    letters = team_letters(comp)
    assert {t: runs for t, (_, runs) in letters.items()} == {
        "Alpha": ["Alpha.01", "Alpha.02"],
        "Beta": ["Beta.01"],
    }
    alpha = out / comp.id / "teams" / letters["Alpha"][0]
    assert alpha in written and sorted(
        p.name for p in (out / comp.id / "teams").iterdir()
    ) == sorted(f for f, _ in letters.values())
    if shutil.which("pdfinfo") is None:
        pytest.skip("poppler-utils not installed")
    info = subprocess.run(
        ["pdfinfo", str(alpha)], capture_output=True, text=True, check=True
    ).stdout
    assert re.search(r"^Pages:\s+2$", info, re.M), info
    pages = [
        subprocess.run(
            ["pdftotext", "-f", str(k), "-l", str(k), str(alpha), "-"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for k in (1, 2)
    ]
    # the page's run among the team's, best first: not the run's number in its name
    assert "Alpha.01" in pages[0] and "your best run, page 1 of 2" in pages[0]
    assert "Alpha.02" in pages[1] and "your 2nd-best run, page 2 of 2" in pages[1]


def test_email_parses_back_with_the_letter_attached(report):
    analysis, out, written = report
    comp = analysis.competitions[0]
    emails = sorted(p.relative_to(out).as_posix() for p in written if p.suffix == ".eml")
    assert emails == ["emails/alpha.eml"]  # Nobody has no run; Beta has no address
    msg = BytesParser(policy=policy.default).parse((out / "emails/alpha.eml").open("rb"))
    assert msg["To"] == "Ana <ana@example.org>, bo@example.org"
    assert "Bcc" not in msg and msg["Subject"].endswith("results of Alpha")
    body = msg.get_body(preferencelist=("plain",)).get_content()
    scores = {s.system: s for s in comp.primary.scores}
    for run, label in (("Alpha.01", "Your best run"), ("Alpha.02", "Your 2nd-best run")):
        assert (
            f"- {label}, {run}: rank {scores[run].rank} of 3 runs; accuracy = "
            f"{scores[run].score:.4f}" in body
        ), body
    (attachment,) = list(msg.iter_attachments())
    assert attachment.get_content_type() == "application/pdf"
    letter = out / comp.id / "teams" / team_letters(comp)["Alpha"][0]
    assert attachment.get_content() == letter.read_bytes()


@pytest.mark.slow
def test_hostile_team_name_cannot_inject_headers(report, tmp_path):
    """Team names come from participants: one with markup, quotes, a non-ASCII letter and CR/LF
    followed by a header (set on the analysis directly: no reader lets a newline through)."""
    import dataclasses

    analysis, _, _ = report
    hostile = 'Bé<ta> "q"\r\nBcc: evil@example.org'
    # team_ranks=[]: the analysis ranks the teams again, the hostile one among them
    comp = dataclasses.replace(
        analysis.competitions[0],
        teams={**analysis.competitions[0].teams, "Beta.01": hostile},
        team_ranks=[],
    )
    assert comp.team_rank("Beta.01").team == hostile
    analysis = dataclasses.replace(analysis, competitions=[comp])
    (tmp_path / "a.tsv").write_text(
        'team\taddress\n"' + hostile.replace('"', '""') + '"\tbeta@example.org\n', encoding="utf-8"
    )
    # the letters (WeasyPrint, as Report.write renders them), then the emails; Report.write's
    # report.pdf and figures would add 2 s here, and the fixture above runs it with --emails
    from compreport.report.model import Format
    from compreport.report.naming import competition_dir
    from compreport.report.pages import pdf
    from compreport.report.pages.emails import write_emails

    out = tmp_path / "out"
    for name, runs in team_letters(comp).values():
        pdf.write_letter(
            analysis, comp, runs, Format(), competition_dir(out, comp) / "teams" / name
        )
    written = write_emails(analysis, out, read_recipients(tmp_path / "a.tsv"))
    (eml,) = [p for p in written if p.suffix == ".eml"]
    assert eml.parent == out / "emails" and eml.name.endswith(".eml") and "<" not in eml.name
    msg = BytesParser(policy=policy.default).parse(eml.open("rb"))
    assert msg["Bcc"] is None and list(msg.keys()) == [
        "To",
        "Subject",
        "X-Unsent",
        "MIME-Version",
        "Content-Type",
    ]
    assert "\n" not in msg["Subject"] and "Bé<ta>" in msg["Subject"]


@pytest.mark.parametrize(
    "text, words",
    [
        ("team,address\nAlpha\n", "row 2: expected a team and an address"),
        (
            "team,address\nAlpha,not-an-address\n",
            "row 2, column 2: 'not-an-address' is not an email address",
        ),
        ("Alpha,a@x.org\nAlpha,b@x.org\n", "row 2: team 'Alpha' is listed twice (also row 1)"),
        ("team,address\n", "no team and address"),
    ],
)
def test_bad_addresses_file_is_one_error_naming_the_row(tmp_path, text, words):
    (tmp_path / "a.csv").write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match="a.csv") as info:
        read_recipients(tmp_path / "a.csv")
    assert words in str(info.value)


def test_letter_files_keep_latin_letters_and_a_shared_email_names_every_competition(
    report, tmp_path
):
    """Letter file names transliterate the Latin letters Unicode does not decompose (``Łódź`` was
    ``odz``); a team with runs in two competitions gets one email whose subject names both (it named
    the first only)."""
    import dataclasses

    from compreport.inputs.spec import slug
    from compreport.report.model import Format
    from compreport.report.naming import competition_dir
    from compreport.report.pages import pdf
    from compreport.report.pages.emails import write_emails

    assert [slug(x) for x in ("Łódź-NLP", "Straße.01", "Øresund", "Æsir")] == [
        "lodz-nlp",
        "strasse-01",
        "oresund",
        "aesir",
    ]
    analysis, _, _ = report
    first = analysis.competitions[0]
    second = dataclasses.replace(first, id="second", name="Second task")
    both = dataclasses.replace(analysis, competitions=[first, second], workshop=None)
    out = tmp_path / "out"
    for comp in both.competitions:
        name, runs = team_letters(comp)["Alpha"]
        pdf.write_letter(both, comp, runs, Format(), competition_dir(out, comp) / "teams" / name)
    (tmp_path / "a.csv").write_text("team,address\nAlpha,ana@example.org\n", encoding="utf-8")
    with pytest.warns(Warning):  # Beta has no address: a note
        (eml,) = write_emails(both, out, read_recipients(tmp_path / "a.csv"))
    msg = BytesParser(policy=policy.default).parse(eml.open("rb"))
    assert msg["Subject"] == f"{first.name}, Second task: results of Alpha", msg["Subject"]
    assert len([p for p in msg.iter_attachments()]) == 2


def test_chinese_japanese_and_korean_names_get_a_font_that_has_them(tmp_path):
    """A team letter naming 北京大学NLP, 東京大学 and 서울대학교 embeds a font with their glyphs
    (make demo installs fonts-wqy-microhei; fontconfig falls back to it for those characters), not
    DejaVu's empty boxes."""
    if not subprocess.run(["fc-list", ":lang=zh"], capture_output=True, text=True).stdout.strip():
        pytest.skip("no font for Chinese: `make demo` installs fonts-wqy-microhei")
    from compreport.report.model import Format
    from compreport.report.pages import pdf

    rng = np.random.default_rng(4)
    gold = rng.integers(0, 2, 80)
    names = ["北京大学NLP.01", "東京大学.01", "서울대학교.01"]
    df = pd.DataFrame(
        {
            "id": range(80),
            "y": gold,
            **{
                s: np.where(rng.random(80) < 0.6 + 0.1 * i, gold, 1 - gold)
                for i, s in enumerate(names)
            },
        }
    )
    analysis = cr.analyze(
        cr.from_frame(df, gold="y", id="id", metrics=["accuracy"], name="CJK"),
        bootstrap=100,
        refine=False,
    )
    comp = analysis.competitions[0]
    path = tmp_path / "letter.pdf"
    last = comp.primary.scores[-1].system
    pdf.write_letter(analysis, comp, [last], Format(), path)
    fonts = subprocess.run(
        ["pdffonts", str(path)], capture_output=True, text=True, check=True
    ).stdout
    assert any("DejaVu" not in line for line in fonts.splitlines()[2:]), fonts
    text = subprocess.run(
        ["pdftotext", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert last in text and comp.primary.best in text, text
