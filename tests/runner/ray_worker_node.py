"""Start one Ray worker node on 127.0.0.1 and block until killed (``ray start --block``).

``ray start --address=127.0.0.1:PORT`` cannot make a worker node on loopback: Ray swaps
127.0.0.1 for the machine's interface address unless ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``
(Ray then believes it runs on one machine), and ``ray start`` refuses to start a worker
node in that mode. This starts the node as ``ray start`` does (``ray._private.node.Node``,
also what Ray's own ``cluster_utils.Cluster`` uses), with that mode set: every address stays
127.0.0.1. Usage: ``python ray_worker_node.py '{"gcs_address": ..., ...}'`` (RayParams).
"""

from __future__ import annotations

import json
import os
import signal
import sys

os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"  # before Ray reads its constants

from ray._private.node import Node
from ray._private.parameter import RayParams


def main() -> None:
    params = RayParams(node_ip_address="127.0.0.1", **json.loads(sys.argv[1]))
    Node(params, head=False, shutdown_at_exit=True, spawn_reaper=True)
    print("Ray runtime started.", flush=True)
    signal.sigwait({signal.SIGTERM, signal.SIGINT})


if __name__ == "__main__":
    main()
