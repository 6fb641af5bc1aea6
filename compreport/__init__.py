"""compreport: paired-bootstrap analysis and publication-ready reports for NLP shared tasks.

The Python API::

    import compreport as cr
    data = cr.load("examples/workshop")          # a spec, a workshop directory, a wide CSV/TSV
    a = cr.analyze(data, bootstrap=10_000, seed=0)
    a.leaderboard(competition="paraphrase")      # pandas.DataFrame

Stages (data flows one way): :mod:`compreport.inputs` reads inputs into
:class:`~compreport.inputs.competition.Competition` objects; :mod:`compreport.stats` turns
predictions into sufficient statistics, resamples them and decides every verdict into an
:class:`~compreport.stats.results.Analysis` (results.json); :mod:`compreport.report` renders it.
"""

from ._version import __version__
from .api import Inputs, analyze, from_frame, load
from .errors import InputError
from .settings import Settings
from .stats.results import Analysis

__all__ = ["Analysis", "InputError", "Inputs", "Settings", "__version__", "analyze", "from_frame", "load"]
