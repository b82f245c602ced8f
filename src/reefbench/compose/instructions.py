"""Step-by-step descriptions of reference solutions, for composed tasks' instructions.

The structure-preserving instruction itself (:func:`render_instruction`, the connectives
the parser in :mod:`reefbench.compose.consistency` shares) is
:mod:`reefbench.tasks.instructions`: composing a task (:func:`reefbench.tasks.link.compose_task`)
writes it too, so it lives below both.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from reefbench.tasks.instructions import (
    GOAL,
)

if TYPE_CHECKING:
    from reefbench.actions.spec import ActionCall


StepDescriber = Callable[[Sequence["ActionCall"]], list[str]]


def spelled_calls(calls: Sequence[ActionCall]) -> list[str]:
    """Each call as code (``on desktop, write_file(path='a')``): the fallback describer,
    for pools without a vocabulary of visible labels."""
    steps = []
    for call in calls:
        arguments = ", ".join(f"{key}={value!r}" for key, value in call.arguments.items())
        steps.append(f"on {call.env}, {call.name}({arguments})")
    return steps


def render_steps(
    calls: Sequence[ActionCall],
    goal: str | None = None,
    describe: StepDescriber | None = None,
    withheld: Mapping[str, str] | None = None,
) -> str:
    """An OS-MAP L1 instruction: the exact atomic actions to perform, in order.

    ``describe`` turns the calls into steps in a person's words (visible labels, not
    action names or resource ids); ``withheld`` maps values the agent must find out
    itself (a code read in a message) to how the step names them instead
    (``"the code you read"``), so the steps never give the answer away.
    """
    parts = [GOAL.format(goal=goal.strip().rstrip("."))] if goal else []
    parts.append("Perform exactly these actions, in this order:")
    steps = (describe or spelled_calls)(calls)
    for k, step in enumerate(steps, 1):
        for value, name in (withheld or {}).items():
            step = step.replace(f'"{value}"', name).replace(f"'{value}'", name)
            step = step.replace(value, name)
        parts.append(f"({k}) {step};")
    return " ".join(parts)
