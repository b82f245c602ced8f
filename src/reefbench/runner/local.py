"""Sequential in-process runner: one episode after another, results as JSON lines.

The scalable runner (workers, Ray, resume, SQLite store) builds on the same pieces; this
one is what ``reef run`` uses until then, and what tests use to run whole suites.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path

from reefbench.agents.base import Agent
from reefbench.episode import Episode, EpisodeResult
from reefbench.suites import Suite
from reefbench.task import Task


def run_suite(
    suite: Suite,
    make_agent: Callable[[], Agent],
    *,
    tasks: Iterable[Task] | None = None,
    out_dir: Path | None = None,
    on_result: Callable[[EpisodeResult], None] | None = None,
) -> list[EpisodeResult]:
    """Run every task of ``suite`` (or ``tasks``) once with a fresh agent each time.

    Results are appended to ``out_dir/results.jsonl`` as they finish, so a crash loses at
    most the episode that was running.
    """
    results = []
    sink = None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        sink = (out_dir / "results.jsonl").open("a", encoding="utf-8")
    envs = suite.make_environments()
    try:
        for task in tasks if tasks is not None else suite.load():
            result = Episode(task, make_agent(), envs).run()
            results.append(result)
            if sink is not None:
                sink.write(json.dumps(result.model_dump(mode="json")) + "\n")
                sink.flush()
            if on_result is not None:
                on_result(result)
    finally:
        for env in envs.values():
            env.stop()
        if sink is not None:
            sink.close()
    return results
