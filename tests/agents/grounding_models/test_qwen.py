"""The Qwen-VL tool-call parser: every action of the computer_use and mobile_use tools,
and a one-line reason for what it cannot read."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reefbench.agents.grounding_models import Control, Gesture, parse_qwen


def call(arguments: dict[str, object], name: str = "computer_use") -> str:
    return f"<tool_call>\n{json.dumps({'name': name, 'arguments': arguments})}\n</tool_call>"


def one(arguments: dict[str, object], name: str = "computer_use") -> Gesture | Control:
    parsed = parse_qwen("I will act.\n" + call(arguments, name))
    assert parsed.error is None, parsed.error
    assert parsed.thought == "I will act."
    (found,) = parsed.actions
    return found


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"action": "left_click", "coordinate": [10, 20]}, Gesture("click", at=(10, 20))),
        ({"action": "double_click", "coordinate": [1, 2]}, Gesture("double_click", at=(1, 2))),
        ({"action": "right_click", "coordinate": [3, 4]}, Gesture("right_click", at=(3, 4))),
        ({"action": "mouse_move", "coordinate": [5, 6]}, Gesture("move", at=(5, 6))),
        ({"action": "left_click_drag", "coordinate": [7, 8]}, Gesture("drag", to=(7, 8))),
        (
            {"action": "left_click_drag", "start_coordinate": [1, 1], "coordinate": [7, 8]},
            Gesture("drag", at=(1, 1), to=(7, 8)),
        ),
        ({"action": "key", "keys": ["ctrl", "s"]}, Gesture("key", keys=("ctrl", "s"))),
        ({"action": "type", "text": "hello"}, Gesture("type", text="hello")),
        (
            {"action": "scroll", "pixels": -5, "coordinate": [9, 9]},
            Gesture("scroll", at=(9, 9), direction="down", amount=5),
        ),
        ({"action": "scroll", "pixels": 3}, Gesture("scroll", direction="up", amount=3)),
        ({"action": "hscroll", "pixels": -2}, Gesture("scroll", direction="left", amount=2)),
        ({"action": "wait", "time": 2}, Control("wait")),
        ({"action": "terminate", "status": "success"}, Control("finish")),
        ({"action": "answer", "text": "Lisbon"}, Control("finish", "Lisbon")),
        ({"action": "infeasible", "text": "no printer"}, Control("infeasible", "no printer")),
        ({"action": "clear"}, Gesture("clear")),
        ({"action": "switch", "device": "phone"}, Control("switch", "phone")),
    ],
)
def test_every_computer_use_action(arguments: dict[str, object], expected: object) -> None:
    assert one(arguments) == expected


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"action": "click", "coordinate": [10, 20]}, Gesture("click", at=(10, 20))),
        (
            {"action": "long_press", "coordinate": [1, 2], "time": 2},
            Gesture("long_press", at=(1, 2)),
        ),
        (
            {"action": "swipe", "coordinate": [1, 2], "coordinate2": [3, 4]},
            Gesture("drag", at=(1, 2), to=(3, 4)),
        ),
        ({"action": "system_button", "button": "Back"}, Gesture("key", keys=("back",))),
        ({"action": "system_button", "button": "Home"}, Gesture("key", keys=("home",))),
        ({"action": "type", "text": "25"}, Gesture("type", text="25")),
    ],
)
def test_every_mobile_use_action(arguments: dict[str, object], expected: object) -> None:
    assert one(arguments, "mobile_use") == expected


def test_several_tool_calls_run_in_order() -> None:
    text = call({"action": "type", "text": "a"}) + "\n" + call({"action": "key", "keys": ["enter"]})
    parsed = parse_qwen(text)
    assert parsed.actions == [Gesture("type", text="a"), Gesture("key", keys=("enter",))]


def test_an_unclosed_tool_call_is_read_to_the_end() -> None:
    parsed = parse_qwen('<tool_call>{"name": "computer_use", "arguments": {"action": "wait"}}')
    assert parsed.actions == [Control("wait")] and parsed.error is None


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("I click the button.", "no <tool_call>"),
        ("<tool_call>{oops</tool_call>", "not valid JSON"),
        (call({"action": "left_click"}), "needs coordinate"),
        (call({"action": "fly"}), "unknown action 'fly'"),
        (call({"action": "wait"}, name="browser_use"), "unknown tool 'browser_use'"),
        (call({"action": "scroll", "pixels": 0}), "non-zero"),
        (call({"action": "key", "keys": 5}), "key needs keys"),
        (call({"action": "system_button", "button": "Power"}), "Back, Home"),
        (call({"action": "left_click", "coordinate": [1, "a"]}), "not all numbers"),
    ],
)
def test_what_it_cannot_read_has_a_reason(reply: str, reason: str) -> None:
    parsed = parse_qwen(reply)
    assert parsed.error is not None and reason in parsed.error
    assert "\n" not in parsed.error


@given(st.integers(0, 5000), st.integers(0, 5000))
def test_coordinates_round_trip(x: int, y: int) -> None:
    assert one({"action": "left_click", "coordinate": [x, y]}) == Gesture("click", at=(x, y))
