"""Per-step overhead of reefbench's graph evaluator, next to crab-framework 0.1.2's.

After every agent action an episode checks the task's checkpoint graph. That check runs
hundreds of times per episode and thousands of times per suite, so its cost must stay
small and must not grow with the size of the graph: reefbench only checks the *active*
nodes, while crab-framework re-scans the whole graph on every step.

The graphs are path graphs n0 -> n1 -> ... -> n(N-1) of N = 5, 20, 100 and 1000 evaluator
nodes. Every evaluator reads its environment argument and returns False, so the first node
stays active and nothing ever advances: the steady state of an agent that has not yet
reached the first checkpoint. Each figure is the median of 5 batches of many steps (the
count calibrated so a batch takes about 0.2 s), timed with ``time.perf_counter``.

What each metric includes:

``graph_step_overhead_n<N>``
    reefbench (``value``): a real :class:`reefbench.Episode` on a :class:`reefbench.Task`
    whose nodes are the N chained evaluators, driven by an agent that answers every turn
    with the same prepared ``root.wait`` call, with ``step_limit`` set to the calibrated
    step count. The time of ``Episode.run()`` divided by its steps, whole, nothing
    subtracted: per step that is the turn record, the (empty) observation pass, the agent
    call and usage bookkeeping, routing the ``wait`` call to the root environment,
    validating and running it, the environment's action-log record, one
    ``GraphEvaluator.step`` over the active node, and the call record; plus, spread over
    the steps, the once-per-episode work inside ``run()`` (environment and agent reset,
    final check, building the ``EpisodeResult``). Building the ``Episode`` (which builds
    the graph evaluator with networkx) is per-episode setup and is not timed. The garbage
    collector stays on (on both sides), so this also pays for its passes over the episode's
    trajectory, which here grows to thousands of turns.
    crab (``peer_value``): ``GraphEvaluator.step(envs)``, which runs each evaluator to be
    checked through ``Environment.take_action`` of crab's root environment. That is the
    whole of crab's per-action evaluation; crab's agent loop adds its own bookkeeping on
    top of it, which is *not* included, so this comparison flatters crab.

``graph_step_only_n<N>``
    reefbench: ``GraphEvaluator.step(envs)`` alone on the same task's graph, with the root
    environment as the only environment (evaluator routing, the check, the ``NodeCheck``
    and ``StepReport`` records). crab: the same ``GraphEvaluator.step(envs)`` as above.
    This is the like-for-like comparison.

``graph_step_speedup_n100``
    crab's step divided by reefbench's *whole episode step* at N = 100 (the conservative
    ratio: reefbench's side includes its episode bookkeeping, crab's does not).

``graph_step_flatness``
    reefbench's episode step at N = 1000 divided by the one at N = 5 (1.0 = flat).

crab-framework is installed by this script into its own virtual environment under
``$XDG_CACHE_HOME/reefbench-bench/crab-venv`` (default ``~/.cache``), created with the same
Python interpreter that runs this script, so both sides run on the same CPython, and
reused on later runs. crab's import needs httpx, PyYAML and openai, which it does not
declare, so they are installed with it. If it cannot be installed or run, reefbench's
figures are printed without peer fields and the reason goes to stderr.

Usage: ``python bench/graph_overhead.py`` (prints one JSON object per line).
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from reefbench import ActionCall, AgentOutput, Episode, Task, Turn, evaluator
from reefbench.actions.spec import Action
from reefbench.environments.root import ROOT, RootEnvironment

SIZES: tuple[int, ...] = (5, 20, 100, 1000)
BATCHES = 5
TARGET_BATCH_S = 0.2
CALIBRATE_MIN_S = 0.05
CRAB = "crab-framework 0.1.2"
CRAB_REQUIREMENTS: tuple[str, ...] = ("crab-framework==0.1.2", "httpx", "pyyaml", "openai")
INSTALL_TIMEOUT_S = 120.0
CRAB_RUN_TIMEOUT_S = 60.0

# Runs inside the crab virtual environment; prints one JSON object per graph size.
CRAB_SNIPPET = """
import json, statistics, sys, time
import networkx as nx
from crab import Environment, GraphEvaluator, evaluator

@evaluator
def never(i: int, env) -> bool:
    return False

def build(n):
    g = nx.DiGraph()
    nx.add_path(g, [never(i) for i in range(n)])
    return GraphEvaluator(g)

