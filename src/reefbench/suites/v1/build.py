"""Synthesise reef-v1's tasks from the templates and handmade definitions (what
``reef suite freeze v1`` writes; loading the suite never runs this).

The tasks are reef-v0's plan (handmade first, then the seeded-world ones, then the
composed requests in order) with ids derived from their content: ``v1-<kind>-<hash>``,
the kind being the handmade mark or the composed request's tag (``small``, ``chain``, ...).
Composed tasks whose reference solution takes at most :data:`SHORT` actions
(``Task.solution_actions``) stay in reef-v0 (tests and demos play them) but not in
reef-v1: a task one shell command solves measures little, and issue 18 caps such tasks
at 10 % of the benchmark. Step limits follow the rule reef-v1 was frozen with
(:data:`~reefbench.suites.step_budget.V1_RULE`), whatever reef-v0 gives its tasks now.
"""

from __future__ import annotations

from reefbench.actions.names import LEGACY_REFS
from reefbench.errors import ConfigError
from reefbench.suites.frozen import content_id
from reefbench.suites.step_budget import V1_RULE, with_step_budget
from reefbench.tasks.task import Task

PREFIX = "v1"
SHORT = 5
# reef-v1 was frozen when task files named actions by module path: its ids hash the task
# as it was written then, so they stay the ids it was published with.
WRITTEN_AS = {name: ref for ref, name in LEGACY_REFS.items()}


def task_id(task: Task, prefix: str) -> str:
    """reef-v1's id of a task: the hash of its definition as reef-v1 wrote it."""
    return content_id(task, prefix, written_as=WRITTEN_AS)


def _kind(v0_id: str) -> str:
    """``v0-small-1b2acbb6e701`` -> ``small``; handmade tasks are ``hand``."""
    body = v0_id.removeprefix("v0-")
    return "hand" if body.startswith("hand-") else body.rsplit("-", 1)[0]


def build() -> list[Task]:
    """Every task of reef-v1, in suite order, with content-derived ids.

    Raises:
        ConfigError: two tasks with the same definition (they would share an id).
    """
    from reefbench.benchmark import composed, handmade, world_tasks

    tasks: list[Task] = []
    seen: dict[str, str] = {}
    kept = [t for t in composed.load() if t.solution_actions > SHORT]
    for built in [*handmade.load(), *world_tasks.load(), *kept]:
        # reef-v1 was frozen with reference+5 budgets: its data stays as published.
        task = with_step_budget(built, V1_RULE)
        new_id = task_id(task, f"{PREFIX}-{_kind(task.id)}-")
        if new_id in seen:
            raise ConfigError(f"{task.id} and {seen[new_id]} are the same task ({new_id})")
        seen[new_id] = task.id
        tasks.append(task.model_copy(update={"id": new_id}))
    return tasks
