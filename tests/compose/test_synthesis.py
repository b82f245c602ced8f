"""Controlled synthesis: valid, solvable, distinct, deterministic tasks at requested levels."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import networkx as nx
import pytest

from reefbench import ConfigError, Episode, compose_task, load_tasks
from reefbench.agents import NullAgent, OracleAgent
from reefbench.compose.capabilities import CAPABILITIES, constraints_for
from reefbench.compose.complexity import DIMENSIONS, LEVELS, task_complexity
from reefbench.compose.consistency import check_instruction
from reefbench.compose.synthesis import Request, Synthesizer, synthesize
from reefbench.envs import memory as m
from reefbench.suites.demo import POOL
from reefbench.suites.memory import make_environments
from reefbench.tasks.instructions import InstructionGraph
from reefbench.tasks.subtask import ATTRIBUTE_TYPES, SubTask
from reefbench.tasks.taskfile import save_tasks


@pytest.fixture(scope="module")
def specs() -> list:
    made, report = synthesize(POOL, 120, Request(), seed=3)
    assert report.complete and len(made) == 120
    return made


def test_every_task_is_a_dag_whose_reference_solution_passes(specs: list) -> None:
    for spec in specs:
        task = spec.build(POOL)
        assert nx.is_directed_acyclic_graph(task.evaluator_graph)
        oracle = Episode(task, OracleAgent(), make_environments()).run()
        assert oracle.success, (spec.id, oracle.termination, spec.to_dict())
        assert Episode(task, NullAgent(), make_environments()).run().completion_ratio == 0.0


def test_links_respect_types_and_pass_the_predecessors_output(specs: list) -> None:
    for spec in specs:
        for i, j in spec.links:
            source, target = (POOL[spec.subtasks[k][0]] for k in (i, j))
            assert source.output_type is not None and source.output_generator is not None
            output = source.output_generator(**spec.subtasks[i][1])
            fed = [
                a
                for a in (target.inputs or target.attributes)
                if target.attributes[a] == source.output_type and spec.subtasks[j][1][a] == output
            ]
            assert fed, (spec.id, i, j)
            assert isinstance(output, ATTRIBUTE_TYPES[source.output_type])
        # every declared input is fed by exactly one link
        for j, (template_id, _) in enumerate(spec.subtasks):
            assert len([link for link in spec.links if link[1] == j]) == len(
                POOL[template_id].inputs
            )


def test_tasks_are_distinct_and_ids_follow_the_digest(specs: list) -> None:
    assert len({s.digest for s in specs}) == len(specs)
    assert len({s.id for s in specs}) == len(specs)
    assert all(s.id == f"task-{s.digest[:12]}" for s in specs)


def test_stored_metadata_matches_the_built_task(specs: list) -> None:
    for spec in specs[:40]:
        task = spec.build(POOL)
        measured = task_complexity(task)
        stored = task.metadata.complexity
        for d in DIMENSIONS:
            assert stored[d] == measured.value(d) and stored[f"{d}_level"] == measured.level(d)
        assert task.metadata.scenario == spec.intent
        assert task.metadata.level == ("L4" if len(set(task.metadata.apps)) > 1 else "L2")
        graph = InstructionGraph.of(
            [POOL[t].description.format(**v) for t, v in spec.subtasks], spec.links, spec.intent
        )
        assert check_instruction(task.instruction, graph).ok


def test_build_equals_compose_task_from_the_same_parts(specs: list) -> None:
    spec = max(specs, key=lambda s: len(s.links))
    built = spec.build(POOL)
    direct = compose_task(
        spec.id,
        [(POOL[t], v) for t, v in spec.subtasks],
        spec.links,
        instruction=spec.instruction,
    )
    assert built.nodes.keys() == direct.nodes.keys()
    assert built.edges == direct.edges
    assert built.reference_solution == direct.reference_solution


def test_same_seed_same_tasks_and_another_seed_other_tasks() -> None:
    request = Request(levels={"branch": "medium"})
    first = [s.to_dict() for s in synthesize(POOL, 25, request, seed=9)[0]]
    again = [s.to_dict() for s in synthesize(POOL, 25, request, seed=9)[0]]
    other = [s.to_dict() for s in synthesize(POOL, 25, request, seed=10)[0]]
    assert json.dumps(first) == json.dumps(again)
    assert {d["id"] for d in first} != {d["id"] for d in other}


# Every single-dimension request the demo pool can meet (it has two app categories, so
# knowledge is at most medium), and the capability requests it can meet.
SINGLE = [(d, lv) for d in DIMENSIONS for lv in LEVELS if (d, lv) != ("knowledge", "hard")]
FEASIBLE_CAPABILITIES = [c.id for c in CAPABILITIES if "knowledge" not in c.hard]


@pytest.mark.parametrize(("dimension", "level"), SINGLE)
def test_single_dimension_requests_are_met_exactly(dimension: str, level: str) -> None:
    made, report = synthesize(POOL, 15, Request(levels={dimension: level}), seed=1)
    assert report.complete, report.summary()
    for spec in made:
        task = spec.build(POOL)
        assert task_complexity(task).level(dimension) == level


@pytest.mark.parametrize("capability", FEASIBLE_CAPABILITIES)
def test_capability_requests_are_met_exactly(capability: str) -> None:
    wanted = constraints_for([capability])
    made, report = synthesize(POOL, 8, Request(levels=wanted), seed=2)
    assert report.complete, report.summary()
    for spec in made:
        levels = task_complexity(spec.build(POOL)).levels
        assert all(levels[d] == "hard" for d in wanted)
        assert capability in spec.metadata["capabilities"]


def test_mixed_level_combinations_are_met_exactly() -> None:
    for dependency, branch in itertools.product(LEVELS, repeat=2):
        wanted = {"dependency": dependency, "branch": branch, "knowledge": "medium"}
        made, report = synthesize(POOL, 4, Request(levels=wanted, stall=4000), seed=4)
        assert report.complete, report.summary()
        for spec in made:
            levels = task_complexity(spec.build(POOL)).levels
            assert {d: levels[d] for d in wanted} == wanted


def test_a_request_the_pool_cannot_meet_reports_counts_per_level() -> None:
    made, report = synthesize(POOL, 5, Request(levels={"knowledge": "hard"}, stall=2000), seed=0)
    assert made == [] and not report.complete
    assert report.candidates["knowledge"]["hard"] == 0
    assert (
        report.candidates["knowledge"]["easy"] > 0 and report.candidates["knowledge"]["medium"] > 0
    )
    summary = report.summary()
    assert "made 0 of 5 tasks (knowledge=hard)" in summary
    assert "knowledge: easy" in summary and "(wanted hard)" in summary


def test_intents_anchor_every_task() -> None:
    intent = "keep a shopping list on the phone"
    made, report = synthesize(POOL, 20, Request(intents=(intent,)), seed=5)
    assert report.complete
    for spec in made:
        assert spec.metadata["scenario"] == intent and f"intent:{intent}" in spec.metadata["tags"]
        assert all(intent in POOL[t].intents for t, _ in spec.subtasks)
        assert spec.instruction.startswith(f"Goal: {intent}.")
    with pytest.raises(ConfigError, match="no template has the intent 'fly'"):
        Synthesizer(POOL, Request(intents=("fly",)))


def test_steps_style_gives_level_1_tasks_that_still_pass() -> None:
    made, _ = synthesize(POOL, 5, Request(style="steps"), seed=6)
    for spec in made:
        assert spec.metadata["level"] == "L1"
        assert "Perform exactly these actions" in spec.instruction
        task = spec.build(POOL)
        assert Episode(task, OracleAgent(), make_environments()).run().success


def test_written_tasks_load_back_through_taskfile(tmp_path: Path, specs: list) -> None:
    path = tmp_path / "tasks.jsonl"
    path.write_text("".join(json.dumps(s.to_dict()) + "\n" for s in specs[:20]))
    loaded = load_tasks(path, POOL)
    assert [t.id for t in loaded] == [s.id for s in specs[:20]]
    save_tasks(loaded, tmp_path / "expanded.jsonl")  # and the expanded form round-trips
    again = load_tasks(tmp_path / "expanded.jsonl")
    assert [t.edges for t in again] == [t.edges for t in loaded]
    assert Episode(again[0], OracleAgent(), make_environments()).run().success


def test_bad_requests_are_one_line_errors() -> None:
    with pytest.raises(ConfigError, match="unknown complexity level 'huge'"):
        Synthesizer(POOL, Request(levels={"branch": "huge"}))
    with pytest.raises(ConfigError, match="max_subtasks must be at least 1"):
        Synthesizer(POOL, Request(max_subtasks=0))


def test_missing_detail_tasks_hide_a_value_the_user_holds() -> None:
    made, report = synthesize(POOL, 15, Request(missing_detail=True), seed=7)
    assert report.complete, report.summary()
    for spec in made:
        ((kind, value),) = spec.user_data.items()
        assert spec.metadata["level"] == "L3"
        assert value not in spec.instruction
        assert f"[ask the user for the {kind}]" in spec.instruction
        task = spec.build(POOL)
        assert task.user_data == {kind: value}
        assert Episode(task, OracleAgent(), make_environments()).run().success
        assert Episode(task, NullAgent(), make_environments()).run().completion_ratio == 0.0
    with pytest.raises(ConfigError, match="use one or the other"):
        Synthesizer(POOL, Request(missing_detail=True, style="steps"))


def test_a_crab_style_pool_without_intents_or_resources_still_composes() -> None:
    from reefbench.suites.memory import POOL as CRAB_STYLE

    made, report = synthesize(CRAB_STYLE, 10, Request(), seed=1)
    assert report.complete
    for spec in made:
        assert not spec.instruction.startswith("Goal:")
        assert spec.metadata["scenario"] is None and spec.metadata["tags"] == []
        task = spec.build(CRAB_STYLE)  # typed links only: it builds, even if not solvable
        assert nx.is_directed_acyclic_graph(task.evaluator_graph)


def test_value_records_are_drawn_together_and_never_reused() -> None:
    people = [("Ana", "555-01"), ("Ben", "555-02"), ("Cy", "555-03"), ("Di", "555-04")]
    card = SubTask(
        id="card",
        description='Write "{name}: {number}" to "{path}".',
        attributes={"name": "name", "number": "phone_number", "path": "file_path"},
        env="laptop",
        intents=["cards"],
        value_pools={
            "name": [n for n, _ in people],
            "number": [p for _, p in people],
            "path": [f"card-{k}.txt" for k in range(6)],
        },
        value_records=[{"name": n, "number": p} for n, p in people],
        evaluator_generator=lambda name, number, path: m.file_contains(path, f"{name}: {number}"),
    )
    made, _ = synthesize({"card": card}, 20, Request(max_subtasks=3), seed=1)
    assert made
    for spec in made:
        drawn = [(v["name"], v["number"]) for _, v in spec.subtasks]
        assert all(pair in people for pair in drawn)  # one person's name and number
        assert len({name for name, _ in drawn}) == len(drawn)  # nobody twice in a task
