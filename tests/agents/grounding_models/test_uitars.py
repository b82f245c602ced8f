"""The UI-TARS parser: every action of its computer and mobile grammars, every spelling
of a point, and a one-line reason for what it cannot read."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reefbench.agents.grounding_models import Control, Gesture, parse_uitars


def one(action: str) -> Gesture | Control:
    parsed = parse_uitars(f"Thought: I act.\nAction: {action}")
    assert parsed.error is None, parsed.error
    assert parsed.thought == "I act."
    (found,) = parsed.actions
    return found


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        ("click(start_box='<|box_start|>(235,512)<|box_end|>')", Gesture("click", at=(235, 512))),
        ("click(start_box='(235,512)')", Gesture("click", at=(235, 512))),
        ("click(start_box='[100, 200, 300, 400]')", Gesture("click", at=(200, 300))),
        ("click(point='<point>12 34</point>')", Gesture("click", at=(12, 34))),
        ("left_single(start_box='(1,2)')", Gesture("click", at=(1, 2))),
        ("left_double(start_box='(5,6)')", Gesture("double_click", at=(5, 6))),
        ("right_single(start_box='(7,8)')", Gesture("right_click", at=(7, 8))),
        ("long_press(start_box='(9,10)')", Gesture("long_press", at=(9, 10))),
        ("hover(start_box='(11,12)')", Gesture("move", at=(11, 12))),
        (
            "drag(start_box='(1,2)', end_box='(3,4)')",
            Gesture("drag", at=(1, 2), to=(3, 4)),
        ),
        (
            "drag(start_point='<point>1 2</point>', end_point='<point>3 4</point>')",
            Gesture("drag", at=(1, 2), to=(3, 4)),
        ),
        ("hotkey(key='ctrl s')", Gesture("key", keys=("ctrl", "s"))),
        ("hotkey(key='ctrl+shift+t')", Gesture("key", keys=("ctrl", "shift", "t"))),
        ("press(key='enter')", Gesture("key", keys=("enter",))),
        ("type(content='hello world')", Gesture("type", text="hello world")),
        ("type(content='line\\n')", Gesture("type", text="line\n")),
        ("type(content='it's here')", Gesture("type", text="it's here")),
        (
            "scroll(start_box='(50,60)', direction='down')",
            Gesture("scroll", at=(50, 60), direction="down"),
        ),
        ("scroll(direction='up')", Gesture("scroll", direction="up")),
        ("press_home()", Gesture("key", keys=("home",))),
        ("press_back()", Gesture("key", keys=("back",))),
        ("clear()", Gesture("clear")),
        ("wait()", Control("wait")),
        ("finished()", Control("finish")),
        ("finished(content='42 km')", Control("finish", "42 km")),
        ("call_user()", Control("call_user")),
        ("infeasible(content='no such file')", Control("infeasible", "no such file")),
        ("switch(device='phone')", Control("switch", "phone")),
    ],
)
def test_every_action(action: str, expected: Gesture | Control) -> None:
    assert one(action) == expected


def test_several_actions_run_in_order() -> None:
    parsed = parse_uitars(
        "Thought: type then save\nAction: type(content='hi')\n\nhotkey(key='ctrl s')"
    )
    assert parsed.error is None
    assert parsed.actions == [Gesture("type", text="hi"), Gesture("key", keys=("ctrl", "s"))]


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("I will click the button.", "no 'Action:'"),
        ("Thought: x\nAction: ", "empty"),
        ("Action: teleport(start_box='(1,2)')", "unknown action 'teleport'"),
        ("Action: click(start_box='(1,2,3)')", "neither a point"),
        ("Action: click()", "missing start_box"),
        ("Action: click('(1,2)')", "by name"),
        ("Action: scroll(direction='sideways')", "use up, down"),
        ("Action: click(start_box=", "not a call"),
    ],
)
def test_what_it_cannot_read_has_a_reason(reply: str, reason: str) -> None:
    parsed = parse_uitars(reply)
    assert parsed.error is not None and reason in parsed.error
    assert "\n" not in parsed.error


def test_actions_before_a_bad_line_are_kept() -> None:
    parsed = parse_uitars("Action: click(start_box='(1,2)')\nfly()")
    assert parsed.actions == [Gesture("click", at=(1, 2))]
    assert parsed.error is not None and "fly" in parsed.error


@given(
    st.integers(min_value=0, max_value=5000),
    st.integers(min_value=0, max_value=5000),
    st.sampled_from(
        ["'<|box_start|>({x},{y})<|box_end|>'", "'({x},{y})'", "'<point>{x} {y}</point>'"]
    ),
)
def test_points_round_trip_in_every_spelling(x: int, y: int, spelling: str) -> None:
    box = spelling.format(x=x, y=y)
    assert one(f"click(start_box={box})") == Gesture("click", at=(x, y))
