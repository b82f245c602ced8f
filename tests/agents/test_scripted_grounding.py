"""The oracle on real devices: reference solutions name elements, the oracle grounds them.

Under the default ``marks`` set no device offers ``click_on``/``tap_on``, so the oracle
must find each named element in the observation and play the real ``click``/``tap`` with
its number (a resource id such as the phone's ``drawer_settings`` included); under
``a11y`` it plays the name-addressed actions themselves, which must work as well.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from reefbench.actions.spec import Action
from reefbench.agents import OracleAgent
from reefbench.environments.contract import Environment
from reefbench.episodes.episode import Episode
from reefbench.suites import get_suite
from reefbench.tasks.task import Task
from reefbench.validation.gates import used_environments

pytest.importorskip("playwright")
pytest.importorskip("fastapi")
pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not all(shutil.which(t) for t in ("Xvfb", "bwrap", "xdotool", "openbox", "rofi"))
        or not Path("/usr/bin/chromium").exists(),
        reason="needs Xvfb, bubblewrap, xdotool, openbox, rofi and Chromium",
    ),
]

SUITE = get_suite("v0")
# One small task per device whose reference solution names elements: the editor's View >
# Toolbar menu items, the phone's Settings icon by resource id and a switch by label, the
# browser's links and buttons.
TASKS = {
    "desktop": ("v0-small-b84a26f23230", "click_on", "click"),
    "phone": ("v0-small-a9ab8b90acba", "tap_on", "tap"),
    "browser": ("v0-small-31b28454a8bf", "click_on", "click"),
}


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
    return {t.id: t for t in SUITE.load()}


class SeesTools(OracleAgent):
    """The oracle, remembering the tool list it was given."""

    def reset(
        self, task: Task, action_spaces: Mapping[str, list[Action]], descriptions: object
    ) -> None:
        self.tools = {env: {a.name for a in acts} for env, acts in action_spaces.items()}
        super().reset(task, action_spaces, {})


@pytest.mark.parametrize("device", sorted(TASKS))
def test_the_oracle_grounds_names_to_real_element_actions_under_marks(
    envs: Mapping[str, Environment], tasks: dict[str, Task], device: str
) -> None:
    task_id, by_name, by_number = TASKS[device]
    task = tasks[task_id]
    assert any(c.name == by_name for c in task.reference_solution)
    agent = SeesTools()
    result = Episode(task, agent, used_environments(task, envs)).run()
    assert result.success, (result.termination, result.error)
    assert by_name not in agent.tools[device]
    played = [c for turn in result.trajectory for c in turn.calls if c.env == device]
    assert by_name not in {c.name for c in played}
    grounded = [c for c in played if c.name == by_number]
    named = [c for c in task.reference_solution if c.name == by_name]
    assert len(grounded) == len(named)
    assert all(c.status == "ok" and set(c.arguments) == {"elem"} for c in grounded)


@pytest.mark.parametrize("device", sorted(TASKS))
def test_under_a11y_the_name_addressed_actions_do_the_same(
    envs: Mapping[str, Environment], tasks: dict[str, Task], device: str
) -> None:
    task_id, by_name, _ = TASKS[device]
    task = tasks[task_id]
    agent = SeesTools()
    result = Episode(task, agent, used_environments(task, envs), action_set="a11y").run()
    assert result.success, (result.termination, result.error)
    assert by_name in agent.tools[device]
    played = [c.name for turn in result.trajectory for c in turn.calls if c.env == device]
    assert played.count(by_name) == sum(c.name == by_name for c in task.reference_solution)
