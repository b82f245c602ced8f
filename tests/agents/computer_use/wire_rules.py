"""What the three computer-use APIs refuse, for the local wire servers: a request the real
API answers with 400 is answered with 400 here too, in that provider's error shape and
with its own message where it is known, so an agent that would break against the real
service breaks in the tests.

Two kinds of rules, both written from the providers' documented formats and the official
SDKs' request types, never from our agents:

* **Shapes.** Every message, input item, content and tool is validated against the SDK's
  own request types (``anthropic.types.beta.BetaMessageParam``, ``openai.types.responses.
  ResponseInputItemParam``, ``google.genai.types.Content`` ...). A field the type does not
  know, an image where the type has none, a wrong media type or a missing field is refused.
* **The conversation.** Tool results answer the calls of the previous assistant turn, each
  exactly once: Anthropic's ``tool_result`` blocks answer the ``tool_use`` blocks of the
  message before and come first in the user message; the Responses API's outputs answer
  the calls of ``previous_response_id`` (the server keeps what it answered, as the API
  does); Gemini's function response parts match the previous turn's function calls one
  for one.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from functools import cache
from typing import Any

# The Messages API's beta header names the computer tool's version (the SDK sends
# ``betas=[...]`` as ``anthropic-beta``).
ANTHROPIC_TOOL_BETAS = {
    "computer_20250124": "computer-use-2025-01-24",
    "computer_20251124": "computer-use-2025-11-24",
}


class Refused(Exception):
    """A request the real API answers with 400."""

    def __init__(self, message: str, param: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.param = param


def error_body(wire: str, refused: Refused) -> dict[str, Any]:
    """The provider's own JSON error shape for a 400."""
    if wire == "anthropic":
        return {
            "type": "error",
            "error": {"type": "invalid_request_error", "message": refused.message},
        }
    if wire == "openai":
        return {
            "error": {
                "message": refused.message,
                "type": "invalid_request_error",
                "param": refused.param,
                "code": None,
            }
        }
    return {"error": {"code": 400, "message": refused.message, "status": "INVALID_ARGUMENT"}}


# ------------------------------------------------------------------ shapes (SDK types)
def _plain(value: Any) -> Any:
    """A validated value as plain lists and dicts (pydantic keeps ``Iterable`` fields as
    lazy iterators, which validate as they are read)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, str | bytes):
        return value
    if isinstance(value, list | tuple) or hasattr(value, "__iter__"):
        return [_plain(v) for v in value]
    return value


def _unknown_fields(sent: Any, known: Any, where: str) -> list[str]:
    """Fields of ``sent`` that validation dropped (a TypedDict keeps only what it knows)."""
    if isinstance(sent, dict) and isinstance(known, dict):
        out = [f"{where}.{key}" for key in sent if key not in known]
        for key, value in sent.items():
            if key in known:
                out += _unknown_fields(value, known[key], f"{where}.{key}")
        return out
    if isinstance(sent, list) and isinstance(known, list):
        out = []
        for i, (a, b) in enumerate(zip(sent, known, strict=False)):
            out += _unknown_fields(a, b, f"{where}.{i}")
        return out
    return []


@cache
def _adapter(name: str) -> Any:
    import pydantic

    if name == "anthropic.message":
        from anthropic.types.beta import BetaMessageParam

        return pydantic.TypeAdapter(BetaMessageParam)
    if name == "anthropic.tool":
        from anthropic.types.beta import BetaToolUnionParam

        return pydantic.TypeAdapter(BetaToolUnionParam)
    if name == "openai.item":
        from openai.types.responses import ResponseInputItemParam

        return pydantic.TypeAdapter(ResponseInputItemParam)
    if name == "openai.tool":
        from openai.types.responses import ToolParam

        return pydantic.TypeAdapter(ToolParam)
    raise KeyError(name)


def check_shape(adapter: str, value: Any, where: str) -> None:
    """``value`` is of the SDK's request type, with no field the type does not know."""
    import pydantic

    try:
        known = _plain(_adapter(adapter).validate_python(value))
    except pydantic.ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        raise Refused(f"{where}: {first['msg']} ({loc})", where) from None
    unknown = _unknown_fields(value, known, where)
    if unknown:
        raise Refused(f"{unknown[0]}: Extra inputs are not permitted", unknown[0])


