"""An episode with the real single agent and the OpenAI SDK against the local
Chat Completions server: under ``changed`` a request carries only the screenshots of the
devices acted on (each device's latest screenshot once), under ``all`` every screenshot of
the window."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from reefbench import Episode
from reefbench.actions.spec import action
from reefbench.agents import ModelSettings, SingleAgent
from reefbench.agents.providers import ProviderOptions, make_provider
from reefbench.envs.memory import MemoryEnvironment, list_files
from reefbench.suites import memory

from .conftest import FAKE_KEY, FAST_RETRY, FakeServer, Scripted

WRITE_NOTE = next(t for t in memory.load() if t.id == "mem-write-note")
NOTE = {"path": "notes/hello.txt", "content": "hello world"}


@action
def screen(env: MemoryEnvironment) -> bytes:
    """The device's screen: one shade per number of files (a real PNG)."""
    shade = 40 + 50 * len(env.files)
    image = Image.new("RGB", (160, 100), (shade, shade, shade))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def screened_devices() -> dict[str, Any]:
    envs = memory.make_environments()
    for env in envs.values():
        env.observation_space = {a.name: a for a in (list_files, screen)}
    return envs


def images(message: dict[str, Any]) -> int:
    content = message.get("content")
    if not isinstance(content, list):
        return 0
    return sum(part.get("type") == "image_url" for part in content)


def texts(message: dict[str, Any]) -> list[str]:
    content = message.get("content")
    if not isinstance(content, list):
        return []
    return [part["text"] for part in content if part.get("type") == "text"]


@pytest.mark.parametrize(
    ("observe", "current", "total"),
    # ``all`` keeps every screenshot of the history up to the default cap of 3 (issue 31).
    [("changed", [2, 1, 1], [2, 2, 2]), ("all", [2, 2, 2], [2, 3, 3])],
)
def test_a_request_carries_the_images_the_policy_chooses(
    openai_server: FakeServer, observe: str, current: list[int], total: list[int]
) -> None:
    openai_server.script(
        Scripted("", [("laptop__read_file", {"path": "missing.txt"})]),  # fails: no change
        Scripted("", [("laptop__copy_text", {"text": "hi"})]),
        Scripted("", [("laptop__write_file", NOTE)]),
    )
    provider = make_provider(
        "openai/gpt-test",
        ProviderOptions(retry=FAST_RETRY),
        base_url=f"http://127.0.0.1:{openai_server.port}/v1",
        environ={"OPENAI_API_KEY": FAKE_KEY},
    )
    agent = SingleAgent(provider, ModelSettings(observe=observe))
    result = Episode(WRITE_NOTE, agent, screened_devices()).run()
    assert result.success and len(openai_server.bodies) == 3
    requests = [body["messages"] for body in openai_server.bodies]
    assert [images(messages[-1]) for messages in requests] == current
    assert [sum(images(m) for m in messages) for messages in requests] == total
    last = "\n".join(texts(requests[2][-1]))
    assert "[laptop] screen:" in last
    if observe == "changed":
        assert "[phone] screen:" not in last
        assert "[phone] unchanged since step 1" in last
        assert "devices you acted on in the previous step" in requests[0][0]["content"]
    else:
        assert "[phone] screen:" in last and "unchanged" not in last
