"""A real multi-node Ray cluster on this machine, for the Ray executor's tests.

Each node is its own ``ray start --block`` process (a head and worker nodes), in its own
session, so a node can be lost alone (its whole process group killed, as a machine that
goes away) and the cluster torn down without touching any other Ray on the machine:
``ray stop`` would stop every Ray process of the machine, so it is never used. Every node
binds 127.0.0.1 and all its ports are picked free, so clusters of concurrent test runs do
not meet; the nodes, the test process and any ``reef`` the test starts share a token of
their own (``RAY_AUTH_TOKEN``), so no other local Ray client joins by accident.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from reefbench.plumbing.waiting import wait_until

RAY = str(Path(sys.executable).with_name("ray"))
WORKER_NODE = Path(__file__).with_name("ray_worker_node.py")
OBJECT_STORE = 80 * 1024 * 1024
NODE_RESOURCE = "reef_node_"
"""Each node's unique custom resource is this prefix plus the node's name."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Node:
    """One ``ray start --block`` process and its name (``head``, ``w1``, ...)."""

    name: str
    process: subprocess.Popen[bytes]
    log: Path

    def processes(self) -> list[psutil.Process]:
        """Every live process of this node: its session (raylet, agents, workers) and
        whatever they started in sessions of their own (an episode's X server, browser)."""
        found: dict[int, psutil.Process] = {}
        for proc in psutil.process_iter(["pid"]):
            try:
                if os.getsid(proc.pid) == self.process.pid:
                    found[proc.pid] = proc
                    found.update((c.pid, c) for c in proc.children(recursive=True))
            except (ProcessLookupError, PermissionError, psutil.NoSuchProcess):
                continue
        return list(found.values())

    def listening(self) -> set[str]:
        """The addresses this node's processes accept connections on."""
        found = set()
        for proc in self.processes():
            try:
                connections = proc.net_connections(kind="inet")
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
            found |= {c.laddr.ip for c in connections if c.status == psutil.CONN_LISTEN}
        return found

    def kill(self) -> None:
        """Lose the node at once (SIGKILL to all its processes), as a machine that dies."""
        for proc in self.processes():
            try:
                proc.kill()
            except psutil.NoSuchProcess:
                continue
        self.process.wait(timeout=30)


