"""Files a user hands over — task files, run configurations, run directories — that are not
UTF-8 or nest too deeply end in one line naming the file, exit code 2, no traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from reefbench.errors import ConfigError, TaskLoadError
from reefbench.plumbing.userfiles import TOO_DEEP, json_documents
from reefbench.runner.config import load_config
from reefbench.tasks.taskfile import load_tasks

DEPTH = 100_000
NOT_UTF8 = b'{"schema_version": 1, "id": "caf\xe9"}\n'


def reef(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reefbench.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "200"},
        stdin=subprocess.DEVNULL,
    )


def assert_one_line_error(done: subprocess.CompletedProcess[str], *parts: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    for part in parts:
        assert part in lines[0], lines[0]


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_task_file_not_utf8(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"tasks{suffix}"
    path.write_bytes(NOT_UTF8)
    with pytest.raises(TaskLoadError, match=r"not UTF-8 text \(byte 32"):
        load_tasks(path)
    assert_one_line_error(reef("tasks", "validate", str(path)), str(path), "not UTF-8")


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_task_file_nested_too_deeply(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"tasks{suffix}"
    path.write_text("[" * DEPTH + "]" * DEPTH + "\n")
    with pytest.raises(TaskLoadError, match="nested too deeply"):
        load_tasks(path)
    assert_one_line_error(reef("tasks", "validate", str(path)), str(path), "nested too deeply")


def test_task_whose_checkpoint_nests_too_deeply_is_refused(tmp_path: Path) -> None:
    """Valid JSON that Python's JSON parser takes, but the checkpoint builder cannot."""
    node: dict[str, object] = {
        "evaluator": "reefbench.envs.memory:file_exists",
        "args": {"path": "a"},
    }
    for _ in range(900):
        node = {"not": node}
    path = tmp_path / "task.json"
    path.write_text(
        json.dumps({"schema_version": 1, "id": "t", "instruction": "x", "nodes": {"n": node}})
    )
    with pytest.raises(TaskLoadError, match="nested too deeply"):
        load_tasks(path)


def test_task_file_stats_read_the_same_way(tmp_path: Path) -> None:
    path = tmp_path / "tasks.json"
    path.write_bytes(NOT_UTF8)
    assert_one_line_error(reef("tasks", "stats", str(path)), "not UTF-8")


@pytest.mark.parametrize("suffix", [".json", ".toml", ".yaml"])
def test_run_config_not_utf8(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"run{suffix}"
    path.write_bytes(b'suite = "v\xff0"\n' if suffix == ".toml" else b'{"suite": "v\xff0"}\n')
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_config(path)
    assert_one_line_error(reef("run", "--config", str(path)), str(path), "not UTF-8")


@pytest.mark.parametrize(
    ("suffix", "text"),
    [
        (".json", '{"agent": {"options": {"x": ' + "[" * DEPTH + "]" * DEPTH + "}}}"),
        (".yaml", "agent:\n  options:\n    x: " + "[" * DEPTH + "]" * DEPTH + "\n"),
        (".toml", "[agent.options]\nx = " + "[" * DEPTH + "]" * DEPTH + "\n"),
        # parsed fine, but deeper than validation (and hashing) can walk
        (".json", '{"agent": {"options": {"x": ' + "[" * 5000 + "]" * 5000 + "}}}"),
    ],
)
def test_run_config_nested_too_deeply(tmp_path: Path, suffix: str, text: str) -> None:
    path = tmp_path / f"run{suffix}"
    path.write_text(text)
    with pytest.raises(ConfigError, match=f"{path}: "):
        load_config(path).config_hash()
    done = reef("run", "--config", str(path), "--out", str(tmp_path / "out"))
    assert_one_line_error(done, str(path))
    assert not (tmp_path / "out" / "run.json").exists()


def test_a_damaged_run_json_cannot_be_resumed_but_says_why(tmp_path: Path) -> None:
    out = tmp_path / "run"
    out.mkdir()
    (out / "run.json").write_bytes(b"\xff\xfe")
    assert_one_line_error(reef("run", "--resume", "--out", str(out)), "not UTF-8")
    (out / "run.json").write_text('{"config": 3}')
    assert_one_line_error(reef("run", "--resume", "--out", str(out)), "cannot be resumed")


def test_json_documents_name_where_each_document_came_from(tmp_path: Path) -> None:
    lines = tmp_path / "a.jsonl"
    lines.write_text('{"a": 1}\n\n{"b": 2}\n')
    assert json_documents(lines) == [(f"{lines}:1", {"a": 1}), (f"{lines}:3", {"b": 2})]
    many = tmp_path / "a.json"
    many.write_text('[{"a": 1}, {"b": 2}]')
    assert [w for w, _ in json_documents(many)] == [f"{many}[0]", f"{many}[1]"]
    broken = tmp_path / "b.jsonl"
    broken.write_text('{"a": 1}\n{"b": \n')
    with pytest.raises(ConfigError, match=rf"{broken}:2: not valid JSON"):
        json_documents(broken)
    assert TOO_DEEP.startswith("nested too deeply")
