"""The analysis settings: one frozen :class:`Settings`, validated by one function.

The Python API, the spec loader (``[bootstrap]`` of competition.toml/workshop.toml) and the
CLI all build settings through :func:`make_settings`; an invalid value raises one
:class:`~compreport.errors.InputError` that names the setting the way the caller spells it
(``alpha`` for Python, ``--alpha`` on the command line, ``[bootstrap] alpha`` in a spec), the
value, and the allowed values with a "did you mean" suggestion.

>>> make_settings({"test": "randomization"}).correction
'holm'
>>> make_settings({"alpha": 2}, "cli")
Traceback (most recent call last):
    ...
compreport.errors.InputError: --alpha must be between 0 and 1 (exclusive); got 2
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import re
import sys
from dataclasses import asdict, dataclass
from types import MappingProxyType

from compreport.errors import InputError, option, suggest
from compreport.language import decimal, tr
from compreport.language import vocabulary as vocab
from compreport.options import SETTINGS, default_correction

#: How each setting is spelled by each kind of caller, from the option schema
#: (:data:`compreport.options.SETTINGS`): ``api`` the Settings field, ``analyze`` the keyword of
#: :func:`compreport.analyze` (``ci`` for ``ci_method``), ``cli`` the flags, ``spec`` the key.
SPELLING = MappingProxyType(
    {
        "api": {field: f"`{field}`" for field in SETTINGS},
        "cli": {field: "/".join(o.flags) for field, o in SETTINGS.items()},
        "analyze": {field: f"`{o.api}`" for field, o in SETTINGS.items()},
        "spec": {field: o.spec for field, o in SETTINGS.items()},
    }
)
#: Allowed values of the settings that take one of a list, in the order messages list them.
CHOICES = MappingProxyType({field: o.choices for field, o in SETTINGS.items() if o.choices})
#: The settings of Nava-Muñoz, Graff and Escalante's Tables 7-11, which ``paper`` sets at once: the
#: one-sided paired bootstrap of Berg-Kirkpatrick et al. (2012, their Section 4.5), each row of the
#: matrix corrected on its own (their Table 5), baselines counted among the competitors (their
#: m), the Bonferroni correction behind the verdicts (the one their worked example applies,
#: Appendix), and every p-value from the B resamples (no refinement). The tie counts of the
#: summary are given under every correction whatever ``correction`` is.
PAPER = MappingProxyType(
    {
        "test": "berg-kirkpatrick",
        "family": "per-row",
        "include_baselines": True,
        "correction": "bonferroni",
        "refine": False,
    }
)
#: Other spellings accepted and replaced by the canonical value.
ALIASES = MappingProxyType(
    {
        "correction": {"fdr_bh": "bh", "benjamini-hochberg": "bh", "benjamini_hochberg": "bh"},
        "family": {
            "all_pairs": "all-pairs",
            "per_row": "per-row",
            "vs_best": "vs-best",
            "vs_baseline": "vs-baseline",
        },
    }
)


def _as_whole(value) -> str:
    """`` (write it as 10000)`` when ``value`` is a float or text holding a whole number ≥ 0, else
    ``""``."""
    if isinstance(value, bool):
        return ""
    try:
        f = float(value)
    except (TypeError, ValueError, OverflowError):
        return ""
    return f" (write it as {int(f)})" if math.isfinite(f) and f.is_integer() and f >= 0 else ""


def _too_long(text: str) -> int:
    """The digits of ``text`` when it spells a whole number longer than Python reads (4,300 digits:
    ``sys.get_int_max_str_digits``), else 0."""
    limit = getattr(sys, "get_int_max_str_digits", lambda: 0)()
    digits = sum(c.isdigit() for c in text)
    return digits if limit and digits > limit and _WHOLE_TEXT.fullmatch(text.strip()) else 0


def whole_number(value, where: str, low: int, high: int | None = None) -> int:
    """``value`` as an int in [low, high] (``high`` None: no upper bound).

    ``where`` names the setting in the caller's words. Anything but an int (a bool, a float, text)
    raises :class:`InputError`: ``1e4`` and ``10000.0`` too, though they are whole, because a count
    is written as one (the message says how).

    >>> whole_number(1e4, "-B", 0)
    Traceback (most recent call last):
        ...
    compreport.errors.InputError: -B must be a whole number >= 0; got 10000.0 (write it as 10000)
    """
    bounds = f">= {low}" if high is None else f"between {low} and {high}"
    if isinstance(value, str) and _too_long(value):
        raise InputError(f"{where}: a number of {_too_long(value):,} digits, too long to read")
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InputError(
            f"{where} must be a whole number {bounds}; got {value!r}{_as_whole(value)}"
        )
    if value < low or (high is not None and value > high):
        raise InputError(f"{where} must be {bounds}; got {value}")
    return int(value)


#: Fewest and most resamples behind each power estimate (``draws``). At the most, a power
#: estimate's standard error is below 0.002 (sqrt(0.25/100,000)); more would only cost time,
#: which grows with the draws (about 2.5 s per 10,000 for the demo competition stance-eu, 5 runs,
#: so 10**8 would run for hours).
MIN_DRAWS, MAX_DRAWS = 100, 100_000


def check_draws(draws, where: str = "`draws`") -> int:
    """``draws`` as an int between :data:`MIN_DRAWS` and :data:`MAX_DRAWS`, else one
    :class:`~compreport.errors.InputError` naming ``where`` (``--draws`` on the command line).

    >>> check_draws(10**8, "--draws")
    Traceback (most recent call last):
        ...
    compreport.errors.InputError: --draws must be between 100 and 100000; got 100000000
    """
    return whole_number(draws, where, MIN_DRAWS, MAX_DRAWS)


#: The smallest alpha that can be honoured: a bootstrap p-value is never below 1/(B + 1), so a
#: smaller alpha would need more than 10**9 resamples of every system (8 GB of replicates each)
#: before any comparison could reach it.
MIN_ALPHA = 1e-9


def _alpha(value, where: str) -> float:
    """``value`` as a float in [:data:`MIN_ALPHA`, 1), else :class:`InputError` naming ``where``.

    >>> _alpha(1e-20, "--alpha")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    compreport.errors.InputError: --alpha 1e-20 cannot be honoured: a p-value from B resamples ...
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise InputError(f"{where} must be a number between 0 and 1 (exclusive); got {value!r}")
    if not 0 < value < 1:
        raise InputError(f"{where} must be between 0 and 1 (exclusive); got {value}")
    if value < MIN_ALPHA:
        raise InputError(
            f"{where} {value:g} cannot be honoured: a p-value from B resamples is never below "
            f"1/(B + 1), so alpha below {MIN_ALPHA:g} would need more than 10**9 resamples; "
            f"use {MIN_ALPHA:g} or more"
        )
    return float(value)


