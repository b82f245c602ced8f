"""Anthropic's computer tool (Messages API beta) through the official ``anthropic`` SDK.

The model gets one ``computer`` tool (``computer_20250124`` by default, or
``computer_20251124``) sized to the current device's scaled screenshot, plus
``switch_device`` and the root actions as ordinary function tools. Screenshots are scaled
to fit XGA (1024x768), the size Anthropic's computer-use documentation recommends, and
its ``coordinate`` s are mapped back to the device's pixels by the agent.

The conversation is kept whole (Claude's computer-use loop is stateless on the server);
screenshots older than the last :data:`KEEP_SCREENSHOTS` are replaced by a note, as
Anthropic's reference implementation does, to bound the prompt.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any

from reefbench.actions.spec import ActionCall
from reefbench.agents.computer_use.base import (
    SWITCH,
    NativeReply,
    Outcome,
    Request,
    Setup,
)
from reefbench.agents.computer_use.displays import Screen
from reefbench.agents.providers.anthropic.client import sdk_client
from reefbench.agents.providers.base import ProviderOptions
from reefbench.agents.providers.retry import (
    EmptyReply,
    call_with_retries,
    transient_status,
    transient_transport,
)
from reefbench.environments.pointer import Direction, PointerOp, Scale
from reefbench.environments.root import MAX_WAIT_SECONDS, ROOT
from reefbench.episodes.protocol import Usage
from reefbench.errors import ConfigError

TOOL_VERSIONS = {"computer_20250124": "computer-use-2025-01-24",
                 "computer_20251124": "computer-use-2025-11-24"}  # fmt: skip
DEFAULT_TOOL = "computer_20250124"
MAX_SIZE = (1024, 768)  # XGA: Anthropic's recommended computer-use resolution
KEEP_SCREENSHOTS = 3
WAIT_LIMIT = 100  # the reference implementation refuses a longer wait's duration
_DIRECTIONS: tuple[Direction, ...] = ("up", "down", "left", "right")


def xga(device: tuple[int, int]) -> Scale:
    """The device's screenshot scaled to fit XGA, proportions kept."""
    return Scale.fit(device, max_width=MAX_SIZE[0], max_height=MAX_SIZE[1])


class AnthropicComputerUse:
    """Claude's computer tool.

    Args:
        model: Model name, e.g. ``claude-sonnet-4-5``.
        api_key: From ``ANTHROPIC_API_KEY``.
        base_url: Override of the API root (tests point it at a local server).
        options: Tokens, timeout, retries.
        tool: The computer tool version (:data:`TOOL_VERSIONS`).
    """

    def __init__(
        self,
        model: str,
        *,
        api_key: str,
        base_url: str | None = None,
        options: ProviderOptions | None = None,
        tool: str = DEFAULT_TOOL,
    ) -> None:
        if tool not in TOOL_VERSIONS:
            raise ConfigError(f"computer tool {tool!r}: choose one of {', '.join(TOOL_VERSIONS)}")
        self.model = model
        self.name = f"anthropic/{model}"
        self.tool = tool
        self.options = options or ProviderOptions()
        self._secrets = (api_key,)
        self._client = sdk_client(api_key, base_url, self.options.timeout)

    # Screenshots are resized to the scale.
    resize = True

    def scale(self, device: tuple[int, int]) -> Scale:
        return xga(device)

    def session(self, setup: Setup) -> AnthropicSession:
        return AnthropicSession(self, setup)

    def create(self, request: dict[str, Any]) -> Any:
        """One Messages API request with the computer-use beta, retried like every provider."""
        return call_with_retries(
            self.name,
            lambda: _checked(self._client.beta.messages.create(**request)),
            _is_transient,
            self.options.retry,
            secrets=self._secrets,
        )


def _checked(response: Any) -> Any:
    if not response.content:
        raise EmptyReply(f"the reply has no content blocks (stop reason {response.stop_reason})")
    return response


