"""The static device/app gate: a certified solution does the task where it was asked.

"On the phone", "in the browser", "with vim", "in the text editor": when an instruction
names a device or an app, a solution that does the job elsewhere (the browser instead of
the phone, ``gsettings`` in a terminal instead of the editor's menu) proves nothing about
the task as worded, yet today's checkpoints, which read shared state, would certify it.
This gate refuses such a solution before any episode runs: every phrase of
:data:`PHRASES` found in the instruction is a requirement, and the reference solution and
every alternative must route a call to that device, or open that app there (desktop
``search_app``, a phone app's icon in the drawer).

One table maps phrases to requirements, so a new template's wording is covered by adding
its phrase here, and the gate's test over the whole suite fails until it is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.tasks.task import Task

OPENS_APP = frozenset({"search_app", "tap_on"})  # the calls that open an app by its name


@dataclass(frozen=True, slots=True)
class Requirement:
    """A phrase of an instruction and what a solution must do because of it.

    Attributes:
        label: What the instruction names, for people (``"the phone"``, ``"vim"``).
        pattern: Regular expression (case-insensitive) for the phrase.
        device: The environment the solution must act on.
        opens: Names under which the app is opened there (``search_app`` names on the
            desktop, icon ids or labels in the phone's drawer); empty: the device is enough.
    """

    label: str
    pattern: str
    device: str
    opens: frozenset[str] = frozenset()

    def met_by(self, solution: Sequence[ActionCall]) -> bool:
        on_device = [c for c in solution if c.env == self.device]
        if not self.opens:
            return bool(on_device)
        return any(c.name in OPENS_APP and c.arguments.get("name") in self.opens for c in on_device)


def _phone_app(label: str, pattern: str, icon: str, name: str) -> Requirement:
    return Requirement(label, pattern, "phone", frozenset({f"drawer_{icon}", name}))


PHRASES: tuple[Requirement, ...] = (
    Requirement(
        "the phone",
        r"\b(?:the|my) phone\b(?!\s+numbers?\b)|\bphone note",
        "phone",
    ),
    Requirement("the browser", r"\bbrowser\b", "browser"),
    Requirement("the computer", r"\b(?:on|from|to) the computer\b", "desktop"),
    Requirement("the terminal", r"\bin (?:a|the) terminal\b", "desktop", frozenset({"terminal"})),
    Requirement("vim", r"\bvim\b", "desktop", frozenset({"vim"})),
    Requirement(
        "the text editor",
        r"\btext editor\b|\bmousepad\b",
        "desktop",
        frozenset({"text editor", "mousepad"}),
    ),
    Requirement(
        "the file manager",
        r"\bfile manager\b|\bthunar\b",
        "desktop",
        frozenset({"files", "file manager", "thunar"}),
    ),
    # LibreOffice on the desktop (the office templates): the document kind names the app.
    Requirement(
        "LibreOffice Calc",
        r"\bspreadsheet\b|\blibreoffice calc\b",
        "desktop",
        frozenset({"spreadsheet", "calc", "libreoffice calc"}),
    ),
    Requirement(
        "LibreOffice Writer",
        r"\btext document\b|\bword processor\b|\blibreoffice writer\b",
        "desktop",
        frozenset({"word processor", "writer", "libreoffice writer"}),
    ),
    Requirement(
        "LibreOffice Impress",
        r"\bpresentation\b|\blibreoffice impress\b",
        "desktop",
        frozenset({"presentation", "impress", "libreoffice impress"}),
    ),
    _phone_app("the phone's Settings", r"\bphone's Settings\b", "settings", "Settings"),
    _phone_app("the phone's world clock", r"\bphone's world clock\b", "clock", "Clock"),
    _phone_app("the phone's contacts", r"\bphone's contacts\b", "contacts", "Contacts"),
    _phone_app("the phone's Files app", r"\bphone's Files\b", "files", "Files"),
    _phone_app("the phone's task list", r"\bphone's task list\b", "tasks", "Tasks"),
    _phone_app("a phone note", r"\bphone note\b", "notes", "Notes"),
)


def requirements(instruction: str) -> list[Requirement]:
    """The devices and apps an instruction names."""
    return [r for r in PHRASES if re.search(r.pattern, instruction, re.IGNORECASE)]


# What a checkpoint's ``by`` argument (the device an action must be done from: a text
# sent "by" the phone) requires the instruction to say.
BY_DEVICE: dict[str, Requirement] = {r.device: r for r in PHRASES[:2]}


def _leaves(node: Evaluator) -> list[Evaluator]:
    parts = getattr(node, "parts", None)  # a & b, a | b, ~a (evaluators._Combined)
    if parts is None:
        return [node]
    return [leaf for part in parts for leaf in _leaves(part)]


def _sentences(instruction: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+", instruction) if s]


def checkpoint_device_problems(task: Task) -> list[str]:
    """Checkpoints that want an action done from one device (``by="phone"``) where the
    instruction's sentences about it never name that device: the agent would be failed for
    using another device the task never ruled out. A sentence is about a checkpoint when it
    holds one of the checkpoint's text arguments (a number, a message)."""
    problems = []
    sentences = _sentences(task.instruction)
    for name, node in task.nodes.items():
        for leaf in _leaves(node):
            device = leaf.bound.get("by")
            wanted = BY_DEVICE.get(device) if isinstance(device, str) else None
            if wanted is None:
                continue
            values = [v for k, v in leaf.bound.items() if k != "by" and isinstance(v, str) and v]
            about = [s for s in sentences if any(v in s for v in values)]
            if about and not any(re.search(wanted.pattern, s, re.IGNORECASE) for s in about):
                problems.append(
                    f"devices: checkpoint {name} wants it done from {wanted.label}, which no "
                    f"sentence about it names ({about[0]!r})"
                )
    return problems


def device_problems(task: Task) -> list[str]:
    """Certified solutions that avoid a device or app the instruction names, and
    checkpoints that want a device the instruction does not name."""
    needed = requirements(task.instruction)
    solutions = [("the reference solution", task.reference_solution)]
    solutions += [
        (f"alternative solution {k}", s) for k, s in enumerate(task.alternative_solutions)
    ]
    problems = []
    for label, solution in solutions:
        missed = [r.label for r in needed if not r.met_by(solution)]
        if missed:
            verb = "never uses" if len(missed) == 1 else "never uses any of"
            problems.append(
                f"devices: {label} {verb} {', '.join(missed)}, which the instruction names"
            )
    return problems + checkpoint_device_problems(task)
