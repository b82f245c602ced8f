"""Window-manager state read straight from the X server (python-xlib, no subprocess).

Stacking order, the active window, titles, classes and owning pids come from the EWMH
properties the window manager maintains; a query costs well under a millisecond, which is
why this is not done with xprop/xdotool processes.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from reefbench.envs.desktop.a11y import Box, box_contains
from reefbench.envs.desktop.xsession import SESSION_WINDOW_CLASSES


@dataclass(frozen=True, slots=True)
class XWindow:
    """A managed top-level window."""

    id: int
    title: str
    wm_class: str
    pid: int
    box: Box
    frame: Box | None = None
    """The box with the window manager's decorations (title bar, borders): all the screen
    the window covers. ``None``: undecorated, or the manager did not say."""

    def contains(self, x: int, y: int) -> bool:
        """Whether the point is in the window's own (client) area."""
        return box_contains(self.box, x, y)

    def covers(self, x: int, y: int) -> bool:
        """Whether the window hides the point from what lies below it: its title bar and
        borders too (a maximised terminal's title bar hid Writer's toolbar, whose buttons
        were still listed as clickable)."""
        return box_contains(self.frame or self.box, x, y)


def framed(box: Box, extents: Any) -> Box | None:
    """``box`` grown by EWMH ``_NET_FRAME_EXTENTS`` (left, right, top, bottom), or ``None``
    when the manager set none (or all zero)."""
    if extents is None or len(extents) != 4 or not any(extents):
        return None
    left, right, top, bottom = (int(e) for e in extents)
    x, y, w, h = box
    return (x - left, y - top, w + left + right, h + top + bottom)


class X11:
    """One connection to one display; thread-safe through a lock."""

    def __init__(self, display: str) -> None:
        from Xlib import display as xdisplay

        self._d = xdisplay.Display(display)
        self._root = self._d.screen().root
        self._lock = threading.Lock()
        self._atoms: dict[str, int] = {}

    def _atom(self, name: str) -> int:
        if name not in self._atoms:
            self._atoms[name] = self._d.intern_atom(name)
        return self._atoms[name]

    def _prop(self, window: Any, name: str) -> Any:
        from Xlib import X

        reply = window.get_full_property(self._atom(name), X.AnyPropertyType)
        return None if reply is None else reply.value

    @property
    def screen_size(self) -> tuple[int, int]:
        screen = self._d.screen()
        return int(screen.width_in_pixels), int(screen.height_in_pixels)

    def _describe(self, wid: int) -> XWindow | None:
        from Xlib import error

        window = self._d.create_resource_object("window", wid)
        try:
            raw_title = self._prop(window, "_NET_WM_NAME") or self._prop(window, "WM_NAME") or b""
            title = raw_title.decode("utf-8", "replace") if isinstance(raw_title, bytes) else ""
            wm_class = window.get_wm_class() or ("", "")
            pids = self._prop(window, "_NET_WM_PID")
            geometry = window.get_geometry()
            origin = self._root.translate_coords(window, 0, 0)
            extents = self._prop(window, "_NET_FRAME_EXTENTS")
        except (error.BadWindow, error.BadDrawable):
            return None
        box = (int(origin.x), int(origin.y), int(geometry.width), int(geometry.height))
        return XWindow(
            id=wid,
            title=title,
            wm_class=wm_class[1],
            pid=int(pids[0]) if pids is not None and len(pids) else 0,
            box=box,
            frame=framed(box, extents),
        )

    def stacking(self) -> list[XWindow]:
        """Managed windows from bottom to top."""
        with self._lock:
            ids = self._prop(self._root, "_NET_CLIENT_LIST_STACKING")
            out = [self._describe(int(w)) for w in (ids if ids is not None else ())]
        return [w for w in out if w is not None]

    def is_dialog(self, wid: int) -> bool:
        """Whether the window is a dialog (its type says so, or it is transient for
        another window); a window that is gone is not."""
        from Xlib import error

        window = self._d.create_resource_object("window", wid)
        with self._lock:
            try:
                types = self._prop(window, "_NET_WM_WINDOW_TYPE")
                transient = window.get_wm_transient_for()
            except (error.BadWindow, error.BadDrawable):
                return False
            dialog = self._atom("_NET_WM_WINDOW_TYPE_DIALOG")
        return transient is not None or (types is not None and dialog in list(types))

    def active(self) -> XWindow | None:
        """The window that has the focus, if any: never the session's own (a click on the
        wallpaper or the panel focuses them, and no app is then in front)."""
        with self._lock:
            value = self._prop(self._root, "_NET_ACTIVE_WINDOW")
            if value is None or not len(value) or not int(value[0]):
                return None
            window = self._describe(int(value[0]))
        if window is not None and window.wm_class in SESSION_WINDOW_CLASSES:
            return None
        return window

    def pressed_buttons(self) -> list[int]:
        """Mouse buttons currently held down (1 = left, 2 = middle, 3 = right)."""
        from Xlib import X

        with self._lock:
            mask = self._root.query_pointer().mask
        masks = {1: X.Button1Mask, 2: X.Button2Mask, 3: X.Button3Mask}
        return [b for b, m in masks.items() if mask & m]

    def close(self) -> None:
        with self._lock:
            self._d.close()
