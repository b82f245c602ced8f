"""bench/suite_difficulty.py's per-family and per-tier counts (reef-v2's labels)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from reefbench import Task, TaskMetadata, evaluator

BENCH = Path(__file__).parents[2] / "bench" / "suite_difficulty.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("suite_difficulty", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["suite_difficulty"] = module
    spec.loader.exec_module(module)
    return module


@evaluator
def flag(name: str) -> bool:
    """Never evaluated."""
    return False


def task(task_id: str, *tags: str) -> Task:
    return Task(
        id=task_id,
        instruction="x",
        nodes={"a": flag(name="a")},
        metadata=TaskMetadata(tags=list(tags)),
    )


def test_counts_per_family_and_every_tier(bench: ModuleType) -> None:
    tasks = [
        task("a", "family:office", "tier:easy"),
        task("b", "family:office", "tier:easy"),
        task("c", "family:infeasible", "tier:hard"),
    ]
    lines = bench.labelled_counts(tasks)
    assert {"metric": "family_tasks", "family": "office", "value": 2, "unit": "tasks"} in lines
    assert {"metric": "family_tasks", "family": "infeasible", "value": 1, "unit": "tasks"} in lines
    tiers = {line["tier"]: line["value"] for line in lines if line["metric"] == "tier_tasks"}
    assert tiers == {"easy": 2, "medium": 0, "hard": 1}
    assert bench.labelled_counts([task("plain")]) == []


def test_v2_dev_prints_one_json_line_per_family_and_tier() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCH), "--suite", "v2-dev"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    lines = [json.loads(line) for line in out.splitlines()]
    assert all({"metric", "value", "unit"} <= set(line) for line in lines)
    families = {line["family"]: line["value"] for line in lines if line["metric"] == "family_tasks"}
    tiers = {line["tier"]: line["value"] for line in lines if line["metric"] == "tier_tasks"}
    assert families["infeasible"] > 0 and set(tiers) >= {"easy", "medium", "hard"}
    total = next(line["value"] for line in lines if line["metric"] == "tasks")
    assert sum(families.values()) == total == sum(tiers.values())
