"""The validation gates on real environments for reef-v1 (the frozen benchmark's templates
and handmade tasks; the gates are in ``reefbench.validation``).

``make test`` plays a sample that covers every template and every kind of handmade task
(:func:`~reefbench.validation.gates.gate_sample`: each template's smallest task, with its
near misses and alternatives, and the smallest task composed by hand for each combination
of devices: 67 of the 230 tasks); the rest differ from those only in values and
compositions, and the committed gate record of a full run
(``suites/v1/data/gates.json``, checked against the data in tests/suites/test_gate_record.py)
vouches for them. ``make gates`` (``REEF_FULL_GATES=1``) plays all 230.

One module-scoped run plays the chosen tasks with two workers (oracle, each template's
alternatives and near misses, a long chain's replayed start, null agent, double
evaluation of the final state); each task is then its own test, so a failing
task is a failing test named after it. The run time is printed in the terminal summary
(see conftest.py).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from reefbench.benchmark.templates import POOL
from reefbench.suites import get_suite
from reefbench.validation.gates import Verdict, gate_sample, run_gates

pytest.importorskip("playwright")
pytest.importorskip("fastapi")
pytestmark = [
    pytest.mark.integration,
    # The first test's setup plays the sample (the whole suite, 230 tasks and about 25
    # minutes with two workers on an idle 2-core machine, under REEF_FULL_GATES=1).
    pytest.mark.timeout(4500),
    pytest.mark.skipif(
        not all(shutil.which(t) for t in ("Xvfb", "bwrap", "xdotool", "openbox", "rofi"))
        or not Path("/usr/bin/chromium").exists(),
        reason="needs Xvfb, bubblewrap, xdotool, openbox, rofi and Chromium",
    ),
]

SUITE = get_suite("v1")
FULL = os.environ.get("REEF_FULL_GATES") == "1"
TASKS = SUITE.load() if FULL else gate_sample(SUITE.load(), POOL)
TASK_IDS = [t.id for t in TASKS]


@pytest.fixture(scope="module")
def verdicts(report_gates: Callable[[str], None]) -> dict[str, Verdict]:
    started = time.perf_counter()
    assert SUITE.frozen is not None
    found = run_gates(
        TASKS,
        SUITE.make_environments,
        pool=POOL,
        workers=2,
        known_faults=SUITE.frozen.known_faults,
    )
    seconds = time.perf_counter() - started
    episodes = sum(v.episodes for v in found)
    failed = sum(not v.ok for v in found)
    retried = [f"{v.task_id} ({', '.join(v.retried)})" for v in found if v.retried]
    played = "every task" if FULL else "sample"
    report_gates(
        f"reef-v1 gates ({played}): {len(found)} tasks, {episodes} episodes, {failed} failing, "
        f"{seconds:.0f} s with 2 workers; passed on a second try: {', '.join(retried) or 'none'}"
    )
    return {v.task_id: v for v in found}


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_task_passes_the_gates(task_id: str, verdicts: dict[str, Verdict]) -> None:
    verdict = verdicts[task_id]
    assert verdict.ok, verdict.line()
