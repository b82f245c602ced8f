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


# ------------------------------------------------------------------ the action set played
GROUNDING = ["--model", "openai-compatible/ui-tars-1.5-7b@http://127.0.0.1:9/v1"]


@pytest.mark.parametrize(
    ("args", "played"),
    [
        (["--model", "anthropic/claude-x", "--computer-use", "on"], "pixels"),
        (["--model", "openai/computer-use-preview"], "pixels"),
        (["--model", "anthropic/claude-x", "--computer-use", "on", "--action-set", "a11y"],
         "a11y"),
        ([*GROUNDING, "--grounding", "uitars"], "pixels"),
        ([*GROUNDING, "--grounding", "qwen2.5-vl"], "pixels"),
        ([*GROUNDING, "--grounding", "uitars", "--action-set", "marks"], "marks"),
        (["--model", "openai/gpt-4o"], "marks"),
    ],
    ids=["computer-use-on", "computer-use-model", "named-set", "uitars", "qwen", "named-marks",
         "function-tools"],
)  # fmt: skip
def test_coordinate_agents_play_pixels_unless_the_run_names_a_set(
    args: list[str], played: str, tmp_path: Path
) -> None:
    """What ``run.json`` records is what the agent was shown: a native computer-use or
    grounding model gets plain screenshots, not Set-of-Marks boxes it cannot refer to."""
    nowhere = "http://127.0.0.1:9"  # the agent never reaches a server: no device to drive
    keys = {"OPENAI_API_KEY": FAKE_KEY, "ANTHROPIC_API_KEY": FAKE_KEY,
            "ANTHROPIC_BASE_URL": nowhere, "OPENAI_BASE_URL": nowhere}  # fmt: skip
    out = tmp_path / "run"
    done = reef("run", "--suite", "memory", "--task", "mem-write-note", *args,
                "--max-infra-retries", "0", "--retries", "1", "--no-report", "--out", str(out),
                extra=keys)  # fmt: skip
    assert done.returncode == 0, done.stderr
    config = json.loads((out / "run.json").read_text())["config"]
    assert config["action_set"] == played
    assert f"({played} actions" in done.stdout


def test_a_configuration_file_s_action_set_stands_and_its_defaults_do_not(tmp_path: Path) -> None:
    """A file that names no action set leaves the computer-use default to the flags; one
    that names a set keeps it."""
    plain, named = tmp_path / "plain.toml", tmp_path / "named.toml"
    plain.write_text('suite = "memory"\ntasks = ["mem-write-note"]\n')
    named.write_text('suite = "memory"\ntasks = ["mem-write-note"]\naction_set = "a11y"\n')
    keys = {"ANTHROPIC_API_KEY": FAKE_KEY, "ANTHROPIC_BASE_URL": "http://127.0.0.1:9"}
    for config, played in ((plain, "pixels"), (named, "a11y")):
        out = tmp_path / config.stem
        done = reef("run", "--config", str(config), "--model", "anthropic/claude-x",
                    "--computer-use", "on", "--max-infra-retries", "0", "--no-report",
                    "--out", str(out), extra=keys)  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert json.loads((out / "run.json").read_text())["config"]["action_set"] == played


# ------------------------------------------------------------------ endpoints and tools
@pytest.mark.parametrize(
    ("model", "variable"),
    [("anthropic/claude-x", "ANTHROPIC_BASE_URL"), ("openai/gpt-4o", "OPENAI_BASE_URL"),
     ("google/gemini-2.5-pro", "GOOGLE_GEMINI_BASE_URL")],
)  # fmt: skip
def test_another_endpoint_is_named_by_the_sdk_s_variable(
    model: str, variable: str, tmp_path: Path
) -> None:
    done = reef("run", "--suite", "memory", "--model", f"{model}@http://127.0.0.1:9/v1",
                "--out", str(tmp_path / "r"))  # fmt: skip
    assert done.returncode == 2
    assert f"set {variable}" in done.stderr and "Traceback" not in done.stderr
    help_text = "".join(reef("run", "--help").stdout.replace("│", " ").split())
    assert variable in help_text and "--computer-tool" in help_text


@pytest.mark.parametrize("server", ["anthropic"], indirect=True)
def test_the_computer_tool_version_is_a_flag(server: WireServer, tmp_path: Path) -> None:
    out = tmp_path / "run"
    keys = {"ANTHROPIC_API_KEY": FAKE_KEY, "ANTHROPIC_BASE_URL": server.base_url}
    done = reef("run", "--suite", "memory", "--task", "mem-write-note",
                "--model", "anthropic/claude-x", "--computer-use", "on",
                "--computer-tool", "computer_20251124", "--max-infra-retries", "0",
                "--no-report", "--out", str(out), extra=keys)  # fmt: skip
    assert done.returncode == 0, done.stderr
    options = json.loads((out / "run.json").read_text())["config"]["agent"]["options"]
    assert options["computer_tool"] == "computer_20251124"
    for args, message in (
        (["--model", "openai/computer-use-preview"], "is not an Anthropic model"),
        (["--model", "anthropic/claude-x", "--computer-use", "off"], "does not play through"),
        (["--model", "anthropic/claude-x", "--computer-use", "on"], "computer tool 'computer_1'"),
    ):
        tool = "computer_1" if "on" in args else "computer_20251124"
        both = {**keys, "OPENAI_API_KEY": FAKE_KEY}
        done = reef("run", "--suite", "memory", *args, "--computer-tool", tool,
                    "--out", str(tmp_path / "bad"), extra=both)  # fmt: skip
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert message in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_serve_mcp_defaults_to_the_newest_release() -> None:
    from reefbench.suites import DEFAULT_SUITE

    done = reef("serve-mcp", "--help")
    text = "".join(done.stdout.replace("│", " ").split())
    assert f"{DEFAULT_SUITE}(default;frozendata)" in text
    assert f"[default:{DEFAULT_SUITE}]" in text
