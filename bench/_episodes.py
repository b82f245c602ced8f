"""What the throughput benches share: a thinking agent, a run under the runner, and the
accounting of every process an episode starts (CPU time and proportional memory).

Wall-clock throughput is distorted by whatever else the machine runs; CPU time is not (much):
an idle episode's cost is the CPU seconds its processes burn per second while the agent
"thinks", read from ``/proc/<pid>/stat`` (utime + stime) for this process's threads and every
descendant (X servers, sandboxes and their session processes, apps, Chromium). Memory is the
summed proportional set size (PSS, shared pages counted once) from ``/proc/<pid>/smaps_rollup``.
Each process is filed under a component named from its command line, so the idle cost can be
told apart per component (Xvfb, dbus-daemon, xfce4-panel, a Chromium renderer...).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reefbench import ActionCall, AgentOutput, Task, Turn
from reefbench.agents.scripted import OracleAgent
from reefbench.episodes.episode import EpisodeResult
from reefbench.log.store import ResultsStore
from reefbench.runner.config import RunConfig
from reefbench.runner.engine import Runner

TICK = os.sysconf("SC_CLK_TCK")
SAMPLER = "reef-bench-sampler"  # its own thread, left out of what it measures


class Thinking:
    """How many agents are inside their simulated model call right now (and since when):
    the sampler counts a second as idle only when every worker was thinking through it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.count = 0
        self.ends = 0  # thoughts ended so far: a second with one is not idle

    def __enter__(self) -> None:
        with self._lock:
            self.count += 1

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self.count -= 1
            self.ends += 1


class ThinkingAgent:
    """Waits ``latency`` seconds per step (a model's think time), then calls ``wait()``."""

    name = "thinking"

    def __init__(self, latency: float, thinking: Thinking | None = None) -> None:
        self.latency = latency
        self.thinking = thinking or Thinking()

    def reset(self, task: Any, action_spaces: Any, descriptions: Any) -> None:
        pass

    def act(self, turn: Turn) -> AgentOutput:
        with self.thinking:
            time.sleep(self.latency)  # simulated model latency, not synchronisation
        return AgentOutput(calls=[ActionCall(env="root", name="wait")])


class ThinkingOracle(OracleAgent):
    """Plays the reference solution (observing every device, as a model agent is shown
    them), thinking ``latency`` seconds before each turn; ``turns`` cuts the solution short
    (an idle measurement needs the task's devices in use, not the task done)."""

    def __init__(self, latency: float, thinking: Thinking, turns: int | None = None) -> None:
        super().__init__(observe=True)
        self.latency, self.thinking, self.turns = latency, thinking, turns

    def reset(self, task: Any, action_spaces: Any, descriptions: Any) -> None:
        super().reset(task, action_spaces, descriptions)
        if self.turns is not None:
            self._script = self._script[: self.turns]

    def act(self, turn: Turn) -> AgentOutput:
        with self.thinking:
            time.sleep(self.latency)  # simulated model latency, not synchronisation
        return super().act(turn)


def descendants(root: int) -> list[int]:
    """``root`` and every process below it, from ``/proc``'s parent links."""
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


def memory_mb(pids: list[int]) -> tuple[float, float]:
    """Summed (PSS, RSS) of ``pids`` in MB."""
    pss = rss = 0.0
    for pid in pids:
        p, r = pss_rss_kb(pid)
        pss, rss = pss + p, rss + r
    return pss / 1024, rss / 1024


def pss_rss_kb(pid: int) -> tuple[int, int]:
    pss = rss = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1])
                elif line.startswith("Rss:"):
                    rss = int(line.split()[1])
    except OSError:
        pass
    return pss, rss


def _cpu_ticks(stat_path: str) -> int | None:
    try:
        with open(stat_path, encoding="utf-8") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[11]) + int(fields[12])  # utime + stime


