"""Screen coordinates on every device: scaling screenshots for a model, and pointer ops.

Computer-use models (the providers' native tools) and open grounding models answer in
coordinates of the image they were sent, which is rarely the device's own screenshot: each
provider prefers its own size, and some answer in 0..999 normalised units. Two things make
their clicks land where they meant:

* :class:`Scale` maps points between the image a model sees (*model* space) and the
  screenshot a device's coordinate actions take (*device* space: the observation image, the
  same pixels ``click_at``/``tap_at`` expect). The mapping is exact up to rounding and
  always lands inside the image.
* :class:`PointerOp` is what such a model asks for (click, type, drag, ...), in device
  space; :func:`to_calls` turns it into the device kind's own coordinate actions, so the
  episode, its checks and its run files are the same whatever agent acted.

The module is core (no device imports): a device kind is named by
``Environment.pointer_kind``.
"""

from __future__ import annotations

import io
import math
import struct
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from reefbench.actions.spec import ActionCall
from reefbench.errors import InvalidAction

if TYPE_CHECKING:
    from reefbench.tasks.task import Task

PointerKind = Literal["desktop", "browser", "touch"]
"""How a device is driven by coordinates: a mouse and keyboard screen, a browser page, or
a touch screen with navigation buttons."""

OpKind = Literal[
    "click",
    "double_click",
    "right_click",
    "long_press",
    "move",
    "drag",
    "scroll",
    "type",
    "key",
    "clear",
]
Direction = Literal["up", "down", "left", "right"]
Size = tuple[int, int]


# --------------------------------------------------------------------- scaling
@dataclass(frozen=True, slots=True)
class Scale:
    """The mapping between a device's screenshot and the image a model sees.

    Attributes:
        device: (width, height) of the device's screenshot, in the pixels its coordinate
            actions take.
        model: (width, height) of the coordinate space the model answers in: the size of
            the image it was sent, or ``(span, span)`` for normalised coordinates.
    """

    device: Size
    model: Size

    def __post_init__(self) -> None:
        if min(*self.device, *self.model) < 1:
            raise ValueError(f"sizes must be positive: device {self.device}, model {self.model}")

    @classmethod
    def identity(cls, device: Size) -> Scale:
        """The model sees the device's screenshot as it is."""
        return cls(device, device)

    @classmethod
    def fit(
        cls,
        device: Size,
        *,
        max_width: int | None = None,
        max_height: int | None = None,
        max_pixels: int | None = None,
    ) -> Scale:
        """The largest size with the device's proportions within the limits (never
        larger than the device's screenshot)."""
        width, height = device
        factor = 1.0
        if max_width is not None:
            factor = min(factor, max_width / width)
        if max_height is not None:
            factor = min(factor, max_height / height)
        if max_pixels is not None:
            factor = min(factor, math.sqrt(max_pixels / (width * height)))
        model = (max(1, math.floor(width * factor)), max(1, math.floor(height * factor)))
        return cls(device, model)

    @classmethod
    def normalized(cls, device: Size, span: int = 1000) -> Scale:
        """A model answering in ``0..span-1`` on both axes (Gemini and UI-TARS use 1000)."""
        return cls(device, (span, span))

    def to_device(self, x: float, y: float) -> tuple[int, int]:
        """A model point as device pixels (the centre of the model pixel, rounded down,
        clamped into the screenshot)."""
        return (
            _map(x, self.model[0], self.device[0]),
            _map(y, self.model[1], self.device[1]),
        )

    def to_model(self, x: float, y: float) -> tuple[int, int]:
        """A device point as model coordinates (for showing a model where something is)."""
        return (
            _map(x, self.device[0], self.model[0]),
            _map(y, self.device[1], self.model[1]),
        )


def _map(value: float, source: int, target: int) -> int:
    # Pixel i covers [i, i+1): map its centre, so that a round trip through a larger space
    # returns the same pixel.
    mapped = math.floor((value + 0.5) * target / source)
    return min(max(mapped, 0), target - 1)


def png_size(png: bytes) -> Size:
    """(width, height) of a PNG, read from its header.

    Raises:
        ValueError: the bytes are not a PNG.
    """
    if len(png) < 24 or png[:8] != b"\x89PNG\r\n\x1a\n" or png[12:16] != b"IHDR":
        raise ValueError("not a PNG image")
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)


