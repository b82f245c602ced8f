"""Action sets: the registry, what an environment applies at reset, and the episode."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import pytest

from reefbench.actions.evaluators import evaluator
from reefbench.actions.sets import ACTION_SETS, DEFAULT_ACTION_SET, get_action_set
from reefbench.actions.spec import Action, ActionCall, action
from reefbench.environments.contract import Environment
from reefbench.episodes.episode import Episode
from reefbench.episodes.protocol import AgentOutput, Turn
from reefbench.errors import ConfigError, InvalidAction
from reefbench.tasks.task import Task, TaskMetadata


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


@action
def press_at(x: int, y: int, env: Any) -> str:
    """Press whatever is at a point.

    Args:
        x: Pixels from the left.
        y: Pixels from the top.
    """
    env.pressed += 1
    return f"pressed at ({x}, {y})"


@action(name="reset_panel")
def reset_all(env: Any) -> str:
    """Clear the panel (the pixels set's version: asks for nothing)."""
    env.pressed = 0
    return "cleared"


@action
def reset_panel(which: int, env: Any) -> str:
    """Clear one row of the panel.

    Args:
        which: The row's number.
    """
    env.pressed = 0
    return f"cleared row {which}"


@action
def look(env: Any) -> str:
    """The panel with numbered buttons."""
    return "[1] button"


@action(name="look")
def look_plain(env: Any) -> str:
    """The panel as a picture."""
    return "a panel"


class Panel(Environment):
    """A button panel: a11y adds a name-addressed press; pixels takes the numbered press
    out, puts in one at a point, replaces reset_panel and shows a plain view."""

    default_action_space: ClassVar[list[Action]] = [press, reset_panel]
    default_observation_space: ClassVar[list[Action]] = [look]
    action_set_actions: ClassVar[Mapping[str, list[Action]]] = {
        "a11y": [press_by_name],
        "pixels": [press_at, reset_all],
    }
    action_set_removes: ClassVar[Mapping[str, list[str]]] = {"pixels": ["press", "reset_panel"]}
    action_set_observations: ClassVar[Mapping[str, list[Action]]] = {"pixels": [look_plain]}
    action_set_descriptions: ClassVar[Mapping[str, Mapping[str, str]]] = {
        "pixels": {"Press buttons by number.": "Press at a point."}
    }

    def __init__(self) -> None:
        super().__init__("panel", "A panel with one button. Press buttons by number.")
        self.pressed = 0

    def on_reset(self) -> None:
        self.pressed = 0


def test_the_registry_knows_marks_a11y_and_pixels_and_marks_is_the_default() -> None:
    assert set(ACTION_SETS) == {"marks", "a11y", "pixels"}
    assert DEFAULT_ACTION_SET == "marks"
    assert get_action_set("a11y").name == "a11y"
    pixels = get_action_set("pixels")
    assert (pixels.elements, pixels.screenshot_only) == (False, True)
    assert get_action_set("marks").elements and not get_action_set("marks").screenshot_only


def test_an_unknown_set_is_one_line_naming_the_known_ones() -> None:
    with pytest.raises(ConfigError) as caught:
        get_action_set("pixel")
    message = str(caught.value)
    assert message == "unknown action set 'pixel': choose one of marks, a11y, pixels"


def test_reset_applies_the_set_until_the_next_reset_or_the_end_of_the_episode() -> None:
    panel = Panel()
    panel.reset()
    assert set(panel.action_space) == {"press", "reset_panel"}
    panel.reset(action_set="a11y")
    assert set(panel.action_space) == {"press", "reset_panel", "press_by_name"}
    assert panel.action_set == "a11y"
    panel.reset()  # back to marks: the name-addressed action is gone
    assert set(panel.action_space) == {"press", "reset_panel"}
    panel.reset(action_set="a11y")
    panel.end_episode()
    assert set(panel.action_space) == {"press", "reset_panel"}
    assert panel.action_set == "marks"


def test_pixels_removes_replaces_and_swaps_the_observations_until_the_episode_ends() -> None:
    panel = Panel()
    panel.reset(action_set="pixels")
    # The replacement keeps the place of what it replaces; the rest is appended.
    assert list(panel.action_space) == ["reset_panel", "press_at"]
    assert panel.action_space["reset_panel"] is reset_all
    assert panel.observe() == {"look": "a panel"}
    assert panel.description == "A panel with one button. Press at a point."
    assert panel.step("reset_panel") == "cleared"
    with pytest.raises(InvalidAction, match="has no action 'press'"):
        panel.step("press")
    panel.reset(action_set="pixels")  # applied once, not on top of itself
    assert list(panel.action_space) == ["reset_panel", "press_at"]
    panel.reset(action_set="a11y")
    assert list(panel.action_space) == ["press", "reset_panel", "press_by_name"]
    assert panel.observe() == {"look": "[1] button"}
    panel.reset(action_set="pixels")
    panel.end_episode()
    assert list(panel.action_space) == ["press", "reset_panel"]
    assert panel.action_space["reset_panel"] is reset_panel
    assert panel.observe() == {"look": "[1] button"}
    assert panel.description == "A panel with one button. Press buttons by number."


def test_episode_space_is_what_reset_makes_of_the_space() -> None:
    panel = Panel()
    for name in ("marks", "a11y", "pixels"):
        predicted = panel.episode_space([], name)
        panel.reset(action_set=name)
        assert list(predicted.items()) == list(panel.action_space.items()), name


def test_the_set_and_a_task_action_of_the_same_name_are_added_once() -> None:
    panel = Panel()
    added = panel.episode_actions([press_by_name, press], action_set="a11y")
    assert [a.name for a in added] == ["press_by_name"]
    # Under pixels ``press`` is left out, so a task's own ``press`` would come back.
    added = panel.episode_actions([press], action_set="pixels")
    assert [a.name for a in added] == ["press_at", "reset_panel", "press"]


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
    for name, expected in (
        ("marks", ["press", "reset_panel"]),
        ("a11y", ["press", "press_by_name", "reset_panel"]),
        ("pixels", ["press_at", "reset_panel"]),
    ):
        agent = Recorder()
        Episode(_task(), agent, {"panel": panel}, action_set=name).run()
        assert agent.tools["panel"] == expected
    # nothing of the a11y or pixels set outlives it
    assert list(panel.action_space) == ["press", "reset_panel"]


def test_the_episode_refuses_an_unknown_set_in_one_line() -> None:
    with pytest.raises(ConfigError, match=r"^unknown action set 'mark': choose one of"):
        Episode(_task(), Recorder(), {"panel": Panel()}, action_set="mark")


def test_applying_a_set_needs_no_environment_and_undoes_itself() -> None:
    """The set plumbing lives apart from the environment contract (issue 32): any object
    with the three attributes can apply a set and put its spaces back."""
    from reefbench.actions.sets import ActionSetSpaces

    class Bare(ActionSetSpaces):
        action_set_actions = Panel.action_set_actions
        action_set_removes = Panel.action_set_removes
        action_set_observations = Panel.action_set_observations
        action_set_descriptions = Panel.action_set_descriptions

        def __init__(self) -> None:
            self.action_space = {"press": press, "reset_panel": reset_panel}
            self.observation_space = {"look": look}
            self.description = "A panel with one button. Press buttons by number."

    bare = Bare()
    bare._apply_set([], "pixels")
    assert list(bare.action_space) == ["reset_panel", "press_at"]
    assert bare.action_space["reset_panel"] is reset_all
    assert bare.observation_space == {"look": look_plain}
    assert bare.description == "A panel with one button. Press at a point."
    bare._restore_spaces()
    assert bare.action_space == {"press": press, "reset_panel": reset_panel}
    assert bare.observation_space == {"look": look}
    assert bare.description == "A panel with one button. Press buttons by number."


def test_the_environment_contract_does_not_define_the_set_plumbing() -> None:
    plumbing = {"_apply_set", "_restore_spaces", "episode_space", "episode_actions"}
    plumbing |= {"set_actions", "set_removes", "set_observations", "action_set_actions"}
    assert plumbing.isdisjoint(vars(Environment))
    assert all(callable(getattr(Panel(), name)) for name in plumbing - {"action_set_actions"})
