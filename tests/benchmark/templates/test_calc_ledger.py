"""reef-v2's work-through-the-data Calc templates (bank against ledger, region totals over
a messy register): hard office templates with eight tasks each that pass the static gates,
whose data is too large to eyeball and holds every trap a near miss falls into, and whose
near misses' results differ from the right one."""

from __future__ import annotations

import pytest

from reefbench.benchmark import v2
from reefbench.benchmark.templates import calc_ledger as cl
from reefbench.benchmark.templates import calc_totals as ct
from reefbench.tasks.subtask import SubTask
from reefbench.validation.gates import static_problems

TEMPLATES = [cl.CALC_RECONCILE, ct.CALC_REGION_TOTALS]
IDS = [t.id for t in TEMPLATES]


def _office() -> v2.Family:
    return next(f for f in v2.families() if f.name == "office")


def test_the_templates_are_hard_office_templates_with_room() -> None:
    mine = {t.subtask.id: t for t in _office().templates if t.subtask.id in IDS}
    assert set(mine) == set(IDS)
    assert all(t.tier == "hard" and (t.min_steps or 0) >= 60 for t in mine.values())


@pytest.mark.parametrize("template", TEMPLATES, ids=IDS)
def test_eight_tasks_pass_the_static_gates(template: SubTask) -> None:
    entry = next(t for t in _office().templates if t.subtask is template)
    mine = list(v2.tasks_of(v2.Family("office", "", (entry,))))  # this template's alone
    assert len(mine) >= 8
    assert len({t.instruction for t in mine}) == len(mine)
    for task in mine:
        assert static_problems(task, v2.POOL) == [], task.id


@pytest.mark.parametrize("template", TEMPLATES, ids=IDS)
def test_near_misses_differ_from_the_solution(template: SubTask) -> None:
    for values in template.value_records:
        solution = template.solution_generator(**values)
        assert len(template.near_misses) >= 4
        for near in template.near_misses:
            assert template.near_miss_calls(near, values) != solution, near.label


@pytest.mark.parametrize("record", cl.RECONCILE_RECORDS, ids=range(8))
def test_the_statement_is_long_and_holds_its_look_alikes(record: dict[str, str]) -> None:
    bank, ledger = cl._rows(record["bank"]), cl._rows(record["ledger"])
    missing = cl.missing_rows(record["bank"], record["ledger"])
    assert 110 <= len(bank) <= 145 and 4 <= len(missing) <= 6
    assert len(ledger) == len(bank) - len(missing) + 3  # three cheques only the ledger has
    keys = {(r[0], r[1], r[3]) for r in bank}
    assert len(keys) == len(bank)  # date, payee and amount tell every transaction apart
    amounts = [r[3].lstrip("-") for r in bank]
    twins = [
        m
        for m in missing
        if any(b[1] == m[1] and b[3].lstrip("-") == m[3] for b in bank if b[0] != m[0])
    ]
    assert len(twins) >= 2  # the same payee's same amount on another date
    assert any(amounts.count(m[3]) >= 2 and m not in twins for m in missing)
    # a payment and its refund, both in the ledger
    sides = {(r[1], r[2], r[3]) for r in ledger}
    assert any((p, "Dr", a) in sides for p, side, a in sides if side == "Cr")
    assert ledger != sorted(ledger, key=cl.itemgetter(0))  # not in the bank's order


@pytest.mark.parametrize("record", ct.TOTALS_RECORDS, ids=range(8))
def test_the_register_is_long_and_every_trap_moves_a_total(record: dict[str, str]) -> None:
    shop, web = ct._rows(record["shop"]), ct._rows(record["web"])
    assert 150 <= len(shop) + len(web) <= 250
    assert sum(not r[3] for r in shop) == 1 and all(r[3] for r in web)  # one subtotal line
    args = (record["regions"], record["quarter"], record["rate"], record["shop"], record["web"])
    right = ct.region_totals(*args)
    for flag in ("first_only", "subtotal", "unconverted", "no_returns", "whole_year"):
        wrong = ct.region_totals(*args, **{flag: True})
        assert any(abs(wrong[k] - right[k]) > 0.02 for k in right), flag
