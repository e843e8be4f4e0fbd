"""The `somna` command line: Typer commands over `Memory`, rendered with Rich.

Every command opens the memory, calls one `Memory` method and prints the
result as a table, or as JSON with `--json`. Domain errors exit with one line
on stderr: code 2 for bad input, a missing object or a refused state change,
1 for database, embedder or configuration failures.
"""

from somna.interfaces.cli.app import app, main

__all__ = ["app", "main"]