@dataclass
class LoopbackCluster:
    """A head and worker nodes on 127.0.0.1; ``cpus`` maps node name to its CPUs."""

    cpus: dict[str, int]
    root: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="reef-ray-")))
    port: int = field(default_factory=_free_port)
    token: str = field(default_factory=lambda: secrets.token_hex(32))
    nodes: dict[str, Node] = field(default_factory=dict)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def env(self) -> dict[str, str]:
        """The environment of every node and client of this cluster."""
        return {
            **os.environ,
            "RAY_USAGE_STATS_ENABLED": "0",
            "RAY_AUTH_MODE": "token",
            "RAY_AUTH_TOKEN": self.token,
            # A lost node is declared dead within about two seconds (default: ~15 s).
            "RAY_health_check_period_ms": "500",
            "RAY_health_check_timeout_ms": "500",
            "RAY_health_check_failure_threshold": "3",
            # Ray replaces 127.0.0.1 with the machine's interface address unless it
            # believes it runs on one machine (head, workers and drivers alike).
            "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
        }

    def start(self, timeout: float = 90.0) -> None:
        for name, cpus in self.cpus.items():
            self._start_node(name, cpus)
        if wait_until(lambda: len(self.alive_nodes()) == len(self.cpus), timeout, interval=0.5):
            return
        logs = {n: node.log.read_text(errors="replace")[-800:] for n, node in self.nodes.items()}
        self.stop()
        raise RuntimeError(f"the Ray cluster did not come up in {timeout:.0f} s: {logs}")

    def restart(self, name: str, timeout: float = 90.0) -> None:
        """Start node ``name`` again (after :meth:`Node.kill`), with its resources."""
        self._start_node(name, self.cpus[name])
        if not wait_until(lambda: len(self.alive_nodes()) == len(self.cpus), timeout, interval=0.5):
            raise RuntimeError(f"node {name} did not rejoin in {timeout:.0f} s")

    def _start_node(self, name: str, cpus: int) -> None:
        head = name == "head"
        resources = {NODE_RESOURCE + name: 1}
        ports = {
            "dashboard_agent_listen_port": _free_port(),
            "metrics_agent_port": _free_port(),
            "metrics_export_port": _free_port(),
            "runtime_env_agent_port": _free_port(),
        }
        if head:
            args = [
                RAY,
                "start",
                "--block",
                "--head",
                "--node-ip-address=127.0.0.1",
                f"--port={self.port}",
                f"--num-cpus={cpus}",
                f"--resources={json.dumps(resources)}",
                "--include-dashboard=false",
                f"--dashboard-port={_free_port()}",
                "--disable-usage-stats",
                "--min-worker-port=0",
                "--max-worker-port=0",
                f"--dashboard-agent-listen-port={ports['dashboard_agent_listen_port']}",
                f"--dashboard-agent-grpc-port={ports['metrics_agent_port']}",
                f"--metrics-export-port={ports['metrics_export_port']}",
                f"--runtime-env-agent-port={ports['runtime_env_agent_port']}",
                f"--temp-dir={self.root / name}",
                f"--object-store-memory={OBJECT_STORE}",
            ]
        else:  # ray start cannot put a worker node on 127.0.0.1 (see ray_worker_node.py)
            params = {
                "gcs_address": self.address,
                "num_cpus": cpus,
                "resources": resources,
                "min_worker_port": 0,
                "max_worker_port": 0,
                "node_manager_port": 0,
                "temp_dir": str(self.root / name),
                "object_store_memory": OBJECT_STORE,
                "include_log_monitor": False,
                **ports,
            }
            args = [sys.executable, str(WORKER_NODE), json.dumps(params)]
        log = self.root / f"{name}.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                args, env=self.env(), stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        self.nodes[name] = Node(name, process, log)
        if head:  # the workers join the head's GCS: it must be listening first
            up = wait_until(
                lambda: _listening(self.port) or process.poll() is not None, 60, interval=0.2
            )
            if not up or process.poll() is not None:
                raise RuntimeError(f"the Ray head did not start: {log.read_text()[-800:]}")

    def alive_nodes(self) -> list[dict[str, object]]:
        """``ray.nodes()`` of the live nodes."""
        return [n for n in self.every_node() if n.get("Alive")]

    def every_node(self) -> list[dict[str, object]]:
        """``ray.nodes()``, lost nodes too, read by a client process (``ray status`` would
        need the same: the test process is not a driver)."""
        script = (
            "import json, ray; ray.init(address=%r, logging_level='ERROR'); "
            "print(json.dumps(ray.nodes()))"
        )
        done = subprocess.run(
            [sys.executable, "-c", script % self.address],
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=60,
        )
        if done.returncode != 0:
            return []
        nodes: list[dict[str, object]] = json.loads(done.stdout.strip().splitlines()[-1])
        return nodes

    def stop(self) -> None:
        """Kill every process of every node and remove the cluster's directory."""
        for node in self.nodes.values():
            node.kill()
        shutil.rmtree(self.root, ignore_errors=True)

    def leftovers(self) -> list[str]:
        """Processes of this cluster still running (none after :meth:`stop`): Ray's own
        (their command lines name the cluster's directory) and any process an actor
        started (they inherit the cluster's token in their environment)."""
        marker, token = str(self.root), f"RAY_AUTH_TOKEN={self.token}".encode()
        found = []
        for proc in psutil.process_iter(["pid", "cmdline"]):
            cmdline = " ".join(proc.info["cmdline"] or [])
            try:
                environ = Path(f"/proc/{proc.pid}/environ").read_bytes()
            except OSError:  # ended meanwhile, or another user's
                environ = b""
            if marker in cmdline or token in environ.split(b"\0"):
                found.append(f"{proc.info['pid']}: {cmdline[:120]}")
        return found


def node_names(nodes: list[dict[str, object]]) -> dict[str, str]:
    """Node id -> the node's name: from its unique custom resource, or for a lost node
    (Ray lists it without resources) from its raylet's socket, in the node's directory."""
    names = {}
    for node in nodes:
        resources = node.get("Resources") or {}
        assert isinstance(resources, dict)
        for resource in resources:
            if resource.startswith(NODE_RESOURCE):
                names[str(node["NodeID"])] = resource.removeprefix(NODE_RESOURCE)
        socket_path = Path(str(node.get("RayletSocketName", "")))
        if str(node["NodeID"]) not in names and len(socket_path.parts) > 4:
            names[str(node["NodeID"])] = socket_path.parts[-4]  # <name>/session_*/sockets/raylet
    return names


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0
