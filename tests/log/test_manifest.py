"""run.json is one typed model with one writer and one reader, in the format reefbench has
always written: a run directory made before the model (``data/run-0.1``, written by
reefbench 0.1.0 before this change) is read, reported and resumed."""

from __future__ import annotations

import ast
import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from reefbench.errors import ConfigError
from reefbench.log.manifest import RunManifest, read_run_manifest, write_run_manifest
from reefbench.runner.config import RunConfig
from reefbench.runner.launch import manifest, select_run

OLD_RUN = Path(__file__).parent / "data" / "run-0.1"
SRC = Path(__file__).resolve().parents[2] / "src" / "reefbench"


@pytest.fixture
def old_run(tmp_path: Path) -> Path:
    copy = tmp_path / "old"
    shutil.copytree(OLD_RUN, copy)
    return copy


def test_an_old_run_json_reads_as_the_typed_manifest_and_writes_back_the_same(
    old_run: Path,
) -> None:
    written = json.loads((old_run / "run.json").read_text())
    read = read_run_manifest(old_run)
    assert read.config_hash == "36a63e27ea8a99fb" and read.suite is not None
    assert (read.suite.name, read.suite.version, read.suite.tasks) == ("memory", None, 1)
    assert (read.action_set, read.observation_policy, read.agent_label) == (
        "marks",
        "changed",
        "oracle",
    )
    assert read.versions["reefbench"] == "0.1.0"
    assert read.as_json() == written  # nothing lost, nothing added
    config = RunConfig.model_validate(read.config)
    assert config.config_hash() == read.config_hash  # so the run resumes as itself


def test_an_observe_key_is_the_observation_policy_and_stays_the_key_written(
    old_run: Path,
) -> None:
    """The observation policy was the field ``observe``; run.json files and configuration
    files spell it so. Such a manifest still loads (the alias of
    ``RunConfig.observation_policy``; without it ``observe`` is an unknown field), resumes
    with its own hash, and a manifest written today keeps the key."""
    data = json.loads((old_run / "run.json").read_text())
    data["config"]["observe"] = "latest"  # not the default: the value must come from the key
    data["config_hash"] = RunConfig.model_validate(data["config"]).config_hash()
    (old_run / "run.json").write_text(json.dumps(data))
    read = read_run_manifest(old_run)
    assert read.observation_policy == "latest"
    from reefbench.runner.launch import config_of

    config = config_of(read, old_run / "run.json")
    assert config.observation_policy == "latest"
    assert config.config_hash() == data["config_hash"]
    written = manifest(config).as_json()["config"]
    assert written["observe"] == "latest" and "observation_policy" not in written
    assert (
        RunConfig(observation_policy="all").config_hash()
        == RunConfig.model_validate({"observe": "all"}).config_hash()
    )


def test_a_new_manifest_has_the_keys_an_old_one_has(tmp_path: Path) -> None:
    old = json.loads((OLD_RUN / "run.json").read_text())
    config = RunConfig(suite="memory", tasks=["mem-write-note"], workers=1)
    new = manifest(config, select_run(config).identity()).as_json()
    assert sorted(new) == sorted(old)
    assert sorted(new["suite"]) == sorted(old["suite"])
    assert sorted(new["config"]) == sorted(old["config"])
    write_run_manifest(tmp_path, manifest(config))  # a run from before suites were recorded
    assert sorted(json.loads((tmp_path / "run.json").read_text())) == sorted(
        k for k in old if k != "suite"
    )


def _reef(*args: str) -> tuple[int, str]:
    from reefbench.cli.app import app

    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})
    return result.exit_code, result.output + str(result.exception or "")


def test_an_old_run_directory_resumes(old_run: Path) -> None:
    """Resuming reads the old manifest and checks it: the memory suite has changed since
    the fixture was written, which is refused in one line; with today's suite content
    recorded (every key kept) the run resumes (its one episode is done: nothing is left
    to play) and keeps its manifest as it was."""
    code, output = _reef("run", "--resume", "--out", str(old_run), "--no-report")
    assert code != 0 and "ran suite memory" in output
    data = json.loads((old_run / "run.json").read_text())
    config = RunConfig.model_validate(data["config"])
    data["suite"]["sha256"] = select_run(config).identity()["sha256"]
    (old_run / "run.json").write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    before = (old_run / "run.json").read_bytes()
    code, output = _reef("run", "--resume", "--out", str(old_run), "--no-report")
    assert code == 0, output
    assert (old_run / "run.json").read_bytes() == before


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (None, "not a run directory (no run.json)"),
        ("[1]", "expected a JSON object"),
        ("{", "not valid JSON"),
        ('{"config": 3, "config_hash": "x"}', "not a run's manifest: config: "),
        ('{"config": {}}', "not a run's manifest: config_hash: Field required"),
    ],
)
def test_an_unreadable_manifest_is_one_line(tmp_path: Path, text: str | None, message: str) -> None:
    if text is not None:
        (tmp_path / "run.json").write_text(text)
    with pytest.raises(ConfigError, match=re.escape(message)) as info:
        read_run_manifest(tmp_path)
    assert "\n" not in str(info.value)


def test_resuming_another_configuration_is_refused(tmp_path: Path) -> None:
    write_run_manifest(tmp_path, RunManifest(config={}, config_hash="a"))
    write_run_manifest(tmp_path, RunManifest(config={"x": 1}, config_hash="a"))  # same run
    with pytest.raises(ConfigError, match="another configuration"):
        write_run_manifest(tmp_path, RunManifest(config={}, config_hash="b"))


def test_the_file_name_is_spelled_in_one_place() -> None:
    """Everything else asks the log (``RUN_FILE``, ``is_run``, ``read_run_manifest``)."""
    spelled = sorted(
        str(path.relative_to(SRC))
        for path in SRC.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and node.value == "run.json"
    )
    assert spelled == ["log/manifest.py"]
