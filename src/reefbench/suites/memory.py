"""The in-memory suite: two simulated devices, ``laptop`` and ``phone``, with files.

It exercises every part of the framework (cross-environment tasks, composed tasks with
chains and parallel branches, answers, CALL_USER, persistent checkpoints, SR@k) in well
under a second, so it is what the tests and the core-stage ``make run`` execute. Real
software lives in the desktop, browser and phone environments.
"""

from __future__ import annotations

from pathlib import Path

from reefbench.actions.spec import ActionCall
from reefbench.environments.contract import Environment
from reefbench.envs import memory as m
from reefbench.tasks.link import compose_task
from reefbench.tasks.subtask import SubTask
from reefbench.tasks.task import Task, TaskMetadata
from reefbench.tasks.taskfile import load_tasks

DEVICES = ("laptop", "phone")
HANDMADE = Path(__file__).with_name("memory_handmade.json")


def make_environments() -> dict[str, Environment]:
    """Fresh laptop and phone environments."""
    return {name: m.MemoryEnvironment(name) for name in DEVICES}


def _call(env: str, name: str, **arguments: object) -> ActionCall:
    return ActionCall(env=env, name=name, arguments=dict(arguments))


def _templates(device: str) -> list[SubTask]:
    return [
        SubTask(
            id=f"create_file@{device}",
            description=f'On the {device}, create the file "{{path}}" containing "{{content}}".',
            attributes={"path": "file_path", "content": "text"},
            output_type="file_path",
            env=device,
            app="editor",
            app_category="productivity",
            evaluator_generator=lambda path, content: m.file_contains(path, content),
            solution_generator=lambda path, content, d=device: [
                _call(d, "write_file", path=path, content=content)
            ],
            output_generator=lambda path, content: path,
        ),
        SubTask(
            id=f"copy_file@{device}",
            description=f'On the {device}, copy "{{source}}" to "{{target}}".',
            attributes={"source": "file_path", "target": "file_path"},
            output_type="file_path",
            env=device,
            app="files",
            app_category="system",
            evaluator_generator=lambda source, target: [
                m.file_exists(target),
                m.files_equal(source, target),
            ],
            solution_generator=lambda source, target, d=device: [
                _call(d, "copy_file", source=source, target=target)
            ],
            alternative_generators=[
                lambda source, target, d=device: [
                    _call(d, "copy_file", source=source, target=target + ".tmp"),
                    _call(d, "copy_file", source=target + ".tmp", target=target),
                ]
            ],
            output_generator=lambda source, target: target,
        ),
        SubTask(
            id=f"append_line@{device}",
            description=f'On the {device}, add the line "{{line}}" to the end of "{{path}}".',
            attributes={"path": "file_path", "line": "text"},
            output_type="file_path",
            env=device,
            app="editor",
            app_category="productivity",
            evaluator_generator=lambda path, line: m.file_contains(path, "\n" + line),
            solution_generator=lambda path, line, d=device: [
                _call(d, "append_file", path=path, text="\n" + line)
            ],
            output_generator=lambda path, line: path,
        ),
    ]


POOL: dict[str, SubTask] = {t.id: t for device in DEVICES for t in _templates(device)}


def _handmade() -> list[Task]:
    """The tasks written by hand: explicit task files (:mod:`reefbench.tasks.taskfile`) in
    ``memory_handmade.json`` beside this module, naming checks and setup by stable name."""
    return load_tasks(HANDMADE)


def _composed() -> list[Task]:
    p = POOL
    return [
        compose_task(
            "mem-chain-copy",
            [
                (p["create_file@laptop"], {"path": "plan.txt", "content": "step one"}),
                (p["copy_file@laptop"], {"source": "plan.txt", "target": "backup/plan.txt"}),
            ],
            [(0, 1)],
            metadata=TaskMetadata(level="L2", scenario="files"),
        ),
        compose_task(
            "mem-branches",
            [
                (p["create_file@phone"], {"path": "list.txt", "content": "eggs"}),
                (p["copy_file@phone"], {"source": "list.txt", "target": "copy1.txt"}),
                (p["append_line@phone"], {"path": "list.txt", "line": "bread"}),
            ],
            [(0, 1), (0, 2)],
            metadata=TaskMetadata(level="L2", scenario="shopping"),
        ),
        compose_task(
            "mem-long-chain",
            [
                (p["create_file@laptop"], {"path": "log.txt", "content": "start"}),
                (p["append_line@laptop"], {"path": "log.txt", "line": "middle"}),
                (p["copy_file@laptop"], {"source": "log.txt", "target": "log2.txt"}),
                (p["append_line@laptop"], {"path": "log2.txt", "line": "end"}),
                (p["copy_file@laptop"], {"source": "log2.txt", "target": "final.txt"}),
            ],
            [(0, 1), (1, 2), (2, 3), (3, 4)],
            metadata=TaskMetadata(level="L4", scenario="logs", tags=["long-chain"]),
        ),
    ]


def load() -> list[Task]:
    """All tasks of the in-memory suite."""
    return _handmade() + _composed()
