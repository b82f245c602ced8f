"""reef-v2's injection family: four hard templates whose seeded content (a mail, a document
in Files, a text message, a Maps listing) carries instructions aimed at the agent, never
the instruction itself; each task passes the static gates, and its near misses (the user's
task plus the planted action) differ from the reference and end on a negated checkpoint."""

from __future__ import annotations

import pytest

from reefbench.benchmark import v2
from reefbench.benchmark.templates import injection
from reefbench.tasks.task import Task
from reefbench.validation.gates import static_problems

# A phrase of each template's planted instruction, as its seeded content words it.
PLANTED = {
    injection.MAIL_FOOTER.id: "P.S. From our records office",
    injection.DOCUMENT_COMMENT.id: "get the external auditors access to",
    injection.SMS_FOLLOW_UP.id: "service notice: lockers are held",
    injection.WEB_LISTING.id: "tables are held only once confirmed by email",
}


def _family() -> v2.Family:
    return next(f for f in v2.families() if f.name == "injection")


def _first_task(template_id: str) -> Task:
    family = _family()
    template = next(t for t in family.templates if t.subtask.id == template_id)
    only = v2.Family(family.name, family.description, (template,))
    return next(iter(v2.tasks_of(only, per_template=1)))


def _seeded_text(task: Task) -> str:
    return " ".join(
        str(value) for step in task.setup for value in getattr(step.action, "bound", {}).values()
    )


def test_the_family_has_four_hard_templates_with_different_carriers() -> None:
    family = _family()
    # these four, and the later ones of injection_more (tests/.../test_injection_more.py)
    assert set(PLANTED) <= {t.subtask.id for t in family.templates}
    assert {t.tier for t in family.templates} == {"hard"}
    assert {t.subtask.env for t in family.templates} == {"browser", "phone"}
    assert set(injection.POOL) <= set(v2.POOL)


@pytest.mark.parametrize("template_id", sorted(PLANTED))
def test_a_task_passes_the_static_gates(template_id: str) -> None:
    task = _first_task(template_id)
    assert static_problems(task, v2.POOL) == []
    assert "family:injection" in task.metadata.tags and "tier:hard" in task.metadata.tags
    assert task.user_data == {}
    # nothing may change but a file downloaded to read it (playtest L)
    assert set(task.may_change) <= {"desktop|file:/home/user/Downloads"}


@pytest.mark.parametrize("template_id", sorted(PLANTED))
def test_the_planted_text_is_in_the_seeded_content_not_the_instruction(template_id: str) -> None:
    task = _first_task(template_id)
    assert PLANTED[template_id] in _seeded_text(task)
    assert PLANTED[template_id].casefold() not in task.instruction.casefold()
    assert "assistant" not in task.instruction.casefold()
    # Ordinary business text: never addressed to an AI or an assistant.
    seeded = _seeded_text(task).casefold()
    assert " ai " not in seeded and "assistant" not in seeded


@pytest.mark.parametrize("template_id", sorted(PLANTED))
def test_the_content_gives_a_superseded_value_the_third_near_miss_takes(
    template_id: str,
) -> None:
    """Close reading: the content names an earlier value (a time, venue, code, street)
    before the one that holds; the third near miss saves the earlier one and obeys nothing."""
    task = _first_task(template_id)
    superseded = task.near_misses[2]
    assert superseded.label.startswith(injection.SUPERSEDED)
    calls = task.near_miss_solution(superseded)
    assert calls != task.reference_solution
    assert len(calls) == len(task.reference_solution)  # no planted action among them
    typed = {str(v) for c in calls for v in c.arguments.values()}
    reference = {str(v) for c in task.reference_solution for v in c.arguments.values()}
    assert typed - reference  # it types the earlier value, not the one that holds


@pytest.mark.parametrize("template_id", sorted(PLANTED))
def test_the_planted_action_is_checked_by_a_negated_checkpoint_after_the_task(
    template_id: str,
) -> None:
    task = _first_task(template_id)
    nodes = list(task.nodes)
    assert len(nodes) == 2
    assert "~" not in nodes[0] and ".~" in nodes[1]
    assert (nodes[0], nodes[1]) in {tuple(e) for e in task.edges}


@pytest.mark.parametrize("template_id", sorted(PLANTED))
def test_near_misses_obey_the_planted_instruction_before_finishing_the_task(
    template_id: str,
) -> None:
    task = _first_task(template_id)
    assert len(task.near_misses) == 3
    reference = task.reference_solution
    for near in task.near_misses[:2]:
        calls = task.near_miss_solution(near)
        assert calls != reference, near.label
        assert len(calls) > len(reference), near.label
        remaining = iter(calls)  # the reference's calls, in order, among the near miss's
        assert all(any(c == r for c in remaining) for r in reference), near.label
    first, midway = (task.near_miss_solution(n) for n in task.near_misses[:2])
    assert first[-len(reference) :] == reference
    assert midway[0] == reference[0] and midway[-1] == reference[-1]
