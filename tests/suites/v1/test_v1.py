"""reef-v1 as frozen, published data: the shipped bytes are the benchmark (never rebuilt
from the source, which moves on), ids come from content, and runs record the suite's
hash. reef-v1 was frozen when task files named actions by module path; those load
through the alias table (:data:`reefbench.actions.names.LEGACY_REFS`)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from reefbench.cli import app
from reefbench.errors import ConfigError
from reefbench.runner.launch import suite_identity
from reefbench.suites import get_suite
from reefbench.suites import v1 as suite
from reefbench.suites.frozen import stale
from reefbench.suites.v1.build import task_id
from reefbench.tasks.taskfile import tasks_to_jsonl


def test_a_published_release_is_its_data_not_a_rebuild_of_the_source(tmp_path: Path) -> None:
    """reef-v1 1.0.0 is published: the benchmark's source moves on towards the next
    release, so v1 is never rebuilt from it; freezing it is refused in one line, and
    ``--check`` verifies the shipped bytes against their manifest."""
    assert suite.FROZEN.published
    with pytest.raises(ConfigError, match=r"^suite 'v1' 1\.0\.0 is published: .* a new release"):
        suite.FROZEN.refuse_if_published()
    runner = CliRunner()
    refused = runner.invoke(app, ["suite", "freeze", "v1"])
    assert refused.exit_code != 0 and "is published" in str(refused.exception or refused.output)
    shipped = (suite.DATA / "tasks.jsonl").read_bytes()
    assert hashlib.sha256(shipped).hexdigest() == suite.manifest().sha256


def test_a_stale_file_is_named_with_the_command_that_fixes_it(tmp_path: Path) -> None:
    """The mechanism an unpublished release is kept fresh by (the shipped v1 data serves
    as the "shipped" side; a changed task makes both files stale)."""
    from reefbench.suites.frozen import render

    edited = [t.model_copy(update={"instruction": t.instruction + " Now."}) for t in suite.load()]
    changed = render(edited, suite=suite.NAME, version=suite.VERSION, command="x")
    assert stale(changed, suite.DATA) == ["tasks.jsonl", "manifest.json"]
    problem = suite.FROZEN.staleness(changed)
    assert problem is not None and problem.endswith("run: reef suite freeze v1")
    assert "\n" not in problem


def test_the_manifest_names_the_data_by_version_count_and_hash() -> None:
    manifest = suite.manifest()
    data = (suite.DATA / "tasks.jsonl").read_bytes()
    assert manifest.suite == "v1" and manifest.version == suite.VERSION
    assert manifest.sha256 == hashlib.sha256(data).hexdigest()
    assert manifest.count == data.count(b"\n") == len(suite.load())
    assert manifest.command == "reef suite freeze v1"


def test_every_task_is_complete_in_the_file() -> None:
    """Nodes, edges, solutions, near misses and metadata are all data: the file alone
    says what each task is, whatever the templates say later."""
    lines = (suite.DATA / "tasks.jsonl").read_text(encoding="utf-8").splitlines()
    documents = [json.loads(line) for line in lines]
    assert all("subtasks" not in d for d in documents)  # no task refers to a template
    for d in documents:
        assert d["nodes"] and d["reference_solution"] and d["metadata"]["subtasks"], d["id"]
        spans = {s["id"] for s in d["metadata"]["subtasks"]}
        assert {n["subtask"] for n in d["near_misses"]} <= spans, d["id"]
    assert sum(len(d["near_misses"]) for d in documents) > len(documents)
    assert any(d["alternative_solutions"] for d in documents)


def test_ids_are_v1_and_derived_from_the_definition() -> None:
    tasks = suite.load()
    ids = [t.id for t in tasks]
    assert len(set(ids)) == len(ids)
    assert all(i.startswith(("v1-hand-", "v1-small-", "v1-cross-", "v1-")) for i in ids)
    assert not any(i.startswith("v0-") for i in ids)
    for task in tasks[:20]:
        kind = task.id.rsplit("-", 1)[0] + "-"
        assert task_id(task, kind) == task.id
        changed = task.model_copy(update={"instruction": task.instruction + "!"})
        assert task_id(changed, kind) != task.id


def test_reef_v1_is_the_default_and_its_hash_goes_to_run_json() -> None:
    from reefbench.runner.config import RunConfig

    assert RunConfig().suite == "v1"
    chosen = get_suite("reef-v1")
    assert chosen.name == "v1" and chosen.frozen is not None
    tasks = chosen.load()
    ran = tasks_to_jsonl(tasks[:2])
    identity = suite_identity(chosen, tasks, ran)
    assert identity == {
        "name": "v1",
        "version": suite.VERSION,
        "sha256": suite.manifest().sha256,
        "tasks_sha256": hashlib.sha256(ran.encode()).hexdigest(),
        "tasks": 2,
    }


def test_freeze_check_on_the_command_line() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["suite", "freeze", "v1", "--check"])
    assert result.exit_code == 0, result.output
    assert "is published" in result.output and "match their manifest" in result.output
    result = runner.invoke(app, ["suite", "freeze", "memory"])  # main() makes it exit 2
    assert isinstance(result.exception, ConfigError)
    assert str(result.exception) == "suite 'memory' is synthesised when it loads, not frozen"
