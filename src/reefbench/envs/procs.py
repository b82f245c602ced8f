"""Linux process bookkeeping from /proc: descendants, pid namespaces, memory, killing.

Shared by the environments that own host processes. The desktop's processes live in two
places: the Xvfb process group on the host and one bubblewrap pid namespace; killing the
namespace's init makes the kernel kill every process in it, so nothing an agent started
(even a daemonised one) survives ``stop``. Chromium's are the browser process and the
helpers it started (its descendants).

A process that listens to no pipe of ours (Xvfb) is started by :func:`spawn_bound`, so the
kernel kills it when the harness ends, even by SIGKILL; the sandbox's init and Playwright's
driver end when their stdin closes, which the harness's death does too.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from reefbench.plumbing.waiting import wait_until


def _stat_fields(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            raw = f.read()
    except OSError:
        return None
    # comm may contain spaces and parentheses: split after the last ')'.
    return raw[raw.rfind(")") + 2 :].split()


def parent_of(pid: int) -> int | None:
    fields = _stat_fields(pid)
    return int(fields[1]) if fields else None


def start_time(pid: int) -> int | None:
    """When the process started (clock ticks since boot): with the pid, its identity."""
    fields = _stat_fields(pid)
    return int(fields[19]) if fields and len(fields) > 19 else None


def all_pids() -> list[int]:
    return [int(e) for e in os.listdir("/proc") if e.isdigit()]


def descendants(root: int) -> list[int]:
    """Every live descendant of ``root`` (not ``root`` itself)."""
    children: dict[int, list[int]] = {}
    for pid in all_pids():
        ppid = parent_of(pid)
        if ppid is not None:
            children.setdefault(ppid, []).append(pid)
    out, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def pid_namespace(pid: int) -> str | None:
    try:
        return os.readlink(f"/proc/{pid}/ns/pid")
    except OSError:
        return None


def in_namespace(namespace: str) -> list[int]:
    """Host pids of every process in the pid namespace ``namespace`` (``pid:[...]``)."""
    return [p for p in all_pids() if pid_namespace(p) == namespace]


def alive(pid: int) -> bool:
    fields = _stat_fields(pid)
    return fields is not None and fields[0] != "Z"


def rss_bytes(pids: Iterable[int]) -> int:
    """Sum of resident set sizes (shared pages counted once per process, like ``ps``)."""
    total = 0
    page = os.sysconf("SC_PAGE_SIZE")
    for pid in pids:
        try:
            with open(f"/proc/{pid}/statm") as f:
                total += int(f.read().split()[1]) * page
        except (OSError, IndexError, ValueError):
            continue
    return total


def pss_bytes(pids: Iterable[int]) -> int:
    """Sum of proportional set sizes: shared libraries split between their users."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1]) * 1024
                        break
        except (OSError, ValueError):
            continue
    return total


def kill_all(pids: Iterable[int], timeout: float = 2.0) -> None:
    """SIGTERM, wait up to ``timeout`` for them to go, then SIGKILL the rest."""
    pids = list(pids)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGTERM)
    wait_until(lambda: not any(alive(p) for p in pids), timeout)
    for pid in pids:
        if alive(pid):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)


# The parent-death signal fires when the *thread* that forked the child ends, not the
# process: a desktop started from a short-lived thread (a web server's worker) would lose
# its X server with that thread. One thread that lives as long as the process forks them.
_SPAWNER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="reef-spawner")


def spawn_bound(argv: Sequence[str], **popen: Any) -> subprocess.Popen[bytes]:
    """``subprocess.Popen(argv, **popen)``, the child killed (SIGKILL) when this process ends.

    Through util-linux's ``setpriv --pdeathsig`` (the signal survives its exec); without
    ``setpriv`` the child is started unbound.

    Raises:
        FileNotFoundError: ``argv[0]`` is not installed.
    """
    if shutil.which(argv[0]) is None:
        raise FileNotFoundError(argv[0])
    setpriv = shutil.which("setpriv")
    bound = [setpriv, "--pdeathsig", "KILL", "--", *argv] if setpriv else list(argv)

    def start() -> subprocess.Popen[bytes]:
        return subprocess.Popen(bound, **popen)

    return _SPAWNER.submit(start).result()
