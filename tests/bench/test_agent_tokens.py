"""The token bench measures what it says: its oracle is attached like any privileged
agent (so the reference solution plays to the end), and its ``before`` reads the
environment notes of the code before shared sentences were said once.

Runs without starting a device: descriptions are read from unstarted environments.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from reefbench.agents import OracleAgent
from reefbench.envs.registry import make_environment
from reefbench.episodes.protocol import PrivilegedAgent
from reefbench.perception.marks import MARKS_SENTENCE

BENCH = Path(__file__).parents[2] / "bench" / "agent_tokens.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("agent_tokens", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["agent_tokens"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_shadowed_oracle_is_attached_and_observes(bench: ModuleType) -> None:
    agent = bench.Shadowed(OracleAgent(), "marks")
    assert isinstance(agent, PrivilegedAgent) and agent.observes


def test_before_reads_the_old_notes_of_every_device_and_the_rest_as_today(
    bench: ModuleType,
) -> None:
    today = {kind: make_environment(kind).description for kind in ("desktop", "phone", "browser")}
    today["root"] = "Actions that belong to no device."
    before = bench.described_before(today)
    assert before["root"] == today["root"]
    for kind in ("desktop", "phone", "browser"):
        assert MARKS_SENTENCE in today[kind] and MARKS_SENTENCE not in before[kind], kind
        assert "numbered boxes" in before[kind], kind
    assert "numbered boxes (Set-of-Marks) on the elements you can act on" in before["desktop"]


def test_before_stops_when_a_frozen_note_matches_nothing(bench: ModuleType) -> None:
    with pytest.raises(SystemExit, match="none of the frozen notes of 'phone'"):
        bench.described_before({"phone": "A phone."})


def test_requests_are_counted_as_the_openai_sdk_sends_them(bench: ModuleType) -> None:
    from openai._utils._json import openapi_dumps

    payload = {"tools": [{"type": "function", "function": {"name": "désktop__click"}}]}
    assert bench.as_sent(payload).encode() == openapi_dumps(payload)
    assert ", " not in bench.as_sent(payload) and "\\u" not in bench.as_sent(payload)


def test_the_default_tasks_have_the_suites_typical_length(bench: ModuleType) -> None:
    from reefbench.suites import get_suite

    tasks = get_suite("v1").load()
    low, high = bench.calls_band(tasks)
    lengths = sorted(len(t.reference_solution) for t in tasks)
    assert low <= lengths[len(lengths) // 2] <= high and high - low <= 2 * bench.BAND + 1
    chosen = bench.chosen_tasks(tasks, [], 2, (low, high))
    assert len(chosen) == 2 * len(bench.PLATFORMS)
    assert {t.metadata.platform for t in chosen} == set(bench.PLATFORMS)
    assert all(low <= len(t.reference_solution) <= high for t in chosen)
