"""How search_app tells a launch lost to an exiting app from a slow one (no desktop)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from reefbench.envs.desktop.actions import _app_instances, _window_or_gone
from reefbench.envs.desktop.x11 import XWindow


class _Desk:
    """What the launch wait reads: new windows and the sandbox's processes."""

    def __init__(self, processes: list[dict[str, Any]]) -> None:
        self.window: XWindow | None = None
        self.session = SimpleNamespace(processes=lambda: list(processes))
        self.processes = processes

    def new_window(self, before: set[tuple[int, int]]) -> XWindow | None:
        return self.window


def _proc(pid: int, comm: str) -> dict[str, Any]:
    return {"pid": pid, "comm": comm, "cmdline": [comm]}


def test_an_app_instance_exiting_ends_the_wait_and_a_window_wins() -> None:
    desk: Any = _Desk(
        [_proc(7, "mousepad"), _proc(8, "xfce4-terminal"), _proc(9, "bash"), _proc(10, "vim")]
    )
    instances = _app_instances(desk)
    assert instances == {7, 8}  # a shell, or vim in the terminal, is not an app instance
    assert _window_or_gone(desk, set(), instances) is False  # still waiting
    desk.processes[:] = [_proc(8, "xfce4-terminal"), _proc(11, "mousepad"), _proc(10, "vim")]
    assert _window_or_gone(desk, set(), instances) is True  # 7 took the launch with it
    window = XWindow(
        id=5, title="Untitled 1 - Mousepad", wm_class="Mousepad", pid=11, box=(0, 0, 9, 9)
    )
    desk.window = window
    assert _window_or_gone(desk, set(), instances) is window
