"""reef-v0's action space: one per device and action set, the same in every task, and
descriptions that echo nothing of the tasks.

A tool list that differed between tasks (the old per-task ``click_on``/``tap_on``) would
tell the agent which devices a task needs; an example in an action's description taken
from a task ("View", "Line Numbers") would hint at a solution. Runs without starting a
device (only the account's server, whose port the devices need up front).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

import pytest

from reefbench.actions.sets import ACTION_SETS
from reefbench.actions.spec import Action
from reefbench.agents.providers.base import parameters_schema
from reefbench.benchmark.templates import POOL
from reefbench.environments.contract import Environment
from reefbench.environments.root import ROOT, RootEnvironment
from reefbench.suites import get_suite
from reefbench.tasks.task import Task

pytest.importorskip("fastapi")

SUITE = get_suite("v0")
NAME_ADDRESSED = {"desktop": {"click_on"}, "browser": {"click_on"}, "phone": {"tap_on"}}
# call_user's kinds are its interface (what the user can be asked for), not a task's
# content, even though sign-in forms have fields of the same names; so are press's arrow
# keys, though a photo is turned a quarter to the left or right.
VOCABULARY = {
    "call_user": {"email", "password", "verification_code"},
    "press": {"left", "right"},
}


@pytest.fixture(scope="module")
def tasks() -> list[Task]:
    return SUITE.load()


@pytest.fixture(scope="module")
def envs() -> Iterator[dict[str, Environment]]:
    made = dict(SUITE.make_environments())  # unstarted devices; the account is started
    try:
        yield {**made, ROOT: RootEnvironment()}
    finally:
        for env in made.values():
            env.stop()


def tool_list(task: Task, envs: dict[str, Environment], action_set: str) -> dict[str, list[str]]:
    """What an episode of ``task`` would give the agent: each environment's space plus
    what its reset adds for the task and the set (the same rule reset applies)."""
    tools = {}
    for name, env in envs.items():
        extra = [s.action for s in task.extra_actions if s.env == name]
        tools[name] = sorted(env.episode_space(extra, action_set))
    return tools


@pytest.mark.parametrize("action_set", sorted(ACTION_SETS))
def test_every_task_gets_the_same_tool_list(
    tasks: list[Task], envs: dict[str, Environment], action_set: str
) -> None:
    lists = {task.id: tool_list(task, envs, action_set) for task in tasks}
    first = next(iter(lists.values()))
    differ = [task_id for task_id, tools in lists.items() if tools != first]
    assert differ == [], f"{len(differ)} tasks differ, e.g. {differ[:3]}"
    assert len(tasks) > 100


def test_a11y_adds_exactly_the_name_addressed_actions(
    tasks: list[Task], envs: dict[str, Environment]
) -> None:
    marks = tool_list(tasks[0], envs, "marks")
    a11y = tool_list(tasks[0], envs, "a11y")
    for name in envs:
        assert set(marks[name]) <= set(a11y[name])
        assert set(a11y[name]) - set(marks[name]) == NAME_ADDRESSED.get(name, set()), name
    assert not {"click_on", "tap_on"} & {t for tools in marks.values() for t in tools}


# What pixels leaves out on each device (``scroll`` and the browser's ``write_text`` come
# back without their element number, so they are still listed).
ELEMENT_ADDRESSED = {
    "desktop": {"click", "right_click", "double_click"},
    "browser": {"click", "select_option"},
    "phone": {"tap", "long_tap", "swipe"},
}
COORDINATES = {
    "desktop": {"click_at", "move_to", "drag", "scroll"},
    "browser": {"click_at", "scroll"},
    "phone": {"tap_at", "long_tap_at", "swipe_from", "clear_text"},
}


def test_pixels_leaves_out_exactly_the_element_addressed_actions(
    tasks: list[Task], envs: dict[str, Environment]
) -> None:
    marks = tool_list(tasks[0], envs, "marks")
    pixels = tool_list(tasks[0], envs, "pixels")
    for name in envs:
        assert set(marks[name]) - set(pixels[name]) == ELEMENT_ADDRESSED.get(name, set()), name
        assert set(pixels[name]) <= set(marks[name]), name
        assert COORDINATES.get(name, set()) <= set(pixels[name]), name


WITHOUT_ELEMENTS = sorted(n for n, s in ACTION_SETS.items() if not s.elements)
SCREENSHOT_ONLY = sorted(n for n, s in ACTION_SETS.items() if s.screenshot_only)


@pytest.mark.parametrize("action_set", WITHOUT_ELEMENTS)
def test_a_set_without_elements_has_no_tool_taking_an_element_number(
    envs: dict[str, Environment], action_set: str
) -> None:
    for name, env in envs.items():
        for act in env.episode_space([], action_set).values():
            properties = parameters_schema(act).get("properties", {})
            assert "elem" not in properties, f"{name}.{act.name}"


@pytest.mark.parametrize("action_set", SCREENSHOT_ONLY)
def test_a_screenshot_only_set_observes_a_plain_screenshot(
    envs: dict[str, Environment], action_set: str
) -> None:
    for name in ELEMENT_ADDRESSED:
        swapped = [a.name for a in envs[name].set_observations(action_set)]
        assert swapped == (["screenshot", "tabs"] if name == "browser" else ["screenshot"])


# ------------------------------------------------------------------ descriptions
def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, Iterable):
        for item in value:
            yield from _strings(item)
    elif value is not None:
        yield str(value)


def task_content(tasks: Iterable[Task]) -> set[str]:
    """Everything a task says or uses that an action description must not repeat: the
    value pools, quoted values in instructions, the user's answers, and the element
    names reference solutions click or tap."""
    content = {v for t in POOL.values() for pool in t.value_pools.values() for v in _strings(pool)}
    for task in tasks:
        content |= {a or b or c for a, b, c in re.findall(_QUOTED, task.instruction)}
        content |= set(_strings(task.user_data))
        for solution in (task.reference_solution, *task.alternative_solutions):
            content |= {
                str(c.arguments["name"])
                for c in solution
                if c.name in ("click_on", "tap_on") and "name" in c.arguments
            }
    return {" ".join(c.split()).casefold() for c in content if c.strip()}


_QUOTED = r'"([^"]+)"|\'([^\']+)\'|“([^”]+)”'


def echoes(act: Action, content: set[str]) -> list[str]:
    """The examples in ``act``'s description and argument descriptions that are task
    content: quoted strings, and any content of two words or more quoted or not (an
    argument's own choices, its schema's ``enum``, are its vocabulary)."""
    schema = parameters_schema(act)
    properties = schema.get("properties", {})
    texts = [act.description, *(p.get("description", "") for p in properties.values())]
    own = {str(v).casefold() for p in properties.values() for v in _strings(p.get("enum", []))}
    own |= VOCABULARY.get(act.name, set())
    found = []
    for text in texts:
        for quoted in re.findall(_QUOTED, text):
            example = " ".join((quoted[0] or quoted[1] or quoted[2]).split()).casefold()
            if example in content and example not in own:
                found.append(example)
        flat = " ".join(text.split()).casefold()
        found += [
            c for c in content if " " in c and re.search(rf"(?<!\w){re.escape(c)}(?!\w)", flat)
        ]
    return found


def agent_actions(envs: dict[str, Environment]) -> list[tuple[str, Action]]:
    """Every action an agent can be given, in every action set."""
    seen: list[tuple[str, Action]] = []
    for name, env in envs.items():
        seen += [(name, a) for a in env.action_space.values()]
        for added in env.action_set_actions.values():
            seen += [(name, a) for a in added]
        for observed in env.action_set_observations.values():
            seen += [(name, a) for a in observed]
    return seen


def test_no_action_description_echoes_a_task(
    tasks: list[Task], envs: dict[str, Environment]
) -> None:
    content = task_content(tasks)
    assert len(content) > 300  # the pools, labels and instruction values are all there
    problems = {
        f"{env}.{act.name}": found
        for env, act in agent_actions(envs)
        if (found := echoes(act, content))
    }
    assert problems == {}


def test_the_check_catches_the_old_examples(tasks: list[Task]) -> None:
    """The examples click_on had before action sets were taken from tasks."""

    def click_on(name: str, role: str = "") -> str:
        """Click the element with this accessible name.

        Args:
            name: The element's name as listed, e.g. "View" or "Line Numbers".
            role: Its role, e.g. "menu" or "menu item" (empty: any).
        """
        return name

    found = echoes(Action(click_on), task_content(tasks))
    assert {"view", "line numbers"} <= set(found)
