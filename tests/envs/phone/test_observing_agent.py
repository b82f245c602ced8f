"""A scripted agent that knows only what the observations show completes reef-v1 tasks in
the phone's Gallery and Messages (issue 31, item 5's acceptance).

The agent reads the task's instruction, as any agent does, and then each turn's
observation: it finds elements by the names in the element list, reads values from it (a
pickup code in a message), and reads what is only in pixels (the text on a photo, and so
which way the photo stands) from the screenshot by OCR, never from the task's setup,
checkpoints or reference solution. Its steps are written for these two tasks, but every
element number and every value comes from the latest observation.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from reefbench.actions.spec import Action, ActionCall
from reefbench.episodes.episode import Episode
from reefbench.episodes.protocol import AgentOutput, Turn
from reefbench.suites import get_suite
from reefbench.tasks.task import Task

pytest.importorskip("playwright")
pytest.importorskip("fastapi")
pytestmark = pytest.mark.integration

from reefbench.envs.phone import PhoneEnvironment  # noqa: E402
from reefbench.envs.services import ServicesEnvironment  # noqa: E402

GALLERY_TASK = "v1-gallery-3d51feaaa620"
MESSAGES_TASK = "v1-small-2592e91cc5f2"
LINE = re.compile(r'^\[(\d+)\] (\S+) "(.*?)"(?: value="(.*?)")?(?: \((.*)\))?$')
# What to do when the element list shows something: a plan step waits until it can act.
Step = Callable[[list[tuple[int, str, str]], list[str]], ActionCall | None]


def parse(elements: str) -> tuple[list[tuple[int, str, str]], list[str]]:
    """``[(id, class, name)]`` and the texts on screen, from a phone's element list."""
    marks, texts = [], []
    for line in elements.splitlines():
        found = LINE.match(line)
        if found:
            marks.append((int(found[1]), found[2], found[3]))
        elif line.startswith('- "') and line.endswith('"'):
            texts.append(line[3:-1])
    return marks, texts


def tap(*words: str, exact: bool = False) -> Step:
    """Tap the first element whose listed name holds all ``words`` (or is ``words[0]``)."""

    def step(marks: list[tuple[int, str, str]], texts: list[str]) -> ActionCall | None:
        for elem, _, name in marks:
            if (name == words[0]) if exact else all(w in name for w in words):
                return ActionCall(env="phone", name="tap", arguments={"elem": elem})
        return None

    return step


def write(text: str | Callable[[], str]) -> Step:
    def step(marks: list[tuple[int, str, str]], texts: list[str]) -> ActionCall | None:
        value = text() if callable(text) else text
        return ActionCall(env="phone", name="write_text", arguments={"text": value})

    return step


def seeing(*words: str, then: Step) -> Step:
    """``then``, once a text on the screen holds all ``words`` (what a step should show)."""

    def step(marks: list[tuple[int, str, str]], texts: list[str]) -> ActionCall | None:
        if not any(all(w in t for w in words) for t in texts):
            return None
        return then(marks, texts)

    return step


class ObservingAgent:
    """Plays a plan of steps, each grounded in the latest element list."""

    name = "observing"

    def __init__(self, plan: Callable[[Task, dict[str, Any]], list[Step]]) -> None:
        self.plan_for = plan
        self.plan: list[Step] = []
        self.memory: dict[str, Any] = {}
        self.stuck = 0

    def reset(
        self, task: Task, action_spaces: Mapping[str, list[Action]], descriptions: Any
    ) -> None:
        self.memory = {}
        self.plan = self.plan_for(task, self.memory)
        self.stuck = 0

    def act(self, turn: Turn) -> AgentOutput:
        if not self.plan:
            return AgentOutput(message="done", calls=[ActionCall(env="root", name="complete")])
        marks, texts = parse(str(turn.observations["phone"]["elements"]))
        self.memory["screenshot"] = turn.observations["phone"]["screenshot"]
        call = self.plan[0](marks, texts)
        if call is None:
            self.stuck += 1
            assert self.stuck < 5, f"nothing to act on for the next step in:\n{marks}\n{texts}"
            return AgentOutput(message="looking again", calls=[])
        if getattr(self.plan[0], "done", True):  # a search stays until it has found
            self.plan.pop(0)
        self.stuck = 0
        return AgentOutput(message=f"step: {call.name} {call.arguments}", calls=[call])


def open_app(name: str) -> list[Step]:
    def drawer(marks: list[tuple[int, str, str]], texts: list[str]) -> ActionCall:
        return ActionCall(env="phone", name="show_all_drawer", arguments={})

    return [drawer, tap(name, exact=True)]


def reads(png: bytes, wanted: str) -> int | None:
    """How many quarter turns to the right make ``wanted`` readable in the screenshot
    (0-3), or ``None`` where no turn shows it: OCR of the screenshot in grey, its dark
    parts turned light (white text on a coloured photo), at each of the four turns. The
    comparison is exact (letters and digits), so a look-alike ("3,206") never passes."""
    import io

    import numpy as np
    from PIL import Image

    from reefbench.perception.ocr import group_lines, ocr_image

    key = re.sub(r"\W", "", wanted).casefold()
    with Image.open(io.BytesIO(png)) as opened:
        grey = opened.convert("L")
    values = np.asarray(grey)
    folded = Image.fromarray(np.where(values < 150, 255 - values, values).astype("uint8"))
    for turns in range(4):
        for image in (folded, grey):
            turned = image.rotate(-90 * turns, expand=True)  # clockwise quarter turns
            for line in group_lines(ocr_image(turned, scale=2.0)):
                if key in re.sub(r"\W", "", line.text).casefold():
                    return turns
    return None


