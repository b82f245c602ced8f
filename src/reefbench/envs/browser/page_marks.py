"""Set-of-Marks for web pages: interactive elements and their boxes, frame by frame.

Each frame runs :data:`COLLECT` (links, buttons, form fields, ARIA widgets, anything
focusable or with a click handler attribute, that is visible in the viewport); boxes are
moved into page coordinates with the frame element's box, then numbered in document order
by :func:`reefbench.perception.marks.build_marks`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from reefbench.envs.browser.settle import script
from reefbench.perception.marks import VALUE_CAP, MarkSet, build_marks, static_text

if TYPE_CHECKING:
    from playwright.sync_api import Frame, Page

COLLECT = script("collect_marks.js")
COLLECT_TEXT = script("collect_text.js")


@dataclass(frozen=True, slots=True)
class PageElement:
    """One interactive element: ``value`` for a field (its text, a drop-down's choice) and
    ``shown_states`` (checked/unchecked, selected, expanded, disabled) as the element
    list shows them."""

    role: str
    name: str
    box: tuple[int, int, int, int] | None
    value: str | None = None
    shown_states: tuple[str, ...] = ()


WEB_ROLES = frozenset(
    {
        "link",
        "button",
        "textbox",
        "searchbox",
        "combobox",
        "checkbox",
        "radio",
        "switch",
        "tab",
        "menuitem",
        "option",
        "slider",
    }
)


def _frame_offset(frame: Frame) -> tuple[float, float] | None:
    if frame.parent_frame is None:
        return (0.0, 0.0)
    try:
        box = frame.frame_element().bounding_box()
    except Exception:
        return None
    return (box["x"], box["y"]) if box else None


def collect_elements(page: Page) -> list[PageElement]:
    """Interactive elements of every frame, in page (viewport) coordinates."""
    out: list[PageElement] = []
    for frame in page.frames:
        offset = _frame_offset(frame)
        if offset is None:
            continue
        try:
            found: list[dict[str, Any]] = frame.evaluate(COLLECT)
        except Exception:  # a frame navigating away mid-collection has nothing to offer
            continue
        for item in found:
            box = (
                round(item["x"] + offset[0]),
                round(item["y"] + offset[1]),
                round(item["w"]),
                round(item["h"]),
            )
            role = item["role"] if item["role"] in WEB_ROLES else "button"
            value = item.get("value")
            states = tuple(str(x) for x in item.get("states") or ())
            out.append(PageElement(role, item["name"], box, value, states))
    return out


def collect_text(page: Page) -> list[str]:
    """Visible static text of every readable frame, one entry per block, in page order."""
    out: list[str] = []
    for frame in page.frames:
        if _frame_offset(frame) is None:
            continue
        try:
            found: list[str] = frame.evaluate(COLLECT_TEXT)
        except Exception:  # a frame navigating away has nothing to offer
            continue
        out += [str(t) for t in found]
    return out


# The list shows a name up to this many characters (Mark.line); a longer name, or a value
# longer than VALUE_CAP, is also given whole among the texts on the page.
NAME_CAP = 80
# Texts on the page: a message or a note is given whole (a cut one cannot be answered from).
TEXT_ITEM_CAP = 1500
TEXT_TOTAL_CAP = 4000


def page_marks(page: Page) -> MarkSet:
    """The marks of the current viewport and its static text (capped)."""
    size = page.viewport_size or {"width": 1280, "height": 800}
    elements = collect_elements(page)
    marks = build_marks(elements, (size["width"], size["height"]), roles=WEB_ROLES)
    cut = [m.name for m in marks.marks if len(m.name) > NAME_CAP]
    cut += [m.value for m in marks.marks if m.value and len(m.value) > VALUE_CAP]
    shown = [m.name for m in marks.marks if len(m.name) <= NAME_CAP]
    shown += [m.value for m in marks.marks if m.value and len(m.value) <= VALUE_CAP]
    texts = static_text(
        [*cut, *collect_text(page)], shown, item_cap=TEXT_ITEM_CAP, total_cap=TEXT_TOTAL_CAP
    )
    return replace(marks, texts=tuple(texts))
