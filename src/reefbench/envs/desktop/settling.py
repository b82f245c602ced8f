"""Waiting until the desktop has settled after an action, before it is observed or checked.

A quiet screen alone is not enough: GTK maps a dialog before it paints it (for a moment
the dialog's area is one flat colour, usually black, while its accessible elements are
already there), and an app may take longer than the screen's quiet period to react to a
key at all (Enter in a Save As dialog), so the observation showed a black frame with the
dialog's boxes drawn on it, or the dialog after it had gone. The view has settled when,
with a deadline:

* the screen has not changed for the quiet period (:meth:`Screen.wait_stable`);
* no managed window shows as a single flat colour (mapped but not painted yet), and no
  window's content is missing: a window whose frame and background are drawn while the
  elements its accessibility tree places on it (labels, buttons, cells with text) are not
  is still drawing (Desktop Settings' first frame, a Calc sheet as it loads);
* two reads of the window stack and of the accessibility tree, started at least the
  quiet period apart and with the screen quiet up to the second, are equal (windows
  mapped or unmapped, the tree rebuilt), and the screen did not change between them
  either;
* the focused window's accessible title is the one the window manager shows
  (:func:`titles_agree`): after Ctrl+2 in Chromium the window was already titled after
  the second tab while its screen and its tree still showed the first, quiet and equal
  across both reads (a playtest read the wrong seating plan's title over the other's
  picture).

The second read's windows and frame are the observation's, so settling costs one
accessibility read more than observing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from reefbench.envs.desktop.a11y import UIWindow, box_contains
from reefbench.envs.desktop.screen import Frame, Screen
from reefbench.envs.desktop.x11 import XWindow

if TYPE_CHECKING:
    from reefbench.envs.desktop.observation import Snapshot

# A window smaller than this (either side) is not checked for paint: tooltips, the
# one-pixel helper windows some toolkits map.
MIN_PAINT_CHECK = 48


@dataclass(frozen=True)
class View:
    """What the desktop showed once it settled (or at the deadline)."""

    frame: Frame
    windows: tuple[UIWindow, ...]
    stacking: tuple[XWindow, ...]
    active: XWindow | None
    settled: bool
    seconds: float


def unpainted(frame: Frame, stacking: Sequence[XWindow]) -> list[XWindow]:
    """Windows whose visible part is one flat colour: mapped, not painted yet.

    A real window always has something on it (a title, a border, text, a widget edge); a
    freshly mapped X window without a compositor shows its background until the toolkit
    draws its first frame. Only the part no window above covers is judged: a dialog over
    its parent may show a blank file list exactly where the parent lies (Mousepad's Open
    dialog), and the parent is painted underneath; a window covered whole is not judged.

    Args:
        frame: The screen.
        stacking: The managed windows from bottom to top (:meth:`X11.stacking`).
    """
    from PIL import Image, ImageDraw, ImageStat

    image = None
    found = []
    for index, window in enumerate(stacking):
        x, y, w, h = window.box
        x0, y0 = max(0, x), max(0, y)
        x1, y1 = min(frame.width, x + w), min(frame.height, y + h)
        if x1 - x0 < MIN_PAINT_CHECK or y1 - y0 < MIN_PAINT_CHECK:
            continue
        covers = [
            (max(cx, x0) - x0, max(cy, y0) - y0, min(cx + cw, x1) - x0, min(cy + ch, y1) - y0)
            for cx, cy, cw, ch in (above.box for above in stacking[index + 1 :])
        ]
        covers = [(a, b, c, d) for a, b, c, d in covers if a < c and b < d]
        if image is None:
            image = frame.image()
        crop = image.crop((x0, y0, x1, y1))
        if not covers:
            # An RGB crop's extrema are one (low, high) pair per band.
            extrema: Any = crop.getextrema()
        else:
            visible = Image.new("L", crop.size, 255)
            draw = ImageDraw.Draw(visible)
            for left, top, right, bottom in covers:
                draw.rectangle((left, top, right - 1, bottom - 1), fill=0)
            if visible.getbbox() is None:
                continue  # covered whole: nothing of it shows
            extrema = ImageStat.Stat(crop, visible).extrema
        if all(low == high for low, high in extrema):
            found.append(window)
    return found


# Elements that always put ink where they are: text, a button's face, a check box.
_INKED_ROLES = frozenset(
    {
        "label",
        "push button",
        "check box",
        "radio button",
        "page tab",
        "menu",
        "toggle button",
        "table cell",
        "heading",
        "paragraph",
        "list item",
        "icon",
    }
)
_TEXT_ONLY = frozenset({"table cell", "paragraph"})
# A window is judged on at least this many such elements; when this share of them or more
# shows a flat colour, its content is not drawn yet (a label box wider than its text, an
# icon with a blank picture, must not keep a window "undrawn").
MIN_INKED = 3
UNDRAWN_SHARE = 0.8


def undrawn(
    frame: Frame, windows: Sequence[UIWindow], stacking: Sequence[XWindow]
) -> list[UIWindow]:
    """Windows whose content is not drawn yet: most of the named elements the
    accessibility tree places on them, where no window above covers them, are one flat
    colour on screen.

    :func:`unpainted` catches a window that is one colour all over; this catches one whose
    frame, background or toolbar is drawn while its content is not (a settings dialog's
    first frame), which a screenshot showed as an empty window with marks on it.
    """
    from reefbench.envs.desktop.observation import match_window

    image = None
    found = []
    for ui in windows:
        index = match_window(ui, stacking)
        if index is None:
            continue
        above = stacking[index + 1 :]
        inked = flat = 0
        for node in ui.nodes[1:]:
            if node.role not in _INKED_ROLES or node.box is None:
                continue
            # A cell is named by its address whether it holds anything or not.
            if not (node.text if node.role in _TEXT_ONLY else node.name or node.text):
                continue
            x, y, w, h = node.box
            x0, y0 = max(0, x), max(0, y)
            x1, y1 = min(frame.width, x + w), min(frame.height, y + h)
            if x1 - x0 < 6 or y1 - y0 < 6 or not stacking[index].contains(x + w // 2, y + h // 2):
                continue
            if any(xw.covers(x + w // 2, y + h // 2) for xw in above):
                continue
            if image is None:
                image = frame.image().convert("L")
            low, high = image.crop((x0, y0, x1, y1)).getextrema()
            inked += 1
            flat += low == high
            if inked >= 200:
                break
        if inked >= MIN_INKED and flat >= UNDRAWN_SHARE * inked:
            found.append(ui)
    return found


def titles_agree(windows: Sequence[UIWindow], active: XWindow | None) -> bool:
    """Whether the accessible window of the focused X window (same pid, same place) bears
    the title the window manager shows; true when either has none, or no accessible window
    matches (every desktop app's two titles are equal once it has drawn)."""
    if active is None or not active.title:
        return True
    x, y = active.box[:2]
    for ui in windows:
        if ui.pid != active.pid or ui.box is None or not ui.title:
            continue
        if abs(ui.box[0] - x) <= 40 and abs(ui.box[1] - y) <= 40:
            return ui.title == active.title
    return True


def _tree_key(windows: Sequence[UIWindow]) -> tuple[object, ...]:
    # Frozen dataclasses compare by value: equal keys mean the same windows, elements,
    # boxes, states and texts.
    return tuple(windows)


def settle_view(
    screen: Screen,
    read_stacking: Callable[[], list[XWindow]],
    read_windows: Callable[[], list[UIWindow]],
    read_active: Callable[[], XWindow | None],
    *,
    quiet: float,
    timeout: float,
    stable: Frame | None = None,
) -> View:
    """Wait until the screen, the window stack and the accessibility tree agree and stop
    changing (see the module docstring); the last reads are returned either way, with
    ``settled=False`` at the deadline.

    Args:
        stable: A frame the screen was just seen to hold for the quiet period (the
            action's own wait ends on one): if the screen still shows it, the first
            reads need no quiet period of their own. The second reads always start a
            quiet period after the first (counted from the first's start).
    """
    start = time.monotonic()
    deadline = start + timeout
    previous: tuple[Frame, tuple[XWindow, ...], tuple[UIWindow, ...]] | None = None
    reads_at = start
    while True:
        left = max(0.0, deadline - time.monotonic())
        if previous is None and stable is not None and (current := screen.grab()).raw == stable.raw:
            frame = current
        else:
            # The quiet period between two reads runs from the start of the first: the
            # screen must show the same frame then and now, and the reads start at least
            # the quiet period apart (a read itself takes 20-90 ms).
            since = 0.0 if previous is None else time.monotonic() - reads_at
            frame, _ = screen.wait_stable(quiet=max(0.0, quiet - since), timeout=left)
        reads_at = time.monotonic()
        stacking = tuple(read_stacking())
        windows = tuple(read_windows())
        active = read_active()
        painted = not unpainted(frame, stacking) and not undrawn(frame, windows, stacking)
        same = (
            previous is not None
            and previous[0].raw == frame.raw
            and previous[1] == stacking
            and _tree_key(previous[2]) == _tree_key(windows)
        )
        done = painted and same and titles_agree(windows, active)
        now = time.monotonic()
        if done or now >= deadline:
            return View(frame, windows, stacking, active, done, now - start)
        previous = (frame, stacking, windows)


def clock_ticked(before: Snapshot, after: Snapshot) -> bool:
    """Whether ``after`` shows what ``before`` showed but for the panel clock's time: the
    same elements but the clock, and every pixel that differs inside the clock's box.

    The clock is named by the time it shows (:func:`.a11y.name_clock`), so a minute passing
    changes its element as well as its pixels; an observation that keeps ``before`` then
    shows nothing new (a clock ticking is not the desktop changing), and its image and its
    element list still agree on the time.
    """
    from reefbench.envs.desktop.observation import clock_boxes
    from reefbench.perception.image import differs_only_inside

    boxes = clock_boxes(after.windows)
    if not boxes or (before.frame.width, before.frame.height) != (
        after.frame.width,
        after.frame.height,
    ):
        return False

    def rest(snapshot: Snapshot) -> tuple[list[str], tuple[str, ...]]:
        lines = [
            m.line()
            for m in snapshot.marks.marks
            if not any(box_contains(box, *m.center) for box in boxes)
        ]
        return lines, tuple(snapshot.marks.texts)

    if rest(before) != rest(after):
        return False
    return before.frame.raw == after.frame.raw or differs_only_inside(
        before.image(), after.image(), boxes
    )
