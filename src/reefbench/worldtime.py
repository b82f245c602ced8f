"""One world clock per task: the date and time every device shows the agent.

A task's world time is the account's clock once its setup has run: :data:`DEFAULT_NOW`,
unless the setup loads a seeded world (:data:`WORLD_NOW`) or fixes the clock
(``set_now``/``set_today``). :func:`task_now` reads it off the setup steps recorded with
the task, so it is known without running anything, and every "today" in an instruction
or a checkpoint means that day.

At run time the account is the one source: :class:`~reefbench.apps.ServicesEnvironment`
tells the devices that follow it (:meth:`~reefbench.apps.ServicesEnvironment.follow_clock`)
its clock after every reset and every write that may move it, and each shows it its own
way: the desktop's sandbox runs under libfaketime (:mod:`reefbench.envs.desktop.faketime`;
its session restarts when the time moves), the phone redraws its status bar and home
screen, the browser reloads the account's pages it shows. A device started without the
account shows :data:`DEFAULT_NOW`. The account's and the phone's clocks stand still at the
task's time; the desktop's ticks on from it (programs need time to pass).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import date, datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reefbench.task import ActionStep

DEFAULT_NOW = "2024-06-03T09:00"
"""The world time of a task whose setup sets none (the account's clock after a reset)."""
WORLD_NOW = "2026-03-16T09:00"
"""The world time of a seeded world (``load_world``): every date in it is drawn around it."""

WORLD_TIMEZONE = "Europe/London"
"""Where the world's clock is: the account's ``timezone`` setting and the desktop's ``TZ``."""

ClockListener = Callable[[str], None]
"""Called with the new world time (``YYYY-MM-DDTHH:MM``) when the account's clock changes."""

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


__all__ = ["DEFAULT_NOW", "WORLD_NOW", "WORLD_TIMEZONE", "ClockListener", "parse_now", "task_now"]
