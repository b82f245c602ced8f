"""Built-in suites (releases of the benchmark), addressed by name on the command line.

One table, :data:`RELEASES`, says for each suite its name and aliases, what it is, where
its tasks and devices come from, the subtask pool its tasks are built from (for their
near misses and the lint) and, for a suite shipped as data, its frozen data. Code is named
by import reference and imported only when the suite is asked for: suites may pull heavy
dependencies, and listing them must not.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from reefbench.environments.contract import Environment
from reefbench.errors import ConfigError
from reefbench.suites.frozen import FrozenSuite
from reefbench.tasks.subtask import SubTask
from reefbench.tasks.task import Task


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


@dataclass(frozen=True)
class Release:
    """One row of :data:`RELEASES`.

    ``source`` is the module whose ``load()`` gives the tasks and ``make_environments()``
    the devices; ``pool`` and ``frozen`` are ``module:attribute`` references (a subtask
    pool; a :class:`~reefbench.suites.frozen.FrozenSuite`), ``None`` when the suite has none.
    """

    name: str
    aliases: tuple[str, ...]
    description: str
    source: str
    pool: str | None = None
    frozen: str | None = None


BENCHMARK_POOL = "reefbench.benchmark.templates:POOL"

RELEASES: tuple[Release, ...] = (
    Release(
        "memory",
        (),
        "Two in-memory devices with files: every framework feature in under a second.",
        "reefbench.suites.memory",
        pool="reefbench.suites.memory:POOL",
    ),
    Release(
        "v0",
        ("reef-v0",),
        "The development view: the benchmark's tasks synthesised from today's source "
        "(ids retired; report scores on v1).",
        "reefbench.benchmark",
        pool=BENCHMARK_POOL,
    ),
    Release(
        "v1",
        ("reef-v1",),
        "reef-v1: desktop, phone and browser tasks around one local cloud account, "
        "frozen as versioned data, each proven solvable.",
        "reefbench.suites.v1",
        pool=BENCHMARK_POOL,
        frozen="reefbench.suites.v1:FROZEN",
    ),
    Release(
        "v2-dev",
        ("reef-v2-dev",),
        "reef-v2 in the making: its families' tasks from today's source (not frozen: ids "
        "change; publish no score on it).",
        "reefbench.benchmark.v2",
        pool="reefbench.benchmark.v2:POOL",
    ),
)

SUITES = tuple(r.name for r in RELEASES)
DEFAULT_SUITE = "v1"
# The benchmark's published names, for people who type them.
ALIASES = {alias: r.name for r in RELEASES for alias in r.aliases}


def _attribute(ref: str) -> Any:
    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module), attr)


def release(name: str) -> Release:
    """The table's row for a suite name or alias.

    Raises:
        ConfigError: an unknown name (one line listing the suites).
    """
    name = ALIASES.get(name, name)
    for row in RELEASES:
        if row.name == name:
            return row
    raise ConfigError(f"unknown suite '{name}': available suites: {', '.join(SUITES)}")


def get_suite(name: str) -> Suite:
    """Look a built-in suite up by name or alias (its code imported now, not before)."""
    row = release(name)
    source = importlib.import_module(row.source)
    pool = row.pool
    return Suite(
        row.name,
        row.description,
        source.load,
        source.make_environments,
        (lambda: _attribute(pool)) if pool is not None else None,
        _attribute(row.frozen) if row.frozen is not None else None,
    )
