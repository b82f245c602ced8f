"""Serving an ASGI app from a background thread (remote environments, the MCP server, tests,
viewers), and the rules every server shares: loopback unless allowed otherwise, a token.

The socket is bound before uvicorn starts, so the port is known at once (port 0 picks a
free one) and nothing races for it; start-up is awaited with a deadline, never a sleep.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
import json
import secrets
import socket
import threading
from collections.abc import Awaitable, Callable, MutableMapping
from typing import TYPE_CHECKING, Any, Literal

from reefbench.errors import ConfigError, EnvironmentFailure
from reefbench.plumbing.waiting import wait_until

if TYPE_CHECKING:
    import uvicorn

MIN_TOKEN_LENGTH = 16

_Scope = MutableMapping[str, Any]
_Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
_Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[_Scope, _Receive, _Send], Awaitable[None]]


def check_token(token: str, server: str) -> None:
    """Refuse a token short enough to guess (``server`` names whose token it is)."""
    if len(token) < MIN_TOKEN_LENGTH:
        raise ConfigError(f"the {server} token must be at least {MIN_TOKEN_LENGTH} characters")


def bearer_matches(authorization: str, token: str) -> bool:
    """Whether an ``Authorization`` header carries ``Bearer <token>`` (in constant time)."""
    return secrets.compare_digest(authorization.encode(), f"Bearer {token}".encode())


class RequireBearer:
    """ASGI middleware: an HTTP request without ``Authorization: Bearer <token>`` gets 401
    before the wrapped app sees it (for apps, like the MCP SDK's, that are not FastAPI)."""

    def __init__(self, app: ASGIApp, token: str, server: str) -> None:
        check_token(token, server)
        self.app = app
        self.token = token

    async def __call__(self, scope: _Scope, receive: _Receive, send: _Send) -> None:
        if scope["type"] == "http":
            headers = dict(scope.get("headers") or [])
            supplied = headers.get(b"authorization", b"").decode("latin-1")
            if not bearer_matches(supplied, self.token):
                body = json.dumps({"detail": "missing or wrong token"}).encode()
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"www-authenticate", b"Bearer"),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


TICK_SECONDS = 1.0
"""How often an idle server wakes: uvicorn refreshes its ``Date`` header once a second."""


def quiet_server(config: uvicorn.Config) -> uvicorn.Server:
    """A uvicorn server that sleeps while idle: uvicorn's own wakes ten times a second to
    look at ``should_exit`` (about 1.5 ms of CPU a second per server, paid by every idle
    episode's account while the agent waits for its model); this one wakes once a second,
    for the ``Date`` header, and setting ``should_exit`` from any thread wakes it at once."""
    server: uvicorn.Server = _quiet_server_class()(config)
    return server


@functools.cache
def _quiet_server_class() -> type[uvicorn.Server]:
    import uvicorn

    class QuietServer(uvicorn.Server):
        _wake: Callable[[], object] | None = None

        @property
        def should_exit(self) -> bool:
            return self._exit

        @should_exit.setter
        def should_exit(self, value: bool) -> None:
            self._exit = value
            if value and self._wake is not None:
                with contextlib.suppress(RuntimeError):  # the loop has closed
                    self._wake()

        async def main_loop(self) -> None:
            loop, woken = asyncio.get_running_loop(), asyncio.Event()
            self._wake = lambda: loop.call_soon_threadsafe(woken.set)
            counter = 0  # on_tick refreshes the Date header when it is a multiple of 10
            while not await self.on_tick(counter):
                counter = (counter + 10) % 864000
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(woken.wait(), TICK_SECONDS)

    return QuietServer


class ServedApp:
    """An ASGI app served by uvicorn in a daemon thread; :meth:`stop` ends both."""

    def __init__(
        self,
        app: Any,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        allow_remote: bool = False,
        how_to_allow_remote: str = "pass allow_remote=True",
        startup_timeout: float = 30.0,
        lifespan: Literal["on", "off"] = "off",
    ) -> None:
        """``how_to_allow_remote`` is the fix the refusal names: the Python argument by
        default, the command-line flag when a command serves. ``lifespan="on"`` runs the
        app's start-up and shut-down (the MCP SDK's session manager lives there)."""
        import uvicorn

        if not allow_remote and not is_loopback(host):
            raise ConfigError(
                f"refusing to bind {host}: not a loopback address ({how_to_allow_remote} "
                "to serve other interfaces; clients still need the token)"
            )
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self._socket = socket.socket(family, socket.SOCK_STREAM)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._socket.bind((host, port))
        self.port: int = self._socket.getsockname()[1]
        self.url = f"http://{'[' + host + ']' if family == socket.AF_INET6 else host}:{self.port}"
        config = uvicorn.Config(app, log_level="warning", lifespan=lifespan, timeout_keep_alive=5)
        self._server = quiet_server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._socket]}, daemon=True
        )
        self._thread.start()
        server, thread = self._server, self._thread
        wait_until(lambda: server.started or not thread.is_alive(), startup_timeout)
        if not server.started:
            self.stop()
            raise EnvironmentFailure(f"server on {self.url} did not start")

    def stop(self) -> None:
        self._server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(timeout=30)
        self._socket.close()

    def __enter__(self) -> ServedApp:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
