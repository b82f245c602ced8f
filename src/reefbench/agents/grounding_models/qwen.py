"""Qwen2.5-VL / Qwen3-VL computer use: ``<tool_call>{"name": "computer_use", "arguments":
{"action": "left_click", "coordinate": [x, y]}}</tool_call>``.

The ``computer_use`` (desktop) and ``mobile_use`` (phone) tools of the Qwen cookbooks
share one action vocabulary here, plus reefbench's ``switch`` (``device``) and ``clear``.
``left_click_drag`` drags from where the pointer is (the agent remembers it; the parser
leaves the start empty). Several tool calls in one reply run in order; text outside them
is the model's reasoning.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Mapping, Sequence

from reefbench.agents.grounding_models.parsed import (
    Control,
    Gesture,
    ModelAction,
    Parsed,
    Point,
    point_of,
    split_keys,
)

TOOL_NAMES = ("computer_use", "mobile_use")
_TOOL_CALL = re.compile(r"<tool_call>(.*?)(?:</tool_call>|\Z)", re.S)
_BUTTONS = {"back": "back", "home": "home", "enter": "enter", "menu": "menu"}

Arguments = Mapping[str, object]


def parse_qwen(text: str) -> Parsed:
    """Read one Qwen-VL reply (see the module docstring); never raises."""
    blocks = _TOOL_CALL.findall(text)
    parsed = Parsed(thought=_TOOL_CALL.sub("", text).strip())
    if not blocks:
        parsed.error = (
            'the reply has no <tool_call>{"name": "computer_use", "arguments": {...}}</tool_call>'
        )
        return parsed
    for number, block in enumerate(blocks, 1):
        try:
            parsed.actions.append(_action(block))
        except ValueError as exc:
            parsed.error = f"tool call {number}: {exc}"
            return parsed
    return parsed


def _action(block: str) -> ModelAction:
    try:
        call = json.loads(block.strip())
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc})") from None
    if not isinstance(call, dict) or not isinstance(call.get("arguments"), dict):
        raise ValueError('write {"name": "computer_use", "arguments": {"action": ...}}')
    if call.get("name") not in TOOL_NAMES:
        raise ValueError(f"unknown tool {call.get('name')!r}; use {' or '.join(TOOL_NAMES)}")
    arguments: dict[str, object] = call["arguments"]
    action = arguments.get("action")
    handler = _HANDLERS.get(action) if isinstance(action, str) else None
    if handler is None:
        raise ValueError(f"unknown action {action!r}; use one of {', '.join(sorted(_HANDLERS))}")
    return handler(arguments)


def _coordinate(
    arguments: Arguments, name: str = "coordinate", required: bool = True
) -> Point | None:
    value = arguments.get(name)
    if value is None:
        if required:
            raise ValueError(f"{arguments.get('action')} needs {name}: [x, y]")
        return None
    return point_of(value)


def _text(arguments: Arguments, name: str) -> str:
    value = arguments.get(name)
    if not isinstance(value, str):
        raise ValueError(f"{arguments.get('action')} needs {name} as a string")
    return value


def _at(kind: str) -> Callable[[Arguments], ModelAction]:
    def read(arguments: Arguments) -> ModelAction:
        return Gesture(kind, at=_coordinate(arguments))  # type: ignore[arg-type]

    return read


def _drag(arguments: Arguments) -> ModelAction:
    # left_click_drag goes from the pointer; a start_coordinate, if given, wins.
    start = _coordinate(arguments, "start_coordinate", required=False)
    return Gesture("drag", at=start, to=_coordinate(arguments))


def _swipe(arguments: Arguments) -> ModelAction:
    return Gesture("drag", at=_coordinate(arguments), to=_coordinate(arguments, "coordinate2"))


def _scroll(vertical: bool) -> Callable[[Arguments], ModelAction]:
    def read(arguments: Arguments) -> ModelAction:
        pixels = arguments.get("pixels")
        if not isinstance(pixels, int | float) or pixels == 0:
            raise ValueError("scroll needs pixels: a non-zero number (positive scrolls up)")
        if vertical:
            direction = "up" if pixels > 0 else "down"
        else:
            direction = "right" if pixels > 0 else "left"
        return Gesture(
            "scroll",
            at=_coordinate(arguments, required=False),
            direction=direction,
            amount=max(1, min(int(abs(pixels)), 25)),
        )

    return read


def _key(arguments: Arguments) -> ModelAction:
    keys = arguments.get("keys", arguments.get("text"))
    if isinstance(keys, list) and keys and all(isinstance(k, str) for k in keys):
        return Gesture("key", keys=tuple(keys))
    if isinstance(keys, str):
        return Gesture("key", keys=split_keys(keys))
    raise ValueError('key needs keys: a list such as ["ctrl", "s"]')


def _button(arguments: Arguments) -> ModelAction:
    button = _text(arguments, "button").strip().lower()
    if button not in _BUTTONS:
        raise ValueError(f"button {button!r}: use Back, Home, Menu or Enter")
    return Gesture("key", keys=(_BUTTONS[button],))


def _type(arguments: Arguments) -> ModelAction:
    return Gesture("type", text=_text(arguments, "text"))


def _clear(arguments: Arguments) -> ModelAction:
    return Gesture("clear")


def _wait(arguments: Arguments) -> ModelAction:
    return Control("wait")


def _terminate(arguments: Arguments) -> ModelAction:
    return Control("finish", "")


def _answer(arguments: Arguments) -> ModelAction:
    return Control("finish", _text(arguments, "text"))


def _infeasible(arguments: Arguments) -> ModelAction:
    return Control("infeasible", _text(arguments, "text"))


def _switch(arguments: Arguments) -> ModelAction:
    return Control("switch", _text(arguments, "device").strip())


_HANDLERS: dict[str, Callable[[Arguments], ModelAction]] = {
    "left_click": _at("click"),
    "click": _at("click"),
    "double_click": _at("double_click"),
    "right_click": _at("right_click"),
    "long_press": _at("long_press"),
    "mouse_move": _at("move"),
    "left_click_drag": _drag,
    "swipe": _swipe,
    "scroll": _scroll(vertical=True),
    "hscroll": _scroll(vertical=False),
    "key": _key,
    "system_button": _button,
    "type": _type,
    "clear": _clear,
    "wait": _wait,
    "terminate": _terminate,
    "answer": _answer,
    "infeasible": _infeasible,
    "switch": _switch,
}


def tool_definition(kinds: Collection[str], devices: Sequence[str], size: tuple[int, int]) -> str:
    """The ``computer_use`` function as the Qwen cookbooks describe it, for the devices of
    a task (``kinds``: their pointer kinds) and a screen of ``size`` (the image sent, or
    1000x1000 for relative coordinates)."""
    actions = ["left_click"]
    notes = [
        "* `key`: Press keys in order and release them in reverse order (keys: a list).",
        "* `type`: Type a string of text (text).",
        "* `left_click`: Click (tap) at (x, y) (coordinate).",
        "* `scroll` / `hscroll`: Scroll at (x, y) (coordinate, optional); pixels > 0 "
        "scrolls up / right, < 0 down / left.",
    ]
    if "desktop" in kinds:  # a browser page and a touch screen only click
        actions += ["double_click", "right_click", "mouse_move", "left_click_drag"]
        notes += [
            "* `mouse_move`: Move the cursor to (x, y) (coordinate).",
            "* `double_click` / `right_click`: Double-click / right-click at (x, y) (coordinate).",
            "* `left_click_drag`: Drag from the cursor position (or start_coordinate) to "
            "(x, y) (coordinate).",
        ]
    if "touch" in kinds:
        actions += ["long_press", "swipe", "system_button", "clear"]
        notes += [
            "* `long_press`: Press (x, y) for a while (coordinate).",
            "* `swipe`: Swipe from (x, y) (coordinate) to (x2, y2) (coordinate2).",
            "* `system_button`: Press the phone's Back or Home button (button).",
            "* `clear`: Delete all text of the focused field.",
        ]
    actions += ["key", "type", "scroll", "hscroll", "wait", "terminate", "answer", "infeasible"]
    notes += [
        "* `wait`: Let a step pass and look again.",
        "* `terminate`: The task is finished (status: success or failure).",
        "* `answer`: The task is finished and asks for an answer: give it (text).",
        "* `infeasible`: What the task asks for does not exist or cannot be done here "
        "(checked first): say why (text).",
    ]
    if len(devices) > 1:
        actions.append("switch")
        notes.append(
            f"* `switch`: Look at and act on another device (device: one of "
            f"{', '.join(devices)}); the next screenshot is that device's."
        )
    width, height = size
    description = (
        "Use a mouse (or touch screen) and keyboard to interact with a device, and take "
        "screenshots.\n* Coordinates are pixels of the screenshot: (0, 0) is its top-left "
        f"corner.\n* The screen's resolution is {width}x{height}.\n" + "\n".join(notes)
    )
    point = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}
    properties: dict[str, object] = {
        "action": {"type": "string", "enum": actions, "description": "The action to perform."},
        "coordinate": point | {"description": "(x, y): the point to act on."},
        "coordinate2": point | {"description": "(x, y): where a swipe ends."},
        "start_coordinate": point | {"description": "(x, y): where a drag starts."},
        "keys": {"type": "array", "items": {"type": "string"}, "description": "Keys to press."},
        "text": {
            "type": "string",
            "description": "Text to type, the answer, or why the task is infeasible.",
        },
        "pixels": {"type": "number", "description": "How far to scroll."},
        "button": {"type": "string", "enum": ["Back", "Home"], "description": "Phone button."},
        "status": {"type": "string", "enum": ["success", "failure"]},
    }
    if len(devices) > 1:
        properties["device"] = {"type": "string", "enum": list(devices)}
    function = {
        "name": "computer_use",
        "description": description,
        "parameters": {"type": "object", "properties": properties, "required": ["action"]},
    }
    return json.dumps({"type": "function", "function": function})
