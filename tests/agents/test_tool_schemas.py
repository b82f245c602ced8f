"""The tool definitions a model is sent: compact, yet every action, parameter, type,
limit and default of every device kind is still there, in every provider dialect, and
the definitions are byte-identical in every task and step (prompt caching; a list that
changed with the task would hint at which devices matter).

Runs without starting a device: action spaces are read from unstarted environments.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest

from reefbench.actions.sets import ACTION_SETS
from reefbench.actions.spec import Action, compact_text
from reefbench.agents import ModelSettings, SingleAgent
from reefbench.agents.providers import Message, ProviderReply, ToolSpec
from reefbench.agents.providers.base import parameters_schema
from reefbench.agents.providers.dialects import DIALECTS as PROVIDERS
from reefbench.agents.providers.dialects import tool_schema
from reefbench.agents.tools import Toolbox
from reefbench.environments.contract import Environment
from reefbench.environments.root import ROOT, RootEnvironment
from reefbench.envs.registry import KINDS, make_environment
from reefbench.episodes.protocol import Turn

# Everything that bounds or documents a value: none of it may be lost.
LIMITS = (
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "pattern",
    "enum",
    "const",
    "items",
)


def _kinds() -> Iterator[tuple[str, Environment]]:
    for kind in sorted(KINDS):
        if kind == "services":
            continue  # starts its server when built; it has no actions for agents
        yield kind, make_environment(kind)
    yield ROOT, RootEnvironment()


@pytest.fixture(scope="module")
def spaces() -> dict[tuple[str, str], list[Action]]:
    """(kind, action set) -> the actions an episode under that set has."""
    out = {}
    for kind, env in _kinds():
        for action_set in ACTION_SETS:
            out[(kind, action_set)] = list(env.episode_space((), action_set).values())
    return out


def _parameters(tool: Mapping[str, Any], dialect: str) -> dict[str, Any]:
    if dialect == "openai":
        parameters: dict[str, Any] = tool["function"]["parameters"]
        return parameters
    if dialect == "anthropic":
        schema: dict[str, Any] = tool["input_schema"]
        return schema
    return dict(tool.get("parameters", {"properties": {}}))


def _description(tool: Mapping[str, Any], dialect: str) -> str:
    text: str = (tool["function"] if dialect == "openai" else tool)["description"]
    return text


def _types(prop: Mapping[str, Any]) -> set[str]:
    if "anyOf" in prop:
        return {t for option in prop["anyOf"] for t in _types(option)}
    kind = prop.get("type")
    return {kind} if isinstance(kind, str) else set()


def test_every_kind_and_set_has_actions(spaces: dict[tuple[str, str], list[Action]]) -> None:
    kinds = {kind for kind, _ in spaces}
    assert {"desktop", "browser", "phone", "android", ROOT} <= kinds
    assert sum(len(actions) for actions in spaces.values()) > 100


@pytest.mark.parametrize("dialect", PROVIDERS)
def test_compaction_keeps_every_action_parameter_type_and_limit(
    spaces: dict[tuple[str, str], list[Action]], dialect: str
) -> None:
    checked = 0
    for (kind, action_set), actions in spaces.items():
        specs = Toolbox({kind: actions}).specs
        assert [s.name for s in specs] == [f"{kind}__{a.name}" for a in actions]
        for spec, act in zip(specs, actions, strict=True):
            where = f"{kind}/{action_set}/{act.name} ({dialect})"
            tool = spec.schema(dialect)
            assert _description(tool, dialect) == compact_text(act.description), where
            full = parameters_schema(act)
            sent = _parameters(tool, dialect)
            assert list(sent["properties"]) == list(full["properties"]), where
            assert sent.get("required", []) == full.get("required", []), where
            for name, prop in full["properties"].items():
                got = sent["properties"][name]
                # The only type dropped is null, and only for an optional parameter:
                # leaving it out is how a model passes None.
                assert _types(got) == _types(prop) - {"null"} or _types(got) == _types(prop), (
                    where,
                    name,
                )
                for key in LIMITS:
                    if key in prop:
                        want = prop[key]
                        have = got.get(key, got.get("enum") if key == "const" else None)
                        assert have == want or [want] == have, (where, name, key)
                if prop.get("default") is not None and dialect != "gemini":
                    assert got["default"] == prop["default"], (where, name)
                if prop.get("description") and "description" not in got:
                    assert "enum" in got, f"{where}: {name}'s description was dropped"
                checked += 1
    assert checked > 200


def test_a_description_that_only_lists_the_enum_goes_and_others_stay(
    spaces: dict[tuple[str, str], list[Action]],
) -> None:
    scroll = next(a for a in spaces[("desktop", "marks")] if a.name == "scroll")
    sent = tool_schema(scroll, "openai")["function"]["parameters"]["properties"]
    assert "description" not in sent["direction"]  # '"up", "down", "left" or "right".'
    assert sent["direction"]["enum"] == ["up", "down", "left", "right"]
    swipe = next(a for a in spaces[("phone", "marks")] if a.name == "swipe")
    sent = tool_schema(swipe, "openai")["function"]["parameters"]["properties"]
    # "Which way the finger moves: ..." says more than the values: it stays.
    assert sent["direction"]["description"].startswith("Which way the finger moves")


# ------------------------------------------------------------------ the same every time
class Recorder:
    name = "test/recorder"

    def __init__(self) -> None:
        self.tools: list[str] = []

    def complete(
        self, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()
    ) -> ProviderReply:
        self.tools.append(
            json.dumps({d: [t.schema(d) for t in tools] for d in PROVIDERS}, sort_keys=True)
        )
        return ProviderReply("thinking")


def test_two_tasks_episodes_are_sent_byte_identical_tool_definitions() -> None:
    from reefbench.suites import get_suite

    suite = get_suite("v1")
    tasks = suite.load()
    first = next(t for t in tasks if t.metadata.platform == "desktop")
    second = next(t for t in tasks if t.metadata.platform == "phone")
    envs = {**suite.make_environments(), ROOT: RootEnvironment()}
    try:
        recorder = Recorder()
        agent = SingleAgent(recorder, ModelSettings(invalid_tolerance=5))
        for task in (first, second):
            action_spaces = {
                name: list(
                    env.episode_space(
                        [s.action for s in task.extra_actions if s.env == name], "marks"
                    ).values()
                )
                for name, env in envs.items()
            }
            agent.reset(task, action_spaces, {n: e.description for n, e in envs.items()})
            for step in (1, 2):
                agent.act(Turn(step, {}))
    finally:
        for env in envs.values():
            env.stop()
    assert len(recorder.tools) == 4
    assert len(set(recorder.tools)) == 1
    assert "phone__tap" in recorder.tools[0] and "desktop__click" in recorder.tools[0]


# ------------------------------------------------------------------ shared parameters
@pytest.mark.parametrize("dialect", PROVIDERS)
def test_shared_parameters_lose_only_what_the_prompt_says_once(
    spaces: dict[tuple[str, str], list[Action]], dialect: str
) -> None:
    """A definition sent with ``shared=True`` differs from the full one only by a
    parameter's description and limits that an entry of SHARED_PARAMETERS states in the
    prompt; every other fact, the types and required lists included, is still sent."""
    from reefbench.agents.shared_parameters import SHARED_PARAMETERS, covering, shared_text

    prompt = shared_text()
    stripped = 0
    for (kind, action_set), actions in spaces.items():
        full_specs = Toolbox({kind: actions}).specs
        shared_specs = Toolbox({kind: actions}, shared=True).specs
        for full_spec, spec in zip(full_specs, shared_specs, strict=True):
            where = f"{kind}/{action_set}/{spec.name} ({dialect})"
            full = _parameters(full_spec.schema(dialect), dialect)
            sent = _parameters(spec.schema(dialect), dialect)
            assert _description(spec.schema(dialect), dialect) == _description(
                full_spec.schema(dialect), dialect
            )
            assert list(sent["properties"]) == list(full["properties"]), where
            assert sent.get("required", []) == full.get("required", []), where
            for name, prop in full["properties"].items():
                got = sent["properties"][name]
                if got == prop:
                    continue
                entry = covering(name, prop)
                assert entry is not None, (where, name)
                assert entry in SHARED_PARAMETERS and entry.text in prompt
                gone = {k: v for k, v in prop.items() if k not in got}
                assert set(gone) <= {"description", *entry.limits}, (where, name, gone)
                assert {k: v for k, v in prop.items() if k not in gone} == got, (where, name)
                stripped += 1
    assert stripped > 20


def test_a_description_saying_more_than_the_shared_one_stays(
    spaces: dict[tuple[str, str], list[Action]],
) -> None:
    (scroll,) = [a for a in spaces[("desktop", "marks")] if a.name == "scroll"]
    (swipe,) = [a for a in spaces[("phone", "marks")] if a.name == "swipe_from"]
    scroll_props = ToolSpec("s", "s", scroll, shared=True).schema("openai")["function"][
        "parameters"
    ]["properties"]
    assert "mouse pointer" in scroll_props["elem"]["description"]
    swipe_props = ToolSpec("s", "s", swipe, shared=True).schema("openai")["function"]["parameters"][
        "properties"
    ]
    # A coordinate keeps its own description (pixels of the phone's screenshot, issue 31);
    # only the 0-10000 cap, which read as a normalised scale, is said once in the prompt.
    assert set(swipe_props["x"]) == {"type", "description"}
    assert "phone's screenshot" in swipe_props["x"]["description"]
    assert "edge" in swipe_props["to_x"]["description"] and "maximum" not in swipe_props["to_x"]


class PromptRecorder(Recorder):
    def __init__(self) -> None:
        super().__init__()
        self.systems: list[str] = []

    def complete(
        self, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()
    ) -> ProviderReply:
        self.systems.append(system)
        return super().complete(system, messages, tools)


@pytest.mark.parametrize(
    ("settings", "shared"),
    [
        (ModelSettings(), True),
        (ModelSettings(prompt_tools="names"), True),
        (ModelSettings(prompt_tools="full"), False),
        (ModelSettings(mode="json"), False),
    ],
)
def test_the_prompt_states_what_the_definitions_leave_out(
    spaces: dict[tuple[str, str], list[Action]], settings: ModelSettings, shared: bool
) -> None:
    from reefbench.agents.shared_parameters import shared_text
    from reefbench.envs import memory as m
    from reefbench.tasks.task import Task

    recorder = PromptRecorder()
    agent = SingleAgent(recorder, settings)
    task = Task(id="t", instruction="tap it", nodes={"a": m.file_exists("a.txt").on("phone")})
    agent.reset(task, {"phone": spaces[("phone", "marks")]}, {"phone": "A phone."})
    agent.act(Turn(1, {}))
    assert (shared_text() in recorder.systems[0]) is shared
    native = settings.mode == "native"
    assert ('"maximum": 10000' in recorder.tools[0]) is (native and not shared)
    assert ("left edge of the phone's screenshot" in recorder.tools[0]) is native
