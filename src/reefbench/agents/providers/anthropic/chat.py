"""Anthropic Messages API with the official ``anthropic`` SDK (imported lazily).

Tool results go back as ``tool_result`` blocks at the start of the next user message;
screenshots as base64 ``image`` blocks with their media type. Anthropic reports cache reads
and writes apart from ``input_tokens``; all three are prompt tokens here.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any

from reefbench.agents.providers.anthropic.client import sdk_client
from reefbench.agents.providers.base import (
    ImagePart,
    Message,
    ProviderOptions,
    ProviderReply,
    TextPart,
    ToolCall,
    ToolResultPart,
    ToolSpec,
)
from reefbench.agents.providers.dialects import SchemaDialect
from reefbench.agents.providers.retry import (
    EmptyReply,
    call_with_retries,
    transient_status,
    transient_transport,
)
from reefbench.episodes.protocol import Usage


class AnthropicProvider:
    """A Claude model.

    Args:
        model: Model name, e.g. ``claude-sonnet-4-5``.
        api_key: From ``ANTHROPIC_API_KEY`` of the harness.
        base_url: Override of the API root (tests point it at a local server).
        options: Tokens, timeout, retries, pricing.
    """

    # The tool-schema shape this API takes; the provider table declares the same.
    dialect: SchemaDialect = "anthropic"

    def __init__(
        self,
        model: str,
        *,
        api_key: str,
        base_url: str | None = None,
        options: ProviderOptions | None = None,
    ) -> None:
        self.model = model
        self.name = f"anthropic/{model}"
        self.options = options or ProviderOptions()
        self._secrets = (api_key,)
        self._client = sdk_client(api_key, base_url, self.options.timeout)

    def complete(
        self, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()
    ) -> ProviderReply:
        request: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.options.max_tokens,
            "system": system,
            "messages": to_anthropic_messages(messages),
        }
        if self.options.temperature is not None:
            request["temperature"] = self.options.temperature
        if tools:
            request["tools"] = [t.schema(self.dialect) for t in tools]
        return call_with_retries(
            self.name,
            lambda: self._reply(self._client.messages.create(**request)),
            _is_transient,
            self.options.retry,
            secrets=self._secrets,
        )

    def _reply(self, response: Any) -> ProviderReply:
        if not response.content:
            raise EmptyReply(
                f"the reply has no content blocks (stop reason {response.stop_reason})"
            )
        texts: list[str] = []
        calls: list[ToolCall] = []
        for block in response.content:
            if block.type == "text":
                texts.append(block.text)
            elif block.type == "tool_use":
                if isinstance(block.input, dict):
                    calls.append(ToolCall(block.id, block.name, dict(block.input)))
                else:
                    calls.append(
                        ToolCall(block.id, block.name, error="input must be a JSON object")
                    )
        return ProviderReply(text="\n".join(texts), tool_calls=calls, usage=self._usage(response))

    def _usage(self, response: Any) -> Usage:
        u = response.usage
        read = u.cache_read_input_tokens or 0
        written = u.cache_creation_input_tokens or 0
        counted = Usage(
            prompt_tokens=(u.input_tokens or 0) + read + written,
            completion_tokens=u.output_tokens or 0,
            cached_tokens=read,
        )
        if self.options.pricing is None:
            return counted
        return counted.model_copy(update={"cost_usd": self.options.pricing.cost(counted)})


def _is_transient(exc: Exception) -> bool:
    return transient_status(getattr(exc, "status_code", None)) or transient_transport(exc)


def to_anthropic_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """The neutral conversation as Messages API messages (tool results first in a turn)."""
    out: list[dict[str, Any]] = []
    for message in messages:
        blocks: list[dict[str, Any]] = []
        if message.role == "assistant":
            for part in message.parts:
                if isinstance(part, TextPart) and part.text:
                    blocks.append({"type": "text", "text": part.text})
                elif isinstance(part, ToolCall):
                    blocks.append(
                        {
                            "type": "tool_use",
                            "id": part.id,
                            "name": part.name,
                            "input": part.arguments,
                        }
                    )
            out.append({"role": "assistant", "content": blocks or [{"type": "text", "text": "…"}]})
            continue
        for part in message.parts:
            if isinstance(part, ToolResultPart):
                blocks.append(
                    {
                        "type": "tool_result",
                        "tool_use_id": part.call_id,
                        "content": part.content,
                        "is_error": part.is_error,
                    }
                )
        for part in message.parts:
            if isinstance(part, TextPart):
                blocks.append({"type": "text", "text": part.text})
            elif isinstance(part, ImagePart):
                data = base64.b64encode(part.data).decode("ascii")
                source = {"type": "base64", "media_type": part.mime_type, "data": data}
                blocks.append({"type": "image", "source": source})
        out.append({"role": "user", "content": blocks})
    return out
