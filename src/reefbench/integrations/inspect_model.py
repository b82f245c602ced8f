"""An Inspect AI model as a reefbench provider: reef's agent loop, Inspect's model API.

Under ``inspect eval`` the model is Inspect's (``--model openai/...``, its keys, retries,
limits, logging); everything else is reef's: the agent that reads observations and keeps
the history is reef's default single agent, the episode that runs each call, counts steps
and invalid actions and checks the graph is reef's. This module is the seam between them:
:class:`InspectProvider` speaks reef's provider-neutral conversation
(:mod:`reefbench.agents.providers.base`) and asks an Inspect :class:`~inspect_ai.model.Model`.

The episode runs on a thread of its own (environments such as Playwright are bound to the
thread that started them); each request is handed to the sample's event loop with
:func:`asyncio.run_coroutine_threadsafe` from a thread that runs in the sample's context,
so Inspect records every request and reply in the sample's transcript and applies its
limits, as for any solver.
"""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Sequence
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
    Content,
    ContentImage,
    ContentText,
    Model,
    ModelOutput,
)
from inspect_ai.tool import ToolCall as InspectToolCall
from inspect_ai.tool import ToolCallError, ToolInfo, ToolParams

from reefbench.agents.providers.base import (
    ImagePart,
    Message,
    ProviderError,
    ProviderReply,
    TextPart,
    ToolCall,
    ToolResultPart,
    ToolSpec,
)
from reefbench.episodes.protocol import Usage


class InspectProvider:
    """A reefbench :class:`~reefbench.agents.providers.base.Provider` backed by an Inspect
    model, called from an episode's thread.

    Args:
        model: The Inspect model (``get_model()`` in the solver).
        loop: The sample's event loop, where the model's coroutines run.

    Attributes:
        failure: The exception an Inspect request raised (a limit reached, retries
            exhausted), kept so the solver raises it again once the episode has ended:
            Inspect then treats it as it treats any solver's (a limit ends the sample and
            it is scored; an error marks the sample as errored, not failed).
    """

    def __init__(self, model: Model, loop: asyncio.AbstractEventLoop) -> None:
        self.model = model
        self.loop = loop
        self.name = f"inspect/{model}"
        self.failure: BaseException | None = None

    def complete(
        self, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()
    ) -> ProviderReply:
        """Send one request through Inspect; an Inspect failure ends the episode as the
        model's outage (:class:`ProviderError`), never as the agent failing the task."""
        if self.failure is not None:
            raise ProviderError(f"the Inspect model failed earlier: {self.failure}")
        chat = chat_messages(system, messages)
        infos = [tool_info(spec) for spec in tools]
        future = asyncio.run_coroutine_threadsafe(self.model.generate(chat, tools=infos), self.loop)
        try:
            output = future.result()
        except BaseException as exc:
            self.failure = exc
            raise ProviderError(
                f"Inspect model request failed: {type(exc).__name__}: {exc}"
            ) from exc
        return provider_reply(output)


def tool_info(spec: ToolSpec) -> ToolInfo:
    """The Inspect definition of a reef tool: its name, description and JSON schema (the
    OpenAI dialect, which Inspect's :class:`ToolParams` is made of)."""
    function = spec.schema("openai")["function"]
    parameters = function.get("parameters") or {"type": "object", "properties": {}}
    return ToolInfo(
        name=function["name"],
        description=function["description"],
        parameters=ToolParams.model_validate(parameters),
    )


def chat_messages(system: str, messages: Sequence[Message]) -> list[ChatMessage]:
    """Reef's conversation as Inspect messages: a user message's tool results become tool
    messages (answering the assistant message before it), its text and images a user
    message after them; an assistant message goes back as Inspect gave it."""
    chat: list[ChatMessage] = [ChatMessageSystem(content=system)]
    for message in messages:
        if message.role == "assistant":
            chat.append(_assistant(message))
            continue
        rest: list[Content] = []
        for part in message.parts:
            if isinstance(part, ToolResultPart):
                chat.append(
                    ChatMessageTool(
                        content=part.content,
                        tool_call_id=part.call_id,
                        function=part.name,
                        error=ToolCallError("unknown", part.content) if part.is_error else None,
                    )
                )
            elif isinstance(part, TextPart):
                rest.append(ContentText(text=part.text))
            elif isinstance(part, ImagePart):
                data = base64.b64encode(part.data).decode("ascii")
                rest.append(ContentImage(image=f"data:{part.mime_type};base64,{data}"))
        if rest:
            chat.append(ChatMessageUser(content=rest))
    return chat


def _assistant(message: Message) -> ChatMessageAssistant:
    if isinstance(message.native, ChatMessageAssistant):
        return message.native  # reasoning and provider fields kept as received
    calls = [
        InspectToolCall(id=c.id, function=c.name, arguments=c.arguments, parse_error=c.error)
        for c in message.tool_calls
    ]
    return ChatMessageAssistant(content=message.text, tool_calls=calls or None)


def provider_reply(output: ModelOutput) -> ProviderReply:
    """Inspect's output as reef's reply: the text, the tool calls, the tokens."""
    message = output.message
    calls = [
        ToolCall(
            id=c.id,
            name=c.function,
            arguments=dict(c.arguments or {}),
            error=c.parse_error,
            raw="" if c.parse_error is None else str(c.arguments),
        )
        for c in message.tool_calls or []
    ]
    return ProviderReply(text=message.text, tool_calls=calls, usage=_usage(output), native=message)


def _usage(output: ModelOutput) -> Usage:
    usage: Any = output.usage
    if usage is None:
        return Usage()
    return Usage(
        prompt_tokens=usage.input_tokens,
        completion_tokens=usage.output_tokens,
        cached_tokens=usage.input_tokens_cache_read or 0,
        cost_usd=usage.total_cost or 0.0,
    )
