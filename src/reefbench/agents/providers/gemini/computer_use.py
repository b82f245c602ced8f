"""Gemini's computer use through the official ``google-genai`` SDK.

The model gets the ``computer_use`` tool (its predefined functions: ``click_at``,
``type_text_at``, ``scroll_document``, ``key_combination``, ...) plus ``switch_device`` and
the root actions as function declarations. Its coordinates are normalised to 0..999 on both
axes whatever the image's size, so screenshots are sent as they are and the agent maps the
points with :meth:`Scale.normalized <reefbench.environments.pointer.Scale.normalized>`.

Every function call is answered by a ``FunctionResponse`` carrying the current screenshot
(and the page's address as ``url``, as the API expects); a ``safety_decision`` asking for
confirmation is recorded and answered by the run's policy (``safety_acknowledgement``).
Model turns are replayed as received (thought signatures included); screenshots older
than the last :data:`KEEP_SCREENSHOTS` turns are dropped, as Google's reference loop does.
"""

from __future__ import annotations

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
from reefbench.agents.providers.base import SYNTHETIC_ID, ProviderOptions
from reefbench.agents.providers.gemini.client import sdk_client
from reefbench.agents.providers.retry import (
    EmptyReply,
    call_with_retries,
    transient_status,
    transient_transport,
)
from reefbench.environments.pointer import Direction, PointerOp, Scale
from reefbench.environments.root import ROOT
from reefbench.episodes.protocol import Usage

SPAN = 1000  # Gemini answers in 0..999 on both axes
KEEP_SCREENSHOTS = 3
# Predefined functions that only make sense in a web browser: left out on other devices.
BROWSER_ONLY = ("open_web_browser", "search", "navigate", "go_back", "go_forward")
_DIRECTIONS: tuple[Direction, ...] = ("up", "down", "left", "right")


def normalized(device: tuple[int, int]) -> Scale:
    """Gemini's 0..999 coordinates on a device's screenshot."""
    return Scale.normalized(device, SPAN)


