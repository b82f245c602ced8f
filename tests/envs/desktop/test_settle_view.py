"""The view's two reads: how long the screen must stay quiet between them, on a fake
screen and a fake clock (a read of the accessibility tree takes 20-90 ms)."""

from __future__ import annotations

from typing import Any

import pytest

from reefbench.envs.desktop import settling
from reefbench.envs.desktop.a11y import UIWindow
from reefbench.envs.desktop.screen import Frame, Settle
from reefbench.envs.desktop.x11 import XWindow

QUIET = 0.06
# A frame with something drawn on it (a flat one would count as unpainted).
FRAME = Frame(bytes(range(256)) * 4, 32, 8)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class FakeScreen:
    """Always shows FRAME; records the quiet period each wait asked for."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.quiet_asked: list[float] = []

    def grab(self) -> Frame:
        return FRAME

    def wait_stable(self, *, quiet: float, timeout: float, **_: Any) -> tuple[Frame, Settle]:
        self.quiet_asked.append(quiet)
        self.clock.now += quiet
        return FRAME, Settle(True, False, quiet)


def settle(monkeypatch: pytest.MonkeyPatch, read_seconds: float, *, stable: bool) -> FakeScreen:
    clock = Clock()
    monkeypatch.setattr(settling.time, "monotonic", clock)
    screen = FakeScreen(clock)
    window = UIWindow(app="mousepad", pid=2, title="t", role="frame", box=None, active=True)

    def read_windows() -> list[UIWindow]:
        clock.now += read_seconds
        return [window]

    def read_stacking() -> list[XWindow]:
        return []

    view = settling.settle_view(
        screen,  # type: ignore[arg-type]
        read_stacking,
        read_windows,
        lambda: None,
        quiet=QUIET,
        timeout=3.0,
        stable=FRAME if stable else None,
    )
    assert view.settled
    return screen


def test_a_read_slower_than_the_quiet_period_is_not_followed_by_another_wait(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    screen = settle(monkeypatch, 0.08, stable=True)
    assert screen.quiet_asked == [0.0]


def test_the_second_read_starts_a_quiet_period_after_the_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    screen = settle(monkeypatch, 0.02, stable=True)
    assert screen.quiet_asked == [pytest.approx(QUIET - 0.02)]
    # Without a frame the action's own wait found stable, the first read waits a whole one.
    screen = settle(monkeypatch, 0.02, stable=False)
    assert screen.quiet_asked == [QUIET, pytest.approx(QUIET - 0.02)]


def _device_seeing(*windows: UIWindow) -> Any:
    from reefbench.envs.desktop import DesktopEnvironment

    device = DesktopEnvironment("desktop")  # never started: only its latest view is read
    device.view = settling.View(FRAME, windows, (), None, True, 0.0)
    return device


def _dialog(active: bool, states: frozenset[str]) -> UIWindow:
    from reefbench.envs.desktop.a11y import UINode

    save = UINode(role="push button", name="Save", box=(100, 50, 80, 30), states=states, depth=2)
    return UIWindow(
        app="mousepad",
        pid=2,
        title="Save As",
        role="dialog",
        box=None,
        active=active,
        nodes=(save,),
    )


def test_a_click_on_the_active_dialogs_default_button_is_known_as_one() -> None:
    # Such a click is what Enter does (Save, Open) and is waited for like Enter.
    default = frozenset({"default", "sensitive"})
    assert _device_seeing(_dialog(True, default))._default_button_at(120, 60)
    assert not _device_seeing(_dialog(True, default))._default_button_at(90, 60)  # beside it
    assert not _device_seeing(_dialog(False, default))._default_button_at(120, 60)
    assert not _device_seeing(_dialog(True, frozenset({"sensitive"})))._default_button_at(120, 60)


def test_the_view_settles_only_once_the_focused_windows_tree_bears_its_title(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Playtest Q9, request 43: after Ctrl+2 Chromium's window was titled after the second
    tab while its screen and tree, quiet and equal across two reads, showed the first."""
    clock = Clock()
    monkeypatch.setattr(settling.time, "monotonic", clock)
    box = (0, 0, 640, 480)
    active = XWindow(7, "plan_2.png - Chromium", "Chromium", 9, box)
    titles = iter(["plan_1.png - Chromium"] * 3 + ["plan_2.png - Chromium"] * 10)
    reads: list[str] = []

    def read_windows() -> list[UIWindow]:
        clock.now += 0.02
        reads.append(next(titles))
        return [
            UIWindow(app="chromium", pid=9, title=reads[-1], role="frame", box=box, active=True)
        ]

    view = settling.settle_view(
        FakeScreen(clock),  # type: ignore[arg-type]
        lambda: [active],
        read_windows,
        lambda: active,
        quiet=QUIET,
        timeout=3.0,
    )
    assert view.settled and view.windows[0].title == "plan_2.png - Chromium"
    assert len(reads) == 5  # three stale reads, then two equal fresh ones


def test_titles_agree_ignores_windows_it_cannot_match() -> None:
    active = XWindow(7, "Save As", "Mousepad", 2, (100, 100, 400, 300))
    other_place = UIWindow(
        app="m", pid=2, title="Other", role="dialog", box=(600, 500, 10, 10), active=True
    )
    assert settling.titles_agree([other_place], active)
    assert settling.titles_agree([], None)
    same_place = UIWindow(
        app="m", pid=2, title="Other", role="dialog", box=(110, 90, 10, 10), active=True
    )
    assert not settling.titles_agree([same_place], active)
