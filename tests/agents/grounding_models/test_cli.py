"""``reef run --grounding``: listed in ``--help``, a one-line error for an unknown name or
a policy it cannot drive, and the choice recorded with the run (as a real subprocess)."""

from __future__ import annotations

import json
from pathlib import Path

from ..conftest import FakeServer, Scripted
from ..test_cli_run import _rows, reef


def test_help_lists_the_grounding_formats() -> None:
    done = reef("--help")
    assert done.returncode == 0
    flat = " ".join(done.stdout.split())
    assert "--grounding" in flat
    for name in ("uitars", "uitars-1.0", "qwen2.5-vl", "qwen3-vl"):
        assert name in flat


def test_an_unknown_format_is_one_line(openai_server: FakeServer, tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{openai_server.port}/v1"
    done = reef("--model", f"openai-compatible/m@{url}", "--grounding", "seeclick")
    assert done.returncode == 2
    assert "unknown grounding format 'seeclick'" in done.stderr
    assert "uitars" in done.stderr and "Traceback" not in done.stderr
    assert openai_server.requests == []


def test_grounding_needs_the_single_policy(openai_server: FakeServer) -> None:
    url = f"http://127.0.0.1:{openai_server.port}/v1"
    done = reef(
        "--model", f"openai-compatible/m@{url}", "--grounding", "uitars", "--policy", "by-env"
    )
    assert done.returncode == 2 and "use policy single" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_choice_is_recorded_and_a_task_without_screens_is_invalid(
    openai_server: FakeServer, tmp_path: Path
) -> None:
    # The memory suite's devices take no coordinates: the agent says so as an invalid
    # action, without asking the model, and the run goes on to its report.
    openai_server.default = Scripted("Action: wait()")
    out = tmp_path / "run"
    url = f"http://127.0.0.1:{openai_server.port}/v1"
    done = reef(
        "--model",
        f"openai-compatible/ui-tars-1.5-7b@{url}",
        "--grounding",
        "uitars",
        "--task",
        "mem-write-note",
        "--out",
        str(out),
    )
    assert done.returncode == 0, done.stderr
    (row,) = _rows(out)
    assert row["termination"] == "invalid_action"
    assert str(row["agent"]).endswith("grounding:uitars")
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["config"]["agent"]["options"]["grounding"] == "uitars"
    assert openai_server.requests == []
