"""reasoning.unrecorded_invoices: the missing invoices and their total are recomputed from
the seeded items alone (mail bodies and attachments, the ledger, the scans' drawn
fields), exactly the case's seven; every slip's reply differs from the right one and
fails the checkpoint; the scans hold their facts in pixels only."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from reefbench.benchmark import pixel_images as px
from reefbench.benchmark import v2
from reefbench.benchmark.templates import reasoning_ledger as rl
from reefbench.benchmark.templates import reasoning_ledger_items as ri
from reefbench.benchmark.templates.reasoning import money
from reefbench.envs.services import ServicesEnvironment
from reefbench.envs.services import evaluators as aev
from reefbench.validation.gates import static_problems

VALUES = rl.UNRECORDED_INVOICES.value_records
_NUMBER = re.compile(r"\b[A-Z]{2,3}-\d{4}\b")
_DATED = re.compile(r"(?:date[d:]*|of|Dated)\s+(\d{4}-\d{2}-\d{2})", re.IGNORECASE)
_EUR = re.compile(r"EUR\s+([\d.,]+\d)")


def _seeded(values: dict[str, str]) -> list[tuple[str, dict[str, Any]]]:
    return [(s.action.name, dict(s.action.bound)) for s in rl.reconcile_setup(**values)]


def _euro(text: str) -> float:
    """An amount as written, with a decimal point or a decimal comma."""
    if re.fullmatch(r"[\d.]*\d,\d\d", text):
        return float(text.replace(".", "").replace(",", "."))
    return float(text.replace(",", ""))


def _expected(values: dict[str, str]) -> tuple[set[str], float, set[str]]:
    """(missing numbers, their total less credit notes, every other number named)."""
    seeded = _seeded(values)
    ledger = next(a["content"] for n, a in seeded if n == "add_file")
    in_ledger = {line.split(",")[0] for line in ledger.splitlines()[1:]}
    known: dict[str, tuple[str, float]] = {}
    credits: dict[str, float] = {}
    for name, args in seeded:
        if name == "draw_pixel_images":
            for image in args["images"]:
                known[image["number"]] = (image["date"], float(image["total"]))
        if name != "add_mail" or args["sender"] == values["email"]:
            continue
        text = "\n".join([args["body"], *(args.get("attachments") or {}).values()])
        (number,) = set(_NUMBER.findall(text))
        amount = _euro(_EUR.findall(text)[0])
        if "credit note" in text:
            credits[number] = credits.get(number, 0.0) + amount
            continue
        day = _DATED.search(text)
        assert day is not None, text
        assert known.get(number, (day[1], amount)) == (day[1], amount)  # copies agree
        known[number] = (day[1], amount)
    missing = {n for n, (d, _) in known.items() if d >= "2024-04-01" and n not in in_ledger}
    total = sum(known[n][1] for n in missing) - sum(credits.get(n, 0.0) for n in missing)
    return missing, round(total, 2), (set(known) | in_ledger) - missing


@pytest.mark.parametrize("values", VALUES, ids=ri.CASES)
def test_the_missing_invoices_follow_from_the_seeded_items(values: dict[str, str]) -> None:
    data = ri.ledger_case(values["case"])
    missing, total, others = _expected(values)
    assert missing == {i.number for i in data.missing} and len(missing) == 7
    assert total == data.total
    (check,) = rl.reconcile_checkpoints(**values)
    facts, forbidden = check.bound["facts"], check.bound["forbidden"]
    assert set(facts[:-1]) == missing and float(facts[-1].split("|")[0]) == total
    assert set(forbidden) == others
    # Many items: 15 vendor mails, 8 ledger rows, 3 scans.
    mails = [a for n, a in _seeded(values) if n == "add_mail"]
    assert len(mails) - 1 == 15
    # The look-alike: a ledger number with its last two digits swapped.
    twin = data.ledger_only[0].number
    assert data.lookalike.number == twin[:-2] + twin[-1] + twin[-2] != twin
    # The credited invoice's amount is written with a decimal comma only.
    bodies = " ".join(m["body"] for m in mails)
    assert ri.comma(data.credited.amount) in bodies
    assert money(data.credited.amount) not in bodies
    # The attached and the scanned invoices are in no mail body; the scan is in no mail.
    assert data.attached.number not in bodies
    everything = bodies + " ".join(str(m.get("attachments")) for m in mails)
    assert data.scanned.number not in everything and data.old_scan.number not in everything


@pytest.mark.parametrize("values", VALUES[:3], ids=ri.CASES[:3])
def test_a_scan_is_a_picture_whose_facts_no_name_carries(values: dict[str, str]) -> None:
    data = ri.ledger_case(values["case"])
    ((_, drawn),) = [(n, a) for n, a in _seeded(values) if n == "draw_pixel_images"]
    assert drawn["folder"] == values["scans"]
    names = [image["name"] for image in drawn["images"]]
    assert names == ["scan_0001.png", "scan_0002.png", "scan_0003.png"]
    for image in drawn["images"]:
        picture = px.picture(image)
        assert picture.mode == "RGB" and picture.width > 600
    assert {i["number"] for i in drawn["images"]} == {
        data.recorded[4].number,
        data.scanned.number,
        data.old_scan.number,
    }


def test_every_task_passes_the_static_gates_and_gives_room_to_read() -> None:
    family = next(f for f in v2.families() if f.name == "reasoning")
    (template,) = [t for t in family.templates if t.subtask is rl.UNRECORDED_INVOICES]
    tasks = list(v2.tasks_of(v2.Family(family.name, family.description, (template,))))
    assert len(tasks) >= 8
    for task in tasks:
        assert static_problems(task, v2.POOL) == [], task.id
        assert (task.metadata.step_limit or 0) >= 80 and "tier:hard" in task.metadata.tags
        assert set(task.metadata.environments) == {"browser", "desktop"}


def test_the_near_misses_differ_from_the_reference_and_from_each_other() -> None:
    values = VALUES[0]
    reference = rl.reconcile_solution(**values)
    slips = []
    for near in rl.UNRECORDED_INVOICES.near_misses:
        assert near.solution is not None
        slips.append(near.solution(**values))
    assert len(slips) == 8 and all(s != reference for s in slips)
    assert len({repr(s) for s in slips}) == len(slips)


def test_no_mail_comes_from_after_the_accounts_today() -> None:
    for values in VALUES:
        dates = [a["date"] for n, a in _seeded(values) if n == "add_mail"]
        assert max(dates) <= "2024-06-03T09:00"


# -------------------------------------------------------------- on the account
@pytest.fixture(scope="module")
def services() -> Iterator[ServicesEnvironment]:
    env = ServicesEnvironment()
    env.start()
    yield env
    env.stop()


@pytest.mark.integration
def test_the_checkpoint_fails_each_slip_on_the_seeded_account(
    services: ServicesEnvironment,
) -> None:
    values = VALUES[0]
    data = ri.ledger_case(values["case"])
    (check,) = rl.reconcile_checkpoints(**values)
    check = aev.mail_states(**{k: v for k, v in check.bound.items() if k != "by"})
    subject = f"Re: {values['subject']}"

    def replies(invoices: list[ri.Invoice], total: float) -> bool:
        services.reset()
        for step in rl.reconcile_setup(**values):
            if step.env == "services":
                step.action.run(services)
        body = rl.reply_text(invoices, round(total, 2))
        services.call(
            "add_mail", sender="me", to=values["email"], subject=subject, body=body, folder="sent"
        )
        return check.evaluate(services).success

    right = list(data.missing)
    assert replies(right, data.total)
    assert not replies([*right, data.old_scan], data.total + data.old_scan.amount)
    assert not replies([*right, data.recorded[4]], data.total)
    assert not replies(right, data.total + data.resent.amount)
    assert not replies(right, data.total + data.credit)
    for dropped in (data.only_reminded, data.scanned, data.lookalike):
        rest = [i for i in right if i != dropped]
        assert not replies(rest, data.total - dropped.amount)
