"""The ``reef`` command.

User mistakes (bad flags, bad task files) print one line — what, where, how to fix — and
exit with code 2; they never show a traceback.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from reefbench.errors import ReefError
from reefbench.subtask import SubTask

app = typer.Typer(
    name="reef",
    help="Benchmark multimodal-LLM agents on real desktop, browser and phone environments.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
tasks_app = typer.Typer(help="Inspect and validate task files.", no_args_is_help=True)
app.add_typer(tasks_app, name="tasks")
# Wide enough for the metrics table when output goes to a file or CI log.
console = Console(width=None if sys.stdout.isatty() else 160)
AGENTS = ("oracle", "null")


@app.command()
def version() -> None:
    """Print the reefbench version."""
    from reefbench import __version__

    console.print(f"reefbench {__version__}")


@app.command()
def doctor() -> None:
    """Check system dependencies and say what to install."""
    from reefbench.doctor import run_checks

    checks = run_checks()
    table = Table(title="reef doctor")
    for column in ("check", "status", "detail", "needed by", "to fix"):
        table.add_column(column)
    for c in checks:
        status = (
            "[green]ok[/]" if c.ok else ("[red]missing[/]" if c.required else "[yellow]missing[/]")
        )
        table.add_row(c.name, status, c.detail, c.needed_by, "" if c.ok else c.fix)
    console.print(table)
    if any(c.required and not c.ok for c in checks):
        raise ReefError("required dependencies are missing: install them as the table says")


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
    from reefbench.taskfile import load_tasks

    subtasks = _load_pool(pool) if pool else None
    for path in files:
        tasks = load_tasks(path, subtasks)
        console.print(f"{path}: {len(tasks)} task(s) valid")


@tasks_app.command("list")
def tasks_list(suite: Annotated[str, typer.Option(help="Built-in suite.")] = "memory") -> None:
    """List the tasks of a built-in suite."""
    from reefbench.suites import get_suite

    table = Table(title=f"suite {suite}")
    for column in ("id", "platform", "nodes", "level", "instruction"):
        table.add_column(column)
    for task in get_suite(suite).load():
        table.add_row(
            task.id,
            task.metadata.platform,
            str(len(task.nodes)),
            task.metadata.level or "",
            task.instruction,
        )
    console.print(table)


@app.command()
def run(
    suite: Annotated[str, typer.Option(help="Built-in suite to run.")] = "memory",
    agent: Annotated[str, typer.Option(help=f"Built-in agent: {', '.join(AGENTS)}.")] = "oracle",
    out: Annotated[
        Path | None, typer.Option(help="Results directory (default runs/<time>).")
    ] = None,
) -> None:
    """Run a suite with an agent and print the metrics table."""
    from reefbench.agents import NullAgent, OracleAgent
    from reefbench.episode import EpisodeResult
    from reefbench.metrics import summarize
    from reefbench.report import summary_table
    from reefbench.runner import run_suite
    from reefbench.suites import get_suite

    agents = {"oracle": OracleAgent, "null": NullAgent}
    if agent not in agents:
        raise ReefError(f"--agent {agent!r}: unknown agent; choose one of {', '.join(AGENTS)}")
    chosen = get_suite(suite)
    tasks = chosen.load()
    out_dir = out or Path("runs") / datetime.now(UTC).strftime("%Y%m%d-%H%M%S")

    def show(r: EpisodeResult) -> None:
        mark = "[green]✓[/]" if r.success else "[red]✗[/]"
        console.print(
            f"{mark} {r.task_id:<28} {r.termination:<17} "
            f"CR={r.completion_ratio:.2f} actions={r.actions}"
        )

    results = run_suite(chosen, agents[agent], tasks=tasks, out_dir=out_dir, on_result=show)
    summary = summarize(results, {t.id: t for t in tasks})
    console.print(summary_table({f"{agent} on {suite}": summary}, title="reefbench results"))
    console.print(f"results: {out_dir / 'results.jsonl'}")


def _load_pool(ref: str) -> dict[str, SubTask]:
    import importlib

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


def main() -> None:
    """Entry point: click reports usage errors itself (exit 2); ReefErrors become one line."""
    try:
        app()
    except ReefError as exc:
        Console(stderr=True).print(f"[red]error:[/] {exc}", highlight=False, soft_wrap=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