class GeminiComputerUse:
    """A Gemini computer-use model.

    Args:
        model: Model name, e.g. ``gemini-2.5-computer-use-preview-10-2025``.
        api_key: From ``GEMINI_API_KEY`` or ``GOOGLE_API_KEY``.
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
        self.name = f"google/{model}"
        self.options = options or ProviderOptions()
        self._secrets = (api_key,)
        self._client, self.types = sdk_client(api_key, base_url, self.options.timeout)

    # Screenshots are sent as they are (the scale is of coordinates only).
    resize = False

    def scale(self, device: tuple[int, int]) -> Scale:
        return normalized(device)

    def session(self, setup: Setup) -> GeminiSession:
        return GeminiSession(self, setup)

    def create(self, contents: list[Any], config: Any) -> Any:
        """One generateContent request, retried like every provider."""
        return call_with_retries(
            self.name,
            lambda: _checked(
                self._client.models.generate_content(
                    model=self.model, contents=contents, config=config
                )
            ),
            _is_transient,
            self.options.retry,
            secrets=self._secrets,
        )


def _checked(response: Any) -> Any:
    candidates = response.candidates or []
    if not candidates or candidates[0].content is None or not candidates[0].content.parts:
        raise EmptyReply("the reply has no candidate with parts")
    return response


def _is_transient(exc: Exception) -> bool:
    code = getattr(exc, "code", None)
    return transient_status(code if isinstance(code, int) else None) or transient_transport(exc)


class GeminiSession:
    """One episode's conversation with Gemini's computer use."""

    def __init__(self, interface: GeminiComputerUse, setup: Setup) -> None:
        self.interface = interface
        self.setup = setup
        self.contents: list[Any] = []
        self._roots = {t.name for t in setup.tools if t.name != SWITCH}
        types = interface.types
        self._declarations = [
            types.FunctionDeclaration.model_validate(t.schema("gemini")) for t in setup.tools
        ]

    def send(self, outcomes: Sequence[Outcome], screen: Screen, note: str = "") -> NativeReply:
        types = self.interface.types
        self.contents.append(self._user(outcomes, screen, note))
        _drop_old_screenshots(self.contents, KEEP_SCREENSHOTS)
        excluded = [] if screen.kind == "browser" else list(BROWSER_ONLY)
        computer = types.ComputerUse(
            environment=types.Environment.ENVIRONMENT_BROWSER,
            excluded_predefined_functions=excluded or None,
        )
        config = types.GenerateContentConfig(
            system_instruction=self.setup.system,
            max_output_tokens=self.interface.options.max_tokens,
            temperature=self.interface.options.temperature,
            tools=[
                types.Tool(computer_use=computer),
                types.Tool(function_declarations=self._declarations),
            ],
            # The agent answers every call itself; the SDK must not try to.
            automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
        )
        response = self.interface.create(self.contents, config)
        content = response.candidates[0].content
        self.contents.append(content)
        texts: list[str] = []
        requests: list[Request] = []
        for index, part in enumerate(content.parts):
            if part.function_call is not None:
                fc = part.function_call
                call_id = fc.id or f"{SYNTHETIC_ID}{index}"
                requests.append(self._request(call_id, fc.name or "", fc.args, screen))
            elif part.text and not part.thought:
                texts.append(part.text)
        return NativeReply("\n".join(texts), requests, _usage(response))

    def _user(self, outcomes: Sequence[Outcome], screen: Screen, note: str) -> Any:
        types = self.interface.types
        caption = f"Screenshot of '{screen.device}'."
        parts: list[Any] = []
        shot = types.FunctionResponsePart(
            inline_data=types.FunctionResponseBlob(mime_type="image/png", data=screen.png)
        )
        attached = False
        for outcome in outcomes:
            request = outcome.request
            response: dict[str, Any] = {"url": screen.device}
            if request.kind in ("pointer", "look") or request.name in COMPUTER_FUNCTIONS:
                response["url"] = _url(screen)
            response["output" if outcome.ok else "error"] = outcome.text or "done"
            if outcome.acknowledged:
                response["safety_acknowledgement"] = "true"
            # Every function response carries the screenshot after the reply's actions.
            attached = True
            parts.append(
                types.Part(
                    function_response=types.FunctionResponse(
                        id=None if request.call_id.startswith(SYNTHETIC_ID) else request.call_id,
                        name=request.name,
                        response=response,
                        parts=[shot],
                    )
                )
            )
        if note:
            parts.append(types.Part(text=note))
        if not attached:
            parts += [
                types.Part(text=caption),
                types.Part(inline_data=types.Blob(mime_type="image/png", data=screen.png)),
            ]
        return types.Content(role="user", parts=parts)

    def _request(self, call_id: str, name: str, args: Any, screen: Screen) -> Request:
        if args is not None and not isinstance(args, dict):
            return Request(call_id, name, "invalid", error=f"{name}: args must be an object")
        raw = dict(args or {})
        checks = _checks(call_id, raw.pop("safety_decision", None))
        if name == SWITCH:
            return Request(call_id, name, "switch", device=str(raw.get("name", "")), raw=raw)
        if name in self._roots:
            call = ActionCall(env=ROOT, name=name, arguments=raw)
            return Request(call_id, name, "action", call=call, raw=raw)
        request = computer_request(call_id, name, raw)
        if request.name == "unknown":
            known = ", ".join([*COMPUTER_FUNCTIONS, *(t.name for t in self.setup.tools)])
            error = f"unknown function '{name}' ({known})"
            return Request(call_id, name, "invalid", error=error, raw=raw)
        return Request(
            request.call_id,
            name,
            request.kind,
            ops=request.ops,
            call=request.call,
            error=request.error,
            checks=checks,
            raw=raw,
        )


def _url(screen: Screen) -> str:
    return f"reef://{screen.device}"


def _checks(call_id: str, decision: Any) -> tuple[SafetyCheck, ...]:
    if not isinstance(decision, dict) or decision.get("decision") != "require_confirmation":
        return ()
    return (SafetyCheck(call_id, "require_confirmation", str(decision.get("explanation", ""))),)


def _drop_old_screenshots(contents: list[Any], keep: int) -> None:
    seen = 0
    for content in reversed(contents):
        if content.role != "user":
            continue
        had = False
        for part in content.parts or []:
            fr = part.function_response
            if fr is not None and fr.parts:
                if seen >= keep:
                    fr.parts = None
                had = True
            if part.inline_data is not None and seen >= keep:
                part.inline_data = None
                part.text = "(earlier screenshot omitted)"
                had = True
        seen += had


def _usage(response: Any) -> Usage:
    meta = response.usage_metadata
    if meta is None:
        return Usage()
    return Usage(
        prompt_tokens=(meta.prompt_token_count or 0) + (meta.tool_use_prompt_token_count or 0),
        completion_tokens=(meta.candidates_token_count or 0) + (meta.thoughts_token_count or 0),
        cached_tokens=meta.cached_content_token_count or 0,
    )


# ------------------------------------------------------------------ predefined functions
COMPUTER_FUNCTIONS = (
    "open_web_browser", "wait_5_seconds", "go_back", "go_forward", "search", "navigate",
    "click_at", "hover_at", "type_text_at", "key_combination", "scroll_document",
    "scroll_at", "drag_and_drop",
)  # fmt: skip


def computer_request(call_id: str, name: str, args: dict[str, Any]) -> Request:
    """A predefined computer-use function call as a request (0..999 coordinates)."""

    def bad(reason: str) -> Request:
        return Request(call_id, name, "invalid", error=reason, raw=args)

    def pointer(*ops: PointerOp) -> Request:
        return Request(call_id, name, "pointer", ops=ops, raw=args)

    def point(x: str = "x", y: str = "y") -> tuple[int, int] | None:
        vx, vy = args.get(x), args.get(y)
        if all(isinstance(v, int | float) and not isinstance(v, bool) for v in (vx, vy)):
            return round(vx), round(vy)  # type: ignore[arg-type]
        return None

    if name == "open_web_browser":
        return Request(call_id, name, "look", raw=args)
    if name == "wait_5_seconds":
        call = ActionCall(env=ROOT, name="wait", arguments={"seconds": 5})
        return Request(call_id, name, "action", call=call, raw=args)
    if name == "navigate":
        url = args.get("url")
        if not isinstance(url, str) or not url:
            return bad("navigate needs url")
        return Request(
            call_id, name, "action", call=ActionCall(env="", name="goto", arguments={"url": url}),
            raw=args,
        )  # fmt: skip
    if name in ("go_back", "go_forward"):
        key = "left" if name == "go_back" else "right"
        return pointer(PointerOp("key", keys=("alt", key)))
    if name == "search":
        return bad("search is not available: the devices have no internet; use navigate")
    if name in ("click_at", "hover_at"):
        at = point()
        if at is None:
            return bad(f"{name} needs x and y")
        return pointer(PointerOp("click" if name == "click_at" else "move", *at))
    if name == "type_text_at":
        at = point()
        text = args.get("text")
        if at is None or not isinstance(text, str):
            return bad("type_text_at needs x, y and text")
        ops = [PointerOp("click", *at)]
        if args.get("clear_before_typing", True):
            ops.append(PointerOp("clear"))
        ops.append(PointerOp("type", text=text))
        if args.get("press_enter", True):
            ops.append(PointerOp("key", keys=("enter",)))
        return pointer(*ops)
    if name == "key_combination":
        keys = args.get("keys")
        if not isinstance(keys, str) or not keys:
            return bad("key_combination needs keys, e.g. 'control+s'")
        return pointer(PointerOp("key", keys=tuple(keys.split("+"))))
    if name in ("scroll_document", "scroll_at"):
        direction = args.get("direction")
        if direction not in _DIRECTIONS:
            return bad(f"{name} needs direction: up, down, left or right")
        at = point() if name == "scroll_at" else (SPAN // 2, SPAN // 2)
        if at is None:
            return bad("scroll_at needs x and y")
        magnitude = args.get("magnitude", 800)
        amount = max(1, round(magnitude / 200)) if isinstance(magnitude, int | float) else 4
        return pointer(PointerOp("scroll", *at, direction=direction, amount=amount))
    if name == "drag_and_drop":
        start, end = point(), point("destination_x", "destination_y")
        if start is None or end is None:
            return bad("drag_and_drop needs x, y, destination_x and destination_y")
        return pointer(PointerOp("drag", *start, *end))
    return Request(call_id, "unknown", "invalid", error=f"unknown function '{name}'", raw=args)
