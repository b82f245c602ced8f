"""Actors on a Ray cluster, one per worker thread, that survive the loss of a node.

The runner's episodes (:mod:`reefbench.runner.ray_executor`) and the validation gates
(:mod:`reefbench.validation.distributed`) both play work on actors that own heavy
environments; what they share is here, said once: connecting to the cluster, placing one
actor per CPU spread over the nodes, knowing which node each actor is on, and replacing an
actor that is gone (its process or its whole node lost) by a new one on a live node. The
caller decides what a failed call means (the runner retries the episode as an
infrastructure failure).
"""

from __future__ import annotations

import signal
import socket
import threading
from typing import Any

from reefbench.errors import ConfigError

PLACEMENT_TIMEOUT = 300.0
"""Seconds an actor may wait for a free CPU on the cluster (after a node is lost, for one
to come back or for other work to end) before its call fails."""


def connect(address: str | None, workers: int) -> None:
    """Join the cluster at ``address`` (``None`` or ``local``: start one here) once per
    process, and check it has a CPU for each of ``workers`` actors.

    Raises:
        ConfigError: Ray is not installed, the cluster cannot be joined, or it has fewer
            CPUs than ``workers`` (one line each).
    """
    try:
        import ray
    except ImportError:
        raise ConfigError("--ray needs Ray: pip install 'reefbench[ray]'") from None

    if not ray.is_initialized():
        kept = _stop_handlers()  # ray.init puts its own in place of the command's
        if address in (None, "local"):
            ray.init(include_dashboard=False, log_to_driver=False, num_cpus=max(2, workers))
        else:
            unreachable = _unreachable(address)
            if unreachable:  # Ray itself would retry for minutes
                raise ConfigError(f"cannot join the Ray cluster at {address}: {unreachable}")
            try:
                ray.init(address=address, log_to_driver=False)
            except (ConnectionError, ValueError, ray.exceptions.RayError) as exc:
                reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc)
                raise ConfigError(f"cannot join the Ray cluster at {address}: {reason}") from None
        for stop, handler in kept.items():
            signal.signal(stop, handler)
    cpus = ray.cluster_resources().get("CPU", 0)  # type: ignore[no-untyped-call]
    if cpus < workers:
        raise ConfigError(
            f"the Ray cluster at {address} offers {cpus:g} CPUs, fewer than the {workers} "
            f"workers: each holds one (pass --workers {int(cpus)} or give the nodes more "
            "--num-cpus)"
        )


def _stop_handlers() -> dict[signal.Signals, Any]:
    """The SIGINT and SIGTERM handlers in place (none off the main thread, where they cannot
    be set): ray.init's SIGTERM handler exits at once, where the command's stops in order
    (:mod:`reefbench.cli.stopping`)."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    kept = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    return {s: h for s, h in kept.items() if h is not None}


def _unreachable(address: str) -> str:
    """Why nothing answers at ``host:port`` ('' when something does, or for Ray's other
    address forms, which Ray resolves itself)."""
    host, colon, port = address.rpartition(":")
    if not colon or not port.isdigit():
        return ""
    try:
        socket.create_connection((host, int(port)), timeout=10).close()
    except OSError as exc:
        return exc.strerror or str(exc) or type(exc).__name__
    return ""


def node_of_this_process() -> dict[str, str]:
    """Where the calling actor lives: its node's id and IP address."""
    import ray

    return {
        "node_id": ray.get_runtime_context().get_node_id(),
        "node_ip": ray.util.get_node_ip_address(),  # type: ignore[no-untyped-call]
    }


class ActorPool:
    """``workers`` actors of ``cls`` (made with ``args``), one CPU each, spread over the
    nodes; actor ``i`` serves worker thread ``i`` only, so calls need no lock.

    ``cls`` must have a ``node()`` method returning :func:`node_of_this_process` and a
    ``close()`` method releasing what it holds.
    """

    def __init__(self, cls: type, args: tuple[Any, ...], workers: int) -> None:
        import ray

        # One CPU per actor: a node runs as many as its --num-cpus says at once, and
        # SPREAD places them over the nodes instead of filling one node first.
        self._actor: Any = ray.remote(cls).options(num_cpus=1, scheduling_strategy="SPREAD")
        self._args = args
        self.actors: list[Any] = [self.new_actor() for _ in range(workers)]
        self.nodes: dict[int, dict[str, str]] = {}
        """Actor index -> its node (asked once per actor, before its first call)."""
        self.running: dict[int, tuple[Any, str]] = {}
        """Actor index -> what it is working on and its node's id, while it works."""

    def new_actor(self) -> Any:
        """A fresh actor (one replacing a lost actor gets the same start)."""
        return self._actor.remote(*self._args)

    def call(self, index: int, label: Any, method: str, *args: Any) -> Any:
        """Call ``method(*args)`` on actor ``index`` and wait for its reply; ``label`` names
        the work in :attr:`running` meanwhile.

        Raises:
            ray.exceptions.RayTaskError: the method raised (the actor lives on).
            ray.exceptions.RayError: the actor is gone (its process or node lost) or found
                no CPU within :data:`PLACEMENT_TIMEOUT`; a new actor has taken its place.
        """
        import ray

        actor = self.actors[index]
        try:
            if index not in self.nodes:  # waits for the actor to be placed and started
                self.nodes[index] = ray.get(actor.node.remote(), timeout=PLACEMENT_TIMEOUT)
            self.running[index] = (label, self.nodes[index]["node_id"])
            return ray.get(getattr(actor, method).remote(*args))
        except ray.exceptions.RayTaskError:
            raise
        except ray.exceptions.RayError as exc:
            self.nodes.pop(index, None)
            self.actors[index] = self.new_actor()
            if isinstance(exc, ray.exceptions.GetTimeoutError):
                ray.kill(actor)  # still waiting for a CPU: its place goes to the new one
            raise
        finally:
            self.running.pop(index, None)

    def close(self, timeout: float | None = None) -> None:
        """Close every actor and end it; with a ``timeout`` (a stopped run: an actor busy
        with an episode would close only after it), each gets that long in all, and then
        ends anyway (what it started dies with its process)."""
        import ray

        if timeout is not None:
            ray.wait(
                [a.close.remote() for a in self.actors],
                num_returns=len(self.actors),
                timeout=timeout,
            )
            for actor in self.actors:
                ray.kill(actor)
            return
        for actor in self.actors:
            try:
                ray.get(actor.close.remote())
            except ray.exceptions.RayError:
                continue  # a dead actor has nothing left to close; the others still do
            finally:
                ray.kill(actor)
