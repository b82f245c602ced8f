"""The root environment: finishing, answers, calls to the user, and their checks."""

from __future__ import annotations

from reefbench.root import ROOT, RootEnvironment, answer_equals, user_was_asked


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
