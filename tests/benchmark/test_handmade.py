"""The handmade tasks are data (benchmark/handmade_tasks.json): they load, name only
stable names, keep their ids and checkpoints, and a malformed entry says where and why."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from reefbench.actions.names import NAMES
from reefbench.benchmark import handmade
from reefbench.benchmark.templates import POOL
from reefbench.errors import TaskLoadError
from reefbench.tasks.task import Task
from reefbench.tasks.taskfile import task_refs, task_to_dict


@pytest.fixture(scope="module")
def tasks() -> dict[str, Task]:
    return {t.id: t for t in handmade.load()}


def _entries() -> list[dict[str, Any]]:
    entries = json.loads(handmade.DATA.read_text(encoding="utf-8"))
    assert isinstance(entries, list)
    return entries


def test_every_entry_loads_in_order_and_names_pool_templates(tasks: dict[str, Task]) -> None:
    entries = _entries()
    assert [e["id"] for e in entries] == list(tasks)
    assert len(tasks) == 21
    for entry in entries:
        assert entry["schema_version"] == 1
        assert {s["template"] for s in entry["subtasks"]} <= set(POOL), entry["id"]
    for task in tasks.values():
        assert task.id.startswith("v0-hand-")
        assert "handmade" in task.metadata.tags
        assert task.metadata.level and task.metadata.scenario and task.metadata.step_limit


def test_the_tasks_name_only_stable_names(tasks: dict[str, Task]) -> None:
    for task in tasks.values():
        refs = task_refs(task_to_dict(task))
        assert refs, task.id
        assert set(refs) <= set(NAMES), f"{task.id}: {sorted(set(refs) - set(NAMES))}"


def test_known_tasks_keep_their_checkpoints_and_order(tasks: dict[str, Task]) -> None:
    mail = tasks["v0-hand-signin-mail"]
    assert list(mail.nodes) == [
        "s0.user_was_asked(kind='password')",
        "s0.browser_signed_in()",
        "s1.mail_sent(to='ben.okafor@example.com', subject='Budget draft', "
        "body='pay the electricity bill', by='browser')",
    ]
    assert mail.user_data == {"username": "alex", "password": "reef-password"}
    assert mail.reference_solution[0].name == "call_user"
    assert mail.metadata.level == "L3" and mail.metadata.scenario == "email"

    # A link only orders: the sign-in outputs nothing, the mail still waits for it.
    assert ("s0.browser_signed_in()", list(mail.nodes)[2]) in mail.edges

    folder = tasks["v0-hand-project-folder"]
    assert [s.template for s in folder.metadata.subtasks] == [
        "desktop.create_file",
        "desktop.create_file",
        "desktop.make_folder",
        "desktop.move_into_folder",
        "desktop.move_into_folder",
        "desktop.archive_folder",
    ]
    assert folder.metadata.subtask_links == [
        ("s0", "s3"),
        ("s2", "s3"),
        ("s1", "s4"),
        ("s2", "s4"),
        ("s3", "s5"),
        ("s4", "s5"),
    ]
    assert len(folder.nodes) == 9 and len(folder.edges) == 9

    fanout = tasks["v0-hand-code-fanout"]
    assert list(fanout.nodes)[1:] == [
        "s1.file_holds(path='~/Documents/amber.txt', content='730215')",
        "s2.message_sent(to='555-0104', text='730215', by='phone')",
    ]
    assert "cross-device" in fanout.metadata.tags

    total = tasks["v0-hand-sum-expenses"]
    assert list(total.nodes) == ["s0.answer_equals(expected='90')"]
    assert total.edges == [] and total.metadata.level == "L2"


def _write(tmp_path: Path, change: dict[str, Any]) -> Path:
    entry = {**_entries()[0], **change}
    path = tmp_path / "hand.json"
    path.write_text(json.dumps([entry]), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            {"subtasks": [{"template": "browser.sign_inn", "attributes": {}}], "links": []},
            "hand.json[0] (task 'v0-hand-signin-mail'): subtasks[0].template: unknown "
            "template 'browser.sign_inn'; use an id of reefbench.benchmark.templates.POOL",
        ),
        (
            {"links": [[1, 0]]},
            "hand.json[0] (task 'v0-hand-signin-mail'): links[0]: [1, 0] must go forward, "
            "from an earlier subtask to a later one (numbered from 0; there are 2)",
        ),
        (
            {"instruction": ""},
            "hand.json[0] (task 'v0-hand-signin-mail'): instruction: String should have "
            "at least 1 character",
        ),
        (
            {"metadata": {"level": "L3"}},
            "hand.json[0] (task 'v0-hand-signin-mail'): metadata.scenario: missing; a "
            "handmade task states its level and scenario",
        ),
        (
            {
                "subtasks": [{"template": "browser.sign_in", "attributes": {"user": "alex"}}],
                "links": [],
            },
            "hand.json[0] (task 'v0-hand-signin-mail'): subtask 'browser.sign_in': unknown "
            "attribute(s) user",
        ),
        (
            {"link": [[0, 1]]},
            "hand.json[0] (task 'v0-hand-signin-mail'): link: Extra inputs are not permitted",
        ),
    ],
    ids=[
        "unknown-template",
        "backward-link",
        "no-instruction",
        "no-scenario",
        "unknown-attribute",
        "typo-key",
    ],
)
def test_a_malformed_entry_is_one_line_naming_where(
    tmp_path: Path, change: dict[str, Any], expected: str
) -> None:
    path = _write(tmp_path, change)
    with pytest.raises(TaskLoadError) as caught:
        handmade.load_file(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(str(path.parent) + "/")
    assert expected in message


def test_a_duplicate_id_is_refused(tmp_path: Path) -> None:
    first = _entries()[0]
    path = tmp_path / "hand.json"
    path.write_text(json.dumps([first, first]), encoding="utf-8")
    with pytest.raises(TaskLoadError, match=r"hand\.json\[1\]: duplicate task id"):
        handmade.load_file(path)