def _is_transient(exc: Exception) -> bool:
    return transient_status(getattr(exc, "status_code", None)) or transient_transport(exc)


class AnthropicSession:
    """One episode's conversation with the computer tool."""

    def __init__(self, interface: AnthropicComputerUse, setup: Setup) -> None:
        self.interface = interface
        self.setup = setup
        self.messages: list[dict[str, Any]] = []
        self._roots = {t.name for t in setup.tools if t.name != SWITCH}

    def send(self, outcomes: Sequence[Outcome], screen: Screen, note: str = "") -> NativeReply:
        self.messages.append(_user_message(outcomes, screen, note))
        _drop_old_screenshots(self.messages, KEEP_SCREENSHOTS)
        width, height = screen.size
        computer = {
            "type": self.interface.tool,
            "name": "computer",
            "display_width_px": width,
            "display_height_px": height,
        }
        request: dict[str, Any] = {
            "model": self.interface.model,
            "max_tokens": self.interface.options.max_tokens,
            "system": self.setup.system,
            "messages": self.messages,
            "tools": [computer, *(t.schema("anthropic") for t in self.setup.tools)],
            "betas": [TOOL_VERSIONS[self.interface.tool]],
        }
        if self.interface.options.temperature is not None:
            request["temperature"] = self.interface.options.temperature
        response = self.interface.create(request)
        blocks = [_block(b) for b in response.content]
        self.messages.append({"role": "assistant", "content": blocks})
        texts = [b["text"] for b in blocks if b["type"] == "text"]
        requests = [self._request(b) for b in blocks if b["type"] == "tool_use"]
        return NativeReply("\n".join(texts), requests, _usage(response))

    def _request(self, block: dict[str, Any]) -> Request:
        call_id, name, raw = block["id"], block["name"], block.get("input")
        if not isinstance(raw, dict):
            return Request(call_id, name, "invalid", error=f"{name}: input must be an object")
        if name == "computer":
            return computer_request(call_id, raw)
        if name == SWITCH:
            return Request(call_id, name, "switch", device=str(raw.get("name", "")), raw=raw)
        if name in self._roots:
            return Request(
                call_id,
                name,
                "action",
                call=ActionCall(env=ROOT, name=name, arguments=raw),
                raw=raw,
            )
        known = ", ".join(["computer", *(t.name for t in self.setup.tools)])
        return Request(call_id, name, "invalid", error=f"unknown tool '{name}' ({known})", raw=raw)


def _block(block: Any) -> dict[str, Any]:
    """A response content block as the request form sent back next turn."""
    if block.type == "text":
        return {"type": "text", "text": block.text}
    if block.type == "tool_use":
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
    dumped: dict[str, Any] = block.model_dump(exclude_none=True)  # thinking blocks
    return dumped


def _user_message(outcomes: Sequence[Outcome], screen: Screen, note: str) -> dict[str, Any]:
    image = {
        "type": "image",
        "source": {
            "type": "base64",
            "media_type": "image/png",
            "data": base64.b64encode(screen.png).decode("ascii"),
        },
    }
    caption = f"Screenshot of '{screen.device}' ({screen.size[0]}x{screen.size[1]})."
    content: list[dict[str, Any]] = []
    for outcome in outcomes:
        content.append(
            {
                "type": "tool_result",
                "tool_use_id": outcome.request.call_id,
                "content": [{"type": "text", "text": outcome.text or "done"}],
                "is_error": not outcome.ok,
            }
        )
    last_ok = next(
        (c for c in reversed(content) if not c["is_error"]),
        None,
    )
    if note:
        content.append({"type": "text", "text": note})
    if last_ok is not None:
        last_ok["content"] += [{"type": "text", "text": caption}, image]
    else:
        content += [{"type": "text", "text": caption}, image]
    return {"role": "user", "content": content}


