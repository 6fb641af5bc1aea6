"""compreport: paired-bootstrap analysis and publication-ready reports for NLP shared tasks.

The Python API::

    import compreport as cr
    data = cr.load_demo()     # the bundled demo workshop; cr.load("my-task") reads a spec,
                              # a workshop directory, a wide CSV/TSV
    a = cr.analyze(data, bootstrap=10_000, seed=0)
    a.leaderboard(competition="paraphrase")      # pandas.DataFrame
    r = cr.Report(a)                             # LaTeX, Markdown, HTML, figures, files
    print(r.to_markdown("leaderboard", competition="paraphrase"))

Stages (data flows one way): :mod:`compreport.inputs` reads inputs into
:class:`~compreport.inputs.competition.Competition` objects (:func:`load`, :func:`from_frame`;
:func:`load_demo` reads the bundled demo);
:mod:`compreport.stats` turns predictions into sufficient statistics, resamples them and decides
every verdict once into an :class:`~compreport.stats.results.Analysis` (:func:`analyze`, or
:func:`validate` for the scores alone; results.json); :mod:`compreport.report` renders it without
deciding anything (:class:`Report`). :func:`plan` sizes next year's test set; :func:`list_metrics`
lists the metrics known by name.
Settings are validated in :mod:`compreport.settings`; the names of corrections, families, CI
methods and tests live in :mod:`compreport.language.vocabulary`; every problem raises
:class:`InputError`.
"""

from compreport._version import __version__
from compreport.api import (
    Inputs,
    MetricInfo,
    analyze,
    from_frame,
    list_metrics,
    load,
    load_demo,
    plan,
    validate,
)
from compreport.errors import InputError
from compreport.report import Report
from compreport.settings import Settings
from compreport.stats.results import Analysis

__all__ = [
    "Analysis",
    "InputError",
    "Inputs",
    "MetricInfo",
    "Report",
    "Settings",
    "__version__",
    "analyze",
    "from_frame",
    "list_metrics",
    "load",
    "load_demo",
    "plan",
    "validate",
]
