"""Run configuration: what to run (suite, tasks, agent, seeds) and how (workers, retries).

A run is configured by flags or by a TOML, YAML or JSON file with the same fields. The
fields that change results are hashed into ``config_hash``, stored with the package
versions in the run's ``run.json``, so every score can be tied to how it was produced and a
resumed run can be checked to be the same run.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import sys
import tomllib
from importlib import metadata
from pathlib import Path
from typing import Any

import pydantic
from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)

from reefbench.actions.sets import ACTION_SETS, DEFAULT_ACTION_SET, PIXELS
from reefbench.agents.observation import (
    DEFAULT_OBSERVE,
    LEGACY_OBSERVE,
    OBSERVATION_POLICIES,
)
from reefbench.agents.providers.registry import TABLE
from reefbench.episodes.episode import DEFAULT_INVALID_TOLERANCE
from reefbench.errors import ConfigError
from reefbench.plumbing.userfiles import TOO_DEEP, first_validation_error, parse_json, read_text
from reefbench.tasks.sideeffects import SideEffectPolicy


class AgentSpec(BaseModel):
    """Which agent plays: a built-in name, or a model with a policy."""

    model_config = ConfigDict(extra="forbid")

    name: str = "oracle"
    model: str | None = None
    policy: str = "single"
    options: dict[str, Any] = Field(default_factory=dict)

    @property
    def label(self) -> str:
        return f"{self.model} ({self.policy})" if self.model else self.name


def default_workers() -> int:
    """One episode per core, at most four: a reef-v0 worker holds a desktop, a phone and
    a browser (about 2 GB), and more than four rarely pays off on one machine."""
    return max(1, min(4, os.cpu_count() or 1))


TIERS: tuple[str, ...] = ("easy", "medium", "hard")
"""The difficulty tiers a task may carry (tag ``tier:<tier>``; reef-v2's
:data:`reefbench.benchmark.v2.TIERS`), which ``reef run --tier`` selects."""

SELECTION_FIELDS = ("tiers", "families")
"""Fields added after runs were stored: left out of :meth:`RunConfig.config_hash` while
empty (their default), so an earlier run's hash, and its resuming, stand."""

OBSERVATION_POLICY_KEY = "observe"
"""How run.json, configuration files and ``config_hash`` spell
:attr:`RunConfig.observation_policy` (its name before it was renamed; both are read)."""


