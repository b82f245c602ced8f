"""Declaring a task infeasible: the root action ``infeasible(reason)`` ends the episode as
``complete`` does, and the checkpoint ``declared_infeasible`` passes on it."""

from __future__ import annotations

from reefbench import ActionCall, Task
from reefbench.actions.names import NAMES
from reefbench.actions.refs import resolve_ref
from reefbench.agents import OracleAgent, ScriptedAgent
from reefbench.environments.root import (
    ROOT,
    RootEnvironment,
    declared_infeasible,
    infeasible,
)
from reefbench.envs import memory as m
from reefbench.episodes.episode import Episode
from reefbench.validation.lint import action_names

INFEASIBLE = ActionCall(env=ROOT, name="infeasible", arguments={"reason": "no such file"})
COMPLETE = ActionCall(env=ROOT, name="complete")


def envs() -> dict[str, m.MemoryEnvironment]:
    return {"laptop": m.MemoryEnvironment("laptop")}


def infeasible_task() -> Task:
    """Declare it, and do not write the file that does not exist to be sent."""
    return Task(
        id="inf",
        instruction="send the signed contract",
        nodes={
            "declared": declared_infeasible(),
            "untouched": (~m.file_exists("sent")).on("laptop"),
        },
        edges=[("declared", "untouched")],
        reference_solution=[
            ActionCall(env="laptop", name="list_files", arguments={}),
            INFEASIBLE,
        ],
    )


def test_the_action_finishes_with_its_reason_and_reset_forgets() -> None:
    root = RootEnvironment()
    assert "infeasible" in root.action_space
    assert (
        root.step("infeasible", {"reason": " the file is missing "}) == "task declared infeasible"
    )
    assert root.finished and root.infeasible_reason == "the file is missing"
    assert declared_infeasible().check({ROOT: root}).success
    root.reset()
    assert not root.finished and root.infeasible_reason is None
    result = declared_infeasible().check({ROOT: root})
    assert not result.success and "not declared infeasible" in result.message


def test_declaring_it_solves_an_infeasible_task() -> None:
    result = Episode(infeasible_task(), OracleAgent(), envs()).run()
    assert result.success and result.completion_ratio == 1.0


def test_the_nearest_feasible_thing_fails_whether_completed_or_declared() -> None:
    did_it = [
        ActionCall(env="laptop", name="write_file", arguments={"path": "sent", "content": "draft"})
    ]
    completed = Episode(infeasible_task(), ScriptedAgent([did_it, [COMPLETE]]), envs()).run()
    assert not completed.success and completed.termination == "false_completion"
    declared = Episode(infeasible_task(), ScriptedAgent([did_it, [INFEASIBLE]]), envs()).run()
    assert not declared.success and declared.credited_nodes == ["declared"]


def test_declaring_a_feasible_task_infeasible_ends_it_as_a_failure() -> None:
    task = Task(
        id="feasible",
        instruction="write a",
        nodes={"a": m.file_exists("a").on("laptop")},
        reference_solution=[
            ActionCall(env="laptop", name="write_file", arguments={"path": "a", "content": "1"})
        ],
    )
    result = Episode(task, ScriptedAgent([[INFEASIBLE], [COMPLETE]]), envs()).run()
    assert result.termination == "false_completion" and result.steps == 1


def test_stable_names_and_the_lint_know_it() -> None:
    assert resolve_ref(NAMES["root.infeasible"]) is infeasible
    assert resolve_ref(NAMES["root.declared_infeasible"]) is declared_infeasible
    assert "infeasible" in action_names()
