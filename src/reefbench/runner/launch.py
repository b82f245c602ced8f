"""Start (or resume) a run in a directory: manifest, store, engine."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from reefbench.log.store import ResultsStore, write_run_manifest
from reefbench.runner.config import RunConfig, versions
from reefbench.runner.engine import AgentFactory, Progress, Runner
from reefbench.suites import get_suite


def manifest(config: RunConfig) -> dict[str, Any]:
    """What ``run.json`` holds: the configuration, its hash, the versions, the start time."""
    return {
        "config": config.model_dump(mode="json"),
        "config_hash": config.config_hash(),
        "versions": versions(),
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def launch(
    config: RunConfig,
    out_dir: Path,
    make_agent: AgentFactory,
    *,
    on_progress: Callable[[Progress], None] | None = None,
    on_plan: Callable[[int], None] | None = None,
) -> Progress:
    """Run (or resume) ``config`` in ``out_dir``; a directory of another run is refused."""
    suite = get_suite(config.suite)
    tasks = suite.load()
    write_run_manifest(out_dir, manifest(config))
    store = ResultsStore(out_dir)
    try:
        runner = Runner(config, tasks, make_agent, suite.make_environments, store)
        return runner.run(on_progress, on_plan)
    finally:
        store.close()
