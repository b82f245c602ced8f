"""reef-v2's reasoning family: three hard templates whose answer follows only from many
seeded items together. Every task passes the static gates; the expected answer is
recomputed here from the seeded items themselves (mail bodies, the ledger, the calendar),
exactly one answer is right, the near misses differ from it, and the mail rubric checker
fails on a missing fact, a forbidden one and a wrong subject."""

from __future__ import annotations

import re
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


def test_the_family_has_three_hard_templates_of_five_to_fifteen_tasks() -> None:
    family = _family()
    assert [t.subtask.id for t in family.templates][: len(IDS)] == IDS
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


# ------------------------------------------------------------- reconciliation
_NUMBER = re.compile(r"\b[A-Z]{2,3}-\d{4}\b")
_DATED = re.compile(r"(?:date[d:]*|of)\s+(\d{4}-\d{2}-\d{2})", re.IGNORECASE)
_EUR = re.compile(r"EUR\s+([\d.]+)")


def _expected_reconciliation(values: dict[str, str]) -> tuple[set[str], float, set[str]]:
    """From the seeded mails and ledger alone: (missing numbers, their total, every other
    number the mails or the ledger name)."""
    seeded = _seeded(rs.UNRECORDED_INVOICES, values)
    ledger = next(a["content"] for n, a in seeded if n == "add_file")
    in_ledger = {line.split(",")[0] for line in ledger.splitlines()[1:]}
    mailed: dict[str, tuple[str, float]] = {}
    for name, args in seeded:
        if name != "add_mail" or args["sender"] == values["email"]:
            continue
        text = "\n".join([args["body"], *(args.get("attachments") or {}).values()])
        (number,) = set(_NUMBER.findall(text))
        day = _DATED.search(text)
        assert day is not None, text
        amount = float(_EUR.findall(text)[0])
        assert mailed.get(number, (day[1], amount)) == (day[1], amount)  # reminders agree
        mailed[number] = (day[1], amount)
    missing = {n for n, (d, _) in mailed.items() if d >= "2024-04-01" and n not in in_ledger}
    total = round(sum(mailed[n][1] for n in missing), 2)
    return missing, total, (set(mailed) | in_ledger) - missing


@pytest.mark.parametrize("values", rs.UNRECORDED_INVOICES.value_records, ids=rs.CASES)
def test_the_missing_invoices_follow_from_the_seeded_mails_and_ledger(
    values: dict[str, str],
) -> None:
    missing, total, others = _expected_reconciliation(values)
    data = rs.ledger_case(values["case"])
    assert missing == {i.number for i in data.missing} and len(missing) == 3
    assert total == data.total
    (check,) = rs.reconcile_checkpoints(**values)
    facts, forbidden = check.bound["facts"], check.bound["forbidden"]
    assert set(facts[:-1]) == missing and money_of(facts[-1]) == total
    assert set(forbidden) == others
    # 8 to 14 vendor mails, one of them last quarter's, one a reminder of a missing one.
    mails = [a for n, a in _seeded(rs.UNRECORDED_INVOICES, values) if n == "add_mail"]
    assert 8 <= len(mails) - 1 <= 14
    assert data.last_quarter.day < "2024-04-01" and data.last_quarter.number not in missing
    # ... though its mail arrived this quarter.
    (late,) = (m for m in mails if data.last_quarter.number in m["body"])
    assert late["date"] >= "2024-04-01"
    # One missing invoice is named only in an attached file, never in a mail body.
    bodies = " ".join(a["body"] for a in mails)
    assert data.attached.number not in bodies and money(data.attached.amount) not in bodies
    # Reading it by saving it to Files or by the mail's Download link is no side effect.
    assert rs.reconcile_allowances(**values) == [
        f"account|files:{rs.attachment_name(data.attached).casefold()}",
        "desktop|file:/home/user/Downloads",
    ]


def money(amount: float) -> str:
    return f"{amount:.2f}"


def money_of(fact: str) -> float:
    return float(fact.split("|")[0])


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


def _free_slots(values: dict[str, str], day_out: int) -> list[tuple[int, int]]:
    data = rs.slots_case(values["case"])
    events = [a for n, a in _seeded(rs.MEETING_SLOT, values) if n == "add_event"]
    free = []
    for d, (_, iso) in enumerate(rs.DAYS):
        for t, at in enumerate(rs.TIMES):
            ruled_out = d == day_out or t == data.time_out or (d, t) == data.person_out
            busy = any(e["date"] == iso and _overlaps(e["start"], e["end"], at) for e in events)
            if not ruled_out and not busy:
                free.append((d, t))
    return free


