"""Model-backed roles: JSON-in-text parsing, invalid output, observations as content,
results fed back, tool naming."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image

from reefbench import ActionCall, Episode
from reefbench.agents import ModelSettings, SingleAgent
from reefbench.agents.images import downscale, image_mime
from reefbench.agents.llm import observation_parts, parse_json_actions
from reefbench.agents.providers import ImagePart, ProviderReply, TextPart, ToolCall
from reefbench.agents.tools import Toolbox
from reefbench.environments.root import RootEnvironment
from reefbench.envs import memory as m
from reefbench.episodes.protocol import NO_ACTION, UNPARSABLE, CallResult
from reefbench.errors import ConfigError
from reefbench.suites import memory

from .conftest import ScriptedProvider

TASKS = {t.id: t for t in memory.load()}
WRITE_NOTE = TASKS["mem-write-note"]
JSON_NOTE = (
    '```json\n{"name": "laptop__write_file", "arguments": '
    '{"path": "notes/hello.txt", "content": "hello world"}}\n```'
)


def run(task_id: str, script: list[object], mode: str = "native", tolerance: int = 0):  # type: ignore[no-untyped-def]
    provider = ScriptedProvider(script)
    agent = SingleAgent(provider, ModelSettings(mode=mode))  # type: ignore[arg-type]
    episode = Episode(
        TASKS[task_id], agent, memory.make_environments(), invalid_tolerance=tolerance
    )
    return episode.run(), provider


# ------------------------------------------------------------------ JSON in text
def test_parse_json_actions() -> None:
    text = (
        "Plan first.\n```json\n"
        '{"name": "a", "arguments": {"x": 1}}\n```\nthen\n```\n{"name": "b"}\n```'
    )
    assert parse_json_actions(text) == (
        [{"name": "a", "arguments": {"x": 1}}, {"name": "b", "arguments": {}}],
        [],
    )
    assert parse_json_actions('{"name": "c", "arguments": {}}') == (
        [{"name": "c", "arguments": {}}],
        [],
    )
    assert parse_json_actions("I am thinking.") == ([], [])
    actions, errors = parse_json_actions('```json\n{"name": "a", "arguments": {\n```')
    assert actions == [] and "code block 1 is not valid JSON" in errors[0]
    actions, errors = parse_json_actions('```json\n["a"]\n```')
    assert actions == [] and 'must be {"name"' in errors[0]


def test_json_mode_solves_a_task() -> None:
    result, provider = run("mem-write-note", [JSON_NOTE], mode="json")
    assert result.success
    system, _, tools = provider.requests[0]
    assert tools == [] and "fenced code block" in system


def test_bad_json_is_an_invalid_action_shown_to_the_model_next_turn() -> None:
    result, provider = run(
        "mem-write-note", ['```json\n{"name": "laptop__write_file",\n```', JSON_NOTE], "json", 1
    )
    assert result.success and result.invalid_actions == 1
    first = result.trajectory[0].calls[0]
    assert first.name == UNPARSABLE and "not valid JSON" in (first.error or "")
    shown = provider.requests[1][1][-1].text
    assert "could not be fully read" in shown and "not valid JSON" in shown


def test_bad_json_with_zero_tolerance_ends_the_episode() -> None:
    result, _ = run("mem-write-note", ["```json\n{nope}\n```"], "json")
    assert result.termination == "invalid_action" and result.steps == 1


def test_no_action_is_invalid_and_explained() -> None:
    result, provider = run(
        "mem-write-note",
        [
            "I will think about it.",
            ProviderReply(
                "",
                [
                    ToolCall(
                        "c1",
                        "laptop__write_file",
                        {"path": "notes/hello.txt", "content": "hello world"},
                    )
                ],
            ),
        ],
        tolerance=1,
    )
    assert result.success and result.invalid_actions == 1
    assert result.trajectory[0].calls[0].name == NO_ACTION
    assert "no action" in provider.requests[1][1][-1].text


def test_unknown_and_wrong_environment_tools() -> None:
    reply = ProviderReply(
        "",
        [
            ToolCall("c1", "laptop__fly", {}),  # known environment, unknown action
            ToolCall("c2", "toaster__write_file", {}),  # unknown environment
        ],
    )
    result, provider = run("mem-write-note", [reply, ProviderReply("", [])], tolerance=5)
    assert result.invalid_actions >= 2
    calls = result.trajectory[0].calls
    assert calls[0].name == UNPARSABLE and "unknown tool 'toaster__write_file'" in calls[0].error
    assert calls[1].name == "fly" and "has no action 'fly'" in (calls[1].error or "")
    results = [p for p in provider.requests[1][1][-1].parts if not isinstance(p, TextPart)]
    assert [r.call_id for r in results] == ["c1", "c2"]  # type: ignore[union-attr]
    assert all(r.is_error for r in results)  # type: ignore[union-attr]


def test_toolbox_names_and_decoding() -> None:
    laptop, root = m.MemoryEnvironment("laptop"), RootEnvironment()
    spaces = {
        "laptop": list(laptop.action_space.values()),
        "root": list(root.action_space.values()),
    }
    box = Toolbox(spaces)
    assert "laptop__write_file" in [s.name for s in box.specs]
    assert box.decode("laptop__write_file", {"path": "a"}) == ActionCall(
        env="laptop", name="write_file", arguments={"path": "a"}
    )
    # A bare name that only one environment has is accepted; several is ambiguous.
    assert box.decode("complete", {}) == ActionCall(env="root", name="complete")
    two = Toolbox({"laptop": spaces["laptop"], "phone": spaces["laptop"]})
    assert "ambiguous" in str(two.decode("write_file", {}))
    assert "laptop__write_file(path: string, content: string)" in box.describe()
    with pytest.raises(ConfigError, match="64 characters"):
        Toolbox({"x" * 60: spaces["laptop"]})


# ------------------------------------------------------------------ observations
def _png(size: tuple[int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, "green").save(out, format="PNG")
    return out.getvalue()


def test_observations_become_text_and_typed_images() -> None:
    png = _png((4, 4))
    parts = observation_parts(
        {"laptop": {"files": "a.txt", "shot": png, "blob": b"\x00\x01", "tree": {"k": [1]}}}
    )
    assert parts[0] == TextPart("[laptop] files:\na.txt")
    assert parts[2] == ImagePart(png, "image/png")
    assert parts[3] == TextPart("[laptop] blob: <2 bytes of binary data>")
    assert parts[4] == TextPart('[laptop] tree:\n{"k": [1]}')


def test_image_mime_by_magic_bytes() -> None:
    jpeg = io.BytesIO()
    Image.new("RGB", (2, 2)).save(jpeg, format="JPEG")
    assert image_mime(_png((2, 2))) == "image/png"
    assert image_mime(jpeg.getvalue()) == "image/jpeg"
    assert image_mime(b"GIF89a....") == "image/gif"
    assert image_mime(b"RIFF\x00\x00\x00\x00WEBPVP8 ") == "image/webp"
    assert image_mime(b"hello") is None


def test_downscaling_keeps_format_and_aspect() -> None:
    big = _png((1280, 800))
    data, mime = downscale(big, "image/png", 640)
    with Image.open(io.BytesIO(data)) as image:
        assert image.size == (640, 400) and image.format == "PNG"
    assert mime == "image/png"
    small = _png((100, 50))
    assert downscale(small, "image/png", 640) == (small, "image/png")
    parts = observation_parts({"d": {"shot": big}}, max_image_side=320)
    with Image.open(io.BytesIO(parts[1].data)) as image:  # type: ignore[union-attr]
        assert image.size == (320, 200)


def test_history_without_images_replaces_old_screenshots() -> None:
    from reefbench.agents.llm import Conversation
    from reefbench.agents.providers import Message

    provider = ScriptedProvider(["a", "b"])
    conversation = Conversation(provider, "sys", history_images=False)
    png = _png((2, 2))
    conversation.ask([TextPart("one"), ImagePart(png, "image/png")])
    conversation.ask([TextPart("two"), ImagePart(png, "image/png")])
    sent: list[Message] = provider.requests[1][1]
    assert TextPart("(earlier screenshot omitted)") in sent[0].parts
    assert ImagePart(png, "image/png") in sent[2].parts  # the current one stays


def test_results_are_fed_back_with_status_and_text() -> None:
    from reefbench.agents.llm import describe_result

    ok = CallResult(ActionCall(env="laptop", name="read_file", arguments={"path": "a"}), "ok", "hi")
    failed = CallResult(ActionCall(env="laptop", name="read_file"), "failed", error="no file at a")
    assert describe_result(ok) == "laptop.read_file(path='a') -> ok: hi"
    assert describe_result(failed) == "laptop.read_file() -> failed: no file at a"


# ------------------------------------------------------------------ joined text parts
def _solid_png(color: str) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (40, 30), color).save(buffer, format="PNG")
    return buffer.getvalue()


def _sent(join_text: bool) -> list[list[object]]:
    """The user messages' parts of three requests with two devices, one changing."""
    from reefbench.episodes.protocol import Turn

    provider = ScriptedProvider(["looking"] * 3)
    agent = SingleAgent(provider, ModelSettings(join_text=join_text, invalid_tolerance=9))
    envs = memory.make_environments()
    agent.reset(WRITE_NOTE, {n: list(e.action_space.values()) for n, e in envs.items()}, {})
    for step, color in enumerate(("red", "green", "blue"), 1):
        observations = {
            "laptop": {"screen": _solid_png(color), "elements": f"[1] button 'Step {step}'"},
            "phone": {"screen": _solid_png("white"), "elements": "[1] text 'Home'"},
        }
        agent.act(Turn(step, observations))
    return [
        list(message.parts)
        for _, messages, _ in provider.requests
        for message in messages
        if message.role == "user"
    ]


def test_joined_text_parts_carry_the_same_text_and_images_in_fewer_parts() -> None:
    joined, apart = _sent(True), _sent(False)
    assert len(joined) == len(apart)

    def adjacent_texts(parts: list[object]) -> int:
        return sum(
            isinstance(a, TextPart) and isinstance(b, TextPart)
            for a, b in itertools.pairwise(parts)
        )

    def content(parts: list[object]) -> list[object]:
        """The text between images, and the images, in order."""
        out: list[object] = []
        for part in parts:
            if isinstance(part, TextPart):
                if out and isinstance(out[-1], str):
                    out[-1] = f"{out[-1]}\n{part.text}"
                else:
                    out.append(part.text)
            elif isinstance(part, ImagePart):
                out.append(part.data)
        return out

    assert sum(adjacent_texts(p) for p in apart) > 3  # the test could fail
    assert all(adjacent_texts(p) == 0 for p in joined)
    assert [content(p) for p in joined] == [content(p) for p in apart]
    assert sum(len(p) for p in joined) < sum(len(p) for p in apart)
