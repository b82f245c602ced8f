"""The desktop of a harness that dies (SIGKILL) or exits without stopping it ends with it;
the next session started reaps what is left (its instance directory)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from reefbench.envs import procs
from reefbench.envs.desktop import orphans
from reefbench.envs.desktop.session import DesktopSession, SessionConfig

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not all(shutil.which(t) for t in ("Xvfb", "bwrap", "openbox")),
        reason="needs Xvfb, bubblewrap and openbox",
    ),
]

HARNESS = """
import sys
from pathlib import Path
from reefbench.envs.desktop.session import DesktopSession, SessionConfig
session = DesktopSession(SessionConfig(workdir=Path(sys.argv[1])))
session.start()
print(session.dir, flush=True)
sys.stdin.read()  # until killed
"""


@pytest.fixture
def base() -> Iterator[Path]:
    # short: the session's unix socket paths must fit in 107 characters
    folder = Path(tempfile.mkdtemp(prefix="reef-orphans-", dir="/tmp"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _until(condition, timeout: float = 10.0):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.05)
    return condition()


@pytest.mark.parametrize("end", ["SIGKILL", "exit without stop"])
def test_a_dead_harness_takes_its_desktop_along_and_the_next_session_reaps_the_rest(
    base: Path, end: str
) -> None:
    harness = subprocess.Popen(
        [sys.executable, "-c", HARNESS, str(base)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert harness.stdout is not None
    instance = Path(harness.stdout.readline().strip())
    owner = json.loads((instance / orphans.OWNER_FILE).read_text())
    assert owner["harness"][0] == harness.pid
    xvfb, sandbox = owner["xvfb"][0], owner["sandbox"][0]
    namespace = owner["namespace"]
    assert namespace and len(procs.in_namespace(namespace)) >= 3  # the buses, the wm, ...
    if end == "SIGKILL":
        os.kill(harness.pid, signal.SIGKILL)
    else:  # a normal exit of a harness that never stopped its desktop (a leaked session)
        assert harness.stdin is not None
        harness.stdin.close()
    harness.wait()
    try:
        # Xvfb, in a session of its own, dies with its harness (a parent-death signal), and
        # the sandbox's init ends every process of its namespace once its request pipe
        # closes (bubblewrap's pid 1 otherwise waits for the daemons the bus started).
        assert _until(lambda: not procs.alive(xvfb) and not procs.in_namespace(namespace))
        assert not procs.alive(sandbox)
    finally:  # a failure must not leave them running either
        procs.kill_all([*procs.in_namespace(namespace), xvfb, sandbox], timeout=0.5)
    assert instance.exists()  # what is left is the directory, for the next session to reap

    live = DesktopSession(SessionConfig(workdir=base))
    live.start()  # reaps the dead harness's desktop, and only that
    try:
        assert _until(lambda: not procs.alive(xvfb) and not procs.alive(sandbox))
        assert not instance.exists()
        assert live.dir is not None and live.dir.exists() and live.health()
        assert orphans.reap(base) == []  # a live owner's desktop is never touched
        assert live.health()
    finally:
        live.stop()


def test_unreadable_or_foreign_instances_are_left_alone(base: Path) -> None:
    garbled = base / "reef-desktop-garbled"
    garbled.mkdir()
    (garbled / orphans.OWNER_FILE).write_text("{not json")
    being_made = base / "reef-desktop-new"
    being_made.mkdir()
    # a recycled pid: pid 1 is alive, but not the process recorded (no start time is -1)
    recycled = base / "reef-desktop-recycled"
    recycled.mkdir()
    (recycled / orphans.OWNER_FILE).write_text(
        json.dumps({"harness": [os.getpid(), procs.start_time(os.getpid())], "xvfb": [1, -1]})
    )
    assert orphans.reap(base) == []
    assert garbled.exists() and being_made.exists() and recycled.exists()
    gone = base / "reef-desktop-gone"
    gone.mkdir()
    (gone / orphans.OWNER_FILE).write_text(json.dumps({"harness": [1, -1], "xvfb": [1, -1]}))
    assert orphans.reap(base) == [gone] and not gone.exists()
    assert procs.alive(1)  # pid 1 recorded with another start time was not signalled
