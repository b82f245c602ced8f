"""``reef run``: run a suite with an agent and print the metrics table."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer

from reefbench.cli.app import app, console
from reefbench.errors import ReefError

AGENTS = ("oracle", "null")


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
