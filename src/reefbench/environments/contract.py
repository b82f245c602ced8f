"""The environment contract: one device or app surface an agent controls.

Kept as small as Gymnasium's: lifecycle (:meth:`start`, :meth:`reset`, :meth:`stop`,
:meth:`health`), :meth:`step` to run one action of the action space, :meth:`observe` to run
the observation space. Concrete environments (desktop, browser, phone, remote) override the
``on_*`` hooks and name their spaces in ``default_action_space`` /
``default_observation_space``; actions stay plain functions taking ``env``, annotated with
the environment class they need (checked when they run).

Three per-episode duties are part of the contract, so that no suite has to wrap an
environment for them: :meth:`reset` applies the run's action set (what it adds, leaves out
and which observations it swaps in are declared per kind in ``action_set_actions``,
``action_set_removes`` and ``action_set_observations``; how they are applied is
:class:`~reefbench.actions.sets.ActionSetSpaces`, which this class inherits) and takes the
task's extra actions (both available until the next reset), and an environment built with
``lazy_reset=True`` skips a reset when nothing acted on it since the last one.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from reefbench.actions.sets import DEFAULT_ACTION_SET, ActionSetSpaces, get_action_set
from reefbench.actions.spec import Action
from reefbench.errors import ActionFailed, ConfigError, InvalidAction

if TYPE_CHECKING:
    from reefbench.actions.evaluators import EvalResult, Evaluator
    from reefbench.environments.pointer import PointerKind
    from reefbench.tasks.sideeffects import Change


@dataclass(slots=True)
class ActionRecord:
    """One action an environment executed (its log feeds trajectory evaluators)."""

    action: str
    arguments: dict[str, Any]
    result: Any
    error: str | None
    started: float
    seconds: float
    settle_seconds: float = 0.0


class Environment(ActionSetSpaces):
    """A named surface with an action space and an observation space.

    Args:
        name: How tasks and agents address this environment (``"desktop"``, ``"phone"``).
        description: Shown to the agent: what this device is and how it behaves.
        action_space: Actions the agent may call here (default: the class's
            ``default_action_space``).
        observation_space: Actions run by :meth:`observe`; each returns one observation
            (default: the class's ``default_observation_space``).
        lazy_reset: Skip :meth:`reset` while nothing acted on the environment since the
            last one (observing and evaluating change nothing) and it is healthy, so a
            device a task does not use costs nothing between episodes.
    """

    default_action_space: ClassVar[Sequence[Action]] = ()
    default_observation_space: ClassVar[Sequence[Action]] = ()
    pointer_kind: ClassVar[PointerKind | None] = None
    """How the kind is driven by screen coordinates (:mod:`reefbench.environments.pointer`), or None
    for a kind without a screen (computer-use agents cannot address it)."""
    view_settle_timeout: ClassVar[float] = 5.0
    """Default deadline of :meth:`settle_view` (seconds)."""
    resets_in_background: ClassVar[bool] = False
    """Whether an episode may reset this kind on a thread of its own while it resets the
    other devices: true for a kind whose reset only waits on its own processes and
    connections (a desktop's session restart); false for one bound to the thread that
    drives it (Playwright's synchronous API)."""

    def __init__(
        self,
        name: str,
        description: str = "",
        action_space: Iterable[Action] | None = None,
        observation_space: Iterable[Action] | None = None,
        *,
        lazy_reset: bool = False,
    ) -> None:
        self.name = name
        self.description = description
        self.action_space: dict[str, Action] = {}
        for act in self.default_action_space if action_space is None else action_space:
            self.add_action(act)
        observations = (
            self.default_observation_space if observation_space is None else observation_space
        )
        self.observation_space: dict[str, Action] = {a.name: a for a in observations}
        self.action_log: list[ActionRecord] = []
        self.started = False
        self.action_set = DEFAULT_ACTION_SET
        self.lazy_reset = lazy_reset
        self.last_settle_seconds = 0.0
        self._dirty = True  # something may have changed the state since the last reset

    def add_action(self, act: Action) -> None:
        if act.name in self.action_space:
            raise ConfigError(f"environment '{self.name}' already has an action '{act.name}'")
        self.action_space[act.name] = act

    def remove_action(self, name: str) -> None:
        """Take an action out of the action space."""
        self.action_space.pop(name, None)

    # ------------------------------------------------------------- lifecycle
    def start(self) -> None:
        """Bring the environment up (processes, servers); idempotent."""
        if not self.started:
            self.on_start()
            self.started = True

    def reset(
        self, extra_actions: Iterable[Action] = (), action_set: str = DEFAULT_ACTION_SET
    ) -> None:
        """Return to the pristine state for a new episode and clear the action log.

        Args:
            extra_actions: A task's own actions, in the action space until the next reset
                (an action of the same name already there is kept, not replaced).
            action_set: The run's action set (:mod:`reefbench.actions.sets`): what it adds
                to this kind's space, leaves out of it, the observations it swaps in and
                the description it rewrites hold until the next reset or
                :meth:`end_episode`.

        Raises:
            ConfigError: ``action_set`` is not a known set.
        """
        get_action_set(action_set)  # an unknown name fails before anything starts
        self.start()
        self._restore_spaces()
        self._apply_set(extra_actions, action_set)
        self.action_set = action_set
        if not self.lazy_reset or self._dirty or not self.on_health():
            self.on_reset()
            self.settle_view()  # the first observation sees the pristine state drawn
            self._dirty = False
        self.action_log.clear()

    def end_episode(self) -> None:
        """The episode is over: put the spaces back as they were before it (environments
        outlive episodes, and the next task must not see its set or extra actions). The
        state stays as it is."""
        self._restore_spaces()
        self.action_set = DEFAULT_ACTION_SET

    def stop(self) -> None:
        """Tear everything down; no process may survive this call."""
        self._dirty = True
        if self.started:
            self.on_stop()
            self.started = False

    def health(self) -> bool:
        """True while the environment can take actions."""
        return self.started and self.on_health()

    def __enter__(self) -> Environment:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ----------------------------------------------------------- interaction
    def step(self, action: str | Action, arguments: Mapping[str, Any] | None = None) -> Any:
        """Run an action of the action space (by name, or a bound action) and log it.

        Raises:
            InvalidAction: the action is not in this environment's action space, or its
                arguments do not validate (``InvalidActionArguments``).
            ActionFailed: the action ran and reported a failure meant for the agent.
        """
        name = action if isinstance(action, str) else action.name
        declared = self.action_space.get(name)
        if declared is None:
            raise InvalidAction(
                f"environment '{self.name}' has no action '{name}' "
                f"(it has: {', '.join(sorted(self.action_space)) or 'none'})"
            )
        target = action if isinstance(action, Action) else declared
        args = dict(arguments or {})
        self._dirty = True
        started = time.time()
        t0 = time.perf_counter()
        try:
            result = target.run(self, **args)
        except ActionFailed as exc:
            # A failed action may still have changed the screen (a dialog it opened).
            self.settle_view()
            self._log(name, {**target.bound, **args}, None, str(exc), started, t0)
            raise
        self.settle_view()
        self._log(name, {**target.bound, **args}, result, None, started, t0)
        return result

    def observe(self) -> dict[str, Any]:
        """Run every observation action; returns observation name -> value."""
        return {name: obs.run(self) for name, obs in self.observation_space.items()}

    def execute(self, action: Action) -> Any:
        """Run a bound action that is not the agent's (setup, teardown) in this environment.

        Not logged and not restricted to the action space. A remote environment sends the
        action's import reference and JSON arguments instead of running it here.
        """
        self._dirty = True
        try:
            return action.run(self)
        finally:
            self.settle_view()

    def evaluate(self, evaluator: Evaluator) -> EvalResult:
        """Check a bound evaluator against this environment's state (remote: server-side)."""
        return evaluator.evaluate(self)

    def fix_end_state(self, evaluator: Evaluator) -> Evaluator:
        """The end check a completed node's ``end_state`` hook fixes from this
        environment's state (a remote environment asks its server)."""
        return evaluator.fixed_end_state(self)

    def state_snapshot(self) -> Any:
        """The state side effects are judged on, taken right after a task's setup
        (``None``: this environment keeps no state worth diffing)."""
        return self.on_state_snapshot() if self.started else None

    def state_changes(self, before: Any) -> list[Change]:
        """What differs from ``before`` (a :meth:`state_snapshot`), as state-key changes;
        changes every session makes whatever the agent does are left out."""
        if before is None or not self.started:
            return []
        return self.on_state_changes(before)

    def state_fingerprint(self, keys: Collection[str]) -> dict[str, str]:
        """What each of ``keys`` (state keys as checkpoints name them, ``file:/home/user/a``
        or self-scoped shared state such as ``account|contacts:ada``) holds now, as a short
        text equal between two reads exactly when the state is the same: a content hash,
        ``absent``, a setting's value. The graph evaluator records it when a checkpoint
        completes, so a key that no later step of the task governs can be held to what it
        held then (:meth:`reefbench.tasks.graph.GraphEvaluator.final_check`). Keys this
        environment cannot read are left out; self-scoped keys go to the environment
        that owns the shared state (``services``) when there is one."""
        if not self.started:
            return {}
        own = [k for k in keys if "|" not in k]
        found = self.on_state_fingerprint(own) if own else {}
        shared = [k for k in keys if "|" in k]
        owner = getattr(self, "services", None)
        if shared and isinstance(owner, Environment) and owner is not self:
            found.update(owner.state_fingerprint(shared))
        elif shared:
            found.update(self.on_state_fingerprint(shared))
        return found

    def settle_view(self, timeout: float | None = None) -> float:
        """Wait until what an observation would show has settled after an action (the
        screen repainted, windows mapped or unmapped, the element tree stable), so that
        no observation or checkpoint sees the middle of a change. :meth:`step` and
        :meth:`execute` call it after every action.

        Args:
            timeout: Deadline in seconds (default: the environment's own,
                ``view_settle_timeout``); at the deadline the view is taken as it is.

        Returns:
            The seconds it took (also kept in ``last_settle_seconds`` and in the action
            log, so trajectories record it per step and device).
        """
        seconds = 0.0
        if self.started:
            t0 = time.perf_counter()
            self.on_settle_view(self.view_settle_timeout if timeout is None else timeout)
            seconds = time.perf_counter() - t0
        self.last_settle_seconds = seconds
        return seconds

    def settle_state(self, timeout: float, *, quick: bool = False) -> bool:
        """Wait until work the last action started has landed (a file being saved), so
        checkpoints do not read a state in the middle of a change.

        Args:
            timeout: Give up after this many seconds (the checks then read what is there).
            quick: A cheap settle before a per-step check (the final check uses the full
                one): environments may wait for a shorter quiet time.

        Returns:
            Whether the state settled within ``timeout``.
        """
        if not self.started:
            return True
        return self.on_settle_state(timeout, quick)

    # ---------------------------------------------------------------- hooks
    def on_start(self) -> None:
        """Start processes; override in subclasses."""

    def on_reset(self) -> None:
        """Restore pristine state; override in subclasses."""

    def on_stop(self) -> None:
        """Stop processes; override in subclasses."""

    def on_health(self) -> bool:
        """Probe liveness; override in subclasses."""
        return True

    def on_state_snapshot(self) -> Any:
        """Snapshot the state to diff (see :meth:`state_snapshot`); none by default."""
        return None

    def on_state_changes(self, before: Any) -> list[Change]:
        """Diff against a snapshot (see :meth:`state_changes`); nothing by default."""
        return []

    def on_state_fingerprint(self, keys: list[str]) -> dict[str, str]:
        """Fingerprint the keys this environment can read (see
        :meth:`state_fingerprint`); none by default."""
        return {}

    def on_settle_view(self, timeout: float) -> bool:
        """Wait for the view to settle (see :meth:`settle_view`); return whether it did
        within ``timeout``. Nothing to wait for by default."""
        return True

    def on_settle_state(self, timeout: float, quick: bool) -> bool:
        """Wait for pending writes to land (see :meth:`settle_state`); nothing to wait for
        by default."""
        return True

    def _log(
        self,
        name: str,
        arguments: dict[str, Any],
        result: Any,
        error: str | None,
        started: float,
        t0: float,
    ) -> None:
        self.action_log.append(
            ActionRecord(
                name,
                arguments,
                loggable(result),
                error,
                started,
                time.perf_counter() - t0,
                self.last_settle_seconds,
            )
        )

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def stop_environments(envs: Mapping[str, Environment] | None) -> None:
    """Stop every environment, going on past one that fails to stop (a crashed one may)."""
    for env in (envs or {}).values():
        try:
            env.stop()
        except Exception:  # stopping a crashed environment may fail; stop the others
            continue


def loggable(value: Any) -> Any:
    """Keep logs small and JSON-friendly: binary results are summarised, not stored."""
    if isinstance(value, bytes | bytearray):
        return f"<{len(value)} bytes>"
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return repr(value)[:500]
