"""Issue 31, item 3: the agent is told its step budget, in the system prompt and at every
step ("Step 2 of 7"), and a run's --step-limit is the budget it is told."""

from __future__ import annotations

from reefbench import Episode
from reefbench.agents import SingleAgent
from reefbench.agents.providers import ProviderReply, TextPart, ToolCall
from reefbench.suites import memory

from .conftest import ScriptedProvider

WRITE_NOTE = next(t for t in memory.load() if t.id == "mem-write-note")
NOTE = {"path": "notes/hello.txt", "content": "hello world"}


def _texts(message: object) -> str:
    return "\n".join(p.text for p in message.parts if isinstance(p, TextPart))  # type: ignore[attr-defined]


def test_the_budget_is_in_the_system_prompt_and_every_step() -> None:
    draft = ProviderReply("", [ToolCall("c0", "laptop__write_file", {"path": "d", "content": "x"})])
    done = ProviderReply("", [ToolCall("c1", "laptop__write_file", NOTE)])
    provider = ScriptedProvider([draft, done])
    result = Episode(
        WRITE_NOTE, SingleAgent(provider), memory.make_environments(), step_limit=7
    ).run()
    assert result.termination == "success"
    system = provider.requests[0][0]
    assert "You have at most 7 steps" in system and '"Step 3 of 7"' in system
    assert "Step 1 of 7." in _texts(provider.requests[0][1][-1])
    assert "Step 2 of 7." in _texts(provider.requests[1][1][-1])


def test_without_an_override_the_task_s_own_limit_is_told() -> None:
    provider = ScriptedProvider([ProviderReply("", [ToolCall("c", "laptop__write_file", NOTE)])])
    Episode(WRITE_NOTE, SingleAgent(provider), memory.make_environments()).run()
    limit = WRITE_NOTE.step_limit
    assert f"You have at most {limit} steps" in provider.requests[0][0]
    assert f"Step 1 of {limit}." in _texts(provider.requests[0][1][-1])
