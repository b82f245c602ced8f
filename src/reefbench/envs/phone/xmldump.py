"""The phone's screen as a uiautomator dump, generated from the DOM.

``static/dump.js`` walks the shell and the app frame in one call and returns compact
nodes; this module fills in frames it could not enter (another origin) and writes the XML
exactly as ``adb shell uiautomator dump`` does, so the XML evaluators and Set-of-Marks read
the phone and a real device the same way.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Page

HEADER = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
_FLAG_NAMES = (
    ("checkable", 1),
    ("checked", 2),
    ("clickable", 4),
    ("enabled", 8),
    ("focusable", 16),
    ("focused", 32),
    ("scrollable", 64),
    ("long-clickable", 128),
    ("password", 256),
    ("selected", 512),
)
# Characters XML 1.0 cannot carry at all; uiautomator drops them too.
_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_ESCAPES = str.maketrans(
    {
        "&": "&amp;",
        "<": "&lt;",
        ">": "&gt;",
        '"': "&quot;",
        "\n": "&#10;",
        "\r": "&#13;",
        "\t": "&#9;",
    }
)


@cache
def dump_script() -> str:
    return (Path(__file__).with_name("static") / "dump.js").read_text(encoding="utf-8")


def attr(value: str) -> str:
    """An attribute value escaped so a parser gives back exactly ``value`` (newlines too)."""
    return _INVALID.sub("", value).translate(_ESCAPES)


def collect(page: Page, package: str | None, dpr: float) -> list[Any]:
    """The raw node tree of the page (frames of other origins filled in).

    ``package`` is the app in front; ``None`` asks the shell (``window.phone``).
    """
    viewport = page.viewport_size
    size = {"width": 412, "height": 915}
    if viewport is not None:
        size = {"width": viewport["width"], "height": viewport["height"]}
    args = {
        "dpr": dpr,
        "pkg": package,
        "ox": 0,
        "oy": 0,
        "clip": [0, 0, size["width"], size["height"]],
    }
    roots: list[Any] = page.evaluate(dump_script(), args)
    _fill_frames(page, roots, dpr, size)
    return roots


def _fill_frames(page: Page, nodes: list[Any], dpr: float, size: dict[str, int]) -> None:
    for i, node in enumerate(nodes):
        if node[0] == "#frame":
            nodes[i : i + 1] = [_frame_node(page, node, dpr, size)]
        else:
            _fill_frames(page, node[11], dpr, size)


def _frame_node(page: Page, placeholder: list[Any], dpr: float, size: dict[str, int]) -> list[Any]:
    _, name, package, x1, y1, x2, y2 = placeholder
    children: list[Any] = []
    frame = page.frame(name=name) if name else None
    if frame is not None:
        box = frame.frame_element().bounding_box()
        if box is not None:
            clip = [box["x"], box["y"], box["x"] + box["width"], box["y"] + box["height"]]
            clip = [
                max(clip[0], 0),
                max(clip[1], 0),
                min(clip[2], size["width"]),
                min(clip[3], size["height"]),
            ]
            args = {"dpr": dpr, "pkg": package, "ox": box["x"], "oy": box["y"], "clip": clip}
            try:
                children = frame.evaluate(dump_script(), args)
            except Exception:  # the frame is navigating: show it empty this time
                children = []
    return ["android.widget.FrameLayout", "", "", package, "", "", 8, x1, y1, x2, y2, children]


def to_xml(roots: list[Any]) -> str:
    """Serialise nodes as a one-line uiautomator dump."""
    parts = [HEADER, '<hierarchy rotation="0">']
    for index, root in enumerate(roots):
        root = list(root)
        if root[0] == "android.view.ViewGroup":
            root[0] = "android.widget.FrameLayout"  # a window's root view
        _write(root, index, parts)
    parts.append("</hierarchy>")
    return "".join(parts)


def _write(node: list[Any], index: int, parts: list[str]) -> None:
    cls, text, rid, package, desc, hint, flags, x1, y1, x2, y2, children = node
    parts.append(
        f'<node index="{index}" text="{attr(text)}" resource-id="{attr(rid)}" '
        f'class="{attr(cls)}" package="{attr(package)}" content-desc="{attr(desc)}" '
    )
    parts.append(
        " ".join(f'{name}="{"true" if flags & bit else "false"}"' for name, bit in _FLAG_NAMES)
    )
    parts.append(f' bounds="[{x1},{y1}][{x2},{y2}]" hint="{attr(hint)}"')
    if not children:
        parts.append(" />")
        return
    parts.append(">")
    for child_index, child in enumerate(children):
        _write(child, child_index, parts)
    parts.append("</node>")


def dump_page(page: Page, dpr: float, package: str | None = None) -> str:
    """The page's UI hierarchy as uiautomator XML, bounds in device pixels."""
    return to_xml(collect(page, package, dpr))
