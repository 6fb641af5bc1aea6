"""The team sheet: one page per run of a team (a team's letter holds the pages of all its runs).

Where the team stands (its rank among the teams, the winner, how many runs the run is
significantly better and worse than) is read once by :mod:`compreport.report.standing`, whose
sentences the e-mails print too; the leaderboard excerpt is :func:`excerpt_rows`.

The sheet names the workshop and the competition, the team's rank among the teams
(``comp.team_ranks``) and the run's among the runs. Every verdict on it is a stored one
(:mod:`compreport.stats.results`), said in plain words (:data:`PLAIN_VERDICTS`) and marked with
the sheet's one footnote, which gives the method and the rule that decided; the sheet never
decides. The difference to the winner and the list of systems it cannot be told apart from read
the same stored pair verdicts, so they cannot contradict each other.
"""

from __future__ import annotations

from types import MappingProxyType

from compreport.language import N_, decimal, tr
from compreport.report import model, prose
from compreport.report.metricnames import metric_title
from compreport.report.naming import pairs_file, team_letters, team_of
from compreport.report.pages.html import breakable, citation_segments, render, template_tr
from compreport.report.standing import (
    PLAIN,
    Words,
    better_sentences,
    excerpt,
    minus,
    page_label,
    standing,
    team_sentence,
    untested_why,
    winner_sentence,
)
from compreport.stats.results import Analysis, CompetitionAnalysis

#: A team sheet lists at most this many systems that cannot be told apart from the run (the nearest
#: in rank), and names the significantly different ones only when they are no more than this many.
ALIKE_LISTED = 30

#: The mark of the letter's one footnote (the method, the correction behind every verdict).
FOOTNOTE = "\u00b9"

#: The letter's verdicts in plain words, by whom the run is compared with and the stored verdict
#: (True: significant, False: not, None: not tested); ``{system}`` is the run, ``{other}`` the
#: winner or the runner-up. The rule that decided is in the footnote.
PLAIN_VERDICTS = MappingProxyType(
    {
        ("winner", True): N_(
            "{system} is significantly worse than the winner, {other}, at α = {alpha}."
        ),
        ("winner", False): N_(
            "{system} cannot be told apart from the winner, {other}, at α = {alpha}."
        ),
        ("winner", None): N_("{system} was not tested against the winner, {other}."),
        ("winner", "undecided"): N_(
            "Whether {system} differs from the winner, {other}, is undecided: its p-value is "
            "within the Monte-Carlo error of α = {alpha}."
        ),
        ("runner-up", True): N_(
            "{system} is significantly better than the runner-up, {other}, at α = {alpha}."
        ),
        ("runner-up", False): N_(
            "{system} cannot be told apart from the runner-up, {other}, at α = {alpha}."
        ),
        ("runner-up", None): N_("{system} was not tested against the runner-up, {other}."),
        ("runner-up", "undecided"): N_(
            "Whether {system} differs from the runner-up, {other}, is undecided: its p-value is "
            "within the Monte-Carlo error of α = {alpha}."
        ),
    }
)


def plain_verdict(
    settings, significant: bool | str | None, versus: str, system: str, other: str
) -> str:
    """The letter's verdict of ``system`` against ``other`` in plain words, as text, without the
    footnote mark: :data:`PLAIN_VERDICTS` for ``versus`` (``"winner"`` or ``"runner-up"``) and the
    stored ``significant`` (``"undecided"`` for an undecided verdict), in the current language.

    Examples
    --------
    >>> from compreport.settings import Settings
    >>> plain_verdict(Settings(), True, "winner", "Your run B.run2", "A.run1")
    'Your run B.run2 is significantly worse than the winner, A.run1, at α = 0.05.'
    """
    return tr(
        PLAIN_VERDICTS[versus, significant],
        system=system,
        other=other,
        alpha=decimal(settings.alpha),
    )


def _rank_among_runs(me, comp: CompetitionAnalysis, m: int) -> str:
    """``25 of 48 runs``; with baselines ``25 of 50 systems: 48 runs and 2 baselines`` (the stored
    rank counts the baselines)."""
    b = len(comp.baselines)
    if not b:
        return tr("{rank} of {m} runs", rank=me.rank, m=m)
    if b == 1:
        return tr(
            "{rank} of {m} systems: {runs} runs and 1 baseline", rank=me.rank, m=m, runs=m - 1
        )
    return tr(
        "{rank} of {m} systems: {runs} runs and {b} baselines", rank=me.rank, m=m, runs=m - b, b=b
    )


