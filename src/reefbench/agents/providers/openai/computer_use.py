"""OpenAI's computer-use tool in the Responses API, through the official ``openai`` SDK.

The model gets the ``computer_use_preview`` tool (display size of the current device's
scaled screenshot; environment ``linux`` for the desktop, ``browser`` for the browser and
the phone) plus ``switch_device`` and the root actions as function tools. It answers with
``computer_call`` items; each is answered by a ``computer_call_output`` carrying a
screenshot. Its ``pending_safety_checks`` are recorded in the trajectory and answered by the
run's policy: acknowledged (sent back as ``acknowledged_safety_checks``) or refused.

Requests chain with ``previous_response_id`` (the server keeps the conversation, as the
Responses API expects for computer use) and ``truncation="auto"``, which the tool requires.
Screenshots are scaled to fit 1024x768, the display size OpenAI's guide uses.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from typing import Any

from reefbench.actions.spec import ActionCall
from reefbench.agents.computer_use.base import (
    SWITCH,
    NativeReply,
    Outcome,
    Request,
    SafetyCheck,
    Setup,
)
from reefbench.agents.computer_use.displays import Screen
from reefbench.agents.providers.base import ProviderOptions
from reefbench.agents.providers.openai.client import sdk_client
from reefbench.agents.providers.retry import (
    EmptyReply,
    call_with_retries,
    transient_status,
    transient_transport,
)
from reefbench.environments.pointer import Direction, PointerKind, PointerOp, Scale
from reefbench.environments.root import ROOT
from reefbench.episodes.protocol import Usage

MAX_SIZE = (1024, 768)
ENVIRONMENTS: dict[PointerKind, str] = {
    "desktop": "linux",
    "browser": "browser",
    "touch": "browser",
}
WAIT_SECONDS = 2  # OpenAI's computer-use guide handles "wait" by waiting 2 s
SCROLL_STEP = 100  # pixels of scroll_x/scroll_y per wheel step


def fit(device: tuple[int, int]) -> Scale:
    """The device's screenshot scaled to fit 1024x768, proportions kept."""
    return Scale.fit(device, max_width=MAX_SIZE[0], max_height=MAX_SIZE[1])


class OpenAIComputerUse:
    """OpenAI's computer-use model (``computer-use-preview``).

    Args:
        model: Model name, e.g. ``computer-use-preview``.
        api_key: From ``OPENAI_API_KEY``.
        base_url: Override of the API root (tests point it at a local server).
        options: Tokens, timeout, retries.
    """

    def __init__(
        self,
        model: str,
        *,
        api_key: str,
        base_url: str | None = None,
        options: ProviderOptions | None = None,
    ) -> None:
        self.model = model
        self.name = f"openai/{model}"
        self.options = options or ProviderOptions()
        self._secrets = (api_key,)
        self._client = sdk_client(api_key, base_url, self.options.timeout)

    # Screenshots are resized to the scale.
    resize = True

    def scale(self, device: tuple[int, int]) -> Scale:
        return fit(device)

    def session(self, setup: Setup) -> OpenAISession:
        return OpenAISession(self, setup)

    def create(self, request: dict[str, Any]) -> Any:
        """One Responses API request, retried like every provider."""
        return call_with_retries(
            self.name,
            lambda: _checked(self._client.responses.create(**request)),
            _is_transient,
            self.options.retry,
            secrets=self._secrets,
        )


def _checked(response: Any) -> Any:
    if not response.output:
        raise EmptyReply(f"the response has no output items (status {response.status})")
    return response


def _is_transient(exc: Exception) -> bool:
    return transient_status(getattr(exc, "status_code", None)) or transient_transport(exc)


