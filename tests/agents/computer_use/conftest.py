"""Local stand-ins for the three computer-use APIs: HTTP servers on 127.0.0.1 speaking the
Anthropic Messages beta (``/v1/messages?beta=true``), the OpenAI Responses API
(``/v1/responses``) and Gemini's generateContent, each checking the key like the real API.

A test's *brain* plays the model: it reads the request (the screenshot the agent sent) and
answers in the provider's own vocabulary through a :class:`Speaker` (``click``, ``type``,
``function`` ...), which the server renders in that wire format. A brain that finds its
target in the image it was sent and clicks there checks the whole path: scaling for the
model, the native call, the mapping back, and the device action.
"""

from __future__ import annotations

import base64
import io
import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from reefbench.agents.providers import ProviderOptions, RetryPolicy

from .wire_rules import Refused, Rules, error_body

FAKE_KEY = "sk-fake-cu-7d1e2a-reefbench-secret"
FAST_RETRY = RetryPolicy(attempts=2, base=0.001, cap=0.01)
WIRES = ("anthropic", "openai", "google")
MODELS = {
    "anthropic": "claude-test-model",
    "openai": "computer-use-preview",
    "google": "gemini-2.5-computer-use-preview-10-2025",
}
ENVIRON = {"OPENAI_API_KEY": FAKE_KEY, "ANTHROPIC_API_KEY": FAKE_KEY, "GEMINI_API_KEY": FAKE_KEY}


# ------------------------------------------------------------------ what the model says
@dataclass
class Said:
    """One native call in a provider-neutral form the speaker renders."""

    kind: str  # click, double_click, type, key, scroll, drag, screenshot, function, text
    x: int = 0
    y: int = 0
    to_x: int = 0
    to_y: int = 0
    text: str = ""
    name: str = ""
    args: dict[str, Any] = field(default_factory=dict)
    safety: tuple[str, str] | None = None  # (code, message) of a pending check


Brain = Callable[["Request"], list[Said]]


@dataclass
class Request:
    """A request the server received, with helpers to read what the agent sent."""

    wire: str
    path: str
    headers: dict[str, str]
    body: Any

    def images(self) -> list[bytes]:
        """Every PNG in the request, in order (the last is the current screenshot)."""
        found: list[bytes] = []
        _collect_images(self.body, found)
        return found

    def screenshot(self) -> bytes:
        images = self.images()
        assert images, "the request carries no screenshot"
        return images[-1]

    def texts(self) -> str:
        out: list[str] = []
        _collect_texts(self.body, out)
        return "\n".join(out)


def _collect_images(node: Any, found: list[bytes]) -> None:
    if isinstance(node, dict):
        data = None
        if node.get("type") == "base64" and "data" in node:
            data = base64.b64decode(node["data"])
        elif isinstance(node.get("image_url"), str) and node["image_url"].startswith("data:"):
            data = base64.b64decode(node["image_url"].split(",", 1)[1])
        elif "inlineData" in node or "inline_data" in node:
            blob = node.get("inlineData") or node.get("inline_data")
            data = base64.urlsafe_b64decode(blob["data"])
        if data is not None:
            found.append(data)
            return
        for value in node.values():
            _collect_images(value, found)
    elif isinstance(node, list):
        for value in node:
            _collect_images(value, found)


def _collect_texts(node: Any, out: list[str]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("text", "output", "instructions", "system") and isinstance(value, str):
                out.append(value)
            else:
                _collect_texts(value, out)
    elif isinstance(node, list):
        for value in node:
            _collect_texts(value, out)


# ------------------------------------------------------------------ wire renderings
def _png_size(png: bytes) -> tuple[int, int]:
    import struct

    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)


