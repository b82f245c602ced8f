"""Telling a mapped-but-unpainted window from a drawn one, on synthetic frames."""

from __future__ import annotations

from reefbench.envs.desktop.screen import Frame
from reefbench.envs.desktop.settling import unpainted
from reefbench.envs.desktop.x11 import XWindow


def _frame(width: int, height: int, drawn: tuple[int, int, int, int] | None) -> Frame:
    """A black BGRX frame, with a white rectangle where something was drawn."""
    raw = bytearray(width * height * 4)
    if drawn is not None:
        x, y, w, h = drawn
        for row in range(y, y + h):
            start = (row * width + x) * 4
            raw[start : start + w * 4] = b"\xff\xff\xff\x00" * w
    return Frame(bytes(raw), width, height)


def _window(box: tuple[int, int, int, int], title: str = "Save As") -> XWindow:
    return XWindow(id=1, title=title, wm_class="mousepad", pid=2, box=box)


def test_a_flat_window_is_unpainted_and_a_drawn_one_is_not() -> None:
    dialog = _window((0, 0, 200, 100))
    assert unpainted(_frame(320, 200, None), [dialog]) == [dialog]
    assert unpainted(_frame(320, 200, (10, 10, 20, 5)), [dialog]) == []


def test_small_and_off_screen_windows_are_not_judged() -> None:
    tooltip = _window((5, 5, 40, 20), "tip")
    outside = _window((400, 300, 200, 100), "elsewhere")
    assert unpainted(_frame(320, 200, None), [tooltip, outside]) == []


def test_only_the_part_no_window_above_covers_is_judged() -> None:
    # Mousepad's Open dialog lies over its parent and shows a blank file list exactly
    # where the parent is: the parent, painted underneath, is not "unpainted".
    parent = _window((100, 60, 100, 80), "Untitled - Mousepad")
    dialog = XWindow(id=3, title="Open", wm_class="mousepad", pid=2, box=(0, 0, 320, 200))
    frame = _frame(320, 200, (5, 5, 20, 5))  # something drawn on the dialog, not over the parent
    assert unpainted(frame, [parent, dialog]) == []
    # Half covered: the visible half is judged.
    half = XWindow(id=4, title="Find", wm_class="mousepad", pid=2, box=(0, 0, 150, 200))
    assert unpainted(_frame(320, 200, None), [parent, half]) == [parent, half]
    assert unpainted(_frame(320, 200, (170, 100, 10, 10)), [parent, half]) == [half]
    # Drawn only where the window above covers it: the visible part is still flat.
    assert unpainted(_frame(320, 200, (110, 70, 20, 20)), [parent, half]) == [parent]
