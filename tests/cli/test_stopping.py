"""SIGTERM and SIGINT stop reef's commands as schedulers stop jobs: within seconds, with no
process they started left (X servers, sandboxes and everything inside, Chromium), and a
run's unfinished episode stored as aborted, which ``--resume`` plays again.

Each test starts a command on a real desktop task in a subprocess, waits until an episode
(or the served environment) is up, signals it, and then looks for survivors two ways: every
process seen descending from the command before the signal (pid and start time, so a
recycled pid is not mistaken and a process reparented to init is still found), and every
process whose command line or open files name the command's own temporary directory (its
``TMPDIR``: the desktop's instance directory and Chromium's profile live there).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from reefbench.envs import procs
from reefbench.plumbing.waiting import wait_until

pytestmark = pytest.mark.integration

if shutil.which("Xvfb") is None or shutil.which("bwrap") is None:
    pytest.skip("the desktop system packages are not installed", allow_module_level=True)

REEF = [sys.executable, "-m", "reefbench.cli"]
# A desktop-only task of reef-v1 (sum the numbers of a file); its answer, for the resume.
TASK = "v1-hand-f064223bb4c6"
ANSWER = {"env": "root", "name": "submit", "arguments": {"answer": "90"}}
START_DEADLINE = 180.0  # a loaded machine (other desktops, LibreOffice) starts slowly
EXIT_DEADLINE = 30.0


class Watched:
    """A reef command in a subprocess, with every process it starts remembered."""

    def __init__(
        self,
        argv: list[str],
        scratch: Path,
        *,
        stdin: bool = False,
        env: dict[str, str] | None = None,
    ) -> None:
        self.scratch = scratch
        self.out = scratch / "out.txt"
        env = {**os.environ, "TMPDIR": str(scratch), **(env or {})}
        env.pop("REEF_ENV_TOKEN", None)
        env.pop("REEF_MCP_TOKEN", None)
        with self.out.open("wb") as out:
            self.process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
            )
        self.seen: dict[int, int] = {}

    def note(self) -> None:
        """Remember the command's descendants and the processes of their pid namespaces."""
        found = procs.descendants(self.process.pid)
        own = procs.pid_namespace(os.getpid())
        for namespace in {procs.pid_namespace(p) for p in found} - {own, None}:
            assert namespace is not None
            found += procs.in_namespace(namespace)
        for pid in found:
            started = procs.start_time(pid)
            if started is not None:
                self.seen.setdefault(pid, started)

    def text(self) -> str:
        return self.out.read_text(errors="replace")

    def wait_for(self, what: str) -> None:
        """Wait until the output shows ``what`` and a desktop (Xvfb, a sandbox) runs."""

        def ready() -> bool:
            self.note()
            return what in self.text() and {"Xvfb", "bwrap"} <= self.names()

        if not wait_until(ready, START_DEADLINE, interval=0.2):
            raise AssertionError(f"never got to {what!r}: {self.text()[-2000:]}")

    def names(self) -> set[str]:
        return {_comm(pid) for pid in self.seen if procs.alive(pid)}

    def survivors(self) -> list[str]:
        """Live processes of the command: remembered ones and ones naming its scratch dir."""
        left = {
            pid
            for pid, started in self.seen.items()
            if procs.alive(pid) and procs.start_time(pid) == started
        }
        left |= {p for p in procs.all_pids() if procs.alive(p) and _names(p, str(self.scratch))}
        return sorted(f"{pid} {_comm(pid)}" for pid in left)

    def stop_with(self, sig: signal.Signals) -> int:
        self.note()
        self.process.send_signal(sig)
        code = self.process.wait(timeout=EXIT_DEADLINE)
        wait_until(lambda: not self.survivors(), 10.0, interval=0.1)
        return code

    def kill(self) -> None:
        """Clean up after a failing test: the command and whatever it left."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        procs.kill_all([int(entry.split()[0]) for entry in self.survivors()], timeout=1.0)


def _comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return "?"


def _names(pid: int, marker: str) -> bool:
    """Whether the process's command line or an open file names ``marker``."""
    try:
        if marker.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
            return True
        for fd in os.listdir(f"/proc/{pid}/fd"):
            if os.readlink(f"/proc/{pid}/fd/{fd}").startswith(marker):
                return True
    except OSError:
        return False
    return False


