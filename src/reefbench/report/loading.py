"""Load finished runs (manifest, results, the tasks they ran) for reports and the viewer.

The log reads a run directory (:func:`reefbench.log.run.load_run`); this module only adds
the report's fallback. A run's task labels (instruction, platform, level, checkpoints)
come from the ``tasks.jsonl`` the run stored, never from the suite as today's code builds
it: a later edit of a template, or a new version of the suite, must not relabel an old
run. A run directory from before runs stored their tasks (or whose file no longer loads)
falls back to today's suite of the same name, with a one-line warning saying so.
"""

from __future__ import annotations

from pathlib import Path

from reefbench.log.run import Run, TasksSource
from reefbench.log.run import load_run as read_run
from reefbench.tasks.task import Task

LoadedRun = Run
"""One run directory as the report reads it (the log's :class:`~reefbench.log.run.Run`)."""

__all__ = ["LoadedRun", "TasksSource", "load_run"]


def load_run(path: Path, *, trajectory: bool = False) -> LoadedRun:
    """Read a run directory written by ``reef run``; task labels fall back to today's
    suite for a run that stored none.

    Raises:
        ConfigError: ``path`` is not a run directory (one line).
    """
    return read_run(path, trajectory=trajectory, fallback=_todays_suite)


def _todays_suite(name: str) -> list[Task]:
    from reefbench.suites import get_suite

    return get_suite(name).load()
