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
    path: Annotated[
        Path | None,
        typer.Argument(
            help="A run directory written by reef run; with --tasks, the dataset's directory."
        ),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("-o", "--out", help="Output .jsonl or .parquet file.")
    ] = None,
    tasks: Annotated[
        str | None,
        typer.Option(
            "--tasks", help="Export this suite's task definitions (not a run's episodes)."
        ),
    ] = None,
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format",
            help="jsonl or parquet (a run's episodes; default: --out's suffix), "
            "hf (a suite's tasks as a Hugging Face dataset: Parquet and a dataset card).",
        ),
    ] = None,
) -> None:
    """Export a run's episodes (with trajectories) as JSON lines or Parquet, or a suite's
    tasks as a Hugging Face dataset (``reef export --tasks v1 --format hf DIR``)."""
    from reefbench.errors import ConfigError

    if tasks is not None:
        if fmt not in (None, "hf"):
            raise ConfigError(f"--tasks exports a dataset: use --format hf, not {fmt!r}")
        target = out or path
        if target is None:
            raise ConfigError("--tasks needs the dataset's directory: reef export --tasks v1 DIR")
        from reefbench.suites.dataset import export_tasks

        done = export_tasks(tasks, target)
        console.print(f"{done.rows} tasks of {done.suite} -> {done.directory}")
        return
    if fmt == "hf":
        raise ConfigError("--format hf exports a suite's tasks: add --tasks SUITE")
    if path is None or out is None:
        raise ConfigError("give a run directory and an output file: reef export RUN -o OUT.jsonl")
    if fmt is not None and out.suffix != f".{fmt}":
        raise ConfigError(
            f"--format {fmt} but {out} ends in {out.suffix or 'nothing'}: make them agree"
        )
    from reefbench.report.export import export as write

    count = write(path, out)
    console.print(f"{count} episodes -> {out}")


@app.command()
def view(
    run_dirs: Annotated[list[Path], typer.Argument(help="Run directories to browse.")],
    port: Annotated[int, typer.Option(help="Port on 127.0.0.1 (0 picks a free one).")] = 8766,
) -> None:
    """Serve the trajectory viewer on loopback; the printed URL carries the access token."""
    from reefbench.plumbing.net import ServedApp
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
