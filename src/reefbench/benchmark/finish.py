"""Turn a built task into a reef-v0 task: user data, labels, step limit.

Applied to composed and handmade tasks alike, so every task of the suite carries the
credentials CALL_USER answers with, the devices it really touches (cross-device templates
read both), and a step limit that leaves the reference solution room. It adds no actions:
the tool list comes from the run's action set (:mod:`reefbench.actions.sets`) and is the
same in every task, so it cannot hint which devices a task needs.
"""

from __future__ import annotations

from reefbench.actions.spec import ActionCall
from reefbench.compose.capabilities import capabilities_for
from reefbench.compose.complexity import task_complexity
from reefbench.envs.services.login import DEFAULT_PASSWORD, DEFAULT_USERNAME
from reefbench.suites.step_budget import DEFAULT_RULE, step_budget
from reefbench.tasks.task import Task

DEVICES = ("browser", "desktop", "phone")
CREDENTIALS = {"username": DEFAULT_USERNAME, "password": DEFAULT_PASSWORD}
# OS-MAP's demand hierarchy: application category -> domain (shared/seeds/004, L191).
DOMAINS = {
    "system": "system management",
    "file management": "system management",
    "text editing": "work",
    "productivity": "work",
    "communication": "work",
    "cross-device": "work",
    "graphics": "creative production",
    "utilities": "life services",
}


def devices_of(task: Task) -> list[str]:
    """Devices the task's checkpoints, setup and reference solution touch."""
    used = {ev.env_name for ev in task.nodes.values()}
    used |= {step.env for step in task.setup}
    used |= {c.env for c in task.reference_solution}
    return sorted(d for d in DEVICES if d in used)


def is_cross_device(task: Task) -> bool:
    """Information travels between the phone and the computer (desktop or its browser)."""
    devices = set(devices_of(task))
    return "phone" in devices and bool(devices & {"desktop", "browser"})


def finish(task: Task, *, tags: tuple[str, ...] = ()) -> Task:
    """Attach credentials; fix devices, labels and the step limit."""
    solutions = [task.reference_solution, *task.alternative_solutions]
    asks = {c.arguments.get("kind") for s in solutions for c in s if c.name == "call_user"}
    if "password" in asks:
        task.user_data = {**CREDENTIALS, **task.user_data}
    meta = task.metadata
    meta.environments = devices_of(task)
    categories = [info.app_category for info in meta.subtasks if info.app_category]
    domains = [DOMAINS.get(c, "work") for c in categories]
    if domains:
        meta.domain = max(sorted(set(domains)), key=domains.count)
        # OS-MAP scopes: one scenario (S1), several within one domain (S2), several domains.
        meta.scope = "S1" if len(set(categories)) == 1 else "S2" if len(set(domains)) == 1 else "S3"
    complexity = task_complexity(task)
    meta.complexity = {**complexity.as_metadata(), **_extra(meta.complexity)}
    meta.capabilities = capabilities_for(complexity.levels)
    # A budget that leaves room to go wrong and recover (reef-v1 keeps the limits it was
    # frozen with: its build applies its own rule).
    meta.step_limit = step_budget(task, DEFAULT_RULE)
    extra_tags = [*tags, *(["cross-device"] if is_cross_device(task) else [])]
    meta.tags = sorted({*meta.tags, *extra_tags})
    return task


def _extra(complexity: dict[str, int | str]) -> dict[str, int | str]:
    return {k: v for k, v in complexity.items() if k == "topological_orders"}


def ask_first(task: Task, kinds: list[str]) -> Task:
    """Prefix every solution with CALL_USER for the hidden details (OS-MAP L3 tasks)."""
    asks = [ActionCall(env="root", name="call_user", arguments={"kind": k}) for k in kinds]
    task.reference_solution = [*asks, *task.reference_solution]
    task.alternative_solutions = [[*asks, *s] for s in task.alternative_solutions]
    shift = len(asks)
    for info in task.metadata.subtasks:
        start, end = info.solution_span
        info.solution_span = (start + shift if start else 0, end + shift)
    return task
