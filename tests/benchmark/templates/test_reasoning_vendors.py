"""reasoning.top_vendor: the vendor paid the most is recomputed from the seeded items
alone (receipt mails, the refund and declined notices, the scans' drawn fields); each
rule of the instruction decides the winner once (every slip gives another vendor), the
scans hold their facts in pixels only, and amounts written with a decimal comma count."""

from __future__ import annotations

import re
from typing import Any

import pytest

from reefbench.benchmark import pixel_images as px
from reefbench.benchmark import v2
from reefbench.benchmark.templates import reasoning_vendors as rv
from reefbench.benchmark.templates.reasoning import PAYEES, money
from reefbench.validation.gates import static_problems

VALUES = rv.TOP_VENDOR.value_records
_EUR = re.compile(r"EUR ([\d.,]+\d)")


def _seeded(values: dict[str, str]) -> list[tuple[str, dict[str, Any]]]:
    return [(s.action.name, dict(s.action.bound)) for s in rv.payments_setup(**values)]


def _euro(text: str) -> float:
    if re.fullmatch(r"[\d.]*\d,\d\d", text):
        return float(text.replace(".", "").replace(",", "."))
    return float(text)


def _totals(
    values: dict[str, str],
    scans: bool = True,
    old: bool = False,
    refunds: bool = True,
    copies: bool = False,
    declined: bool = False,
) -> dict[str, float]:
    """Each vendor's total from the seeded items, under the rules or one slip."""
    items: list[tuple[str, str, str, float, str]] = []  # (kind, vendor, ref, amount, day)
    for name, args in _seeded(values):
        if name == "draw_pixel_images" and scans:
            for i in args["images"]:
                items.append(("paid", i["vendor"], i["reference"], _euro(i["amount"]), i["date"]))
        if name != "add_mail":
            continue
        body = args["body"]
        vendor = next(v for v in PAYEES if v in body or v in args["subject"])
        amount = _euro(_EUR.findall(body)[0])
        (ref,) = set(re.findall(r"(?:PAY|RF)-\d+", body))
        day = re.findall(r"\d{4}-\d{2}-\d{2}", body)[0]
        kind = "refund" if "refunded" in body else "declined" if "declined" in body else "paid"
        items.append((kind, vendor, ref, amount, day))
    totals: dict[str, float] = {}
    seen: set[str] = set()
    for kind, vendor, ref, amount, day in items:
        assert day <= "2024-06-03"
        if kind == "refund":
            amount = -amount if refunds else 0.0
        elif (kind == "declined" and not declined) or (ref in seen and not copies):
            continue
        seen.add(ref)
        if old or day >= "2024-04-01" or kind == "refund":
            totals[vendor] = round(totals.get(vendor, 0.0) + amount, 2)
    return totals


def _top(totals: dict[str, float]) -> str:
    return rv.top(totals)


@pytest.mark.parametrize("values", VALUES, ids=rv.CASES)
def test_the_top_vendor_follows_from_the_items_and_each_slip_gives_another(
    values: dict[str, str],
) -> None:
    data = rv.payments_case(values["case"])
    right = _totals(values)
    ranked = sorted(right.values(), reverse=True)
    assert _top(right) == data.winner and ranked[0] - ranked[1] >= 50  # one clear answer
    assert _top(_totals(values, scans=False)) == data.no_scan
    assert _top(_totals(values, old=True)) == data.with_old
    assert _top(_totals(values, refunds=False)) == data.gross
    assert _top(_totals(values, declined=True)) == data.declined
    # Mailed twice, and one mailed receipt scanned too: either counted twice is a slip.
    assert _top(data.totals(copies=True)) == data.twice
    assert _top(_totals(values, copies=True)) != data.winner
    in_quarter = [p for p in data.payments if p.day >= "2024-04-01"]
    assert max(in_quarter, key=rv.amount_of).vendor == data.biggest
    slips = {data.no_scan, data.with_old, data.gross, data.twice, data.declined, data.biggest}
    assert len(slips | {data.winner}) == 7
    (check,) = rv.payments_checkpoints(**values)
    assert check.bound["expected"] == data.winner


@pytest.mark.parametrize("values", VALUES[:3], ids=rv.CASES[:3])
def test_the_scans_hold_their_facts_in_pixels_only(values: dict[str, str]) -> None:
    data = rv.payments_case(values["case"])
    seeded = _seeded(values)
    ((_, drawn),) = [(n, a) for n, a in seeded if n == "draw_pixel_images"]
    assert drawn["folder"] == values["scans"]
    text = " ".join(f"{a['subject']} {a['body']}" for n, a in seeded if n == "add_mail")
    for image in drawn["images"]:
        assert px.picture(image).width > 600
    for p in data.scanned:
        assert p.ref not in text and money(p.amount) not in text
    assert data.paper_copy.ref in text  # the copy is mailed too
    # One vendor writes amounts with a decimal comma, and only so.
    commas = [m for m in _EUR.findall(text) if re.fullmatch(r"[\d.]*\d,\d\d", m)]
    assert commas


def test_every_task_passes_the_static_gates_and_gives_room_to_read() -> None:
    family = next(f for f in v2.families() if f.name == "reasoning")
    (template,) = [t for t in family.templates if t.subtask is rv.TOP_VENDOR]
    tasks = list(v2.tasks_of(v2.Family(family.name, family.description, (template,))))
    assert len(tasks) >= 8
    for task in tasks:
        assert static_problems(task, v2.POOL) == [], task.id
        assert (task.metadata.step_limit or 0) >= 60 and "tier:hard" in task.metadata.tags
    mails = [a for n, a in _seeded(VALUES[0]) if n == "add_mail"]
    assert len(mails) >= 20 and max(m["date"] for m in mails) <= "2024-06-03T09:00"


def test_the_near_misses_differ_from_the_reference_and_from_each_other() -> None:
    values = VALUES[0]
    reference = rv.payments_solution(**values)
    slips = []
    for near in rv.TOP_VENDOR.near_misses:
        assert near.solution is not None
        slips.append(near.solution(**values))
    assert len(slips) == 6 and all(s != reference for s in slips)
    assert len({repr(s) for s in slips}) == len(slips)
