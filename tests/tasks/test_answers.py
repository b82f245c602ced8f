"""How a submitted answer is compared: formatting never decides, content always does."""

from __future__ import annotations

import pytest

from reefbench.tasks.answers import answers_match, normalise, parse_number, score_rubric


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("Studio C", "studio c"),
        ("  studio   C. ", "Studio C"),
        ('"Studio C"', "Studio C"),
        ("1,024", "1024"),
        ("1 024", "1024"),
        ("1024.0", "1024"),
        ("+12", "12"),
        ("12 lines", "12"),
    ],
)
def test_the_same_answer_in_another_format_matches(answer: str, expected: str) -> None:
    assert answers_match(answer, expected, units=["lines"])


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("Studio", "Studio C"),
        ("Studio C after lunch", "Studio C"),
        ("1023", "1024"),
        ("12 apples", "12"),
        ("twelve", "12"),
        ("12.5", "12"),
        ("-12", "12"),
        ("", "12"),
    ],
)
def test_a_different_answer_does_not_match(answer: str, expected: str) -> None:
    assert not answers_match(answer, expected, units=["lines"])


def test_a_unit_counts_only_when_the_task_allows_it() -> None:
    assert not answers_match("12 lines", "12")
    assert answers_match("12 Lines.", "12", units=["lines"])


def test_numbers_parse_with_their_unit() -> None:
    assert parse_number("1,024 lines") == (1024.0, "lines")
    assert parse_number("-3.25") == (-3.25, "")
    assert parse_number("Room 101") is None
    assert normalise("  «Ｓtudio»  ") == "studio"


def test_a_rubric_needs_every_fact_as_whole_words() -> None:
    facts = ["Studio C", "after lunch|in the afternoon"]
    assert score_rubric("We meet in studio c in the afternoon.", facts).missing == ()
    partial = score_rubric("We meet in Studio C.", facts)
    assert partial.missing == ("after lunch|in the afternoon",) and partial.share == 0.5
    # "Studio CD" does not state "Studio C"
    assert score_rubric("Studio CD after lunch", facts).missing == ("Studio C",)
