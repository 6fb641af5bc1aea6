"""The analysis settings: one frozen :class:`Settings`, validated by one function.

The Python API, the spec loader (``[bootstrap]`` of competition.toml/workshop.toml) and the
CLI all build settings through :func:`make_settings`; an invalid value raises one
:class:`~compreport.errors.InputError` that names the setting the way the caller spells it
(``alpha`` for Python, ``--alpha`` on the command line, ``[bootstrap] alpha`` in a spec), the
value, and the allowed values with a "did you mean" suggestion.
"""

from __future__ import annotations

import difflib
import math
import numbers
from dataclasses import asdict, dataclass

from . import vocabulary as vocab
from .errors import InputError

#: How each setting is spelled by each kind of caller.
SPELLING = {
    "api": {"bootstrap": "`bootstrap`", "seed": "`seed`", "alpha": "`alpha`", "ci_method": "`ci`",
            "test": "`test`", "family": "`family`", "correction": "`correction`"},
    "cli": {"bootstrap": "-B/--bootstrap", "seed": "--seed", "alpha": "--alpha", "ci_method": "--ci",
            "test": "--test", "family": "--family", "correction": "--correction"},
    "spec": {"bootstrap": "[bootstrap] resamples", "seed": "[bootstrap] seed", "alpha": "[bootstrap] alpha",
             "ci_method": "[bootstrap] ci", "test": "[bootstrap] test", "family": "[bootstrap] family",
             "correction": "[bootstrap] correction"},
}
#: Allowed values of the settings that take one of a list, in the order messages list them.
CHOICES = {"ci_method": vocab.CI_METHODS, "test": vocab.TESTS, "family": vocab.FAMILIES,
           "correction": vocab.CORRECTIONS}
#: Other spellings accepted and replaced by the canonical value.
ALIASES = {
    "correction": {"fdr_bh": "bh", "benjamini-hochberg": "bh", "benjamini_hochberg": "bh"},
    "family": {"all_pairs": "all-pairs", "per_row": "per-row", "vs_best": "vs-best"},
}


def suggest(value: str, options) -> str:
    """``" (did you mean 'holm'?)"`` for the closest of ``options``, or ``""``."""
    close = difflib.get_close_matches(str(value), list(options), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _integer(name: str, value, where: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InputError(f"{where} must be a whole number >= {low}, got {value!r}")
    if value < low:
        raise InputError(f"{where} must be >= {low}, got {value}")
    return int(value)


def _alpha(value, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise InputError(f"{where} must be a number between 0 and 1 (exclusive), got {value!r}")
    if not 0 < value < 1:
        raise InputError(f"{where} must be between 0 and 1 (exclusive), got {value}")
    return float(value)


def _choice(name: str, value, where: str) -> str:
    allowed = CHOICES[name]
    v = ALIASES.get(name, {}).get(value, value) if isinstance(value, str) else value
    if v not in allowed:
        raise InputError(f"{where} must be one of {', '.join(allowed)}; got {value!r}{suggest(value, allowed)}")
    return v


def validate(values: dict, source: str = "api") -> dict:
    """Check and normalise setting values (only the keys given); return them canonical.

    Parameters
    ----------
    values : dict
        Keys among the :class:`Settings` fields.
    source : {"api", "cli", "spec"}
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
            raise InputError(f"unknown setting {name!r}{suggest(name, words)}; settings: {', '.join(words)}")
        where = words[name]
        if name == "bootstrap":
            out[name] = _integer(name, value, where, 0)
        elif name == "seed":
            out[name] = _integer(name, value, where, 0)
        elif name == "alpha":
            out[name] = _alpha(value, where)
        else:
            out[name] = _choice(name, value, where)
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
    test : {"bootstrap", "randomization"}
        Where p-values come from: the paired bootstrap (Berg-Kirkpatrick et al. 2012) or
        approximate randomization (MUC-6).
    family : {"all-pairs", "per-row", "vs-best"}
        The comparisons one correction is applied over; it governs every verdict of the report.
    correction : {"none", "bonferroni", "holm", "bh"}
        The correction behind every verdict (significant or not, groups, ties with the winner).
    """

    bootstrap: int = 10000
    seed: int = 0
    alpha: float = 0.05
    ci_method: str = "percentile"
    test: str = "bootstrap"
    family: str = "all-pairs"
    correction: str = "holm"

    def __post_init__(self):
        for name, value in validate(asdict(self)).items():
            object.__setattr__(self, name, value)

    @property
    def level(self) -> float:
        """Confidence level of the intervals, 1 - alpha."""
        return 1 - self.alpha

    @property
    def rule(self) -> str:
        """The rule behind every verdict, in words (``Holm correction over all pairs of systems``)."""
        return vocab.correction_over(self.correction, self.family)

    def to_dict(self) -> dict:
        """The ``settings`` object of results.json."""
        d = asdict(self)
        d["families"] = {"vs_best": "vs-best", "pairs": self.family}
        d["corrections"] = [k for k in vocab.CORRECTIONS if k != "none"]
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Settings":
        """Settings from the ``settings`` object of results.json (extra keys ignored)."""
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})


def make_settings(values: dict | None = None, source: str = "api", base: Settings | None = None) -> Settings:
    """Settings from ``values`` (None values are left at ``base``'s or the defaults), validated in the
    words of ``source`` (see :func:`validate`)."""
    given = {k: v for k, v in (values or {}).items() if v is not None}
    checked = validate(given, source)
    start = asdict(base) if base is not None else {}
    return Settings(**(start | checked))