def _rank_set(me, settings) -> str | None:
    """The run's stored rank set as a phrase: ``rank 2–6 at 95% confidence, jointly for all
    systems``; None without one."""
    if me.rank_low is None or me.rank_high is None:
        return None
    if me.rank_low == me.rank_high:
        return tr(
            "rank {low} at {level} confidence, jointly for all systems",
            low=me.rank_low,
            level=prose.level(settings),
        )
    return tr(
        "rank {low}–{high} at {level} confidence, jointly for all systems",
        low=me.rank_low,
        high=me.rank_high,
        level=prose.level(settings),
    )


def _comparison(ma, fmt: model.Format, a: str, b: str, settings) -> dict:
    """The stored comparison of ``a`` and ``b`` as display text, oriented ``a`` − ``b`` (a baseline
    may rank above the best, so the pair can be stored the other way round); ``draws``: the
    resamples (rounds of the randomization test) behind its p-value when refinement drew more than
    the B of the intervals, else None."""
    c, flipped = ma.pair(a, b)
    sign = -1.0 if flipped else 1.0
    lo, hi = sorted((sign * c.ci_low, sign * c.ci_high)) if flipped else (c.ci_low, c.ci_high)
    return {
        "diff": minus(fmt.diff(sign * c.diff)),
        "ci": minus(fmt.interval(lo, hi, diff=True)),
        "p": fmt.p_is(c.p_value),
        "p_se": fmt.p(c.p_se),  # the error of the p-value that decides (module results)
        "p_adjusted": fmt.p(c.p_adjusted),
        "significant": "undecided" if c.undecided else c.significant,
        "draws": prose.draws(settings.test, r)
        if (r := prose.p_resamples(ma, settings.bootstrap))
        else None,
        "unsettled": prose.unsettled_note(settings, int(ma.verdicts.get("resamples") or 0))
        if c.settled is False
        else None,
    }


def excerpt_rows(comp: CompetitionAnalysis, systems: list[str], fmt: model.Format) -> list:
    """The leaderboard excerpt around ``systems`` (:func:`compreport.report.standing.excerpt`)
    as display text: dicts of ``rank``, ``system``, ``team`` (None for a baseline), ``score``,
    ``ci`` and ``mine``; None for a gap."""
    return [
        None
        if r is None
        else {
            "rank": r.rank,
            "system": r.system,
            "team": r.team,
            "score": minus(fmt.score(r.score)),
            "ci": minus(f"[{fmt.score(r.ci_low)}, {fmt.score(r.ci_high)}]"),
            "mine": r.mine,
        }
        for r in excerpt(comp, systems)
    ]


