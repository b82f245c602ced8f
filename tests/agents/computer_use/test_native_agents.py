"""The native computer-use agents through their official SDKs against local wire servers,
in real episodes over screens drawn in memory (one per pointer kind, at the sizes of
reef-v0's devices): the brain finds a magenta target in the screenshot it was sent and
clicks it; the episode's checkpoint passes only if the device saw the click inside it.
"""

from __future__ import annotations

import io
from typing import Any, ClassVar

import pytest

from reefbench.actions.evaluators import evaluator
from reefbench.actions.spec import action
from reefbench.agents.computer_use import ComputerUseAgent
from reefbench.environments.contract import Environment
from reefbench.environments.pointer import PointerKind, png_size
from reefbench.episodes.episode import Episode
from reefbench.tasks.task import Task

from .conftest import ENVIRON, TARGET, Request, Said, WireServer, find_colour

pytest.importorskip("PIL")
pytest.importorskip("numpy")


class Screen(Environment):
    """A device that is only a screen: a magenta square on white, and a log of what the
    pointer and keyboard did (in the screenshot's pixels)."""

    size: ClassVar[tuple[int, int]] = (1280, 800)
    target: ClassVar[tuple[int, int, int, int]] = (900, 600, 40, 30)  # x, y, width, height

    def __init__(self, name: str) -> None:
        super().__init__(name, f"a test screen ({self.pointer_kind})")
        self.clicks: list[tuple[int, int]] = []
        self.typed: list[str] = []
        self.keys: list[str] = []

    def on_reset(self) -> None:
        self.clicks, self.typed, self.keys = [], [], []

    def hit(self) -> bool:
        x0, y0, w, h = self.target
        return any(x0 <= x < x0 + w and y0 <= y < y0 + h for x, y in self.clicks)

    def png(self) -> bytes:
        from PIL import Image, ImageDraw

        image = Image.new("RGB", self.size, (255, 255, 255))
        x0, y0, w, h = self.target
        ImageDraw.Draw(image).rectangle([x0, y0, x0 + w - 1, y0 + h - 1], fill=TARGET)
        out = io.BytesIO()
        image.save(out, format="PNG")
        return out.getvalue()


@action
def screenshot(env: Screen) -> bytes:
    """The screen."""
    return env.png()


@action
def click_at(x: int, y: int, env: Screen, button: str = "left", clicks: int = 1) -> str:
    """Click a point of the screenshot."""
    env.clicks.append((x, y))
    return "clicked"


@action
def tap_at(x: int, y: int, env: Screen) -> str:
    """Tap a point of the screenshot."""
    env.clicks.append((x, y))
    return "tapped"


@action
def write_text(text: str, env: Screen) -> str:
    """Type text."""
    env.typed.append(text)
    return "typed"


@action
def press(key: str, env: Screen) -> str:
    """Press a key."""
    env.keys.append(key)
    return "pressed"


@action
def hotkey(keys: list[str], env: Screen) -> str:
    """Press keys together."""
    env.keys.append("+".join(keys))
    return "pressed"


@action
def goto(url: str, env: Screen) -> str:
    """Open an address."""
    return url


@action
def drag(from_x: int, from_y: int, to_x: int, to_y: int, env: Screen) -> str:
    """Drag from one point to another."""
    env.clicks.append((from_x, from_y))
    return "dragged"


@action
def move_to(x: int, y: int, env: Screen) -> str:
    """Move the pointer."""
    return "moved"


@action
def scroll(direction: str, env: Screen, amount: int = 3) -> str:
    """Scroll under the pointer."""
    return f"scrolled {direction} by {amount}"


# The actions are annotated with the base class (as the real kinds' actions are with
# their device class), so the agent tells the kinds apart by their coordinate actions.
class DesktopScreen(Screen):
    pointer_kind: ClassVar[PointerKind | None] = "desktop"
    default_action_space = (click_at, drag, move_to, scroll, write_text, press, hotkey)
    default_observation_space = (screenshot,)


class BrowserScreen(Screen):
    pointer_kind: ClassVar[PointerKind | None] = "browser"
    default_action_space = (click_at, goto, write_text, press)
    default_observation_space = (screenshot,)


class PhoneScreen(Screen):
    pointer_kind: ClassVar[PointerKind | None] = "touch"
    size = (412, 915)
    target = (300, 820, 36, 36)
    default_action_space = (tap_at, write_text, press)
    default_observation_space = (screenshot,)


SCREENS: dict[str, type[Screen]] = {
    "desktop": DesktopScreen,
    "browser": BrowserScreen,
    "phone": PhoneScreen,
}


@evaluator
def target_clicked(env: Screen) -> bool:
    """The magenta target was clicked."""
    return env.hit()


