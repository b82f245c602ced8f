"""The table of stable names covers every action and evaluator a built-in suite's data may
name, each name resolves to the action it means, and reef-v1's legacy references are
exactly its data's."""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Iterator

import pytest

from reefbench.actions.evaluators import Evaluator, _Combined
from reefbench.actions.names import LEGACY_REFS, NAMES
from reefbench.actions.refs import (
    BUILTIN_ACTION_MODULES,
    is_reefbench_ref,
    resolve_ref,
    stable_name,
)
from reefbench.actions.spec import Action
from reefbench.suites import get_suite
from reefbench.tasks.task import Task
from reefbench.tasks.taskfile import task_refs, tasks_to_jsonl

AREAS = {"account", "browser", "desktop", "office", "phone", "touch", "root", "memory"}
BUILT_IN_SUITES = ("memory", "v0", "v1")


def _leaves(evaluator: Evaluator) -> Iterator[Evaluator]:
    if isinstance(evaluator, _Combined):
        for part in evaluator.parts:
            yield from _leaves(part)
    else:
        yield evaluator


def _named(task: Task) -> Iterator[Action]:
    """Every action and evaluator a task file writes for this task."""
    for node in task.nodes.values():
        yield from _leaves(node)
    for step in (*task.setup, *task.teardown, *task.extra_actions):
        yield step.action


@pytest.fixture(scope="module")
def suite_actions() -> dict[str, Action]:
    found: dict[str, Action] = {}
    for name in BUILT_IN_SUITES:
        for task in get_suite(name).load():
            for act in _named(task):
                found.setdefault(act.ref, act)
    return found


def test_every_action_a_built_in_suite_names_has_a_stable_name(
    suite_actions: dict[str, Action],
) -> None:
    missing = sorted(ref for ref, act in suite_actions.items() if stable_name(act) is None)
    assert missing == [], "give these a stable name in reefbench/actions/names.py"


def test_every_built_in_evaluator_has_a_stable_name() -> None:
    evaluators = [
        value
        for module_name in sorted(BUILTIN_ACTION_MODULES)
        for value in vars(importlib.import_module(module_name)).values()
        if isinstance(value, Evaluator) and value.func.__module__ == module_name
    ]
    assert len(evaluators) > 50
    assert [e.ref for e in evaluators if stable_name(e) is None] == []


@pytest.mark.parametrize("name", sorted(NAMES))
def test_every_name_resolves_to_the_action_its_table_entry_names(name: str) -> None:
    assert re.fullmatch(r"[a-z]+\.[a-z][a-z0-9_]*", name)
    assert name.split(".")[0] in AREAS
    target = NAMES[name]
    assert target.partition(":")[0] in BUILTIN_ACTION_MODULES
    act = resolve_ref(name)
    assert isinstance(act, Action) and act.ref == target
    assert stable_name(act) == name


def test_one_name_per_function() -> None:
    assert len(set(NAMES.values())) == len(NAMES)


def test_the_legacy_references_are_exactly_those_reef_v1_writes() -> None:
    frozen = get_suite("v1").frozen
    assert frozen is not None
    written: set[str] = set()
    for line in (frozen.directory / "tasks.jsonl").read_text(encoding="utf-8").splitlines():
        written.update(task_refs(json.loads(line)))
    assert set(LEGACY_REFS) == written
    assert set(LEGACY_REFS.values()) <= set(NAMES)
    assert len(set(LEGACY_REFS.values())) == len(LEGACY_REFS)


def test_built_in_suites_written_today_name_no_module_of_reefbench() -> None:
    for name in BUILT_IN_SUITES:
        documents = [
            json.loads(line) for line in tasks_to_jsonl(get_suite(name).load()).splitlines()
        ]
        refs = {ref for d in documents for ref in task_refs(d)}
        assert refs and not [r for r in refs if is_reefbench_ref(r) or ":" in r], name
