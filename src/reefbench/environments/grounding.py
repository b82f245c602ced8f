"""Grounding: from an element's accessible name to its mark in an observation.

Used twice, with the same rules, so that both mean the same element:

* by the ``a11y`` action set's name-addressed actions (``click_on``, ``tap_on``), which
  find the element in a fresh observation and then run the real element action;
* by the agents that play stored solutions (the oracle, and the scripted agents of the
  gates) and by an episode's SR@k prefix: solutions name elements by accessible name,
  because mark numbers change with every observation, and under the default ``marks`` set
  :func:`element_call` turns such a call into the set's real ``click``/``tap`` with the
  number the element has in the current observation; under ``pixels``, which has no
  element actions, into the coordinate action (``click_at``/``tap_at``) at the element's
  centre, in the pixels of the screenshot the agent sees. So the gates prove that every
  task can be solved by numbers and by pixels alike.

A device that supports this implements :class:`Groundable` (and :class:`PointGroundable`
for the coordinate form). The module is core (no device
imports) so that the episode, the agents and the device kinds can all use it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Protocol, runtime_checkable

from reefbench.actions.spec import ActionCall
from reefbench.errors import InvalidAction
from reefbench.plumbing.waiting import wait_until

if TYPE_CHECKING:
    from reefbench.environments.contract import Environment


@dataclass(frozen=True, slots=True)
class Candidate:
    """One numbered element as grounding sees it.

    Attributes:
        id: Its mark number in the observation.
        name: Its accessible name (label) as listed.
        role: Its role (desktop, browser) or class (phone) as listed.
        resource: A stable id besides the name (the phone's resource id), or ``""``.
        choice: What an element named by its label shows as its choice (a drop-down's
            item: ``combo box "Style" value="Zoomed"``), or ``""``. Lists once named
            such elements by their choice, and stored solutions do (``Zoomed``): it is
            matched when no name is.
    """

    id: int
    name: str
    role: str
    resource: str = ""
    choice: str = ""


@runtime_checkable
class Groundable(Protocol):
    """A device whose elements can be found by name.

    ``name_addressed`` maps each name-addressed action of the ``a11y`` set to the element
    action of the ``marks`` set it stands for (``{"click_on": "click"}``).
    """

    name_addressed: ClassVar[Mapping[str, str]]

    def element_candidates(self, fresh: bool) -> Sequence[Candidate]:
        """The numbered elements of the latest observation, or of a new one if ``fresh``
        (a new one also becomes the observation whose ids the element actions use)."""
        ...


@runtime_checkable
class PointGroundable(Groundable, Protocol):
    """A :class:`Groundable` device that can also say where an element is on the screenshot.

    ``point_addressed`` maps each name-addressed action to the coordinate action that does
    the same at a point (``{"click_on": "click_at"}``); that action takes ``x`` and ``y``
    in screenshot pixels.
    """

    point_addressed: ClassVar[Mapping[str, str]]

    def element_point(self, elem: int) -> tuple[int, int]:
        """The centre of the element numbered ``elem`` in the latest observation, in the
        pixels of the screenshot the agent sees (what coordinate actions take)."""
        ...


def normalise(text: str) -> str:
    """Case and runs of white space do not matter when names are compared."""
    return " ".join(text.split()).casefold()


# How an element list names an empty field that shows a placeholder: "Copy name, hint:
# IMG_0851.png" (the phone's and the browser's lists).
HINT_SEPARATOR = ", hint: "


def names_of(label: str) -> tuple[str, ...]:
    """The names an element answers to exactly: its listed name, and for a field listed
    with a hint, its label and its hint each (a stored solution may name either)."""
    head, sep, hint = label.partition(HINT_SEPARATOR)
    return (label, head, hint) if sep else (label,)


def pick(candidates: Sequence[Candidate], name: str, role: str = "") -> int:
    """The id of the first candidate matching ``name`` (and ``role``, if given): an exact
    name (a field's label or hint, see :func:`names_of`) or resource id first, else the
    first name that contains it, else the first choice that is it or contains it
    (:attr:`Candidate.choice`).

    Raises:
        InvalidAction: nothing matches; the message lists what is there.
    """
    wanted = normalise(name)
    for exact in (True, False):
        for found in candidates:
            if role and found.role != role:
                continue
            label = normalise(found.name)
            if exact:
                exact_names = [normalise(n) for n in names_of(found.name)]
                if wanted in exact_names or found.resource == name:
                    return found.id
            elif wanted in label:
                return found.id
    for exact in (True, False):
        for found in candidates:
            if (role and found.role != role) or not found.choice:
                continue
            choice = normalise(found.choice)
            if choice == wanted if exact else wanted in choice:
                return found.id
    shown = "; ".join(f"{c.role} {c.name!r}" for c in candidates[:40])
    raise InvalidAction(f"no element named {name!r}{f' ({role})' if role else ''}: {shown}")


def find(
    observe: Callable[[bool], Sequence[Candidate]],
    name: str,
    role: str = "",
    *,
    current: bool = False,
    within: float = 3.0,
) -> int:
    """The id of the element called ``name`` in fresh observations, until it shows up (a
    menu still opening, a page still loading), up to ``within`` seconds.

    Args:
        observe: ``fresh -> candidates`` (:meth:`Groundable.element_candidates`).
        current: Look in the current observation first (the one the agent saw).

    Raises:
        InvalidAction: it did not show up; the message says what is there instead.
    """
    if current:
        try:
            return pick(observe(False), name, role)
        except InvalidAction:
            pass

    def found() -> tuple[int] | None:  # a tuple, so that an id of 0 still counts as found
        try:
            return (pick(observe(True), name, role),)
        except InvalidAction:
            return None

    hit = wait_until(found, within, interval=0.1)
    return hit[0] if hit else pick(observe(True), name, role)  # raises: says what is there


def ground(device: Groundable, name: str, role: str = "", *, current: bool = False) -> int:
    """The mark number of the element called ``name`` on ``device`` (see :func:`find`)."""
    return find(device.element_candidates, name, role, current=current)


def element_call(call: ActionCall, env: Environment, *, fresh: bool = False) -> ActionCall:
    """``call`` in ``env``'s current action space: a name-addressed call (``click_on``)
    that the space lacks becomes the element action it stands for (``click``) with the
    number of the named element in the current observation, or, when the space has no
    element action either (``pixels``), the coordinate action (``click_at``) at the
    element's centre; any other call is returned as it is (the episode validates it).

    ``fresh``: ground in a new observation of ``env`` rather than the latest one — for
    calls played without the episode observing in between (the gates' agents, an SR@k
    prefix), whose latest observation may predate the previous action.

    Raises:
        InvalidAction: the named element is not on the screen.
    """
    if call.name in env.action_space or not isinstance(env, Groundable):
        return call
    element_action = env.name_addressed.get(call.name)
    name = call.arguments.get("name")
    if element_action is None or not isinstance(name, str):
        return call
    role = str(call.arguments.get("role", ""))
    elem = ground(env, name, role, current=not fresh)
    if element_action not in env.action_space and isinstance(env, PointGroundable):
        point_action = env.point_addressed.get(call.name)
        if point_action is not None and point_action in env.action_space:
            x, y = env.element_point(elem)
            return ActionCall(env=call.env, name=point_action, arguments={"x": x, "y": y})
    return ActionCall(env=call.env, name=element_action, arguments={"elem": elem})
