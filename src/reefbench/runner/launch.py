"""Start (or resume) a run in a directory: manifest, store, engine."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from reefbench.log.store import ResultsStore, write_run_manifest, write_run_tasks
from reefbench.runner.config import RunConfig, versions
from reefbench.runner.engine import AgentFactory, Progress, Runner, select_tasks
from reefbench.suites import Suite, get_suite
from reefbench.suites.frozen import content_hash
from reefbench.task import Task
from reefbench.taskfile import tasks_to_jsonl


def suite_identity(suite: Suite, tasks: list[Task], ran: str) -> dict[str, object]:
    """What run.json records of the suite: its name, version (frozen suites) and content
    hash (of the shipped data, or of every task definition of a suite synthesised at load
    time), and the hash and count of the definitions this run runs (``ran``)."""
    if suite.frozen is not None:
        manifest = suite.frozen.manifest()
        version: str | None = manifest.version
        sha256 = manifest.sha256
    else:
        version, sha256 = None, content_hash(tasks_to_jsonl(tasks))
    return {
        "name": suite.name,
        "version": version,
        "sha256": sha256,
        "tasks_sha256": content_hash(ran),
        "tasks": ran.count("\n"),
    }


def manifest(config: RunConfig, suite: dict[str, Any] | None = None) -> dict[str, Any]:
    """What ``run.json`` holds: the configuration, its hash, the suite's identity (when
    known), the versions, the start time."""
    return {
        "config": config.model_dump(mode="json"),
        "config_hash": config.config_hash(),
        **({"suite": suite} if suite is not None else {}),
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
    """Run (or resume) ``config`` in ``out_dir``; a directory of another run is refused.

    A new run stores the definitions of the tasks it runs (``tasks.jsonl``) and the
    suite's identity in ``run.json``; a resumed one must find the same suite content."""
    suite = get_suite(config.suite)
    tasks = suite.load()
    ran = tasks_to_jsonl(select_tasks(tasks, config.tasks))
    if not (out_dir / "run.json").exists():
        write_run_tasks(out_dir, ran)
    write_run_manifest(out_dir, manifest(config, suite_identity(suite, tasks, ran)))
    store = ResultsStore(out_dir)
    try:
        runner = Runner(config, tasks, make_agent, suite.make_environments, store)
        return runner.run(on_progress, on_plan)
    finally:
        store.close()