class RunConfig(BaseModel):
    """Everything a run needs; ``workers``, ``ray_address`` and ``action_modules`` do not
    change results (they are left out of :meth:`config_hash`; the run directory is not part
    of the configuration at all).

    Dump with ``by_alias=True`` for what run.json holds: ``observation_policy`` is stored
    as ``observe`` (:data:`OBSERVATION_POLICY_KEY`)."""

    model_config = ConfigDict(extra="forbid")

    suite: str = "v1"
    tasks: list[str] = Field(default_factory=list, description="task id globs; empty = all")
    tiers: list[str] = Field(
        default_factory=list,
        description="difficulty tiers (easy, medium, hard) to run; empty = all",
    )
    families: list[str] = Field(
        default_factory=list, description="task families to run (reef-v2); empty = all"
    )
    agent: AgentSpec = Field(default_factory=AgentSpec)
    seeds: list[int] = Field(default_factory=lambda: [0], min_length=1)
    start_at: list[int] = Field(default_factory=lambda: [0], min_length=1)
    invalid_tolerance: int = Field(default=DEFAULT_INVALID_TOLERANCE, ge=0)
    side_effects: SideEffectPolicy = Field(
        default="fail",
        description="changes beyond what a task may change: 'fail' the episode, only "
        "'report' them, or 'off' (no diff)",
    )
    step_limit: int | None = Field(default=None, ge=1)
    max_infra_retries: int = Field(default=2, ge=0)
    action_set: str = Field(
        default=DEFAULT_ACTION_SET,
        description="how agents address devices: marks (default), a11y or pixels",
    )
    observation_policy: str = Field(
        default=DEFAULT_OBSERVE,
        # Read as ``observe`` too and written as ``observe``: the key of every run.json and
        # configuration file so far (and of the hash, so those runs resume as themselves).
        validation_alias=AliasChoices("observation_policy", OBSERVATION_POLICY_KEY),
        serialization_alias=OBSERVATION_POLICY_KEY,
        description="which devices' observations a model agent's request carries: "
        + ", ".join(OBSERVATION_POLICIES),
    )
    workers: int = Field(default_factory=default_workers, ge=1, le=256)
    ray_address: str | None = None
    action_modules: list[str] = Field(
        default_factory=list,
        description="packages trusted to define the actions/evaluators task files name",
    )
    judge: str | None = Field(
        default=None,
        description="model (provider/model) grading free-text answers; none = the rubric",
    )

    @field_validator("tiers")
    @classmethod
    def _known_tiers(cls, tiers: list[str]) -> list[str]:
        for tier in tiers:
            if tier not in TIERS:
                raise ValueError(f"unknown tier {tier!r}: choose one of {', '.join(TIERS)}")
        return tiers

    @field_validator("action_set")
    @classmethod
    def _known_action_set(cls, name: str) -> str:
        if name not in ACTION_SETS:
            raise ValueError(f"unknown action set {name!r}: choose one of {', '.join(ACTION_SETS)}")
        return name

    @field_validator("observation_policy")
    @classmethod
    def _known_observation_policy(cls, name: str) -> str:
        if name not in OBSERVATION_POLICIES:
            raise ValueError(
                f"unknown observation policy {name!r}: choose one of "
                + ", ".join(OBSERVATION_POLICIES)
            )
        return name

    @model_validator(mode="after")
    def _computer_use(self) -> RunConfig:
        """Settle whether a model plays through its native computer-use interface
        (:func:`~reefbench.agents.computer_use.wants_computer_use`), so ``run.json`` says
        which it did: ``computer_use`` becomes ``on`` when the rule picks it.

        A native interface, like an open grounding model, acts by coordinates only, so
        unless the run names an action set it plays under ``pixels``: plain screenshots,
        not Set-of-Marks boxes and numbers drawn over the screen that the model cannot
        refer to."""
        options = self.agent.options
        if self.agent.model is None:
            return self
        mode = options.get("computer_use", "auto")
        if mode == "auto":
            if options.get("grounding"):  # an open grounding model prompts for its own format
                options.pop("computer_use", None)
                self._default_to_pixels()
                return self
            from reefbench.agents.computer_use.selection import wants_computer_use
            from reefbench.agents.providers.registry import parse_model

            if wants_computer_use(parse_model(self.agent.model), self.action_set):
                options["computer_use"] = mode = "on"
            else:
                options.pop("computer_use", None)
        if mode == "on":
            self._default_to_pixels()
        return self

    def _default_to_pixels(self) -> None:
        if "action_set" not in self.model_fields_set:
            self.action_set = PIXELS.name

    def config_hash(self) -> str:
        relevant = self.model_dump(
            by_alias=True, exclude={"workers", "ray_address", "action_modules"}
        )
        if relevant["side_effects"] == "fail":  # the default: hashes of earlier runs stand
            del relevant["side_effects"]
        if relevant[OBSERVATION_POLICY_KEY] == LEGACY_OBSERVE:  # what runs before policies did
            del relevant[OBSERVATION_POLICY_KEY]
        for name in SELECTION_FIELDS:  # runs from before they existed selected no tier
            if not relevant[name]:
                del relevant[name]
        text = json.dumps(relevant, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def load_config(path: Path) -> RunConfig:
    """Read a run configuration file; errors name the file and the field."""
    text = read_text(path)
    try:
        if path.suffix == ".toml":
            data: Any = tomllib.loads(text)
        elif path.suffix in (".yaml", ".yml"):
            import yaml

            try:
                data = yaml.safe_load(text)
            except yaml.YAMLError as exc:
                raise ConfigError(f"{path}: not valid YAML: {exc}".replace("\n", " ")) from None
        elif path.suffix == ".json":
            data = parse_json(text, str(path))
        else:
            raise ConfigError(f"{path}: use a .toml, .yaml or .json file")
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{path}: {TOO_DEEP}") from None
    try:
        return RunConfig.model_validate(data)
    except RecursionError:
        raise ConfigError(f"{path}: {TOO_DEEP}") from None
    except pydantic.ValidationError as exc:
        raise ConfigError(f"{path}: {first_validation_error(exc)}") from None


def versions() -> dict[str, Any]:
    """Versions of Python and of the packages that shape results, and under ``providers``
    each registered provider's SDK (``None`` when it is not installed)."""
    found: dict[str, Any] = {"python": sys.version.split()[0], "platform": platform.platform()}
    for package in ("reefbench", "pydantic", "networkx", "playwright"):
        version = _version(package)
        if version is not None:
            found[package] = version
    found["providers"] = {
        info.name: {
            "package": info.package,
            "version": _version(info.package),
            "computer_use": info.computer_use,
        }
        for info in TABLE
    }
    return found


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None
