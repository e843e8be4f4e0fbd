"""`python -m somna.interfaces.cli`: the same as the `somna` console script."""

from somna.interfaces.cli import main

main()
