"""The reef command, run as a real subprocess: outputs, exit codes, no tracebacks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from reefbench.log.store import ResultsStore

REEF = [sys.executable, "-m", "reefbench.cli"]


def reef(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run(
        [*REEF, *args], capture_output=True, text=True, timeout=120, cwd=cwd, env=env
    )


def stored(run_dir: Path) -> list[Any]:
    store = ResultsStore(run_dir)
    try:
        return store.results()
    finally:
        store.close()


def test_help_and_version() -> None:
    help_text = reef("--help")
    assert help_text.returncode == 0
    for command in ("run", "doctor", "tasks", "version"):
        assert command in help_text.stdout
    version = reef("version")
    assert version.returncode == 0 and version.stdout.startswith("reefbench 0.")


def test_run_writes_results_and_prints_the_table(tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = reef("run", "--suite", "memory", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "SR%" in done.stdout and "oracle on memory" in done.stdout
    rows = stored(out)
    assert len(rows) == 8 and all(r.termination == "success" for r in rows)
    assert (out / "report" / "report.html").is_file()


def test_the_action_set_is_recorded_in_run_json_and_the_report(tmp_path: Path) -> None:
    default = tmp_path / "marks"
    assert reef("run", "--suite", "memory", "--out", str(default)).returncode == 0
    assert json.loads((default / "run.json").read_text())["config"]["action_set"] == "marks"
    out = tmp_path / "a11y"
    done = reef("run", "--suite", "memory", "--action-set", "a11y", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "(a11y actions)" in done.stdout
    assert json.loads((out / "run.json").read_text())["config"]["action_set"] == "a11y"
    report = json.loads((out / "report" / "report.json").read_text())
    [run] = report["runs"].values()
    assert run["action_set"] == "a11y"
    assert "action set a11y" in (out / "report" / "report.html").read_text()
    both = reef("report", str(default), str(out), "--out", str(tmp_path / "both"))
    assert both.returncode == 0, both.stderr
    labels = json.loads((tmp_path / "both" / "report.json").read_text())["runs"]
    assert sorted(label.split(" · ")[0] for label in labels) == ["oracle [a11y]", "oracle [marks]"]


def test_an_unknown_action_set_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = reef("run", "--suite", "memory", "--action-set", "pixel", "--out", str(tmp_path / "x"))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "error: run configuration: action_set: unknown action set 'pixel': "
        "choose one of marks, a11y, pixels"
    )
    assert not (tmp_path / "x").exists()


def test_pixels_is_accepted_and_recorded(tmp_path: Path) -> None:
    out = tmp_path / "pixels"
    done = reef("run", "--suite", "memory", "--action-set", "pixels", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "(pixels actions)" in done.stdout
    assert json.loads((out / "run.json").read_text())["config"]["action_set"] == "pixels"


def test_serve_mcp_refuses_an_unknown_action_set_in_one_line(tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    done = reef(
        "serve-mcp", "--suite", "memory", "--task", "mem-branches", "--action-set", "pixel",
        "--out", str(tmp_path / "x"),
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "error: unknown action set 'pixel': choose one of marks, a11y, pixels"
    )


def test_side_effects_option_is_recorded_and_checked(tmp_path: Path) -> None:
    out = tmp_path / "report-only"
    done = reef(
        "run", "--suite", "memory", "--task", "mem-branches", "--side-effects", "report",
        "--no-report", "--out", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "SE%" in done.stdout
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["config"]["side_effects"] == "report"
    wrong = reef("run", "--suite", "memory", "--side-effects", "sometimes", "--out", str(out))
    assert wrong.returncode == 2 and "Traceback" not in wrong.stderr
    assert "side_effects: Input should be 'fail', 'report' or 'off'" in wrong.stderr + wrong.stdout


def test_null_agent_run(tmp_path: Path) -> None:
    done = reef("run", "--suite", "memory", "--agent", "null", "--out", str(tmp_path / "null"))
    assert done.returncode == 0
    rows = stored(tmp_path / "null")
    assert len(rows) == 8 and all(r.completion_ratio == 0.0 for r in rows)


def test_tasks_validate_and_list(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(
        json.dumps(
            {
                "schema_version": 1,
                "id": "t",
                "instruction": "i",
                "nodes": {
                    "a": {
                        "evaluator": "reefbench.envs.memory:file_exists",
                        "args": {"path": "p"},
                        "env": "laptop",
                    }
                },
            }
        )
    )
    done = reef("tasks", "validate", str(good))
    assert done.returncode == 0 and "1 task(s) valid" in done.stdout
    composed = tmp_path / "composed.json"
    composed.write_text(
        json.dumps(
            {
                "schema_version": 1,
                "id": "c",
                "subtasks": [
                    {"template": "create_file@phone", "attributes": {"path": "p", "content": "c"}}
                ],
            }
        )
    )
    done = reef("tasks", "validate", str(composed), "--pool", "reefbench.suites.memory:POOL")
    assert done.returncode == 0, done.stderr
    listed = reef("tasks", "list", "--suite", "memory")
    assert listed.returncode == 0 and "mem-cross-code" in listed.stdout
    default = reef("tasks", "list")  # reef-v1 unless told otherwise, like `reef run`
    assert default.returncode == 0 and "v1-hand-" in default.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("run", "--agent", "gpt"), "unknown agent 'gpt'"),
        (("run", "--suite", "nope"), "unknown suite 'nope'"),
        (("tasks", "validate", "/definitely/missing.json"), "cannot read"),
        (("tasks", "validate", "x.json", "--pool", "nocolon"), "use the form"),
        (("tasks", "validate", "x.json", "--pool", "json:nothing"), "cannot load it"),
        (("tasks", "validate", "x.json", "--pool", "json:dumps"), "expected a dict"),
        (("frobnicate",), "No such command"),
        (("run", "--agent"), "requires an argument"),
    ],
)
def test_user_mistakes_exit_2_with_one_line(args: tuple[str, ...], message: str) -> None:
    done = reef(*args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


def test_bad_task_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps(
            {
                "schema_version": 1,
                "id": "t",
                "instruction": "i",
                "nodes": {
                    "a": {"evaluator": "reefbench.envs.memory:file_exists", "args": {"path": 1}}
                },
            }
        )
    )
    done = reef("tasks", "validate", str(bad))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "nodes.a.args: file_exists: parameter 'path'" in lines[0]


def test_doctor_lists_checks_with_fixes() -> None:
    done = reef("doctor")
    assert done.returncode == 0
    assert "pydantic" in done.stdout and "Xvfb" in done.stdout


def test_the_observation_policy_is_recorded_and_a_bad_one_is_one_line(tmp_path: Path) -> None:
    default = tmp_path / "changed"
    done = reef("run", "--suite", "memory", "--task", "mem-write-note", "--no-report",
                "--out", str(default))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads((default / "run.json").read_text())["config"]["observe"] == "changed"
    out = tmp_path / "all"
    done = reef("run", "--suite", "memory", "--task", "mem-write-note", "--observe", "all",
                "--out", str(out))  # fmt: skip
    assert done.returncode == 0, done.stderr
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["config"]["observe"] == "all"
    [run] = json.loads((out / "report" / "report.json").read_text())["runs"].values()
    assert run["observe"] == "all"
    assert "observations all" in (out / "report" / "report.html").read_text()
    for flag in ("--observe", "--observation-policy"):  # the old spelling and the new
        wrong = reef("run", "--suite", "memory", flag, "some", "--out", str(tmp_path / "x"))
        assert wrong.returncode == 2
        assert wrong.stderr.strip() == (
            "error: run configuration: observation_policy: unknown observation policy 'some': "
            "choose one of all, latest, changed"
        )
        assert not (tmp_path / "x").exists()