class FindPhoto:
    """On the album: open the next photo not yet looked at; on a photo: read it, and go
    back unless it is the one that reads ``wanted`` (and stands sideways, if the task says
    so: an upright photo may read the same); then ``memory["turns"]`` says how many
    quarter turns to the right make it upright."""

    def __init__(self, wanted: str, memory: dict[str, Any], sideways: bool) -> None:
        self.wanted, self.memory, self.sideways = wanted, memory, sideways
        self.seen: set[str] = set()
        self.done = False

    def __call__(self, marks: list[tuple[int, str, str]], texts: list[str]) -> ActionCall | None:
        names = {name for _, _, name in marks}
        if "Rotate right" in names:  # a photo's page
            turns = reads(self.memory["screenshot"], self.wanted)
            if turns is not None and (turns % 2 == 1 or not self.sideways):
                self.memory["turns"] = turns
                self.done = True
                return ActionCall(env="root", name="wait", arguments={})
            return ActionCall(env="phone", name="press", arguments={"key": "back"})
        for elem, _, name in marks:
            if re.fullmatch(r"IMG_\d+\.png", name) and name not in self.seen:
                self.seen.add(name)
                return ActionCall(env="phone", name="tap", arguments={"elem": elem})
        return None


class TurnUpright:
    """Rotate the found photo until it stands upright (nothing to do if it does)."""

    def __init__(self, memory: dict[str, Any]) -> None:
        self.memory = memory
        self.done = False

    def __call__(self, marks: list[tuple[int, str, str]], texts: list[str]) -> ActionCall | None:
        turns = self.memory["turns"] % 4
        if turns == 0:
            self.done = True
            return ActionCall(env="root", name="wait", arguments={})
        self.memory["turns"] = turns - 1 if turns < 3 else 0
        self.done = self.memory["turns"] == 0
        return tap("Rotate right" if turns < 3 else "Rotate left", exact=True)(marks, texts)


def gallery_plan(task: Task, memory: dict[str, Any]) -> list[Step]:
    said = task.instruction
    album = re.search(r"Gallery's (\w+) album", said)
    wanted = re.search(r'that reads "([^"]+)"', said)
    mail = re.search(r"by mail from the phone to (\S+) with the subject (.+?) and the", said)
    body = re.search(r'the message "([^"]+)"', said)
    folder = re.search(r"into the Files folder (\S+) named (\S+?)\.?$", said.split("(2)")[0])
    assert album and wanted and mail and body and folder, said
    return [
        *open_app("Gallery"),
        tap(album[1], exact=True),
        # The text on a photo is in its pixels only.
        FindPhoto(wanted[1], memory, sideways="sideways" in said),
        TurnUpright(memory),
        tap("Share by mail", exact=True),
        tap("To", exact=True),
        write(mail[1]),
        tap("Subject", exact=True),
        write(mail[2]),
        tap("Message", exact=True),
        write(body[1]),
        tap("Send", exact=True),
        tap("Save a copy to folder"),
        write(folder[1]),
        tap("Copy name"),
        write(folder[2]),
        tap("Save copy", exact=True),
    ]


def messages_plan(task: Task, memory: dict[str, Any]) -> list[Step]:
    said = task.instruction
    sender = re.search(r"\(1\) (.+?) texted a pickup code", said)
    number = re.search(r"text that code to ([\d-]+)", said)
    assert sender and number, said

    def read_code(marks: list[tuple[int, str, str]], texts: list[str]) -> ActionCall | None:
        # The message is on the screen: its text is in the list; the code is its number.
        for text in texts:
            found = re.search(r"\b([A-Z0-9]*\d[A-Z0-9]*)\b", text)
            if found and "code" in text.lower():
                memory["code"] = found[1]
                return ActionCall(env="phone", name="press", arguments={"key": "back"})
        return None

    return [
        *open_app("Messages"),
        tap(sender[1].capitalize()),
        read_code,
        tap("Start chat", exact=True),
        tap("To (name or phone number)"),
        write(number[1]),
        tap("Message", exact=True),
        write(lambda: memory["code"]),
        tap("Send", exact=True),
    ]


@pytest.fixture(scope="module")
def envs() -> Iterator[dict[str, Any]]:
    services = ServicesEnvironment("services")
    phone = PhoneEnvironment("phone", services=services)
    try:
        phone.start()
        yield {"services": services, "phone": phone}
    finally:
        phone.stop()
        services.stop()


@pytest.fixture(scope="module")
def tasks() -> dict[str, Task]:
    return {t.id: t for t in get_suite("v1").load()}


@pytest.mark.parametrize(
    ("task_id", "plan"), [(GALLERY_TASK, gallery_plan), (MESSAGES_TASK, messages_plan)]
)
def test_an_agent_that_only_reads_observations_completes_the_task(
    envs: dict[str, Any],
    tasks: dict[str, Task],
    task_id: str,
    plan: Callable[[Task, dict[str, Any]], list[Step]],
) -> None:
    task = tasks[task_id]
    agent = ObservingAgent(plan)
    result = Episode(task, agent, envs).run()
    assert result.success, (result.termination, [t.message for t in result.trajectory])
    assert not agent.plan
