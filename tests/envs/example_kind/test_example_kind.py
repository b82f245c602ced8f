"""Adding an environment kind: its own folder (``counter/``) plus one registration line.

The kind is used the way a built-in one is: built by name through the registry, driven by
an agent in an episode, checked by its evaluators, reset lazily, and its imports obey the
same layering rule as ``src/reefbench/envs/<kind>/`` (see ``tests/test_layering.py``).
"""

from __future__ import annotations

import ast
import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from reefbench import ActionCall, Episode, Task
from reefbench.agents import OracleAgent
from reefbench.envs.memory import MemoryEnvironment
from reefbench.envs.registry import KINDS, make_environment
from reefbench.errors import WrongEnvironment

HERE = Path(__file__).resolve().parent


@pytest.fixture
def counter(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    monkeypatch.syspath_prepend(str(HERE))
    # The one registration line a new kind needs (in src/reefbench/envs/registry.py):
    monkeypatch.setitem(KINDS, "counter", "counter:CounterEnvironment")
    yield importlib.import_module("counter")
    for name in [m for m in sys.modules if m == "counter" or m.startswith("counter.")]:
        del sys.modules[name]


def test_the_registry_builds_the_new_kind_by_name(counter: ModuleType) -> None:
    env = make_environment("counter", "tally", start=3)
    assert isinstance(env, counter.CounterEnvironment) and env.name == "tally"
    env.reset()
    assert set(env.action_space) == {"press", "clear"}
    assert env.observe() == {"display": "3"}


def test_an_agent_solves_a_task_on_the_new_kind(counter: ModuleType) -> None:
    actions = importlib.import_module("counter.actions")
    task = Task(
        id="count-to-five",
        instruction="Make the counter show 5.",
        nodes={"five": actions.count_is(5).on("counter")},
        reference_solution=[ActionCall(env="counter", name="press", arguments={"times": 5})],
    )
    env = counter.CounterEnvironment()
    result = Episode(task, OracleAgent(), {"counter": env}).run()
    assert result.success and result.completed_nodes == ["five"]


def test_routing_its_actions_to_another_kind_is_one_clear_error(counter: ModuleType) -> None:
    actions = importlib.import_module("counter.actions")
    with pytest.raises(WrongEnvironment, match="'press' needs a CounterDevice, got Memory"):
        actions.press.run(MemoryEnvironment("laptop"), times=1)


def test_the_new_kind_gets_lazy_reset_from_the_contract(counter: ModuleType) -> None:
    env = counter.CounterEnvironment(lazy_reset=True)
    env.reset()
    env.observe()
    env.reset()  # nothing acted on it: skipped
    assert env.resets == 1
    env.step("press", {"times": 2})
    env.reset()
    assert env.resets == 2 and env.count == 0


def test_the_kind_imports_only_what_an_environment_kind_may() -> None:
    # The rule of tests/test_layering.py for envs/<kind>: the core but its episodes,
    # perception, envs (shared).
    allowed = ("reefbench.perception", "reefbench.envs.procs", "reefbench.envs.accounts")
    packages = ("agents", "apps", "compose", "runner", "report", "suites", "cli", "log", "episodes")
    for path in (HERE / "counter").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                module = node.module
                if module.startswith("reefbench.envs."):
                    assert module.startswith(allowed), f"{path.name}: {module}"
                if module.startswith("reefbench."):
                    assert module.split(".")[1] not in packages, f"{path.name}: {module}"
