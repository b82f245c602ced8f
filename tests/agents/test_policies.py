"""The three agent systems on the in-memory suite, with scripted model replies.

A scripted "model" answers each role by its system prompt: planners describe the next
reference call in prose, acting roles make it. Every policy must then solve every task,
route calls to the right environment, feed each role only what it should see, and sum the
tokens of all its roles.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from reefbench import Episode, Task, Usage
from reefbench.agents import ByEnvironmentAgent, ByFunctionAgent, ModelSettings, SingleAgent
from reefbench.agents.providers import ImagePart, ProviderReply, TextPart, ToolCall
from reefbench.episodes.protocol import NO_ACTION, Turn
from reefbench.suites import memory

from .conftest import ScriptedProvider

TASKS = memory.load()
BY_ID = {t.id: t for t in TASKS}
ONE = Usage(prompt_tokens=3, completion_tokens=2, cached_tokens=1)


def role_of(system: str) -> str:
    if system.startswith("You are the planning agent"):
        return "planner"
    if system.startswith("You are the tool agent"):
        return "tool"
    if system.startswith("You are the lead agent"):
        return "lead"
    if system.startswith("You are the root agent"):
        return "root"
    if system.startswith("You are the sub-agent responsible for the"):
        return system.split('"')[1]
    return "single"


class Solver:
    """Plays the task's reference solution, one call per turn, whatever the policy."""

    def __init__(self, task: Task, json_mode: bool = False) -> None:
        self.solution = task.reference_solution
        self.json_mode = json_mode
        self.step = -1
        self.seen: dict[str, list[list[Any]]] = {}

    def __call__(self, system: str, messages: list[Any]) -> ProviderReply:
        role = role_of(system)
        self.seen.setdefault(role, []).append(messages)
        if role in ("single", "planner", "lead"):
            self.step += 1
        call = self.solution[min(self.step, len(self.solution) - 1)]
        if role in ("planner", "lead"):
            text = f"{call.env} should run {call.name} with {json.dumps(call.arguments)}"
            return ProviderReply(text, usage=ONE)
        if role in ("single", "tool"):
            return self._reply(f"{call.env}__{call.name}", call.arguments)
        if role == call.env:
            return self._reply(call.name, call.arguments)
        return self._reply("skip", {})

    def _reply(self, name: str, arguments: dict[str, Any]) -> ProviderReply:
        if self.json_mode:
            block = json.dumps({"name": name, "arguments": arguments})
            return ProviderReply(f"```json\n{block}\n```", usage=ONE)
        return ProviderReply("", [ToolCall(f"id{self.step}-{name}", name, arguments)], ONE)


POLICIES = {"single": SingleAgent, "by-func": ByFunctionAgent, "by-env": ByEnvironmentAgent}


@pytest.mark.parametrize("mode", ["native", "json"])
@pytest.mark.parametrize("policy", list(POLICIES))
@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_every_policy_solves_every_memory_task(task: Task, policy: str, mode: str) -> None:
    solver = Solver(task, json_mode=mode == "json")
    provider = ScriptedProvider(solver)
    agent = POLICIES[policy](provider, ModelSettings(mode=mode))  # type: ignore[arg-type]
    result = Episode(task, agent, memory.make_environments()).run()
    assert result.success, (result.termination, result.error)
    assert result.steps == len(task.reference_solution)
    # Tokens of every role are summed: one ONE per request.
    requests = len(provider.requests)
    assert result.usage == Usage(
        prompt_tokens=3 * requests, completion_tokens=2 * requests, cached_tokens=requests
    )


def _texts(messages: list[Any]) -> str:
    return "\n".join(p.text for m in messages for p in m.parts if isinstance(p, TextPart))


def test_by_env_routes_calls_and_gives_each_sub_agent_its_own_world() -> None:
    task = BY_ID["mem-cross-code"]  # phone.read_file, then laptop.write_file
    solver = Solver(task)
    provider = ScriptedProvider(solver)
    result = Episode(task, ByEnvironmentAgent(provider), memory.make_environments()).run()
    assert result.success
    assert [(c.env, c.name) for t in result.trajectory for c in t.calls] == [
        ("phone", "read_file"),
        ("laptop", "write_file"),
    ]
    # Roles: lead, laptop, phone, root — asked once per turn each.
    assert {r: len(v) for r, v in solver.seen.items()} == {
        "lead": 2,
        "laptop": 2,
        "phone": 2,
        "root": 2,
    }
    tools = {role_of(s): [t.name for t in ts] for s, _, ts in provider.requests}
    assert tools["laptop"][-1] == "skip" and "write_file" in tools["laptop"]
    assert tools["root"] == ["complete", "submit", "infeasible", "wait", "call_user", "skip"]
    assert tools["lead"] == []  # the lead plans in prose
    # Each sub-agent sees the lead's instruction and only its own environment.
    phone_first = _texts(solver.seen["phone"][0])
    assert "Instruction from the lead agent:\nphone should run read_file" in phone_first
    assert "[phone] list_files" in phone_first and "[laptop]" not in phone_first
    assert "[laptop]" in _texts(solver.seen["lead"][0]) and "[phone]" in _texts(
        solver.seen["lead"][0]
    )
    # The phone's result goes back to the phone agent on its own call, not to the laptop's.
    phone_second = solver.seen["phone"][1][-1].parts
    results = [p for p in phone_second if not isinstance(p, (TextPart, ImagePart))]
    assert len(results) == 1 and "Your code is 482913" in results[0].content
    laptop_second = [p for p in solver.seen["laptop"][1][-1].parts if not isinstance(p, TextPart)]
    assert [r.content for r in laptop_second] == ["skip: done"]
    # ... and the lead hears about everything the team did.
    assert "phone.read_file(path='sms/latest.txt') -> ok: Your code is 482913" in _texts(
        solver.seen["lead"][1]
    )
    assert "[laptop] skip" in result.trajectory[0].message


