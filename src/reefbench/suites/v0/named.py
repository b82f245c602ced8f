"""The static gate on devices and apps: no certified solution avoids one the instruction names.

Checkpoints enforce the device (``by=`` on account evaluators) and the app (``saved_with``)
where the state records who made a change; this gate covers every task before a single
episode runs, and catches a solution that could only pass because a checkpoint cannot
tell (a setting written by the app or by a command line). An instruction that says "on
the phone" must see every certified solution act on the phone; "in the browser", on the
desktop browser; "with vim" or "the text editor", open that app.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from reefbench.actions import ActionCall
from reefbench.task import Task


def _on(env: str) -> Callable[[ActionCall], bool]:
    def acts_on(call: ActionCall) -> bool:
        return call.env == env

    return acts_on


def _opens(app: str) -> Callable[[ActionCall], bool]:
    def opens(call: ActionCall) -> bool:
        return call.name == "search_app" and call.arguments.get("name") == app

    return opens


# (what the instruction says, what names it, what a solution must then contain)
NAMED: tuple[tuple[str, re.Pattern[str], Callable[[ActionCall], bool]], ...] = (
    (
        "the phone",
        re.compile(r"\b(on|from|to) the phone\b|\bthe phone's\b|\bphone note\b", re.I),
        _on("phone"),
    ),
    (
        "the browser",
        re.compile(r"\bin the browser\b|\bthe browser's\b|\bbrowser calendar\b", re.I),
        _on("browser"),
    ),
    ("vim", re.compile(r"\bvim\b", re.I), _opens("vim")),
    ("the text editor", re.compile(r"\bthe text editor\b", re.I), _opens("text editor")),
)


def named_in(instruction: str) -> list[str]:
    """The devices and apps an instruction names (of those this gate knows)."""
    return [what for what, pattern, _ in NAMED if pattern.search(instruction)]


def avoided(task: Task) -> list[str]:
    """One line per certified solution that never uses a device or app the instruction names."""
    solutions: Sequence[tuple[str, list[ActionCall]]] = [
        ("the reference solution", task.reference_solution),
        *((f"alternative solution {i}", s) for i, s in enumerate(task.alternative_solutions)),
    ]
    problems = []
    for what, pattern, uses in NAMED:
        if not pattern.search(task.instruction):
            continue
        for label, calls in solutions:
            if not any(uses(call) for call in calls):
                problems.append(f"{label} never uses {what}, which the instruction names")
    return problems
