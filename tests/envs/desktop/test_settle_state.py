"""The desktop's state settle (the home tree quiet before checkpoints read it) on a fake
clock: the final settle goes on from the quiet the last quick settle saw instead of
waiting its whole quiet time again, and a change since starts it afresh."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from reefbench.envs.desktop import device as device_module
from reefbench.envs.desktop.device import DesktopDevice
from reefbench.envs.desktop.hometree import scan
from reefbench.plumbing.waiting import wait_until


class Clock:
    """Fake monotonic time; sleeping advances it and is recorded."""

    def __init__(self) -> None:
        self.now = 100.0
        self.slept = 0.0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds
        self.slept += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(time, "monotonic", fake.monotonic)
    monkeypatch.setattr(
        device_module,
        "wait_until",
        lambda predicate, timeout, **kw: wait_until(predicate, timeout, sleep=fake.sleep, **kw),
    )
    return fake


def _device(home: Path) -> DesktopDevice:
    device = DesktopDevice.__new__(DesktopDevice)  # only what the state settle reads
    device.session = SimpleNamespace(home=home)  # type: ignore[assignment]
    device._home_after_action = None
    device._home_quiet = None
    device.exiting_apps = list  # type: ignore[method-assign]
    return device


def _after_input(device: DesktopDevice, home: Path, clock: Clock, seconds_ago: float) -> None:
    """What act() and the view settle leave: the tree read as the input was sent."""
    device._home_after_action = (scan(home), clock.now - seconds_ago)


def test_the_final_settle_goes_on_from_the_last_quick_one(tmp_path: Path, clock: Clock) -> None:
    (tmp_path / "a.txt").write_text("saved")
    device = _device(tmp_path)
    _after_input(device, tmp_path, clock, seconds_ago=0.25)
    assert device.on_settle_state(2.0, quick=True)
    assert clock.slept == 0.0  # quiet for 0.25 s already: more than the quick 0.1 s
    assert device.on_settle_state(10.0, quick=False)
    # Only what was missing of the final 0.4 s since the input (the 0.05 s poll rounds it).
    assert 0.15 <= clock.slept <= 0.2


def test_a_change_after_the_quick_settle_restarts_the_final_quiet(
    tmp_path: Path, clock: Clock
) -> None:
    device = _device(tmp_path)
    _after_input(device, tmp_path, clock, seconds_ago=0.25)
    assert device.on_settle_state(2.0, quick=True)
    (tmp_path / "late.txt").write_text("a write that landed after the per-step check")
    assert device.on_settle_state(10.0, quick=False)
    assert clock.slept >= 0.4


def test_without_a_quick_settle_the_final_one_waits_its_whole_quiet(
    tmp_path: Path, clock: Clock
) -> None:
    device = _device(tmp_path)
    assert device.on_settle_state(10.0, quick=False)
    assert clock.slept >= 0.4
    # ... and it is used once: a second final settle does not reuse the first's quiet.
    before = clock.slept
    assert device.on_settle_state(10.0, quick=False)
    assert clock.slept - before >= 0.4