def component(pid: int) -> str:
    """A process's component: its program, a Chromium process's ``--type``, a Python
    script's file name."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            argv = [a.decode(errors="replace") for a in handle.read().split(b"\0") if a]
    except OSError:
        return "?"
    if len(argv) == 1:  # a process that rewrote its title (Chromium's children)
        argv = argv[0].split()
    if not argv:
        return "?"
    program = os.path.basename(argv[0])
    if "chrom" in program or "headless_shell" in program:
        kind = next((a[7:] for a in argv if a.startswith("--type=")), "browser")
        return f"chromium {kind}"
    if program.startswith("python"):
        script = next((a for a in argv[1:] if not a.startswith("-")), "")
        return f"python {os.path.basename(script)}"
    return program


def _reef_threads() -> dict[str, int]:
    """This process's CPU ticks per thread group (worker threads, the runner, uvicorn's
    servers, Playwright's), named from :mod:`threading` (the kernel's thread names are all
    "python"); threads Python did not start are "other"."""
    names = {t.native_id: t.name for t in threading.enumerate()}
    ticks: dict[str, int] = defaultdict(int)
    for tid in os.listdir("/proc/self/task"):
        name = names.get(int(tid), "other")
        if name == SAMPLER:
            continue
        value = _cpu_ticks(f"/proc/self/task/{tid}/stat")
        if value is not None:
            group = name.split("(")[-1].rstrip(")") if "(" in name else name
            group = group.rstrip("0123456789-_ ")
            ticks["reef thread " + group] += value
    return ticks


@dataclass
class Accounting:
    """CPU and memory of this process and its descendants over a run (see the module)."""

    idle_cpu: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    idle_seconds: float = 0.0
    idle_pss_mb: dict[str, float] = field(default_factory=dict)
    peak_pss_mb: float = 0.0
    peak_rss_mb: float = 0.0
    cpu_seconds: float = 0.0


class Sampler(threading.Thread):
    """Samples every ``period`` seconds: CPU per process and thread, PSS every fifth
    sample. A second counts as idle when every worker was inside its model call at both
    of its ends and none left it in between."""

    def __init__(self, thinking: Thinking, workers: int, period: float = 1.0) -> None:
        super().__init__(daemon=True, name=SAMPLER)
        self.thinking, self.workers, self.period = thinking, workers, period
        self.done = threading.Event()
        self.result = Accounting()
        self._last_ticks: dict[str, int] = {}  # per pid or thread: cumulative ticks
        self._names: dict[int, str] = {}

    def _ticks(self) -> tuple[dict[str, int], list[int]]:
        pids = descendants(os.getpid())
        ticks: dict[str, int] = dict(_reef_threads())
        for pid in pids[1:]:
            value = _cpu_ticks(f"/proc/{pid}/stat")
            if value is not None:
                if pid not in self._names:
                    self._names[pid] = component(pid)
                ticks[f"{pid}"] = value
        return ticks, pids

    def _label(self, key: str) -> str:
        return self._names.get(int(key), "?") if key.isdigit() else key

    def run(self) -> None:
        before, _ = self._ticks()
        was_idle, stamp, count, ends = False, time.monotonic(), 0, self.thinking.ends
        while not self.done.wait(self.period):
            # Every worker thinking now, and none stopped (to act) since the last sample.
            idle = self.thinking.count >= self.workers and self.thinking.ends == ends
            ends = self.thinking.ends
            ticks, pids = self._ticks()
            now = time.monotonic()
            if idle and was_idle:
                for key, value in ticks.items():
                    if key in before:
                        self.result.idle_cpu[self._label(key)] += (value - before[key]) / TICK
                self.result.idle_seconds += now - stamp
            count += 1
            if count % 5 == 0:
                self._memory(pids, idle)
            for key, value in ticks.items():
                self._last_ticks[key] = max(value, self._last_ticks.get(key, 0))
            before, was_idle, stamp = ticks, idle, now
        self._memory(descendants(os.getpid()), False)
        self.result.cpu_seconds = sum(self._last_ticks.values()) / TICK

    def _memory(self, pids: list[int], idle: bool) -> None:
        per: dict[str, float] = defaultdict(float)
        pss_total = rss_total = 0.0
        for pid in pids:
            pss, rss = pss_rss_kb(pid)
            # Refreshed here: a process may have exec'd another program since first seen.
            label = "reef (python)" if pid == pids[0] else component(pid)
            self._names[pid] = label
            per[label] += pss / 1024
            pss_total, rss_total = pss_total + pss / 1024, rss_total + rss / 1024
        result = self.result
        result.peak_pss_mb = max(result.peak_pss_mb, pss_total)
        result.peak_rss_mb = max(result.peak_rss_mb, rss_total)
        if idle and sum(per.values()) > sum(result.idle_pss_mb.values()):
            result.idle_pss_mb = dict(per)


@dataclass
class RunMeasure:
    """One run: wall time, when each episode was stored, results and the accounting."""

    wall: float
    finished: list[float]
    results: list[EpisodeResult]
    accounting: Accounting

    def steady_per_hour(self, workers: int) -> float:
        """Episodes per hour from the moment every worker finished its first episode."""
        done = self.finished
        if len(done) <= workers:
            return 0.0
        return (len(done) - workers) / (done[-1] - done[workers - 1]) * 3600


def run_measured(
    tasks: list[Task],
    seeds: list[int],
    workers: int,
    make_agent: Callable[[Thinking], Any],
    make_environments: Callable[[], Mapping[str, Any]],
) -> RunMeasure:
    """Play every task x seed with ``workers`` workers under the sampler."""
    config = RunConfig(suite="memory", workers=workers, seeds=seeds, max_infra_retries=0)
    folder = Path(tempfile.mkdtemp(prefix="reef-bench-"))
    store = ResultsStore(folder)
    thinking = Thinking()
    sampler = Sampler(thinking, min(workers, len(tasks) * len(seeds)))
    sampler.start()
    finished: list[float] = []
    started = time.perf_counter()
    try:
        progress = Runner(
            config, tasks, lambda key: make_agent(thinking), make_environments, store
        ).run(on_progress=lambda p: finished.append(time.perf_counter()))
    finally:
        wall = time.perf_counter() - started
        sampler.done.set()
        sampler.join()
        store.close()
        shutil.rmtree(folder, ignore_errors=True)
    return RunMeasure(wall, [t - started for t in finished], progress.results, sampler.result)


def idle_table(accounting: Accounting) -> list[tuple[str, float, float]]:
    """(component, CPU s/s while every agent thought, PSS MB), dearest first."""
    seconds = accounting.idle_seconds or 1.0
    names = set(accounting.idle_cpu) | set(accounting.idle_pss_mb)
    rows = [
        (n, accounting.idle_cpu.get(n, 0.0) / seconds, accounting.idle_pss_mb.get(n, 0.0))
        for n in names
    ]
    return sorted(rows, key=lambda r: (-r[1], -r[2]))


def emit(metric: str, value: float, unit: str, **extra: Any) -> None:
    """One JSON line on stdout."""
    line = {"metric": metric, "value": round(value, 3), "unit": unit, **extra}
    print(json.dumps(line), flush=True)