def resize_png(png: bytes, size: Size) -> bytes:
    """The PNG resampled to ``size`` (unchanged if it already has it)."""
    if png_size(png) == size:
        return png
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        resized = image.convert("RGB").resize(size, Image.Resampling.LANCZOS)
    out = io.BytesIO()
    resized.save(out, format="PNG", optimize=False)
    return out.getvalue()


# ------------------------------------------------------------------ operations
@dataclass(frozen=True, slots=True)
class PointerOp:
    """One thing a coordinate-driven model asks a device to do, in device pixels.

    Attributes:
        kind: What to do.
        x: Horizontal pixel (click, move, long_press, drag start, scroll position).
        y: Vertical pixel.
        to_x: Drag end, horizontal pixel.
        to_y: Drag end, vertical pixel.
        text: Text to type (``type``).
        keys: A key or a combination, lower-case names such as ``("ctrl", "s")``,
            ``("enter",)`` (``key``).
        direction: Which way the content scrolls into view (``scroll``): ``down`` shows
            what is further down.
        amount: Wheel steps for ``scroll`` (about three lines each).
    """

    kind: OpKind
    x: int | None = None
    y: int | None = None
    to_x: int | None = None
    to_y: int | None = None
    text: str = ""
    keys: tuple[str, ...] = field(default=())
    direction: Direction = "down"
    amount: int = 3

    def point(self) -> tuple[int, int]:
        """(x, y), which this kind of op needs.

        Raises:
            InvalidAction: the op has no point.
        """
        if self.x is None or self.y is None:
            raise InvalidAction(f"{self.kind} needs a point (x and y)")
        return self.x, self.y

    def end(self) -> tuple[int, int]:
        """(to_x, to_y), the end of a drag.

        Raises:
            InvalidAction: the op has no end point.
        """
        if self.to_x is None or self.to_y is None:
            raise InvalidAction(f"{self.kind} needs an end point (to_x and to_y)")
        return self.to_x, self.to_y


# Key names as models write them -> the desktop's names (xdotool-style, lower case).
_KEY_ALIASES = {
    "return": "enter",
    "escape": "esc",
    "control": "ctrl",
    "cmd": "super",
    "meta": "super",
    "win": "super",
    "option": "alt",
    "arrowup": "up",
    "arrowdown": "down",
    "arrowleft": "left",
    "arrowright": "right",
    "page_up": "pageup",
    "page_down": "pagedown",
    "del": "delete",
    "back_space": "backspace",
    "spacebar": "space",
}
# The desktop's names -> Playwright's (the browser's ``press``).
_PLAYWRIGHT_KEYS = {
    "ctrl": "Control",
    "alt": "Alt",
    "shift": "Shift",
    "super": "Meta",
    "enter": "Enter",
    "esc": "Escape",
    "tab": "Tab",
    "backspace": "Backspace",
    "delete": "Delete",
    "space": "Space",
    "up": "ArrowUp",
    "down": "ArrowDown",
    "left": "ArrowLeft",
    "right": "ArrowRight",
    "home": "Home",
    "end": "End",
    "pageup": "PageUp",
    "pagedown": "PageDown",
    "insert": "Insert",
}


def first_device(task: Task, devices: Mapping[str, object]) -> str:
    """The device the agent looks at first: the one the task's first subtask is on (as its
    instruction says, "In the phone's Settings ..."), else the first of the task's devices,
    else the first device. Starting elsewhere would cost a switch that a person, reading
    the task, would not make; the reference solution is never consulted."""
    info = task.metadata
    named = [s.env for s in info.subtasks[:1]] + list(info.environments)
    return next((name for name in named if name in devices), next(iter(devices)))


def key_name(key: str) -> str:
    """A key as the desktop names it: lower case, common aliases folded
    (``Return`` -> ``enter``, ``Control`` -> ``ctrl``); single characters keep their case."""
    if len(key) == 1:
        return key
    folded = key.strip().lower()
    return _KEY_ALIASES.get(folded, folded)


def _browser_key(keys: tuple[str, ...]) -> str:
    names = []
    for key in keys:
        name = key_name(key)
        if len(name) == 1:
            names.append(name)
        elif name.startswith("f") and name[1:].isdigit():
            names.append(name.upper())
        else:
            names.append(_PLAYWRIGHT_KEYS.get(name, name.capitalize()))
    return "+".join(names)


