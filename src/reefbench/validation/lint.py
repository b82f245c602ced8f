"""The instruction lint gate: what a task's instruction must not say or ask.

A score measures skill only if the instruction reads like a person's request: it names
what a person sees (labels, apps, files), never how the benchmark works (action names,
resource ids, settings keys); it does not give away what the agent is asked to find; its
goals can all hold at the end; it asks for work, not for looking at apps; its values go
together (a person's name with that person's address); and it asks nothing a careful
model should refuse (forwarding verification codes or passwords to someone else).

The rules read the task only (instruction, checkpoints, subtask attributes, solutions),
so they run over the whole suite in a second. They live with the gates, not in
:mod:`reefbench.compose`, because their vocabulary is the benchmark's: its devices'
action names, its people records, the keys its checkpoints read. Synthesis is built to avoid
every finding (consistent person records in the pools, visible labels in L1 steps,
codes that may be passed on, no setting set twice); this gate proves it did.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from reefbench.actions.evaluators import Evaluator
from reefbench.benchmark.conflicts import conflicting_states, leaf_evaluators
from reefbench.tasks.subtask import SubTask
from reefbench.tasks.task import Task

Rule = Callable[[Task, Mapping[str, SubTask]], list[str]]

# Evaluators that only look (an app in front, a text on screen): a task made of them
# alone asks the agent to open apps, which is no work.
LOOKING = frozenset({"current_app", "process_running", "text_on_screen", "window_shows"})
# Words that make a code a credential: passing such a code on invites a safety refusal.
CREDENTIAL = re.compile(
    r"\b(verification|security|one-time|login|sign-in|2fa|bank)\b[^.;]*\bcode\b"
    r"|\b(password|passcode|PIN|credentials?)\b",
    re.IGNORECASE,
)
# User data an instruction may state: the account's user name (the password it may not).
SHOWN_USER_DATA = frozenset({"username"})
SENDS = frozenset({"sms", "mail"})  # outputs of subtasks that send something to someone
SNAKE_CASE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
CALL_SYNTAX = re.compile(r"\b[a-z_]+\((?:[a-z_]+=|\))")
SCHEMA_ID = re.compile(r"\b(?:org|com|net|io)\.[a-z0-9]+(?:\.[a-z0-9-]+)+\b")
CSS_ID = re.compile(r"(?<![\w&])#[a-z][\w-]*\b")
ID_LIKE = re.compile(r"^[a-z][a-z0-9]*(?:[_-][a-z0-9]+)+$")


@cache
def action_names() -> frozenset[str]:
    """Every action an agent of reef-v0 can call (devices, helpers, the root)."""
    from reefbench.environments.root import call_user, complete, infeasible, submit, wait
    from reefbench.envs.browser import actions as browser
    from reefbench.envs.desktop import actions as desktop
    from reefbench.envs.ui import actions as touch

    spaces = [desktop.DESKTOP_ACTIONS, touch.TOUCH_ACTIONS, browser.BROWSER_ACTIONS]
    for kind in (desktop, touch, browser):  # every action set's additions (click_on, tap_on)
        spaces += list(kind.ACTION_SET_ACTIONS.values())
    names = {a.name for space in spaces for a in space}
    names |= {a.name for a in (complete, submit, infeasible, wait, call_user)}
    return frozenset(names)


def _evaluators(task: Task) -> list[Evaluator]:
    """The leaf checkpoints (a combined one stands for its parts)."""
    return [leaf for ev in task.nodes.values() for leaf in leaf_evaluators(ev)]


# ------------------------------------------------------------------------- rules
def implementation_details(task: Task, pool: Mapping[str, SubTask]) -> list[str]:
    """Action names, call syntax, resource and CSS ids, settings schemas and keys."""
    text = task.instruction
    found: list[str] = []
    words = set(re.findall(r"[A-Za-z_][\w-]*", text))
    named = sorted(n for n in action_names() if n in words and ("_" in n or f"{n}(" in text))
    if named:
        found.append(f"names the action(s) {', '.join(named)}")
    if CALL_SYNTAX.search(text):
        found.append(f"spells out a call ({CALL_SYNTAX.search(text).group(0)}...)")  # type: ignore[union-attr]
    ids = {m for m in SNAKE_CASE.findall(text) if m not in named}
    for solution in (task.reference_solution, *task.alternative_solutions):
        for call in solution:
            name = call.arguments.get("name")
            if (
                call.name in ("tap_on", "click_on")
                and isinstance(name, str)
                and ID_LIKE.match(name)
                and re.search(rf"(?<![\w/.-]){re.escape(name)}\b", text)
            ):
                ids.add(name)
    ids |= set(CSS_ID.findall(text))
    if ids:
        found.append(f"gives internal id(s) {', '.join(sorted(ids))}")
    keys = set(SCHEMA_ID.findall(text))
    for ev in _evaluators(task):
        key = ev.bound.get("key")
        if isinstance(key, str) and re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", text):
            keys.add(key)
    if keys:
        found.append(f"gives settings key(s) {', '.join(sorted(keys))}")
    return found


def hidden_values(task: Task, pool: Mapping[str, SubTask]) -> dict[str, str]:
    """Value -> what it is, for values the agent must find out: attributes a subtask's
    description does not show (the code in the message, the place in the calendar), and
    details only the user knows (user data, credentials included)."""
    hidden: dict[str, str] = {}
    shown: set[Any] = set()
    for info in task.metadata.subtasks:
        template = pool.get(info.template)
        if template is None:
            continue
        placeholders = set(template.placeholders)
        shown |= {v for a, v in info.attributes.items() if a in placeholders}
        for attribute, value in info.attributes.items():
            if attribute not in placeholders and isinstance(value, str) and len(value) >= 3:
                hidden.setdefault(value, f"the {attribute} of {info.template}")
    hidden = {v: what for v, what in hidden.items() if v not in shown}
    for kind, value in task.user_data.items():
        if kind not in SHOWN_USER_DATA and len(value) >= 3:
            hidden.setdefault(value, f"the user's {kind}")
    return hidden


def secrets_repeated(task: Task, pool: Mapping[str, SubTask]) -> list[str]:
    """The instruction spells out a value the agent is asked to find (or ask for)."""
    return [
        f"spells out {what} ({value!r}), which the agent is meant to find"
        for value, what in sorted(hidden_values(task, pool).items())
        if re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", task.instruction)
    ]


def contradictory_goals(task: Task, pool: Mapping[str, SubTask]) -> list[str]:
    """Two checkpoints want the same state (same check, same key) at different values."""
    return [
        f"sets one state twice to different values: {c}"
        for c in conflicting_states(task.nodes.values())
    ]


def opens_only(task: Task, pool: Mapping[str, SubTask]) -> list[str]:
    """The task (or one of its subtasks) asks only to open apps or look at things."""
    names = {k: [e.name for e in leaf_evaluators(task.nodes[k])] for k in task.nodes}
    if all(set(v) <= LOOKING for v in names.values()):
        return ["its whole effect is opening apps or looking at them: no checkpoint checks work"]
    found = []
    for info in task.metadata.subtasks:
        if info.nodes and all(set(names[n]) <= {"current_app"} for n in info.nodes):
            found.append(f"subtask {info.id} ({info.template}) only opens an app")
    return found


@cache
def _people() -> tuple[tuple[str, ...], ...]:
    from reefbench.benchmark.templates.common import PEOPLE

    return tuple(PEOPLE)


def odd_values(task: Task, pool: Mapping[str, SubTask]) -> list[str]:
    """A subtask pairs one person's name with another person's number or address."""
    owner = {value: k for k, record in enumerate(_people()) for value in record}
    found = []
    for info in task.metadata.subtasks:
        people = {owner[v] for v in info.attributes.values() if isinstance(v, str) and v in owner}
        if len(people) > 1:
            values = sorted(
                v for v in info.attributes.values() if isinstance(v, str) and v in owner
            )
            found.append(f"subtask {info.id} mixes different people's details: {', '.join(values)}")
    return found


def invites_refusal(task: Task, pool: Mapping[str, SubTask]) -> list[str]:
    """A credential (verification code, password) is to be sent on to someone else."""
    credential = CREDENTIAL.search(task.instruction)
    if credential is None:
        return []
    found: list[str] = []
    for info in task.metadata.subtasks:
        template = pool.get(info.template)
        if template is None or not SENDS & set(template.outputs):
            continue
        codes = [a for a, t in template.attributes.items() if t in ("code",)]
        if (codes or "password" in template.attributes) and info.template not in str(found):
            found.append(
                f"asks to send {credential.group(0)!r} on to someone ({info.template}): "
                "a request safety-trained models may refuse"
            )
    return found


RULES: dict[str, Rule] = {
    "implementation details": implementation_details,
    "secret repeated": secrets_repeated,
    "contradictory goals": contradictory_goals,
    "opens apps only": opens_only,
    "odd values": odd_values,
    "invites a refusal": invites_refusal,
}


def lint_problems(task: Task, pool: Mapping[str, SubTask]) -> list[str]:
    """Every finding of every rule, as ``lint (rule): finding`` lines (none: clean)."""
    return [f"lint ({name}): {p}" for name, rule in RULES.items() for p in rule(task, pool)]
