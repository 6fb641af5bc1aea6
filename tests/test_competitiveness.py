"""The competitiveness summary (paper Tables 6-11): counts a correction cannot compute at this B
print "–" with the reason and the B that would do (issue 36, item 5); under max-T the counts are
the verdicts."""

import html as htmllib
import re
import warnings

import numpy as np
import pytest

from compreport.errors import InputWarning, worded
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
        assert c["ties_with_winner"]["maxt"] == sum(
            s.differs_from_best is False or (s.undecided and s.p_vs_best >= 0.05) for s in ma.scores
        )  # an undecided verdict counts by its estimated p-value
    # a run warning with the B that would do
    notes = [s for s in said if "competitiveness summary" in s]
    assert len(notes) == 1 and "bonferroni, holm" in notes[0]
    # the core keeps it with its reference to -B/bootstrap=, which the edge words (Python here)
    assert "use bootstrap=12600 or more" in notes[0] and notes[0] in map(worded, ca.warnings)
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
    # (an undecided verdict counts by its estimated p-value)
    assert c["ties_with_winner"]["maxt"] == sum(
        s.differs_from_best is False or (s.undecided and s.p_vs_best >= 0.05) for s in competing
    )
    assert c["ties_with_winner"]["maxt"] == sum(
        v.significant is False or (v.undecided and v.p_maxt >= 0.05) for v in ma.vs_best
    )
    among = [p for p in ma.pairs if p.a not in base and p.b not in base]
    assert len(among) == c["possible_comparisons"] == 28
    assert c["ties"]["maxt"] == sum(
        p.significant is False or (p.undecided and p.p_maxt >= 0.05) for p in among
    )
    assert 0 < c["ties"]["maxt"] < 28  # informative: some pairs differ, some tie


def _count_ties(p, families, method, alpha=0.05):
    """Ties (corrected p >= alpha) of raw p-values ``p`` corrected within each label of
    ``families`` by statsmodels' ``method`` (an implementation independent of compreport's)."""
    from statsmodels.stats.multitest import multipletests

    p, families = np.asarray(p), np.asarray(families)
    ties = 0
    for f in np.unique(families):
        sel = families == f
        adj = p[sel] if method == "none" else multipletests(p[sel], method=method)[1]
        ties += int(np.sum(adj >= alpha))
    return ties


def test_the_paper_switch_counts_ties_by_the_papers_definitions():
    """Issue 36 item 8, on the demo's paraphrase task (7 runs and a baseline): `paper=True`
    gives the counts of the paper's definitions computed here from the bootstrap replicates
    alone: one-sided p = (1 + #{δ* >= 2δ})/(B + 1) (Berg-Kirkpatrick et al. 2012, the paper's
    Section 4.5), each row of the matrix corrected on its own (its Table 5), the baseline counted
    (m = 8, 28 comparisons, as PAR-MEX in its Table 11). The defaults count otherwise: m = 7
    participants, two-sided p-values corrected over all pairs."""
    import compreport as cr

    inputs = cr.load("examples/workshop/paraphrase")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        paper = cr.analyze(inputs, bootstrap=2_000, paper=True)
        default = cr.analyze(inputs, bootstrap=2_000, refine=False)
    s = paper.settings
    assert (s.test, s.family, s.include_baselines, s.refine, s.paper) == (
        "berg-kirkpatrick",
        "per-row",
        True,
        False,
        True,
    )
    assert paper.to_dict()["settings"]["paper"] is True
    ma = paper.competitions[0].primary
    c = ma.competitiveness
    # the paper's definitions, from the observed scores and the replicates alone
    observed = {x.system: x.score for x in ma.scores}
    column = {name: j for j, name in enumerate(ma.systems)}
    ranked = sorted(observed, key=lambda x: -observed[x])  # accuracy: higher is better
    reps = ma.replicates
    B = reps.shape[0]
    p, rows = [], []
    for i, a in enumerate(ranked):
        for b in ranked[i + 1 :]:
            delta = observed[a] - observed[b]
            star = reps[:, column[a]] - reps[:, column[b]]
            p.append((1 + np.sum(star >= 2 * delta)) / (B + 1))
            rows.append(i)
    p, rows = np.array(p), np.array(rows)
    winner = rows == 0
    assert (c["m"], c["possible_comparisons"], len(p)) == (8, 28, 28)
    for k, method in (
        ("none", "none"),
        ("bonferroni", "bonferroni"),
        ("holm", "holm"),
        ("bh", "fdr_bh"),
    ):
        assert c["ties_with_winner"][k] == _count_ties(p[winner], rows[winner], method), k
        assert c["ties"][k] == _count_ties(p, rows, method), k
    assert "maxt" not in c["ties"]  # max-T needs the two-sided bootstrap test
    # the defaults: participants only (m = 7, 21 pairs), other p-values, another family
    d = default.competitions[0].primary
    dc = d.competitiveness
    assert (dc["m"], dc["possible_comparisons"]) == (7, 21)
    base = set(default.competitions[0].baselines)
    among = [x for x in d.pairs if x.a not in base and x.b not in base]
    assert dc["ties"]["holm"] == _count_ties([x.p_value for x in among], [0] * 21, "holm")
    assert dc["ties_with_winner"]["holm"] == sum(v.p_holm >= 0.05 for v in d.vs_best)
    assert dc["ties"]["maxt"] == sum(
        x.significant is False or (x.undecided and x.p_maxt >= 0.05) for x in among
    )
    # the methods paragraph and the summary's caption say which settings produced the counts
    from compreport.report import prose

    said = prose.ties_settings(paper.settings)
    assert said.startswith("The tie counts and m follow the paper's settings (its switch)")
    assert "this report's settings; the paper's" in prose.ties_settings(default.settings)

    def caption(a):
        text = re.sub(r"\s+", " ", Report(a).to_latex("summary"))
        return text.replace(r"\textquotesingle{}", "'")

    assert "follow the paper's settings (its switch)" in caption(paper)
    assert "follow this report's settings; the paper's" in caption(default)


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ({"test": "bootstrap"}, "`test` bootstrap contradicts `paper`"),
        ({"family": "all-pairs"}, "`family` all-pairs contradicts `paper`"),
        ({"include_baselines": False}, "`include_baselines` false contradicts `paper`"),
        ({"correction": "holm"}, "`correction` holm contradicts `paper`"),
        ({"refine": True}, "`refine` true contradicts `paper`"),
    ],
)
def test_the_paper_switch_refuses_a_contradicting_option(given, said):
    from compreport.errors import InputError
    from compreport.settings import make_settings

    with pytest.raises(InputError, match=re.escape(said)):
        make_settings({"paper": True} | given)
    # the same values as the paper's are accepted
    assert make_settings({"paper": True, "test": "berg-kirkpatrick", "alpha": 0.1}).alpha == 0.1


def test_the_paper_switch_on_the_command_line(tmp_path):
    """`--paper` with a contradicting option: one line `error: ...`, exit status 2, before any
    work; `[bootstrap] paper = true` in a spec sets the same settings."""
    from conftest import run_cli

    r = run_cli(tmp_path, "report", "x", "--paper", "--test", "bootstrap", "-o", "out")
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [
        "error: --test bootstrap contradicts --paper, whose test is berg-kirkpatrick; "
        "drop one of them"
    ]
    from compreport.settings import make_settings

    assert make_settings({"paper": True}, "spec") == make_settings(
        {
            "test": "berg-kirkpatrick",
            "family": "per-row",
            "include_baselines": True,
            "correction": "bonferroni",
            "refine": False,
            "paper": True,
        }
    )
