"""reef-v1 gives the same verdicts after its code moves (issue 32, item 2).

reef-v1's frozen data names its checks by the import paths they had when it was frozen
(``reefbench.suites.v0.helpers:file_holds``); those resolve through the alias table of
:mod:`reefbench.actions.names`. Two records, made before any module moved, say what
"the same" means:

* ``data/v1_refs_before.json``: every reference in the data -> the qualified name and the
  SHA-256 of the code of the function it resolved to (recorded at commit 34755e3, before
  anything moved). Every reference must still resolve to a function with the same name
  and code: a check whose code changes must be re-recorded on purpose
  (``REEF_RECORD_VERDICTS=1``), never by a move. The code is the source from
  ``inspect.getsource`` without its import statements, docstring and formatting (parsed
  and unparsed): a move rewrites the import lines inside functions and the module paths
  docstrings name, which changes no verdict.
* ``data/v1_oracle_before.json``: the reference solution of a few cheap tasks (covering
  every module the data names) played on real environments, and what its checkpoints
  gave (which completed at which turn, the null agent's probe, side effects).
"""

from __future__ import annotations

import ast
import hashlib
import inspect
import json
import os
import shutil
import textwrap
from pathlib import Path
from typing import Any

import pytest

from reefbench.actions.refs import resolve_ref
from reefbench.suites import get_suite
from reefbench.tasks.task import Task

DATA = Path(__file__).parent / "data"
REFS_BEFORE = DATA / "v1_refs_before.json"
ORACLE_BEFORE = DATA / "v1_oracle_before.json"
RECORD = os.environ.get("REEF_RECORD_VERDICTS") == "1"

# The cheapest tasks that together name every module in reef-v1's data (desktop checks and
# setup, session and office checks, the account's checks and seeding, the phone's checks,
# the UI checks, the root checks, and the shared file, scan and photo checks).
SAMPLE = (
    "v1-hand-ae95ff16832a",
    "v1-hand-f064223bb4c6",
    "v1-small-2592e91cc5f2",
    "v1-small-6d6879c3be8d",
    "v1-session-e13220f2c8c0",
    "v1-photoedit-dc80fd50455d",
    "v1-office-be247df82043",
    "v1-photoedit-060e8c303d43",
)


def _walk_refs(node: Any, found: set[str]) -> set[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("evaluator", "action") and isinstance(value, str):
                found.add(value)
            else:
                _walk_refs(value, found)
    elif isinstance(node, list):
        for item in node:
            _walk_refs(item, found)
    return found


def v1_refs() -> set[str]:
    """Every action and evaluator reference written in reef-v1's data file."""
    found: set[str] = set()
    data = get_suite("v1").frozen
    assert data is not None
    for line in (data.directory / "tasks.jsonl").read_text(encoding="utf-8").splitlines():
        document = json.loads(line)
        _walk_refs({k: document[k] for k in ("nodes", "setup", "teardown", "extra_actions")}, found)
    return found


class _WithoutImports(ast.NodeTransformer):
    """The code that decides a verdict: no import statements and no docstrings (a move
    rewrites both, the paths they name, and changes no verdict)."""

    def visit_Import(self, node: ast.Import) -> None:
        return None

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        return None

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        first = node.body[0] if node.body else None
        if (
            isinstance(first, ast.Expr)
            and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)
        ):
            node.body = node.body[1:] or [ast.Pass()]
        self.generic_visit(node)
        return node


def _identity(ref: str) -> dict[str, str]:
    func = resolve_ref(ref).func
    tree = _WithoutImports().visit(ast.parse(textwrap.dedent(inspect.getsource(func))))
    return {
        "qualname": func.__qualname__,
        "code_sha256": hashlib.sha256(ast.unparse(tree).encode("utf-8")).hexdigest(),
    }


def _write(path: Path, record: dict[str, Any]) -> None:
    path.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def test_every_v1_reference_resolves_to_the_function_it_named_when_frozen() -> None:
    refs = v1_refs()
    assert len(refs) == 63
    now = {ref: _identity(ref) for ref in sorted(refs)}
    if RECORD:
        _write(REFS_BEFORE, now)
    before = json.loads(REFS_BEFORE.read_text(encoding="utf-8"))
    assert set(before) == refs
    changed = [ref for ref in sorted(refs) if now[ref] != before[ref]]
    assert not changed, f"these references now run other code: {changed}"


def _checkpoints(task: Task, envs: Any) -> dict[str, Any]:
    from reefbench.agents import OracleAgent
    from reefbench.episodes.episode import Episode
    from reefbench.validation.gates import STRICT, used_environments

    episode = Episode(
        task,
        OracleAgent(observe=False),
        used_environments(task, envs),
        probe_at={1},
        invalid_tolerance=STRICT,
    )
    result = episode.run()
    null = episode.probes.get(1)
    return {
        "success": result.success,
        "completed_at": dict(sorted(result.completed_at.items())),
        "regressed": sorted(result.regressed),
        "side_effects": sorted(result.side_effects),
        "null_completed": sorted(null.completed) if null is not None else None,
        "error": result.error,
    }


@pytest.mark.integration
@pytest.mark.timeout(1800)
@pytest.mark.skipif(
    not all(shutil.which(t) for t in ("Xvfb", "bwrap", "xdotool", "openbox", "rofi"))
    or not Path("/usr/bin/chromium").exists(),
    reason="needs Xvfb, bubblewrap, xdotool, openbox, rofi and Chromium",
)
def test_the_oracle_gives_the_recorded_checkpoint_results_on_a_sample() -> None:
    pytest.importorskip("playwright")
    pytest.importorskip("fastapi")
    suite = get_suite("v1")
    tasks = {t.id: t for t in suite.load()}
    modules = {ref.partition(":")[0] for t in SAMPLE for ref in _task_refs(tasks[t])}
    assert modules == {ref.partition(":")[0] for ref in v1_refs()}
    envs = suite.make_environments()
    try:
        now = {task_id: _checkpoints(tasks[task_id], envs) for task_id in SAMPLE}
    finally:
        for env in envs.values():
            env.stop()
    if RECORD or not ORACLE_BEFORE.exists():
        _write(ORACLE_BEFORE, now)
    before = json.loads(ORACLE_BEFORE.read_text(encoding="utf-8"))
    assert now == before


def _task_refs(task: Task) -> set[str]:
    """The references reef-v1's file writes for this task (its data, not today's names)."""
    data = get_suite("v1").frozen
    assert data is not None
    for line in (data.directory / "tasks.jsonl").read_text(encoding="utf-8").splitlines():
        document = json.loads(line)
        if document["id"] == task.id:
            parts = {k: document[k] for k in ("nodes", "setup", "teardown", "extra_actions")}
            return _walk_refs(parts, set())
    raise AssertionError(f"{task.id} is not in reef-v1's data")