@evaluator
def typed(text: str, env: Screen) -> bool:
    """``text`` was typed and the task then went on (never holds on its own: the
    episode ends through the agent's ``complete``)."""
    return text in env.typed and False


def clicks_the_target(request: Request) -> list[Said]:
    """A brain: click the magenta target in the image it was sent."""
    found = find_colour(request.screenshot())
    assert found is not None, "the screenshot the agent sent shows no target"
    return [Said("click", *found)]


def one_click_task(device: str) -> Task:
    return Task(
        id=f"click-{device}",
        instruction="Click the magenta button.",
        nodes={"clicked": target_clicked().on(device)},
    )


@pytest.mark.parametrize("device", sorted(SCREENS))
def test_the_models_click_lands_on_the_target_on_each_kind(server: WireServer, device: str) -> None:
    screen = SCREENS[device](device)
    server.brain = clicks_the_target
    agent = server.agent()
    result = Episode(one_click_task(device), agent, {device: screen}).run()
    assert result.success, (result.termination, result.error, screen.clicks)
    (first,) = server.requests
    sent = first.screenshot()
    # Each provider sees the screenshot at its documented size: Anthropic and OpenAI
    # within 1024x768 (proportions kept), Gemini as it is (it answers in 0..999).
    width, height = png_size(sent)
    if server.wire == "google":
        assert (width, height) == screen.size
    else:
        assert width <= 1024 and height <= 768
        assert abs(width / height - screen.size[0] / screen.size[1]) < 0.01
        assert max(width / 1024, height / 768) > 0.99  # as large as fits
    # The tool declares the display the model sees.
    body = first.body
    if server.wire == "anthropic":
        (computer,) = [t for t in body["tools"] if t.get("name") == "computer"]
        assert (computer["display_width_px"], computer["display_height_px"]) == (width, height)
        assert computer["type"] == "computer_20250124"
        assert first.headers["anthropic-beta"] == "computer-use-2025-01-24"
    elif server.wire == "openai":
        (computer,) = [t for t in body["tools"] if t["type"] == "computer_use_preview"]
        assert (computer["display_width"], computer["display_height"]) == (width, height)
        assert computer["environment"] == ("linux" if device == "desktop" else "browser")
        assert body["truncation"] == "auto"
    else:
        (computer,) = [t["computerUse"] for t in body["tools"] if "computerUse" in t]
        assert computer["environment"] == "ENVIRONMENT_BROWSER"
    assert result.usage.prompt_tokens == 100


def test_a_click_off_the_target_does_not_pass(server: WireServer) -> None:
    screen = DesktopScreen("desktop")

    def misses(request: Request) -> list[Said]:
        x, y = find_colour(request.screenshot()) or (0, 0)
        return [Said("click", x + 60, y)]

    server.brain = misses
    episode = Episode(one_click_task("desktop"), server.agent(), {"desktop": screen}, step_limit=1)
    result = episode.run()
    assert not result.success
    assert screen.clicks and not screen.hit()


def test_switching_devices_shows_the_other_screen_and_clicks_there(
    server: WireServer,
) -> None:
    desktop, phone = DesktopScreen("desktop"), PhoneScreen("phone")
    task = Task(
        id="two",
        instruction="Click the magenta buttons on the desktop and on the phone.",
        nodes={
            "desktop": target_clicked().on("desktop"),
            "phone": target_clicked().on("phone"),
        },
    )
    plan = iter(["click", "switch", "click"])

    def brain(request: Request) -> list[Said]:
        step = next(plan)
        if step == "switch":
            return [Said("function", name="switch_device", args={"name": "phone"})]
        return [Said("click", *find_colour(request.screenshot()))]  # type: ignore[misc]

    server.brain = brain
    result = Episode(task, server.agent(), {"desktop": desktop, "phone": phone}).run()
    assert result.success, (result.termination, result.error, desktop.clicks, phone.clicks)
    # The prompt names every device and the way to switch; the switch is answered with a
    # screenshot of the phone (its proportions), and no step is spent on it.
    system = server.requests[0].texts()
    assert "- desktop:" in system and "- phone:" in system and "switch_device(name)" in system
    after_switch = png_size(server.requests[2].screenshot())
    assert after_switch[1] > after_switch[0]
    assert len(result.trajectory) == 2


