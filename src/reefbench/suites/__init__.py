"""Built-in suites, addressed by name on the command line."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from reefbench.environment import Environment
from reefbench.errors import ConfigError
from reefbench.subtask import SubTask
from reefbench.suites.frozen import FrozenSuite
from reefbench.task import Task


@dataclass(frozen=True)
class Suite:
    """A named set of tasks and the factory of the environments they run in.

    ``pool`` gives the subtask templates its tasks are built from (their near misses,
    lint). ``frozen`` is set for a suite shipped as data (:mod:`reefbench.suites.frozen`):
    its version and content hash identify exactly which tasks a run ran.
    """

    name: str
    description: str
    load: Callable[[], list[Task]]
    make_environments: Callable[[], dict[str, Environment]]
    pool: Callable[[], Mapping[str, SubTask]] | None = None
    frozen: FrozenSuite | None = None


# The benchmark's published names, for people who type them.
ALIASES = {"reef-v0": "v0", "reef-v1": "v1"}


def _v0_pool() -> Mapping[str, SubTask]:
    from reefbench.suites.v0.templates import POOL

    return POOL


def _memory_pool() -> Mapping[str, SubTask]:
    from reefbench.suites.memory import POOL

    return POOL


def get_suite(name: str) -> Suite:
    """Look a built-in suite up by name (imported lazily: suites may pull heavy deps)."""
    name = ALIASES.get(name, name)
    if name == "memory":
        from reefbench.suites import memory

        return Suite(
            "memory", memory.__doc__ or "", memory.load, memory.make_environments, _memory_pool
        )
    if name == "v0":
        from reefbench.suites import v0

        return Suite("v0", v0.__doc__ or "", v0.load, v0.make_environments, _v0_pool)
    if name == "v1":
        from reefbench.suites import v1

        return Suite(
            "v1", v1.__doc__ or "", v1.load, v1.make_environments, _v0_pool, frozen=v1.FROZEN
        )
    raise ConfigError(f"unknown suite '{name}': available suites: {', '.join(SUITES)}")


SUITES = ("memory", "v0", "v1")
DEFAULT_SUITE = "v1"
