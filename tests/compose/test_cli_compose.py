"""``reef compose``, ``reef pool lint``, ``reef tasks stats``/``show`` as real subprocesses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REEF = [sys.executable, "-m", "reefbench.cli"]
DEMO = "reefbench.suites.demo:POOL"


def reef(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run(
        [*REEF, *args], capture_output=True, text=True, timeout=120, cwd=cwd, env=env
    )


def test_compose_writes_tasks_that_validate_and_show_and_draw(tmp_path: Path) -> None:
    out = tmp_path / "tasks.jsonl"
    done = reef(
        "compose", "--pool", DEMO, "-n", "12", "--capability", "PP", "--seed", "3", "-o", str(out)
    )
    assert done.returncode == 0, done.stderr
    documents = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(documents) == 12
    assert all("parallel-planning" in d["metadata"]["capabilities"] for d in documents)
    again = tmp_path / "again.jsonl"
    assert (
        reef(
            "compose",
            "--pool",
            DEMO,
            "-n",
            "12",
            "--capability",
            "PP",
            "--seed",
            "3",
            "-o",
            str(again),
        ).returncode
        == 0
    )
    assert again.read_text() == out.read_text()

    stats = reef("tasks", "stats", str(out), "--pool", DEMO)
    assert stats.returncode == 0, stats.stderr
    assert "Parallel Planning" in stats.stdout and "12 task(s) in" in stats.stdout
    assert "not built" in stats.stdout  # composed tasks are measured without building them
    full = reef("tasks", "stats", str(out), "--pool", DEMO, "--full")
    assert full.returncode == 0, full.stderr
    assert "not built" not in full.stdout and "checkpoints per task" in full.stdout

    png = tmp_path / "graph.png"
    show = reef(
        "tasks", "show", documents[0]["id"], "-f", str(out), "--pool", DEMO, "--png", str(png)
    )
    assert show.returncode == 0, show.stderr
    assert documents[0]["instruction"][:40] in show.stdout.replace("\n", " ")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5000


def test_compose_reports_a_shortfall_and_bad_options_in_one_line(tmp_path: Path) -> None:
    short = reef(
        "compose", "--pool", DEMO, "-n", "3", "--knowledge", "hard", "-o", str(tmp_path / "k.jsonl")
    )
    assert short.returncode == 1
    assert (
        "made 0 of 3 tasks (knowledge=hard)" in short.stdout and "knowledge: easy" in short.stdout
    )
    for args, message in (
        (["--branch", "huge"], "unknown complexity level 'huge' for branch"),
        (["--capability", "telepathy"], "unknown capability 'telepathy'"),
        (["--branch", "easy", "--capability", "PP"], "--branch easy conflicts with --capability"),
    ):
        bad = reef("compose", "--pool", DEMO, *args, "-o", str(tmp_path / "x.jsonl"))
        assert bad.returncode == 2, args
        assert message in bad.stderr and "Traceback" not in bad.stderr
        assert len(bad.stderr.strip().splitlines()) == 1


def test_pool_lint_reports_a_broken_pool_module_in_one_line(tmp_path: Path) -> None:
    module = tmp_path / "pool.py"
    module.write_text(
        "from reefbench.tasks.subtask import SubTask\n"
        "POOL = {'t': SubTask(id='t', description='Open {file}.', env='laptop',"
        " evaluator_generator=lambda: None)}\n"
    )
    bad = reef("pool", "lint", f"{module}:POOL")
    assert bad.returncode == 2
    assert "placeholder {file} in the description has no attribute" in bad.stdout
    assert "Traceback" not in bad.stdout + bad.stderr
    good = reef("pool", "lint", DEMO)
    assert good.returncode == 0 and "0 error(s), 0 warning(s)" in good.stdout
