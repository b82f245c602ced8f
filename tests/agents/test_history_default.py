"""Issue 31, item 6: by default a model reads its whole episode: every earlier reasoning
text, call and result, each device's latest observation, and the newest screenshots
(3, as Anthropic's computer-use reference loop); ``--history N`` still limits it."""

from __future__ import annotations

import base64

from reefbench.agents import ModelSettings
from reefbench.agents.llm import Conversation
from reefbench.agents.providers import ImagePart, ProviderReply, TextPart

from .conftest import ScriptedProvider

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)


def _play(conversation: Conversation, steps: int) -> None:
    for step in range(1, steps + 1):
        conversation.ask([TextPart(f"Step {step}."), ImagePart(PNG, "image/png")])


def _sent(provider: ScriptedProvider) -> tuple[str, int]:
    messages = provider.requests[-1][1]
    text = "\n".join(
        getattr(p, "text", "") for m in messages for p in m.parts if isinstance(p, TextPart)
    )
    images = sum(isinstance(p, ImagePart) for m in messages for p in m.parts)
    return text, images


def test_the_default_keeps_the_whole_episode_and_the_three_newest_screenshots() -> None:
    provider = ScriptedProvider(lambda system, messages: ProviderReply(f"plan {len(messages)}"))
    conversation = Conversation(provider, "system")
    _play(conversation, 8)
    text, images = _sent(provider)
    assert all(f"Step {n}." in text for n in range(1, 9))
    replies = [m for m in provider.requests[-1][1] if m.role == "assistant"]
    assert len(replies) == 7  # every earlier reasoning text, not only the last two
    assert images == 3 and text.count("(earlier screenshot omitted)") == 5
    assert ModelSettings().history is None  # the policies' default is the same


def test_history_still_limits_the_window() -> None:
    provider = ScriptedProvider(lambda system, messages: ProviderReply("ok"))
    conversation = Conversation(provider, "system", history=2)
    _play(conversation, 8)
    text, images = _sent(provider)
    assert "Step 5." not in text and all(f"Step {n}." in text for n in (6, 7, 8))
    assert images == 3
