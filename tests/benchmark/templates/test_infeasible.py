"""reef-v2's infeasible family, statically: the tasks declare, the near misses do the
nearest feasible thing, the instructions do not hint (the live gates are in
tests/validation/test_v2_gates.py)."""

from __future__ import annotations

import re

import pytest

from reefbench.benchmark import v2
from reefbench.benchmark.templates import infeasible
from reefbench.tasks.task import Task

FAMILY = next(f for f in v2.families() if f.name == "infeasible")
TASKS = list(v2.tasks_of(FAMILY))
# The family's tasks that are infeasible, judged by their own checkpoints: its feasible
# twins (infeasible.signed_or_not, test_infeasible_twins.py) are done, not declared.
DECLARING = [t for t in TASKS if any(n.name == "declared_infeasible" for n in t.nodes.values())]


def test_the_family_has_three_hard_templates() -> None:
    assert len(FAMILY.templates) >= 3
    assert {t.tier for t in FAMILY.templates} == {"hard"}
    # these, and the later ones of infeasible_more (test_infeasible_more.py)
    assert {t.id for t in infeasible.TEMPLATES} <= {t.subtask.id for t in FAMILY.templates}


def test_only_the_twins_template_has_feasible_tasks() -> None:
    declaring = {t.id for t in DECLARING}
    feasible = {t.metadata.subtasks[0].template for t in TASKS if t.id not in declaring}
    assert feasible <= {"infeasible.signed_or_not"}
    assert len(DECLARING) > len(TASKS) // 2


@pytest.mark.parametrize("task", DECLARING, ids=lambda t: t.id)
def test_a_task_is_solved_by_looking_then_declaring(task: Task) -> None:
    assert (task.metadata.family, task.metadata.tier) == ("infeasible", "hard")
    last = task.reference_solution[-1]
    assert (last.env, last.name) == ("root", "infeasible") and last.arguments["reason"]
    assert len(task.reference_solution) >= 2  # it looks first
    first, second = list(task.nodes)
    assert task.nodes[first].name == "declared_infeasible"
    # Nothing of the nearest feasible thing: checked only once declared (null agent: CR 0).
    assert task.edges == [(first, second)]
    assert len(task.near_misses) >= 2
    ends = [n.calls[-1].name for n in task.near_misses]
    assert sorted(ends[:2]) == ["complete", "infeasible"]


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_the_instruction_does_not_hint(task: Task) -> None:
    text = task.instruction.lower()
    hints = r"infeasib|impossible|cannot|can't|if (it|this|that|you)|not exist|if possible"
    assert not re.search(hints, text), task.instruction


def _exists(day: str) -> bool:
    """Whether ``day`` ("29 February 2025" or "the fifth Monday of June 2024") is a date."""
    import calendar

    months = list(calendar.month_name)
    if match := re.fullmatch(r"(\d+) (\w+) (\d{4})", day):
        date, month, year = int(match[1]), months.index(match[2]), int(match[3])
        return date <= calendar.monthrange(year, month)[1]
    match = re.fullmatch(r"the (\w+) (\w+) of (\w+) (\d{4})", day)
    assert match, day
    nth = ["first", "second", "third", "fourth", "fifth"].index(match[1]) + 1
    weekday = list(calendar.day_name).index(match[2])
    month, year = months.index(match[3]), int(match[4])
    days = calendar.monthrange(year, month)[1]
    return sum(calendar.weekday(year, month, d) == weekday for d in range(1, days + 1)) >= nth


def test_every_missing_day_is_missing_but_not_plainly() -> None:
    assert _exists("29 February 2024") and _exists("the fifth Monday of July 2024")
    assert not any(_exists(day) for day in infeasible.MISSING_DAYS)
    # Subtle: no day number beyond 31; a date or a fifth weekday that needs a calendar.
    assert all(
        int(n) <= 31 for day in infeasible.MISSING_DAYS for n in re.findall(r"\b\d\d?\b", day)
    )
    assert len(infeasible.MISSING_DAYS) >= 5


def test_the_phone_only_contact_has_no_address_but_its_look_alike_has() -> None:
    """The look needed: the contact card shows a phone and no address; the look-alike name
    beside it has one, which the third near miss mails."""
    task = next(t for t in TASKS if "phone-only" in t.id)
    contacts = [
        step.action.bound
        for step in task.setup
        if getattr(step.action, "name", "") == "add_contact"
    ]
    asked, lookalike = contacts
    assert asked["phone"] and not asked.get("email")
    assert lookalike["email"] and lookalike["name"].startswith(asked["name"].split()[0])
    assert asked["name"] in task.instruction and lookalike["name"] not in task.instruction
    assert len(task.near_misses) == 3
    third = task.near_miss_solution(task.near_misses[2])
    assert any(lookalike["email"] in str(c.arguments) for c in third)
    assert not any(lookalike["email"] in str(c.arguments) for c in task.reference_solution)
