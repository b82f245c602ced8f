"""reasoning.best_offer: the cheapest supplier is recomputed from the seeded mails and price
lists alone (latest offer per supplier, delivery included, the product's own row); the
traps are in the data (a superseded first quote, a look-alike row and a low unit price
with a dear delivery each look cheapest to a careless reader); near misses differ."""

from __future__ import annotations

import re
from typing import Any

import pytest

from reefbench.benchmark import v2
from reefbench.benchmark.templates import reasoning_offers as ro
from reefbench.tasks.task import Task
from reefbench.validation.gates import static_problems

_EUR = r"EUR\s+([\d.]+)"
VAT = 1.19


def _tasks() -> list[Task]:
    family = next(f for f in v2.families() if f.name == "reasoning")
    template = next(t for t in family.templates if t.subtask.id == ro.BEST_OFFER.id)
    return list(v2.tasks_of(v2.Family(family.name, family.description, (template,))))


def _seeded(values: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(s.action.name, dict(s.action.bound)) for s in ro.offers_setup(**values)]


def _offers(values: dict[str, Any]) -> dict[str, list[tuple[str, str, float, float]]]:
    """supplier -> [(when, item, unit price, delivery)] as the seed states them."""
    product = values["product"]
    out: dict[str, list[tuple[str, str, float, float]]] = {}
    for name, args in _seeded(values):
        if name == "add_file":
            text = args["content"]
            supplier = text.split(" - ")[0]
            fee = re.search(_EUR + " per order", text)
            delivery = float(fee.group(1)) if fee else 0.0
            net = VAT if "including 19% VAT" in text else 1.0
            for line in text.splitlines():
                row = re.match(r"(.+?)\s{2,}([\d.]+)$", line)
                if row:
                    out.setdefault(supplier, []).append(
                        ("0", row.group(1), float(row.group(2)) / net, delivery)
                    )
        elif name == "add_mail":
            body = args["body"]
            supplier = body.rstrip().splitlines()[-1]
            net = VAT if "including 19% VAT" in body else 1.0
            unit = float(re.findall(_EUR + r"(?: per unit| \()", body)[0]) / net
            fee = re.search(_EUR + " per order", body)
            if "terms are unchanged" in body:
                fee_earlier = [o[3] for o in out[supplier]]
                delivery = fee_earlier[0]
            else:
                delivery = float(fee.group(1)) if fee else 0.0
            out.setdefault(supplier, []).append((args["date"], product, unit, delivery))
    return out


@pytest.mark.parametrize("index", range(len(ro.CASES)))
def test_the_answer_follows_from_the_seeded_offers(index: int) -> None:
    values = ro.BEST_OFFER.value_records[index]
    data = ro.offers_case(values["case"])
    offers = _offers(values)
    assert len(offers) == 5
    quantity = values["quantity"]
    totals = {}
    for supplier, rows in offers.items():
        own = sorted(r for r in rows if r[1] == values["product"])
        _, _, unit, delivery = own[-1]  # the latest offer
        totals[supplier] = round(quantity * unit + delivery, 2)
    best = min(totals, key=totals.__getitem__)
    assert best == data.winner
    assert sorted(totals.values())[1] - totals[best] >= 30  # a clear winner
    # Read with VAT, the winner's offer is the dearest.
    assert quantity * data.gross > max(totals.values())
    # Each trap makes another supplier look cheapest.
    first = min(r for r in offers[data.superseded] if r[1] == values["product"])
    assert quantity * first[2] + first[3] < totals[best]
    look = [r for r in offers[data.lookalike_seller] if r[1] == data.lookalike]
    assert look and quantity * look[0][2] + look[0][3] < totals[best]
    units = {s: min(r[2] for r in rows if r[1] == values["product"]) for s, rows in offers.items()}
    latest = {
        s: sorted(r for r in rows if r[1] == values["product"])[-1][2] for s, rows in offers.items()
    }
    assert min(latest, key=latest.__getitem__) == data.delivery_heavy
    assert units[data.superseded] < latest[data.superseded]


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
    assert len(missed) == 4
    assert all(m != answers for m in missed) and len({m[0] for m in missed}) >= 3
