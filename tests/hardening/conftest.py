"""Shared tools of the hardening tests: deadlines, a faulty model server, leak and secret scans.

:class:`FaultyOpenAI` is a raw HTTP server on 127.0.0.1 speaking the OpenAI Chat Completions
wire format whose replies are scripted *faults* (a status code, a body cut in the middle,
a reply without choices, a request that never gets an answer) before the good replies, so
the official SDK meets each fault exactly as it would from the real API.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, TypeVar

import pytest

T = TypeVar("T")
SECRET_KEY = "sk-hardening-5e0c7a21b9d4-do-not-leak"

DESKTOP_TOOLS = ("Xvfb", "bwrap", "xdotool", "openbox", "rofi", "xfce4-terminal")
needs_desktop = pytest.mark.skipif(
    not all(shutil.which(t) for t in DESKTOP_TOOLS) or not Path("/usr/bin/python3").exists(),
    reason=f"needs {', '.join(DESKTOP_TOOLS)} and Debian's python3",
)


def wait_until(condition: Callable[[], T], timeout: float = 10.0, interval: float = 0.05) -> T:
    """Poll ``condition`` until it is truthy or the deadline passes; returns its last value."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(interval)


def alive(pid: int) -> bool:
    """True for a running (not zombie) process."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def integrity(db_path: Path) -> str:
    with sqlite3.connect(db_path) as db:
        return str(db.execute("PRAGMA integrity_check").fetchone()[0])


def files_containing(root: Path, needle: str) -> list[Path]:
    """Every file under ``root`` whose bytes contain ``needle``."""
    data = needle.encode()
    return [p for p in root.rglob("*") if p.is_file() and data in p.read_bytes()]


# ------------------------------------------------------------------ faulty model server
@dataclass
class Fault:
    """One scripted answer: ``kind`` is ok, status, truncated, empty or hang."""

    kind: str
    status: int = 200
    calls: tuple[tuple[str, dict[str, Any]], ...] = ()
    text: str = ""


def _completion(fault: Fault, n: int) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": fault.text or None}
    if fault.calls:
        message["tool_calls"] = [
            {
                "id": f"call_{n}_{i}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(args)},
            }
            for i, (name, args) in enumerate(fault.calls)
        ]
    choices = [] if fault.kind == "empty" else [
        {"index": 0, "finish_reason": "tool_calls" if fault.calls else "stop", "message": message}
    ]  # fmt: skip
    return {
        "id": f"chatcmpl-{n}",
        "object": "chat.completion",
        "created": 1,
        "model": "fake",
        "choices": choices,
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


class FaultyOpenAI:
    """Answers each request with the next scripted :class:`Fault` (then ``default``)."""

    def __init__(self, key: str = SECRET_KEY) -> None:
        self.key = key
        self.script: list[Fault] = []
        self.default: Fault | None = None
        self.requests = 0
        self.release = threading.Event()  # ends every hanging request
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("content-length", 0)))
                if self.headers.get("authorization") != f"Bearer {server.key}":
                    self._send(401, b'{"error": {"message": "bad key"}}')
                    return
                with server._lock:
                    server.requests += 1
                    n = server.requests
                    fault = server.script.pop(0) if server.script else server.default
                if fault is None:
                    self._send(500, b'{"error": {"message": "script exhausted"}}')
                elif fault.kind == "hang":
                    server.release.wait(30)  # the client's timeout fires long before
                    self.close_connection = True
                elif fault.kind == "status":
                    self._send(fault.status, b'{"error": {"message": "injected", "type": "x"}}')
                elif fault.kind == "truncated":
                    body = json.dumps(_completion(Fault("ok", text="cut"), n)).encode()
                    self._send(200, body[: len(body) // 2], length=len(body))
                else:
                    self._send(200, json.dumps(_completion(fault, n)).encode())

            def _send(self, status: int, body: bytes, length: int | None = None) -> None:
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(length or len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    if length is not None:  # promised more than sent: hang up mid-body
                        self.close_connection = True
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self.thread.start()

    def close(self) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(5)


@pytest.fixture
def faulty_openai() -> Iterator[FaultyOpenAI]:
    server = FaultyOpenAI()
    try:
        yield server
    finally:
        server.close()


def openai_provider(server: FaultyOpenAI, *, timeout: float = 30.0, attempts: int = 2) -> Any:
    """The real OpenAI SDK provider pointed at ``server`` with fast retries."""
    from reefbench.agents.providers import ProviderOptions, RetryPolicy, make_provider

    options = ProviderOptions(
        timeout=timeout, retry=RetryPolicy(attempts=attempts, base=0.001, cap=0.01)
    )
    return make_provider(
        "openai/fake-model", options, base_url=server.url, environ={"OPENAI_API_KEY": server.key}
    )


def scan_processes(needle: str, pids: Iterable[int] | None = None) -> list[int]:
    """Pids (all, or among ``pids``) whose command line or environment contains ``needle``."""
    data = needle.encode()
    candidates = pids if pids is not None else [int(p) for p in os.listdir("/proc") if p.isdigit()]
    found = []
    for pid in candidates:
        if pid == os.getpid():
            continue
        for part in ("cmdline", "environ"):
            try:
                with open(f"/proc/{pid}/{part}", "rb") as handle:
                    if data in handle.read():
                        found.append(pid)
                        break
            except OSError:
                continue
    return found


@pytest.fixture
def short_dir() -> Iterator[Path]:
    """A short directory in /tmp (desktop instance dirs hold unix sockets: 107-byte paths)."""
    import tempfile

    path = Path(tempfile.mkdtemp(prefix="reefh-", dir="/tmp"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
