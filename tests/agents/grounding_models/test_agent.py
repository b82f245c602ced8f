"""The grounding agent without devices: what it sends (one screenshot, at the size its
profile asks for) and the calls it makes of each reply (points mapped back to the device
screenshot, switching devices, finishing, and invalid output as a reason, never a crash)."""

from __future__ import annotations

import functools
import io
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reefbench.actions.spec import Action, ActionCall
from reefbench.agents.grounding_models import PROFILES, GroundingAgent, get_profile, pointer_kind
from reefbench.agents.providers import ImagePart, ProviderReply
from reefbench.environments.pointer import Scale
from reefbench.environments.root import call_user, complete, submit, wait
from reefbench.envs.browser.actions import BROWSER_ACTIONS
from reefbench.envs.desktop.actions import DESKTOP_ACTIONS
from reefbench.envs.ui.actions import TOUCH_ACTIONS
from reefbench.episodes.protocol import Turn, Usage
from reefbench.suites import memory

from ..conftest import ScriptedProvider

PIL = pytest.importorskip("PIL.Image")
TASK = next(t for t in memory.load() if t.id == "mem-write-note")
SPACES: dict[str, list[Action]] = {
    "laptop": list(DESKTOP_ACTIONS),
    "phone": list(TOUCH_ACTIONS),
    "browser": list(BROWSER_ACTIONS),
    "root": [complete, submit, wait, call_user],
}
SIZES = {"laptop": (1280, 800), "phone": (412, 915), "browser": (1280, 800)}


def png(size: tuple[int, int]) -> bytes:
    out = io.BytesIO()
    PIL.new("RGB", size, (40, 90, 160)).save(out, format="PNG")
    return out.getvalue()


SHOTS = {env: png(size) for env, size in SIZES.items()}


def observations(*devices: str) -> dict[str, dict[str, Any]]:
    return {d: {"screenshot": SHOTS[d], "elements": "[1] button"} for d in devices}


def agent(
    profile: str, replies: list[str], spaces: Mapping[str, list[Action]] = SPACES
) -> tuple[GroundingAgent, ScriptedProvider]:
    provider = ScriptedProvider(
        [ProviderReply(text=r, usage=Usage(prompt_tokens=7)) for r in replies]
    )
    played = GroundingAgent(provider, get_profile(profile))
    played.reset(TASK, spaces, {env: f"the {env}" for env in spaces})
    return played, provider


def sent_image(provider: ScriptedProvider, request: int = -1) -> tuple[int, int]:
    _, messages, _ = provider.requests[request]
    (image,) = [p for p in messages[-1].parts if isinstance(p, ImagePart)]
    with PIL.open(io.BytesIO(image.data)) as opened:
        return opened.size


def test_devices_and_their_pointer_kinds_come_from_the_action_spaces() -> None:
    assert pointer_kind(SPACES["laptop"]) == "desktop"
    assert pointer_kind(SPACES["phone"]) == "touch"
    assert pointer_kind(SPACES["browser"]) == "browser"
    assert pointer_kind(SPACES["root"]) is None


def test_uitars_pixels_of_the_resized_image_map_back_to_the_screenshot() -> None:
    played, provider = agent("uitars", ["Thought: t\nAction: click(start_box='(644,406)')"])
    out = played.act(Turn(1, observations("laptop", "phone", "browser")))
    assert sent_image(provider) == (1288, 812)  # Qwen2.5-VL's smart resize of 1280x800
    assert out.invalid is None
    assert out.calls == [ActionCall(env="laptop", name="click_at", arguments={"x": 640, "y": 400})]
    assert out.usage.prompt_tokens == 7


def test_relative_coordinates_send_the_screenshot_as_it_is() -> None:
    played, provider = agent("uitars-1.0", ["Action: click(start_box='(500,250)')"])
    out = played.act(Turn(1, observations("laptop")))
    assert sent_image(provider) == (1280, 800)
    assert out.calls[0].arguments == {"x": 640, "y": 200}


def test_qwen_on_the_phone_taps_the_phone() -> None:
    spaces = {"phone": SPACES["phone"], "root": SPACES["root"]}
    call = (
        '<tool_call>{"name": "mobile_use", "arguments": '
        '{"action": "click", "coordinate": [500, 500]}}</tool_call>'
    )
    played, provider = agent("qwen3-vl", [call], spaces)
    out = played.act(Turn(1, observations("phone")))
    assert out.invalid is None
    (made,) = out.calls
    assert made.env == "phone" and made.name == "tap_at"
    assert made.arguments == {"x": 206, "y": 457}  # the centre of model pixel 500
    system = provider.requests[0][0]
    assert "The screen's resolution is 1000x1000" in system and "switch" not in system


