"""One system's and one pair's numbers with their stored verdicts (:class:`Score`, :class:`Comparison`).

Decided by :mod:`compreport.stats.analysis`, held by :class:`~compreport.stats.results.MetricAnalysis`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Score:
    """One system under one metric.

    Attributes
    ----------
    system : str
        System name.
    score : float
        The metric on the full test set.
    boot_mean, se : float
        Mean and standard deviation (ddof=1) of the bootstrap replicates (NaN when B = 0).
    ci_low, ci_high : float
        Confidence interval at level 1 - alpha (NaN when B = 0).
    rank : int
        Competition rank by the exact score (ties share a rank: 1, 2, 2, 4).
    group : str
        Significance-group letters; systems sharing a letter are not significantly different.
    is_best : bool
        The exact score equals the best exact score (several systems when they tie exactly).
    differs_from_best : bool or None
        Significantly different from the best under the report's correction and family;
        None for a best system and when the comparison is undefined (B = 0).
    p_vs_best : float
        The p-value behind ``differs_from_best`` (corrected; NaN where it is None).
    settled_vs_best : bool or None
        ``differs_from_best`` would be the same with any p-values within the Monte-Carlo error
        of the family's (see :attr:`Comparison.settled`); None where ``differs_from_best`` is None.
    """

    system: str
    score: float
    boot_mean: float
    se: float
    ci_low: float
    ci_high: float
    rank: int
    group: str = ""
    is_best: bool = False
    differs_from_best: bool | None = None
    p_vs_best: float = float("nan")
    settled_vs_best: bool | None = None

    @property
    def ties_with_best(self) -> bool | None:
        """Not significantly different from the best (None for a best system or undefined)."""
        return None if self.differs_from_best is None else not self.differs_from_best


@dataclass
class Comparison:
    """Oriented difference ``a - b`` (positive: ``a`` better) with its CI, p-values and verdict.

    Attributes
    ----------
    a, b : str
        The two systems; ``a`` ranks above (or level with) ``b``.
    diff : float
        Observed difference, oriented so that positive means ``a`` is better for any metric.
    ci_low, ci_high : float
        Uncorrected confidence interval of the difference at level 1 - alpha.
    p_value : float
        Raw p-value of ``settings.test`` (two-sided bootstrap, Berg-Kirkpatrick's one-sided
        bootstrap, or approximate randomization).
    p_bonferroni, p_holm, p_bh : float
        Corrected over ``settings.family`` (``vs-best``: over all pairs, since the best is chosen
        on the same data); NaN outside it.
    p_maxt : float
        Max-T step-down adjusted p-value over ``settings.family`` (:mod:`compreport.stats.maxt`);
        NaN outside it and when the test is not ``bootstrap``.
    excludes_zero : bool
        The interval excludes 0 (False when it is undefined).
    p_adjusted : float
        The p-value behind ``significant``: ``settings.correction`` over ``settings.family``
        (raw when the correction is ``none``); NaN when the pair is not tested.
    significant : bool or None
        ``p_adjusted < alpha``; None when the pair is not tested (pairs without the best under
        ``vs-best``) or the p-value is undefined.
    p_se : float
        Monte-Carlo standard error of ``p_value`` from its B resamples (:mod:`compreport.stats.montecarlo`);
        NaN without resamples.
    settled : bool or None
        ``significant`` holds for every p-value of the family within its Monte-Carlo confidence
        bounds (the MMCTest classification, Gandy & Hahn 2014): False means more resamples could
        change the verdict. None when ``significant`` is None.
    mark : str
        Significance mark of ``p_adjusted`` by the thresholds below alpha and alpha itself
        (:func:`compreport.language.vocabulary.marks_at`: ``***``, ``**``, ``*``); ``""`` when not significant.
    """

    a: str
    b: str
    diff: float
    ci_low: float
    ci_high: float
    p_value: float
    p_bonferroni: float
    p_holm: float
    p_bh: float
    p_maxt: float = float("nan")
    excludes_zero: bool = False
    p_adjusted: float = float("nan")
    significant: bool | None = None
    p_se: float = float("nan")
    settled: bool | None = None
    mark: str = ""
