"""`python -m somna.interfaces.api`: the same as `somna serve`."""

import typer

from somna.interfaces.cli.serve import serve

typer.run(serve)
