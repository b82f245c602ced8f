"""reef suites as Inspect AI evals: ``inspect eval reefbench/reef_v1 --model openai/gpt-4o``.

Each sample is a reef task (its id, its instruction as input). The solver
(:func:`reef_agent`) plays the task exactly as ``reef run`` does: reef's environments are
started and reset by reef's episode, reef's default single agent reads the observations
(text and screenshots, sent as Inspect messages) and calls each device's actions, offered
as Inspect tools with their schemas; every call goes through reef's episode, so end-state
checks, side effects, the step budget and invalid actions work as in ``reef run``. Only
the model is Inspect's (:class:`~reefbench.integrations.inspect_model.InspectProvider`).
The scorer (:func:`reef_scorer`) is reef's graph evaluator: success (SR) is the accuracy;
completion ratio (CR), execution efficiency (EE) and steps are further metrics. The sample's
store keeps reef's episode result with its whole trajectory, and its transcript every model
request and reply.

Task options (``-T name=value``) map to ``reef run``'s: ``suite``, ``tasks`` (id globs,
comma-separated), ``action_set``, ``observation_policy``, ``step_limit``,
``invalid_tolerance``, ``tool_mode`` (native or json), ``history``, ``workers`` (episodes at
once: each holds its own devices, a desktop among them).

Inspect finds these tasks through the ``inspect_ai`` entry point of reefbench's package
metadata (needs the ``inspect`` extra: ``pip install 'reefbench[inspect]'``).
"""

from __future__ import annotations

import asyncio
import atexit
import contextvars
import fnmatch
import queue
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ModelOutput, get_model
from inspect_ai.scorer import Score, Target, accuracy, mean, scorer, stderr
from inspect_ai.solver import Generate, Solver, TaskState, solver

from reefbench.agents.policies import ModelSettings, policy_factory
from reefbench.environments.contract import Environment, stop_environments
from reefbench.episodes.episode import EpisodeResult, summarise_observation
from reefbench.episodes.metrics import execution_efficiency
from reefbench.errors import ConfigError
from reefbench.integrations.inspect_model import InspectProvider
from reefbench.runner.config import RunConfig
from reefbench.runner.episodes import build_episode, infrastructure_result
from reefbench.runner.outcomes import needs_new_environments
from reefbench.suites import Suite, get_suite
from reefbench.tasks.task import Task as ReefTask

# The key of reef's episode result in each sample's store.
RESULT_KEY = "reef_result"


# ------------------------------------------------------------------ tasks
@task
def reef_v1(**options: Any) -> Task:
    """reef-v1 (230 tasks: desktop, phone and browser around one local cloud account)."""
    return reef(suite="v1", **options)


@task
def reef(
    suite: str = "v1",
    tasks: str = "",
    action_set: str = "marks",
    observation_policy: str | None = None,
    step_limit: int | None = None,
    invalid_tolerance: int | None = None,
    tool_mode: str = "native",
    history: int | None = None,
    workers: int = 1,
) -> Task:
    """Any reef suite (``-T suite=memory``): its tasks as samples, reef's episode as the
    solver, reef's graph evaluator as the scorer."""
    config = _run_config(suite, action_set, observation_policy, step_limit, invalid_tolerance)
    chosen = get_suite(suite)
    patterns = [p.strip() for p in tasks.split(",") if p.strip()]
    selected = [t for t in chosen.load() if _chosen(t.id, patterns)]
    if not selected:
        raise ConfigError(f"no task of suite '{chosen.name}' matches {tasks!r}")
    if tool_mode not in ("native", "json"):
        raise ConfigError(f"tool_mode {tool_mode!r}: choose native or json")
    if workers < 1:
        raise ConfigError(f"workers must be at least 1, not {workers}")
    settings = ModelSettings(
        mode="json" if tool_mode == "json" else "native",
        history=history,
        observe=config.observation_policy,
        invalid_tolerance=config.invalid_tolerance,
    )
    return Task(
        dataset=MemoryDataset([_sample(t) for t in selected], name=f"reef-{chosen.name}"),
        solver=reef_agent(chosen, {t.id: t for t in selected}, config, settings, workers),
        scorer=reef_scorer(),
        name=f"reef_{chosen.name}",
        metadata={"suite": chosen.name, "reefbench_config": config.model_dump(by_alias=True)},
    )


def _run_config(
    suite: str,
    action_set: str,
    observation_policy: str | None,
    step_limit: int | None,
    invalid_tolerance: int | None,
) -> RunConfig:
    values: dict[str, Any] = {"suite": suite, "action_set": action_set, "workers": 1}
    if observation_policy is not None:
        values["observation_policy"] = observation_policy
    if step_limit is not None:
        values["step_limit"] = step_limit
    if invalid_tolerance is not None:
        values["invalid_tolerance"] = invalid_tolerance
    try:
        return RunConfig.model_validate(values)
    except ValueError as exc:
        first = str(exc).splitlines()
        raise ConfigError(f"reef task options: {' '.join(first[1:3]) or first[0]}") from None


def _chosen(task_id: str, patterns: list[str]) -> bool:
    return not patterns or any(fnmatch.fnmatchcase(task_id, p) for p in patterns)


def _sample(reef_task: ReefTask) -> Sample:
    meta = reef_task.metadata
    return Sample(
        id=reef_task.id,
        input=reef_task.instruction,
        target=reef_task.id,
        metadata={
            "platform": meta.platform,
            "apps": list(meta.apps),
            "level": meta.level,
            "checkpoints": len(reef_task.nodes),
        },
    )


