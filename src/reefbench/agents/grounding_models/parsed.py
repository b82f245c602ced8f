"""What a grounding model asked for, before it meets a device.

Both output formats (UI-TARS text, Qwen-VL tool-call JSON) parse into the same few
values, so everything after parsing (coordinates back to the device, device calls,
switching devices, finishing) is written once. Coordinates stay as the model wrote them
(in the image it was sent, or 0..1000): only the agent knows which image that was.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

Point = tuple[float, float]

GestureKind = Literal[
    "click", "double_click", "right_click", "long_press", "move", "drag", "scroll", "type",
    "key", "clear",
]  # fmt: skip
ControlKind = Literal["switch", "finish", "infeasible", "wait", "call_user"]


@dataclass(frozen=True, slots=True)
class Gesture:
    """A pointer or keyboard action in model coordinates.

    Attributes:
        kind: One of :data:`GestureKind` (the kinds of
            :class:`reefbench.environments.pointer.PointerOp`).
        at: Where (``None``: where the pointer is, for ``scroll``, ``drag`` and keys).
        to: The end point of a ``drag`` (a swipe on a touch screen).
        text: What ``type`` writes.
        keys: What ``key`` presses together, as the model wrote them.
        direction: ``up``, ``down``, ``left`` or ``right`` for ``scroll``.
        amount: Wheel steps of a ``scroll`` (``None``: the device's default).
    """

    kind: GestureKind
    at: Point | None = None
    to: Point | None = None
    text: str = ""
    keys: tuple[str, ...] = ()
    direction: str = ""
    amount: int | None = None


@dataclass(frozen=True, slots=True)
class Control:
    """An action for the agent or the episode rather than a device.

    ``switch`` names the device the next screenshots come from (``text``); ``finish``
    ends the task (``text`` is the answer, if any); ``infeasible`` ends it saying that it
    cannot be done here (``text`` is why); ``wait`` lets a step pass; ``call_user`` asks
    the user for ``text``.
    """

    kind: ControlKind
    text: str = ""


ModelAction = Gesture | Control


@dataclass(slots=True)
class Parsed:
    """A reply: the model's reasoning, its actions in order, and why a part could not be
    read (``error``; the actions before it are kept but not played)."""

    thought: str = ""
    actions: list[ModelAction] = field(default_factory=list)
    error: str | None = None


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def point_of(value: object) -> Point:
    """A point from any of the ways grounding models write one: ``(x,y)``, ``[x, y]``,
    ``<|box_start|>(x,y)<|box_end|>``, ``<point>x y</point>``, or a box of four numbers
    (``(x1,y1,x2,y2)``, ``<bbox>x1 y1 x2 y2</bbox>``), whose centre is taken.

    Raises:
        ValueError: with a one-line reason, for anything else.
    """
    if isinstance(value, list | tuple):
        numbers = [float(v) for v in value if isinstance(v, int | float)]
        if len(numbers) != len(value):
            raise ValueError(f"coordinates {value!r} are not all numbers")
    elif isinstance(value, str):
        numbers = [float(n) for n in _NUMBER.findall(value)]
    else:
        raise ValueError(f"{value!r} is not a point")
    if len(numbers) == 2:
        return numbers[0], numbers[1]
    if len(numbers) == 4:
        return (numbers[0] + numbers[2]) / 2, (numbers[1] + numbers[3]) / 2
    raise ValueError(f"{value!r} is neither a point (x, y) nor a box (x1, y1, x2, y2)")


def split_keys(value: str) -> tuple[str, ...]:
    """``'ctrl s'``, ``'ctrl+s'`` or ``'ctrl-s'`` -> ``('ctrl', 's')``, each key as written
    (the device's call maps names such as ``esc`` or ``pagedown`` to its own)."""
    parts = re.split(r"[\s+]+", value.strip())
    if len(parts) == 1 and "-" in parts[0] and len(parts[0]) > 1:
        parts = parts[0].split("-")
    keys = tuple(p for p in parts if p)
    if not keys:
        raise ValueError("no key given")
    return keys
