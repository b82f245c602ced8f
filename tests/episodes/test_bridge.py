"""The episode an outside caller drives (Gymnasium, MCP): one turn per output, then the end."""

from __future__ import annotations

import threading

import pytest

from reefbench.actions.spec import ActionCall
from reefbench.episodes.bridge import EpisodeDriver
from reefbench.episodes.protocol import AgentOutput
from reefbench.errors import ConfigError
from reefbench.suites import memory


def driver(task_id: str = "mem-write-note", **options: object) -> EpisodeDriver:
    [task] = [t for t in memory.load() if t.id == task_id]
    return EpisodeDriver(task, memory.make_environments(), agent_name="outside", **options)


def test_turns_follow_the_callers_outputs_until_the_episode_ends() -> None:
    played = driver()
    with pytest.raises(ConfigError, match="start the episode"):
        played.step(ActionCall(env="root", name="wait"))
    first = played.start()
    assert first is not None and first.step == 1 and "laptop" in first.observations
    assert set(played.agent.action_spaces) == {"laptop", "phone", "root"}
    second = played.step(ActionCall(env="root", name="wait"))
    assert second is not None and second.step == 2 and second.previous[0].status == "ok"
    write = ActionCall(
        env="laptop",
        name="write_file",
        arguments={"path": "notes/hello.txt", "content": "hello world"},
    )
    assert played.step(write) is None
    assert played.result is not None and played.result.success
    assert played.result.agent == "outside" and played.result.steps == 2
    with pytest.raises(ConfigError, match="has ended"):
        played.step(write)


def test_invalid_output_counts_against_the_tolerance() -> None:
    played = driver(invalid_tolerance=0)
    played.start()
    assert played.step(AgentOutput(invalid="not a tool")) is None
    assert played.result is not None and played.result.termination == "invalid_action"


def test_close_aborts_a_waiting_episode() -> None:
    played = driver()
    played.start()
    played.close()
    assert played.thread is not None and not played.thread.is_alive()
    assert played.result is not None and played.result.termination == "aborted"


def test_calls_from_several_threads_are_played_one_after_another() -> None:
    played = driver("mem-long-chain", step_limit=50)
    played.start()
    steps: list[int] = []

    def call() -> None:
        turn = played.step(ActionCall(env="root", name="wait"))
        assert turn is not None
        steps.append(turn.step)

    threads = [threading.Thread(target=call) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(steps) == list(range(2, 10))
    played.close()


def test_on_end_runs_on_the_episode_s_thread_when_it_is_closed() -> None:
    """Where the environments started: Playwright's driver can be stopped only there."""
    seen: list[str] = []
    played = driver(on_end=lambda: seen.append(threading.current_thread().name))
    played.start()
    assert seen == []
    played.close()
    assert seen == ["reef-episode"]
