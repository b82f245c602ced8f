"""bench/concurrency.py's task mix and bench/_episodes.py's accounting (no environment runs:
the bench itself starts real devices and is run by hand)."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).parents[2] / "bench"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def episodes() -> ModuleType:
    return load("_episodes")


@pytest.fixture(scope="module")
def concurrency(episodes: ModuleType) -> ModuleType:
    return load("concurrency")


def test_the_mix_has_one_reef_v1_task_of_each_kind(concurrency: ModuleType) -> None:
    mix = concurrency.task_mix()
    kinds = [tuple(sorted(set(t.metadata.environments) - {"services"})) for t in mix]
    assert kinds == list(concurrency.KINDS.values())
    assert all(t.reference_solution for t in mix)


def test_idle_table_is_per_second_of_idle_dearest_first(episodes: ModuleType) -> None:
    accounting = episodes.Accounting(idle_seconds=10.0)
    accounting.idle_cpu.update({"Xvfb": 0.1, "chromium renderer": 0.5})
    accounting.idle_pss_mb.update({"Xvfb": 40.0, "dbus-daemon": 1.0})
    assert episodes.idle_table(accounting) == [
        ("chromium renderer", 0.05, 0.0),
        ("Xvfb", 0.01, 40.0),
        ("dbus-daemon", 0.0, 1.0),
    ]


def test_processes_are_filed_under_their_program(episodes: ModuleType) -> None:
    assert episodes.component(os.getpid()).startswith("python")
    assert os.getpid() in episodes.descendants(os.getppid())


def test_a_second_in_which_an_agent_stopped_thinking_is_not_idle(episodes: ModuleType) -> None:
    thinking = episodes.Thinking()
    with thinking:
        assert (thinking.count, thinking.ends) == (1, 0)
    assert (thinking.count, thinking.ends) == (0, 1)
