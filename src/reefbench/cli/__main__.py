"""``python -m reefbench.cli``."""

from reefbench.cli import main

main()
