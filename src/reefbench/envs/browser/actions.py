"""The browser's action space: elements by number, coordinates, navigation and tabs.

Docstrings are the prompts models read. Every action returns after the page has settled,
so the next screenshot shows its effect.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import Field

from reefbench.actions.spec import action
from reefbench.environments.grounding import ground
from reefbench.envs.browser.device import BrowserDevice
from reefbench.envs.browser.settle import SCROLL_COUNT, script, wait_for_scroll
from reefbench.errors import ActionFailed, InvalidAction
from reefbench.plumbing.waiting import wait_until

Coordinate = Annotated[int, Field(ge=0, le=10000)]
_KEY = re.compile(r"^([A-Za-z]+\+){0,3}([A-Za-z0-9]+|F\d{1,2}|[^\sA-Za-z0-9])$")
_SCHEMES = ("http", "https", "about")
# The desktop's and the phone's key names ("enter", "esc", "ctrl"), as Playwright spells them:
# an agent moving between devices in one task wrote "enter" here and lost a step to an
# invalid action (playtest N). Playwright's own names pass as they are.
_KEY_NAMES = {
    "enter": "Enter",
    "return": "Enter",
    "esc": "Escape",
    "escape": "Escape",
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
    "ctrl": "Control",
    "control": "Control",
    "shift": "Shift",
    "alt": "Alt",
    "meta": "Meta",
}


def playwright_key(key: str) -> str:
    """``key`` with each part of a combination spelled as Playwright wants it."""
    return "+".join(_KEY_NAMES.get(part.lower(), part) for part in key.split("+"))


_NOT_WEB = (
    "{url!r} was not opened: this browser opens only http://, https:// and about: "
    "addresses, not files (look at a computer's files with its own apps)"
)

_SELECT_AT = script("select_at.js")


def _say(mark: Any) -> str:
    return f'[{mark.id}] {mark.role} "{mark.name}"'


def _downloaded(env: BrowserDevice, before: int) -> str:
    """What a click or key saved as downloads (a real browser shows them in its download
    bar; the agent reads it in the action's result)."""
    saved = env.saved_downloads[before:]
    return f"; downloaded {', '.join(saved)}" if saved else ""


def _in_viewport(browser: BrowserDevice, x: int, y: int) -> None:
    width, height = browser.viewport["width"], browser.viewport["height"]
    if not (0 <= x < width and 0 <= y < height):
        raise InvalidAction(
            f"point ({x}, {y}) is outside the page (0..{width - 1}, 0..{height - 1})"
        )


@action
def click(elem: int, env: BrowserDevice) -> str:
    """Click an element (a link, button, field, checkbox ...).

    Args:
        elem: The number of the element in the latest screenshot.
    """
    return _click_mark(env, elem)


def _click_mark(env: BrowserDevice, elem: int) -> str:
    mark = env.mark(elem)
    before = len(env.saved_downloads)
    env.page.mouse.click(*mark.center)
    env.settle()
    return f"clicked {_say(mark)}" + _downloaded(env, before)


@action
def click_on(name: str, env: BrowserDevice, role: str = "") -> str:
    """Click the element with this accessible name (and role, if given) on the page.

    Args:
        name: The element's name as the element list shows it (case and spacing do not
            matter; if no name is equal, the first one containing it is clicked).
        role: Its role as the element list shows it (empty: any role).
    """
    return _click_mark(env, ground(env, name, role))


@action
def click_at(x: Coordinate, y: Coordinate, env: BrowserDevice) -> str:
    """Click a point of the page by its pixel coordinates in the screenshot.

    Args:
        x: Pixels from the left edge of the browser's screenshot (1280 wide unless the
            browser's description says otherwise).
        y: Pixels from the top edge of the browser's screenshot (800 high unless the
            browser's description says otherwise).
    """
    _in_viewport(env, x, y)
    before = len(env.saved_downloads)
    env.page.mouse.click(x, y)
    env.settle()
    return f"clicked at ({x}, {y})" + _downloaded(env, before)


# A date or time field's value is ISO, as the element list shows it, but Chromium's field
# takes typed digits in the locale's order (mm/dd/yyyy, a 12-hour time with AM/PM): typing
# the value as listed gave "40613-02-02" (playtest P9). Text in the field's own ISO form is
# set as its value, as picking it from the field's calendar would; anything else is typed.
_ISO_VALUES = {
    "date": r"\d{4}-\d{2}-\d{2}",
    "time": r"\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?",
    "datetime-local": r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?",
    "month": r"\d{4}-\d{2}",
    "week": r"\d{4}-W\d{2}",
}
_FOCUSED_INPUT = """() => {
  let e = document.activeElement;
  while (e && e.tagName === 'IFRAME') {
    try { e = e.contentDocument.activeElement; } catch (err) { return null; }
  }
  return e && e.tagName === 'INPUT' ? e : null;
}"""


def iso_field_value(kind: str, text: str) -> str | None:
    """``text`` as the value of an ``<input type=kind>`` when it is in that type's ISO
    form (``None``: not a date or time field, or not in its form: type it)."""
    pattern = _ISO_VALUES.get(kind)
    value = text.strip()
    return value if pattern is not None and re.fullmatch(pattern, value) else None


def _type(env: BrowserDevice, text: str) -> None:
    """Type ``text`` into the focused field, a date or time field's ISO value set."""
    page = env.page
    body, enter = (text[:-1], True) if text.endswith("\n") else (text, False)
    try:
        field = page.evaluate_handle(_FOCUSED_INPUT).as_element()
        value = None if field is None else iso_field_value(str(field.evaluate("e => e.type")), body)
    except Exception:  # the click that focused it navigated away: no field to look at
        # (a playtest's stale element number clicked a mail's link; the error ended the
        # episode as the environment's crash and the agent got a fresh one)
        field = value = None
    if field is not None and value is not None:
        field.fill(value)
        if enter:
            page.keyboard.press("Enter")
        return
    page.keyboard.type(text)


@action
def write_text(
    text: Annotated[str, Field(max_length=10000)], env: BrowserDevice, elem: int | None = None
) -> str:
    """Type text. With `elem`, click that field first; otherwise type into the focused
    one. A newline presses Enter. A date or time field also takes its value in the form
    the element list shows (2024-06-13, 14:30).

    Args:
        text: The text to type, exactly.
        elem: The number of the field to type into (optional).
    """
    page = env.page
    if elem is not None:
        page.mouse.click(*env.mark(elem).center)
    _type(env, text)
    env.settle()
    return f"typed {len(text)} characters"


@action(name="write_text")
def type_text(text: Annotated[str, Field(max_length=10000)], env: BrowserDevice) -> str:
    """Type text into the focused field (click it first). A newline presses Enter. A date
    or time field also takes its value as 2024-06-13 or 14:30.

    Args:
        text: The text to type, exactly.
    """
    # The pixels set's write_text: the same tool without the element number.
    _type(env, text)
    env.settle()
    return f"typed {len(text)} characters"


@action
def press(key: str, env: BrowserDevice) -> str:
    """Press a key or a key combination, e.g. "Enter", "Tab", "Escape", "ArrowDown",
    "Backspace", "Control+a".

    Args:
        key: Key name, with modifiers joined by "+".
    """
    if not _KEY.match(key):
        raise InvalidAction(f"{key!r} is not a key name like 'Enter' or 'Control+a'")
    before = len(env.saved_downloads)
    try:
        env.page.keyboard.press(playwright_key(key))
    except Exception as exc:
        raise InvalidAction(f"unknown key {key!r}: {str(exc).splitlines()[0]}") from None
    env.settle()
    return f"pressed {key}" + _downloaded(env, before)


@action
def scroll(
    direction: Literal["up", "down", "left", "right"], env: BrowserDevice, elem: int | None = None
) -> str:
    """Scroll the page (or the scrollable element `elem`) by most of a screen.

    Args:
        direction: "up", "down", "left" or "right".
        elem: The number of the element to scroll (default: the page).
    """
    return _scroll(env, direction, env.mark(elem).center if elem is not None else None)


def _scroll(env: BrowserDevice, direction: str, at: tuple[int, int] | None) -> str:
    width, height = env.viewport["width"], env.viewport["height"]
    x, y = at if at is not None else (width // 2, height // 2)
    step_y, step_x = round(height * 0.8), round(width * 0.8)
    dx, dy = {"up": (0, -step_y), "down": (0, step_y), "left": (-step_x, 0), "right": (step_x, 0)}[
        direction
    ]
    page = env.page
    before = page.evaluate(SCROLL_COUNT)
    page.mouse.move(x, y)
    page.mouse.wheel(dx, dy)
    moved = wait_for_scroll(page, before)
    env.settle()
    return f"scrolled {direction}" if moved else f"nothing more to scroll {direction}"


@action(name="scroll")
def scroll_at(
    direction: Literal["up", "down", "left", "right"],
    env: BrowserDevice,
    x: Coordinate | None = None,
    y: Coordinate | None = None,
) -> str:
    """Scroll the page, or the scrollable part of it under a point of the screenshot, by
    most of a screen.

    Args:
        direction: "up", "down", "left" or "right".
        x: Pixels from the left edge of the browser's screenshot (1280 wide unless the
            browser's description says otherwise) of the point to scroll
            at (give y too; default: the middle of the page).
        y: Pixels from the top edge of the browser's screenshot (800 high unless the
            browser's description says otherwise) of that point.
    """
    # The pixels set's scroll: the same tool with a point instead of an element number.
    if (x is None) != (y is None):
        raise InvalidAction("scroll needs both x and y, or neither")
    if x is not None and y is not None:
        _in_viewport(env, x, y)
    return _scroll(env, direction, None if x is None or y is None else (x, y))


@action
def select_option(elem: int, option: str, env: BrowserDevice) -> str:
    """Choose an option of a drop-down list by its visible text.

    Args:
        elem: The number of the drop-down list.
        option: The text of the option to choose.
    """
    mark = env.mark(elem)
    x, y = mark.center
    for frame in env.page.frames:
        if frame.parent_frame is None:
            continue
        box = frame.frame_element().bounding_box()
        if (
            box
            and box["x"] <= x < box["x"] + box["width"]
            and box["y"] <= y < box["y"] + box["height"]
        ):
            problem = frame.evaluate(_SELECT_AT, [x - box["x"], y - box["y"], option])
            break
    else:
        problem = env.page.evaluate(_SELECT_AT, [x, y, option])
    if problem:
        raise ActionFailed(f"cannot choose {option!r} in {_say(mark)}: {problem}")
    env.settle()
    return f"chose {option!r} in {_say(mark)}"


@action
def goto(url: str, env: BrowserDevice) -> str:
    """Open a web address in the current tab. Only http://, https:// and about: addresses
    open: this browser does not show files (file:// addresses) or other schemes.

    Args:
        url: The address, e.g. "http://127.0.0.1:8000/mail".
    """
    # A refusal by policy, not a call that cannot run as written: it fails like any step.
    if urlsplit(url).scheme not in _SCHEMES:
        raise ActionFailed(_NOT_WEB.format(url=url))
    env.goto(url)
    return f"opened {env.page.url}"


@action
def back(env: BrowserDevice) -> str:
    """Go back to the previous page of the current tab."""
    if env.page.go_back(wait_until="load") is None:
        raise ActionFailed("there is no previous page in this tab")
    env.settle()
    return f"back at {env.page.url}"


@action
def forward(env: BrowserDevice) -> str:
    """Go forward again after going back."""
    if env.page.go_forward(wait_until="load") is None:
        raise ActionFailed("there is no next page in this tab")
    env.settle()
    return f"forward at {env.page.url}"


@action
def new_tab(env: BrowserDevice, url: str = "") -> str:
    """Open a new tab (optionally at an address) and switch to it.

    Args:
        url: The address to open (empty: a blank tab); http://, https:// or about: only,
            as for goto.
    """
    if url and urlsplit(url).scheme not in _SCHEMES:
        raise ActionFailed(_NOT_WEB.format(url=url))
    env.new_tab(url)
    return f"opened tab {len(env.tabs) - 1}"


@action
def switch_tab(index: int, env: BrowserDevice) -> str:
    """Show another tab; tabs are numbered from 0 in the order they were opened.

    Args:
        index: The tab's number.
    """
    page = env.switch_to(index)
    env.settle()
    return f"switched to tab {index}: {page.title() or page.url}"


@action
def close_tab(env: BrowserDevice, index: int | None = None) -> str:
    """Close a tab (default: the current one). The last tab cannot be closed.

    Args:
        index: The tab's number (optional).
    """
    tabs = env.tabs
    if len(tabs) <= 1:
        raise ActionFailed("this is the only tab; open another one before closing it")
    target = env.page if index is None else env.switch_to(index)
    position = tabs.index(target)
    target.close()
    env.switch_to(max(0, position - 1))
    env.settle()
    return f"closed tab {position}"


# -------------------------------------------------------------- observations
@action
def screenshot(env: BrowserDevice) -> bytes:
    """The current tab as PNG, with a numbered box on every element you can act on."""
    snapshot = env.snapshot or env.observe_now()
    return snapshot.marked_png()


@action
def elements(env: BrowserDevice) -> str:
    """The open tabs, then the numbered elements, one '[id] role "name"' per line."""
    snapshot = env.snapshot or env.observe_now()
    return env.tabs_text() + "\n" + snapshot.marks.text()


@action(name="screenshot")
def plain_screenshot(env: BrowserDevice) -> bytes:
    """The current tab as PNG, as a person sees it (no boxes or numbers drawn on it)."""
    snapshot = env.snapshot or env.observe_now()
    return snapshot.png


@action
def tabs(env: BrowserDevice) -> str:
    """The open tabs, one 'tab N: title - address' per line (the browser's tab strip
    and address bar, which the page screenshot does not show)."""
    return env.tabs_text()


@action
def accessibility(env: BrowserDevice) -> str:
    """The current tab's accessibility tree (roles, names and states, indented)."""
    return env.accessibility_tree()


@action
def choose_file(path: str, env: BrowserDevice) -> str:
    """Answer the file chooser a page's file field opened with a computer file.

    Args:
        path: Its path (under ~ or /tmp).
    """
    if env.computer is None:
        raise ActionFailed("this browser belongs to no computer: it has no files to choose")
    # The chooser opens as the click lands; its event may trail the click by a moment.
    wait_until(lambda: env.file_chooser, 2.0, sleep=lambda s: env.page.wait_for_timeout(s * 1000))
    chooser = env.file_chooser
    if chooser is None or chooser.page != env.page:
        raise ActionFailed("no file chooser is open: click the page's file field first")
    source = env.computer.file_to_upload(path)
    try:
        chooser.set_files(source)
    except Exception as exc:
        raise ActionFailed(f"could not choose {path}: {str(exc).splitlines()[0]}") from None
    env.file_chooser = None
    env.settle()
    return f"chose {path}"


BROWSER_ACTIONS = [
    click,
    click_at,
    write_text,
    press,
    scroll,
    select_option,
    goto,
    back,
    forward,
    new_tab,
    switch_tab,
    close_tab,
]
OBSERVATIONS = [screenshot, elements]
# What each action set adds (reefbench.actions.sets); ``marks`` is the space above.
ACTION_SET_ACTIONS = {"a11y": [click_on], "pixels": [type_text, scroll_at]}
# What each set leaves out: ``pixels`` has no element ids (write_text and scroll come back
# without them; a drop-down list is chosen by clicks and keys).
ACTION_SET_REMOVES = {
    "pixels": ["click", "click_on", "select_option", "write_text", "scroll"],
}
# The observations that replace OBSERVATIONS under a set: ``pixels`` sees the bare page
# and the browser's tab strip as text (a person sees both).
ACTION_SET_OBSERVATIONS = {"pixels": [plain_screenshot, tabs]}


# ------------------------------------------------------------------ setup
# Not in the agent's space: a task's setup runs it (checked by
# reefbench.envs.browser.evaluators:browser_signed_in).
@action
def sign_out_browser(env: BrowserDevice) -> str:
    """Sign the browser out of the account and show the sign-in page."""
    if env.context is None or env.services is None:
        raise ActionFailed("the browser is not started with an account")
    env.context.clear_cookies()
    env.goto(env.services.url + "/")
    return "signed out"
