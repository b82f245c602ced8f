"""``reef version`` and ``reef doctor``."""

from __future__ import annotations

from rich.table import Table

from reefbench.cli.app import app, console
from reefbench.errors import ReefError


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
