"""Reports read a run's tasks from the run directory, never from today's code; a run
from before runs stored their tasks falls back to today's suite with a warning."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from reefbench.agents import OracleAgent
from reefbench.report.export import episode_rows
from reefbench.report.html import build
from reefbench.report.loading import load_run
from reefbench.runner.config import RunConfig
from reefbench.runner.launch import launch
from reefbench.suites import memory
from reefbench.tasks.task import Task
from reefbench.tasks.taskfile import task_to_dict

ORIGINAL_LOAD = memory.load


def _edited_suite() -> list[Task]:
    """The memory suite as a later edit of its templates would make it."""
    tasks = []
    for task in ORIGINAL_LOAD():
        meta = task.metadata.model_copy(update={"environments": ["elsewhere"], "level": "L5"})
        tasks.append(task.model_copy(update={"instruction": "Edited.", "metadata": meta}))
    return tasks


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "oracle"
    launch(RunConfig(suite="memory", workers=1), out, lambda key: OracleAgent())
    return out


def test_the_report_reads_the_tasks_the_run_ran(
    run_dir: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    original = {t.id: task_to_dict(t) for t in memory.load()}
    before = build([load_run(run_dir)])
    monkeypatch.setattr(memory, "load", _edited_suite)  # the suite changed after the run
    loaded = load_run(run_dir)
    assert loaded.tasks_source == "run" and loaded.warnings == []
    assert {k: task_to_dict(t) for k, t in loaded.tasks.items()} == original
    after = build([loaded])
    assert after == before
    (shown,) = after["runs"].values()
    assert shown["tasks_source"] == "run" and shown["manifest"]["suite"]["name"] == "memory"
    assert "elsewhere" not in json.dumps(after)
    rows = episode_rows(run_dir)
    assert {r["instruction"] for r in rows} == {t["instruction"] for t in original.values()}
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_an_old_run_without_task_definitions_falls_back_with_one_warning(
    run_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import shutil

    old = tmp_path / "old"
    shutil.copytree(run_dir, old)
    (old / "tasks.jsonl").unlink()
    monkeypatch.setattr(memory, "load", _edited_suite)
    with caplog.at_level(logging.WARNING):
        loaded = load_run(old)
    assert loaded.tasks_source == "suite"
    assert loaded.warnings == [
        f"{old}: no tasks.jsonl (a run from before runs stored their tasks); task labels "
        "come from today's suite 'memory'"
    ]
    assert [r.getMessage() for r in caplog.records] == [f"warning: {loaded.warnings[0]}"]
    assert {t.instruction for t in loaded.tasks.values()} == {"Edited."}
    (shown,) = build([loaded])["runs"].values()
    assert shown["tasks_source"] == "suite" and shown["warnings"] == loaded.warnings


def test_a_stored_file_that_no_longer_loads_falls_back_and_says_why(
    run_dir: Path, tmp_path: Path
) -> None:
    import shutil

    broken = tmp_path / "broken"
    shutil.copytree(run_dir, broken)
    text = (broken / "tasks.jsonl").read_text()
    (broken / "tasks.jsonl").write_text(text.replace('"memory.', '"gone.module:', 1))
    loaded = load_run(broken)
    assert loaded.tasks_source == "suite"
    (warning,) = loaded.warnings
    assert "tasks.jsonl:1" in warning and "gone" in warning
    assert warning.endswith("task labels come from today's suite 'memory'")
    assert "\n" not in warning
