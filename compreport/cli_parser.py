"""The command line's options: the argparse parser of ``compreport COMMAND``.

The commands are ``report``, ``demo``, ``validate``, ``init`` and ``metrics``. Values are parsed
and checked in :mod:`compreport.cli` (one ``error:`` line each); the parser itself turns every
argparse error into one such line too (:class:`_Parser`).
"""

from __future__ import annotations

import argparse
import sys
from types import MappingProxyType

from compreport import options
from compreport._version import __version__
from compreport.errors import printable
from compreport.report import FORMATS
from compreport.report.figures import FIGURE_FORMATS
from compreport.report.latex.layout import STYLES

LATEX_STYLES = tuple(STYLES)  # report.latex.layout is light (no jinja2, fonts read on first use)
#: Settings field -> attribute of the parsed arguments.
SETTING_OPTIONS = MappingProxyType(
    {field: o.dest or o.name for field, o in options.SETTINGS.items()}
)
#: The help texts' fields that name values known to the report package.
_FILL = MappingProxyType(
    {
        "formats": ", ".join(FORMATS),
        "styles": "; ".join(f"{k}: {v.title}" for k, v in STYLES.items()),
        "figure_formats": ", ".join(FIGURE_FORMATS),
    }
)


def comma_list(values: list[str] | None) -> list[str]:
    """The items of comma-list option values, in order, blanks dropped.

    >>> comma_list(["json, html", "pdf,"])
    ['json', 'html', 'pdf']
    """
    out: list[str] = []
    for v in values or []:
        out += [x.strip() for x in v.split(",") if x.strip()]
    return out


def _add_group(p: argparse.ArgumentParser, name: str, title: str | None = None) -> None:
    """The options of schema group ``name`` (:data:`compreport.options.SCHEMA`) as one argparse
    group of ``p`` (titled ``title``, default ``name``). No argparse ``type=`` or ``choices=``:
    every value is checked after parsing (:func:`compreport.settings.validate`, the readers),
    which gives one ``error:`` line (exit 2) in the words of the command line."""
    g = p.add_argument_group(title if title is not None else name)
    exclusive: dict[str, argparse._MutuallyExclusiveGroup] = {}
    for o in options.group(name):
        where = g
        if o.exclusive:
            if o.exclusive not in exclusive:
                exclusive[o.exclusive] = g.add_mutually_exclusive_group()
            where = exclusive[o.exclusive]
        where.add_argument(*o.flags, **o.argparse_kwargs(_FILL))


class _Parser(argparse.ArgumentParser):
    """An argument parser whose every error (unknown option, missing value or option) is one
    ``error:`` line on stderr and exit status 2, without the usage block.

    Options are not taken from a prefix (``--name`` is not ``--names``): a new option never
    changes what a script meant.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **{"allow_abbrev": False, **kwargs})

    def error(self, message):
        """Print ``error: MESSAGE (see PROG --help)`` and exit with status 2."""
        hint = f"see {self.prog} --help"
        if message.endswith("expected one argument"):  # -B -1e4: argparse takes -1e4 for an option
            option = message.removeprefix("argument ").split("/")[0].split(":")[0]
            hint = f"a value that starts with '-' is joined with '=': {option}=VALUE; {hint}"
        self.exit(2, f"error: {printable(message)} ({hint})\n")


class _Citation(argparse.Action):
    """``--citation``: print the BibTeX of compreport and of the works its default methods cite
    (:func:`compreport.report.references.citation`) and exit, as ``--version`` does."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, **kw):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, **kw)

    def __call__(self, parser, namespace, values, option_string=None):
        from compreport.report.references import citation

        parser._print_message(citation(), sys.stdout)  # stdout, as argparse's --version
        parser.exit(0)


def build_parser() -> argparse.ArgumentParser:
    """The ``compreport`` argument parser, one sub-command per entry of
    :data:`compreport.cli.COMMANDS`."""
    parser = _Parser(
        prog="compreport", description="Paired-bootstrap analysis and reports for NLP shared tasks."
    )
    parser.add_argument("--version", action="version", version=f"compreport {__version__}")
    parser.add_argument(
        "--citation",
        action=_Citation,
        help="print the BibTeX of compreport, its method paper and the methods the defaults use",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("report", help="analyse competitions and write the report")
    p.add_argument(
        "inputs",
        nargs="+",
        metavar="INPUT",
        help="wide CSV/TSV, gold file (with --runs), competition.toml, workshop.toml or a "
        "directory",
    )
    for name in (options.READING, options.STATISTICS, options.OUTPUT):
        _add_group(p, name)

    p = sub.add_parser("demo", help="report on the bundled synthetic workshop")
    _add_group(p, options.STATISTICS)
    _add_group(p, options.OUTPUT)

    p = sub.add_parser("validate", help="check inputs without running the bootstrap")
    p.add_argument("inputs", nargs="+", metavar="INPUT")
    _add_group(p, options.READING)

    p = sub.add_parser("init", help="scaffold a commented competition.toml and its folders")
    p.add_argument("directory", metavar="DIR")
    p.add_argument(
        "--force",
        action="store_true",
        help="replace an existing competition.toml (yours is kept as competition.toml.bak)",
    )

    sub.add_parser("metrics", help="list the metrics")

    p = sub.add_parser(
        "plan",
        help="size next year's test set: detectable differences now, items a difference needs",
    )
    p.add_argument("inputs", nargs="+", metavar="INPUT")
    _add_group(p, options.READING)
    _add_group(p, options.PLANNING)
    return parser
