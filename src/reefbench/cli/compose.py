"""``reef compose``, ``reef pool lint``, ``reef tasks stats`` and ``reef tasks show``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from reefbench.cli.app import app, console, tasks_app
from reefbench.errors import ConfigError, ReefError

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from reefbench.actions.spec import ActionCall
    from reefbench.compose.stats import TaskStats
    from reefbench.compose.synthesis import SynthesisReport
    from reefbench.tasks.subtask import SubTask
    from reefbench.tasks.task import Task

pool_app = typer.Typer(help="Check subtask pools.", no_args_is_help=True)
app.add_typer(pool_app, name="pool")

_LEVEL = "Required level: easy, medium or hard (OmniBench Table 2)."
PoolOption = Annotated[
    str | None,
    typer.Option(help="Subtask pool as 'package.module:NAME' or 'file.py:NAME'."),
]


@app.command("compose")
def compose(
    pool: Annotated[
        str, typer.Option(help="Subtask pool as 'package.module:NAME' or 'file.py:NAME'.")
    ],
    n: Annotated[int, typer.Option("--n", "-n", help="Number of tasks to make.")] = 10,
    dependency: Annotated[str | None, typer.Option(help=_LEVEL)] = None,
    instruction: Annotated[str | None, typer.Option(help=_LEVEL)] = None,
    knowledge: Annotated[str | None, typer.Option(help=_LEVEL)] = None,
    hierarchy: Annotated[str | None, typer.Option(help=_LEVEL)] = None,
    branch: Annotated[str | None, typer.Option(help=_LEVEL)] = None,
    capability: Annotated[
        list[str] | None,
        typer.Option(help="Make test tasks for a capability (OmniBench Table 12); repeatable."),
    ] = None,
    intent: Annotated[
        list[str] | None, typer.Option(help="Only these intents (repeatable); default: all.")
    ] = None,
    seed: Annotated[int, typer.Option(help="Random seed: same seed, same tasks.")] = 0,
    max_subtasks: Annotated[int, typer.Option(help="Most subtasks in one task.")] = 10,
    style: Annotated[
        str, typer.Option(help="prose (structured text) or steps (OS-MAP L1: actions).")
    ] = "prose",
    missing_detail: Annotated[
        bool,
        typer.Option(
            "--missing-detail",
            help="OS-MAP L3: hide one value; the agent must ask the user (call_user) for it.",
        ),
    ] = False,
    prefix: Annotated[str, typer.Option(help="Task id prefix.")] = "task",
    out: Annotated[Path, typer.Option("--out", "-o", help="Output .jsonl file.")] = Path(
        "tasks.jsonl"
    ),
) -> None:
    """Synthesise distinct composed tasks at the requested complexity levels."""
    from reefbench.compose.pool import load_pool
    from reefbench.compose.synthesis import Request, Synthesizer

    if style not in ("prose", "steps"):
        raise ConfigError(f"--style {style!r}: use 'prose' or 'steps'")
    if n < 1:
        raise ConfigError(f"--n {n}: make at least one task")
    if out.suffix != ".jsonl":
        raise ConfigError(f"--out {out}: write tasks to a .jsonl file")
    given = {
        "dependency": dependency,
        "instruction": instruction,
        "knowledge": knowledge,
        "hierarchy": hierarchy,
        "branch": branch,
    }
    levels = _requested_levels(given, capability or [])
    subtasks = load_pool(pool)
    request = Request(
        levels=levels,
        intents=tuple(intent or ()),
        max_subtasks=max_subtasks,
        style="steps" if style == "steps" else "prose",
        missing_detail=missing_detail,
        id_prefix=prefix,
    )
    synthesizer = Synthesizer(subtasks, request, seed)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as handle:
        for spec in synthesizer.run(n):
            handle.write(json.dumps(spec.to_dict(), ensure_ascii=False) + "\n")
    _print_made_levels(synthesizer.report, out)
    if not synthesizer.report.complete:
        console.print(f"[yellow]{synthesizer.report.summary()}[/]", highlight=False)
        raise typer.Exit(1)


def _requested_levels(given: dict[str, str | None], capabilities: list[str]) -> dict[str, str]:
    """The complexity level asked for per dimension: the level flags given (each checked:
    an unknown dimension or level fails in one line), then the levels the ``--capability``
    flags need; a flag that contradicts a capability fails rather than one of them being
    silently dropped."""
    from reefbench.compose.capabilities import constraints_for
    from reefbench.compose.complexity import level_range

    levels: dict[str, str] = {}
    for dimension, level in given.items():
        if level is not None:
            level_range(dimension, level)
            levels[dimension] = level.lower()
    for dimension, level in constraints_for(capabilities).items():
        if levels.get(dimension, level) != level:
            raise ConfigError(
                f"--{dimension} {levels[dimension]} conflicts with --capability, "
                f"which needs {dimension} {level}"
            )
        levels[dimension] = level
    return levels


def _print_made_levels(report: SynthesisReport, out: Path) -> None:
    """A table of how many tasks were made at each level of each dimension."""
    from reefbench.compose.complexity import DIMENSIONS, LEVELS

    table = Table(title=f"{report.made} task(s) written to {out}")
    table.add_column("dimension")
    for level in LEVELS:
        table.add_column(level, justify="right")
    for dimension in DIMENSIONS:
        table.add_row(dimension, *(str(report.made_levels[dimension][lv]) for lv in LEVELS))
    console.print(table)


@pool_app.command("lint")
def pool_lint(
    pools: Annotated[list[str], typer.Argument(help="Pools as 'module:NAME' or 'file.py:NAME'.")],
) -> None:
    """Check templates: placeholders, types, inputs, value pools, and that generators run."""
    from reefbench.compose.lint import lint_reference

    errors = 0
    for ref in pools:
        problems = lint_reference(ref)
        for problem in problems:
            style = "red" if problem.severity == "error" else "yellow"
            console.print(f"[{style}]{problem}[/]", highlight=False, soft_wrap=True)
        bad = sum(p.severity == "error" for p in problems)
        errors += bad
        console.print(f"{ref}: {bad} error(s), {len(problems) - bad} warning(s)", highlight=False)
    if errors:
        raise typer.Exit(2)


@tasks_app.command("stats")
def tasks_stats(
    files: Annotated[
        list[Path] | None, typer.Argument(help="Task files (.json/.jsonl); default: --suite.")
    ] = None,
    pool: PoolOption = None,
    suite: Annotated[str, typer.Option(help="Built-in suite when no files are given.")] = "v1",
    full: Annotated[
        bool,
        typer.Option(
            "--full", help="Build composed tasks from files too, to count their checkpoints."
        ),
    ] = False,
) -> None:
    """What a task set holds: platforms, checkpoints, OS-MAP level x scope, OmniBench
    complexity level histograms (Table 2) and capability counts (Table 12)."""
    from reefbench.compose.pool import load_pool
    from reefbench.compose.stats import stats_for_files, stats_for_tasks
    from reefbench.suites import get_suite

    subtasks = load_pool(pool) if pool else None
    if files:
        stats = stats_for_files(files, subtasks, full=full)
        source = ", ".join(str(f) for f in files)
    else:
        stats = stats_for_tasks(get_suite(suite).load())
        source = f"suite {suite}"
    _print_stats(stats, source)


def _print_stats(stats: TaskStats, source: str) -> None:
    from reefbench.compose.capabilities import CAPABILITIES
    from reefbench.compose.complexity import DIMENSIONS, LEVELS

    console.print(f"{stats.tasks} task(s) in {source}", highlight=False)
    platforms = Table(title="tasks per platform")
    platforms.add_column("platform")
    platforms.add_column("tasks", justify="right")
    for name, count in sorted(stats.platforms.items()):
        platforms.add_row(name, str(count))
    console.print(platforms)
    built = sorted((k, v) for k, v in stats.checkpoints.items() if k is not None)
    histogram = Table(title="checkpoints per task")
    histogram.add_column("checkpoints", justify="right")
    histogram.add_column("tasks", justify="right")
    histogram.add_column("")
    widest = max((v for _, v in built), default=1)
    for nodes, count in built:
        histogram.add_row(str(nodes), str(count), "#" * max(1, round(30 * count / widest)))
    if stats.checkpoints[None]:
        histogram.add_row("not built", str(stats.checkpoints[None]), "(use --full)")
    console.print(histogram)
    scopes = sorted({scope for _, scope in stats.level_scope})
    matrix = Table(title="OS-MAP level x scope")
    matrix.add_column("level")
    for scope in scopes:
        matrix.add_column(scope, justify="right")
    for level in sorted({level for level, _ in stats.level_scope}):
        matrix.add_row(level, *(str(stats.level_scope[(level, s)]) for s in scopes))
    console.print(matrix)
    levels = Table(title="complexity levels (OmniBench)")
    levels.add_column("dimension")
    for level in LEVELS:
        levels.add_column(level, justify="right")
    levels.add_column("values (value: count)")
    for d in DIMENSIONS:
        values = " ".join(f"{v}:{c}" for v, c in sorted(stats.values[d].items()))
        levels.add_row(d, *(str(stats.levels[d][lv]) for lv in LEVELS), values)
    console.print(levels)
    capabilities = Table(title="capability test sets (all starred dimensions hard)")
    for column in ("capability", "abbr.", "hard on", "tasks"):
        capabilities.add_column(column, justify="right" if column == "tasks" else "left")
    for c in CAPABILITIES:
        capabilities.add_row(
            c.name, c.abbreviation, ", ".join(c.hard), str(stats.capabilities[c.id])
        )
    console.print(capabilities)
    if stats.tags:
        tags = ", ".join(f"{tag} {count}" for tag, count in sorted(stats.tags.items()))
        console.print(f"tags: {tags}", highlight=False)


@tasks_app.command("show")
def tasks_show(
    task_id: Annotated[str, typer.Argument(help="Task id.")],
    file: Annotated[
        list[Path] | None, typer.Option("--file", "-f", help="Task file(s) to look in.")
    ] = None,
    pool: PoolOption = None,
    suite: Annotated[str, typer.Option(help="Built-in suite when no file is given.")] = "v1",
    png: Annotated[Path | None, typer.Option(help="Draw the task graph into this PNG.")] = None,
) -> None:
    """Show one task: instruction, subtasks, complexity, its reference and alternative
    solutions and the near misses of its templates (what a wrong agent would do, which the
    gates prove fail); optionally draw its graph."""
    from reefbench.compose.complexity import subtask_graph, task_complexity
    from reefbench.compose.pool import load_pool
    from reefbench.compose.topo import count_topological_orders

    subtasks = load_pool(pool) if pool else None
    task = _find_task(task_id, file, subtasks, suite)
    console.print(
        f"[bold]{task.id}[/]  ({task.metadata.platform}, level {task.metadata.level or '-'})"
    )
    console.print(task.instruction, highlight=False, soft_wrap=True)
    complexity = task_complexity(task)
    ids, edges, _ = subtask_graph(task)
    console.print(
        "complexity: "
        + ", ".join(f"{d} {complexity.value(d)} ({lv})" for d, lv in complexity.levels.items())
        + f"; topological orders: {count_topological_orders(len(ids), edges)}",
        highlight=False,
    )
    if task.metadata.subtasks:
        table = Table(title="subtasks")
        for column in ("id", "template", "app", "category", "needs", "checkpoints"):
            table.add_column(column)
        needs: dict[str, list[str]] = {}
        for u, v in task.metadata.subtask_links:
            needs.setdefault(v, []).append(u)
        for info in task.metadata.subtasks:
            table.add_row(
                info.id,
                info.template,
                info.app,
                info.app_category,
                ", ".join(needs.get(info.id, [])),
                str(len(info.nodes)),
            )
        console.print(table)
    _print_solutions(task, subtasks if subtasks is not None else _pool_of(suite))
    if png is not None:
        from reefbench.compose.draw import draw_task

        console.print(f"graph drawn to {draw_task(task, png)}")


def _pool_of(suite: str) -> Mapping[str, SubTask] | None:
    from reefbench.suites import get_suite

    chosen = get_suite(suite)
    return chosen.pool() if chosen.pool is not None else None


def _calls(calls: Sequence[ActionCall]) -> str:
    """Calls as a person reads them: ``phone.tap_on(name='Send'); root.wait()``."""
    return "; ".join(
        f"{c.env}.{c.name}({', '.join(f'{k}={v!r}' for k, v in c.arguments.items())})"
        for c in calls
    )


def _print_solutions(task: Task, pool: Mapping[str, SubTask] | None) -> None:
    reference = _calls(task.reference_solution)
    console.print(f"[bold]reference solution[/]: {reference}", highlight=False)
    for k, alternative in enumerate(task.alternative_solutions):
        console.print(f"[bold]alternative {k}[/]: {_calls(alternative)}", highlight=False)
    table = Table(title="near misses (each must fail its subtask's checkpoints)")
    for column in ("subtask", "template", "near miss", "what it does"):
        table.add_column(column)
    for info in task.metadata.subtasks:
        template = pool.get(info.template) if pool is not None else None
        for near in template.near_misses if template is not None else []:
            calls = template.near_miss_calls(near, info.attributes)  # type: ignore[union-attr]
            table.add_row(info.id, info.template, near.label, _calls(calls))
    if table.row_count:
        console.print(table)
    else:
        console.print("near misses: none (its templates ship none, or it has no subtasks)")


def _find_task(
    task_id: str, files: list[Path] | None, pool: dict[str, SubTask] | None, suite: str
) -> Task:
    from reefbench.suites import get_suite
    from reefbench.tasks.taskfile import load_tasks

    tasks: list[Task] = []
    if files:
        for path in files:
            tasks.extend(load_tasks(path, pool))
    else:
        tasks = get_suite(suite).load()
    for task in tasks:
        if task.id == task_id:
            return task
    sample = ", ".join(t.id for t in tasks[:5])
    raise ReefError(f"no task '{task_id}' (there are {len(tasks)}, e.g. {sample})")
