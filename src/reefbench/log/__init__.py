"""The run log: what a run leaves on disk, written by the runner and read by the report.

Like ``inspect_ai.log`` it sits below both of them, so the report and the viewer read runs
without importing the runner, and the runner writes them without knowing the report.
"""

from reefbench.log.store import EpisodeKey, ResultsStore, write_run_manifest

__all__ = ["EpisodeKey", "ResultsStore", "write_run_manifest"]
