"""The conversation a native computer-use agent holds is one the real APIs accept: each call
of the model is answered exactly once, in the turn right after it, whatever the agent
answered by itself (a switch of device, a screenshot). The wire servers refuse what the
real APIs refuse (:mod:`.wire_rules`); the first tests here show that they do, through
each official SDK, so the episode tests below can fail.
"""

from __future__ import annotations

from typing import Any

import pytest

from reefbench.environments.pointer import png_size
from reefbench.episodes.episode import Episode
from reefbench.tasks.task import SubtaskInfo, Task, TaskMetadata

from .conftest import FAKE_KEY, MODELS, Request, Said, WireServer, find_colour
from .test_native_agents import DesktopScreen, PhoneScreen, target_clicked

pytest.importorskip("PIL")


# ------------------------------------------------------------------ the servers refuse
def _switch_then(server: WireServer) -> None:
    server.brain = lambda request: [Said("function", name="switch_device", args={"name": "phone"})]


def _anthropic(server: WireServer) -> Any:
    anthropic = pytest.importorskip("anthropic")
    return anthropic.Anthropic(api_key=FAKE_KEY, base_url=server.base_url, max_retries=0)


USED = {"type": "tool_use", "id": "toolu_a", "name": "switch_device", "input": {"name": "p"}}


def _result(call_id: str) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": call_id, "content": "now looking at 'p'"}


@pytest.mark.parametrize("server", ["anthropic"], indirect=True)
@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ([_result("toolu_a"), _result("toolu_b")], "unexpected `tool_use_id`"),
        ([_result("toolu_a"), _result("toolu_a")], "multiple `tool_result` blocks"),
        ([{"type": "text", "text": "here"}], "without `tool_result` blocks"),
        ([{"type": "text", "text": "here"}, _result("toolu_a")], "must come first"),
        ([{**_result("toolu_a"), "screenshot": "x"}], "Extra inputs are not permitted"),
    ],
    ids=["answers-no-call", "answered-twice", "unanswered", "text-first", "unknown-field"],
)
def test_anthropic_s_server_refuses_what_the_messages_api_refuses(
    server: WireServer, answer: list[dict[str, Any]], message: str
) -> None:
    import anthropic

    _switch_then(server)
    client = _anthropic(server)
    conversation = [
        {"role": "user", "content": "Turn on Bluetooth."},
        {"role": "assistant", "content": [USED]},
        {"role": "user", "content": answer},
    ]
    with pytest.raises(anthropic.BadRequestError, match=message):
        client.beta.messages.create(model=MODELS["anthropic"], max_tokens=64, messages=conversation)
    # The same conversation answered right is accepted.
    conversation[-1] = {"role": "user", "content": [_result("toolu_a")]}
    reply = client.beta.messages.create(
        model=MODELS["anthropic"], max_tokens=64, messages=conversation
    )
    assert reply.content[0].type == "tool_use"


@pytest.mark.parametrize("server", ["openai"], indirect=True)
def test_the_responses_server_refuses_outputs_that_answer_no_call_of_the_previous_response(
    server: WireServer,
) -> None:
    openai = pytest.importorskip("openai")
    _switch_then(server)
    client = openai.OpenAI(api_key=FAKE_KEY, base_url=server.base_url, max_retries=0)
    first = client.responses.create(model=MODELS["openai"], input="Turn on Bluetooth.")
    (call,) = [item for item in first.output if item.type == "function_call"]

    def output(call_id: str) -> dict[str, Any]:
        return {"type": "function_call_output", "call_id": call_id, "output": "done"}

    wrong: list[tuple[list[dict[str, Any]], str]] = [
        ([output(call.call_id), output("call_0002")], "No tool call found for function call"),
        ([output(call.call_id), output(call.call_id)], "No tool call found for function call"),
        ([{"role": "user", "content": "go on"}], "No tool output found for function call"),
        (
            [{"type": "computer_call_output", "call_id": call.call_id,
              "output": {"type": "computer_screenshot", "image_url": "data:image/png;base64,"}}],
            "No tool call found for computer call output",
        ),
        ([{**output(call.call_id), "image": "x"}], "Extra inputs are not permitted"),
    ]  # fmt: skip
    for items, message in wrong:
        with pytest.raises(openai.BadRequestError, match=message):
            client.responses.create(
                model=MODELS["openai"], input=items, previous_response_id=first.id
            )
    with pytest.raises(openai.BadRequestError, match="Previous response with id"):
        client.responses.create(
            model=MODELS["openai"], input=[output(call.call_id)], previous_response_id="resp_x"
        )
    accepted = client.responses.create(
        model=MODELS["openai"], input=[output(call.call_id)], previous_response_id=first.id
    )
    assert accepted.id != first.id


