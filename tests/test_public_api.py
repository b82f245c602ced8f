"""The curated public surface: what a user reaches from ``import reefbench`` (issue 32,
item 6), loaded lazily so that importing the package stays light."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import reefbench
from reefbench.errors import ConfigError

LAZY = ("get_suite", "load_run", "make_environment", "RunConfig", "run_suite")


def test_every_exported_name_resolves() -> None:
    missing = [name for name in reefbench.__all__ if not hasattr(reefbench, name)]
    assert missing == []
    assert set(LAZY) <= set(reefbench.__all__) and set(LAZY) <= set(dir(reefbench))


def test_the_lazy_names_load_nothing_until_used() -> None:
    probe = (
        "import sys, json, reefbench\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('reefbench.'))))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    loaded = set(json.loads(out))
    for module in ("reefbench.runner.launch", "reefbench.envs.registry", "reefbench.log.run"):
        assert module not in loaded


def test_a_suite_runs_and_reads_back_from_python(tmp_path: Path) -> None:
    run = reefbench.run_suite(
        {"suite": "memory", "agent": {"name": "oracle"}, "tasks": ["mem-write-note"]},
        tmp_path / "run",
    )
    assert [r.task_id for r in run.results] == ["mem-write-note"]
    assert run.results[0].success and run.manifest.suite_name == "memory"
    again = reefbench.load_run(str(tmp_path / "run"))  # a path as text, as users type it
    assert [r.task_id for r in again.results] == ["mem-write-note"]
    suite = reefbench.get_suite("memory")
    assert "mem-write-note" in {t.id for t in suite.load()}


def test_a_bad_configuration_is_one_line() -> None:
    with pytest.raises(ConfigError, match=r"^run configuration: .*") as caught:
        reefbench.run_suite({"suite": "memory", "wokers": 2}, "unused")
    assert "\n" not in str(caught.value)
