"""Serving an ASGI app from a background thread (remote environments, tests, viewers).

The socket is bound before uvicorn starts, so the port is known at once (port 0 picks a
free one) and nothing races for it; start-up is awaited with a deadline, never a sleep.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
from typing import Any

from reefbench.errors import ConfigError, EnvironmentFailure
from reefbench.waiting import wait_until


def is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


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
    ) -> None:
        """``how_to_allow_remote`` is the fix the refusal names: the Python argument by
        default, the command-line flag when a command serves."""
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
        config = uvicorn.Config(app, log_level="warning", lifespan="off", timeout_keep_alive=5)
        self._server = uvicorn.Server(config)
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
