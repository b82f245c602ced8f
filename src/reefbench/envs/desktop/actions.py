"""The desktop's action space (CRAB's Ubuntu actions + OS-MAP's computer_13 coordinates).

Docstrings are the prompts models read. Element ids (``elem``) come from the numbered
boxes of the latest observation; coordinates are pixels of the screenshot the agent sees.
Every action waits until the screen is stable before it returns.
"""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any, Literal
from weakref import WeakKeyDictionary

from pydantic import Field

from reefbench.actions.spec import action
from reefbench.environments.grounding import ground
from reefbench.envs.desktop.apps import APPS, LAUNCHER, AppSpec, apps_text
from reefbench.envs.desktop.device import DesktopDevice
from reefbench.envs.desktop.observation import Snapshot, only_the_clock_changed
from reefbench.envs.desktop.x11 import XWindow
from reefbench.errors import ActionFailed, InvalidAction
from reefbench.plumbing.waiting import wait_until

Button = Literal["left", "middle", "right"]
_BUTTONS = {"left": 1, "middle": 2, "right": 3}
Coordinate = Annotated[int, Field(ge=0, le=10000)]


def _describe(mark: Any) -> str:
    return f'[{mark.id}] {mark.role} "{mark.name}"'


def target(mark: Any) -> tuple[int, int]:
    """Where a click on ``mark`` lands: its centre, except on a GTK spin button, whose
    centre is often its "-" button (the field's text, then "-" and "+", each about as wide
    as the box is tall): a click there changed the number instead of focusing the field,
    so it lands on the middle of the text part."""
    x, y = mark.center
    if mark.role == "spin button":
        bx, _, w, h = mark.box
        text_width = w - 2 * h
        if text_width >= 24:
            x = bx + text_width // 2
    return x, y


def _click_elem(env: DesktopDevice, elem: int, button: int, repeat: int, verb: str) -> str:
    mark = env.mark(elem)
    x, y = target(mark)
    single_left = (x, y) if (button, repeat) == (1, 1) else None
    env.act(lambda: env.input.click(x, y, button=button, repeat=repeat), click=single_left)
    env.record(verb, role=mark.role, name=mark.name, elem=elem)
    return f"{verb} {_describe(mark)}"


# ------------------------------------------------------------------ elements
@action
def click(elem: int, env: DesktopDevice) -> str:
    """Click an element with the left mouse button.

    Args:
        elem: Number of the element's box in the latest screenshot.
    """
    return _click_elem(env, elem, 1, 1, "clicked")


@action
def right_click(elem: int, env: DesktopDevice) -> str:
    """Right-click an element (usually opens its context menu).

    Args:
        elem: Number of the element's box in the latest screenshot.
    """
    return _click_elem(env, elem, 3, 1, "right-clicked")


@action
def double_click(elem: int, env: DesktopDevice) -> str:
    """Double-click an element (e.g. open a file or folder in the file manager).

    Args:
        elem: Number of the element's box in the latest screenshot.
    """
    return _click_elem(env, elem, 1, 2, "double-clicked")


@action
def click_on(name: str, env: DesktopDevice, role: str = "") -> str:
    """Click the element with this accessible name (and role, if given) on the screen.

    Args:
        name: The element's name as the element list shows it (case and spacing do not
            matter; if no name is equal, the first one containing it is clicked).
        role: Its role as the element list shows it (empty: any role).
    """
    return _click_elem(env, ground(env, name, role), 1, 1, "clicked")


# ------------------------------------------------------------------ keyboard
@action
def write_text(text: Annotated[str, Field(max_length=10000)], env: DesktopDevice) -> str:
    """Type text with the keyboard into the focused element, exactly as given.

    A newline in the text presses Enter. Click the target field first if it is not
    focused.

    Args:
        text: The characters to type.
    """
    env.act(lambda: env.input.type_text(text), enter=text.rstrip(" ").endswith("\n"))
    env.record("typed", text=text)
    return f"typed {len(text)} characters"


