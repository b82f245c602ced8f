"""A worker thread and a Ray actor build an episode from the configuration the same way
(:func:`reefbench.runner.episodes.build_episode`), and the actor plays the definitions the
driver chose instead of loading the suite again. The actor runs in-process here: no Ray."""

from __future__ import annotations

from pathlib import Path

import pytest

from reefbench.episodes.episode import EpisodeResult
from reefbench.log.store import ResultsStore
from reefbench.runner.agents import agent_from_spec
from reefbench.runner.config import AgentSpec, RunConfig
from reefbench.runner.engine import Runner, select_tasks
from reefbench.runner.ray_executor import EpisodePlayer
from reefbench.suites import memory
from reefbench.tasks.taskfile import tasks_to_jsonl


def test_a_thread_and_an_actor_play_the_same_episode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = AgentSpec(name="oracle", options={"observe": True})
    config = RunConfig(
        suite="memory", tasks=["mem-long-chain"], agent=spec, start_at=[2], step_limit=9, workers=1
    )
    chosen = select_tasks(memory.load(), config.tasks)
    store = ResultsStore(tmp_path)
    try:
        make_agent = lambda key: agent_from_spec(spec, key, config)  # noqa: E731
        Runner(config, chosen, make_agent, memory.make_environments, store).run()
        (threaded,) = store.results(trajectory=True)
    finally:
        store.close()

    def no_suite() -> list[object]:
        raise AssertionError("the actor loaded the suite")

    monkeypatch.setattr(memory, "load", no_suite)
    player = EpisodePlayer(config.model_dump_json(), tasks_to_jsonl(chosen))
    try:
        reply = player.play("mem-long-chain", 0, 2)
    finally:
        player.close()
    acted = EpisodeResult.model_validate_json(reply["result"])
    assert threaded.success and acted.success and acted.start_at == threaded.start_at == 2
    for field in ("termination", "steps", "actions", "completed_nodes", "total_nodes"):
        assert getattr(acted, field) == getattr(threaded, field), field
    assert [t.observations for t in acted.trajectory] == [
        t.observations for t in threaded.trajectory
    ]
    assert any(t.observations for t in acted.trajectory)
