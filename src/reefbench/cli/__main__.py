"""``python -m reefbench.cli``."""

from reefbench.cli import main

if __name__ == "__main__":  # importing this module must not start a command line
    main()
