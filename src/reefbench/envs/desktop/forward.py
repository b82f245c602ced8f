"""Relay an explicit allowlist of host loopback ports into a sandbox's private loopback.

The sandbox has its own network namespace with only ``lo``, so the local services (which
listen on the host's 127.0.0.1) are unreachable from inside until relayed:

    app in sandbox ──tcp──► 127.0.0.1:PORT (sandbox init) ──unix──► ports/PORT.sock
        (bind-mounted from the host) ──► PortRelay (host) ──tcp──► 127.0.0.1:PORT (host)

Only the listed ports exist inside; everything else is unreachable. The unix sockets are
created by this host-side relay in a per-instance directory, so one instance can never
reach another's relays.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterable
from pathlib import Path


def relay_socket_name(port: int) -> str:
    return f"{port}.sock"


def _pump(src: socket.socket, dst: socket.socket) -> None:
    try:
        while data := src.recv(65536):
            dst.sendall(data)
    except OSError:
        pass
    finally:
        for sock in (src, dst):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


class PortRelay:
    """Host side of the port forward: unix sockets in ``directory`` → host 127.0.0.1."""

    def __init__(self, directory: Path, ports: Iterable[int], host: str = "127.0.0.1") -> None:
        self.directory = directory
        self.ports = sorted({int(p) for p in ports})
        self.host = host
        self._listeners: list[socket.socket] = []
        self._closed = threading.Event()

    def start(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        for port in self.ports:
            path = self.directory / relay_socket_name(port)
            path.unlink(missing_ok=True)
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            listener.bind(str(path))
            listener.listen(64)
            self._listeners.append(listener)
            threading.Thread(
                target=self._accept_loop,
                args=(listener, port),
                name=f"reef-relay-{port}",
                daemon=True,
            ).start()

    def _accept_loop(self, listener: socket.socket, port: int) -> None:
        while not self._closed.is_set():
            try:
                client, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=self._connect, args=(client, port), daemon=True).start()

    def _connect(self, client: socket.socket, port: int) -> None:
        try:
            upstream = socket.create_connection((self.host, port), timeout=5)
        except OSError:
            client.close()
            return
        upstream.settimeout(None)
        back = threading.Thread(target=_pump, args=(upstream, client), daemon=True)
        back.start()
        _pump(client, upstream)
        back.join()
        client.close()
        upstream.close()

    def stop(self) -> None:
        self._closed.set()
        for listener in self._listeners:
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
            listener.close()
        self._listeners.clear()
        for port in self.ports:
            (self.directory / relay_socket_name(port)).unlink(missing_ok=True)
