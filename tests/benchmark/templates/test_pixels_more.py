"""reef-v2's pixels family, continued: the month one unlabelled line first rises above
another, and who sits across the table from someone on one of three seating plans. Each
task passes the static gates; the answer is drawn, in no name, instruction or seeded text;
the checkpoint takes any spelling of the right answer and refuses every near miss."""

from __future__ import annotations

import json
from typing import Any

import pytest

from reefbench.benchmark import pixel_images as px
from reefbench.benchmark import pixel_scenes as ps
from reefbench.benchmark import v2
from reefbench.benchmark.templates import pixels_more as pm
from reefbench.environments.root import RootEnvironment, answer_one_of
from reefbench.tasks.subtask import SubTask
from reefbench.tasks.task import Task
from reefbench.validation.gates import static_problems

TEMPLATES = {t.id: t for t in pm.TEMPLATES}


def _tasks(template_id: str) -> list[Task]:
    family = next(f for f in v2.families() if f.name == "pixels")
    template = next(t for t in family.templates if t.subtask.id == template_id)
    return list(v2.tasks_of(v2.Family(family.name, family.description, (template,))))


def _values(template: SubTask) -> list[dict[str, Any]]:
    return v2.value_sets(template, v2.TASKS_PER_TEMPLATE)


def _submitted(solution: Any, values: dict[str, Any]) -> str:
    calls = solution(**values)
    assert calls[-1].name == "submit"
    return str(calls[-1].arguments["answer"])


def _passes(template: SubTask, values: dict[str, Any], answer: str | None) -> bool:
    root = RootEnvironment()
    root.answer = answer
    accepted = template.evaluator_generator(**values).bound["accepted"]
    return bool(answer_one_of.func(accepted=accepted, env=root).success)


def _images(template: SubTask, values: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    (step,) = template.setup_generator(**values)  # type: ignore[misc]
    return str(step.action.bound["folder"]), list(step.action.bound["images"])


def test_the_templates_are_hard_pixels_templates_with_a_budget() -> None:
    family = next(f for f in v2.families() if f.name == "pixels")
    mine = [t for t in family.templates if t.subtask.id in TEMPLATES]
    assert len(mine) == 2 and all(t.tier == "hard" and t.min_steps for t in mine)
    assert len(family.templates) >= 5


@pytest.mark.parametrize("template_id", sorted(TEMPLATES))
def test_tasks_pass_the_static_gates(template_id: str) -> None:
    tasks = _tasks(template_id)
    assert 10 <= len(tasks) <= 15
    for task in tasks:
        assert static_problems(task, v2.POOL) == []
        assert "family:pixels" in task.metadata.tags and "tier:hard" in task.metadata.tags


@pytest.mark.parametrize("template_id", sorted(TEMPLATES))
def test_the_reference_passes_and_every_near_miss_fails(template_id: str) -> None:
    template = TEMPLATES[template_id]
    for values in _values(template):
        assert _passes(template, values, _submitted(template.solution_generator, values))
        wrong = {_submitted(m.solution, values) for m in template.near_misses}
        assert len(wrong) == len(template.near_misses)
        assert not any(_passes(template, values, w) for w in wrong)
        assert not _passes(template, values, None)


@pytest.mark.parametrize("template_id", sorted(TEMPLATES))
def test_the_answer_is_in_no_name_or_instruction(template_id: str) -> None:
    template = TEMPLATES[template_id]
    for values in _values(template):
        right = _submitted(template.solution_generator, values)
        folder, images = _images(template, values)
        names = " ".join([folder, *(str(i["name"]) for i in images)]).casefold()
        instruction = template.description.format(**values).casefold()
        for spelling in template.evaluator_generator(**values).bound["accepted"]:
            assert spelling.casefold() not in names
        assert right.casefold() not in instruction
        json.dumps(images)  # plain data


def test_any_spelling_of_the_month_or_name_passes() -> None:
    values = _values(pm.LINE_CROSS)[0]
    month = ps.MONTH_NAMES[values["first"]]
    for answer in (month, month.upper(), month[:3], f"{month} {values['year']}", f"{month}."):
        assert _passes(pm.LINE_CROSS, values, answer)
    seats = _values(pm.SEAT_OPPOSITE)[0]
    name = _submitted(pm.SEAT_OPPOSITE.solution_generator, seats)
    first, last = name.split()
    for answer in (name, name.lower(), first, f"{last}, {first}"):
        assert _passes(pm.SEAT_OPPOSITE, seats, answer)
    assert not _passes(pm.SEAT_OPPOSITE, seats, last + " " + "X")


def test_the_lines_cross_as_the_record_says() -> None:
    for values in _values(pm.LINE_CROSS):
        lines = pm._lines(values)
        above = [a > b for a, b in zip(lines["a"], lines["b"], strict=True)]
        first, dip, again = values["first"], values["dip"], values["again"]
        assert above.index(True) == first
        assert not any(above[dip:again]) and all(above[first:dip]) and above[again]
        # small margins either side of the crossing: 4 to 8 units (8 to 16 pixels)
        for k in (first - 1, first):
            assert 4 <= abs(lines["a"][k] - lines["b"][k]) <= 8
        below_c = [a < c for a, c in zip(lines["a"], lines["c"], strict=True)]
        assert below_c.index(False) == values["cross"]


def test_each_plan_seats_everyone_once_and_the_asked_one_is_unique() -> None:
    for values in _values(pm.SEAT_OPPOSITE):
        _, images = _images(pm.SEAT_OPPOSITE, values)
        assert len(images) == 3 and len({i["heading"] for i in images}) == 3
        people = set(values["people"].split("|"))
        assert all(set(i["names"]) == people and len(i["names"]) == 10 for i in images)
        asked = [i for i in images if f", {values['day']}," in i["heading"]
                 and values["meeting"].capitalize() in i["heading"]]  # fmt: skip
        assert len(asked) == 1
        assert asked[0]["names"][values["seat"]] == values["person"]
        firsts = [n.split()[0] for n in people]
        assert len(set(firsts)) == len(firsts)


def test_opposite_seats_face_each_other() -> None:
    spots = ps.seat_positions(far=1.0)
    for seat in range(ps.SEATS):
        across = ps.opposite(seat)
        assert ps.opposite(across) == seat and across != seat
        if seat not in (4, 9):
            assert spots[seat][0] == spots[across][0]  # same column without perspective
            assert pm.mirrored(seat) != across and pm.diagonal(seat) != across


def test_the_pictures_hold_the_answer() -> None:
    values = _values(pm.LINE_CROSS)[0]
    _, (image,) = _images(pm.LINE_CROSS, values)
    moved = json.loads(json.dumps(image))
    moved["series"][0]["values"][0] += 5
    assert px.picture(image).tobytes() != px.picture(moved).tobytes()
    seats = _values(pm.SEAT_OPPOSITE)[0]
    _, plans = _images(pm.SEAT_OPPOSITE, seats)
    swapped = dict(plans[0], names=list(reversed(plans[0]["names"])))
    assert px.picture(plans[0]).tobytes() != px.picture(swapped).tobytes()
    assert px.picture(plans[0]).tobytes() == px.picture(plans[0]).tobytes()
