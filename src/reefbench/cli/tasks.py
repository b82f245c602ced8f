"""``reef tasks ...``: validate and list tasks."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from reefbench.cli.app import console, tasks_app
from reefbench.errors import ReefError
from reefbench.tasks.subtask import SubTask


@tasks_app.command("validate")
def tasks_validate(
    files: Annotated[list[Path], typer.Argument(help="Task files (.json or .jsonl).")],
    pool: Annotated[
        str | None,
        typer.Option(
            help="Subtask pool for composed tasks, as 'module:NAME' (a dict id -> SubTask)."
        ),
    ] = None,
) -> None:
    """Load task files and report the first problem precisely."""
    from reefbench.tasks.taskfile import load_tasks

    subtasks = _load_pool(pool) if pool else None
    for path in files:
        tasks = load_tasks(path, subtasks)
        console.print(f"{path}: {len(tasks)} task(s) valid")


@tasks_app.command("list")
def tasks_list(suite: Annotated[str, typer.Option(help="Built-in suite.")] = "v1") -> None:
    """List the tasks of a built-in suite."""
    from reefbench.suites import get_suite

    tasks = get_suite(suite).load()
    # Family and tier columns only for a suite whose tasks carry them (reef-v2).
    families = any(t.metadata.family for t in tasks)
    tiers = any(t.metadata.tier for t in tasks)
    table = Table(title=f"suite {suite}")
    columns = ["id", "platform", "nodes", "level"]
    columns += ["family"] if families else []
    columns += ["tier"] if tiers else []
    for column in (*columns, "instruction"):
        table.add_column(column)
    for task in tasks:
        labels = [task.metadata.family or ""] if families else []
        labels += [task.metadata.tier or ""] if tiers else []
        table.add_row(
            task.id,
            task.metadata.platform,
            str(len(task.nodes)),
            task.metadata.level or "",
            *labels,
            task.instruction,
        )
    console.print(table)


def _load_pool(ref: str) -> dict[str, SubTask]:
    module_name, _, attr = ref.partition(":")
    if not module_name or not attr:
        raise ReefError(f"--pool {ref!r}: use the form 'package.module:NAME'")
    try:
        pool = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise ReefError(f"--pool {ref!r}: cannot load it ({exc})") from None
    if not isinstance(pool, dict) or not all(isinstance(v, SubTask) for v in pool.values()):
        raise ReefError(f"--pool {ref!r}: expected a dict of subtask id -> SubTask")
    return pool