def test_by_env_root_agent_completes_when_told() -> None:
    task = BY_ID["mem-write-note"]

    def script(system: str, messages: list[Any]) -> ProviderReply:
        role = role_of(system)
        if role == "lead":
            return ProviderReply("The task is done: root agent, complete it.")
        if role == "root":
            return ProviderReply("", [ToolCall("r1", "complete", {})])
        return ProviderReply("", [ToolCall("s1", "skip", {})])

    result = Episode(
        task, ByEnvironmentAgent(ScriptedProvider(script)), memory.make_environments()
    ).run()
    assert result.termination == "false_completion"  # nothing was written: root obeyed
    assert [(c.env, c.name) for c in result.trajectory[0].calls] == [("root", "complete")]


def test_by_env_when_everyone_skips_the_step_has_no_action() -> None:
    skip = ProviderReply("", [ToolCall("s", "skip", {})])
    provider = ScriptedProvider(
        lambda s, m: ProviderReply("wait") if role_of(s) == "lead" else skip
    )
    result = Episode(
        BY_ID["mem-write-note"], ByEnvironmentAgent(provider), memory.make_environments()
    ).run()
    assert result.termination == "invalid_action"
    assert result.trajectory[0].calls[0].name == NO_ACTION


def test_by_func_tool_agent_sees_the_plan_but_not_the_screens() -> None:
    task = BY_ID["mem-cross-code"]
    solver = Solver(task)
    provider = ScriptedProvider(solver)
    assert Episode(task, ByFunctionAgent(provider), memory.make_environments()).run().success
    tool_first = _texts(solver.seen["tool"][0])
    assert tool_first == 'Instruction:\nphone should run read_file with {"path": "sms/latest.txt"}'
    assert "[phone] list_files" in _texts(solver.seen["planner"][0])
    tools = {role_of(s): [t.name for t in ts] for s, _, ts in provider.requests}
    assert tools["planner"] == [] and "phone__read_file" in tools["tool"]
    assert "Your code is 482913" in _texts(solver.seen["planner"][1])


def test_unreadable_output_of_a_sub_agent_is_reported_with_its_name() -> None:
    def script(system: str, messages: list[Any]) -> ProviderReply:
        role = role_of(system)
        if role == "lead":
            return ProviderReply("laptop: write the note")
        if role == "laptop":
            return ProviderReply(
                "", [ToolCall("x", "write_file", error="arguments are not valid JSON")]
            )
        return ProviderReply("", [ToolCall("s", "skip", {})])

    result = Episode(
        BY_ID["mem-write-note"],
        ByEnvironmentAgent(ScriptedProvider(script)),
        memory.make_environments(),
    ).run()
    assert result.termination == "invalid_action"
    error = result.trajectory[0].calls[0].error or ""
    assert error.startswith("laptop agent: tool call write_file could not be read")


def test_prompts_can_be_overridden_from_a_directory(tmp_path: Any) -> None:
    from reefbench.agents import Prompts
    from reefbench.errors import ConfigError

    (tmp_path / "single.txt").write_text("Do: $task_description")
    prompts = Prompts.from_dir(tmp_path)
    provider = ScriptedProvider(
        [
            ProviderReply(
                "",
                [
                    ToolCall(
                        "a",
                        "laptop__write_file",
                        {"path": "notes/hello.txt", "content": "hello world"},
                    )
                ],
            )
        ]
    )
    agent = SingleAgent(provider, ModelSettings(prompts=prompts))
    assert Episode(BY_ID["mem-write-note"], agent, memory.make_environments()).run().success
    assert provider.requests[0][0] == "Do: " + BY_ID["mem-write-note"].instruction
    (tmp_path / "single.txt").write_text("Do: $task")
    with pytest.raises(ConfigError, match="prompt 'single': bad placeholder 'task'"):
        SingleAgent(provider, ModelSettings(prompts=Prompts.from_dir(tmp_path))).reset(
            BY_ID["mem-write-note"], {}, {}
        )
    (tmp_path / "singel.txt").write_text("typo")
    with pytest.raises(ConfigError, match="unknown prompt file"):
        Prompts.from_dir(tmp_path)


def _system_and_tools(settings: ModelSettings) -> tuple[str, list[str]]:
    provider = ScriptedProvider(["looking"])
    agent = SingleAgent(provider, settings)
    task = BY_ID["mem-write-note"]
    envs = memory.make_environments()
    spaces = {name: list(env.action_space.values()) for name, env in envs.items()}
    agent.reset(task, spaces, {name: env.description for name, env in envs.items()})
    agent.act(Turn(1, {}))
    system, _, tools = provider.requests[0]
    return system, [t.name for t in tools]


def test_a_native_prompt_leaves_the_tool_names_to_the_definitions_sent_with_it() -> None:
    from reefbench.agents.policies import TOOLS_SENT

    system, tools = _system_and_tools(ModelSettings())
    assert "laptop__write_file" in tools
    assert TOOLS_SENT in system and "- laptop__: " not in system
    # The index by environment is still there on request, and JSON mode lists every tool.
    system, same = _system_and_tools(ModelSettings(prompt_tools="names"))
    assert same == tools and "- laptop__: " in system and "write_file" in system
    system, _ = _system_and_tools(ModelSettings(mode="json"))
    assert TOOLS_SENT not in system and "- laptop__write_file(" in system
