"""Level histograms and capability counts of a task set (``reef tasks stats``).

Complexity is always recomputed from each task's subtask graph, never read from stored
labels, so a hand-edited file cannot report levels it does not have. Composed-task files
are measured straight from their template ids and links (the pool gives each template's
application category), without building evaluators, so tens of thousands of tasks take
seconds; every other task is loaded in full first.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reefbench.compose.capabilities import capabilities_for
from reefbench.compose.complexity import (
    DIMENSIONS,
    Complexity,
    level_of,
    measure,
    task_complexity,
)
from reefbench.errors import TaskLoadError
from reefbench.subtask import SubTask
from reefbench.task import Task

if TYPE_CHECKING:
    from reefbench.compose.synthesis import ComposedSpec


@dataclass(slots=True)
class TaskStats:
    """Counts over a task set."""

    tasks: int = 0
    levels: dict[str, Counter[str]] = field(
        default_factory=lambda: {d: Counter() for d in DIMENSIONS}
    )
    values: dict[str, Counter[int]] = field(
        default_factory=lambda: {d: Counter() for d in DIMENSIONS}
    )
    capabilities: Counter[str] = field(default_factory=Counter)
    automation: Counter[str] = field(default_factory=Counter)

    def add(self, complexity: Complexity, automation_level: str | None) -> None:
        self.tasks += 1
        levels = complexity.levels
        for d in DIMENSIONS:
            self.levels[d][levels[d]] += 1
            self.values[d][complexity.value(d)] += 1
        self.capabilities.update(capabilities_for(levels))
        self.automation[automation_level or "-"] += 1


def level_counts(specs: Iterable[ComposedSpec]) -> dict[str, Counter[str]]:
    """Per-dimension level histogram of synthesised tasks, from their stored values."""
    counts: dict[str, Counter[str]] = {d: Counter() for d in DIMENSIONS}
    for spec in specs:
        for d in DIMENSIONS:
            counts[d][level_of(d, int(spec.metadata["complexity"][d]))] += 1
    return counts


def stats_for_tasks(tasks: Iterable[Task]) -> TaskStats:
    stats = TaskStats()
    for task in tasks:
        stats.add(task_complexity(task), task.metadata.level)
    return stats


def stats_for_files(paths: Iterable[Path], pool: Mapping[str, SubTask] | None) -> TaskStats:
    """Stats of task files (``.json``/``.jsonl``): composed tasks are measured directly."""
    from reefbench.taskfile import task_from_dict

    stats = TaskStats()
    for where, document in _documents(paths):
        if isinstance(document, dict) and "subtasks" in document and pool is not None:
            complexity, level = _composed(document, pool, where)
            stats.add(complexity, level)
        else:
            task = task_from_dict(document, pool, where=where)
            stats.add(task_complexity(task), task.metadata.level)
    return stats


def _composed(
    document: dict[str, Any], pool: Mapping[str, SubTask], where: str
) -> tuple[Complexity, str | None]:
    subtasks = document.get("subtasks") or []
    categories = []
    for i, sub in enumerate(subtasks):
        template = pool.get(sub.get("template", "")) if isinstance(sub, dict) else None
        if template is None:
            raise TaskLoadError(f"{where}: subtasks[{i}].template is not in the pool")
        categories.append(template.app_category or template.app or template.env)
    try:
        links = [(int(u), int(v)) for u, v in document.get("links") or []]
    except (TypeError, ValueError):
        raise TaskLoadError(f"{where}: links must be pairs of subtask numbers") from None
    if any(not (0 <= x < len(subtasks)) for link in links for x in link):
        raise TaskLoadError(f"{where}: a link names a subtask number out of range")
    metadata = document.get("metadata") or {}
    level = metadata.get("level") if isinstance(metadata, dict) else None
    return measure(len(subtasks), links, categories), level


def _documents(paths: Iterable[Path]) -> Iterable[tuple[str, Any]]:
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise TaskLoadError(f"{path}: cannot read: {exc.strerror or exc}") from None
        try:
            if path.suffix == ".jsonl":
                for number, line in enumerate(text.splitlines(), 1):
                    if line.strip():
                        yield f"{path}:{number}", json.loads(line)
            else:
                data = json.loads(text)
                for i, item in enumerate(data if isinstance(data, list) else [data]):
                    yield f"{path}[{i}]", item
        except json.JSONDecodeError as exc:
            raise TaskLoadError(f"{path}: not valid JSON: {exc.msg} at line {exc.lineno}") from None
