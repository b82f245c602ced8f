"""Macros of the desktop image editor (Drawing) for reference solutions.

Drawing opens by name ("image editor"), its files through its Open dialog (Ctrl+O, a path
typed into the dialog's location field) and writes them through Save As (Ctrl+Shift+S:
the name field proposes "Untitled.png", all of it replaced by the target path, whose
extension chooses the format). Its tools are list items and its transformation bar's
buttons are named by their tooltips, so ``click_on`` reaches them.

The Scale tool's Width and Height spin buttons are the one exception: their middle is
the unit icon, which a click on the element (``click_on``) hits and which never takes
the keyboard, so the number is clicked at the left of the box. The window is maximised
on the fixed 1280x800 screen (``envs/desktop/image_editor.py``) and the bar is laid out
the same for every picture, so those points are the spin buttons' numbers in every
episode; the element list shows the boxes and values an agent reads to do the same.
"""

from __future__ import annotations

from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.common import call, expand

D = "desktop"
# The left of the number of the Scale tool's spin buttons (boxes (483, 760, 144, 34) and
# (701, 760, 144, 34) on the maximised window).
SCALE_WIDTH_AT = (503, 777)
SCALE_HEIGHT_AT = (721, 777)


def drawing_open(path: str) -> list[ActionCall]:
    """Start the image editor by name and open ``path`` through its Open dialog."""
    return [
        call(D, "search_app", name="image editor"),
        call(D, "hotkey", keys=["ctrl", "o"]),
        call(D, "write_text", text=expand(path) + "\n"),
    ]


def drawing_tool(name: str) -> list[ActionCall]:
    """Choose a tool of the side bar ("Scale", "Rotate", "Crop", ...)."""
    return [call(D, "click_on", name=name, role="list item")]


def drawing_apply() -> list[ActionCall]:
    """Confirm the open transformation (the bar's check-mark button)."""
    return [call(D, "click_on", name="Apply transformation", role="push button")]


def _spin(at: tuple[int, int], value: int) -> list[ActionCall]:
    x, y = at
    return [
        call(D, "click_at", x=x, y=y),
        call(D, "hotkey", keys=["ctrl", "a"]),
        call(D, "write_text", text=f"{value}\t"),
    ]


def drawing_scale(width: int, height: int) -> list[ActionCall]:
    """Scale the open picture to ``width`` x ``height`` pixels (proportions are not locked
    by default, so both sizes are typed) and apply it."""
    return [
        *drawing_tool("Scale"),
        *_spin(SCALE_WIDTH_AT, width),
        *_spin(SCALE_HEIGHT_AT, height),
        *drawing_apply(),
    ]


def drawing_rotate(direction: str, quarters: int = 1) -> list[ActionCall]:
    """Turn the open picture ``quarters`` quarters, ``direction`` "right" (clockwise) or
    "left": each click on the bar's button turns the preview a quarter more."""
    turn = call(D, "click_on", name=f"Rotate {direction}", role="push button")
    return [*drawing_tool("Rotate"), *[turn] * quarters, *drawing_apply()]


def drawing_save_as(path: str) -> list[ActionCall]:
    """Save the open picture as ``path`` (its extension chooses PNG or JPEG)."""
    return [
        call(D, "hotkey", keys=["ctrl", "shift", "s"]),
        call(D, "hotkey", keys=["ctrl", "a"]),
        call(D, "write_text", text=expand(path) + "\n"),
    ]


def drawing_quit() -> list[ActionCall]:
    """Quit the editor (everything saved, so no question) and give it a turn to exit."""
    return [call(D, "hotkey", keys=["ctrl", "q"]), call("root", "wait")]
