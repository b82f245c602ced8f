"""``reef services serve``: run the local cloud services by hand (for a look or a demo)."""

from __future__ import annotations

import signal

import typer

from reefbench.cli.app import app, console
from reefbench.errors import ConfigError

services_app = typer.Typer(
    help="The local cloud services (mail, calendar, contacts, ...).", no_args_is_help=True
)
app.add_typer(services_app, name="services")


@services_app.command("serve")
def serve(
    host: str = typer.Option("127.0.0.1", help="Interface to bind (loopback by default)."),
    port: int = typer.Option(0, help="Port; 0 picks a free one."),
    username: str = typer.Option("alex", help="Login name of the account."),
    password: str = typer.Option("reef-password", help="Login password of the account."),
) -> None:
    """Serve the apps until Ctrl-C; prints the URL, the login and the internal API token."""
    try:
        from reefbench.envs.services import ServicesServer
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise ConfigError(
            f"the services need the 'services' extra ({exc.name} is missing): "
            "pip install 'reefbench[services]'"
        ) from None
    if not 0 <= port <= 65535:
        raise ConfigError(f"--port {port} is not a port number (0-65535)")
    server = ServicesServer(host, port, username=username, password=password)
    # Block the stop signals before the server thread starts (it inherits the mask) and
    # wait for them with sigwait: a Ctrl-C that arrives at any moment, even while the URL
    # is being printed, is queued and stops the server instead of being lost in a race.
    stop_signals = {signal.SIGINT, signal.SIGTERM}
    signal.pthread_sigmask(signal.SIG_BLOCK, stop_signals)
    try:
        server.start()
        console.print(f"services at {server.url}  (login: {username} / {password})")
        console.print(f"internal API token: {server.token}")
        console.file.flush()
        signal.sigwait(stop_signals)
    finally:
        server.stop()
        signal.pthread_sigmask(signal.SIG_UNBLOCK, stop_signals)