# ------------------------------------------------------------------ Anthropic
def check_anthropic(body: dict[str, Any], headers: dict[str, str]) -> None:
    """The Messages API (stateless: the whole conversation is in every request)."""
    for key in ("model", "max_tokens", "messages"):
        if key not in body:
            raise Refused(f"{key}: Field required")
    tools = body.get("tools") or []
    for i, tool in enumerate(tools):
        check_shape("anthropic.tool", tool, f"tools.{i}")
        beta = ANTHROPIC_TOOL_BETAS.get(tool.get("type", ""))
        if beta is not None and beta not in headers.get("anthropic-beta", ""):
            raise Refused(f"tools.{i}: the {tool['type']} tool needs the beta header '{beta}'")
    names = [t.get("name") for t in tools]
    if len(names) != len(set(names)):
        raise Refused("tools: Tool names must be unique.")
    messages = body["messages"]
    if not messages or messages[0].get("role") != "user":
        raise Refused('messages: first message must use the "user" role')
    for i, message in enumerate(messages):
        check_shape("anthropic.message", message, f"messages.{i}")
    for i, message in enumerate(messages):
        blocks = message["content"] if isinstance(message["content"], list) else []
        used = [b["id"] for b in blocks if b.get("type") == "tool_use"]
        answered = [b["tool_use_id"] for b in blocks if b.get("type") == "tool_result"]
        if message["role"] == "assistant":
            if not used:
                continue
            after = messages[i + 1] if i + 1 < len(messages) else None
            if after is None:
                continue  # a conversation ending on the assistant is refused below
            got = [
                b["tool_use_id"]
                for b in (after["content"] if isinstance(after["content"], list) else [])
                if b.get("type") == "tool_result"
            ]
            missing = [u for u in used if u not in got]
            if after["role"] != "user" or missing:
                raise Refused(
                    f"messages.{i + 1}: `tool_use` ids were found without `tool_result` "
                    f"blocks immediately after: {', '.join(missing or used)}. Each `tool_use` "
                    "block must have a corresponding `tool_result` block in the next message."
                )
            continue
        if not answered:
            continue
        before = messages[i - 1] if i else None
        previous = [
            b["id"]
            for b in (before["content"] if before and isinstance(before["content"], list) else [])
            if b.get("type") == "tool_use"
        ]
        for j, block in enumerate(blocks):
            if block.get("type") != "tool_result":
                continue
            if block["tool_use_id"] not in previous:
                raise Refused(
                    f"messages.{i}.content.{j}: unexpected `tool_use_id` found in "
                    f"`tool_result` blocks: {block['tool_use_id']}. Each `tool_result` block "
                    "must have a corresponding `tool_use` block in the previous message."
                )
        twice = [k for k, n in Counter(answered).items() if n > 1]
        if twice:
            raise Refused(
                f"messages.{i}: each tool_use must have a single result. Found multiple "
                f"`tool_result` blocks with id: {twice[0]}"
            )
        kinds = [b.get("type") for b in blocks]
        if kinds[: len(answered)] != ["tool_result"] * len(answered):
            raise Refused(
                f"messages.{i}: tool_result blocks must come first in the user message "
                "content, before any other block"
            )
    if messages[-1]["role"] != "user":
        raise Refused('messages: the last message must use the "user" role')


# ------------------------------------------------------------------ OpenAI Responses
_OUTPUT_OF = {"function_call": "function_call_output", "computer_call": "computer_call_output"}
_CALL_WORD = {"function_call_output": "function call", "computer_call_output": "computer call"}


class ResponsesState:
    """What the Responses API remembers between requests: each response's calls (by
    ``call_id``: its item type and pending safety check ids), for ``previous_response_id``."""

    def __init__(self) -> None:
        self.calls: dict[str, dict[str, tuple[str, tuple[str, ...]]]] = {}

    def remember(self, response: dict[str, Any]) -> None:
        calls: dict[str, tuple[str, tuple[str, ...]]] = {}
        for item in response.get("output", []):
            if item["type"] in _OUTPUT_OF:
                checks = tuple(c["id"] for c in item.get("pending_safety_checks") or [])
                calls[item["call_id"]] = (item["type"], checks)
        self.calls[response["id"]] = calls

    def check(self, body: dict[str, Any]) -> None:
        if "model" not in body:
            raise Refused("Missing required parameter: 'model'.", "model")
        for i, tool in enumerate(body.get("tools") or []):
            check_shape("openai.tool", tool, f"tools[{i}]")
        items = body.get("input")
        if isinstance(items, str):
            items = [{"role": "user", "content": items}]
        if not isinstance(items, list) or not items:
            raise Refused("Missing required parameter: 'input'.", "input")
        for i, item in enumerate(items):
            check_shape("openai.item", item, f"input[{i}]")
        previous = body.get("previous_response_id")
        if previous is not None and previous not in self.calls:
            raise Refused(
                f"Previous response with id '{previous}' not found.", "previous_response_id"
            )
        pending = self.calls.get(previous, {}) if previous else {}
        answered: set[str] = set()
        for i, item in enumerate(items):
            kind = item.get("type")
            if kind not in _CALL_WORD:
                continue
            call_id = item["call_id"]
            call = pending.get(call_id)
            if call is None or _OUTPUT_OF[call[0]] != kind or call_id in answered:
                raise Refused(
                    f"No tool call found for {_CALL_WORD[kind]} output with call_id {call_id}.",
                    f"input[{i}]",
                )
            answered.add(call_id)
            acknowledged = {c["id"] for c in item.get("acknowledged_safety_checks") or []}
            if not acknowledged <= set(call[1]):
                raise Refused(
                    f"input[{i}].acknowledged_safety_checks: no pending safety check "
                    f"{sorted(acknowledged - set(call[1]))[0]} on call {call_id}.",
                    f"input[{i}]",
                )
        for call_id, (kind, _) in pending.items():
            if call_id not in answered:
                word = "function call" if kind == "function_call" else "computer call"
                raise Refused(f"No tool output found for {word} {call_id}.", "input")


