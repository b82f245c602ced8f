"""A run stores what it ran: the task definitions (tasks.jsonl) and the suite's identity
(name, version, content hash) in run.json; a resume on other definitions is refused."""

from __future__ import annotations

import hashlib
import importlib
import json
from pathlib import Path

import pytest

from reefbench.agents import OracleAgent
from reefbench.errors import ConfigError
from reefbench.runner.config import RunConfig
from reefbench.runner.launch import launch
from reefbench.suites import memory
from reefbench.tasks.task import Task
from reefbench.tasks.taskfile import load_tasks, task_to_dict, tasks_to_jsonl


def _run(out: Path, **config: object) -> None:
    launch(RunConfig(suite="memory", workers=1, **config), out, lambda key: OracleAgent())


def test_the_run_directory_carries_its_task_definitions_and_the_suite_hash(
    tmp_path: Path,
) -> None:
    out = tmp_path / "run"
    _run(out, tasks=["mem-write*", "mem-answer*"])
    stored = (out / "tasks.jsonl").read_bytes()
    chosen = [t for t in memory.load() if t.id.startswith(("mem-write", "mem-answer"))]
    assert chosen and stored == tasks_to_jsonl(chosen).encode()
    assert [task_to_dict(t) for t in load_tasks(out / "tasks.jsonl")] == [
        task_to_dict(t) for t in chosen
    ]
    suite = json.loads((out / "run.json").read_text())["suite"]
    everything = tasks_to_jsonl(memory.load()).encode()
    assert suite == {
        "name": "memory",
        "version": None,  # synthesised at load time: no published version
        "sha256": hashlib.sha256(everything).hexdigest(),
        "tasks_sha256": hashlib.sha256(stored).hexdigest(),
        "tasks": len(chosen),
    }


def test_resuming_on_other_task_definitions_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    _run(out)
    _run(out)  # the same suite: resuming is fine (and runs nothing)

    original = memory.load

    def edited() -> list[Task]:
        tasks = original()
        tasks[0] = tasks[0].model_copy(update={"instruction": "Something else."})
        return tasks

    monkeypatch.setattr(memory, "load", edited)
    before = (out / "tasks.jsonl").read_bytes()
    with pytest.raises(ConfigError, match=r"ran suite memory .*resume with the reefbench"):
        _run(out)
    assert (out / "tasks.jsonl").read_bytes() == before


def test_a_run_from_before_resumes_without_claiming_todays_definitions(tmp_path: Path) -> None:
    out = tmp_path / "old"
    _run(out, tasks=["mem-write*"])
    manifest = json.loads((out / "run.json").read_text())
    del manifest["suite"]  # what reefbench wrote before runs stored their tasks
    (out / "run.json").write_text(json.dumps(manifest))
    (out / "tasks.jsonl").unlink()
    _run(out, tasks=["mem-write*"])
    assert not (out / "tasks.jsonl").exists()
    assert "suite" not in json.loads((out / "run.json").read_text())


def test_reef_run_loads_the_suite_and_selects_its_tasks_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The suite is loaded and the tasks chosen once per ``reef run``; the same choice is
    stored, run and reported (before: loaded twice, selected three times)."""
    from typer.testing import CliRunner

    from reefbench.cli.app import app
    from reefbench.runner import engine

    launching = importlib.import_module("reefbench.runner.launch")  # the module, not launch()

    calls = {"load": 0, "select": 0}
    original_load, original_select = memory.load, engine.select_tasks

    def load() -> list[Task]:
        calls["load"] += 1
        return original_load()

    def select(tasks: list[Task], patterns: list[str], **labels: list[str]) -> list[Task]:
        calls["select"] += 1
        return original_select(tasks, patterns, **labels)

    monkeypatch.setattr(memory, "load", load)
    for module in (engine, launching):  # wherever it is bound
        monkeypatch.setattr(module, "select_tasks", select)
    out = tmp_path / "run"
    args = ["run", "--suite", "memory", "--task", "mem-write*", "--workers", "1"]
    result = CliRunner().invoke(app, [*args, "--out", str(out), "--no-report"])
    assert result.exit_code == 0, result.output
    assert calls == {"load": 1, "select": 1}
    ran = [t.id for t in load_tasks(out / "tasks.jsonl")]
    assert ran and all(task_id.startswith("mem-write") for task_id in ran)
