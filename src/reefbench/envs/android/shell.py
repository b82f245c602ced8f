"""Commands for the device shell, built so agent text arrives literally.

``adb shell ARGS...`` joins its arguments with spaces and runs the result with the
*device's* ``sh -c``; nothing reaches a host shell (the host side is an argv list). So
every argument that carries agent text is quoted for the device shell here with POSIX
single quotes (:func:`shlex.quote`, which Android's mksh and toybox sh both read).

``input text`` then reads ``%s`` as a space, and it can only type characters of the
virtual keyboard map (ASCII). Hence :func:`text_commands`:

* spaces become ``%s``; a literal ``%`` followed by ``s`` is split across two ``input
  text`` calls so it is not read as a space;
* newlines become ``KEYCODE_ENTER`` key events;
* text outside printable ASCII is sent, when the ADB Keyboard IME is installed and
  enabled (``ime="adbkeyboard"``), as one ``am broadcast -a ADB_INPUT_B64`` with the
  UTF-8 text base64-encoded (base64 needs no quoting); otherwise it is refused with
  :class:`~reefbench.errors.ActionFailed` rather than typed wrongly.
"""

from __future__ import annotations

import base64
import re
import shlex

from reefbench.errors import ActionFailed

KEYCODE_ENTER = "66"
_PRINTABLE_ASCII = re.compile(r"[\x20-\x7e\t]*")
_PACKAGE = re.compile(r"[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+")
_COMPONENT = re.compile(r"[A-Za-z][A-Za-z0-9_.]*/[A-Za-z0-9_.$]+")
_RESUMED = re.compile(
    r"(?:mResumedActivity|topResumedActivity|ResumedActivity)[:=]\s*ActivityRecord\{\S+ \S+ "
    r"([A-Za-z0-9_.]+)/([A-Za-z0-9_.$]+)"
)
_FOCUS = re.compile(r"mCurrentFocus=Window\{\S+ \S+ ([A-Za-z0-9_.]+)(?:/([A-Za-z0-9_.$]+))?\}")
_SIZE = re.compile(r"(Physical|Override) size:\s*(\d+)x(\d+)")


def quote(argument: str) -> str:
    """One argument quoted for the device shell."""
    return shlex.quote(argument)


def escape_input_text(chunk: str) -> str:
    """``chunk`` (printable ASCII, no ``%`` directly before ``s``) as ``input text`` reads
    it: spaces as ``%s``, then quoted for the device shell."""
    return quote(chunk.replace(" ", "%s"))


def _ascii_chunks(line: str) -> list[str]:
    """Split where a literal ``%`` meets a literal ``s`` (``input text`` would turn the
    pair into a space)."""
    chunks, start = [], 0
    for i in range(1, len(line)):
        if line[i - 1] == "%" and line[i] == "s":
            chunks.append(line[start:i])
            start = i
    chunks.append(line[start:])
    return [c for c in chunks if c]


def text_commands(text: str, ime: str = "input") -> list[list[str]]:
    """The ``adb`` argument vectors that type ``text`` literally on the device.

    Args:
        text: Agent text, any characters.
        ime: ``"input"`` (``input text``; ASCII only) or ``"adbkeyboard"`` (the ADB
            Keyboard IME is active on the device; any Unicode).

    Raises:
        ActionFailed: the text has characters ``input text`` cannot type and no IME that
            can is configured.
    """
    commands: list[list[str]] = []
    for number, line in enumerate(text.split("\n")):
        if number:
            commands.append(["shell", "input", "keyevent", KEYCODE_ENTER])
        if not line:
            continue
        if _PRINTABLE_ASCII.fullmatch(line):
            commands += [
                ["shell", "input", "text", escape_input_text(c)] for c in _ascii_chunks(line)
            ]
        elif ime == "adbkeyboard":
            payload = base64.b64encode(line.encode("utf-8")).decode("ascii")
            commands.append(
                ["shell", "am", "broadcast", "-a", "ADB_INPUT_B64", "--es", "msg", payload]
            )
        else:
            odd = sorted({ch for ch in line if not _PRINTABLE_ASCII.fullmatch(ch)})
            shown = "".join(odd[:10])
            raise ActionFailed(
                f"this device can only type ASCII with `input text`; the text contains "
                f"{shown!r}. Install and enable the ADB Keyboard IME on the device and "
                "create the environment with ime='adbkeyboard' to type any characters."
            )
    return commands


def check_package(package: str) -> str:
    """``package`` if it is a valid Android package name (they go into device commands)."""
    if not _PACKAGE.fullmatch(package):
        raise ActionFailed(f"{package!r} is not an Android package name (like com.example.app)")
    return package


def check_component(component: str) -> str:
    """``package/activity`` if valid, e.g. ``com.android.settings/.Settings``."""
    if not _COMPONENT.fullmatch(component):
        raise ActionFailed(f"{component!r} is not a component (package/.Activity)")
    return component


def parse_foreground(dumpsys: str) -> tuple[str, str | None] | None:
    """``(package, activity)`` in front, from ``dumpsys activity activities`` or
    ``dumpsys window`` output (``None`` when neither names one)."""
    match = _RESUMED.search(dumpsys)
    if match:
        return match.group(1), match.group(2)
    match = _FOCUS.search(dumpsys)
    if match:
        return match.group(1), match.group(2)
    return None


def parse_screen_size(wm_size: str) -> tuple[int, int] | None:
    """Width and height from ``wm size`` (an override size wins over the physical one)."""
    sizes = {kind: (int(w), int(h)) for kind, w, h in _SIZE.findall(wm_size)}
    return sizes.get("Override") or sizes.get("Physical")
