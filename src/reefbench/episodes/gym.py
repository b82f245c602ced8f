"""Gymnasium adapter: drive an episode with ``reset``/``step`` from RL code.

The action is text: a JSON object ``{"env": ..., "name": ..., "arguments": {...}}`` (one
action call). The reward is the gain in completion ratio the action caused, so the return
of an episode equals its final completion ratio. Observations are the environments'
observations rendered as text (the same dictionary an agent sees, JSON-encoded).
Requires the ``gym`` extra (``pip install reefbench[gym]``).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping
from typing import Any

from reefbench.actions.sets import DEFAULT_ACTION_SET, get_action_set
from reefbench.actions.spec import ActionCall
from reefbench.environments.contract import Environment, stop_environments
from reefbench.episodes.bridge import EpisodeDriver
from reefbench.episodes.protocol import Turn
from reefbench.errors import ConfigError
from reefbench.tasks.task import Task

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "reefbench.episodes.gym needs Gymnasium: pip install 'reefbench[gym]'"
    ) from exc

_MAX_TEXT = 1 << 20


class TaskEnv(gymnasium.Env[str, str]):
    """One reefbench task as a Gymnasium environment.

    Args:
        task: The task to play.
        make_envs: Called on every ``reset`` to get the environments (name -> environment).
        action_set: How the agent addresses devices (:mod:`reefbench.actions.sets`).
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
        self._driver: EpisodeDriver | None = None
        self._ratio = 0.0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[str, dict[str, Any]]:
        super().reset(seed=seed)
        self.close()
        envs = dict(self.make_envs())
        self._driver = EpisodeDriver(
            self.task,
            envs,
            agent_name="gym",
            action_set=self.action_set,
            # make_envs makes new environments at every reset: a desktop left running
            # would keep its X server and apps.
            on_end=lambda: stop_environments(envs),
        )
        self._ratio = 0.0
        return self._render(self._driver.start())

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        driver = self._driver
        if driver is None:
            raise ConfigError("call reset() before step()")
        if driver.ended:
            raise ConfigError("the episode has ended; call reset()")
        try:
            call = ActionCall.model_validate(json.loads(action))
        except (ValueError, TypeError) as exc:
            call = ActionCall(env="root", name="<unparsable>", arguments={"error": str(exc)})
        observation, info = self._render(driver.step(call))
        ratio = driver.episode.graph.completion_ratio
        reward, self._ratio = ratio - self._ratio, ratio
        result = driver.result
        terminated = result is not None and result.termination != "step_limit"
        truncated = result is not None and result.termination == "step_limit"
        return observation, reward, terminated, truncated, info

    def close(self) -> None:
        """End the episode if it runs; its environments stop on its thread as it ends
        (where a thread-bound driver such as Playwright's can stop them)."""
        if self._driver is not None:
            self._driver.close()

    @property
    def _thread(self) -> threading.Thread | None:
        """The episode's thread (tests check that :meth:`close` ends it)."""
        return None if self._driver is None else self._driver.thread

    def _render(self, turn: Turn | None) -> tuple[str, dict[str, Any]]:
        if turn is None:
            result = self._driver.result if self._driver is not None else None
            assert result is not None
            info = {"termination": result.termination, "success": result.success}
            return "", info
        return json.dumps(turn.observations, default=str), {"step": turn.step}
