"""Grounding names to mark numbers, and the scripted agents that play solutions by it.

A fake device stands in for the desktop here (its elements are a list that a test can
change between observations); tests/agents/test_oracle_grounding.py does the same on a
real desktop and a real phone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import pytest

from reefbench.actions.evaluators import evaluator
from reefbench.actions.spec import Action, ActionCall, action
from reefbench.agents import OracleAgent, ScriptedAgent
from reefbench.environments.contract import Environment
from reefbench.environments.grounding import (
    Candidate,
    Groundable,
    PointGroundable,
    element_call,
    pick,
)
from reefbench.episodes.episode import Episode
from reefbench.errors import InvalidAction
from reefbench.tasks.task import SubtaskInfo, Task, TaskMetadata


def test_names_prefer_exact_matches_then_resource_ids_then_parts() -> None:
    candidates = [
        Candidate(1, "Add city", "EditText", "city"),
        Candidate(2, "Add city", "Button"),
        Candidate(3, "Bank · 1 unread", "TextView"),
    ]
    assert pick(candidates, "Add city", "Button") == 2
    assert pick(candidates, "city") == 1
    assert pick(candidates, "bank") == 3
    assert pick(candidates, "ADD  city") == 1
    with pytest.raises(InvalidAction, match=r"no element named 'Send'.*Button 'Add city'"):
        pick(candidates, "Send")


@action
def click(elem: int, env: Any) -> str:
    """Click an element.

    Args:
        elem: Its number in the latest observation.
    """
    name = env.current[elem - 1]
    env.clicked.append(name)
    return f"clicked {name}"


@action
def click_on(name: str, env: Any, role: str = "") -> str:
    """Click an element by name.

    Args:
        name: Its name.
        role: Its role.
    """
    return str(click.func(elem=pick(env.element_candidates(True), name, role), env=env))


class Screen(Environment):
    """Buttons on a screen; each observation numbers them from 1. ``pending`` buttons show
    up one observation later (a menu still opening)."""

    default_action_space: ClassVar[list[Action]] = [click]
    action_set_actions: ClassVar[Mapping[str, list[Action]]] = {"a11y": [click_on]}
    name_addressed: ClassVar[Mapping[str, str]] = {"click_on": "click"}

    def __init__(self, buttons: Sequence[str], pending: Sequence[str] = ()) -> None:
        super().__init__("screen", "Buttons.")
        self.buttons, self.pending = list(buttons), list(pending)
        self.current: list[str] = []
        self.clicked: list[str] = []
        self.observations = 0

    def on_reset(self) -> None:
        self.clicked = []

    def element_candidates(self, fresh: bool) -> list[Candidate]:
        if fresh or not self.current:
            self.observations += 1
            # Numbered in reverse, so a number is not the button's place in ``buttons``.
            self.current = list(reversed(self.buttons))
            self.buttons += self.pending
            self.pending = []
        return [Candidate(i, n, "push button") for i, n in enumerate(self.current, 1)]


def test_a_fake_screen_is_groundable() -> None:
    assert isinstance(Screen(["OK"]), Groundable)


def test_a_name_addressed_call_becomes_the_element_action_with_the_current_number() -> None:
    screen = Screen(["Cancel", "OK"])
    screen.reset()  # marks: no click_on in the space
    call = ActionCall(env="screen", name="click_on", arguments={"name": "ok"})
    grounded = element_call(call, screen)
    assert grounded == ActionCall(env="screen", name="click", arguments={"elem": 1})
    assert screen.current[0] == "OK"


def test_under_a11y_the_call_is_played_as_it_is() -> None:
    screen = Screen(["OK"])
    screen.reset(action_set="a11y")
    call = ActionCall(env="screen", name="click_on", arguments={"name": "OK"})
    assert element_call(call, screen) is call


def test_an_element_still_appearing_is_waited_for() -> None:
    screen = Screen(["File"], pending=["Create Folder..."])
    screen.reset()
    call = ActionCall(env="screen", name="click_on", arguments={"name": "Create Folder..."})
    assert element_call(call, screen).arguments == {"elem": 1}
    assert screen.observations == 2


def test_other_calls_and_other_devices_are_left_alone() -> None:
    screen = Screen(["OK"])
    screen.reset()
    click_call = ActionCall(env="screen", name="click", arguments={"elem": 1})
    assert element_call(click_call, screen) is click_call
    plain = Environment("plain")
    by_name = ActionCall(env="plain", name="click_on", arguments={"name": "OK"})
    assert element_call(by_name, plain) is by_name


@evaluator
def clicked(name: str, env: Any) -> bool:
    """The button was clicked.

    Args:
        name: The button.
    """
    return name in env.clicked


def _task() -> Task:
    return Task(
        id="buttons",
        instruction="Click Save.",
        nodes={"saved": clicked("Save").on("screen")},
        reference_solution=[ActionCall(env="screen", name="click_on", arguments={"name": "Save"})],
        metadata=TaskMetadata(environments=["screen"]),
    )


def test_the_oracle_plays_names_as_real_clicks_under_marks() -> None:
    screen = Screen(["Cancel", "Save"])
    result = Episode(_task(), OracleAgent(), {"screen": screen}).run()
    assert result.success
    calls = [(c.name, c.arguments) for turn in result.trajectory for c in turn.calls]
    assert calls[0] == ("click", {"elem": 1})  # Save is numbered 1 in that observation
    assert screen.clicked == ["Save"]


def test_the_oracle_plays_names_as_they_are_under_a11y() -> None:
    screen = Screen(["Cancel", "Save"])
    result = Episode(_task(), OracleAgent(), {"screen": screen}, action_set="a11y").run()
    assert result.success
    first = result.trajectory[0].calls[0]
    assert (first.name, first.arguments) == ("click_on", {"name": "Save"})


def test_a_name_that_is_not_there_is_an_invalid_turn_that_says_what_is_there() -> None:
    screen = Screen(["Cancel"])
    agent = ScriptedAgent([[ActionCall(env="screen", name="click_on", arguments={"name": "Save"})]])
    result = Episode(_task(), agent, {"screen": screen}, invalid_tolerance=0).run()
    assert result.termination == "invalid_action"
    error = result.trajectory[0].calls[0].error or ""
    assert "cannot ground the call: no element named 'Save'" in error
    assert "'Cancel'" in error


def test_an_sr_at_k_prefix_is_played_by_mark_number_too() -> None:
    screen = Screen(["Cancel", "Open", "Save"])
    by_name = [
        ActionCall(env="screen", name="click_on", arguments={"name": name})
        for name in ("Open", "Save")
    ]
    task = Task(
        id="two-steps",
        instruction="Click Open, then Save.",
        nodes={"opened": clicked("Open").on("screen"), "saved": clicked("Save").on("screen")},
        edges=[("opened", "saved")],
        reference_solution=by_name,
        metadata=TaskMetadata(
            environments=["screen"],
            subtasks=[
                SubtaskInfo(id="s0", nodes=["opened"], solution_span=(0, 1)),
                SubtaskInfo(id="s1", nodes=["saved"], solution_span=(1, 2)),
            ],
        ),
    )
    result = Episode(task, OracleAgent(start_at=1), {"screen": screen}, start_at=1).run()
    assert result.success, result.error
    assert screen.clicked == ["Open", "Save"]
    played = [(c.name, c.arguments) for turn in result.trajectory for c in turn.calls]
    assert played[0] == ("click", {"elem": 1})  # only Save: Open was the prefix


# ------------------------------------------------------------------ pixels
@action
def click_at(x: int, y: int, env: Any) -> str:
    """Click a point of the screenshot.

    Args:
        x: Pixels from the left.
        y: Pixels from the top.
    """
    name = env.at(x, y)
    env.clicked.append(name)
    return f"clicked {name}"


class PixelScreen(Screen):
    """A :class:`Screen` whose buttons are 100-pixel-wide cells of one row, drawn at half
    size in the screenshot; the pixels set has only ``click_at``."""

    default_action_space: ClassVar[list[Action]] = [click, click_at]
    action_set_removes: ClassVar[Mapping[str, list[str]]] = {"pixels": ["click"]}
    point_addressed: ClassVar[Mapping[str, str]] = {"click_on": "click_at"}

    def element_point(self, elem: int) -> tuple[int, int]:
        # Button ``elem`` of the observation covers screen x 100*(elem-1)..100*elem - 1.
        return (100 * (elem - 1) + 50) // 2, 10

    def at(self, x: int, y: int) -> str:
        return self.current[x * 2 // 100]


def test_a_device_with_points_is_point_groundable_and_a_plain_screen_is_not() -> None:
    assert isinstance(PixelScreen(["OK"]), PointGroundable)
    assert not isinstance(Screen(["OK"]), PointGroundable)


def test_under_pixels_a_name_becomes_a_click_at_the_elements_centre() -> None:
    screen = PixelScreen(["Cancel", "Open", "Save"])
    screen.reset(action_set="pixels")
    call = ActionCall(env="screen", name="click_on", arguments={"name": "Open"})
    grounded = element_call(call, screen)
    # Numbered in reverse: Save 1, Open 2, Cancel 3; Open's centre is at screen x 150.
    assert grounded == ActionCall(env="screen", name="click_at", arguments={"x": 75, "y": 10})
    screen.step(grounded.name, grounded.arguments)
    assert screen.clicked == ["Open"]


def test_under_marks_the_same_device_still_gets_the_element_number() -> None:
    screen = PixelScreen(["Cancel", "Save"])
    screen.reset()
    call = ActionCall(env="screen", name="click_on", arguments={"name": "Save"})
    assert element_call(call, screen).name == "click"


def test_the_oracle_solves_the_task_through_pixels() -> None:
    screen = PixelScreen(["Cancel", "Save"])
    result = Episode(_task(), OracleAgent(), {"screen": screen}, action_set="pixels").run()
    assert result.success, result.error
    first = result.trajectory[0].calls[0]
    assert (first.name, first.arguments) == ("click_at", {"x": 25, "y": 10})
    assert screen.clicked == ["Save"]


def test_without_a_point_form_in_the_space_the_element_action_is_kept() -> None:
    """A device that cannot say where its elements are (or whose set lacks the
    coordinate action) gets the element action, which the episode then refuses."""
    screen = Screen(["OK"])
    screen.reset()
    screen.remove_action("click")
    call = ActionCall(env="screen", name="click_on", arguments={"name": "OK"})
    assert element_call(call, screen).name == "click"


def test_fresh_grounding_reads_a_new_observation_not_the_latest_one() -> None:
    # An agent that does not observe each turn (the gates') must not find a name in an
    # observation taken before its previous action: that number may point elsewhere now.
    screen = Screen(["Cancel", "Save"])
    screen.reset()
    screen.element_candidates(True)  # the latest observation: Save is 1, Cancel 2
    screen.buttons = ["Save", "Cancel", "Help"]  # the screen changed since
    call = ActionCall(env="screen", name="click_on", arguments={"name": "Save"})
    assert element_call(call, screen).arguments == {"elem": 1}  # stale, as observed
    assert element_call(call, screen, fresh=True).arguments == {"elem": 3}


@action
def buttons_shown(env: Any) -> str:
    """The buttons on the screen, one per line."""
    env.looked += 1
    return "\n".join(env.buttons)


class WatchedScreen(Screen):
    """A screen an agent can observe, counting how often it was."""

    default_observation_space: ClassVar[Sequence[Action]] = [buttons_shown]

    def __init__(self, buttons: Sequence[str]) -> None:
        super().__init__(buttons)
        self.looked = 0


def test_an_agent_that_does_not_observe_is_not_sent_the_devices_observations() -> None:
    watching = WatchedScreen(["Cancel", "Save"])
    seen = Episode(_task(), OracleAgent(), {"screen": watching}).run()
    assert seen.success and watching.looked == 1
    assert seen.trajectory[0].observations["screen"]

    blind = WatchedScreen(["Cancel", "Save"])
    result = Episode(_task(), OracleAgent(observe=False), {"screen": blind}).run()
    assert result.success, result.error
    assert blind.looked == 0
    assert all(not turn.observations for turn in result.trajectory)
    assert blind.clicked == ["Save"]


def test_an_agent_that_does_not_observe_refuses_calls_by_mark_number() -> None:
    screen = Screen(["Save"])
    by_number = ActionCall(env="screen", name="click", arguments={"elem": 1})
    agent = ScriptedAgent([[by_number]], observe=False)
    result = Episode(_task(), agent, {"screen": screen}, invalid_tolerance=0).run()
    assert result.termination == "invalid_action"
    assert "by mark number, but this agent does not observe" in (
        result.trajectory[0].calls[0].error or ""
    )
    assert screen.clicked == []


class _OldStyleOracle:
    """A privileged agent written before ``observes`` existed: only ``attach``."""

    name = "old-oracle"

    def __init__(self) -> None:
        self._inner = OracleAgent()

    def attach(self, envs: Mapping[str, Environment]) -> None:
        self._inner.attach(envs)

    def reset(self, task: Task, action_spaces: Any, descriptions: Any) -> None:
        self._inner.reset(task, action_spaces, descriptions)

    def act(self, turn: Any) -> Any:
        return self._inner.act(turn)


def test_a_privileged_agent_without_the_attribute_is_attached_and_observed_for() -> None:
    screen = WatchedScreen(["Cancel", "Save"])
    result = Episode(_task(), _OldStyleOracle(), {"screen": screen}).run()
    assert result.success, result.error  # attached: it could ground "Save"
    assert screen.looked == 1


def test_a_field_listed_with_a_hint_answers_to_its_label_and_to_its_hint_exactly() -> None:
    from reefbench.environments.grounding import Candidate, pick

    fields = [
        Candidate(1, "Save a copy to folder, hint: Photos/Parking", "EditText"),
        Candidate(2, "Copy name, hint: IMG_0851.png", "EditText"),
        Candidate(3, "Copy name (again), hint: x", "EditText"),
    ]
    assert pick(fields, "Photos/Parking") == 1
    assert pick(fields, "Copy name") == 2
    assert pick(fields, "IMG_0851.png") == 2
    assert pick(fields, "x") == 3
