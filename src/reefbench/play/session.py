"""One task played by a person through the page of ``reef play``, stored like any run.

Every action the page sends goes through an :class:`~reefbench.episodes.bridge.EpisodeDriver`,
so the episode validates, routes, checks and scores it exactly as ``reef run`` does; the
result lands in a run directory opened by the log (:func:`reefbench.log.run.open_run`) as
the agent ``human`` under the ``pixels`` action set (plain screenshots, coordinates only:
what a person sees and does), so ``reef report`` reads it as a human baseline and ``reef
export`` as demonstrations.

Devices driven by Playwright (the browser, the phone) belong to the episode's thread, so
whatever reads a device between turns (grounding a reference call, the author's live
checkpoints) runs there as a job handed to :class:`PlayAgent`.
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from reefbench.actions.sets import PIXELS
from reefbench.actions.spec import ActionCall
from reefbench.environments.root import ROOT
from reefbench.episodes.bridge import ExternalAgent
from reefbench.episodes.episode import DEFAULT_INVALID_TOLERANCE, EpisodeResult
from reefbench.episodes.protocol import AgentOutput, CallResult, Turn
from reefbench.errors import ConfigError, InvalidAction
from reefbench.play.gestures import Gesture, device_controls, gesture_call
from reefbench.runner.served_episode import RecordedEpisode
from reefbench.suites import Suite

AGENT_NAME = "human"
JOB_TIMEOUT = 120.0
_T = TypeVar("_T")

# Put on the agent's output queue to wake it for a job instead of a turn's output.
_RUN_JOB = AgentOutput(message="<play: run a job on the episode's thread>")


@dataclass
class _Job:
    fn: Callable[[], Any]
    done: threading.Event = field(default_factory=threading.Event)
    value: Any = None
    error: BaseException | None = None

    def run(self) -> None:
        try:
            self.value = self.fn()
        except BaseException as exc:  # handed back to the caller's thread
            self.error = exc
        finally:
            self.done.set()


class PlayAgent(ExternalAgent):
    """The person's agent: an :class:`ExternalAgent` that, while waiting for the next
    output, also runs jobs on the episode's thread (where the devices may be read)."""

    def __init__(self) -> None:
        super().__init__(AGENT_NAME)
        self.jobs: queue.Queue[_Job] = queue.Queue()

    def act(self, turn: Turn) -> AgentOutput:
        self.turns.put(turn)
        while True:
            output = self.outputs.get()
            if output is not _RUN_JOB:
                return output
            self.jobs.get().run()


@dataclass(frozen=True)
class Script:
    """A stored way through the task the author may play step by step."""

    id: str
    label: str
    calls: list[ActionCall]


