"""Selecting tasks by tier and family (``reef run --tier/--family``), without changing the
hash, and so the resuming, of runs stored before these fields existed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from reefbench import Task, TaskMetadata, evaluator
from reefbench.cli import app
from reefbench.errors import ConfigError
from reefbench.log.manifest import read_run_manifest
from reefbench.runner.config import TIERS, RunConfig
from reefbench.runner.engine import select_tasks
from reefbench.runner.launch import config_of, manifest, select_run

OLD_RUN = Path(__file__).parents[1] / "log" / "data" / "run-0.1"


@evaluator
def flag(name: str) -> bool:
    """Never evaluated here."""
    return False


def task(task_id: str, family: str | None = None, tier: str | None = None) -> Task:
    tags = [*([f"family:{family}"] if family else []), *([f"tier:{tier}"] if tier else [])]
    return Task(
        id=task_id, instruction="x", nodes={"a": flag(name="a")}, metadata=TaskMetadata(tags=tags)
    )


TASKS = [
    task("v2-office-a-0", "office", "easy"),
    task("v2-office-b-0", "office", "medium"),
    task("v2-infeasible-a-0", "infeasible", "hard"),
    task("v2-infeasible-a-1", "infeasible", "hard"),
]


def ids(tasks: list[Task]) -> list[str]:
    return [t.id for t in tasks]


def test_an_old_manifest_keeps_its_hash_and_resumes_as_itself() -> None:
    read = read_run_manifest(OLD_RUN)
    assert "tiers" not in read.config and "families" not in read.config
    config = config_of(read, OLD_RUN / "run.json")
    assert config.tiers == [] and config.families == []
    assert config.config_hash() == read.config_hash == "36a63e27ea8a99fb"
    # Written again today, run.json has the keys it had (empty selections are not
    # written) and hashes the same; a selection is written and read back.
    written = manifest(config).as_json()["config"]
    assert "tiers" not in written and "families" not in written
    assert RunConfig.model_validate(written).config_hash() == read.config_hash
    hard = config.model_copy(update={"tiers": ["hard"]})
    written = manifest(hard).as_json()["config"]
    assert written["tiers"] == ["hard"] and "families" not in written
    assert RunConfig.model_validate(written).config_hash() == hard.config_hash()


def test_a_selection_by_tier_or_family_is_another_run() -> None:
    plain = RunConfig(suite="v2-dev").config_hash()
    hard = RunConfig(suite="v2-dev", tiers=["hard"]).config_hash()
    office = RunConfig(suite="v2-dev", families=["office"]).config_hash()
    assert len({plain, hard, office}) == 3
    assert RunConfig(suite="v2-dev", tiers=[]).config_hash() == plain


def test_unknown_tier_is_one_line_listing_the_tiers() -> None:
    assert TIERS == ("easy", "medium", "hard")
    result = CliRunner().invoke(app, ["run", "--suite", "memory", "--tier", "extreme"])
    assert result.exit_code != 0
    message = str(result.exception)  # the entry point prints it as "error: <message>"
    assert message.endswith("unknown tier 'extreme': choose one of easy, medium, hard")
    assert "\n" not in message


def test_the_reef_v2_tiers_are_the_tiers_a_run_selects() -> None:
    from reefbench.benchmark.v2 import TIERS as V2_TIERS

    assert TIERS == V2_TIERS


def test_select_by_tier_family_and_glob_together() -> None:
    assert ids(select_tasks(TASKS, [], tiers=["hard"])) == [
        "v2-infeasible-a-0",
        "v2-infeasible-a-1",
    ]
    assert ids(select_tasks(TASKS, [], tiers=["easy", "medium"])) == [
        "v2-office-a-0",
        "v2-office-b-0",
    ]
    assert ids(select_tasks(TASKS, [], families=["office"], tiers=["medium"])) == ["v2-office-b-0"]
    assert ids(select_tasks(TASKS, ["*-0"], families=["infeasible"])) == ["v2-infeasible-a-0"]
    assert select_tasks(TASKS, []) == TASKS


def test_a_selection_of_nothing_names_what_the_suite_has() -> None:
    with pytest.raises(ConfigError, match="its family labels are infeasible, office"):
        select_tasks(TASKS, [], families=["injection"])
    with pytest.raises(ConfigError, match="no task has a tier"):
        select_tasks([task("plain")], [], tiers=["hard"])


def test_select_run_on_v2_dev_by_tier() -> None:
    chosen = select_run(RunConfig(suite="v2-dev", tiers=["hard"])).chosen
    assert chosen and {t.metadata.tier for t in chosen} == {"hard"}
    infeasible = select_run(RunConfig(suite="v2-dev", families=["infeasible"])).chosen
    assert infeasible and {t.metadata.family for t in infeasible} == {"infeasible"}


def test_config_file_selects_tiers(tmp_path: Path) -> None:
    from reefbench.runner.config import load_config

    path = tmp_path / "run.json"
    path.write_text(json.dumps({"suite": "v2-dev", "tiers": ["hard"], "families": ["office"]}))
    config = load_config(path)
    assert (config.tiers, config.families) == (["hard"], ["office"])


def test_tasks_list_shows_family_and_tier_when_the_suite_has_them() -> None:
    wide = {"COLUMNS": "400"}
    v2 = CliRunner().invoke(app, ["tasks", "list", "--suite", "v2-dev"], env=wide)
    assert v2.exit_code == 0, v2.output
    header = next(line for line in v2.output.splitlines() if " id " in line)
    assert "family" in header and "tier" in header
    assert "infeasible" in v2.output and "hard" in v2.output
    memory = CliRunner().invoke(app, ["tasks", "list", "--suite", "memory"], env=wide)
    assert memory.exit_code == 0
    header = next(line for line in memory.output.splitlines() if " id " in line)
    assert "family" not in header and "tier" not in header