@pytest.fixture
def scratch() -> Iterator[Path]:
    # Short: the desktop's socket paths under it must fit in 107 bytes.
    path = Path(tempfile.mkdtemp(prefix="rs-", dir="/tmp"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _rows(run: Path) -> list[tuple[str, str, str | None]]:
    with sqlite3.connect(run / "results.sqlite") as db:
        return db.execute("SELECT key, status, termination FROM episodes").fetchall()


def test_sigterm_stops_reef_run_cleanly_and_resume_replays_the_episode(scratch: Path) -> None:
    run = scratch / "run"
    # The human agent waits at its prompt: an episode mid-way, its agent blocked in a call.
    argv = [*REEF, "run", "--suite", "v1", "--task", TASK, "--agent", "human"]
    command = Watched(
        [*argv, "--workers", "1", "--out", str(run), "--no-report"], scratch, stdin=True
    )
    try:
        command.wait_for("action> ")
        code = command.stop_with(signal.SIGTERM)
        assert command.survivors() == []
        assert code == 130  # as after Ctrl+C
    finally:
        command.kill()
    assert _rows(run) == [(f"{TASK}#s0", "aborted", "aborted")]
    assert "--resume" in command.text()
    resumed = subprocess.run(
        [*REEF, "run", "--resume", "--out", str(run), "--no-report"],
        input=json.dumps(ANSWER) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "TMPDIR": str(scratch)},
    )
    assert resumed.returncode == 0, resumed.stdout[-2000:] + resumed.stderr[-2000:]
    assert _rows(run) == [(f"{TASK}#s0", "done", "success")]


def test_sigterm_stops_reef_run_on_ray_cleanly(scratch: Path) -> None:
    """The episode plays in a Ray actor of a local cluster (the cluster's processes and
    the actor's desktop all descend from the command, and keep their files in TMPDIR)."""
    pytest.importorskip("ray")
    run = scratch / "run"
    argv = [*REEF, "run", "--suite", "v1", "--task", TASK, "--agent", "random", "--ray", "local"]
    # A long episode: the random agent is still playing when the signal comes.
    argv += ["--step-limit", "500", "--workers", "1", "--out", str(run), "--no-report"]
    command = Watched(argv, scratch, env={"RAY_TMPDIR": str(scratch)})
    try:
        command.wait_for("Started a local Ray instance")
        code = command.stop_with(signal.SIGTERM)
        assert command.survivors() == []
        assert code == 130
    finally:
        command.kill()
    assert _rows(run) == [(f"{TASK}#s0", "aborted", "aborted")]


def test_sigint_stops_reef_suite_check_cleanly(scratch: Path) -> None:
    argv = [*REEF, "suite", "check", "--suite", "v1", "--tasks", TASK, "--workers", "1"]
    command = Watched(argv, scratch)
    try:
        command.wait_for("")  # the gates run as soon as a desktop is up
        command.stop_with(signal.SIGINT)
        assert command.survivors() == []
    finally:
        command.kill()


def test_sigterm_stops_reef_serve_env_cleanly(scratch: Path) -> None:
    command = Watched([*REEF, "serve-env", "desktop", "--port", "0"], scratch)
    try:
        assert wait_until(lambda: "url=" in command.text(), START_DEADLINE, interval=0.1)
        url = command.text().split("url=")[1].split()[0]
        token = command.text().split("token=")[1].split()[0]
        request = urllib.request.Request(
            f"{url}/start", method="POST", headers={"Authorization": f"Bearer {token}"}
        )
        with urllib.request.urlopen(request, timeout=START_DEADLINE) as reply:
            assert reply.status == 200
        command.wait_for("url=")
        code = command.stop_with(signal.SIGTERM)
        assert command.survivors() == []
        assert code == 0
    finally:
        command.kill()


def test_sigterm_stops_reef_serve_mcp_cleanly_and_stores_the_episode_aborted(
    scratch: Path,
) -> None:
    pytest.importorskip("mcp")
    run = scratch / "run"
    argv = [*REEF, "serve-mcp", "--suite", "v1", "--task", TASK, "--port", "0"]
    command = Watched([*argv, "--out", str(run)], scratch)
    try:
        command.wait_for("run=")
        code = command.stop_with(signal.SIGTERM)
        assert command.survivors() == []
        assert code == 0
    finally:
        command.kill()
    assert _rows(run) == [(f"{TASK}#s0", "failed", "aborted")]
