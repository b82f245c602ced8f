"""reef-v2's agenda-order Impress template: its tasks pass the static gates, near misses
differ from the reference, the notes word every item in their own words (never a slide's
title), the change brings the cut item back and drops another, and sending each slide of
the final agenda to the end leaves the deck in that order."""

from __future__ import annotations

import pytest

from reefbench.benchmark import v2
from reefbench.benchmark.templates import impress_order as io
from reefbench.validation.gates import static_problems


def test_tasks_pass_the_static_gates_and_near_misses_differ() -> None:
    template = io.IMPRESS_AGENDA_ORDER
    family = next(f for f in v2.families() if f.name == "office")
    entry = next(t for t in family.templates if t.subtask is template)
    assert entry.tier == "hard"
    only = v2.Family(family.name, family.description, (entry,))
    for task in v2.tasks_of(only, per_template=4):
        assert static_problems(task, v2.POOL) == []
    values = dict(template.value_records[0])
    assert template.solution_generator is not None
    solution = template.solution_generator(**values)
    assert len(template.near_misses) >= 4
    for near in template.near_misses:
        assert near.solution is not None
        assert near.solution(**values) != solution, near.label


@pytest.mark.parametrize("record", io.AGENDA_RECORDS, ids=lambda r: r["path"])
def test_the_notes_paraphrase_and_the_plan_gives_the_final_order(record: dict[str, str]) -> None:
    deck = int(record["deck"])
    titles = io._titles(io.DECKS[deck][1])
    first = io.agenda_note(deck, record["sender"], record["agenda"], record["cut"])
    change = io.change_note(
        deck, record["sender"], record["cut"], record["back_after"], record["dropped"]
    )
    for title in titles[1:]:
        assert title.casefold() not in (first + change).casefold(), title
    items = io._items(record["agenda"])
    assert sum(len(i) > 1 for i in items) == 1  # one item takes two slides
    final = io.final_agenda(
        record["agenda"], record["cut"], record["back_after"], record["dropped"]
    )
    kept = sorted(i for item in final for i in item)
    dropped = io._items(record["dropped"])[0]
    assert sorted([0, *kept, *dropped]) == list(range(len(titles)))
    order = [i for item in final for i in item]
    _, current = io.reorder(titles, [titles[i] for i in order])
    assert current == [titles[0], *(titles[i] for i in dropped), *(titles[i] for i in order)]
    wanted = io.wanted_titles(
        record["deck"], record["agenda"], record["cut"], record["back_after"], record["dropped"]
    )
    assert wanted == [titles[0], *(titles[i] for i in order)]


def test_a_slide_already_at_the_end_is_not_moved() -> None:
    # Slide to End is disabled (and not listed) on the last slide: the plan skips it.
    steps, current = io.reorder(["Cover", "A", "B"], ["B", "A"])
    moves = [s for s in steps if s.arguments.get("name") == "Slide to End"]
    assert len(moves) == 1 and current == ["Cover", "B", "A"]
