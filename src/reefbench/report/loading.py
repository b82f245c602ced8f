"""Load finished runs (manifest, results, the tasks they ran) for reports and the viewer."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reefbench.episode import EpisodeResult
from reefbench.errors import ConfigError
from reefbench.log.store import ResultsStore
from reefbench.task import Task
from reefbench.userfiles import parse_json, read_text


@dataclass
class LoadedRun:
    """One run directory: its manifest, results and tasks."""

    path: Path
    manifest: dict[str, Any]
    results: list[EpisodeResult]
    tasks: dict[str, Task]

    @property
    def action_set(self) -> str:
        """The run's action set; ``legacy`` for runs made before action sets, whose tool
        lists added name-addressed actions to the devices each task's solution used."""
        return str(self.manifest.get("config", {}).get("action_set", "legacy"))

    @property
    def label(self) -> str:
        agent = self.manifest.get("config", {}).get("agent", {})
        model = agent.get("model")
        name = f"{model} ({agent.get('policy', 'single')})" if model else agent.get("name", "?")
        return f"{name} [{self.action_set}] · {self.path.name}"


def load_run(path: Path, *, trajectory: bool = False) -> LoadedRun:
    """Read a run directory written by ``reef run``."""
    from reefbench.suites import get_suite

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
    suite = manifest.get("config", {}).get("suite", "memory")
    tasks = {t.id: t for t in get_suite(suite).load()}
    return LoadedRun(path, manifest, results, tasks)