@action
def press(key: str, env: DesktopDevice) -> str:
    """Press and release one key.

    Args:
        key: Key name such as "enter", "esc", "tab", "backspace", "delete", "up", "down",
            "left", "right", "home", "end", "pageup", "pagedown", "F5" or a single character.
    """
    env.act(lambda: env.input.press([key]), enter=_is_enter(key))
    env.record("pressed", keys=[key])
    return f"pressed {key}"


@action
def hotkey(
    keys: Annotated[list[str], Field(min_length=1, max_length=5)], env: DesktopDevice
) -> str:
    """Press a key combination: hold the keys down in order, then release them.

    Args:
        keys: Keys of the combination, e.g. ["ctrl", "s"] to save or ["ctrl", "shift", "t"].
    """
    env.act(lambda: env.input.press(keys), enter=len(keys) == 1 and _is_enter(keys[0]))
    env.record("pressed", keys=list(keys))
    return "pressed " + "+".join(keys)


def _is_enter(key: str) -> bool:
    return key.strip().lower() in ("enter", "return")


@action
def key_down(key: str, env: DesktopDevice) -> str:
    """Hold a key down until key_up is called (e.g. hold "shift" while clicking).

    Args:
        key: Key name, e.g. "shift", "ctrl", "alt" or a single character.
    """
    env.act(lambda: env.input.key(key, down=True))
    return f"holding {key}"


@action
def key_up(key: str, env: DesktopDevice) -> str:
    """Release a key held down with key_down.

    Args:
        key: Key name, as given to key_down.
    """
    env.act(lambda: env.input.key(key, down=False))
    return f"released {key}"


# --------------------------------------------------------------------- mouse
@action
def scroll(
    direction: Literal["up", "down", "left", "right"],
    amount: Annotated[int, Field(ge=1, le=50)] = 3,
    elem: int | None = None,
    *,
    env: DesktopDevice,
) -> str:
    """Scroll with the mouse wheel, over an element or wherever the pointer is.

    Args:
        direction: "up", "down", "left" or "right".
        amount: Number of wheel steps (about three lines of text each).
        elem: Element to scroll over; omit to scroll where the mouse pointer is.
    """
    at = env.mark(elem).center if elem is not None else None
    env.act(lambda: env.input.scroll(direction, amount, at))
    return f"scrolled {direction} {amount}"


@action(name="scroll")
def scroll_at(
    direction: Literal["up", "down", "left", "right"],
    amount: Annotated[int, Field(ge=1, le=50)] = 3,
    x: Coordinate | None = None,
    y: Coordinate | None = None,
    *,
    env: DesktopDevice,
) -> str:
    """Scroll with the mouse wheel, over a point of the screenshot or wherever the pointer is.

    Args:
        direction: "up", "down", "left" or "right".
        amount: Number of wheel steps (about three lines of text each).
        x: Pixels from the left edge of the desktop's screenshot (1280 wide unless the
            desktop's description says otherwise) of the point to scroll
            over (give y too); omit both to scroll where the mouse pointer is.
        y: Pixels from the top edge of the desktop's screenshot (800 high unless the
            desktop's description says otherwise) of that point.
    """
    # The pixels set's scroll: the same tool name as the element version, so an agent
    # (or a computer-use adapter) scrolls the same way under every set.
    if (x is None) != (y is None):
        raise InvalidAction("scroll needs both x and y, or neither")
    at = env.to_screen(x, y) if x is not None and y is not None else None
    env.act(lambda: env.input.scroll(direction, amount, at))
    return f"scrolled {direction} {amount}" + (f" at ({x}, {y})" if at else "")


@action
def click_at(
    x: Coordinate,
    y: Coordinate,
    button: Button = "left",
    clicks: int = 1,
    *,
    env: DesktopDevice,
) -> str:
    """Click at a point of the screenshot (use when no numbered box covers the target).

    Args:
        x: Pixels from the left edge of the desktop's screenshot (1280 wide unless the
            desktop's description says otherwise).
        y: Pixels from the top edge of the desktop's screenshot (800 high unless the
            desktop's description says otherwise).
        button: "left", "middle" or "right".
        clicks: 1 for a click, 2 for a double-click.
    """
    sx, sy = env.to_screen(x, y)
    repeat = 2 if clicks >= 2 else 1
    single_left = (sx, sy) if (button, repeat) == ("left", 1) else None
    env.act(
        lambda: env.input.click(sx, sy, button=_BUTTONS[button], repeat=repeat),
        click=single_left,
    )
    env.record("clicked_at", x=x, y=y, button=button)
    return f"clicked at ({x}, {y})"


