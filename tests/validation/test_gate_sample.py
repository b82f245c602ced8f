"""The live gates in ``make test`` play a sample of each suite (gates.gate_sample): it must
judge every template's code and every kind of handmade task (each combination of devices),
or a broken template could pass CI because none of its tasks was played."""

from __future__ import annotations

import pytest

from reefbench import evaluator
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
    assert {t.id for t in tasks if not t.metadata.subtasks} <= ids  # no template speaks
    handmade = [t for t in tasks if "handmade" in t.metadata.tags]
    kinds = {tuple(sorted(t.metadata.environments)) for t in handmade}
    assert {tuple(sorted(t.metadata.environments)) for t in sample if t in handmade} == kinds
    assert [t.id for t in tasks if t.id in ids] == [t.id for t in sample]  # suite order


def test_the_v1_sample_is_much_smaller_than_the_suite() -> None:
    tasks = get_suite("v1").load()
    assert len(gate_sample(tasks, POOL)) < len(tasks) / 2


@evaluator
def never() -> bool:
    """Never evaluated: the plan reads metadata."""
    return False


def test_the_handmade_plan_takes_the_smallest_task_of_each_device_combination() -> None:
    from reefbench import TaskMetadata
    from reefbench.validation.gates import handmade_plan

    def made(task_id: str, devices: list[str], parts: int, tags: list[str]) -> Task:
        subtasks = [
            {"id": f"s{k}", "template": "t", "env": devices[0], "nodes": [], "app": "a"}
            for k in range(parts)
        ]
        metadata = TaskMetadata(environments=devices, tags=tags, subtasks=subtasks)
        return Task(id=task_id, instruction="x", nodes={"n": never()}, metadata=metadata)

    tasks = [
        made("a", ["phone", "desktop"], 3, ["handmade"]),
        made("b", ["desktop", "phone"], 2, ["handmade"]),
        made("c", ["browser"], 4, ["handmade"]),
        made("d", ["browser"], 4, ["handmade"]),
        made("e", ["browser"], 1, []),  # not handmade: templates speak for it
    ]
    assert handmade_plan(tasks) == {"b", "c"}
