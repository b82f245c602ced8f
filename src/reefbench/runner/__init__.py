"""Running episodes and storing their results."""

from reefbench.runner.local import run_suite

__all__ = ["run_suite"]
