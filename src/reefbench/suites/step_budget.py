"""Step budgets: how many turns a task of a release gives its agent.

A budget is fixed when a release is frozen and stored with each task
(``metadata.step_limit``), so a published release never changes under its users; a run
may override it (``reef run --step-limit``). The agent is told its budget in the system
prompt and at every step ("Step 12 of 40").

Rules, by name:

* ``reference+5`` (reef-v1): OS-MAP's limit for the task's level (L1-L2 15, L3 30, L4-L5
  50; CRAB's 15 without a level), raised to the longest certified solution + 5. Half of
  reef-v1's tasks got exactly 5 steps of slack (a 22-action reference, 27 steps): one
  wrong turn and its undoing spent them.
* ``twice-reference`` (new releases): the level's limit, raised to twice the longest
  certified solution. Budgets proportional to the work follow AndroidWorld (each task
  gets 10 steps per unit of its complexity rating) and the issue's "at least twice the
  reference"; the level's floor keeps OS-MAP's and OSWorld's fixed budgets (15, 50) for
  short tasks. An agent can go wrong, notice and recover within it, and efficiency is
  still measured apart (EE and CE compare the steps taken with the reference).
"""

from __future__ import annotations

from collections.abc import Callable

from reefbench.errors import ConfigError
from reefbench.tasks.task import DEFAULT_STEP_LIMIT, STEP_LIMIT_BY_LEVEL, Task


def longest_solution(task: Task) -> int:
    """Calls of the task's longest certified solution (reference or alternative)."""
    return max(len(s) for s in [task.reference_solution, *task.alternative_solutions])


def level_limit(task: Task) -> int:
    """OS-MAP's step limit for the task's level, else CRAB's 15 turns."""
    level = task.metadata.level
    return STEP_LIMIT_BY_LEVEL[level] if level else DEFAULT_STEP_LIMIT


def reference_plus_5(task: Task) -> int:
    """reef-v1's rule: the level's limit, at least the longest solution + 5."""
    return max(level_limit(task), longest_solution(task) + 5)


def twice_reference(task: Task) -> int:
    """New releases' rule: the level's limit, at least twice the longest solution."""
    return max(level_limit(task), 2 * longest_solution(task))


RULES: dict[str, Callable[[Task], int]] = {
    "reference+5": reference_plus_5,
    "twice-reference": twice_reference,
}
DEFAULT_RULE = "twice-reference"
V1_RULE = "reference+5"
"""The rule reef-v1 was frozen with (its data keeps the limits it stores)."""


def step_budget(task: Task, rule: str = DEFAULT_RULE) -> int:
    """The step limit ``rule`` gives ``task``.

    Raises:
        ConfigError: no rule of that name.
    """
    found = RULES.get(rule)
    if found is None:
        raise ConfigError(f"unknown step-budget rule {rule!r}: choose one of {', '.join(RULES)}")
    return found(task)


def with_step_budget(task: Task, rule: str) -> Task:
    """A copy of ``task`` whose stored step limit is what ``rule`` gives it."""
    metadata = task.metadata.model_copy(update={"step_limit": step_budget(task, rule)})
    return task.model_copy(update={"metadata": metadata})
