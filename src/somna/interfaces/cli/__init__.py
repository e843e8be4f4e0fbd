"""The `somna` command line: Typer commands over `Memory`, rendered with Rich.

Every command opens the memory, calls one `Memory` method and prints the
result as a table, or as JSON with `--json`. Domain errors exit with one line
on stderr: code 2 for bad input, a missing object or a refused state change,
1 for database, embedder or configuration failures. Ctrl-C and SIGTERM, at any
moment, exit 130 and 143 with one line.

`app` is imported when first asked for, not with this package: `main` sets its
signal handlers before the commands' imports, which take about a second.
"""

import sys
import typing

from somna.interfaces.cli.signals import Guard, Interrupted, exit_code, stopped_line

if typing.TYPE_CHECKING:
    from somna.interfaces.cli.commands import app

__all__ = ["app", "main"]


def __getattr__(name: str) -> typing.Any:
    if name == "app":
        from somna.interfaces.cli.commands import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """The `somna` console script (and `python -m somna`)."""
    guard = Guard()
    try:
        from somna.interfaces.cli.commands import app

        guard.started()
        app(prog_name="somna")
    except KeyboardInterrupt as stop:
        print(stopped_line(stop), file=sys.stderr)
        sys.exit(exit_code(stop))
    except SystemExit as ended:
        # Typer turns an interrupt that meets it outside a command's own code (as the
        # command's output ends) into a bare exit 130, whichever the signal: say which.
        if guard.raised is None or ended.code != 130:
            raise
        signalled = Interrupted(guard.raised)
        print(stopped_line(signalled), file=sys.stderr)
        sys.exit(exit_code(signalled))
    finally:
        guard.done()
