"""reef-v2's robustness templates without a desktop: every value record gives a task whose
odd state matters (each trap of the claims sheet changes the total, the old name is
not inside the new one, the unsaved lines are new), and each template is in the family."""

from __future__ import annotations

import pytest

from reefbench.benchmark.templates import robustness as rb
from reefbench.benchmark.templates import robustness_calc as rc
from reefbench.benchmark.templates import robustness_writer as rw
from reefbench.benchmark.v2 import TASKS_PER_TEMPLATE, families


@pytest.mark.parametrize("record", rc.CLAIM_RECORDS, ids=lambda r: str(r["path"]))
def test_each_trap_of_the_claims_sheet_changes_the_total(record: dict[str, object]) -> None:
    rows = [line.split("|") for line in str(record["current"]).splitlines()]

    def row(number: object) -> list[str]:  # sheet row numbers: the header is row 1
        return rows[int(str(number)) - 2]

    total = rc.claims_total(str(record["current"]))
    hidden = [int(k) for k in str(record["hidden"]).split(",")]
    assert row(record["misfiled"])[0].startswith("2025-12") and record["misfiled"] in hidden
    assert row(record["text"])[3].startswith("'") and record["text"] not in hidden
    assert row(record["blank"]) == ["", "", "", ""] and int(str(record["last"])) == len(rows) + 1
    assert sum(r[0].startswith("2025") for r in rows) == 1
    after_blank = sum(rc.amount_of(r) for r in rows[int(str(record["blank"])) - 1 :])
    misfiled = rc.amount_of(row(record["misfiled"]))
    text = rc.amount_of(row(record["text"]))
    # every near miss's number differs from the total by a whole claim or more
    for wrong in (total - after_blank, total + misfiled, total - text):
        assert abs(wrong - total) >= 12
    assert rc.claims_total(str(record["previous"])) == 0  # the 2025 sheet: none of 2026's


@pytest.mark.parametrize("record", rw.RENAME_RECORDS, ids=lambda r: r["path"])
def test_the_colleagues_changes_matter_to_the_final_text(record: dict[str, str]) -> None:
    old, new, text = record["old"], record["new"], record["text"]
    assert old not in new
    agreed, original = rw.agreed_text(text), rw.original_text(text)
    assert agreed.count(old) >= 3 and f"{old}'s" in agreed  # a possessive too
    assert new in agreed and new not in original  # one occurrence already renamed
    count = rw.final_count(text, old, new)
    # rejecting the colleague's changes brings back a sentence naming the supplier
    assert original.replace(old, new).count(new) == count + 1
    assert record["colleague"] in rw.WRITER_TRACKED_RENAME.description.format(**record)


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
