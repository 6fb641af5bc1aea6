"""Statistics: metrics as sufficient statistics, the paired bootstrap, intervals, tests,
corrections, significance groups and competitiveness, gathered into an
:class:`~compreport.stats.results.Analysis` by :mod:`compreport.stats.analysis`."""
