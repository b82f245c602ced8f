"""The live gates in ``make test`` play a sample of each suite (gates.gate_sample): it must
judge every template's code and every handmade task, or a broken template could pass CI
because none of its tasks was played."""

from __future__ import annotations

import pytest

from reefbench.benchmark.templates import POOL
from reefbench.suites import get_suite
from reefbench.tasks.task import Task
from reefbench.validation.gates import alternative_plan, gate_sample, near_miss_plan


def _templates(tasks: list[Task]) -> set[str]:
    return {info.template for task in tasks for info in task.metadata.subtasks}


@pytest.mark.parametrize("name", ["v1", "v2-dev"])
def test_the_sample_judges_every_template_and_every_handmade_task(name: str) -> None:
    suite = get_suite(name)
    tasks = suite.load()
    pool = suite.pool() if suite.pool is not None else POOL
    sample = gate_sample(tasks, pool)
    ids = {t.id for t in sample}
    assert _templates(sample) == _templates(tasks)
    # run_gates plans over the tasks it is given: the sample must give the suite's plan
    assert near_miss_plan(sample) == near_miss_plan(tasks)
    assert alternative_plan(sample, pool) == alternative_plan(tasks, pool)
    handmade = {t.id for t in tasks if not t.metadata.subtasks or "handmade" in t.metadata.tags}
    assert handmade <= ids
    assert [t.id for t in tasks if t.id in ids] == [t.id for t in sample]  # suite order


def test_the_v1_sample_is_much_smaller_than_the_suite() -> None:
    tasks = get_suite("v1").load()
    assert len(gate_sample(tasks, POOL)) < len(tasks) / 2
