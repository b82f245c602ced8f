"""A suite as frozen data: canonical bytes, writing only what changed, and refusing a
data file that no longer matches its manifest."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from reefbench.errors import ConfigError
from reefbench.suites import memory
from reefbench.suites.frozen import (
    FrozenFiles,
    FrozenSuite,
    content_id,
    load,
    read_manifest,
    render,
    stale,
    write,
)
from reefbench.tasks.task import Task
from reefbench.tasks.taskfile import task_to_dict


def _files(version: str = "1.0") -> tuple[list[Task], FrozenFiles]:
    tasks = memory.load()
    return tasks, render(tasks, suite="memory", version=version, command="reef suite freeze m")


def test_render_is_canonical_and_the_manifest_hashes_the_bytes() -> None:
    tasks, files = _files()
    again = render(memory.load(), suite="memory", version="1.0", command="reef suite freeze m")
    assert files == again
    manifest = files.manifest
    assert manifest.count == len(tasks) == files.tasks.count("\n")
    assert manifest.sha256 == hashlib.sha256(files.tasks.encode()).hexdigest()
    assert "created" not in files.items()["manifest.json"]  # no timestamps: same bytes
    assert files.items()["manifest.json"].endswith("}\n")


def test_write_touches_only_what_changed_and_load_gives_the_tasks_back(tmp_path: Path) -> None:
    tasks, files = _files()
    assert write(files, tmp_path) == ["tasks.jsonl", "manifest.json"]
    assert write(files, tmp_path) == []
    assert stale(files, tmp_path) == []
    _, bumped = _files(version="1.1")
    assert stale(bumped, tmp_path) == ["manifest.json"]
    loaded = load(tmp_path)
    assert [task_to_dict(t) for t in loaded] == [task_to_dict(t) for t in tasks]
    assert read_manifest(tmp_path).version == "1.0"


def test_a_hand_edited_data_file_is_refused_with_the_command_to_run(tmp_path: Path) -> None:
    _, files = _files()
    write(files, tmp_path)
    data = tmp_path / "tasks.jsonl"
    data.write_text(data.read_text().replace("hello world", "hello World", 1))
    assert "hello World" in data.read_text()
    with pytest.raises(
        ConfigError,
        match=r"does not match its manifest's sha256; .*"
        r"re-create it with: reef suite freeze m$",
    ):
        load(tmp_path)
    (tmp_path / "manifest.json").unlink()
    with pytest.raises(ConfigError, match=r"manifest\.json: missing"):
        load(tmp_path)


def test_a_frozen_suite_names_what_is_stale(tmp_path: Path) -> None:
    spec = FrozenSuite("m", "1.0", tmp_path, memory.load)
    assert spec.command == "reef suite freeze m"
    problem = spec.staleness()
    assert problem == (
        f"{tmp_path}: tasks.jsonl and manifest.json differ from what the templates and "
        "handmade tasks give today; run: reef suite freeze m"
    )
    write(spec.render(), tmp_path)
    assert spec.staleness() is None


def test_content_ids_follow_the_definition_not_the_old_id() -> None:
    task = memory.load()[0]
    renamed = task.model_copy(update={"id": "something-else"})
    assert content_id(task, "v1-x-") == content_id(renamed, "v1-x-")
    assert content_id(task, "v1-x-").startswith("v1-x-") and len(content_id(task, "")) == 12
    edited = task.model_copy(update={"edges": [], "instruction": task.instruction + "."})
    assert content_id(edited, "v1-x-") != content_id(task, "v1-x-")


def test_freezing_refuses_a_task_that_names_a_module_of_reefbench(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An action of reefbench without a stable name would be frozen as its module path,
    which the next move of that module breaks: refused, naming the task, the reference and
    the fix."""
    from reefbench.actions import refs

    names = refs._name_of()
    for target in [t for t in names if t.startswith("reefbench.envs.memory:")]:
        monkeypatch.delitem(names, target)
    task = memory.load()[0]
    with pytest.raises(ConfigError) as caught:
        render([task], suite="m", version="1", command="c")
    message = str(caught.value)
    assert message.startswith(f"task '{task.id}' names 'reefbench.envs.memory:")
    assert message.endswith("give it a stable name in reefbench/actions/names.py (NAMES)")
    assert "\n" not in message


def test_data_frozen_with_legacy_references_is_up_to_date_and_kept_byte_for_byte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Data that wrote module paths before stable names (reef-v1) is what freezing gives
    today once those paths are read as the names they alias: not stale, not rewritten, and
    it loads."""
    from reefbench.actions import names as action_names

    monkeypatch.setitem(action_names.LEGACY_REFS, "reefbench.old.place:fc", "memory.file_contains")
    tasks, files = _files()
    assert '"memory.file_contains"' in files.tasks
    old = files.tasks.replace('"memory.file_contains"', '"reefbench.old.place:fc"')
    shipped = render(tasks, suite="memory", version="1.0", command="reef suite freeze m")
    shipped = FrozenFiles(
        old,
        shipped.manifest.model_copy(update={"sha256": hashlib.sha256(old.encode()).hexdigest()}),
    )
    for name, text in shipped.items().items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert stale(files, tmp_path) == []
    assert write(files, tmp_path) == []
    assert (tmp_path / "tasks.jsonl").read_text(encoding="utf-8") == old
    assert [task_to_dict(t) for t in load(tmp_path)] == [task_to_dict(t) for t in tasks]
    edited = render(tasks[1:], suite="memory", version="1.0", command="reef suite freeze m")
    assert stale(edited, tmp_path) == ["tasks.jsonl", "manifest.json"]
