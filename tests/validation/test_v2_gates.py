"""The validation gates on real environments for a stratified sample of reef-v2 in the
making (suite ``v2-dev``): the first task of every template of every family
(:func:`reefbench.benchmark.v2.families`), so a template added to reef-v2 is gated in CI
the day it is added, without touching this file.

The machinery is reef-v1's (``test_gates.py``): one module-scoped run of
:func:`~reefbench.validation.gates.run_gates` with the suite's pool (each template's near
misses and alternatives played in its task), two workers; then one test per template, named
after it, so a failing template is a failing test.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from reefbench.suites import get_suite
from reefbench.tasks.task import Task
from reefbench.validation.gates import Verdict, run_gates

pytest.importorskip("playwright")
pytest.importorskip("fastapi")
pytestmark = [
    pytest.mark.integration,
    # One task per template: a few episodes each (oracle, near misses, alternatives).
    pytest.mark.timeout(4500),
    pytest.mark.skipif(
        not all(shutil.which(t) for t in ("Xvfb", "bwrap", "xdotool", "openbox", "rofi"))
        or not Path("/usr/bin/chromium").exists(),
        reason="needs Xvfb, bubblewrap, xdotool, openbox, rofi and Chromium",
    ),
]

SUITE = get_suite("v2-dev")


def sample(tasks: list[Task]) -> dict[str, Task]:
    """Template id -> the first task made from it (its ``...-0``), in suite order."""
    first: dict[str, Task] = {}
    for task in tasks:
        for info in task.metadata.subtasks:
            first.setdefault(info.template, task)
    return first


SAMPLE = sample(SUITE.load())


def test_the_sample_covers_every_template_of_reef_v2() -> None:
    from reefbench.benchmark.v2 import pool

    assert set(SAMPLE) == set(pool())


@pytest.fixture(scope="module")
def verdicts(report_gates: Callable[[str], None]) -> dict[str, Verdict]:
    assert SUITE.pool is not None
    started = time.perf_counter()
    tasks = list({t.id: t for t in SAMPLE.values()}.values())
    found = run_gates(tasks, SUITE.make_environments, pool=SUITE.pool(), workers=2)
    retried = [f"{v.task_id} ({', '.join(v.retried)})" for v in found if v.retried]
    report_gates(
        f"reef-v2 sample gates: {len(found)} tasks, {sum(v.episodes for v in found)} episodes, "
        f"{sum(not v.ok for v in found)} failing, {time.perf_counter() - started:.0f} s with "
        f"2 workers; passed on a second try: {', '.join(retried) or 'none'}"
    )
    return {v.task_id: v for v in found}


@pytest.mark.parametrize("template", sorted(SAMPLE))
def test_template_passes_the_gates(template: str, verdicts: dict[str, Verdict]) -> None:
    verdict = verdicts[SAMPLE[template].id]
    assert verdict.ok, verdict.line()
