"""Agents that need no model: scripted, oracle (reference solution) and null.

They play stored calls, which name elements by accessible name (``click_on``) because mark
numbers change with every observation. They are privileged
(:class:`~reefbench.episodes.protocol.PrivilegedAgent`): under an action set without name-addressed
actions (the default ``marks``) each such call is grounded against the current observation
and played as the set's real element action (``click(elem=...)``), and under ``pixels`` as
the coordinate action at the element's centre (``click_at(x=..., y=...)``), so a reference
solution goes through the same action space as any agent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from reefbench.actions.spec import Action, ActionCall
from reefbench.environments.grounding import element_call
from reefbench.episodes.protocol import AgentOutput, Turn
from reefbench.errors import ConfigError, InvalidAction

if TYPE_CHECKING:
    from reefbench.environments.contract import Environment
    from reefbench.tasks.task import Task


class ScriptedAgent:
    """Plays a fixed list of turns (each a list of calls); then calls ``complete()``.

    ``observe=False`` asks the episode not to observe the devices every turn: each
    name-addressed call is then grounded in a fresh observation of its own device, and
    calls by mark number are not allowed (there is no observation they could refer to).
    The gates play this way: a turn's observation of every device was up to half of an
    oracle episode's time, and nothing in it is read.
    """

    name = "scripted"

    def __init__(self, turns: Iterable[Iterable[ActionCall]] = (), *, observe: bool = True) -> None:
        self._script = [list(t) for t in turns]
        self._next = 0
        self._envs: Mapping[str, Environment] = {}
        self.observes = observe

    def attach(self, envs: Mapping[str, Environment]) -> None:
        """The episode's environments, to ground element names (see the module)."""
        self._envs = envs

    def reset(
        self,
        task: Task,
        action_spaces: Mapping[str, list[Action]],
        descriptions: Mapping[str, str],
    ) -> None:
        self._next = 0

    def act(self, turn: Turn) -> AgentOutput:
        if self._next < len(self._script):
            calls = self._script[self._next]
            self._next += 1
            message = f"scripted turn {self._next}"
            try:
                return AgentOutput(message=message, calls=[self._grounded(c) for c in calls])
            except InvalidAction as exc:
                return AgentOutput(message=message, invalid=f"cannot ground the call: {exc}")
        return AgentOutput(message="done", calls=[ActionCall(env="root", name="complete")])

    def _grounded(self, call: ActionCall) -> ActionCall:
        if not self.observes and "elem" in call.arguments:
            raise InvalidAction(
                f"{call.env}.{call.name} names element {call.arguments['elem']!r} by mark "
                "number, but this agent does not observe: name it (click_on) instead"
            )
        env = self._envs.get(call.env)
        return call if env is None else element_call(call, env, fresh=not self.observes)


class OracleAgent(ScriptedAgent):
    """Executes the task's reference solution, one action per turn, through the action space.

    The benchmark's reachability check: if the oracle fails a task, the task is broken.
    ``alternative`` selects one of the task's alternative solutions instead. ``start_at``
    matches an episode started after the first ``k`` subtasks (VeriGUI SR@k): the episode
    already played their part of the reference solution, so the oracle plays the rest.
    """

    name = "oracle"

    def __init__(
        self, alternative: int | None = None, start_at: int = 0, *, observe: bool = True
    ) -> None:
        super().__init__(observe=observe)
        if start_at and alternative is not None:
            raise ConfigError("start_at continues the reference solution, not an alternative")
        self.alternative = alternative
        self.start_at = start_at

    def reset(
        self,
        task: Task,
        action_spaces: Mapping[str, list[Action]],
        descriptions: Mapping[str, str],
    ) -> None:
        solution = (
            task.reference_solution
            if self.alternative is None
            else task.alternative_solutions[self.alternative]
        )
        skip = 0
        if self.start_at:
            subtasks = task.metadata.subtasks
            if not 0 < self.start_at < len(subtasks):
                raise ConfigError(
                    f"start_at={self.start_at} but task {task.id} has {len(subtasks)} subtasks"
                )
            skip = subtasks[self.start_at - 1].solution_span[1]
        self._script = [[call] for call in solution[skip:]]
        self._next = 0


class NullAgent(ScriptedAgent):
    """Does nothing and declares the task complete: the non-triviality check."""

    name = "null"
