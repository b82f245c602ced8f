"""Run configuration files and hashing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reefbench import ConfigError
from reefbench.log.store import write_run_manifest
from reefbench.runner.config import RunConfig, load_config


def test_toml_and_json(tmp_path: Path) -> None:
    toml = tmp_path / "run.toml"
    toml.write_text('suite = "memory"\nseeds = [1, 2]\n[agent]\nname = "null"\n')
    config = load_config(toml)
    assert config.seeds == [1, 2] and config.agent.name == "null"
    json_file = tmp_path / "run.json"
    json_file.write_text('{"workers": 4}')
    assert load_config(json_file).workers == 4
    yaml_file = tmp_path / "run.yaml"
    yaml_file.write_text("agent:\n  name: oracle\nstart_at: [0, 2]\n")
    assert load_config(yaml_file).start_at == [0, 2]


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("a.toml", "seeds = [", "not valid TOML"),
        ("b.toml", "sedes = [1]", "sedes: Extra inputs are not permitted"),
        ("c.toml", "workers = 0", "workers: Input should be greater than or equal to 1"),
        ("d.ini", "", "use a .toml, .yaml or .json file"),
        ("e.yaml", "seeds: [1", "not valid YAML"),
        ("f.toml", 'action_set = "pixel"', "action_set: unknown action set 'pixel'"),
    ],
)
def test_errors_name_file_and_field(tmp_path: Path, name: str, text: str, message: str) -> None:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value).startswith(str(path)) and message in str(info.value)


def test_hash_ignores_parallelism_only() -> None:
    base = RunConfig()
    assert base.config_hash() == RunConfig(workers=8, ray_address="auto").config_hash()
    assert base.config_hash() != RunConfig(seeds=[1]).config_hash()


def test_manifest_refuses_another_run(tmp_path: Path) -> None:
    write_run_manifest(tmp_path, {"config": {}, "config_hash": "a"})
    write_run_manifest(tmp_path, {"config": {}, "config_hash": "a"})
    with pytest.raises(ConfigError, match="another configuration"):
        write_run_manifest(tmp_path, {"config": {}, "config_hash": "b"})


def test_defaults_run_reef_v1_on_every_core_up_to_four() -> None:
    config = RunConfig()
    assert config.suite == "v1" and config.agent.name == "oracle"
    assert config.workers == max(1, min(4, os.cpu_count() or 1))


def test_runs_from_before_observation_policies_keep_their_hash_and_resume_as_all(
    tmp_path: Path,
) -> None:
    import hashlib
    import json

    from reefbench.cli.run import _resumed_config
    from reefbench.runner.launch import manifest

    old = RunConfig(suite="memory").model_dump(mode="json", by_alias=True)  # as run.json
    del old["observe"]  # what run.json held before the field existed
    del old["tiers"], old["families"]  # nor these (added later, empty by default)
    relevant = {k: v for k, v in old.items() if k not in ("workers", "ray_address")}
    del relevant["action_modules"], relevant["side_effects"]
    text = json.dumps(relevant, sort_keys=True, separators=(",", ":"))
    old_hash = hashlib.sha256(text.encode()).hexdigest()[:16]
    write_run_manifest(tmp_path, {"config": old, "config_hash": old_hash})
    resumed = _resumed_config(tmp_path)
    assert resumed.observation_policy == "all" and resumed.config_hash() == old_hash
    write_run_manifest(tmp_path, manifest(resumed))  # the same run: accepted
    assert RunConfig(suite="memory").observation_policy == "changed"
    assert RunConfig(suite="memory").config_hash() != old_hash  # a new default is a new run
