"""reef-v1 under the ``pixels`` action set: the oracle solves tasks through coordinates only.

Stored solutions name elements (``click_on``, ``tap_on``); under ``pixels`` no device has an
element action, so the oracle grounds each name to the element's centre in the pixels of
the screenshot the agent sees and plays ``click_at``/``tap_at``. A task per device kind and
a cross-device one, on real devices; every observation the agent gets is a plain
screenshot (the browser's adds its tab list), and no tool takes an element number.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from reefbench.actions.spec import Action
from reefbench.agents import OracleAgent
from reefbench.environments.contract import Environment
from reefbench.episodes.episode import Episode
from reefbench.episodes.protocol import AgentOutput, Turn
from reefbench.suites import get_suite
from reefbench.tasks.task import Task
from reefbench.validation.gates import used_environments

pytest.importorskip("playwright")
pytest.importorskip("fastapi")

SUITE = get_suite("v1")
# The smallest reef-v1 tasks whose reference solutions name elements on each device: the
# editor's View > Toolbar menu (desktop), a task form's textboxes and buttons (browser),
# Settings and a switch (phone), an app and a Button by role with an answer (phone), and
# a message read on the phone and written to a file on the desktop (cross-device). Three of
# them are at most 5 actions long, which reef-v1 leaves out: they come from reef-v0, whose
# devices and action sets are reef-v1's.
TASKS = {
    "desktop": "v0-small-b84a26f23230",
    "browser": "v1-small-a62dd50d6bf6",
    "phone": "v0-small-f96da6d704cb",
    "phone-answer": "v1-hand-8815ffeea21d",
    "cross": "v0-cross-1f6ddcb2a5e2",
}
POINT_ACTIONS = {"desktop": "click_at", "browser": "click_at", "phone": "tap_at"}
ELEMENT_TOOLS = {"click", "right_click", "double_click", "select_option", "tap", "long_tap"}
ELEMENT_TOOLS |= {"swipe", "click_on", "tap_on"}
PLAIN = {"desktop": {"screenshot"}, "browser": {"screenshot", "tabs"}, "phone": {"screenshot"}}


class WatchedOracle(OracleAgent):
    """The oracle, remembering the tools it was given and what each turn showed it."""

    def __init__(self) -> None:
        super().__init__()
        self.tools: dict[str, dict[str, Action]] = {}
        self.seen: list[dict[str, dict[str, Any]]] = []

    def reset(
        self, task: Task, action_spaces: Mapping[str, list[Action]], descriptions: Any
    ) -> None:
        self.tools = {env: {a.name: a for a in acts} for env, acts in action_spaces.items()}
        super().reset(task, action_spaces, descriptions)

    def act(self, turn: Turn) -> AgentOutput:
        self.seen.append(turn.observations)
        return super().act(turn)


@pytest.fixture(scope="module")
def envs() -> Iterator[Mapping[str, Environment]]:
    made = SUITE.make_environments()
    try:
        yield made
    finally:
        for env in made.values():
            env.stop()


@pytest.fixture(scope="module")
def tasks() -> dict[str, Task]:
    return {t.id: t for t in (*SUITE.load(), *get_suite("v0").load())}


REAL_DEVICES = pytest.mark.skipif(
    not all(shutil.which(t) for t in ("Xvfb", "bwrap", "xdotool", "openbox", "rofi"))
    or not Path("/usr/bin/chromium").exists(),
    reason="needs Xvfb, bubblewrap, xdotool, openbox, rofi and Chromium",
)
ELEMENT_ACTION = {"desktop": "click", "browser": "click", "phone": "tap"}


@pytest.mark.integration
@REAL_DEVICES
@pytest.mark.parametrize("label", sorted(TASKS))
def test_the_oracle_solves_the_task_through_pixels(
    envs: Mapping[str, Environment], tasks: dict[str, Task], label: str
) -> None:
    task = tasks[TASKS[label]]
    named = [c for c in task.reference_solution if c.name in ("click_on", "tap_on")]
    assert named, "the task must name elements, or it proves nothing about grounding"
    agent = WatchedOracle()
    result = Episode(task, agent, used_environments(task, envs), action_set="pixels").run()
    assert result.success, (result.termination, result.error, result.trajectory[-1:])
    played = [c for turn in result.trajectory for c in turn.calls]
    # Each named step became the device's coordinate action, at a point of its screenshot.
    pointed = [c for c in played if c.name in ("click_at", "tap_at")]
    assert [(c.env, c.name) for c in pointed] == [(c.env, POINT_ACTIONS[c.env]) for c in named]
    assert all(c.status == "ok" and set(c.arguments) == {"x", "y"} for c in pointed)
    assert not {c.name for c in played} & ELEMENT_TOOLS
    # The agent was never offered an element: no tool takes one, no observation lists one.
    devices = {c.env for c in task.reference_solution} - {"root"}
    for device in devices:
        assert not set(agent.tools[device]) & ELEMENT_TOOLS, device
        for tool in agent.tools[device].values():
            assert "elem" not in tool.parameters_schema["properties"], (device, tool.name)
        for observations in agent.seen:
            assert set(observations[device]) == PLAIN[device], device
    # The set is gone again after the episode: the element actions are back.
    for device in devices:
        assert ELEMENT_ACTION[device] in envs[device].action_space, device


def test_suite_check_refuses_an_unknown_action_set_in_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "reefbench.cli", "suite", "check", "--action-set", "pixel"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "error: unknown action set 'pixel': choose one of marks, a11y, pixels"
    )