def measure(n, envs, batches, target_batch_s, calibrate_min_s):
    ge = build(n)
    k = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(k):
            ge.step(envs)
        dt = time.perf_counter() - t0
        if dt >= calibrate_min_s:
            break
        k *= 2
    k = max(1, int(k * target_batch_s / dt))
    times = []
    for _ in range(batches):
        t0 = time.perf_counter()
        for _ in range(k):
            ge.step(envs)
        times.append((time.perf_counter() - t0) / k)
    if ge.complete_nodes != 0:
        raise SystemExit(f"crab graph advanced: {ge.complete_nodes} nodes complete")
    return statistics.median(times)

sizes, batches, target, minimum = json.loads(sys.argv[1])
env = Environment(name="root", action_space=[], observation_space=[])
for n in sizes:
    seconds = measure(n, {"root": env}, batches, target, minimum)
    print(json.dumps({"nodes": n, "seconds_per_step": seconds}), flush=True)
"""


@evaluator(env=ROOT)
def never(i: int, env: Any) -> bool:
    """A checkpoint that reads its environment and never holds.

    Args:
        i: Position in the chain (makes each node distinct).
    """
    return False


class WaitAgent:
    """Answers every turn with one ``root.wait`` call, prepared once, so the agent itself
    costs as little as possible and the time measured is the framework's."""

    name = "wait-loop"

    def __init__(self) -> None:
        self._output = AgentOutput(message="", calls=[ActionCall(env=ROOT, name="wait")])

    def reset(
        self,
        task: Task,
        action_spaces: Mapping[str, list[Action]],
        descriptions: Mapping[str, str],
    ) -> None:
        pass

    def act(self, turn: Turn) -> AgentOutput:
        return self._output


def chain_task(n: int) -> Task:
    """A task whose checkpoints are ``n`` never-passing evaluators in a chain."""
    return Task(
        id=f"chain-{n}",
        instruction=f"A chain of {n} checkpoints that never pass.",
        nodes={f"n{i}": never(i) for i in range(n)},
        edges=[(f"n{i}", f"n{i + 1}") for i in range(n - 1)],
    )


def median_per_step(run: Callable[[int], float]) -> float:
    """Median seconds per step of ``BATCHES`` batches; ``run(k)`` times ``k`` steps.

    The step count is doubled until one batch takes ``CALIBRATE_MIN_S``, then scaled so a
    batch takes about ``TARGET_BATCH_S``.
    """
    k = 1
    while True:
        dt = run(k)
        if dt >= CALIBRATE_MIN_S:
            break
        k *= 2
    k = max(1, int(k * TARGET_BATCH_S / dt))
    return statistics.median(run(k) / k for _ in range(BATCHES))


def episode_seconds_per_step(task: Task) -> float:
    """Seconds per step of real episodes of ``task`` that run into their step limit."""
    agent = WaitAgent()

    def run(k: int) -> float:
        episode = Episode(task, agent, {}, step_limit=k)
        t0 = time.perf_counter()
        result = episode.run()
        elapsed = time.perf_counter() - t0
        if result.termination != "step_limit" or result.steps != k or result.actions != k:
            raise RuntimeError(
                f"{task.id}: expected {k} steps ending at the step limit, got {result.steps} "
                f"steps, {result.actions} actions, termination {result.termination!r} "
                f"({result.error})"
            )
        if result.completed_nodes:
            raise RuntimeError(f"{task.id}: nodes completed: {result.completed_nodes}")
        return elapsed

    return median_per_step(run)


def graph_step_seconds(task: Task) -> float:
    """Seconds per ``GraphEvaluator.step`` alone on ``task``'s graph."""
    graph = task.graph_evaluator()
    envs = {ROOT: RootEnvironment()}
    report = graph.step(envs)
    if len(report.checks) != 1 or report.completed or report.errors:
        raise RuntimeError(f"{task.id}: unexpected first step {report!r}")

    def run(k: int) -> float:
        step = graph.step
        t0 = time.perf_counter()
        for _ in range(k):
            step(envs)
        return time.perf_counter() - t0

    seconds = median_per_step(run)
    if graph.state("n0") != "active" or graph.completed_order:
        raise RuntimeError(f"{task.id}: the graph advanced during the measurement")
    return seconds


# ---------------------------------------------------------------------------- crab side
def crab_venv_dir() -> Path:
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "reefbench-bench" / "crab-venv"


