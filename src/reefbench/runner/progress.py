"""Live progress of a run in the terminal: counts, ETA and running metrics (rich)."""

from __future__ import annotations

from statistics import fmean
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from reefbench.runner.engine import Progress as RunProgress


class LiveProgress:
    """A rich progress bar whose description carries SR, CR and failure counts."""

    def __init__(self, console: Console, total: int, label: str) -> None:
        self._bar = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[metrics]}"),
            TimeElapsedColumn(),
            TextColumn("eta"),
            TimeRemainingColumn(),
            console=console,
            transient=False,
        )
        self._task = self._bar.add_task(label, total=total, metrics="")

    def __enter__(self) -> LiveProgress:
        self._bar.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._bar.stop()

    def set_total(self, total: int) -> None:
        self._bar.update(self._task, total=total)

    def update(self, progress: RunProgress) -> None:
        results = progress.results
        infra = sum(1 for r in results if r.infrastructure_failure)
        metrics = (
            f"SR {100 * fmean(1.0 if r.success else 0.0 for r in results):.1f}% "
            f"CR {100 * fmean(r.completion_ratio for r in results):.1f}% "
            f"infra {infra} retried {progress.retried}"
            if results
            else ""
        )
        self._bar.update(self._task, completed=progress.done, metrics=metrics)