@action
def move_to(x: Coordinate, y: Coordinate, env: DesktopDevice) -> str:
    """Move the mouse pointer to a point of the screenshot (e.g. to hover a tooltip).

    Args:
        x: Pixels from the left edge of the desktop's screenshot (1280 wide unless the
            desktop's description says otherwise).
        y: Pixels from the top edge of the desktop's screenshot (800 high unless the
            desktop's description says otherwise).
    """
    sx, sy = env.to_screen(x, y)
    env.act(lambda: env.input.move(sx, sy))
    return f"moved to ({x}, {y})"


@action
def drag(
    from_x: Coordinate, from_y: Coordinate, to_x: Coordinate, to_y: Coordinate, env: DesktopDevice
) -> str:
    """Drag with the left button held from one point of the screenshot to another.

    Args:
        from_x: Start point: pixels from the left edge of the desktop's screenshot (1280 wide
            unless the desktop's description says otherwise).
        from_y: Start point: pixels from the top edge of the desktop's screenshot (800 high
            unless the desktop's description says otherwise).
        to_x: End point: pixels from the left edge of the desktop's screenshot (1280 wide
            unless the desktop's description says otherwise).
        to_y: End point: pixels from the top edge of the desktop's screenshot (800 high
            unless the desktop's description says otherwise).
    """
    start, end = env.to_screen(from_x, from_y), env.to_screen(to_x, to_y)
    env.act(lambda: env.input.drag(start, end))
    return f"dragged from ({from_x}, {from_y}) to ({to_x}, {to_y})"


@action
def mouse_down(button: Button = "left", *, env: DesktopDevice) -> str:
    """Press a mouse button and keep it held at the pointer's position (see mouse_up).

    Args:
        button: "left", "middle" or "right".
    """
    env.act(lambda: env.input.button(True, _BUTTONS[button]))
    return f"holding the {button} button"


@action
def mouse_up(button: Button = "left", *, env: DesktopDevice) -> str:
    """Release a mouse button held with mouse_down.

    Args:
        button: "left", "middle" or "right".
    """
    # Releasing the left button over a dialog's default button activates it, as a click.
    at = env.input.pointer() if button == "left" else None
    env.act(lambda: env.input.button(False, _BUTTONS[button]), click=at)
    return f"released the {button} button"


# ---------------------------------------------------------------------- apps
# The list comes from the one table of the desktop's apps, as the desktop's description.
_SEARCH_APP = (
    f"Search for an application in the launcher by name and open it.\n\nAvailable: {apps_text()}."
)


