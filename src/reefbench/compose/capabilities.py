"""The ten agent capabilities of OmniBench and the complexity constraints that select them.

OmniBench §4.2 and App. D.1, Table 12 (shared/seeds/002, L746-760): each capability's test
set is the tasks whose starred complexity dimensions are all Hard ("we select tasks with
dependency complexity and hierarchy complexity at the hard level", L189); the other
dimensions are arbitrary. The table is transcribed as printed, including rows that look
odd (Long Instruction Following constrained by branch only).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from reefbench.errors import ConfigError


@dataclass(frozen=True, slots=True)
class Capability:
    """One capability: its id, Table 4 abbreviation, category and Hard dimensions."""

    id: str
    name: str
    abbreviation: str
    category: str
    hard: tuple[str, ...]


CAPABILITIES: tuple[Capability, ...] = (
    Capability(
        "parallel-planning", "Parallel Planning", "PP", "Planning", ("dependency", "branch")
    ),
    Capability(
        "long-range-planning",
        "Long-Range Planning",
        "LRP",
        "Planning",
        ("dependency", "hierarchy"),
    ),
    Capability(
        "cross-domain-decision-making",
        "Cross-Domain Decision-Making",
        "CDDK",
        "Decision-making",
        ("branch", "knowledge"),
    ),
    Capability(
        "sequential-decision-making",
        "Sequential Decision-Making",
        "SDK",
        "Decision-making",
        ("hierarchy", "branch"),
    ),
    Capability(
        "subtask-identification",
        "Subtask Identification",
        "SI",
        "Instruction Understanding",
        ("dependency", "instruction"),
    ),
    Capability(
        "dependency-identification",
        "Dependency Identification",
        "DI",
        "Instruction Understanding",
        ("dependency",),
    ),
    Capability(
        "long-sequence-reasoning",
        "Long-Sequence Reasoning",
        "LSR",
        "Long Context",
        ("instruction", "hierarchy"),
    ),
    Capability(
        "long-instruction-following",
        "Long Instruction Following",
        "LIF",
        "Long Context",
        ("branch",),
    ),
    Capability(
        "domain-specific-knowledge",
        "Domain-Specific Knowledge",
        "DSK",
        "Generalist Knowledge",
        ("instruction",),
    ),
    Capability(
        "cross-domain-knowledge",
        "Cross-Domain Knowledge",
        "CDK",
        "Generalist Knowledge",
        ("instruction", "knowledge"),
    ),
)


def capabilities_for(levels: Mapping[str, str]) -> list[str]:
    """Ids of the capabilities whose test sets a task with these levels belongs to."""
    return [c.id for c in CAPABILITIES if all(levels.get(d) == "hard" for d in c.hard)]


def capability(key: str) -> Capability:
    """Look a capability up by id, name or abbreviation (case-insensitive)."""
    wanted = key.strip().lower()
    for c in CAPABILITIES:
        if wanted in (c.id, c.name.lower(), c.abbreviation.lower()):
            return c
    raise ConfigError(
        f"unknown capability '{key}': use one of {', '.join(c.id for c in CAPABILITIES)}"
    )


def constraints_for(keys: Iterable[str]) -> dict[str, str]:
    """The complexity request selecting tasks for all the given capabilities."""
    return {d: "hard" for key in keys for d in capability(key).hard}