def render_anthropic(said: list[Said], n: int, request: Request) -> Any:
    content: list[dict[str, Any]] = []
    for i, s in enumerate(said):
        call_id = f"toolu_{n}_{i}"
        if s.kind == "text":
            content.append({"type": "text", "text": s.text})
            continue
        if s.kind == "function":
            content.append({"type": "tool_use", "id": call_id, "name": s.name, "input": s.args})
            continue
        actions: dict[str, dict[str, Any]] = {
            "click": {"action": "left_click", "coordinate": [s.x, s.y]},
            "double_click": {"action": "double_click", "coordinate": [s.x, s.y]},
            "type": {"action": "type", "text": s.text},
            "key": {"action": "key", "text": s.text},
            "screenshot": {"action": "screenshot"},
            "drag": {
                "action": "left_click_drag",
                "start_coordinate": [s.x, s.y],
                "coordinate": [s.to_x, s.to_y],
            },
            "scroll": {
                "action": "scroll",
                "coordinate": [s.x, s.y],
                "scroll_direction": s.text or "down",
                "scroll_amount": 3,
            },
        }
        content.append(
            {"type": "tool_use", "id": call_id, "name": "computer", "input": actions[s.kind]}
        )
    return {
        "id": f"msg_{n}",
        "type": "message",
        "role": "assistant",
        "model": "fake",
        "content": content,
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {
            "input_tokens": 100,
            "output_tokens": 7,
            "cache_read_input_tokens": 0,
            "cache_creation_input_tokens": 0,
        },
    }


def render_openai(said: list[Said], n: int, request: Request) -> Any:
    output: list[dict[str, Any]] = []
    for i, s in enumerate(said):
        call_id = f"call_{n}_{i}"
        if s.kind == "text":
            output.append(
                {
                    "type": "message",
                    "id": f"msg_{n}_{i}",
                    "role": "assistant",
                    "status": "completed",
                    "content": [{"type": "output_text", "text": s.text, "annotations": []}],
                }
            )
            continue
        if s.kind == "function":
            output.append(
                {
                    "type": "function_call",
                    "id": f"fc_{n}_{i}",
                    "call_id": call_id,
                    "name": s.name,
                    "arguments": json.dumps(s.args),
                    "status": "completed",
                }
            )
            continue
        actions: dict[str, dict[str, Any]] = {
            "click": {"type": "click", "button": "left", "x": s.x, "y": s.y},
            "double_click": {"type": "double_click", "x": s.x, "y": s.y},
            "type": {"type": "type", "text": s.text},
            "key": {"type": "keypress", "keys": s.text.split("+")},
            "screenshot": {"type": "screenshot"},
            "drag": {"type": "drag", "path": [{"x": s.x, "y": s.y}, {"x": s.to_x, "y": s.to_y}]},
            "scroll": {"type": "scroll", "x": s.x, "y": s.y, "scroll_x": 0, "scroll_y": 300},
        }
        checks = []
        if s.safety is not None:
            checks = [{"id": f"cu_sc_{n}_{i}", "code": s.safety[0], "message": s.safety[1]}]
        output.append(
            {
                "type": "computer_call",
                "id": f"cu_{n}_{i}",
                "call_id": call_id,
                "action": actions[s.kind],
                "pending_safety_checks": checks,
                "status": "completed",
            }
        )
    return {
        "id": f"resp_{n}",
        "object": "response",
        "created_at": 1,
        "status": "completed",
        "model": "fake",
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "usage": {
            "input_tokens": 100,
            "output_tokens": 7,
            "total_tokens": 107,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens_details": {"reasoning_tokens": 0},
        },
    }


def render_gemini(said: list[Said], n: int, request: Request) -> Any:
    def norm(x: int, y: int) -> dict[str, int]:
        # The model answers in 0..999 whatever the image's size.
        width, height = _png_size(request.screenshot())
        return {"x": x * 1000 // width, "y": y * 1000 // height}

    parts: list[dict[str, Any]] = []
    for i, s in enumerate(said):
        if s.kind == "text":
            parts.append({"text": s.text})
            continue
        if s.kind == "function":
            name, args = s.name, dict(s.args)
        elif s.kind in ("click", "double_click"):
            name, args = "click_at", norm(s.x, s.y)
        elif s.kind == "type":
            name, args = "type_text_at", {**norm(s.x, s.y), "text": s.text, "press_enter": False}
        elif s.kind == "key":
            name, args = "key_combination", {"keys": s.text}
        elif s.kind == "drag":
            end = norm(s.to_x, s.to_y)
            name = "drag_and_drop"
            args = {**norm(s.x, s.y), "destination_x": end["x"], "destination_y": end["y"]}
        elif s.kind == "scroll":
            name, args = "scroll_at", {**norm(s.x, s.y), "direction": s.text or "down"}
        else:
            name, args = "open_web_browser", {}
        if s.safety is not None:
            args["safety_decision"] = {
                "decision": "require_confirmation",
                "explanation": s.safety[1],
            }
        parts.append({"functionCall": {"id": f"fc_{n}_{i}", "name": name, "args": args}})
    return {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}],
        "usageMetadata": {
            "promptTokenCount": 100,
            "candidatesTokenCount": 7,
            "totalTokenCount": 107,
        },
        "modelVersion": "fake",
    }


