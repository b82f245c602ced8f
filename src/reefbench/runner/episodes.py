"""An episode of a run, built from the run's configuration: the same for every worker.

A worker thread (:mod:`.engine`) and a Ray actor (:mod:`.ray_executor`) both play
episodes; they differ in where the environments live and where observation files go,
never in how the configuration shapes the episode, so that is said once, here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reefbench.environments.contract import Environment
from reefbench.episodes.episode import Episode, EpisodeResult, ObservationSink
from reefbench.episodes.protocol import Agent
from reefbench.runner.agents import judge_from_spec
from reefbench.runner.config import RunConfig
from reefbench.tasks.task import Task


def build_episode(
    config: RunConfig,
    task: Task,
    agent: Agent,
    envs: Mapping[str, Environment],
    *,
    start_at: int,
    observations: ObservationSink,
) -> Episode:
    """The episode ``config`` plays of ``task`` (from checkpoint ``start_at``), whose
    observations go to ``observations`` (the log's sink)."""
    return Episode(
        task,
        agent,
        envs,
        invalid_tolerance=config.invalid_tolerance,
        side_effects=config.side_effects,
        step_limit=config.step_limit,
        start_at=start_at,
        observation_sink=observations,
        action_set=config.action_set,
        judge=judge_from_spec(config.judge),
    )


def infrastructure_result(task: Task, termination: Any, error: str) -> EpisodeResult:
    """The result of an episode that could not be played (no environment, no agent, a
    lost Ray actor): an infrastructure failure, retried by the runner."""
    return EpisodeResult(
        task_id=task.id,
        agent="-",
        termination=termination,
        success=False,
        completion_ratio=0.0,
        completed_nodes=[],
        total_nodes=len(task.nodes),
        error=error,
    )
