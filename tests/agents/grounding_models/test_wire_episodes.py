"""Grounding models end to end: the official OpenAI SDK against a local OpenAI-compatible
server that answers in each format, real episodes on the desktop, the browser and the
phone, and the coordinates landing on the intended element (the task's checkpoints see
the effect).

The server's replies are canned, but where to click is only known once the device shows
its screen: just before each request the test finds the element the reference solution
names in the observation the agent is about to send (its mark's centre, in screenshot
pixels), turns it into the profile's coordinates and queues the reply. The agent maps it
back through its own scaling; a wrong mapping misses the element and the task fails.
"""

from __future__ import annotations

import io
import shutil
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from reefbench.actions import ActionCall
from reefbench.agents.grounding_models import GroundingAgent, get_profile
from reefbench.agents.grounding_models.profiles import GroundingProfile
from reefbench.agents.providers import ProviderOptions, make_provider
from reefbench.environment import Environment
from reefbench.episode import Episode
from reefbench.grounding import pick
from reefbench.pointer import Scale, png_size
from reefbench.protocol import AgentOutput, Turn
from reefbench.suites import get_suite
from reefbench.suites.v0.gates import used_environments
from reefbench.task import ActionStep, Task

from ..conftest import FAKE_KEY, FAST_RETRY, FakeServer, Scripted, render_openai

pytest.importorskip("playwright")
pytest.importorskip("fastapi")
PIL = pytest.importorskip("PIL.Image")
pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not all(shutil.which(t) for t in ("Xvfb", "bwrap", "xdotool", "openbox", "rofi"))
        or not Path("/usr/bin/chromium").exists(),
        reason="needs Xvfb, bubblewrap, xdotool, openbox, rofi and Chromium",
    ),
]

SUITE = get_suite("v0")
# One small task per device that is done by clicking named elements (and typing): the
# editor's View > Toolbar, the phone's Settings > Bluetooth switch, a browser to-do.
TASKS = {
    "desktop": "v0-small-b84a26f23230",
    "phone": "v0-small-a9ab8b90acba",
    "browser": "v0-small-31b28454a8bf",
}
# Opening an app by name has no coordinate form: those leading steps become setup.
BY_NAME = ("search_app", "show_all_drawer")
CASES = [
    ("desktop", "uitars"),
    ("desktop", "qwen2.5-vl"),
    ("phone", "uitars-1.0"),
    ("phone", "qwen2.5-vl"),
    ("browser", "qwen3-vl"),
    ("browser", "uitars"),
]


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


@pytest.fixture
def server() -> Iterator[FakeServer]:
    made = FakeServer("openai", render_openai)
    try:
        yield made
    finally:
        made.close()


def pointer_task(task: Task, envs: Mapping[str, Environment]) -> Task:
    """``task`` with its leading open-by-name steps played as setup."""
    calls = list(task.reference_solution)
    setup = list(task.setup)
    while calls and calls[0].name in BY_NAME:
        call = calls.pop(0)
        action = envs[call.env].action_space[call.name](**call.arguments)
        setup.append(ActionStep(env=call.env, action=action))
    return task.model_copy(update={"setup": setup, "reference_solution": calls})


def centre(env: Environment, kind: str, elem: int, shot: bytes) -> tuple[float, float]:
    """The centre of mark ``elem`` in pixels of the screenshot ``shot``."""
    width, height = png_size(shot)
    device: Any = env
    if kind == "desktop":
        x, y = device.mark(elem).center
        screen = (device.config.width, device.config.height)
    elif kind == "browser":
        x, y = device.mark(elem).center
        screen = (device.viewport["width"], device.viewport["height"])
    else:
        mark, _ = device.target(elem)
        x, y = mark.center
        screen = device.screen_size()
    return x * width / screen[0], y * height / screen[1]


