"""Every environment kind is in the registry, and every entry names an Environment."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from reefbench.environments.contract import Environment
from reefbench.envs.registry import KINDS, make_environment
from reefbench.errors import ConfigError

ENVS = Path(__file__).resolve().parents[2] / "src" / "reefbench" / "envs"
NOT_KINDS = {"ui", "remote"}  # the shared touch-screen base; the client of any kind


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_kind_names_an_environment_class(kind: str) -> None:
    module, _, attr = KINDS[kind].partition(":")
    factory = getattr(importlib.import_module(module), attr)
    assert isinstance(factory, type) and issubclass(factory, Environment)


def test_every_kind_folder_and_the_services_are_registered() -> None:
    folders = {p.parent.name for p in ENVS.glob("*/__init__.py")} - NOT_KINDS
    assert folders | {"memory", "services"} == set(KINDS)


def test_a_kind_by_reference_and_unknown_kinds() -> None:
    env = make_environment("reefbench.envs.memory:MemoryEnvironment", "pad")
    assert env.name == "pad"
    with pytest.raises(ConfigError, match="unknown environment kind 'nope'"):
        make_environment("nope")
