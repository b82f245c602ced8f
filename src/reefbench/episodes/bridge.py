"""An episode driven from outside: a caller hands in the agent's output one turn at a time.

Gymnasium's ``step`` (:mod:`reefbench.episodes.gym`) and the MCP server's tool calls
(:mod:`reefbench.runner.mcp_server`) both come from a caller that is not an agent object.
The episode runs in its own thread with an :class:`ExternalAgent` whose ``act`` hands the
turn out and waits for the caller's answer, so an outside caller is validated, routed,
evaluated and scored by the very same :class:`~reefbench.episodes.episode.Episode` as ``reef run``.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Mapping
from typing import Any

from reefbench.actions.spec import Action, ActionCall
from reefbench.environments.contract import Environment
from reefbench.environments.root import ROOT
from reefbench.episodes.episode import Episode, EpisodeResult
from reefbench.episodes.protocol import AgentOutput, Turn
from reefbench.errors import ConfigError
from reefbench.tasks.task import Task


class ExternalAgent:
    """An agent whose output comes from :meth:`EpisodeDriver.step` (it runs in the episode's
    thread; the queues are the only state shared with the caller)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.turns: queue.Queue[Turn | None] = queue.Queue()
        self.outputs: queue.Queue[AgentOutput] = queue.Queue()
        self.action_spaces: dict[str, list[Action]] = {}
        self.descriptions: dict[str, str] = {}

    def reset(
        self, task: Task, action_spaces: Mapping[str, list[Action]], descriptions: Mapping[str, str]
    ) -> None:
        self.action_spaces = {env: list(actions) for env, actions in action_spaces.items()}
        self.descriptions = dict(descriptions)

    def act(self, turn: Turn) -> AgentOutput:
        self.turns.put(turn)
        return self.outputs.get()


class EpisodeDriver:
    """Runs one :class:`Episode` in a thread; the caller plays the agent.

    Args:
        task: The task to play.
        envs: Environments by name (the root environment is added by the episode).
        agent_name: The agent's name in the result (``gym``, ``mcp``).
        agent: The agent to play through, when a caller needs more than the plain
            :class:`ExternalAgent` (``reef play`` runs jobs on the episode's thread);
            ``agent_name`` is then ignored.
        on_end: Run on the episode's thread once the episode has ended (aborted included):
            where the environments started, and so where a thread-bound driver such as
            Playwright's can stop them (from another thread it cannot, and waits out its
            timeout).
        episode_options: Passed to :class:`Episode` (``invalid_tolerance``, ``step_limit``,
            ``observation_sink``, ``judge``).
    """

    def __init__(
        self,
        task: Task,
        envs: Mapping[str, Environment],
        *,
        agent_name: str = "external",
        agent: ExternalAgent | None = None,
        on_end: Callable[[], None] | None = None,
        **episode_options: Any,
    ) -> None:
        self.agent = agent if agent is not None else ExternalAgent(agent_name)
        self.on_end = on_end
        self.episode = Episode(task, self.agent, envs, **episode_options)
        self.result: EpisodeResult | None = None
        self.turn: Turn | None = None
        self._lock = threading.Lock()
        self.thread: threading.Thread | None = None

    @property
    def ended(self) -> bool:
        return self.result is not None

    @property
    def running(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def start(self) -> Turn | None:
        """Reset and set up the environments; the first turn, or ``None`` if the episode
        ended before the agent's first turn (a failed reset or setup)."""
        with self._lock:
            if self.thread is not None:
                raise ConfigError("the episode has already started")
            self.thread = threading.Thread(target=self._run, name="reef-episode", daemon=True)
            self.thread.start()
            return self._next()

    def step(self, output: AgentOutput | ActionCall) -> Turn | None:
        """Play one turn: the next turn (its ``previous`` holds what the calls did), or
        ``None`` when the episode has ended (then :attr:`result` is set).

        Calls from several threads are played one after another.
        """
        if isinstance(output, ActionCall):
            output = AgentOutput(calls=[output])
        with self._lock:
            if self.thread is None:
                raise ConfigError("start the episode before playing a turn")
            if self.result is not None:
                raise ConfigError("the episode has ended")
            self.agent.outputs.put(output)
            return self._next()

    def close(self) -> None:
        """Abort a running episode at its next action boundary and wait for its thread."""
        if self.thread is None or not self.thread.is_alive():
            return
        self.episode.abort()
        # Wake the agent if it is waiting: the episode stops before running this call.
        self.agent.outputs.put(AgentOutput(calls=[ActionCall(env=ROOT, name="wait")]))
        self.thread.join()

    def _run(self) -> None:
        try:
            self.result = self.episode.run()
        finally:
            if self.on_end is not None:
                self.on_end()
            self.agent.turns.put(None)

    def _next(self) -> Turn | None:
        self.turn = self.agent.turns.get()
        return self.turn
