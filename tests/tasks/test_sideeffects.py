"""Side effects: what a task may change, and the changes beyond it."""

from __future__ import annotations

from typing import Any

from reefbench import compose_task
from reefbench.suites.memory import POOL
from reefbench.tasks.sideeffects import Change, allowed_keys, side_effects


def _log_keys(path: str, **_: Any) -> list[str]:
    return [f"file:{path}.log", "account|contacts:ada"]


def test_a_task_may_change_what_its_checkpoints_govern_and_its_templates_allow() -> None:
    logged = POOL["create_file@laptop"].model_copy(update={"allowances": _log_keys})
    task = compose_task(
        "t",
        [
            (logged, {"path": "a.txt", "content": "x"}),
            (POOL["copy_file@laptop"], {"source": "a.txt", "target": "b.txt"}),
        ],
        [(0, 1)],
    )
    assert task.may_change == ["laptop|file:a.txt.log", "account|contacts:ada"]
    allowed = allowed_keys(task)
    assert {"laptop|file:a.txt", "laptop|file:b.txt", "laptop|file:a.txt.log"} <= allowed
    assert "laptop|file:a.txt.log" not in allowed_keys(
        compose_task("u", [(POOL["create_file@laptop"], {"path": "a.txt", "content": "x"})])
    )


def test_changes_outside_the_allowed_keys_are_side_effects_once_each() -> None:
    allowed = ["laptop|file:/home/user/Reports", "account|mail:sent/ben@x.org/lunch"]
    changes = [
        ("laptop", Change("file:/home/user/Reports/q3.txt", "created file ~/Reports/q3.txt")),
        ("laptop", Change("file:/home/user/notes.txt", "deleted file ~/notes.txt")),
        ("phone", Change("account|mail:sent/ben@x.org/lunch", "added sent mail 'Lunch'")),
        ("phone", Change("account|contacts:ada", "removed contact 'Ada'")),
        ("browser", Change("account|contacts:ada", "removed contact 'Ada'")),
        ("phone", Change("file:/home/user/notes.txt", "deleted file ~/notes.txt")),
    ]
    assert side_effects(changes, allowed) == [
        "laptop: deleted file ~/notes.txt",
        "account: removed contact 'Ada'",
        "phone: deleted file ~/notes.txt",
    ]