@action(description=_SEARCH_APP)
def search_app(name: str, env: DesktopDevice) -> str:
    """Search for an application in the launcher by name and open it (the description
    models read lists the apps of :data:`~reefbench.envs.desktop.apps.APPS`).

    Args:
        name: The name of one of the applications above, or a word describing it.
    """
    query = name.strip()
    if not query:
        raise ActionFailed("search_app needs a name, e.g. 'terminal'")
    launcher = [
        *LAUNCHER,
        "-drun-match-fields",
        "name,generic,keywords",
        "-sort",
        "-sorting-method",
        "fzf",
        "-filter",
        query,
    ]
    # Three attempts: a single-instance app (the text editor, the file manager) that is
    # still exiting from an earlier use (its window may not even have closed yet) answers
    # a launch with a window it is about to close, or with none. Waiting for it to be gone
    # returns as soon as it is; the deadline only matters on a heavily loaded machine.
    window = None
    for _attempt in range(3):
        _wait_for_exiting_apps(env, within=15.0)
        before = env.window_keys()
        instances = _app_instances(env)
        frame = env.screen.grab()
        pid = env.session.spawn(launcher, name="launcher")
        # The launcher is up (and has grabbed the keyboard) once it has drawn and settled;
        # then Enter opens the best match.
        if not wait_until(partial(_screen_changed, env, frame.raw), 10.0):
            env.session.kill(pid)
            raise ActionFailed("the application launcher did not appear; try again")
        env.settle()
        env.input.press(["enter"])
        env.settle()
        # With a match the launcher exits and the app's window appears; with none the
        # launcher stays open. One deadline covers both signs, since on a loaded machine
        # either can take seconds; a launcher still open at the deadline means no match.
        outcome = wait_until(partial(_window_or_gone, env, before, {pid}), 10.0, interval=0.05)
        launcher_gone = outcome is not None
        window = outcome if isinstance(outcome, XWindow) else None
        if launcher_gone and window is None:
            # An app told to quit a moment ago may still show its window (so it did not
            # count as exiting) and take the launch with it as it exits: no window comes.
            # Its exit says so at once; the next attempt waits for it to be gone.
            found = wait_until(partial(_window_or_gone, env, before, instances), 10.0)
            window = found if isinstance(found, XWindow) else None
        if window is not None or not launcher_gone:
            break
    if window is None:
        env.session.kill(pid)
        env.settle()
        titles = ", ".join(a.title for a in APPS.values() if a.available())
        raise ActionFailed(f"no application matches {name!r} (available: {titles})")
    # What is typed next must reach the app: on a loaded machine the window manager maps
    # a window well before it gives it the focus, and keys typed in between are lost.
    wait_until(partial(_has_focus, env, window), 5.0, interval=0.02)
    spec = _spec_of(window)
    if spec is None:
        # LibreOffice maps its window under a generic class and title first, and names
        # it after the app once it knows which document it opens.
        window = wait_until(partial(_known_window, env, window.id), 10.0) or window
        spec = _spec_of(window)
    if spec is not None and spec.ready_title:
        window = wait_until(partial(_ready, env, window.id, spec.ready_title), 30.0) or window
        # Then it lays out toolbars and sidebar for seconds, and keys pressed before its
        # document has the keyboard focus are lost: wait until the accessibility tree
        # shows a focused element in the window (one query takes a second or more).
        wait_until(partial(_focused_inside, env, window.title), 30.0, interval=0.2)
    if spec is not None and spec.ready_element:
        wait_until(partial(_lists_element, env, spec.ready_element), 30.0, interval=0.2)
    env.settle()
    env.record("opened_app", app=spec.name if spec else window.wm_class, query=query)
    return f"opened {window.title or window.wm_class}"


def _has_focus(env: DesktopDevice, window: XWindow) -> bool:
    active = env.x11.active()
    return active is not None and (active.id, active.pid) == (window.id, window.pid)


def _spec_of(window: XWindow) -> AppSpec | None:
    return next((a for a in APPS.values() if a.wm_class == window.wm_class), None)


def _known_window(env: DesktopDevice, window_id: int) -> XWindow | None:
    """The window once it carries the class of one of the desktop's apps."""
    return next(
        (w for w in env.x11.stacking() if w.id == window_id and _spec_of(w) is not None), None
    )


