"""Gymnasium adapter: reset/step over a real episode, reward = completion-ratio gain."""

from __future__ import annotations

import json
import threading

import pytest

gymnasium = pytest.importorskip("gymnasium")

from reefbench.episodes.gym import TaskEnv  # noqa: E402
from reefbench.suites import memory  # noqa: E402


def by_id(task_id: str) -> TaskEnv:
    task = next(t for t in memory.load() if t.id == task_id)
    return TaskEnv(task, memory.make_environments)


def call(env: str, name: str, **arguments: str) -> str:
    return json.dumps({"env": env, "name": name, "arguments": arguments})


def test_reference_solution_earns_a_total_reward_of_one() -> None:
    env = by_id("mem-fan-out-join")
    observation, info = env.reset(seed=0)
    assert json.loads(observation)["laptop"]["list_files"] == "(no files)" and info["step"] == 1
    total, terminated = 0.0, False
    for solution_call in env.task.reference_solution:
        args = {k: str(v) for k, v in solution_call.arguments.items()}
        _, reward, terminated, truncated, info = env.step(
            call(solution_call.env, solution_call.name, **args)
        )
        total += reward
        assert not truncated
    assert terminated and info["success"] and total == pytest.approx(1.0)


def test_invalid_text_actions_in_a_row_terminate() -> None:
    """The default forgives two invalid actions in a row; the third ends the episode."""
    env = by_id("mem-write-note")
    env.reset()
    for _ in range(2):
        _, reward, terminated, _, info = env.step("this is not json")
        assert not terminated and reward == 0.0, info
    _, reward, terminated, _, info = env.step("this is not json")
    assert terminated and reward == 0.0 and info["termination"] == "invalid_action"
    with pytest.raises(Exception, match="episode has ended"):
        env.step(call("root", "wait"))


def test_step_limit_truncates_and_reset_starts_over() -> None:
    env = by_id("mem-write-note")
    env.reset()
    truncated = False
    for _ in range(env.task.step_limit):
        _, _, terminated, truncated, info = env.step(call("root", "wait"))
        if terminated or truncated:
            break
    assert truncated and info["termination"] == "step_limit"
    observation, _ = env.reset()
    assert json.loads(observation)["laptop"]["list_files"] == "(no files)"
    env.close()


def test_close_mid_episode_stops_the_worker() -> None:
    env = by_id("mem-long-chain")
    env.reset()
    env.step(call("laptop", "write_file", path="log.txt", content="start"))
    env.close()
    assert env._thread is not None and not env._thread.is_alive()


def test_the_action_set_is_chosen_by_name_and_checked_up_front() -> None:
    from reefbench.errors import ConfigError

    task = next(t for t in memory.load() if t.id == "mem-write-note")
    env = TaskEnv(task, memory.make_environments, action_set="pixels")
    assert env.action_set == "pixels"
    observation, _ = env.reset()
    assert json.loads(observation)["laptop"]["list_files"] == "(no files)"
    env.close()
    with pytest.raises(ConfigError, match=r"^unknown action set 'pixel': choose one of"):
        TaskEnv(task, memory.make_environments, action_set="pixel")


def test_each_episode_s_environments_stop_on_its_thread_when_it_ends() -> None:
    """``make_envs`` makes new environments at every reset; each set stops once its
    episode ends (finished, or closed mid-episode), on the episode's own thread."""
    made: list[dict[str, object]] = []
    stopped: list[tuple[str, str]] = []

    def make_envs() -> dict[str, object]:
        envs = memory.make_environments()
        for name, environment in envs.items():
            stop = environment.stop

            def recording_stop(name: str = name, stop: object = stop) -> None:
                stopped.append((name, threading.current_thread().name))
                stop()  # type: ignore[operator]

            environment.stop = recording_stop  # type: ignore[method-assign]
        made.append(envs)
        return envs

    task = next(t for t in memory.load() if t.id == "mem-write-note")
    env = TaskEnv(task, make_envs)  # type: ignore[arg-type]
    env.reset()
    for solution_call in task.reference_solution:
        args = {k: str(v) for k, v in solution_call.arguments.items()}
        _, _, terminated, _, _ = env.step(call(solution_call.env, solution_call.name, **args))
    assert terminated
    env._thread.join(timeout=30)  # type: ignore[union-attr]
    assert sorted(stopped) == [("laptop", "reef-episode"), ("phone", "reef-episode")]
    env.reset()  # a second episode, closed before it ends
    env.close()
    assert len(made) == 2 and len(stopped) == 4
    assert {thread for _, thread in stopped} == {"reef-episode"}
