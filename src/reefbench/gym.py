"""Gymnasium adapter: drive an episode with ``reset``/``step`` from RL code.

The action is text: a JSON object ``{"env": ..., "name": ..., "arguments": {...}}`` (one
action call). The reward is the gain in completion ratio the action caused, so the return
of an episode equals its final completion ratio. Observations are the environments'
observations rendered as text (the same dictionary an agent sees, JSON-encoded).
Requires the ``gym`` extra (``pip install reefbench[gym]``).
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable, Mapping
from typing import Any

from reefbench.action_sets import DEFAULT_ACTION_SET, get_action_set
from reefbench.actions import Action, ActionCall
from reefbench.environment import Environment
from reefbench.episode import Episode, EpisodeResult
from reefbench.errors import ConfigError
from reefbench.protocol import AgentOutput, Turn
from reefbench.task import Task

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("reefbench.gym needs Gymnasium: pip install 'reefbench[gym]'") from exc

_MAX_TEXT = 1 << 20


class _Bridge:
    """An agent whose actions come from ``TaskEnv.step`` (the episode runs in a thread)."""

    name = "gym"

    def __init__(self) -> None:
        self.turns: queue.Queue[Turn | None] = queue.Queue()
        self.actions: queue.Queue[ActionCall] = queue.Queue()

    def reset(
        self, task: Task, action_spaces: Mapping[str, list[Action]], descriptions: Mapping[str, str]
    ) -> None:
        pass

    def act(self, turn: Turn) -> AgentOutput:
        self.turns.put(turn)
        return AgentOutput(calls=[self.actions.get()])


class TaskEnv(gymnasium.Env[str, str]):
    """One reefbench task as a Gymnasium environment.

    Args:
        task: The task to play.
        make_envs: Called on every ``reset`` to get the environments (name -> environment).
        action_set: How the agent addresses devices (:mod:`reefbench.action_sets`).
    """

    metadata = {"render_modes": []}  # noqa: RUF012 - Gymnasium's declared attribute

    def __init__(
        self,
        task: Task,
        make_envs: Callable[[], Mapping[str, Environment]],
        action_set: str = DEFAULT_ACTION_SET,
    ) -> None:
        self.task = task
        self.make_envs = make_envs
        self.action_set = get_action_set(action_set).name
        self.observation_space = spaces.Text(max_length=_MAX_TEXT)
        self.action_space = spaces.Text(max_length=_MAX_TEXT)
        self._bridge: _Bridge | None = None
        self._episode: Episode | None = None
        self._thread: threading.Thread | None = None
        self._result: EpisodeResult | None = None
        self._ratio = 0.0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[str, dict[str, Any]]:
        super().reset(seed=seed)
        self.close()
        self._bridge = _Bridge()
        self._episode = Episode(
            self.task, self._bridge, self.make_envs(), action_set=self.action_set
        )
        self._result = None
        self._ratio = 0.0
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self._next()

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if self._bridge is None or self._episode is None:
            raise ConfigError("call reset() before step()")
        if self._result is not None:
            raise ConfigError("the episode has ended; call reset()")
        try:
            call = ActionCall.model_validate(json.loads(action))
        except (ValueError, TypeError) as exc:
            call = ActionCall(env="root", name="<unparsable>", arguments={"error": str(exc)})
        self._bridge.actions.put(call)
        observation, info = self._next()
        ratio = self._episode.graph.completion_ratio
        reward, self._ratio = ratio - self._ratio, ratio
        result = self._result
        terminated = result is not None and result.termination != "step_limit"
        truncated = result is not None and result.termination == "step_limit"
        return observation, reward, terminated, truncated, info

    def close(self) -> None:
        if self._episode is not None and self._result is None and self._bridge is not None:
            self._episode.abort()
            self._bridge.actions.put(ActionCall(env="root", name="wait"))
            if self._thread is not None:
                self._thread.join()

    def _run(self) -> None:
        assert self._episode is not None and self._bridge is not None
        self._result = self._episode.run()
        self._bridge.turns.put(None)

    def _next(self) -> tuple[str, dict[str, Any]]:
        assert self._bridge is not None
        turn = self._bridge.turns.get()
        if turn is None:
            assert self._result is not None
            info = {"termination": self._result.termination, "success": self._result.success}
            return "", info
        return json.dumps(turn.observations, default=str), {"step": turn.step}
