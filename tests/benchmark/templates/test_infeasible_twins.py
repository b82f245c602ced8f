"""The signed agreement that may or may not have been signed (reef-v2, infeasible, with
feasible twins): about half the tasks are feasible, one wording serves both kinds, the
mails look alike until read, and the checkpoints and near misses follow the kind (the live
gates play them: `reef suite check --suite v2-dev --tasks v2-infeasible-signed-or-not-*`)."""

from __future__ import annotations

import re

import pytest

from reefbench.benchmark import v2
from reefbench.benchmark.templates import infeasible_twins as it
from reefbench.tasks.task import Task

FAMILY = next(f for f in v2.families() if f.name == "infeasible")
TASKS = [t for t in v2.tasks_of(FAMILY) if "signed-or-not" in t.id]


def _case(task: Task) -> it.Case:
    return it.twin_case(task.metadata.subtasks[0].attributes["case"])


def _mails(task: Task) -> list[dict[str, object]]:
    return [s.action.bound for s in task.setup if getattr(s.action, "name", "") == "add_mail"]


def test_the_pool_gives_both_kinds_about_half_each() -> None:
    kinds = [_case(t).feasible for t in TASKS]
    assert len(TASKS) >= 12 and {t.metadata.tier for t in TASKS} == {"hard"}
    assert abs(kinds.count(True) - kinds.count(False)) <= 1
    # and each kind both ways: said in her later mail, or shown only at the file's foot
    assert {(_case(t).feasible, _case(t).how) for t in TASKS} == {
        (feasible, how) for feasible in (True, False) for how in ("said", "foot")
    }


def test_the_instruction_does_not_depend_on_the_kind() -> None:
    """One form for both kinds: with the values masked, every instruction is the same."""

    def masked(task: Task) -> str:
        text = task.instruction
        attributes = task.metadata.subtasks[0].attributes
        for name in it.SIGNED_OR_NOT.placeholders:  # the case's number is not in it
            text = text.replace(str(attributes[name]), "<>")
        return text

    assert len({masked(t) for t in TASKS}) == 1
    assert len({t.instruction for t in TASKS}) == len(TASKS)
    hints = r"infeasib|impossible|cannot|can't|if (it|this|that|you)|not exist|if possible"
    assert not any(re.search(hints, t.instruction.lower()) for t in TASKS)


@pytest.mark.parametrize("case", it.CASES)
def test_a_glance_does_not_tell_the_kinds_apart(case: str) -> None:
    """Subjects, previews (the list shows a body's first 80 characters), file names and
    the files' first screenful are the kind's twins'; only the later mail's body (said) or
    the final version's foot (foot) differs."""
    c = it.twin_case(case)
    twin = it.Case(**{**c.__dict__, "feasible": not c.feasible})
    body, twin_body = it._final_body(c), it._final_body(twin)
    assert body[:80] == twin_body[:80] and c.final_opening in body[:80]
    assert (body == twin_body) == (c.how == "foot")
    final = it.document_text(c, c.doc, "final", "2024-05-17" if c.feasible else "")
    lines = final.splitlines()
    assert ("SIGNED by" in lines[-1]) == c.feasible
    assert not any(re.search(r"\bsign", line.lower()) for line in lines[:12])
    assert len(lines) >= 20
    for opening in (c.draft_opening, c.other_opening):
        assert len(f"Hi,\n\n{opening}") <= 80
    assert len({c.draft_file, c.final_file, c.other_file}) == 3


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_the_checkpoints_follow_the_kind(task: Task) -> None:
    c = _case(task)
    names = [n.name for n in task.nodes.values()]
    last = task.reference_solution[-1]
    if c.feasible:
        assert names == ["mail_sent"]
        (node,) = task.nodes.values()
        assert node.bound["to"] == c.to and node.bound["attachment"] == c.final_file
        assert (last.name, last.arguments) == ("press", {"key": "Enter"})
    else:
        assert names == ["declared_infeasible", "not_mail_sent"] and len(task.edges) == 1
        assert (last.env, last.name) == ("root", "infeasible")
    # the reference reads both of her mails and the final version before it decides
    clicked = [str(call.arguments.get("name", "")) for call in task.reference_solution]
    assert c.draft_opening in clicked and f"Save {c.final_file} to Files" in clicked
    mails = _mails(task)
    final = next(m for m in mails if m["subject"] == f"Re: {c.subject}")
    attachments = final["attachments"]
    assert isinstance(attachments, dict)
    assert ("SIGNED by" in attachments[c.final_file]) == c.feasible


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_the_near_misses_do_the_nearest_wrong_thing(task: Task) -> None:
    c = _case(task)
    calls = [task.near_miss_solution(n) for n in task.near_misses]
    draft, draft_declared, glance, other = calls
    for forwarded, opening in ((draft, c.draft_opening), (other, c.other_opening)):
        assert forwarded[-1].name == "complete"
        at = [str(x.arguments.get("name")) for x in forwarded].index("Forward")
        assert forwarded[at - 1].arguments["name"] == opening
    assert draft_declared[-1].name == "infeasible"
    assert any(x.name == "press" for x in draft_declared)
    names = [str(x.arguments.get("name", "")) for x in glance]
    if c.feasible:  # declares, having read only the draft's mail
        assert glance[-1].name == "infeasible" and c.final_opening not in names
    else:  # forwards the final version without opening its attachment
        assert glance[-1].name == "complete" and "Forward" in names
        assert not any(n.startswith("Save ") for n in names)
