"""The expense-report template: its seeded sheets have the look-alike category, a whole
average, and results that differ from what its near misses write."""

from __future__ import annotations

from reefbench.benchmark.templates import POOL, expense_report


def test_the_template_is_in_the_pool_under_its_own_intent() -> None:
    template = POOL["desktop.calc_writer_report"]
    assert template.intents == [expense_report.REPORT_INTENT]


def test_every_sheet_has_a_look_alike_and_whole_results() -> None:
    for record in expense_report.RECORDS:
        rows = expense_report._rows(record["sheet"])
        assert len(rows) == expense_report.ROWS
        categories = {row[1] for row in rows}
        assert {"Food", "Food delivery"} <= categories
        amounts = [int(r[3]) for r in rows if r[1] == record["average_of"]]
        assert sum(amounts) % len(amounts) == 0
        assert expense_report._total(record["sheet"], record["total_of"]) > 0


def test_the_checkpoints_read_the_computed_results_not_the_instruction() -> None:
    record = expense_report.RECORDS[0]
    built = POOL["desktop.calc_writer_report"].instantiate(record)
    total = expense_report._total(record["sheet"], record["total_of"])
    assert str(total) not in built.instruction
    assert any(f"Total Food: {total}" in str(ev) for ev in built.nodes.values())
    solution = " ".join(str(c.arguments) for c in built.solution)
    assert "SUMIF(" in solution and "AVERAGEIF(" in solution
    assert len(built.solution) >= 25


def test_the_look_alike_near_miss_reports_another_total() -> None:
    record = expense_report.RECORDS[0]  # Food, with "Food delivery" rows beside it
    wrong = expense_report.report_look_alike(**record)
    right = expense_report.report_solution(**record)
    assert [c.arguments for c in wrong] != [c.arguments for c in right]
    loose = sum(int(r[3]) for r in expense_report._rows(record["sheet"]) if r[1].startswith("Food"))
    assert loose != expense_report._total(record["sheet"], "Food")


def test_this_month_s_expenses_are_dated_in_the_world_s_month() -> None:
    """A playtest saw "this month's expenses" dated March 2026 under a clock showing June
    2024: the sheets are dated in the month of the task's world time."""
    from reefbench.tasks.worldtime import task_now

    record = expense_report.RECORDS[0]
    built = POOL["desktop.calc_writer_report"].instantiate(record)
    month = task_now(built.setup)[:7]
    dates = [row[0] for row in expense_report._rows(record["sheet"])]
    assert dates and all(d.startswith(month + "-") for d in dates), (month, dates)
