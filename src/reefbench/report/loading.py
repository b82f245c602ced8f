"""Load finished runs (manifest, results, the tasks they ran) for reports and the viewer.

A run's task labels (instruction, platform, level, checkpoints) come from the
``tasks.jsonl`` the run stored, never from the suite as today's code builds it: a later
edit of a template, or a new version of the suite, must not relabel an old run. A run
directory from before runs stored their tasks (or whose file no longer loads) falls back
to today's suite of the same name, with a one-line warning saying so.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from reefbench.episode import EpisodeResult
from reefbench.errors import ConfigError, ReefError
from reefbench.log.store import TASKS_FILE, ResultsStore
from reefbench.task import Task
from reefbench.taskfile import load_tasks
from reefbench.userfiles import parse_json, read_text

_log = logging.getLogger(__name__)

TasksSource = Literal["run", "suite", "none"]


@dataclass
class LoadedRun:
    """One run directory: its manifest, results and tasks.

    ``tasks_source`` says where the task definitions came from: the run's own
    ``tasks.jsonl`` (``"run"``), today's suite as a fallback (``"suite"``), or nowhere.
    """

    path: Path
    manifest: dict[str, Any]
    results: list[EpisodeResult]
    tasks: dict[str, Task]
    tasks_source: TasksSource = "run"
    warnings: list[str] = field(default_factory=list)

    @property
    def action_set(self) -> str:
        """The run's action set; ``legacy`` for runs made before action sets, whose tool
        lists added name-addressed actions to the devices each task's solution used."""
        return str(self.manifest.get("config", {}).get("action_set", "legacy"))

    @property
    def observe(self) -> str:
        """The run's observation policy (which devices' observations a model agent's
        request carried); ``all`` for runs made before policies, which sent everything."""
        return str(self.manifest.get("config", {}).get("observe", "all"))

    @property
    def label(self) -> str:
        agent = self.manifest.get("config", {}).get("agent", {})
        model = agent.get("model")
        name = f"{model} ({agent.get('policy', 'single')})" if model else agent.get("name", "?")
        observed = f", observe {self.observe}" if model else ""
        return f"{name} [{self.action_set}{observed}] · {self.path.name}"


def load_run(path: Path, *, trajectory: bool = False) -> LoadedRun:
    """Read a run directory written by ``reef run``."""
    manifest_path = path / "run.json"
    if not manifest_path.is_file() or not (path / "results.sqlite").is_file():
        raise ConfigError(f"{path}: not a run directory (no run.json/results.sqlite)")
    manifest = parse_json(read_text(manifest_path), str(manifest_path))
    if not isinstance(manifest, dict):
        raise ConfigError(f"{manifest_path}: expected a JSON object (a run's manifest)")
    store = ResultsStore(path)
    try:
        results = store.results(trajectory=trajectory)
    finally:
        store.close()
    run = LoadedRun(path, manifest, results, {})
    _read_tasks(run)
    for warning in run.warnings:
        _log.warning("warning: %s", warning)
    return run


def _read_tasks(run: LoadedRun) -> None:
    stored = run.path / TASKS_FILE
    if stored.is_file():
        try:
            run.tasks = {t.id: t for t in load_tasks(stored)}
            return
        except ReefError as exc:
            problem = f"{exc}"
    else:
        problem = f"{run.path}: no {TASKS_FILE} (a run from before runs stored their tasks)"
    suite = run.manifest.get("config", {}).get("suite", "memory")
    from reefbench.suites import get_suite

    try:
        run.tasks = {t.id: t for t in get_suite(suite).load()}
    except ReefError as exc:
        run.tasks_source = "none"
        run.warnings.append(f"{problem}; and today's suite '{suite}' does not load ({exc})")
        return
    run.tasks_source = "suite"
    run.warnings.append(f"{problem}; task labels come from today's suite '{suite}'")
