"""Task JSON: round trips, the composed and CRAB A.5 shapes, and precise load errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from reefbench import ActionCall, Episode, SubTask, Task, TaskLoadError, load_tasks, save_tasks
from reefbench.agents import NullAgent, OracleAgent
from reefbench.envs import memory as m
from reefbench.suites import memory as suite
from reefbench.tasks.taskfile import task_from_dict, task_to_dict

CRAB_A5 = {
    "description": 'Combine Image 1 "/home/crab/Pictures/cat.png" and Image 2 '
    '"/home/crab/assets/campus.png" using GIMP (GNU Image Manipulation Program), placing '
    "Image 1 on the left side of Image 2, and save the combined image to "
    '"/home/crab/Desktop/background.png". Then, set this combined image as the screen '
    "background of the system .",
    "tasks": [
        {
            "task": "4cf246ea-0a7f-43da-84b6-61d74a2699af",
            "attribute": {
                "image_path_1": "/home/crab/Pictures/cat.png",
                "image_path_2": "/home/crab/assets/campus.png",
                "output_path": "/home/crab/Desktop/background.png",
            },
            "output": "/home/crab/Desktop/background.png",
        },
        {
            "task": "a207ef38-b3b2-4c6c-a1e3-75c38162f5ba",
            "attribute": {"photo_path": "/home/crab/Desktop/background.png"},
            "output": None,
        },
    ],
    "adjlist": "0 1\n1",
    "id": "d3c917ff-406f-447a-87f5-b8d835cba750",
}

CRAB_POOL = {
    t.id: t
    for t in [
        SubTask(
            id="4cf246ea-0a7f-43da-84b6-61d74a2699af",
            description='Combine "{image_path_1}" and "{image_path_2}" into "{output_path}".',
            attributes={
                "image_path_1": "file_path",
                "image_path_2": "file_path",
                "output_path": "file_path",
            },
            output_type="file_path",
            env="laptop",
            evaluator_generator=lambda image_path_1, image_path_2, output_path: m.file_exists(
                output_path
            ),
        ),
        SubTask(
            id="a207ef38-b3b2-4c6c-a1e3-75c38162f5ba",
            description='Set "{photo_path}" as the background.',
            attributes={"photo_path": "file_path"},
            env="laptop",
            evaluator_generator=lambda photo_path: m.file_contains("settings.ini", photo_path),
        ),
    ]
}


def test_every_suite_task_round_trips_and_still_runs() -> None:
    for task in suite.load():
        document = json.loads(json.dumps(task_to_dict(task)))
        loaded = task_from_dict(document)
        assert task_to_dict(loaded) == document
        oracle = Episode(loaded, OracleAgent(), suite.make_environments()).run()
        null = Episode(loaded, NullAgent(), suite.make_environments()).run()
        assert oracle.success and null.completion_ratio == 0.0, task.id


def test_save_and_load_json_and_jsonl(tmp_path: Path) -> None:
    tasks = suite.load()
    save_tasks(tasks, tmp_path / "all.jsonl")
    save_tasks(tasks[:1], tmp_path / "one.json")
    save_tasks(tasks[:2], tmp_path / "two.json")
    assert [t.id for t in load_tasks(tmp_path / "all.jsonl")] == [t.id for t in tasks]
    assert [t.id for t in load_tasks(tmp_path / "one.json")] == [tasks[0].id]
    assert len(load_tasks(tmp_path / "two.json")) == 2


def test_combined_nodes_round_trip() -> None:
    node = (m.file_exists("a") & ~m.file_exists("b")) | m.file_exists("c")
    task = Task(id="c", instruction="i", nodes={"n": node.on("laptop")})
    document = task_to_dict(task)
    # reefbench's own evaluators are written by stable name, not by where they live
    assert document["nodes"]["n"]["any"][0]["all"][1]["not"]["evaluator"] == "memory.file_exists"
    loaded = task_from_dict(document)
    environments = {"laptop": m.MemoryEnvironment("laptop", files={"c": ""})}
    assert loaded.nodes["n"].check(environments).success


def test_composed_shape_loads_against_a_pool() -> None:
    document = {
        "schema_version": 1,
        "id": "composed",
        "subtasks": [
            {"template": "create_file@laptop", "attributes": {"path": "p", "content": "c"}},
            {"template": "copy_file@laptop", "attributes": {"source": "p", "target": "q"}},
        ],
        "links": [[0, 1]],
    }
    task = task_from_dict(document, suite.POOL)
    assert list(task.nodes) == [
        "s0.file_contains(path='p', text='c')",
        "s1.file_exists(path='q')",
        "s1.files_equal(first='p', second='q')",
    ]
    assert Episode(task, OracleAgent(), suite.make_environments()).run().success


def test_crab_a5_example_loads_against_a_matching_pool() -> None:
    task = task_from_dict(CRAB_A5, CRAB_POOL)
    assert task.id == "d3c917ff-406f-447a-87f5-b8d835cba750"
    assert task.instruction.startswith("Combine Image 1")
    assert task.edges == [
        (
            "s0.file_exists(path='/home/crab/Desktop/background.png')",
            "s1.file_contains(path='settings.ini', text='/home/crab/Desktop/background.png')",
        )
    ]
    assert [s.template for s in task.metadata.subtasks] == [t["task"] for t in CRAB_A5["tasks"]]


def _explicit(**overrides: Any) -> dict[str, Any]:
    document: dict[str, Any] = {
        "schema_version": 1,
        "id": "t",
        "instruction": "do",
        "nodes": {
            "a": {
                "evaluator": "reefbench.envs.memory:file_exists",
                "args": {"path": "x"},
                "env": "laptop",
            }
        },
    }
    document.update(overrides)
    return document


@pytest.mark.parametrize(
    ("document", "pool", "message"),
    [
        (_explicit(schema_version=2), None, "schema_version is 2"),
        ({"id": "t"}, None, "schema_version is None"),
        (_explicit(nodes={}), None, "nodes: List should have at least 1 item|nodes: Dictionary"),
        (_explicit(edges=[["a", "b"]]), None, "unknown node 'b'"),
        (
            _explicit(
                nodes={
                    "a": {"evaluator": "reefbench.envs.memory:file_exists", "args": {"path": "x"}},
                    "b": {"evaluator": "reefbench.envs.memory:file_exists", "args": {"path": "y"}},
                },
                edges=[["a", "b"], ["b", "a"]],
            ),
            None,
            "cycle: a -> b -> a",
        ),
        (
            _explicit(nodes={"a": {"evaluator": "reefbench.envs.memory:nothing"}}),
            None,
            "nodes.a.evaluator: module 'reefbench.envs.memory' has no 'nothing'",
        ),
        (
            _explicit(nodes={"a": {"evaluator": "no_such_module_xyz:f"}}),
            None,
            "module 'no_such_module_xyz' is not known to define actions",
        ),
        (_explicit(nodes={"a": {"evaluator": "json:dumps"}}), None, "not known to define"),
        (
            _explicit(nodes={"a": {"evaluator": "reefbench.envs.memory:MEMORY_ACTIONS"}}),
            None,
            "not an action",
        ),
        (
            _explicit(nodes={"a": {"evaluator": "reefbench.envs.memory:write_file"}}),
            None,
            "is an action, not an evaluator",
        ),
        (
            _explicit(
                nodes={"a": {"evaluator": "reefbench.envs.memory:file_exists", "args": {"path": 5}}}
            ),
            None,
            "nodes.a.args: file_exists: parameter 'path'",
        ),
        (_explicit(surprise=1), None, "surprise: Extra inputs are not permitted"),
        (_explicit(reference_solution=[{"env": "laptop"}]), None, "reference_solution.0.name"),
        (
            {"schema_version": 1, "id": "c", "subtasks": [{"template": "nope", "attributes": {}}]},
            suite.POOL,
            "subtasks[0].template: unknown subtask id 'nope'",
        ),
        (
            {"schema_version": 1, "id": "c", "subtasks": [{"template": "x", "attributes": {}}]},
            None,
            "give a subtask pool",
        ),
        (
            {
                "schema_version": 1,
                "id": "c",
                "subtasks": [
                    {"template": "create_file@laptop", "attributes": {"path": 3, "content": "c"}}
                ],
            },
            suite.POOL,
            "attribute 'path' must be file_path (str), got int",
        ),
        (
            {
                "schema_version": 1,
                "id": "c",
                "subtasks": [
                    {"template": "create_file@laptop", "attributes": {"path": "p", "content": "c"}},
                    {"template": "copy_file@laptop", "attributes": {"source": "p", "target": "q"}},
                ],
                "links": [[0, 1], [1, 0]],
            },
            suite.POOL,
            "cycle",
        ),
        ([1, 2], None, "must be a JSON object"),
    ],
)
def test_load_errors_are_precise(document: Any, pool: Any, message: str) -> None:
    with pytest.raises(TaskLoadError) as info:
        task_from_dict(document, pool, where="tasks.json")
    text = str(info.value)
    assert text.startswith("tasks.json")
    assert any(part in text for part in message.split("|")), text
    assert "\n" not in text


def test_file_level_errors(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"id": ', encoding="utf-8")
    with pytest.raises(TaskLoadError, match=r"broken.json: not valid JSON: .* line 1"):
        load_tasks(broken)
    with pytest.raises(TaskLoadError, match="cannot read"):
        load_tasks(tmp_path / "missing.json")
    lines = tmp_path / "dup.jsonl"
    row = json.dumps(_explicit())
    lines.write_text(row + "\n\n" + row + "\n", encoding="utf-8")
    with pytest.raises(TaskLoadError, match=r"dup.jsonl:3: duplicate task id 't'"):
        load_tasks(lines)


def test_tasks_with_local_evaluators_refuse_to_save() -> None:
    from reefbench import evaluator

    @evaluator
    def local() -> bool:
        """Local."""
        return True

    task = Task(
        id="l",
        instruction="i",
        nodes={"x": local()},
        reference_solution=[ActionCall(env="root", name="complete")],
    )
    with pytest.raises(Exception, match="does not import back"):
        task_to_dict(task)


def test_near_misses_round_trip_with_the_task() -> None:
    from reefbench import NearMissCase

    task = suite.load()[0].model_copy(
        update={
            "near_misses": [
                NearMissCase(
                    subtask="s0",
                    label="writes elsewhere",
                    calls=[ActionCall(env="laptop", name="write_file", arguments={"path": "b"})],
                )
            ]
        }
    )
    document = json.loads(json.dumps(task_to_dict(task)))
    assert document["near_misses"] == [
        {
            "subtask": "s0",
            "label": "writes elsewhere",
            "calls": [{"env": "laptop", "name": "write_file", "arguments": {"path": "b"}}],
        }
    ]
    assert task_from_dict(document).near_misses == task.near_misses


def test_json_lines_are_canonical_and_one_task_per_line(tmp_path: Path) -> None:
    from reefbench.tasks.taskfile import tasks_to_jsonl

    task = suite.load()[0]
    odd = task.model_copy(
        update={"id": "odd", "instruction": "line\u2028separator, next\x85line, Zoë"}
    )
    text = tasks_to_jsonl([odd, task])
    assert text == tasks_to_jsonl([odd, task])
    assert len(text.splitlines()) == 2 and text.endswith("\n")
    assert "Zoë" in text and ", " not in text.split('"instruction"')[0]
    (tmp_path / "t.jsonl").write_text(text, encoding="utf-8")
    assert [t.instruction for t in load_tasks(tmp_path / "t.jsonl")] == [
        odd.instruction,
        task.instruction,
    ]


def test_every_field_of_a_task_is_saved() -> None:
    """A new Task field that task_to_dict leaves out would silently vanish from frozen
    suites and run directories: adding a field means adding it to the file format."""
    document = task_to_dict(suite.load()[0])
    assert set(document) - {"schema_version"} == set(Task.model_fields)


def test_solution_actions_counts_the_reference_without_wait_turns() -> None:
    calls = [
        ActionCall(env="desktop", name="search_app", arguments={"name": "terminal"}),
        ActionCall(env="root", name="wait", arguments={}),
        ActionCall(env="desktop", name="write_text", arguments={"text": "exit\n"}),
    ]
    node = m.file_exists("a").on("laptop")
    task = Task(id="t", instruction="x", nodes={"n": node}, reference_solution=calls)
    assert task.solution_actions == 2