def _ready(env: DesktopDevice, window_id: int, words: str) -> XWindow | None:
    """The window once its title shows the app is ready (see ``AppSpec.ready_title``) and
    it has drawn its contents (LibreOffice names the document while its window is still
    an unpainted black rectangle, and keys pressed then are lost)."""
    window = next((w for w in env.x11.stacking() if w.id == window_id), None)
    if window is None or words not in window.title:
        return None
    # The middle of the window (away from the title bar the window manager draws).
    x, y, width, height = window.box
    middle = (x, y + height // 3, x + width, y + 2 * height // 3)
    low, high = env.screen.grab().image().convert("L").crop(middle).getextrema()
    return window if high != low else None


def _lists_element(env: DesktopDevice, name: str) -> bool:
    """The active window lists an element called ``name`` (the app has laid it out)."""
    return any(
        node.name == name
        for window in env.reader.windows()
        if window.active
        for node in window.nodes
    )


def _focused_inside(env: DesktopDevice, title: str) -> bool:
    """The window titled ``title`` has an element with the keyboard focus."""
    return any(
        "focused" in node.states
        for window in env.reader.windows()
        if window.title == title
        for node in window.nodes
    )


def _screen_changed(env: DesktopDevice, raw: bytes) -> bool:
    return env.screen.grab().raw != raw


def _window_or_gone(
    env: DesktopDevice, before: set[tuple[int, int]], pids: set[int]
) -> XWindow | bool:
    """A new window (not in ``before``), else ``True`` once any of ``pids`` has exited
    (the launcher; or an app instance that took the launch with it), else ``False``."""
    window = env.new_window(before)
    if window is not None:
        return window
    return not pids <= {int(p["pid"]) for p in env.session.processes()}


def _app_instances(env: DesktopDevice) -> set[int]:
    """Sandbox pids of the running apps' main processes (not an app run inside a terminal)."""
    names = {a.process for a in APPS.values() if not a.terminal}
    return {int(p["pid"]) for p in env.session.processes() if p["comm"] in names}


def _wait_for_exiting_apps(desk: DesktopDevice, within: float) -> bool:
    """Wait (up to ``within`` seconds) until no app is on its way out; say whether that
    happened.

    An app whose last window just closed is on its way out; launching it again in that
    moment hands the request to the dying instance and no window appears.
    """
    return bool(wait_until(lambda: not desk.exiting_apps(), within, interval=0.05))


# -------------------------------------------------------------- observations
# The last screenshot each desktop gave, per kind (marked or plain): its snapshot and PNG.
_LAST_SHOT: WeakKeyDictionary[DesktopDevice, dict[bool, tuple[Snapshot, bytes]]] = (
    WeakKeyDictionary()
)


def _shot(env: DesktopDevice, marked: bool) -> bytes:
    """The screenshot, or the very PNG given last time when all that changed since is the
    panel clock's minute: a clock ticking is not the desktop changing, and a new image
    made an observation policy send the desktop again ("changed") each minute. The time
    in the image is then up to the last change behind; the next real change shows it."""
    snapshot = env.snapshot or env.observe_now()
    shots = _LAST_SHOT.setdefault(env, {})
    last = shots.get(marked)
    if last is not None and only_the_clock_changed(last[0], snapshot):
        return last[1]
    png = (
        snapshot.marked_png(env.screenshot_width) if marked else snapshot.png(env.screenshot_width)
    )
    shots[marked] = (snapshot, png)
    return png


@action
def screenshot(env: DesktopDevice) -> bytes:
    """The screen as PNG, with a numbered box on every element you can act on."""
    return _shot(env, marked=True)


@action(name="screenshot")
def plain_screenshot(env: DesktopDevice) -> bytes:
    """The screen as PNG, as a person sees it (no boxes or numbers drawn on it)."""
    return _shot(env, marked=False)


@action
def elements(env: DesktopDevice) -> str:
    """The numbered elements of the screenshot, one '[id] role "name"' per line."""
    snapshot = env.snapshot or env.observe_now()
    active = snapshot.active
    header = f"Focused window: {active.title!r}\n" if active else "No window is focused.\n"
    return header + snapshot.marks.text()


DESKTOP_ACTIONS = [
    click,
    right_click,
    double_click,
    write_text,
    press,
    hotkey,
    scroll,
    search_app,
    click_at,
    move_to,
    drag,
    mouse_down,
    mouse_up,
    key_down,
    key_up,
]
OBSERVATIONS = [screenshot, elements]
# What each action set adds (reefbench.actions.sets); ``marks`` is the space above.
ACTION_SET_ACTIONS = {"a11y": [click_on], "pixels": [scroll_at]}
# What each set leaves out: ``pixels`` has no element ids (``scroll`` comes back with x/y).
ACTION_SET_REMOVES = {"pixels": ["click", "right_click", "double_click", "click_on", "scroll"]}
# The observations that replace OBSERVATIONS under a set: ``pixels`` sees the bare screen.
ACTION_SET_OBSERVATIONS = {"pixels": [plain_screenshot]}
