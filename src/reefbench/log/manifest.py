"""``run.json``, the manifest of a run: one typed model, one writer, one reader.

The manifest says what produced a run directory's scores: the configuration as it was
given (``config``), the hash of the fields that change results (``config_hash``), the
suite's identity (``suite``: name, version, content hashes; absent in runs from before
runs stored their tasks), the package versions and the start time. Like
``inspect_ai.log``'s ``EvalSpec`` it is written once, when the run starts, and read by
everything that comes later (``reef run --resume``, ``reef report``, the viewer, the
exports), so its format is the log's and only this module knows the file's name.

``config`` stays the JSON object the run recorded rather than a ``RunConfig``: a report
must still read a run whose configuration a later reefbench no longer accepts, and the
runner (which owns ``RunConfig``) sits above this layer. Keys this version does not know
are kept, so a manifest read and written again loses nothing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pydantic
from pydantic import BaseModel, ConfigDict, Field

from reefbench.errors import ConfigError
from reefbench.plumbing.userfiles import first_validation_error, parse_json, read_text

RUN_FILE = "run.json"
"""The manifest's file name in a run directory (the only place it is spelled)."""


class SuiteIdentity(BaseModel):
    """Which suite a run ran: its name, version (frozen suites), the content hash of the
    whole suite (``sha256``), and the hash and count of the definitions the run ran."""

    model_config = ConfigDict(extra="allow")

    name: str
    version: str | None = None
    sha256: str
    tasks_sha256: str | None = None
    tasks: int | None = None


class RunManifest(BaseModel):
    """The typed content of ``run.json`` (keys as reefbench has always written them)."""

    model_config = ConfigDict(extra="allow")

    config: dict[str, Any]
    config_hash: str
    suite: SuiteIdentity | None = None
    versions: dict[str, Any] = Field(default_factory=dict)
    created: str | None = None

    # --------------------------------------------------------------- what reports show
    @property
    def suite_name(self) -> str:
        """The suite the configuration named (``memory`` when it names none)."""
        return str(self.config.get("suite", "memory"))

    @property
    def action_set(self) -> str:
        """The run's action set; ``legacy`` for runs made before action sets, whose tool
        lists added name-addressed actions to the devices each task's solution used."""
        return str(self.config.get("action_set", "legacy"))

    @property
    def observation_policy(self) -> str:
        """The run's observation policy (which devices' observations a model agent's
        request carried); ``all`` for runs made before policies, which sent everything.

        run.json stores it as ``observe`` (the option's name before it was renamed, still
        what ``reef run`` writes); ``observation_policy`` is read too."""
        found = self.config.get("observe", self.config.get("observation_policy", "all"))
        return str(found)

    @property
    def agent(self) -> dict[str, Any]:
        """The agent part of the configuration (empty when it is not an object)."""
        agent = self.config.get("agent", {})
        return agent if isinstance(agent, dict) else {}

    @property
    def agent_label(self) -> str:
        """The agent as tables name it: a model with its policy, or a built-in name."""
        model = self.agent.get("model")
        if model:
            return f"{model} ({self.agent.get('policy', 'single')})"
        return str(self.agent.get("name", "?"))

    def as_json(self) -> dict[str, Any]:
        """The manifest as ``run.json`` holds it: ``suite`` and ``created`` are left out
        when unknown (older runs have no ``suite``), never written as ``null``."""
        data = self.model_dump(mode="json")
        for key in ("suite", "created"):
            if data.get(key) is None:
                data.pop(key, None)
        return data


def manifest_path(run_dir: Path) -> Path:
    """Where a run directory keeps its manifest."""
    return run_dir / RUN_FILE


def is_run(run_dir: Path) -> bool:
    """Whether ``run_dir`` holds a run (its manifest exists)."""
    return manifest_path(run_dir).is_file()


def read_run_manifest(run_dir: Path) -> RunManifest:
    """The manifest of the run in ``run_dir``.

    Raises:
        ConfigError: one line: no manifest, not UTF-8, not JSON, or not a manifest.
    """
    path = manifest_path(run_dir)
    if not path.is_file():
        raise ConfigError(f"{run_dir}: not a run directory (no {RUN_FILE})")
    data = parse_json(read_text(path), str(path))
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a JSON object (a run's manifest)")
    try:
        return RunManifest.model_validate(data)
    except pydantic.ValidationError as exc:
        raise ConfigError(f"{path}: not a run's manifest: {first_validation_error(exc)}") from None


def write_run_manifest(run_dir: Path, manifest: RunManifest | Mapping[str, Any]) -> None:
    """Write ``run.json`` when the directory has none; when it has one, check that it is
    the same run (same configuration hash; the same suite content when both know it).

    A mapping is validated into a :class:`RunManifest` first (runs written by hand, as
    tests do).

    Raises:
        ConfigError: the directory holds another run (one line, naming the difference).
    """
    if not isinstance(manifest, RunManifest):
        manifest = RunManifest.model_validate(dict(manifest))
    if is_run(run_dir):
        _check_same_run(run_dir, read_run_manifest(run_dir), manifest)
        return
    run_dir.mkdir(parents=True, exist_ok=True)
    text = json.dumps(manifest.as_json(), indent=2, sort_keys=True) + "\n"
    manifest_path(run_dir).write_text(text, encoding="utf-8")


def _check_same_run(run_dir: Path, ran: RunManifest, now: RunManifest) -> None:
    """Refuse to resume a directory that holds a different run (another configuration,
    or the same one on other task definitions)."""
    if ran.config_hash != now.config_hash:
        raise ConfigError(
            f"{run_dir} holds a run with another configuration "
            f"(hash {ran.config_hash}, this one {now.config_hash}); use a new --out directory"
        )
    if ran.suite is not None and now.suite is not None and ran.suite.sha256 != now.suite.sha256:
        raise ConfigError(
            f"{run_dir} ran suite {ran.suite.name} {ran.suite.version or ''} with content "
            f"sha256 {ran.suite.sha256[:16]}, this reefbench has {now.suite.sha256[:16]}: "
            "resume with the reefbench that started it, or use a new --out directory"
        )
