"""Episodes per hour on real desktop + phone environments: 1 worker vs 16 concurrent.

With model latency of 10-20 s per step, a benchmark run is fast only if many episodes run
at once on cheap environments. Each episode here is a cross-device task on a real desktop
(Xvfb + sandboxed apps) and a real phone (Chromium in mobile emulation); the agent "thinks"
for a simulated ``--latency`` seconds per step (default 10 s), then waits; both devices are
observed every step (screenshot, accessibility tree / UI dump, Set-of-Marks), exactly as a
model-backed agent would have them observed. Episodes end at the step limit.

Two throughputs are reported: for the whole run, environment start-up included (the
runner pre-warms one desktop and one phone per worker, concurrently, which costs a few CPU
seconds per pair on 2 cores), and in steady state, counted from the moment every worker has
finished its first episode (the regime of a long benchmark run). Memory is the summed
proportional set size (PSS) and resident set size (RSS) of this process and every
descendant (X servers, sandboxes, apps, Chromium), sampled every second; PSS counts shared
pages once.

Usage: ``python bench/throughput.py [--latency 10] [--steps 3] [--episodes-per-worker 3]``
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from _episodes import ThinkingAgent, emit, run_measured
from reefbench import Task, TaskMetadata


def make_task(steps: int) -> Task:
    from reefbench.envs.desktop.evaluators import file_exists

    return Task(
        id="cross-device-thinking",
        instruction="Copy the code shown on the phone into ~/code.txt on the desktop.",
        nodes={"code": file_exists("~/code.txt").on("desktop")},
        reference_solution=[],
        metadata=TaskMetadata(environments=["desktop", "phone"], step_limit=steps),
    )


def make_environments() -> dict[str, Any]:
    from reefbench.envs.desktop import DesktopEnvironment
    from reefbench.envs.phone import PhoneEnvironment

    return {"desktop": DesktopEnvironment("desktop"), "phone": PhoneEnvironment("phone")}


def measure(workers: int, episodes: int, steps: int, latency: float) -> dict[str, float]:
    run = run_measured(
        [make_task(steps)],
        list(range(episodes)),
        workers,
        lambda thinking: ThinkingAgent(latency, thinking),
        make_environments,
    )
    bad = [r.termination for r in run.results if r.termination != "step_limit"]
    if bad or len(run.results) != episodes:
        print(f"unexpected outcomes: {bad} ({len(run.results)}/{episodes} done)", file=sys.stderr)
        sys.exit(1)
    return {
        "wall": run.wall,
        "per_hour": episodes / run.wall * 3600,
        "steady_per_hour": run.steady_per_hour(workers),
        "peak_pss_mb": run.accounting.peak_pss_mb,
        "peak_rss_mb": run.accounting.peak_rss_mb,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=10.0)
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--episodes-per-worker", type=int, default=6)
    parser.add_argument("--workers", type=int, default=16)
    args = parser.parse_args()
    single = measure(1, args.episodes_per_worker, args.steps, args.latency)
    emit("throughput_1_worker", single["per_hour"], "episodes/h", wall_s=round(single["wall"], 1))
    many = measure(args.workers, args.workers * args.episodes_per_worker, args.steps, args.latency)
    emit(
        f"throughput_{args.workers}_workers",
        many["per_hour"],
        "episodes/h",
        wall_s=round(many["wall"], 1),
    )
    emit("throughput_speedup", many["per_hour"] / single["per_hour"], "x", target=12)
    emit("throughput_1_worker_steady", single["steady_per_hour"], "episodes/h")
    emit(f"throughput_{args.workers}_workers_steady", many["steady_per_hour"], "episodes/h")
    emit(
        "throughput_speedup_steady",
        many["steady_per_hour"] / single["steady_per_hour"],
        "x",
        target=12,
    )
    emit("load_average_1min", os.getloadavg()[0], "processes")
    emit("memory_peak_pss", many["peak_pss_mb"], "MB", workers=args.workers, target_mb=16384)
    emit("memory_peak_rss", many["peak_rss_mb"], "MB", workers=args.workers)
    emit("memory_peak_pss_1_worker", single["peak_pss_mb"], "MB")


if __name__ == "__main__":
    main()
