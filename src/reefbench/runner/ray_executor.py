"""Distribute episodes over a Ray cluster (``reef run --ray ADDRESS``).

Each Ray actor owns its environment instances (they live on the node that runs the
episode) and plays episodes by task id, loading the suite by name; only JSON crosses the
wire: the episode key in, the result and its binary observations (base64) out. The driver
thread that called the actor stores them like a local worker's, so retries, resume and the
store work the same.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from reefbench.episode import Episode, EpisodeResult
from reefbench.log.store import EpisodeKey
from reefbench.protocol import Agent
from reefbench.runner.agents import judge_from_spec
from reefbench.runner.config import AgentSpec, RunConfig
from reefbench.runner.outcomes import needs_new_environments


class EpisodePlayer:
    """Runs episodes of one suite in one process; the body of the Ray actor."""

    def __init__(self, config_json: str) -> None:
        from reefbench.suites import get_suite

        self.config = RunConfig.model_validate_json(config_json)
        self.suite = get_suite(self.config.suite)
        self.tasks = {t.id: t for t in self.suite.load()}
        self.envs: Any = None

    def play(self, task_id: str, seed: int, start_at: int) -> dict[str, Any]:
        files: dict[str, str] = {}

        def keep(step: int, env: str, name: str, value: Any) -> Any:
            if isinstance(value, bytes | bytearray):
                file_name = f"step{step:03d}-{env}-{name}.png"
                files[file_name] = base64.b64encode(value).decode()
                return file_name
            return value

        if self.envs is None:
            self.envs = self.suite.make_environments()
        agent = build_agent(self.config.agent, EpisodeKey(task_id, seed, start_at), self.config)
        result = Episode(
            self.tasks[task_id],
            agent,
            self.envs,
            invalid_tolerance=self.config.invalid_tolerance,
            side_effects=self.config.side_effects,
            step_limit=self.config.step_limit,
            start_at=start_at,
            observation_sink=keep,
            action_set=self.config.action_set,
            judge=judge_from_spec(self.config.judge),
        ).run()
        if needs_new_environments(result, self.envs):
            self.close()
        return {"result": result.model_dump_json(), "files": files}

    def close(self) -> None:
        if self.envs is not None:
            for env in self.envs.values():
                try:
                    env.stop()
                except Exception:  # a crashed environment may not stop cleanly
                    continue
            self.envs = None


def build_agent(spec: AgentSpec, key: EpisodeKey, config: RunConfig) -> Agent:
    """The agent a spec names (built-in agents; model agents come from the providers),
    told the run's observation policy and invalid-action tolerance."""
    from reefbench.runner.agents import agent_from_spec

    return agent_from_spec(spec, key, config)


class RayPool:
    """``workers`` Ray actors on the cluster at ``address`` (``local`` starts one here)."""

    def __init__(self, config: RunConfig, workers: int) -> None:
        import ray

        if not ray.is_initialized():
            if config.ray_address in (None, "local"):
                ray.init(include_dashboard=False, log_to_driver=False, num_cpus=max(2, workers))
            else:
                ray.init(address=config.ray_address, log_to_driver=False)
        self.config_json = config.model_dump_json()
        self._actor: Any = ray.remote(EpisodePlayer)
        self.actors: list[Any] = [self._actor.remote(self.config_json) for _ in range(workers)]

    def play(self, index: int, key: EpisodeKey, folder: Path) -> EpisodeResult:
        import ray

        try:
            reply = ray.get(self.actors[index].play.remote(key.task_id, key.seed, key.start_at))
        except ray.exceptions.RayActorError:
            # The actor's process died (killed, OOM, node lost): a new actor takes its place,
            # so the retry of this episode and the worker's next episodes have one to run on.
            self.actors[index] = self._actor.remote(self.config_json)
            raise
        if reply["files"]:
            folder.mkdir(parents=True, exist_ok=True)
            for name, data in reply["files"].items():
                (folder / Path(name).name).write_bytes(base64.b64decode(data))
        return EpisodeResult.model_validate_json(reply["result"])

    def close(self) -> None:
        import ray

        for actor in self.actors:
            try:
                ray.get(actor.close.remote())
            except ray.exceptions.RayError:
                continue  # a dead actor has nothing left to close; the others still do
            finally:
                ray.kill(actor)