@pytest.mark.parametrize("server", ["google"], indirect=True)
def test_gemini_s_server_refuses_function_responses_that_do_not_match_the_calls(
    server: WireServer,
) -> None:
    pytest.importorskip("google.genai")
    from google.genai import errors, types

    from reefbench.agents.providers.gemini.client import sdk_client

    _switch_then(server)
    client, _ = sdk_client(FAKE_KEY, server.base_url, 30)  # the SDK's client, as agents make it

    def respond(name: str) -> types.Part:
        return types.Part(function_response=types.FunctionResponse(name=name, response={}))

    asked = types.Content(
        role="model",
        parts=[types.Part(function_call=types.FunctionCall(name="click_at", args={"x": 1}))],
    )
    start = types.Content(role="user", parts=[types.Part(text="Turn on Bluetooth.")])
    for answer, message in [
        ([respond("switch_device"), respond("click_at")], "number of function response parts"),
        ([types.Part(text="here")], "number of function response parts"),
        ([respond("switch_device")], "answers its calls by name"),
    ]:
        contents = [start, asked, types.Content(role="user", parts=answer)]
        with pytest.raises(errors.ClientError, match=message):
            client.models.generate_content(model=MODELS["google"], contents=contents)
    contents = [start, asked, types.Content(role="user", parts=[respond("click_at")])]
    reply = client.models.generate_content(model=MODELS["google"], contents=contents)
    assert reply.candidates and reply.candidates[0].content


# ------------------------------------------------------------------ the agent's turns
def phone_task() -> Task:
    """A phone task in a world that also has a desktop (listed first)."""
    return Task(
        id="phone-click",
        instruction="On the phone, tap the magenta button.",
        nodes={"tapped": target_clicked().on("phone")},
        metadata=TaskMetadata(
            environments=["desktop", "phone"],
            subtasks=[SubtaskInfo(id="s0", env="phone", nodes=["tapped"])],
        ),
    )


def test_each_call_is_answered_once_across_a_switch_a_look_and_a_miss(
    server: WireServer,
) -> None:
    """The model switches to the desktop and back, asks for a screenshot, misses once and
    then taps the target: every request is accepted by the strict server (on the code
    before the fix, the fourth answered the switches again and was refused)."""
    desktop, phone = DesktopScreen("desktop"), PhoneScreen("phone")
    plan = iter(["switch:desktop", "switch:phone", "look", "miss", "hit"])

    def brain(request: Request) -> list[Said]:
        step = next(plan, "hit")
        if step.startswith("switch:"):
            return [Said("function", name="switch_device", args={"name": step[7:]})]
        if step == "look":  # Gemini has no screenshot function: it looks by switching
            if server.wire == "google":
                return [Said("function", name="switch_device", args={"name": "phone"})]
            return [Said("screenshot")]
        x, y = find_colour(request.screenshot()) or (0, 0)
        return [Said("click", x, y + (200 if step == "miss" else 0))]

    server.brain = brain
    episode = Episode(phone_task(), server.agent(), {"desktop": desktop, "phone": phone})
    result = episode.run()
    assert server.refused == []
    assert result.success, (result.termination, [t.message for t in result.trajectory])
    assert len(server.requests) >= 5
    assert not desktop.clicks and len(phone.clicks) == 2


def test_the_agent_starts_on_the_device_of_the_task_s_first_subtask(server: WireServer) -> None:
    desktop, phone = DesktopScreen("desktop"), PhoneScreen("phone")

    def taps(request: Request) -> list[Said]:
        return [Said("click", *find_colour(request.screenshot()))]  # type: ignore[misc]

    server.brain = taps
    episode = Episode(phone_task(), server.agent(), {"desktop": desktop, "phone": phone})
    result = episode.run()
    assert result.success, (result.termination, result.error)
    first = server.requests[0]
    width, height = png_size(first.screenshot())
    assert height > width  # the phone's screen, not the desktop's
    assert "You are looking at 'phone'" in first.texts()
    assert len(server.requests) == 1  # no switch spent
