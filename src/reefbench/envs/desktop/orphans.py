"""Desktops left behind by a harness that died without stopping them (SIGKILL, OOM killer).

Xvfb runs in its own session and the sandbox in its own pid namespace, so neither dies with
the harness by itself: Xvfb is bound to it by a parent-death signal
(:func:`reefbench.envs.procs.spawn_bound`) and the sandbox's init ends its namespace when
its request pipe closes. For a host where that fails (no ``setpriv``), and for the
instance directories left behind, every session records its owner and its processes in
``owner.json`` inside its instance directory, and starting a session first reaps the
instances under the same directory whose owner is gone. A process is identified by its pid
*and* its start time, so a recycled pid is never mistaken for one of ours.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from pathlib import Path
from typing import Any

from reefbench.envs import procs

OWNER_FILE = "owner.json"
INSTANCE_GLOB = "reef-desktop-*"


def _identity(pid: int | None) -> list[int] | None:
    started = procs.start_time(pid) if pid else None
    return [pid, started] if pid and started is not None else None


def _live_pid(identity: Any) -> int | None:
    """The pid of the process recorded as ``[pid, start time]``, if it is still that
    process and alive."""
    if not (isinstance(identity, list) and len(identity) == 2):
        return None
    pid, started = identity
    if isinstance(pid, int) and procs.alive(pid) and procs.start_time(pid) == started:
        return pid
    return None


def record(instance: Path, *, xvfb: int | None, sandbox: int | None, namespace: str | None) -> None:
    """Write who owns this instance and which processes are its own (atomically)."""
    data = {
        "harness": _identity(os.getpid()),
        "xvfb": _identity(xvfb),
        "sandbox": _identity(sandbox),
        "namespace": namespace,
    }
    partial = instance / f".{OWNER_FILE}.tmp"
    partial.write_text(json.dumps(data), encoding="utf-8")
    partial.replace(instance / OWNER_FILE)


def reap(base: Path) -> list[Path]:
    """Stop and delete every instance under ``base`` whose harness is gone; return them.

    Instances without a readable owner file are left alone: they are being created, or
    they are not ours.
    """
    reaped = []
    for instance in sorted(base.glob(INSTANCE_GLOB)):
        try:
            data = json.loads((instance / OWNER_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(data, dict) or _live_pid(data.get("harness")) is not None:
            continue
        victims: list[int] = []
        sandbox = _live_pid(data.get("sandbox"))
        if sandbox is not None:
            namespace = data.get("namespace")
            if isinstance(namespace, str):
                victims += procs.in_namespace(namespace)
            victims += [*procs.descendants(sandbox), sandbox]
        xvfb = _live_pid(data.get("xvfb"))
        if xvfb is not None:
            victims.append(xvfb)
        procs.kill_all(victims, timeout=1.0)
        with contextlib.suppress(OSError):
            shutil.rmtree(instance)
        reaped.append(instance)
    return reaped