def _drop_old_screenshots(messages: list[dict[str, Any]], keep: int) -> None:
    seen = 0
    for message in reversed(messages):
        if message["role"] != "user":
            continue
        for block in message["content"]:
            holders = [block] if block["type"] == "image" else []
            if block["type"] == "tool_result":
                holders = [c for c in block["content"] if c["type"] == "image"]
            for image in holders:
                seen += 1
                if seen > keep:
                    image.clear()
                    image.update({"type": "text", "text": "(earlier screenshot omitted)"})


def _usage(response: Any) -> Usage:
    u = response.usage
    read = u.cache_read_input_tokens or 0
    written = u.cache_creation_input_tokens or 0
    return Usage(
        prompt_tokens=(u.input_tokens or 0) + read + written,
        completion_tokens=u.output_tokens or 0,
        cached_tokens=read,
    )


# ------------------------------------------------------------------ the computer tool
def computer_request(call_id: str, raw: dict[str, Any]) -> Request:
    """A ``computer`` tool call as a request (coordinates still in the model's image)."""
    action = str(raw.get("action", ""))

    def bad(reason: str) -> Request:
        return Request(call_id, action or "computer", "invalid", error=reason, raw=raw)

    def pointer(*ops: PointerOp) -> Request:
        return Request(call_id, action, "pointer", ops=ops, raw=raw)

    if action == "screenshot":
        return Request(call_id, action, "look", raw=raw)
    if action == "wait":
        duration = raw.get("duration", 0)
        if isinstance(duration, bool) or not isinstance(duration, int | float):
            return bad("wait's duration must be a number of seconds")
        if not 0 <= duration <= WAIT_LIMIT:
            return bad(f"wait's duration must be 0 to {WAIT_LIMIT} seconds")
        seconds = min(duration, MAX_WAIT_SECONDS)  # longer waits: several steps
        call = ActionCall(env=ROOT, name="wait", arguments={"seconds": seconds})
        return Request(call_id, action, "action", call=call, raw=raw)
    if action == "type":
        return pointer(PointerOp("type", text=str(raw.get("text", ""))))
    if action == "key":
        combos = str(raw.get("text", "")).split()
        if not combos:
            return bad("key needs text, e.g. 'ctrl+s'")
        return pointer(*(PointerOp("key", keys=tuple(c.split("+"))) for c in combos))
    kinds = {
        "left_click": "click",
        "double_click": "double_click",
        "right_click": "right_click",
        "mouse_move": "move",
    }
    if action in kinds:
        if raw.get("text"):
            return bad(f"{action} with held keys is not supported here: use key, then click")
        point = _point(raw.get("coordinate"))
        if point is None:
            return bad(f"{action} needs coordinate [x, y]")
        return pointer(PointerOp(kinds[action], *point))  # type: ignore[arg-type]
    if action == "left_click_drag":
        start, end = _point(raw.get("start_coordinate")), _point(raw.get("coordinate"))
        if start is None or end is None:
            return bad("left_click_drag needs start_coordinate and coordinate")
        return pointer(PointerOp("drag", *start, *end))
    if action == "scroll":
        direction = raw.get("scroll_direction")
        if direction not in _DIRECTIONS:
            return bad("scroll needs scroll_direction: up, down, left or right")
        amount = raw.get("scroll_amount", 3)
        if not isinstance(amount, int) or amount < 1:
            return bad("scroll_amount must be a positive whole number")
        point = _point(raw.get("coordinate"))
        x, y = point if point is not None else (None, None)
        return pointer(PointerOp("scroll", x, y, direction=direction, amount=amount))
    return bad(
        f"the computer action '{action}' is not supported here (supported: screenshot, "
        "left_click, double_click, right_click, mouse_move, left_click_drag, scroll, type, "
        "key, wait)"
    )


def _point(value: Any) -> tuple[int, int] | None:
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    ):
        return round(value[0]), round(value[1])
    return None
