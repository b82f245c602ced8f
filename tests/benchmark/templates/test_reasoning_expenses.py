"""reasoning.quarter_expenses: the per-category totals are recomputed from the seeded mails
alone (claims by reference, dated this quarter, counted once, corrected amounts, dates and
categories, a refund after the resend subtracted once, the attached receipt read); the
traps are in the data; every near miss gets at least one total wrong."""

from __future__ import annotations

import re
from typing import Any

import pytest

from reefbench.benchmark import v2
from reefbench.benchmark.templates import reasoning_expenses as rx
from reefbench.tasks.task import Task
from reefbench.validation.gates import static_problems

_REF = re.compile(r"EX-\d{4}")
_DAY = re.compile(r"2024-\d{2}-\d{2}")
_EUR = re.compile(r"EUR ([\d.]+)")


def _tasks() -> list[Task]:
    family = next(f for f in v2.families() if f.name == "reasoning")
    template = next(t for t in family.templates if t.subtask.id == rx.QUARTER_EXPENSES.id)
    return list(v2.tasks_of(v2.Family(family.name, family.description, (template,))))


def _mails(values: dict[str, Any]) -> list[dict[str, Any]]:
    return [dict(s.action.bound) for s in rx.expenses_setup(**values)]


def _totals(values: dict[str, Any]) -> tuple[list[float], dict[str, int]]:
    """From the mails alone: the totals, and how many mails each trap has."""
    claims: dict[str, tuple[str, str, float]] = {}  # ref -> (day, category, amount)
    fixes: dict[str, dict[str, Any]] = {}  # ref -> corrected field -> value
    refunds: dict[str, float] = {}
    traps = {"resent": 0, "attached": 0, "old": 0, "category": 0, "date": 0}
    categories = values["categories"].replace(" and ", ", ").split(", ")
    for mail in sorted(_mails(values), key=lambda m: m["date"]):
        body, subject = mail["body"], mail["subject"]
        refs = _REF.findall(body)
        if not refs:
            continue
        ref = refs[0]
        if subject.startswith("Correction"):
            fixes.setdefault(ref, {})["amount"] = float(_EUR.findall(body)[0])
        elif subject.endswith("wrong category"):
            found = re.search(r"booked under (.+?), not", body)
            assert found and ref in claims
            fixes.setdefault(ref, {})["category"] = found.group(1)
            traps["category"] += 1
        elif subject.endswith("wrong date"):
            fixes.setdefault(ref, {})["day"] = _DAY.findall(body)[0]
            traps["date"] += 1
        elif subject.startswith("Refund"):
            assert ref in claims and traps["resent"]  # the refund comes after the resend
            refunds[ref] = float(_EUR.findall(body)[0])
        else:
            text = body + "".join((mail.get("attachments") or {}).values())
            traps["attached"] += bool(mail.get("attachments"))
            day = _DAY.findall(text)[0]
            category = next(c for c in categories if c in text)
            if ref in claims:
                traps["resent"] += 1
            traps["old"] += day < "2024-04-01"
            claims[ref] = (day, category, float(_EUR.findall(text)[0]))
    sums = dict.fromkeys(categories, 0.0)
    for ref, (day, category, amount) in claims.items():
        fix = fixes.get(ref, {})
        if fix.get("day", day) >= "2024-04-01":
            sums[fix.get("category", category)] += fix.get("amount", amount)
            sums[fix.get("category", category)] -= refunds.get(ref, 0.0)
    return [round(sums[c], 2) for c in categories], traps


@pytest.mark.parametrize("index", range(len(rx.CASES)))
def test_the_totals_follow_from_the_seeded_mails(index: int) -> None:
    values = rx.QUARTER_EXPENSES.value_records[index]
    data = rx.expenses_case(values["case"])
    totals, traps = _totals(values)
    assert totals == data.totals()
    assert len(set(totals)) == 3  # a slip's wrong total cannot hide behind another's
    assert traps == {"resent": 1, "attached": 1, "old": 1, "category": 1, "date": 1}
    assert 26 <= len(_mails(values)) <= 30
    for mail in _mails(values):  # a claim is below the list's preview
        if "Claim" in mail["body"]:
            assert "EUR" not in mail["body"][:80]
    # Every slip changes a total.
    slips = [
        {"old": True},
        {"resent": True},
        {"wrong": True},
        {"refund": False},
        {"attached": False},
        {"recat": True},
        {"moved": True},
    ]
    for slip in slips:
        assert data.totals(**slip) != totals, slip


def test_tasks_differ_and_pass_the_static_gates() -> None:
    tasks = _tasks()
    assert 10 <= len(tasks) <= 15
    for task in tasks:
        assert static_problems(task, v2.POOL) == [], task.id
        assert (task.metadata.step_limit or 0) >= 2 * len(task.reference_solution)
    assert len({tuple(rx.expenses_case(c).totals()) for c in rx.CASES}) == len(rx.CASES)


def test_near_misses_differ_from_the_reference() -> None:
    task = _tasks()[0]
    calls = [task.near_miss_solution(n) for n in task.near_misses]
    assert len(calls) == 7
    assert all(c != task.reference_solution for c in calls)
    assert len({repr(c) for c in calls}) == len(calls)
