"""The root environment: finishing, answers, calls to the user, and their checks."""

from __future__ import annotations

from collections.abc import Sequence

from reefbench.environments.root import (
    ROOT,
    RootEnvironment,
    answer_covers,
    answer_equals,
    answer_judged,
    user_was_asked,
)


def root_with(answer: str | None) -> dict[str, RootEnvironment]:
    root = RootEnvironment()
    if answer is not None:
        root.step("submit", {"answer": answer})
    return {ROOT: root}


def test_answer_checks_are_routed_to_the_root_environment() -> None:
    check = answer_equals(expected="Paris")
    assert check.env_name == ROOT
    assert check.check(root_with("Paris")).success


def test_no_answer_yet_fails() -> None:
    result = answer_equals(expected="x").check(root_with(None))
    assert not result.success and "no answer" in result.message


def test_answer_ignores_case_and_surrounding_spaces_but_not_inner_text() -> None:
    assert answer_equals(expected="Room 4B").check(root_with("  room 4b \n")).success
    result = answer_equals(expected="Room 4B").check(root_with("Room 4C"))
    assert not result.success and "'Room 4C' is not 'Room 4B'" in result.message


def test_submit_finishes_and_reset_forgets() -> None:
    envs = root_with("42")
    root = envs[ROOT]
    assert root.finished and root.answer == "42"
    root.reset()
    assert not root.finished and root.answer is None


def test_call_user_answers_from_user_data_and_is_checked() -> None:
    root = RootEnvironment(user_data={"password": "pw"})
    assert root.step("call_user", {"kind": "password"}) == "pw"
    reply = root.step("call_user", {"kind": "otp"})
    assert "cannot help with 'otp'" in reply and "password" in reply
    assert user_was_asked(kind="password").check({ROOT: root}).success
    assert not user_was_asked(kind="email").check({ROOT: root}).success


def test_a_request_is_judged_by_what_it_asks_not_by_the_keys_spelling() -> None:
    """Playtests spent a step each on ``call_user`` refusing "Which meeting with Omar do
    you mean?" for the kind "which meeting"."""
    root = RootEnvironment(
        user_data={"which meeting": "The 10:30 one.", "verification_code": "4711"}
    )
    assert root.step("call_user", {"kind": "Which meeting with Omar do you mean?"}) == (
        "The 10:30 one."
    )
    assert root.step("call_user", {"kind": "Verification code"}) == "4711"
    assert user_was_asked(kind="which meeting").check({ROOT: root}).success
    assert user_was_asked(kind="verification_code").check({ROOT: root}).success
    # Several kinds fit, or none: the user says what they can give.
    both = root.step("call_user", {"kind": "which meeting, and the verification code"})
    assert "cannot help" in both and "which meeting" in both
    assert "cannot help" in root.step("call_user", {"kind": "meeting room"})
    fresh = RootEnvironment(user_data={"which meeting": "x"})
    fresh.step("call_user", {"kind": "password"})
    assert not user_was_asked(kind="which meeting").check({ROOT: fresh}).success


def test_a_which_question_gets_the_one_choice_the_user_can_make() -> None:
    """Playtest E5 lost a step: "which budget.txt: the one in the Wedding folder or the one
    in the Garden Project folder" was refused for the kind "which file" (no word "file")."""
    root = RootEnvironment(user_data={"which file": "The Wedding one.", "password": "pw"})
    asked = "Which budget.txt: the one in the Wedding folder or the one in Garden Project?"
    assert root.step("call_user", {"kind": asked}) == "The Wedding one."
    assert user_was_asked(kind="which file").check({ROOT: root}).success
    # Not a "which" question, or two choices the user could make: no guess.
    assert "cannot help" in root.step("call_user", {"kind": "the budget file"})
    two = RootEnvironment(user_data={"which file": "a", "which folder": "b"})
    assert "cannot help" in two.step("call_user", {"kind": "which budget.txt?"})


def test_answer_compares_numbers_as_numbers_with_the_units_a_task_allows() -> None:
    lines = answer_equals(expected="1024", units=["lines"])
    assert lines.check(root_with("1,024 lines.")).success
    assert not lines.check(root_with("1,024 pages")).success
    assert not answer_equals(expected="1024").check(root_with("1,024 lines")).success


def test_a_rubric_answer_needs_every_fact_and_reports_progress() -> None:
    check = answer_covers(facts=["Studio C", "after lunch"])
    assert check.check(root_with("Studio C, after lunch")).success
    partial = check.check(root_with("Studio C"))
    assert not partial.success and partial.progress == 0.5
    assert "after lunch" in partial.message


def test_without_a_judge_a_judged_answer_is_scored_by_its_rubric() -> None:
    check = answer_judged(question="Where?", facts=["Studio C"])
    assert check.check(root_with("in studio c")).success
    assert not check.check(root_with("in studio d")).success


def test_a_judge_grades_once_per_answer() -> None:
    asked: list[tuple[str, str, tuple[str, ...]]] = []

    def judge(question: str, answer: str, facts: Sequence[str]) -> tuple[bool, str]:
        asked.append((question, answer, tuple(facts)))
        return answer.endswith("C"), "states the room" if answer.endswith("C") else "wrong room"

    root = RootEnvironment(judge=judge)
    root.step("submit", {"answer": "the room is C"})
    check = answer_judged(question="Which room?", facts=["C"])
    for _ in range(3):
        result = check.check({ROOT: root})
        assert result.success and result.message == "judge: states the room"
    assert asked == [("Which room?", "the room is C", ("C",))]
    root.step("submit", {"answer": "the room is D"})
    assert check.check({ROOT: root}).message == "judge: wrong room"
