"""Observation policies: which devices a request carries, the notes for the others, and
history that holds each device's observation once (real PNGs compared by Pillow)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image, ImageDraw

from reefbench.actions.spec import ActionCall
from reefbench.agents.images import screens_differ
from reefbench.agents.llm import Conversation, observation_parts
from reefbench.agents.observation import (
    DEFAULT_OBSERVE,
    OBSERVATION_POLICIES,
    Observer,
    get_observation_policy,
    observations_differ,
)
from reefbench.agents.providers import ImagePart, ProviderReply, TextPart
from reefbench.episodes.protocol import CallResult
from reefbench.errors import ConfigError

from .conftest import ScriptedProvider


def png(shade: int = 200, *, text: str = "", caret_at: int | None = None) -> bytes:
    """A 320x200 'screen': a background, optional text, optional 1-px caret."""
    image = Image.new("RGB", (320, 200), (shade, shade, shade))
    draw = ImageDraw.Draw(image)
    if text:
        draw.text((20, 20), text, fill=(0, 0, 0))
    if caret_at is not None:
        draw.line([(caret_at, 60), (caret_at, 78)], fill=(0, 0, 0), width=1)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def obs(screen: bytes, elements: str = "[1] button 'OK'") -> dict[str, Any]:
    return {"screenshot": screen, "elements": elements}


def acted(*envs: str) -> list[CallResult]:
    return [CallResult(ActionCall(env=e, name="click", arguments={}), "ok") for e in envs]


def test_the_default_policy_is_changed_and_unknown_names_are_one_line() -> None:
    assert DEFAULT_OBSERVE == "changed" and set(OBSERVATION_POLICIES) == {
        "all",
        "latest",
        "changed",
    }
    with pytest.raises(ConfigError, match=r"^unknown observation policy 'some': choose one of"):
        get_observation_policy("some")


def test_a_blinking_caret_is_not_a_change_but_new_text_is() -> None:
    base = png(text="Inbox (3)")
    assert not screens_differ(png(text="Inbox (3)", caret_at=150), base)
    assert screens_differ(png(text="Inbox (4)"), base)
    assert screens_differ(png(shade=120), base)
    assert observations_differ(obs(base), obs(base, "[1] button 'Cancel'"))
    assert not observations_differ(obs(base), obs(png(text="Inbox (3)", caret_at=150)))


def test_changed_carries_everything_first_then_acted_on_and_changed_devices() -> None:
    observer = Observer(get_observation_policy("changed"), history=2)
    screens = {"laptop": obs(png(200)), "phone": obs(png(150)), "browser": obs(png(100))}
    first = observer.select(1, screens, [])
    assert list(first.carried) == ["laptop", "phone", "browser"] and first.notes == []
    # The laptop was acted on (same screen), the browser changed by itself, the phone not.
    second_screens = {**screens, "browser": obs(png(100, text="New mail"))}
    second = observer.select(2, second_screens, acted("laptop"))
    assert list(second.carried) == ["laptop", "browser"]
    assert second.notes == ["[phone] unchanged since step 1"]
    # Compared with what was last *sent*: the browser is now unchanged since step 2.
    third = observer.select(3, second_screens, acted("laptop"))
    assert list(third.carried) == ["laptop"]
    assert third.notes == [
        "[phone] unchanged since step 1",
        "[browser] unchanged since step 2",
    ]
    # Step 1's message leaves the two-exchange window: the phone's text is sent again (its
    # element numbers stay usable), not its screenshot.
    fourth = observer.select(4, second_screens, acted("laptop"))
    assert list(fourth.carried) == ["laptop", "phone"]
    assert fourth.carried["phone"] == {"elements": "[1] button 'OK'"}
    assert fourth.notes[0] == (
        "[phone] unchanged since step 1; its text is above, not its screenshot"
    )
    fifth = observer.select(5, second_screens, acted("laptop"))
    assert "phone" not in fifth.carried
    assert fifth.notes[0] == "[phone] unchanged since step 1"


def test_all_and_latest_carry_every_device_every_step() -> None:
    for name in ("all", "latest"):
        observer = Observer(get_observation_policy(name), history=2)
        screens = {"laptop": obs(png(200)), "phone": obs(png(150))}
        for step in (1, 2, 3):
            chosen = observer.select(step, screens, [])
            assert list(chosen.carried) == ["laptop", "phone"] and chosen.notes == []


def images(messages: list[Any]) -> int:
    return sum(isinstance(p, ImagePart) for m in messages for p in m.parts)


# Without superseding a two-turn window would carry 2, 4, 6, 6 screenshots; the default cap
# keeps the newest 3 (issue 31).
@pytest.mark.parametrize(("supersede", "expected"), [(False, [2, 3, 3, 3]), (True, [2, 2, 2, 2])])
def test_history_holds_each_device_once_when_superseding(
    supersede: bool, expected: list[int]
) -> None:
    provider = ScriptedProvider(lambda system, messages: ProviderReply("ok"))
    conversation = Conversation(provider, "sys", history=2, supersede=supersede)
    screens = {"laptop": obs(png(200)), "phone": obs(png(150))}
    for _ in expected:
        parts: list[Any] = [TextPart("Step")]
        index: dict[str, list[int]] = {}
        parts += observation_parts(screens, index=index, offset=len(parts))
        assert index == {"laptop": [1, 2, 3], "phone": [4, 5, 6]}
        conversation.ask(parts, index)
    assert [images(messages) for _, messages, _ in provider.requests] == expected
    if supersede:
        _, last, _ = provider.requests[-1]
        earlier = [p.text for p in last[0].parts if isinstance(p, TextPart)]
        assert "[laptop] (observation superseded by a later one)" in earlier


def test_an_unchanged_device_keeps_its_earlier_observation_in_the_request() -> None:
    provider = ScriptedProvider(lambda system, messages: ProviderReply("ok"))
    conversation = Conversation(provider, "sys", history=2, supersede=True)
    # Step 1 carries both; step 2 only the laptop: the phone's step-1 image must stay.
    first = observation_parts({"laptop": obs(png(200)), "phone": obs(png(150))}, index=(i1 := {}))
    conversation.ask(first, i1)
    second = observation_parts({"laptop": obs(png(90))}, index=(i2 := {}))
    conversation.ask(second, i2)
    _, messages, _ = provider.requests[-1]
    earlier_images = [p for p in messages[0].parts if isinstance(p, ImagePart)]
    assert len(earlier_images) == 1 and earlier_images[0].data == png(150)
    assert images(messages) == 2
