"""reef-v1: the built-in cross-environment benchmark, shipped as frozen, versioned data.

The same world as reef-v0 (a Linux desktop, a phone and a desktop browser around one
local cloud account), but the tasks are not synthesised when the suite loads: they are
read from ``data/tasks.jsonl``, whose ``data/manifest.json`` names the version, the
count and the SHA-256 of the bytes. They were made by ``reef suite freeze v1`` from the
templates and handmade definitions of the time (:mod:`.build`); reef-v1 1.0.0 is
published, so its data is never rebuilt: the source moves on towards the next release,
and ``reef suite freeze v1 --check`` verifies the bytes against the manifest. Task ids
are ``v1-<kind>-<12 hex digits of the definition>``, so a changed task is a new task.
"""

from __future__ import annotations

import functools
from pathlib import Path

from reefbench.benchmark.environments import make_environments
from reefbench.suites import frozen
from reefbench.tasks.task import Task

NAME = "v1"
VERSION = "1.0.0"
"""Bumped by hand when a release of the benchmark changes; the content hash in the
manifest changes with every edit of the data, the version only when it is published."""
DATA = Path(__file__).parent / "data"


def _build() -> list[Task]:
    from reefbench.suites.v1.build import build

    return build()


KNOWN_FAULTS = {
    # Found by playtests after publication; the source is fixed for the next release.
    "v1-hand-462828bbe473": "wants it done from the phone, which no sentence about it names",
    "v1-hand-f54248b35e88": "wants it done from the browser, which no sentence about it names",
}
"""reef-v1's known faults: its checkpoint wants the code texted from the phone (or the
mail sent from the browser) while the instruction's sentence about it names no device;
an agent doing it from the other device is failed."""

FROZEN = frozen.FrozenSuite(NAME, VERSION, DATA, _build, published=True, known_faults=KNOWN_FAULTS)
"""Published: the data is reef-v1, byte for byte; the benchmark's source (templates,
handmade tasks) moves on towards the next release and no longer rebuilds it."""


@functools.cache
def _tasks() -> tuple[Task, ...]:
    return tuple(frozen.load(DATA))


def load() -> list[Task]:
    """The frozen tasks (fresh copies: episodes may not share mutable task state)."""
    return [t.model_copy(deep=False) for t in _tasks()]


def manifest() -> frozen.FrozenManifest:
    """Name, version, count and content hash of the shipped data."""
    return frozen.read_manifest(DATA)


__all__ = [
    "DATA",
    "FROZEN",
    "NAME",
    "VERSION",
    "load",
    "make_environments",
    "manifest",
]