def _image_url(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


class OpenAISession:
    """One episode's chain of responses."""

    def __init__(self, interface: OpenAIComputerUse, setup: Setup) -> None:
        self.interface = interface
        self.setup = setup
        self.previous: str | None = None
        self._roots = {t.name for t in setup.tools if t.name != SWITCH}
        self._functions = [_function(t.schema("openai")) for t in setup.tools]

    def send(self, outcomes: Sequence[Outcome], screen: Screen, note: str = "") -> NativeReply:
        width, height = screen.size
        computer = {
            "type": "computer_use_preview",
            "display_width": width,
            "display_height": height,
            "environment": ENVIRONMENTS[screen.kind],
        }
        request: dict[str, Any] = {
            "model": self.interface.model,
            "instructions": self.setup.system,
            "tools": [computer, *self._functions],
            "input": self._input(outcomes, screen, note),
            "truncation": "auto",
            "max_output_tokens": self.interface.options.max_tokens,
        }
        if self.previous is not None:
            request["previous_response_id"] = self.previous
        if self.interface.options.temperature is not None:
            request["temperature"] = self.interface.options.temperature
        response = self.interface.create(request)
        self.previous = response.id
        texts: list[str] = []
        requests: list[Request] = []
        for item in response.output:
            if item.type == "message":
                texts += [c.text for c in item.content if getattr(c, "type", "") == "output_text"]
            elif item.type == "computer_call":
                requests.append(computer_request(item))
            elif item.type == "function_call":
                requests.append(self._function_request(item))
        return NativeReply("\n".join(texts), requests, _usage(response))

    def _input(self, outcomes: Sequence[Outcome], screen: Screen, note: str) -> list[Any]:
        image = _image_url(screen.png)
        caption = f"Screenshot of '{screen.device}' ({screen.size[0]}x{screen.size[1]})."
        items: list[Any] = []
        notes = [note] if note else []
        screenshot_sent = False
        for outcome in outcomes:
            request = outcome.request
            if isinstance(request.raw, dict) and request.raw.get("_tool") == "computer":
                item: dict[str, Any] = {
                    "type": "computer_call_output",
                    "call_id": request.call_id,
                    "output": {"type": "computer_screenshot", "image_url": image},
                }
                if outcome.acknowledged:
                    item["acknowledged_safety_checks"] = [
                        {"id": c.id, "code": c.code, "message": c.message}
                        for c in outcome.acknowledged
                    ]
                items.append(item)
                screenshot_sent = True
                if not outcome.ok:
                    notes.append(f"Your {request.name} action failed: {outcome.text}")
            else:
                text = outcome.text if outcome.ok else f"error: {outcome.text}"
                items.append(
                    {"type": "function_call_output", "call_id": request.call_id, "output": text}
                )
        if not outcomes:
            notes.insert(0, f"Task: see the instructions. {caption}" if self.previous is None
                         else caption)  # fmt: skip
        content: list[dict[str, Any]] = [{"type": "input_text", "text": n} for n in notes]
        if not screenshot_sent:
            if outcomes:
                content.append({"type": "input_text", "text": caption})
            content.append({"type": "input_image", "image_url": image, "detail": "auto"})
        if content:
            items.append({"role": "user", "content": content})
        return items

    def _function_request(self, item: Any) -> Request:
        name, call_id = item.name, item.call_id
        try:
            arguments = json.loads(item.arguments or "{}")
        except json.JSONDecodeError as exc:
            return Request(
                call_id, name, "invalid", error=f"{name}: arguments are not JSON ({exc})"
            )
        if not isinstance(arguments, dict):
            return Request(call_id, name, "invalid", error=f"{name}: arguments must be an object")
        if name == SWITCH:
            device = str(arguments.get("name", ""))
            return Request(call_id, name, "switch", device=device, raw=arguments)
        if name in self._roots:
            call = ActionCall(env=ROOT, name=name, arguments=arguments)
            return Request(call_id, name, "action", call=call, raw=arguments)
        known = ", ".join(["computer_use_preview", *(t.name for t in self.setup.tools)])
        return Request(
            call_id, name, "invalid", error=f"unknown tool '{name}' ({known})", raw=arguments
        )


def _function(schema: dict[str, Any]) -> dict[str, Any]:
    """A Chat Completions tool definition in the Responses API's flat form."""
    function = schema["function"]
    return {
        "type": "function",
        "name": function["name"],
        "description": function.get("description", ""),
        "parameters": function.get("parameters", {"type": "object", "properties": {}}),
        "strict": False,
    }


def _usage(response: Any) -> Usage:
    u = response.usage
    if u is None:
        return Usage()
    details = getattr(u, "input_tokens_details", None)
    return Usage(
        prompt_tokens=u.input_tokens or 0,
        completion_tokens=u.output_tokens or 0,
        cached_tokens=(getattr(details, "cached_tokens", 0) or 0) if details else 0,
    )


# ------------------------------------------------------------------ computer calls
def computer_request(item: Any) -> Request:
    """A ``computer_call`` item as a request, its pending safety checks attached."""
    checks = tuple(
        SafetyCheck(c.id, c.code or "", c.message or "") for c in item.pending_safety_checks or []
    )
    actions = [item.action] if item.action is not None else list(item.actions or [])
    raw: dict[str, Any] = {"_tool": "computer", "actions": [a.model_dump() for a in actions]}
    if not actions:
        return Request(item.call_id, "computer_call", "invalid", error="no action", raw=raw)
    kind = actions[0].type
    if len(actions) == 1 and kind in ("screenshot", "wait"):
        if kind == "screenshot":
            return Request(item.call_id, kind, "look", checks=checks, raw=raw)
        call = ActionCall(env=ROOT, name="wait", arguments={"seconds": WAIT_SECONDS})
        return Request(item.call_id, kind, "action", call=call, checks=checks, raw=raw)
    ops: list[PointerOp] = []
    for action in actions:
        op = _op(action)
        if isinstance(op, str):
            return Request(item.call_id, action.type, "invalid", error=op, checks=checks, raw=raw)
        ops.append(op)
    name = "+".join(a.type for a in actions)
    return Request(item.call_id, name, "pointer", ops=tuple(ops), checks=checks, raw=raw)


def _op(action: Any) -> PointerOp | str:
    kind = action.type
    if getattr(action, "keys", None) and kind != "keypress":
        return f"{kind} with held keys is not supported here: press the keys, then {kind}"
    if kind == "click":
        buttons = {"left": "click", "right": "right_click"}
        if action.button not in buttons:
            return f"click with the {action.button} button is not supported (left or right)"
        return PointerOp(buttons[action.button], action.x, action.y)  # type: ignore[arg-type]
    if kind == "double_click":
        return PointerOp("double_click", action.x, action.y)
    if kind == "move":
        return PointerOp("move", action.x, action.y)
    if kind == "drag":
        path = action.path
        if len(path) < 2:
            return "drag needs a path of at least two points"
        return PointerOp("drag", path[0].x, path[0].y, path[-1].x, path[-1].y)
    if kind == "keypress":
        if not action.keys:
            return "keypress needs keys"
        return PointerOp("key", keys=tuple(action.keys))
    if kind == "type":
        return PointerOp("type", text=action.text)
    if kind == "scroll":
        dx, dy = action.scroll_x, action.scroll_y
        if dx == 0 and dy == 0:
            return "scroll needs a non-zero scroll_x or scroll_y"
        direction: Direction
        if abs(dy) >= abs(dx):
            direction, distance = ("down" if dy > 0 else "up"), abs(dy)
        else:
            direction, distance = ("right" if dx > 0 else "left"), abs(dx)
        amount = max(1, round(distance / SCROLL_STEP))
        return PointerOp("scroll", action.x, action.y, direction=direction, amount=amount)
    return f"the computer action '{kind}' cannot be combined with others"
