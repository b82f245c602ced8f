"""UI-TARS output: ``Thought: ...`` then ``Action: click(start_box='(x1,y1)')``.

The action part is a Python call (UI-TARS's own parser reads it with :mod:`ast` too), one
per line. Points come in every spelling UI-TARS versions use (``start_box='<|box_start|>
(x1,y1)<|box_end|>'``, ``point='<point>x y</point>'``, four-number boxes); whether they
are 0..1000 or pixels of the image is the profile's business, not the parser's.

Recognised (UI-TARS computer and mobile grammars, plus reefbench's ``switch``,
``clear`` and ``hover``): ``click``, ``left_single``, ``left_double``, ``right_single``,
``long_press``, ``hover``/``mouse_move``, ``drag``/``select``/``swipe``, ``scroll``,
``hotkey``/``press``, ``type``, ``press_home``, ``press_back``, ``clear``, ``wait``,
``finished``, ``call_user``, ``switch``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Collection, Mapping, Sequence

from reefbench.agents.grounding_models.parsed import (
    Control,
    Gesture,
    ModelAction,
    Parsed,
    point_of,
    split_keys,
)

_THOUGHT = re.compile(
    r"(?:Thought|Reflection|Action_Summary)\s*:\s*(.*?)(?=\n\s*Action\s*:|\Z)", re.S
)
_ACTION = re.compile(r"\bAction\s*:\s*(.*)\Z", re.S)
_POINT_ARGS = ("start_box", "point", "start_point", "box")
_END_ARGS = ("end_box", "end_point")
_DIRECTIONS = ("up", "down", "left", "right")

Arguments = Mapping[str, object]


def parse_uitars(text: str) -> Parsed:
    """Read one UI-TARS reply (see the module docstring); never raises."""
    thought = _THOUGHT.search(text)
    parsed = Parsed(thought=thought.group(1).strip() if thought else "")
    found = _ACTION.search(text)
    if found is None:
        parsed.error = "the reply has no 'Action:' line (write 'Action: click(start_box=...)')"
        return parsed
    block = found.group(1).strip()
    lines = [line.strip() for line in block.splitlines() if line.strip()]
    if not lines:
        parsed.error = "'Action:' is empty"
        return parsed
    for line in lines:
        try:
            parsed.actions.append(_action(line))
        except ValueError as exc:
            parsed.error = f"cannot read action {_clip(line)}: {exc}"
            return parsed
    return parsed


def _action(line: str) -> ModelAction:
    name, arguments = _call(line)
    handler = _HANDLERS.get(name)
    if handler is None:
        raise ValueError(f"unknown action {name!r}; use one of {', '.join(sorted(_HANDLERS))}")
    return handler(arguments)


def _call(line: str) -> tuple[str, dict[str, object]]:
    """``name(key='value', ...)`` as a name and keyword arguments (string values)."""
    try:
        tree = ast.parse(line, mode="eval").body
    except SyntaxError:
        return _loose_call(line)
    if not isinstance(tree, ast.Call) or not isinstance(tree.func, ast.Name):
        raise ValueError("not a call like click(start_box='(x,y)')")
    if tree.args:
        raise ValueError("give arguments by name, e.g. click(start_box='(100,200)')")
    arguments: dict[str, object] = {}
    for keyword in tree.keywords:
        if keyword.arg is None:
            raise ValueError("**arguments are not allowed")
        try:
            arguments[keyword.arg] = ast.literal_eval(keyword.value)
        except ValueError:
            raise ValueError(f"argument {keyword.arg} is not a literal") from None
    return tree.func.id, arguments


_LOOSE = re.compile(r"^(?P<name>\w+)\((?P<key>\w+)=(?P<q>['\"])(?P<value>.*)(?P=q)\)$", re.S)


def _loose_call(line: str) -> tuple[str, dict[str, object]]:
    """One quoted argument holding unescaped quotes (``type(content='it's')``), which UI-TARS
    writes often enough that its own parser special-cases ``content`` too."""
    match = _LOOSE.match(line)
    if match is None:
        raise ValueError("not a call like click(start_box='(x,y)')")
    value = match["value"].replace("\\n", "\n").replace("\\'", "'").replace('\\"', '"')
    return match["name"], {match["key"]: value}


def _clip(text: str, limit: int = 120) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _text(arguments: Arguments, *names: str, required: bool = True) -> str:
    for name in names:
        value = arguments.get(name)
        if value is not None:
            return str(value)
    if required:
        raise ValueError(f"missing {names[0]}=")
    return ""


def _point(
    arguments: Arguments, names: tuple[str, ...], required: bool = True
) -> tuple[float, float] | None:
    for name in names:
        if arguments.get(name) is not None:
            return point_of(arguments[name])
    if required:
        raise ValueError(f"missing {names[0]}=")
    return None


def _at(kind: str) -> Callable[[Arguments], ModelAction]:
    def read(arguments: Arguments) -> ModelAction:
        return Gesture(kind, at=_point(arguments, _POINT_ARGS))  # type: ignore[arg-type]

    return read


def _drag(arguments: Arguments) -> ModelAction:
    return Gesture("drag", at=_point(arguments, _POINT_ARGS), to=_point(arguments, _END_ARGS))


def _scroll(arguments: Arguments) -> ModelAction:
    direction = _text(arguments, "direction").strip().lower()
    if direction not in _DIRECTIONS:
        raise ValueError(f"direction {direction!r}: use up, down, left or right")
    return Gesture("scroll", at=_point(arguments, _POINT_ARGS, required=False), direction=direction)


def _hotkey(arguments: Arguments) -> ModelAction:
    return Gesture("key", keys=split_keys(_text(arguments, "key", "hotkey", "keys")))


def _type(arguments: Arguments) -> ModelAction:
    return Gesture("type", text=_text(arguments, "content", "text"))


def _press(key: str) -> Callable[[Arguments], ModelAction]:
    def read(arguments: Arguments) -> ModelAction:
        return Gesture("key", keys=(key,))

    return read


def _clear(arguments: Arguments) -> ModelAction:
    return Gesture("clear")


def _control(kind: str, *names: str) -> Callable[[Arguments], ModelAction]:
    def read(arguments: Arguments) -> ModelAction:
        text = _text(arguments, *names, required=False) if names else ""
        return Control(kind, text)  # type: ignore[arg-type]

    return read


def _switch(arguments: Arguments) -> ModelAction:
    return Control("switch", _text(arguments, "device", "name").strip())


_HANDLERS: dict[str, Callable[[Arguments], ModelAction]] = {
    "click": _at("click"),
    "left_single": _at("click"),
    "left_double": _at("double_click"),
    "double_click": _at("double_click"),
    "right_single": _at("right_click"),
    "right_click": _at("right_click"),
    "long_press": _at("long_press"),
    "hover": _at("move"),
    "mouse_move": _at("move"),
    "drag": _drag,
    "select": _drag,
    "swipe": _drag,
    "scroll": _scroll,
    "hotkey": _hotkey,
    "press": _hotkey,
    "type": _type,
    "press_home": _press("home"),
    "press_back": _press("back"),
    "clear": _clear,
    "wait": _control("wait"),
    "finished": _control("finish", "content", "answer"),
    "infeasible": _control("infeasible", "content", "reason"),
    "call_user": _control("call_user", "content", "kind"),
    "switch": _switch,
}


_BOX = "'<|box_start|>(x1,y1)<|box_end|>'"
_END = "'<|box_start|>(x3,y3)<|box_end|>'"


def action_space(kinds: Collection[str], devices: Sequence[str]) -> str:
    """The ``## Action Space`` lines for the devices of a task (``kinds`` are their
    pointer kinds: ``desktop``, ``browser``, ``touch``), in UI-TARS's own wording."""
    lines = [f"click(start_box={_BOX})"]
    keyboard = {"desktop", "browser"} & set(kinds)
    if "desktop" in kinds:  # a browser page and a touch screen only click
        lines += [
            f"left_double(start_box={_BOX})",
            f"right_single(start_box={_BOX})",
            f"hover(start_box={_BOX})",
        ]
    if "touch" in kinds:
        lines += [f"long_press(start_box={_BOX})"]
    if "desktop" in kinds or "touch" in kinds:
        lines += [f"drag(start_box={_BOX}, end_box={_END})  # a swipe on a touch screen"]
    if keyboard:
        lines += [
            "hotkey(key='ctrl c')  # Split keys with a space and use lowercase. "
            "Do not use more than 3 keys in one hotkey action."
        ]
    lines += [
        "type(content='xxx')  # Use escape characters \\', \\\" and \\n in content. "
        "If you want to submit your input, use \\n at the end of content.",
        f"scroll(start_box={_BOX}, direction='down or up or right or left')",
    ]
    if "touch" in kinds:
        lines += [
            "press_home()",
            "press_back()",
            "clear()  # delete all text of the focused field",
        ]
    lines += [
        "wait()  # Sleep for a step and take a screenshot to check for any changes.",
        "finished(content='xxx')  # The task is done; content is the answer if it asks for one.",
        "infeasible(content='xxx')  # What the task asks for does not exist or cannot be "
        "done here (checked first); content says why.",
        "call_user(content='xxx')  # Ask the user for information only they have "
        "(e.g. 'password').",
    ]
    if len(devices) > 1:
        lines += [
            f"switch(device='{devices[1]}')  # Look at and act on another device (one of: "
            f"{', '.join(devices)}); the next screenshot is that device's."
        ]
    return "\n".join(lines)
