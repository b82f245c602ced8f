"""Issue 31, item 2: invalid is only what cannot run as written. A refusal or a failure
at run time is a step whose error goes back to the agent; the default forgives isolated
invalid actions and ends an episode only after several in a row (WebArena's 3)."""

from __future__ import annotations

import inspect

import pytest

from reefbench import ActionCall, Episode, Task
from reefbench.agents import ModelSettings, ScriptedAgent
from reefbench.envs import memory as m
from reefbench.envs.browser import BrowserEnvironment
from reefbench.envs.browser.actions import goto, new_tab
from reefbench.episodes.episode import DEFAULT_INVALID_TOLERANCE
from reefbench.errors import ActionFailed
from reefbench.runner.config import RunConfig

FLY = ActionCall(env="laptop", name="fly")  # no such action: cannot run as written
READ_MISSING = ActionCall(env="laptop", name="read_file", arguments={"path": "nope"})


def write(env: str, path: str) -> ActionCall:
    return ActionCall(env=env, name="write_file", arguments={"path": path, "content": "x"})


def task() -> Task:
    return Task(
        id="t",
        instruction="write a then b",
        nodes={"a": m.file_exists("a").on("laptop"), "b": m.file_exists("b").on("phone")},
        edges=[("a", "b")],
        reference_solution=[write("laptop", "a"), write("phone", "b")],
    )


def envs() -> dict[str, m.MemoryEnvironment]:
    return {"laptop": m.MemoryEnvironment("laptop"), "phone": m.MemoryEnvironment("phone")}


def test_the_default_forgives_two_invalid_actions_in_a_row_everywhere() -> None:
    episode_default = inspect.signature(Episode).parameters["invalid_tolerance"].default
    assert DEFAULT_INVALID_TOLERANCE == 2
    assert episode_default == RunConfig().invalid_tolerance == ModelSettings().invalid_tolerance
    assert episode_default == DEFAULT_INVALID_TOLERANCE


def test_isolated_invalid_actions_are_forgiven_and_a_failed_action_restarts_the_count() -> None:
    turns = [[FLY], [READ_MISSING], [FLY], [FLY], [write("laptop", "a")], [FLY]]
    result = Episode(task(), ScriptedAgent([*turns, [write("phone", "b")]]), envs()).run()
    assert result.termination == "success"
    assert result.invalid_actions == 4  # IA% still counts every one
    statuses = [c.status for t in result.trajectory for c in t.calls]
    assert statuses == ["invalid", "failed", "invalid", "invalid", "ok", "invalid", "ok"]


def test_the_third_invalid_action_in_a_row_ends_the_episode() -> None:
    result = Episode(task(), ScriptedAgent([[FLY]] * 6), envs()).run()
    assert result.termination == "invalid_action"
    assert result.steps == 3 and result.invalid_actions == 3


def test_crabs_strict_rule_is_one_flag_away() -> None:
    result = Episode(task(), ScriptedAgent([[FLY]] * 3), envs(), invalid_tolerance=0).run()
    assert result.termination == "invalid_action" and result.steps == 1


@pytest.mark.parametrize("act", [goto, new_tab])
def test_a_file_address_in_the_browser_is_refused_as_a_failed_step_not_invalid(act: object) -> None:
    browser = BrowserEnvironment("browser")  # refused before the browser is touched
    with pytest.raises(ActionFailed, match="only http://, https:// and about:"):
        act.run(env=browser, url="file:///home/user/Pictures/Scanner/")  # type: ignore[attr-defined]
    # ... and the tool says so up front.
    description = " ".join(goto.description.split())
    assert "Only http://, https:// and about: addresses open" in description
