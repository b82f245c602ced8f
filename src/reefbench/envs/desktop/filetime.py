"""File times on the world's clock: the LD_PRELOAD shim ``filetime_shim.c``, built here.

Debian bookworm's libfaketime 0.9.10 fakes the clock but not the calls that read file
times in programs built against glibc 2.33 and later (``stat64``, ``fstatat64``,
``statx``: ``ls``, ``stat``, ``date -r``, Python's ``os.stat``, GLib and so Thunar), so a
file a program wrote during the episode showed the host's day. The shim, preloaded before
libfaketime in the sandbox (:func:`.faketime.sandbox_env`), wraps the stat family and
applies one rule to every time it returns (atime, mtime, ctime, a ``statx`` btime):

* the offset is real now minus world now in whole seconds, measured in the calling
  process: the real clock by the raw syscall, the world's by ``clock_gettime`` through
  libfaketime, so libfaketime's offset file stays the one source of truth;
* a time at or after :data:`SINCE_VARIABLE` (the host time the episode began) is one the
  kernel stamped during the episode, and is shown minus the offset when the world is
  behind the host;
* every other time is shown as stored: the files the harness and a task's setup wrote
  carry world times set explicitly (before the episode's start, as the world is behind),
  system files are older, and a world ahead of the host moves nothing.

Setting times needs no wrapper: ``touch f`` asks for "now", which libfaketime makes the
world's; ``touch -d`` and ``cp -p`` pass world times already. libfaketime's own
``stat``/``lstat``/``fstat`` wrappers, which moved every file's times (a system file's
too), are turned off (``NO_FAKE_STAT``). Host-side code (evaluators, the home's snapshot)
reads the host's times, unchanged.

The shim is compiled with the system's ``cc`` the first time a world clock needs it, into
the user's cache (keyed by the source's hash, so an edited source is rebuilt), and shown
read-only inside the sandbox at :data:`SANDBOX_PATH`.
"""

from __future__ import annotations

from pathlib import Path

from reefbench.envs.desktop import native_build

SOURCE = Path(__file__).with_name("filetime_shim.c")
SANDBOX_PATH = "/run/reef/filetime_shim.so"
"""Where the built shim appears inside the sandbox (``/run`` is the sandbox's own tmpfs)."""
SINCE_VARIABLE = "REEF_FILETIME_SINCE"
"""The environment variable the shim reads the episode's start (host POSIX seconds) from."""


def cache_dir() -> Path:
    """Where built shims are kept: ``$XDG_CACHE_HOME/reefbench/filetime`` (``~/.cache``)."""
    return native_build.cache_dir("filetime")


def build(cache: Path | None = None) -> Path:
    """The shim built from :data:`SOURCE` (compiled on first use, then reused).

    Raises:
        EnvironmentFailure: no C compiler, or the compiler rejected the source.
    """
    return native_build.build_library(
        SOURCE,
        cache or cache_dir(),
        "the desktop's file-time shim",
        "the desktop's world clock builds a file-time shim",
    )


def sandbox_env(since: float) -> dict[str, str]:
    """The shim's variable for an episode that began at host time ``since``."""
    return {SINCE_VARIABLE: str(int(since))}