def ensure_crab_venv() -> Path:
    """The crab virtual environment's python, installing it on first use.

    Raises:
        RuntimeError: saying why it could not be installed.
    """
    venv = crab_venv_dir()
    python = venv / "bin" / "python"
    marker = venv / ".reefbench-complete"
    if marker.exists() and python.exists():
        return python
    if venv.exists():  # a half-made one from an interrupted run
        shutil.rmtree(venv)
    venv.parent.mkdir(parents=True, exist_ok=True)
    pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    steps = [
        [sys.executable, "-m", "venv", str(venv)],
        [*pip, *CRAB_REQUIREMENTS],
    ]
    deadline = time.monotonic() + INSTALL_TIMEOUT_S
    for cmd in steps:
        try:
            done = subprocess.run(
                cmd,
                capture_output=True,
                text=True,
                timeout=max(1.0, deadline - time.monotonic()),
                check=False,
            )
        except subprocess.TimeoutExpired:
            shutil.rmtree(venv, ignore_errors=True)
            raise RuntimeError(
                f"{' '.join(cmd[:4])} ... did not finish within {INSTALL_TIMEOUT_S:.0f} s"
            ) from None
        if done.returncode != 0:
            shutil.rmtree(venv, ignore_errors=True)
            errors = [ln for ln in done.stderr.splitlines() if not ln.startswith("WARNING:")]
            tail = " | ".join(errors[-3:]) or f"exit code {done.returncode}"
            raise RuntimeError(f"{' '.join(cmd[:4])} ... failed: {tail}")
    marker.write_text(" ".join(CRAB_REQUIREMENTS) + "\n")
    return python


def crab_seconds_per_step() -> dict[int, float]:
    """crab's ``GraphEvaluator.step`` seconds per step for each size in ``SIZES``.

    Raises:
        RuntimeError: crab could not be installed or the measurement failed.
    """
    python = ensure_crab_venv()
    arguments = json.dumps([list(SIZES), BATCHES, TARGET_BATCH_S, CALIBRATE_MIN_S])
    try:
        done = subprocess.run(
            [str(python), "-c", CRAB_SNIPPET, arguments],
            capture_output=True,
            text=True,
            timeout=CRAB_RUN_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise RuntimeError(
            f"the crab measurement did not finish within {CRAB_RUN_TIMEOUT_S:.0f} s"
        ) from None
    if done.returncode != 0:
        tail = " | ".join(done.stderr.strip().splitlines()[-3:])
        raise RuntimeError(f"the crab measurement failed: {tail}")
    figures: dict[int, float] = {}
    for line in done.stdout.splitlines():
        row = json.loads(line)
        figures[int(row["nodes"])] = float(row["seconds_per_step"])
    missing = [n for n in SIZES if n not in figures]
    if missing:
        raise RuntimeError(f"the crab measurement gave no figure for sizes {missing}")
    return figures


# ------------------------------------------------------------------------------ report
def emit(metric: str, value: float, unit: str, peer_value: float | None = None) -> None:
    row: dict[str, Any] = {"metric": metric, "value": round(value, 3), "unit": unit}
    if peer_value is not None:
        row["peer"] = CRAB
        row["peer_value"] = round(peer_value, 3)
    print(json.dumps(row), flush=True)


def main() -> None:
    crab: dict[int, float] | None
    try:
        crab = crab_seconds_per_step()
    except (RuntimeError, OSError, ValueError) as exc:
        crab = None
        print(f"graph_overhead: no {CRAB} figures: {exc}", file=sys.stderr, flush=True)

    episode_us: dict[int, float] = {}
    step_us: dict[int, float] = {}
    for n in SIZES:
        task = chain_task(n)
        episode_us[n] = episode_seconds_per_step(task) * 1e6
        step_us[n] = graph_step_seconds(task) * 1e6

    peer_us = {n: s * 1e6 for n, s in crab.items()} if crab is not None else {}
    for n in SIZES:
        emit(f"graph_step_overhead_n{n}", episode_us[n], "us", peer_us.get(n))
    for n in SIZES:
        emit(f"graph_step_only_n{n}", step_us[n], "us", peer_us.get(n))
    if crab is not None:
        emit("graph_step_speedup_n100", peer_us[100] / episode_us[100], "x")
    emit("graph_step_flatness", episode_us[1000] / episode_us[5], "ratio")


if __name__ == "__main__":
    main()