def one_of(value, allowed, where: str, aliases: dict | None = None) -> str:
    """``value`` if it is one of ``allowed`` (or an alias of one, which is returned instead).

    Raises :class:`InputError` naming ``where``, the value, the allowed values and the closest one.
    """
    v = (aliases or {}).get(value, value) if isinstance(value, str) else None
    if v not in allowed:
        raise InputError(
            f"{where} must be one of {', '.join(allowed)}; got {value!r}{suggest(value, allowed)}"
        )
    return v


_WHOLE_TEXT = re.compile(r"[+-]?[0-9]+(?:_[0-9]+)*")


def from_text(text, whole: bool = False):
    """Command-line text as the number it spells: an int if ``whole`` (``"10000"``, ``"10_000"``,
    ``"-1"``), else a float (``"0.05"``, ``"5e-2"``).

    Text that does not spell one (``"1e4"`` when ``whole``, ``"abc"``) and values that are not
    text come back unchanged, so that the validation names the value as the user typed it.
    """
    if not isinstance(text, str):
        return text
    if whole:
        spelled = _WHOLE_TEXT.fullmatch(text.strip()) and not _too_long(text)
        return int(text) if spelled else text
    try:
        return float(text)
    except ValueError:
        return text


#: Settings given as numbers, and whether they are whole (command-line text is parsed by
#: :func:`from_text`).
NUMERIC = MappingProxyType(
    {field: o.type == "int" for field, o in SETTINGS.items() if o.type in ("int", "float")}
)


