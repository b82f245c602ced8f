"""``reef serve-env``: run one environment behind the authenticated JSON API."""

from __future__ import annotations

import os
import secrets
import signal
from typing import Annotated

import typer

from reefbench.cli.app import app, console
from reefbench.errors import ReefError

TOKEN_VARIABLE = "REEF_ENV_TOKEN"


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
    from reefbench.envs.registry import make_environment
    from reefbench.envs.remote.server import DEFAULT_ALLOWED_MODULES, create_app
    from reefbench.net import ServedApp
    from reefbench.refs import allow_action_modules

    token = os.environ.get(TOKEN_VARIABLE)
    generated = token is None
    token = token or secrets.token_urlsafe(24)
    allow_action_modules(allow_module or ())
    env = make_environment(kind, name)
    modules = DEFAULT_ALLOWED_MODULES + tuple(allow_module or ())
    stop_signals = {signal.SIGINT, signal.SIGTERM}
    signal.pthread_sigmask(signal.SIG_BLOCK, stop_signals)  # the server thread inherits this
    try:
        served = ServedApp(
            create_app(env, token, allowed_modules=modules),
            host,
            port,
            allow_remote=allow_remote,
            how_to_allow_remote="add --allow-remote",
        )
    except OSError as exc:
        env.stop()
        raise ReefError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    except BaseException:
        env.stop()
        raise
    console.print(f"url={served.url}", highlight=False)
    if generated:
        console.print(f"token={token}", highlight=False)
    console.file.flush()
    try:
        signal.sigwait(stop_signals)
    finally:
        served.stop()
        env.stop()
