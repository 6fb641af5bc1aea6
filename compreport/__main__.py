"""``python -m compreport``: the command line (the package is imported by then; see
:mod:`compreport_entry` for the ``compreport`` command, which handles signals before that)."""

try:
    from compreport_entry import install, utf8
except ImportError:  # the package used from a source tree without its entry module
    install = utf8 = None
if install is not None:
    utf8()
    install()

from compreport.cli import run  # noqa: E402

run()
