"""Runs the planned episodes of a run with N concurrent workers and a crash-safe store.

Each worker thread owns its own environment instances (started once, reset by every
episode) and runs one episode at a time; episodes spend their time waiting on models and
on environment processes, so threads give real concurrency. Only the main thread writes the
store's index; a worker's episode writes its observation files through the store's sink
as it plays. Infrastructure failures (agent_error, env_error, evaluator_error) are
retried up to ``max_infra_retries`` times, the worker replacing its environments after an
env_error; the last attempt is stored as ``failed`` and reported apart from agent
failures. A stopped run (:meth:`Runner.stop`, Ctrl+C, SIGTERM) marks the episodes it cut
short as ``aborted``, so a resumed run plays them and no report counts them; a worker
stuck in an agent's call is waited for only :data:`STOP_GRACE` seconds.
"""

from __future__ import annotations

import fnmatch
import queue
import threading
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from reefbench.environments.contract import Environment, stop_environments
from reefbench.episodes.episode import Episode, EpisodeResult
from reefbench.episodes.protocol import Agent
from reefbench.errors import ConfigError
from reefbench.log.store import EpisodeKey, ResultsStore
from reefbench.runner.config import RunConfig
from reefbench.runner.episodes import build_episode, infrastructure_result
from reefbench.runner.outcomes import RETRYABLE, needs_new_environments
from reefbench.tasks.task import Task

AgentFactory = Callable[[EpisodeKey], Agent]
EnvironmentFactory = Callable[[], Mapping[str, Environment]]

STOP_GRACE = 5.0
"""Seconds a stop waits for the workers to end their episodes at an action boundary. A
worker still busy then (blocked in an agent's call) is left to die with the process (its
thread is a daemon); the command's stop (:mod:`reefbench.cli.stopping`) kills the
processes of its environments, which a stop from this thread could not close cleanly (a
Playwright browser belongs to the thread that started it)."""


def select_tasks(
    tasks: list[Task],
    patterns: list[str],
    *,
    tiers: Collection[str] = (),
    families: Collection[str] = (),
) -> list[Task]:
    """Tasks whose id matches any glob (all tasks when there is no pattern), of any of
    ``tiers`` and any of ``families`` (each: all when empty).

    Raises:
        ConfigError: nothing matches (one line; a tier or family the suite does not have
            says which it has).
    """
    chosen = tasks
    if patterns:
        chosen = [t for t in chosen if any(fnmatch.fnmatchcase(t.id, p) for p in patterns)]
        if not chosen:
            raise ConfigError(f"no task matches {', '.join(patterns)}")
    for label, wanted in (("tier", tiers), ("family", families)):
        if not wanted:
            continue
        found = [t for t in chosen if _label(t, label) in wanted]
        if not found:
            have = sorted({v for t in tasks if (v := _label(t, label)) is not None})
            has = f"its {label} labels are {', '.join(have)}" if have else f"no task has a {label}"
            raise ConfigError(f"no task of {label} {', '.join(wanted)} is selected ({has})")
        chosen = found
    return chosen


def _label(task: Task, label: str) -> str | None:
    return task.metadata.tier if label == "tier" else task.metadata.family


def plan(tasks: list[Task], config: RunConfig) -> list[EpisodeKey]:
    """Every (task, seed, start_at) the run must play; SR@k starts only where they exist."""
    keys = []
    for task in tasks:
        for seed in config.seeds:
            for k in config.start_at:
                if k == 0 or k < len(task.metadata.subtasks):
                    keys.append(EpisodeKey(task.id, seed, k))
    return keys


@dataclass
class Progress:
    """What the runner reports after each stored episode."""

    total: int
    done: int = 0
    retried: int = 0
    results: list[EpisodeResult] = field(default_factory=list)


class _Worker(threading.Thread):
    def __init__(self, runner: Runner, index: int) -> None:
        super().__init__(name=f"reef-worker-{index}", daemon=True)
        self.runner = runner
        self.envs: Mapping[str, Environment] | None = None
        self.current: Episode | None = None
        self.key: EpisodeKey | None = None  # the episode being played

    def run(self) -> None:
        runner = self.runner
        try:
            self._prewarm()
            while not runner.stopping.is_set():
                try:
                    key = runner.work.get(timeout=0.1)
                except queue.Empty:
                    if runner.finished.is_set():
                        return
                    continue
                self.key = key
                result = self._play(key)
                runner.done.put((key, result))
                self.key = None
        finally:
            self._close_envs()

    def _prewarm(self) -> None:
        """Start this worker's environments now, alongside the other workers'."""
        try:
            self.envs = self.runner.make_environments()
            for env in self.envs.values():
                env.start()
        except Exception:  # the first episode tries again and reports the failure
            self._close_envs()

    def _play(self, key: EpisodeKey) -> EpisodeResult:
        runner = self.runner
        task = runner.tasks[key.task_id]
        try:
            if self.envs is None:
                self.envs = runner.make_environments()
            agent = runner.make_agent(key)
        except Exception as exc:  # environment start-up or agent construction failed
            self._close_envs()
            return infrastructure_result(task, "env_error", f"{type(exc).__name__}: {exc}")
        self.current = build_episode(
            runner.config,
            task,
            agent,
            self.envs,
            start_at=key.start_at,
            observations=runner.store.observations(key),
        )
        if runner.stopping.is_set():
            self.current.abort()
        result = self.current.run()
        self.current = None
        if needs_new_environments(result, self.envs):
            self._close_envs()  # a broken environment is replaced, not reused
        return result

    def _close_envs(self) -> None:
        stop_environments(self.envs)
        self.envs = None


