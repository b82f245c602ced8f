"""Native computer-use agents completing reef-v0 tasks on the real devices (the desktop on
Xvfb, Chromium, the phone), through their SDKs and local wire servers.

The brain plays a task's reference solution the way a computer-use model would: it finds
each named element (the test may look inside the device, a model would read the picture),
says where it is in *the image it was sent* and clicks there in its provider's vocabulary
(Gemini in 0..999). The agent maps the point back to the device's pixels; the task's own
checkpoints decide whether the clicks landed.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from reefbench.environments.contract import Environment
from reefbench.environments.grounding import ground
from reefbench.environments.pointer import png_size
from reefbench.episodes.episode import Episode
from reefbench.tasks.task import Task

from .conftest import Request, Said, WireServer

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

# One small task per device kind (the grounding tests use the same ones): the editor's
# View > Toolbar, the phone's Settings > Bluetooth switch, a to-do in the browser.
TASKS = {
    "desktop": "v0-small-b84a26f23230",
    "phone": "v0-small-a9ab8b90acba",
    "browser": "v0-small-31b28454a8bf",
}
# Steps that are not pointer work (opening an app from the launcher, the phone's drawer)
# run as the task's setup: a computer-use model would reach them by clicks too, but the
# test is about where clicks land.
SETUP_STEPS = {"search_app", "show_all_drawer"}


@pytest.fixture(scope="module")
def suite_envs() -> Iterator[tuple[dict[str, Task], Mapping[str, Environment]]]:
    from reefbench.suites import get_suite

    suite = get_suite("v0")
    tasks = {t.id: t for t in suite.load() if t.id in TASKS.values()}
    made = suite.make_environments()
    try:
        yield tasks, made
    finally:
        for env in made.values():
            env.stop()


def _space(env: Any) -> tuple[int, int]:
    """The size of the space an element's box is given in."""
    if hasattr(env, "screen_size"):
        return tuple(env.screen_size())  # type: ignore[return-value]
    if hasattr(env, "viewport"):
        return env.viewport["width"], env.viewport["height"]
    return env.config.width, env.config.height


def _box(env: Any, elem: int) -> tuple[int, int, int, int]:
    mark = env.target(elem)[0] if hasattr(env, "target") else env.mark(elem)
    return tuple(mark.box)  # type: ignore[return-value]


_SHOWN = re.compile(r"(?:Screenshot of|now looking at) '(\w+)'")


@dataclass
class Player:
    """A brain playing the steps of a reference solution with native calls, switching to
    the device first when the agent shows it another one."""

    env: Any
    steps: list[Any]
    last: tuple[int, int] = (0, 0)

    def __call__(self, request: Request) -> list[Said]:
        shown = _SHOWN.findall(request.texts())
        if shown and shown[-1] != self.env.name:
            return [Said("function", name="switch_device", args={"name": self.env.name})]
        if not self.steps:
            return [Said("function", name="complete")]
        step = self.steps.pop(0)
        if step.name in ("click_on", "tap_on"):
            width, height = png_size(request.screenshot())
            elem = ground(self.env, step.arguments["name"], step.arguments.get("role", ""),
                          current=True)  # fmt: skip
            x, y, w, h = _box(self.env, elem)
            space_w, space_h = _space(self.env)
            # The centre of the element in the image the model was sent.
            self.last = ((x + w / 2) * width // space_w, (y + h / 2) * height // space_h)
            return [Said("click", int(self.last[0]), int(self.last[1]))]
        if step.name == "write_text":
            return [Said("type", *self.last, text=step.arguments["text"])]
        if step.name == "hotkey":
            return [Said("key", text="+".join(step.arguments["keys"]))]
        raise AssertionError(f"no native way to play {step}")


@pytest.mark.parametrize("device", sorted(TASKS))
def test_native_agents_complete_a_task_on_each_device_kind(
    suite_envs: tuple[dict[str, Task], Mapping[str, Environment]],
    server: WireServer,
    device: str,
) -> None:
    from reefbench.validation.gates import used_environments

    tasks, envs = suite_envs
    task = tasks[TASKS[device]]
    setup = [c for c in task.reference_solution if c.name in SETUP_STEPS]
    steps = [c for c in task.reference_solution if c.name not in SETUP_STEPS]
    from reefbench.tasks.task import ActionStep

    bound = [ActionStep(env=c.env, action=envs[c.env].action_space[c.name](**c.arguments))
             for c in setup]  # fmt: skip
    task = task.model_copy(update={"setup": [*task.setup, *bound]})
    server.brain = Player(envs[device], steps)
    result = Episode(task, server.agent(), used_environments(task, envs)).run()
    assert result.success, (result.termination, result.error, result.trajectory[-1:])
    played = [c for turn in result.trajectory for c in turn.calls if c.env == device]
    # Only coordinate actions reached the device: the clicks were the model's points.
    assert {c.name for c in played} <= {"click_at", "tap_at", "write_text", "hotkey", "press"}
    assert any(c.name in ("click_at", "tap_at") for c in played)
