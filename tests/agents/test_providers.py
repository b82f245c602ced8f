"""Each provider end to end: official SDK -> local server speaking that wire format.

Checked per provider: the request carries the tool schemas, the screenshots with their
MIME types, the truncated history and the real results of earlier calls; tool calls
become action calls; token usage sums; 429 then 200, and an empty 200, are retried; a 500
storm ends the episode as ``agent_error``; the key never lands in a result file or a log.
"""

from __future__ import annotations

import io
import logging
from pathlib import Path
from typing import Any, cast

import pytest
from PIL import Image

from reefbench import Episode, Task, action
from reefbench.agents import ModelSettings, SingleAgent
from reefbench.agents.providers import Message, ProviderError, TextPart
from reefbench.envs import memory as m
from reefbench.log.store import ResultsStore
from reefbench.runner import RunConfig
from reefbench.runner.engine import Runner

from .conftest import FAKE_KEY, FAST_RETRY, Scripted, Wire


def _image(fmt: str, color: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 6), color).save(out, format=fmt)
    return out.getvalue()


PNG = _image("PNG", "red")
JPEG = _image("JPEG", "blue")


@action
def screenshot(env: Any) -> bytes:
    """The screen."""
    return env.image


class Screen(m.MemoryEnvironment):
    def __init__(self, name: str, image: bytes) -> None:
        super().__init__(name)
        self.image = image
        self.observation_space["screenshot"] = screenshot


def envs() -> dict[str, m.MemoryEnvironment]:
    return {"laptop": Screen("laptop", PNG), "phone": Screen("phone", JPEG)}


TASK = Task(
    id="write-two",
    instruction='Write "1" to a.txt on the laptop and "2" to b.txt on the phone.',
    nodes={"a": m.file_exists("a.txt").on("laptop"), "b": m.file_exists("b.txt").on("phone")},
)


def write(env: str, path: str, content: str = "x") -> tuple[str, dict[str, Any]]:
    return (f"{env}__write_file", {"path": path, "content": content})


def test_request_carries_tools_images_history_and_real_results(wire: Wire) -> None:
    wire.server.script(
        Scripted(
            "I write a.", [write("laptop", "a.txt", "1")], prompt=100, completion=7, cached=40
        ),
        Scripted("I read a missing file.", [("laptop__read_file", {"path": "nope.txt"})]),
        Scripted("Now b.", [write("phone", "b.txt", "2")], prompt=30, completion=3),
    )
    result = Episode(TASK, SingleAgent(wire.provider()), envs()).run()
    assert result.termination == "success", result.error
    first, second, third = wire.server.bodies

    names = wire.tool_names(first)
    assert {"laptop__write_file", "phone__write_file", "root__complete", "root__call_user"} <= set(
        names
    )
    params = wire.tool_parameters(first, "laptop__write_file")
    assert set(params["properties"]) == {"path", "content"}
    assert sorted(params["required"]) == ["content", "path"]
    assert "laptop__write_file" in wire.system(first) and TASK.instruction in wire.system(first)

    assert wire.images(first) == [("image/png", PNG), ("image/jpeg", JPEG)]

    # The results of the previous turn go back on the calls' own ids, with real content.
    results = wire.tool_results(second)
    assert len(results) == 1 and "wrote 1 characters to a.txt" in results[0][1]
    failed = wire.tool_results(third)[-1][1]
    assert "failed" in failed and "no file at nope.txt" in failed

    # Tokens: prompt + completion (+ cached) summed over the three requests.
    assert result.usage.prompt_tokens == 100 + 10 + 30
    assert result.usage.completion_tokens == 7 + 5 + 3
    assert result.usage.cached_tokens == 40
    assert [t.usage.prompt_tokens for t in result.trajectory] == [100, 10, 30]


def test_history_keeps_the_whole_episode_by_default(wire: Wire) -> None:
    wire.server.script(
        *[Scripted(f"turn {i}", [("root__wait", {})]) for i in range(1, 4)],
        Scripted("done", [write("laptop", "a.txt"), write("phone", "b.txt")]),
    )
    result = Episode(TASK, SingleAgent(wire.provider()), envs()).run()
    assert result.termination == "success", result.error
    last = wire.server.bodies[3]
    texts = "\n".join(wire.user_texts(last))
    assert all(f"Step {n} of " in texts for n in (1, 2, 3, 4))  # none fell out (issue 31)
    roles = [r for r in wire.roles(last) if r != "tool"]
    assert (
        roles.count("user") == 4
        and roles.count("assistant" if wire.name != "google" else "model") == 3
    )
    assert len(wire.tool_results(last)) == 3  # every result answers its call


