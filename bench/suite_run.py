"""Wall time of a full reef-v0 run through the runner, and what resets cost per episode.

What ``reef run --suite v0`` does, measured: the runner (:mod:`reefbench.runner.engine`)
plays every task with the oracle agent (reference solutions through the real action space)
with 1 and with 2 workers, then with the null agent with 2 workers; each worker owns one
set of environments (account, desktop, phone, browser), started once and reset by every
episode. Resets are lazy: a device nothing acted on since its last reset is not restarted.

``suite_oracle_wall_1_worker`` / ``suite_oracle_wall_2_workers`` / ``suite_null_wall_2_workers``
    Seconds from the runner's start to the last stored episode (environment start-up
    included, report writing excluded).
``suite_oracle_success_rate``
    Share of tasks the oracle solved in the 2-worker run (must be 1.0).
``suite_oracle_plus_null_wall_2_workers``
    The sum of the two 2-worker runs: the issue's target is <= 1200 s.
``reset_per_episode_median`` / ``reset_<env>_median``
    Median seconds an episode spent resetting all environments / one environment (skipped
    lazy resets included: they are what episodes really pay), over the 2-worker oracle run.

Options: ``--tasks GLOB`` (repeatable) restricts the tasks; ``--workers 2`` skips the
1-worker run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from reefbench.environments.contract import Environment
from reefbench.log.store import ResultsStore
from reefbench.runner.agents import agent_from_spec
from reefbench.runner.config import AgentSpec, RunConfig
from reefbench.runner.engine import Runner, select_tasks
from reefbench.suites import get_suite


class ResetClock:
    """Wraps every environment's ``reset`` to record how long it took, per environment."""

    def __init__(self) -> None:
        self.by_env: dict[str, list[float]] = defaultdict(list)
        self.per_episode: list[float] = []
        self._lock = threading.Lock()
        self._open: dict[int, list[float]] = {}

    def factory(self, make: Callable[[], Mapping[str, Environment]]) -> Callable[[], Any]:
        def build() -> Mapping[str, Environment]:
            envs = make()
            count = len(envs)
            for name, env in envs.items():
                self._wrap(name, env, count)
            return envs

        return build

    def _wrap(self, name: str, env: Environment, count: int) -> None:
        original = env.reset

        def timed() -> None:
            t0 = time.perf_counter()
            original()
            took = time.perf_counter() - t0
            with self._lock:
                self.by_env[name].append(took)
                bucket = self._open.setdefault(threading.get_ident(), [])
                bucket.append(took)
                if len(bucket) == count:  # an episode resets every environment once
                    self.per_episode.append(sum(bucket))
                    bucket.clear()

        env.reset = timed  # type: ignore[method-assign]


def play(
    agent: str, workers: int, patterns: list[str], clock: ResetClock | None
) -> tuple[float, float]:
    suite = get_suite("v0")
    config = RunConfig(suite="v0", tasks=patterns, agent=AgentSpec(name=agent), workers=workers)
    spec = config.agent
    make = clock.factory(suite.make_environments) if clock else suite.make_environments
    with tempfile.TemporaryDirectory(prefix="reef-bench-") as folder:
        store = ResultsStore(Path(folder))
        try:
            runner = Runner(
                config,
                select_tasks(suite.load(), config.tasks),  # the runner plays what it is given
                lambda key: agent_from_spec(spec, key),
                make,
                store,
            )
            started = time.perf_counter()
            progress = runner.run()
            seconds = time.perf_counter() - started
        finally:
            store.close()
    solved = sum(r.success for r in progress.results) / max(1, len(progress.results))
    return seconds, solved


def emit(metric: str, value: float, unit: str) -> None:
    print(json.dumps({"metric": metric, "value": round(value, 3), "unit": unit}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", action="append", default=[], help="task id glob")
    parser.add_argument("--workers", type=int, choices=(1, 2), help="only this worker count")
    args = parser.parse_args()
    if args.workers in (None, 1):
        seconds, _ = play("oracle", 1, args.tasks, None)
        emit("suite_oracle_wall_1_worker", seconds, "s")
    clock = ResetClock()
    oracle, solved = play("oracle", 2, args.tasks, clock)
    emit("suite_oracle_wall_2_workers", oracle, "s")
    emit("suite_oracle_success_rate", solved, "ratio")
    null, _ = play("null", 2, args.tasks, None)
    emit("suite_null_wall_2_workers", null, "s")
    emit("suite_oracle_plus_null_wall_2_workers", oracle + null, "s")
    if clock.per_episode:
        emit("reset_per_episode_median", statistics.median(clock.per_episode), "s")
    for name, values in sorted(clock.by_env.items()):
        emit(f"reset_{name}_median", statistics.median(values), "s")


if __name__ == "__main__":
    main()
