"""What every model provider speaks: a provider-neutral conversation and reply.

Agents build a conversation of :class:`Message` s made of parts (text, images, tool calls,
tool results); each provider module translates it into its own SDK's request and the
response back into a :class:`ProviderReply`. Keeping the conversation neutral is what lets
one agent run against OpenAI, Anthropic, Gemini or any OpenAI-compatible server, and lets
tests script replies with a fake provider.
"""

from __future__ import annotations

import copy
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from reefbench.actions.spec import Action, compact_text
from reefbench.agents.providers.dialects import tool_schema
from reefbench.agents.shared_parameters import strip_shared
from reefbench.episodes.protocol import Usage
from reefbench.errors import ReefError


class ProviderError(ReefError):
    """A model request failed for good (retries exhausted, or an error retrying cannot fix).

    Raised out of ``agent.act``, it ends the episode as ``agent_error``: an infrastructure
    outcome, never counted as the agent failing the task.
    """


# Prefix of tool-call ids made up for models that return calls without one.
SYNTHETIC_ID = "reef-call-"


# ------------------------------------------------------------------ conversation parts
@dataclass(frozen=True, slots=True)
class TextPart:
    text: str


@dataclass(frozen=True, slots=True)
class ImagePart:
    """An image as bytes with its MIME type (``image/png`` or ``image/jpeg``)."""

    data: bytes
    mime_type: str


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A tool call the model made. ``error`` is set when it could not be parsed
    (``arguments`` is then empty and ``raw`` holds what the model sent)."""

    id: str
    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    raw: str = ""


@dataclass(frozen=True, slots=True)
class ToolResultPart:
    """The outcome of one earlier :class:`ToolCall`, sent back to the model."""

    call_id: str
    name: str
    content: str
    is_error: bool = False


Part = TextPart | ImagePart | ToolCall | ToolResultPart


@dataclass(slots=True)
class Message:
    """One message of the conversation.

    ``native`` may hold the provider's own form of an assistant message (Gemini thought
    signatures, Anthropic thinking blocks) so it is sent back exactly as received.
    """

    role: Literal["user", "assistant"]
    parts: list[Part]
    native: Any = None

    @property
    def text(self) -> str:
        return "\n".join(p.text for p in self.parts if isinstance(p, TextPart))

    @property
    def tool_calls(self) -> list[ToolCall]:
        return [p for p in self.parts if isinstance(p, ToolCall)]


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """An action offered to the model as a tool under ``name`` (e.g. ``laptop__click``)."""

    name: str
    description: str
    action: Action | None = None  # None: a tool with no parameters that no environment runs
    # Leave out what the prompt says once (reefbench.agents.shared_parameters).
    shared: bool = False

    def schema(self, provider: str) -> dict[str, Any]:
        """The tool definition in ``provider``'s shape, renamed and re-described."""
        description = compact_text(self.description)
        if self.action is None:
            return _parameterless(provider, self.name, description)
        schema = copy.deepcopy(_tool_schema(self.action, provider))
        target = schema["function"] if provider == "openai" else schema
        target["name"] = self.name
        target["description"] = description
        if self.shared:
            parameters = target.get(
                {"openai": "parameters", "anthropic": "input_schema"}.get(provider, "parameters"),
                {},
            )
            strip_shared(parameters.get("properties", {}))
        return schema


# Schema generation costs ~0.4 ms per action (pydantic); agents need the same schemas at
# every reset and request. Actions are immutable once built (binding makes a copy), so
# caching by identity is safe; weak keys let actions of finished tasks go.
_SCHEMAS: weakref.WeakKeyDictionary[Action, dict[str, dict[str, Any]]] = weakref.WeakKeyDictionary()


def _tool_schema(action: Action, provider: str) -> dict[str, Any]:
    cached = _SCHEMAS.setdefault(action, {})
    if provider not in cached:
        cached[provider] = tool_schema(action, provider)
    return cached[provider]


def parameters_schema(action: Action) -> dict[str, Any]:
    """``action.parameters_schema``, computed once per action (treat it as read-only)."""
    cached = _SCHEMAS.setdefault(action, {})
    if "" not in cached:
        cached[""] = action.parameters_schema
    return cached[""]


def _parameterless(provider: str, name: str, description: str) -> dict[str, Any]:
    empty = {"type": "object", "properties": {}}
    if provider == "openai":
        return {
            "type": "function",
            "function": {"name": name, "description": description, "parameters": empty},
        }
    if provider == "anthropic":
        return {"name": name, "description": description, "input_schema": empty}
    return {"name": name, "description": description}


@dataclass(frozen=True, slots=True)
class ProviderReply:
    """What a model answered: its text, its tool calls and the tokens the request used."""

    text: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    native: Any = None

    def as_message(self) -> Message:
        parts: list[Part] = [TextPart(self.text)] if self.text else []
        parts.extend(self.tool_calls)
        return Message("assistant", parts, self.native)


@runtime_checkable
class Provider(Protocol):
    """A model behind an API. ``name`` is the model string, e.g. ``openai/gpt-4o``."""

    name: str

    def complete(
        self,
        system: str,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec] = (),
    ) -> ProviderReply:
        """Send one request; retries transient failures, raises :class:`ProviderError`."""
        ...


@dataclass(frozen=True, slots=True)
class Pricing:
    """US dollars per million tokens; cached prompt tokens may be billed differently."""

    prompt: float
    completion: float
    cached: float | None = None

    def cost(self, usage: Usage) -> float:
        cached_rate = self.prompt if self.cached is None else self.cached
        uncached = usage.prompt_tokens - usage.cached_tokens
        return (
            uncached * self.prompt
            + usage.cached_tokens * cached_rate
            + usage.completion_tokens * self.completion
        ) / 1_000_000


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """Exponential backoff with jitter for rate limits (429), server errors (5xx), timeouts.

    Attempt ``n`` (0-based) waits between half and all of ``min(cap, base * 2**n)`` seconds,
    or the server's ``Retry-After`` when that is longer (and below ``cap``).
    """

    attempts: int = 6
    base: float = 1.0
    cap: float = 60.0


@dataclass(frozen=True, slots=True)
class ProviderOptions:
    """Request settings shared by every provider.

    Attributes:
        max_tokens: Completion token limit per request.
        temperature: Sampling temperature; ``None`` keeps the provider's default (as CRAB).
        timeout: Seconds before a request is abandoned (then retried).
        retry: The backoff policy; the SDKs' own retries are switched off so every
            provider retries the same way.
        pricing: Turns token usage into ``cost_usd``; no built-in prices (they change).
    """

    max_tokens: int = 2048
    temperature: float | None = None
    timeout: float = 120.0
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    pricing: Pricing | None = None