# ------------------------------------------------------------------ solver
@solver
def reef_agent(
    suite: Suite,
    tasks: Mapping[str, ReefTask],
    config: RunConfig,
    settings: ModelSettings,
    workers: int = 1,
) -> Solver:
    """Play the sample's reef task with reef's single agent over Inspect's model."""
    players = EpisodePlayers(suite.make_environments, workers)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        reef_task = tasks[str(state.sample_id)]
        provider = InspectProvider(get_model(), asyncio.get_running_loop())
        make_agent = policy_factory("single", provider, settings)
        result = await players.play(config, reef_task, make_agent)
        if provider.failure is not None:
            raise provider.failure  # Inspect's own limit or error, as Inspect raised it
        if result.infrastructure_failure:
            raise RuntimeError(f"reef episode could not be played: {result.error}")
        state.store.set(RESULT_KEY, result.model_dump(mode="json"))
        state.output = ModelOutput.from_content(str(provider.model), result.answer or "")
        state.completed = True
        return state

    return solve


@dataclass
class _Job:
    config: RunConfig
    task: ReefTask
    make_agent: Callable[[], Any]
    context: contextvars.Context
    done: Future[EpisodeResult] = field(default_factory=Future)


class EpisodePlayers:
    """Threads that each own one set of the suite's devices and play episodes on them.

    A device is bound to the thread that started it (Playwright's are), and starting a
    desktop costs seconds, so each thread keeps its devices from episode to episode (an
    episode resets them, as ``reef run``'s workers do) and replaces them when an episode
    broke one. Threads start on the first episode and stop with the process.
    """

    def __init__(self, make_environments: Callable[[], dict[str, Environment]], count: int) -> None:
        self.make_environments = make_environments
        self.count = count
        self.jobs: queue.Queue[_Job | None] = queue.Queue()
        self.threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    async def play(
        self, config: RunConfig, reef_task: ReefTask, make_agent: Callable[[], Any]
    ) -> EpisodeResult:
        """Play one episode on a free thread, in the calling sample's context (so the
        model requests it makes are the sample's)."""
        self._start()
        job = _Job(config, reef_task, make_agent, contextvars.copy_context())
        self.jobs.put(job)
        return await asyncio.wrap_future(job.done)

    def _start(self) -> None:
        with self._lock:
            if self.threads:
                return
            for index in range(self.count):
                thread = threading.Thread(
                    target=self._serve, name=f"reef-inspect-{index}", daemon=True
                )
                thread.start()
                self.threads.append(thread)
            atexit.register(self.close)

    def _serve(self) -> None:
        envs: dict[str, Environment] | None = None
        try:
            while (job := self.jobs.get()) is not None:
                try:
                    result, envs = job.context.run(self._play, job, envs)
                except BaseException as exc:
                    job.done.set_exception(exc)
                else:
                    job.done.set_result(result)
        finally:
            stop_environments(envs)

    def _play(
        self, job: _Job, envs: dict[str, Environment] | None
    ) -> tuple[EpisodeResult, dict[str, Environment] | None]:
        try:
            if envs is None:
                envs = self.make_environments()
            agent = job.make_agent()
        except Exception as exc:  # devices or agent could not be made
            stop_environments(envs)
            error = f"{type(exc).__name__}: {exc}"
            return infrastructure_result(job.task, "env_error", error), None
        episode = build_episode(
            job.config, job.task, agent, envs, start_at=0, observations=summarise_observation
        )
        result = episode.run()
        if needs_new_environments(result, envs):
            stop_environments(envs)
            envs = None
        return result, envs

    def close(self) -> None:
        """Stop the threads; each stops its devices on its own thread."""
        for _ in self.threads:
            self.jobs.put(None)
        for thread in self.threads:
            thread.join(timeout=60)
        self.threads.clear()


# ------------------------------------------------------------------ scorer
@scorer(
    metrics={
        "success": [accuracy(), stderr()],
        "completion_ratio": [mean()],
        "execution_efficiency": [mean()],
        "steps": [mean()],
    }
)
def reef_scorer() -> Any:
    """reef's graph evaluator: its verdict, read from the episode the solver played."""

    async def score(state: TaskState, target: Target) -> Score:
        stored = state.store.get(RESULT_KEY)
        if stored is None:
            raise RuntimeError("the sample has no reef episode: use the reef_agent solver")
        result = EpisodeResult.model_validate(stored)
        return Score(
            value={
                "success": 1.0 if result.success else 0.0,
                "completion_ratio": result.completion_ratio,
                "execution_efficiency": execution_efficiency(result),
                "steps": float(result.steps),
            },
            answer=result.answer,
            explanation=_explanation(result),
            metadata={
                "termination": result.termination,
                "completed": result.completed_nodes,
                "total": result.total_nodes,
                "invalid_actions": result.invalid_actions,
                "side_effects": result.side_effects,
            },
        )

    return score


def _explanation(result: EpisodeResult) -> str:
    lines = [
        f"{result.termination}: {len(result.credited_nodes)} of {result.total_nodes} "
        f"checkpoints, {result.steps} steps ({result.invalid_actions} invalid)"
    ]
    lines += [f"regressed: {node}" for node in result.regressed]
    lines += [f"side effect: {effect}" for effect in result.side_effects]
    if result.error:
        lines.append(f"error: {result.error}")
    return "\n".join(lines)
