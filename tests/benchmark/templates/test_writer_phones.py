"""reef-v2's UK-numbers template: its tasks pass the static gates, near misses differ from
the reference, only the UK section changes, and the loose and whole-document replacements
would give a different document."""

from __future__ import annotations

import re

from reefbench.benchmark import v2
from reefbench.benchmark.templates import writer_phones as wp
from reefbench.validation.gates import static_problems


def test_tasks_pass_the_static_gates_and_near_misses_differ() -> None:
    template = wp.WRITER_UK_PHONES
    family = next(f for f in v2.families() if f.name == "office")
    entry = next(t for t in family.templates if t.subtask is template)
    assert entry.tier == "hard"
    only = v2.Family(family.name, family.description, (entry,))
    for task in v2.tasks_of(only, per_template=4):
        assert static_problems(task, v2.POOL) == []
    values = dict(template.value_records[0])
    assert template.solution_generator is not None
    solution = template.solution_generator(**values)
    for near in template.near_misses:
        assert near.solution is not None
        assert near.solution(**values) != solution, near.label


def test_only_the_uk_numbers_change_and_every_one_does() -> None:
    for record in wp.PHONE_RECORDS:
        before = wp._paragraphs(record["sections"])
        after = wp.expected(record["sections"])
        changed = [b for b, a in zip(before, after, strict=True) if a != b]
        uk = next(s for s in wp._sections(record["sections"]) if s[0] == wp.UK)
        numbers = [p for p in uk if re.search(r": \(?0\d+\)? \d", p)]
        assert changed == numbers and len(numbers) >= 4
        # The time in the UK section stays, the other countries' 0 numbers exist.
        assert any(re.search(r": 0\d:\d\d", p) for p in uk)
        others = [p for p in before if p not in uk]
        assert any(re.search(r": \(?0", p) for p in others)


def test_the_near_misses_patterns_give_other_text() -> None:
    uk = "Switchboard opens at: 08:30 on weekdays"
    assert wp.international(uk) == uk
    assert re.sub(r": \(?0(\d+)\)?", r": +44 \1", uk) != uk
    assert wp.international("Desk: (020) 7946 0018") == "Desk: +44 20 7946 0018"
