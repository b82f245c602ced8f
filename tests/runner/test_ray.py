"""The Ray executor on a local Ray cluster: results flow back to the driver's store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from reefbench.agents import OracleAgent
from reefbench.log.store import ResultsStore
from reefbench.runner.config import AgentSpec, RunConfig
from reefbench.runner.engine import Runner, select_tasks
from reefbench.suites import memory

ray = pytest.importorskip("ray")
pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def local_cluster() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_ray_run_stores_every_episode(local_cluster: None, tmp_path: Path) -> None:
    config = RunConfig(
        suite="memory", agent=AgentSpec(name="oracle"), seeds=[0, 1], workers=2, ray_address="local"
    )
    store = ResultsStore(tmp_path)
    try:
        progress = Runner(
            config, memory.load(), lambda key: OracleAgent(), memory.make_environments, store
        ).run()
        rows = store.rows()
        results = store.results(trajectory=True)
    finally:
        store.close()
    assert progress.done == 16 and {r["status"] for r in rows} == {"done"}
    assert all(r.success for r in results) and all(r.trajectory for r in results)


def test_a_dead_actor_is_an_infrastructure_failure_and_is_retried(
    local_cluster: None, tmp_path: Path
) -> None:
    from reefbench.runner import ray_executor

    class FlakyPool(ray_executor.RayPool):
        killed = False

        def play(self, index, key, store):  # type: ignore[no-untyped-def]
            if not FlakyPool.killed:
                FlakyPool.killed = True
                ray.kill(self.actors[index])
                self.actors[index] = self.new_actor()
                raise ray.exceptions.RayActorError("worker died")
            return super().play(index, key, store)

    original = ray_executor.RayPool
    ray_executor.RayPool = FlakyPool  # type: ignore[misc]
    try:
        config = RunConfig(suite="memory", tasks=["mem-write-note"], workers=1, ray_address="local")
        store = ResultsStore(tmp_path)
        tasks = select_tasks(memory.load(), config.tasks)
        progress = Runner(
            config, tasks, lambda key: OracleAgent(), memory.make_environments, store
        ).run()
        rows = store.rows()
        store.close()
    finally:
        ray_executor.RayPool = original  # type: ignore[misc]
    assert progress.retried == 1 and rows[0]["status"] == "done" and rows[0]["attempts"] == 2