class PlaySession(RecordedEpisode):
    """A task of a suite, its devices, the run directory its result goes to, and what the
    page shows of them.

    Args:
        suite: A built-in suite's name (``v1``, ``memory``), or a :class:`Suite`.
        task_id: The task to play (an exact id).
        out_dir: The run directory (created; one that holds another run is refused).
        author: Also show the checkpoints live and offer the reference solution and the
            near misses to play step by step.
        invalid_tolerance: Invalid actions in a row forgiven before the episode ends.
        step_limit: Overrides the task's step limit (one action is one step).
    """

    def __init__(
        self,
        suite: str | Suite,
        task_id: str,
        out_dir: Path,
        *,
        author: bool = False,
        invalid_tolerance: int = DEFAULT_INVALID_TOLERANCE,
        step_limit: int | None = None,
    ) -> None:
        self.agent = PlayAgent()
        super().__init__(
            suite,
            task_id,
            out_dir,
            agent_name=AGENT_NAME,
            agent=self.agent,
            action_set=PIXELS.name,
            invalid_tolerance=invalid_tolerance,
            step_limit=step_limit,
        )
        self.author = author
        self.scripts = [Script("reference", "reference solution", self.task.reference_solution)]
        self.scripts += [
            Script(f"near-{i}", f"near miss: {case.label}", self.task.near_miss_solution(case))
            for i, case in enumerate(self.task.near_misses)
        ]
        self.script_next = {s.id: 0 for s in self.scripts}
        self.version = 0  # counts turns: the page asks for a view of this version
        self.last: list[CallResult] = []
        self.user_answers: list[tuple[str, str]] = []
        self.checkpoints: list[dict[str, str]] = []
        self._lock = threading.RLock()

    # ------------------------------------------------------------------ lifetime
    def start(self) -> None:
        """Reset and set up the devices, up to the person's first turn."""
        with self._lock:
            turn = self.driver.start()
            if turn is None:
                self._finish()
            else:
                self._after_turn()

    # ------------------------------------------------------------------ reading
    @property
    def answer_task(self) -> bool:
        """Whether the task wants an answer submitted (a checkpoint reads it)."""
        graph = self.driver.episode.graph
        return any(graph.evaluator(node).name.startswith("answer_") for node in graph.ids)

    def view(self, env: str) -> bytes | None:
        """The device's current screenshot (what the last turn showed), if it has one."""
        turn = self.driver.turn
        if turn is None:
            return None
        value = turn.observations.get(env, {}).get("screenshot")
        return bytes(value) if isinstance(value, bytes | bytearray) else None

    def state(self) -> dict[str, Any]:
        """Everything the page shows, as JSON."""
        with self._lock:
            turn = self.driver.turn
            observations = turn.observations if turn is not None else {}
            spaces = self.agent.action_spaces
            devices = []
            names = {*observations, *spaces} - {ROOT}
            # Which devices the task uses is the author's to see: an agent is never told,
            # so a player is not either (a human baseline must see what agents see).
            in_task = self.task.metadata.environments if self.author else sorted(names)
            for env in sorted(names, key=lambda e: (e not in in_task, e)):
                values = observations.get(env, {})
                space = {a.name: a for a in spaces.get(env, [])}
                if not values and not space:
                    continue  # nothing to see or do (the account, reached through the apps)
                devices.append(
                    {
                        "name": env,
                        "in_task": env in in_task,
                        "view": isinstance(values.get("screenshot"), bytes | bytearray),
                        "texts": {
                            k: v if isinstance(v, str) else json.dumps(v, default=str)
                            for k, v in values.items()
                            if not isinstance(v, bytes | bytearray)
                        },
                        **device_controls(space),
                    }
                )
            result = self.result
            return {
                "task": {
                    "id": self.task.id,
                    "instruction": self.task.instruction,
                    "answer": self.answer_task,
                    "step_limit": self.driver.episode.step_limit,
                },
                "step": turn.step if turn is not None and result is None else None,
                "version": self.version,
                "ended": result is not None,
                "result": None if result is None else _summary(result),
                "run": str(self.out_dir),
                "devices": devices,
                "last": [_describe(r) for r in self.last],
                "user_answers": [{"kind": k, "answer": a} for k, a in self.user_answers],
                "author": self._author_state() if self.author else None,
            }

    # ------------------------------------------------------------------ playing
    def gesture(self, gesture: Gesture) -> dict[str, Any]:
        """Play a gesture on a device's view (a click, a drag, typed text ...) as the
        device's own coordinate action."""
        space = {a.name: a for a in self.agent.action_spaces.get(gesture.env, [])}
        if not space:
            raise InvalidAction(f"no device {gesture.env!r} to act on")
        return self.play(gesture_call(gesture, space))

    def act(self, env: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """Play any action of the episode's spaces by name (the page's other actions, the
        done button, the answer box, asking the user)."""
        return self.play(ActionCall(env=env, name=name, arguments=arguments))

    def play(self, call: ActionCall) -> dict[str, Any]:
        """Play one call as one turn; the page's new state."""
        with self._lock:
            self._step(AgentOutput(message="human", calls=[call]))
            return self.state()

    def play_script(self, script_id: str) -> dict[str, Any]:
        """Author mode: play the next call of the reference solution or a near miss, its
        named elements grounded on the current screen (as the gates play it)."""
        if not self.author:
            raise ConfigError("scripts are played in author mode only (reef play --author)")
        script = next((s for s in self.scripts if s.id == script_id), None)
        if script is None:
            raise InvalidAction(f"no script {script_id!r}")
        with self._lock:
            index = self.script_next[script.id]
            if index >= len(script.calls):
                raise InvalidAction(f"the {script.label} has no more steps")
            call = script.calls[index]
            self.script_next[script.id] = index + 1
            grounded = self.on_episode_thread(lambda: self._ground(call))
            self._step(AgentOutput(message=f"human ({script.label})", calls=[grounded]))
            return self.state()

    def locate(self, env: str, name: str, role: str = "") -> tuple[int, int]:
        """Where the element called ``name`` is on the device's screenshot (its centre in
        screenshot pixels): what a person finds by looking. For tests and authors."""
        from reefbench.environments.grounding import PointGroundable, ground

        device = self.envs.get(env)
        if not isinstance(device, PointGroundable):
            raise InvalidAction(f"{env!r} cannot say where its elements are")

        def find() -> tuple[int, int]:
            return device.element_point(ground(device, name, role, current=False))

        with self._lock:
            return self.on_episode_thread(find)

    def on_episode_thread(self, fn: Callable[[], _T]) -> _T:
        """Run ``fn`` on the episode's thread between turns and return what it returns."""
        with self._lock:
            if self.driver.ended or not self.driver.running:
                raise InvalidAction("the episode has ended")
            job = _Job(fn)
            self.agent.jobs.put(job)
            self.agent.outputs.put(_RUN_JOB)
            if not job.done.wait(JOB_TIMEOUT):
                raise InvalidAction("the devices did not answer in time")
            if job.error is not None:
                raise job.error
            value: _T = job.value
            return value

    def _ground(self, call: ActionCall) -> ActionCall:
        from reefbench.environments.grounding import element_call

        env = self.driver.episode.envs.get(call.env)
        return call if env is None else element_call(call, env, fresh=True)

    def _step(self, output: AgentOutput) -> None:
        if self.driver.ended:
            raise InvalidAction("the episode has ended")
        turn = self.driver.step(output)
        if turn is not None:
            self.last = list(turn.previous)
        else:
            result = self.driver.result
            records = result.trajectory[-1].calls if result and result.trajectory else []
            self.last = [
                CallResult(
                    call=ActionCall(env=r.env, name=r.name, arguments=r.arguments),
                    status=r.status,
                    result=r.result,
                    error=r.error,
                )
                for r in records
            ]
        for done in self.last:
            if (done.call.env, done.call.name, done.status) == (ROOT, "call_user", "ok"):
                self.user_answers.append((str(done.call.arguments.get("kind")), str(done.result)))
        if turn is None:
            self._finish()
        else:
            self._after_turn()

    def _after_turn(self) -> None:
        self.version += 1
        if self.author:
            self.checkpoints = self.on_episode_thread(self._check_all)

    def _check_all(self) -> list[dict[str, str]]:
        """Each checkpoint now: ``pending`` (not completed yet), ``completed``, or
        ``regressed`` (completed, but its state no longer holds), with the message of a
        fresh check (run on the episode's thread; evaluators only read devices)."""
        episode = self.driver.episode
        graph = episode.graph
        rows = []
        for node, state in graph.states().items():
            evaluator = graph.evaluator(node)
            try:
                verdict = evaluator.check(episode.envs)
                success, message = verdict.success, verdict.message
            except Exception as exc:  # shown, never raised into the page
                success, message = False, f"{type(exc).__name__}: {exc}"
            if state != "completed":
                shown = "pending"
            elif evaluator.moment or success:
                shown = "completed"
            else:
                shown = "regressed"
            rows.append({"id": node, "state": shown, "message": message or ""})
        return rows

    def _author_state(self) -> dict[str, Any]:
        result = self.result
        checkpoints = self.checkpoints
        if result is not None:  # the final check's verdicts
            regressed = set(result.regressed)
            completed = set(result.completed_nodes)
            messages = {c.node: c.message for c in result.end_checks}
            checkpoints = [
                {
                    "id": node,
                    "state": "regressed"
                    if node in regressed
                    else "completed"
                    if node in completed
                    else "pending",
                    "message": messages.get(node, ""),
                }
                for node in self.driver.episode.graph.ids
            ]
        return {
            "checkpoints": checkpoints,
            "scripts": [
                {
                    "id": s.id,
                    "label": s.label,
                    "next": self.script_next[s.id],
                    "calls": [_call_text(c) for c in s.calls],
                }
                for s in self.scripts
            ],
        }


def _summary(result: EpisodeResult) -> dict[str, Any]:
    return {
        "termination": result.termination,
        "success": result.success,
        "completion_ratio": result.completion_ratio,
        "steps": result.steps,
        "seconds": round(result.seconds, 1),
        "answer": result.answer,
        "error": result.error,
    }


def _call_text(call: ActionCall) -> str:
    arguments = ", ".join(f"{k}={v!r}" for k, v in call.arguments.items())
    return f"{call.env}.{call.name}({arguments})"


def _describe(done: CallResult) -> dict[str, Any]:
    value = done.result
    text = value if isinstance(value, str) else "" if value is None else str(value)
    return {
        "call": _call_text(done.call),
        "status": done.status,
        "text": done.error if done.status != "ok" else text,
    }
