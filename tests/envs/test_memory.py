"""The in-memory reference environment and its evaluators."""

from __future__ import annotations

import pytest

from reefbench import ActionFailed
from reefbench.envs import memory as m
from reefbench.errors import WrongEnvironment


def test_actions_change_state_and_reset_restores_the_baseline() -> None:
    env = m.MemoryEnvironment("dev", files={"keep.txt": "k"})
    env.step("write_file", {"path": "a", "content": "1"})
    env.step("append_file", {"path": "a", "text": "2"})
    env.step("copy_file", {"source": "a", "target": "b"})
    env.step("copy_text", {"text": "clip"})
    assert env.step("read_file", {"path": "b"}) == "12"
    assert env.observe() == {"list_files": "a\nb\nkeep.txt"}
    env.step("delete_file", {"path": "keep.txt"})
    env.reset()
    assert env.files == {"keep.txt": "k"} and env.clipboard == ""


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("read_file", {"path": "x"}),
        ("delete_file", {"path": "x"}),
        ("copy_file", {"source": "x", "target": "y"}),
    ],
)
def test_missing_files_are_action_failures(name: str, arguments: dict[str, str]) -> None:
    with pytest.raises(ActionFailed, match="no file at x"):
        m.MemoryEnvironment().step(name, arguments)


def test_evaluators() -> None:
    env = m.MemoryEnvironment(files={"a": "hello", "b": "hello", "c": "other"})
    env.clipboard = "clip"
    assert m.file_exists("a").evaluate(env).success
    assert not m.file_exists("z").evaluate(env).success
    assert m.file_contains("a", "ell").evaluate(env).success
    missing = m.file_contains("z", "x").evaluate(env)
    assert not missing.success and "does not exist" in missing.message
    assert m.file_equals("a", "hello").evaluate(env).success and m.file_equals.persistent
    assert m.files_equal("a", "b").evaluate(env).success
    assert not m.files_equal("a", "c").evaluate(env).success
    assert m.clipboard_equals("clip").evaluate(env).success


def test_actions_refuse_other_environments() -> None:
    with pytest.raises(WrongEnvironment, match="needs a MemoryEnvironment"):
        m.write_file.run("not an env", path="a", content="b")
