"""The world tasks read their values from the world their setup loads, and their near
misses use the world's own distractors."""

from __future__ import annotations

import sqlite3

import pytest

from reefbench.benchmark import world_tasks
from reefbench.benchmark.templates.world import WHICH_CONTACT
from reefbench.envs.services.world import account_world
from reefbench.tasks.task import Task

SEED = 100


def _one(sql: str, *args: object) -> list[tuple[object, ...]]:
    db = sqlite3.connect(account_world(SEED))
    try:
        return list(db.execute(sql, args))
    finally:
        db.close()


def test_invoice_amount_is_the_named_months_and_the_decoy_another_months() -> None:
    found = world_tasks.invoice(SEED, 0, 1)
    bodies = _one(
        "SELECT body FROM mail WHERE subject = ? AND body LIKE ?",
        f"Your invoice for {found['month']}",
        f"%{found['vendor']}%",
    )
    assert len(bodies) == 1
    assert f"Amount due: £{found['amount']}," in str(bodies[0][0])
    assert found["decoy"] != found["amount"]


def test_lookalike_shares_the_first_name_not_the_number() -> None:
    matches = world_tasks.lookalikes(SEED)
    assert matches
    for match in matches:
        assert match.decoy_name.split()[0] == match.first
        assert match.decoy != match.number
        rows = _one("SELECT name FROM contacts WHERE company = ?", match.company)
        assert rows == [(match.name,)]  # the company names one person


def test_checklist_counts_open_items_and_differs_from_ticked() -> None:
    for found in world_tasks.checklists(SEED):
        items = _one(
            "SELECT i.checked FROM note_items i JOIN notes n ON n.id = i.note_id WHERE n.title = ?",
            found["note"],
        )
        assert found["count"] == str(sum(1 for (checked,) in items if not checked))
        assert found["decoy"] != found["count"]


def test_ambiguous_first_names_match_exactly_two_contacts() -> None:
    for match in world_tasks.ambiguous(SEED):
        rows = _one("SELECT name FROM contacts WHERE name LIKE ?", f"{match.first} %")
        assert len(rows) == 2


@pytest.fixture(scope="module")
def tasks() -> list[Task]:
    return world_tasks.load()


def test_every_task_loads_its_world_first_and_is_long(tasks: list[Task]) -> None:
    assert len(tasks) == 3 * len(world_tasks.SEEDS)
    for task in tasks:
        first = task.setup[0]
        assert first.env == "services" and first.action.name == "load_world"
        assert int(first.action.bound["seed"]) in range(100, 120)
        assert sum(c.name != "wait" for c in task.reference_solution) >= 20
        assert "cross-device" in task.metadata.tags
    chains = [t for t in tasks if "long-chain" in t.metadata.tags]
    assert len(chains) == len(world_tasks.SEEDS)
    assert all(sum(c.name != "wait" for c in t.reference_solution) >= 40 for t in chains)


def test_ask_tasks_ask_before_acting_and_the_user_can_answer(tasks: list[Task]) -> None:
    asking = [t for t in tasks if "-ask-" in t.id]
    assert asking
    for task in asking:
        assert task.metadata.level == "L3"
        assert WHICH_CONTACT in task.user_data
        names = [c.name for c in task.reference_solution]
        assert names.index("call_user") < names.index("write_text")
