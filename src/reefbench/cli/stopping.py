"""Stopping a command as schedulers stop jobs: SIGTERM like Ctrl+C, and nothing left behind.

Slurm, Kubernetes and ``timeout`` send SIGTERM, whose default action ends Python at once:
no ``finally`` runs, so the desktops' X servers and sandboxes, Chromium and the services
were left running, orphaned. :func:`stopped_cleanly` makes SIGTERM raise
:class:`KeyboardInterrupt` in the main thread, the orderly path Ctrl+C already takes
(episodes aborted and stored as aborted, environments stopped), and afterwards kills
whatever this process started that is still alive: its descendants and every process in a
pid namespace one of them made (a sandbox's daemons), so one stuck worker cannot leak a
desktop.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator
from types import FrameType

from reefbench.envs import procs

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    # Once stopping, further signals are ignored: a second Ctrl+C must not cut the
    # orderly shutdown short and leave the very processes it is stopping.
    for stop in STOP_SIGNALS:
        signal.signal(stop, signal.SIG_IGN)
    raise KeyboardInterrupt(signal.Signals(signum).name)


def stop_on_signals() -> None:
    """SIGTERM and SIGINT raise :class:`KeyboardInterrupt` in the main thread (once)."""
    for stop in STOP_SIGNALS:
        signal.signal(stop, _interrupt)


def end_descendants(timeout: float = 3.0) -> list[int]:
    """Kill every live process this one started (and their pid namespaces); return them."""
    victims = procs.descendants(os.getpid())
    own = procs.pid_namespace(os.getpid())
    namespaces = {procs.pid_namespace(p) for p in victims} - {own, None}
    for namespace in namespaces:
        assert namespace is not None
        victims += procs.in_namespace(namespace)
    victims = sorted(set(victims))
    procs.kill_all(victims, timeout=timeout)
    return victims


@contextlib.contextmanager
def stopped_cleanly() -> Iterator[None]:
    """Run a command so that SIGTERM/SIGINT stop it in order and nothing it started
    outlives it."""
    stop_on_signals()
    try:
        yield
    finally:
        end_descendants()
