"""The desktop's clock: the task's world time, through Debian's libfaketime in the sandbox.

Every process in the sandbox but the window manager (:data:`REAL_TIME_PROGRAMS`) preloads
libfaketime, which reads an offset from a file in the session's runtime directory
(``FAKETIME_TIMESTAMP_FILE``): the wall clock plus that offset is the world time, so the
panel, the apps and ``date`` in the terminal all read the task's day and the clock still
ticks. The host's clock is never touched. The file is written when the sandbox starts.
Monotonic clocks move with the offset (libfaketime 0.9.10 with
``FAKETIME_DONT_FAKE_MONOTONIC`` fails every absolute ``clock_nanosleep``: Python's
``time.sleep`` raises EINVAL), and the panel draws its clock once a minute: so the
session starts on the task's world time when the episode says it before the reset
(:meth:`.DesktopDevice.expect_world_time`), and restarts (0.7 s) only when the world time
moves under a running sandbox otherwise (:meth:`.DesktopDevice.set_world_time`).

File times: Debian bookworm's libfaketime 0.9.10 fakes none of what programs built
against glibc 2.33 and later call to read them (``stat64``, ``fstatat64``, ``statx``), and
its own ``stat`` wrappers move every file's times, a system file's too. So those are
turned off (``NO_FAKE_STAT``) and :mod:`.filetime`'s shim, preloaded first, maps the times the
kernel stamped during the episode to the world's clock, while files the harness writes
carry world times set explicitly (the home restored at a reset, a setup's files:
:func:`stamp_tree`) and keep them; a seeded world's files carry their own dates before
:data:`~reefbench.tasks.worldtime.WORLD_NOW`. Host-side code reads the host's times.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from zoneinfo import ZoneInfo

from reefbench.envs.desktop import filetime
from reefbench.tasks.worldtime import WORLD_TIMEZONE, parse_now

LIBRARY = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
"""Debian's ``libfaketime`` (single-threaded variant, the one ``faketime`` uses)."""
OFFSET_FILE = "faketime"
"""Name of the offset file in the session's runtime directory (the same path inside)."""
CACHE_SECONDS = 1  # how soon a running process would see a rewritten offset
# The window manager keeps the host's clock: under libfaketime 0.9.10, openbox restarted
# on a restored home manages no window (the panel never appears). It shows no time.
REAL_TIME_PROGRAMS = ("openbox",)


def world_epoch(now: str) -> float:
    """The world time ``now`` (``YYYY-MM-DDTHH:MM``, local to :data:`WORLD_TIMEZONE`) as
    seconds since the epoch."""
    return parse_now(now).replace(tzinfo=ZoneInfo(WORLD_TIMEZONE)).timestamp()


def offset_seconds(now: str, host_time: float) -> int:
    """Whole seconds the sandbox's clock runs ahead of the host's when world time ``now``
    is shown at host time ``host_time`` (negative: behind).

    Rounded up, never to the nearest: the sandbox's clock then starts within a second
    after ``now``, never before it (a rounded-down offset showed 08:29:59 for a world that
    begins at 08:30, the day before at midnight)."""
    return math.ceil(world_epoch(now) - host_time)


def write_offset(runtime: Path, now: str, host_time: float) -> int:
    """Write the offset file for world time ``now`` (at host time ``host_time``) atomically
    (a process reading it meanwhile sees the old offset or the new one, never half);
    returns the offset in seconds."""
    offset = offset_seconds(now, host_time)
    partial = runtime / f".{OFFSET_FILE}.partial"
    partial.write_text(f"{offset:+d}s\n")  # libfaketime's relative form: "+123s"
    os.replace(partial, runtime / OFFSET_FILE)
    return offset


def sandbox_env(runtime: Path, since: float) -> dict[str, str]:
    """Variables that put every process of the sandbox on the world's clock, its file
    times too for what the kernel stamps from host time ``since`` (the episode's start)."""
    return {
        # The shim first: its stat wrappers must be the ones programs call.
        "LD_PRELOAD": f"{filetime.SANDBOX_PATH} {LIBRARY}",
        "FAKETIME_TIMESTAMP_FILE": str(runtime / OFFSET_FILE),
        "FAKETIME_CACHE_DURATION": str(CACHE_SECONDS),
        "FAKETIME_SKIP_CMDS": ",".join(REAL_TIME_PROGRAMS),
        "NO_FAKE_STAT": "1",  # the shim maps file times (libfaketime's moved them all)
        "TZ": WORLD_TIMEZONE,
        **filetime.sandbox_env(since),
    }


def sandbox_files() -> dict[str, Path]:
    """Sandbox path -> host file the world's clock needs shown read-only inside: the
    file-time shim (built on first use, :func:`.filetime.build`)."""
    return {filetime.SANDBOX_PATH: filetime.build()}


def available() -> bool:
    """Whether Debian's libfaketime is installed (``apt-get install libfaketime``)."""
    return Path(LIBRARY).is_file()


def stamp_tree(root: Path, when: float, *, since: float | None = None) -> None:
    """Set the modification (and access) time of ``root`` and everything under it to
    ``when`` (POSIX seconds), symlinks themselves rather than their targets; with ``since``,
    only of the entries modified at or after that host time (what was written since)."""
    for folder, dirs, files in os.walk(root):
        for name in (*dirs, *files):
            path = os.path.join(folder, name)
            if since is None or os.lstat(path).st_mtime >= since:
                os.utime(path, (when, when), follow_symlinks=False)
    if since is None or os.stat(root).st_mtime >= since:
        os.utime(root, (when, when))
