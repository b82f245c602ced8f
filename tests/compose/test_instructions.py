"""Structure-preserving instructions and the consistency validator (rule- and model-based)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from reefbench.actions.spec import ActionCall
from reefbench.compose.consistency import (
    check_instruction,
    infer_dependencies,
    infer_prompt,
    inferring_validator,
    rule_validator,
)
from reefbench.compose.instructions import render_steps
from reefbench.tasks.instructions import InstructionGraph, render_instruction

TEXTS = (
    'Create the report "r.txt".',
    'Copy "r.txt" to "backup.txt".',
    'Add the line "done" to "r.txt".',
    'Mail "backup.txt" to Ana.',
)
DIAMOND = InstructionGraph.of(TEXTS, [(0, 1), (0, 2), (1, 3), (2, 3)], goal="ship the report")


def test_the_diamond_reads_as_perform_a_then_b_and_c_then_d() -> None:
    text = render_instruction(DIAMOND)
    assert text == (
        'Goal: ship the report. (1) Create the report "r.txt". '
        '(2) Then, using its result, copy "r.txt" to "backup.txt". '
        '(3) Using the result of (1), add the line "done" to "r.txt". '
        "(4) When (2) and (3) are both done, using their results, mail "
        '"backup.txt" to Ana. (2) and (3) can be done in either order.'
    )
    report = check_instruction(text, DIAMOND)
    assert report.ok, report.problems
    assert report.edges == set(DIAMOND.edges)


def test_roots_chains_and_three_way_joins_parse_back() -> None:
    texts = [f"Do task {c}." for c in "ABCDEFG"]
    edges = [(0, 3), (1, 3), (2, 3), (3, 4), (5, 6)]
    graph = InstructionGraph.of(texts, edges)
    text = render_instruction(graph)
    assert "Independently, do task B." in text
    assert "When (1), (2) and (3) are all done, using their results, do task D." in text
    assert infer_dependencies(text, texts).edges == set(edges)
    assert rule_validator(text, graph)


def test_acronyms_keep_their_case() -> None:
    graph = InstructionGraph.of(["Open GIMP.", "GIMP exports the file."], [(0, 1)])
    text = render_instruction(graph)
    assert "(2) Then, using its result, GIMP exports the file." in text
    assert rule_validator(text, graph)


def test_validator_rejects_an_instruction_that_drops_a_parallel_branch() -> None:
    text = render_instruction(DIAMOND)
    dropped = re.sub(r"\(3\) Using the result of \(1\), [^.]*\. ", "", text)
    dropped = dropped.replace(
        "(4) When (2) and (3) are both done, using their results,", "(3) Then, using its result,"
    )
    dropped = dropped.replace(" (2) and (3) can be done in either order.", "")
    report = check_instruction(dropped, DIAMOND)
    assert not report.ok
    assert any("subtask 2 is missing" in p for p in report.problems)
    assert any("does not say that subtask 3 needs subtask 2" in p for p in report.problems)


def test_validator_rejects_a_parallel_branch_made_sequential() -> None:
    text = render_instruction(DIAMOND).replace(
        "(3) Using the result of (1),", "(3) Then, using its result,"
    )
    report = check_instruction(text, DIAMOND)
    assert not report.ok
    assert any("subtask 2 needs subtask 1" in p for p in report.problems)  # an added edge
    assert any("(2) and (3) are said to be independent" in p for p in report.problems)


def test_validator_rejects_a_reversed_edge() -> None:
    chain = InstructionGraph.of(TEXTS[:2], [(0, 1)])
    reversed_text = f'(1) Using the result of (2), create the report "r.txt". (2) {TEXTS[1]}'
    report = check_instruction(reversed_text, chain)
    assert report.edges == {(1, 0)}
    assert not report.ok
    assert any("says subtask 0 needs subtask 1" in p for p in report.problems)
    assert any("does not say that subtask 1 needs subtask 0" in p for p in report.problems)


def test_unknown_steps_and_repeats_are_reported() -> None:
    text = render_instruction(DIAMOND).replace('mail "backup.txt" to Ana', "do something else")
    assert any("describes no known subtask" in p for p in check_instruction(text, DIAMOND).problems)


def test_model_based_validation_hook() -> None:
    seen: list[str] = []

    def inferrer(instruction: str, texts: Sequence[str]) -> list[tuple[int, int]]:
        seen.append(infer_prompt(instruction, texts))
        if "in parallel" in instruction:
            return [(0, 1), (0, 2), (1, 3), (2, 3)]
        return [(0, 1), (1, 2), (2, 3)]  # a reader who sees a plain sequence

    validator = inferring_validator(inferrer)
    prose = "Create the report; then, in parallel, back it up and add a line; then mail it."

    assert validator(prose, DIAMOND)
    assert not validator("Create, copy, add, mail.", DIAMOND)
    assert "0. Create the report" in seen[0] and prose in seen[0]


def test_steps_style_lists_the_actions() -> None:
    calls = [ActionCall(env="laptop", name="write_file", arguments={"path": "a", "content": "b"})]
    text = render_steps(calls, goal="write a file")
    assert text == (
        "Goal: write a file. Perform exactly these actions, in this order: "
        "(1) on laptop, write_file(path='a', content='b');"
    )


def test_steps_can_be_described_in_words_and_withhold_what_the_agent_must_find() -> None:
    calls = [
        ActionCall(env="phone", name="tap_on", arguments={"name": "Bank"}),
        ActionCall(env="phone", name="write_text", arguments={"text": "730215"}),
    ]

    def words(steps: object) -> list[str]:
        return ['tap "Bank"', 'type "730215"']

    text = render_steps(calls, describe=words, withheld={"730215": "the code you found"})
    assert text == (
        'Perform exactly these actions, in this order: (1) tap "Bank"; (2) type the code you found;'
    )