def to_calls(env_name: str, kind: PointerKind, op: PointerOp) -> list[ActionCall]:
    """The device's own coordinate actions for ``op`` (one, or two for ``clear`` on a
    keyboard device: select all, then delete).

    Args:
        env_name: The environment the call goes to (``"desktop"``, ``"phone"``, ...).
        kind: How that environment is driven (``Environment.pointer_kind``).
        op: What to do, in the device's screenshot pixels.

    Raises:
        InvalidAction: the device cannot do this (a drag in the browser, a right click on
            a touch screen, a key the phone has no button for); the message says so.
    """
    if op.kind == "clear" and kind != "touch":
        select_all, delete = (
            (_call(env_name, "hotkey", keys=["ctrl", "a"]), _call(env_name, "press", key="delete"))
            if kind == "desktop"
            else (_call(env_name, "press", key="Control+a"), _call(env_name, "press", key="Delete"))
        )
        return [select_all, delete]
    if kind == "desktop":
        return [_desktop(env_name, op)]
    if kind == "browser":
        return [_browser(env_name, op)]
    return [_touch(env_name, op)]


def _call(env: str, name: str, **arguments: object) -> ActionCall:
    return ActionCall(env=env, name=name, arguments=arguments)


def _desktop(env: str, op: PointerOp) -> ActionCall:
    match op.kind:
        case "click" | "long_press":
            x, y = op.point()
            return _call(env, "click_at", x=x, y=y)
        case "double_click":
            x, y = op.point()
            return _call(env, "click_at", x=x, y=y, clicks=2)
        case "right_click":
            x, y = op.point()
            return _call(env, "click_at", x=x, y=y, button="right")
        case "move":
            x, y = op.point()
            return _call(env, "move_to", x=x, y=y)
        case "drag":
            (x, y), (to_x, to_y) = op.point(), op.end()
            return _call(env, "drag", from_x=x, from_y=y, to_x=to_x, to_y=to_y)
        case "scroll":
            return _call(env, "scroll", direction=op.direction, amount=max(1, min(op.amount, 50)))
        case "type":
            return _call(env, "write_text", text=op.text)
        case "key":
            keys = [key_name(k) for k in op.keys]
            if not keys:
                raise InvalidAction("key needs at least one key")
            if len(keys) == 1:
                return _call(env, "press", key=keys[0])
            return _call(env, "hotkey", keys=keys)
    raise InvalidAction(f"the desktop cannot {op.kind}")


def _browser(env: str, op: PointerOp) -> ActionCall:
    match op.kind:
        case "click":
            x, y = op.point()
            return _call(env, "click_at", x=x, y=y)
        case "scroll":
            return _call(env, "scroll", direction=op.direction)
        case "type":
            return _call(env, "write_text", text=op.text)
        case "key":
            if not op.keys:
                raise InvalidAction("key needs at least one key")
            return _call(env, "press", key=_browser_key(op.keys))
    raise InvalidAction(f"the browser cannot {op.kind.replace('_', ' ')}: click, type or scroll")


# Touch screens scroll by swiping: the finger moves against the scrolling direction.
_SWIPE = {"down": (0, -1), "up": (0, 1), "right": (-1, 0), "left": (1, 0)}
_TOUCH_KEYS = {"home": "home", "back": "back", "esc": "back", "browserback": "back"}


def _touch(env: str, op: PointerOp) -> ActionCall:
    match op.kind:
        case "click":
            x, y = op.point()
            return _call(env, "tap_at", x=x, y=y)
        case "long_press":
            x, y = op.point()
            return _call(env, "long_tap_at", x=x, y=y)
        case "drag":
            (x, y), (to_x, to_y) = op.point(), op.end()
            return _call(env, "swipe_from", x=x, y=y, to_x=to_x, to_y=to_y)
        case "scroll":
            x, y = op.point()
            dx, dy = _SWIPE[op.direction]
            reach = 60 * max(1, min(op.amount, 10))  # the phone clamps the end onto the screen
            to_x, to_y = max(0, x + dx * reach), max(0, y + dy * reach)
            return _call(env, "swipe_from", x=x, y=y, to_x=to_x, to_y=to_y)
        case "type":
            return _call(env, "write_text", text=op.text)
        case "key":
            names = [key_name(k) for k in op.keys]
            if names == ["enter"]:
                return _call(env, "write_text", text="\n")
            if len(names) == 1 and names[0] in _TOUCH_KEYS:
                return _call(env, "press", key=_TOUCH_KEYS[names[0]])
            raise InvalidAction(
                f"the phone has no key {'+'.join(op.keys) or '(none)'}: home, back or enter"
            )
        case "clear":
            return _call(env, "clear_text")
    raise InvalidAction(f"a touch screen cannot {op.kind.replace('_', ' ')}")
