"""The environment contract: lifecycle, routing of actions, logging, observations."""

from __future__ import annotations

from typing import Any

import pytest

from reefbench import (
    ActionFailed,
    ConfigError,
    Environment,
    InvalidAction,
    InvalidActionArguments,
    action,
)


@action
def shout(text: str, env: Any) -> str:
    """Return the text in capitals.

    Args:
        text: What to shout.
    """
    return text.upper()


@action
def fail(env: Any) -> None:
    """Always fails the way an action may."""
    raise ActionFailed("nothing to open")


@action
def blob(env: Any) -> bytes:
    """Return binary data."""
    return b"\x89PNG" * 10


class Counting(Environment):
    def __init__(self) -> None:
        super().__init__("counter", "counts", [shout, fail, blob], [blob])
        self.events: list[str] = []

    def on_start(self) -> None:
        self.events.append("start")

    def on_reset(self) -> None:
        self.events.append("reset")

    def on_stop(self) -> None:
        self.events.append("stop")


def test_lifecycle_is_idempotent() -> None:
    env = Counting()
    assert not env.health()
    with env:
        env.start()
        assert env.health()
        env.reset()
    assert env.events == ["start", "reset", "stop"]
    env.stop()
    assert env.events == ["start", "reset", "stop"]


def test_step_runs_and_logs() -> None:
    env = Counting()
    assert env.step("shout", {"text": "hi"}) == "HI"
    assert env.step(shout("bound")) == "BOUND"
    log = env.action_log
    assert [(r.action, r.arguments, r.result) for r in log] == [
        ("shout", {"text": "hi"}, "HI"),
        ("shout", {"text": "bound"}, "BOUND"),
    ]
    env.step("blob")
    assert env.action_log[-1].result == "<40 bytes>"


def test_unknown_action_and_bad_arguments_are_invalid() -> None:
    env = Counting()
    with pytest.raises(InvalidAction, match=r"has no action 'jump'.*blob, fail, shout"):
        env.step("jump")
    with pytest.raises(InvalidActionArguments, match="text"):
        env.step("shout", {"text": 3})
    assert env.action_log == []


def test_action_failures_are_logged_and_raised() -> None:
    env = Counting()
    with pytest.raises(ActionFailed):
        env.step("fail")
    assert env.action_log[0].error == "nothing to open"


def test_reset_clears_the_log_and_observe_runs_the_observation_space() -> None:
    env = Counting()
    env.step("shout", {"text": "x"})
    env.reset()
    assert env.action_log == []
    assert env.observe() == {"blob": b"\x89PNG" * 10}


def test_duplicate_action_names_are_rejected() -> None:
    with pytest.raises(ConfigError, match="already has an action 'shout'"):
        Environment("dup", action_space=[shout, shout])


class Lazy(Counting):
    def __init__(self) -> None:
        Environment.__init__(self, "lazy", "counts", [shout, blob], [blob], lazy_reset=True)
        self.events = []
        self.healthy = True

    def on_health(self) -> bool:
        return self.healthy


def test_lazy_reset_skips_only_while_nothing_acted_and_the_environment_is_healthy() -> None:
    env = Lazy()
    env.reset()
    env.observe()  # observing changes nothing
    env.reset()
    assert env.events == ["start", "reset"]
    env.step("shout", {"text": "x"})
    env.reset()
    assert env.events[-1] == "reset" and env.events.count("reset") == 2
    assert env.action_log == []
    env.execute(blob)  # setup and teardown count as acting on it
    env.reset()
    env.healthy = False
    env.reset()
    assert env.events.count("reset") == 4
    env.healthy = True
    env.stop()
    env.reset()  # a stopped environment starts afresh
    assert env.events[-2:] == ["start", "reset"]


def test_an_eager_environment_always_resets() -> None:
    env = Counting()
    env.reset()
    env.reset()
    assert env.events == ["start", "reset", "reset"]


def test_extra_actions_last_until_the_episode_ends() -> None:
    env = Environment("bare", action_space=[shout])
    own_shout = shout.on("bare")
    env.reset(extra_actions=[blob, own_shout])  # 'shout' is there already: kept, not replaced
    assert set(env.action_space) == {"shout", "blob"} and env.action_space["shout"] is shout
    assert env.step("blob") == b"\x89PNG" * 10
    env.end_episode()
    assert set(env.action_space) == {"shout"}
    env.reset(extra_actions=[blob])
    env.reset()  # the next episode's reset drops the previous extras too
    assert set(env.action_space) == {"shout"}


class Spaces(Environment):
    default_action_space = (shout,)
    default_observation_space = (blob,)


def test_class_default_spaces_apply_unless_spaces_are_given() -> None:
    assert set(Spaces("s").action_space) == {"shout"}
    assert set(Spaces("s").observation_space) == {"blob"}
    assert Spaces("s", action_space=[]).action_space == {}