def validate(values: dict, source: str = "api") -> dict:
    """Check and normalise setting values (only the keys given); return them canonical.

    Parameters
    ----------
    values : dict
        Keys among the :class:`Settings` fields.
    source : {"api", "analyze", "cli", "spec"}
        Whose words name a setting in the error message.

    Raises
    ------
    InputError
        For an unknown key or an invalid value; the message names the setting, the value and
        what is allowed.
    """
    words = SPELLING[source]
    out = {}
    for name, value in values.items():
        if name not in words:
            raise InputError(
                f"unknown setting {name!r}{suggest(name, words)}; settings: {', '.join(words)}"
            )
        where = words[name]
        kind = SETTINGS[name].type  # from the option schema
        if kind == "int":
            out[name] = whole_number(value, where, 0)
        elif name == "alpha":
            out[name] = _alpha(value, where)
        elif name == "refine" and source == "cli":
            if value not in ("on", "off"):
                raise InputError(
                    f"{where} must be on or off; got {value!r}{suggest(str(value), ['on', 'off'])}"
                )
            out[name] = value == "on"
        elif kind == "bool":
            if not isinstance(value, bool):
                raise InputError(f"{where} must be true or false; got {value!r}")
            out[name] = value
        else:
            out[name] = one_of(value, CHOICES[name], where, ALIASES.get(name))
    return out


@dataclass(frozen=True)
class Settings:
    """Analysis settings, stamped into every output. Invalid values raise :class:`InputError`.

    Attributes
    ----------
    bootstrap : int
        Replicates B (default 10,000, as the paper); 0 gives scores without intervals.
    seed : int
        Seed of the resampling plan (default 0).
    alpha : float
        Significance level (default 0.05); intervals are at confidence 1 - alpha.
    ci_method : {"percentile", "bca", "normal"}
        Interval method for scores and differences (default percentile).
    test : {"bootstrap", "berg-kirkpatrick", "randomization"}
        Where p-values come from (default ``bootstrap``): the two-sided null-shifted paired
        bootstrap (Efron & Tibshirani 1993); the paper's paired bootstrap of Berg-Kirkpatrick
        et al. (2012), one-sided in the direction the data chose (two-sided level 2 alpha); or
        approximate randomization (MUC-6), two-sided.
    family : {"all-pairs", "per-row", "vs-best", "vs-baseline"}
        The comparisons one correction is applied over; it governs every verdict of the report.
        ``vs-best`` corrects over all pairs (the best is chosen on the same data) and states only
        the comparisons with the best; ``vs-baseline`` corrects over the comparisons of each
        participant with each of the competition's baselines (named before the data are seen)
        and states only those, so every competition needs a baseline; ``per-row`` bounds no
        family-wise error rate.
    correction : {"none", "bonferroni", "holm", "bh", "maxt"}
        The correction behind every verdict (significant or not, groups, ties with the winner).
        Default ``maxt`` (the max-T step-down, :mod:`compreport.stats.maxt`) under the
        ``bootstrap`` test, ``holm`` under the others (max-T needs the bootstrap test).
    include_baselines : bool
        Whether baselines compete (default False): when they do not, they are shown, compared in
        pairs and grouped, but the best is the best participant, and the comparisons with the best
        and the competitiveness figures are over participants only.
    refine : bool
        Re-estimate the p-values of a metric from more resamples (doubling, up to
        :data:`~compreport.stats.montecarlo.REFINE_FACTOR` x B) while some verdict is not settled
        within their Monte-Carlo error (:mod:`compreport.stats.montecarlo`). Default False: every
        p-value from the B resamples, and a verdict not settled within their Monte-Carlo error is
        undecided (``Comparison.significant`` None, ``settled`` False): neither significant nor
        tied, and it separates no groups.
    paper : bool
        The paper's settings (default False): True requires exactly :data:`PAPER` (test
        ``berg-kirkpatrick``, family ``per-row``, baselines included, correction ``bonferroni``,
        no refinement); :func:`make_settings` sets them, and refuses an option that contradicts
        them. Recorded in results.json so the reports can say which settings produced the
        competitiveness table.
    """

    # the defaults of the option schema (compreport.options), the one place each is decided
    bootstrap: int = SETTINGS["bootstrap"].default
    seed: int = SETTINGS["seed"].default
    alpha: float = SETTINGS["alpha"].default
    ci_method: str = SETTINGS["ci_method"].default
    test: str = SETTINGS["test"].default
    family: str = SETTINGS["family"].default
    correction: str | None = SETTINGS["correction"].default  # None: default_correction(test)
    include_baselines: bool = SETTINGS["include_baselines"].default
    refine: bool = SETTINGS["refine"].default
    paper: bool = SETTINGS["paper"].default

    def __post_init__(self):
        values = asdict(self)
        if values["correction"] is None:
            values["correction"] = default_correction(
                values["test"] if isinstance(values["test"], str) else SETTINGS["test"].default
            )
        for name, value in validate(values).items():
            object.__setattr__(self, name, value)
        check_combination(asdict(self))
        if self.paper:
            check_paper(asdict(self))

    @property
    def level(self) -> float:
        """Confidence level of the intervals, 1 - alpha."""
        return 1 - self.alpha

    @property
    def ties_family(self) -> str:
        """Family of the competitiveness summary's ties between competitors: every pair is needed,
        so all pairs under ``vs-best`` and ``vs-baseline`` (which test only some comparisons),
        else ``family``."""
        return "all-pairs" if self.family in ("vs-best", "vs-baseline") else self.family

    @property
    def rule(self) -> str:
        """The rule behind every verdict, in words (``max-T step-down correction over all pairs of
        systems``); under the ``berg-kirkpatrick`` test it says that its p-values are one-sided."""
        rule = vocab.correction_over(self.correction, self.family)
        if self.test == "berg-kirkpatrick":
            rule += tr(
                ", on one-sided p-values in the direction the data chose, whose two-sided level "
                "is {level}",
                level=decimal(2 * self.alpha),
            )
        return rule

    def to_dict(self) -> dict:
        """The ``settings`` object of results.json."""
        d = asdict(self)
        d["families"] = {"vs_best": "vs-best", "pairs": self.family}
        d["corrections"] = [k for k in vocab.CORRECTIONS if k != "none"]
        return d

    @classmethod
    def trusted(cls, values: dict) -> Settings:
        """Settings from values already validated (:func:`make_settings`), not checked again:
        each run checks its settings once, where they enter. Fields not in ``values`` keep their
        default; a ``correction`` of None is the test's default (:func:`default_correction`).

        >>> Settings.trusted({"test": "randomization"}).correction
        'holm'
        """
        self = object.__new__(cls)
        for f in dataclasses.fields(cls):
            object.__setattr__(self, f.name, values.get(f.name, f.default))
        if self.correction is None:
            object.__setattr__(self, "correction", default_correction(self.test))
        return self

    @classmethod
    def from_dict(cls, d: dict) -> Settings:
        """Settings from the ``settings`` object of results.json (extra keys ignored)."""
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})


