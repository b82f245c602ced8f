"""The ``reef`` command.

User mistakes (bad flags, bad task files) print one line — what, where, how to fix — and
exit with code 2; they never show a traceback. Each command group lives in its own module
and registers itself on :data:`reefbench.cli.app.app` when imported below.
"""

from __future__ import annotations

import sys

from rich.console import Console

from reefbench.cli import (  # noqa: F401 - registers the commands
    compose,
    core,
    play,
    report,
    run,
    serve,
    services,
    suite,
    tasks,
)
from reefbench.cli.app import app
from reefbench.errors import ReefError

__all__ = ["app", "main"]


def main() -> None:
    """Entry point: click reports usage errors itself (exit 2); ReefErrors become one line."""
    try:
        app()
    except ReefError as exc:
        Console(stderr=True).print(f"[red]error:[/] {exc}", highlight=False, soft_wrap=True)
        sys.exit(2)
