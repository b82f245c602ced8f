"""One agent on one task across several environments.

Lifetime (OS-MAP App. B.1): reset → setup → (observe → agent → actions → graph check)* →
termination → final check → teardown → result. The episode owns the graph evaluator and is
the only place where agent output reaches environments, after validation and routing.

Termination reasons (CRAB Table 3) are agent outcomes; ``agent_error``, ``env_error``,
``evaluator_error`` and ``aborted`` are infrastructure outcomes, kept apart so a crashed
browser or a provider outage never counts as an agent failure.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, Field

from reefbench.actions.sets import DEFAULT_ACTION_SET, get_action_set
from reefbench.actions.spec import ActionCall
from reefbench.environments.contract import Environment, loggable
from reefbench.environments.root import ROOT, Judge, RootEnvironment
from reefbench.episodes.protocol import (
    NO_ACTION,
    NO_USAGE,
    UNPARSABLE,
    Agent,
    AgentOutput,
    CallResult,
    PrivilegedAgent,
    Turn,
    Usage,
)
from reefbench.errors import ActionFailed, ConfigError, InvalidAction
from reefbench.host.system_packages import describe_missing, missing_for_apps
from reefbench.tasks.graph import EndCheck, GraphEvaluator, NodeCheck
from reefbench.tasks.sideeffects import Change, SideEffectPolicy, allowed_keys, side_effects
from reefbench.tasks.task import Task
from reefbench.tasks.worldtime import ExpectsWorldTime, StampsSetupFiles, task_now

Termination = Literal[
    "success",
    "false_completion",
    "step_limit",
    "invalid_action",
    "agent_error",
    "env_error",
    "evaluator_error",
    "aborted",
    "side_effects",
]
INFRASTRUCTURE: frozenset[str] = frozenset(
    {"agent_error", "env_error", "evaluator_error", "aborted"}
)

# Invalid actions in a row an episode forgives unless a run says otherwise: the third in a
# row ends it, as WebArena stops after 3 consecutive unparsable actions (its
# ``parsing_failure_th``). An isolated slip costs a step, its reason goes back to the agent,
# and IA% still counts every one; 0 is CRAB's rule (the first invalid action ends the
# episode). The model agents' prompt states the run's value
# (``reefbench.agents.prompts.turn_rules``).
DEFAULT_INVALID_TOLERANCE = 2


# Trajectory records are plain slotted dataclasses: they are built several times per agent
# action, and pydantic validation there cost more than the graph check itself. Pydantic
# still serialises and loads them as fields of EpisodeResult.
@dataclass(slots=True)
class CallRecord:
    """One action call, what it returned, and what the graph evaluator did after it."""

    env: str
    name: str
    arguments: dict[str, Any]
    status: Literal["ok", "failed", "invalid"]
    result: Any = None
    error: str | None = None
    checks: list[NodeCheck] = field(default_factory=list)
    completed: list[str] = field(default_factory=list)
    seconds: float = 0.0
    settle_seconds: float = 0.0
    """How long the device took to settle after the call (part of ``seconds``)."""


@dataclass(slots=True)
class TurnRecord:
    """One step of the trajectory."""

    step: int
    observations: dict[str, dict[str, Any]] = field(default_factory=dict)
    message: str = ""
    calls: list[CallRecord] = field(default_factory=list)
    usage: Usage = NO_USAGE
    agent_seconds: float = 0.0
    observe_seconds: float = 0.0
    settle_seconds: dict[str, float] = field(default_factory=dict)
    """Per device, the time its view took to settle after this step's calls, before
    checkpoints and the next observation read it."""


class EpisodeResult(BaseModel):
    """Everything metrics and reports need about one episode."""

    task_id: str
    agent: str
    termination: Termination
    success: bool
    completion_ratio: float
    completed_nodes: list[str]
    total_nodes: int
    completed_at: dict[str, int] = Field(default_factory=dict)
    regressed: list[str] = Field(default_factory=list)
    end_checks: list[EndCheck] = Field(default_factory=list)
    side_effects: list[str] = Field(default_factory=list)
    steps: int = 0
    actions: int = 0
    invalid_actions: int = 0
    user_calls: list[str] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    answer: str | None = None
    error: str | None = None
    start_at: int = 0
    seconds: float = 0.0
    trajectory: list[TurnRecord] = Field(default_factory=list)

    @property
    def credited_nodes(self) -> list[str]:
        """Completed nodes that count: nodes whose state regressed by the end do not."""
        regressed = set(self.regressed)
        return [n for n in self.completed_nodes if n not in regressed]

    @property
    def infrastructure_failure(self) -> bool:
        return self.termination in INFRASTRUCTURE


# How long environments may take to settle (a save landing) before checks; the final check
# waits longer, since nothing comes after it to catch a late write.
STEP_SETTLE_SECONDS = 2.0
FINAL_SETTLE_SECONDS = 10.0

ObservationSink = Callable[[int, str, str, Any], Any]


def summarise_observation(step: int, env: str, name: str, value: Any) -> Any:
    """Default trajectory entry for an observation: text kept whole, binary summarised."""
    return value if isinstance(value, str) else loggable(value)


@dataclass(frozen=True)
class Probe:
    """What declaring completion at the start of a turn would have given, instead of
    acting (:meth:`Episode._probe`): what :meth:`Episode.run` would report after that call
    (or, from :meth:`Episode.judge_end`, what it would report on the end state now).

    Attributes:
        success: The episode would have succeeded.
        completed: The checkpoints the check after the call completes (in order).
        error: An evaluator fault the episode would have ended on (``evaluator_error``).
        regressed: Checkpoints that completed but did not hold at the final check.
    """

    success: bool
    completed: tuple[str, ...]
    error: str | None = None
    regressed: tuple[str, ...] = ()


class _Stop(Exception):
    def __init__(self, reason: Termination, error: str | None = None) -> None:
        self.reason = reason
        self.error = error


class Episode:
    """Runs ``agent`` on ``task`` with ``envs`` (name -> environment).

    Args:
        task: The task.
        agent: Any object following the :class:`~reefbench.agents.Agent` protocol.
        envs: Environments by name; the root environment is added automatically.
        invalid_tolerance: How many invalid actions *in a row* are forgiven: the next one
            ends the episode with ``invalid_action`` (0 = the first one ends it, as in
            CRAB). An action that runs, even one that fails, starts the count again.
            Invalid is only what cannot run as written (an unknown tool, arguments
            outside its schema, an element number not in the observation); a refusal or
            a failure at run time (:class:`~reefbench.errors.ActionFailed`) is a step
            like any other.
        step_limit: Overrides the task's step limit (agent turns); the agent is told the
            limit (its ``reset`` gets the task with this limit, and every
            :class:`~reefbench.episodes.protocol.Turn` carries it).
        start_at: VeriGUI SR@k: play the reference solutions of the first ``k`` subtasks
            before the agent starts.
        observation_sink: Turns an observation into what the trajectory stores (the runner
            writes screenshots to files and stores their paths).
        user: Answers ``call_user(kind)`` live (a person at the terminal) instead of the
            task's ``user_data``; when omitted, an agent with an ``answer_user`` method
            (the human agent) plays the user.
        action_set: How the agent addresses devices (:mod:`reefbench.actions.sets`); every
            environment applies it at reset, so the tool list depends on the run, never
            on the task.
        judge: Grades free-text answers for ``answer_judged`` checkpoints (an LLM judge,
            opt-in); without one they are scored by their rubric.
        side_effects: ``"fail"``: changes beyond what the task may change (see
            :mod:`reefbench.tasks.sideeffects`) turn success into ``side_effects``;
            ``"report"``: they are only recorded; ``"off"``: the world is not diffed.
        probe_at: At the start of these turns (1-based), after their observation, find
            out what the episode would give if the agent declared completion instead of
            acting (see :meth:`_probe`); the answers are kept in ``probes`` and the
            episode carries on unchanged. The gates use it to learn, without an episode
            of their own, what the reference solution one action short would score and
            (at turn 1) what the null agent would complete.
    """

    def __init__(
        self,
        task: Task,
        agent: Agent,
        envs: Mapping[str, Environment],
        *,
        invalid_tolerance: int = DEFAULT_INVALID_TOLERANCE,
        step_limit: int | None = None,
        start_at: int = 0,
        observation_sink: ObservationSink = summarise_observation,
        user: Callable[[str], str | None] | None = None,
        action_set: str = DEFAULT_ACTION_SET,
        judge: Judge | None = None,
        side_effects: SideEffectPolicy = "fail",
        probe_at: Collection[int] = (),
    ) -> None:
        self.action_set = get_action_set(action_set).name
        if ROOT in envs:
            raise ConfigError(f"'{ROOT}' is reserved for the root environment")
        missing = [e for e in task.metadata.environments if e not in envs]
        if missing:
            raise ConfigError(f"task {task.id} needs environments {missing} that were not given")
        self.task = task
        self.agent = agent
        self.root = RootEnvironment(
            task.user_data, user or getattr(agent, "answer_user", None), judge=judge
        )
        self.envs: dict[str, Environment] = {**envs, ROOT: self.root}
        self.invalid_tolerance = invalid_tolerance
        self.step_limit = step_limit or task.step_limit
        self.start_at = start_at
        self.observation_sink = observation_sink
        self.side_effect_policy: SideEffectPolicy = side_effects
        self._before: dict[str, Any] = {}
        self._side_effects: list[str] = []
        self.graph: GraphEvaluator = task.graph_evaluator()
        self._abort = threading.Event()
        self._invalid = 0
        self._invalid_in_a_row = 0
        self._actions = 0
        self._tokens = [0, 0, 0]  # prompt, completion, cached
        self._cost = 0.0
        self._trajectory: list[TurnRecord] = []
        # Only a privileged agent that grounds its own calls may go without the per-turn
        # observation of every device (the gates' agents: observing is most of their time).
        self._agent_observes = not isinstance(agent, PrivilegedAgent) or getattr(
            agent, "observes", True
        )
        self.probe_at = frozenset(probe_at)
        self.probes: dict[int, Probe] = {}
        """Turn -> what completing at its start would have given (a turn of ``probe_at``
        is missing when the episode ended before it)."""

    @property
    def state_after_setup(self) -> Mapping[str, Any]:
        """Each environment's :meth:`~reefbench.environments.contract.Environment.state_snapshot`
        taken right after setup (empty when side effects are ``off``)."""
        return self._before

    def abort(self) -> None:
        """Ask a running episode to stop at the next action boundary (thread-safe)."""
        self._abort.set()

    # ------------------------------------------------------------------ run
    def run(self) -> EpisodeResult:
        started = time.perf_counter()
        reason: Termination
        error: str | None = None
        try:
            self._prepare()
            reason = self._loop()
        except _Stop as stop:
            reason, error = stop.reason, stop.error
        if reason not in INFRASTRUCTURE:
            fault = self._final_check()
            if fault is not None:
                reason, error = "evaluator_error", fault
            elif reason == "success" and not self.graph.is_complete:
                reason = "false_completion"
            else:
                self._side_effects = self._find_side_effects()
                if reason == "success" and self._side_effects and self.side_effect_policy == "fail":
                    reason = "side_effects"
        self._teardown()
        for env in self.envs.values():
            env.end_episode()
        return EpisodeResult(
            task_id=self.task.id,
            agent=getattr(self.agent, "name", type(self.agent).__name__),
            termination=reason,
            success=reason == "success",
            completion_ratio=self.graph.completion_ratio,
            completed_nodes=self.graph.completed_order,
            total_nodes=len(self.graph.ids),
            completed_at=self.graph.completed_at,
            regressed=self.graph.regressed,
            end_checks=self.graph.end_checks,
            side_effects=self._side_effects,
            steps=len(self._trajectory),
            actions=self._actions,
            invalid_actions=self._invalid,
            user_calls=list(self.root.user_calls),
            usage=Usage(
                prompt_tokens=self._tokens[0],
                completion_tokens=self._tokens[1],
                cached_tokens=self._tokens[2],
                cost_usd=self._cost,
            ),
            answer=self.root.answer,
            error=error,
            start_at=self.start_at,
            seconds=time.perf_counter() - started,
            trajectory=self._trajectory,
        )

    def _prepare(self) -> None:
        # A tool the task's apps need and this machine lacks is the machine's failure: say
        # which, before anything runs, rather than score the agent on a broken task.
        missing = missing_for_apps(self.task.metadata.apps)
        if missing:
            raise _Stop("env_error", describe_missing(missing))
        self._reset_environments()
        for step in self.task.setup:
            try:
                self.envs[step.env].execute(step.action)
            except Exception as exc:
                raise _Stop(
                    "env_error", f"setup {step.action.label} failed: {_describe(exc)}"
                ) from exc
        for env in self.envs.values():
            if isinstance(env, StampsSetupFiles):
                env.stamp_setup_files()
        if self.side_effect_policy != "off":
            for name, env in self.envs.items():
                try:
                    self._before[name] = env.state_snapshot()
                except Exception as exc:
                    raise _Stop(
                        "env_error", f"snapshot of '{name}' failed: {_describe(exc)}"
                    ) from exc
        if self.start_at:
            self._play_prefix()
        if isinstance(self.agent, PrivilegedAgent):
            self.agent.attach(self.envs)
        try:
            self.agent.reset(
                self._task_for_agent(),
                {n: list(e.action_space.values()) for n, e in self.envs.items()},
                {n: e.description for n, e in self.envs.items()},
            )
        except Exception as exc:
            raise _Stop("agent_error", f"agent reset failed: {_describe(exc)}") from exc

    def _task_for_agent(self) -> Task:
        """The task as the agent is told it: with the episode's step limit (a run's
        ``--step-limit`` overrides the task's, and the agent's prompt states it)."""
        if self.task.step_limit == self.step_limit:
            return self.task
        metadata = self.task.metadata.model_copy(update={"step_limit": self.step_limit})
        return self.task.model_copy(update={"metadata": metadata})

    def _reset_environments(self) -> None:
        """Reset every environment; the kinds that allow it (``resets_in_background``: a
        desktop restarting its session) on threads of their own meanwhile, since their
        resets are waits on their own processes. The first failure in ``envs`` order is
        reported, after every reset has ended (none goes on behind the episode's back)."""

        def reset(name: str) -> None:
            self.envs[name].reset(
                [s.action for s in self.task.extra_actions if s.env == name],
                action_set=self.action_set,
            )

        # A device that starts on the task's world time needs no restart when the setup
        # moves the clock there (reefbench.tasks.worldtime.ExpectsWorldTime).
        now = task_now(self.task.setup)
        for env in self.envs.values():
            if isinstance(env, ExpectsWorldTime):
                env.expect_world_time(now)
        background = [n for n, e in self.envs.items() if e.resets_in_background]
        failures: dict[str, Exception] = {}
        threads: list[threading.Thread] = []

        def in_background(name: str) -> None:
            try:
                reset(name)
            except Exception as exc:  # reported below, in order
                failures[name] = exc

        for name in background:
            thread = threading.Thread(
                target=in_background, args=(name,), name=f"reef-reset-{name}", daemon=True
            )
            thread.start()
            threads.append(thread)
        for name in self.envs:
            if name in background:
                continue
            try:
                reset(name)
            except Exception as exc:
                failures[name] = exc
        for thread in threads:
            thread.join()
        for name in self.envs:
            if name in failures:
                failure = failures[name]
                raise _Stop(
                    "env_error", f"reset of '{name}' failed: {_describe(failure)}"
                ) from failure

    def _play_prefix(self) -> None:
        subtasks = self.task.metadata.subtasks
        if not 0 < self.start_at < len(subtasks):
            raise ConfigError(
                f"start_at={self.start_at} but task {self.task.id} has {len(subtasks)} subtasks"
            )
        end = subtasks[self.start_at - 1].solution_span[1]
        # Solutions name elements; under the marks set they are played by mark number.
        # Imported here: only SR@k episodes need it, and ``import reefbench`` stays small.
        from reefbench.environments.grounding import element_call

        for call in self.task.reference_solution[:end]:
            env = self.envs[call.env]
            try:
                grounded = element_call(call, env, fresh=True)
                env.step(grounded.name, grounded.arguments)
            except Exception as exc:
                raise _Stop(
                    "env_error", f"SR@k prefix {call.name} failed: {_describe(exc)}"
                ) from exc
            # Checked as after an agent's call (the device settles first), so the prefix
            # completes what the same calls complete in a whole episode.
            self._evaluate(env)

    def _loop(self) -> Termination:
        previous: list[CallResult] = []
        for step in range(1, self.step_limit + 1):
            if self._abort.is_set():
                raise _Stop("aborted", "aborted by the runner")
            record = TurnRecord(step=step)
            self._trajectory.append(record)
            observations = self._observe(record) if self._agent_observes else {}
            turn = Turn(
                step=step,
                observations=observations,
                previous=previous,
                step_limit=self.step_limit,
            )
            if step in self.probe_at:
                self.probes[step] = self._probe()
            output = self._ask_agent(turn, record)
            previous = []
            if output.invalid is not None:
                result, call_record = _unparsable(output.invalid)
                record.calls.append(call_record)
                previous.append(result)
                if self._count_invalid():
                    return "invalid_action"
            calls = output.calls
            if not calls and output.invalid is None:
                calls = [ActionCall(env=ROOT, name=NO_ACTION)]
            for call in calls:
                result, call_record = self._execute(call)
                record.calls.append(call_record)
                if call_record.settle_seconds:
                    settled = record.settle_seconds.get(call.env, 0.0)
                    record.settle_seconds[call.env] = settled + call_record.settle_seconds
                previous.append(result)
                if call_record.status == "invalid":
                    if self._count_invalid():
                        return "invalid_action"
                    continue
                self._invalid_in_a_row = 0  # it ran (ok or failed): a step like any other
                if self.graph.is_complete:
                    return "success"
                if self.root.finished:
                    return "false_completion"
        return "step_limit"

    def _count_invalid(self) -> bool:
        """Count one invalid action; whether it ends the episode (more in a row than the
        tolerance forgives)."""
        self._invalid += 1
        self._invalid_in_a_row += 1
        return self._invalid_in_a_row > self.invalid_tolerance

    def _observe(self, record: TurnRecord) -> dict[str, dict[str, Any]]:
        t0 = time.perf_counter()
        observations: dict[str, dict[str, Any]] = {}
        for name, env in self.envs.items():
            if not env.observation_space:
                continue
            try:
                observations[name] = env.observe()
            except Exception as exc:
                raise _Stop("env_error", f"observing '{name}' failed: {_describe(exc)}") from exc
            record.observations[name] = {
                k: self.observation_sink(record.step, name, k, v)
                for k, v in observations[name].items()
            }
        record.observe_seconds = time.perf_counter() - t0
        return observations

    def _ask_agent(self, turn: Turn, record: TurnRecord) -> AgentOutput:
        t0 = time.perf_counter()
        try:
            output = self.agent.act(turn)
        except Exception as exc:
            raise _Stop("agent_error", f"agent failed: {_describe(exc)}") from exc
        record.agent_seconds = time.perf_counter() - t0
        record.message = output.message
        record.usage = output.usage
        usage = output.usage
        if usage is not NO_USAGE:
            self._tokens[0] += usage.prompt_tokens
            self._tokens[1] += usage.completion_tokens
            self._tokens[2] += usage.cached_tokens
            self._cost += usage.cost_usd
        return output

    def _execute(self, call: ActionCall) -> tuple[CallResult, CallRecord]:
        if self._abort.is_set():
            raise _Stop("aborted", "aborted by the runner")
        t0 = time.perf_counter()
        status: Literal["ok", "failed", "invalid"] = "ok"
        value: Any = None
        error: str | None = None
        env = self.envs.get(call.env)
        try:
            if call.name == NO_ACTION:
                raise InvalidAction("no action: reply with at least one action call")
            if env is None:
                raise InvalidAction(
                    f"no environment '{call.env}' (environments: {', '.join(self.envs)})"
                )
            env.last_settle_seconds = 0.0
            value = env.step(call.name, call.arguments)
        except InvalidAction as exc:
            status, error = "invalid", str(exc)
        except ActionFailed as exc:
            status, error = "failed", str(exc)
        except Exception as exc:
            raise _Stop("env_error", f"{call.env}.{call.name} crashed: {_describe(exc)}") from exc
        record = CallRecord(
            env=call.env,
            name=call.name,
            arguments=call.arguments,
            status=status,
            result=loggable(value),
            error=error,
        )
        if status != "invalid":
            self._actions += 1
            record.settle_seconds = env.last_settle_seconds if env is not None else 0.0
            record.checks, record.completed = self._evaluate(env)
        record.seconds = time.perf_counter() - t0
        return CallResult(call=call, status=status, result=record.result, error=error), record

    def _evaluate(self, env: Environment | None = None) -> tuple[list[NodeCheck], list[str]]:
        if env is not None:  # cheap: a save the action started lands before the checks
            with contextlib.suppress(Exception):
                env.settle_state(STEP_SETTLE_SECONDS, quick=True)
        report = self.graph.step(self.envs)
        errors = report.errors
        if errors:
            first = errors[0]
            raise _Stop("evaluator_error", f"evaluator '{first.node}' raised {first.error}")
        return report.checks, report.completed

    def _final_check(self) -> str | None:
        """Check the end state; return an evaluator fault, if one raised."""
        # An app may still be writing what the last action asked for (an editor's save
        # landing): let every environment the episode touched settle first. A failure to
        # settle is not fatal: the checks then read what is there.
        for env in self.envs.values():
            if env.action_log:
                with contextlib.suppress(Exception):
                    env.settle_state(FINAL_SETTLE_SECONDS)
        self.graph.final_check(self.envs)
        fault = next((c for c in self.graph.end_checks if c.error is not None), None)
        return None if fault is None else f"evaluator '{fault.node}' raised {fault.error}"

    def _probe(self) -> Probe:
        """What the episode would give if the agent called ``complete`` now.

        Exactly what :meth:`run` would do after that call, on a fork of the graph
        evaluator and without touching any environment's state: the check after the call
        (the root's settle is a no-op), the settled final check, then the side effects.
        The environments are only read and waited on, so the episode then goes on as if
        nothing had happened.
        """
        graph = self.graph.fork()
        report = graph.step(self.envs)
        if report.errors:
            first = report.errors[0]
            error = f"evaluator '{first.node}' raised {first.error}"
            return Probe(False, tuple(graph.completed_order), error)
        return self._judge_end(graph)

    def judge_end(self) -> Probe:
        """What the episode would give if it ended on the environments' state now: after
        :meth:`run`, the settled final check on a fork of its graph evaluator (what each
        checkpoint held when it completed is kept), then the side effects; environments
        are only read. The gates change an ended episode's end state (a file an earlier
        step made, deleted) and ask this, instead of playing the episode again."""
        return self._judge_end(self.graph.fork())

    def _judge_end(self, graph: GraphEvaluator) -> Probe:
        completed = tuple(graph.completed_order)
        for env in self.envs.values():
            if env.action_log:
                with contextlib.suppress(Exception):
                    env.settle_state(FINAL_SETTLE_SECONDS)
        graph.final_check(self.envs)
        fault = next((c for c in graph.end_checks if c.error is not None), None)
        if fault is not None:
            return Probe(False, completed, f"evaluator '{fault.node}' raised {fault.error}")
        if not graph.is_complete:
            return Probe(False, completed, regressed=tuple(graph.regressed))
        failed = self.side_effect_policy == "fail" and bool(self._find_side_effects())
        return Probe(not failed, completed)

    def _find_side_effects(self) -> list[str]:
        """What changed since setup that the task may not change (one line each)."""
        if self.side_effect_policy == "off":
            return []
        changes = []
        for name, before in self._before.items():
            try:
                changes += [(name, c) for c in self.envs[name].state_changes(before)]
            except Exception as exc:  # a diff that fails says so rather than hide changes
                changes.append((name, _unreadable(exc)))
        return side_effects(changes, allowed_keys(self.task))

    def _teardown(self) -> None:
        for step in self.task.teardown:
            try:
                self.envs[step.env].execute(step.action)
            except Exception:  # teardown problems never change the outcome
                continue


def _unparsable(error: str) -> tuple[CallResult, CallRecord]:
    call = ActionCall(env=ROOT, name=UNPARSABLE)
    record = CallRecord(env=ROOT, name=UNPARSABLE, arguments={}, status="invalid", error=error)
    return CallResult(call=call, status="invalid", error=error), record


def _unreadable(exc: Exception) -> Change:
    return Change("state:", f"the state could not be compared: {_describe(exc)}")


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"
