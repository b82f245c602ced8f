"""Distribute episodes over a Ray cluster (``reef run --ray ADDRESS``).

Each Ray actor owns its environment instances (they live on the node that runs the
episode) and plays episodes by task id. Only JSON crosses the wire: the configuration and
the definitions of the tasks the run plays (the ``tasks.jsonl`` the driver stored, so an
actor neither loads the suite nor selects tasks again) when the actor starts; the episode
key in, the result and its binary observations (base64) out. The episode is built by
:func:`~reefbench.runner.episodes.build_episode`, as in a worker thread, and the
observations are named by the log's sink; the driver thread that called the actor hands
the result and the files to the store like a local worker's, so retries, resume and the
store work the same.

Actors hold one CPU each and spread over the nodes (:mod:`reefbench.plumbing.ray_actors`),
so a run uses every node. Each episode's node is stored beside its result
(:data:`PLACEMENT_FILE`). A lost node (its machine or raylet died) takes its actors and
their episodes with it: the call fails with a Ray error, the pool makes a new actor (placed
on a live node) and the runner retries the episode as an infrastructure failure, counted in
its retries and never as the agent's; no result of the lost attempt exists, so each episode
is stored once, by its key.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from reefbench.environments.contract import stop_environments
from reefbench.episodes.episode import EpisodeResult
from reefbench.episodes.protocol import Agent
from reefbench.log.observations import ObservationFiles
from reefbench.log.store import EpisodeKey, ResultsStore
from reefbench.plumbing.ray_actors import ActorPool, connect, node_of_this_process
from reefbench.runner.config import AgentSpec, RunConfig
from reefbench.runner.episodes import build_episode
from reefbench.runner.outcomes import needs_new_environments
from reefbench.tasks.task import Task
from reefbench.tasks.taskfile import task_from_dict, tasks_to_jsonl

PLACEMENT_FILE = "ray-node.json"
"""In an episode's folder: the Ray node that played it (``node_id``, ``node_ip``)."""


class EpisodePlayer:
    """Runs episodes of one run in one process; the body of the Ray actor.

    Args:
        config_json: The run's configuration (``RunConfig`` as JSON).
        tasks_jsonl: The definitions of the tasks the run plays (canonical JSON lines).
    """

    def __init__(self, config_json: str, tasks_jsonl: str) -> None:
        from reefbench.actions.refs import allow_action_modules
        from reefbench.suites import get_suite

        self.config = RunConfig.model_validate_json(config_json)
        allow_action_modules(self.config.action_modules)  # as the driver's CLI did
        self.make_environments = get_suite(self.config.suite).make_environments
        self.tasks = _tasks_from_jsonl(tasks_jsonl)
        self.envs: Any = None

    def play(self, task_id: str, seed: int, start_at: int) -> dict[str, Any]:
        files: dict[str, str] = {}

        def keep(name: str, data: bytes) -> None:
            files[name] = base64.b64encode(data).decode()

        if self.envs is None:
            self.envs = self.make_environments()
        agent = build_agent(self.config.agent, EpisodeKey(task_id, seed, start_at), self.config)
        result = build_episode(
            self.config,
            self.tasks[task_id],
            agent,
            self.envs,
            start_at=start_at,
            observations=ObservationFiles(keep),
        ).run()
        if needs_new_environments(result, self.envs):
            self.close()
        return {"result": result.model_dump_json(), "files": files}

    def close(self) -> None:
        stop_environments(self.envs)
        self.envs = None

    def node(self) -> dict[str, str]:
        """Where this actor lives (its node's id and IP address)."""
        return node_of_this_process()


def _tasks_from_jsonl(text: str) -> dict[str, Task]:
    tasks = (
        task_from_dict(json.loads(line), where=f"tasks:{number}")
        for number, line in enumerate(text.splitlines(), 1)
        if line
    )
    return {t.id: t for t in tasks}


def build_agent(spec: AgentSpec, key: EpisodeKey, config: RunConfig) -> Agent:
    """The agent a spec names (built-in agents; model agents come from the providers),
    told the run's observation policy and invalid-action tolerance."""
    from reefbench.runner.agents import agent_from_spec

    return agent_from_spec(spec, key, config)


class RayPool(ActorPool):
    """``workers`` Ray actors on the cluster at ``address`` (``local`` starts one here),
    each given the run's configuration and the definitions of ``tasks``."""

    def __init__(self, config: RunConfig, workers: int, tasks: list[Task]) -> None:
        connect(config.ray_address, workers)
        super().__init__(EpisodePlayer, (config.model_dump_json(), tasks_to_jsonl(tasks)), workers)

    def play(self, index: int, key: EpisodeKey, store: ResultsStore) -> EpisodeResult:
        """Play ``key`` on actor ``index``; its observation files, and the node that played
        it, go to ``store``. A lost actor or node raises (a Ray error) after a new actor
        has taken its place: the runner retries the episode as an infrastructure failure."""
        reply = self.call(index, key, "play", key.task_id, key.seed, key.start_at)
        files = {name: base64.b64decode(data) for name, data in reply["files"].items()}
        files[PLACEMENT_FILE] = json.dumps(self.nodes[index]).encode()
        store.write_observations(key, files)
        return EpisodeResult.model_validate_json(reply["result"])
