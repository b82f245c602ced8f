"""Keyboard and mouse input through xdotool (XTEST), always as an argv list.

Agent text never passes through a shell: ``xdotool type -- TEXT`` receives it as one argv
element, so ``$(...)``, quotes, ``;`` and ``>`` arrive as the characters they are. Key
names the agent writes (``enter``, ``ctrl``, ``pagedown``) are mapped to X keysyms and
checked before anything is sent.
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence

from reefbench.errors import ActionFailed, EnvironmentFailure, InvalidAction

_ALIASES = {
    "enter": "Return",
    "return": "Return",
    "esc": "Escape",
    "escape": "Escape",
    "ctrl": "ctrl",
    "control": "ctrl",
    "alt": "alt",
    "shift": "shift",
    "super": "super",
    "win": "super",
    "windows": "super",
    "meta": "super",
    "cmd": "super",
    "command": "super",
    "tab": "Tab",
    "space": "space",
    "backspace": "BackSpace",
    "delete": "Delete",
    "del": "Delete",
    "insert": "Insert",
    "home": "Home",
    "end": "End",
    "pageup": "Prior",
    "page_up": "Prior",
    "pgup": "Prior",
    "pagedown": "Next",
    "page_down": "Next",
    "pgdn": "Next",
    "up": "Up",
    "down": "Down",
    "left": "Left",
    "right": "Right",
    "capslock": "Caps_Lock",
    "menu": "Menu",
    "printscreen": "Print",
    "print": "Print",
}
_PUNCTUATION = {
    "+": "plus",
    "-": "minus",
    "=": "equal",
    ".": "period",
    ",": "comma",
    "/": "slash",
    "\\": "backslash",
    ";": "semicolon",
    "'": "apostrophe",
    "`": "grave",
    "[": "bracketleft",
    "]": "bracketright",
    " ": "space",
}
_MODIFIERS = {"ctrl", "alt", "shift", "super"}


REMAP_DELAY_MS = 150
MIXED_DELAY_MS = 4
# A drag's pace (xdotool sleep words, seconds): between its moves, and resting on the
# target before the release (see Input.drag).
DRAG_STEP_S = "0.1"
DRAG_DROP_S = "0.3"


def _runs(text: str) -> list[tuple[str, bool]]:
    """Split text into runs of keymap characters (ASCII) and of remapped ones."""
    runs: list[tuple[str, bool]] = []
    for char in text:
        remapped = not char.isascii()
        if runs and runs[-1][1] == remapped:
            runs[-1] = (runs[-1][0] + char, remapped)
        else:
            runs.append((char, remapped))
    return runs


def keysym(key: str) -> str:
    """The X keysym name for an agent's key name.

    Raises:
        InvalidAction: the name is not a key.
    """
    raw = key.strip()
    if not raw:
        raise InvalidAction("empty key name: use e.g. 'enter', 'ctrl', 'a' or 'F5'")
    lowered = raw.lower()
    if lowered in _ALIASES:
        return _ALIASES[lowered]
    if raw in _PUNCTUATION:
        return _PUNCTUATION[raw]
    if len(raw) == 1:
        return raw
    if lowered.startswith("f") and lowered[1:].isdigit() and 1 <= int(lowered[1:]) <= 24:
        return "F" + lowered[1:]
    from Xlib import XK

    if XK.string_to_keysym(raw) != 0:
        return raw
    raise InvalidAction(
        f"unknown key {key!r}: use names like 'enter', 'esc', 'tab', 'ctrl', 'alt', 'shift', "
        "'up', 'pagedown', 'F5' or a single character"
    )


class Input:
    """Sends input to one display through xdotool."""

    def __init__(self, env: dict[str, str], xdotool: str = "xdotool") -> None:
        self.env = env
        self.xdotool = xdotool

    def _run(self, *args: str) -> None:
        try:
            done = subprocess.run(
                [self.xdotool, *args],
                env=self.env,
                capture_output=True,
                timeout=60,
                check=False,
            )
        except FileNotFoundError:
            raise EnvironmentFailure("xdotool is not installed: apt-get install xdotool") from None
        except subprocess.TimeoutExpired:
            raise ActionFailed("the input did not finish within 60 s") from None
        if done.returncode != 0:
            raise EnvironmentFailure(
                f"xdotool failed: {done.stderr.decode(errors='replace').strip()[:300]}"
            )

    # ----------------------------------------------------------------- mouse
    def pointer(self) -> tuple[int, int] | None:
        """Where the pointer is (None if xdotool cannot say)."""
        try:
            done = subprocess.run(
                [self.xdotool, "getmouselocation", "--shell"],
                env=self.env,
                capture_output=True,
                text=True,
                timeout=10,
                check=False,
            )
        except (FileNotFoundError, subprocess.TimeoutExpired):
            return None
        values = dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)
        try:
            return int(values["X"]), int(values["Y"])
        except (KeyError, ValueError):
            return None

    def _move_to(self, x: int, y: int) -> list[str]:
        """xdotool words moving the pointer to (x, y). ``--sync`` waits until the pointer
        has moved, so toolkits see the motion before a click; when it is already there it
        waits for a motion that never comes (15 s here), so it is left out then."""
        if self.pointer() == (x, y):
            return ["mousemove", str(x), str(y)]
        return ["mousemove", "--sync", str(x), str(y)]

    def click(self, x: int, y: int, button: int = 1, repeat: int = 1) -> None:
        # xdotool sleeps ``--delay`` (100 ms by default) after every click, the last one
        # included: dead time before the settle wait, which watches the screen itself.
        args = [*self._move_to(x, y), "click", "--delay", "60" if repeat > 1 else "0"]
        if repeat > 1:
            args += ["--repeat", str(repeat)]
        self._run(*args, str(button))

    def move(self, x: int, y: int) -> None:
        self._run(*self._move_to(x, y))

    def button(self, down: bool, button: int = 1) -> None:
        self._run("mousedown" if down else "mouseup", str(button))

    def drag(self, start: tuple[int, int], end: tuple[int, int], button: int = 1) -> None:
        # Intermediate motion so toolkits see a drag, not a teleport. Each point differs
        # from the one before (a synced move to where the pointer is never returns).
        # Paced as a hand moves: a drag-and-drop target (XDND: Calc's pivot table layout,
        # a file manager) accepts a drop only after it has answered the toolkit's position
        # messages, so a release on arrival was a drop nobody took.
        mid = ((start[0] + end[0]) // 2, (start[1] + end[1]) // 2)
        path: list[tuple[int, int]] = []
        # A second motion over the target, then onto it (a pixel inside the screen).
        near = (abs(end[0] - 1), abs(end[1] - 1))
        for point in ((start[0] + 5, start[1] + 5), mid, near, end):
            if point != (path[-1] if path else start):
                path.append(point)
        motion = [
            w
            for x, y in path
            for w in ("sleep", DRAG_STEP_S, "mousemove", "--sync", str(x), str(y))
        ]
        self._run(
            *self._move_to(*start),
            "mousedown",
            str(button),
            *motion,
            "sleep",
            DRAG_DROP_S,
            "mouseup",
            str(button),
        )

    def scroll(self, direction: str, amount: int, at: tuple[int, int] | None = None) -> None:
        buttons = {"up": 4, "down": 5, "left": 6, "right": 7}
        args = []
        if at is not None:
            args += self._move_to(*at)
        args += ["click", "--repeat", str(amount), "--delay", "15", str(buttons[direction])]
        self._run(*args)

    # -------------------------------------------------------------- keyboard
    def type_text(self, text: str, delay_ms: int = 0) -> None:
        """Type ``text``; a newline presses Enter.

        xdotool types "\n" as the Linefeed key, which GTK text views ignore, so newlines
        are sent as "\r" (Return). Characters outside the keyboard map (non-ASCII) are
        typed by remapping xdotool's one spare keycode; an app that reads the key after the
        mapping moved on to the next character drops it, so those (rare) runs are paced at
        REMAP_DELAY_MS per character, and the keymap characters of such a text at
        MIXED_DELAY_MS (an app still working through a burst of them when the mapping
        changes dropped the first remapped one). Pacing narrows the race under load;
        typing through several spare keycodes with XTEST would close it.
        """
        text = text.replace("\r\n", "\n").replace("\n", "\r")
        runs = _runs(text)
        plain = max(delay_ms, MIXED_DELAY_MS) if any(r for _, r in runs) else delay_ms
        for chunk, remapped in runs:
            delay = max(delay_ms, REMAP_DELAY_MS) if remapped else plain
            self._run("type", "--clearmodifiers", "--delay", str(delay), "--", chunk)

    def press(self, keys: Sequence[str]) -> None:
        """Press a key or a chord (``["ctrl", "s"]``) and release it."""
        # ``--delay 0``: xdotool's default 12 ms between the chord's key events is dead
        # time (the X server queues them in order).
        self._run("key", "--clearmodifiers", "--delay", "0", "+".join(keysym(k) for k in keys))

    def key(self, key: str, down: bool) -> None:
        self._run("keydown" if down else "keyup", keysym(key))

    def release_all(self, buttons: Sequence[int] = ()) -> None:
        """Release modifiers (and the given mouse buttons) an agent left pressed."""
        args = ["keyup", "ctrl", "keyup", "alt", "keyup", "shift", "keyup", "super"]
        for button in buttons:
            args += ["mouseup", str(button)]
        self._run(*args)
