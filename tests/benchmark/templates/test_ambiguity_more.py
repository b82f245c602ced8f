"""reef-v2's ambiguity family, continued: the text to one of two namesakes and the reply
to one of two invoice mails. Each task gives the simulated user's answer for the kind its
reference asks about, matched however the agent words the question; only one namesake has
a conversation (the other is only in Contacts, and is sometimes the one meant); both
invoices ask for approval and a third mail reminds of one of them (not always the one
meant, which is not always the newest); the near misses differ from the reference."""

from __future__ import annotations

import pytest

from reefbench.benchmark import v2
from reefbench.benchmark.templates import ambiguity, ambiguity_more
from reefbench.environments.root import user_kind
from reefbench.tasks.task import Task
from reefbench.validation.gates import static_problems

# Template -> (the kind asked, the attributes naming the right and the decoy target,
# the attribute saying the one meant is the newest, a question an agent might ask).
TARGETS = {
    ambiguity_more.TEXT_NAMESAKE.id: (
        ambiguity.WHICH_CONTACT,
        "name",
        "decoy_name",
        "meant_in_thread",
        "Which Alex do you mean, Alex Whitmore or Alex Duarte?",
    ),
    ambiguity_more.INVOICE_REPLY.id: (
        ambiguity_more.WHICH_MAIL,
        "vendor",
        "decoy_vendor",
        "right_newest",
        "There are two invoice mails: which one should I reply to?",
    ),
}


def _family() -> v2.Family:
    return next(f for f in v2.families() if f.name == "ambiguity")


def _tasks(template_id: str, count: int = 15) -> list[Task]:
    family = _family()
    template = next(t for t in family.templates if t.subtask.id == template_id)
    only = v2.Family(family.name, family.description, (template,))
    return list(v2.tasks_of(only, per_template=count))


def _attributes(task: Task) -> dict[str, object]:
    return dict(task.metadata.subtasks[0].attributes)


def test_the_family_has_five_templates_with_answers() -> None:
    family = _family()
    ids = {t.subtask.id for t in family.templates}
    assert len(ids) >= 5
    assert set(TARGETS) <= ids
    assert all(t.answers is not None for t in family.templates)
    assert set(ambiguity_more.POOL) <= set(v2.POOL)


@pytest.mark.parametrize("template_id", sorted(TARGETS))
def test_tasks_pass_the_static_gates_and_the_user_names_the_right_target(
    template_id: str,
) -> None:
    kind, right, decoy, newest, question = TARGETS[template_id]
    tasks = _tasks(template_id)
    assert 10 <= len(tasks) <= 15
    for task in tasks:
        assert static_problems(task, v2.POOL) == []
        values = _attributes(task)
        assert set(task.user_data) == {kind}
        assert str(values[right]) in task.user_data[kind]
        assert str(values[decoy]) not in task.user_data[kind]
        assert str(values[right]) not in task.instruction
        assert str(values[decoy]) not in task.instruction
        # budget: twice the reference, and room to read both candidates first
        assert (task.metadata.step_limit or 0) >= max(24, 2 * len(task.reference_solution))
        assert user_kind(question, task.user_data) == kind
    # Neither position gives the answer away: the one meant is sometimes the newest.
    assert {bool(_attributes(t)[newest]) for t in tasks} == {True, False}
    # Both of a pair are meant in some task.
    pairs = {(_attributes(t)[right], _attributes(t)[decoy]) for t in tasks}
    assert any((b, a) in pairs for a, b in pairs)


def test_one_namesake_has_a_conversation_the_other_only_a_contact() -> None:
    assert "mov" in ambiguity_more.LUCK and "address" not in ambiguity_more.LUCK.casefold()
    for values in ambiguity_more.TEXT_NAMESAKE.value_records:
        seeded = [
            (s.action.name, dict(s.action.bound)) for s in ambiguity_more.text_setup(**values)
        ]
        contacts = {a["name"] for n, a in seeded if n == "add_contact"}
        threads = [a["contact"] for n, a in seeded if n == "add_message"]
        assert {values["name"], values["decoy_name"]} <= contacts
        both = [t for t in threads if t in (values["name"], values["decoy_name"])]
        meant = values["name"] if values["meant_in_thread"] else values["decoy_name"]
        assert both == [meant]


def test_a_third_mail_reminds_of_one_of_the_two_invoices() -> None:
    records = ambiguity_more.INVOICE_REPLY.value_records
    assert {(r["right_newest"], r["reminded_meant"]) for r in records} == {
        (a, b) for a in (True, False) for b in (True, False)
    }
    for values in records:
        mails = [dict(s.action.bound) for s in ambiguity_more.invoice_setup(**values)]
        numbers = [ambiguity_more.VENDORS[v][2] for v in (values["vendor"], values["decoy_vendor"])]
        about = [m for m in mails if any(n in m["body"] for n in numbers)]
        assert len(about) == 3 and "Reminder" in about[-1]["subject"]
        reminded = values["vendor"] if values["reminded_meant"] else values["decoy_vendor"]
        assert about[-1]["sender"] == ambiguity_more.VENDORS[reminded][0]


@pytest.mark.parametrize("template_id", sorted(TARGETS))
def test_the_reference_asks_before_it_acts(template_id: str) -> None:
    kind = TARGETS[template_id][0]
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
    for near in task.near_misses:
        assert near.calls != task.reference_solution
