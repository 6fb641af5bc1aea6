"""The organizer's view at 48 and 150 systems: page 1 of report.pdf, and the pages it takes.

Generates a competition of ``teams`` teams with three runs each (``TEAM.run1`` ...; the teams are
given, not inferred), analyses it, renders its ``report.pdf`` with WeasyPrint and prints the pages
and seconds. ``--png DIR`` writes page 1 as ``organizer-<m>.png`` (pdftoppm, 800 px high, 64
colours), the images of the docs' gallery::

    python benchmarks/organizer.py --png docs/img        # 16 and 50 teams: 48 and 150 systems

``tests/test_organizer_pages.py`` reads the same competitions back as text (pdftotext).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

#: Syllables of the generated team names (``Kanoru-NLP``, ``Tebisa``...).
_SYLLABLES = ("ka", "no", "ru", "te", "bi", "sa", "lo", "mi", "da", "ve", "xu", "po", "zen", "ia")


def team_names(k: int, seed: int = 0) -> list[str]:
    """``k`` distinct pronounceable team names, some with a suffix such as ``-NLP`` or ``_lab``."""
    rng = np.random.default_rng(seed)
    names: list[str] = []
    while len(names) < k:
        word = "".join(rng.choice(_SYLLABLES, size=int(rng.integers(2, 4)))).capitalize()
        word += str(rng.choice(["", "", "-NLP", "_lab", "-UNI", " Team"]))
        if word not in names:
            names.append(word)
    return names


def competition(teams: int, runs: int = 3, n: int = 1500, seed: int = 7):
    """A 3-class competition of ``teams`` teams with ``runs`` runs each (``TEAM.run1`` ...), plus
    one baseline; accuracies spread from about 0.45 to 0.80 so that neighbours tie."""
    from compreport.inputs.competition import Competition, MetricSpec

    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 3, n)
    names = team_names(teams, seed)
    systems, team_of, preds = [], {}, []
    skill = np.sort(rng.uniform(0.45, 0.8, teams))[::-1]
    for t, team in enumerate(names):
        for r in range(runs):
            name = f"{team}.run{r + 1}"
            p = skill[t] - rng.uniform(0, 0.04)
            keep = rng.random(n) < p
            preds.append(np.where(keep, gold, rng.integers(0, 3, n)))
            systems.append(name)
            team_of[name] = team
    systems.append("baseline.majority")
    team_of["baseline.majority"] = None
    preds.append(np.zeros(n, dtype=int))
    comp = Competition(
        id=f"sys{len(systems) - 1}",
        name=f"Stance {len(systems) - 1}: Generated task",
        gold=gold.astype(str)[:, None],
        predictions=np.array(preds).astype(str)[:, :, None],
        systems=systems,
        item_ids=np.arange(n).astype(str),
        metrics=[MetricSpec("macro_f1"), MetricSpec("accuracy")],
        fields=["label"],
    )
    comp.baselines = ["baseline.majority"]
    comp.teams = team_of
    comp.challenge, comp.year, comp.task, comp.language = "GenEval", 2026, "Stance", "English"
    return comp


def analysis(teams: int, bootstrap: int = 1000):
    """The :class:`~compreport.stats.results.Analysis` of :func:`competition` (``teams`` teams)."""
    from compreport.settings import Settings
    from compreport.stats.analysis import analyze_competition
    from compreport.stats.results import Analysis

    settings = Settings(bootstrap=bootstrap, refine=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        done = analyze_competition(competition(teams), settings, progress=False)
    return Analysis(settings, [done])


def report_pdf(a, path: Path) -> Path:
    """Write the report.pdf of ``a``'s one competition to ``path``; return ``path``."""
    from compreport.report.figures.gallery import Gallery
    from compreport.report.model import Format
    from compreport.report.pages import pdf

    comp = a.competitions[0]
    return pdf.write_report(a, comp, Format(), Gallery(a), path)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, nargs="+", default=[16, 50])
    parser.add_argument("-B", "--bootstrap", type=int, default=1000)
    parser.add_argument("--png", type=Path, help="write page 1 of each report as a PNG here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        for k in args.teams:
            t0 = time.perf_counter()
            a = analysis(k, args.bootstrap)
            t1 = time.perf_counter()
            m = len(a.competitions[0].systems) - 1
            pdf = report_pdf(a, Path(tmp) / f"report-{m}.pdf")
            t2 = time.perf_counter()
            info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
            pages = next(x.split()[-1] for x in info.splitlines() if x.startswith("Pages:"))
            print(
                f"{m} systems + 1 baseline: {pages} pages; analysis {t1 - t0:.1f} s, "
                f"PDF {t2 - t1:.1f} s"
            )
            if args.png:
                stem = Path(tmp) / f"p{m}"
                subprocess.run(
                    ["pdftoppm", "-f", "1", "-l", "1", "-png", "-scale-to", "800", str(pdf), stem],
                    check=True,
                )
                args.png.mkdir(parents=True, exist_ok=True)
                from PIL import Image

                # a 64-colour palette, as docs/img/make_images.sh writes the gallery's images
                png = Image.open(next(Path(tmp).glob(f"p{m}*.png"))).convert("RGB")
                png.quantize(64).save(args.png / f"organizer-{m}.png", optimize=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
