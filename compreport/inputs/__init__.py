"""Reading the inputs into validated competitions.

:mod:`.spec` turns each INPUT (a ``competition.toml``, a ``workshop.toml``, a wide table, a gold
file with its runs) into a :class:`~compreport.inputs.competition.Competition`; :mod:`.readers`
reads the two data layouts, :mod:`.runfiles` finds and names the run files, and :mod:`.records`
reads one gold or run file.
"""
