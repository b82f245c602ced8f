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
:meth:`~reefbench.environments.contract.Environment.reset`, the episode passes the run's set there,
and nothing else changes the tool list or the observations. :class:`ActionSet` itself
only says what the set is for, so that reports and help texts can describe it.

How an environment applies a set (the declarations, the episode's spaces, putting them
back) is :class:`ActionSetSpaces`, which :class:`~reefbench.environments.contract.Environment`
inherits: the environment contract itself stays lifecycle, actions, observation and
state. It lives here rather than in a module of its own so that ``import reefbench``
loads no more modules than before.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from reefbench.errors import ConfigError

if TYPE_CHECKING:
    from reefbench.actions.spec import Action


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


class ActionSetSpaces:
    """How an environment applies the run's action set to its spaces for one episode.

    A kind declares, per set, what the set adds, leaves out, swaps in as observations and
    rewrites in the description (the class variables below); :meth:`_apply_set` makes the
    episode's spaces from them and the task's extra actions, and :meth:`_restore_spaces`
    puts the kind's own back, since environments outlive episodes. The public queries
    (:meth:`episode_space` and the ``set_*`` methods) say what an episode would get
    without resetting; a remote environment overrides the ``set_*`` ones to ask its server.
    """

    action_set_actions: ClassVar[Mapping[str, Sequence[Action]]] = {}
    """Actions each action set adds to this kind's space, by set name (a set that is not
    listed adds nothing: the kind has no name-addressed elements, say)."""
    action_set_removes: ClassVar[Mapping[str, Sequence[str]]] = {}
    """Actions each set leaves out of this kind's space, by set name (``pixels``: the
    element-addressed ones). An action the set also adds under the same name replaces
    the one left out, in its place (``scroll`` at x/y instead of over an element)."""
    action_set_observations: ClassVar[Mapping[str, Sequence[Action]]] = {}
    """Observations that replace this kind's whole observation space under a set, by set
    name (``pixels``: the plain screenshot); a set that is not listed keeps them."""
    action_set_descriptions: ClassVar[Mapping[str, Mapping[str, str]]] = {}
    """Sentences of the description each set rewrites, by set name (old -> new): the
    description tells the agent how to address elements, and ``pixels`` has none."""

    # What the environment has; the set changes these for an episode.
    action_space: dict[str, Action]
    observation_space: dict[str, Action]
    description: str
    # The spaces as they were before the current episode's set and extra actions (None:
    # the episode changed nothing); reset and end_episode put them back.
    _base_actions: dict[str, Action] | None = None
    _base_observations: dict[str, Action] | None = None
    _base_text: str | None = None

    def _apply_set(self, extra_actions: Iterable[Action], action_set: str) -> None:
        """Make the episode's spaces: the action space of :meth:`episode_space`, and the
        set's observations in place of the kind's own."""
        space = self.episode_space(extra_actions, action_set)
        if list(space.items()) != list(self.action_space.items()):
            self._base_actions, self.action_space = self.action_space, space
        observations = self.set_observations(action_set)
        if observations:
            self._base_observations = self.observation_space
            self.observation_space = {act.name: act for act in observations}
        rewrites = self.action_set_descriptions.get(action_set, {})
        if rewrites:
            self._base_text = self.description
            for old, new in rewrites.items():
                self.description = self.description.replace(old, new)

    def _restore_spaces(self) -> None:
        """Undo :meth:`_apply_set`: the spaces (and the description) the environment had
        before the episode."""
        if self._base_actions is not None:
            self.action_space, self._base_actions = self._base_actions, None
        if self._base_observations is not None:
            self.observation_space, self._base_observations = self._base_observations, None
        if self._base_text is not None:
            self.description, self._base_text = self._base_text, None

    def episode_actions(
        self, extra_actions: Iterable[Action] = (), action_set: str = DEFAULT_ACTION_SET
    ) -> list[Action]:
        """What an episode adds to the action space: the action set's actions for this
        kind, then the task's own; a name already in the space (and not left out by the
        set) or added before is skipped. :meth:`reset` applies exactly this list, after
        taking out :meth:`set_removes`.

        Raises:
            ConfigError: ``action_set`` is not a known set.
        """
        base = self.action_space if self._base_actions is None else self._base_actions
        present = set(base) - set(self.set_removes(action_set))
        added: dict[str, Action] = {}
        for act in [*self.set_actions(action_set), *extra_actions]:
            if act.name not in present and act.name not in added:
                added[act.name] = act
        return list(added.values())

    def episode_space(
        self, extra_actions: Iterable[Action] = (), action_set: str = DEFAULT_ACTION_SET
    ) -> dict[str, Action]:
        """The action space an episode under ``action_set`` has here, without resetting
        (:meth:`reset` applies exactly this): the kind's space without what the set leaves
        out, a replacement of the same name in the place of what it replaces, then the
        rest of :meth:`episode_actions`.

        Raises:
            ConfigError: ``action_set`` is not a known set.
        """
        base = self.action_space if self._base_actions is None else self._base_actions
        removes = set(self.set_removes(action_set))
        added = {act.name: act for act in self.episode_actions(extra_actions, action_set)}
        space: dict[str, Action] = {}
        for name, act in base.items():
            if name not in removes:
                space[name] = act
            elif name in added:
                space[name] = added.pop(name)
        space.update(added)
        return space

    def set_actions(self, action_set: str) -> Sequence[Action]:
        """The actions ``action_set`` adds to this environment (``action_set_actions``;
        a remote environment asks its server).

        Raises:
            ConfigError: ``action_set`` is not a known set.
        """
        return self.action_set_actions.get(get_action_set(action_set).name, ())

    def set_removes(self, action_set: str) -> Sequence[str]:
        """The actions ``action_set`` leaves out here (``action_set_removes``).

        Raises:
            ConfigError: ``action_set`` is not a known set.
        """
        return self.action_set_removes.get(get_action_set(action_set).name, ())

    def set_observations(self, action_set: str) -> Sequence[Action]:
        """The observations that replace this environment's under ``action_set``
        (``action_set_observations``; empty: it keeps its own).

        Raises:
            ConfigError: ``action_set`` is not a known set.
        """
        return self.action_set_observations.get(get_action_set(action_set).name, ())