def test_root_actions_are_function_tools_and_finish_the_episode(server: WireServer) -> None:
    screen = DesktopScreen("desktop")
    task = Task(
        id="t",
        instruction="Type hello, then say you are done.",
        nodes={"x": typed("hello").on("desktop")},
    )
    replies = iter(
        [
            [Said("click", 10, 10), Said("type", 10, 10, text="hello")],
            [Said("function", name="complete", args={})],
        ]
    )
    server.brain = lambda request: next(replies)
    result = Episode(task, server.agent(), {"desktop": screen}).run()
    assert result.termination == "false_completion", result  # complete reached the root
    assert "hello" in screen.typed
    names = [c.name for turn in result.trajectory for c in turn.calls]
    assert names[-1] == "complete"
    # Every call of the first reply was answered on its own id in the second request.
    second = server.requests[1].body
    if server.wire == "anthropic":
        answered = [
            b["tool_use_id"]
            for m in second["messages"]
            if m["role"] == "user"
            for b in m["content"]
            if b["type"] == "tool_result"
        ]
        assert answered == ["toolu_1_0", "toolu_1_1"]
    elif server.wire == "openai":
        assert second["previous_response_id"] == "resp_1"
        outputs = [i for i in second["input"] if i.get("type") == "computer_call_output"]
        assert [o["call_id"] for o in outputs] == ["call_1_0", "call_1_1"]
        assert all(o["output"]["type"] == "computer_screenshot" for o in outputs)
    else:
        responses = [
            p["functionResponse"]
            for c in second["contents"]
            if c["role"] == "user"
            for p in c["parts"]
            if "functionResponse" in p
        ]
        assert [r["id"] for r in responses] == ["fc_1_0", "fc_1_1"]
        # Each response carries the screenshot (the SDK writes proto field names).
        blobs = [r["parts"][0].get("inlineData") or r["parts"][0]["inline_data"] for r in responses]
        assert all(b.get("mimeType", b.get("mime_type")) == "image/png" for b in blobs)


def test_an_unsupported_native_action_is_an_invalid_action(server: WireServer) -> None:
    screen = BrowserScreen("browser")
    server.brain = lambda request: [Said("drag", 1, 1, 50, 50)]
    result = Episode(
        one_click_task("browser"), server.agent(), {"browser": screen}, invalid_tolerance=0
    ).run()
    assert result.termination == "invalid_action"
    (turn,) = result.trajectory
    assert "browser cannot drag" in str(turn)


# ------------------------------------------------------------------ safety checks
def _with_check(request: Request) -> list[Said]:
    found = find_colour(request.screenshot())
    assert found is not None
    return [Said("click", *found, safety=("malicious_instructions", "The page asks for money."))]


@pytest.mark.parametrize("server", ["openai", "google"], indirect=True)
def test_safety_checks_are_recorded_and_acknowledged(server: WireServer) -> None:
    screen = DesktopScreen("desktop")
    calls = iter([_with_check, lambda request: [Said("function", name="complete")]])
    server.brain = lambda request: next(calls)(request)
    task = Task(id="s", instruction="Click it.", nodes={"x": typed("never").on("desktop")})
    result = Episode(task, server.agent(safety="acknowledge"), {"desktop": screen}).run()
    assert screen.hit()
    first = result.trajectory[0]
    assert "The page asks for money." in first.message and "acknowledged" in first.message
    second = server.requests[1].body
    if server.wire == "openai":
        (output,) = [i for i in second["input"] if i.get("type") == "computer_call_output"]
        (ack,) = output["acknowledged_safety_checks"]
        assert ack == {
            "id": "cu_sc_1_0",
            "code": "malicious_instructions",
            "message": "The page asks for money.",
        }
    else:
        responses = [
            p["functionResponse"]["response"]
            for c in second["contents"]
            for p in c["parts"]
            if "functionResponse" in p
        ]
        assert responses[0]["safety_acknowledgement"] == "true"


@pytest.mark.parametrize("server", ["openai", "google"], indirect=True)
def test_refused_safety_checks_do_not_run_the_action(server: WireServer) -> None:
    screen = DesktopScreen("desktop")
    server.brain = _with_check
    result = Episode(
        one_click_task("desktop"),
        server.agent(safety="refuse"),
        {"desktop": screen},
        invalid_tolerance=0,
    ).run()
    assert not screen.clicks
    assert result.termination == "invalid_action"
    (turn,) = result.trajectory
    assert "The page asks for money. -> refused" in turn.message
    assert "refused by the safety-check policy" in str(turn.calls)


# ------------------------------------------------------------------ one-line errors
@pytest.mark.parametrize("wire", ["anthropic", "openai", "google"])
def test_a_missing_key_is_one_line(wire: str) -> None:
    from reefbench.agents.providers.registry import make_native
    from reefbench.errors import ConfigError

    with pytest.raises(ConfigError, match=r"set \w+_API_KEY") as caught:
        make_native(f"{wire}/some-model", environ={})
    assert "\n" not in str(caught.value)


def test_a_missing_sdk_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    from reefbench.agents.providers.registry import make_native
    from reefbench.errors import ConfigError

    real = builtins.__import__

    def no_anthropic(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "anthropic" or name.startswith("anthropic."):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_anthropic)
    monkeypatch.setattr("importlib.import_module", no_anthropic)
    with pytest.raises(ConfigError, match=r"pip install 'reefbench\[anthropic\]'"):
        make_native("anthropic/claude-test-model", environ=ENVIRON)


