"""Shared objects of the ``reef`` command: the typer app, its groups and the console.

Command modules (``reefbench.cli.*``) import these and register their commands; keeping
them here lets each command group live in its own module without import cycles.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer
from rich.console import Console

app = typer.Typer(
    name="reef",
    help="Benchmark multimodal-LLM agents on real desktop, browser and phone environments.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def trust(
    allow_module: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-module",
            help="A package you trust to define the actions/evaluators that task files name "
            "(repeatable; also REEF_ACTION_MODULES=a,b). reefbench's own are always allowed.",
        ),
    ] = None,
) -> None:
    """Benchmark multimodal-LLM agents on real desktop, browser and phone environments."""
    if allow_module:
        from reefbench.actions.refs import allow_action_modules

        allow_action_modules(allow_module)


tasks_app = typer.Typer(help="Inspect and validate task files.", no_args_is_help=True)
app.add_typer(tasks_app, name="tasks")

# Wide enough for the metrics table when output goes to a file or CI log.
console = Console(width=None if sys.stdout.isatty() else 160)