# ------------------------------------------------------------------ Gemini
def check_gemini(body: dict[str, Any]) -> None:
    """generateContent (stateless: the whole conversation is in every request)."""
    from google.genai import types
    from pydantic import ValidationError

    contents = body.get("contents")
    if not contents:
        raise Refused("* GenerateContentRequest.contents: contents is not specified")
    parsed: list[Any] = []
    for i, content in enumerate(contents):
        try:
            parsed.append(types.Content.model_validate_json(json.dumps(content)))
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = ".".join(str(p) for p in first["loc"])
            raise Refused(
                f"* GenerateContentRequest.contents[{i}]: {first['msg']} ({loc})"
            ) from None
    for key in ("tools", "systemInstruction", "generationConfig"):
        if key not in body:
            continue
        kind = {"tools": types.Tool, "systemInstruction": types.Content,
                "generationConfig": types.GenerationConfig}[key]  # fmt: skip
        values = body[key] if key == "tools" else [body[key]]
        for value in values:
            try:
                kind.model_validate_json(json.dumps(value))
            except ValidationError as exc:
                first = exc.errors()[0]
                raise Refused(f"* GenerateContentRequest.{key}: {first['msg']}") from None
    for i, content in enumerate(parsed):
        calls = [p.function_call for p in content.parts or [] if p.function_call]
        responses = [p.function_response for p in content.parts or [] if p.function_response]
        if responses:
            before = parsed[i - 1] if i else None
            asked = [p.function_call for p in (before.parts if before else None) or []
                     if p.function_call]  # fmt: skip
            if content.role != "user" or not asked or len(asked) != len(responses):
                raise Refused(
                    "Please ensure that the number of function response parts is equal to "
                    "the number of function call parts of the function call turn."
                )
            _match(asked, responses)
        if calls and content.role != "model":
            raise Refused(f"* GenerateContentRequest.contents[{i}]: function calls are the model's")
        if calls and i + 1 < len(parsed):
            after = parsed[i + 1]
            answered = [p for p in after.parts or [] if p.function_response]
            if len(answered) != len(calls):
                raise Refused(
                    "Please ensure that the number of function response parts is equal to "
                    "the number of function call parts of the function call turn."
                )
    if parsed[-1].role != "user":
        raise Refused("* GenerateContentRequest.contents: the last content must be the user's")


def _match(calls: Iterable[Any], responses: Iterable[Any]) -> None:
    """Function responses answer the turn's calls: the same names (and ids where given)."""
    asked = Counter(c.name for c in calls)
    told = Counter(r.name for r in responses)
    if asked != told:
        raise Refused(
            "Please ensure that function response turn comes immediately after a function "
            f"call turn, and answers its calls by name (asked {sorted(asked)}, answered "
            f"{sorted(told)})."
        )
    ids = {c.id for c in calls if c.id}
    for r in responses:
        if r.id and ids and r.id not in ids:
            raise Refused(f"function response id {r.id} answers no function call of the turn")


class Rules:
    """The rules of one wire, with the state the real service keeps between requests."""

    def __init__(self, wire: str) -> None:
        self.wire = wire
        self.responses = ResponsesState()

    def check(self, body: Any, headers: dict[str, str]) -> None:
        if not isinstance(body, dict):
            raise Refused("the request body must be a JSON object")
        if self.wire == "anthropic":
            check_anthropic(body, headers)
        elif self.wire == "openai":
            self.responses.check(body)
        elif self.wire == "google":
            check_gemini(body)

    def remember(self, payload: Any) -> None:
        """What the service keeps of its answer (the Responses API's calls)."""
        if self.wire == "openai" and isinstance(payload, dict) and "output" in payload:
            self.responses.remember(payload)
