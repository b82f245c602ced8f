"""The signed purchase order that was never signed (reef-v2, infeasible): the orders'
files say which are signed only at their foot, no order of the buyer's is both signed and
for the month, and each near miss forwards one of the nearest feasible orders."""

from __future__ import annotations

import pytest

from reefbench.benchmark import v2
from reefbench.benchmark.templates import infeasible_more as im
from reefbench.tasks.task import Task

FAMILY = next(f for f in v2.families() if f.name == "infeasible")
TASKS = [t for t in v2.tasks_of(FAMILY) if "signed-purchase-order" in t.id]


def _orders(c: im.Case) -> list[im.Order]:
    return [c.earlier, c.unsigned, c.revised, c.ahead, c.decoy]


def test_the_template_gives_at_least_eight_hard_tasks() -> None:
    assert len(TASKS) >= 8
    assert {t.metadata.tier for t in TASKS} == {"hard"}
    assert len({t.instruction for t in TASKS}) == len(TASKS)


@pytest.mark.parametrize("case", im.CASES)
def test_no_order_of_the_buyer_is_both_signed_and_for_the_month(case: str) -> None:
    c = im.po_case(case)
    mine = [o for o in _orders(c) if o.sender == c.address]
    assert len(mine) == 4
    assert not [o for o in mine if o.signed and o.month == c.month]
    # what makes each plausible: signed (another month), the month (unsigned), issued in it
    assert c.earlier.signed and c.earlier.month == c.month - 1
    assert not c.unsigned.signed and not c.revised.signed
    assert c.ahead.signed and c.ahead.issued.startswith(f"2024-{c.month:02d}")
    # the look-alike's is signed and for the month, from an address one letter away
    assert c.decoy.signed and c.decoy.month == c.month and c.decoy.sender != c.address
    assert c.lookalike_address.split("@")[0].startswith(c.address.split("@")[0][:4])
    assert len({o.file for o in _orders(c)}) == 5


@pytest.mark.parametrize("case", im.CASES)
def test_the_signature_is_only_at_the_foot_of_the_file(case: str) -> None:
    """The files' view shows twelve lines: the signature line is below them, and neither
    the mail's subject nor its body says whether the order is signed."""
    c = im.po_case(case)
    for order in _orders(c):
        lines = im.po_text(c, order, c.buyer).splitlines()
        at = next(i for i, line in enumerate(lines) if line.startswith("Signature:"))
        assert at >= 20 and at == len(lines) - 1
        assert ("SIGNED by" in lines[at]) == order.signed
        assert "sign" not in order.subject.lower()
    setup = " ".join(str(s.action.bound) for s in TASKS[0].setup)
    assert "signature pending" not in setup.split("attachments")[0].lower()


@pytest.mark.parametrize("task", TASKS[:3], ids=lambda t: t.id)
def test_the_near_misses_forward_the_nearest_orders(task: Task) -> None:
    c = im.po_case(task.id.rsplit("-", 1)[1])  # the records are taken in order
    forwarded = []
    for near in task.near_misses:
        calls = task.near_miss_solution(near)
        assert any(call.name == "press" and call.arguments["key"] == "Enter" for call in calls)
        names = [str(call.arguments.get("name", "")) for call in calls]
        forwarded.append(next(n for n in names if n.startswith("Save ")))
    files = [f"Save {o.file} to Files" for o in (c.revised, c.revised, c.earlier, c.ahead, c.decoy)]
    assert forwarded == files
    assert [n.calls[-1].name for n in task.near_misses][:2] == ["complete", "infeasible"]
    assert not any(call.name == "press" for call in task.reference_solution)
