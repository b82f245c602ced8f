"""reef-v2's reasoning family: hard templates whose answer follows only from many seeded
items together (the reconciliation's and the top vendor's tests are in
test_reasoning_ledger.py and test_reasoning_vendors.py). Every task passes the static
gates; the expected slot is recomputed here from the seeded mails and calendar, exactly
one answer is right, the near misses differ from it, and the mail rubric checker fails
on a missing fact, a forbidden one and a wrong subject."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from reefbench.benchmark import v2
from reefbench.benchmark.templates import reasoning as rs
from reefbench.envs.services import ServicesEnvironment
from reefbench.envs.services import evaluators as aev
from reefbench.tasks.task import Task
from reefbench.validation.gates import static_problems

IDS = [t.id for t in rs.TEMPLATES]


def _family() -> v2.Family:
    return next(f for f in v2.families() if f.name == "reasoning")


def _tasks(template_id: str) -> list[Task]:
    family = _family()
    template = next(t for t in family.templates if t.subtask.id == template_id)
    return list(v2.tasks_of(v2.Family(family.name, family.description, (template,))))


def _seeded(template: Any, values: dict[str, str]) -> list[tuple[str, dict[str, Any]]]:
    """(action name, its arguments) of every setup step."""
    return [
        (step.action.name, dict(step.action.bound)) for step in template.setup_generator(**values)
    ]


def test_the_family_has_hard_templates_of_five_to_fifteen_tasks() -> None:
    family = _family()
    assert set(IDS) <= {t.subtask.id for t in family.templates}
    assert {t.tier for t in family.templates} == {"hard"}
    for template_id in IDS:
        assert 5 <= len(_tasks(template_id)) <= 15
    assert set(rs.POOL) <= set(v2.POOL)


@pytest.mark.parametrize("template_id", IDS)
def test_every_task_passes_the_static_gates(template_id: str) -> None:
    for task in _tasks(template_id):
        assert static_problems(task, v2.POOL) == [], task.id
        assert "family:reasoning" in task.metadata.tags and "tier:hard" in task.metadata.tags


@pytest.mark.parametrize("template_id", IDS)
def test_near_misses_differ_from_the_reference(template_id: str) -> None:
    task = _tasks(template_id)[0]
    assert len(task.near_misses) >= 2
    calls = [task.near_miss_solution(n) for n in task.near_misses]
    assert all(c != task.reference_solution for c in calls)
    assert len({repr(c) for c in calls}) == len(calls)


# ------------------------------------------------------------------ money
def test_money_spellings_accept_grouping() -> None:
    assert rs.money_spellings(1234.5).split("|") == [
        "1234.50",
        "1,234.50",
        "1 234.50",
        "1234,50",
        "1.234,50",
        "1234.5",
        "1,234.5",
        "1 234.5",
        "1234,5",
        "1.234,5",
    ]
    assert rs.money_spellings(98.0) == "98.00|98,00"
    assert rs.money_spellings(12.34) == "12.34|12,34"


def test_a_total_written_with_one_decimal_is_that_total_and_no_other() -> None:
    """Playtest H5: "22644.2" for 22644.20 would have failed the reply; whole words keep
    22644.2 from matching 22644.25."""
    from reefbench.envs.services.evaluators import _has

    spellings = rs.money_spellings(22644.2).split("|")
    assert any(_has("The total is 22644.2 after rev2.", s) for s in spellings)
    assert any(_has("Total: EUR 22,644.2", s) for s in spellings)
    assert not any(_has("The total is 22644.25.", s) for s in spellings)
    assert not any(_has("The total is 122644.2.", s) for s in spellings)


def test_a_start_time_may_be_written_the_usual_ways() -> None:
    said = rs.SPOKEN_TIME["14:00"].split("|")
    assert {"14:00", "2 pm", "2pm", "2:00 pm", "2 p.m", "14.00"} <= set(said)
    assert not any(s.startswith(("10", "4", "16")) for s in said)


# ----------------------------------------------------------------- scheduling
def _overlaps(start: str, end: str, slot: str) -> bool:
    slot_end = rs._shift(slot, 60)
    return start < slot_end and slot < end


def _free_slots(
    values: dict[str, str], day_out: int, mornings: bool = True
) -> list[tuple[int, int]]:
    """The slots nobody's mail and no seeded event rules out, the first person out
    ``day_out`` (the fourth person's mail overlooked unless ``mornings``)."""
    data = rs.slots_case(values["case"])
    events = [a for n, a in _seeded(rs.MEETING_SLOT, values) if n == "add_event"]
    free = []
    for d, (_, iso) in enumerate(rs.DAYS):
        for t, at in enumerate(rs.TIMES):
            ruled_out = (
                d == day_out
                or t == data.time_out
                or (d, t) in (data.person_out, *data.two_out)
                or (mornings and d == data.morning_day and t in rs.MORNING)
            )
            busy = any(e["date"] == iso and _overlaps(e["start"], e["end"], at) for e in events)
            if not ruled_out and not busy:
                free.append((d, t))
    return free


@pytest.mark.parametrize("values", rs.MEETING_SLOT.value_records, ids=rs.CASES)
def test_exactly_one_slot_suits_everyone_and_the_calendar(values: dict[str, str]) -> None:
    data = rs.slots_case(values["case"])
    mails = [a for n, a in _seeded(rs.MEETING_SLOT, values) if n == "add_mail"]
    assert len(mails) == 6 and len({m["sender"] for m in mails}) == 5
    # The first colleague wrote twice: the correction (later) names the day that counts.
    first, correction = (m for m in mails if m["sender"] == data.people[0][1])
    assert first["date"] < correction["date"]
    day_named = [
        d for d, (name, _) in enumerate(rs.DAYS) if f"out all day on {name}" in correction["body"]
    ]
    stale_named = [
        d for d, (name, _) in enumerate(rs.DAYS) if f"all day on {name}" in first["body"]
    ]
    assert day_named == [data.day_out] and stale_named == [data.answer[0]]
    assert _free_slots(values, data.day_out) == [data.answer]
    # Each slip leaves exactly its near miss's slot (or adds it).
    assert _free_slots(values, data.answer[0]) == [data.stale]
    overlooked = set(_free_slots(values, data.day_out, mornings=False))
    assert {data.answer, data.morning_only} <= overlooked
    assert all(s == data.answer or s[0] == data.morning_day for s in overlooked)
    assert len(data.calendar_out) <= len(rs.CLASHES)
    bodies = " ".join(m["body"] for m in mails)
    assert rs.TIMES[data.time_out] in bodies and rs._slot_words(data.person_out) in bodies
    assert all(rs._slot_words(s) in bodies for s in data.two_out)
    # The calendar near miss's slot is ruled out by the calendar alone.
    clash = data.calendar_out[0]
    assert clash not in data.ruled_out(data.day_out) - set(data.calendar_out)
    assert clash not in _free_slots(values, data.day_out)
    events = [a for n, a in _seeded(rs.MEETING_SLOT, values) if n == "add_event"]
    assert len(events) >= 8
    event, reply = rs.slot_checkpoints(**values)
    assert event.bound["date"] == rs.DAYS[data.answer[0]][1]
    assert event.bound["time"] == rs.TIMES[data.answer[1]]
    assert reply.bound["to"] == data.people[2][1] and values["replier"] == data.people[2][0]


# -------------------------------------------------------- the rubric checker
@pytest.fixture(scope="module")
def services() -> Iterator[ServicesEnvironment]:
    env = ServicesEnvironment()
    env.start()
    yield env
    env.stop()


@pytest.mark.integration
def test_mail_states_requires_every_fact_and_no_forbidden_one(
    services: ServicesEnvironment,
) -> None:
    services.reset()
    check = aev.mail_states(
        to="acc@x.test", subject="Re: Q2", facts=["NBS-1001", "12.50|1,2.50"], forbidden=["CP-2002"]
    )
    assert not check.evaluate(services).success

    def sent(subject: str, body: str) -> bool:
        services.reset()
        services.call(
            "add_mail", sender="me", to="acc@x.test", subject=subject, body=body, folder="sent"
        )
        return check.evaluate(services).success

    assert sent("Re: Q2", "Missing: NBS-1001, total EUR 12.50")
    assert not sent("Re: Q2", "Missing: NBS-1001")  # no total
    assert not sent("Re: Q2", "Missing: NBS-1001, CP-2002, total EUR 12.50")  # a decoy
    assert not sent("Q2", "Missing: NBS-1001, total EUR 12.50")  # not the reply's subject
    assert not sent("Re: Q2", "Missing: NBS-10011, total EUR 112.50")  # whole words only


@pytest.mark.integration
def test_the_slot_checkpoints_pass_only_the_right_slot_on_the_seeded_account(
    services: ServicesEnvironment,
) -> None:
    values = rs.MEETING_SLOT.value_records[0]
    data = rs.slots_case(values["case"])
    placed, replied = rs.slot_checkpoints(**values)  # made by anyone here, not the browser
    event = aev.event_exists(**{k: v for k, v in placed.bound.items() if k != "by"})
    reply = aev.mail_states(**{k: v for k, v in replied.bound.items() if k != "by"})

    def books(slot: tuple[int, int], said: str) -> bool:
        services.reset()
        for step in rs.slot_setup(**values):
            step.action.run(services)
        day, time = rs.DAYS[slot[0]][1], rs.TIMES[slot[1]]
        services.call("add_event", title=values["title"], date=day, start=time)
        services.call(
            "add_mail",
            sender="me",
            to=data.people[2][1],
            subject=f"Re: {rs.TOPIC}",
            body=said,
            folder="sent",
        )
        return event.evaluate(services).success and reply.evaluate(services).success

    name, at = rs.DAYS[data.answer[0]][0], rs.TIMES[data.answer[1]]
    hour, half = int(at[:2]) % 12 or 12, "a.m." if at < "12" else "p.m."
    assert books(data.answer, f"Let's do {name} at {at}.")
    assert books(data.answer, f"See you {name}, {hour} {half}")
    assert not books(data.answer, f"Let's do {name}.")  # no time in the reply
    assert not books(data.stale, f"Let's do {name} at {at}.")  # the event at another slot


def test_no_seeded_mail_comes_from_after_the_accounts_today() -> None:
    """A playtest saw the colleagues' replies dated after the clock's 2024-06-03 09:00."""
    for template in rs.TEMPLATES:
        for values in template.value_records:
            dates = [a["date"] for n, a in _seeded(template, values) if n == "add_mail"]
            assert dates and max(dates) <= "2024-06-03T09:00", (template.id, max(dates))
