"""Optional polishing of instructions by a model, guarded by the consistency validator.

OmniBench lets GPT-4o summarise the task and re-summarises whenever the validator finds
the summary inconsistent with the graph (App. B.4). Here a *polisher* is any function from
text to text (a model provider implements it; tests use a scripted one). Each candidate
must pass the validator; after ``attempts`` failures the deterministic text is kept, which
is consistent by construction, so polishing can never make a task worse.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from reefbench.compose.consistency import InstructionValidator, rule_validator
from reefbench.compose.instructions import InstructionGraph, render_instruction

# Rewrites an instruction (e.g. into fluent prose). Must keep every subtask and dependency.
Polisher = Callable[[str], str]


@dataclass(slots=True)
class PolishOutcome:
    """The instruction chosen and what happened on the way."""

    text: str
    polished: bool
    rejected: list[str] = field(default_factory=list)


def polish_instruction(
    graph: InstructionGraph,
    polisher: Polisher,
    validator: InstructionValidator = rule_validator,
    attempts: int = 3,
) -> PolishOutcome:
    """Polish the structure-preserving text; keep a candidate only if the validator agrees."""
    base = render_instruction(graph)
    rejected: list[str] = []
    for _ in range(max(attempts, 0)):
        candidate = polisher(base).strip()
        if candidate and validator(candidate, graph):
            return PolishOutcome(candidate, candidate != base, rejected)
        rejected.append(candidate)
    return PolishOutcome(base, False, rejected)
