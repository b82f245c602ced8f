"""A helper process spoken to in JSON lines over its stdin/stdout.

Used for the sandbox's init and for the accessibility reader: both are long-lived, so each
request costs one pipe round trip instead of a process start. The first line a helper
writes is ``{"ready": true}`` (or ``{"ready": false, "error": ...}``); every later line is a
reply carrying the ``id`` of its request. Nothing is ever evaluated or unpickled.
"""

from __future__ import annotations

import contextlib
import json
import queue
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from reefbench.envs import procs
from reefbench.errors import EnvironmentFailure


class JsonLineProcess:
    """Start ``argv`` and exchange JSON-line requests with it, one at a time."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        env: Mapping[str, str],
        log: Path,
        what: str,
        ready_timeout: float,
    ) -> None:
        self.what = what
        self._replies: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self._lock = threading.Lock()
        self._next_id = 0
        try:
            with log.open("ab") as stderr:
                self.proc = subprocess.Popen(
                    list(argv),
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=stderr,
                    start_new_session=True,
                    env=dict(env),
                )
        except FileNotFoundError:
            raise EnvironmentFailure(f"cannot start the {what}: {argv[0]} is missing") from None
        threading.Thread(target=self._read, name=f"reef-{what}", daemon=True).start()
        try:
            first = self._replies.get(timeout=ready_timeout)
        except queue.Empty:
            first = None
        if not first or not first.get("ready"):
            reason = (first or {}).get("error") or f"no answer within {ready_timeout:g} s"
            self.close(timeout=0.5)
            tail = _tail(log)
            raise EnvironmentFailure(
                f"the {what} did not start: {reason}" + (f" (log: {tail})" if tail else "")
            )

    @property
    def pid(self) -> int:
        return self.proc.pid

    def running(self) -> bool:
        return self.proc.poll() is None

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            try:
                self._replies.put(json.loads(line))
            except ValueError:
                continue
        self._replies.put(None)

    def request(self, op: str, timeout: float = 10.0, **arguments: Any) -> dict[str, Any]:
        """Send one request and wait for its reply.

        Raises:
            EnvironmentFailure: the helper is gone, did not answer in time, or reported an
                error.
        """
        stdin = self.proc.stdin
        if stdin is None or stdin.closed:
            raise EnvironmentFailure(f"the {self.what} is not running")
        with self._lock:
            self._next_id += 1
            rid = self._next_id
            try:
                stdin.write((json.dumps({"id": rid, "op": op, **arguments}) + "\n").encode())
                stdin.flush()
            except (BrokenPipeError, OSError, ValueError):
                raise EnvironmentFailure(f"the {self.what} has exited") from None
            deadline = time.monotonic() + timeout
            while True:
                try:
                    reply = self._replies.get(timeout=max(deadline - time.monotonic(), 0.001))
                except queue.Empty:
                    raise EnvironmentFailure(
                        f"the {self.what} did not answer '{op}' within {timeout:g} s"
                    ) from None
                if reply is None:
                    self._replies.put(None)  # keep later callers from waiting
                    raise EnvironmentFailure(f"the {self.what} has exited")
                if reply.get("id") == rid:
                    break
        if not reply.get("ok"):
            raise EnvironmentFailure(f"{self.what} request '{op}' failed: {reply.get('error')}")
        return reply

    def close(self, timeout: float = 2.0) -> None:
        """Close its stdin (it exits on EOF), then kill it and everything it started.

        Its descendants are collected first: a bubblewrap sandbox's inner init does not
        die with the outer bwrap process, so killing only the direct child could leak it.
        """
        victims = procs.descendants(self.proc.pid)
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=timeout)
        procs.kill_all([p for p in victims if procs.alive(p)] + [self.proc.pid], timeout=1.0)
        self.proc.wait()


def _tail(log: Path, limit: int = 300) -> str:
    try:
        text = log.read_text(errors="replace").strip()
    except OSError:
        return ""
    return " | ".join(text[-limit:].splitlines())
