"""The services server: one FastAPI app on loopback, run by uvicorn in a background thread.

:class:`ServicesServer` owns one account :class:`~reefbench.envs.services.store.Store`; several
servers run side by side (each on its own free port, with its own state and token).
"""

from __future__ import annotations

import secrets
import socket
import threading
from typing import Any

from reefbench.envs.services.login import DEFAULT_PASSWORD, DEFAULT_USERNAME
from reefbench.envs.services.store import Store
from reefbench.errors import EnvironmentFailure
from reefbench.plumbing.net import quiet_server
from reefbench.plumbing.waiting import wait_until
from reefbench.tasks.worldtime import WorldClock


class ServicesServer:
    """Run the services on ``host`` (loopback by default) and a free port, in a thread.

    Args:
        host: Interface to bind; keep the default unless a remote device must reach it.
        port: 0 picks a free port.
        token: Bearer token of the internal API; a random one by default.
        username: Login name of the account.
        password: Login password of the account.
        clock: The time source of the account's clock (a test's fake; default: the
            seconds of :func:`time.monotonic` since each reset).
    """

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        token: str | None = None,
        username: str = DEFAULT_USERNAME,
        password: str = DEFAULT_PASSWORD,
        clock: WorldClock | None = None,
    ) -> None:
        self.clock = clock or WorldClock()  # the account's clock ticks from each reset
        self.host = host
        self.requested_port = port
        self.token = token or secrets.token_urlsafe(32)
        self.username = username
        self.password = password
        self.store: Store | None = None
        self.port = 0
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self._socket: socket.socket | None = None

    @property
    def url(self) -> str:
        """Base URL, e.g. ``http://127.0.0.1:41234`` (valid while started)."""
        if not self.port:
            raise EnvironmentFailure("the services server is not running; call start() first")
        return f"http://{self.host}:{self.port}"

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, timeout: float = 15.0) -> None:
        """Bind, serve in a background thread, and return once requests are accepted."""
        if self.running:
            return
        import uvicorn

        from reefbench.envs.services.app import create_app

        self.store = Store(self.clock)
        app = create_app(self.store, self.token, self.username, self.password)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.host, self.requested_port))
        except OSError as exc:
            sock.close()
            raise EnvironmentFailure(
                f"cannot bind the services server to {self.host}:{self.requested_port}: {exc}"
            ) from None
        self._socket = sock
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(
            app,
            log_level="warning",
            access_log=False,
            lifespan="off",
            timeout_graceful_shutdown=2,
            timeout_keep_alive=5,
        )
        self._server = quiet_server(config)
        self._thread = threading.Thread(
            target=self._server.run,
            kwargs={"sockets": [sock]},
            name=f"reef-services-{self.port}",
            daemon=True,
        )
        self._thread.start()
        server, thread = self._server, self._thread
        wait_until(lambda: server.started or not thread.is_alive(), timeout)
        if not server.started:
            self.stop()
            raise EnvironmentFailure("the services server did not start")

    def stop(self, timeout: float = 10.0) -> None:
        """Stop serving and join the thread; nothing of this server survives."""
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive():
                self._server.force_exit = True
                self._thread.join(timeout)
            if self._thread.is_alive():
                raise EnvironmentFailure(f"services server thread {self._thread.name} did not stop")
        if self._socket is not None:
            self._socket.close()
        if self.store is not None:
            self.store.close()
        self._server = self._thread = self._socket = self.store = None
        self.port = 0

    def __enter__(self) -> ServicesServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
