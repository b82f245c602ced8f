"""An agent that knows only what observations show completes reef-v1 desktop tasks.

It reads the element list as any agent gets it (``[id] role "name" value="..."``), finds
elements by the names listed there and reads values from it (a cell's amount, a
formula's result), never from the task's reference solution or checkpoints. What it
knows of a task is what a person reads in its instruction (a file's path, a picture's
name). Before observations listed cells' values, the wallpaper chooser's names and the
cells where Calc draws them, such an agent could not do these tasks.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from reefbench.actions.spec import Action, ActionCall
from reefbench.environments.contract import Environment
from reefbench.episodes.episode import Episode
from reefbench.episodes.protocol import AgentOutput, Turn
from reefbench.suites import get_suite
from reefbench.tasks.task import Task
from reefbench.validation.gates import used_environments

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not all(shutil.which(t) for t in ("Xvfb", "bwrap", "xdotool", "openbox", "localc"))
        or not Path("/usr/bin/python3").exists(),
        reason="needs Xvfb, bubblewrap, xdotool, openbox, LibreOffice and Debian's python3",
    ),
]

LINE = re.compile(
    r'^\[(?P<id>\d+)\] (?P<role>[a-z ]+) "(?P<name>.*?)"'
    r'(?: value="(?P<value>.*?)")?(?: formula="(?P<formula>.*?)")?(?: \((?P<states>[^)]*)\))?$'
)


@dataclass(frozen=True)
class Element:
    id: int
    role: str
    name: str
    value: str | None
    states: tuple[str, ...]


def elements(turn: Turn) -> list[Element]:
    """The desktop's element list of this turn, parsed."""
    text = str(turn.observations.get("desktop", {}).get("elements", ""))
    out = []
    for line in text.splitlines():
        match = LINE.match(line)
        if match:
            states = tuple(s.strip() for s in (match["states"] or "").split(",") if s.strip())
            out.append(
                Element(int(match["id"]), match["role"], match["name"], match["value"], states)
            )
    return out


def find(turn: Turn, role: str, name: str) -> Element:
    found = [e for e in elements(turn) if e.role == role and e.name == name]
    assert found, f'no {role} "{name}" in the observation:\n' + "\n".join(
        f"{e.role} {e.name!r}" for e in elements(turn)
    )
    return found[0]


Step = Callable[[Turn], ActionCall | None]


def call(action: str, **arguments: object) -> Step:
    return lambda _turn: ActionCall(env="desktop", name=action, arguments=dict(arguments))


def click(role: str, name: str) -> Step:
    return lambda turn: ActionCall(
        env="desktop", name="click", arguments={"elem": find(turn, role, name).id}
    )


class ObservingAgent:
    """Plays ``steps``: each turns the turn's observation into one call (``None``: none
    this turn, look again); then declares the task complete."""

    name = "observing"

    def __init__(self, steps: list[Step]) -> None:
        self.steps = steps
        self.memory: dict[str, str] = {}

    def reset(
        self, task: Task, action_spaces: Mapping[str, list[Action]], descriptions: object
    ) -> None:
        self._next = 0

    def act(self, turn: Turn) -> AgentOutput:
        while self._next < len(self.steps):
            made = self.steps[self._next](turn)
            self._next += 1
            if made is not None:
                return AgentOutput(message=f"step {self._next}", calls=[made])
            return AgentOutput(message="looking", calls=[ActionCall(env="root", name="wait")])
        return AgentOutput(message="done", calls=[ActionCall(env="root", name="complete")])


SUITE = get_suite("v1")


@pytest.fixture(scope="module")
def envs() -> Iterator[Mapping[str, Environment]]:
    made = SUITE.make_environments()
    try:
        yield made
    finally:
        for env in made.values():
            env.stop()


@pytest.fixture(scope="module")
def tasks() -> dict[str, Task]:
    return {t.id: t for t in SUITE.load()}


def play(task: Task, envs: Mapping[str, Environment], agent: ObservingAgent) -> None:
    result = Episode(task, agent, used_environments(task, envs), step_limit=80).run()
    assert result.success, (result.termination, result.error, result.completed_nodes)


def _cells(turn: Turn) -> dict[str, str]:
    return {e.name: e.value or "" for e in elements(turn) if e.role == "table cell"}


