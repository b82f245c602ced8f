"""The run log: what a run leaves on disk, written by the runner and read by the report.

Like ``inspect_ai.log`` it sits below both of them, so the report and the viewer read runs
without importing the runner, and the runner writes them without knowing the report:
``run.json`` is one typed model (:class:`RunManifest`) with one writer and one reader, a
run directory is created or resumed by :func:`open_run` and read back by :func:`load_run`,
and the store writes every episode's files, observations included.
"""

from reefbench.log.manifest import RunManifest, SuiteIdentity, read_run_manifest
from reefbench.log.run import Run, load_run, open_run
from reefbench.log.store import EpisodeKey, ResultsStore, write_run_manifest

__all__ = [
    "EpisodeKey",
    "ResultsStore",
    "Run",
    "RunManifest",
    "SuiteIdentity",
    "load_run",
    "open_run",
    "read_run_manifest",
    "write_run_manifest",
]
