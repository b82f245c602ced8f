"""What a task set holds (``reef tasks stats``): platforms, checkpoint counts, OS-MAP
level x scope, OmniBench level histograms and capability counts.

Complexity is always recomputed from each task's subtask graph, never read from stored
labels, so a hand-edited file cannot report levels it does not have. Composed-task files
are measured straight from their template ids and links (the pool gives each template's
application category), without building evaluators, so tens of thousands of tasks take
seconds; every other task is loaded in full first. Such a task's checkpoints are only
known once its evaluators are built, so they are counted as "not built" unless the caller
asks for ``full`` loading.
"""

from __future__ import annotations

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
from reefbench.plumbing.userfiles import TOO_DEEP, json_documents
from reefbench.tasks.subtask import SubTask
from reefbench.tasks.task import Task, TaskMetadata

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
    platforms: Counter[str] = field(default_factory=Counter)
    #: checkpoints per task -> tasks; ``None`` counts composed tasks measured unbuilt
    checkpoints: Counter[int | None] = field(default_factory=Counter)
    #: (OS-MAP automation level, generalisation scope) -> tasks; "-" where unlabelled
    level_scope: Counter[tuple[str, str]] = field(default_factory=Counter)
    tags: Counter[str] = field(default_factory=Counter)

    def add(
        self,
        complexity: Complexity,
        automation_level: str | None,
        *,
        platform: str = "none",
        scope: str | None = None,
        checkpoints: int | None = None,
        tags: Iterable[str] = (),
    ) -> None:
        self.tasks += 1
        levels = complexity.levels
        for d in DIMENSIONS:
            self.levels[d][levels[d]] += 1
            self.values[d][complexity.value(d)] += 1
        self.capabilities.update(capabilities_for(levels))
        self.automation[automation_level or "-"] += 1
        self.platforms[platform] += 1
        self.checkpoints[checkpoints] += 1
        self.level_scope[(automation_level or "-", scope or "-")] += 1
        self.tags.update(tags)

    def add_task(self, task: Task) -> None:
        """Count a built task (every label comes from the task itself)."""
        meta = task.metadata
        self.add(
            task_complexity(task),
            meta.level,
            platform=meta.platform,
            scope=meta.scope,
            checkpoints=len(task.nodes),
            tags=meta.tags,
        )


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
        stats.add_task(task)
    return stats


def stats_for_files(
    paths: Iterable[Path], pool: Mapping[str, SubTask] | None, *, full: bool = False
) -> TaskStats:
    """Stats of task files (``.json``/``.jsonl``).

    Composed tasks are measured from their templates unless ``full`` is set, in which case
    every task is built (slower, but counts checkpoints too).
    """
    from reefbench.tasks.taskfile import task_from_dict

    stats = TaskStats()
    for where, document in _documents(paths):
        if not full and isinstance(document, dict) and "subtasks" in document and pool:
            _add_composed(stats, document, pool, where)
        else:
            try:
                stats.add_task(task_from_dict(document, pool, where=where))
            except RecursionError:
                raise TaskLoadError(f"{where}: {TOO_DEEP}") from None
    return stats


def _add_composed(
    stats: TaskStats, document: dict[str, Any], pool: Mapping[str, SubTask], where: str
) -> None:
    subtasks = document.get("subtasks") or []
    categories = []
    environments = set()
    for i, sub in enumerate(subtasks):
        template = pool.get(sub.get("template", "")) if isinstance(sub, dict) else None
        if template is None:
            raise TaskLoadError(f"{where}: subtasks[{i}].template is not in the pool")
        categories.append(template.app_category or template.app or template.env)
        environments.add(template.env)
    try:
        links = [(int(u), int(v)) for u, v in document.get("links") or []]
    except (TypeError, ValueError):
        raise TaskLoadError(f"{where}: links must be pairs of subtask numbers") from None
    if any(not (0 <= x < len(subtasks)) for link in links for x in link):
        raise TaskLoadError(f"{where}: a link names a subtask number out of range")
    metadata = document.get("metadata")
    labels = metadata if isinstance(metadata, dict) else {}
    stats.add(
        measure(len(subtasks), links, categories),
        labels.get("level"),
        platform=TaskMetadata(environments=sorted(environments)).platform,
        scope=labels.get("scope"),
        tags=[str(t) for t in labels.get("tags") or []],
    )


def _documents(paths: Iterable[Path]) -> Iterable[tuple[str, Any]]:
    for path in paths:
        yield from json_documents(path, TaskLoadError)