def render(profile: GroundingProfile, call: ActionCall | None, at: tuple[int, int]) -> str:
    """One reply in the profile's format for a reference call (``None``: finished)."""
    if profile.format == "uitars":
        if call is None:
            return "Thought: The task is done.\nAction: finished()"
        if call.name == "write_text":
            text = call.arguments["text"].replace("'", "\\'")
            return f"Thought: I type.\nAction: type(content='{text}')"
        if call.name == "hotkey":
            return f"Thought: Keys.\nAction: hotkey(key='{' '.join(call.arguments['keys'])}')"
        box = f"<|box_start|>({at[0]},{at[1]})<|box_end|>"
        return f"Thought: I click it.\nAction: click(start_box='{box}')"
    import json

    if call is None:
        arguments: dict[str, Any] = {"action": "terminate", "status": "success"}
    elif call.name == "write_text":
        arguments = {"action": "type", "text": call.arguments["text"]}
    elif call.name == "hotkey":
        arguments = {"action": "key", "keys": call.arguments["keys"]}
    else:
        arguments = {"action": "left_click", "coordinate": list(at)}
    body = json.dumps({"name": "computer_use", "arguments": arguments})
    return f"I act.\n<tool_call>\n{body}\n</tool_call>"


class ScriptsItsServer(GroundingAgent):
    """The grounding agent, with the test queueing the server's next reply first."""

    def __init__(
        self,
        server: FakeServer,
        envs: Mapping[str, Environment],
        calls: list[ActionCall],
        profile: GroundingProfile,
        garbage_first: bool,
    ) -> None:
        provider = make_provider(
            f"openai-compatible/ui-tars-1.5-7b@http://127.0.0.1:{server.port}/v1",
            ProviderOptions(retry=FAST_RETRY),
            environ={"OPENAI_COMPATIBLE_API_KEY": FAKE_KEY},
        )
        super().__init__(provider, profile)
        self.server, self.envs, self.todo = server, envs, list(calls)
        self.garbage_first = garbage_first
        self.expected_sizes: list[tuple[int, int]] = []

    def act(self, turn: Turn) -> AgentOutput:
        assert self.current is not None
        shot = turn.observations[self.current]["screenshot"]
        model = self.profile.model_size(png_size(shot))
        self.expected_sizes.append(
            png_size(shot) if self.profile.coordinates == "relative" else model
        )
        if self.garbage_first:
            self.garbage_first = False
            self.server.script(Scripted("I would now click the button, I think."))
            return super().act(turn)
        call = self.todo.pop(0) if self.todo else None
        at = (0, 0)
        if call is not None and call.name in ("click_on", "tap_on"):
            env = self.envs[call.env]
            elem = pick(
                env.element_candidates(False),
                call.arguments["name"],
                call.arguments.get("role", ""),
            )  # type: ignore[attr-defined]
            x, y = centre(env, self.devices[call.env], elem, shot)
            scale = Scale(device=png_size(shot), model=model)
            at = scale.to_model(x, y)
        self.server.script(Scripted(render(self.profile, call, at)))
        return super().act(turn)


@pytest.mark.parametrize(("device", "profile"), CASES)
def test_a_grounding_model_completes_a_task_by_coordinates(
    envs: Mapping[str, Environment],
    tasks: dict[str, Task],
    server: FakeServer,
    device: str,
    profile: str,
) -> None:
    task = pointer_task(tasks[TASKS[device]], envs)
    garbage_first = (device, profile) == ("browser", "qwen3-vl")
    agent = ScriptsItsServer(
        server, envs, task.reference_solution, get_profile(profile), garbage_first
    )
    result = Episode(task, agent, used_environments(task, envs), invalid_tolerance=1).run()
    assert result.success, (result.termination, result.error, [t.calls for t in result.trajectory])
    played = [c for turn in result.trajectory for c in turn.calls if c.env == device]
    pointed = {"desktop": "click_at", "browser": "click_at", "phone": "tap_at"}[device]
    clicks = sum(c.name in ("click_on", "tap_on") for c in task.reference_solution)
    assert sum(c.name == pointed and c.status == "ok" for c in played) == clicks
    assert result.invalid_actions == (1 if garbage_first else 0)
    # Every request carried one screenshot, at the size the profile asks for.
    sent = []
    for body in server.bodies:
        images = [
            part["image_url"]["url"]
            for message in body["messages"]
            if message["role"] == "user" and isinstance(message["content"], list)
            for part in message["content"]
            if part.get("type") == "image_url"
        ]
        sent.append(_size(images[-1]))
        assert body["model"] == "ui-tars-1.5-7b"
    assert sent == agent.expected_sizes[: len(sent)]


def _size(url: str) -> tuple[int, int]:
    import base64

    data = base64.b64decode(url.split(",", 1)[1])
    with PIL.open(io.BytesIO(data)) as image:
        return image.size
