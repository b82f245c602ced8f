"""Composition: type-checked links, joined evaluator graphs, concatenated solutions."""

from __future__ import annotations

import networkx as nx
import pytest

from reefbench import ConfigError, Episode, compose_task
from reefbench.agents import NullAgent, OracleAgent
from reefbench.suites.memory import POOL, make_environments


def test_sinks_of_a_predecessor_link_to_sources_of_its_successor() -> None:
    task = compose_task(
        "c",
        [
            (POOL["copy_file@laptop"], {"source": "a", "target": "b"}),
            (POOL["copy_file@laptop"], {"source": "b", "target": "c"}),
        ],
        [(0, 1)],
    )
    dag = task.evaluator_graph
    assert nx.is_directed_acyclic_graph(dag)
    assert ("s0.files_equal(first='a', second='b')", "s1.file_exists(path='c')") in task.edges
    assert len(task.edges) == 3
    assert [s.solution_span for s in task.metadata.subtasks] == [(0, 1), (1, 2)]


def test_type_mismatch_is_rejected() -> None:
    mismatched = POOL["create_file@laptop"].model_copy(update={"output_type": "email"})
    with pytest.raises(ConfigError, match=r"type mismatch on link \(0, 1\).*outputs email"):
        compose_task(
            "bad",
            [
                (mismatched, {"path": "a", "content": "x"}),
                (POOL["copy_file@laptop"], {"source": "a", "target": "b"}),
            ],
            [(0, 1)],
        )


def test_links_must_name_existing_subtasks_and_form_a_dag() -> None:
    part = (POOL["copy_file@laptop"], {"source": "a", "target": "b"})
    with pytest.raises(ConfigError, match="names subtask 3"):
        compose_task("bad", [part], [(0, 3)])
    with pytest.raises(ConfigError, match="cycle"):
        compose_task("bad", [part, part], [(0, 1), (1, 0)])
    with pytest.raises(ConfigError, match="at least one subtask"):
        compose_task("bad", [])


def test_composed_cross_device_task_is_solvable_and_not_trivial() -> None:
    task = compose_task(
        "cross",
        [
            (POOL["create_file@phone"], {"path": "n.txt", "content": "milk"}),
            (POOL["append_line@phone"], {"path": "n.txt", "line": "eggs"}),
            (POOL["create_file@laptop"], {"path": "m.txt", "content": "bread"}),
        ],
        [(0, 1)],
    )
    assert task.metadata.platform == "cross"
    # The default instruction says the structure: (3) does not wait for (2).
    assert task.instruction.startswith('(1) On the phone, create the file "n.txt"')
    assert '(3) Independently, on the laptop, create the file "m.txt"' in task.instruction
    assert Episode(task, OracleAgent(), make_environments()).run().success
    assert Episode(task, NullAgent(), make_environments()).run().completion_ratio == 0.0


def _typo(text: str) -> str:
    return text + "!"


def test_a_composed_task_carries_its_subtasks_near_misses_as_calls() -> None:
    from reefbench import NearMiss

    writing = POOL["create_file@laptop"].model_copy(
        update={"near_misses": [NearMiss("a typo in the text", changes={"content": _typo})]}
    )
    task = compose_task(
        "c",
        [
            (POOL["copy_file@laptop"], {"source": "x", "target": "y"}),
            (writing, {"path": "a", "content": "hi"}),
        ],
    )
    (case,) = task.near_misses
    assert (case.subtask, case.label) == ("s1", "a typo in the text")
    wrong = task.near_miss_solution(case)
    assert wrong[0] == task.reference_solution[0]  # the other subtask's part is kept
    assert wrong[1:] == case.calls != task.reference_solution[1:]
    assert case.calls[0].arguments == {"path": "a", "content": "hi!"}


def test_the_default_instruction_passes_the_consistency_gate() -> None:
    """A branch (0 -> 1, 0 -> 2) told as "first ...; then ...; then ..." claimed 2 waits
    for 1; the consistency gate refused the in-memory suite's composed tasks for it."""
    from reefbench.validation.gates import instruction_problems

    task = compose_task(
        "branches",
        [
            (POOL["create_file@phone"], {"path": "list.txt", "content": "eggs"}),
            (POOL["copy_file@phone"], {"source": "list.txt", "target": "copy1.txt"}),
            (POOL["append_line@phone"], {"path": "list.txt", "line": "bread"}),
        ],
        [(0, 1), (0, 2)],
    )
    assert instruction_problems(task, POOL) == []
    assert "(2) and (3) can be done in either order." in task.instruction
