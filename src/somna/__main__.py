"""`python -m somna` runs the command line."""

from somna.interfaces.cli import main

main()