def test_history_2_keeps_the_last_two_turns(wire: Wire) -> None:
    wire.server.script(
        *[Scripted(f"turn {i}", [("root__wait", {})]) for i in range(1, 4)],
        Scripted("done", [write("laptop", "a.txt"), write("phone", "b.txt")]),
    )
    agent = SingleAgent(wire.provider(), ModelSettings(history=2))
    result = Episode(TASK, agent, envs()).run()
    assert result.termination == "success", result.error
    last = wire.server.bodies[3]
    texts = "\n".join(wire.user_texts(last))
    assert "Step 1 of " not in texts  # fell out of the window
    assert "Step 2 of " in texts and "Step 3 of " in texts and "Step 4 of " in texts
    # Three user turns and two model turns (+ tool messages for OpenAI).
    roles = [r for r in wire.roles(last) if r != "tool"]
    assert (
        roles.count("user") == 3
        and roles.count("assistant" if wire.name != "google" else "model") == 2
    )
    # The oldest kept turn answered a call that is no longer in the request: as text.
    assert wire.tool_results(last)[0][0] != ""  # remaining results answer kept calls
    assert len(wire.tool_results(last)) == 2
    assert any("Result of your earlier call root__wait" in t for t in wire.user_texts(last))


def test_history_window_is_configurable(wire: Wire) -> None:
    wire.server.script(
        Scripted("", [("root__wait", {})]),
        Scripted("", [write("laptop", "a.txt"), write("phone", "b.txt")]),
    )
    agent = SingleAgent(wire.provider(), ModelSettings(history=0))
    assert Episode(TASK, agent, envs()).run().success
    second = wire.server.bodies[1]
    assert [r for r in wire.roles(second) if r != "system"] == ["user"]
    assert wire.tool_results(second) == []  # detached into text: no call to answer
    assert any("root__wait: " in t for t in wire.user_texts(second))


def test_429_then_200_is_retried(wire: Wire) -> None:
    wire.server.script(Scripted(status=429), Scripted("hello"))
    reply = wire.provider().complete("sys", [Message("user", [TextPart("hi")])])
    assert reply.text == "hello" and len(wire.server.requests) == 2


def test_a_500_storm_ends_in_agent_error(wire: Wire) -> None:
    wire.server.default = Scripted(status=500)
    result = Episode(TASK, SingleAgent(wire.provider()), envs()).run()
    assert result.termination == "agent_error" and result.infrastructure_failure
    assert not result.success and result.steps == 1
    assert len(wire.server.requests) == FAST_RETRY.attempts
    assert result.error is not None and "500" in result.error and "gave up" in result.error


def test_an_empty_reply_is_retried_like_a_server_error(wire: Wire) -> None:
    """HTTP 200 with no choices / content blocks / candidates is the server failing."""
    wire.server.script(Scripted(empty=True), Scripted("hello"))
    reply = wire.provider().complete("sys", [Message("user", [TextPart("hi")])])
    assert reply.text == "hello" and len(wire.server.requests) == 2


def test_empty_replies_that_persist_end_in_agent_error_not_invalid_action(wire: Wire) -> None:
    wire.server.default = Scripted(empty=True)
    result = Episode(TASK, SingleAgent(wire.provider()), envs()).run()
    assert result.termination == "agent_error" and result.infrastructure_failure
    assert result.invalid_actions == 0
    assert len(wire.server.requests) == FAST_RETRY.attempts


def test_a_gemini_candidate_without_parts_is_an_empty_reply() -> None:
    from types import SimpleNamespace

    from reefbench.agents.providers.gemini.chat import GeminiProvider
    from reefbench.agents.providers.retry import EmptyReply

    bare = SimpleNamespace(content=None, finish_reason="SAFETY")
    response = SimpleNamespace(candidates=[bare], usage_metadata=None)
    with pytest.raises(EmptyReply, match="finish reason SAFETY"):
        GeminiProvider._reply(cast(Any, SimpleNamespace(_usage=lambda r: None)), response)


def test_a_bad_key_is_not_retried_and_says_so(wire: Wire) -> None:
    from reefbench.agents.providers import ProviderOptions, make_provider

    base = {"openai": "/v1", "anthropic": "", "google": "/"}[wire.name]
    provider = make_provider(
        f"{wire.name}/m",
        ProviderOptions(retry=FAST_RETRY),
        base_url=f"http://127.0.0.1:{wire.server.port}{base}",
        environ={"OPENAI_API_KEY": "x", "ANTHROPIC_API_KEY": "x", "GEMINI_API_KEY": "x"},
    )
    with pytest.raises(ProviderError, match="401"):
        provider.complete("sys", [Message("user", [TextPart("hi")])])
    assert len(wire.server.requests) == 1


def test_no_key_in_any_result_file_or_log(
    wire: Wire, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    wire.server.script(
        Scripted("", [write("laptop", "a.txt"), write("phone", "b.txt")]),  # task 1 succeeds
        Scripted(status=429),
    )
    wire.server.default = Scripted(status=503)  # task 2 ends in agent_error after retries
    provider = wire.provider()
    tasks = [TASK, TASK.model_copy(update={"id": "again"})]
    store = ResultsStore(tmp_path)
    config = RunConfig(suite="memory", max_infra_retries=0, workers=1)
    runner = Runner(config, tasks, lambda key: SingleAgent(provider), envs, store)
    results = runner.run().results
    store.close()
    assert [r.termination for r in results] == ["success", "agent_error"]
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert files
    for path in files:
        assert FAKE_KEY not in path.read_text(errors="replace"), path
    assert "retrying" in caplog.text  # retries are logged ...
    assert FAKE_KEY not in caplog.text  # ... without the key
    assert FAKE_KEY[-12:] not in caplog.text