def team_context(
    analysis: Analysis,
    comp: CompetitionAnalysis,
    system: str,
    fmt: model.Format,
    words: Words = PLAIN,
) -> dict:
    """Everything the team sheet shows, read from the primary metric's stored results; the
    standing sentences (:mod:`compreport.report.standing`) put together by ``words`` (plain text
    by default, as the e-mails print them)."""
    s = analysis.settings
    ma = comp.primary
    me = ma.score_of(system)  # KeyError names the competition and the system
    runner = ma.score_of(ma.runner_up) if ma.runner_up else None
    comparison = verdict = None
    if me.is_best:
        if runner is not None:
            comparison = _comparison(ma, fmt, system, runner.system, s) | {"other": runner.system}
            verdict = prose.verdict(
                s, comparison["significant"], tr("The winner"), tr("the runner-up")
            )
    else:
        comparison = _comparison(ma, fmt, ma.best, system, s) | {"other": ma.best}
        verdict = prose.verdict(s, comparison["significant"], tr("The winner"), system)
    alike, untested, differ, undecided = [], [], [], []
    for x in ma.scores:
        if x.system != system:
            c, _ = ma.pair(system, x.system)
            if c.undecided:
                undecided.append(x.system)
            elif c.significant is None:
                untested.append(x.system)
            elif not c.significant:
                alike.append(x.system)
            else:
                differ.append(x.system)
    # with many systems the sheet names the nearest in rank only (a page cannot hold 299 names)
    rank_of = {x.system: k for k, x in enumerate(ma.scores)}
    near = sorted(alike, key=lambda a: (abs(rank_of[a] - rank_of[system]), rank_of[a]))[
        :ALIKE_LISTED
    ]
    alike_shown = sorted(near, key=rank_of.__getitem__) if len(alike) > ALIKE_LISTED else alike
    others = []
    for om in comp.metrics[1:]:
        o = om.score_of(system)
        others.append(
            {
                "name": metric_title(om),
                "direction": prose.direction(om),
                "score": minus(fmt.score(o.score)),
                "ci": minus(fmt.interval(o.ci_low, o.ci_high)),
                "rank": o.rank,
                "m": len(om.scores),
            }
        )
    best = ma.score_of(ma.best)
    team = team_of(comp, system)
    runs = team_letters(comp).get(team, (None, [system]))[1]
    team_rank = comp.team_rank(system)
    baseline = system in comp.baselines
    if comparison is None:
        plain = None
    elif me.is_best:
        plain = ("runner-up", comparison["significant"])
    else:
        plain = ("winner", comparison["significant"])
    place = standing(comp, system)
    return {
        "standing": place,
        "page_label": page_label(place, words),
        "team_sentence": team_sentence(place, words),
        "winner_sentence": winner_sentence(
            place, metric_title(ma), minus(fmt.score(best.score)), words
        ),
        "better_sentences": better_sentences(place, s, me.score, words),
        "excerpt": excerpt_rows(comp, [system], fmt),
        "team": team,
        "runs": runs,
        "workshop": (analysis.workshop or {}).get("name") or "",
        "team_rank": team_rank.rank if team_rank else None,
        "teams_n": len(comp.team_ranks),
        "baseline": baseline,
        "rank_among": _rank_among_runs(me, comp, len(ma.scores)),
        "rank_set": _rank_set(me, s),
        "plain_verdict": PLAIN_VERDICTS[plain] if plain else None,
        "footnote": FOOTNOTE,
        "alpha": decimal(s.alpha),
        "comp": comp,
        # the challenge, task, subtask and language that the competition's name does not say
        "subtitle": " \u00b7 ".join(
            b for b in prose.subtitle(comp).split(" \u00b7 ") if b and b not in comp.name
        ),
        "settings": s,
        "level": prose.level(s),
        "version": analysis.version,
        "metric": metric_title(ma),
        "direction": prose.direction(ma),
        "system": system,
        "m": len(ma.scores),
        "winner": me.is_best,
        "best": ma.best,
        # the systems that compete, as the analysis counted them
        "competing": int(ma.competitiveness["m"]),
        # the runs (baselines apart, competing or not): the count the rank's "35 runs and 1
        # baseline" and the standing sentences use
        "runs_n": len(ma.scores) - len(comp.baselines),
        "baselines_above": [
            x.system for x in ma.scores if x.system in comp.baselines and x.rank < me.rank
        ],
        "co_winners": [x.system for x in ma.scores if x.is_best and x.system != system],
        "score": minus(fmt.score(me.score)),
        "ci": minus(fmt.interval(me.ci_low, me.ci_high)),
        "rank": me.rank,
        "group": me.group or model.MISSING,
        "best_score": minus(fmt.score(best.score)),
        "comparison": comparison,
        "verdict": verdict,
        "rule": s.rule,
        "alike": alike,
        "alike_baselines": [a for a in alike if a in comp.baselines],
        "untested": untested,
        "undecided": undecided,
        "alike_shown": alike_shown,
        "alike_more": len(alike) - len(alike_shown),
        "differ": differ,
        "differ_listed": len(differ) <= ALIKE_LISTED,
        "listed": ALIKE_LISTED,
        "pairs_csv": f"{comp.id}/{pairs_file(comp, ma.name)}",
        "untested_why": untested_why(s, me.score),
        "others": others,
        # the stored verdicts against each baseline, with the p-value and the family behind them
        "vs_baselines": [prose.beats_baseline(s, v, fmt.p_is) for v in ma.beats_baselines(system)],
        # no significance groups on a letter: they stay in the organizer's report
        "method_sentences": citation_segments(prose.method_sentences(s, comp, groups=False)),
        "unit": prose.unit(comp),
        "alerts": [a for a in [prose.cannot_reject(s, ma)] if a],
    }


def team_html(
    analysis: Analysis,
    comp: CompetitionAnalysis,
    system: str,
    fmt: model.Format | None = None,
    *,
    for_pdf: bool = False,
) -> str:
    """The one-page sheet of one system as HTML.

    ``for_pdf``: the page :func:`compreport.report.pages.pdf.write_pdf` renders (see
    :mod:`compreport.report.pages.html`).
    """
    from markupsafe import Markup

    words = Words(
        say=template_tr,
        name=lambda x: Markup('<span class="system">{}</span>').format(breakable(x, for_pdf)),
        join=Markup(", ").join,
    )
    context = team_context(analysis, comp, system, fmt or model.Format(), words)
    return render("team.html", **context, for_pdf=for_pdf)
