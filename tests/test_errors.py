"""User mistakes raise the project's own errors (ReefError, one line), not bare ValueError."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from reefbench import ConfigError, Environment, Episode, GraphError, ReefError
from reefbench.agents import NullAgent, OracleAgent
from reefbench.envs.ui.device import StaticScreen
from reefbench.envs.ui.evaluators import element_count
from reefbench.suites import memory

DUMP = '<hierarchy rotation="0"><node index="0" text="Hi" bounds="[0,0][10,10]"/></hierarchy>'


def _episode_with_reserved_root() -> Any:
    task = next(t for t in memory.load() if t.id == "mem-write-note")
    return Episode(task, NullAgent(), {"root": Environment("root")})


def _duplicate_action() -> Any:
    from reefbench.environments.root import wait

    return Environment("twice", action_space=[wait, wait])


def _oracle_with_both() -> Any:
    return OracleAgent(alternative=0, start_at=1)


def _count_without_criteria() -> Any:
    return element_count(count=1).evaluate(StaticScreen(DUMP))


def _android_ime() -> Any:
    from reefbench.envs.android.device import AndroidDevice

    return AndroidDevice(transport=None, ime="swype")  # type: ignore[arg-type]


def _backward_edge() -> Any:
    from reefbench.benchmark.handmade import assemble

    return assemble("t", "Do it.", [], [(1, 0)], level="L2", scenario="s")


@pytest.mark.parametrize(
    ("mistake", "error", "words"),
    [
        (_episode_with_reserved_root, ConfigError, "'root' is reserved"),
        (_duplicate_action, ConfigError, "already has an action 'wait'"),
        (_oracle_with_both, ConfigError, "not an alternative"),
        (_count_without_criteria, ConfigError, "needs resource_id, text or class_name"),
        (_android_ime, ConfigError, "ime must be 'input' or 'adbkeyboard'"),
        (_backward_edge, GraphError, r"edge \(1, 0\) must go forward"),
    ],
)
def test_user_mistakes_are_reef_errors_in_one_line(
    mistake: Callable[[], Any], error: type[ReefError], words: str
) -> None:
    with pytest.raises(error, match=words) as caught:
        mistake()
    assert "\n" not in str(caught.value)
    assert not isinstance(caught.value, ValueError)
