"""Action sets: how agents address a device, chosen per run and the same in every task.

A benchmark's tool list must not depend on the task: if it did, which devices get which
tools would tell the agent which devices matter. So each device kind has one action space,
and a run picks one *action set* that every device applies in every episode:

* ``marks`` (the default, CRAB's): elements by their Set-of-Marks number in the latest
  observation, plus screen coordinates.
* ``a11y`` (opt-in): ``marks`` plus name-addressed actions (``click_on`` on the desktop
  and the browser, ``tap_on`` on touch devices) that find an element by its accessible
  name or resource id.

A device kind declares what each set adds in ``Environment.action_set_actions``; the
environment applies it in :meth:`~reefbench.environment.Environment.reset`, the episode
passes the run's set there, and nothing else changes the tool list. A set that also
removes actions or changes observations (``pixels``: coordinates only, screenshot-only
observations) will extend :class:`ActionSet` with what the device leaves out.
"""

from __future__ import annotations

from dataclasses import dataclass

from reefbench.errors import ConfigError


@dataclass(frozen=True, slots=True)
class ActionSet:
    """One way of addressing devices.

    Attributes:
        name: How runs select it (``--action-set NAME``).
        summary: One line for help texts and reports.
    """

    name: str
    summary: str


MARKS = ActionSet("marks", "Set-of-Marks element ids plus coordinates (CRAB's)")
A11Y = ActionSet("a11y", "marks plus actions naming elements by accessible name (click_on, tap_on)")

ACTION_SETS: dict[str, ActionSet] = {s.name: s for s in (MARKS, A11Y)}
DEFAULT_ACTION_SET = MARKS.name


def get_action_set(name: str) -> ActionSet:
    """The action set called ``name``.

    Raises:
        ConfigError: no such set (the message lists the known ones).
    """
    found = ACTION_SETS.get(name)
    if found is None:
        raise ConfigError(f"unknown action set {name!r}: choose one of {', '.join(ACTION_SETS)}")
    return found
