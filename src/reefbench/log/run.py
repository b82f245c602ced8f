"""A run directory as a whole: created or resumed in one place, read back as one typed run.

:func:`open_run` is how every writer (``reef run``, ``reef serve-mcp``) starts a run
directory: a new one stores the definitions of the tasks it runs (``tasks.jsonl``) and
then its manifest (``run.json``), so a directory with a manifest always has them; an
existing one is resumed only when it holds the same run. :func:`load_run` is how every
reader (``reef report``, the viewer, the exports, ``reefbench.load_run``) gets it back:
the manifest, the stored episode results and the task definitions the run ran, as
``inspect_ai.log.read_eval_log`` returns one ``EvalLog``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from reefbench.episodes.episode import EpisodeResult
from reefbench.errors import ConfigError, ReefError
from reefbench.log.manifest import RunManifest, is_run, read_run_manifest, write_run_manifest
from reefbench.log.store import RESULTS_FILE, ResultsStore, write_durably
from reefbench.tasks.task import Task
from reefbench.tasks.taskfile import load_tasks

_log = logging.getLogger(__name__)

TASKS_FILE = "tasks.jsonl"
"""The definitions of the tasks a run ran (:func:`reefbench.tasks.taskfile.tasks_to_jsonl`)."""

TasksSource = Literal["run", "suite", "none"]


def open_run(run_dir: Path, manifest: RunManifest, tasks: str) -> ResultsStore:
    """Create the run directory ``run_dir``, or resume the run it holds, and open its store.

    Args:
        run_dir: The directory (created when missing).
        manifest: This run's manifest; a directory holding another run is refused.
        tasks: The definitions this run runs, as canonical JSON lines; stored by a new
            run only (a resumed run keeps what it started with, or has none if it is
            older than stored definitions).

    Raises:
        ConfigError: the directory holds another run (configuration or suite content).
    """
    if not is_run(run_dir):
        run_dir.mkdir(parents=True, exist_ok=True)
        write_durably(run_dir / TASKS_FILE, tasks)
    write_run_manifest(run_dir, manifest)
    return ResultsStore(run_dir)


@dataclass
class Run:
    """One run directory read back: its manifest, stored results and tasks.

    ``tasks_source`` says where the task definitions came from: the run's own
    ``tasks.jsonl`` (``"run"``), a fallback such as today's suite (``"suite"``), or
    nowhere (``"none"``); ``warnings`` says why when it is not the run's own.
    """

    path: Path
    manifest: RunManifest
    results: list[EpisodeResult]
    tasks: dict[str, Task]
    tasks_source: TasksSource = "run"
    warnings: list[str] = field(default_factory=list)

    @property
    def action_set(self) -> str:
        return self.manifest.action_set

    @property
    def observation_policy(self) -> str:
        return self.manifest.observation_policy

    @property
    def label(self) -> str:
        """How tables and reports name the run: agent, action set (and observation
        policy for a model), directory."""
        policy = self.observation_policy
        observed = f", observe {policy}" if self.manifest.agent.get("model") else ""
        return f"{self.manifest.agent_label} [{self.action_set}{observed}] · {self.path.name}"


FallbackTasks = Callable[[str], list[Task]]
"""Task definitions by suite name, for runs that stored none (the report passes today's
suite; it raises :class:`~reefbench.errors.ReefError` when the suite does not load)."""


def load_run(
    path: str | Path, *, trajectory: bool = False, fallback: FallbackTasks | None = None
) -> Run:
    """Read the run directory ``path`` written by ``reef run`` (or ``reef serve-mcp``).

    Args:
        path: The run directory.
        trajectory: Also read every episode's trajectory (slower; the viewer and the
            exports need it, tables do not).
        fallback: Where task definitions come from when the run has no readable
            ``tasks.jsonl``; the run then says so in ``warnings`` (also logged).

    Raises:
        ConfigError: ``path`` is not a run directory, or its manifest is unreadable (one
            line).
    """
    path = Path(path)
    manifest = read_run_manifest(path)
    if not (path / RESULTS_FILE).is_file():
        raise ConfigError(f"{path}: not a run directory (no {RESULTS_FILE})")
    store = ResultsStore(path)
    try:
        results = store.results(trajectory=trajectory)
    finally:
        store.close()
    run = Run(path, manifest, results, {})
    _read_tasks(run, fallback)
    for warning in run.warnings:
        _log.warning("warning: %s", warning)
    return run


def _read_tasks(run: Run, fallback: FallbackTasks | None) -> None:
    stored = run.path / TASKS_FILE
    if stored.is_file():
        try:
            run.tasks = {t.id: t for t in load_tasks(stored)}
            return
        except ReefError as exc:
            problem = f"{exc}"
    else:
        problem = f"{run.path}: no {TASKS_FILE} (a run from before runs stored their tasks)"
    suite = run.manifest.suite_name
    run.tasks_source = "none"
    if fallback is None:
        run.warnings.append(f"{problem}; the run has no task labels")
        return
    try:
        run.tasks = {t.id: t for t in fallback(suite)}
    except ReefError as exc:
        run.warnings.append(f"{problem}; and today's suite '{suite}' does not load ({exc})")
        return
    run.tasks_source = "suite"
    run.warnings.append(f"{problem}; task labels come from today's suite '{suite}'")
