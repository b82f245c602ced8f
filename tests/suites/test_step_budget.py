"""Issue 31, item 3: new releases give at least twice the longest certified solution
(and OS-MAP's level limit as a floor); reef-v1 keeps the limits it was frozen with."""

from __future__ import annotations

from reefbench import ActionCall, Task, TaskMetadata
from reefbench.benchmark.finish import finish
from reefbench.envs import memory as m
from reefbench.suites import v1


def _task(calls: int, level: str | None = "L2") -> Task:
    write = ActionCall(env="laptop", name="write_file", arguments={"path": "a", "content": "x"})
    return Task(
        id="t",
        instruction="write a",
        nodes={"a": m.file_exists("a").on("laptop")},
        reference_solution=[write] * calls,
        metadata=TaskMetadata(level=level),
    )


def test_a_new_release_leaves_room_to_recover_twice_the_reference() -> None:
    # The example: a 22-action reference got 27 steps (22 + 5); now 44.
    assert finish(_task(22)).metadata.step_limit == 44
    from reefbench.suites.step_budget import DEFAULT_RULE, V1_RULE, step_budget

    assert step_budget(_task(22), V1_RULE) == 27
    assert step_budget(_task(22), DEFAULT_RULE) == 44
    # Short tasks keep OS-MAP's level limit (L2: 15; L4: 50).
    assert finish(_task(4)).metadata.step_limit == 15
    assert finish(_task(20, "L4")).metadata.step_limit == 50


def test_reef_v1_keeps_the_limits_it_stores() -> None:
    from reefbench.suites.step_budget import V1_RULE, longest_solution, step_budget

    for task in v1.load():
        assert task.metadata.step_limit == step_budget(task, V1_RULE), task.id
        assert task.step_limit >= longest_solution(task) + 5
