"""reasoning.best_offer: the cheapest supplier is recomputed from the seeded mails, their
attachments and the price lists alone (latest offer per supplier, the product's own row,
VAT taken off, a quantity price only from its threshold, delivery per order or per lot
of 10, a small-order fee below its minimum); the runner-up is a few euros dearer and
each trap, misread, makes another supplier look cheapest; near misses differ."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest

from reefbench.benchmark import v2
from reefbench.benchmark.templates import reasoning_offers as ro
from reefbench.tasks.task import Task
from reefbench.validation.gates import static_problems

VAT = 1.19


def _tasks() -> list[Task]:
    family = next(f for f in v2.families() if f.name == "reasoning")
    template = next(t for t in family.templates if t.subtask.id == ro.BEST_OFFER.id)
    return list(v2.tasks_of(v2.Family(family.name, family.description, (template,))))


def _seeded(values: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(s.action.name, dict(s.action.bound)) for s in ro.offers_setup(**values)]


def _eur(pattern: str, text: str) -> float | None:
    found = re.search(pattern.replace("EUR", r"EUR (\d+\.\d\d)"), text)
    return float(found.group(1)) if found else None


def _total(text: str, unit: float, quantity: int, product: str, misread: str = "") -> float:
    """What ``quantity`` units cost by the terms in ``text`` (a slip when misread)."""
    if "including 19% VAT" in text and misread != "vat":
        unit /= VAT
    tier = re.search(
        rf"For orders of (\d+) units or more of the {product}, its unit price "
        r"is EUR (\d+\.\d\d)",
        text,
    )
    if tier and (quantity >= int(tier.group(1)) or misread == "tier"):
        unit = float(tier.group(2))
    goods = quantity * unit
    cost = goods + (_eur("EUR per order", text) or 0.0)
    lot = _eur("EUR per lot of 10 units", text)
    if lot:
        cost += lot * (1 if misread == "lot" else math.ceil(quantity / 10))
    minimum = re.search(
        r"below EUR (\d+\.\d\d) \(without VAT\) carry a small-order fee of "
        r"EUR (\d+\.\d\d)",
        text,
    )
    if minimum and goods < float(minimum.group(1)) and misread != "fee":
        cost += float(minimum.group(2))
    return round(cost, 2)


def _offers(values: dict[str, Any]) -> dict[str, list[tuple[str, str, str, float]]]:
    """supplier -> [(when, text of the terms, item, its stated unit price)]."""
    out: dict[str, list[tuple[str, str, str, float]]] = {}
    terms: dict[str, str] = {}
    for name, args in sorted(_seeded(values), key=lambda s: s[1].get("date", "")):
        if name == "add_file":
            text = args["content"]
            supplier = text.split(" - ")[0]
            for line in text.splitlines():
                row = re.match(r"(.+?)\s{2,}([\d.]+)$", line)
                if row:
                    out.setdefault(supplier, []).append(
                        ("0", text, row.group(1), float(row.group(2)))
                    )
            continue
        text = args["body"] + "".join((args.get("attachments") or {}).values())
        supplier = args["body"].rstrip().splitlines()[-1]
        if "terms are unchanged" in text:
            text = terms[supplier] + text
        terms[supplier] = text
        unit = _eur(r"EUR(?: per unit| \()", text.split("Hello again")[-1])
        assert unit is not None
        out.setdefault(supplier, []).append((args["date"], text, values["product"], unit))
    return out


def _totals(values: dict[str, Any], misread: str = "", latest: bool = True) -> dict[str, float]:
    quantity, product = values["quantity"], values["product"]
    totals = {}
    for supplier, rows in _offers(values).items():
        own = sorted(r for r in rows if r[2] == product)
        _, text, _, unit = own[-1] if latest else own[0]
        totals[supplier] = _total(text, unit, quantity, product, misread)
    return totals


@pytest.mark.parametrize("index", range(len(ro.CASES)))
def test_the_answer_follows_from_the_seeded_offers(index: int) -> None:
    values = ro.BEST_OFFER.value_records[index]
    data = ro.offers_case(values["case"])
    totals = _totals(values)
    assert len(totals) == 7
    ranked = sorted(totals, key=totals.__getitem__)
    assert ranked[:2] == [data.winner, data.runner_up]
    assert 2 <= totals[data.runner_up] - totals[data.winner] <= 7  # close: reckon right
    assert totals[ranked[2]] - totals[data.runner_up] >= 8
    # Each slip makes another supplier look cheapest.
    for misread, supplier in (
        ("vat", data.runner_up),
        ("tier", data.tiered),
        ("lot", data.per_lot),
        ("fee", data.small_order),
    ):
        slipped = _totals(values, misread)
        assert min(slipped, key=slipped.__getitem__) == supplier, misread
    first = _totals(values, latest=False)
    assert min(first, key=first.__getitem__) == data.superseded
    rows = _offers(values)[data.lookalike_seller]
    look = next(r for r in rows if r[2] == data.lookalike)
    assert _total(look[1], look[3], values["quantity"], data.lookalike) < totals[data.winner]
    # The winner's offer is only in an attachment; no body fits the list's preview.
    for name, args in _seeded(values):
        if name == "add_mail":
            assert "EUR" not in args["body"][:80]
            if ro.attachment_name(data.winner) in (args.get("attachments") or {}):
                assert "EUR" not in args["body"]


def test_tasks_differ_and_pass_the_static_gates() -> None:
    tasks = _tasks()
    assert 10 <= len(tasks) <= 15
    for task in tasks:
        assert static_problems(task, v2.POOL) == [], task.id
        assert (task.metadata.step_limit or 0) >= 2 * len(task.reference_solution)
    winners = [ro.offers_case(c).winner for c in ro.CASES]
    assert len(set(winners)) >= 5
    assert len({(r["product"], r["quantity"]) for r in ro.BEST_OFFER.value_records}) >= 10


def test_near_misses_differ_from_the_reference() -> None:
    task = _tasks()[0]
    answers = [c.arguments["answer"] for c in task.reference_solution if c.name == "submit"]
    missed = [
        [c.arguments["answer"] for c in task.near_miss_solution(n) if c.name == "submit"]
        for n in task.near_misses
    ]
    assert len(missed) == 6
    assert all(m != answers for m in missed) and len({m[0] for m in missed}) == 6
