"""From what a person does on a device's view to the device's own coordinate action.

The page sends gestures in the pixels of the device's screenshot (it scales the click
from the shown size); each becomes the call an agent makes under the ``pixels`` action
set, chosen by what the device's action space has, never by its kind:

============  ==============================  ==========================  ==================
gesture       desktop                         browser                     phone
============  ==============================  ==========================  ==================
click         ``click_at(x, y)``              ``click_at(x, y)``          ``tap_at(x, y)``
double        ``click_at(..., clicks=2)``     —                           —
right         ``click_at(..., button=right)`` —                           ``long_tap_at``
drag          ``drag``                        —                           ``swipe_from``
scroll        ``scroll(direction, x, y)``     ``scroll(direction, x, y)`` ``swipe_from``
type          ``write_text(text)``            ``write_text(text)``        ``write_text``
key           ``press`` / ``hotkey``          ``press("Control+a")``      —
============  ==============================  ==========================  ==================

Typed text goes only to the device's typing action; it is never interpreted here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from reefbench.actions.spec import Action, ActionCall
from reefbench.errors import InvalidAction

GestureKind = Literal["click", "double", "right", "drag", "scroll", "type", "key"]
Direction = Literal["up", "down", "left", "right"]
Modifier = Literal["ctrl", "alt", "shift", "meta"]

# Actions the gestures stand for: the page offers the rest of a space as other actions.
GESTURE_ACTIONS = frozenset(
    {"click_at", "tap_at", "long_tap_at", "drag", "swipe_from", "scroll", "write_text"}
)
# A touch screen scrolls by a swipe of this share of the screen's height (or width).
SWIPE_SHARE = 0.35

# KeyboardEvent.key -> the desktop's key names (``press`` of the desktop).
_DESKTOP_KEYS = {
    "Enter": "enter",
    "Escape": "esc",
    "Tab": "tab",
    "Backspace": "backspace",
    "Delete": "delete",
    "ArrowUp": "up",
    "ArrowDown": "down",
    "ArrowLeft": "left",
    "ArrowRight": "right",
    "Home": "home",
    "End": "end",
    "PageUp": "pageup",
    "PageDown": "pagedown",
    " ": "space",
}
# KeyboardEvent modifier -> the desktop's and Playwright's names.
_DESKTOP_MODIFIERS = {"ctrl": "ctrl", "alt": "alt", "shift": "shift", "meta": "super"}
_PLAYWRIGHT_MODIFIERS = {"ctrl": "Control", "alt": "Alt", "shift": "Shift", "meta": "Meta"}


class Gesture(BaseModel):
    """One gesture on a device's view, in the pixels of its screenshot."""

    model_config = ConfigDict(extra="forbid")

    env: str = Field(max_length=100)
    kind: GestureKind
    x: int = Field(0, ge=0, le=10000)
    y: int = Field(0, ge=0, le=10000)
    to_x: int = Field(0, ge=0, le=10000)
    to_y: int = Field(0, ge=0, le=10000)
    width: int = Field(0, ge=0, le=10000)
    """The screenshot's size, for a touch screen's scroll swipe."""
    height: int = Field(0, ge=0, le=10000)
    direction: Direction = "down"
    amount: int = Field(3, ge=1, le=50)
    text: str = Field("", max_length=10000)
    key: str = Field("", max_length=40)
    modifiers: list[Modifier] = Field(default_factory=list, max_length=4)


def _parameters(action: Action | None) -> set[str]:
    if action is None:
        return set()
    return set(action.parameters_schema.get("properties", {}))


def device_controls(space: Mapping[str, Action]) -> dict[str, Any]:
    """What the page offers for a device: the gestures its space can play, and its other
    actions (name, description, parameters schema) for a small form each."""
    click = space.get("click_at")
    gestures = {
        "click": "click_at" in space or "tap_at" in space,
        "double": "clicks" in _parameters(click),
        "right": "button" in _parameters(click) or "long_tap_at" in space,
        "drag": "drag" in space or "swipe_from" in space,
        "scroll": {"x", "y"} <= _parameters(space.get("scroll")) or "swipe_from" in space,
        "type": "write_text" in space,
        "key": _key_style(space) is not None,
    }
    others = [
        {
            "name": act.name,
            "summary": act.description.split("\n")[0],
            "parameters": act.parameters_schema,
        }
        for name, act in space.items()
        if name not in GESTURE_ACTIONS
    ]
    return {"gestures": gestures, "actions": others}


