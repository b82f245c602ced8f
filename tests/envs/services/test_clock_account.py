"""The account's clock ticks on from the task's start time, as the desktop's does.

The world time is the task's start time (the ``now`` setting) plus the time elapsed since
the account's reset: the pages show it, records made during the episode (a sent mail)
carry it, and "today" stays the task's day. A fake time source moves the clock by hand.
"""

from __future__ import annotations

import urllib.parse
import urllib.request
from collections.abc import Iterator

import pytest

from reefbench.envs.services import ServicesEnvironment
from reefbench.envs.services.store import Store, now, now_text, today
from reefbench.tasks.worldtime import DEFAULT_NOW, WorldClock


class Seconds:
    """A time source that moves only when told."""

    def __init__(self) -> None:
        self.value = 5000.0

    def __call__(self) -> float:
        return self.value


@pytest.fixture(scope="module")
def seconds() -> Seconds:
    return Seconds()


@pytest.fixture(scope="module")
def ticking(seconds: Seconds) -> Iterator[ServicesEnvironment]:
    env = ServicesEnvironment(clock=WorldClock(seconds))
    env.start()
    yield env
    env.stop()


def _page(account: ServicesEnvironment, path: str, form: dict[str, str] | None = None) -> str:
    cookie = account.session_cookie()
    data = urllib.parse.urlencode(form).encode() if form is not None else None
    request = urllib.request.Request(account.url + path, data=data)
    request.add_header("Cookie", f"{cookie['name']}={cookie['value']}")
    with urllib.request.urlopen(request, timeout=10) as response:
        return str(response.read().decode("utf-8"))


def test_the_store_clock_ticks_from_the_start_time_and_today_stays_the_tasks_day() -> None:
    seconds = Seconds()
    store = Store(WorldClock(seconds))
    store.reset()
    with store.read() as db:
        assert now_text(db) == DEFAULT_NOW
    seconds.value += 15 * 3600 + 125  # past midnight: 2024-06-04 00:02
    with store.read() as db:
        assert now(db).isoformat() == "2024-06-04T00:02:05"
        assert today(db).isoformat() == DEFAULT_NOW[:10]  # the task's day, for checkers
    store.reset()
    with store.read() as db:
        assert now_text(db) == DEFAULT_NOW


def test_a_store_without_a_clock_stands_still() -> None:
    # A world being built must come out the same whatever the time it takes.
    store = Store()
    with store.read() as db:
        assert now_text(db) == DEFAULT_NOW


def test_the_pages_and_a_sent_mail_show_the_ticked_time(
    ticking: ServicesEnvironment, seconds: Seconds
) -> None:
    ticking.reset()
    assert "Mon 03 Jun 2024, 09:00" in _page(ticking, "/mail")
    seconds.value += 7 * 60 + 30
    assert "Mon 03 Jun 2024, 09:07" in _page(ticking, "/mail")
    _page(ticking, "/mail/send", {"to": "sam@reef.test", "subject": "Ticks", "body": "x"})
    sent = [m for m in ticking.rows("mail") if m["subject"] == "Ticks"]
    assert [m["date"] for m in sent] == ["2024-06-03T09:07"]
    # The task's start time (what devices follow, what task_now records) does not move.
    assert ticking.clock() == DEFAULT_NOW


def test_set_today_keeps_the_start_times_hour_not_the_ticked_one(
    ticking: ServicesEnvironment, seconds: Seconds
) -> None:
    ticking.reset()
    seconds.value += 3 * 3600
    ticking.call("set_today", date="2024-06-10")
    assert ticking.clock() == "2024-06-10T09:00"
