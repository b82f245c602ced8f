"""One world clock per task: the date and time every device shows the agent.

A task's world time is the account's clock once its setup has run: :data:`DEFAULT_NOW`,
unless the setup loads a seeded world (:data:`WORLD_NOW`) or fixes the clock
(``set_now``/``set_today``). :func:`task_now` reads it off the setup steps recorded with
the task, so it is known without running anything, and every "today" in an instruction
or a checkpoint means that day.

Every clock ticks on from it: what a device shows is the task's start time plus the time
elapsed since the device's reset (:class:`WorldClock`, whose time source a test fakes).
The account is the one source of the start time:
:class:`~reefbench.envs.services.ServicesEnvironment` tells the devices that follow it
(:meth:`~reefbench.envs.services.ServicesEnvironment.follow_clock`) after every reset and
every write that may move it, and each shows it its own way: the account's pages and the
records made during the episode (a sent mail) carry the ticked time while its "today"
stays the task's day; the phone redraws its status bar and home screen before every dump
and screenshot; the browser reloads the account's pages it shows; the desktop's sandbox
runs under libfaketime (:mod:`reefbench.envs.desktop.faketime`), whose session an episode
starts on the task's time (:class:`ExpectsWorldTime`) and which otherwise restarts when
the time moves. A device started without the account shows :data:`DEFAULT_NOW`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from reefbench.tasks.task import ActionStep

DEFAULT_NOW = "2024-06-03T09:00"
"""The world time of a task whose setup sets none (the account's clock after a reset)."""
WORLD_NOW = "2026-03-16T09:00"
"""The world time of a seeded world (``load_world``): every date in it is drawn around it."""

WORLD_TIMEZONE = "Europe/London"
"""Where the world's clock is: the account's ``timezone`` setting and the desktop's ``TZ``."""

ClockListener = Callable[[str], None]
"""Called with the new world time (``YYYY-MM-DDTHH:MM``) when the account's clock changes."""

TimeSource = Callable[[], float]
"""Seconds on a clock that only moves forward (:func:`time.monotonic`; a test's fake)."""

_SETS_CLOCK = ("load_world", "set_now", "set_today")


def parse_now(value: str) -> datetime:
    """``YYYY-MM-DDTHH:MM`` (or any ISO date and time) as a naive :class:`datetime`."""
    return datetime.fromisoformat(value.strip())


def task_now(setup: Iterable[ActionStep]) -> str:
    """The world time a task's setup leaves on the account's clock (``YYYY-MM-DDTHH:MM``).

    Follows the setup actions that set the clock, in order: ``load_world`` (the world's
    :data:`WORLD_NOW`), ``set_now(now)`` and ``set_today(date)``; :data:`DEFAULT_NOW` when
    there is none.
    """
    now = parse_now(DEFAULT_NOW)
    for step in setup:
        name = step.action.name
        if name not in _SETS_CLOCK:
            continue
        args = step.action.bound
        if name == "load_world":
            now = parse_now(WORLD_NOW)
        elif name == "set_now":
            now = parse_now(str(args["now"]))
        else:
            day = date.fromisoformat(str(args["date"]).strip())
            now = datetime.combine(day, now.time())
    return now.strftime("%Y-%m-%dT%H:%M")


class WorldClock:
    """The time a device shows: the task's start time plus the seconds elapsed since the
    device's last reset, so every clock ticks on from the same moment as the desktop's.

    Args:
        source: Where seconds come from; a test passes a fake it moves by hand.
    """

    def __init__(self, source: TimeSource = time.monotonic) -> None:
        self.source = source
        self._reset_at = source()

    def reset(self) -> None:
        """Count from now: the device was just reset."""
        self._reset_at = self.source()

    def elapsed(self) -> float:
        """Seconds since the last reset."""
        return max(0.0, self.source() - self._reset_at)

    def now(self, start: str) -> datetime:
        """The world time for a task that started at ``start`` (``YYYY-MM-DDTHH:MM``),
        to the second."""
        return parse_now(start) + timedelta(seconds=int(self.elapsed()))


@runtime_checkable
class ExpectsWorldTime(Protocol):
    """A device whose reset is cheaper when it knows the next task's world time first
    (the desktop: its session then starts on that time instead of restarting once the
    setup moves the clock). An episode tells it :func:`task_now` before the reset."""

    def expect_world_time(self, now: str | None) -> None: ...


@runtime_checkable
class StampsSetupFiles(Protocol):
    """A device whose files carry times (the desktop's home): the files a task's setup
    wrote there are given the world time once the setup has run, as if written inside the
    world, whichever helper wrote them and whatever folders it made on the way."""

    def stamp_setup_files(self) -> None: ...


__all__ = [
    "DEFAULT_NOW",
    "WORLD_NOW",
    "WORLD_TIMEZONE",
    "ClockListener",
    "ExpectsWorldTime",
    "StampsSetupFiles",
    "TimeSource",
    "WorldClock",
    "parse_now",
    "task_now",
]
