"""The two small additions to the episode this package needs: unreadable agent output as
an invalid action (``AgentOutput.invalid``), and a live user answering CALL_USER."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reefbench import ActionCall, AgentOutput, Episode, Turn
from reefbench.episodes.protocol import UNPARSABLE
from reefbench.suites import memory

TASKS = {t.id: t for t in memory.load()}
NOTE = ActionCall(
    env="laptop",
    name="write_file",
    arguments={"path": "notes/hello.txt", "content": "hello world"},
)


class Replies:
    name = "replies"

    def __init__(self, *outputs: AgentOutput) -> None:
        self.outputs = list(outputs)
        self.turns: list[Turn] = []

    def reset(self, task: Any, action_spaces: Mapping[str, Any], descriptions: Any) -> None:
        pass

    def act(self, turn: Turn) -> AgentOutput:
        self.turns.append(turn)
        return self.outputs.pop(0)


def test_unreadable_output_is_one_invalid_action() -> None:
    agent = Replies(*[AgentOutput(invalid="bad JSON")] * 3)
    result = Episode(TASKS["mem-write-note"], agent, memory.make_environments()).run()
    # One invalid action per unreadable turn; the third in a row ends it (the default).
    assert result.termination == "invalid_action" and result.invalid_actions == 3
    assert result.steps == 3
    (record,) = result.trajectory[0].calls
    assert (record.env, record.name, record.status, record.error) == (
        "root",
        UNPARSABLE,
        "invalid",
        "bad JSON",
    )
    assert result.actions == 0


def test_within_tolerance_the_error_is_shown_and_readable_calls_still_run() -> None:
    agent = Replies(AgentOutput(invalid="call 2 was garbled", calls=[NOTE]))
    episode = Episode(
        TASKS["mem-write-note"], agent, memory.make_environments(), invalid_tolerance=1
    )
    result = episode.run()
    assert result.success and result.invalid_actions == 1 and result.actions == 1
    assert [c.name for c in result.trajectory[0].calls] == [UNPARSABLE, "write_file"]


def test_invalid_output_without_calls_is_not_also_no_action() -> None:
    agent = Replies(AgentOutput(invalid="garbled"), AgentOutput(calls=[NOTE]))
    episode = Episode(
        TASKS["mem-write-note"], agent, memory.make_environments(), invalid_tolerance=3
    )
    result = episode.run()
    assert result.success and result.invalid_actions == 1
    shown = agent.turns[1].previous
    assert len(shown) == 1 and shown[0].error == "garbled" and shown[0].status == "invalid"


WIFI = TASKS["mem-call-user-wifi"]
ASK = ActionCall(env="root", name="call_user", arguments={"kind": "password"})


def test_call_user_answers_from_user_data_by_default() -> None:
    agent = Replies(AgentOutput(calls=[ASK]), AgentOutput(calls=[]))
    Episode(WIFI, agent, memory.make_environments(), invalid_tolerance=1).run()
    assert agent.turns[1].previous[0].result == "correct-horse"


def test_a_live_user_callback_answers_call_user() -> None:
    asked: list[str] = []

    def user(kind: str) -> str | None:
        asked.append(kind)
        return "typed-by-a-person"

    agent = Replies(AgentOutput(calls=[ASK]), AgentOutput(calls=[]))
    Episode(WIFI, agent, memory.make_environments(), invalid_tolerance=1, user=user).run()
    assert asked == ["password"]
    assert agent.turns[1].previous[0].result == "typed-by-a-person"


def test_an_agent_with_answer_user_plays_the_user_and_may_refuse() -> None:
    class Refuses(Replies):
        def answer_user(self, kind: str) -> str | None:
            return None

    agent = Refuses(AgentOutput(calls=[ASK]), AgentOutput(calls=[]))
    result = Episode(WIFI, agent, memory.make_environments(), invalid_tolerance=1).run()
    assert agent.turns[1].previous[0].result == "The user cannot help with 'password'."
    assert result.user_calls == ["password"]