def test_a_switch_asks_again_with_the_other_devices_screenshot() -> None:
    played, provider = agent(
        "uitars",
        ["Action: switch(device='phone')", "Action: click(start_box='(210,462)')"],
    )
    out = played.act(Turn(1, observations("laptop", "phone", "browser")))
    assert len(provider.requests) == 2
    assert sent_image(provider, 0) == (1288, 812) and sent_image(provider, 1) == (420, 924)
    assert out.calls[0].env == "phone" and out.calls[0].name == "tap_at"
    assert out.usage.prompt_tokens == 14
    assert "You switched to phone." in [
        getattr(p, "text", "") for p in provider.requests[1][1][-1].parts
    ]
    assert played.current == "phone"
    system = provider.requests[1][0]
    assert "switch(device=" in system and "laptop" in system


def test_finishing_submits_an_answer_or_completes() -> None:
    played, _ = agent("uitars", ["Action: finished(content='42')", "Action: finished()"])
    assert played.act(Turn(1, observations("laptop"))).calls == [
        ActionCall(env="root", name="submit", arguments={"answer": "42"})
    ]
    assert played.act(Turn(2, observations("laptop"))).calls == [
        ActionCall(env="root", name="complete")
    ]


def test_declaring_infeasible_becomes_the_root_action() -> None:
    played, provider = agent(
        "uitars", ["Action: infeasible(content='there is no printer')", "Action: infeasible()"]
    )
    assert played.act(Turn(1, observations("laptop"))).calls == [
        ActionCall(env="root", name="infeasible", arguments={"reason": "there is no printer"})
    ]
    assert played.act(Turn(2, observations("laptop"))).calls == [
        ActionCall(env="root", name="infeasible", arguments={"reason": "no reason given"})
    ]
    assert "infeasible(content=" in provider.requests[0][0]  # the prompt offers it


def test_typing_with_a_final_newline_presses_enter() -> None:
    played, _ = agent("uitars", ["Action: type(content='hello\\n')"])
    out = played.act(Turn(1, observations("laptop")))
    assert [c.name for c in out.calls] == ["write_text", "press"]
    assert out.calls[0].arguments == {"text": "hello"}
    assert out.calls[1].arguments == {"key": "enter"}


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("I would click OK.", "no 'Action:'"),
        ("Action: switch(device='fridge')", "no device 'fridge'"),
        ("Action: drag(start_box='(1,1)', end_box='(9,9)')", "browser"),
    ],
)
def test_what_cannot_be_played_is_the_turns_invalid_report(reply: str, reason: str) -> None:
    spaces = {"browser": SPACES["browser"], "root": SPACES["root"]}
    played, _ = agent("uitars", [reply], spaces)
    out = played.act(Turn(1, observations("browser")))
    assert out.calls == []
    assert out.invalid is not None and reason in out.invalid
    assert out.message == reply


def test_calls_read_before_a_problem_still_run() -> None:
    played, _ = agent("uitars", ["Action: click(start_box='(10,10)')\nfly()"])
    out = played.act(Turn(1, observations("laptop")))
    assert len(out.calls) == 1 and out.invalid is not None and "fly" in out.invalid


def test_results_are_told_without_device_coordinates() -> None:
    from reefbench.episodes.protocol import CallResult

    played, provider = agent("uitars", ["Action: wait()", "Action: wait()"])
    first = played.act(Turn(1, observations("laptop")))
    failed = CallResult(first.calls[0], "failed", error="the screen is locked")
    played.act(Turn(2, observations("laptop"), previous=[failed]))
    texts = [getattr(p, "text", "") for p in provider.requests[1][1][-1].parts]
    assert "Your action wait on root failed: the screen is locked" in texts


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(sorted(PROFILES)),
    st.tuples(st.integers(200, 2000), st.integers(200, 2000)),
    st.floats(0, 1, exclude_max=True),
    st.floats(0, 1, exclude_max=True),
)
def test_a_device_point_survives_the_models_coordinates(
    name: str, size: tuple[int, int], fx: float, fy: float
) -> None:
    """Device point -> the profile's coordinates (as a perfect model would answer) ->
    parsed -> mapped back: within one model unit of where it started."""
    profile = get_profile(name)
    x, y = int(fx * size[0]), int(fy * size[1])
    model = profile.model_size(size)
    mx, my = Scale(device=size, model=model).to_model(x, y)
    if profile.format == "uitars":
        reply = f"Action: click(start_box='({mx},{my})')"
    else:
        reply = (
            '<tool_call>{"name": "computer_use", "arguments": '
            f'{{"action": "left_click", "coordinate": [{mx}, {my}]}}}}</tool_call>'
        )
    played, _ = agent(name, [reply], {"laptop": SPACES["laptop"]})
    out = played.act(Turn(1, {"laptop": {"screenshot": _shot(size)}}))
    (call,) = out.calls
    slack = max(size[0] / model[0], size[1] / model[1]) + 1
    assert abs(call.arguments["x"] - x) <= slack and abs(call.arguments["y"] - y) <= slack


