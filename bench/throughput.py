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
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from reefbench import ActionCall, AgentOutput, Task, Turn
from reefbench.log.store import ResultsStore
from reefbench.runner.config import RunConfig
from reefbench.runner.engine import Runner


class ThinkingAgent:
    """Waits ``latency`` seconds per step (a model's think time), then calls ``wait()``."""

    name = "thinking"

    def __init__(self, latency: float) -> None:
        self.latency = latency

    def reset(self, task: Any, action_spaces: Any, descriptions: Any) -> None:
        pass

    def act(self, turn: Turn) -> AgentOutput:
        time.sleep(self.latency)  # simulated model latency, not synchronisation
        return AgentOutput(calls=[ActionCall(env="root", name="wait")])


def make_task(steps: int) -> Task:
    from reefbench.envs.desktop.evaluators import file_exists

    return Task(
        id="cross-device-thinking",
        instruction="Copy the code shown on the phone into ~/code.txt on the desktop.",
        nodes={"code": file_exists("~/code.txt").on("desktop")},
        reference_solution=[],
        metadata={"environments": ["desktop", "phone"], "step_limit": steps},
    )


def make_environments() -> dict[str, Any]:
    from reefbench.envs.desktop import DesktopEnvironment
    from reefbench.envs.phone import PhoneEnvironment

    return {"desktop": DesktopEnvironment("desktop"), "phone": PhoneEnvironment("phone")}


def _descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    found, stack = [], [root]
    while stack:
        pid = stack.pop()
        found.append(pid)
        stack.extend(children.get(pid, []))
    return found


def _memory_mb(pids: list[int]) -> tuple[float, float]:
    pss = rss = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/smaps_rollup", encoding="utf-8") as handle:
                for line in handle:
                    if line.startswith("Pss:"):
                        pss += int(line.split()[1])
                    elif line.startswith("Rss:"):
                        rss += int(line.split()[1])
        except OSError:
            continue
    return pss / 1024, rss / 1024


class MemorySampler(threading.Thread):
    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.peak_pss = self.peak_rss = 0.0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(1.0):
            pss, rss = _memory_mb(_descendants(os.getpid()))
            self.peak_pss, self.peak_rss = max(self.peak_pss, pss), max(self.peak_rss, rss)


def measure(workers: int, episodes: int, steps: int, latency: float) -> dict[str, float]:
    task = make_task(steps)
    seeds = list(range(episodes))
    config = RunConfig(suite="memory", workers=workers, seeds=seeds, max_infra_retries=0)
    folder = Path(tempfile.mkdtemp(prefix="reef-throughput-"))
    store = ResultsStore(folder)
    sampler = MemorySampler()
    sampler.start()
    finished: list[float] = []
    started = time.perf_counter()
    try:
        progress = Runner(
            config, [task], lambda key: ThinkingAgent(latency), make_environments, store
        ).run(on_progress=lambda p: finished.append(time.perf_counter()))
    finally:
        wall = time.perf_counter() - started
        sampler.done.set()
        sampler.join()
        store.close()
        shutil.rmtree(folder, ignore_errors=True)
    bad = [r.termination for r in progress.results if r.termination != "step_limit"]
    if bad or progress.done != episodes:
        print(f"unexpected outcomes: {bad} ({progress.done}/{episodes} done)", file=sys.stderr)
        sys.exit(1)
    warm = finished[workers - 1]  # every worker has finished its first episode
    steady = (
        (len(finished) - workers) / (finished[-1] - warm) * 3600 if len(finished) > workers else 0.0
    )
    return {
        "wall": wall,
        "per_hour": episodes / wall * 3600,
        "steady_per_hour": steady,
        "peak_pss_mb": sampler.peak_pss,
        "peak_rss_mb": sampler.peak_rss,
    }


def emit(metric: str, value: float, unit: str, **extra: Any) -> None:
    print(
        json.dumps({"metric": metric, "value": round(value, 3), "unit": unit, **extra}), flush=True
    )


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
