"""Whether PDF output can be written in this Python, asked before any work (the one check the
command line and :func:`compreport.report.check_write_options` use): WeasyPrint importable with
its system libraries. Imports nothing of compreport's reports, so that every module may use it."""

from __future__ import annotations

import contextlib
import functools
import io
import shutil

from compreport.errors import printable

#: The commands that install WeasyPrint's system libraries (Pango, HarfBuzz), per platform.
PDF_LIBRARIES = (
    "Debian: `sudo apt install libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0`; "
    "conda-forge: `conda install -c conda-forge pango`; Homebrew: `brew install pango`"
)


#: Cache: whether WeasyPrint imports in this process (an import is made once anyway); no
#: argument, one entry.
@functools.cache
def pdf_unavailable() -> str | None:
    """Why PDF output cannot be written in this Python, with the command that fixes it; None when
    it can.

    Imports WeasyPrint (once per process), which loads Pango and HarfBuzz: a missing package is an
    ImportError, a missing library an OSError. Whatever WeasyPrint prints while importing (its
    banner about missing libraries) goes nowhere: stdout holds the command's own output only.

    Examples
    --------
    >>> pdf_unavailable() is None or pdf_unavailable().startswith(("WeasyPrint", "Pango"))
    True
    """
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            import weasyprint  # noqa: F401
    except OSError as exc:  # cffi could not load a library: "cannot load library 'libpango-1.0-0'"
        reason = printable(str(exc).split(": ")[0])[:200]
        return f"Pango could not be loaded ({reason}); install it ({PDF_LIBRARIES})"
    except ImportError as exc:
        return (
            f"WeasyPrint is not installed ({printable(str(exc))[:200]}); install it with "
            "`pip install weasyprint`"
        )
    return None


#: The commands that install latexmk and pdflatex, per platform.
LATEX_TOOLS = (
    "Debian: `sudo apt install latexmk texlive-latex-extra`; "
    "conda-forge: `conda install -c conda-forge texlive-core latexmk`; "
    "macOS: MacTeX (`brew install --cask mactex`)"
)


def appendix_compiler_missing() -> str | None:
    """Why ``appendix.pdf`` cannot be compiled here (``latexmk`` or ``pdflatex`` not on the
    PATH), with the command that installs them; None when it can. Asked before any work, each
    time (the PATH may change; the look-up takes microseconds).

    Examples
    --------
    >>> why = appendix_compiler_missing()
    >>> why is None or why.startswith(("latexmk", "pdflatex"))
    True
    """
    missing = [tool for tool in ("latexmk", "pdflatex") if shutil.which(tool) is None]
    if not missing:
        return None
    return f"{' and '.join(missing)} not found; install them ({LATEX_TOOLS})"