def _key_style(space: Mapping[str, Action]) -> str | None:
    """How the device names keys: ``desktop`` (``press``/``hotkey`` with xdotool-like
    names), ``playwright`` (``press("Control+a")``), or ``None`` (no keyboard keys: a
    touch screen's ``press`` has only its navigation buttons)."""
    press = space.get("press")
    if press is None:
        return None
    key = press.parameters_schema.get("properties", {}).get("key", {})
    if "enum" in key:
        return None
    return "desktop" if "hotkey" in space else "playwright"


def gesture_call(gesture: Gesture, space: Mapping[str, Action]) -> ActionCall:
    """The device's call for ``gesture``.

    Raises:
        InvalidAction: the device has no action for this gesture (the message says so).
    """
    g, env = gesture, gesture.env
    names = set(space)
    params = _parameters(space.get("click_at"))

    def call(name: str, **arguments: Any) -> ActionCall:
        return ActionCall(env=env, name=name, arguments=arguments)

    if g.kind == "click":
        if "click_at" in names:
            return call("click_at", x=g.x, y=g.y)
        if "tap_at" in names:
            return call("tap_at", x=g.x, y=g.y)
    elif g.kind == "double" and "clicks" in params:
        return call("click_at", x=g.x, y=g.y, clicks=2)
    elif g.kind == "right":
        if "button" in params:
            return call("click_at", x=g.x, y=g.y, button="right")
        if "long_tap_at" in names:
            return call("long_tap_at", x=g.x, y=g.y)
    elif g.kind == "drag":
        if "drag" in names:
            return call("drag", from_x=g.x, from_y=g.y, to_x=g.to_x, to_y=g.to_y)
        if "swipe_from" in names:
            return call("swipe_from", x=g.x, y=g.y, to_x=g.to_x, to_y=g.to_y)
    elif g.kind == "scroll":
        return _scroll(g, space, call)
    elif g.kind == "type" and "write_text" in names:
        if not g.text:
            raise InvalidAction("nothing to type")
        return call("write_text", text=g.text)
    elif g.kind == "key":
        return _key(g, space, call)
    raise InvalidAction(f"the {env} has no action for a {g.kind} gesture")


def _scroll(g: Gesture, space: Mapping[str, Action], call: Any) -> ActionCall:
    scroll = _parameters(space.get("scroll"))
    if {"x", "y"} <= scroll:
        arguments: dict[str, Any] = {"direction": g.direction, "x": g.x, "y": g.y}
        if "amount" in scroll:
            arguments["amount"] = g.amount
        result: ActionCall = call("scroll", **arguments)
        return result
    if "swipe_from" in space:
        # To see what is further down, the finger moves up (and so on).
        dx = round((g.width or 400) * SWIPE_SHARE)
        dy = round((g.height or 800) * SWIPE_SHARE)
        move = {"down": (0, -dy), "up": (0, dy), "right": (-dx, 0), "left": (dx, 0)}
        mx, my = move[g.direction]
        result = call("swipe_from", x=g.x, y=g.y, to_x=max(0, g.x + mx), to_y=max(0, g.y + my))
        return result
    raise InvalidAction(f"the {g.env} has no action for a scroll gesture")


def _key(g: Gesture, space: Mapping[str, Action], call: Any) -> ActionCall:
    style = _key_style(space)
    if not g.key:
        raise InvalidAction("no key given")
    if style is None:
        if g.key == "Enter" and not g.modifiers and "write_text" in space:
            result: ActionCall = call("write_text", text="\n")
            return result
        raise InvalidAction(f"the {g.env} has no {g.key} key (use its own buttons)")
    if style == "desktop":
        key = _DESKTOP_KEYS.get(g.key, g.key if len(g.key) == 1 else g.key.lower())
        if g.modifiers:
            keys = [_DESKTOP_MODIFIERS[m] for m in g.modifiers]
            result = call("hotkey", keys=[*keys, key.lower() if len(key) == 1 else key])
            return result
        result = call("press", key=key)
        return result
    named = "Space" if g.key == " " else g.key
    result = call("press", key="+".join([*(_PLAYWRIGHT_MODIFIERS[m] for m in g.modifiers), named]))
    return result
