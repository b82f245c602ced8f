"""Task-set statistics: level histograms and capability counts from files and suites."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from reefbench import TaskLoadError
from reefbench.compose.stats import level_counts, stats_for_files, stats_for_tasks
from reefbench.compose.synthesis import Request, synthesize
from reefbench.suites import memory
from reefbench.suites.demo import POOL


def test_file_stats_equal_stats_of_the_built_tasks(tmp_path: Path) -> None:
    specs, _ = synthesize(POOL, 40, Request(), seed=8)
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(s.to_dict()) + "\n" for s in specs))
    from_files = stats_for_files([path], POOL)
    from_tasks = stats_for_tasks([s.build(POOL) for s in specs])
    assert from_files.tasks == from_tasks.tasks == 40
    assert from_files.levels == from_tasks.levels == level_counts(specs)
    assert from_files.capabilities == from_tasks.capabilities
    assert from_files.automation == from_tasks.automation
    assert from_files.platforms == from_tasks.platforms
    assert from_files.level_scope == from_tasks.level_scope
    assert from_files.tags == from_tasks.tags
    assert sum(from_files.levels["branch"].values()) == 40
    # checkpoints are only known once built: the fast path says so instead of guessing
    assert from_files.checkpoints == {None: 40}
    built = stats_for_files([path], POOL, full=True)
    assert built.checkpoints == from_tasks.checkpoints
    assert None not in built.checkpoints and sum(built.checkpoints.values()) == 40


def test_capability_counts_follow_the_levels() -> None:
    specs, _ = synthesize(
        POOL, 10, Request(levels={"dependency": "hard", "branch": "hard"}), seed=1
    )
    stats = stats_for_tasks([s.build(POOL) for s in specs])
    assert stats.capabilities["parallel-planning"] == 10
    assert stats.capabilities["dependency-identification"] == 10
    assert stats.capabilities["cross-domain-knowledge"] == 0


def test_suite_stats_and_stale_labels_are_not_trusted(tmp_path: Path) -> None:
    tasks = memory.load()
    stats = stats_for_tasks(tasks)
    assert stats.tasks == len(tasks)
    assert stats.platforms == Counter(t.metadata.platform for t in tasks)
    assert stats.checkpoints == Counter(len(t.nodes) for t in tasks)
    assert sum(stats.level_scope.values()) == len(tasks)
    specs, _ = synthesize(POOL, 1, Request(levels={"hierarchy": "easy"}), seed=2)
    document = specs[0].to_dict()
    document["metadata"]["complexity"]["hierarchy_level"] = "hard"  # a lie in the file
    path = tmp_path / "t.json"
    path.write_text(json.dumps(document))
    assert stats_for_files([path], POOL).levels["hierarchy"]["easy"] == 1


def test_unknown_templates_are_reported_with_their_location(tmp_path: Path) -> None:
    specs, _ = synthesize(POOL, 1, Request(), seed=2)
    document = specs[0].to_dict()
    document["subtasks"][0]["template"] = "nope"
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(document) + "\n")
    with pytest.raises(
        TaskLoadError, match=r"t.jsonl:1: subtasks\[0\].template is not in the pool"
    ):
        stats_for_files([path], POOL)