@functools.cache
def _shot(size: tuple[int, int]) -> bytes:
    return png(size)


@pytest.mark.parametrize(
    ("device", "profile", "reply", "expected"),
    [
        ("phone", "uitars", "Action: long_press(start_box='(210,462)')", ["long_tap_at"]),
        (
            "phone",
            "uitars",
            "Action: drag(start_box='(210,800)', end_box='(210,100)')",
            ["swipe_from"],
        ),
        ("phone", "uitars", "Action: scroll(direction='down')", ["swipe_from"]),
        ("phone", "uitars", "Action: clear()", ["clear_text"]),
        ("phone", "uitars", "Action: press_back()", ["press"]),
        ("browser", "uitars", "Action: hotkey(key='ctrl a')", ["press"]),
        ("browser", "uitars", "Action: clear()", ["press", "press"]),
        ("laptop", "uitars", "Action: right_single(start_box='(10,10)')", ["click_at"]),
        (
            "laptop",
            "uitars",
            "Action: scroll(start_box='(10,10)', direction='down')",
            ["move_to", "scroll"],
        ),
        ("laptop", "uitars", "Action: scroll(direction='up')", ["scroll"]),
        ("browser", "uitars", "Action: scroll(start_box='(10,10)', direction='up')", ["scroll"]),
        (
            "laptop",
            "qwen2.5-vl",
            '<tool_call>{"name": "computer_use", "arguments": {"action": "mouse_move", '
            '"coordinate": [100, 100]}}</tool_call>\n<tool_call>{"name": "computer_use", '
            '"arguments": {"action": "left_click_drag", "coordinate": [300, 300]}}</tool_call>',
            ["move_to", "drag"],
        ),
    ],
)
def test_each_gesture_becomes_the_devices_own_call(
    device: str, profile: str, reply: str, expected: list[str]
) -> None:
    played, _ = agent(profile, [reply], {device: SPACES[device], "root": SPACES["root"]})
    out = played.act(Turn(1, observations(device)))
    assert out.invalid is None, out.invalid
    assert [c.name for c in out.calls] == expected
    assert all(c.env == device for c in out.calls)
    if expected == ["move_to", "drag"]:  # the drag starts where the pointer was moved
        moved, dragged = out.calls
        assert (dragged.arguments["from_x"], dragged.arguments["from_y"]) == (
            moved.arguments["x"],
            moved.arguments["y"],
        )


def test_a_drag_from_nowhere_is_invalid() -> None:
    reply = (
        '<tool_call>{"name": "computer_use", "arguments": '
        '{"action": "left_click_drag", "coordinate": [300, 300]}}</tool_call>'
    )
    played, _ = agent("qwen2.5-vl", [reply], {"laptop": SPACES["laptop"]})
    out = played.act(Turn(1, observations("laptop")))
    assert out.calls == [] and out.invalid is not None and "pointer" in out.invalid


@pytest.mark.parametrize(("profile", "sent"), [("uitars", (616, 392)), ("qwen3-vl", (640, 400))])
def test_a_smaller_image_side_sends_smaller_screenshots(
    profile: str, sent: tuple[int, int]
) -> None:
    """Pixel coordinates: the pixels are capped (sides still multiples of 28) and the
    model's points are read in that image; relative ones: the image is simply fitted."""
    provider = ScriptedProvider(["Action: click(start_box='(308,196)')"])
    if profile == "qwen3-vl":
        provider = ScriptedProvider(
            [
                '<tool_call>{"name": "computer_use", "arguments": '
                '{"action": "left_click", "coordinate": [500, 500]}}</tool_call>'
            ]
        )
    played = GroundingAgent(provider, get_profile(profile), max_image_side=640)
    played.reset(TASK, {"laptop": SPACES["laptop"]}, {"laptop": "a laptop"})
    out = played.act(Turn(1, observations("laptop")))
    assert sent_image(provider) == sent
    (call,) = out.calls
    assert abs(call.arguments["x"] - 640) <= 3 and abs(call.arguments["y"] - 400) <= 3


@pytest.mark.parametrize("profile", ["uitars", "qwen2.5-vl"])
def test_the_prompt_offers_what_the_tasks_devices_can_do(profile: str) -> None:
    played, provider = agent(profile, ["Action: wait()"], {"browser": SPACES["browser"]})
    played.act(Turn(1, observations("browser")))
    system = provider.requests[0][0]
    for missing in ("left_double", "right_single", "double_click", "long_press", "switch"):
        assert missing not in system
    played, provider = agent(profile, ["Action: wait()"])
    played.act(Turn(1, observations("laptop")))
    system = provider.requests[0][0]
    assert "switch" in system and "phone" in system and "browser" in system
    assert ("right_single" if profile == "uitars" else "right_click") in system
    assert ("long_press" in system) and ("1288x812" in system or profile == "uitars")
