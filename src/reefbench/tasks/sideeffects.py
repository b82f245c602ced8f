"""Side effects: what an episode changed in the world beyond what its task may change.

Each environment that keeps state (the desktop's home tree and settings, the account's
tables, the phone's settings) takes a snapshot right after setup and, after the final
check, lists what differs as :class:`Change` records named by *state keys*, the language
checkpoints declare what they read in (:mod:`reefbench.actions.evaluators`). A task may change
the state its checkpoints govern plus the extra keys it allows (``Task.may_change``);
every other change is a side effect: a file deleted or overwritten, an extra mail sent, a
contact removed, a setting flipped. Changes every session makes whatever the agent does
(caches, histories, session tokens) are left out by each environment, with a reason.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from reefbench.actions.evaluators import keys_overlap

if TYPE_CHECKING:
    from reefbench.tasks.task import Task

SideEffectPolicy = Literal["fail", "report", "off"]
"""``fail``: a task with side effects is not a success (the default); ``report``: they
are recorded but do not change the outcome; ``off``: the world is not diffed at all."""
SIDE_EFFECT_POLICIES: tuple[SideEffectPolicy, ...] = ("fail", "report", "off")


@dataclass(frozen=True, slots=True)
class Change:
    """One difference between the state after setup and the state at the end.

    Attributes:
        key: The state key it touches, as checkpoints name state (``file:/home/user/a``,
            or self-scoped shared state such as ``account|contacts:ada``).
        description: One line for a person: ``deleted ~/Documents/a.txt``.
    """

    key: str
    description: str


def scoped(env_name: str, key: str) -> str:
    """A key scoped by its environment unless it names its own scope (shared state)."""
    return key if "|" in key else f"{env_name}|{key}"


def allowed_keys(task: Task) -> frozenset[str]:
    """What a task may change: the state its checkpoints govern plus ``task.may_change``."""
    keys: set[str] = set(task.may_change)
    for evaluator in task.nodes.values():
        keys |= evaluator.state_keys()
    return frozenset(keys)


def side_effects(changes: Iterable[tuple[str, Change]], allowed: Iterable[str]) -> list[str]:
    """One line per change (``(env name, change)``) that touches no allowed key, without
    repeats (two devices reaching one account report its changes once)."""
    allow = list(allowed)
    found: dict[str, None] = {}
    for env_name, change in changes:
        key = scoped(env_name, change.key)
        if not any(keys_overlap(key, a) for a in allow):
            where = key.split("|", 1)[0]  # the device, or "account" for shared state
            found[f"{where}: {change.description}"] = None
    return list(found)
