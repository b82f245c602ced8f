"""Google Gemini (``generateContent``) with the official ``google-genai`` SDK (lazy import).

Tool results go back as ``functionResponse`` parts (``{"output": ...}`` or
``{"error": ...}``) in the next user turn; screenshots as ``inlineData`` blobs. A model's
own turn is replayed exactly as received so thought signatures survive the history.
"""

from __future__ import annotations

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
from reefbench.agents.providers.gemini.client import sdk_client
from reefbench.agents.providers.retry import (
    EmptyReply,
    call_with_retries,
    transient_status,
    transient_transport,
)
from reefbench.episodes.protocol import Usage


class GeminiProvider:
    """A Gemini model on the Gemini API (not Vertex AI).

    Args:
        model: Model name, e.g. ``gemini-2.5-pro``.
        api_key: From ``GEMINI_API_KEY`` or ``GOOGLE_API_KEY`` of the harness.
        base_url: Override of the API root (tests point it at a local server).
        options: Tokens, timeout, retries, pricing.
    """

    # The tool-schema shape this API takes; the provider table declares the same.
    dialect: SchemaDialect = "gemini"

    def __init__(
        self,
        model: str,
        *,
        api_key: str,
        base_url: str | None = None,
        options: ProviderOptions | None = None,
    ) -> None:
        self.model = model
        self.name = f"google/{model}"
        self.options = options or ProviderOptions()
        self._secrets = (api_key,)
        self._client, self._types = sdk_client(api_key, base_url, self.options.timeout)

    def complete(
        self, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()
    ) -> ProviderReply:
        types = self._types
        config: dict[str, Any] = {
            "system_instruction": system,
            "max_output_tokens": self.options.max_tokens,
        }
        if self.options.temperature is not None:
            config["temperature"] = self.options.temperature
        if tools:
            declarations = [
                types.FunctionDeclaration.model_validate(t.schema(self.dialect)) for t in tools
            ]
            config["tools"] = [types.Tool(function_declarations=declarations)]
        contents = self.to_contents(messages)
        return call_with_retries(
            self.name,
            lambda: self._reply(
                self._client.models.generate_content(
                    model=self.model,
                    contents=contents,
                    config=types.GenerateContentConfig(**config),
                )
            ),
            _is_transient,
            self.options.retry,
            secrets=self._secrets,
        )

    def _reply(self, response: Any) -> ProviderReply:
        usage = self._usage(response)
        candidates = response.candidates or []
        if not candidates:
            raise EmptyReply("the reply has no candidates")
        content = candidates[0].content
        if content is None or not content.parts:
            reason = candidates[0].finish_reason
            raise EmptyReply(f"the candidate has no parts (finish reason {reason})")
        texts: list[str] = []
        calls: list[ToolCall] = []
        for index, part in enumerate(content.parts):
            if part.function_call is not None:
                fc = part.function_call
                call_id = fc.id or f"{SYNTHETIC_ID}{index}"
                if fc.args is None or isinstance(fc.args, dict):
                    calls.append(ToolCall(call_id, fc.name or "", dict(fc.args or {})))
                else:
                    calls.append(ToolCall(call_id, fc.name or "", error="args must be an object"))
            elif part.text and not part.thought:
                texts.append(part.text)
        return ProviderReply(text="\n".join(texts), tool_calls=calls, usage=usage, native=content)

    def _usage(self, response: Any) -> Usage:
        meta = response.usage_metadata
        if meta is None:
            return Usage()
        counted = Usage(
            prompt_tokens=(meta.prompt_token_count or 0) + (meta.tool_use_prompt_token_count or 0),
            completion_tokens=(meta.candidates_token_count or 0) + (meta.thoughts_token_count or 0),
            cached_tokens=meta.cached_content_token_count or 0,
        )
        if self.options.pricing is None:
            return counted
        return counted.model_copy(update={"cost_usd": self.options.pricing.cost(counted)})

    def to_contents(self, messages: Sequence[Message]) -> list[Any]:
        """The neutral conversation as ``Content`` objects (model turns replayed as-is)."""
        types = self._types
        out: list[Any] = []
        for message in messages:
            if message.role == "assistant":
                if message.native is not None:
                    out.append(message.native)
                    continue
                parts = [types.Part(text=p.text) for p in message.parts if isinstance(p, TextPart)]
                parts += [
                    types.Part(
                        function_call=types.FunctionCall(id=c.id, name=c.name, args=c.arguments)
                    )
                    for c in message.tool_calls
                ]
                out.append(types.Content(role="model", parts=parts or [types.Part(text="…")]))
                continue
            parts = []
            for part in message.parts:
                if isinstance(part, ToolResultPart):
                    key = "error" if part.is_error else "output"
                    response = types.FunctionResponse(
                        id=None if part.call_id.startswith(SYNTHETIC_ID) else part.call_id,
                        name=part.name,
                        response={key: part.content},
                    )
                    parts.append(types.Part(function_response=response))
            for part in message.parts:
                if isinstance(part, TextPart):
                    parts.append(types.Part(text=part.text))
                elif isinstance(part, ImagePart):
                    blob = types.Blob(mime_type=part.mime_type, data=part.data)
                    parts.append(types.Part(inline_data=blob))
            out.append(types.Content(role="user", parts=parts))
        return out


def _is_transient(exc: Exception) -> bool:
    code = getattr(exc, "code", None)
    return transient_status(code if isinstance(code, int) else None) or transient_transport(exc)
