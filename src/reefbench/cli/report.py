"""``reef report`` and ``reef view``."""

from __future__ import annotations

import secrets
import signal
from pathlib import Path
from typing import Annotated

import typer

from reefbench.cli.app import app, console


@app.command()
def report(
    run_dirs: Annotated[list[Path], typer.Argument(help="Run directories written by reef run.")],
    out: Annotated[
        Path | None, typer.Option(help="Output directory (default: the first run's report/).")
    ] = None,
) -> None:
    """Write an HTML report (plus report.json and summary.csv) for one or more runs."""
    from reefbench.report.html import write_report
    from reefbench.report.loading import load_run

    runs = [load_run(path) for path in run_dirs]
    html = write_report(runs, out or run_dirs[0] / "report")
    console.print(f"report: {html}")


@app.command()
def export(
    run_dir: Annotated[Path, typer.Argument(help="Run directory written by reef run.")],
    out: Annotated[Path, typer.Option("-o", "--out", help="Output .jsonl or .parquet file.")],
) -> None:
    """Export a run's episodes (with trajectories) as JSON lines or Parquet."""
    from reefbench.report.export import export as write

    count = write(run_dir, out)
    console.print(f"{count} episodes -> {out}")


@app.command()
def view(
    run_dirs: Annotated[list[Path], typer.Argument(help="Run directories to browse.")],
    port: Annotated[int, typer.Option(help="Port on 127.0.0.1 (0 picks a free one).")] = 8766,
) -> None:
    """Serve the trajectory viewer on loopback; the printed URL carries the access token."""
    from reefbench.net import ServedApp
    from reefbench.report.viewer import create_viewer

    token = secrets.token_urlsafe(24)
    stop_signals = {signal.SIGINT, signal.SIGTERM}
    signal.pthread_sigmask(signal.SIG_BLOCK, stop_signals)
    served = ServedApp(create_viewer(run_dirs, token), "127.0.0.1", port)
    console.print(f"{served.url}/?token={token}", highlight=False, soft_wrap=True)
    console.file.flush()
    try:
        signal.sigwait(stop_signals)
    finally:
        served.stop()
