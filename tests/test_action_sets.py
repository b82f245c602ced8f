"""Action sets: the registry, what an environment applies at reset, and the episode."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import pytest

from reefbench.action_sets import ACTION_SETS, DEFAULT_ACTION_SET, get_action_set
from reefbench.actions import Action, ActionCall, action
from reefbench.environment import Environment
from reefbench.episode import Episode
from reefbench.errors import ConfigError
from reefbench.evaluators import evaluator
from reefbench.protocol import AgentOutput, Turn
from reefbench.task import Task, TaskMetadata


@action
def press(env: Any) -> str:
    """Press the button."""
    env.pressed += 1
    return "pressed"


@action
def press_by_name(name: str, env: Any) -> str:
    """Press the button called ``name``.

    Args:
        name: The button's name.
    """
    env.pressed += 1
    return f"pressed {name}"


class Panel(Environment):
    """A button panel whose a11y set adds a name-addressed press."""

    default_action_space: ClassVar[list[Action]] = [press]
    action_set_actions: ClassVar[Mapping[str, list[Action]]] = {"a11y": [press_by_name]}

    def __init__(self) -> None:
        super().__init__("panel", "A panel with one button.")
        self.pressed = 0

    def on_reset(self) -> None:
        self.pressed = 0


def test_the_registry_knows_marks_and_a11y_and_marks_is_the_default() -> None:
    assert set(ACTION_SETS) == {"marks", "a11y"}
    assert DEFAULT_ACTION_SET == "marks"
    assert get_action_set("a11y").name == "a11y"


def test_an_unknown_set_is_one_line_naming_the_known_ones() -> None:
    with pytest.raises(ConfigError) as caught:
        get_action_set("pixel")
    message = str(caught.value)
    assert message == "unknown action set 'pixel': choose one of marks, a11y"


def test_reset_applies_the_set_until_the_next_reset_or_the_end_of_the_episode() -> None:
    panel = Panel()
    panel.reset()
    assert set(panel.action_space) == {"press"}
    panel.reset(action_set="a11y")
    assert set(panel.action_space) == {"press", "press_by_name"}
    assert panel.action_set == "a11y"
    panel.reset()  # back to marks: the name-addressed action is gone
    assert set(panel.action_space) == {"press"}
    panel.reset(action_set="a11y")
    panel.end_episode()
    assert set(panel.action_space) == {"press"}
    assert panel.action_set == "marks"


def test_the_set_and_a_task_action_of_the_same_name_are_added_once() -> None:
    panel = Panel()
    added = panel.episode_actions([press_by_name, press], action_set="a11y")
    assert [a.name for a in added] == ["press_by_name"]


def test_an_unknown_set_fails_before_the_environment_starts() -> None:
    panel = Panel()
    with pytest.raises(ConfigError, match="unknown action set 'bogus'"):
        panel.reset(action_set="bogus")
    assert not panel.started


class Recorder:
    """Records the tool list it is given, then declares completion."""

    name = "recorder"

    def __init__(self) -> None:
        self.tools: dict[str, list[str]] = {}

    def reset(self, task: Task, action_spaces: Mapping[str, list[Action]], _: object) -> None:
        self.tools = {env: sorted(a.name for a in acts) for env, acts in action_spaces.items()}

    def act(self, turn: Turn) -> AgentOutput:
        return AgentOutput(calls=[ActionCall(env="root", name="complete")])


@evaluator
def pressed(env: Any) -> bool:
    """The button was pressed."""
    return bool(env.pressed)


def _task() -> Task:
    return Task(
        id="panel",
        instruction="Press the button.",
        nodes={"pressed": pressed().on("panel")},
        metadata=TaskMetadata(environments=["panel"]),
    )


def test_the_episode_gives_the_agent_the_runs_set() -> None:
    panel = Panel()
    for name, expected in (("marks", ["press"]), ("a11y", ["press", "press_by_name"])):
        agent = Recorder()
        Episode(_task(), agent, {"panel": panel}, action_set=name).run()
        assert agent.tools["panel"] == expected
    assert set(panel.action_space) == {"press"}  # nothing of the a11y set outlives it


def test_the_episode_refuses_an_unknown_set_in_one_line() -> None:
    with pytest.raises(ConfigError, match=r"^unknown action set 'mark': choose one of"):
        Episode(_task(), Recorder(), {"panel": Panel()}, action_set="mark")
