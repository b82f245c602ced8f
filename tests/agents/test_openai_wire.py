"""OpenAI specifics: malformed tool calls, request timeouts, OpenAI-compatible servers in
JSON mode, and keys that stay with their provider."""

from __future__ import annotations

import contextlib
import threading

from reefbench import Episode
from reefbench.agents import ModelSettings, SingleAgent
from reefbench.agents.providers import Message, ProviderOptions, TextPart, make_provider
from reefbench.episodes.protocol import UNPARSABLE
from reefbench.suites import memory

from .conftest import FAKE_KEY, FAST_RETRY, FakeServer, Scripted

WRITE_NOTE = next(t for t in memory.load() if t.id == "mem-write-note")
NOTE = {"path": "notes/hello.txt", "content": "hello world"}


def openai(server: FakeServer, **options: object) -> object:
    opts = ProviderOptions(retry=FAST_RETRY, **options)  # type: ignore[arg-type]
    return make_provider(
        "openai/gpt-test",
        opts,
        base_url=f"http://127.0.0.1:{server.port}/v1",
        environ={"OPENAI_API_KEY": FAKE_KEY},
    )


def test_malformed_tool_arguments_are_an_invalid_action(openai_server: FakeServer) -> None:
    openai_server.script(Scripted("", [("laptop__write_file", {})], raw_arguments='{"path": '))
    result = Episode(
        WRITE_NOTE,
        SingleAgent(openai(openai_server)),
        memory.make_environments(),
        invalid_tolerance=0,  # one reply scripted: end on it (CRAB's rule)
    ).run()
    assert result.termination == "invalid_action" and result.invalid_actions == 1
    (record,) = result.trajectory[0].calls
    assert record.name == UNPARSABLE and record.status == "invalid"
    assert record.error is not None and "not valid JSON" in record.error


def test_the_error_of_a_malformed_call_is_shown_on_its_id(openai_server: FakeServer) -> None:
    openai_server.script(
        Scripted("", [("laptop__write_file", {})], raw_arguments="{oops"),
        Scripted("", [("laptop__write_file", NOTE)]),
    )
    agent = SingleAgent(openai(openai_server))
    episode = Episode(WRITE_NOTE, agent, memory.make_environments(), invalid_tolerance=1)
    assert episode.run().success
    second = openai_server.bodies[1]["messages"]
    assistant = next(m for m in second if m["role"] == "assistant")
    assert assistant["tool_calls"][0]["function"]["arguments"] == "{oops"  # replayed as sent
    tool = next(m for m in second if m["role"] == "tool")
    assert tool["tool_call_id"] == assistant["tool_calls"][0]["id"]
    assert "could not be read" in tool["content"] and "not valid JSON" in tool["content"]


def test_a_request_that_times_out_is_retried(openai_server: FakeServer) -> None:
    openai_server.hold = threading.Event()  # the first request hangs until teardown
    openai_server.script(Scripted("late"), Scripted("on time"))
    provider = openai(openai_server, timeout=0.3)
    reply = provider.complete("sys", [Message("user", [TextPart("hi")])])  # type: ignore[attr-defined]
    assert reply.text in ("late", "on time")
    assert len(openai_server.requests) == 2


def test_openai_compatible_json_mode(openai_server: FakeServer) -> None:
    url = f"http://127.0.0.1:{openai_server.port}/v1"
    provider = make_provider(
        f"openai-compatible/qwen-vl@{url}", environ={"OPENAI_COMPATIBLE_API_KEY": FAKE_KEY}
    )
    openai_server.script(
        Scripted(
            "I see no files. I will write the note.\n"
            '```json\n{"name": "laptop__write_file", "arguments": '
            '{"path": "notes/hello.txt", "content": "hello world"}}\n```'
        )
    )
    agent = SingleAgent(provider, ModelSettings(mode="json"))
    result = Episode(WRITE_NOTE, agent, memory.make_environments()).run()
    assert result.success, result.error
    body = openai_server.bodies[0]
    assert "tools" not in body and body["max_tokens"] == 2048
    assert "max_completion_tokens" not in body
    system = body["messages"][0]["content"]
    assert '{"name": "<tool name>", "arguments"' in system and "laptop__write_file(" in system


def test_an_openai_key_is_never_sent_to_a_compatible_server(openai_server: FakeServer) -> None:
    url = f"http://127.0.0.1:{openai_server.port}/v1"
    provider = make_provider(
        f"openai-compatible/m@{url}",
        ProviderOptions(retry=FAST_RETRY),
        environ={"OPENAI_API_KEY": FAKE_KEY},
    )
    with contextlib.suppress(Exception):  # the fake server refuses any other key
        provider.complete("s", [Message("user", [TextPart("hi")])])
    sent = openai_server.requests[0].headers["authorization"]
    assert FAKE_KEY not in sent and sent == "Bearer no-key"
