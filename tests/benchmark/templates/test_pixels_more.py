"""reef-v2's pixels family, continued: the month one unlabelled line first rises above
another (a small margin, close hues, a legend out of the lines' order), and who sits
across the table from someone on one of three seating plans (empty chair places differ
by side, so counting chairs fails). Each
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
from reefbench.benchmark.templates import pixels_seats as seats
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
    plan = _values(seats.SEAT_OPPOSITE)[0]
    name = _submitted(seats.SEAT_OPPOSITE.solution_generator, plan)
    first, last = name.split()
    for answer in (name, name.lower(), first, f"{last}, {first}"):
        assert _passes(seats.SEAT_OPPOSITE, plan, answer)
    assert not _passes(seats.SEAT_OPPOSITE, plan, last + " " + "X")


def test_the_lines_cross_as_the_record_says() -> None:
    for values in _values(pm.LINE_CROSS):
        lines = pm._lines(values)
        above = [a > b for a, b in zip(lines["a"], lines["b"], strict=True)]
        first, dip, again = values["first"], values["dip"], values["again"]
        assert above.index(True) == first
        assert not any(above[dip:again]) and all(above[first:dip]) and above[again]
        # the least margins either side of the crossing: 4 or 5 units (8 or 10 pixels)
        for k in (first - 1, first):
            assert 4 <= abs(lines["a"][k] - lines["b"][k]) <= 5
        below_c = [a < c for a, c in zip(lines["a"], lines["c"], strict=True)]
        assert below_c.index(False) == values["cross"]
        over = ps.third_over(lines)
        assert over is not None and over not in (first - 1, first, first + 1, again)


def test_the_legend_is_not_in_the_lines_order() -> None:
    for values in _values(pm.LINE_CROSS):
        _, (image,) = _images(pm.LINE_CROSS, values)
        drawn = [list(s["values"]) for s in image["series"]]
        legend = image["legend"]
        assert sorted(legend) == [0, 1, 2] and legend != [0, 1, 2]
        for month in (0, 11):
            assert legend != sorted(range(3), key=[-row[month] for row in drawn].__getitem__)
        assert {s["colour"] for s in image["series"]} == {"blue", "purple", "teal"}


def _plans(values: dict[str, Any]) -> list[dict[str, Any]]:
    return _images(seats.SEAT_OPPOSITE, values)[1]


def test_each_plan_seats_everyone_once_and_the_asked_one_is_unique() -> None:
    for values in _values(seats.SEAT_OPPOSITE):
        images = _plans(values)
        assert len(images) == 3 and len({i["heading"] for i in images}) == 3
        people = set(values["people"].split("|"))
        for image in images:
            seated = [n for n in [*image["far"], *image["near"], *image["ends"]] if n]
            assert sorted(seated) == sorted(people)
            assert image["far"].count("") == image["near"].count("") == 1
            assert image["far"].index("") != image["near"].index("")
        short = f" - {values['day'][:3]} - "
        asked = [i for i in images if short in i["heading"]
                 and i["heading"].startswith(values["meeting"].capitalize())]  # fmt: skip
        assert len(asked) == 1
        firsts = [n.split()[0] for n in people]
        assert len(set(firsts)) == len(firsts)


def test_counting_chairs_names_someone_else() -> None:
    for values in _values(seats.SEAT_OPPOSITE):
        answers = seats._answers(values)
        assert all(answers) and len(set(answers)) == len(answers)
        plan = seats._plan_of(values, values["meeting"], values["day"])
        side, slot = seats._seat_of(plan, values["person"]) or ("", -1)
        assert answers[0] == plan["near" if side == "far" else "far"][slot]


def test_facing_places_line_up_along_the_table() -> None:
    for slot in range(ps.SLOTS):
        assert ps.slot_x(slot, True, scale=1.0) == ps.slot_x(slot, False)
    assert ps.slot_x(0, True) > ps.slot_x(0, False)  # the far side is narrower


def test_the_pictures_hold_the_answer() -> None:
    values = _values(pm.LINE_CROSS)[0]
    _, (image,) = _images(pm.LINE_CROSS, values)
    moved = json.loads(json.dumps(image))
    moved["series"][0]["values"][0] += 5
    assert px.picture(image).tobytes() != px.picture(moved).tobytes()
    plans = _plans(_values(seats.SEAT_OPPOSITE)[0])
    swapped = dict(plans[0], near=list(reversed(plans[0]["near"])))
    assert px.picture(plans[0]).tobytes() != px.picture(swapped).tobytes()
    assert px.picture(plans[0]).tobytes() == px.picture(plans[0]).tobytes()
