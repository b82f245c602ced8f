"""reef-v2's ambiguity family: three templates whose instruction fits two seeded targets;
each task gives the simulated user's answer for the kind its reference asks about, the
reference asks before it changes anything, its tasks pass the static gates, and its near
misses (no asking, the other target, asking too late) differ from the reference."""

from __future__ import annotations

import pytest

from reefbench.benchmark import v2
from reefbench.benchmark.templates import ambiguity
from reefbench.tasks.task import Task
from reefbench.validation.gates import static_problems

# Template -> (the kind asked, the attributes naming the right and the decoy target).
TARGETS = {
    ambiguity.MAIL_NAMESAKE.id: (ambiguity.WHICH_CONTACT, "name", "decoy_name"),
    ambiguity.FILE_NAMESAKE.id: (ambiguity.WHICH_FILE, "folder", "decoy_folder"),
    ambiguity.MEETING_NAMESAKE.id: (ambiguity.WHICH_MEETING, "title", "decoy_title"),
}


def _family() -> v2.Family:
    return next(f for f in v2.families() if f.name == "ambiguity")


def _tasks(template_id: str, count: int = 2) -> list[Task]:
    family = _family()
    template = next(t for t in family.templates if t.subtask.id == template_id)
    only = v2.Family(family.name, family.description, (template,))
    return list(v2.tasks_of(only, per_template=count))


def _attributes(task: Task) -> dict[str, object]:
    return dict(task.metadata.subtasks[0].attributes)


def test_the_family_has_these_three_templates_of_medium_or_hard_tier() -> None:
    family = _family()
    # (and those of :mod:`.ambiguity_more`: tests/benchmark/templates/test_ambiguity_more.py)
    assert set(TARGETS) <= {t.subtask.id for t in family.templates}
    assert {t.tier for t in family.templates} <= {"medium", "hard"}
    assert all(t.answers is not None for t in family.templates)
    assert set(ambiguity.POOL) <= set(v2.POOL)


@pytest.mark.parametrize("template_id", sorted(TARGETS))
def test_a_task_passes_the_static_gates_and_the_user_names_the_right_target(
    template_id: str,
) -> None:
    kind, right, decoy = TARGETS[template_id]
    for task in _tasks(template_id):
        assert static_problems(task, v2.POOL) == []
        values = _attributes(task)
        assert set(task.user_data) == {kind}
        assert str(values[right]) in task.user_data[kind]
        assert str(values[decoy]) not in task.user_data[kind]
        # The instruction names neither target: only the user can tell them apart.
        assert str(values[right]) not in task.instruction
        assert str(values[decoy]) not in task.instruction


@pytest.mark.parametrize("template_id", sorted(TARGETS))
def test_the_reference_asks_before_it_acts(template_id: str) -> None:
    kind, _, _ = TARGETS[template_id]
    task = _tasks(template_id, 1)[0]
    calls = task.reference_solution
    asked = next(i for i, c in enumerate(calls) if c.name == "call_user")
    assert calls[asked].arguments == {"kind": kind}
    assert not [
        c for c in calls[:asked] if c.name == "click_on" and c.arguments.get("role") == "button"
    ]
    first = next(iter(task.nodes))
    assert "user_was_asked" in first and "~" in first


@pytest.mark.parametrize("template_id", sorted(TARGETS))
def test_near_misses_differ_from_the_reference(template_id: str) -> None:
    task = _tasks(template_id, 1)[0]
    labels = [n.label for n in task.near_misses]
    assert labels == [ambiguity.WITHOUT_ASKING, ambiguity.THE_OTHER, ambiguity.ASKS_AFTER]
    reference = task.reference_solution
    without, other, after = (task.near_miss_solution(n) for n in task.near_misses)
    for calls in (without, other, after):
        assert calls != reference
    assert not [c for c in without if c.name == "call_user"]
    assert [c.name for c in other] == [c.name for c in reference]
    assert after[-1].name == "call_user" and sorted(map(str, after)) == sorted(map(str, reference))


def test_which_namesake_is_meant_is_not_told_by_where_they_belong() -> None:
    """A playtest found the right Sam always in the rowing club: a pattern to learn."""
    from reefbench.benchmark.templates.ambiguity import NAMESAKES, _places

    meant = {_places(name, decoy)[0][0] for _, name, _, decoy, _ in NAMESAKES}
    decoys = {_places(name, decoy)[1][0] for _, name, _, decoy, _ in NAMESAKES}
    assert len(meant) > 1 and meant & decoys
