"""Start (or resume) a run in a directory: the suite and its tasks, the log, the engine.

One ``reef run`` loads its suite and selects its tasks once (:func:`select_run`); the
same selection is stored with the run (``tasks.jsonl``, the suite's identity in
``run.json``), handed to the engine and, under Ray, sent to the actors.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reefbench.errors import ConfigError
from reefbench.log.manifest import RunManifest
from reefbench.log.run import open_run
from reefbench.runner.config import (
    OBSERVATION_POLICY_KEY,
    SELECTION_FIELDS,
    RunConfig,
    versions,
)
from reefbench.runner.engine import AgentFactory, Progress, Runner, select_tasks
from reefbench.suites import Suite, get_suite
from reefbench.suites.frozen import content_hash
from reefbench.tasks.task import Task
from reefbench.tasks.taskfile import tasks_to_jsonl

if TYPE_CHECKING:
    from reefbench.log.run import Run


@dataclass(frozen=True)
class RunSelection:
    """The suite a run plays, all its tasks, and the ones the run chose."""

    suite: Suite
    tasks: list[Task]
    chosen: list[Task]

    @cached_property
    def chosen_jsonl(self) -> str:
        """The chosen definitions as canonical JSON lines (what ``tasks.jsonl`` holds)."""
        return tasks_to_jsonl(self.chosen)

    def identity(self) -> dict[str, object]:
        """The suite's identity for ``run.json`` (:func:`suite_identity`)."""
        return suite_identity(self.suite, self.tasks, self.chosen_jsonl)


def select_run(config: RunConfig) -> RunSelection:
    """Load the configuration's suite and choose its tasks (``config.tasks`` globs, of
    ``config.tiers`` and ``config.families`` when given).

    Raises:
        ConfigError: an unknown suite, or a selection that matches no task (one line).
    """
    suite = get_suite(config.suite)
    tasks = suite.load()
    chosen = select_tasks(tasks, config.tasks, tiers=config.tiers, families=config.families)
    return RunSelection(suite, tasks, chosen)


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


def manifest(config: RunConfig, suite: dict[str, object] | None = None) -> RunManifest:
    """The manifest of a run of ``config``: the configuration, its hash, the suite's
    identity (when known), the versions, the start time. A selection field left empty
    (``tiers``, ``families``) is not written: run.json keeps the keys it always had, so
    a reefbench from before them still reads it."""
    written = config.model_dump(mode="json", by_alias=True)  # run.json's keys
    for name in SELECTION_FIELDS:
        if not written[name]:
            del written[name]
    return RunManifest.model_validate(
        {
            "config": written,
            "config_hash": config.config_hash(),
            "suite": suite,
            "versions": versions(),
            "created": datetime.now(UTC).isoformat(timespec="seconds"),
        }
    )


def config_of(run: RunManifest, where: Path) -> RunConfig:
    """The configuration a stopped run was started with, to resume it.

    Raises:
        ConfigError: the manifest's ``config`` is not a run configuration (one line).
    """
    import pydantic

    from reefbench.agents.observation import LEGACY_OBSERVE

    config = run.config
    if OBSERVATION_POLICY_KEY not in config and "observation_policy" not in config:
        # A run from before observation policies sent every observation: resume it so.
        config = {**config, OBSERVATION_POLICY_KEY: LEGACY_OBSERVE}
    try:
        return RunConfig.model_validate(config)
    except pydantic.ValidationError:
        raise ConfigError(
            f"{where}: 'config' is not a run configuration; "
            "this directory cannot be resumed (start a new --out)"
        ) from None


def launch(
    config: RunConfig,
    out_dir: Path,
    make_agent: AgentFactory,
    *,
    selection: RunSelection | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    on_plan: Callable[[int], None] | None = None,
) -> Progress:
    """Run (or resume) ``config`` in ``out_dir``; a directory of another run is refused.

    ``selection`` is the suite and tasks of ``config`` when the caller has them already
    (``reef run`` selects first, so a typo fails before anything is written); otherwise
    they are selected here. A new run stores the definitions of the tasks it runs
    (``tasks.jsonl``) and the suite's identity in ``run.json``; a resumed one must find
    the same suite content."""
    chosen = selection or select_run(config)
    store = open_run(out_dir, manifest(config, chosen.identity()), chosen.chosen_jsonl)
    try:
        runner = Runner(config, chosen.chosen, make_agent, chosen.suite.make_environments, store)
        return runner.run(on_progress, on_plan)
    finally:
        store.close()


def run_suite(config: RunConfig | Mapping[str, Any], out_dir: str | Path) -> Run:
    """Run a suite from Python as ``reef run`` does (or resume the run in ``out_dir``), and
    read the run back: ``run_suite({"suite": "memory"}, "runs/m")``.

    ``config`` is a :class:`~reefbench.runner.config.RunConfig` or the same fields as a
    mapping (what a ``--config`` file holds: ``suite``, ``agent``, ``tasks``,
    ``workers`` ...); the agent is built by name or model as the CLI builds it.

    Raises:
        ConfigError: the configuration is invalid (one line), or ``out_dir`` holds another
            run.
    """
    from reefbench.log.run import load_run
    from reefbench.runner.agents import agent_from_spec, check_spec, judge_from_spec

    chosen = config if isinstance(config, RunConfig) else _validated(config)
    check_spec(chosen.agent)
    judge_from_spec(chosen.judge)  # a judge model that cannot be built fails before the run
    out = Path(out_dir)
    launch(chosen, out, lambda key: agent_from_spec(chosen.agent, key, chosen))
    return load_run(out, trajectory=False)


def _validated(fields: Mapping[str, Any]) -> RunConfig:
    import pydantic

    from reefbench.plumbing.userfiles import first_validation_error

    try:
        return RunConfig.model_validate(dict(fields))
    except pydantic.ValidationError as exc:
        raise ConfigError(f"run configuration: {first_validation_error(exc)}") from None
