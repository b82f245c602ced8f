"""The validation gates on a Ray cluster (``reef suite check --ray ADDRESS``).

Each Ray actor owns one set of the suite's environments on its node and checks tasks by
id with :func:`~reefbench.validation.gates.check_task`, as a local gate worker does. The
actors are the runner's (:class:`~reefbench.plumbing.ray_actors.ActorPool`: one CPU each,
spread over the nodes, replaced when their node is lost) and, as there, only JSON crosses
the wire: the task definitions and the environments' import reference when an actor
starts, a task id in and the verdict out. A task whose actor was lost is checked again on
the new actor, once; a second loss fails the task, naming the Ray error.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import queue
import threading
from collections.abc import Callable, Mapping
from typing import Any

from reefbench.environments.contract import Environment, stop_environments
from reefbench.errors import ConfigError
from reefbench.plumbing.ray_actors import ActorPool, connect, node_of_this_process
from reefbench.tasks.task import Task
from reefbench.tasks.taskfile import task_from_dict, tasks_to_jsonl
from reefbench.validation.gates import RemoteChecks, Verdict, check_task

ATTEMPTS = 2
"""Times a task is tried when its actor is lost (the second on a new actor)."""


def environments_reference(make_environments: Callable[[], Any]) -> str:
    """``module:function`` of a suite's environment factory, which an actor imports on
    its node (code is named, never shipped).

    Raises:
        ConfigError: the factory is not a module-level function (a lambda, a closure).
    """
    module, name = make_environments.__module__, make_environments.__qualname__
    if "<" in name or "." in name:
        raise ConfigError(
            f"the environments of this suite ({module}.{name}) are not a module-level "
            "function, so the gates cannot make them on a Ray node"
        )
    return f"{module}:{name}"


class GateChecker:
    """Checks tasks on one set of environments in one process; the body of the Ray actor.

    Args:
        environments: The suite's environment factory as ``module:function``.
        tasks_jsonl: The definitions of the tasks to check (canonical JSON lines).
        action_set: The action set every gate episode plays under.
    """

    def __init__(self, environments: str, tasks_jsonl: str, action_set: str) -> None:
        module, _, name = environments.partition(":")
        self.make_environments = getattr(importlib.import_module(module), name)
        tasks = (
            task_from_dict(json.loads(line), where=f"tasks:{number}")
            for number, line in enumerate(tasks_jsonl.splitlines(), 1)
            if line
        )
        self.tasks = {t.id: t for t in tasks}
        self.action_set = action_set
        self.envs: Mapping[str, Environment] | None = None

    def check(self, task_id: str, near_misses_of: list[str], alternatives: bool) -> str:
        """The verdict of every gate for ``task_id``, as JSON."""
        if self.envs is None:
            self.envs = self.make_environments()
        verdict = check_task(
            self.tasks[task_id],
            self.envs,
            near_misses_of=set(near_misses_of),
            alternatives=alternatives,
            action_set=self.action_set,
        )
        verdict.node = node_of_this_process()["node_id"]
        return json.dumps(dataclasses.asdict(verdict))

    def node(self) -> dict[str, str]:
        """Where this actor lives (its node's id and IP address)."""
        return node_of_this_process()

    def close(self) -> None:
        stop_environments(self.envs)
        self.envs = None


class RayGatePool(ActorPool):
    """``workers`` gate checkers on the connected cluster, each given the definitions of
    ``tasks``, the environments' reference and the action set."""

    def __init__(self, workers: int, tasks: list[Task], environments: str, action_set: str):
        super().__init__(GateChecker, (environments, tasks_to_jsonl(tasks), action_set), workers)

    def check(
        self, index: int, task: Task, near_misses_of: set[str], alternatives: bool
    ) -> Verdict:
        """The verdict of ``task`` from actor ``index``, checked again once on a new actor
        if the first was lost (a task that raised in its gates fails, naming the error)."""
        import ray

        for attempt in range(1, ATTEMPTS + 1):
            try:
                reply = self.call(
                    index, task.id, "check", task.id, sorted(near_misses_of), alternatives
                )
                return Verdict(**json.loads(reply))
            except ray.exceptions.RayTaskError as exc:
                return Verdict(task.id, [f"gate crashed: {exc.cause!r}"])
            except ray.exceptions.RayError as exc:
                if attempt == ATTEMPTS:
                    return Verdict(task.id, [f"ray: {type(exc).__name__}: {exc}"[:300]])
        raise AssertionError("unreachable")


def on_ray(address: str, make_environments: Callable[[], Any], action_set: str) -> RemoteChecks:
    """How :func:`~reefbench.validation.gates.run_gates` plays its gates on the Ray cluster
    at ``address`` (``local`` starts one): one actor per worker, one driver thread each.

    Raises:
        ConfigError: the suite's environments cannot be made on a node (checked now); the
            cluster has fewer CPUs than workers (checked when the gates start).
    """
    environments = environments_reference(make_environments)

    def check_elsewhere(
        tasks: list[Task],
        count: int,
        options: Callable[[Task], tuple[set[str], bool]],
        record: Callable[[Verdict], None],
    ) -> None:
        connect(address, count)
        pool = RayGatePool(count, tasks, environments, action_set)
        work: queue.Queue[Task] = queue.Queue()
        for task in tasks:
            work.put(task)

        def worker(index: int) -> None:
            while True:
                try:
                    task = work.get_nowait()
                except queue.Empty:
                    return
                record(pool.check(index, task, *options(task)))

        threads = [
            threading.Thread(target=worker, args=(i,), name=f"reef-gate-ray-{i}", daemon=True)
            for i in range(count)
        ]
        try:
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        finally:
            pool.close()

    return check_elsewhere
