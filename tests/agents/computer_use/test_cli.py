"""``reef run`` choosing native computer use, as a real subprocess: the rule, what
``run.json`` records, and one-line errors (exit 2) for what cannot work."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import FAKE_KEY, WireServer

REEF = [sys.executable, "-m", "reefbench.cli"]


def reef(*args: str, extra: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env |= {"COLUMNS": "200", **(extra or {})}
    return subprocess.run([*REEF, *args], capture_output=True, text=True, timeout=120, env=env)


def test_help_names_the_interfaces_and_the_flags() -> None:
    done = reef("run", "--help")
    assert done.returncode == 0
    text = "".join(done.stdout.replace("│", " ").split())  # the help box wraps anywhere
    for words in (
        "computer tool (computer_20250124 beta)",
        "computer_use_preview (Responses API)",
        "computer use (0-999 coordinates)",
        "--computer-use",
        "--safety-checks",
    ):
        assert words.replace(" ", "") in text, words


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--model", "openai-compatible/q@http://127.0.0.1:1/v1", "--computer-use", "on"],
            "has no native computer-use interface",
        ),
        (["--model", "openai/computer-use-preview", "--safety-checks", "maybe"],
         "safety-check policy 'maybe'"),
        (["--model", "openai/computer-use-preview", "--computer-use", "sometimes"],
         "computer use 'sometimes'"),
        (["--model", "openai/computer-use-preview", "--policy", "by-env"],
         "plays as a single agent"),
        (["--model", "anthropic/claude-x", "--computer-use", "on"], "set ANTHROPIC_API_KEY"),
    ],
)  # fmt: skip
def test_what_cannot_work_fails_in_one_line(args: list[str], message: str, tmp_path: Path) -> None:
    keys = {"OPENAI_API_KEY": FAKE_KEY}
    done = reef("run", "--suite", "memory", *args, "--out", str(tmp_path / "r"), extra=keys)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert message in done.stderr and "Traceback" not in done.stderr
    assert FAKE_KEY not in done.stderr + done.stdout


@pytest.mark.parametrize("server", ["openai"], indirect=True)
def test_a_computer_use_model_is_chosen_by_name_and_recorded(
    server: WireServer, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    done = reef(
        "run", "--suite", "memory", "--task", "mem-write-note",
        "--model", "openai/computer-use-preview", "--max-infra-retries", "0",
        "--out", str(out),
        extra={"OPENAI_API_KEY": FAKE_KEY, "OPENAI_BASE_URL": server.base_url},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    manifest = json.loads((out / "run.json").read_text())
    config = manifest["config"]
    assert config["agent"]["options"]["computer_use"] == "on"
    assert "computer-use" in done.stdout  # the run's label
    providers = json.dumps(manifest)
    assert "computer_use_preview (Responses API)" in providers
    # The memory suite's devices have no screen: the agent says so, in one line.
    (result,) = out.glob("episodes/*/result.json")
    assert "no device with coordinate actions" in result.read_text()
    assert FAKE_KEY not in done.stdout + done.stderr


def test_function_tools_stay_the_default_for_ordinary_models(tmp_path: Path) -> None:
    from reefbench.runner.config import RunConfig

    plain = RunConfig.model_validate({"agent": {"name": "model", "model": "openai/gpt-4o"}})
    assert "computer_use" not in plain.agent.options
    named = RunConfig.model_validate(
        {"agent": {"name": "model", "model": "google/gemini-2.5-computer-use-preview-10-2025"}}
    )
    assert named.agent.options["computer_use"] == "on"
    # Native interfaces act by coordinates: plain screenshots unless a set is named.
    assert (plain.action_set, named.action_set) == ("marks", "pixels")
    marked = RunConfig.model_validate(
        {"agent": {"name": "model", "model": "openai/computer-use-preview"}, "action_set": "a11y"}
    )
    assert marked.action_set == "a11y"
    off = RunConfig.model_validate(
        {
            "agent": {
                "name": "model",
                "model": "openai/computer-use-preview",
                "options": {"computer_use": "off"},
            }
        }
    )
    assert off.agent.options["computer_use"] == "off"
    assert off.action_set == "marks"
    assert plain.config_hash() != named.config_hash()
