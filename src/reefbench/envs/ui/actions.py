"""CRAB's Android action set, shared by the phone (Chromium) and real Android (ADB).

Docstrings are what models read. Elements are the numbers drawn on the latest screenshot;
every action returns after the screen has settled, so the next observation shows its
effect.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from reefbench.actions.spec import Action, action
from reefbench.environments.grounding import ground
from reefbench.envs.ui.device import TouchEnvironment

Direction = Literal["up", "down", "left", "right"]
Coordinate = Annotated[int, Field(ge=0, le=10000)]
Distance = Literal["short", "medium", "long"]
Key = Literal["home", "back"]

# Swipe lengths in tenths of the screen width, as CRAB's Android actions use them;
# vertical swipes go twice as far because phone screens are tall.
_UNITS = {"short": 1, "medium": 2, "long": 3}


def _say(mark: Any) -> str:
    return f'[{mark.id}] {mark.role} "{mark.name}"'


@action
def tap(elem: int, env: TouchEnvironment) -> str:
    """Tap an element on the phone screen, e.g. tap(5) taps the element numbered 5.

    Args:
        elem: The number of the element in the latest screenshot.
    """
    return _tap(env, elem)


def _tap(env: TouchEnvironment, elem: int) -> str:
    mark, _ = env.target(elem)
    env.tap_at(*mark.center)
    return f"tapped {_say(mark)}"


@action
def tap_on(name: str, env: TouchEnvironment, role: str = "") -> str:
    """Tap the element with this label (or resource id) on the phone screen.

    Args:
        name: The element's label as the element list shows it, or its resource id (case
            and spacing do not matter; if no label is equal, the first one containing it
            is tapped).
        role: Its class as the element list shows it (empty: any class).
    """
    return _tap(env, ground(env, name, role))


@action
def long_tap(elem: int, env: TouchEnvironment) -> str:
    """Press and hold an element for about a second, usually to open a menu of options
    for it (e.g. an app icon's menu).

    Args:
        elem: The number of the element in the latest screenshot.
    """
    mark, _ = env.target(elem)
    env.long_tap_at(*mark.center)
    return f"long-tapped {_say(mark)}"


@action
def swipe(elem: int, direction: Direction, distance: Distance, env: TouchEnvironment) -> str:
    """Swipe starting on an element, usually a scrollable list or a slider. The finger
    moves in `direction`: swipe up to see what is further down a list, swipe down to go
    back up. Example: swipe(21, "up", "medium").

    Args:
        elem: The number of the element to start on.
        direction: Which way the finger moves: "up", "down", "left" or "right".
        distance: How far: "short", "medium" or "long".
    """
    mark, _ = env.target(elem)
    width, height = env.screen_size()
    unit = width // 10 * _UNITS[distance]
    dx, dy = {
        "up": (0, -2 * unit),
        "down": (0, 2 * unit),
        "left": (-unit, 0),
        "right": (unit, 0),
    }[direction]
    x, y = mark.center
    x2 = min(max(x + dx, 0), width - 1)
    y2 = min(max(y + dy, 0), height - 1)
    env.swipe_at(x, y, x2, y2)
    return f"swiped {direction} ({distance}) from {_say(mark)}"


@action
def tap_at(x: Coordinate, y: Coordinate, env: TouchEnvironment) -> str:
    """Tap a point of the phone screenshot (use when no numbered box covers the target).

    Args:
        x: Pixels from the left edge of the phone's screenshot as sent to you, not the
            phone's own resolution: 412 wide on the default phone (a phone set up with
            another screen or screenshot size differs; a real Android device's is 540).
        y: Pixels from the top edge of the phone's screenshot as sent to you: 915 high on
            the default phone (likewise; a real Android device's keeps its screen's shape).
    """
    env.tap_at(*env.from_screenshot(x, y))
    return f"tapped at ({x}, {y})"


@action
def long_tap_at(x: Coordinate, y: Coordinate, env: TouchEnvironment) -> str:
    """Press and hold a point of the phone screenshot for about a second.

    Args:
        x: Pixels from the left edge of the phone's screenshot as sent to you, not the
            phone's own resolution: 412 wide on the default phone (a phone set up with
            another screen or screenshot size differs; a real Android device's is 540).
        y: Pixels from the top edge of the phone's screenshot as sent to you: 915 high on
            the default phone (likewise; a real Android device's keeps its screen's shape).
    """
    env.long_tap_at(*env.from_screenshot(x, y))
    return f"long-tapped at ({x}, {y})"


@action
def swipe_from(
    x: Coordinate, y: Coordinate, to_x: Coordinate, to_y: Coordinate, env: TouchEnvironment
) -> str:
    """Move a finger across the screen from one point of the screenshot to another: up
    to see what is further down a list, sideways for pages and sliders.

    Args:
        x: Start point: pixels from the left edge of the phone's screenshot as sent to
            you, not the phone's own resolution: 412 wide on the default phone (a phone
            set up with another screen or screenshot size differs; a real Android
            device's is 540).
        y: Start point: pixels from the top edge of the phone's screenshot as sent to
            you: 915 high on the default phone (likewise; a real Android device's keeps
            its screen's shape).
        to_x: End point: pixels from the left edge of the phone's screenshot (412 wide on
            the default phone, as for x); moved onto the screen's edge if beyond it.
        to_y: End point: pixels from the top edge of the phone's screenshot (915 high on
            the default phone, as for y); moved onto the screen's edge if beyond it.
    """
    start, end = env.from_screenshot(x, y), env.from_screenshot(to_x, to_y, clamp=True)
    env.swipe_at(*start, *end)
    return f"swiped from ({x}, {y}) to ({to_x}, {to_y})"


@action
def clear_text(env: TouchEnvironment) -> str:
    """Delete all the text of the focused text field (tap the field first); write_text
    only adds to what a field holds."""
    env.clear_field()
    return "cleared the field"


@action
def write_text(text: Annotated[str, Field(max_length=5000)], env: TouchEnvironment) -> str:
    """Type text into the focused text field (tap the field first). The text arrives
    exactly as given; a newline presses Enter.

    Args:
        text: The text to type.
    """
    env.input_text(text)
    return f"typed {len(text)} characters"


@action
def press(key: Key, env: TouchEnvironment) -> str:
    """Press a navigation button: "home" goes to the home screen, "back" returns to the
    previous screen (or closes the app, a menu or the keyboard).

    Args:
        key: "home" or "back".
    """
    env.press_key(key)
    return f"pressed {key}"


@action
def show_all_drawer(env: TouchEnvironment) -> str:
    """Show the app drawer: the list of every app installed on the phone. Use it to find
    an app that is not on the home screen, then tap the app to open it."""
    env.open_drawer()
    return "opened the app drawer"


# -------------------------------------------------------------- observations
@action
def screenshot(env: TouchEnvironment) -> bytes:
    """The phone screen as PNG, with a numbered box on every element you can act on."""
    snapshot = env.snapshot or env.observe_now()
    return snapshot.marked_png(env.screenshot_width)


@action(name="screenshot")
def plain_screenshot(env: TouchEnvironment) -> bytes:
    """The phone screen as PNG, as a person sees it (no boxes or numbers drawn on it)."""
    snapshot = env.snapshot or env.observe_now()
    return snapshot.plain_png(env.screenshot_width)


@action
def elements(env: TouchEnvironment) -> str:
    """The numbered elements of the screenshot, one '[id] class "label"' per line."""
    snapshot = env.snapshot or env.observe_now()
    package = env.current_package()
    header = f"Foreground app: {package}\n" if package else ""
    return header + snapshot.marks.marks.text()


@action
def ui_tree(env: TouchEnvironment) -> str:
    """The screen's UI hierarchy as Android uiautomator XML."""
    snapshot = env.snapshot or env.observe_now()
    return snapshot.xml


TOUCH_ACTIONS = [
    tap,
    long_tap,
    swipe,
    tap_at,
    long_tap_at,
    swipe_from,
    write_text,
    clear_text,
    press,
    show_all_drawer,
]
OBSERVATIONS = [screenshot, elements]
# What each action set adds (reefbench.actions.sets); ``marks`` is the space above.
ACTION_SET_ACTIONS = {"a11y": [tap_on]}
# What each set leaves out: ``pixels`` has no element ids (the coordinate taps and swipes
# of TOUCH_ACTIONS stay).
ACTION_SET_REMOVES = {"pixels": ["tap", "long_tap", "swipe", "tap_on"]}
# The observations that replace the touch observations under a set: ``pixels`` sees the
# bare screen (no element list, no UI dump).
ACTION_SET_OBSERVATIONS = {"pixels": [plain_screenshot]}


def touch_observations(observe_xml: bool = False) -> list[Action]:
    """The observation space of a touch device; ``observe_xml`` adds the raw dump."""
    return [*OBSERVATIONS, ui_tree] if observe_xml else list(OBSERVATIONS)
