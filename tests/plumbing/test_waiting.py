"""wait_until: the project's one deadline loop."""

from __future__ import annotations

import itertools

from reefbench.plumbing.waiting import wait_until


class FakeClock:
    """Time that only moves when the waiter sleeps, so the tests need no real waiting."""

    def __init__(self, monkeypatch: object) -> None:
        self.now = 100.0
        monkeypatch.setattr("reefbench.plumbing.waiting.time.monotonic", lambda: self.now)  # type: ignore[attr-defined]
        self.sleeps: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(round(seconds, 6))
        self.now += seconds


def test_returns_the_first_truthy_value_without_waiting_longer(monkeypatch: object) -> None:
    clock = FakeClock(monkeypatch)
    answers = iter([None, 0, "window 7"])
    assert wait_until(lambda: next(answers), 5.0, interval=0.5, sleep=clock.sleep) == "window 7"
    assert clock.sleeps == [0.5, 0.5]


def test_gives_up_at_the_deadline_and_polls_once_more_there(monkeypatch: object) -> None:
    clock = FakeClock(monkeypatch)
    calls = itertools.count()
    assert wait_until(lambda: next(calls) < 0, 1.0, interval=0.4, sleep=clock.sleep) is None
    assert clock.sleeps == [0.4, 0.4, 0.2]  # the last sleep is capped by the time left
    assert next(calls) == 4  # polled at 0, 0.4, 0.8 and at the deadline


def test_a_zero_timeout_still_checks_once(monkeypatch: object) -> None:
    clock = FakeClock(monkeypatch)
    assert wait_until(lambda: True, 0.0, sleep=clock.sleep) is True
    assert wait_until(lambda: False, 0.0, sleep=clock.sleep) is None
    assert clock.sleeps == []
