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
