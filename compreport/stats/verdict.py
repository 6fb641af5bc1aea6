"""The verdict rule: which test, which correction, over which family, at which level.

A run decides every verdict under one rule, chosen once from its
:class:`~compreport.settings.Settings` (:func:`verdict_rule`); the steps of
:func:`compreport.stats.analysis.analyze_metric` ask it rather than read the settings:

- the **family** (``all-pairs``, ``per-row``, ``vs-best``, ``vs-baseline``): which pairs it may
  test (:meth:`VerdictRule.may_test`), which verdicts it states (:meth:`VerdictRule.decide`), which
  pairs the correction runs over (:meth:`VerdictRule.correcting`) and how the raw p-values are
  corrected over it (:meth:`VerdictRule.correct`);
- the **correction** (``none``, ``bonferroni``, ``holm``, ``bh``, ``maxt``): which p-value decides
  (:meth:`VerdictRule.adjust`) and how its Monte-Carlo error settles a verdict. The max-T step-down
  is a :class:`StepDownRule`, the others a :class:`CorrectionRule`: they differ in where the raw
  p-values come from, how a verdict is settled and which resamples stand behind it;
- the **test** (``bootstrap``, ``berg-kirkpatrick``, ``randomization``): whether max-T p-values
  exist (:attr:`VerdictRule.has_maxt`, the bootstrap test's only) and whether the raw p-values
  come from rounds of swaps (:attr:`VerdictRule.randomization`). The p-values themselves are
  :mod:`compreport.stats.significance`'s.

The max-T step-down keeps its own exceedance counts (:class:`compreport.stats.maxt.StepDown`)
rather than calling a library: refinement adds resamples to them pair by pair, and the
studentization must stay that of the first B replicates.

>>> from compreport.settings import Settings
>>> rule = verdict_rule(Settings(test="randomization", family="per-row"))
>>> type(rule).__name__, rule.correction, rule.has_maxt
('CorrectionRule', 'holm', False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from compreport.language import vocabulary as vocab
from compreport.stats import montecarlo, multitest

if TYPE_CHECKING:
    from compreport.settings import Settings
    from compreport.stats.maxt import StepDown

__all__ = [
    "CorrectionRule",
    "Family",
    "Settlement",
    "StepDownRule",
    "VerdictRule",
    "verdict_rule",
]


class Family(NamedTuple):
    """The pairs of one metric as the family sees them: each pair's ``rows`` (the index of its
    better system in rank order, a ``per-row`` family), the pairs with a raw p-value (``tested``),
    the pairs the family may test (``testable``:
    :meth:`VerdictRule.may_test`), and the max-T step-down's adjusted p-values and the resamples
    behind each (NaN and 0 without the bootstrap test)."""

    rows: np.ndarray
    tested: np.ndarray
    testable: np.ndarray
    p_maxt: np.ndarray
    maxt_resamples: np.ndarray


class Settlement(NamedTuple):
    """Whether each verdict survives the Monte-Carlo error of its p-values.

    ``every``: per pair 1.0 settled, 0.0 unsettled, NaN outside the family the correction runs
    over; ``resamples``: the resamples behind the deciding p-values; ``may_settle``: refinement
    could settle an unsettled verdict."""

    every: np.ndarray
    resamples: int
    may_settle: bool


@dataclass(frozen=True)
class VerdictRule:
    """The rule behind every verdict of a run: ``test`` x ``correction`` over ``family`` at
    ``alpha`` (see the module); ``refine`` (more resamples while a verdict is unsettled) and
    ``ties_family`` (:attr:`Settings.ties_family`) as the settings give them.

    Made by :func:`verdict_rule`; subclasses decide what depends on the correction."""

    test: str
    correction: str
    family: str
    alpha: float
    refine: bool
    ties_family: str

    #: The verdicts are the max-T step-down's: refinement adds resamples to its counts pair by
    #: pair rather than re-estimating every raw p-value.
    stepwise = False

    @property
    def has_maxt(self) -> bool:
        """Max-T p-values exist: the step-down resamples the bootstrap test's studentized
        differences, so under the other tests there are none."""
        return self.test == "bootstrap"

    @property
    def randomization(self) -> bool:
        """The p-values come from approximate randomization (rounds of swaps), not from the
        bootstrap replicates."""
        return self.test == "randomization"

    def largest_family(self, m: int, baselines: int) -> int:
        """The comparisons the correction runs over among ``m`` systems, ``baselines`` of them
        baselines: each participant against each baseline under ``vs-baseline``, the best's row
        (m - 1) under ``per-row``, else every pair (also under ``vs-best``).

        >>> from compreport.settings import Settings
        >>> [verdict_rule(Settings(family=f)).largest_family(5, 2) for f in
        ...  ("all-pairs", "per-row", "vs-best", "vs-baseline")]
        [10, 4, 10, 6]
        """
        if self.family == "vs-baseline":
            return (m - baselines) * baselines
        return m - 1 if self.family == "per-row" else m * (m - 1) // 2

    def may_test(self, systems, baselines, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Which pairs ``a``, ``b`` (index arrays into ``systems``) the family may test: under
        ``vs-baseline`` those of a participant and a baseline, under any other family every pair.

        >>> from compreport.settings import Settings
        >>> rule = verdict_rule(Settings(family="vs-baseline"))
        >>> rule.may_test(["A", "B", "base"], ["base"], np.array([0, 0, 1]), np.array([1, 2, 2]))
        array([False,  True,  True])
        """
        if self.family != "vs-baseline":
            return np.ones(len(a), dtype=bool)
        base = np.isin(np.asarray(systems, dtype=object), list(baselines))
        return base[a] != base[b]

    def step_families(self, testable: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """The max-T step-down's family of each pair: its row under ``per-row``, else one family
        (0); -1 for the pairs outside (not ``testable``)."""
        return np.where(testable, rows if self.family == "per-row" else 0, -1)

    def correct(self, raw: np.ndarray, family: Family) -> dict[str, np.ndarray]:
        """Every correction of the pairs' raw p-values ``raw`` over ``family``: within each row
        under ``per-row``, else over the pairs it may test (``vs-best``: over all pairs, since the
        best is chosen on the same data); with the family's max-T p-values."""
        out = (
            multitest.correct_within(raw, family.rows)
            if self.family == "per-row"
            else multitest.correct(np.where(family.testable, raw, np.nan))
        )
        return out | {"maxt": family.p_maxt}

    def adjust(self, raw: np.ndarray, corrected: dict[str, np.ndarray]) -> np.ndarray:
        """The p-values that decide: ``raw`` under ``none``, else the rule's correction of them
        among ``corrected`` (:meth:`correct`)."""
        return raw if self.correction == "none" else corrected[self.correction]

    def decide(
        self, raw: np.ndarray, corrected: dict[str, np.ndarray], family: Family, with_best
    ) -> np.ndarray:
        """The p-value behind each verdict the rule states (:meth:`adjust`), NaN for the pairs
        whose verdict it does not state: it states the comparisons with the best (``with_best``)
        under ``vs-best``, else the pairs the family may test."""
        stated = with_best if self.family == "vs-best" else family.testable
        return np.where(stated, self.adjust(raw, corrected), np.nan)

    def correcting(self, tested: np.ndarray, stated: np.ndarray) -> np.ndarray:
        """The pairs the correction runs over: every ``tested`` pair under ``vs-best`` (the best's
        comparisons are corrected over all of them), else the ``stated`` ones."""
        return tested if self.family == "vs-best" else stated

    def raw_p_values(self, raw: np.ndarray, step: StepDown | None, testable: np.ndarray):
        """The raw p-values the correction reads (``raw``, as the test gives them)."""
        return raw

    def settle(
        self, raw: np.ndarray, family: Family, correcting, stated, step, R: int, cap: int
    ) -> Settlement:
        """Whether each verdict is settled (:class:`Settlement`) given the raw p-values ``raw``
        from R resamples, the pairs the correction runs over (``correcting``) and those whose
        verdicts are stated (``stated``), with at most ``cap`` resamples; see the subclasses."""
        raise NotImplementedError

    def p_se(self, raw: np.ndarray, tested: np.ndarray, step, R: int) -> np.ndarray:
        """The Monte-Carlo error of the p-value that decides each pair, see the subclasses."""
        raise NotImplementedError

    @property
    def looks(self) -> int:
        """The looks at the p-values the risk of a wrong settled verdict is divided among:
        refinement may take several, without it there is one."""
        return montecarlo.LOOKS if self.refine else 1

    def may_refine(self, may_settle: bool, correcting: int, cap: int) -> bool:
        """``may_settle``, unless no verdict can change: even ``cap`` resamples leave every
        corrected p-value over the ``correcting`` pairs above alpha (a tiny alpha), so refining
        would only draw up to the cap for nothing."""
        return may_settle and bool(
            montecarlo.could_reject(self.family, correcting, cap, self.correction, self.alpha)
        )

    def stored(self, tested: int, resamples: int) -> dict:
        """The stored rule behind a metric's verdicts (:attr:`MetricAnalysis.verdicts`), with the
        ``tested`` comparisons of its family and the ``resamples`` behind every p-value."""
        min_p = multitest.smallest_corrected_p(self.family, tested, resamples, self.correction)
        can_reject = None if min_p != min_p else bool(multitest.rejects(min_p, self.alpha))
        return {
            "alpha": self.alpha,
            "correction": self.correction,
            "family": self.family,
            "tested": tested,
            "resamples": resamples,
            "min_p": min_p,
            "marks": [list(m) for m in vocab.marks_at(self.alpha)],
            "can_reject": can_reject,
            "b_needed": montecarlo.b_needed(
                multitest.smallest_family(self.family, tested),
                self.alpha,
                self.correction,
                self.refine,
            )
            if can_reject is False
            else None,
        }


class StepDownRule(VerdictRule):
    """The max-T step-down (``correction`` ``maxt``, bootstrap test): its adjusted p-values decide,
    each itself one exceedance proportion over statistics studentized by the same resamples, so
    its Monte-Carlo error is from batch means, and refinement adds resamples pair by pair."""

    stepwise = True

    def raw_p_values(self, raw: np.ndarray, step: StepDown | None, testable: np.ndarray):
        """The step-down's raw p-values at the ``testable`` pairs: over the same replicates as the
        verdicts' (refined), ``raw`` elsewhere."""
        return np.where(testable, step.raw(), raw)

    def settle(
        self, raw: np.ndarray, family: Family, correcting, stated, step, R: int, cap: int
    ) -> Settlement:
        """The adjusted p-values of the ``correcting`` pairs settled by their batch-means error;
        the resamples are the most behind a stated verdict (R when none is stated)."""
        every = montecarlo.settled(
            np.where(correcting, family.p_maxt, np.nan),
            np.maximum(family.maxt_resamples, 1),
            _same,
            self.alpha,
            se=step.standard_error(binomial=False),
            df=max(step.blocks - 1, 0),
            looks=self.looks,
        )
        resamples = int(family.maxt_resamples.max()) if stated.any() else R
        may_settle = bool(self.refine and 0 < resamples < cap and (every == 0).any())
        return Settlement(every, resamples, may_settle)

    def p_se(self, raw: np.ndarray, tested: np.ndarray, step, R: int) -> np.ndarray:
        """The Monte-Carlo error of the adjusted p-values (the ones that decide), at the tested
        pairs."""
        return np.where(tested, step.standard_error(), np.nan)


class CorrectionRule(VerdictRule):
    """A correction of the raw p-values (``none``, ``bonferroni``, ``holm``, ``bh``): a verdict is
    settled when the correction of the bounds of every raw p-value of the family (from R resamples)
    decides as the estimate does."""

    def settle(
        self, raw: np.ndarray, family: Family, correcting, stated, step, R: int, cap: int
    ) -> Settlement:
        """The raw p-values of the ``correcting`` pairs, corrected over ``family`` (not masked to
        the pairs the rule states), settled by their binomial bounds over R resamples."""

        def unmasked(p: np.ndarray) -> np.ndarray:
            """The correction over the family it runs over, not masked to the stated pairs."""
            return self.adjust(p, self.correct(p, family))

        family_p = np.where(correcting, raw, np.nan)
        every = montecarlo.settled(family_p, R, unmasked, self.alpha, looks=self.looks)
        may_settle = bool(
            self.refine
            and 0 < R < cap
            and montecarlo.may_settle(family_p, R, cap, unmasked, self.alpha, every)
        )
        return Settlement(every, R, may_settle)

    def p_se(self, raw: np.ndarray, tested: np.ndarray, step, R: int) -> np.ndarray:
        """The binomial error of the raw p-values over R resamples."""
        return montecarlo.standard_error(raw, R)


def verdict_rule(settings: Settings) -> VerdictRule:
    """The rule of ``settings``: a :class:`StepDownRule` under ``correction`` ``maxt``, else a
    :class:`CorrectionRule`."""
    kind = StepDownRule if settings.correction == "maxt" else CorrectionRule
    return kind(
        settings.test,
        settings.correction,
        settings.family,
        settings.alpha,
        settings.refine,
        settings.ties_family,
    )


def _same(p: np.ndarray) -> np.ndarray:
    """The p-values themselves: max-T adjusted p-values decide as they are."""
    return p
