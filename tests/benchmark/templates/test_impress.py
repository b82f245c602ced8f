"""reef-v2's Impress templates: their tasks pass the static gates, near misses differ from
the reference, the outline is typed as it reads, and the checks fail on wrong decks."""

from __future__ import annotations

from pathlib import Path

import pytest

from reefbench.benchmark import v2
from reefbench.benchmark.templates import impress
from reefbench.documents.write import write_presentation
from reefbench.envs.desktop import office_text_evaluators as te
from reefbench.tasks.subtask import SubTask
from reefbench.validation.gates import static_problems


@pytest.mark.parametrize("template", impress.TEMPLATES, ids=lambda t: t.id)
def test_tasks_pass_the_static_gates_and_near_misses_differ(template: SubTask) -> None:
    family = next(f for f in v2.families() if f.name == "office")
    entry = next(t for t in family.templates if t.subtask is template)
    assert entry.tier == "hard"
    only = v2.Family(family.name, family.description, (entry,))
    for task in v2.tasks_of(only, per_template=3):
        assert static_problems(task, v2.POOL) == []
    values = dict(template.value_records[0])
    assert template.solution_generator is not None
    solution = template.solution_generator(**values)
    assert template.near_misses
    for near in template.near_misses:
        assert near.solution is not None
        assert near.solution(**values) != solution, near.label


def test_an_outline_reads_as_slides_with_levelled_bullets() -> None:
    deck = impress._deck("Intro\n  Why\n    Because\n  Who\nEnd\n  Bye")
    assert deck == [("Intro", [(1, "Why"), (2, "Because"), (1, "Who")]), ("End", [(1, "Bye")])]
    for record in impress.DECK_RECORDS:
        slides = impress._deck(record["outline"])
        assert len(slides) == 3
        assert any(level == 2 for _, bullets in slides for level, _ in bullets)


def test_the_outline_is_typed_with_tab_and_shift_tab() -> None:
    steps = impress._type_outline([(0, "Intro"), (1, "Why"), (2, "Because"), (0, "End")])
    assert [(s.name, s.arguments) for s in steps] == [
        ("write_text", {"text": "Intro\n\tWhy\n\tBecause\n"}),
        ("hotkey", {"keys": ["shift", "tab"]}),
        ("hotkey", {"keys": ["shift", "tab"]}),
        ("write_text", {"text": "End"}),
    ]


def _deck_with_notes(path: Path, notes: dict[int, str]) -> None:
    from pptx import Presentation

    write_presentation(path, [("Welcome", ["Hello"]), ("Systems", ["Laptop"]), ("End", [])])
    deck = Presentation(str(path))
    for index, text in notes.items():
        deck.slides[index].notes_slide.notes_text_frame.text = text
    deck.save(str(path))


def test_notes_and_titles_checks(tmp_path: Path) -> None:
    path = tmp_path / "deck.pptx"
    _deck_with_notes(path, {1: "Bring your ID."})
    assert te.notes_problem(path, "Systems", "Bring  your ID.") == ""
    assert "notes of 'Welcome'" in te.notes_problem(path, "Welcome", "Bring your ID.")
    assert "no slide titled" in te.notes_problem(path, "Budget", "x")
    assert te.titles_problem(path, ["Welcome", "Systems", "End"]) == ""
    assert "not ['Systems'" in te.titles_problem(path, ["Systems", "Welcome", "End"])


def test_bullets_check_compares_levels(tmp_path: Path) -> None:
    from pptx import Presentation

    path = tmp_path / "deck.pptx"
    write_presentation(path, [("Scope", ["In scope", "Two warehouses"])])
    assert te.bullets_problem(path, 1, ["1|In scope", "1|Two warehouses"]) == ""
    assert "not" in te.bullets_problem(path, 1, ["1|In scope", "2|Two warehouses"])
    deck = Presentation(str(path))
    deck.slides[0].placeholders[1].text_frame.paragraphs[1].level = 1
    deck.save(str(path))
    assert te.bullets_problem(path, 1, ["1|In scope", "2|Two warehouses"]) == ""
    assert te.bullets_problem(path, 2, []) == "it has no slide 2"