class _RayWorker(_Worker):
    """Plays episodes through one Ray actor; the environments live in the actor."""

    def __init__(self, runner: Runner, index: int, pool: Any) -> None:
        super().__init__(runner, index)
        self.index = index
        self.pool = pool

    def _play(self, key: EpisodeKey) -> EpisodeResult:
        task = self.runner.tasks[key.task_id]
        try:
            result: EpisodeResult = self.pool.play(self.index, key, self.runner.store)
            return result
        except Exception as exc:  # a dead actor or node: infrastructure, retried
            return infrastructure_result(task, "env_error", f"ray: {type(exc).__name__}: {exc}")

    def _prewarm(self) -> None:
        return None  # the actor starts its environments on the cluster

    def _close_envs(self) -> None:
        return None  # the actor owns them; the pool closes it


class Runner:
    """Plans, runs, retries and stores the episodes of one run.

    ``tasks`` are the tasks the run plays, already chosen (:func:`select_tasks` by
    :func:`reefbench.runner.launch.select_run`, once per run); the runner plays every one
    of them and does not read ``config.tasks`` again.
    """

    def __init__(
        self,
        config: RunConfig,
        tasks: list[Task],
        make_agent: AgentFactory,
        make_environments: EnvironmentFactory,
        store: ResultsStore,
    ) -> None:
        self.config = config
        self.tasks = {t.id: t for t in tasks}
        self.make_agent = make_agent
        self.make_environments = make_environments
        self.store = store
        self.work: queue.Queue[EpisodeKey] = queue.Queue()
        self.done: queue.Queue[tuple[EpisodeKey, EpisodeResult]] = queue.Queue()
        self.stopping = threading.Event()
        self.finished = threading.Event()
        self._workers: list[_Worker] = []

    def run(
        self,
        on_progress: Callable[[Progress], None] | None = None,
        on_plan: Callable[[int], None] | None = None,
    ) -> Progress:
        """Run everything not yet done; returns when all are stored or after :meth:`stop`.

        ``on_plan`` hears how many episodes remain before the first starts; ``on_progress``
        hears every stored episode.
        """
        self.store.plan(plan(list(self.tasks.values()), self.config))
        todo = [k for k in self.store.todo() if k.task_id in self.tasks]
        progress = Progress(total=len(todo))
        if on_plan is not None:
            on_plan(len(todo))
        for key in todo:
            self.work.put(key)
        attempts = {key: 0 for key in todo}
        outstanding = len(todo)
        count = min(self.config.workers, len(todo))
        pool = None
        if self.config.ray_address is not None and count:
            from reefbench.runner.ray_executor import RayPool

            pool = RayPool(self.config, count, list(self.tasks.values()))
            self._workers = [_RayWorker(self, i, pool) for i in range(count)]
        else:
            self._workers = [_Worker(self, i) for i in range(count)]
        for worker in self._workers:
            worker.start()
        try:
            while outstanding:
                try:
                    key, result = self.done.get(timeout=0.1)
                except queue.Empty:
                    if self.stopping.is_set():  # stopped from another thread
                        break
                    continue
                attempts[key] += 1
                if result.termination == "aborted" or (
                    self.stopping.is_set() and result.termination in RETRYABLE
                ):
                    # Cut short by a stop (an env_error then is the stop's doing): a
                    # resumed run plays it again.
                    self.store.mark_aborted(key, result.error or result.termination)
                    outstanding -= 1
                    continue
                retry = (
                    result.termination in RETRYABLE
                    and attempts[key] <= self.config.max_infra_retries
                    and not self.stopping.is_set()
                )
                if retry:
                    self.store.mark_retry(key, result.error or result.termination)
                    progress.retried += 1
                    self.work.put(key)
                    continue
                self.store.record(key, result, final=result.termination not in RETRYABLE)
                outstanding -= 1
                progress.done += 1
                progress.results.append(result)
                if on_progress is not None:
                    on_progress(progress)
        finally:
            self.finished.set()
            self.stop()
            self._store_unfinished()
            if pool is not None:  # a stopped run does not wait for busy actors
                pool.close(timeout=STOP_GRACE if outstanding else None)
        return progress

    def stop(self, grace: float = STOP_GRACE) -> None:
        """Stop handing out work, abort running episodes and wait for the workers to stop
        their environments; one still inside an episode after ``grace`` seconds is stuck
        in an agent's call and is not waited for."""
        self.stopping.set()
        for worker in self._workers:
            episode = worker.current
            if episode is not None:
                episode.abort()
        deadline = time.monotonic() + grace
        for worker in self._workers:
            while worker.is_alive():
                worker.join(0.1)
                if worker.key is not None and time.monotonic() > deadline:
                    break

    def _store_unfinished(self) -> None:
        """After a stop: store what finished meanwhile, mark what was cut short aborted."""
        while True:
            try:
                key, result = self.done.get_nowait()
            except queue.Empty:
                break
            if result.termination == "aborted" or result.termination in RETRYABLE:
                self.store.mark_aborted(key, result.error or result.termination)
            else:
                self.store.record(key, result)
        for worker in self._workers:
            stuck = worker.key
            if worker.is_alive() and stuck is not None:
                self.store.mark_aborted(stuck, "stopped while the agent was answering")
