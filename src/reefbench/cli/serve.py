"""``reef serve-env`` (one environment behind the authenticated JSON API) and ``reef
serve-mcp`` (one episode as an MCP server): loopback by default, a token always."""

from __future__ import annotations

import os
import secrets
import signal
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer

from reefbench.cli.app import app, console
from reefbench.errors import ReefError
from reefbench.suites import DEFAULT_SUITE

if TYPE_CHECKING:
    from reefbench.runner.served_episode import ServedEpisode

TOKEN_VARIABLE = "REEF_ENV_TOKEN"
MCP_TOKEN_VARIABLE = "REEF_MCP_TOKEN"
_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def _token(variable: str) -> tuple[str, bool]:
    """The token from ``variable``, or a new one; and whether it was generated (then the
    command prints it)."""
    token = os.environ.get(variable)
    return token or secrets.token_urlsafe(24), token is None


@app.command("serve-env")
def serve_env(
    kind: Annotated[str, typer.Argument(help="Environment kind (e.g. memory) or module:factory.")],
    name: Annotated[str | None, typer.Option(help="Environment name seen by tasks.")] = None,
    host: Annotated[str, typer.Option(help="Address to bind (loopback by default).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port (0 picks a free one).")] = 8765,
    allow_remote: Annotated[
        bool, typer.Option(help="Allow binding a non-loopback address.")
    ] = False,
    allow_module: Annotated[
        list[str] | None,
        typer.Option(help="A package you trust to define actions/evaluators clients may name."),
    ] = None,
) -> None:
    """Serve an environment; the token comes from $REEF_ENV_TOKEN or is generated and printed."""
    from reefbench.actions.refs import allow_action_modules
    from reefbench.envs.registry import make_environment
    from reefbench.envs.remote.server import DEFAULT_ALLOWED_MODULES, create_app

    token, generated = _token(TOKEN_VARIABLE)
    allow_action_modules(allow_module or ())
    env = make_environment(kind, name)
    modules = DEFAULT_ALLOWED_MODULES + tuple(allow_module or ())
    signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)  # the server thread inherits this
    _serve_until_stopped(
        lambda: create_app(env, token, allowed_modules=modules),
        host,
        port,
        allow_remote=allow_remote,
        close=env.stop,
        lines=lambda url: [f"url={url}", *([f"token={token}"] if generated else [])],
    )


def _serve_until_stopped(
    make_app: Callable[[], Any],
    host: str,
    port: int,
    *,
    allow_remote: bool,
    close: Callable[[], None],
    lines: Callable[[str], list[str]],
    lifespan: Literal["on", "off"] = "off",
) -> None:
    """Serve until SIGINT or SIGTERM (blocked by the caller, so the server thread never
    takes them), after printing ``lines(url)``; ``close`` what is served afterwards, and
    also when the app cannot be made or the port cannot be had."""
    from reefbench.cli.stopping import end_descendants
    from reefbench.plumbing.net import ServedApp

    try:
        served = ServedApp(
            make_app(),
            host,
            port,
            allow_remote=allow_remote,
            how_to_allow_remote="add --allow-remote",
            lifespan=lifespan,
        )
    except OSError as exc:
        close()
        raise ReefError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    except BaseException:
        close()
        raise
    for line in lines(served.url):
        console.print(line, highlight=False)
    console.file.flush()
    try:
        signal.sigwait(_STOP_SIGNALS)
    finally:
        served.stop()
        close()
        end_descendants()  # what a stuck close left (a crashed device's helpers)


@app.command("serve-mcp")
def serve_mcp(
    task: Annotated[str, typer.Option(help="The task to play (its exact id).")],
    suite: Annotated[
        str, typer.Option(help="Built-in suite: v1 (default; frozen data), v0 or memory.")
    ] = DEFAULT_SUITE,
    out: Annotated[
        Path | None, typer.Option(help="Run directory for the result (default runs/mcp-<time>).")
    ] = None,
    transport: Annotated[
        Literal["http", "stdio"],
        typer.Option(help="http (streamable HTTP at /mcp, token required) or stdio."),
    ] = "http",
    host: Annotated[str, typer.Option(help="Address to bind (loopback by default).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port (0 picks a free one).")] = 8766,
    allow_remote: Annotated[
        bool, typer.Option(help="Allow binding a non-loopback address.")
    ] = False,
    invalid_tolerance: Annotated[
        int,
        typer.Option(
            min=0, help="Invalid calls in a row forgiven: the next one in a row ends the episode."
        ),
    ] = 2,  # episodes.episode.DEFAULT_INVALID_TOLERANCE (not imported: the CLI starts light)
    step_limit: Annotated[
        int | None, typer.Option(min=1, help="Override the task's step limit (tool calls).")
    ] = None,
    action_set: Annotated[
        str,
        typer.Option(
            help="How tools address elements: marks (default), a11y or pixels (coordinates "
            "only, plain screenshots)."
        ),
    ] = "marks",
) -> None:
    """Serve one episode as an MCP server; the result is stored in --out like any run.

    The token comes from $REEF_MCP_TOKEN or is generated and printed; clients send it as
    'Authorization: Bearer <token>'. Stop with Ctrl+C (an unfinished episode is stored as
    aborted).
    """
    _check_mcp_installed()
    from reefbench.actions.sets import get_action_set
    from reefbench.runner.served_episode import ServedEpisode

    run_dir = out or Path("runs") / datetime.now(UTC).strftime("mcp-%Y%m%d-%H%M%S")

    def new_episode() -> ServedEpisode:
        return ServedEpisode(
            suite,
            task,
            run_dir,
            invalid_tolerance=invalid_tolerance,
            step_limit=step_limit,
            action_set=get_action_set(action_set).name,
        )

    if transport == "stdio":
        _serve_mcp_stdio(new_episode())
        return
    _serve_mcp_http(new_episode, run_dir, host, port, allow_remote=allow_remote)


def _check_mcp_installed() -> None:
    """Fail in one line naming the extra to install when the MCP SDK is missing."""
    try:
        import mcp  # noqa: F401 - only to name the extra when it is missing
    except ImportError:
        raise ReefError("reef serve-mcp needs the MCP SDK: pip install 'reefbench[mcp]'") from None


def _serve_mcp_http(
    new_episode: Callable[[], ServedEpisode],
    out: Path,
    host: str,
    port: int,
    *,
    allow_remote: bool,
) -> None:
    """Serve the episode over streamable HTTP until stopped: the token is settled (and
    checked) and the stop signals blocked before the episode starts, so a bad token starts
    no devices and the server thread inherits the mask; an episode that fails to start is
    closed before the error propagates."""
    from reefbench.plumbing.net import check_token
    from reefbench.runner.mcp_server import MCP_PATH, create_app

    token, generated = _token(MCP_TOKEN_VARIABLE)
    check_token(token, "MCP server")
    signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)  # the server thread inherits this
    episode = new_episode()
    try:
        episode.start()
    except BaseException:
        episode.close()
        raise
    _serve_until_stopped(
        lambda: create_app(episode, token, host),
        host,
        port,
        allow_remote=allow_remote,
        close=episode.close,
        lines=lambda url: [
            f"url={url}{MCP_PATH}",
            *([f"token={token}"] if generated else []),
            f"run={out}",
        ],
        lifespan="on",
    )


def _serve_mcp_stdio(episode: ServedEpisode) -> None:
    """stdio: the client started this process and owns it; stdout carries the protocol."""
    import anyio

    from reefbench.runner.mcp_server import serve_stdio

    try:
        episode.start()
        anyio.run(serve_stdio, episode)
    finally:
        episode.close()
