"""reef-v2 in the making (suite ``v2-dev``): families and tiers as tags, a bounded number of
tasks per template, stable value draws, and every task through the static gates."""

from __future__ import annotations

from collections import Counter

import pytest

from reefbench.benchmark import v2
from reefbench.suites import get_suite
from reefbench.validation.gates import static_problems


@pytest.fixture(scope="module")
def tasks() -> list[object]:
    return get_suite("reef-v2-dev").load()


def test_every_task_names_its_family_and_tier(tasks: list[object]) -> None:
    families = {f.name for f in v2.families()}
    for task in tasks:
        meta = task.metadata  # type: ignore[attr-defined]
        assert meta.family in families, task
        assert meta.tier in v2.TIERS, task
        assert task.id.startswith(f"v2-{meta.family}-")  # type: ignore[attr-defined]
    assert len({t.id for t in tasks}) == len(tasks)  # type: ignore[attr-defined]


def test_no_template_supplies_more_than_its_share(tasks: list[object]) -> None:
    per_template = Counter(
        info.template
        for task in tasks
        for info in task.metadata.subtasks  # type: ignore[attr-defined]
    )
    assert per_template and max(per_template.values()) <= v2.TASKS_PER_TEMPLATE


def test_value_draws_are_distinct_and_the_same_every_time() -> None:
    template = v2.families()[0].templates[0].subtask
    first = v2.value_sets(template, 10)
    assert first == v2.value_sets(template, 10)
    assert len({tuple(sorted(v.items())) for v in first}) == len(first) == 10
    assert first != v2.value_sets(template, 10, seed=v2.SEED + 1)


def test_labelled_replaces_earlier_labels(tasks: list[object]) -> None:
    task = tasks[0].model_copy(deep=True)  # type: ignore[attr-defined]
    v2.labelled(task, "reasoning", "hard")
    assert task.metadata.family == "reasoning" and task.metadata.tier == "hard"
    assert [t for t in task.metadata.tags if t.startswith(("family:", "tier:"))] == [
        "family:reasoning",
        "tier:hard",
    ]


def test_every_task_passes_the_static_gates(tasks: list[object]) -> None:
    pool = v2.pool()
    problems = {t.id: static_problems(t, pool) for t in tasks}  # type: ignore[attr-defined]
    assert {k: p for k, p in problems.items() if p} == {}


def test_a_templates_budget_follows_the_reading_not_the_shortcut(tasks: list[object]) -> None:
    """Playtest D read seven receipts one by one under a 15-step budget that came from a
    4-call search: the reasoning and pixels templates give at least their own minimum."""
    floors = {t.subtask.id: t.min_steps for f in v2.families() for t in f.templates if t.min_steps}
    assert {"reasoning.top_vendor", "pixels.receipt_total"} <= set(floors)
    for task in tasks:
        template = task.metadata.subtasks[0].template  # type: ignore[attr-defined]
        if template in floors:
            assert task.metadata.step_limit >= floors[template], task  # type: ignore[attr-defined]
