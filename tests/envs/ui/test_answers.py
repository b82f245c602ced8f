"""Answer checks for submit(answer): exact, normalised, numeric, items with partial credit."""

from __future__ import annotations

import pytest

from reefbench.envs.root import RootEnvironment
from reefbench.envs.ui.answers import (
    answer_exact,
    answer_items,
    answer_normalised,
    answer_number,
    numbers_in,
    split_items,
)


def root_with(answer: str | None) -> dict[str, RootEnvironment]:
    root = RootEnvironment()
    if answer is not None:
        root.step("submit", {"answer": answer})
    return {"root": root}


def test_answer_checks_are_routed_to_the_root_environment():
    envs = root_with("Paris")
    for check in (
        answer_exact(expected="Paris"),
        answer_normalised(expected="paris"),
        answer_items(expected=["Paris"]),
    ):
        assert check.env_name == "root"
        assert check.check(envs).success


def test_no_answer_yet_fails_with_zero_progress():
    result = answer_normalised(expected="x").check(root_with(None))
    assert not result.success and result.progress == 0.0 and "no answer" in result.message


def test_exact_keeps_case_and_inner_spacing():
    assert answer_exact(expected="Room 4B").check(root_with("  Room 4B \n")).success
    assert not answer_exact(expected="Room 4B").check(root_with("room 4b")).success
    assert not answer_exact(expected="Room 4B").check(root_with("Room  4B")).success


def test_normalised_ignores_case_spacing_quotes_and_edge_punctuation():
    assert (
        answer_normalised(expected="Soul Vegetarian No. 2")
        .check(root_with('  "soul   vegetarian no. 2."  '))
        .success
    )
    assert answer_normalised(expected="café").check(root_with("CAFÉ")).success
    assert not answer_normalised(expected="Paris").check(root_with("Paris, France")).success


@pytest.mark.parametrize(
    ("answer", "expected", "tolerance", "relative", "ok"),
    [
        ("$1,059.00", 1059, 0.0, False, True),
        ("It costs 19.99 euros", 20, 0.05, False, True),
        ("It costs 19.90 euros", 20, 0.05, False, False),
        ("103", 100, 0.05, True, True),
        ("106", 100, 0.05, True, False),
        ("−3.5 °C", -3.5, 0.0, False, True),
        ("4.3 stars (1,059)", 4.3, 0.0, False, False),
        ("about four", 4, 0.0, False, False),
    ],
)
def test_numbers_with_tolerance(
    answer: str, expected: float, tolerance: float, relative: bool, ok: bool
):
    check = answer_number(expected=expected, tolerance=tolerance, relative=relative)
    assert check.check(root_with(answer)).success is ok


def test_numbers_in_reads_thousands_and_signs():
    assert numbers_in("from -2 to 1,250.5 and .5") == [-2.0, 1250.5, 0.5]


def test_items_give_partial_credit_and_penalise_extras():
    expected = ["Milk", "Eggs", "Bread", "Butter"]
    full = answer_items(expected=expected).check(root_with("eggs; milk\nbutter and Bread."))
    assert full.success and full.progress == 1.0
    half = answer_items(expected=expected).check(root_with("Milk, Eggs"))
    assert not half.success and half.progress == pytest.approx(0.5)
    assert "missing: bread, butter" in half.message
    padded = answer_items(expected=["Milk"]).check(root_with("milk, eggs, bread, jam"))
    assert not padded.success and padded.progress == pytest.approx(0.25)
    lenient = answer_items(expected=["Milk"], allow_extra=True).check(root_with("milk, eggs"))
    assert lenient.success and lenient.progress == 1.0


def test_split_items_normalises_each_item():
    assert split_items(' "A" ,b;  C\n\n and d. ') == ["a", "b", "c", "d"]