def check_combination(values: dict, source: str = "api") -> None:
    """Refuse settings that cannot go together (an :class:`InputError` in the words of ``source``):
    the max-T step-down resamples the bootstrap's studentized differences, so ``correction``
    ``maxt`` needs ``test`` ``bootstrap``."""
    if (
        values.get("correction") == "maxt"
        and values.get("test", SETTINGS["test"].default) != "bootstrap"
    ):
        words = SPELLING[source]
        raise InputError(
            f"{words['correction']} maxt needs {words['test']} bootstrap (the max-T step-down "
            f"resamples the studentized bootstrap differences); with {words['test']} "
            f"{values['test']} use holm, bonferroni, bh or none"
        )


def check_paper(values: dict, source: str = "api", paper_source: str | None = None) -> None:
    """Refuse a setting of ``values`` that contradicts the paper's (:data:`PAPER`) when ``paper``
    is on: an :class:`InputError`, one line, naming the option as ``source`` spells it and the
    paper switch as ``paper_source`` does (default ``source``; the spec's when the switch came
    from ``[bootstrap] paper``).

    >>> check_paper({"paper": True, "test": "bootstrap"}, "cli")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    compreport.errors.InputError: --test bootstrap contradicts --paper, whose test is berg-...
    """
    if not values.get("paper"):
        return
    words = SPELLING[source]
    switch = SPELLING[paper_source or source]["paper"]
    for name, value in PAPER.items():
        if name in values and values[name] is not None and values[name] != value:
            given = values[name]
            if isinstance(given, bool):
                given = ("on" if given else "off") if source == "cli" else str(given).lower()
            shown = "" if name == "include_baselines" and source == "cli" else f" {given}"
            paper = value if not isinstance(value, bool) else str(value).lower()
            if source == "cli" and name == "refine":
                paper = "on" if value else "off"
            raise InputError(
                f"{words[name]}{shown} contradicts {switch}, whose {name.replace('_', ' ')} is "
                f"{paper}; drop one of them"
            )


