"""The opt-in answer judge, through the official OpenAI SDK against a local server."""

from __future__ import annotations

import pytest

from reefbench.agents.judge import ModelJudge, parse_verdict
from reefbench.agents.providers import ProviderError, ProviderOptions, make_provider

from .conftest import FAKE_KEY, FAST_RETRY, FakeServer, Scripted


def judge_on(server: FakeServer) -> ModelJudge:
    provider = make_provider(
        "openai/judge-test",
        ProviderOptions(retry=FAST_RETRY),
        base_url=f"http://127.0.0.1:{server.port}/v1",
        environ={"OPENAI_API_KEY": FAKE_KEY},
    )
    return ModelJudge(provider)


def test_the_judge_sends_question_facts_and_answer_and_reads_its_verdict(
    openai_server: FakeServer,
) -> None:
    openai_server.script(Scripted('Sure. {"correct": true, "reason": "names Studio C"}'))
    verdict = judge_on(openai_server)("Where is it?", "in Studio C", ["Studio C"])
    assert verdict == (True, "names Studio C")
    (body,) = openai_server.bodies
    sent = "\n".join(str(m["content"]) for m in body["messages"])
    assert "Where is it?" in sent and "- Studio C" in sent and "Answer: in Studio C" in sent


def test_an_unreadable_verdict_is_the_judges_failure() -> None:
    assert parse_verdict('{"correct": false, "reason": "no room"}') == (False, "no room")
    for reply in ("yes", '{"correct": "yes"}', "{broken"):
        with pytest.raises(ProviderError, match="did not reply with a verdict"):
            parse_verdict(reply)
