"""A suite on a real multi-node Ray cluster on loopback: spread over the nodes, a node lost
mid-run without losing an episode, and the validation gates distributed.

The cluster (:mod:`ray_cluster`) is a head and two worker nodes, each its own processes,
started once for the module; ``reef`` runs as users run it, as a driver process given
``--ray ADDRESS``. The head offers no CPU (it coordinates), w1 one and w2 two, so two
workers take one CPU on each worker node and w2 has one spare for the episode of a lost w1.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("ray")
# The first test also starts the cluster and plays the baseline run (about 2 minutes on a
# loaded 2-core machine), which pytest-timeout counts against it.
pytestmark = [pytest.mark.integration, pytest.mark.timeout(600)]

sys.path.insert(0, str(Path(__file__).parent))
from ray_cluster import LoopbackCluster, node_names  # noqa: E402

from reefbench.log.store import ResultsStore  # noqa: E402
from reefbench.plumbing.waiting import wait_until  # noqa: E402
from reefbench.runner.ray_executor import PLACEMENT_FILE  # noqa: E402

REEF = str(Path(sys.executable).with_name("reef"))
# Cheap reef-v1 tasks: two on the phone, one in the browser, one on the desktop.
TASKS = ["v1-small-6d6879c3be8d", "v1-small-d80a59a19b0d", "v1-small-a62dd50d6bf6"]
TASKS += ["v1-hand-f064223bb4c6"]  # (v1-hand-ae95ff16832a's clipboard step flaked under load)
RUN_TIMEOUT = 600


@pytest.fixture(scope="module")
def cluster() -> Iterator[LoopbackCluster]:
    cluster = LoopbackCluster({"head": 0, "w1": 1, "w2": 2})
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()
        left = cluster.leftovers()
        assert not left, f"processes of the test cluster outlived it: {left}"


def reef_run(cluster: LoopbackCluster, out: Path) -> subprocess.Popen[str]:
    args = [REEF, "run", "--suite", "v1", "--agent", "oracle", "--workers", "2"]
    args += ["--ray", cluster.address, "--out", str(out), "--no-report"]
    for task in TASKS:
        args += ["--task", task]
    return subprocess.Popen(
        args, env=cluster.env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def finished(process: subprocess.Popen[str]) -> str:
    output, _ = process.communicate(timeout=RUN_TIMEOUT)
    assert process.returncode == 0, output[-3000:]
    return output


def verdicts(run_dir: Path) -> dict[str, tuple[str, bool, float]]:
    store = ResultsStore(run_dir)
    try:
        return {r.task_id: (r.termination, r.success, r.completion_ratio) for r in store.results()}
    finally:
        store.close()


def rows(run_dir: Path) -> list[dict[str, object]]:
    store = ResultsStore(run_dir)
    try:
        return store.rows()
    finally:
        store.close()


def placements(run_dir: Path) -> dict[str, str]:
    """Episode folder -> the id of the node that played it."""
    return {
        path.parent.name: json.loads(path.read_text())["node_id"]
        for path in (run_dir / "episodes").glob(f"*/{PLACEMENT_FILE}")
    }


@pytest.fixture(scope="module")
def baseline(cluster: LoopbackCluster, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run of :data:`TASKS` across the cluster with every node up."""
    out = tmp_path_factory.mktemp("baseline") / "run"
    finished(reef_run(cluster, out))
    return out


def test_every_node_of_the_cluster_is_on_loopback(cluster: LoopbackCluster) -> None:
    nodes = cluster.alive_nodes()
    assert sorted(node_names(nodes).values()) == ["head", "w1", "w2"]
    assert {n["NodeManagerAddress"] for n in nodes} == {"127.0.0.1"}
    # Nothing of any node accepts connections from outside the machine.
    listening = set().union(*(node.listening() for node in cluster.nodes.values()))
    assert listening and listening <= {"127.0.0.1", "::ffff:127.0.0.1"}, listening


def test_a_run_plays_its_episodes_on_more_than_one_node(
    cluster: LoopbackCluster, baseline: Path
) -> None:
    assert {r["status"] for r in rows(baseline)} == {"done"}
    assert all(success for _, success, _ in verdicts(baseline).values())
    names = node_names(cluster.every_node())  # w1 may have been lost and restarted since
    played_on = {names[node] for node in placements(baseline).values()}
    assert len(placements(baseline)) == len(TASKS)
    assert played_on == {"w1", "w2"}  # the head offers no CPU


def test_a_node_lost_mid_run_loses_no_episode_and_the_report_is_unchanged(
    cluster: LoopbackCluster, baseline: Path, tmp_path: Path
) -> None:
    w1 = cluster.nodes["w1"]

    def playing_on_w1() -> bool:
        titles = []
        for proc in w1.processes():
            try:
                titles.append(" ".join(proc.cmdline()))
            except Exception:  # a process that ended meanwhile
                continue
        return any("EpisodePlayer.play" in t for t in titles)

    run = reef_run(cluster, tmp_path / "run")
    try:
        assert wait_until(playing_on_w1, 300, interval=0.2), "no episode ever ran on w1"
        w1.kill()  # the node's raylet, its workers and what they started, at once
        output = finished(run)
    finally:
        if run.poll() is None:
            run.kill()
        cluster.restart("w1")  # for the module's other tests
    stored = rows(tmp_path / "run")
    assert sorted(str(r["task_id"]) for r in stored) == sorted(TASKS)  # each once
    folders = list((tmp_path / "run" / "episodes").iterdir())
    assert len([f for f in folders if "~attempt" not in f.name]) == len(TASKS)
    # the lost attempt's folder is kept aside, with why it was lost
    assert any((f / "error.txt").is_file() for f in folders if "~attempt" in f.name), folders
    assert {r["status"] for r in stored} == {"done"}
    # The lost episode was played again, as an infrastructure retry, not the agent's fail.
    assert sum(int(str(r["attempts"])) for r in stored) > len(TASKS)
    assert re.search(r"infra 0 retried [1-9]", output), output[-2000:]
    assert verdicts(tmp_path / "run") == verdicts(baseline)


def test_suite_check_distributes_the_gates(cluster: LoopbackCluster) -> None:
    args = [REEF, "suite", "check", "--suite", "v1", "--workers", "2", "--ray", cluster.address]
    for task in TASKS[:2]:
        args += ["--tasks", task]
    done = subprocess.run(
        args, env=cluster.env(), capture_output=True, text=True, timeout=RUN_TIMEOUT
    )
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    assert "2 of 2 tasks pass the gates" in done.stdout
    assert "on 2 Ray nodes" in done.stdout


@pytest.mark.parametrize("command", [["run", "--agent", "oracle"], ["suite", "check"]])
def test_a_cluster_nobody_answers_at_is_refused_in_one_line(
    command: list[str], tmp_path: Path
) -> None:
    with socket.socket() as sock:  # a port nothing listens on once closed
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    done = subprocess.run(
        [REEF, *command, "--suite", "memory", "--ray", f"127.0.0.1:{port}"],
        capture_output=True,
        text=True,
        timeout=120,  # Ray itself would retry for minutes
        cwd=tmp_path,
    )
    assert done.returncode != 0
    assert f"cannot join the Ray cluster at 127.0.0.1:{port}" in done.stderr + done.stdout
    assert "Traceback" not in done.stderr + done.stdout