@pytest.mark.parametrize("values", rs.MEETING_SLOT.value_records, ids=rs.CASES)
def test_exactly_one_slot_suits_everyone_and_the_calendar(values: dict[str, str]) -> None:
    data = rs.slots_case(values["case"])
    mails = [a for n, a in _seeded(rs.MEETING_SLOT, values) if n == "add_mail"]
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
    # Reading the first mail instead leaves exactly the outdated near miss's slot.
    assert _free_slots(values, data.answer[0]) == [data.stale]
    assert data.person_out not in data.calendar_out and data.answer not in data.calendar_out
    bodies = " ".join(m["body"] for m in mails)
    assert rs.TIMES[data.time_out] in bodies
    event, reply = rs.slot_checkpoints(**values)
    assert event.bound["date"] == rs.DAYS[data.answer[0]][1]
    assert event.bound["time"] == rs.TIMES[data.answer[1]]
    assert reply.bound["to"] == data.people[2][1] and values["replier"] == data.people[2][0]


# ---------------------------------------------------------------- aggregation
_PAID = re.compile(r"(?:payment of|Amount paid:) EUR ([\d.]+)(?: on (\S+)\.)?")


def _totals_from_mails(
    values: dict[str, str], old: bool = False, refunds: bool = True, copies: bool = False
) -> dict[str, float]:
    totals: dict[str, float] = {}
    seen: set[str] = set()
    for name, args in _seeded(rs.TOP_VENDOR, values):
        if name != "add_mail":
            continue
        body = args["body"]
        vendor = next(v for v in rs.PAYEES if v in body or v in args["subject"])
        amount = float(re.findall(r"EUR ([\d.]+)", body)[0])
        if "refunded" in body:
            totals[vendor] = round(totals.get(vendor, 0.0) - (amount if refunds else 0), 2)
            continue
        (ref,) = set(re.findall(r"PAY-\d+", body + args["subject"]))
        if ref in seen and not copies:
            continue
        seen.add(ref)
        day = re.findall(r"\d{4}-\d{2}-\d{2}", body)[0]
        assert day <= "2024-06-03"
        if old or day >= "2024-04-01":
            totals[vendor] = round(totals.get(vendor, 0.0) + amount, 2)
    return totals


@pytest.mark.parametrize("values", rs.TOP_VENDOR.value_records, ids=rs.CASES)
def test_the_top_vendor_follows_from_the_receipts_and_each_slip_gives_another(
    values: dict[str, str],
) -> None:
    data = rs.payments_case(values["case"])
    right = _totals_from_mails(values)
    ranked = sorted(right.values(), reverse=True)
    assert rs._top(right) == data.winner and ranked[0] - ranked[1] >= 50  # one clear answer
    assert rs._top(_totals_from_mails(values, old=True)) == data.with_old
    assert rs._top(_totals_from_mails(values, refunds=False)) == data.gross
    assert rs._top(_totals_from_mails(values, copies=True)) == data.twice
    in_quarter = [p for p in data.payments if p[1] >= "2024-04-01"]
    assert max(in_quarter, key=lambda p: p[2])[0] == data.biggest
    assert len({data.winner, data.with_old, data.gross, data.biggest, data.twice}) == 5
    (check,) = rs.payments_checkpoints(**values)
    assert check.bound["expected"] == data.winner


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
def test_the_reconciliation_checkpoint_fails_each_slip_on_the_seeded_account(
    services: ServicesEnvironment,
) -> None:
    values = rs.UNRECORDED_INVOICES.value_records[0]
    data = rs.ledger_case(values["case"])
    (check,) = rs.reconcile_checkpoints(**values)
    check = aev.mail_states(**{k: v for k, v in check.bound.items() if k != "by"})
    subject = f"Re: {values['subject']}"

    def replies(invoices: list[rs.Invoice], total: float) -> bool:
        services.reset()
        for step in rs.reconcile_setup(**values):
            step.action.run(services)
        body = rs._reconcile_text(invoices, total)
        services.call(
            "add_mail", sender="me", to=values["email"], subject=subject, body=body, folder="sent"
        )
        return check.evaluate(services).success

    missing = list(data.missing)
    assert replies(missing, data.total)
    assert not replies([*missing, data.last_quarter], data.total + data.last_quarter.amount)
    assert not replies(missing, round(data.total + data.reminded.amount, 2))
    partial = [i for i in missing if i != data.only_reminded]
    assert not replies(partial, round(sum(i.amount for i in partial), 2))
    assert not replies([*missing, data.recorded[1]], data.total)
    assert not replies(missing, round(data.total - data.attached.amount, 2))


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
