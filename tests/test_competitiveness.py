"""The competitiveness summary (paper Tables 6-11): counts a correction cannot compute at this B
print "–" with the reason and the B that would do (issue 36, item 5); under max-T the counts are
the verdicts."""

import html as htmllib
import re
import warnings

import numpy as np
import pytest

from compreport.errors import InputWarning
from compreport.report import Report, exports, model
from compreport.report.pages import html
from compreport.settings import Settings
from compreport.stats.analysis import analyze_competition
from compreport.stats.results import Analysis
from conftest import make_competition


def _spread(m: int, n: int = 300, seed: int = 5, baselines=()):
    """m binary-task systems with accuracies evenly from 0.9 to 0.6 on n items (seeded)."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 2, n)
    preds = [np.where(rng.random(n) < a, gold, 1 - gold) for a in np.linspace(0.9, 0.6, m)]
    comp = make_competition(gold, preds)
    comp.baselines = list(baselines)
    return comp


def _run(comp, settings):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always", InputWarning)
        ca = analyze_competition(comp, settings, progress=False)
    return ca, [str(w.message) for w in seen]


def _smallest_b(k: int, alpha: float) -> int:
    """The smallest B with k/(B + 1) < alpha, by search (independent of compreport's helper)."""
    return next(b for b in range(1, 10**6) if k / (b + 1) < alpha)


@pytest.mark.parametrize("correction", ["maxt", "holm"])
def test_36_systems_at_b_10000_print_a_dash_not_34_of_34(correction):
    """36 systems, 630 pairs, B = 10,000: Bonferroni and Holm cannot give a p-value below
    630/10,001 = 0.063 > 0.05, so every one of the winner's 35 comparisons "ties" under them
    whatever the data (the artefact `35/35`). The summary prints "–" for them in LaTeX, HTML and
    CSV, a footnote and a run warning give B = 12,600; the other corrections print numbers."""
    comp = _spread(36)
    ca, said = _run(comp, Settings(bootstrap=10_000, correction=correction, refine=False))
    ma = ca.primary
    c = ma.competitiveness
    # the artefact the old summary printed: every comparison with the winner at or above alpha
    assert all(v.p_holm >= 0.05 and v.p_bonferroni >= 0.05 for v in ma.vs_best)
    assert len(ma.vs_best) == 35 and c["possible_comparisons"] == 630
    need = _smallest_b(630, 0.05)
    assert need == 12_600
    for part in ("ties_with_winner", "ties"):
        for k in ("bonferroni", "holm"):
            assert c[part][k] is None
            why = c["not_computable"][part][k]
            assert why["b_needed"] == need and why["resamples"] == 10_000
            assert why["min_p"] == pytest.approx(630 / 10_001)
        # none, BH and max-T can reach alpha (1/(B + 1)): numbers, from the stored p-values
        assert c[part]["none"] == sum(
            p.p_value >= 0.05 for p in (ma.vs_best if part == "ties_with_winner" else ma.pairs)
        )
    assert c["ties_with_winner"]["bh"] == sum(v.p_bh >= 0.05 for v in ma.vs_best)
    assert c["ties_with_winner"]["maxt"] == sum(v.p_maxt >= 0.05 for v in ma.vs_best)
    if correction == "maxt":  # the verdicts' own column
        assert c["ties_with_winner"]["maxt"] == sum(s.differs_from_best is False for s in ma.scores)
    # a run warning with the B that would do
    notes = [s for s in said if "competitiveness summary" in s]
    assert len(notes) == 1 and "bonferroni, holm" in notes[0]
    assert "use bootstrap=12600 or more" in notes[0] and notes[0] in ca.warnings
    # every table prints "–" where the count would be, and says why
    a = Analysis(Settings(bootstrap=10_000, correction=correction, refine=False), [ca])
    values = dict(zip(model.SUMMARY_ROWS, model.summary_values(ma), strict=True))
    tw = c["ties_with_winner"]
    assert values["Ties w/ win."] == f"{tw['none']}/–/–/{tw['bh']}/{tw['maxt']}"
    assert values["none/Bonf."] == f"{c['ties']['none']}/–"
    assert values["Holm/BH"] == f"–/{c['ties']['bh']}"
    latex = Report(a).to_latex("summary")
    assert f"Ties w/ win. & {values['Ties w/ win.']} \\\\" in latex
    why = "t: Bonferroni, Holm (smallest corrected p 0.063 with B = 10,000; B = 12,600 or more"
    assert why in latex and "cannot be computed with these resamples" in latex
    page = htmllib.unescape(html.index_html(a)).replace("\xa0", " ")
    assert why in re.sub(r"\s+", " ", page) and values["Ties w/ win."] in page
    csv = exports.summary_frame(a)
    assert list(csv[["ties_with_winner_holm", "ties_bonferroni"]].iloc[0]) == ["–", "–"]
    assert csv["ties_with_winner_none"].iloc[0] == tw["none"]
    assert "B >= 12600 would do" in csv["ties_not_computable"].iloc[0]


def test_a_correction_that_can_reach_alpha_prints_numbers():
    """12 systems, 66 pairs, B = 10,000: 66/10,001 < 0.05, so every count is a number (counted
    from the stored corrected p-values), with no footnote and no warning; the same 66 pairs at
    B = 1,000 (66/1,001 > 0.05) print "–" for Bonferroni and Holm alone."""
    comp = _spread(12)
    ca, said = _run(comp, Settings(bootstrap=10_000, correction="holm", refine=False))
    ma = ca.primary
    c = ma.competitiveness
    assert c["not_computable"] == {"ties_with_winner": {}, "ties": {}}
    assert not [s for s in said if "competitiveness summary" in s]
    for k, field in (("bonferroni", "p_bonferroni"), ("holm", "p_holm"), ("bh", "p_bh")):
        assert c["ties_with_winner"][k] == sum(getattr(v, field) >= 0.05 for v in ma.vs_best)
        assert c["ties"][k] == sum(getattr(p, field) >= 0.05 for p in ma.pairs)
    a = Analysis(Settings(bootstrap=10_000, correction="holm", refine=False), [ca])
    assert "–" not in "".join(map(str, model.summary_values(ma)))
    assert "cannot be computed" not in Report(a).to_latex("summary")
    assert exports.summary_frame(a)["ties_not_computable"].isna().all()
    small, _ = _run(comp, Settings(bootstrap=1_000, correction="holm", refine=False))
    nc = small.primary.competitiveness["not_computable"]
    assert set(nc["ties"]) == {"bonferroni", "holm"}
    assert nc["ties"]["holm"]["b_needed"] == _smallest_b(66, 0.05) == 1_320


def test_per_row_counts_the_winners_row():
    """Under --family per-row the winner's comparisons are corrected over its row alone (m - 1
    comparisons): 36 systems at B = 600 give 35/601 = 0.058 > 0.05 ("–"), at B = 700 35/701 < 0.05
    (numbers); the ties between competitors need their largest row (the top competitor's, 35)."""
    comp = _spread(36, n=200)
    for b, computable in ((600, False), (700, True)):
        ca, _ = _run(comp, Settings(bootstrap=b, family="per-row", correction="holm", refine=False))
        c = ca.primary.competitiveness
        assert (c["ties_with_winner"]["holm"] is not None) is computable
        assert (c["ties"]["holm"] is not None) is computable
        if not computable:
            assert c["not_computable"]["ties_with_winner"]["holm"]["comparisons"] == 35
            assert c["not_computable"]["ties"]["holm"]["b_needed"] == _smallest_b(35, 0.05)


def test_under_maxt_the_tie_counts_are_the_verdicts():
    """Under max-T (the default) the max-T counts come from the same simultaneous verdicts as the
    leaderboard and the pairs: ties with the winner are the competitors not significantly different
    from the best, ties between competitors the competitor pairs not significantly different (the
    family holds the baselines too, as the verdicts' does)."""
    comp = _spread(10, baselines=["s3", "s9"])
    ca, _ = _run(comp, Settings(bootstrap=2_000))
    ma = ca.primary
    c = ma.competitiveness
    base = set(comp.baselines)
    competing = [s for s in ma.scores if s.system not in base and not s.is_best]
    assert c["ties_with_winner"]["maxt"] == sum(s.differs_from_best is False for s in competing)
    assert c["ties_with_winner"]["maxt"] == sum(v.significant is False for v in ma.vs_best)
    among = [p for p in ma.pairs if p.a not in base and p.b not in base]
    assert len(among) == c["possible_comparisons"] == 28
    assert c["ties"]["maxt"] == sum(p.significant is False for p in among)
    assert 0 < c["ties"]["maxt"] < 28  # informative: some pairs differ, some tie