def test_calc_and_writer_report_from_the_cells_it_reads(
    envs: Mapping[str, Environment], tasks: dict[str, Task]
) -> None:
    """v1-office: totals written as formulas in Calc, their results read back from the
    cells' values and typed into a Writer report."""
    task = tasks["v1-office-be247df82043"]
    agent = ObservingAgent([])
    seen: dict[str, str] = {}

    def formula(label: str, function: str, category: str) -> Step:
        def make(turn: Turn) -> ActionCall:
            cells = _cells(turn)
            # The columns by their header, the rows by the cells that hold an amount.
            columns = {
                v.casefold(): k.rstrip("0123456789") for k, v in cells.items() if k[1:] == "1"
            }
            kind, amount = columns["category"], columns["amount"]
            last = max(int(k[1:]) for k, v in cells.items() if k.startswith(amount) and v)
            span = f'{kind}2:{kind}{last};"{category}";{amount}2:{amount}{last}'
            return ActionCall(
                env="desktop",
                name="write_text",
                arguments={"text": f"{label}\t={function}({span})\n"},
            )

        return make

    def remember(turn: Turn) -> None:
        cells = _cells(turn)
        seen["food"], seen["travel"] = cells["G1"], cells["G2"]
        assert seen["food"] and seen["travel"]
        return None

    def report(turn: Turn) -> ActionCall:
        text = f"Expense report\nTotal Food: {seen['food']}\nAverage Travel: {seen['travel']}"
        return ActionCall(env="desktop", name="write_text", arguments={"text": text})

    agent.steps = [
        call("search_app", name="spreadsheet"),
        call("hotkey", keys=["ctrl", "o"]),
        call("write_text", text="/home/user/Documents/expenses.ods"),
        call("press", key="enter"),
        lambda turn: None,
        click("table cell", "F1"),
        formula("Total Food", "SUMIF", "Food"),
        click("table cell", "F2"),
        formula("Average Travel", "AVERAGEIF", "Travel"),
        remember,
        call("hotkey", keys=["ctrl", "s"]),
        lambda turn: None,
        call("hotkey", keys=["ctrl", "q"]),
        lambda turn: None,
        call("search_app", name="word processor"),
        call("hotkey", keys=["ctrl", "1"]),
        report,
        call("hotkey", keys=["ctrl", "s"]),
        lambda turn: None,
        call("write_text", text="/home/user/Documents/expense-report.odt"),
        lambda turn: None,
        call("press", key="enter"),
        lambda turn: None,
        call("hotkey", keys=["ctrl", "q"]),
        lambda turn: None,
    ]
    play(task, envs, agent)


def test_desktop_settings_wallpaper_is_picked_by_its_listed_name(
    envs: Mapping[str, Environment], tasks: dict[str, Task]
) -> None:
    """v1-session: two options toggled and the wallpaper harbour.png picked among the
    chooser's thumbnails by the name the list gives it (no coordinates)."""
    task = tasks["v1-session-4d92a9d9282e"]

    def folder(turn: Turn) -> ActionCall:
        # The chooser's folder button: the drop-down beside "Folder:", showing the folder.
        current = find(turn, "combo box", "Folder")
        assert current.value == "xfce", current
        return ActionCall(env="desktop", name="click", arguments={"elem": current.id})

    def style(turn: Turn) -> ActionCall | None:
        assert find(turn, "combo box", "Style").value == "Zoomed"
        return None

    agent = ObservingAgent(
        [
            call("search_app", name="desktop settings"),
            click("page tab", "Icons"),
            click("check box", "Single click to activate items"),
            click("page tab", "Background"),
            folder,
            click("menu item", "Other…"),
            call("hotkey", keys=["ctrl", "l"]),
            call("write_text", text="~/Wallpapers/\n"),
            lambda turn: None,
            click("icon", "harbour.png"),
            style,
            click("page tab", "Icons"),
            click("check box", "Show hidden files on the desktop"),
        ]
    )
    play(task, envs, agent)


def test_drawing_scales_a_picture_by_the_size_it_lists(
    envs: Mapping[str, Environment], tasks: dict[str, Task]
) -> None:
    """v1-small: a picture scaled to 64 pixels wide, its height kept in proportion from
    the size the Scale bar's fields list (not from the task's data). A click on a spin
    button's mark lands on its text, not on its "-" button."""
    task = tasks["v1-small-ef7e367243e8"]
    size: dict[str, int] = {}

    def spin(turn: Turn, name: str) -> Element:
        return find(turn, "spin button", name)

    def read_size(turn: Turn) -> None:
        size["w"] = int(float(spin(turn, "Width").value or 0))
        size["h"] = int(float(spin(turn, "Height").value or 0))
        assert size["w"] > 0 and size["h"] > 0, size
        return None

    def type_height(turn: Turn) -> ActionCall:
        height = round(64 * size["h"] / size["w"])
        return ActionCall(env="desktop", name="write_text", arguments={"text": f"{height}\t"})

    agent = ObservingAgent(
        [
            call("search_app", name="image editor"),
            call("hotkey", keys=["ctrl", "o"]),
            call("write_text", text="/home/user/Pictures/ember.png\n"),
            lambda turn: None,
            click("list item", "Scale"),
            read_size,
            click("spin button", "Width"),
            call("hotkey", keys=["ctrl", "a"]),
            call("write_text", text="64\t"),
            click("spin button", "Height"),
            call("hotkey", keys=["ctrl", "a"]),
            type_height,
            click("push button", "Apply transformation"),
            call("hotkey", keys=["ctrl", "shift", "s"]),
            call("hotkey", keys=["ctrl", "a"]),
            call("write_text", text="/home/user/Pictures/kestrel-small.png\n"),
            call("hotkey", keys=["ctrl", "q"]),
            lambda turn: None,
        ]
    )
    play(task, envs, agent)
