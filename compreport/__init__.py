"""compreport: paired-bootstrap analysis and publication-ready reports for NLP shared tasks.

Stages (data flows one way): :mod:`spec`/:mod:`load` read inputs into a
:class:`~compreport.competition.Competition`; :mod:`metrics` turns predictions into
sufficient statistics; :mod:`bootstrap` resamples them; :mod:`inference` and
:mod:`analysis` build the :class:`~compreport.analysis.Analysis` (results.json).
"""

from ._version import __version__

__all__ = ["__version__"]
