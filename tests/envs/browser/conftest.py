"""The browser tests' small local sites: a test module's handler class served on loopback."""

from __future__ import annotations

import contextlib
import http.server
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager

import pytest


@contextlib.contextmanager
def serve(handler: type[http.server.BaseHTTPRequestHandler]) -> Iterator[str]:
    """Serve ``handler`` on a free loopback port; yield the site's base URL."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def serve_site() -> Callable[
    [type[http.server.BaseHTTPRequestHandler]], AbstractContextManager[str]
]:
    """:func:`serve`, for a module's ``site`` fixture to serve its own handler."""
    return serve
