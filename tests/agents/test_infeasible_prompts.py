"""Every agent system is told, in one neutral sentence, when to declare a task infeasible,
and every one can: the policies' toolboxes, native computer use, the MCP server."""

from __future__ import annotations

import re
from pathlib import Path

from reefbench import Episode
from reefbench.agents import ModelSettings, SingleAgent
from reefbench.agents.computer_use.base import root_tools, system_prompt
from reefbench.agents.providers import ProviderReply, ToolCall
from reefbench.environments.root import RootEnvironment
from reefbench.suites import memory

from .conftest import ScriptedProvider

PROMPTS = Path(__file__).parents[2] / "src" / "reefbench" / "agents" / "prompts"
WRITE_NOTE = next(t for t in memory.load() if t.id == "mem-write-note")
SENTENCE = re.compile(r"[^.]*infeasible[^.]*\.")


def declare(reason: str) -> ProviderReply:
    return ProviderReply(
        text="cannot", tool_calls=[ToolCall("c0", "root__infeasible", {"reason": reason})]
    )


def test_a_single_agent_is_told_once_and_its_declaration_ends_the_episode() -> None:
    provider = ScriptedProvider([declare("no such file")])
    result = Episode(
        WRITE_NOTE, SingleAgent(provider, ModelSettings()), memory.make_environments()
    ).run()
    system = provider.requests[0][0]
    said = [s.strip() for s in SENTENCE.findall(system)]
    assert any("root__infeasible" in s and "after checking" in s for s in said)
    # The rules: when to use it, and that using it wrongly fails (the root environment's
    # description lists it among its actions too).
    rules = [s for s in said if not s.startswith("- root:")]
    assert len(rules) <= 2, rules
    assert result.termination == "false_completion" and result.steps == 1
    tools = [t["name"] if isinstance(t, dict) else t.name for t in provider.requests[0][2]]
    assert any("root__infeasible" in str(t) for t in tools)


def test_every_policy_prompt_names_it() -> None:
    for name in ("turn_rules", "planner_by_env", "planner_by_func", "root_agent"):
        assert "infeasible" in (PROMPTS / f"{name}.txt").read_text(), name


def test_native_computer_use_gets_the_tool_and_the_sentence() -> None:
    root = RootEnvironment()
    tools = root_tools([root.action_space[n] for n in root.action_space])
    assert "infeasible" in [t.name for t in tools]
    prompt = system_prompt(WRITE_NOTE, {"laptop": "desktop"}, "laptop")
    assert "infeasible(reason)" in prompt


def test_the_mcp_rules_name_it() -> None:
    import pytest

    mcp = pytest.importorskip("reefbench.runner.mcp_server")
    assert "root__infeasible" in mcp.RULES
