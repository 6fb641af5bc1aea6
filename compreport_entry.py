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
    sys.stderr.write(
        "error: interrupted\n" if signum == signal.SIGINT else "error: terminated (SIGTERM)\n"
    )
    sys.stderr.flush()
    os._exit(130 if signum == signal.SIGINT else 143)


def install() -> None:
    """Handle SIGINT and SIGTERM as :func:`_stop` (the command line replaces them while it runs)."""
    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGTERM, _stop)


def main() -> None:
    """``compreport``: the handlers, then :func:`compreport.cli.run`."""
    install()
    from compreport.cli import run

    run()


if __name__ == "__main__":  # pragma: no cover
    main()
