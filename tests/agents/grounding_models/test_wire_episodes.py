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

from reefbench.actions.spec import ActionCall
from reefbench.agents.grounding_models import GroundingAgent, get_profile
from reefbench.agents.grounding_models.profiles import GroundingProfile
from reefbench.agents.providers import ProviderOptions, make_provider
from reefbench.environments.contract import Environment
from reefbench.environments.grounding import pick
from reefbench.environments.pointer import Scale, png_size
from reefbench.episodes.episode import Episode
from reefbench.episodes.protocol import UNPARSABLE, AgentOutput, Turn
from reefbench.suites import get_suite
from reefbench.tasks.task import ActionStep, Task
from reefbench.validation.gates import used_environments

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
    """The grounding agent, with the test queueing the server's next replies first."""

    def __init__(
        self,
        server: FakeServer,
        envs: Mapping[str, Environment],
        task: Task,
        profile: GroundingProfile,
        *,
        garbage_first: bool = False,
    ) -> None:
        provider = make_provider(
            f"openai-compatible/ui-tars-1.5-7b@http://127.0.0.1:{server.port}/v1",
            ProviderOptions(retry=FAST_RETRY),
            environ={"OPENAI_COMPATIBLE_API_KEY": FAKE_KEY},
        )
        super().__init__(provider, profile)
        self.server, self.envs, self.todo = server, envs, list(task.reference_solution)
        self.target = task.reference_solution[0].env
        self.garbage_first = garbage_first
        self.expected_sizes: list[tuple[int, int]] = []

    def act(self, turn: Turn) -> AgentOutput:
        assert self.current is not None
        if self.current != self.target:
            self._expect(turn.observations[self.current]["screenshot"])
            self.server.script(Scripted(switch(self.profile, self.target)))
        shot = turn.observations[self.target]["screenshot"]
        model = self._expect(shot)
        if self.garbage_first:
            self.garbage_first = False
            self.server.script(Scripted("I would now click the button, I think."))
            return super().act(turn)
        call = self.todo.pop(0) if self.todo else None
        at = (0, 0)
        if call is not None and call.name in ("click_on", "tap_on"):
            env: Any = self.envs[call.env]
            name, role = call.arguments["name"], call.arguments.get("role", "")
            elem = pick(env.element_candidates(False), name, role)
            x, y = centre(env, self.devices[call.env], elem, shot)
            at = Scale(device=png_size(shot), model=model).to_model(x, y)
        self.server.script(Scripted(render(self.profile, call, at)))
        return super().act(turn)

    def _expect(self, shot: bytes) -> tuple[int, int]:
        """The size of image the agent must send for ``shot`` (noted) and the model's."""
        model = self.profile.model_size(png_size(shot))
        relative = self.profile.coordinates == "relative"
        self.expected_sizes.append(png_size(shot) if relative else model)
        return model


def switch(profile: GroundingProfile, device: str) -> str:
    if profile.format == "uitars":
        return f"Thought: The task is on the {device}.\nAction: switch(device='{device}')"
    return (
        '<tool_call>{"name": "computer_use", "arguments": '
        f'{{"action": "switch", "device": "{device}"}}}}</tool_call>'
    )


def sent_sizes(server: FakeServer) -> list[tuple[int, int]]:
    """The size of the last image of each request (the screenshot of that turn)."""
    sizes = []
    for body in server.bodies:
        images = [
            part["image_url"]["url"]
            for message in body["messages"]
            if message["role"] == "user" and isinstance(message["content"], list)
            for part in message["content"]
            if part.get("type") == "image_url"
        ]
        sizes.append(_size(images[-1]))
        assert body["model"] == "ui-tars-1.5-7b"
    return sizes


def pointed(result: Any, device: str) -> int:
    """Coordinate clicks or taps that worked on ``device``."""
    name = "tap_at" if device == "phone" else "click_at"
    played = [c for turn in result.trajectory for c in turn.calls if c.env == device]
    return sum(c.name == name and c.status == "ok" for c in played)


@pytest.mark.parametrize(("device", "profile"), CASES)
def test_a_grounding_model_completes_a_task_by_coordinates(
    envs: Mapping[str, Environment],
    tasks: dict[str, Task],
    server: FakeServer,
    device: str,
    profile: str,
) -> None:
    task = pointer_task(tasks[TASKS[device]], envs)
    garbage = (device, profile) == ("browser", "qwen3-vl")
    agent = ScriptsItsServer(server, envs, task, get_profile(profile), garbage_first=garbage)
    result = Episode(task, agent, used_environments(task, envs), invalid_tolerance=1).run()
    assert result.success, (result.termination, result.error, [t.calls for t in result.trajectory])
    clicks = sum(c.name in ("click_on", "tap_on") for c in task.reference_solution)
    assert pointed(result, device) == clicks
    assert result.invalid_actions == (1 if garbage else 0)
    if garbage:  # recorded with its reason, and the episode went on (tolerance 1)
        (record,) = result.trajectory[0].calls
        assert record.name == UNPARSABLE and record.status == "invalid"
        assert record.error is not None and "no <tool_call>" in record.error
    assert sent_sizes(server) == agent.expected_sizes


@pytest.mark.parametrize("profile", ["uitars", "qwen3-vl"])
def test_the_model_switches_to_the_device_the_task_is_on(
    envs: Mapping[str, Environment], tasks: dict[str, Task], server: FakeServer, profile: str
) -> None:
    task = pointer_task(tasks[TASKS["browser"]], envs)
    both = {"phone": envs["phone"], **used_environments(task, envs)}
    # A task that does not say where it starts: the agent looks at the first device (the
    # phone) and must switch. (One that says starts there: see the test below.)
    metadata = task.metadata.model_copy(update={"subtasks": [], "environments": []})
    task = task.model_copy(update={"metadata": metadata})
    agent = ScriptsItsServer(server, envs, task, get_profile(profile))
    result = Episode(task, agent, both).run()
    assert result.success, (result.termination, result.error, [t.calls for t in result.trajectory])
    assert agent.current == "browser"
    sizes = sent_sizes(server)
    assert sizes == agent.expected_sizes
    assert sizes[0] != sizes[1]  # the phone's screenshot, then the browser's in the same turn
    assert "switch(device=" in server.bodies[0]["messages"][0]["content"] or profile != "uitars"
    assert pointed(result, "browser") == 4 and pointed(result, "phone") == 0


def test_the_agent_starts_on_the_device_of_the_task_s_first_subtask(
    envs: Mapping[str, Environment], tasks: dict[str, Task], server: FakeServer
) -> None:
    task = pointer_task(tasks[TASKS["browser"]], envs)
    both = {"phone": envs["phone"], **used_environments(task, envs)}
    agent = ScriptsItsServer(server, envs, task, get_profile("uitars"))
    result = Episode(task, agent, both).run()
    assert result.success, (result.termination, result.error)
    sizes = sent_sizes(server)
    assert sizes[0] == sizes[1]  # the browser from the first request on: no switch
    assert pointed(result, "browser") == 4 and pointed(result, "phone") == 0


def _size(url: str) -> tuple[int, int]:
    import base64

    data = base64.b64decode(url.split(",", 1)[1])
    with PIL.open(io.BytesIO(data)) as image:
        return image.size
