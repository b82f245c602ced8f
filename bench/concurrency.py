"""Episodes per hour, memory and CPU at 1, 8, 16 and 32 concurrent workers on reef-v1 tasks.

A model-backed run spends most of its time waiting for the model, so how many episodes one
machine can hold at once decides its throughput; what bounds that is what a waiting episode
costs (CPU its devices burn while the agent thinks, memory they hold). Each worker owns
reef-v1's devices (the account, a desktop, a phone, a browser) and plays a mix of
reef-v1 tasks, one of each kind: desktop, phone, browser and cross-device (desktop and
phone); the agent is the oracle, observing every device every turn as a model agent is
shown them, thinking ``--latency`` seconds (default 10) before each turn.

One JSON line per worker count: throughput (episodes/h over the whole run, start-up
included), the speedup over the first worker count, peak total PSS, CPU seconds per
episode (every process of the run, start-up included), and the steady-state throughput
(from when every worker finished its first episode). Then one line per component of the
idle cost: CPU milliseconds per second while every worker's agent was thinking, and its PSS
(see ``bench/_episodes.py``); the idle lines need windows in which all workers think at
once, which ``--turns 2 --latency 15`` makes long at small worker counts.

Usage: ``python bench/concurrency.py [--workers-list 1,8,16,32] [--latency 10]
[--episodes-per-worker 2] [--turns N]``
"""

from __future__ import annotations

import argparse
import math
import os
from typing import Any

from _episodes import ThinkingOracle, emit, idle_table, run_measured
from reefbench import Task

KINDS = {
    "desktop": ("desktop",),
    "phone": ("phone",),
    "browser": ("browser",),
    "cross-device": ("desktop", "phone"),
}


def task_mix() -> list[Task]:
    """The reef-v1 task of each kind with the shortest reference solution (ties by id)."""
    from reefbench.suites import get_suite

    tasks = get_suite("reef-v1").load()
    chosen = []
    for devices in KINDS.values():
        fits = [
            t
            for t in tasks
            if tuple(sorted(set(t.metadata.environments) - {"services"})) == devices
        ]
        chosen.append(min(fits, key=lambda t: (len(t.reference_solution), t.id)))
    return chosen


def make_environments() -> dict[str, Any]:
    from reefbench.benchmark.environments import make_environments as v1_environments

    return v1_environments()


def measure(
    workers: int, episodes_per_worker: int, latency: float, turns: int | None
) -> dict[str, Any]:
    tasks = task_mix()
    seeds = list(range(math.ceil(workers * episodes_per_worker / len(tasks))))
    run = run_measured(
        tasks,
        seeds,
        workers,
        lambda thinking: ThinkingOracle(latency, thinking, turns),
        make_environments,
    )
    episodes = len(run.results)
    return {
        "episodes": episodes,
        "succeeded": sum(r.termination == "success" for r in run.results),
        "per_hour": episodes / run.wall * 3600,
        "steady_per_hour": run.steady_per_hour(workers),
        "wall": run.wall,
        "accounting": run.accounting,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers-list", default="1,8,16,32")
    parser.add_argument("--latency", type=float, default=10.0)
    parser.add_argument("--episodes-per-worker", type=int, default=2)
    parser.add_argument(
        "--turns", type=int, default=None, help="play only this many turns (idle measurement)"
    )
    args = parser.parse_args()
    base = None
    for workers in [int(w) for w in args.workers_list.split(",")]:
        m = measure(workers, args.episodes_per_worker, args.latency, args.turns)
        base = base or m["per_hour"]
        acc = m["accounting"]
        emit(
            "throughput",
            m["per_hour"],
            "episodes/h",
            workers=workers,
            speedup=round(m["per_hour"] / base, 2),
            pss_gb=round(acc.peak_pss_mb / 1024, 2),
            cpu_s_per_episode=round(acc.cpu_seconds / max(1, m["episodes"]), 1),
            steady_per_hour=round(m["steady_per_hour"], 1),
            episodes=m["episodes"],
            succeeded=m["succeeded"],
            wall_s=round(m["wall"], 1),
            load_average_1min=os.getloadavg()[0],
            latency_s=args.latency,
        )
        for name, cpu, pss in idle_table(acc):
            if cpu >= 0.00005 or pss >= 1:
                emit(
                    "idle_cost",
                    cpu * 1000,
                    "cpu_ms/s",
                    component=name,
                    workers=workers,
                    pss_mb=round(pss, 1),
                    idle_s=round(acc.idle_seconds, 1),
                )


if __name__ == "__main__":
    main()
