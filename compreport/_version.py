"""The package version: the installed distribution's, which the build took from the git tag.

A release is built from its tag ``vX.Y.Z`` (docs/development.md, *Releasing*); a commit after it
builds as the next version's ``.devN+g<commit>`` (hatch-vcs; ``fallback-version`` in pyproject.toml
before the first tag and without git). Code run from a checkout that was never installed has no
metadata, so its version is :data:`UNKNOWN`.

>>> __version__ == UNKNOWN or __version__[0].isdigit()
True
"""

from importlib.metadata import PackageNotFoundError, version

#: The version of code that no installed distribution describes (a valid PEP 440 version).
UNKNOWN = "0+unknown"

try:
    __version__ = version("compreport")
except PackageNotFoundError:
    __version__ = UNKNOWN
