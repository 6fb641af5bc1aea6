"""Where a team stands: the counts and sentences the team letters and the e-mails share.

:func:`standing` reads one run's place from the stored analysis, once: the team's rank among the
teams (``comp.team_ranks``), the winners, and how many of the other runs the stored pair verdicts
find significantly better or worse than it (``MetricAnalysis.pairs``); the baselines' verdicts
are the stored ``MetricAnalysis.vs_baselines``. Nothing here tests or decides anything: it counts
verdicts the analysis stored. The sentence functions word a :class:`Standing` in the current
language; the letter (:mod:`compreport.report.pages.team`) and the e-mail body
(:mod:`compreport.report.pages.emails`) both print these sentences, so they say the same.

Counts are of *runs*, the participants' systems; baselines are in no team, are counted apart
("36 systems: 35 runs and 1 baseline") and have a sentence each (their stored verdicts).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from compreport.language import N_, current, decimal, tr
from compreport.report.naming import team_of
from compreport.settings import Settings
from compreport.stats.results import BaselineVerdict, CompetitionAnalysis

__all__ = ["PLAIN", "Row", "Standing", "Words", "excerpt", "minus", "ordinal", "standing"]


@dataclass(frozen=True)
class Words:
    """How the sentences are put together for one output: ``say`` translates a text and fills its
    placeholders (:func:`~compreport.language.tr`; the HTML pages' version escapes the values),
    ``name`` wraps a run's or team's name (HTML markup), ``join`` joins a list of names."""

    say: Callable = tr
    name: Callable = str
    join: Callable = ", ".join


#: Plain text: the e-mails.
PLAIN = Words()


@dataclass(frozen=True)
class Standing:
    """One run's place in one competition, read from the stored analysis by :func:`standing`.

    Attributes
    ----------
    system, team : str
        The run and its team.
    runs : tuple of str
        The team's runs, best first (the pages of its letter, in order).
    page : int
        The run's place among them, from 1 (its page of the letter).
    team_rank : int or None
        The team's stored rank among the teams (None for a baseline, which is in no team).
    teams : int
        The number of teams.
    tied_teams : tuple of str
        The other teams that share the team's rank.
    winners : tuple of (str, str)
        ``(run, team)`` of every run with the best score (several when they tie exactly).
    others : int
        The other runs (participants' systems but this one; baselines not counted).
    better, worse, alike, undecided, untested : int
        Of the ``others``, how many the stored pair verdicts find significantly worse than this
        run (it is significantly ``better`` than them), significantly better (``worse``), not
        significantly different (``alike``), undecided (``Comparison.undecided``) and not tested
        (``Comparison.significant`` None and settled).
    vs_baselines : tuple of BaselineVerdict
        The run's stored verdict against each baseline.

    Examples
    --------
    >>> s = Standing("A.1", "A", ("A.1",), 1, 2, 5, (), (("B.1", "B"),), 6, 3, 1, 2, 0, 0, ())
    >>> s.better + s.worse + s.alike + s.undecided + s.untested == s.others
    True
    """

    system: str
    team: str
    runs: tuple[str, ...]
    page: int
    team_rank: int | None
    teams: int
    tied_teams: tuple[str, ...]
    winners: tuple[tuple[str, str], ...]
    others: int
    better: int
    worse: int
    alike: int
    undecided: int
    untested: int
    vs_baselines: tuple[BaselineVerdict, ...]

    @property
    def team_won(self) -> bool:
        """A run of this team is among the winners."""
        return any(team == self.team for _, team in self.winners)


def standing(comp: CompetitionAnalysis, system: str) -> Standing:
    """The :class:`Standing` of ``system`` in ``comp`` under the primary metric, counted from the
    stored verdicts.

    Raises
    ------
    KeyError
        ``system`` is not a system of ``comp``.
    """
    ma = comp.primary
    ma.score_of(system)  # KeyError names the metric and the system
    baselines = set(comp.baselines)
    team = team_of(comp, system)
    mine = comp.team_rank(system)
    runs = tuple(mine.runs) if mine is not None else (system,)
    counts = dict.fromkeys(("better", "worse", "alike", "undecided", "untested"), 0)
    for x in ma.scores:
        if x.system == system or x.system in baselines:
            continue
        c, swapped = ma.pair(system, x.system)
        if c.undecided:
            counts["undecided"] += 1
        elif c.significant is None:
            counts["untested"] += 1
        elif not c.significant:
            counts["alike"] += 1
        else:
            counts["better" if (-c.diff if swapped else c.diff) > 0 else "worse"] += 1
    return Standing(
        system=system,
        team=team,
        runs=runs,
        page=runs.index(system) + 1 if system in runs else 1,
        team_rank=mine.rank if mine is not None else None,
        teams=len(comp.team_ranks),
        tied_teams=tuple(
            t.team
            for t in comp.team_ranks
            if mine is not None and t.rank == mine.rank and t.team != team
        ),
        winners=tuple((x.system, team_of(comp, x.system)) for x in ma.scores if x.is_best),
        others=sum(counts.values()),
        vs_baselines=tuple(ma.beats_baselines(system)),
        **counts,
    )


def ordinal(k: int) -> str:
    """``k`` as an ordinal number in the current language: ``1st``, ``2nd``, ``11th``, ``23rd``;
    ``1.º``, ``2.º`` in Spanish.

    >>> [ordinal(k) for k in (1, 2, 3, 4, 11, 12, 13, 21, 102)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '102nd']
    """
    if current() == "es":
        return f"{k}.\u00ba"
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def minus(text: str) -> str:
    """A number (or an interval ``[a, b]``) as prose prints it: with a true minus sign (U+2212)
    for the hyphen-minus of a negative number.

    >>> minus("[-0.012, 0.034]")
    '[\u22120.012, 0.034]'
    """
    return text.replace("-", "\u2212")


def untested_why(settings: Settings, score: float) -> str:
    """Why pairs of a run are not tested, in words: an undefined score, B = 0, or the family
    (``vs-best``, ``vs-baseline``) that leaves them out."""
    if not math.isfinite(score):
        return tr("its score is undefined")
    if not settings.bootstrap:
        return tr("with B = 0 no resamples were drawn, so no pair is tested")
    if settings.family == "vs-best":
        return tr("only the comparisons with the winner are tested")
    if settings.family == "vs-baseline":
        return tr("only the comparisons of participants with baselines are tested")
    return tr("their scores are undefined")


def page_label(s: Standing, w: Words = PLAIN) -> str | None:
    """The run's place in its team's letter: ``your best run, page 1 of 3``, ``your 2nd-best run,
    page 2 of 3``; None for a team of one run."""
    n = len(s.runs)
    if n <= 1:
        return None
    if s.page == 1:
        return w.say(N_("your best run, page {k} of {n}"), k=s.page, n=n)
    return w.say(N_("your {nth}-best run, page {k} of {n}"), nth=ordinal(s.page), k=s.page, n=n)


def run_label(s: Standing, system: str, w: Words = PLAIN) -> str:
    """How a sentence names the run at its start: ``Your best run, X``, ``Your 2nd-best run, X``,
    ``Your run X`` (a team of one run)."""
    if len(s.runs) <= 1:
        return w.say(N_("Your run {system}"), system=w.name(system))
    if s.page == 1:
        return w.say(N_("Your best run, {system}"), system=w.name(system))
    return w.say(N_("Your {nth}-best run, {system}"), nth=ordinal(s.page), system=w.name(system))


def team_sentence(s: Standing, w: Words = PLAIN) -> str | None:
    """The team's rank among the teams, one sentence; None for a run in no team.

    >>> s = Standing("A.1", "A", ("A.1",), 1, 9, 14, (), (("B.1", "B"),), 34, 3, 1, 30, 0, 0, ())
    >>> team_sentence(s)
    'Your team, A, ranks 9th of the 14 teams, each team ranked by its best run.'
    """
    if s.team_rank is None:
        return None
    if s.teams <= 1:
        return w.say(N_("Your team, {team}, is the only team."), team=w.name(s.team))
    if s.tied_teams:
        return w.say(
            N_(
                "Your team, {team}, ranks {nth} of the {n} teams, each team ranked by its best "
                "run, tied exactly with {others}."
            ),
            team=w.name(s.team),
            nth=ordinal(s.team_rank),
            n=s.teams,
            others=w.join([w.name(t) for t in s.tied_teams]),
        )
    return w.say(
        N_("Your team, {team}, ranks {nth} of the {n} teams, each team ranked by its best run."),
        team=w.name(s.team),
        nth=ordinal(s.team_rank),
        n=s.teams,
    )


def winner_sentence(s: Standing, metric: str, best_score: str, w: Words = PLAIN) -> str | None:
    """Who won, one sentence: the winning run, its team and its score (``best_score``, as it
    prints). None when no run has the best score.

    >>> s = Standing("A.1", "A", ("A.1",), 1, 9, 14, (), (("B.1", "B"),), 34, 3, 1, 30, 0, 0, ())
    >>> winner_sentence(s, "accuracy", "0.91")
    'The winner is B.1, of team B, with the best accuracy, 0.91.'
    """
    if not s.winners:
        return None

    def one(run: str, team: str) -> str:
        if team == run:
            return w.name(run)
        return w.say(N_("{run} (team {team})"), run=w.name(run), team=w.name(team))

    if s.team_won:
        own = next(r for r, t in s.winners if t == s.team)
        rest = [one(r, t) for r, t in s.winners if t != s.team]
        if rest:
            return w.say(
                N_(
                    "Your team won: your run {run} has the best {metric}, {score}, tied exactly "
                    "with {others}."
                ),
                run=w.name(own),
                metric=metric,
                score=best_score,
                others=w.join(rest),
            )
        return w.say(
            N_("Your team won: your run {run} has the best {metric}, {score}."),
            run=w.name(own),
            metric=metric,
            score=best_score,
        )
    if len(s.winners) > 1:
        return w.say(
            N_("The winners, tied exactly with the best {metric}, {score}, are {runs}."),
            metric=metric,
            score=best_score,
            runs=w.join([one(r, t) for r, t in s.winners]),
        )
    ((run, team),) = s.winners
    if team == run:
        return w.say(
            N_("The winner is {run}, with the best {metric}, {score}."),
            run=w.name(run),
            metric=metric,
            score=best_score,
        )
    return w.say(
        N_("The winner is {run}, of team {team}, with the best {metric}, {score}."),
        run=w.name(run),
        team=w.name(team),
        metric=metric,
        score=best_score,
    )


def better_sentences(s: Standing, settings: Settings, score: float, w: Words = PLAIN) -> list[str]:
    """How many of the other runs the run is significantly better and worse than, from the stored
    verdicts: one sentence, and one more each for the comparisons that are undecided or not tested
    (the family or B = 0 leaves them out; said, not counted as ties). ``score``: the run's score
    (an undefined one explains its untested pairs).

    >>> from compreport.settings import Settings
    >>> s = Standing("A.1", "A", ("A.1",), 1, 2, 5, (), (("B.1", "B"),), 34, 12, 3, 19, 0, 0, ())
    >>> print(better_sentences(s, Settings(), 0.7)[0])
    A.1 is significantly better than 12 of the 34 other runs and significantly worse than 3 of
    them, at α = 0.05.
    """
    if not s.others:
        return []
    system = w.name(s.system)
    why = untested_why(settings, score)
    if s.untested == s.others:
        return [
            w.say(
                N_(
                    "{system} was not compared with the {n} other runs ({why}), so this report "
                    "gives no count of the runs it beats."
                ),
                system=system,
                n=s.others,
                why=why,
            )
        ]
    decided = s.better + s.worse + s.alike
    out = [
        w.say(
            N_(
                "{system} has no settled verdict against the {n} other runs, so this report "
                "gives no count of the runs it beats."
            ),
            system=system,
            n=s.others,
        )
        if not decided
        else w.say(
            N_(
                "{system} is significantly better than {better} of the {n} other runs and "
                "significantly worse than {worse} of them, at α = {alpha}."
            ),
            system=system,
            better=s.better,
            n=s.others,
            worse=s.worse,
            alpha=decimal(settings.alpha),
        )
        if not s.untested
        else w.say(
            N_(
                "{system} is significantly better than {better} of the {n} other runs compared "
                "with it and significantly worse than {worse} of them, at α = {alpha}."
            ),
            system=system,
            better=s.better,
            n=s.others - s.untested,
            worse=s.worse,
            alpha=decimal(settings.alpha),
        )
    ]
    if s.undecided > 1:
        out.append(
            w.say(
                N_(
                    "Of these comparisons, {k} are undecided: their p-values are within the "
                    "Monte-Carlo error of α, so they count neither way."
                ),
                k=s.undecided,
            )
        )
    elif s.undecided:
        out.append(
            w.say(
                N_(
                    "Of these comparisons, 1 is undecided: its p-value is within the Monte-Carlo "
                    "error of α, so it counts neither way."
                )
            )
        )
    if s.untested > 1:
        out.append(
            w.say(
                N_("{k} of the other runs were not compared with it ({why})."),
                k=s.untested,
                why=why,
            )
        )
    elif s.untested:
        out.append(w.say(N_("1 of the other runs was not compared with it ({why})."), why=why))
    return out


@dataclass(frozen=True)
class Row:
    """One row of a leaderboard excerpt: the stored rank, the system, its team (None for a
    baseline), its score and interval (in the metric's units), and whether it is one of the runs
    the excerpt is about."""

    rank: int
    system: str
    team: str | None
    score: float
    ci_low: float
    ci_high: float
    mine: bool


#: An excerpt shows this many rows above and below each of its runs.
AROUND = 2


def excerpt(comp: CompetitionAnalysis, systems, around: int = AROUND) -> list[Row | None]:
    """The rows of the primary metric's leaderboard a team reads: the winners, ``around`` rows
    above and below each of ``systems``, and every baseline, in rank order; None where rows are
    left out (a gap).

    Raises
    ------
    KeyError
        One of ``systems`` is not a system of ``comp``.
    """
    ma = comp.primary
    order = [x.system for x in ma.scores]
    mine = set(systems)
    keep = {k for k, x in enumerate(ma.scores) if x.is_best or x.system in comp.baselines}
    for system in systems:
        ma.score_of(system)  # KeyError names the metric and the system
        k = order.index(system)
        keep.update(range(max(0, k - around), min(len(order), k + around + 1)))
    rows: list[Row | None] = []
    last = -1
    for k in sorted(keep):
        if k > last + 1:
            rows.append(None)
        x = ma.scores[k]
        rows.append(
            Row(
                x.rank,
                x.system,
                None if x.system in comp.baselines else team_of(comp, x.system),
                x.score,
                x.ci_low,
                x.ci_high,
                x.system in mine,
            )
        )
        last = k
    if last < len(order) - 1:
        rows.append(None)
    return rows
