"""``reef version`` and ``reef doctor``."""

from __future__ import annotations

import sys
from typing import Annotated

import typer
from rich.table import Table

from reefbench.cli.app import app, console
from reefbench.errors import ReefError


@app.command()
def version() -> None:
    """Print the reefbench version."""
    from reefbench import __version__

    console.print(f"reefbench {__version__}")


@app.command()
def doctor(
    system_packages: Annotated[
        bool,
        typer.Option(
            "--system-packages",
            help="Print system-packages.txt as the set-up installs it (from the one table "
            "in reefbench/host/system_packages.py) instead of checking.",
        ),
    ] = False,
) -> None:
    """Check system dependencies and say what to install."""
    from reefbench.host.doctor import run_checks

    if system_packages:
        from reefbench.host.system_packages import packages_file_text

        sys.stdout.write(packages_file_text())
        return
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
