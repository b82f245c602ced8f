"""Action sets: how agents address a device, chosen per run and the same in every task.

A benchmark's tool list must not depend on the task: if it did, which devices get which
tools would tell the agent which devices matter. So each device kind has one action space,
and a run picks one *action set* that every device applies in every episode:

* ``marks`` (the default, CRAB's): elements by their Set-of-Marks number in the latest
  observation, plus screen coordinates.
* ``a11y`` (opt-in): ``marks`` plus name-addressed actions (``click_on`` on the desktop
  and the browser, ``tap_on`` on touch devices) that find an element by its accessible
  name or resource id.
* ``pixels`` (opt-in, OSWorld's computer_13): coordinates only. Every element-addressed
  action is left out (or replaced by an x/y variant of the same name), and the only
  observation is the plain screenshot: no numbered boxes, no element list, no
  accessibility tree or UI dump. What a model sees is what a person would.

A device kind declares, per set, what the set adds (``Environment.action_set_actions``),
which actions it leaves out (``action_set_removes``) and the observations that replace
the kind's own (``action_set_observations``); the environment applies all three in
:meth:`~reefbench.environment.Environment.reset`, the episode passes the run's set there,
and nothing else changes the tool list or the observations. :class:`ActionSet` itself
only says what the set is for, so that reports and help texts can describe it.
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
        elements: Whether agents may address elements (by mark number or name); a set
            without (``pixels``) leaves each kind's element-addressed actions out.
        screenshot_only: Whether the observations are a plain screenshot and nothing else.
    """

    name: str
    summary: str
    elements: bool = True
    screenshot_only: bool = False


MARKS = ActionSet("marks", "Set-of-Marks element ids plus coordinates (CRAB's)")
A11Y = ActionSet("a11y", "marks plus actions naming elements by accessible name (click_on, tap_on)")
PIXELS = ActionSet(
    "pixels",
    "coordinates only, plain screenshots (OSWorld's computer_13)",
    elements=False,
    screenshot_only=True,
)

ACTION_SETS: dict[str, ActionSet] = {s.name: s for s in (MARKS, A11Y, PIXELS)}
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
