"""``reef play``: play a task yourself in a web page on loopback; stored as the agent
``human``, so ``reef report`` gives a human baseline and ``reef export`` demonstrations."""

from __future__ import annotations

import secrets
import signal
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer

from reefbench.cli.app import app, console
from reefbench.errors import ReefError
from reefbench.suites import DEFAULT_SUITE

_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


@app.command("play")
def play(
    task: Annotated[str, typer.Option(help="The task to play (its exact id).")],
    suite: Annotated[
        str, typer.Option(help="Built-in suite: v1 (default; frozen data), v0 or memory.")
    ] = DEFAULT_SUITE,
    out: Annotated[
        Path | None, typer.Option(help="Run directory for the result (default runs/play-<time>).")
    ] = None,
    author: Annotated[
        bool,
        typer.Option(
            "--author",
            help="Also show the checkpoints live, the reference solution and the near misses "
            "(playable step by step).",
        ),
    ] = False,
    port: Annotated[int, typer.Option(help="Port on 127.0.0.1 (0 picks a free one).")] = 8767,
    step_limit: Annotated[
        int | None, typer.Option(min=1, help="Override the task's step limit (actions).")
    ] = None,
) -> None:
    """Serve a page where you play one task: the instruction, a live view of every device,
    your clicks, drags, scrolls and typing played as the devices' coordinate actions.

    The printed URL carries the access token. The episode is stored in --out like any run
    (agent 'human'); stop with Ctrl+C (an unfinished episode is stored as aborted).
    """
    from reefbench.play.session import PlaySession
    from reefbench.plumbing.net import ServedApp

    run_dir = out or Path("runs") / datetime.now(UTC).strftime("play-%Y%m%d-%H%M%S")
    token = secrets.token_urlsafe(24)
    signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)  # the server thread inherits this
    session = PlaySession(suite, task, run_dir, author=author, step_limit=step_limit)
    try:
        console.print(f"starting the devices of {session.task.id} ...", highlight=False)
        console.file.flush()
        session.start()
        from reefbench.play.server import create_app

        try:
            served = ServedApp(create_app(session, token), "127.0.0.1", port)
        except OSError as exc:
            raise ReefError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}") from None
        console.print(f"{served.url}/?token={token}", highlight=False, soft_wrap=True)
        console.print(f"run={run_dir}", highlight=False)
        console.file.flush()
        try:
            signal.sigwait(_STOP_SIGNALS)
        finally:
            served.stop()
    finally:
        session.close()
