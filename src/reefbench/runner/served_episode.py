"""One episode played by an outside agent (an MCP client), stored like any run.

The protocol server (:mod:`.mcp_server`) only translates: every call goes through an
:class:`~reefbench.episodes.bridge.EpisodeDriver`, so the episode validates, routes and scores it
exactly as ``reef run`` would, and the result lands in a run directory opened by the log
(:func:`reefbench.log.run.open_run`) that ``reef report`` reads like any other.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from reefbench.actions.sets import DEFAULT_ACTION_SET
from reefbench.agents.tools import Toolbox
from reefbench.environments.contract import Environment, stop_environments
from reefbench.episodes.bridge import EpisodeDriver, ExternalAgent
from reefbench.episodes.episode import DEFAULT_INVALID_TOLERANCE, EpisodeResult
from reefbench.episodes.protocol import AgentOutput, Turn
from reefbench.errors import ConfigError
from reefbench.log.run import open_run
from reefbench.log.store import EpisodeKey
from reefbench.runner.config import AgentSpec, RunConfig
from reefbench.runner.engine import select_tasks
from reefbench.runner.launch import manifest, suite_identity
from reefbench.suites import Suite, get_suite
from reefbench.tasks.task import Task
from reefbench.tasks.taskfile import tasks_to_jsonl

AGENT_NAME = "mcp"


class RecordedEpisode:
    """One task played through an :class:`EpisodeDriver` by a caller outside the runner
    (an MCP client, a person), stored in a run directory as ``reef run`` stores it: the
    task found, the run opened (a directory holding this episode already is refused), the
    devices made, and the result recorded once when the episode ends.

    Args:
        suite: A built-in suite's name, or a :class:`Suite`.
        task_id: The task to play (an exact id).
        out_dir: The run directory.
        agent_name: The agent's name in the run's configuration and result.
        agent: The driver's agent, when the caller needs more than a plain one.
        action_set: How the agent addresses the devices.
        invalid_tolerance: Invalid actions in a row forgiven before the episode ends.
        step_limit: Overrides the task's step limit.
    """

    def __init__(
        self,
        suite: str | Suite,
        task_id: str,
        out_dir: Path,
        *,
        agent_name: str,
        agent: ExternalAgent | None = None,
        action_set: str = DEFAULT_ACTION_SET,
        invalid_tolerance: int = DEFAULT_INVALID_TOLERANCE,
        step_limit: int | None = None,
    ) -> None:
        chosen = get_suite(suite) if isinstance(suite, str) else suite
        tasks = chosen.load()
        self.task: Task = find_task(tasks, task_id, chosen.name)
        self.config = RunConfig(
            suite=chosen.name,
            tasks=[self.task.id],
            agent=AgentSpec(name=agent_name),
            invalid_tolerance=invalid_tolerance,
            step_limit=step_limit,
            workers=1,
            action_set=action_set,
        )
        self.out_dir = out_dir
        self.key = EpisodeKey(self.task.id)
        # Like `reef run`: the definition played and the suite's identity go with the run.
        ran = tasks_to_jsonl([self.task])
        identity = suite_identity(chosen, tasks, ran)
        self.store = open_run(out_dir, manifest(self.config, identity), ran)
        if any(
            row["key"] == self.key.key and row["status"] != "pending" for row in self.store.rows()
        ):
            self.store.close()
            raise ConfigError(
                f"{out_dir} already holds an episode of {self.task.id}; use a new --out"
            )
        self.store.plan([self.key])
        self.envs: dict[str, Environment] = chosen.make_environments()
        self.driver = EpisodeDriver(
            self.task,
            self.envs,
            agent_name=agent_name,
            agent=agent,
            on_end=self._stop_environments,
            invalid_tolerance=invalid_tolerance,
            step_limit=step_limit,
            action_set=self.config.action_set,
            observation_sink=self.store.observations(self.key),
        )
        self.ended = threading.Event()
        self._recorded = False

    def close(self) -> None:
        """End the episode if it still runs (stored as aborted), stop the environments."""
        self.driver.close()
        if self.driver.result is not None:
            self._finish()
        self._stop_environments()  # an episode that never started, or stopped them already
        self.store.close()

    def _stop_environments(self) -> None:
        """Stop every environment (the driver does it on the episode's thread when the
        episode ends: the browser's and phone's Playwright driver belongs to that thread)."""
        stop_environments(self.envs)

    @property
    def turn(self) -> Turn | None:
        """The turn the agent is at (its observations), ``None`` once the episode ended."""
        return None if self.driver.ended else self.driver.turn

    @property
    def result(self) -> EpisodeResult | None:
        return self.driver.result

    def _finish(self) -> None:
        result = self.driver.result
        if result is None or self._recorded:
            return
        # An infrastructure outcome (aborted by Ctrl+C, a crashed environment) is stored as
        # failed, as the runner stores its last attempt: reports keep it apart.
        self.store.record(self.key, result, final=not result.infrastructure_failure)
        self._recorded = True
        self.ended.set()


class ServedEpisode(RecordedEpisode):
    """A task of a suite, its environments and the run directory its result goes to.

    Args:
        suite: A built-in suite's name (``memory``, ``v0``), or a :class:`Suite`.
        task_id: The task to play (an exact id).
        out_dir: The run directory (created; one that holds another run is refused).
        invalid_tolerance: Invalid actions in a row forgiven before the episode ends.
        step_limit: Overrides the task's step limit (one tool call is one step).
    """

    def __init__(
        self,
        suite: str | Suite,
        task_id: str,
        out_dir: Path,
        *,
        invalid_tolerance: int = DEFAULT_INVALID_TOLERANCE,
        step_limit: int | None = None,
        action_set: str = DEFAULT_ACTION_SET,
    ) -> None:
        super().__init__(
            suite,
            task_id,
            out_dir,
            agent_name=AGENT_NAME,
            action_set=action_set,
            invalid_tolerance=invalid_tolerance,
            step_limit=step_limit,
        )
        self.toolbox: Toolbox | None = None
        self._lock = threading.Lock()

    def start(self) -> None:
        """Reset and set up the environments, up to the agent's first turn."""
        turn = self.driver.start()
        self.toolbox = Toolbox(self.driver.agent.action_spaces)
        if turn is None:
            self._finish()

    # ------------------------------------------------------------------ the agent's side
    def call(self, tool: str, arguments: dict[str, Any]) -> tuple[str, bool]:
        """Play one tool call as one turn; what it did (text) and whether it is an error."""
        with self._lock:
            if self.toolbox is None:
                raise ConfigError("the episode has not started")
            if self.driver.ended:
                return self._ended_note(), True
            decoded = self.toolbox.decode(tool, arguments)
            if isinstance(decoded, str):
                output = AgentOutput(invalid=decoded)
            else:
                output = AgentOutput(calls=[decoded])
            turn = self.driver.step(output)
            outcome = self._outcome(turn)
            if turn is None:
                self._finish()
                text = f"{outcome[0]}\n{self._ended_note()}" if outcome[0] else self._ended_note()
                return text, outcome[1]
            return outcome

    def _outcome(self, turn: Turn | None) -> tuple[str, bool]:
        """What the played calls did: the next turn's ``previous``, or after the last turn
        the trajectory's last calls."""
        if turn is not None:
            done = [(c.status, c.result, c.error) for c in turn.previous]
        else:
            result = self.driver.result
            calls = result.trajectory[-1].calls if result and result.trajectory else []
            done = [(c.status, c.result, c.error) for c in calls]
        texts = [
            _text(value) if status == "ok" else f"{status}: {error}"
            for status, value, error in done
        ]
        return "\n".join(texts), any(status != "ok" for status, _, _ in done)

    def _ended_note(self) -> str:
        result = self.driver.result
        assert result is not None
        return (
            f"The episode has ended ({result.termination}); its result is stored in "
            f"{self.out_dir}. Read the reef://result resource for the score."
        )


def find_task(tasks: list[Task], task_id: str, suite: str) -> Task:
    """The one task of ``suite`` called ``task_id`` (an episode served or played by hand
    is one task, named exactly).

    Raises:
        ConfigError: a glob, or no such task (one line with examples).
    """
    if any(c in task_id for c in "*?["):
        raise ConfigError(f"task {task_id!r}: name one task by its exact id (no globs)")
    try:
        return select_tasks(tasks, [task_id])[0]
    except ConfigError:
        example = ", ".join(t.id for t in tasks[:3])
        raise ConfigError(f"no task {task_id!r} in suite {suite} (e.g. {example})") from None


def _text(value: Any) -> str:
    if value is None:
        return "done"
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)
