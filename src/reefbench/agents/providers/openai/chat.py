"""OpenAI Chat Completions, and any server that speaks it (vLLM, SGLang, Ollama, LM Studio).

Uses the official ``openai`` SDK (imported when a provider is created, never at package
import). Tool results go back as ``tool`` messages answering each ``tool_call_id``;
screenshots as ``image_url`` parts with ``data:`` URLs of the right MIME type.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from typing import Any

from reefbench.agents.providers.base import (
    SYNTHETIC_ID,
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
from reefbench.agents.providers.openai.client import sdk_client
from reefbench.agents.providers.retry import (
    EmptyReply,
    call_with_retries,
    transient_status,
    transient_transport,
)
from reefbench.episodes.protocol import Usage


class OpenAIProvider:
    """A chat model behind the OpenAI API or an OpenAI-compatible server.

    Args:
        model: Model name as the server knows it.
        api_key: The key (from the harness's environment; never stored elsewhere).
        base_url: Server root including ``/v1``; ``None`` means api.openai.com.
        options: Tokens, timeout, retries, pricing.
        compatible: An OpenAI-compatible server: sends ``max_tokens`` (widely supported)
            instead of ``max_completion_tokens``.
    """

    # The tool-schema shape this API takes; the provider table declares the same.
    dialect: SchemaDialect = "openai"

    def __init__(
        self,
        model: str,
        *,
        api_key: str,
        base_url: str | None = None,
        options: ProviderOptions | None = None,
        compatible: bool = False,
    ) -> None:
        self.model = model
        self.options = options or ProviderOptions()
        self.compatible = compatible
        self.name = f"openai-compatible/{model}@{base_url}" if compatible else f"openai/{model}"
        self._secrets = (api_key,)
        self._client = sdk_client(api_key, base_url, self.options.timeout)

    def complete(
        self, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()
    ) -> ProviderReply:
        request: dict[str, Any] = {
            "model": self.model,
            "messages": to_openai_messages(system, messages),
        }
        limit = "max_tokens" if self.compatible else "max_completion_tokens"
        request[limit] = self.options.max_tokens
        if self.options.temperature is not None:
            request["temperature"] = self.options.temperature
        if tools:
            request["tools"] = [t.schema(self.dialect) for t in tools]
        return call_with_retries(
            self.name,
            lambda: self._reply(self._client.chat.completions.create(**request)),
            _is_transient,
            self.options.retry,
            secrets=self._secrets,
        )

    def _reply(self, response: Any) -> ProviderReply:
        if not response.choices:
            raise EmptyReply("the reply has no choices")
        message = response.choices[0].message
        calls = [_tool_call(i, c) for i, c in enumerate(message.tool_calls or [])]
        return ProviderReply(
            text=message.content or "", tool_calls=calls, usage=self._usage(response)
        )

    def _usage(self, response: Any) -> Usage:
        usage = response.usage
        if usage is None:  # some compatible servers do not report usage
            return Usage()
        details = usage.prompt_tokens_details
        cached = (details.cached_tokens or 0) if details is not None else 0
        counted = Usage(
            prompt_tokens=usage.prompt_tokens or 0,
            completion_tokens=usage.completion_tokens or 0,
            cached_tokens=cached,
        )
        if self.options.pricing is None:
            return counted
        return counted.model_copy(update={"cost_usd": self.options.pricing.cost(counted)})


def _is_transient(exc: Exception) -> bool:
    return transient_status(getattr(exc, "status_code", None)) or transient_transport(exc)


def _tool_call(index: int, call: Any) -> ToolCall:
    call_id = call.id or f"{SYNTHETIC_ID}{index}"
    function = getattr(call, "function", None)
    if function is None:
        kind = getattr(call, "type", "?")
        return ToolCall(call_id, "", error=f"unsupported tool call type {kind!r}")
    raw = function.arguments or ""
    try:
        arguments = json.loads(raw) if raw.strip() else {}
    except json.JSONDecodeError as exc:
        return ToolCall(
            call_id, function.name, error=f"arguments are not valid JSON ({exc})", raw=raw
        )
    if not isinstance(arguments, dict):
        return ToolCall(call_id, function.name, error="arguments must be a JSON object", raw=raw)
    return ToolCall(call_id, function.name, arguments, raw=raw)


def to_openai_messages(system: str, messages: Sequence[Message]) -> list[dict[str, Any]]:
    """The neutral conversation as Chat Completions messages."""
    out: list[dict[str, Any]] = [{"role": "system", "content": system}]
    for message in messages:
        if message.role == "assistant":
            out.append(_assistant(message))
            continue
        for part in message.parts:
            if isinstance(part, ToolResultPart):
                out.append({"role": "tool", "tool_call_id": part.call_id, "content": part.content})
        content = [_content(p) for p in message.parts if isinstance(p, TextPart | ImagePart)]
        if content:
            out.append({"role": "user", "content": content})
    return out


def _assistant(message: Message) -> dict[str, Any]:
    entry: dict[str, Any] = {"role": "assistant", "content": message.text or None}
    calls = message.tool_calls
    if calls:
        entry["tool_calls"] = [
            {
                "id": c.id,
                "type": "function",
                "function": {
                    "name": c.name,
                    "arguments": c.raw if c.error else json.dumps(c.arguments),
                },
            }
            for c in calls
        ]
    return entry


def _content(part: TextPart | ImagePart) -> dict[str, Any]:
    if isinstance(part, TextPart):
        return {"type": "text", "text": part.text}
    encoded = base64.b64encode(part.data).decode("ascii")
    return {
        "type": "image_url",
        "image_url": {"url": f"data:{part.mime_type};base64,{encoded}", "detail": "high"},
    }
