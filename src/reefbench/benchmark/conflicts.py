"""States two checkpoints want at different values (a theme set twice, a switch on and
off): synthesis does not compose such subtasks, and the instruction lint refuses a task
that has them. Read from the checkpoints alone: same check, same arguments but the value.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from reefbench.actions.evaluators import Evaluator

# Checkpoint arguments that hold the value a state is set to; the others name the state.
VALUE_ARGUMENTS = ("value",)


def leaf_evaluators(ev: Evaluator) -> list[Evaluator]:
    """The leaf checkpoints of ``ev`` (a combined one stands for its parts)."""
    parts = getattr(ev, "parts", None)
    return [leaf for p in parts for leaf in leaf_evaluators(p)] if parts else [ev]


def conflicting_states(checkpoints: Iterable[Evaluator]) -> list[str]:
    """States that two checkpoints want at different values, one line each."""
    wanted: dict[tuple[Any, ...], set[str]] = {}
    for ev in (leaf for c in checkpoints for leaf in leaf_evaluators(c)):
        if not any(a in ev.bound for a in VALUE_ARGUMENTS):
            continue
        state = tuple(sorted((k, v) for k, v in ev.bound.items() if k not in VALUE_ARGUMENTS))
        value = ", ".join(repr(ev.bound.get(a)) for a in VALUE_ARGUMENTS)
        wanted.setdefault((ev.env_name, ev.name, state), set()).add(value)
    return [
        f"{name}({', '.join(f'{k}={v!r}' for k, v in state)}) to {' and '.join(sorted(values))}"
        for (_, name, state), values in sorted(wanted.items(), key=repr)
        if len(values) > 1
    ]
