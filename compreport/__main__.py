"""``python -m compreport``: the command line."""

from .cli import run

run()
