"""The environment contract: lifecycle, routing of actions, logging, observations."""

from __future__ import annotations

from typing import Any

import pytest

from reefbench import ActionFailed, Environment, InvalidAction, InvalidActionArguments, action


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
    with pytest.raises(ValueError, match="already has an action 'shout'"):
        Environment("dup", action_space=[shout, shout])
