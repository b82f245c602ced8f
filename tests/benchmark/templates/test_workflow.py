"""reef-v2's long workflows (templates/workflow*.py): five templates of eight tasks whose
checkpoints form a chain of four, every task passing the static gates with a step budget
of at least twice its reference; the content each step needs is recomputed here from the
seeded items themselves (the itemised invoice, the replies, the schedule change, the
order list, the replies file), and every slip gives another answer. On a real account,
the checkpoints accept a right result in the usual spellings and refuse the slips, and a
text sent to a contact by name is no side effect."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from datetime import date as Date
from typing import Any

import networkx as nx
import pytest

from reefbench.benchmark import v2
from reefbench.benchmark.templates import workflow as wf
from reefbench.benchmark.templates import workflow_handover as wh
from reefbench.benchmark.templates import workflow_invoice as wi
from reefbench.benchmark.templates import workflow_lunch as wl
from reefbench.benchmark.templates import workflow_minutes as wmi
from reefbench.benchmark.templates import workflow_money as wm
from reefbench.benchmark.templates import workflow_plans as wp
from reefbench.benchmark.templates import workflow_trip as wt
from reefbench.benchmark.templates.reasoning import money
from reefbench.envs.browser.page_marks import TEXT_ITEM_CAP
from reefbench.envs.services import ServicesEnvironment
from reefbench.tasks.sideeffects import allowed_keys, side_effects
from reefbench.tasks.task import Task
from reefbench.validation.gates import static_problems

TEMPLATES = [*wm.TEMPLATES, *wp.TEMPLATES]
IDS = [t.id for t in TEMPLATES]


def _family() -> v2.Family:
    return next(f for f in v2.families() if f.name == "workflow")


def _tasks(template_id: str) -> list[Task]:
    family = _family()
    template = next(t for t in family.templates if t.subtask.id == template_id)
    return list(v2.tasks_of(v2.Family(family.name, family.description, (template,))))


def _seeded(template: Any, values: dict[str, str]) -> list[tuple[str, dict[str, Any]]]:
    return [
        (step.action.name, dict(step.action.bound)) for step in template.setup_generator(**values)
    ]


def _file(seeded: list[tuple[str, dict[str, Any]]], path: str) -> str:
    return str(next(a["content"] for n, a in seeded if n == "add_file" and a["path"] == path))


def test_the_family_has_five_templates_giving_forty_tasks() -> None:
    family = _family()
    assert [t.subtask.id for t in family.templates] == IDS
    assert sum(len(_tasks(i)) for i in IDS) == 40
    assert set(IDS) <= set(v2.pool())


@pytest.mark.parametrize("template_id", IDS)
def test_every_task_is_a_chain_of_four_checkpoints_within_a_roomy_budget(
    template_id: str,
) -> None:
    for task in _tasks(template_id):
        assert static_problems(task, v2.POOL) == [], task.id
        dag = task.evaluator_graph
        assert len(dag) == 4 and nx.is_directed_acyclic_graph(dag)
        assert nx.dag_longest_path_length(dag) == 3, task.id  # a chain, one node a step
        assert (task.metadata.step_limit or 0) >= 2 * len(task.reference_solution)
        assert "cross-device" in task.metadata.tags


@pytest.mark.parametrize("template_id", IDS)
def test_near_misses_differ_and_one_stops_short(template_id: str) -> None:
    task = _tasks(template_id)[0]
    calls = [task.near_miss_solution(n) for n in task.near_misses]
    assert len(calls) >= 3 and all(c != task.reference_solution for c in calls)
    assert len({repr(c) for c in calls}) == len(calls)
    short = [n for n in task.near_misses if n.label.startswith("stops")]
    assert len(short) == 1 and len(short[0].calls) < len(task.reference_solution)


def test_no_seeded_mail_comes_from_after_the_accounts_today() -> None:
    for template in TEMPLATES:
        for values in template.value_records:
            for name, args in _seeded(template, values):
                if name == "add_mail":
                    assert args["date"] < "2024-06-03T09:00", (template.id, args["subject"])


# ------------------------------------------------------------------ the content
def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


@pytest.mark.parametrize("values", wi.INVOICE_REVIEW.value_records)
def test_the_invoice_figures_follow_from_the_seeded_files(values: dict[str, str]) -> None:
    data = wi.review_case(values["case"])
    seeded = _seeded(wi.INVOICE_REVIEW, values)
    lines = {
        r["item"]: int(r["quantity"]) * float(r["unit_price_eur"])
        for r in _rows(_file(seeded, data.may_file))
    }
    assert round(sum(lines.values()), 2) == data.may.total != data.april.total
    assert max(lines, key=lines.__getitem__) == data.may.top_line != data.may.top_unit
    approvers = _file(seeded, wi.APPROVERS_FILE)
    # The list names the approver's role only; their contact's note alone says who.
    role = data.roles[0]
    assert f"{data.vendor}: {role}\n" in approvers and approvers.count(f": {role}\n") == 1
    assert data.approver not in approvers and data.other_approver not in approvers
    notes = {a["name"]: a["notes"] for n, a in seeded if n == "add_contact"}
    assert notes == {data.approver: role, data.other_approver: data.roles[1]}
    assert f": {data.roles[1]}\n" in approvers  # another vendor's approver, in Contacts too
    mail = next(a for n, a in seeded if n == "add_mail" and data.may.number in a["subject"])
    assert f"{data.terms} days" in mail["body"] and data.may.day in mail["body"]
    assert "next business day" in mail["body"]
    # The plain due date is a weekend day; the terms move it to the Monday after.
    plain, due = Date.fromisoformat(data.plain_due), Date.fromisoformat(data.due)
    assert plain.weekday() >= 5 and due.weekday() == 0 and 0 < (due - plain).days <= 2
    # The invoice is longer than the Files page shows unscrolled, yet the element list's
    # texts give it whole; the lines shown alone total something else.
    content = _file(seeded, data.may_file)
    assert content.count("\n") > wi.SHOWN_ROWS and len(content) <= TEXT_ITEM_CAP
    shown = sum(q * p for _, q, p in data.may.lines[: wi.SHOWN_ROWS - 1])
    assert round(shown, 2) != data.may.total


@pytest.mark.parametrize("values", wl.LUNCH_ORDER.value_records)
def test_the_head_count_follows_from_each_persons_latest_reply(values: dict[str, str]) -> None:
    data = wl.lunch_case(values["case"])
    latest: dict[str, str] = {}
    guests = []
    mails = sorted(
        (a for n, a in _seeded(wl.LUNCH_ORDER, values) if n == "add_mail"),
        key=lambda a: a["date"],
    )
    for args in mails:
        if args["subject"] == "Re: Team lunch on Friday":
            body = args["body"]
            said_for = re.search(r"(\w+) is out of office .* asked me to tell you", body)
            person = said_for.group(1) if said_for else body.rsplit("\n", 1)[1]
            latest[person] = body
            brings = re.search(r"I'd like to bring (\w+) ", body)
            guests += [brings.group(1)] if brings else []
    coming = {p for p, body in latest.items() if "can't" not in body and "skip" not in body}
    coming = {p for p in coming if "won't" not in latest[p]}
    assert coming | {data.organiser[0].split()[0], *guests} == set(data.coming)
    assert data.dropped not in data.coming and data.joined in data.coming
    assert data.behalf in data.coming and guests == [data.guest.split()[0]]
    assert data.price > data.old_price
    assert len({data.old_time, data.quoted_time, data.time}) == 3
    # The replies' answers are below the inbox's 80-character preview.
    for m in mails:
        if m["subject"] == "Re: Team lunch on Friday":
            hi, opener, *_ = m["body"].split("\n\n")
            assert opener in wl.OPENERS and len(f"{hi}\n\n{opener}") >= 80
    # The delivery time asked for in reply, accepted in the caterer's later mail; the last
    # mail is a reminder with the price per person only.
    assert mails[-1]["subject"] == wl.reminder_subject()
    accepted = mails[-2]
    assert accepted["sender"] == data.caterer[1] and data.time in accepted["body"]
    assert data.quoted_time not in accepted["body"] and "EUR" not in accepted["body"]
    assert f"EUR {wl.money(data.fee)}" not in mails[-1]["body"]
    quote = next(a["body"] for a in mails if a["subject"] == data.quote_subject)
    assert f"EUR {wl.money(data.fee)} per order" in quote
    # The organiser names the payer by role, which only the payer's contact note has; a
    # former holder's note names it too.
    role = data.roles[0][1]
    invitation = next(a["body"] for a in mails if a["subject"] == "Team lunch on Friday")
    assert f"our {role.lower()} pays" in invitation and data.payer not in invitation
    notes = {
        a["name"]: a["notes"] for n, a in _seeded(wl.LUNCH_ORDER, values) if n == "add_contact"
    }
    assert notes[data.payer] == role and list(notes.values()).count(role) == 1
    assert role.lower() in notes[data.former].lower() and "Former" in notes[data.former]


@pytest.mark.parametrize("values", wt.TRIP_PICKUP.value_records)
def test_the_flight_times_are_the_latest_mails(values: dict[str, str]) -> None:
    data = wt.trip_case(values["case"])
    mails = sorted(
        (a for n, a in _seeded(wt.TRIP_PICKUP, values) if n == "add_mail"),
        key=lambda a: a["date"],
    )
    change = mails[-1]["body"]
    assert f"departs {data.new[0]}" in change and f"{data.city} {data.new[1]}" in change
    first = next(a["body"] for a in mails if a["subject"].startswith("Schedule change"))
    assert f"departs {data.mid[0]}" in first and f"{data.city} {data.mid[1]}" in first
    assert len({data.old, data.mid, data.new}) == 3 and data.driver[1] in mails[1]["body"]
    # The host's later mail hands the pickup to another driver, with their number.
    later = next(a["body"] for a in mails if a["subject"] == f"Re: {data.host_subject}")
    assert data.relief != data.driver and data.relief[1] in later
    assert data.relief[1] not in mails[1]["body"]
    assert len({data.old[1], data.mid[1], data.new[1]}) == 3


@pytest.mark.parametrize("values", wh.SUPPLIER_HANDOVER.value_records)
def test_the_open_orders_follow_from_the_seeded_list(values: dict[str, str]) -> None:
    data = wh.handover_case(values["case"])
    seeded = _seeded(wh.SUPPLIER_HANDOVER, values)
    content = _file(seeded, wh.ORDERS_FILE)
    rows = _rows(content)
    assert len(rows) > 12 and len(content) <= TEXT_ITEM_CAP  # scrolls; listed whole
    open_ = [r for r in rows if r["vendor"] == data.vendor and r["status"] == "open"]
    assert len(open_) == 4 and len({r["po"] for r in rows}) == len(rows)
    assert round(sum(float(r["amount_eur"]) for r in open_), 2) == data.total
    assert max(open_, key=lambda r: float(r["amount_eur"]))["po"] == data.largest
    assert data.direct != data.switchboard
    # Both offered times are partly busy: only the second fits the 30-minute call.
    busy = {(a["date"], a["start"], a["end"]) for n, a in seeded if n == "add_event"}
    (d1, t1), (d2, t2) = data.slots
    assert busy == {
        (d1, wf.shift(t1, 15), wf.shift(t1, 75)),
        (d2, wf.shift(t2, 30), wf.shift(t2, 90)),
    }


@pytest.mark.parametrize("values", wmi.MINUTES_FOLLOW_UP.value_records)
def test_the_minutes_items_follow_from_the_seeded_files(values: dict[str, str]) -> None:
    data = wmi.minutes_case(values["case"])
    seeded = _seeded(wmi.MINUTES_FOLLOW_UP, values)
    replies = _file(seeded, "Events/offsite-replies.txt")
    assert replies.count(": yes\n") == data.confirmed
    # Longer than the page shows unscrolled, listed whole; the visible yeses undercount.
    assert replies.count("\n") > wmi.SHOWN_ROWS and len(replies) <= TEXT_ITEM_CAP
    shown = "\n".join(replies.split("\n")[: wmi.SHOWN_ROWS])
    assert shown.count(": yes") < data.confirmed
    assert data.maybes > 0
    rev1, rev2 = (
        sum(float(r["amount_eur"]) for r in _rows(_file(seeded, f"Budget/budget-rev{n}.csv")))
        for n in (1, 2)
    )
    assert round(rev1, 2) != round(rev2, 2)
    assert (data.next_sync, data.report_due) == ("2024-06-10", "2024-06-07")
    assert Date.fromisoformat(data.day_before).weekday() == 6  # the day before: a Sunday
    sync = next(a for n, a in seeded if n == "add_event")
    assert (sync["start"], sync["end"]) == (data.time, data.end) and data.length != 60


def test_times_and_amounts_may_be_written_the_usual_ways() -> None:
    assert {"14:30", "14.30", "2:30 pm", "2.30pm", "2:30 p.m"} <= set(wf.time_spellings("14:30"))
    assert {"9 am", "9am", "09:00"} <= set(wf.time_spellings("09:00"))
    assert "9" not in wf.time_spellings("09:00")  # a bare hour would match any 9
    assert {"1234.50", "1,234.50"} <= set(wf.amount_spellings(1234.5))


# ------------------------------------------------------------ on a real account
@pytest.fixture(scope="module")
def services() -> Iterator[ServicesEnvironment]:
    env = ServicesEnvironment()
    env.start()
    yield env
    env.stop()


def _seed(services: ServicesEnvironment, template: Any, values: dict[str, str]) -> None:
    services.reset()
    for step in template.setup_generator(**values):
        step.action.run(services)


@pytest.mark.integration
def test_a_text_checkpoint_takes_any_spelling_of_the_right_total_only(
    services: ServicesEnvironment,
) -> None:
    values = wi.INVOICE_REVIEW.value_records[0]
    data = wi.review_case(values["case"])
    check = wi.review_checkpoints(**values)[1]

    def texts(body: str, to: str = data.approver) -> bool:
        _seed(services, wi.INVOICE_REVIEW, values)
        services.call("add_message", contact=to, text=body, direction="out")
        # The checkpoint asks for the phone: the account's change log names the client.
        return any(c.evaluate(services).success for c in _unattributed(check))

    grouped = f"{data.may.total:,.2f}"
    assert texts(f"Total EUR {money(data.may.total)}")
    assert texts(f"It comes to €{grouped}.")
    assert not texts(f"Total EUR {money(data.april.total)}")  # last month's
    assert not texts(f"Total EUR {money(data.may.total)}", to=data.other_approver)


def _unattributed(check: Any) -> list[Any]:
    """The message checks inside ``check`` (one per spelling), without their ``by``."""
    from reefbench.envs.services import evaluators as aev

    found: list[Any] = []
    todo = [check]
    while todo:
        ev = todo.pop()
        parts = getattr(ev, "parts", ())
        if parts:
            todo.extend(parts)
        elif ev.name == "message_sent":
            found.append(aev.message_sent(**{k: v for k, v in ev.bound.items() if k != "by"}))
    return found


@pytest.mark.integration
@pytest.mark.parametrize("template", [wi.INVOICE_REVIEW, wl.LUNCH_ORDER, wmi.MINUTES_FOLLOW_UP])
def test_a_text_to_a_contact_by_name_is_no_side_effect(
    services: ServicesEnvironment, template: Any
) -> None:
    """The messages app keys a text by the number the name resolves to: the template's
    allowances must cover it, or the right text fails the task as a side effect."""
    values = template.value_records[0]
    task = _tasks(template.id)[0]
    assert task.metadata.subtasks[0].attributes == values
    to = {
        wi.INVOICE_REVIEW.id: lambda: wi.review_case(values["case"]).approver,
        wl.LUNCH_ORDER.id: lambda: wl.lunch_case(values["case"]).payer,
        wmi.MINUTES_FOLLOW_UP.id: lambda: wmi.minutes_case(values["case"]).colleague,
    }[template.id]()
    _seed(services, template, values)
    before = services.on_state_snapshot()
    services.call("add_message", contact=to, text="EUR 12.00", direction="out")
    changes = services.on_state_changes(before)
    assert changes and side_effects([("services", c) for c in changes], allowed_keys(task)) == []