RENDER = {"anthropic": render_anthropic, "openai": render_openai, "google": render_gemini}
PATHS = {
    "anthropic": "/v1/messages",
    "openai": "/v1/responses",
    "google": "/v1beta/models/{model}:generateContent",
}


def _authorised(wire: str, headers: dict[str, str]) -> bool:
    if wire == "openai":
        return headers.get("authorization") == f"Bearer {FAKE_KEY}"
    if wire == "anthropic":
        return FAKE_KEY in (headers.get("x-api-key"), headers.get("authorization", "")[7:])
    return headers.get("x-goog-api-key") == FAKE_KEY


class WireServer:
    """A threaded HTTP server that answers each request with its brain's next calls, and
    refuses what the real API refuses (:mod:`.wire_rules`): each refusal is kept in
    ``refused`` so a test can say why its episode broke."""

    def __init__(self, wire: str) -> None:
        self.wire = wire
        self.brain: Brain | None = None
        self.requests: list[Request] = []
        self.refused: list[str] = []
        self.rules = Rules(wire)
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length", 0)))
                headers = {k.lower(): v for k, v in self.headers.items()}
                request = Request(server.wire, self.path, headers, json.loads(raw or b"null"))
                status, payload = server.answer(request)
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self.thread.start()

    @property
    def base_url(self) -> str:
        return {
            "anthropic": f"http://127.0.0.1:{self.port}",
            "openai": f"http://127.0.0.1:{self.port}/v1",
            "google": f"http://127.0.0.1:{self.port}/",
        }[self.wire]

    def answer(self, request: Request) -> tuple[int, Any]:
        if not _authorised(self.wire, request.headers):
            return 401, {"error": {"message": "invalid key", "type": "authentication_error"}}
        expected = PATHS[self.wire].format(model=MODELS[self.wire])
        if request.path.split("?")[0] != expected:
            return 404, {"error": {"message": f"no route {request.path}"}}
        refusal = self.refusal(request)
        if refusal is not None:
            return refusal
        self.requests.append(request)
        if self.brain is None:
            return 500, {"error": {"message": "no brain"}}
        said = self.brain(request)
        return 200, self.remembered(RENDER[self.wire](said, len(self.requests), request))

    def refusal(self, request: Request) -> tuple[int, Any] | None:
        """The real API's 400 for a request it would refuse, or ``None``."""
        try:
            self.rules.check(request.body, request.headers)
        except Refused as exc:
            self.refused.append(f"request {len(self.requests) + 1}: {exc.message}")
            return 400, error_body(self.wire, exc)
        return None

    def remembered(self, payload: Any) -> Any:
        """``payload``, after keeping what the service remembers of it."""
        self.rules.remember(payload)
        return payload

    def agent(self, **options: Any) -> Any:
        """A native computer-use agent of this wire's provider pointed at this server."""
        from reefbench.agents.computer_use import ComputerUseAgent
        from reefbench.agents.providers.registry import make_native

        safety = options.pop("safety", "acknowledge")
        interface = make_native(
            f"{self.wire}/{MODELS[self.wire]}",
            ProviderOptions(retry=FAST_RETRY, timeout=30),
            base_url=self.base_url,
            environ=ENVIRON,
            settings=options,
        )
        return ComputerUseAgent(interface, safety=safety)

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(5)


@pytest.fixture(params=WIRES)
def server(request: pytest.FixtureRequest) -> Iterator[WireServer]:
    made = WireServer(request.param)
    try:
        yield made
    finally:
        made.close()


# ------------------------------------------------------------------ finding things
TARGET = (255, 0, 255)  # the colour of the element a brain looks for


def find_colour(png: bytes, colour: tuple[int, int, int] = TARGET) -> tuple[int, int] | None:
    """The centre of the pixels of ``colour`` (give or take resampling) in an image."""
    import numpy as np
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        rgb = np.asarray(image.convert("RGB"), dtype=np.int16)
    close = (np.abs(rgb - np.array(colour, dtype=np.int16)) < 40).all(axis=2)
    ys, xs = np.nonzero(close)
    if len(xs) == 0:
        return None
    return (int(xs.min()) + int(xs.max())) // 2, (int(ys.min()) + int(ys.max())) // 2