def test_a_provider_without_computer_use_is_one_line() -> None:
    from reefbench.agents.computer_use import wants_computer_use
    from reefbench.agents.providers import parse_model
    from reefbench.errors import ConfigError

    spec = parse_model("openai-compatible/qwen@http://127.0.0.1:1/v1")
    with pytest.raises(ConfigError, match="no native computer-use interface"):
        wants_computer_use(spec, "marks", "on")
    assert not wants_computer_use(spec, "pixels")


def test_the_selection_rule() -> None:
    from reefbench.agents.computer_use import wants_computer_use
    from reefbench.agents.providers import parse_model

    assert wants_computer_use(parse_model("anthropic/claude-test-model"), "pixels")
    assert not wants_computer_use(parse_model("anthropic/claude-test-model"), "marks")
    assert wants_computer_use(parse_model("openai/computer-use-preview"), "marks")
    assert not wants_computer_use(parse_model("openai/gpt-4o"), "marks")
    assert wants_computer_use(
        parse_model("google/gemini-2.5-computer-use-preview-10-2025"), "marks"
    )
    assert not wants_computer_use(parse_model("openai/computer-use-preview"), "pixels", "off")


def test_agent_needs_a_screen() -> None:
    from reefbench.envs import memory as m
    from reefbench.errors import ConfigError

    server = WireServer("anthropic")
    try:
        agent: ComputerUseAgent = server.agent()
        env = m.MemoryEnvironment("laptop")
        with pytest.raises(ConfigError, match="no device with coordinate actions"):
            agent.reset(one_click_task("laptop"), {"laptop": list(env.action_space.values())}, {})
    finally:
        server.close()


def test_a_screenshot_request_is_answered_without_a_step(server: WireServer) -> None:
    screen = DesktopScreen("desktop")
    replies = iter([[Said("screenshot")], [Said("click", *find_colour(screen.png()) or (0, 0))]])

    def brain(request: Request) -> list[Said]:
        said = next(replies)
        if said[0].kind == "click":  # the model clicks in the image it was sent
            return [Said("click", *find_colour(request.screenshot()))]  # type: ignore[misc]
        return said

    server.brain = brain
    result = Episode(one_click_task("desktop"), server.agent(), {"desktop": screen}).run()
    assert result.success and len(result.trajectory) == 1
    assert len(server.requests) == 2
    assert result.usage.prompt_tokens == 200  # both requests are counted


@pytest.mark.parametrize("server", ["anthropic", "google"], indirect=True)
def test_old_screenshots_leave_the_conversation(server: WireServer) -> None:
    screen = DesktopScreen("desktop")

    def misses(request: Request) -> list[Said]:
        return [Said("click", 1, 1)]

    server.brain = misses
    episode = Episode(one_click_task("desktop"), server.agent(), {"desktop": screen}, step_limit=6)
    result = episode.run()
    assert result.termination == "step_limit"
    counts = [len(r.images()) for r in server.requests]
    assert counts[:3] == [1, 2, 3] and set(counts[3:]) == {3}


@pytest.mark.parametrize("server", ["openai"], indirect=True)
def test_responses_chain_on_the_previous_response(server: WireServer) -> None:
    screen = DesktopScreen("desktop")
    server.brain = lambda request: [Said("click", 1, 1)]
    episode = Episode(one_click_task("desktop"), server.agent(), {"desktop": screen}, step_limit=3)
    episode.run()
    previous = [r.body.get("previous_response_id") for r in server.requests]
    assert previous == [None, "resp_1", "resp_2"]
    # The server holds the conversation: each request carries only the new screenshot.
    assert [len(r.images()) for r in server.requests] == [1, 1, 1]


def test_a_scroll_at_a_point_moves_the_desktop_pointer_there_first(server: WireServer) -> None:
    screen = DesktopScreen("desktop")

    def scrolls_over_the_target(request: Request) -> list[Said]:
        return [Said("scroll", *find_colour(request.screenshot()), text="down")]  # type: ignore[misc]

    server.brain = scrolls_over_the_target
    episode = Episode(one_click_task("desktop"), server.agent(), {"desktop": screen}, step_limit=1)
    (turn,) = episode.run().trajectory
    move, wheel = turn.calls
    assert move.name == "move_to" and wheel.name == "scroll"
    x0, y0, w, h = screen.target
    assert x0 <= move.arguments["x"] < x0 + w and y0 <= move.arguments["y"] < y0 + h
    assert wheel.arguments["direction"] == "down" and wheel.arguments["amount"] >= 1
