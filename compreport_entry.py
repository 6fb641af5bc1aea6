"""The ``compreport`` command's entry point, outside the package so that it runs before the
package's imports (about 0.1 s).

Ctrl-C or SIGTERM then, or after the command line has restored the signal handlers at the end of
a run, ends the process with one line and exit status 130 or 143, as an interruption during the
run does, never with a traceback or silently. Nothing has been written before the run starts, and
the output is complete (or removed) once it has ended.
"""

import os
import signal
import sys


def _stop(signum, frame):  # noqa: ARG001 (a signal handler's signature)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # one line, whatever comes next
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    sys.stderr.write(
        "error: interrupted\n" if signum == signal.SIGINT else "error: terminated (SIGTERM)\n"
    )
    sys.stderr.flush()
    os._exit(130 if signum == signal.SIGINT else 143)


def utf8() -> None:
    """Run the command in Python's UTF-8 mode (``-X utf8``) when it was started without it under a
    locale whose encoding is not UTF-8 (``LC_ALL=C PYTHONUTF8=0``): re-executes this process (same
    pid, same arguments) with the mode on. compreport reads file names and writes its report as
    UTF-8; in another file-system encoding a valid UTF-8 file name (``datos.csv`` with an accent)
    could be neither named in the report nor opened."""
    if sys.flags.utf8_mode or sys.getfilesystemencoding().replace("-", "").lower() == "utf8":
        return
    argv = getattr(sys, "orig_argv", None)
    if not sys.executable or not argv:
        return
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, [sys.executable, "-X", "utf8", *argv[1:]])


def install() -> None:
    """Handle SIGINT and SIGTERM as :func:`_stop` (the command line replaces them while it runs)."""
    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGTERM, _stop)


def main() -> None:
    """``compreport``: UTF-8 mode (:func:`utf8`), the handlers, then :func:`compreport.cli.run`."""
    utf8()
    install()
    from compreport.cli import run

    run()


if __name__ == "__main__":  # pragma: no cover
    main()
