"""`python -m somna.interfaces.mcp --profile P`: the same as `somna mcp --profile P`."""

import typer

from somna.interfaces.cli.serve import mcp

typer.run(mcp)
