"""The in-memory suite: two simulated devices, ``laptop`` and ``phone``, with files.

It exercises every part of the framework (cross-environment tasks, composed tasks with
chains and parallel branches, answers, CALL_USER, persistent checkpoints, SR@k) in well
under a second, so it is what the tests and the core-stage ``make run`` execute. Real
software lives in the desktop, browser and phone environments.
"""

from __future__ import annotations

from reefbench.actions import ActionCall
from reefbench.environment import Environment
from reefbench.envs import memory as m
from reefbench.link import compose_task
from reefbench.root import answer_equals, user_was_asked
from reefbench.subtask import SubTask
from reefbench.task import ActionStep, Task, TaskMetadata

DEVICES = ("laptop", "phone")


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
    code = "482913"
    return [
        Task(
            id="mem-write-note",
            instruction='On the laptop, create "notes/hello.txt" containing exactly "hello world".',
            nodes={"saved": m.file_equals("notes/hello.txt", "hello world").on("laptop")},
            reference_solution=[
                _call("laptop", "write_file", path="notes/hello.txt", content="hello world")
            ],
            metadata=TaskMetadata(level="L2", scenario="notes", apps=["editor"]),
        ),
        Task(
            id="mem-cross-code",
            instruction=(
                "A verification code arrived on the phone in sms/latest.txt. Save just the "
                'code (digits only) on the laptop in "login/code.txt".'
            ),
            nodes={"code": m.file_equals("login/code.txt", code).on("laptop")},
            setup=[
                ActionStep(
                    env="phone", action=m.write_file("sms/latest.txt", f"Your code is {code}")
                )
            ],
            reference_solution=[
                _call("phone", "read_file", path="sms/latest.txt"),
                _call("laptop", "write_file", path="login/code.txt", content=code),
            ],
            metadata=TaskMetadata(level="L2", scenario="login", apps=["messages", "editor"]),
        ),
        Task(
            id="mem-answer-lines",
            instruction="How many lines does report.txt on the laptop have? Submit the number.",
            nodes={"answer": answer_equals("3")},
            setup=[ActionStep(env="laptop", action=m.write_file("report.txt", "a\nb\nc"))],
            reference_solution=[
                _call("laptop", "read_file", path="report.txt"),
                _call("root", "submit", answer="3"),
            ],
            metadata=TaskMetadata(environments=["laptop"], level="L2", scenario="reports"),
        ),
        Task(
            id="mem-call-user-wifi",
            instruction=(
                'Save the home Wi-Fi password on the phone in "wifi.txt". Only the user knows it.'
            ),
            nodes={
                "asked": user_was_asked("password"),
                "saved": m.file_equals("wifi.txt", "correct-horse").on("phone"),
            },
            edges=[("asked", "saved")],
            user_data={"password": "correct-horse"},
            reference_solution=[
                _call("root", "call_user", kind="password"),
                _call("phone", "write_file", path="wifi.txt", content="correct-horse"),
            ],
            metadata=TaskMetadata(environments=["phone"], level="L3", scenario="settings"),
        ),
        Task(
            id="mem-fan-out-join",
            instruction=(
                'On the laptop, write "draft" to a.txt; then copy a.txt to the phone as '
                'b.txt and put "draft" on the laptop clipboard; when both are done, write '
                '"ok" to done.txt on the laptop.'
            ),
            nodes={
                "a": m.file_equals("a.txt", "draft").on("laptop"),
                "b": m.file_equals("b.txt", "draft").on("phone"),
                "clip": m.clipboard_equals("draft").on("laptop"),
                "done": m.file_equals("done.txt", "ok").on("laptop"),
            },
            edges=[("a", "b"), ("a", "clip"), ("b", "done"), ("clip", "done")],
            reference_solution=[
                _call("laptop", "write_file", path="a.txt", content="draft"),
                _call("phone", "write_file", path="b.txt", content="draft"),
                _call("laptop", "copy_text", text="draft"),
                _call("laptop", "write_file", path="done.txt", content="ok"),
            ],
            metadata=TaskMetadata(level="L4", scenario="sync"),
        ),
    ]


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
