"""reef-v0's composed tasks: synthesised from the pool, deterministically, at load time.

:func:`specs` asks the compose package's controlled synthesis for small, medium and long
tasks per intent (fixed seeds, so every load yields the same tasks and ids), OS-MAP L1
(step-by-step) and L3 (a detail only the user knows) variants, and keeps those that fit the
benchmark: at most 11 checkpoints (CRAB's range), at most one answer and only as the last
action, and the quotas of cross-device tasks and long chains. Instructions are rendered in
the structure-preserving form that the consistency validator reads back.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable

from reefbench.benchmark.conflicts import conflicting_states
from reefbench.benchmark.finish import ask_first, finish
from reefbench.benchmark.steps import describe_steps
from reefbench.benchmark.templates import POOL, gallery, phonephoto
from reefbench.benchmark.templates.gallery import GALLERY_INTENT
from reefbench.compose.synthesis import ComposedSpec, Request, Synthesizer
from reefbench.tasks.task import Task

MAX_NODES = 11
LONG_CHAIN = (4, 8)

# (tag, request, seed, how many). Intents name groups of templates in the pool.
FILES = "organise files on the computer"
WRITE = "prepare a document on the computer"
SETUP = "set up the computer"
IMAGES = "prepare pictures on the computer"
LOOKUP = "look something up"
CODE = "bring a code from the phone to the computer"
MEMO = "take a message from the computer to the phone"
CONTACT = "stay in touch from the phone"
PLAN = "plan the day on the phone"
PHONE_SETUP = "configure the phone"
CLOUD = "keep files in the cloud"
WEB = "organise the week in the browser"
SIGN_IN = "sign back in to the account"
FILE_MANAGER = "organise folders in the file manager"
ROUTE = "find the way on the phone"
GALLERY = GALLERY_INTENT
SESSION = "personalise the desktop"
REPORT = "report on a spreadsheet on the computer"
APPEARANCE = "adjust how the desktop looks"
PHOTO = "edit a photo in the image editor"
PHOTO_MAIL = "prepare a scan a mail asks for"
PHONE_PHOTO = phonephoto.PHONE_PHOTO_INTENT
# Templates a task may use once: the camera shows one scene, its shot has one file name.
SINGLE_USE_TEMPLATES = gallery.SINGLE_USE_TEMPLATES | phonephoto.SINGLE_USE_TEMPLATES

PLAN_OF_REQUESTS: list[tuple[str, Request, int, int]] = [
    (
        "small",
        Request(levels={"instruction": "easy"}, intents=(FILES, WRITE, SETUP, IMAGES)),
        1,
        18,
    ),
    (
        "small",
        Request(levels={"instruction": "easy"}, intents=(CONTACT, PLAN, PHONE_SETUP, CLOUD)),
        2,
        18,
    ),
    ("small", Request(levels={"instruction": "easy"}, intents=(WEB,)), 3, 8),
    ("small", Request(levels={"instruction": "easy"}, intents=(SIGN_IN,), max_subtasks=1), 4, 1),
    ("lookup", Request(levels={"instruction": "easy"}, intents=(LOOKUP,), max_subtasks=1), 5, 6),
    ("cross", Request(levels={"instruction": "easy"}, intents=(CODE, MEMO)), 6, 16),
    ("cross", Request(levels={"instruction": "medium"}, intents=(CODE, MEMO)), 7, 22),
    ("medium", Request(levels={"instruction": "medium"}, intents=(FILES, WRITE, SETUP)), 8, 16),
    (
        "medium",
        Request(levels={"instruction": "medium"}, intents=(CONTACT, PLAN, PHONE_SETUP, CLOUD)),
        9,
        14,
    ),
    ("medium", Request(levels={"instruction": "medium"}, intents=(WEB,)), 10, 6),
    (
        "chain",
        Request(
            levels={"hierarchy": "medium", "branch": "easy"}, intents=(FILES, CODE), max_subtasks=4
        ),
        11,
        6,
    ),
    (
        "chain",
        Request(
            levels={"hierarchy": "hard", "branch": "easy"}, intents=(FILES, CODE), max_subtasks=8
        ),
        12,
        6,
    ),
    (
        "wide",
        Request(levels={"branch": "hard"}, intents=(PLAN, CONTACT, PHONE_SETUP), max_subtasks=6),
        13,
        10,
    ),
    (
        "steps",
        Request(
            levels={"instruction": "easy"},
            intents=(FILES, PLAN, CONTACT),
            style="steps",
            describe_steps=describe_steps,
        ),
        14,
        6,
    ),
    (
        "ask-user",
        Request(
            levels={"instruction": "easy"}, intents=(WRITE, CONTACT, PLAN), missing_detail=True
        ),
        15,
        6,
    ),
    (
        "small",
        Request(levels={"instruction": "easy"}, intents=(FILE_MANAGER,), max_subtasks=1),
        16,
        2,
    ),
    ("small", Request(levels={"instruction": "easy"}, intents=(ROUTE,), max_subtasks=1), 18, 2),
    (
        "gallery",
        Request(levels={"instruction": "easy"}, intents=(GALLERY,), max_subtasks=1),
        140,
        4,
    ),
    (
        "gallery",
        Request(levels={"instruction": "medium"}, intents=(GALLERY,), max_subtasks=3),
        141,
        8,
    ),
    # The desktop session's settings (templates/session.py), seeds 160-179.
    (
        "session",
        Request(levels={"instruction": "medium"}, intents=(SESSION,), max_subtasks=3),
        160,
        10,
    ),
    ("office", Request(levels={"instruction": "easy"}, intents=(REPORT,), max_subtasks=1), 120, 3),
    # The desktop's fonts and wallpaper, asked for on the phone (templates/appearance.py),
    # seeds 200-219.
    (
        "appearance",
        Request(
            levels={"instruction": "medium"},
            intents=(APPEARANCE,),
            max_subtasks=3,
        ),
        200,
        8,
    ),
    # ... and one at a time (the texted fonts set both fonts: no sibling can share them).
    ("appearance", Request(intents=(APPEARANCE,), max_subtasks=3), 201, 2),
    # A scan fixed in the desktop's image editor as a text on the phone asks
    # (templates/photoedit.py), seeds 220-239.
    ("photoedit", Request(intents=(PHOTO,), max_subtasks=1), 220, 3),
    ("photoedit", Request(intents=(PHOTO_MAIL,), max_subtasks=1), 221, 2),
    # A photo taken on the phone, downloaded by the computer's browser, edited in the
    # image editor and uploaded back into the phone's Gallery (templates/phonephoto.py),
    # seeds 240-259.
    ("photoedit", Request(intents=(PHONE_PHOTO,), max_subtasks=1), 240, 2),
]


def _answers(spec: ComposedSpec) -> int:
    return sum(1 for template, _ in spec.subtasks if "answer" in POOL[template].outputs)


def _is_chain(spec: ComposedSpec) -> bool:
    n = len(spec.subtasks)
    outs = [u for u, _ in spec.links]
    ins = [v for _, v in spec.links]
    linear = len(spec.links) == n - 1 and len(set(outs)) == len(outs) and len(set(ins)) == len(ins)
    return linear and LONG_CHAIN[0] <= n <= LONG_CHAIN[1]


# Templates that set a property of a file which later renames and copies keep (the
# executable bit): a second one on the same file's lineage would already hold when its turn
# comes, so that subtask could not be verified on its own (the SR@k gate finds such tasks).
KEPT_PROPERTIES = frozenset({"desktop.make_executable"})


def _repeats_a_kept_property(spec: ComposedSpec) -> bool:
    parents: dict[int, set[int]] = {}
    for u, v in spec.links:
        parents.setdefault(v, set()).add(u)

    def ancestors(i: int) -> set[int]:
        found: set[int] = set()
        todo = list(parents.get(i, ()))
        while todo:
            j = todo.pop()
            if j not in found:
                found.add(j)
                todo += parents.get(j, ())
        return found

    templates = [template for template, _ in spec.subtasks]
    return any(
        template in KEPT_PROPERTIES and any(templates[j] == template for j in ancestors(i))
        for i, template in enumerate(templates)
    )


# Subtasks whose checkpoints only look: reading a message counts only when what was read
# feeds a later subtask (which then proves it was read), and opening an app is never a
# task's work. Without this, they are free completion credit (the truncated-reference gate
# finds such tasks: their last action, opening the item, is verified by nothing).
READ_ONLY_TEMPLATES = frozenset({"desktop.read_message", "phone.read_code"})
OPENS_ONLY_TEMPLATES = frozenset({"phone.open_app"})


def _credits_looking(spec: ComposedSpec) -> bool:
    feeding = {u for u, _ in spec.links}
    return any(
        template in OPENS_ONLY_TEMPLATES or (template in READ_ONLY_TEMPLATES and i not in feeding)
        for i, (template, _) in enumerate(spec.subtasks)
    )


def _sets_a_state_twice(spec: ComposedSpec) -> bool:
    """Two subtasks set one state to different values (the GTK theme to "Adwaita-dark" and
    later to "HighContrast"): contradictory goals, of which only the last can hold."""
    checkpoints = [
        ev
        for template, values in spec.subtasks
        for ev in POOL[template].instantiate(values).nodes.values()
    ]
    return bool(conflicting_states(checkpoints))


# Checkpoints that hold when something is gone (a renamed file's old path): any other
# checkpoint on the same state must come before it in the graph, or the two cannot both
# hold at the end (an append to a file that a parallel branch renames away).
REMOVALS = frozenset({"file_absent"})


def _removes_what_a_sibling_keeps(task: Task) -> bool:
    """A removal checkpoint and a checkpoint on the same state that is not its ancestor:
    the reference solution can reach both, but one of them fails the end-state check."""
    import networkx as nx

    from reefbench.actions.evaluators import keys_overlap

    dag = task.evaluator_graph
    keys = {node: ev.state_keys() for node, ev in task.nodes.items()}
    for node, ev in task.nodes.items():
        if ev.name not in REMOVALS:
            continue
        before = nx.ancestors(dag, node)
        for other, other_keys in keys.items():
            if other == node or other in before:
                continue
            if any(keys_overlap(a, b) for a in keys[node] for b in other_keys):
                return True
    return False


def _repeats_a_single_use(spec: ComposedSpec) -> bool:
    """A template that uses a one-of-a-kind state (the phone camera's one scene) twice."""
    templates = [template for template, _ in spec.subtasks]
    return any(templates.count(t) > 1 for t in SINGLE_USE_TEMPLATES)


def _fits(task: Task) -> bool:
    if len(task.nodes) > MAX_NODES:
        return False
    for solution in (task.reference_solution, *task.alternative_solutions):
        submits = [k for k, c in enumerate(solution) if c.name == "submit"]
        if submits and submits != [len(solution) - 1]:
            return False
    return True


# Alternative solutions of composed tasks are the templates' alternatives strung together;
# the short tasks already play every template's alternative, so the long ones keep only
# their reference solution (which halves the gates' time on them). A task in the steps
# style (OS-MAP L1) has none either: its instruction prescribes the reference's actions
# ("open the text editor app; press Ctrl+O; ..."), so another way of reaching the same
# state (the shell command) does not do what it asks.
ALTERNATIVES_UP_TO = 3


def _build(spec: ComposedSpec, tag: str, style: str = "prose") -> Task:
    task = spec.build(POOL)
    if len(spec.subtasks) > ALTERNATIVES_UP_TO or style == "steps":
        task.alternative_solutions = []
    if spec.user_data:
        ask_first(task, sorted(spec.user_data))
    tags = [tag] + (["long-chain"] if _is_chain(spec) else [])
    return finish(task, tags=tuple(tags))


def _draw(tag: str, request: Request, seed: int, wanted: int) -> Iterable[Task]:
    synthesizer = Synthesizer(POOL, dataclasses.replace(request, id_prefix=f"v0-{tag}"), seed)
    made = 0
    for spec in synthesizer.run(wanted * 6):
        if made >= wanted:
            return
        if _answers(spec) > 1 or _repeats_a_kept_property(spec) or _credits_looking(spec):
            continue
        if _sets_a_state_twice(spec) or _repeats_a_single_use(spec):
            continue
        if tag == "chain" and not _is_chain(spec):
            continue
        task = _build(spec, tag, request.style)
        if not _fits(task):
            continue
        if _removes_what_a_sibling_keeps(task):
            continue
        if tag == "cross" and "cross-device" not in task.metadata.tags:
            continue
        made += 1
        yield task


@functools.cache
def _tasks() -> tuple[Task, ...]:
    seen: set[str] = set()
    out: list[Task] = []
    for tag, request, seed, wanted in PLAN_OF_REQUESTS:
        for task in _draw(tag, request, seed, wanted):
            if task.id not in seen:
                seen.add(task.id)
                out.append(task)
    return tuple(out)


def load() -> list[Task]:
    """The composed tasks (fresh copies: episodes may not share mutable task state)."""
    return [t.model_copy(deep=False) for t in _tasks()]
