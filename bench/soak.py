"""Soak: 16 concurrent episodes in a loop for a bounded time; resources must not grow.

Each round is a full run (store, 16 workers each starting and stopping its environments,
``--episodes`` episodes per worker) in a fresh directory that is deleted afterwards, so
leaks anywhere in the cycle — threads, file descriptors, SQLite handles, environment
processes, memory — accumulate round after round. A sampler prints, as JSON lines, the
harness's process count (itself plus every descendant), its open file descriptors, its
thread count and the RSS of the whole process tree; the last line is the verdict: measured between
rounds (when no environment runs), growth from the end of the warm-up to the end must stay
within small bounds.

    python bench/soak.py                      # memory suite, 30 minutes
    python bench/soak.py --minutes 3
    python bench/soak.py --env desktop --workers 4 --minutes 5   # real desktops
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

from reefbench import Task
from reefbench.actions.spec import ActionCall
from reefbench.agents import OracleAgent
from reefbench.episodes.protocol import AgentOutput, Turn
from reefbench.log.store import ResultsStore
from reefbench.runner.config import RunConfig
from reefbench.runner.engine import Runner


def _children(pid: int) -> list[int]:
    """Every descendant (children of any thread count: workers start the environments)."""
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        kids = []
        try:
            for task in os.listdir(f"/proc/{parent}/task"):
                with open(f"/proc/{parent}/task/{task}/children") as handle:
                    kids += [int(k) for k in handle.read().split()]
        except OSError:
            continue
        found += kids
        frontier += kids
    return found


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


def sample() -> dict[str, float]:
    me = os.getpid()
    tree = [me, *_children(me)]
    return {
        "processes": len(tree),
        "open_fds": len(os.listdir(f"/proc/{me}/fd")),
        "threads": threading.active_count(),
        "rss_mib": sum(_rss(p) for p in tree) / 2**20,
    }


class PacedOracle(OracleAgent):
    """The oracle with a simulated model latency, so episodes overlap like real ones."""

    def __init__(self, latency: float) -> None:
        super().__init__()
        self.latency = latency

    def act(self, turn: Turn) -> AgentOutput:
        time.sleep(self.latency)  # stands in for a model call, not synchronisation
        return super().act(turn)


def workload(env: str) -> tuple[list[Task], Any]:
    if env == "memory":
        from reefbench.suites import memory

        return memory.load(), memory.make_environments
    if env == "desktop":
        from reefbench.envs.desktop import DesktopEnvironment
        from reefbench.envs.desktop import evaluators as ev

        task = Task(
            id="soak-desktop-type",
            instruction="Type hello.",
            nodes={"typed": ev.typed_text(text="hello").on("desktop")},
            reference_solution=[
                ActionCall(env="desktop", name="write_text", arguments={"text": "hello"})
            ],
        )
        return [task], lambda: {"desktop": DesktopEnvironment(settle_timeout=1.0)}
    raise SystemExit(f"error: unknown --env {env!r}: choose memory or desktop")


def emit(metric: str, value: float, unit: str, **extra: Any) -> None:
    print(json.dumps({"metric": metric, "value": round(value, 2), "unit": unit, **extra}))
    sys.stdout.flush()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=16)
    parser.add_argument("--env", default="memory", help="memory (default) or desktop")
    parser.add_argument("--episodes", type=int, default=4, help="episodes per worker per round")
    parser.add_argument("--latency", type=float, default=0.02, help="simulated model seconds")
    parser.add_argument("--interval", type=float, default=10.0, help="seconds between samples")
    parser.add_argument("--warmup", type=float, default=0.2, help="share of the time ignored")
    args = parser.parse_args()
    tasks, make_environments = workload(args.env)
    seeds = max(1, args.workers * args.episodes // len(tasks))
    root = Path(tempfile.mkdtemp(prefix="reef-soak-"))
    deadline = time.monotonic() + args.minutes * 60
    started = time.monotonic()
    samples: list[tuple[float, dict[str, float]]] = []
    quiet: list[tuple[float, dict[str, float]]] = []
    totals = {"rounds": 0, "episodes": 0, "failed": 0}
    stop = threading.Event()

    def sampler() -> None:
        while True:
            t = time.monotonic() - started
            values = sample()
            samples.append((t, values))
            for name, value in values.items():
                unit = "MiB" if name == "rss_mib" else "count"
                emit(name, value, unit, t=round(t, 1), episodes=totals["episodes"])
            if stop.wait(args.interval):
                return

    thread = threading.Thread(target=sampler, daemon=True)
    thread.start()
    try:
        while time.monotonic() < deadline:
            run_dir = root / f"round{totals['rounds']}"
            store = ResultsStore(run_dir)
            config = RunConfig(suite="memory", seeds=list(range(seeds)), workers=args.workers)
            try:
                progress = Runner(
                    config, tasks, lambda key: PacedOracle(args.latency), make_environments, store
                ).run()
            finally:
                store.close()
            shutil.rmtree(run_dir)
            # Between rounds every environment is stopped: what is left here is a leak.
            quiet.append((time.monotonic() - started, sample()))
            totals["rounds"] += 1
            totals["episodes"] += progress.done
            totals["failed"] += sum(not r.success for r in progress.results)
    finally:
        stop.set()
        thread.join()
        shutil.rmtree(root, ignore_errors=True)
    quiet.append((time.monotonic() - started, sample()))
    return verdict(samples, quiet, totals, args)


# Allowed growth from the end of the warm-up to the end of the soak.
BOUNDS = {"processes": 2, "open_fds": 8, "threads": 4, "rss_mib": 64.0}


def verdict(
    samples: list[tuple[float, dict[str, float]]],
    quiet: list[tuple[float, dict[str, float]]],
    totals: dict[str, int],
    args: Any,
) -> int:
    """Growth is measured between rounds (no environment running), from the first such
    point after the warm-up to the end; the peak is over every sample."""
    total = quiet[-1][0]
    after = [values for t, values in quiet if t >= total * args.warmup]
    if len(after) < 2:
        after = [quiet[0][1], quiet[-1][1]]
    base, end = after[0], after[-1]
    growth = {name: end[name] - base[name] for name in BOUNDS}
    peak = {name: max(v[name] for _, v in samples + quiet) for name in BOUNDS}
    ok = all(growth[n] <= BOUNDS[n] for n in BOUNDS) and totals["failed"] == 0
    hours = total / 3600
    emit("episodes", totals["episodes"], "count", rounds=totals["rounds"], failed=totals["failed"])
    emit("episodes_per_hour", totals["episodes"] / hours if hours else 0.0, "episodes/h")
    emit(
        "soak_verdict",
        1.0 if ok else 0.0,
        "pass",
        env=args.env,
        workers=args.workers,
        minutes=round(total / 60, 2),
        between_rounds_start={n: round(v, 2) for n, v in base.items()},
        growth={n: round(v, 2) for n, v in growth.items()},
        peak={n: round(v, 2) for n, v in peak.items()},
        bounds=BOUNDS,
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
