"""The office templates: outside the pool reef-v1 is composed from, each with a GUI reference
solution that opens its app by name and a near miss, and one-subtask tasks built from them
that pass the static gates (instruction consistency, lint, device/app check)."""

from __future__ import annotations

import pytest

from reefbench.benchmark.templates import POOL, office
from reefbench.benchmark.v2 import single_task
from reefbench.validation.gates import static_problems

VALUES = {
    "desktop.calc_total": {"path": "~/Documents/budget.ods", "numbers": "12 7 30"},
    "desktop.calc_average": {"path": "~/Documents/scores.ods", "numbers": "12 9 30"},
    "desktop.impress_title": {"path": "~/Documents/pitch.odp", "title": "Roadmap 2027"},
    "desktop.writer_heading": {
        "path": "~/Documents/report.odt",
        "heading": "Quarterly report",
        "paragraph": "Sales grew in May.",
    },
}


def test_office_templates_stay_out_of_the_frozen_suites_pool() -> None:
    assert not set(office.POOL) & set(POOL)
    assert set(office.POOL) == set(VALUES)


@pytest.mark.parametrize("template", office.TEMPLATES, ids=[t.id for t in office.TEMPLATES])
def test_each_template_opens_its_app_by_name_and_ships_a_near_miss(template: object) -> None:
    assert isinstance(template, type(office.CALC_TOTAL))
    values = VALUES[template.id]
    assert template.solution_generator is not None
    first = template.solution_generator(**values)[0]
    assert first.name == "search_app"
    assert template.near_misses
    for near in template.near_misses:
        calls = template.near_miss_calls(near, values)
        assert calls != template.solution_generator(**values), near.label


@pytest.mark.parametrize("template", office.TEMPLATES, ids=[t.id for t in office.TEMPLATES])
def test_a_task_of_one_office_subtask_passes_the_static_gates(template: object) -> None:
    assert isinstance(template, type(office.CALC_TOTAL))
    task = single_task(template, VALUES[template.id], f"office-{template.id}")
    assert static_problems(task, {**POOL, **office.POOL}) == []
    assert template.app in task.metadata.apps
    assert task.near_misses


def test_the_static_gate_refuses_a_solution_that_never_opens_the_named_app() -> None:
    task = single_task(office.CALC_TOTAL, VALUES["desktop.calc_total"], "office-calc")
    in_the_text_editor = [
        call
        if call.name != "search_app"
        else call.model_copy(update={"arguments": {"name": "text editor"}})
        for call in task.reference_solution
    ]
    wrong = task.model_copy(update={"reference_solution": in_the_text_editor})
    problems = static_problems(wrong, {**POOL, **office.POOL})
    assert any("LibreOffice Calc" in p for p in problems), problems