def make_settings(
    values: dict | None = None,
    source: str = "api",
    base: Settings | None = None,
    *,
    checked: bool = False,
) -> Settings:
    """Settings from ``values``, validated in the words of ``source``.

    A ``test`` given without a ``correction`` brings that test's default correction
    (:func:`default_correction`), unless ``base`` has a correction other than its test's default.

    Parameters
    ----------
    values : dict, optional
        Settings fields; one that is None or not given keeps ``base``'s value, else the default.
    source : {"api", "analyze", "cli", "spec"}, default "api"
        Whose words name a setting in an error (see :func:`validate`).
    base : Settings, optional
        The settings ``values`` override (for :func:`compreport.analyze`: the specs'
        ``[bootstrap]``).
    checked : bool, default False
        ``values`` were validated already (by :func:`validate`, where they entered: the
        command line before any work, a spec where it was read): they are not checked again, so
        a run checks its settings once. Their combination is checked here all the same.

    Raises
    ------
    InputError
        An unknown setting, an invalid value, or settings that cannot go together
        (:func:`check_combination`).
    """
    given = {k: v for k, v in (values or {}).items() if v is not None}
    if not checked:
        given = validate(given, source)
    start = asdict(base) if base is not None else {}
    if given.get("paper", "paper" not in given and start.get("paper")):
        # the paper's settings, as if given; an option of this call that contradicts them is an
        # error (the switch named as given here, or as the specs' [bootstrap] paper)
        check_paper({"paper": True} | given, source, None if "paper" in given else "spec")
        given = given | PAPER | {"paper": True}
    merged = start | given
    base_default = default_correction(start.get("test", SETTINGS["test"].default))
    if "correction" not in given and (
        merged.get("correction") is None
        or ("test" in given and merged["correction"] == base_default)
    ):
        merged["correction"] = None  # the test's default, which Settings.trusted gives
    check_combination(merged, source)
    return Settings.trusted(merged)


#: Smallest ``delta`` planned for: a difference finer than this is below the rounding of a score
#: summed over items in float64 (``--delta 1e-300`` overflowed the normal approximation, 1e-20
#: drew power curves at 10^17 items).
MIN_DELTA = 1e-9


def check_plan_options(power, delta, draws) -> None:
    """Refuse planning options out of range, before any file is read or written: ``power`` in
    (0, 1), ``delta`` None or a finite number of at least :data:`MIN_DELTA`, ``draws`` a whole
    number from :data:`MIN_DRAWS` to :data:`MAX_DRAWS` (:func:`check_draws`). The one check of the
    API
    (:func:`compreport.stats.plan.plan_test_set`, :func:`compreport.plan`) and
    ``compreport plan``; the :class:`InputError` names the option as the caller writes it
    (``--delta`` or ``delta=``).

    >>> check_plan_options(0.8, 1e-300, 1000)
    Traceback (most recent call last):
        ...
    compreport.errors.InputError: delta=1e-300 is below 1e-09, the smallest difference planned ...
    >>> check_plan_options(0.8, None, 10**8)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    compreport.errors.InputError: `draws` must be between 100 and 100000; got 100000000
    """
    number = numbers.Real
    if isinstance(power, bool) or not isinstance(power, number) or not 0 < power < 1:
        raise InputError(f"{option('power', power)} is out of range: a number in (0, 1)")
    if delta is not None:
        if (
            isinstance(delta, bool)
            or not isinstance(delta, number)
            or not math.isfinite(delta)
            or delta <= 0
        ):
            raise InputError(
                f"{option('delta', delta)} is out of range: a positive number in the metric's units"
            )
        if delta < MIN_DELTA:
            raise InputError(
                f"{option('delta', delta)} is below {MIN_DELTA:g}, the smallest difference "
                f"planned for (finer than a score's rounding)"
            )
    if isinstance(draws, bool) or not isinstance(draws, numbers.Integral):
        raise InputError(f"{option('draws', draws)} is not a whole number of draws")
    check_draws(draws, option("draws"))
