"""Validation gates for the in-memory suite: solvable, non-trivial, deterministic."""

from __future__ import annotations

import json

import pytest

from reefbench import Episode, Task
from reefbench.actions.names import NAMES
from reefbench.agents import NullAgent, OracleAgent
from reefbench.suites import memory
from reefbench.tasks.taskfile import task_refs

TASKS = memory.load()


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_oracle_solves_every_task(task: Task) -> None:
    result = Episode(task, OracleAgent(), memory.make_environments()).run()
    assert result.success, f"{task.id}: {result.termination} {result.error}"


@pytest.mark.parametrize("task", [t for t in TASKS if t.alternative_solutions], ids=lambda t: t.id)
def test_every_alternative_solution_passes(task: Task) -> None:
    for index in range(len(task.alternative_solutions)):
        assert Episode(task, OracleAgent(index), memory.make_environments()).run().success


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_null_agent_completes_no_checkpoint(task: Task) -> None:
    result = Episode(task, NullAgent(), memory.make_environments()).run()
    assert result.completion_ratio == 0.0, f"{task.id}: {result.completed_nodes} hold initially"


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_evaluating_the_same_final_state_twice_agrees(task: Task) -> None:
    episode = Episode(task, OracleAgent(), memory.make_environments())
    episode.run()
    first = {node: ev.check(episode.envs) for node, ev in task.nodes.items()}
    second = {node: ev.check(episode.envs) for node, ev in task.nodes.items()}
    assert first == second


def test_suite_covers_the_framework() -> None:
    platforms = {t.metadata.platform for t in TASKS}
    assert {"laptop", "phone", "cross"} <= platforms
    assert any(t.user_data for t in TASKS), "a CALL_USER task"
    assert any("answer" in t.nodes for t in TASKS), "an answer task"
    assert any(len(t.metadata.subtasks) >= 4 for t in TASKS), "a long chain for SR@k"
    assert len({t.id for t in TASKS}) == len(TASKS)


def test_the_handmade_tasks_are_data_naming_only_stable_names() -> None:
    documents = json.loads(memory.HANDMADE.read_text(encoding="utf-8"))
    refs = [ref for document in documents for ref in task_refs(document)]
    assert refs and set(refs) <= set(NAMES), sorted(set(refs) - set(NAMES))
    assert [t.id for t in TASKS[: len(documents)]] == [
        "mem-write-note",
        "mem-cross-code",
        "mem-answer-lines",
        "mem-call-user-wifi",
        "mem-fan-out-join",
    ]
    join = TASKS[4]
    assert join.edges == [("a", "b"), ("a", "clip"), ("b", "done"), ("clip", "done")]
    assert join.nodes["b"].env_name == "phone" and join.nodes["clip"].env_name == "laptop"
