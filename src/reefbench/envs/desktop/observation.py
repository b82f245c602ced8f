"""One observation of the desktop: screenshot, accessibility tree, Set-of-Marks.

Marks come from the accessibility tree of every window, minus elements hidden behind a
window higher in the stacking order (so a mark never points at a covered button). OCR
lines are added when asked for, or automatically when the focused window exposes no
interactive elements (the launcher, a canvas, an app without accessibility).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from reefbench.envs.desktop.a11y import UINode, UIWindow
from reefbench.envs.desktop.screen import Frame
from reefbench.envs.desktop.x11 import XWindow
from reefbench.perception.image import differs_only_inside, encode_png
from reefbench.perception.marks import (
    INTERACTIVE_ROLES,
    VALUE_CAP,
    MarkSet,
    build_marks,
    draw_marks,
    static_text,
)
from reefbench.perception.ocr import OcrLine, group_lines, ocr_image

if TYPE_CHECKING:
    from PIL import Image as PILImage


@dataclass(frozen=True)
class Snapshot:
    """Everything one observation produced."""

    frame: Frame
    windows: tuple[UIWindow, ...]
    stacking: tuple[XWindow, ...]
    active: XWindow | None
    marks: MarkSet
    ocr_used: bool

    def image(self) -> PILImage.Image:
        return self.frame.image()

    def marked_png(self, max_width: int | None = None) -> bytes:
        marked = draw_marks(self.image(), self.marks, untagged=UNTAGGED_ROLES)
        return encode_png(marked, max_width=max_width)

    def png(self, max_width: int | None = None) -> bytes:
        return encode_png(self.image(), max_width=max_width)


def match_window(ui: UIWindow, stacking: Sequence[XWindow]) -> int | None:
    """Index in ``stacking`` of the X window showing the accessible window ``ui``.

    Matched by owning pid and title (both seen from inside the sandbox), then by pid and
    position, then by title alone.
    """
    for index, xw in enumerate(stacking):
        if xw.pid == ui.pid and xw.title == ui.title:
            return index
    for index, xw in enumerate(stacking):
        if xw.pid == ui.pid and ui.box is not None and _near(xw.box[:2], ui.box[:2]):
            return index
    for index, xw in enumerate(stacking):
        if ui.title and xw.title == ui.title:
            return index
    return None


def _near(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 40) -> bool:
    return abs(a[0] - b[0]) <= tolerance and abs(a[1] - b[1]) <= tolerance


def visible_nodes(windows: Sequence[UIWindow], stacking: Sequence[XWindow]) -> list[UINode]:
    """Showing nodes whose centre is not covered by a window stacked above their own
    (its title bar and borders included).

    The active window's nodes come first, then the rest from top to bottom of the stack,
    so the low mark numbers land on what the user is working with.
    """
    ranked: list[tuple[int, UIWindow, int | None]] = []
    for ui in windows:
        index = match_window(ui, stacking)
        rank = len(stacking) + 1 if ui.active else (index if index is not None else -1)
        ranked.append((rank, ui, index))
    ranked.sort(key=lambda item: -item[0])
    out: list[UINode] = []
    for _, ui, index in ranked:
        above = stacking[index + 1 :] if index is not None else ()
        for node in ui.nodes:
            center = node.center
            if center is None:
                continue
            if any(xw.covers(*center) for xw in above):
                continue
            out.append(node)
    return out


def focused_window_has_elements(
    windows: Sequence[UIWindow], active: XWindow | None, stacking: Sequence[XWindow]
) -> bool:
    """Whether the focused window exposes at least one interactive element."""
    if active is None:
        # An empty desktop has nothing to read; otherwise any window's elements will do.
        return not stacking or any(n.role in INTERACTIVE_ROLES for w in windows for n in w.nodes)
    for ui in windows:
        index = match_window(ui, stacking)
        if index is not None and stacking[index].id == active.id:
            return any(n.role in INTERACTIVE_ROLES for n in ui.nodes[1:])
    return False


def ocr_lines(frame: Frame, region: tuple[int, int, int, int] | None = None) -> list[OcrLine]:
    """OCR text lines of the frame (or of ``region`` of it), in screen coordinates."""
    image = frame.image()
    offset = (0, 0)
    if region is not None:
        x, y, w, h = region
        x0, y0 = max(0, x), max(0, y)
        image = image.crop((x0, y0, min(frame.width, x + w), min(frame.height, y + h)))
        offset = (x0, y0)
    return group_lines(ocr_image(image, offset=offset))


# Roles of text that is read, not acted on (a dialog's message, a status bar).
STATIC_ROLES = frozenset({"label", "heading", "paragraph", "static", "caption", "status bar"})
# A spreadsheet's cells are drawn without a number tag: cells lie edge to edge, so a tag,
# wherever it went, would cover a neighbour's text (a sheet's 160 tags made it unreadable).
# Each is listed by its address ("B4") with its value; the sheet's headers show where.
UNTAGGED_ROLES = frozenset({"table cell"})
# The list cuts names (80 characters) and values (VALUE_CAP); what it cuts, and static
# text, is given whole here up to these caps: a note or a message a task turns on must be
# readable in full, not "...not enla...".
TEXT_ITEM_CAP = 1500
TEXT_TOTAL_CAP = 4000
NAME_CAP = 80


def screen_text(nodes: Sequence[UINode], marks: MarkSet) -> list[str]:
    """The visible static text no mark carries, and whole the names and values the list
    cuts, capped (:func:`static_text`)."""
    texts = [m.value for m in marks.marks if m.value and len(" ".join(m.value.split())) > VALUE_CAP]
    texts += [m.name for m in marks.marks if len(" ".join(m.name.split())) > NAME_CAP]
    texts += [n.name or n.text or "" for n in nodes if n.role in STATIC_ROLES and n.box]
    whole = [m.name for m in marks.marks if len(" ".join(m.name.split())) <= NAME_CAP]
    whole += [
        m.value for m in marks.marks if m.value and len(" ".join(m.value.split())) <= VALUE_CAP
    ]
    return static_text(texts, whole, item_cap=TEXT_ITEM_CAP, total_cap=TEXT_TOTAL_CAP)


# The panel's clock button is named by the date it shows ("2024-06-03"): the minute it
# also shows changes with no action of anyone's.
_CLOCK_NAME = re.compile(r"\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}")


def clock_boxes(windows: Sequence[UIWindow]) -> list[tuple[int, int, int, int]]:
    """Where the desktop panel shows the time (its clock button's box)."""
    return [
        n.box
        for w in windows
        if w.app == "xfce4-panel"
        for n in w.nodes
        if n.box is not None and n.role == "toggle button" and _CLOCK_NAME.search(n.name)
    ]


def only_the_clock_changed(before: Snapshot, after: Snapshot) -> bool:
    """Whether ``after`` shows what ``before`` showed but for the panel clock's time: the
    same elements, and every pixel that differs inside the clock's box."""
    if (before.frame.width, before.frame.height) != (after.frame.width, after.frame.height):
        return False
    if before.frame.raw == after.frame.raw or before.marks.text() != after.marks.text():
        return False
    return differs_only_inside(before.image(), after.image(), clock_boxes(after.windows))


def take_snapshot(
    frame: Frame,
    windows: Sequence[UIWindow],
    stacking: Sequence[XWindow],
    active: XWindow | None,
    ocr: str = "auto",
) -> Snapshot:
    """Build the marks for one observation; ``ocr`` is ``"auto"``, ``"always"`` or ``"never"``."""
    nodes = visible_nodes(windows, stacking)
    lines: list[OcrLine] = []
    run_ocr = ocr == "always" or (
        ocr == "auto" and not focused_window_has_elements(windows, active, stacking)
    )
    if run_ocr:
        lines = ocr_lines(frame)
    marks = build_marks(nodes, (frame.width, frame.height), ocr_lines=lines)
    marks = replace(marks, texts=tuple(screen_text(nodes, marks)))
    return Snapshot(frame, tuple(windows), tuple(stacking), active, marks, run_ocr)
