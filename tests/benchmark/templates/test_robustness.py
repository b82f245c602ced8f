"""reef-v2's robustness templates without a desktop: every value record gives a task whose
odd state matters (the filter hides rows whose amounts change the total, the old name is
not inside the new one, the unsaved lines are new), and each template is in the family."""

from __future__ import annotations

import pytest

from reefbench.benchmark.templates import robustness as rb
from reefbench.benchmark.v2 import TASKS_PER_TEMPLATE, families


@pytest.mark.parametrize("record", rb.CLAIM_RECORDS, ids=lambda r: r["path"])
def test_the_filter_hides_rows_the_total_needs(record: dict[str, str]) -> None:
    rows = [line.split("|") for line in record["current"].splitlines()]
    shown = [float(r[3]) for r in rows if r[2] == record["shown"]]
    hidden = [r for r in rows if r[2] != record["shown"]]
    total = rb.claims_total(record["current"])
    assert len(shown) >= 4 and len(hidden) >= 4
    # SUBTOTAL (the visible rows) and a range one row short both give another number,
    # and last year's sheet another total again.
    assert round(sum(shown), 2) != total
    assert round(total - float(rows[-1][3]), 2) != total
    assert rb.claims_total(record["previous"]) != total


@pytest.mark.parametrize("record", rb.RENAME_RECORDS, ids=lambda r: r["path"])
def test_the_old_name_is_not_part_of_the_new_one(record: dict[str, str]) -> None:
    assert record["old"] not in record["new"]
    assert record["text"].count(record["old"]) >= 3


@pytest.mark.parametrize("record", rb.NOTES_RECORDS, ids=lambda r: r["path"])
def test_the_unsaved_lines_and_the_new_entry_are_all_new(record: dict[str, str]) -> None:
    saved, unsaved = record["saved"].splitlines(), record["unsaved"].splitlines()
    entry = f"{record['name']}: {record['number']}"
    assert unsaved and not set(unsaved) & set(saved)
    assert entry not in saved + unsaved


@pytest.mark.parametrize("record", rb.FILE_RECORDS, ids=lambda r: r["pdfs"].split()[0])
def test_only_the_visible_pdfs_match_the_pattern(record: dict[str, str]) -> None:
    assert all(n.endswith(".pdf") and not n.startswith(".") for n in record["pdfs"].split())
    assert not any(n.endswith(".pdf") for n in record["others"].split())
    assert all(n.startswith(".") for n in record["hidden"].split())


def test_the_family_has_every_template_with_at_least_twenty_tasks() -> None:
    family = next(f for f in families() if f.name == "robustness")
    assert [t.subtask for t in family.templates] == rb.TEMPLATES
    records = [len(t.subtask.value_records) for t in family.templates]
    assert len(records) >= 5
    assert sum(min(n, TASKS_PER_TEMPLATE) for n in records) >= 20
