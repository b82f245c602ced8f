"""Evaluators: result normalisation, environment routing and combinators."""

from __future__ import annotations

from typing import Any

import pytest

from reefbench import ConfigError, EvalResult, Evaluator, evaluator
from reefbench.actions.evaluators import keys_overlap


@evaluator
def holds(flag: bool) -> bool:
    """True when the flag is set."""
    return flag


@evaluator
def partial(amount: float) -> EvalResult:
    """Report partial progress."""
    return EvalResult(success=amount >= 1.0, message=f"{amount:.0%}", progress=amount)


@evaluator
def env_name(expected: str, env: Any) -> bool:
    """The environment is the expected one."""
    return bool(env == expected)


@evaluator
def broken() -> int:
    """Returns the wrong type."""
    return 3


def test_bool_and_evalresult_are_normalised() -> None:
    assert holds(True).evaluate() == EvalResult(success=True)
    assert holds(False).evaluate().fraction == 0.0
    result = partial(0.25).evaluate()
    assert (result.success, result.progress, result.fraction) == (False, 0.25, 0.25)


def test_wrong_return_type_is_an_error() -> None:
    with pytest.raises(TypeError, match="return bool or EvalResult"):
        broken().evaluate()


def test_progress_is_bounded() -> None:
    with pytest.raises(ValueError):
        EvalResult(success=True, progress=1.5)


def test_check_picks_the_named_environment() -> None:
    envs = {"desktop": "desktop", "phone": "phone"}
    assert env_name("phone").on("phone").check(envs).success
    assert not env_name("phone").on("desktop").check(envs).success


def test_check_uses_the_only_environment_when_unrouted() -> None:
    assert env_name("solo").check({"x": "solo"}).success


def test_ambiguous_or_missing_environment_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="names none"):
        env_name("a").check({"a": "a", "b": "b"})
    with pytest.raises(ConfigError, match="does not have"):
        env_name("a").on("tv").check({"a": "a"})


def test_combinators_compute_success_progress_and_labels() -> None:
    both = holds(True) & partial(0.5)
    either = holds(False) | partial(0.5)
    negated = ~holds(False)
    assert isinstance(both, Evaluator)
    r = both.check({})
    assert (r.success, r.progress) == (False, 0.75)
    r = either.check({})
    assert (r.success, r.progress) == (False, 0.5)
    assert negated.check({}).success
    assert both.label == "(holds(flag=True) & partial(amount=0.5))"
    assert negated.label == "~holds(flag=False)"
    assert (holds(True) | holds(False)).check({}).success


def test_combined_parts_keep_their_own_environments() -> None:
    envs = {"desktop": "desktop", "phone": "phone"}
    mixed = env_name("desktop").on("desktop") & env_name("phone").on("phone")
    assert mixed.check(envs).success
    routed = (env_name("phone") & env_name("phone")).on("phone")
    assert routed.check(envs).success


def _box_keys(box: str, **_: Any) -> list[str]:
    return [f"box:{box}"]


@evaluator(governs=_box_keys)
def box_full(box: str, env: Any) -> bool:
    """A state checkpoint that names the state it reads."""
    return True


@evaluator(moment=True)
def seen() -> bool:
    """A moment."""
    return True


def test_state_is_the_default_and_moments_are_declared() -> None:
    assert holds.persistent and not holds.moment and holds(True).end_check() is not None
    assert seen.moment and not seen.persistent and seen().end_check() is None
    with pytest.raises(ConfigError, match="a moment governs no state"):
        evaluator(moment=True, governs=_box_keys)(holds.func)


def test_state_keys_come_from_the_arguments_scoped_by_environment() -> None:
    assert box_full("a").state_keys() == {"box:a"}
    assert box_full("a").on("shed").state_keys() == {"shed|box:a"}
    assert holds(True).state_keys() == frozenset() and seen().state_keys() == frozenset()


def test_a_combined_end_check_keeps_only_its_state_parts() -> None:
    both = box_full("a") & seen()
    assert not both.moment and both.state_keys() == {"box:a"}
    assert both.end_check() is not None and both.end_check().label == box_full("a").label
    assert (seen() & seen()).end_check() is None
    assert (seen() | box_full("a")).end_check() is None, "an 'or' with a moment is a moment"
    assert (~seen()).moment


def test_keys_overlap_on_equal_keys_and_folder_prefixes() -> None:
    assert keys_overlap("file:/a/b", "file:/a/b")
    assert keys_overlap("file:/a", "file:/a/b") and keys_overlap("file:/a/b", "file:/a")
    assert not keys_overlap("file:/a", "file:/ab")
    assert not keys_overlap("file:/a/b", "file:/a/c")


def test_combined_evaluators_take_no_arguments() -> None:
    with pytest.raises(ConfigError, match="takes no arguments"):
        (holds(True) & holds(True))(1)
